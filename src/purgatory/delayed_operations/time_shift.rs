//! What the simulation's idle fast-forward asks of a purgatory: its waiting timeouts and its
//! timer written out relative to a time, and the whole purgatory moved later in time.

use std::hash::Hash;

use super::Purgatory;

impl<K: Ord + Hash + Clone, O> Purgatory<K, O> {
    /// Each operation waiting on the timer: its timeout's expiration and order, and the
    /// operation, in (expiration, order) order.
    pub fn timeouts(&self) -> Vec<(u64, u64, &O)> {
        let mut waiting: Vec<_> = self.held.timed_iter().collect();
        waiting.sort_by_key(|w| (w.0, w.1));
        waiting
    }

    /// The timer's wheels relative to `origin_ms` (see [`Wheels::relative_shape`]).
    pub fn relative_timer_shape(&self, origin_ms: u64, out: &mut Vec<u64>) {
        self.timer.relative_shape(&self.held, origin_ms, out);
    }

    /// The timer's finest clock (see [`Wheels::current_time_ms`]).
    pub fn timer_current_time_ms(&self) -> u64 {
        self.timer.current_time_ms()
    }

    /// See [`Wheels::interval_in_use_ms`].
    pub fn timer_interval_in_use_ms(&self) -> u128 {
        self.timer.interval_in_use_ms()
    }

    /// See [`Wheels::forget_placed_levels`].
    pub fn timer_forget_placed_levels(&mut self) {
        self.timer.forget_placed_levels();
    }

    /// Moves the purgatory's clock-bound state `delta_ms` later, between two milliseconds: the
    /// timer ([`Wheels::shift_by`]: `delta_ms` a multiple of its interval in use), the reaper's
    /// last step, and each waiting operation through `delay_op`. Watch lists, counts and the
    /// completed operations stay as they are. For the simulation's idle fast-forward, which
    /// moves a purgatory whose operations come and go the same way period after period.
    pub fn shift_by(&mut self, delta_ms: u64, mut delay_op: impl FnMut(&mut O)) {
        assert!(self.due.is_empty(), "shifted between milliseconds only");
        self.timer.shift_by(&mut self.held, delta_ms);
        self.last_reaper_step_ms += delta_ms;
        self.woken_ms = None;
        for op in self.held.timed_ops_mut() {
            delay_op(op);
        }
    }
}
