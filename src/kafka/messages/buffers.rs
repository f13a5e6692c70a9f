//! Spare lists for replication's messages. Every simulated millisecond of a busy run, brokers
//! build a few fetch requests and responses (a list of partitions each, and a list of batches
//! for each partition read) that another broker consumes a network delay later. The consumer
//! hands the emptied lists back here and the next message reuses them, so steady replication
//! allocates nothing. Only capacity is recycled: a list is always empty when handed out.
//!
//! The pool stays small without a cap: at most one fetch per fetcher is in flight, so it never
//! holds more partition lists than the cluster has fetchers, nor more batch lists than those
//! messages carried partitions.

use super::{FetchPartitionData, FetchPartitionRequest};
use crate::kafka::log::Batch;

#[derive(Clone, Debug, Default)]
pub struct FetchBuffers {
    requests: Vec<Vec<FetchPartitionRequest>>,
    responses: Vec<Vec<FetchPartitionData>>,
    batches: Vec<Vec<Batch>>,
}

impl FetchBuffers {
    /// An empty list for a fetch request's partitions.
    pub fn request_list(&mut self) -> Vec<FetchPartitionRequest> {
        self.requests.pop().unwrap_or_default()
    }

    /// An empty list for a fetch response's partitions.
    pub fn response_list(&mut self) -> Vec<FetchPartitionData> {
        self.responses.pop().unwrap_or_default()
    }

    /// An empty list for the batches read from one partition.
    pub fn batch_list(&mut self) -> Vec<Batch> {
        self.batches.pop().unwrap_or_default()
    }

    /// Takes back a consumed request's partition list.
    pub fn recycle_request(&mut self, mut list: Vec<FetchPartitionRequest>) {
        if list.capacity() > 0 {
            list.clear();
            self.requests.push(list);
        }
    }

    /// Takes back a consumed response's partition list, and each partition's batch list.
    /// Inlined: every fetch answered or parked comes through here, with a few partitions.
    #[inline(always)]
    pub fn recycle_response(&mut self, mut list: Vec<FetchPartitionData>) {
        for data in list.drain(..) {
            self.recycle_batches(data.batches);
        }
        if list.capacity() > 0 {
            self.responses.push(list);
        }
    }

    fn recycle_batches(&mut self, mut list: Vec<Batch>) {
        if list.capacity() > 0 {
            list.clear();
            self.batches.push(list);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::errors::ErrorCode;
    use crate::kafka::TopicPartition;

    #[test]
    fn lists_come_back_empty_with_their_capacity() {
        let mut buffers = FetchBuffers::default();
        let mut batches = buffers.batch_list();
        batches.push(Batch {
            base_offset: 0,
            count: 1,
            leader_epoch: 0,
            origin: None,
        });
        let mut partitions = buffers.response_list();
        partitions.push(FetchPartitionData {
            tp: TopicPartition {
                topic: 0,
                partition: 0,
            },
            error: ErrorCode::None,
            fetch_offset: 0,
            high_watermark: 0,
            log_end_offset: 1,
            batches,
            diverging: None,
        });
        buffers.recycle_response(partitions);
        let (partitions, batches) = (buffers.response_list(), buffers.batch_list());
        assert!(partitions.is_empty() && partitions.capacity() >= 1);
        assert!(batches.is_empty() && batches.capacity() >= 1);
        // Never-used lists own nothing worth keeping.
        buffers.recycle_request(Vec::new());
        assert!(buffers.requests.is_empty());
    }
}
