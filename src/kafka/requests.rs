//! The client's side of each produce request: when it was sent, whether and when it was answered,
//! and with what per partition. This is what the result document's `responses` reports.

use std::rc::Rc;

use serde::Serialize;

use super::errors::ErrorCode;
use super::BrokerId;

/// Index of a produce request in its run (the order of the produce actions).
pub type RequestIdx = u32;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionAnswer {
    /// Shared with the cluster's topic list when the topic exists (millions of requests name
    /// the same few topics).
    pub topic: Rc<str>,
    pub partition: i64,
    /// `None` until answered (and forever, for a request never answered).
    pub error: Option<ErrorCode>,
    /// The first offset appended, or -1.
    pub base_offset: i64,
    /// How many records the request carried for this partition.
    pub count: u64,
    /// The leader epoch its records were appended in (0 until appended).
    #[serde(skip)]
    pub leader_epoch: u32,
}

/// Records a producer was told were written (acks=1 or all, answered NONE) that the log of the
/// partition's new leader does not hold: gone for good, since the old leader truncates them when
/// it follows again (roadmap: an unclean election loses them the same way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostRecords {
    pub request: RequestIdx,
    /// The partition's place in the request.
    pub slot: usize,
    pub first_offset: u64,
    pub last_offset: u64,
    pub at_ms: u64,
    /// The broker that appended and acknowledged them, and its epoch then.
    pub acknowledged_by: BrokerId,
    pub acknowledged_epoch: u32,
    /// The leader whose log lacks them.
    pub leader: BrokerId,
    pub leader_epoch: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProduceRecord {
    /// Shared with the result document, which reports every request by its id.
    pub id: Rc<str>,
    pub broker: BrokerId,
    pub acks: i64,
    pub timeout_ms: u64,
    pub received_ms: u64,
    pub responded_ms: Option<u64>,
    pub connection_closed: bool,
    /// The producer's own `request.timeout.ms` ran out with no answer (edge case 17), at
    /// [`client_deadline_ms`]: it closed the connection and failed the request itself, while the
    /// broker kept it and may answer later, unread. A flag, not a time, so that the record stays
    /// 64 bytes (a long run keeps millions).
    pub client_gave_up: bool,
}

/// The first millisecond at which more than the producer's own `request.timeout.ms` has passed
/// since it sent a request that reached the broker at `received_ms` (the model has no
/// client-broker delay): where its network client gives up on the request.
pub fn client_deadline_ms(received_ms: u64, client_timeout_ms: u64) -> u64 {
    received_ms + client_timeout_ms + 1
}

impl ProduceRecord {
    /// Still waiting for the broker (not answered, not acks=0, connection open). The broker
    /// still owes an answer after the producer gave up, so this stays true then.
    pub fn is_waiting(&self) -> bool {
        self.responded_ms.is_none() && !self.connection_closed && self.acks != 0
    }

    /// The producer still waits for this answer: the broker owes one and the producer has not
    /// given up on it.
    pub fn client_waiting(&self) -> bool {
        self.is_waiting() && !self.client_gave_up
    }

    /// When the producer gave up on it, given its own `request.timeout.ms`, if it did.
    pub fn client_timed_out_ms(&self, client_timeout_ms: u64) -> Option<u64> {
        self.client_gave_up
            .then(|| client_deadline_ms(self.received_ms, client_timeout_ms))
    }

    /// Whether the producer read the broker's answer (or, for acks=0, expects none): false for
    /// one still waiting, one whose connection dropped, and one the producer gave up on.
    pub fn client_read_answer(&self) -> bool {
        !self.client_gave_up && (self.responded_ms.is_some() || self.acks == 0)
    }
}

/// Every request of the run, kept to the end for the result document. A long run keeps
/// millions, so the partition answers of all requests share one list instead of each request
/// allocating its own: request `i` owns `answers[starts[i]..starts[i + 1]]` (to the end, for the
/// last).
#[derive(Clone, Debug, Default)]
pub struct RequestLog {
    records: Vec<ProduceRecord>,
    starts: Vec<usize>,
    answers: Vec<PartitionAnswer>,
    lost: Vec<LostRecords>,
}

impl RequestLog {
    pub fn push(
        &mut self,
        record: ProduceRecord,
        partitions: impl IntoIterator<Item = PartitionAnswer>,
    ) -> RequestIdx {
        self.records.push(record);
        self.starts.push(self.answers.len());
        self.answers.extend(partitions);
        (self.records.len() - 1) as RequestIdx
    }

    /// The request's partitions, in request order.
    pub fn partitions(&self, idx: RequestIdx) -> &[PartitionAnswer] {
        &self.answers[self.span(idx)]
    }

    pub fn partitions_mut(&mut self, idx: RequestIdx) -> &mut [PartitionAnswer] {
        let span = self.span(idx);
        &mut self.answers[span]
    }

    fn span(&self, idx: RequestIdx) -> std::ops::Range<usize> {
        let i = idx as usize;
        let end = self
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or(self.answers.len());
        self.starts[i]..end
    }

    /// Every request with its partitions, in the order they arrived.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&ProduceRecord, &[PartitionAnswer])> + ExactSizeIterator
    {
        self.records
            .iter()
            .enumerate()
            .map(|(i, r)| (r, self.partitions(i as RequestIdx)))
    }

    pub fn get(&self, idx: RequestIdx) -> &ProduceRecord {
        &self.records[idx as usize]
    }

    pub fn get_mut(&mut self, idx: RequestIdx) -> &mut ProduceRecord {
        &mut self.records[idx as usize]
    }

    pub fn all(&self) -> &[ProduceRecord] {
        &self.records
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Every acknowledged partition of `topic`/`partition` that `leader`'s log lacks, now that
    /// it leads it in `leader_epoch`, and that was not reported before: `held(base, count,
    /// epoch)` says how many of an answer's records the log holds. A scan of the whole run, as
    /// leader changes are rare; the new losses are noted (each answer once) and returned.
    pub fn note_lost(
        &mut self,
        (topic, partition): (&str, u32),
        held: impl Fn(u64, u64, u32) -> u64,
        (at_ms, leader, leader_epoch): (u64, BrokerId, u32),
    ) -> &[LostRecords] {
        let before = self.lost.len();
        for (i, record) in self.records.iter().enumerate() {
            // Acknowledged: answered, with acks 1 or all, and read (acks=0 is never told
            // anything; a producer that gave up never read its answer).
            if record.acks == 0 || !record.client_read_answer() {
                continue;
            }
            let request = i as RequestIdx;
            let end = self
                .starts
                .get(i + 1)
                .copied()
                .unwrap_or(self.answers.len());
            for (slot, p) in self.answers[self.starts[i]..end].iter().enumerate() {
                let acknowledged = p.error == Some(ErrorCode::None) && p.base_offset >= 0;
                if !acknowledged || &*p.topic != topic || p.partition != i64::from(partition) {
                    continue;
                }
                let base = p.base_offset as u64;
                let kept = held(base, p.count, p.leader_epoch);
                let reported = self.lost[..before]
                    .iter()
                    .any(|l| l.request == request && l.slot == slot);
                if kept < p.count && !reported {
                    self.lost.push(LostRecords {
                        request,
                        slot,
                        first_offset: base + kept,
                        last_offset: base + p.count - 1,
                        at_ms,
                        acknowledged_by: record.broker,
                        acknowledged_epoch: p.leader_epoch,
                        leader,
                        leader_epoch,
                    });
                }
            }
        }
        &self.lost[before..]
    }

    /// The acknowledged records lost so far, in the order they were lost.
    pub fn lost(&self) -> &[LostRecords] {
        &self.lost
    }

    /// Records the response the broker sends now. A request is answered at most once.
    pub fn respond(&mut self, idx: RequestIdx, now_ms: u64) {
        let record = &mut self.records[idx as usize];
        assert!(
            record.responded_ms.is_none(),
            "request {} answered twice",
            record.id
        );
        record.responded_ms = Some(now_ms);
    }
}

#[cfg(all(test, target_pointer_width = "64"))]
mod tests {
    use super::ProduceRecord;

    /// A long run keeps millions of records: the producer's own timeout added a flag, which fits
    /// in what was padding.
    #[test]
    fn a_record_is_64_bytes() {
        assert_eq!(std::mem::size_of::<ProduceRecord>(), 64);
    }
}
