// The cluster-setup form: each setting with Kafka's default and, where the page differs, the
// page's default and why.

/** The page's own starting setup (differences from Kafka's defaults are said in the form). */
export const PAGE_DEFAULTS = {
  seed: 0,
  config: {
    brokers: 3,
    min_insync_replicas: 2,
    replica_lag_time_max_ms: 30000,
    replica_fetch_wait_max_ms: 500,
    network_delay_ms: 20,
    request_timeout_ms: 30000,
  },
  topics: [{ name: 't', partitions: 1, replication_factor: 3 }],
};

/**
 * The form's fields, in order. Each one's label, default and note are the messages `setup.NAME`,
 * `setup.NAME.default` and `setup.NAME.note` (www/i18n/en/setup.js), a note only where the page's
 * default differs from Kafka's.
 */
export const SETUP_FIELDS = [
  'brokers', 'partitions', 'replication_factor', 'min_insync_replicas', 'replica_lag_time_max_ms',
  'replica_fetch_wait_max_ms', 'request_timeout_ms', 'network_delay_ms', 'leader_imbalance_check_interval_ms',
  'seed', 'isr_check_ms', 'heartbeat_ms',
];
/** The fields whose note says why the page's default differs from Kafka's. */
export const NOTED_FIELDS = [
  'replication_factor', 'min_insync_replicas', 'network_delay_ms', 'leader_imbalance_check_interval_ms', 'isr_check_ms', 'heartbeat_ms',
];

/** Settings a setup may leave out, and what the form shows for them then: the model's default. */
const ABSENT = { leader_imbalance_check_interval_ms: 0 };

/** The beats' phases: fields of the setup's `phases`, not of its config. */
const PHASES = ['isr_check_ms', 'heartbeat_ms'];

/** A whole number as typed; its range is the model's to check, which says it in the same words as for a file. */
const INT = /^-?\d+$/;

/** Reads the setup form: `{setup}`, or `{error, field}`: what is wrong (in `tr`'s language) and the field's name. */
export function readSetup(form, tr) {
  const num = {};
  for (const name of SETUP_FIELDS) {
    const v = form[name].value.trim();
    const said = { field: tr.t(`setup.${name}`), value: v };
    if (!INT.test(v)) return { error: tr.t('setup.error.whole', said), field: name };
    // Past 2^53 a number is no longer the one typed (the model would be told "1e+20").
    if (!Number.isSafeInteger(Number(v))) return { error: tr.t('setup.error.huge', said), field: name };
    num[name] = Number(v);
  }
  const { partitions, replication_factor, seed, isr_check_ms, heartbeat_ms, ...config } = num;
  const setup = { seed, config, topics: [{ name: 't', partitions, replication_factor }] };
  // Every broker's beat at one phase; the model refuses one out of its range, naming it.
  const phases = Object.fromEntries(Object.entries({ isr_check_ms, heartbeat_ms }).filter(([, v]) => v !== 0));
  if (Object.keys(phases).length) setup.phases = phases;
  return { setup };
}

/**
 * The model's refusal of a setup from the form (`setup.config.brokers: …`, already in the
 * reader's words), told by the form's own label for the field (`Brokers: …`).
 */
export function setupErrorWords(worded, tr) {
  const m = /^setup\.(?:config\.|topics\[0\]\.|phases\.)?(\w+)(: |：)([\s\S]*)$/.exec(worded);
  if (!m || !SETUP_FIELDS.includes(m[1])) return { error: worded, field: null };
  // The file's names for Kafka's settings (in a range's note) as the form names them, Kafka's.
  const rest = m[3].replace(KAFKA_NAMES, (name) => name.replaceAll('_', '.'));
  return { error: `${tr.t(`setup.${m[1]}`)}${m[2]}${rest}`, field: m[1] };
}

/** Settings whose file name is Kafka's with `_` for `.`. */
const KAFKA_NAMES = /\b(?:replica_lag_time_max_ms|replica_fetch_wait_max_ms|broker_session_timeout_ms|broker_heartbeat_interval_ms|min_insync_replicas|request_timeout_ms)\b/g;

export function fillSetup(form, setup) {
  const t = setup.topics[0] ?? { partitions: 1, replication_factor: 1 };
  // A phase per broker (from a file) shows as the first broker's: the form sets one for all.
  const phase = (name) => { const v = setup.phases?.[name] ?? 0; return Array.isArray(v) ? v[0] : v; };
  const values = { ...ABSENT, ...setup.config, seed: setup.seed, partitions: t.partitions, replication_factor: t.replication_factor, ...Object.fromEntries(PHASES.map((n) => [n, phase(n)])) };
  for (const name of SETUP_FIELDS) if (values[name] != null) form[name].value = values[name];
}

/**
 * Shows the Setup form's error (`{error, field}`, or null to clear it) in `out`: beside its field,
 * which is marked wrong (aria-invalid) and focused, where the eye and a screen reader are; an
 * error no field owns, at the form's end.
 */
export function showSetupError(form, out, wrong) {
  for (const input of form.querySelectorAll('[aria-invalid]')) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-errormessage');
  }
  const input = wrong?.field ? form[wrong.field] : null;
  (input?.closest('.field') ?? form).append(out);
  out.textContent = wrong?.error ?? '';
  if (!input) return;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-errormessage', out.id);
  input.focus();
}
