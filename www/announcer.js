// What a screen reader hears of the narration: one live region, at most a line every
// ANNOUNCE_EVERY_MS of wall time (a busy run rewrites the narration every few ms); the latest line
// of a window that has spoken already is spoken at its end, so that what the narration ends on is
// heard.

/** The live region speaks at most this often (wall ms). */
const ANNOUNCE_EVERY_MS = 2500;

export class Announcer {
  /** @param {() => HTMLElement | null} region where the lines are spoken (`.live-sr`), if any */
  constructor(region) {
    this.region = region;
    this.spokenAt = -Infinity;
    this.unspoken = null;
    this.timer = null;
  }

  say(text) {
    this.unspoken = text;
    const wait = this.spokenAt + ANNOUNCE_EVERY_MS - performance.now();
    if (wait <= 0) this.speak();
    else this.timer ??= setTimeout(() => { this.timer = null; this.speak(); }, wait);
  }

  speak() {
    const el = this.region();
    if (!el || this.unspoken == null) return;
    this.spokenAt = performance.now();
    el.textContent = this.unspoken;
    this.unspoken = null;
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}
