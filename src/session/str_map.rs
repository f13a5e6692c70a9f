//! A small map keyed by partition name (`"t-0"`), a `Vec` kept in key order.
//!
//! The session's per-partition maps hold one entry per partition, so a sorted `Vec` searched by
//! bisection is as quick as a `BTreeMap`, and much smaller in the .wasm: each `BTreeMap` key and
//! value type compiles its own insert, search, clone, drop and node code (about 5 KB apiece).
//! Iteration is in key order, as a `BTreeMap<String, _>`'s.

#[derive(Clone, Debug)]
pub(crate) struct StrMap<V> {
    entries: Vec<(String, V)>,
}

impl<V> Default for StrMap<V> {
    fn default() -> Self {
        StrMap {
            entries: Vec::new(),
        }
    }
}

impl<V> StrMap<V> {
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// Sets `key` to `value`; returns the value it had.
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// The value of `key`, inserting `make()` first when there is none.
    pub fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key.to_string(), make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The entries in key order.
    pub fn into_entries(self) -> Vec<(String, V)> {
        self.entries
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// A set of strings, a `Vec` kept in order: what a `BTreeSet<String>` gave the session (the
/// produce ids in use), for the same reason.
#[derive(Clone, Debug, Default)]
pub(crate) struct StrSet(Vec<String>);

impl StrSet {
    /// The set of `items` (in any order, repeats allowed): one sort, not an insert each.
    pub fn from_unordered(mut items: Vec<String>) -> Self {
        items.sort();
        items.dedup();
        StrSet(items)
    }

    fn find(&self, item: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|s| s.as_str().cmp(item))
    }

    /// Adds `item`; false when it was there already.
    pub fn insert(&mut self, item: String) -> bool {
        match self.find(&item) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, item);
                true
            }
        }
    }

    pub fn contains(&self, item: &str) -> bool {
        self.find(item).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn the_set_behaves_as_a_btree_set_of_strings() {
        let items = ["p10", "p2", "p1", "p2", "x", "p10"].map(String::from);
        let mut ours = StrSet::from_unordered(items.to_vec());
        let mut std: BTreeSet<String> = items.iter().cloned().collect();
        assert_eq!(ours.0, std.iter().cloned().collect::<Vec<_>>());
        for item in ["p3", "p1", "a", "p3"] {
            assert_eq!(ours.insert(item.to_string()), std.insert(item.to_string()));
        }
        assert_eq!(ours.0, std.iter().cloned().collect::<Vec<_>>());
        assert!(ours.contains("p3") && ours.contains("a") && !ours.contains("p4"));
    }

    #[test]
    fn behaves_as_a_btree_map_of_strings() {
        let mut ours = StrMap::default();
        let mut std = BTreeMap::new();
        for (i, key) in ["t-1", "t-10", "a-0", "t-2", "t-1", "b-3", "a-0"]
            .iter()
            .enumerate()
        {
            assert_eq!(
                ours.insert(key.to_string(), i),
                std.insert(key.to_string(), i)
            );
        }
        *ours.get_or_insert_with("z-9", || 0) += 5;
        *std.entry("z-9".to_string()).or_insert(0) += 5;
        *ours.get_or_insert_with("t-2", || 0) += 5;
        *std.entry("t-2".to_string()).or_insert(0) += 5;
        assert_eq!(ours.get("t-10"), std.get("t-10"));
        assert_eq!(ours.get("nope"), None);
        let std: Vec<(String, usize)> = std.into_iter().collect();
        assert_eq!(ours.into_entries(), std);
    }
}
