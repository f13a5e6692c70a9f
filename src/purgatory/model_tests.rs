//! The purgatory against a naive model of Kafka's rules on seeded random workloads: watch lists
//! as plain vectors that the purge walks in full (as Kafka's `purgeCompleted` does), expiry by a
//! sorted scan. Checked after every step: the gauges, every watch list in FIFO order with its
//! completed flags, the order and manner in which operations completed, and the timer's
//! structure over the entries in the operations' slots.

use std::collections::BTreeMap;

use super::*;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

struct ModelOp {
    target: u64,
    deadline_ms: u64,
    completed: bool,
    timed: bool,
}

/// Kafka's rules, written the slow and obvious way.
#[derive(Default)]
struct Model {
    ops: Vec<ModelOp>,
    lists: BTreeMap<u32, Vec<usize>>,
    estimated: u64,
    log: Vec<(usize, Completion)>,
}

impl Model {
    fn waiting_on_timer(&self) -> usize {
        self.ops.iter().filter(|o| o.timed && !o.completed).count()
    }

    fn complete(&mut self, i: usize, how: Completion) {
        self.ops[i].completed = true;
        self.log.push((i, how));
    }

    fn watch(&mut self, target: u64, keys: &[u32], now_ms: u64, delay_ms: u64, level: u64) {
        let i = self.ops.len();
        self.ops.push(ModelOp {
            target,
            deadline_ms: now_ms + delay_ms,
            completed: false,
            timed: false,
        });
        if level >= target {
            return self.complete(i, Completion::FirstTry);
        }
        for &key in keys {
            self.lists.entry(key).or_default().push(i);
        }
        self.estimated += 1;
        // The level cannot change between the two tries here.
        self.ops[i].timed = true;
        // A zero timeout has passed already: the timer hands the op back to run at once.
        if delay_ms == 0 {
            self.complete(i, Completion::Expired);
        }
    }

    fn check_and_complete(&mut self, key: u32, level: u64) -> usize {
        let Some(list) = self.lists.remove(&key) else {
            return 0;
        };
        let mut kept = Vec::new();
        let mut completed = 0;
        for i in list {
            if self.ops[i].completed {
                continue;
            }
            if level >= self.ops[i].target {
                self.complete(i, Completion::CheckAndComplete);
                completed += 1;
            } else {
                kept.push(i);
            }
        }
        if !kept.is_empty() {
            self.lists.insert(key, kept);
        }
        completed
    }

    fn force_complete(&mut self, i: usize) -> bool {
        if self.ops[i].completed {
            return false;
        }
        self.complete(i, Completion::Forced);
        true
    }

    fn advance_clock(&mut self, now_ms: u64, purge_interval: u64) -> Option<usize> {
        let mut due: Vec<usize> = (0..self.ops.len())
            .filter(|&i| {
                let o = &self.ops[i];
                o.timed && !o.completed && o.deadline_ms <= now_ms
            })
            .collect();
        due.sort_by_key(|&i| (self.ops[i].deadline_ms, i));
        for i in due {
            self.complete(i, Completion::Expired);
        }
        let waiting = self.waiting_on_timer() as u64;
        if self.estimated.saturating_sub(waiting) <= purge_interval {
            return None;
        }
        self.estimated = waiting;
        let mut removed = 0;
        let ops = &self.ops;
        for list in self.lists.values_mut() {
            let before = list.len();
            list.retain(|&i| !ops[i].completed);
            removed += before - list.len();
        }
        self.lists.retain(|_, list| !list.is_empty());
        Some(removed)
    }
}

/// The purgatory's hooks for the model's operations: complete once the level reaches the target.
struct Logged {
    level: u64,
    log: Vec<(OpId, Completion)>,
}

impl Hooks<u64> for Logged {
    fn try_complete(&mut self, _: OpId, target: &mut u64) -> bool {
        self.level >= *target
    }
    fn on_complete(&mut self, id: OpId, _: &mut u64, how: Completion) {
        self.log.push((id, how));
    }
    fn on_expiration(&mut self, id: OpId, _: &mut u64) {
        assert_eq!(self.log.last(), Some(&(id, Completion::Expired)));
    }
}

fn run(seed: u64, steps: usize, purge_interval: u64, key_space: u64) {
    let mut rng = Rng(seed);
    let mut p: Purgatory<u32, u64> = Purgatory::new("model", purge_interval, 0);
    let mut hooks = Logged {
        level: 0,
        log: Vec::new(),
    };
    let mut model = Model::default();
    let mut ids: Vec<OpId> = Vec::new();
    let mut now_ms = 0;
    for step in 0..steps {
        let context = format!("seed {seed}, step {step}");
        match rng.below(10) {
            0..=4 => {
                let target = hooks.level + rng.below(20);
                // 1 to 6 keys, repeats allowed: more than four spill out of the slot.
                let keys: Vec<u32> = (0..1 + rng.below(6))
                    .map(|_| rng.below(key_space) as u32)
                    .collect();
                // 0 to 60 ms: a zero timeout expires the op as it is added.
                let delay_ms = rng.below(61);
                let (id, _) =
                    p.try_complete_else_watch(target, &keys, now_ms, delay_ms, &mut hooks);
                model.watch(target, &keys, now_ms, delay_ms, hooks.level);
                ids.push(id);
            }
            5 => {
                hooks.level += rng.below(4);
                let key = rng.below(key_space) as u32;
                let real = p.check_and_complete(&key, &mut hooks);
                assert_eq!(
                    real,
                    model.check_and_complete(key, hooks.level),
                    "{context}"
                );
            }
            6 if !ids.is_empty() => {
                if rng.below(2) == 0 {
                    let i = rng.below(ids.len() as u64) as usize;
                    let real = p.force_complete(ids[i], &mut hooks);
                    assert_eq!(real, model.force_complete(i), "{context}");
                } else {
                    // A batch longer than the prefetch distance, repeats and stale ids included.
                    let batch: Vec<usize> = (0..rng.below(40))
                        .map(|_| rng.below(ids.len() as u64) as usize)
                        .collect();
                    let batch_ids: Vec<OpId> = batch.iter().map(|&i| ids[i]).collect();
                    let real = p.force_complete_all(&batch_ids, &mut hooks);
                    let expected = batch.iter().filter(|&&i| model.force_complete(i)).count();
                    assert_eq!(real, expected, "{context}");
                }
            }
            _ => {
                now_ms += rng.below(25);
                let real = p.advance_clock(now_ms, &mut hooks);
                assert_eq!(
                    real,
                    model.advance_clock(now_ms, purge_interval),
                    "{context}"
                );
            }
        }
        // The wheels agree with the entries kept in the operations' slots.
        p.assert_timer_invariants();
        let expected_log: Vec<(OpId, Completion)> =
            model.log.iter().map(|&(i, how)| (ids[i], how)).collect();
        assert_eq!(hooks.log, expected_log, "{context}: completions");
        assert_eq!(
            p.num_delayed_operations(),
            model.waiting_on_timer(),
            "{context}"
        );
        assert_eq!(p.estimated_total_operations(), model.estimated, "{context}");
        let expected_lists: Vec<(u32, Vec<(OpId, bool)>)> = model
            .lists
            .iter()
            .map(|(&key, list)| {
                let ops = list
                    .iter()
                    .map(|&i| (ids[i], model.ops[i].completed))
                    .collect();
                (key, ops)
            })
            .collect();
        let real_lists: Vec<(u32, Vec<(OpId, bool)>)> = p
            .watch_lists()
            .into_iter()
            .map(|w| (w.key, w.operations))
            .collect();
        assert_eq!(real_lists, expected_lists, "{context}: watch lists");
        let size: usize = model.lists.values().map(Vec::len).sum();
        assert_eq!(p.purgatory_size(), size, "{context}: PurgatorySize");
        for key in 0..key_space as u32 {
            let len = model.lists.get(&key).map_or(0, Vec::len);
            assert_eq!(p.watched(&key), len, "{context}: key {key}");
        }
    }
}

#[test]
fn agrees_with_the_naive_model_with_frequent_purges() {
    for seed in 0..200 {
        run(seed, 400, 3, 5);
    }
}

/// Many keys: lists empty and come back all the time, more than the watchers keep idle, so
/// lists are dropped and their numbers reused.
#[test]
fn agrees_with_the_naive_model_over_many_keys() {
    for seed in 2000..2010 {
        run(seed, 3_000, 3, 150);
    }
}

#[test]
fn agrees_with_the_naive_model_with_kafkas_purge_interval() {
    for seed in 1000..1010 {
        run(seed, 5_000, 1_000, 5);
    }
}
