// The playground's clock: requestAnimationFrame wall time → whole simulated milliseconds. The
// simulation only ever sees whole milliseconds, so the state at simulated time t never depends on
// the frame rate; only how often we look at it does.
//
// Two ways to pace it:
// - a fixed speed (simulated ms per wall ms), the manual control;
// - `auto`, the story pace: the clock holds still for a moment after each notable instant (one that
//   makes a timeline marker: a request sent or answered, the HW moving, an ISR change...), then
//   runs in slow motion, so messages can be seen travelling, and speeds up the longer nothing
//   notable happens: quiet stretches of idle fetches and heartbeats pass in a second or two. When
//   the next marker is known (a scenario's run is computed ahead), it slows down again before it.
//   The model itself stops the clock at each notable instant (`advance(ms, stopAtNotable)`), so
//   no moment is skipped however fast the quiet stretch before it ran.

/** A frame longer than this counts as this long (a slow frame does not make a leap). */
export const MAX_FRAME_MS = 100;
/** A gap longer than this (hidden tab, debugger) is skipped, as RaftScope does. */
export const SKIP_GAP_MS = 500;

/** How long the auto pace holds after a notable instant, in wall ms. */
export const DWELL_MS = 2200;
/** Slow motion: simulated ms per wall ms right after a hold (1 ms every 50 ms). */
const SLOW = 0.02;
/** The auto pace doubles every this many wall ms of quiet. */
const DOUBLING_MS = 300;
/** The auto pace's top speed: 20 simulated seconds per wall second. */
const FASTEST = 20;
/** Approaching a known marker, the pace arrives over about this many wall ms. */
const APPROACH_MS = 700;
/** A hold ends at least this many wall ms before the next may start. */
const BETWEEN_HOLDS_MS = 300;
/** At most this many holds in `HOLD_WINDOW_MS` of wall time: a busy cluster keeps moving. */
const MAX_HOLDS = 5;
const HOLD_WINDOW_MS = 20000;

export class SimClock {
  /**
   * @param {(ms: number, stopAtNotable: boolean) => {notable?: boolean} | void} advance runs `ms`
   *   whole simulated ms (possibly stopping early at a notable instant, which it reports)
   * @param {() => void} onFrame called every frame (render)
   */
  constructor(advance, onFrame) {
    this.advance = advance;
    this.onFrame = onFrame;
    this.speed = 'auto';
    this.playing = false;
    this.carry = 0; // fractional simulated ms not yet run, in [0, 1)
    this.last = null;
    this.handle = null;
    this.holdUntil = 0;
    this.quietSince = 0;
    this.holds = [];
    this.rate = 0;
    /** When the next marker is, if known: set by the app each frame. */
    this.nextMarkerMs = null;
    this.nowMs = 0;
    this.tick = this.tick.bind(this);
  }

  start() {
    if (this.handle === null) this.handle = requestAnimationFrame(this.tick);
  }

  stop() {
    if (this.handle !== null) cancelAnimationFrame(this.handle);
    this.handle = null;
    this.last = null;
  }

  get running() {
    return this.handle !== null;
  }

  setPlaying(playing) {
    this.playing = playing;
    this.last = null;
    this.carry = 0;
    if (playing) this.quietSince = performance.now();
  }

  /** Holds the auto pace on the instant just reached (a notable one). */
  hold(wall = performance.now()) {
    this.holdUntil = wall + DWELL_MS;
    this.quietSince = this.holdUntil;
    this.holds.push(wall);
  }

  /** Whether the auto pace may hold on the next notable instant. */
  mayHold(wall) {
    this.holds = this.holds.filter((t) => wall - t < HOLD_WINDOW_MS);
    return wall >= this.holdUntil + BETWEEN_HOLDS_MS && this.holds.length < MAX_HOLDS;
  }

  /** Simulated ms per wall ms now. */
  rateAt(wall) {
    if (this.speed !== 'auto') return this.speed;
    if (wall < this.holdUntil) return 0;
    let rate = Math.min(FASTEST, SLOW * 2 ** ((wall - this.quietSince) / DOUBLING_MS));
    if (this.nextMarkerMs != null) {
      const gap = this.nextMarkerMs - this.nowMs;
      rate = Math.min(rate, Math.max(SLOW, gap / APPROACH_MS));
    }
    return rate;
  }

  /** Fraction of the next millisecond already elapsed, for drawing messages between whole ms. */
  get fraction() {
    return this.playing ? this.carry : 0;
  }

  tick(ts) {
    this.handle = requestAnimationFrame(this.tick);
    if (this.playing) {
      const dt = this.last === null ? 0 : ts - this.last;
      this.last = ts;
      this.rate = this.rateAt(ts);
      if (dt > 0 && dt <= SKIP_GAP_MS) {
        this.carry += Math.min(dt, MAX_FRAME_MS) * this.rate;
        const whole = Math.floor(this.carry);
        this.carry -= whole;
        if (whole > 0) {
          const auto = this.speed === 'auto';
          const stop = auto && this.mayHold(ts);
          const done = this.advance(whole, stop);
          if (auto && done && done.notable) {
            this.carry = 0;
            this.hold(ts);
          }
        }
      }
    }
    this.onFrame();
  }
}
