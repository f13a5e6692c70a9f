// What a playground remembers of the events its playhead passed: the log's lines, the recent
// events by id (to follow `cause` links), and the story of the request the code path follows.
// Bounded: the log keeps its last few thousand lines. After the playhead jumps (a seek), the
// model hands over the events leading up to the new instant and this starts over from them; the
// followed request's whole story comes from the model (`requestEvents`), however old it is.
import { narrate, category, requestOf } from './narrate.js';

const MAX_LINES = 3000;
const MAX_BY_ID = 20000;
const isProduce = (e) => String(e.purgatory).toLowerCase() === 'produce';

/** Events that repeat while nothing changes, and what makes two of them the same line. */
function foldKey(e) {
  switch (e.event) {
    case 'follower_state_updated':
      return e.previous_log_end_offset === e.log_end_offset ? `fsu ${e.leader} ${e.follower} ${e.tp} ${e.log_end_offset}` : null;
    case 'high_watermark_held':
      return `hwh ${e.broker} ${e.tp} ${e.high_watermark} ${e.bound?.reason} ${e.bound?.broker}`;
    case 'fetch_sent': case 'fetch_received': case 'fetch_parked': case 'fetch_response_sent': case 'fetch_response_received':
      return `${e.event} ${e.follower} ${e.leader}`;
    default:
      return null;
  }
}

export class EventHistory {
  /** @param {import('./i18n.js').Translator} tr the language the log's lines are written in */
  constructor(tr) {
    this.tr = tr;
    this.reset();
    this.trackId = null;
    this.trackEvents = [];
    this.trackSeen = new Set();
  }

  reset() {
    this.lines = [];
    this.byId = new Map();
    this.dropped = 0;
  }

  add(events, dropped = 0) {
    this.dropped += dropped;
    for (const [i, e] of events.entries()) {
      this.byId.set(e.id, e);
      this.lines.push({ at: e.at_ms, id: e.id, cat: category(e), text: narrate(e, this.tr, events[i + 1]), request: requestOf(e), fold: foldKey(e) });
      // A batch after a jump repeats events the track already took from the model (its story up
      // to the playhead): each is followed once.
      if (this.trackId && !this.trackSeen.has(e.id) && this.belongs(e)) {
        this.trackSeen.add(e.id);
        this.trackEvents.push(e);
      }
    }
    if (this.byId.size > MAX_BY_ID) {
      const it = this.byId.keys();
      for (let n = this.byId.size - MAX_BY_ID; n > 0; n--) this.byId.delete(it.next().value);
    }
    if (this.lines.length > MAX_LINES) this.trim();
  }

  /**
   * Keeps the log to its bound: the oldest idle lines go first (fetches and held HWs that changed
   * nothing, which fold into counts anyway), then, if that is not enough, the oldest lines; each
   * one dropped is counted, and the log says so. Trimmed to nine tenths, so not on every batch.
   */
  trim() {
    let excess = this.lines.length - Math.floor(MAX_LINES * 0.9);
    this.dropped += excess;
    const kept = this.lines.filter((l) => !(l.fold && excess > 0 && excess--));
    this.lines = excess > 0 ? kept.slice(excess) : kept;
  }

  /** Follows request `id`, starting from its story so far (`events`, from the model). */
  track(id, events) {
    this.trackId = id;
    this.trackEvents = [];
    this.trackSeen = new Set();
    this.trackState = { broker: null, op: null, keys: [], waiting: false, done: false };
    for (const e of events ?? []) {
      this.byId.set(e.id, e);
      this.belongs(e);
      this.trackSeen.add(e.id);
      this.trackEvents.push(e);
    }
  }

  /** Whether an event is part of the followed request's story (and learns from it). */
  belongs(e) {
    const s = this.trackState;
    if (!s) return false;
    const mine = requestOf(e) === this.trackId;
    // After the response only the request's own events (onExpiration follows onComplete's answer).
    if (s.done && !mine) return false;
    if (mine) {
      if (e.event === 'produce_received') { s.broker = e.broker; s.keys = e.partitions.map(([tp]) => tp); }
      if (e.event === 'delayed_produce_created') s.op = `${e.op.slot}.${e.op.generation}`;
      if (e.event === 'operation_completed' || e.event === 'operation_expired') s.waiting = false;
      if (e.event === 'produce_response_sent' || e.event === 'connection_closed') s.done = true;
      return true;
    }
    const onKey = (tp) => s.keys.includes(tp);
    switch (e.event) {
      case 'operation_watched':
        if (e.broker === s.broker && `${e.op.slot}.${e.op.generation}` === s.op) {
          s.keys = e.keys;
          s.waiting = true;
          return true;
        }
        return false;
      case 'timer_added':
        return e.broker === s.broker && `${e.op.slot}.${e.op.generation}` === s.op;
      case 'check_and_complete':
        return s.waiting && isProduce(e) && e.broker === s.broker && onKey(e.key);
      case 'high_watermark_advanced':
        return s.waiting && e.broker === s.broker && onKey(e.tp);
      case 'isr_change_committed': case 'partition_changed':
        return s.waiting && onKey(e.tp);
      default:
        return false;
    }
  }

  /** The followed request's track for the code path: `{id, events, checks}` or null. */
  trackOf(id) {
    if (!id || id !== this.trackId) return null;
    const events = this.trackEvents;
    return { id, events, checks: events.filter((e) => e.event === 'check_and_complete') };
  }

  /** The timer-entry labels (`slot.generation`) of the followed request, for the wheel. */
  selectedOps(id) {
    const out = new Set();
    if (id && id === this.trackId) {
      for (const e of this.trackEvents) if (e.event === 'delayed_produce_created') out.add(`${e.op.slot}.${e.op.generation}`);
    }
    return out;
  }

  event(id) {
    return this.byId.get(id) ?? this.trackEvents.find((e) => e.id === id);
  }
}
