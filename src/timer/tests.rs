//! Unit tests of `Timer` as a whole: the worked example of docs/kafka-semantics.md d.5 step by step,
//! cancellation, ordering, handle reuse and very large times.

use super::*;

/// Advances to `now_ms` and returns what fired, checking the invariants afterwards.
fn advance<T>(timer: &mut Timer<T>, now_ms: u64) -> Vec<(TimerHandle, T)> {
    let mut fired = Vec::new();
    timer.advance_clock(now_ms, |fired_now| {
        fired.push((fired_now.handle, fired_now.task))
    });
    timer.assert_invariants();
    fired
}

fn scheduled<T: std::fmt::Debug>(result: AddResult<T>) -> TimerHandle {
    match result {
        AddResult::Scheduled(handle) => handle,
        AddResult::Expired(task) => panic!("{task:?} expired at insertion"),
    }
}

/// The bucket `(level, index)` in the view: its expiration and entries.
fn bucket_in_view(view: &TimerView, level: usize, index: usize) -> Option<&BucketView> {
    view.levels[level].buckets.iter().find(|b| b.index == index)
}

#[test]
fn worked_example_d5_cascades_from_level_4_to_level_2_and_fires_at_31000() {
    let mut timer = Timer::new(1000);
    let op = scheduled(timer.add(1000, 30_000, "op"));
    timer.assert_invariants();

    // 1. It fits neither L1 (20 ms), L2 (400 ms) nor L3 (8000 ms from 800): it lands in L4
    //    (index 3), vid 3, bucket expiration 24000.
    let view = timer.view();
    let clocks: Vec<(u64, u64)> = view
        .levels
        .iter()
        .map(|l| (l.tick_ms, l.current_time_ms))
        .collect();
    assert_eq!(clocks, vec![(1, 1000), (20, 1000), (400, 800), (8000, 0)]);
    assert_eq!(view.levels[3].interval_ms, 160_000);
    assert_eq!(timer.locate(op), Some((3, 3)));
    let bucket = bucket_in_view(&view, 3, 3).expect("L4 bucket 3");
    assert_eq!(
        (bucket.expiration_ms, &bucket.entries),
        (Some(24_000), &vec![op])
    );
    assert_eq!(timer.next_expiration_ms(), Some(24_000));

    // Nothing happens before the bucket is due.
    assert!(!timer.advance_clock(23_999, |_| panic!("fired early")));

    // 2. At 24000 the flush re-inserts it into L3: vid 31000 / 400 = 77, index 17, 30800.
    assert!(advance(&mut timer, 24_000).is_empty());
    assert_eq!(timer.locate(op), Some((2, 17)));
    let view = timer.view();
    assert_eq!(view.levels[3].current_time_ms, 24_000);
    assert_eq!(
        bucket_in_view(&view, 3, 3),
        None,
        "the flushed bucket is reset"
    );
    let bucket = bucket_in_view(&view, 2, 17).expect("L3 bucket 17");
    assert_eq!(
        (bucket.expiration_ms, &bucket.entries),
        (Some(30_800), &vec![op])
    );
    assert_eq!(timer.next_expiration_ms(), Some(30_800));

    // 3. At 30800 the flush puts it into L2: vid 1550, index 10, 31000.
    assert!(advance(&mut timer, 30_800).is_empty());
    assert_eq!(timer.locate(op), Some((1, 10)));
    let bucket = bucket_in_view(&timer.view(), 1, 10)
        .cloned()
        .expect("L2 bucket 10");
    assert_eq!(
        (bucket.expiration_ms, bucket.entries),
        (Some(31_000), vec![op])
    );
    assert_eq!(timer.next_expiration_ms(), Some(31_000));
    assert!(advance(&mut timer, 30_999).is_empty());

    // 4. At 31000, 31000 < 31000 + 1: expired, handed to the callback.
    assert_eq!(advance(&mut timer, 31_000), vec![(op, "op")]);
    assert_eq!(timer.size(), 0);
    assert_eq!(timer.locate(op), None);
    assert_eq!(timer.next_expiration_ms(), None);
    assert!(timer.view().levels.iter().all(|l| l.buckets.is_empty()));
    assert_eq!(timer.current_time_ms(), 31_000);
}

#[test]
fn zero_delay_is_expired_at_once_even_when_the_wheel_lags() {
    let mut timer = Timer::new(0);
    assert_eq!(timer.add(0, 0, 'a'), AddResult::Expired('a'));
    // The caller's clock moved on while no bucket expired: the wheel is still at 0.
    assert_eq!(timer.add(5_000, 0, 'b'), AddResult::Expired('b'));
    assert_eq!(timer.size(), 0);
    assert_eq!(timer.next_expiration_ms(), None);
}

#[test]
fn an_entry_added_while_the_wheel_lags_still_fires_exactly_on_time() {
    let mut timer = Timer::new(0);
    let handle = scheduled(timer.add(1_000, 10, 'a'));
    // The wheel is at 0, so the entry sits in a coarse bucket that is already due.
    assert_eq!(timer.next_expiration_ms(), Some(800));
    assert!(advance(&mut timer, 1_000).is_empty());
    assert_eq!(timer.next_expiration_ms(), Some(1_010));
    assert_eq!(timer.expiration_ms(handle), Some(1_010));
    assert!(advance(&mut timer, 1_009).is_empty());
    assert_eq!(advance(&mut timer, 1_010), vec![(handle, 'a')]);
}

#[test]
fn a_late_advance_fires_everything_due_in_expiration_order() {
    let mut timer = Timer::new(0);
    let delays = [500, 3, 41, 20, 7_000, 19, 3];
    let handles: Vec<_> = delays
        .iter()
        .map(|&delay| scheduled(timer.add(0, delay, delay)))
        .collect();
    let fired: Vec<u64> = advance(&mut timer, 10_000)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(fired, vec![3, 3, 19, 20, 41, 500, 7_000]);
    assert!(handles.iter().all(|&h| timer.get(h).is_none()));
}

#[test]
fn a_cancelled_entry_never_fires_but_its_emptied_bucket_is_flushed() {
    let mut timer = Timer::new(0);
    let keep = scheduled(timer.add(0, 10, 'k'));
    let gone = scheduled(timer.add(0, 5, 'g'));
    assert_eq!(timer.size(), 2);
    assert!(timer.cancel(gone));
    assert!(!timer.cancel(gone), "a stale handle is harmless");
    assert_eq!(timer.size(), 1);
    timer.assert_invariants();
    // The emptied bucket stays queued, as in Kafka, and is flushed as a no-op.
    assert_eq!(timer.next_expiration_ms(), Some(5));
    assert!(bucket_in_view(&timer.view(), 0, 5).is_some_and(|b| b.entries.is_empty()));
    assert!(timer.advance_clock(5, |_| panic!("a cancelled entry fired")));
    assert_eq!(timer.next_expiration_ms(), Some(10));
    assert_eq!(advance(&mut timer, 10), vec![(keep, 'k')]);
    assert!(!timer.cancel(keep), "a fired handle is stale");
}

#[test]
fn entries_of_one_bucket_fire_in_insertion_order() {
    let mut timer = Timer::new(0);
    let order = ['c', 'a', 'd', 'b'];
    let handles: Vec<_> = order
        .iter()
        .map(|&c| scheduled(timer.add(0, 12, c)))
        .collect();
    assert_eq!(timer.view().levels[0].buckets[0].entries, handles);
    let fired: Vec<char> = advance(&mut timer, 12)
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(fired, order);
}

#[test]
fn equal_expirations_fire_in_bucket_order_not_add_order() {
    // Kafka's order, reproduced on purpose: x is added first, but y goes straight into the
    // finest bucket for 405 while x still sits in a coarse bucket; x cascades in behind y.
    let mut timer = Timer::new(0);
    let x = scheduled(timer.add(0, 405, 'x'));
    assert_eq!(timer.locate(x), Some((2, 1)));
    let z = scheduled(timer.add(380, 6, 'z'));
    assert_eq!(advance(&mut timer, 380), vec![]);
    assert_eq!(advance(&mut timer, 386), vec![(z, 'z')]);
    let y = scheduled(timer.add(390, 15, 'y'));
    assert_eq!(timer.locate(y), Some((0, 5)));
    assert_eq!(advance(&mut timer, 400), vec![]);
    assert_eq!(timer.locate(x), Some((0, 5)));
    assert_eq!(advance(&mut timer, 405), vec![(y, 'y'), (x, 'x')]);
}

#[test]
fn stale_handles_never_reach_a_reused_slot() {
    let mut timer = Timer::new(0);
    let old = scheduled(timer.add(0, 10, 1));
    assert!(timer.cancel(old));
    let new = scheduled(timer.add(0, 20, 2));
    assert_eq!(new.slot(), old.slot());
    assert_ne!(new, old);
    assert_eq!(timer.get(old), None);
    assert_eq!(timer.expiration_ms(old), None);
    assert_eq!(timer.locate(old), None);
    assert!(!timer.cancel(old));
    assert_eq!(timer.get(new), Some(&2));
    *timer.get_mut(new).expect("live") = 3;
    assert_eq!(advance(&mut timer, 20), vec![(new, 3)]);
}

#[test]
fn a_week_of_maximal_delays_grows_more_levels_and_stays_exact() {
    let week_ms = 604_800_000;
    let mut timer = Timer::new(0);
    let max_delay = (1u64 << 31) - 1;
    let far = scheduled(timer.add(week_ms, max_delay, 'f'));
    // 20^7 = 1.28e9 < week + 2^31 - 1 < 20^8: eight levels.
    assert_eq!(timer.level_count(), 8);
    let near = scheduled(timer.add(week_ms, 1, 'n'));
    let mut fired = Vec::new();
    let mut now_ms = week_ms;
    while let Some(next_ms) = timer.next_expiration_ms() {
        now_ms = now_ms.max(next_ms);
        for (handle, task) in advance(&mut timer, now_ms) {
            fired.push((now_ms, handle, task));
        }
    }
    assert_eq!(
        fired,
        vec![(week_ms + 1, near, 'n'), (week_ms + max_delay, far, 'f')]
    );
}

#[test]
fn expirations_near_u64_max_do_not_overflow() {
    for wheel_size in [2, 20] {
        let mut timer = Timer::with_wheel(1, wheel_size, 0);
        let handle = scheduled(timer.add(0, u64::MAX, ()));
        timer.assert_invariants();
        let mut now_ms = 0;
        let mut fired = Vec::new();
        while let Some(next_ms) = timer.next_expiration_ms() {
            now_ms = now_ms.max(next_ms);
            fired.extend(
                advance(&mut timer, now_ms)
                    .into_iter()
                    .map(|(h, _)| (now_ms, h)),
            );
        }
        assert_eq!(fired, vec![(u64::MAX, handle)]);
        assert!(timer
            .view()
            .levels
            .last()
            .is_some_and(|l| l.interval_ms == u64::MAX));
    }
}

#[test]
fn a_coarse_tick_rounds_expirations_down_to_the_tick() {
    let mut timer = Timer::with_wheel(10, 4, 3);
    assert_eq!(timer.current_time_ms(), 0);
    // 3 + 8 = 11 is not before 0 + 10: scheduled in the bucket for 10, fired at 10.
    let handle = scheduled(timer.add(3, 8, 'a'));
    assert_eq!(timer.next_expiration_ms(), Some(10));
    assert_eq!(advance(&mut timer, 10), vec![(handle, 'a')]);
    // Now at 10, 15 < 10 + 10: rejected as already expired, as Kafka does.
    assert_eq!(timer.add(12, 3, 'b'), AddResult::Expired('b'));
}

#[test]
#[should_panic(expected = "behind the timer's clock")]
fn adding_behind_the_timers_clock_panics() {
    let mut timer = Timer::new(1_000);
    let _ = timer.add(999, 5, ());
}

#[test]
fn handle_serializes_as_slot_and_generation() {
    let mut timer = Timer::new(0);
    let first = scheduled(timer.add(0, 5, ()));
    timer.cancel(first);
    let handle = scheduled(timer.add(0, 5, ()));
    let json = serde_json::to_string(&handle).expect("serializable");
    assert_eq!(json, r#"{"slot":0,"generation":1}"#);
    let view = serde_json::to_value(timer.view()).expect("serializable");
    assert_eq!(
        view["levels"][0]["buckets"][0]["entries"][0]["generation"],
        1
    );
    assert_eq!(view["next_expiration_ms"], 5);
}

#[test]
fn a_handle_serializes_and_prints_its_slot_and_generation() {
    let mut timer = Timer::new(0);
    let handle = scheduled(timer.add(0, 5, 'a'));
    assert_eq!(
        serde_json::to_string(&handle).unwrap(),
        r#"{"slot":0,"generation":0}"#
    );
    assert_eq!(
        format!("{handle:?}"),
        "TimerHandle { slot: 0, generation: 0 }"
    );
}

/// Timers added at `start_ms + offsets` (delays as given), then the clock advanced to
/// `start_ms + 50_000` in steps: what fired, each with its time relative to `start_ms`.
fn fired_from(start_ms: u64, shift_ms: u64) -> (Vec<(u64, u32)>, TimerView) {
    let adds = [
        (0, 500, 1),
        (3, 30_000, 2),
        (7, 17, 3),
        (120, 9_000, 4),
        (400, 500, 5),
    ];
    let mut timer = Timer::new(start_ms);
    let mut fired = Vec::new();
    let mut now = start_ms;
    for (at, delay, task) in adds {
        now = start_ms + at;
        timer.advance_clock(now, |f| fired.push((f.expiration_ms - start_ms, f.task)));
        scheduled(timer.add(now, delay, task));
    }
    shift_then_run(timer, fired, start_ms, now, shift_ms, 50_000, 37)
}

/// Moves `timer` (at `now_ms`) `shift_ms` later, if any, then advances it in steps of `step_ms`
/// to `until_ms` after `start_ms + shift_ms`, adding to `fired` what fires, with its time
/// relative to that start; returns it and the timer's view.
fn shift_then_run(
    mut timer: Timer<u32>,
    mut fired: Vec<(u64, u32)>,
    start_ms: u64,
    now_ms: u64,
    shift_ms: u64,
    until_ms: u64,
    step_ms: usize,
) -> (Vec<(u64, u32)>, TimerView) {
    if shift_ms > 0 {
        timer.shift_by(shift_ms);
        timer.assert_invariants();
    }
    let base = start_ms + shift_ms;
    for step in (now_ms + shift_ms - base..until_ms).step_by(step_ms) {
        timer.advance_clock(base + step, |f| {
            fired.push((f.expiration_ms - base, f.task))
        });
    }
    (fired, timer.view())
}

#[test]
fn a_shift_by_whole_coarsest_intervals_is_the_same_timer_later() {
    // The adds reach level 3 (8,000 ms ticks, a 160,000 ms interval).
    let (shifted, shifted_view) = fired_from(1_000, 3 * 160_000);
    let (later, later_view) = fired_from(1_000 + 3 * 160_000, 0);
    assert_eq!(shifted.len(), 5);
    assert_eq!(shifted, later);
    assert_eq!(
        format!("{:?}", shifted_view.levels),
        format!("{:?}", later_view.levels),
        "the same buckets, clocks and entries"
    );
}

#[test]
#[should_panic(expected = "a shift must keep every entry in its bucket")]
fn a_shift_that_would_move_entries_between_buckets_is_refused() {
    let mut timer = Timer::new(0);
    scheduled(timer.add(0, 30_000, ()));
    timer.shift_by(8_000); // level 3's tick, not its interval
}

/// One long timeout builds overflow levels up to level 4 (160,000 ms ticks) and fires; then a
/// 500 ms timeout waits in level 2. Moved by 24,000 ms (level 2's span three times, not level
/// 4's tick), the timer is the one the same adds and advances 24,000 ms later build: the
/// levels in use moved, the clocks of the empty ones above as the finest clock's advance sets
/// them.
fn after_a_long_timeout(start_ms: u64, shift_ms: u64) -> (Vec<(u64, u32)>, TimerView) {
    let mut timer = Timer::new(start_ms);
    let mut fired = Vec::new();
    scheduled(timer.add(start_ms, 200_000, 1));
    let now = start_ms + 200_013;
    timer.advance_clock(now, |f| fired.push((f.expiration_ms - start_ms, f.task)));
    scheduled(timer.add(now, 500, 2));
    assert_eq!(timer.view().levels.len(), 5, "levels 0 to 4 built");
    shift_then_run(timer, fired, start_ms, now, shift_ms, 205_000, 7)
}

#[test]
fn a_shift_by_the_span_in_use_sets_the_empty_levels_clocks_as_an_advance_would() {
    let (shifted, shifted_view) = after_a_long_timeout(1_000, 24_000);
    let (later, later_view) = after_a_long_timeout(1_000 + 24_000, 0);
    assert_eq!(shifted, vec![(200_000, 1), (200_513, 2)]);
    assert_eq!(shifted, later);
    assert_eq!(
        format!("{:?}", shifted_view.levels),
        format!("{:?}", later_view.levels),
        "the same buckets, clocks and entries"
    );
}
