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
}

impl ProduceRecord {
    /// Still waiting for the broker (not answered, not acks=0, connection open).
    pub fn is_waiting(&self) -> bool {
        self.responded_ms.is_none() && !self.connection_closed && self.acks != 0
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
