//! A follower's fetchers: a `Fetcher` (Kafka's `ReplicaFetcherThread`'s state for one leader: its
//! partitions, the fetch in flight), and `Fetchers`, one per leader, as a table indexed by broker
//! id (lookups, and iteration in leader order). Every fetch sent and every response received
//! looks its fetcher up: an index, faster than a tree search, which is why this is not a
//! `BTreeMap<BrokerId, Fetcher>`.

use serde::Serialize;

use crate::kafka::{BrokerId, TopicPartition};

#[derive(Clone, Debug, Default)]
pub struct Fetchers {
    /// `by_leader[leader]`; `None` where this broker fetches nothing from that leader.
    by_leader: Vec<Option<Fetcher>>,
}

impl Fetchers {
    pub fn get(&self, leader: &BrokerId) -> Option<&Fetcher> {
        self.by_leader.get(leader.0 as usize)?.as_ref()
    }

    pub fn get_mut(&mut self, leader: &BrokerId) -> Option<&mut Fetcher> {
        self.by_leader.get_mut(leader.0 as usize)?.as_mut()
    }

    /// The leader's fetcher, a fresh one if there was none.
    pub fn get_or_default(&mut self, leader: BrokerId) -> &mut Fetcher {
        let index = leader.0 as usize;
        if self.by_leader.len() <= index {
            self.by_leader.resize_with(index + 1, || None);
        }
        self.by_leader[index].get_or_insert_with(Fetcher::default)
    }

    /// Keeps only the fetchers of the leaders `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(BrokerId) -> bool) {
        for (index, slot) in self.by_leader.iter_mut().enumerate() {
            if slot.is_some() && !keep(BrokerId(index as u32)) {
                *slot = None;
            }
        }
    }

    /// In leader order, as a `BTreeMap` iterates.
    pub fn iter(&self) -> impl Iterator<Item = (BrokerId, &Fetcher)> {
        self.by_leader
            .iter()
            .enumerate()
            .filter_map(|(index, slot)| Some((BrokerId(index as u32), slot.as_ref()?)))
    }

    /// In leader order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (BrokerId, &mut Fetcher)> {
        self.by_leader
            .iter_mut()
            .enumerate()
            .filter_map(|(index, slot)| Some((BrokerId(index as u32), slot.as_mut()?)))
    }

    pub fn clear(&mut self) {
        self.by_leader.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_map_in_leader_order() {
        let mut fetchers = Fetchers::default();
        fetchers.get_or_default(BrokerId(2)).last_sent_ms = 2;
        fetchers.get_or_default(BrokerId(0)).last_sent_ms = 0;
        fetchers.get_or_default(BrokerId(2)).in_flight = Some(7);
        let leaders: Vec<_> = fetchers
            .iter()
            .map(|(l, f)| (l.0, f.last_sent_ms))
            .collect();
        assert_eq!(leaders, [(0, 0), (2, 2)]);
        assert_eq!(fetchers.get(&BrokerId(2)).unwrap().in_flight, Some(7));
        assert!(fetchers.get(&BrokerId(1)).is_none() && fetchers.get(&BrokerId(9)).is_none());
        fetchers.retain(|l| l != BrokerId(0));
        assert!(fetchers.get_mut(&BrokerId(0)).is_none());
        assert_eq!(fetchers.iter().count(), 1);
        fetchers.clear();
        assert_eq!(fetchers.iter().count(), 0);
    }
}

/// One partition a follower fetches from a leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FetcherPartition {
    pub leader_epoch: u32,
    /// After an error the partition sits out until then (`replica.fetch.backoff.ms`).
    pub delayed_until_ms: u64,
}

/// Kafka: a `ReplicaFetcherThread` for one leader (`num.replica.fetchers` = 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Fetcher {
    /// Sorted by topic-partition. A fetcher has a handful of partitions and every fetch walks
    /// them all, which a list does faster than a tree.
    pub partitions: Vec<(TopicPartition, FetcherPartition)>,
    /// The session of the fetch in flight, if any.
    pub in_flight: Option<u64>,
    /// When the last fetch left.
    pub last_sent_ms: u64,
}

impl Fetcher {
    pub fn partition_mut(&mut self, tp: TopicPartition) -> Option<&mut FetcherPartition> {
        let i = self
            .partitions
            .binary_search_by_key(&tp, |&(k, _)| k)
            .ok()?;
        Some(&mut self.partitions[i].1)
    }
}
