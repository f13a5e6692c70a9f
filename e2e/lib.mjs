// Helpers for the end-to-end specs: a static server on a free loopback port, headless Chromium
// through playwright-core (Debian's /usr/bin/chromium; trap 9: no browser download), console and
// page error collection, screenshots into e2e/screenshots/.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
/** What the server serves: the repo root (index.html at the top), or $E2E_ROOT. */
export const SERVE_ROOT = path.resolve(process.env.E2E_ROOT || REPO_ROOT);
export const SCREENSHOT_DIR = path.join(E2E_DIR, 'screenshots');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Start `python3 -m http.server` on 127.0.0.1. Port 0 lets the kernel choose a free port, which
 * the server prints; no race with another server (trap 8). Resolves once GET / answers and the
 * process is still ours and alive. Returns { url, port, stop() }.
 */
export async function startServer(root = SERVE_ROOT, { timeoutMs = 15000 } = {}) {
  if (!existsSync(path.join(root, 'index.html'))) {
    throw new Error(`no index.html in ${root} (set E2E_ROOT to serve another folder)`);
  }
  const child = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', root], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });
  let out = '';
  let log = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { log += d; if (log.length > 200000) log = log.slice(-100000); });

  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    for (let i = 0; i < 50 && !exited; i++) await sleep(20);
    if (!exited) child.kill('SIGKILL');
  };

  const deadline = Date.now() + timeoutMs;
  let port = null;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`static server exited (${JSON.stringify(exited)}): ${out}${log}`);
    if (port === null) {
      const m = /port (\d+)/.exec(out);
      if (m) port = Number(m[1]);
    }
    if (port !== null) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.ok && !exited) {
          return { url: `http://127.0.0.1:${port}/`, port, root, stop, log: () => log };
        }
      } catch { /* not up yet */ }
    }
    await sleep(50);
  }
  await stop();
  throw new Error(`static server did not come up within ${timeoutMs} ms: ${out}${log}`);
}

/** Headless Chromium. As root it needs --no-sandbox (trap 6). */
export async function launchBrowser(extraArgs = []) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (run scripts/setup.sh)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...extraArgs],
  });
}

/**
 * Record the page's console errors, uncaught exceptions and failed requests.
 * Returns an array that fills as they happen; each entry is a one-line string.
 */
export function collectErrors(page) {
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      // Chromium fetches /favicon.ico by itself; its 404 is the browser's noise, not the page's.
      // (A page can avoid it with <link rel="icon" href="data:,">.)
      if (loc && /\/favicon\.ico$/.test(loc.url || '')) return;
      errors.push(`console.error: ${msg.text()}${loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.stack || err.message || err}`));
  page.on('requestfailed', (req) => {
    errors.push(`request failed: ${req.method()} ${req.url()}: ${req.failure()?.errorText ?? '?'}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) errors.push(`HTTP ${res.status()}: ${res.request().method()} ${res.url()}`);
  });
  return errors;
}

/**
 * axe-core is injected as an inline script, which the pages' CSP refuses: a page audited with
 * `axe` is opened with these context options, CSP bypassed (every other spec runs under it).
 */
export const AUDIT = { bypassCSP: true };

/** Asserts that axe-core finds no violation, at any impact, in the whole document of `page`. */
export async function axe(ctx, page, what) {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
  });
  ctx.assert(violations.length === 0, `${what}: axe found ${violations.length} violation(s):\n  ${violations.join('\n  ')}`);
}

/** Throw if any error was collected. */
export function assertNoErrors(errors, what = 'page') {
  if (errors.length) {
    throw new Error(`${what} reported ${errors.length} error(s):\n  ${errors.join('\n  ')}`);
  }
}

/** Save a PNG screenshot to e2e/screenshots/NAME.png; returns its path. */
export async function screenshot(page, name, { fullPage = true } = {}) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, name.endsWith('.png') ? name : `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** A fresh browser context (the viewport and any other Playwright context options) and page with error collection: { context, page, errors }. */
export async function openPage(browser, { viewport = { width: 1280, height: 800 }, ...options } = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const errors = collectErrors(page);
  return { context, page, errors };
}

export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

/** Waits until `count` playgrounds on the page have opened their session (`ready` attribute). */
export async function playgroundsReady(page, count = 1, timeout = 30000) {
  await page.waitForFunction((n) => document.querySelectorAll('purgatory-playground[ready]').length >= n, count, { timeout });
}

/**
 * Runs `fn(el, arg)` in the page on the `index`-th playground element (shadow roots are open, so
 * `el.shadowRoot` reaches its markup). Playwright's CSS selectors pierce shadow roots already.
 */
export function onPlayground(page, fn, arg = null, index = 0) {
  // One expression, evaluated by the debugger protocol as Playwright evaluates any function: no
  // eval or new Function inside the page, which the pages' CSP refuses.
  return page.evaluate(`(${fn.toString()})(document.querySelectorAll('purgatory-playground')[${Number(index)}], ${JSON.stringify(arg)})`);
}

/**
 * Adds elements to the host page, as an author's script would, built node by node: the pages'
 * CSP enforces Trusted Types, so markup text cannot be written into them. `elements` is a list of
 * `[tag, {attribute: value}]` (a `true` value: an attribute without a value), put at `where`
 * ('afterbegin' or 'beforeend') of the first element matching `selector`.
 */
export function addElements(page, selector, where, elements) {
  return page.evaluate(([sel, at, list]) => {
    const nodes = list.map(([tag, attrs]) => {
      const el = document.createElement(tag);
      for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value === true ? '' : value);
      return el;
    });
    const parent = document.querySelector(sel);
    if (at === 'afterbegin') parent.prepend(...nodes);
    else parent.append(...nodes);
  }, [selector, where, elements]);
}

/**
 * A trap in the model of the playground `index`, as the page meets one. The shipped module has no
 * call that panics on request (tests/hostile-args.test.mjs checks what a real panic does to a
 * handle on the `test-hooks` build: a `RuntimeError`, then wasm-bindgen's "recursive use of an
 * object" Error from every later call, `free()` too). Here the handle is made to behave exactly
 * so: its next call throws the RuntimeError and every call after it the Error, which is all the
 * page can see of a trap.
 */
export function trapModel(page, index = 0) {
  return onPlayground(page, (el) => {
    const sim = el.app.sim;
    let trapped = false;
    const methods = new Set();
    for (let o = Object.getPrototypeOf(sim); o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor') methods.add(name);
    }
    for (const name of methods) {
      const desc = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(sim), name);
      const dead = () => {
        if (!trapped) {
          trapped = true;
          throw new WebAssembly.RuntimeError('unreachable');
        }
        throw new Error(name === 'free' ? 'Attempted to free an object while it was borrowed' : 'recursive use of an object detected which would lead to unsafe aliasing in rust');
      };
      if (desc && desc.get) Object.defineProperty(sim, name, { get: dead, configurable: true });
      else Object.defineProperty(sim, name, { value: dead, configurable: true });
    }
    el.app.guard(() => sim.nowMs);
  }, null, index);
}

/** The simulated time a playground shows. */
export async function nowMs(page, index = 0) {
  return onPlayground(page, (el) => el.nowMs, null, index);
}

/** Waits until a playground's shadow root has `selector` with text matching `pattern`. */
export async function waitText(page, selector, pattern, { index = 0, timeout = 20000 } = {}) {
  await page.waitForFunction(([sel, src, flags, i]) => {
    const el = document.querySelectorAll('purgatory-playground')[i];
    const re = new RegExp(src, flags);
    return [...(el?.shadowRoot?.querySelectorAll(sel) ?? [])].some((n) => re.test(n.textContent));
  }, [selector, pattern.source, pattern.flags, index], { timeout });
}
