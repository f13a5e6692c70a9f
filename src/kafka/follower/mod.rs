//! The follower side of replication: Kafka's `ReplicaFetcherThread` loop, one fetcher per
//! leader (`num.replica.fetchers` = 1), the next fetch sent as soon as a response is appended,
//! truncation on a diverging epoch, and back-off after errors.

pub mod fetchers;

use super::broker::Broker;
use super::messages::{
    fetch_parts, Ctx, FetchPartitionRequest, FetchRequest, FetchResponse, Outgoing,
};
use super::{reasons, BrokerId, TopicPartition};
use crate::kafka::trace::{Event, EventId, FetchDataPart};
use fetchers::FetcherPartition;

impl Broker {
    /// Points each followed partition at its current leader's fetcher (Kafka:
    /// `ReplicaFetcherManager.addFetcherForPartitions` / `removeFetcherForPartitions`), then lets
    /// idle fetchers send.
    pub fn sync_fetchers(&mut self, cause: Option<EventId>, ctx: &mut Ctx) {
        // Per leader, in broker id order, its partitions with their epochs: sorted, as the hosted
        // partitions iterate in order. (Vecs, not maps: two more `BTreeMap` types would cost the
        // .wasm about 2 KB gzipped.)
        let mut wanted: Vec<(BrokerId, Vec<(TopicPartition, u32)>)> = Vec::new();
        for (&tp, p) in &self.partitions {
            if let (false, Some(leader)) = (p.is_leader(), p.leader) {
                let i = match wanted.binary_search_by_key(&leader, |&(l, _)| l) {
                    Ok(i) => i,
                    Err(i) => {
                        wanted.insert(i, (leader, Vec::new()));
                        i
                    }
                };
                wanted[i].1.push((tp, p.leader_epoch));
            }
        }
        self.fetchers
            .retain(|leader| wanted.binary_search_by_key(&leader, |&(l, _)| l).is_ok());
        for (leader, parts) in wanted {
            let fetcher = self.fetchers.get_or_default(leader);
            // A partition keeps its state (its back-off) while its leader epoch stays the same;
            // `parts` iterates in order, so the list comes out sorted.
            let before = std::mem::take(&mut fetcher.partitions);
            fetcher.partitions = parts
                .into_iter()
                .map(|(tp, epoch)| {
                    let kept = before
                        .binary_search_by_key(&tp, |&(k, _)| k)
                        .ok()
                        .map(|i| before[i].1)
                        .filter(|fp| fp.leader_epoch == epoch);
                    let fresh = FetcherPartition {
                        leader_epoch: epoch,
                        delayed_until_ms: 0,
                    };
                    (tp, kept.unwrap_or(fresh))
                })
                .collect();
        }
        self.send_idle_fetches(cause, ctx);
    }

    /// Every fetcher with nothing in flight sends its next fetch (unless fetching is paused).
    pub fn send_idle_fetches(&mut self, cause: Option<EventId>, ctx: &mut Ctx) {
        let leaders: Vec<BrokerId> = self
            .fetchers
            .iter()
            .filter(|(_, f)| f.in_flight.is_none())
            .map(|(l, _)| l)
            .collect();
        for leader in leaders {
            self.send_fetch(leader, cause, ctx);
        }
    }

    /// Kafka: `AbstractFetcherThread.maybeFetch`: one fetch for every ready partition of this
    /// leader, each from the follower's own log end offset.
    pub fn send_fetch(&mut self, leader: BrokerId, cause: Option<EventId>, ctx: &mut Ctx) {
        if !self.running || self.fetching_paused {
            return;
        }
        let session = self.new_fetch_session();
        let Some(fetcher) = self.fetchers.get_mut(&leader) else {
            return;
        };
        if fetcher.in_flight.is_some() {
            return;
        }
        let now = ctx.now_ms;
        let mut partitions = ctx.fetch_buffers.request_list();
        let mut next_ready: Option<u64> = None;
        for &(tp, fp) in &fetcher.partitions {
            if fp.delayed_until_ms > now {
                next_ready =
                    Some(next_ready.map_or(fp.delayed_until_ms, |t| t.min(fp.delayed_until_ms)));
                continue;
            }
            let p = &self.partitions[&tp];
            partitions.push(FetchPartitionRequest {
                tp,
                fetch_offset: p.log_end_offset(),
                last_fetched_epoch: p.log.latest_epoch(),
                current_leader_epoch: fp.leader_epoch,
            });
        }
        if partitions.is_empty() {
            ctx.fetch_buffers.recycle_request(partitions);
            if let Some(at_ms) = next_ready {
                ctx.send(
                    Outgoing::FetcherWake {
                        follower: self.id,
                        leader,
                        at_ms,
                    },
                    cause,
                );
            }
            return;
        }
        fetcher.in_flight = Some(session);
        fetcher.last_sent_ms = now;
        let request = FetchRequest {
            follower: self.id,
            leader,
            session,
            broker_epoch: self.broker_epoch,
            max_wait_ms: ctx.config.replica_fetch_wait_max_ms,
            partitions,
        };
        if ctx.trace.enabled() {
            let parts = fetch_parts(&request, ctx);
            let follower = self.id;
            let id = ctx.emit(cause, || Event::FetchSent {
                follower,
                leader,
                partitions: parts,
            });
            return ctx.send(Outgoing::Fetch(request), id);
        }
        ctx.send(Outgoing::Fetch(request), cause);
    }

    /// Kafka: `ReplicaFetcherThread.processPartitionData`: append, take the leader's HW (capped
    /// at the own log end), truncate on a diverging epoch, back off a partition on an error;
    /// then fetch again at once.
    pub fn on_fetch_response(
        &mut self,
        response: FetchResponse,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let Some(fetcher) = self.fetchers.get_mut(&response.leader) else {
            return;
        };
        if fetcher.in_flight != Some(response.session) {
            return; // A response to a fetcher state that no longer exists.
        }
        fetcher.in_flight = None;
        let sent_ms = fetcher.last_sent_ms;
        let backoff_until = ctx.now_ms + ctx.config.replica_fetch_backoff_ms();
        for data in &response.partitions {
            let Some(fp) = fetcher.partition_mut(data.tp) else {
                continue;
            };
            let Some(p) = self.partitions.get_mut(&data.tp) else {
                continue;
            };
            if data.error.is_error() {
                fp.delayed_until_ms = backoff_until;
            } else if let Some(diverging) = data.diverging {
                // Kafka: `AbstractFetcherThread.getOffsetTruncationState`: truncate to where the
                // leader's epoch ends, but no further than where this log's own records of that
                // epoch (or the latest older one) end, so the next fetch carries an older epoch
                // and the exchange converges.
                let from = p.log_end_offset();
                let own_end = p
                    .log
                    .end_offset_for_epoch(diverging.epoch)
                    .map_or(0, |e| e.start_offset);
                let to = diverging.start_offset.min(own_end).min(from);
                p.truncate_to(to);
                if to < from {
                    let (broker, name) = (self.id, ctx.tp_name(data.tp));
                    ctx.emit(cause, || Event::LogTruncated {
                        broker,
                        tp: name,
                        from,
                        to,
                    });
                }
            } else if data.fetch_offset == p.log_end_offset() {
                p.log.append_as_follower(&data.batches);
                p.update_follower_high_watermark(data.high_watermark);
            }
        }
        let mut cause = cause;
        if ctx.trace.enabled() {
            let (follower, leader) = (self.id, response.leader);
            let partitions = response
                .partitions
                .iter()
                .map(|d| {
                    let p = &self.partitions[&d.tp];
                    FetchDataPart {
                        tp: ctx.tp_name(d.tp),
                        error: d.error.name(),
                        records: d.records(),
                        high_watermark: p.high_watermark,
                        log_end_offset: p.log_end_offset(),
                        diverging_end_offset: d.diverging.map(|e| e.start_offset),
                    }
                })
                .collect();
            cause = ctx.emit(cause, || Event::FetchResponseReceived {
                follower,
                leader,
                partitions,
            });
        }
        let empty = response
            .partitions
            .iter()
            .all(|d| d.records() == 0 && d.diverging.is_none());
        ctx.fetch_buffers.recycle_response(response.partitions);
        if empty && sent_ms == ctx.now_ms {
            // With no network delay and no fetch wait, an empty round trip takes no simulated
            // time; a real fetcher loop still takes some, so the next fetch leaves 1 ms later
            // instead of spinning within one millisecond.
            let (follower, leader) = (self.id, response.leader);
            ctx.send(
                Outgoing::FetcherWake {
                    follower,
                    leader,
                    at_ms: ctx.now_ms + 1,
                },
                cause,
            );
            return;
        }
        self.send_fetch(response.leader, cause, ctx);
    }

    /// The connection to the leader broke (it crashed): back off, then retry.
    pub fn on_fetch_failed(
        &mut self,
        leader: BrokerId,
        session: u64,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let Some(fetcher) = self.fetchers.get_mut(&leader) else {
            return;
        };
        if fetcher.in_flight != Some(session) {
            return;
        }
        fetcher.in_flight = None;
        let retry_at_ms = ctx.now_ms + ctx.config.replica_fetch_backoff_ms();
        for (_, fp) in &mut fetcher.partitions {
            fp.delayed_until_ms = retry_at_ms;
        }
        let follower = self.id;
        let id = ctx.emit(cause, || Event::FetchFailed {
            follower,
            leader,
            reason: reasons::LEADER_LOST.into(),
            retry_at_ms,
        });
        ctx.send(
            Outgoing::FetcherWake {
                follower,
                leader,
                at_ms: retry_at_ms,
            },
            id,
        );
    }
}
