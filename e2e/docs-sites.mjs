// What the docs-site specs (vitepress, docusaurus, mdbook) share: each builds the recipe of
// docs/embedding.md in the real tool, then drives it as a reader would with `driveDocsSite`: both
// pages' elements ready and their fallback line gone, client-side navigation to the story page
// and Back and Forward (where the site has a router), the story's caption below the site's own
// header with what each step points at below the caption, the site's dark switch followed live,
// and axe on the element in light and dark. Screenshots of the story at step 3, light and dark.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A site spec's time limit: its first run installs the site's tool (a slow network, a cold
 * cargo build), later runs take seconds. */
export const SITE_TIMEOUT_MS = 600000;

/** What every recipe copies: the module, its chunks and the .wasm, into `dir`. */
function copyElementFiles(dir) {
  mkdirSync(dir, { recursive: true });
  const dist = path.join(REPO_ROOT, 'dist');
  for (const f of readdirSync(dist).filter((n) => /\.(js|wasm)$/.test(n))) copyFileSync(path.join(dist, f), path.join(dir, f));
}

/** Builds a recipe's site: its tool installed unless `installed()` says it is (`install`), the
 * built element copied into `elementDir`, then `build`; logs how long each part took. */
export function buildDocsSite(ctx, { name, installed, install, elementDir, build }) {
  const t0 = Date.now();
  if (!installed()) install();
  const t1 = Date.now();
  copyElementFiles(elementDir);
  build();
  ctx.log(`${name}: install ${t1 - t0} ms, build ${Date.now() - t1} ms`);
}

/** `npm ci` in `dir`, quietly: an npm-based site's install. */
export function npmCi(dir) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
}

/** Whether `dir` has an npm package installed (`name`, under its node_modules). */
export const hasPackage = (dir, name) => existsSync(path.join(dir, 'node_modules', name));

/** The element's state on `page`: ready, its story card and marked element, its theme, and
 * where the site's header (`header`, a selector) ends. */
const look = (page, header) => page.evaluate((headerSelector) => {
  const el = document.querySelector('purgatory-playground');
  const root = el?.shadowRoot;
  const rect = (n) => (n ? n.getBoundingClientRect() : null);
  const card = rect(root?.querySelector('.story-card'));
  const focus = rect([...(root?.querySelectorAll('.story-focus') ?? [])].at(-1));
  return {
    ready: !!el?.hasAttribute('ready'),
    progress: root?.querySelector('[data-testid="story-progress"]')?.textContent ?? null,
    card: card && Math.round(card.top), cardBottom: card && Math.round(card.bottom), focus: focus && Math.round(focus.top),
    header: Math.round(document.querySelector(headerSelector)?.getBoundingClientRect().bottom ?? 0),
    theme: root?.querySelector('.pp')?.dataset.theme ?? null, height: innerHeight,
  };
}, header);

async function axeOnElement(ctx, page, what) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => (await window.axe.run(document.querySelector('purgatory-playground'), { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`));
  ctx.assert(found.length === 0, `${what}: axe found ${found.length} violation(s) in the element:\n  ${found.join('\n  ')}`);
}

const elementReady = (page, selector) => page.waitForFunction((s) => document.querySelector(s)?.hasAttribute('ready'), selector, { timeout: 30000 });

/**
 * Drives a built docs site. `site`: { name, url (its first page), storyLink (a selector on the
 * first page), clientSide (its links navigate without a reload), header (the site's header),
 * toggleDark(page) (its own dark switch, resolving once the site is dark) }.
 */
export async function driveDocsSite(ctx, site) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', bypassCSP: true });
  await page.goto(site.url, { waitUntil: 'load' });
  await elementReady(page, 'purgatory-playground[scenario="s01-happy-path"]');
  ctx.assert(!(await page.isVisible('purgatory-playground p')), `${site.name}: the fallback line gives way to the element`);

  await page.evaluate(() => { window.__samePage = true; });
  await page.click(site.storyLink);
  await elementReady(page, 'purgatory-playground[scenario^="s03"]');
  const samePage = await page.evaluate(() => window.__samePage === true);
  ctx.assert(samePage === site.clientSide, `${site.name}: the story page came ${site.clientSide ? 'by client-side navigation' : 'as a page load'}`);
  const first = await look(page, site.header);
  ctx.assert(/^Step 1 of/.test(first.progress ?? ''), `${site.name}: the story opens at its first caption: ${JSON.stringify(first)}`);
  await page.goBack();
  await elementReady(page, 'purgatory-playground[scenario="s01-happy-path"]');
  await page.goForward();
  await elementReady(page, 'purgatory-playground[scenario^="s03"]');

  for (const step of [2, 3]) {
    await page.locator('purgatory-playground [data-testid="story-next"]').click();
    await page.waitForFunction((n) => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="story-progress"]')?.textContent.startsWith(`Step ${n} `), step, { timeout: 60000 });
    await page.waitForTimeout(900); // the smooth scroll
    const seen = await look(page, site.header);
    ctx.assert(seen.header >= 40 && seen.card >= seen.header && seen.focus >= seen.cardBottom && seen.focus < seen.height - 16,
      `${site.name}, step ${step}: the caption below the site's header, what it points at below the caption: ${JSON.stringify(seen)}`);
  }
  await ctx.screenshot(page, `${ctx.name}-story-step-3-light`, { fullPage: false });
  await axeOnElement(ctx, page, `${site.name}, light, the story open`);

  await site.toggleDark(page);
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('.pp')?.dataset.theme === 'dark', null, { timeout: 5000 });
  await ctx.screenshot(page, `${ctx.name}-story-step-3-dark`, { fullPage: false });
  await axeOnElement(ctx, page, `${site.name}, dark, the story open`);
  // A page load cancels what the page before it was still fetching: the site's own (mdBook's
  // favicon), and a chunk the element imports on demand after it is ready (the Kafka check's
  // record, the Phases view), which a reader who moves on does not need. The module and the .wasm
  // cancelled so are still errors.
  const onDemand = /\/pp\/purgatory-playground-[\w-]+-[A-Z0-9]{8}\.js: net::ERR_ABORTED$/;
  const cancelled = (e) => / net::ERR_ABORTED$/.test(e) && (!e.includes('/pp/') || onDemand.test(e));
  ctx.assertNoErrors(errors.filter((e) => site.clientSide || !cancelled(e)), `the ${site.name} site`);
}
