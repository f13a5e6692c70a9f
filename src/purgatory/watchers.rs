//! The watch lists (Kafka: `DelayedOperationPurgatory.Watchers`): one FIFO list of operation
//! ids per watch key, and the count Kafka reports as `PurgatorySize`.
//!
//! A list is a `VecDeque` of ids, so appending and walking it touch memory in order. Kafka's
//! purge removes completed operations from every list. Here each list counts its completed
//! entries as they complete (`garbage`), so the purge takes them off the lists' counts in one
//! subtraction per list, and their ids stay behind as tombstones (ids whose slots the purge has
//! released, which the purgatory recognises by their generation). Walks skip and drop
//! tombstones, and a list that becomes mostly tombstones is compacted, so removal is O(1)
//! amortized however long the list is, where walking every list on every purge is O(entries).

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

use super::fixed_hash::FixedState;
use super::OpId;

/// A list whose physical length exceeds this many entries plus twice its live count is
/// compacted after a purge.
const COMPACTION_SLACK: usize = 16;

/// How many dropped lists' storage is kept for reuse, and the largest kept (a list that once held
/// a burst gives its memory back).
const MAX_SPARE: usize = 64;
const MAX_SPARE_CAPACITY: usize = 1024;

struct WatchList<K> {
    key: K,
    /// Ids in the order they were watched, tombstones included.
    entries: VecDeque<OpId>,
    /// Entries logically on the list: waiting operations, and completed ones not yet removed.
    live: usize,
    /// The completed ones among `live`: what the next purge takes off.
    garbage: usize,
    /// The purge epoch in which this list was last queued for the purge (see `mark_garbage`).
    purge_mark: u64,
}

/// Where an operation is watched: list numbers into [`Watchers`], one per key it was watched on.
/// A list number is stable while the operation is live on it (a list is only dropped when no
/// operation is on it).
pub(super) type ListId = u32;

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
    /// Storage of dropped lists, reused by new ones: a key's list empties and comes back every
    /// time one operation waits on it alone (each produce to an idle partition).
    spare: Vec<VecDeque<OpId>>,
    /// The lists of operations watched on more than `INLINE` keys, and the numbers free for reuse.
    spills: Vec<Vec<ListId>>,
    free_spills: Vec<usize>,
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
            spare: Vec::new(),
            spills: Vec::new(),
            free_spills: Vec::new(),
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
        for (place, key) in places.iter_mut().zip(keys) {
            *place = self.watch(key, id);
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
    #[inline]
    pub fn forget(&mut self, memberships: Memberships) {
        if let Some(spill) = memberships.spill() {
            self.spills[spill].clear();
            self.free_spills.push(spill);
        }
    }

    /// Kafka: `Watchers.watch`. Appends `id` to `key`'s list, creating the list if needed.
    fn watch(&mut self, key: &K, id: OpId) -> ListId {
        let list = match self.by_key.get(key) {
            Some(&list) => list,
            None => self.create(key),
        };
        let watch_list = self.list_mut(list);
        watch_list.entries.push_back(id);
        watch_list.live += 1;
        self.total_live += 1;
        list
    }

    /// Takes a list's entries out for a walk; give them back with [`Watchers::finish_walk`].
    pub fn take_entries(&mut self, list: ListId) -> VecDeque<OpId> {
        std::mem::take(&mut self.list_mut(list).entries)
    }

    /// Ends a walk: puts the surviving entries back, or drops the list (and its key) when
    /// nothing is live on it any more (Kafka: `removeKeyIfEmpty`).
    pub fn finish_walk(&mut self, list: ListId, entries: VecDeque<OpId>) {
        self.list_mut(list).entries = entries;
        self.drop_if_empty(list);
    }

    /// An operation on `memberships` has just completed: its entries stay on their lists (and in
    /// `PurgatorySize`) until a walk of the list or a purge takes them off.
    pub fn mark_garbage(&mut self, memberships: &Memberships) {
        if let Some(spill) = memberships.spill() {
            for i in 0..self.spills[spill].len() {
                self.mark_one_garbage(self.spills[spill][i]);
            }
            return;
        }
        for &list in memberships.0.iter().take_while(|&&list| list != UNUSED) {
            self.mark_one_garbage(list);
        }
    }

    fn mark_one_garbage(&mut self, list: ListId) {
        let epoch = self.purge_epoch;
        let watch_list = self.list_mut(list);
        watch_list.garbage += 1;
        if watch_list.purge_mark != epoch {
            watch_list.purge_mark = epoch;
            self.lists_with_garbage.push(list);
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

    /// Drops `list` if nothing is live on it; returns whether it did.
    fn drop_if_empty(&mut self, list: ListId) -> bool {
        if self.list(list).live > 0 {
            return false;
        }
        let mut watch_list = self.lists[list as usize].take().expect("a live list");
        self.by_key.remove(&watch_list.key);
        self.free.push(list);
        if self.spare.len() < MAX_SPARE && watch_list.entries.capacity() <= MAX_SPARE_CAPACITY {
            watch_list.entries.clear();
            self.spare.push(watch_list.entries);
        }
        true
    }

    /// Kafka: `purgeCompleted` on every list, once the purgatory has released the completed
    /// operations (so `is_held` now calls their ids tombstones). Takes each list's garbage off
    /// its count, drops lists left empty, and compacts each list whose tombstones outnumber its
    /// live entries, so a compaction costs at most a constant per tombstone it drops. Returns how
    /// many entries left the lists.
    pub fn purge(&mut self, is_held: impl Fn(OpId) -> bool) -> usize {
        let mut removed = 0;
        let mut lists = std::mem::take(&mut self.lists_with_garbage);
        for &list in &lists {
            // A list dropped by a walk since (its number perhaps reused) has no garbage left.
            let Some(watch_list) = self.lists[list as usize].as_mut() else {
                continue;
            };
            let garbage = std::mem::take(&mut watch_list.garbage);
            watch_list.live -= garbage;
            self.total_live -= garbage;
            removed += garbage;
            if garbage == 0 || self.drop_if_empty(list) {
                continue;
            }
            let watch_list = self.list_mut(list);
            if watch_list.entries.len() > 2 * watch_list.live + COMPACTION_SLACK {
                watch_list.entries.retain(|&id| is_held(id));
            }
        }
        lists.clear();
        self.lists_with_garbage = lists;
        self.purge_epoch += 1;
        removed
    }

    /// Every list as (key, ids in FIFO order, tombstones included), by key order.
    pub fn lists_by_key(&self) -> Vec<(&K, &VecDeque<OpId>)> {
        let mut lists: Vec<_> = self
            .lists
            .iter()
            .flatten()
            .map(|list| (&list.key, &list.entries))
            .collect();
        lists.sort_by(|a, b| a.0.cmp(b.0));
        lists
    }

    fn create(&mut self, key: &K) -> ListId {
        let watch_list = WatchList {
            key: key.clone(),
            entries: self.spare.pop().unwrap_or_default(),
            live: 0,
            garbage: 0,
            purge_mark: 0,
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

    fn list(&self, list: ListId) -> &WatchList<K> {
        self.lists[list as usize].as_ref().expect("a live list")
    }

    fn list_mut(&mut self, list: ListId) -> &mut WatchList<K> {
        self.lists[list as usize].as_mut().expect("a live list")
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
    fn spill(self) -> Option<usize> {
        (self.0[0] == UNUSED && self.0[1] != UNUSED).then_some(self.0[1] as usize)
    }
}
