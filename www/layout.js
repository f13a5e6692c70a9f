// The instance's markup and the cluster-setup form: each setting with Kafka's default and, where
// the page differs, the page's default and why.

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

// [field, label, Kafka default (or model default), page note]
const FIELDS = [
  ['brokers', 'Brokers', 'model default 3', ''],
  ['partitions', 'Partitions of topic t', '-', ''],
  ['replication_factor', 'Replication factor', 'default.replication.factor 1', 'page: 3, so acks=all has followers to wait for'],
  ['min_insync_replicas', 'min.insync.replicas', 'Kafka default 1', 'page: 2, the usual pairing with acks=all'],
  ['replica_lag_time_max_ms', 'replica.lag.time.max.ms', 'Kafka default 30000', ''],
  ['replica_fetch_wait_max_ms', 'replica.fetch.wait.max.ms', 'Kafka default 500', ''],
  ['request_timeout_ms', 'request.timeout.ms (producer)', 'Kafka default 30000', ''],
  ['network_delay_ms', 'Network delay, one way (ms)', 'model default 1', 'page: 20, so fetches can be seen travelling'],
  ['seed', 'Seed', 'default 0', ''],
];

const field = ([name, label, kafka, note]) => `<div class="field"><label for="f-${name}">${label}</label>
  <input id="f-${name}" name="${name}" inputmode="numeric" autocomplete="off" aria-describedby="d-${name}">
  <small id="d-${name}">${kafka}${note ? `; ${note}` : ''}</small></div>`;

export const TEMPLATE = `
<header class="bar" role="toolbar" aria-label="Simulation clock">
  <h1>Purgatory Playground</h1>
  <button data-testid="play" aria-pressed="false" title="Play / pause (p)">Play</button>
  <button data-testid="step" title="Run to the next instant with anything to do (n)">Step to next event</button>
  <button class="reset" title="Start this run again from t = 0">Reset</button>
  <label class="speed">Speed <input type="range" min="0" max="1000" step="1" data-testid="speed" aria-label="Simulation speed (log scale)"> <output class="speed-out"></output></label>
  <span class="clock">t = <b class="now">0 ms</b> <span class="next muted"></span></span>
  <span class="run-name muted"></span>
</header>
<p class="live" aria-live="polite"></p>
<div class="grid">
  <section class="panel controls" aria-labelledby="h-produce">
    <h2 id="h-produce">Produce</h2>
    <form class="produce-form">
      <div class="row">
        <label>acks <select name="acks" data-testid="acks">
          <option value="all">all (-1)</option><option value="1">1</option><option value="0">0</option><option value="2">2 (invalid)</option>
        </select></label>
        <label>topic <select name="topic"></select></label>
        <label>partitions <input name="partitions" value="0" size="6" aria-describedby="h-parts"></label>
        <label>records <input name="count" value="10" size="5" inputmode="numeric"></label>
        <label>timeout (ms) <input name="timeout" value="" size="7" placeholder="request.timeout.ms" inputmode="numeric"></label>
      </div>
      <div class="row">
        <button type="submit" data-testid="produce">Send produce request</button>
        <label>burst of <input name="burst" value="100" size="5" inputmode="numeric"></label><button type="button" class="burst">Send burst</button>
      </div>
      <small id="h-parts" class="muted">Partitions: one or more numbers, e.g. "0, 1". A partition that does not exist gets UNKNOWN_TOPIC_OR_PARTITION.</small>
      <p class="cmd-error error" role="alert"></p>
    </form>
    <h2>Scenario</h2>
    <div class="row"><label>curated <select class="scenario-pick"></select></label><button class="scenario-load">Load</button></div>
    <p class="scenario-preview muted"></p>
    <p class="scenario-about"></p>
    <p class="scenario-error error" role="alert"></p>
    <details class="setup"><summary>Cluster setup</summary>
      <form class="setup-form">${FIELDS.map(field).join('')}
        <div class="row"><button type="submit">Apply (restarts the run)</button><button type="button" class="setup-defaults">Page defaults</button></div>
        <p class="setup-error error" role="alert"></p>
      </form>
    </details>
    <details class="export-box"><summary>Export</summary>
      <div class="row"><button class="export">Session as scenario</button><button class="result">Result document</button></div>
      <label class="sr-only" for="export-out">Exported JSON</label>
      <textarea id="export-out" class="export-out" rows="8" readonly></textarea>
    </details>
  </section>
  <section class="panel cluster" aria-labelledby="h-cluster">
    <h2 id="h-cluster">Cluster</h2>
    <div class="brokers"></div>
    <div class="partitions"></div>
    <h3>Messages in flight</h3>
    <div class="network"></div>
  </section>
  <section class="panel responses" aria-labelledby="h-resp">
    <h2 id="h-resp">Responses <span class="resp-count muted"></span></h2>
    <ul class="resp-list"></ul>
  </section>
  <section class="panel codepath" aria-labelledby="h-cp">
    <h2 id="h-cp">Code path of the selected request</h2>
    <div class="cp-body"></div>
  </section>
  <section class="panel purgatory" aria-labelledby="h-purg">
    <h2 id="h-purg">Purgatory</h2>
    <p class="purg-totals gauges"></p>
    <div class="purg-body"></div>
  </section>
  <section class="panel wheel" aria-labelledby="h-wheel">
    <h2 id="h-wheel">Timing wheel</h2>
    <div class="wheel-body"></div>
    <div class="wheel-changes"></div>
  </section>
  <section class="panel eventlog" aria-labelledby="h-log">
    <h2 id="h-log">Event log</h2>
    <fieldset class="log-filter"><legend class="sr-only">Show</legend>
      <label><input type="checkbox" value="produce" checked> produce</label>
      <label><input type="checkbox" value="purgatory" checked> purgatory</label>
      <label><input type="checkbox" value="replication" checked> HW &amp; replicas</label>
      <label><input type="checkbox" value="isr" checked> ISR &amp; leadership</label>
      <label><input type="checkbox" value="fetch"> fetches</label>
      <label>text <input class="log-text" size="10" type="search"></label>
    </fieldset>
    <ol class="log-lines" role="log" aria-label="Narrated events, newest last"></ol>
  </section>
  <section class="panel metrics" aria-labelledby="h-metrics">
    <h2 id="h-metrics">Metrics</h2>
    <div class="metrics-body"></div>
  </section>
</div>`;

const INT = /^\d+$/;

/** Reads the setup form: `{setup}` or `{error}` naming the field. */
export function readSetup(root) {
  const f = root.querySelector('.setup-form');
  const num = {};
  for (const [name, label] of FIELDS) {
    const v = f[name].value.trim();
    if (!INT.test(v)) return { error: `${label}: enter a whole number (found "${v}").` };
    num[name] = Number(v);
  }
  const { partitions, replication_factor, seed, ...config } = num;
  return { setup: { seed, config, topics: [{ name: 't', partitions, replication_factor }] } };
}

export function fillSetup(root, setup) {
  const f = root.querySelector('.setup-form');
  const t = setup.topics[0] ?? { partitions: 1, replication_factor: 1 };
  const values = { ...setup.config, seed: setup.seed, partitions: t.partitions, replication_factor: t.replication_factor };
  for (const [name] of FIELDS) if (values[name] != null) f[name].value = values[name];
}
