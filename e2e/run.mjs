// Runs every e2e/*.spec.mjs in name order: node e2e/run.mjs [FILTER...]
// Each spec exports `default async function (ctx)` (and may export `timeoutMs`, for one that
// installs a tool the first time; else E2E_SPEC_TIMEOUT_MS, 120 s); ctx has
//   baseURL  e.g. "http://127.0.0.1:41234/" (one server for the whole run, serving $E2E_ROOT or the repo)
//   browser  a playwright-core Browser (headless /usr/bin/chromium)
//   openPage(opts)  -> { context, page, errors }  (contexts are closed after the spec)
//   screenshot(page, name), assertNoErrors(errors, what), assert(cond, msg), log(...)
// Prints one line per spec and a final `e2e: N passed, M failed`; exits non-zero on any failure.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  E2E_DIR, SERVE_ROOT, startServer, launchBrowser, openPage, screenshot, assertNoErrors, assert,
} from './lib.mjs';

const SPEC_TIMEOUT_MS = Number(process.env.E2E_SPEC_TIMEOUT_MS || 120000);
const filters = process.argv.slice(2);

const specs = readdirSync(E2E_DIR)
  .filter((f) => f.endsWith('.spec.mjs'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (specs.length === 0) {
  console.error(`e2e: no spec files${filters.length ? ` matching ${filters.join(' ')}` : ''} in ${E2E_DIR}`);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

let server;
let browser;
let passed = 0;
let failed = 0;
try {
  server = await startServer(SERVE_ROOT);
  browser = await launchBrowser();
  console.log(`e2e: serving ${SERVE_ROOT} at ${server.url}; chromium ${browser.version()}`);

  for (const file of specs) {
    const name = file.replace(/\.spec\.mjs$/, '');
    const contexts = [];
    const ctx = {
      name,
      baseURL: server.url,
      browser,
      openPage: async (opts) => { const p = await openPage(browser, opts); contexts.push(p.context); return p; },
      screenshot,
      assertNoErrors,
      assert,
      log: (...a) => console.log(`    ${name}:`, ...a),
    };
    const t0 = Date.now();
    try {
      const mod = await import(pathToFileURL(path.join(E2E_DIR, file)).href);
      if (typeof mod.default !== 'function') throw new Error('spec has no default export function');
      await withTimeout(mod.default(ctx), mod.timeoutMs ?? SPEC_TIMEOUT_MS, name);
      passed++;
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${name} (${Date.now() - t0} ms)`);
      // What the page looked like when it failed: e2e/screenshots/FAIL-<spec>-<n>.png.
      const pages = contexts.flatMap((c) => c.pages());
      for (const [i, p] of pages.entries()) {
        const file = await screenshot(p, `FAIL-${name}-${i}`, { fullPage: false }).catch(() => null);
        if (file) console.log(`    screenshot ${file}`);
      }
      console.log(String(err && err.stack ? err.stack : err).replace(/^/gm, '    '));
    } finally {
      for (const c of contexts) await c.close().catch(() => {});
    }
  }
} catch (err) {
  failed++;
  console.log(`FAIL e2e harness: ${err && err.stack ? err.stack : err}`);
} finally {
  if (browser) await browser.close().catch(() => {});
  if (server) await server.stop();
}

console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
