// The contenders of Kafka's purgatory workload (src/purgatory/workload.rs), each kept alive so
// that a bench interleaves their replays round by round (e2e/bench.mjs's `workload` part and
// e2e/bench-kafka.mjs): a side's `replay()` times one replay of the same schedule and returns
// { ms, cpu_ms, outcome, peak_kb, ... }. `outcome` is "completed expired ..." as each side prints it.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readdirSync, readFileSync } from 'node:fs';
import { openPage, REPO_ROOT } from './lib.mjs';

/**
 * A process that prints `ready`, then one line per line it reads on stdin (one replay each),
 * read by `parse` (which returns null for a line it does not know).
 */
export async function servedProcess(name, command, args, parse, options = {}) {
  const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const what = `${command} ${args.join(' ')}`;
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${what} ended early (status ${child.exitCode})`);
    return value;
  };
  if ((await next()) !== 'ready') throw new Error(`${what}: no "ready" line`);
  return {
    name,
    async replay() {
      child.stdin.write('run\n');
      const line = await next();
      const r = parse(line);
      if (!r) throw new Error(`unexpected output from ${name}: ${line}`);
      return r;
    },
    close() { child.stdin.end(); },
  };
}

/** The crate's purgatory natively (`examples/purgatory_workload.rs --serve`, cargo's release profile). */
export function nativeWorkload(requests, { purge = true, name = 'native' } = {}) {
  const args = ['run', '--release', '--quiet', '--example', 'purgatory_workload', '--', String(requests), '--serve'];
  if (!purge) args.push('--no-purge');
  return servedProcess(name, 'cargo', args, (line) => {
    const m = /^native_ms ([\d.]+) outcome (.*) phases ([\d.]+) ([\d.]+) ([\d.]+) cpu_ms ([\d.]+) peak_rss_kb (\d+)$/.exec(line);
    return m && { ms: Number(m[1]), outcome: m[2].trim(), phases: m.slice(3, 6).map(Number), cpu_ms: Number(m[6]), peak_kb: Number(m[7]) };
  });
}

/** CPU ms used so far by the processes under this one whose name says Chromium (/proc, Linux). */
export function chromiumCpuMs() {
  return chromiumProcesses().reduce((sum, p) => sum + p.cpuMs, 0);
}

/** The largest peak resident set (VmHWM, KB) of Chromium's renderer processes under this one. */
export function rendererPeakKb() {
  let peak = 0;
  for (const p of chromiumProcesses()) {
    if (!p.cmdline.includes('--type=renderer')) continue;
    const m = /VmHWM:\s+(\d+)/.exec(readOr(`/proc/${p.pid}/status`));
    if (m) peak = Math.max(peak, Number(m[1]));
  }
  return peak;
}

const readOr = (file) => { try { return readFileSync(file, 'utf8'); } catch { return ''; } };

/** Every process descended from this one whose command name starts with "chrom". */
function chromiumProcesses() {
  const TICKS_PER_S = 100; // USER_HZ, 100 on Linux
  const procs = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const stat = readOr(`/proc/${pid}/stat`);
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' '); // fields[0] is the state (field 3)
    procs.set(Number(pid), {
      pid: Number(pid), comm, ppid: Number(fields[1]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * (1000 / TICKS_PER_S), // utime, stime
    });
  }
  const under = (p) => {
    for (let q = p; q; q = procs.get(q.ppid)) if (q.ppid === process.pid) return true;
    return false;
  };
  return [...procs.values()]
    .filter((p) => p.comm.startsWith('chrom') && under(p))
    .map((p) => ({ ...p, cmdline: readOr(`/proc/${p.pid}/cmdline`).split('\0').join(' ') }));
}

/**
 * One wasm build's workload in a page kept open (`bench.html?mode=workload&driven`). Its CPU time
 * is the whole browser's over the replay (the page only replays then), its memory the renderer's
 * peak resident set and the module's linear memory.
 */
export async function wasmWorkload(browser, base, name, requests, pkg) {
  const { page, errors } = await openPage(browser);
  await page.goto(`${base}www/bench.html?mode=workload&driven&requests=${requests}${pkg ? `&pkg=${pkg}` : ''}`);
  await page.waitForSelector('[data-testid="bench-result"][data-done]', { state: 'attached', timeout: 120000 });
  const ready = JSON.parse(await page.textContent('[data-testid="bench-result"]'));
  if (ready.error || errors.length) throw new Error(`bench.html (${name}): ${ready.error ?? ''} ${errors.join('; ')}`);
  return {
    name,
    async replay() {
      const cpu = chromiumCpuMs();
      const r = await page.evaluate(() => window.workloadReplay());
      if (errors.length) throw new Error(`bench.html (${name}): ${errors.join('; ')}`);
      return { ...r, cpu_ms: chromiumCpuMs() - cpu, peak_kb: rendererPeakKb() };
    },
    close: () => page.context().close(),
  };
}
