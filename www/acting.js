// Acting on the cluster: the produce form (one request or a burst, its fields checked and the
// wrong one marked), the brokers' buttons, and the question asked before an action at a past
// instant drops the future after it. Everything goes through the app's `command`.
import { html, render } from './html.js';

/** The most requests one burst sends. */
const MAX_BURST = 5000;
/** The most records one request's partition gets. */
const MAX_RECORDS = 1000000;
/** The longest timeout a request carries (a Java int, as the scenario format bounds it). */
const MAX_TIMEOUT_MS = 2147483647;

export class Acting {
  /** @param {import('./app.js').PlaygroundApp} app */
  constructor(app) {
    this.app = app;
    this.$ = app.$;
    /** Whether acting in the past asks first (until "don't ask again"). */
    this.askFork = true;
  }

  /**
   * Sends a command; behind the end of the computed run it first asks, since acting there drops
   * the future after the playhead (an undo brings it back). Once the run holds actions of the
   * person's own (a future they made, or a session of theirs reopened), only when the actions
   * they made after the playhead would go too: the rest of that future is the model's
   * projection of their own choices, computed again from here.
   */
  act(cmd, then, times = 1) {
    const preview = this.app.sim.forkPreview();
    if (preview && this.askFork && (preview.user_actions === 0 || preview.user_actions_dropped > 0)) {
      // The question is about this instant: the clock waits at it for the answer.
      if (this.app.playback.playing) this.app.playback.halt();
      const dropped = preview.user_actions_dropped;
      const where = { at: preview.at_ms, frontier: preview.frontier_ms, count: String(dropped) };
      const question = this.app.tr.t(dropped ? 'fork.question.actions' : 'fork.question', where);
      // Named, so that a second action asked about while a question is open says it replaces
      // the first.
      // Yes to the instant asked about: if the playhead has moved since, asked again about where it is.
      const yes = () => (this.app.sim.forkPreview()?.at_ms === preview.at_ms ? this.run(cmd, then) : this.act(cmd, then, times));
      this.confirm(commandWords(cmd, times, this.app.tr), question, yes);
      return;
    }
    this.run(cmd, then);
  }

  run(cmd, then) {
    const err = this.$('.cmd-error');
    try {
      const done = this.app.command(cmd);
      if (err) err.textContent = '';
      then?.(done);
      return done;
    } catch (e) {
      const text = String(e.message ?? e);
      if (err) err.textContent = text;
      else this.app.notice('bad', text);
      return null;
    }
  }

  confirm(what, text, yes) {
    const { tr } = this.app;
    const box = this.$('.notices');
    box.querySelector('.notice.confirm')?.remove();
    const el = document.createElement('div');
    el.className = 'notice confirm';
    el.setAttribute('role', 'alertdialog');
    el.setAttribute('aria-label', tr.t('fork.dialog'));
    const asked = tr.t('fork.what', { what });
    render(el, html`<span><strong>${asked.charAt(0).toUpperCase()}${asked.slice(1)}</strong> ${text}</span> <button type="button" class="primary" data-testid="fork-confirm">${tr.t('fork.act')}</button> <button type="button" data-testid="fork-cancel">${tr.t('fork.cancel')}</button> <label class="hint"><input type="checkbox" class="dont-ask"> ${tr.t('fork.dontAsk')}</label>`);
    box.append(el);
    el.querySelector('[data-testid="fork-confirm"]').addEventListener('click', () => {
      if (el.querySelector('.dont-ask').checked) this.askFork = false;
      el.remove();
      yes();
    });
    el.querySelector('[data-testid="fork-cancel"]').addEventListener('click', () => el.remove());
    el.querySelector('[data-testid="fork-confirm"]').focus();
  }

  /** Another session opened: what the form said about the last one's request goes. */
  clearProblems() {
    const form = this.$('.produce-form');
    for (const input of form?.querySelectorAll('[aria-invalid]') ?? []) this.fieldEdited(input);
    const err = this.$('.cmd-error');
    if (err) err.textContent = '';
  }

  /** A field marked wrong is being fixed: the mark and its message go. */
  fieldEdited(input) {
    if (input.getAttribute('aria-invalid') !== 'true') return;
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-errormessage');
    const err = this.$('.cmd-error');
    if (err) err.textContent = '';
  }

  produce(times) {
    const { tr } = this.app;
    const form = this.$('.produce-form');
    const err = this.$('.cmd-error');
    const acksRaw = form.acks.value;
    const acks = acksRaw === 'all' ? -1 : Number(acksRaw);
    if (!form.partitions) {
      this.act({ action: 'produce', acks, records: [{ topic: this.topic(), partition: 0, count: 10 }] });
      return;
    }
    const count = wholeNumber(form.count.value);
    const timeout = form.timeout.value.trim();
    // Whole numbers separated by commas or spaces, nothing else ("0," or "1e1" is a typo, not 0 or 10).
    const tokens = form.partitions.value.trim().split(/\s*,\s*|\s+/);
    const parts = tokens.map(Number);
    // The first field that is wrong, marked as such (aria-invalid) until it is edited.
    const [field, problem] = [
      [form.partitions, tokens.some((t) => !/^\d+$/.test(t) || !Number.isSafeInteger(Number(t))) ? tr.t('produce.problem.partitions')
        : new Set(parts).size !== parts.length ? tr.t('produce.problem.partitionTwice') : null],
      [form.count, !Number.isInteger(count) || count < 1 || count > MAX_RECORDS ? tr.t('produce.problem.records', { max: MAX_RECORDS }) : null],
      [form.timeout, timeout && !(wholeNumber(timeout) <= MAX_TIMEOUT_MS) ? tr.t('produce.problem.timeout', { max: MAX_TIMEOUT_MS }) : null],
      [form.burst, !Number.isInteger(times) || times < 1 || times > MAX_BURST ? tr.t('produce.problem.burst', { max: MAX_BURST }) : null],
    ].find(([, p]) => p) ?? [];
    for (const input of form.querySelectorAll('[aria-invalid]')) this.fieldEdited(input);
    if (problem) {
      err.textContent = problem;
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-errormessage', 'produce-error');
      field.focus();
      return;
    }
    const cmd = { action: 'produce', acks, records: parts.map((p) => ({ topic: form.topic.value, partition: p, count })) };
    if (timeout) cmd.timeout_ms = Number(timeout);
    // Longer than the producer's own timeout: say, once it is sent, who may give up first (edge
    // case 17). After the command, which clears the hints an acks=all request has done.
    const own = this.app.sim.setup().config?.request_timeout_ms ?? 30000;
    const longer = acks !== 0 && cmd.timeout_ms > own;
    const sent = () => longer && this.app.notice('hint', tr.t('produce.longerThanOwn', { timeout: cmd.timeout_ms, own }));
    if (times === 1) {
      this.act(cmd, (done) => done && sent());
      return;
    }
    // A burst: the first command may fork (and ask first); the rest follow at the next instants,
    // saved and drawn once.
    this.act(cmd, (first) => {
      if (!first) return;
      try {
        this.app.repeat(cmd, times - 1);
        sent();
      } catch (e) {
        if (err) err.textContent = String(e.message ?? e);
      }
    }, times);
  }

  topic() {
    return this.app.sim.setup().topics[0]?.name ?? 't';
  }
}

/** A field's value as a whole number, or NaN for anything else ("1e3", "0x10", "2.0", ""). */
export function wholeNumber(text) {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

/** An action the person asked for, in words: "pause broker 1", "send 20 requests with acks=all". */
function commandWords(cmd, times, tr) {
  if (cmd.action !== 'produce') return tr.t(`action.${cmd.action.split('_')[0]}`, { broker: String(cmd.broker) });
  const acks = cmd.acks === -1 ? 'all' : String(cmd.acks);
  return tr.t('action.produce', { count: times, acks });
}
