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
];

const INT = /^\d+$/;

/** Reads the setup form: `{setup}` or `{error}` naming the field. */
export function readSetup(form) {
  const num = {};
  for (const [name, label] of SETUP_FIELDS) {
    const v = form[name].value.trim();
    if (!INT.test(v)) return { error: `${label}: enter a whole number (found "${v}").` };
    num[name] = Number(v);
  }
  const { partitions, replication_factor, seed, ...config } = num;
  return { setup: { seed, config, topics: [{ name: 't', partitions, replication_factor }] } };
}

export function fillSetup(form, setup) {
  const t = setup.topics[0] ?? { partitions: 1, replication_factor: 1 };
  const values = { ...setup.config, seed: setup.seed, partitions: t.partitions, replication_factor: t.replication_factor };
  for (const [name] of SETUP_FIELDS) if (values[name] != null) form[name].value = values[name];
}
