// Measures the page: time to interactive from loopback (navigation start -> [data-testid=ready]),
// split at the page's performance marks, and frames per second with 1,000 waiting requests
// (www/bench.html), served by Python's http.server and by scripts/static-server.mjs.
// node e2e/bench.mjs [RUNS]   (default 9 cold contexts; medians printed)
import { startServer, launchBrowser, openPage, SERVE_ROOT } from './lib.mjs';
import { startNodeServer } from '../scripts/static-server.mjs';

const RUNS = Number(process.argv[2] || 9);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function tti(url) {
  const rows = [];
  for (let i = 0; i < RUNS; i++) {
    const { page, context } = await openPage(browser);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('[data-testid="ready"]', { state: 'attached' });
    await page.waitForFunction(() => performance.getEntriesByName('first-paint-after-ready').length > 0);
    rows.push(await page.evaluate(() => {
      const mark = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
      const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'));
      return {
        wasmFetched: wasm ? wasm.responseEnd : NaN,
        instantiated: mark('wasm-instantiated'),
        firstFrame: mark('first-frame'),
        ready: mark('playground-ready'),
        painted: mark('first-paint-after-ready'),
      };
    }));
    await context.close();
  }
  const keys = Object.keys(rows[0]);
  const med = Object.fromEntries(keys.map((k) => [k, median(rows.map((r) => r[k]))]));
  const all = rows.map((r) => r.ready.toFixed(0)).sort((a, b) => a - b).join(', ');
  console.log(`  ready (ms, ${RUNS} cold contexts): ${all}; median ${med.ready.toFixed(0)}`);
  console.log(`  medians: wasm fetched ${med.wasmFetched.toFixed(0)}, instantiated ${med.instantiated.toFixed(0)}, first frame ${med.firstFrame.toFixed(0)}, ready ${med.ready.toFixed(0)}, painted after ready ${med.painted.toFixed(0)}`);
}

const server = await startServer();
const node = await startNodeServer(SERVE_ROOT);
const browser = await launchBrowser();
try {
  for (const [what, base] of [['python3 -m http.server (HTTP/1.0)', server.url], ['scripts/static-server.mjs (HTTP/1.1 keep-alive)', node.url]]) {
    console.log(`time to interactive, / from ${what}`);
    await tti(base);
    console.log(`time to interactive, /?scenario=s03-stalled-follower-completes-at-isr-shrink from ${what}`);
    await tti(`${base}?scenario=s03-stalled-follower-completes-at-isr-shrink`);
  }
  if (!process.env.BENCH_NO_FPS) {
    const { page } = await openPage(browser);
    await page.goto(`${server.url}www/bench.html?n=1000&seconds=5`);
    await page.waitForSelector('[data-testid="bench-result"][data-done]', { timeout: 60000 });
    console.log(`fps with 1,000 waiting requests: ${await page.textContent('[data-testid="bench-result"]')}`);
  }
} finally {
  await browser.close();
  await server.stop();
  await node.stop();
}
