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

/** [field, label, Kafka default (or model default), page note] */
export const SETUP_FIELDS = [
  ['brokers', 'Brokers', 'model default 3', ''],
  ['partitions', 'Partitions of topic t', 'page default 1', ''],
  ['replication_factor', 'Replication factor', 'default.replication.factor 1', 'page: 3, so acks=all has followers to wait for'],
  ['min_insync_replicas', 'min.insync.replicas', 'Kafka default 1', 'page: 2, the usual pairing with acks=all'],
  ['replica_lag_time_max_ms', 'replica.lag.time.max.ms', 'Kafka default 30000', ''],
  ['replica_fetch_wait_max_ms', 'replica.fetch.wait.max.ms', 'Kafka default 500', ''],
  ['request_timeout_ms', 'request.timeout.ms (producer)', 'Kafka default 30000', ''],
  ['network_delay_ms', 'Network delay, one way (ms)', 'model default 1', 'page: 20, so fetches can be seen travelling'],
  ['seed', 'Seed', 'default 0', ''],
  ['isr_check_ms', 'ISR-check phase φ (ms)', 'default 0: every broker’s check at 0, L/2, L, …', 'where t = 0 falls on the beat, 0 to replica.lag.time.max.ms / 2 − 1'],
  ['heartbeat_ms', 'Heartbeat phase ψ (ms)', 'default 0', 'where t = 0 falls on the heartbeats, 0 to broker.heartbeat.interval.ms − 1'],
];

/** The fields that are not config: the topic's, the seed and the beats' phases. */
const PHASES = ['isr_check_ms', 'heartbeat_ms'];

const INT = /^\d+$/;

/** Reads the setup form: `{setup}` or `{error}` naming the field. */
export function readSetup(form) {
  const num = {};
  for (const [name, label] of SETUP_FIELDS) {
    const v = form[name].value.trim();
    if (!INT.test(v)) return { error: `${label}: enter a whole number (found "${v}").` };
    num[name] = Number(v);
  }
  const { partitions, replication_factor, seed, isr_check_ms, heartbeat_ms, ...config } = num;
  const setup = { seed, config, topics: [{ name: 't', partitions, replication_factor }] };
  // Every broker's beat at one phase; the model refuses one out of its range, naming it.
  const phases = Object.fromEntries(Object.entries({ isr_check_ms, heartbeat_ms }).filter(([, v]) => v > 0));
  if (Object.keys(phases).length) setup.phases = phases;
  return { setup };
}

export function fillSetup(form, setup) {
  const t = setup.topics[0] ?? { partitions: 1, replication_factor: 1 };
  // A phase per broker (from a file) shows as the first broker's: the form sets one for all.
  const phase = (name) => { const v = setup.phases?.[name] ?? 0; return Array.isArray(v) ? v[0] : v; };
  const values = { ...setup.config, seed: setup.seed, partitions: t.partitions, replication_factor: t.replication_factor, ...Object.fromEntries(PHASES.map((n) => [n, phase(n)])) };
  for (const [name] of SETUP_FIELDS) if (values[name] != null) form[name].value = values[name];
}
