//! The purgatory on a toy operation: "complete once the shared level reaches my target".

use super::*;

#[derive(Debug)]
struct Op {
    target: u64,
}

#[derive(Default)]
struct Level {
    level: u64,
    completed: Vec<(OpId, Completion)>,
    expired: Vec<OpId>,
    tries: usize,
}

impl Hooks<Op> for Level {
    fn try_complete(&mut self, _id: OpId, op: &mut Op) -> bool {
        self.tries += 1;
        self.level >= op.target
    }
    fn on_complete(&mut self, id: OpId, _op: &mut Op, how: Completion) {
        assert!(
            !self.completed.iter().any(|(c, _)| *c == id),
            "completed twice"
        );
        self.completed.push((id, how));
    }
    fn on_expiration(&mut self, id: OpId, _op: &mut Op) {
        assert_eq!(
            self.completed.last().map(|c| c.0),
            Some(id),
            "onComplete runs before onExpiration"
        );
        self.expired.push(id);
    }
}

#[test]
fn an_op_done_on_the_first_try_is_never_watched_nor_timed() {
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 1000, 0);
    let mut h = Level {
        level: 5,
        ..Default::default()
    };
    let (_, watched) = p.try_complete_else_watch(Op { target: 5 }, &[1], 0, 100, &mut h);
    assert_eq!(watched, Watched::CompletedOnFirstTry);
    assert_eq!(
        (
            p.purgatory_size(),
            p.num_delayed_operations(),
            p.estimated_total_operations()
        ),
        (0, 0, 0)
    );
}

#[test]
fn waiting_ops_complete_in_fifo_order_and_leave_their_other_keys_as_garbage() {
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 1000, 0);
    let mut h = Level::default();
    let (a, _) = p.try_complete_else_watch(Op { target: 2 }, &[1, 2], 0, 100, &mut h);
    let (b, _) = p.try_complete_else_watch(Op { target: 1 }, &[1], 0, 100, &mut h);
    assert_eq!(
        (
            p.purgatory_size(),
            p.num_delayed_operations(),
            p.estimated_total_operations()
        ),
        (3, 2, 2)
    );
    h.level = 2;
    assert_eq!(p.check_and_complete(&1, &mut h), 2);
    assert_eq!(
        h.completed,
        vec![
            (a, Completion::CheckAndComplete),
            (b, Completion::CheckAndComplete)
        ]
    );
    // `a` still sits on key 2's list, completed: counted by PurgatorySize, not by the timer.
    assert_eq!((p.purgatory_size(), p.num_delayed_operations()), (1, 0));
    assert_eq!(p.is_completed(a), Some(true));
    // A later check on key 2 drops it lazily without trying it again.
    let tries = h.tries;
    assert_eq!(p.check_and_complete(&2, &mut h), 0);
    assert_eq!(
        (h.tries, p.purgatory_size(), p.get(a).is_some()),
        (tries, 0, false)
    );
}

#[test]
fn expiry_fires_at_exactly_the_deadline_then_on_expiration() {
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 1000, 0);
    let mut h = Level::default();
    let (a, _) = p.try_complete_else_watch(Op { target: 9 }, &[1], 1000, 30_000, &mut h);
    let mut now = 1000;
    while let Some(t) = p.next_wake_ms(now) {
        now = t;
        p.advance_clock(now, &mut h);
        if !h.expired.is_empty() {
            break;
        }
    }
    assert_eq!(now, 31_000);
    assert_eq!(h.completed, vec![(a, Completion::Expired)]);
    assert_eq!(h.expired, vec![a]);
    assert_eq!(
        (p.num_delayed_operations(), p.purgatory_size()),
        (0, 1),
        "expiry does not unwatch"
    );
}

#[test]
fn purge_runs_only_when_more_than_the_interval_linger() {
    for (ops, purged) in [(3u32, false), (4, true)] {
        let mut p: Purgatory<u32, Op> = Purgatory::new("test", 3, 0);
        let mut h = Level::default();
        for _ in 0..ops {
            p.try_complete_else_watch(Op { target: 9 }, &[7], 0, 10, &mut h);
        }
        let mut removed = None;
        let mut now = 0;
        while let Some(t) = p.next_wake_ms(now) {
            now = t;
            removed = p.advance_clock(now, &mut h).or(removed);
        }
        assert_eq!(h.expired.len(), ops as usize);
        assert_eq!(removed.is_some(), purged, "{ops} expired ops, interval 3");
        assert_eq!(p.purgatory_size(), if purged { 0 } else { ops as usize });
    }
}

#[test]
fn the_second_try_completes_without_a_timer() {
    // The condition becomes true between the two tries (as when a fetch moves the HW between
    // the append and the watch): the op is watched, completes on the second try, and its watch
    // entry stays behind as garbage.
    struct Flip(bool);
    impl Hooks<Op> for Flip {
        fn try_complete(&mut self, _: OpId, _: &mut Op) -> bool {
            std::mem::replace(&mut self.0, true)
        }
        fn on_complete(&mut self, _: OpId, _: &mut Op, how: Completion) {
            assert_eq!(how, Completion::SecondTry);
        }
        fn on_expiration(&mut self, _: OpId, _: &mut Op) {
            unreachable!()
        }
    }
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 1000, 0);
    let (_, watched) = p.try_complete_else_watch(Op { target: 0 }, &[1], 0, 100, &mut Flip(false));
    assert_eq!(watched, Watched::CompletedOnSecondTry);
    assert_eq!(
        (
            p.purgatory_size(),
            p.num_delayed_operations(),
            p.estimated_total_operations()
        ),
        (1, 0, 1)
    );
}

#[test]
fn the_timer_queries_answer_for_waiting_operations_and_nothing_else() {
    let mut p: Purgatory<u32, Op> = Purgatory::new("t", 1000, 0);
    let mut hooks = Level::default();
    let (waiting, _) = p.try_complete_else_watch(Op { target: 5 }, &[1], 100, 30, &mut hooks);
    assert_eq!(p.timer_expiration_ms(waiting), Some(130));
    let handle = p.timer_handle(waiting).expect("on the timer");
    assert_eq!(p.timer_op(handle), Some(waiting));
    // 30 ms ahead of the wheels' clock at 0: level 1 (20 ms buckets), bucket 130 / 20 % 20.
    assert_eq!(p.timer_slot(waiting), Some((1, 6)));
    let view = p.timer_view();
    assert_eq!(view.size, 1);
    assert_eq!(view.levels[1].buckets[0].entries, vec![handle]);

    // Ids that name nothing, however odd, get `None`, never a panic.
    for stranger in [
        OpId {
            slot: u32::MAX,
            generation: 0,
        },
        OpId {
            slot: waiting.slot,
            generation: waiting.generation + 1,
        },
    ] {
        assert_eq!(p.timer_handle(stranger), None);
        assert_eq!(p.timer_slot(stranger), None);
        assert_eq!(p.timer_expiration_ms(stranger), None);
    }

    // Completed, it leaves the timer: its id no longer names an entry.
    hooks.level = 5;
    assert_eq!(p.check_and_complete(&1, &mut hooks), 1);
    assert_eq!(p.timer_handle(waiting), None);
    assert_eq!(p.timer_op(handle), None);
    assert_eq!(p.timer_view().size, 0);
}

#[test]
fn timeouts_due_in_one_millisecond_run_by_their_order_whatever_their_cascade() {
    // Three ops due at 30100, added at different times so that their entries reach the finest
    // wheel by different cascades (or directly), and a caller-given order that is not the order
    // of the adds. They come out by order, one at a time.
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 1000, 0);
    let mut h = Level::default();
    let far = Op { target: 9 };
    let (late, _) = p.try_complete_else_watch_ordered(far, &[1], 100, 30_000, 30, &mut h);
    let mid = Op { target: 9 };
    let (early, _) = p.try_complete_else_watch_ordered(mid, &[1], 114, 29_986, 10, &mut h);
    let near = Op { target: 9 };
    let (middle, _) = p.try_complete_else_watch_ordered(near, &[1], 100, 30_000, 20, &mut h);
    p.advance_clock(30_099, &mut h);
    assert!(h.expired.is_empty());
    p.collect_due(30_100);
    // Taken off the timer, not run yet.
    assert_eq!(p.num_delayed_operations(), 0);
    assert!(h.expired.is_empty());
    let mut orders = Vec::new();
    while let Some(order) = p.next_due_order() {
        orders.push(order);
        assert!(p.run_next_due(&mut h));
    }
    assert_eq!(orders, vec![10, 20, 30]);
    assert_eq!(h.expired, vec![early, middle, late]);
    assert!(!p.run_next_due(&mut h));
}

#[test]
fn an_op_completed_after_its_timeout_came_due_but_before_its_turn_does_not_expire() {
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 1000, 0);
    let mut h = Level::default();
    let (a, _) = p.try_complete_else_watch(Op { target: 1 }, &[1], 0, 50, &mut h);
    let (b, _) = p.try_complete_else_watch(Op { target: 2 }, &[1], 0, 50, &mut h);
    p.collect_due(50);
    assert_eq!(p.next_due_order(), Some(1));
    // Something scheduled between the two timeouts completes the second op first.
    assert!(p.run_next_due(&mut h));
    h.level = 2;
    assert_eq!(p.check_and_complete(&1, &mut h), 1);
    assert!(
        p.run_next_due(&mut h),
        "its turn comes, and finds it completed"
    );
    assert_eq!(h.expired, vec![a]);
    assert_eq!(
        h.completed,
        vec![(a, Completion::Expired), (b, Completion::CheckAndComplete)]
    );
    assert_eq!((p.purgatory_size(), p.num_delayed_operations()), (0, 0));
}

#[test]
fn a_reaper_steps_only_when_its_own_timer_or_purge_poll_is_due() {
    let mut p: Purgatory<u32, Op> = Purgatory::new("test", 0, 0);
    let mut h = Level::default();
    p.try_complete_else_watch(Op { target: 1 }, &[1, 2], 0, 100, &mut h);
    h.level = 1;
    p.check_and_complete(&1, &mut h);
    // One completed op lingers on key 2's list, past an interval of 0: a purge is due at the poll after the
    // reaper's last step (at 0), i.e. at 200.
    assert_eq!(p.next_wake_ms(50), Some(100)); // the stale timer bucket first
                                               // A wake for someone else at 50: this purgatory's reaper does not step.
    p.collect_due(50);
    assert!(!p.reaper_woke_at(50));
    assert_eq!(p.purgatory_size(), 1);
    // Its own stale bucket at 100 is a step of its own reaper: the purge runs.
    p.collect_due(100);
    assert!(p.reaper_woke_at(100));
    assert_eq!(p.purge_step(100), Some(1));
    assert_eq!(p.purgatory_size(), 0);
}
