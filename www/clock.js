// The page's clock: requestAnimationFrame wall time x speed -> whole simulated milliseconds.
// The simulation only ever sees whole milliseconds through `advance(ms)`, so the simulated state
// at time t never depends on the frame rate; only how often we look at it does.

import { fmt } from './views/dom.js';

/** A frame longer than this counts as this long (a slow frame does not make a leap). */
export const MAX_FRAME_MS = 100;
/** A gap longer than this (hidden tab, debugger) is skipped, as RaftScope does. */
export const SKIP_GAP_MS = 500;

/** Slider position 0..1000 -> simulated ms per wall ms, log scale from 0.001x to 10,000x. */
export function speedFromSlider(pos) {
  return 10 ** (-3 + (7 * pos) / 1000);
}
export function sliderFromSpeed(speed) {
  return Math.round(((Math.log10(speed) + 3) * 1000) / 7);
}
export function describeSpeed(speed) {
  if (speed >= 1) return `${speed >= 10 ? fmt(Math.round(speed)) : speed.toFixed(1)}x`;
  const wallPerSimMs = 1 / speed;
  return wallPerSimMs >= 1000
    ? `1 ms per ${(wallPerSimMs / 1000).toFixed(1)} s`
    : `1 ms per ${Math.round(wallPerSimMs)} ms`;
}

export class SimClock {
  /**
   * @param {(ms: number) => void} advance  runs `ms` whole simulated ms
   * @param {() => void} onFrame            called every frame (render)
   */
  constructor(advance, onFrame) {
    this.advance = advance;
    this.onFrame = onFrame;
    this.speed = 0.05;
    this.playing = false;
    this.carry = 0; // fractional simulated ms not yet run, in [0, 1)
    this.last = null;
    this.handle = null;
    this.tick = this.tick.bind(this);
  }

  start() {
    if (this.handle === null) this.handle = requestAnimationFrame(this.tick);
  }

  stop() {
    if (this.handle !== null) cancelAnimationFrame(this.handle);
    this.handle = null;
  }

  setPlaying(playing) {
    this.playing = playing;
    this.last = null;
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
      if (dt > 0 && dt <= SKIP_GAP_MS) {
        this.carry += Math.min(dt, MAX_FRAME_MS) * this.speed;
        const whole = Math.floor(this.carry);
        this.carry -= whole;
        if (whole > 0) this.advance(whole);
      }
    }
    this.onFrame();
  }
}
