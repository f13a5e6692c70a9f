//! A replica's log as the model needs it: the log end offset, the leader epoch cache (Kafka's
//! `LeaderEpochFileCache`, which decides truncation after a leader change), and the most recent
//! batches with the request that wrote them (the page no longer draws them: see the note on
//! `Batch::origin`).

use std::collections::VecDeque;

use serde::Serialize;

/// How many recent batches a log remembers by origin. Older ranges are still replicated, as
/// anonymous batches rebuilt from the epoch cache, so memory stays bounded on long runs.
pub const RECENT_BATCHES: usize = 256;

/// A run of records written by one leader epoch, optionally by one known request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Batch {
    pub base_offset: u64,
    pub count: u64,
    pub leader_epoch: u32,
    /// The produce request (its index in the run) that wrote it, when known. Nothing reads it
    /// since the snapshot stopped carrying each replica's batches; kept (with the recent window
    /// that remembers it) until a view draws log batches again or it is taken out with them.
    pub origin: Option<u32>,
}

impl Batch {
    pub fn end_offset(&self) -> u64 {
        self.base_offset + self.count
    }
}

/// Kafka: an entry of `LeaderEpochFileCache`: the first offset written in `epoch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EpochEntry {
    pub epoch: u32,
    pub start_offset: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Log {
    log_end_offset: u64,
    epochs: Vec<EpochEntry>,
    recent: VecDeque<Batch>,
}

impl Log {
    pub fn log_end_offset(&self) -> u64 {
        self.log_end_offset
    }

    pub fn latest_epoch(&self) -> Option<u32> {
        self.epochs.last().map(|e| e.epoch)
    }

    pub fn epochs(&self) -> &[EpochEntry] {
        &self.epochs
    }

    /// Kafka: `UnifiedLog.appendAsLeader`. Returns the appended batch.
    pub fn append_as_leader(
        &mut self,
        count: u64,
        leader_epoch: u32,
        origin: Option<u32>,
    ) -> Batch {
        let batch = Batch {
            base_offset: self.log_end_offset,
            count,
            leader_epoch,
            origin,
        };
        self.push(batch);
        batch
    }

    /// Kafka: `UnifiedLog.appendAsFollower`. Batches must continue the log exactly; a batch that
    /// does not (a stale response) is ignored. Returns the records appended.
    pub fn append_as_follower(&mut self, batches: &[Batch]) -> u64 {
        let before = self.log_end_offset;
        for batch in batches {
            if batch.base_offset == self.log_end_offset && batch.count > 0 {
                self.push(*batch);
            }
        }
        self.log_end_offset - before
    }

    fn push(&mut self, batch: Batch) {
        if self.latest_epoch().is_none_or(|e| batch.leader_epoch > e) {
            self.epochs.push(EpochEntry {
                epoch: batch.leader_epoch,
                start_offset: batch.base_offset,
            });
        }
        self.log_end_offset = batch.end_offset();
        if self.recent.len() == RECENT_BATCHES {
            self.recent.pop_front();
        }
        self.recent.push_back(batch);
    }

    /// The records in `[from, log_end_offset)`, as batches. Kafka's follower fetch reads up to
    /// the log end offset (isolation `LOG_END`).
    pub fn read(&self, from: u64) -> Vec<Batch> {
        let mut out = Vec::new();
        self.read_into(from, &mut out);
        out
    }

    /// [`Self::read`], appending to `out` (a list the caller reuses).
    pub fn read_into(&self, from: u64, out: &mut Vec<Batch>) {
        if from >= self.log_end_offset {
            return;
        }
        let oldest_known = self
            .recent
            .front()
            .map_or(self.log_end_offset, |b| b.base_offset);
        // Older than the recent window: one anonymous batch per epoch segment.
        let mut at = from;
        while at < oldest_known.min(self.log_end_offset) {
            let (epoch, end) = self.segment_at(at);
            let end = end.min(oldest_known);
            out.push(Batch {
                base_offset: at,
                count: end - at,
                leader_epoch: epoch,
                origin: None,
            });
            at = end;
        }
        // Followers read the newest few batches, so the search runs from the back: it costs as
        // much as the copy that follows, however long the window.
        let unread = self
            .recent
            .iter()
            .rev()
            .take_while(|b| b.end_offset() > at)
            .count();
        out.reserve(unread);
        for batch in self.recent.range(self.recent.len() - unread..) {
            let skip = at.saturating_sub(batch.base_offset);
            out.push(Batch {
                base_offset: batch.base_offset + skip,
                count: batch.count - skip,
                ..*batch
            });
            at = batch.end_offset();
        }
    }

    /// The epoch that wrote `offset` and where that epoch's records end.
    fn segment_at(&self, offset: u64) -> (u32, u64) {
        let i = self.epochs.partition_point(|e| e.start_offset <= offset);
        let epoch = if i == 0 { 0 } else { self.epochs[i - 1].epoch };
        let end = self
            .epochs
            .get(i)
            .map_or(self.log_end_offset, |e| e.start_offset);
        (epoch, end)
    }

    /// How many of the `count` records from `base`, written in leader epoch `epoch`, this log
    /// holds: those up to where its own records of that epoch end, when the epoch that wrote
    /// `base` here is that one (logs that agree on an offset's epoch hold the same records up to
    /// it, Kafka's log matching); none otherwise.
    pub fn holds(&self, base: u64, count: u64, epoch: u32) -> u64 {
        if base >= self.log_end_offset {
            return 0;
        }
        match self.segment_at(base) {
            (e, end) if e == epoch => end.min(base + count) - base,
            _ => 0,
        }
    }

    /// Kafka: `LeaderEpochFileCache.endOffsetFor`: the largest epoch <= `epoch` this log knows,
    /// and the offset where it ends (the next epoch's start, or the log end offset). `None` when
    /// the log knows no epoch that old.
    pub fn end_offset_for_epoch(&self, epoch: u32) -> Option<EpochEntry> {
        // Every follower fetch asks, nearly always about the latest epoch: answer that without
        // the search (it would find the last entry, which ends at the log end offset).
        let latest = self.epochs.last()?;
        if latest.epoch <= epoch {
            return Some(EpochEntry {
                epoch: latest.epoch,
                start_offset: self.log_end_offset,
            });
        }
        let i = self.epochs.partition_point(|e| e.epoch <= epoch);
        if i == 0 {
            return None;
        }
        let found = self.epochs[i - 1].epoch;
        let end = self
            .epochs
            .get(i)
            .map_or(self.log_end_offset, |e| e.start_offset);
        Some(EpochEntry {
            epoch: found,
            start_offset: end,
        })
    }

    /// Kafka: `UnifiedLog.maybeAssignEpochStartOffset`: a new leader records where its epoch
    /// starts before it appends anything, so that followers can detect divergence against it.
    pub fn assign_epoch_start_offset(&mut self, epoch: u32) {
        if self.latest_epoch().is_none_or(|e| epoch > e) {
            self.epochs.push(EpochEntry {
                epoch,
                start_offset: self.log_end_offset,
            });
        }
    }

    /// Kafka: `UnifiedLog.truncateTo`. Drops everything at and above `offset`, including epoch
    /// entries that start there (a former leader's epoch with no records of its own).
    pub fn truncate_to(&mut self, offset: u64) {
        self.epochs.retain(|e| e.start_offset < offset);
        if offset >= self.log_end_offset {
            return;
        }
        self.log_end_offset = offset;
        while let Some(last) = self.recent.back_mut() {
            if last.base_offset >= offset {
                self.recent.pop_back();
            } else {
                last.count = last.count.min(offset - last.base_offset);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_spans_epochs_and_the_recent_window() {
        let mut log = Log::default();
        log.append_as_leader(10, 0, Some(1));
        log.append_as_leader(5, 2, Some(2));
        assert_eq!(log.log_end_offset(), 15);
        let read = log.read(7);
        assert_eq!(read.len(), 2);
        assert_eq!(
            (read[0].base_offset, read[0].count, read[0].origin),
            (7, 3, Some(1))
        );
        assert_eq!(
            (read[1].base_offset, read[1].count, read[1].leader_epoch),
            (10, 5, 2)
        );
    }

    #[test]
    fn reads_older_than_the_window_are_rebuilt_from_epochs() {
        let mut log = Log::default();
        for i in 0..(RECENT_BATCHES as u64 + 10) {
            log.append_as_leader(1, if i < 5 { 0 } else { 1 }, Some(i as u32));
        }
        let read = log.read(0);
        let total: u64 = read.iter().map(|b| b.count).sum();
        assert_eq!(total, log.log_end_offset());
        assert_eq!(
            (read[0].count, read[0].leader_epoch, read[0].origin),
            (5, 0, None)
        );
        let mut follower = Log::default();
        assert_eq!(follower.append_as_follower(&read), log.log_end_offset());
        assert_eq!(follower.epochs(), log.epochs());
    }

    #[test]
    fn epoch_end_offsets_and_truncation() {
        let mut log = Log::default();
        log.append_as_leader(10, 0, None);
        log.append_as_leader(10, 3, None);
        assert_eq!(
            log.end_offset_for_epoch(0),
            Some(EpochEntry {
                epoch: 0,
                start_offset: 10
            })
        );
        assert_eq!(
            log.end_offset_for_epoch(2),
            Some(EpochEntry {
                epoch: 0,
                start_offset: 10
            })
        );
        assert_eq!(
            log.end_offset_for_epoch(3),
            Some(EpochEntry {
                epoch: 3,
                start_offset: 20
            })
        );
        log.truncate_to(12);
        assert_eq!(log.log_end_offset(), 12);
        assert_eq!(log.read(10)[0].count, 2);
        log.truncate_to(10);
        assert_eq!(log.latest_epoch(), Some(0));
    }
}
