//! The watch lists (Kafka: `DelayedOperationPurgatory.Watchers`): one FIFO list of operation
//! ids per watch key, and the count Kafka reports as `PurgatorySize`.
//!
//! A list is a FIFO queue of ids ([`IdQueue`]), so appending and walking it touch memory in order.
//! Kafka's purge removes completed operations from every list. Here each list counts its completed
//! entries as they complete (`garbage`), so the purge takes them off the lists' counts in one
//! subtraction per list, and their ids stay behind as tombstones (ids whose slots the purge has
//! released, which the purgatory recognises by their generation). Walks skip and drop tombstones,
//! the purge drops those at a list's front, and a list that becomes mostly tombstones is compacted,
//! so removal is O(1) amortized however long the list is, where walking every list on every purge
//! is O(entries).

use std::collections::HashMap;
use std::hash::Hash;

use super::fixed_hash::FixedState;
use super::id_queue::IdQueue;
use super::OpId;
use crate::plumbing::hot;

/// A list whose physical length exceeds this many entries plus twice its live count is
/// compacted after a purge.
const COMPACTION_SLACK: usize = 16;

/// How many emptied lists stay registered under their key, idle, and the largest storage an idle
/// list keeps (a list that once held a burst gives its memory back). Kafka removes a key whose
/// list empties (`removeKeyIfEmpty`); a key's list empties and comes back every time one
/// operation waits on it alone (each produce to an idle partition), which would cost a map insert
/// and a removal per operation. An idle list holds nothing and no view or count shows it, so the
/// difference cannot be seen from outside.
const MAX_IDLE: usize = 64;
const MAX_IDLE_CAPACITY: usize = 1024;

#[derive(Clone)]
struct WatchList<K> {
    key: K,
    /// Ids in the order they were watched, tombstones included.
    entries: IdQueue,
    /// Entries logically on the list: waiting operations, and completed ones not yet removed.
    live: usize,
    /// The completed ones among `live`: what the next purge takes off.
    garbage: usize,
    /// The purge epoch in which this list was last queued for the purge (see `mark_garbage`).
    purge_mark: u64,
    /// Emptied and kept for its key's next watch (see `MAX_IDLE`).
    idle: bool,
}

/// Where an operation is watched: list numbers into [`Watchers`], one per key it was watched on.
/// A list number is stable while the operation is live on it (a list is only dropped when no
/// operation is on it).
pub(super) type ListId = u32;

#[derive(Clone)]
pub(super) struct Watchers<K> {
    /// Key to list number. Looked up only, never iterated into any output.
    by_key: HashMap<K, ListId, FixedState>,
    lists: Vec<Option<WatchList<K>>>,
    free: Vec<ListId>,
    /// Sum of the live counts: Kafka's `PurgatorySize`.
    total_live: usize,
    /// Numbers the purges, and the lists that gained garbage since the last one.
    purge_epoch: u64,
    lists_with_garbage: Vec<ListId>,
    /// How many lists are idle.
    idle: usize,
    /// The lists of operations watched on more than `INLINE` keys, and the numbers free for reuse.
    spills: Vec<Vec<ListId>>,
    free_spills: Vec<usize>,
    /// The keys of the last inline `watch_all` and their lists, place by place: an operation
    /// watched on the same keys as the one before (a producer's next batch to the same
    /// partitions, a follower's next fetch) finds its lists without hashing. Cleared whenever a
    /// list is dropped, since its number may be reused.
    recent: Vec<(K, ListId)>,
}

impl<K: Ord + Hash + Clone> Watchers<K> {
    pub fn new() -> Self {
        Watchers {
            by_key: HashMap::default(),
            lists: Vec::new(),
            free: Vec::new(),
            total_live: 0,
            purge_epoch: 1,
            lists_with_garbage: Vec::new(),
            idle: 0,
            spills: Vec::new(),
            free_spills: Vec::new(),
            recent: Vec::new(),
        }
    }

    pub fn total_live(&self) -> usize {
        self.total_live
    }

    pub fn find(&self, key: &K) -> Option<ListId> {
        self.by_key.get(key).copied()
    }

    /// Live entries on `key`'s list (0 when there is none).
    pub fn live(&self, key: &K) -> usize {
        self.find(key).map_or(0, |list| self.list(list).live)
    }

    /// Kafka: `Watchers.watch` for each key in turn: appends `id` to every key's list, creating
    /// lists as needed, and returns the lists it is on.
    pub fn watch_all(&mut self, keys: &[K], id: OpId) -> Memberships {
        if keys.len() > INLINE {
            return self.watch_spilled(keys, id);
        }
        let mut places = [UNUSED; INLINE];
        for (i, (place, key)) in places.iter_mut().zip(keys).enumerate() {
            let list = match self.recent.get(i) {
                Some((recent, list)) if recent == key => *list,
                _ => {
                    let list = self.list_of(key);
                    self.recent.truncate(i);
                    self.recent.push((key.clone(), list));
                    list
                }
            };
            self.append(list, id);
            *place = list;
        }
        Memberships(places)
    }

    #[cold]
    fn watch_spilled(&mut self, keys: &[K], id: OpId) -> Memberships {
        let spill = self.free_spills.pop().unwrap_or_else(|| {
            self.spills.push(Vec::new());
            self.spills.len() - 1
        });
        let mut lists = std::mem::take(&mut self.spills[spill]);
        lists.extend(keys.iter().map(|key| self.watch(key, id)));
        self.spills[spill] = lists;
        let spill = ListId::try_from(spill)
            .ok()
            .filter(|&spill| spill != UNUSED)
            .expect("fewer than u32::MAX operations watched on many keys");
        Memberships([UNUSED, spill, UNUSED, UNUSED])
    }

    /// The operation holding `memberships` is gone: its spill, if any, can be reused.
    #[inline(always)]
    pub fn forget(&mut self, memberships: Memberships) {
        if let Some(spill) = memberships.spill() {
            self.spills[spill].clear();
            self.free_spills.push(spill);
        }
    }

    /// Kafka: `Watchers.watch`. Appends `id` to `key`'s list, creating the list if needed.
    fn watch(&mut self, key: &K, id: OpId) -> ListId {
        let list = self.list_of(key);
        self.append(list, id);
        list
    }

    /// `key`'s list, created if there is none.
    fn list_of(&mut self, key: &K) -> ListId {
        match self.by_key.get(key) {
            Some(&list) => list,
            None => self.create(key),
        }
    }

    #[inline(always)]
    fn append(&mut self, list: ListId, id: OpId) {
        let watch_list = self.list_mut(list);
        let was_idle = std::mem::replace(&mut watch_list.idle, false);
        watch_list.entries.push_back(id);
        watch_list.live += 1;
        self.idle -= usize::from(was_idle);
        self.total_live += 1;
    }

    /// Takes a list's entries out for a walk; give them back with [`Watchers::finish_walk`].
    pub fn take_entries(&mut self, list: ListId) -> IdQueue {
        std::mem::take(&mut self.list_mut(list).entries)
    }

    /// Ends a walk: puts the surviving entries back, or retires the list when nothing is live on
    /// it any more (Kafka: `removeKeyIfEmpty`).
    pub fn finish_walk(&mut self, list: ListId, entries: IdQueue) {
        self.list_mut(list).entries = entries;
        self.retire_if_empty(list);
    }

    /// An operation on `memberships` has just completed: its entries stay on their lists (and in
    /// `PurgatorySize`) until a walk of the list or a purge takes them off.
    #[inline(always)]
    pub fn mark_garbage(&mut self, memberships: &Memberships) {
        if let Some(spill) = memberships.spill() {
            self.mark_spilled_garbage(spill);
            return;
        }
        for &list in &memberships.0 {
            if list == UNUSED {
                break;
            }
            self.mark_one_garbage(list);
        }
    }

    #[cold]
    fn mark_spilled_garbage(&mut self, spill: usize) {
        for i in 0..self.spills[spill].len() {
            self.mark_one_garbage(self.spills[spill][i]);
        }
    }

    #[inline(always)]
    fn mark_one_garbage(&mut self, list: ListId) {
        let epoch = self.purge_epoch;
        let watch_list = self.list_mut(list);
        watch_list.garbage += 1;
        if watch_list.purge_mark != epoch {
            watch_list.purge_mark = epoch;
            hot::push(&mut self.lists_with_garbage, list);
        }
    }

    /// A walk takes a completed entry off `list`. The list itself stays until
    /// `finish_walk`, so the walk can finish first.
    pub fn unwatch(&mut self, list: ListId) {
        let watch_list = self.list_mut(list);
        watch_list.live -= 1;
        watch_list.garbage -= 1;
        self.total_live -= 1;
    }

    /// Retires `list` if nothing is live on it, and returns whether it did: the list drops its
    /// tombstones and stays idle under its key, or, when enough lists are idle already or it
    /// holds much storage, is dropped with its key.
    fn retire_if_empty(&mut self, list: ListId) -> bool {
        let room = self.idle < MAX_IDLE;
        let watch_list = self.list_mut(list);
        if watch_list.live > 0 {
            return false;
        }
        if watch_list.idle {
            return true;
        }
        watch_list.entries.clear();
        if room && watch_list.entries.capacity() <= MAX_IDLE_CAPACITY {
            watch_list.idle = true;
            self.idle += 1;
            return true;
        }
        let watch_list = self.lists[list as usize].take().expect("a live list");
        self.by_key.remove(&watch_list.key);
        self.free.push(list);
        self.recent.clear();
        true
    }

    /// Kafka: `purgeCompleted` on every list, once the purgatory has released the completed
    /// operations (so `is_held` now calls their ids tombstones). Takes each list's garbage off
    /// its count, retires lists left empty, drops the tombstones at each list's front, and
    /// compacts each list whose tombstones still outnumber its live entries, so a compaction
    /// costs at most a constant per tombstone it drops. Returns how many entries left the lists.
    pub fn purge(&mut self, is_held: impl Fn(OpId) -> bool) -> usize {
        let mut removed = 0;
        let mut lists = std::mem::take(&mut self.lists_with_garbage);
        for &list in &lists {
            // A list retired by a walk since has no garbage left (nor one dropped, whose number
            // may have been reused).
            let Some(watch_list) = self.lists[list as usize].as_mut() else {
                continue;
            };
            let garbage = std::mem::take(&mut watch_list.garbage);
            watch_list.live -= garbage;
            self.total_live -= garbage;
            removed += garbage;
            if garbage == 0 || self.retire_if_empty(list) {
                continue;
            }
            let watch_list = self.list_mut(list);
            // Operations mostly leave a list in about the order they joined it (with one
            // timeout, they expire in that order), so tombstones gather at its front: dropping
            // them there costs one check each, where a compaction would read the whole list.
            while let Some(id) = watch_list.entries.front() {
                if is_held(id) {
                    break;
                }
                watch_list.entries.drop_front();
            }
            if watch_list.entries.len() > 2 * watch_list.live + COMPACTION_SLACK {
                watch_list.entries.retain(&is_held);
            }
        }
        lists.clear();
        self.lists_with_garbage = lists;
        self.purge_epoch += 1;
        removed
    }

    /// Every list as (key, ids in FIFO order, tombstones included), by key order.
    pub(super) fn lists_by_key(&self) -> Vec<(&K, &IdQueue)> {
        let mut lists: Vec<_> = self
            .lists
            .iter()
            .flatten()
            .filter(|list| !list.idle)
            .map(|list| (&list.key, &list.entries))
            .collect();
        lists.sort_by(|a, b| a.0.cmp(b.0));
        lists
    }

    fn create(&mut self, key: &K) -> ListId {
        let watch_list = WatchList {
            key: key.clone(),
            entries: IdQueue::default(),
            live: 0,
            garbage: 0,
            purge_mark: 0,
            idle: false,
        };
        let list = match self.free.pop() {
            Some(list) => {
                self.lists[list as usize] = Some(watch_list);
                list
            }
            None => {
                let list = ListId::try_from(self.lists.len())
                    .ok()
                    .filter(|&list| list != UNUSED)
                    .expect("fewer than u32::MAX watch lists");
                self.lists.push(Some(watch_list));
                list
            }
        };
        self.by_key.insert(key.clone(), list);
        list
    }

    #[inline(always)]
    fn list(&self, list: ListId) -> &WatchList<K> {
        hot::expect(hot::at(&self.lists, list as usize).as_ref(), "a live list")
    }

    #[inline(always)]
    fn list_mut(&mut self, list: ListId) -> &mut WatchList<K> {
        hot::expect(
            hot::at_mut(&mut self.lists, list as usize).as_mut(),
            "a live list",
        )
    }
}

/// Marks an unused place of `Memberships`, or (in the first place) a spilled one.
const UNUSED: ListId = ListId::MAX;
const INLINE: usize = 4;

/// The lists one operation is on, one place per key it was watched on (a list twice for a key
/// given twice). Fixed once watched: an operation is on all its lists until it completes, and
/// leaves them only after.
///
/// Sixteen bytes and no pointer, so an operation's slot stays small: up to four lists inline, and
/// more in a spill that `Watchers` keeps (the first place then says so, the second gives the
/// spill's number). A pointer to a separate allocation would cost one more cache miss per
/// completion and make the slot larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Memberships([ListId; INLINE]);

impl Default for Memberships {
    fn default() -> Self {
        Memberships([UNUSED; INLINE])
    }
}

impl Memberships {
    #[inline(always)]
    fn spill(self) -> Option<usize> {
        (self.0[0] == UNUSED && self.0[1] != UNUSED).then_some(self.0[1] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::purgatory::first_id as id;

    /// The only op on `key`'s list completes, and a walk of that list takes it off.
    fn complete_alone(watchers: &mut Watchers<u32>, key: u32, memberships: &Memberships) {
        let list = watchers.find(&key).expect("watched");
        watchers.mark_garbage(memberships);
        let entries = watchers.take_entries(list);
        watchers.unwatch(list);
        watchers.finish_walk(list, entries);
    }

    #[test]
    fn the_last_keys_never_lead_to_a_dropped_list() {
        let mut watchers: Watchers<u32> = Watchers::new();
        // Fill the idle room, so that the next list to empty is dropped.
        for key in 100..100 + MAX_IDLE as u32 {
            let memberships = watchers.watch_all(&[key], id(key));
            complete_alone(&mut watchers, key, &memberships);
        }
        let memberships = watchers.watch_all(&[1], id(1));
        let dropped = watchers.find(&1);
        complete_alone(&mut watchers, 1, &memberships);
        assert_eq!(watchers.find(&1), None, "dropped, not idle");
        // A watch on more keys than fit inline (which leaves the last keys alone) gives key 2
        // the dropped list's number.
        watchers.watch_all(&[2, 3, 4, 5, 6], id(2));
        assert_eq!(watchers.find(&2), dropped);
        // Key 1 again, as in the last inline watch: a list of its own, not key 2's.
        watchers.watch_all(&[1], id(3));
        assert_eq!((watchers.live(&1), watchers.live(&2)), (1, 1));
        assert_ne!(watchers.find(&1), dropped);
    }

    #[test]
    fn emptied_lists_stay_idle_under_their_key_up_to_a_bound_and_unseen() {
        let mut watchers: Watchers<u32> = Watchers::new();
        let keys = 0..100u32;
        let memberships: Vec<Memberships> = keys
            .clone()
            .map(|key| watchers.watch_all(&[key], id(key)))
            .collect();
        // Each op completes and a walk of its only list takes it off.
        for (key, memberships) in keys.clone().zip(&memberships) {
            complete_alone(&mut watchers, key, memberships);
        }
        assert_eq!(watchers.total_live(), 0);
        assert!(
            watchers.lists_by_key().is_empty(),
            "idle lists are not shown"
        );
        assert_eq!(watchers.idle, MAX_IDLE);
        let registered: Vec<u32> = keys.filter(|key| watchers.find(key).is_some()).collect();
        assert_eq!(registered, (0..MAX_IDLE as u32).collect::<Vec<_>>());

        // An idle key's next watch takes its list back.
        let list = watchers.find(&0);
        watchers.watch_all(&[0], id(200));
        assert_eq!(watchers.find(&0), list);
        assert_eq!(watchers.idle, MAX_IDLE - 1);
        assert_eq!(watchers.live(&0), 1);
        assert_eq!(watchers.lists_by_key().len(), 1);
    }
}
