// The Compare menu's form: which setting or action the second run changes, the value it offers
// first, and the change text it hands to the comparison (compare.js), in the notation of a
// scenario's `compare` field and the runner's --change.
import { html, render } from './html.js';

/** The settings the form offers, with the change text each value makes. */
export const CHANGES = {
  acks: { text: (v) => `acks=${v}` },
  'min.insync.replicas': { text: (v) => `min.insync.replicas=${v}` },
  'replica.lag.time.max.ms': { text: (v) => `replica.lag.time.max.ms=${v}` },
  timeout_ms: { text: (v) => `timeout_ms=${v}` },
  at_ms: { text: (v, i) => `actions[${i}].at_ms=${v}`, action: true },
  removed: { text: (_, i) => `actions[${i}]=removed`, action: true, noValue: true },
};

/**
 * A third of the run's replica.lag.time.max.ms, the what-if the form offers first, and long
 * enough that the run's ISR-check phase still falls inside the shorter check period (half of it):
 * a scenario that places its check at 7,300 ms cannot run with a lag time of 10,000.
 */
function shorterLagTime(config, app) {
  const lag = Math.max(1000, Math.round((config.replica_lag_time_max_ms ?? 30000) / 3));
  const text = app.guard(() => app.sim.exportSession(false));
  const phase = text ? JSON.parse(text).phases?.isr_check_ms ?? 0 : 0;
  const latest = Math.max(0, ...[phase].flat());
  return Math.max(lag, Math.ceil((2 * (latest + 1)) / 1000) * 1000);
}

/**
 * Fills the form for the setting it has chosen: the run's actions to pick from (kept when only the
 * pick changed) and the value that makes a difference worth seeing (the other acks, a shorter lag
 * time, an action 5 s later).
 */
export function fillCompareForm(form, errorEl, app, { keepAction = false } = {}) {
  const { tr } = app;
  const change = CHANGES[form.elements.what.value];
  const actions = app.guard(() => app.sim.actions()) ?? [];
  const pick = form.elements.action;
  if (!keepAction) {
    render(pick, html`${actions.map((a, i) => html`<option value="${i}">actions[${i}] · ${tr.num(a.at_ms)} ms · ${actionWords(a, tr)}</option>`)}`);
  }
  form.querySelector('.c-action').hidden = !change.action;
  form.querySelector('.c-value').hidden = !!change.noValue;
  const config = (app.guard(() => app.sim.setup()) ?? {}).config ?? {};
  const main = actions.find((a) => a.action === 'produce');
  const chosen = actions[Number(pick.value)];
  form.elements.value.value = {
    acks: main && (main.acks === -1 || main.acks === 'all') ? '1' : 'all',
    'min.insync.replicas': (config.min_insync_replicas ?? 1) === 1 ? '2' : '1',
    'replica.lag.time.max.ms': String(shorterLagTime(config, app)),
    timeout_ms: '5000',
    at_ms: chosen ? String(chosen.at_ms + 5000) : '',
    removed: '',
  }[form.elements.what.value];
  errorEl.textContent = actions.length || !change.action ? '' : tr.t('whatIf.noActions');
}

/** Starts the comparison the form describes; says in the form why not, or answers true. */
export async function submitCompareForm(form, errorEl, app) {
  const text = CHANGES[form.elements.what.value].text(form.elements.value.value.trim(), form.elements.action.value);
  const error = await app.comparison.start(text);
  // A scenario the change makes invalid says so naming the change itself ("with acks=1: …").
  const named = error?.startsWith(app.tr.t('err.with', { change: text, error: '' }));
  errorEl.textContent = !error ? '' : named ? error : app.tr.t('whatIf.refused', { change: text, error });
  return !error;
}

/** An action in a few words, for the form's list. */
function actionWords(a, tr) {
  switch (a.action) {
    case 'produce': return `${a.id} (acks=${a.acks === -1 ? 'all' : a.acks})`;
    case 'pause_follower': return tr.t('action.pause', { broker: a.broker });
    case 'resume_follower': return tr.t('action.resume', { broker: a.broker });
    case 'crash_broker': return tr.t('action.crash', { broker: a.broker });
    case 'restart_broker': return tr.t('action.restart', { broker: a.broker });
    case 'elect_leader': return tr.t('action.elect', { broker: a.broker, partition: `${a.topic}-${a.partition}` });
    default: return a.action;
  }
}
