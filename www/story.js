// A scenario's guided story: its captions (the scenario's optional `story` field), one at a time.
// "Next" plays the run at the story pace up to the next caption's instant and holds there; "Back"
// jumps to the previous caption's instant. Each caption points at a panel (and an element in it)
// and can follow a request in the code path. Scrubbing the timeline meanwhile shows the caption
// of the instant reached, so the story and the playhead never disagree.
import { html, render } from './html.js';

export class Story {
  /** @param {import('./app.js').PlaygroundApp} app */
  constructor(app) {
    this.app = app;
    this.steps = [];
    this.index = -1;
    this.active = false;
    /** The instant "Next" is playing to, or null. */
    this.stopAt = null;
    this.box = app.$('.story');
    this.box?.addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-story-go]');
      if (!b) return;
      const go = b.dataset.storyGo;
      if (go === 'next') this.next();
      else if (go === 'back') this.back();
      else if (go === 'close') this.close();
    });
    this.box?.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape') return;
      ev.preventDefault(); // the element's own Escape (closing menus) passes a handled key by
      this.close();
    });
  }

  onOpen() {
    this.stop();
    this.steps = this.app.guard(() => this.app.sim.story()) ?? [];
  }

  available() {
    return this.steps.length > 0;
  }

  /**
   * Starts the story: from its first caption, or (a link copied during the story) at the caption
   * of instant `atMs`, where the session already stands: its step `step` (1-based) when the link
   * names one at that instant (several captions can share an instant), else the first there.
   * `scroll: false` (an embed's story opening with its page) leaves the page where the reader is
   * for this first caption; the next ones bring what they point at into view.
   */
  start(atMs = null, step = null, { scroll = true } = {}) {
    if (!this.available() || !this.box) return;
    this.app.comparison?.restoreOwn().catch((e) => console.error('purgatory-playground: the story\'s what-if could not be compared again', e));
    this.active = true;
    this.index = -1;
    this.afterShown = null;
    this.app.clock.speed = 'auto';
    this.app.controls.updateSpeedPick?.();
    const named = step != null ? step - 1 : -1;
    // A link's step the story does not have (an edited link, a story changed since): said.
    if (named >= this.steps.length) this.app.notice('warn', this.app.tr.t('story.noSuchStep', { step, steps: this.steps.length }));
    const at = atMs ?? (named >= 0 ? this.app.sim.nowMs : null);
    // A link whose step and instant disagree (edited by hand): the instant wins, and is said.
    const stepAt = this.steps[named]?.at_ms;
    if (at != null && stepAt != null && stepAt !== at) this.app.notice('warn', this.app.tr.t('story.stepElsewhere', { step, stepAt, at }));
    if (at != null) {
      if (this.steps[named]?.at_ms === at) this.show(named, { scroll });
      else this.showAt(at, undefined, { scroll });
    } else {
      if (this.app.sim.nowMs > this.steps[0].at_ms) this.app.playback.seek(0);
      this.goTo(0, { scroll });
    }
    this.box.querySelector('[data-story-go="next"]')?.focus({ preventScroll: true });
  }

  /** The step shown (1-based), for a link: null before the first, or while playing to the next. */
  get step() {
    return this.active && this.index >= 0 && this.stopAt == null && this.steps[this.index].at_ms === this.app.sim.nowMs ? this.index + 1 : null;
  }

  /**
   * Closed by the reader (× or Escape): the focus goes to the button that starts it again, or
   * (an embed without the full toolbar) to Play.
   */
  close() {
    this.stop();
    if (this.app.playback.ended) this.app.controls.showEnd(); // the card said it; now the banner does
    (this.app.$('.story-start:not([hidden])') ?? this.app.$('[data-testid="play"]'))?.focus({ preventScroll: true });
  }

  stop() {
    this.active = false;
    this.stopAt = null;
    this.index = -1;
    if (this.box) {
      this.box.hidden = true;
      this.box.replaceChildren();
    }
    this.highlight(null);
  }

  next() {
    if (this.stopAt != null) {
      // Next again while the run plays to the caption: go there at once.
      this.holdAt(this.steps.findIndex((s) => s.at_ms === this.stopAt));
      return;
    }
    if (this.index + 1 < this.steps.length) {
      this.goTo(this.index + 1);
      return;
    }
    const app = this.app;
    if (app.playback.ended) {
      this.start(); // at the end of the run: the story again from its first step
      return;
    }
    if (app.playback.playing) {
      app.playback.seek(app.sim.runUntilMs); // playing on after the story: to the end at once
    } else {
      // After the last caption: the rest of the run, at the story pace.
      app.playback.setPlaying(true);
    }
    this.renderAfter();
  }

  back() {
    if (this.after()) this.holdAt(this.index);
    else if (this.index > 0) this.goTo(this.index - 1);
    else if (this.index === 0) this.goTo(0);
  }

  /** Plays (or jumps back) to caption `i`'s instant. */
  goTo(i, { scroll = true } = {}) {
    const at = this.steps[i].at_ms;
    if (this.app.sim.nowMs >= at) {
      this.holdAt(i, { scroll });
      return;
    }
    const { tr } = this.app;
    this.stopAt = at;
    this.index = i - 1;
    this.render(i - 1, {
      progress: tr.t('story.playingTo.progress', { step: i + 1, steps: this.steps.length, at }),
      caption: tr.t('story.playingTo', { at }),
    });
    this.app.playback.setPlaying(true);
  }

  /** Stops at caption `i`'s instant (computed that far, if need be) and shows it. */
  holdAt(i, { scroll = true } = {}) {
    const at = this.steps[i].at_ms;
    this.stopAt = null;
    this.app.playback.setPlaying(false);
    if (this.app.sim.nowMs !== at) {
      this.app.playback.computeUntil(at);
      this.app.playback.seek(at);
    }
    this.show(i, { scroll });
  }

  /** How many ms the clock may run now without passing the caption it plays to. */
  clamp(ms) {
    if (this.stopAt == null) return ms;
    return Math.max(0, Math.min(ms, this.stopAt - this.app.sim.nowMs));
  }

  /** Called after the clock ran: holds at the caption's instant when it is reached. */
  reached(now) {
    if (this.stopAt == null || now < this.stopAt) return false;
    const i = this.steps.findIndex((s) => s.at_ms === this.stopAt);
    this.stopAt = null;
    this.app.playback.setPlaying(false);
    this.show(i);
    return true;
  }

  /** After a seek or a step by hand: the caption of the instant reached. */
  follow() {
    if (!this.active || this.stopAt != null) return;
    const now = this.app.sim.nowMs;
    if (this.after(now) || (this.afterShown != null && this.index === this.steps.length - 1)) {
      // Past the last caption's instant (playing on, or a seek there): the card says where the run
      // is, and at its end offers what the end banner does.
      if (this.after(now)) this.renderAfter();
      else this.show(this.index, { scroll: false });
      return;
    }
    // Several captions can share an instant: the one shown stays while the playhead is on it, and
    // a jump onto such an instant shows the first of them ("Next" then reads on).
    if (this.steps[this.index]?.at_ms === now) return;
    const i = this.captionAt(now);
    // The reader moved the playhead (a drag on the timeline, a step): the caption follows, the
    // page stays where the reader has it.
    if (i !== this.index) this.showAt(now, i, { scroll: false });
  }

  /** Whether the playhead is past the last caption's instant, the story told. */
  after(now = this.app.sim.nowMs) {
    const last = this.steps[this.steps.length - 1];
    return this.active && last != null && this.captionAt(now) === this.steps.length - 1 && now > last.at_ms;
  }

  /**
   * The card after the story: where the run is, and (at the scenario's end) its end's choices.
   * Drawn anew only when what it says changes (each frame while the run plays on).
   */
  renderAfter() {
    const app = this.app;
    const { tr } = app;
    const now = app.sim.nowMs;
    const end = app.playback.ended;
    const key = `${now}:${end}:${app.playback.playing}`;
    if (this.afterShown === key && !this.box.hidden) return;
    this.afterShown = key;
    this.index = this.steps.length - 1;
    this.highlight(null);
    this.render(this.index, end
      ? { progress: tr.t('story.after.end.progress', { at: now }), caption: tr.t('story.after.end'), end: true }
      : { progress: tr.t('story.after.progress', { at: now }), caption: tr.t('story.after'), next: tr.t(app.playback.playing ? 'story.toTheEnd' : 'story.playToTheEnd') });
  }

  /** The caption of instant `ms`: the first one at it, else the last one before it (-1: none). */
  captionAt(ms) {
    const i = this.steps.findIndex((s) => s.at_ms === ms);
    return i >= 0 ? i : this.steps.findLastIndex((s) => s.at_ms < ms);
  }

  /** Shows caption `i` (that of instant `ms`), or says the story has not begun. */
  showAt(ms, i = this.captionAt(ms), { scroll = true } = {}) {
    if (i < 0) this.render(-1, { caption: this.app.tr.t('story.before') });
    else this.show(i, { scroll });
  }

  show(i, { scroll = true } = {}) {
    this.index = i;
    this.afterShown = null;
    const step = this.steps[i];
    if (step.request) this.app.select(step.request);
    this.render(i);
    this.highlight(step, { scroll });
  }

  /**
   * Draws the card for caption `i`; `progress` and `caption` replace its two lines (playing to the
   * next caption, after the story), `next` the Next button's words, and `end` puts the scenario
   * end's choices in its place.
   */
  render(i, { progress = null, caption = null, next = null, end = false } = {}) {
    if (!this.box) return;
    const { tr } = this.app;
    const step = this.steps[i];
    const n = this.steps.length;
    const last = i === n - 1;
    const text = caption ?? (step ? tr.caption(step, i, this.app.curatedName) : '');
    const where = progress ?? (i >= 0 ? tr.t('story.progress', { step: i + 1, steps: n, at: step.at_ms }) : tr.t('story.intro', { count: n }));
    // The card is drawn anew: a reader walking it by keyboard keeps the focus on the same button
    // (on Next when Back is gone).
    const active = this.box.getRootNode().activeElement;
    const focused = this.box.contains(active) ? active.dataset.storyGo ?? active.dataset.end : null;
    this.box.hidden = false;
    // Back is disabled on the first caption (and before it): the tag takes no bare attribute from
    // a value, so the button is one of two whole variants.
    const back = i <= 0
      ? html`<button type="button" data-story-go="back" data-testid="story-back" disabled>${tr.t('story.back')}</button>`
      : html`<button type="button" data-story-go="back" data-testid="story-back">${tr.t('story.back')}</button>`;
    const forward = end
      ? html`<button type="button" class="primary" data-story-go="next" data-testid="story-next">${tr.t('story.again')}</button>
        <button type="button" data-end="live" data-testid="story-live">${tr.t('story.live')}</button>`
      : html`<button type="button" class="primary" data-story-go="next" data-testid="story-next">${next ?? tr.t(last ? 'story.playToTheEnd' : 'story.next')}</button>`;
    render(this.box, html`<div class="story-card" role="region" aria-label="${tr.t('story.card')}">
      <p class="story-progress" data-testid="story-progress">${where}</p>
      <p class="story-caption" data-testid="story-caption" aria-live="polite">${text}</p>
      <div class="story-buttons">
        ${back}
        ${forward}
        <button type="button" data-story-go="close" data-testid="story-close" aria-label="${tr.t('story.close')}">×</button>
      </div>
    </div>`);
    if (focused) {
      const same = this.box.querySelector(`[data-story-go="${focused}"]:not(:disabled)`);
      (same ?? this.box.querySelector('[data-story-go="next"]')).focus({ preventScroll: true });
    }
  }

  /**
   * Marks the caption's panel and element and brings them into view below the caption: on the
   * full page and in an embed that grows with its content by scrolling the page (below the host
   * site's own fixed header, see `hostHeaderHeight`), in an embed of fixed height by scrolling the
   * embed's own box (never the page around it).
   */
  highlight(step, { scroll = true } = {}, waited = 0) {
    const root = this.app.root;
    for (const el of root.querySelectorAll('.story-focus')) el.classList.remove('story-focus');
    if (!step) return;
    const panel = root.querySelector(`[data-story="panel-${step.look_at}"]`);
    if (!panel) return;
    // A caption about the Phases view speaks of the ISR check's phases, every broker's together
    // (the only sweep a story's words can know the strips of): the view shows that sweep, whatever
    // the person chose before.
    if (step.look_at === 'phases') this.app.phases?.use({ beat: 'isr_check', broker: null });
    panel.classList.add('story-focus');
    const target = step.target ? panel.querySelector(`[data-story="${CSS.escape(step.target)}"]`) : null;
    target?.classList.add('story-focus');
    this.focusTarget = step.target ?? null;
    const box = root.querySelector('.pp.fixed-height');
    if (!scroll) return;
    if (!(box ?? panel).clientHeight) {
      // Not laid out yet (the story opens with the element, before its views are shown): a few
      // frames later, unless the element stays hidden (then there is nothing to scroll).
      if (waited < 30) requestAnimationFrame(() => { if (this.active && this.steps[this.index] === step) this.highlight(step, { scroll }, waited + 1); });
      return;
    }
    const behavior = this.app.reducedMotion.matches ? 'auto' : 'smooth';
    // What stays on screen above the caption: the host site's fixed header (the page scrolls
    // under it), then the bar and (the full page) the timeline, when they are sticky here.
    const host = box ? 0 : hostHeaderHeight(this.app.host);
    const sticky = (el) => (el && getComputedStyle(el).position === 'sticky' ? el.offsetHeight : 0);
    const bar = root.querySelector('.top');
    const barHeight = sticky(bar);
    if (barHeight) bar.style.top = `${host}px`;
    const timeline = root.querySelector('.timeline-wrap');
    const timelineHeight = sticky(timeline);
    if (timelineHeight) timeline.style.top = `${host + barHeight}px`;
    this.box.style.top = `${host + barHeight + timelineHeight}px`;
    const shown = target ?? panel;
    const above = host + barHeight + timelineHeight + this.box.offsetHeight + 8; // below the caption
    if (!box) {
      shown.style.scrollMarginTop = `${above}px`;
      shown.style.scrollMarginBottom = '24px'; // and not on the screen's bottom edge
      shown.scrollIntoView({ block: 'nearest', behavior });
      return;
    }
    const top = shown.getBoundingClientRect().top - box.getBoundingClientRect().top;
    const boxAbove = above - host;
    if (top < boxAbove || top + Math.min(shown.offsetHeight, box.clientHeight - boxAbove) > box.clientHeight) {
      box.scrollTo({ top: box.scrollTop + top - boxAbove, behavior });
    }
  }

  /** Views redraw their markup; the caption's element gets its mark back after each redraw. */
  reapply() {
    if (!this.active || this.index < 0 || !this.focusTarget) return;
    const step = this.steps[this.index];
    const panel = this.app.root.querySelector(`[data-story="panel-${step.look_at}"]`);
    panel?.querySelector(`[data-story="${CSS.escape(this.focusTarget)}"]`)?.classList.add('story-focus');
  }
}

/**
 * How much of the window's top the host page keeps covered while it scrolls: a documentation
 * site's fixed or sticky header (VitePress's 64 px nav, Docusaurus's navbar, MkDocs Material's
 * header and tabs). An author can say it: `--pp-header-height` on the element or any ancestor
 * (`purgatory-playground { --pp-header-height: 4rem }`, 0 for none). Without it, the larger of
 * the page's `scroll-padding-top` (which such sites set so that anchors land below the header)
 * and the bottom of whatever fixed or sticky box covers the window's top edge outside the element.
 */
export function hostHeaderHeight(host) {
  const said = getComputedStyle(host).getPropertyValue('--pp-header-height').trim();
  if (said) {
    const probe = document.createElement('div');
    probe.style.cssText = `position:absolute;visibility:hidden;height:${said}`;
    host.shadowRoot?.append(probe);
    const px = probe.offsetHeight;
    probe.remove();
    return px;
  }
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  let covered = 0;
  const width = document.documentElement.clientWidth;
  for (const x of [0.1, 0.5, 0.9].map((f) => Math.round(width * f))) {
    for (const el of document.elementsFromPoint(x, 1)) {
      if (el === host || host.contains(el)) break; // the element itself: nothing of the host's above it
      for (let a = el; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
        const position = getComputedStyle(a).position;
        if (position === 'fixed' || position === 'sticky') {
          covered = Math.max(covered, a.getBoundingClientRect().bottom);
          break;
        }
      }
    }
  }
  // A header taller than half the window is not a header.
  return Math.round(Math.min(Math.max(padding, covered), innerHeight / 2));
}
