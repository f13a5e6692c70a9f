// Kafka's own purgatory against the crate's (issue 29), run by scripts/bench-kafka.sh, which
// builds and fetches what this needs and passes it in the environment:
//
//   KAFKA_VERSION, KAFKA_JARS        Apache Kafka's jars (tools/kafka-check/pom.xml's release)
//   BENCH_SCHEDULE                   the schedule file both sides replay (Schedule::write_file)
//   BENCH_REQUESTS=6000000 BENCH_ROUNDS=3   the schedule's size (it must match the file) and rounds
//   BENCH_DIAGNOSTIC=0               skip the second table (the purge out of the way)
//
// Three contenders replay the same schedule (src/purgatory/workload.rs: Kafka's
// TestPurgatoryPerformance workload, about 1 M pending): the crate's purgatory natively, the
// shipped wasm build in headless Chromium, and Apache Kafka's DelayedOperationPurgatory with its
// timing wheel and reaper thread (tools/kafka-purgatory-bench). Their replays are interleaved
// round by round, the order turning, after one replay each that is not counted (JIT, memory
// growth). Printed per contender: requests per wall second and per CPU second (min / median /
// max), peak memory, and the ratio to Kafka's (of the medians). The run fails when any replay's
// completed and expired counts differ from the others'.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, REPO_ROOT, SERVE_ROOT } from './lib.mjs';
import { startNodeServer } from '../scripts/static-server.mjs';
import { nativeWorkload, servedProcess, wasmWorkload } from './workload-sides.mjs';

const env = (k, d) => process.env[k] ?? d;
const REQUESTS = Number(env('BENCH_REQUESTS', 6000000));
const ROUNDS = Number(env('BENCH_ROUNDS', 3));
const SCHEDULE = env('BENCH_SCHEDULE');
const KAFKA_VERSION = env('KAFKA_VERSION');
const KAFKA_JARS = env('KAFKA_JARS');
if (!SCHEDULE || !KAFKA_VERSION || !KAFKA_JARS) throw new Error('run scripts/bench-kafka.sh (it sets BENCH_SCHEDULE, KAFKA_VERSION and KAFKA_JARS)');
if (!existsSync(path.join(SERVE_ROOT, 'www/bench-pkg/purgatory_playground_bg.wasm'))) {
  throw new Error('www/bench-pkg is missing: run scripts/build-wasm.sh --bench first');
}

// The JVM as Kafka's start scripts run a broker: kafka-server-start.sh's heap and
// kafka-run-class.sh's KAFKA_JVM_PERFORMANCE_OPTS.
const KAFKA_HEAP = ['-Xmx1G', '-Xms1G'];
const KAFKA_JVM_PERFORMANCE_OPTS = ['-server', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20',
  '-XX:InitiatingHeapOccupancyPercent=35', '-XX:+ExplicitGCInvokesConcurrent', '-XX:MaxInlineLevel=15',
  '-Djava.awt.headless=true'];

/** Kafka's purgatory in a JVM kept alive (tools/kafka-purgatory-bench/KafkaPurgatoryBench.java). */
function kafkaWorkload({ purge = true, name = `Kafka ${KAFKA_VERSION}` } = {}) {
  // Without the purge its watch lists keep every operation ever watched (6 M, about 2 GB): that
  // diagnostic gets a heap to hold them, the only flag that differs.
  const heap = purge ? KAFKA_HEAP : ['-Xmx6G', '-Xms6G'];
  const args = [...heap, ...KAFKA_JVM_PERFORMANCE_OPTS,
    '-Dlog4j.configuration=file:tools/kafka-purgatory-bench/log4j.properties',
    '-cp', `target/kafka-purgatory-bench:${KAFKA_JARS}/*`, 'KafkaPurgatoryBench', SCHEDULE];
  if (!purge) args.push('--no-purge');
  return servedProcess(name, 'java', args, (line) => {
    const m = /^kafka_ms ([\d.]+) cpu_ms ([\d.]+) outcome (\d+ \d+) peak_rss_kb (\d+) heap_peak_kb (\d+)$/.exec(line);
    return m && { ms: Number(m[1]), cpu_ms: Number(m[2]), outcome: m[3], peak_kb: Number(m[4]), heap_kb: Number(m[5]) };
  }, { stderr: 'ignore' });
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const mega = (x) => (x / 1e6).toFixed(x >= 1e6 ? 2 : 3);
const perSecond = (ms) => REQUESTS / (ms / 1000);

/** Replays every side once uncounted, then ROUNDS rounds, the order turning. */
async function rounds(sides) {
  const runs = Object.fromEntries(sides.map((s) => [s.name, []]));
  const outcomes = new Map();
  const note = (side, r) => {
    const key = r.outcome.split(' ').slice(0, 2).join(' '); // completed expired
    outcomes.set(key, [...(outcomes.get(key) ?? []), side.name]);
  };
  for (const side of sides) {
    process.stdout.write(`  warm-up replay: ${side.name}...`);
    const r = await side.replay();
    note(side, r);
    console.log(` ${(r.ms / 1000).toFixed(1)} s`);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(round + k) % sides.length];
      const r = await side.replay();
      runs[side.name].push(r);
      note(side, r);
    }
    console.log(`  round ${round + 1} of ${ROUNDS}: ${sides.map((s) => `${s.name} ${(runs[s.name].at(-1).ms / 1000).toFixed(2)} s`).join(', ')}`);
  }
  return { runs, outcomes };
}

/** One row: wall and CPU rates (min / median / max), peak memory, ratios to the reference. */
function row(name, rs, reference) {
  const wall = rs.map((r) => perSecond(r.ms));
  const cpu = rs.map((r) => perSecond(r.cpu_ms));
  const range = (xs) => `${mega(Math.min(...xs))} / ${mega(median(xs))} / ${mega(Math.max(...xs))} M`;
  const peak = Math.max(...rs.map((r) => r.peak_kb));
  const extra = rs[0].memory_kb ? `, linear memory ${(Math.max(...rs.map((r) => r.memory_kb)) / 1024).toFixed(0)} MB`
    : rs[0].heap_kb ? `, heap peak ${(Math.max(...rs.map((r) => r.heap_kb)) / 1024).toFixed(0)} MB` : '';
  const ratio = reference && reference !== rs
    ? `; x Kafka: ${(median(cpu) / median(reference.map((r) => perSecond(r.cpu_ms)))).toFixed(0)}x per CPU s, ${(median(wall) / median(reference.map((r) => perSecond(r.ms)))).toFixed(0)}x per wall s`
    : '';
  console.log(`  ${name}: per wall s ${range(wall)}; per CPU s ${range(cpu)}; peak resident ${(peak / 1024).toFixed(0)} MB${extra}${ratio}`);
  return { wall: median(wall), cpu: median(cpu) };
}

function checkOutcomes(outcomes) {
  if (outcomes.size === 1) {
    const [completed, expired] = [...outcomes.keys()][0].split(' ').map(Number);
    console.log(`  outcome: the same on every replay of every side, completed ${completed.toLocaleString('en')}, expired ${expired.toLocaleString('en')}`);
    return;
  }
  console.log(`  outcome DIFFERS: ${[...outcomes].map(([k, names]) => `${k} (${[...new Set(names)].join(', ')})`).join(' / ')}`);
  process.exitCode = 1;
}

/** The machine's floor: one dependent random access over a table the size of 1 M pending operations. */
function memoryBound() {
  const runs = [1, 2, 3].map(() => {
    const out = execFileSync('cargo', ['run', '--release', '--quiet', '--example', 'purgatory_workload', '--', '--memory-bound', '1000000'], { cwd: REPO_ROOT, encoding: 'utf8' });
    const m = /^memory_bound_ns ([\d.]+) table_mb ([\d.]+)$/m.exec(out);
    if (!m) throw new Error(`unexpected output from the memory bound: ${out}`);
    return { ns: Number(m[1]), mb: Number(m[2]) };
  });
  return { ns: median(runs.map((r) => r.ns)), mb: runs[0].mb };
}

const node = await startNodeServer(SERVE_ROOT);
const browser = await launchBrowser();
try {
  console.log(`Kafka's purgatory workload (TestPurgatoryPerformance's, src/purgatory/workload.rs): ${REQUESTS.toLocaleString('en')} requests, about 1 M pending, ${ROUNDS} rounds`);
  console.log(`Apache Kafka ${KAFKA_VERSION}: DelayedOperationPurgatory, its timing wheel and reaper thread, purge interval 1,000, JVM flags of kafka-server-start.sh (${[...KAFKA_HEAP, ...KAFKA_JVM_PERFORMANCE_OPTS].join(' ')})`);
  const sides = [await kafkaWorkload(), await nativeWorkload(REQUESTS), await wasmWorkload(browser, node.url, 'shipped wasm', REQUESTS)];
  let result;
  try {
    result = await rounds(sides);
  } finally {
    for (const side of sides) await side.close();
  }
  const kafka = result.runs[sides[0].name];
  console.log(`against Kafka's own purgatory (requests per second, min / median / max; ratios of the medians):`);
  row(sides[0].name, kafka, kafka);
  const native = row('the crate, native', result.runs.native, kafka);
  row('the crate, shipped wasm in Chromium', result.runs['shipped wasm'], kafka);
  checkOutcomes(result.outcomes);

  const bound = memoryBound();
  const nsPerRequest = 1e9 / native.cpu;
  console.log(`memory bound: ${bound.ns.toFixed(0)} ns a dependent random access over ${bound.mb.toFixed(0)} MB (1 M cache lines); the crate natively ${nsPerRequest.toFixed(0)} ns a request per CPU second, ${(nsPerRequest / bound.ns).toFixed(2)}x the bound (goal <= 2x)`);

  if (env('BENCH_DIAGNOSTIC', '1') !== '0') {
    console.log(`diagnostic, not Kafka as it runs: the purge out of the way on both sides (purge interval out of reach; Kafka's heap 6 GB to hold the lists), ${ROUNDS} rounds:`);
    const bare = [await kafkaWorkload({ purge: false, name: 'Kafka, no purge' }), await nativeWorkload(REQUESTS, { purge: false, name: 'native, no purge' })];
    let d;
    try {
      d = await rounds(bare);
    } finally {
      for (const side of bare) await side.close();
    }
    const kafkaBare = d.runs['Kafka, no purge'];
    row('Kafka, no purge', kafkaBare, kafka);
    row('the crate natively, no purge', d.runs['native, no purge'], kafkaBare);
    checkOutcomes(d.outcomes);
    const share = 1 - median(kafkaBare.map((r) => r.cpu_ms)) / median(kafka.map((r) => r.cpu_ms));
    console.log(`  Kafka's purge is ${(share * 100).toFixed(0)}% of its CPU time on this workload`);
  }
} finally {
  await browser.close();
  await node.stop();
}
