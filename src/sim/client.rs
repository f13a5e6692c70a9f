//! The producer's own timeout (kafka-semantics.md, edge case 17), apart from the broker's.
//!
//! A Java producer sends `request.timeout.ms` as the ProduceRequest's `timeoutMs`, and its network
//! client also fails a request in flight for longer than that: `InFlightRequests` counts a request
//! expired once more than `requestTimeoutMs` has passed since it was sent, `NetworkClient` then
//! closes the connection, and `Sender.handleProduceResponse` fails the request with
//! REQUEST_TIMED_OUT ("Disconnected from node ... due to timeout"). The broker is not told: its
//! delayed produce waits on and answers into the closed connection. With one setting for both,
//! the broker's timeout, started on arrival, always runs out first here (`at_ms` is when the
//! request reaches the broker, and the model has no client-broker delay); on a real client the
//! two race (the page's legend says so).
//! A request whose `timeout_ms` is longer than the producer's `request_timeout_ms` (another
//! client, or a per-request timeout) is where the producer gives up first, and only such a
//! request gets the producer's deadline on the agenda: the common case costs nothing.
//!
//! The deadline is checked once everything else of its millisecond has run: `NetworkClient.poll`
//! handles the answers it has received before it looks for requests that timed out, so an answer
//! the broker sends in that millisecond is read.
//!
//! Kafka's client closes the whole connection, failing every request in flight on it; here each
//! request has a connection of its own (as the Kafka check's client does), so only this one fails.
//! Retrying it is the roadmap's producer retries. A broker that crashes after the producer left
//! drops a connection nobody holds: the request's record does not say its connection dropped.

use super::queue::Scheduled;
use super::Simulation;
use crate::kafka::requests::{client_deadline_ms, RequestIdx};
use crate::kafka::trace::{Event, EventId};

impl Simulation {
    /// Puts the producer's own deadline for `request` on the agenda, when the broker may answer
    /// after it: at the first millisecond at which more than `request_timeout_ms` has passed
    /// since the request was sent.
    pub(super) fn schedule_client_deadline(&mut self, request: RequestIdx, cause: Option<EventId>) {
        let record = self.requests.get(request);
        let client_timeout_ms = self.config.request_timeout_ms;
        if record.client_waiting() && record.timeout_ms > client_timeout_ms {
            let at_ms = client_deadline_ms(record.received_ms, client_timeout_ms);
            self.agenda
                .schedule(at_ms, Scheduled::ClientDeadline { request }, cause);
        }
    }

    /// The end of a millisecond: the producers whose deadlines came due in it give up on their
    /// requests, unless the broker has answered (or dropped the connection) by now.
    pub(super) fn check_client_deadlines(&mut self) {
        if self.client_deadlines_due.is_empty() {
            return;
        }
        for (request, cause) in std::mem::take(&mut self.client_deadlines_due) {
            self.on_client_deadline(request, cause);
        }
    }

    fn on_client_deadline(&mut self, request: RequestIdx, cause: Option<EventId>) {
        let now_ms = self.now_ms;
        let record = self.requests.get_mut(request);
        if !record.client_waiting() {
            return;
        }
        let request_timeout_ms = self.config.request_timeout_ms;
        debug_assert_eq!(
            now_ms,
            client_deadline_ms(record.received_ms, request_timeout_ms)
        );
        record.client_gave_up = true;
        let (id, broker) = (record.id.to_string(), record.broker);
        self.trace
            .emit(now_ms, cause, || Event::ClientRequestTimedOut {
                request: id,
                broker,
                request_timeout_ms,
            });
    }
}
