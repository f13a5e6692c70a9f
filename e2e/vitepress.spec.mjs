// The VitePress recipe of docs/embedding.md, in the real framework from npm (e2e/sites/vitepress,
// VitePress 1.6.4, its lock file committed): the site is built on a sub-path base with the module
// in its head and Vue's `isCustomElement`, then driven as a reader would: both pages' elements
// ready, client-side navigation there and Back again, the story's caption below VitePress's fixed
// 64 px nav with what each step points at below it, VitePress's own dark toggle followed live, and
// axe on the element in light and dark. Screenshots of the story at step 3, light and dark.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';

const SITE = path.join(REPO_ROOT, 'e2e/sites/vitepress');
const BASE = 'target/e2e-vitepress/';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Installs VitePress (once), copies the built element beside the pages, builds the site. */
function buildSite(ctx) {
  const t0 = Date.now();
  if (!existsSync(path.join(SITE, 'node_modules/vitepress'))) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: SITE, stdio: 'inherit' });
  }
  const installed = Date.now();
  // What the recipe copies: the module, its chunks and the .wasm, into the site's public folder.
  const pp = path.join(SITE, 'docs/public/pp');
  mkdirSync(pp, { recursive: true });
  for (const f of readdirSync(path.join(REPO_ROOT, 'dist')).filter((n) => /\.(js|wasm)$/.test(n))) copyFileSync(path.join(REPO_ROOT, 'dist', f), path.join(pp, f));
  execFileSync(path.join(SITE, 'node_modules/.bin/vitepress'), ['build', 'docs'], { cwd: SITE, stdio: 'pipe' });
  ctx.log(`VitePress: install ${installed - t0} ms, build ${Date.now() - installed} ms`);
}

/** The element's state on `page`: ready, its story card and marked element, its theme. */
const look = (page, id = 0) => page.evaluate((i) => {
  const el = document.querySelectorAll('purgatory-playground')[i];
  const root = el?.shadowRoot;
  const rect = (n) => (n ? n.getBoundingClientRect() : null);
  const card = rect(root?.querySelector('.story-card'));
  const focus = rect([...(root?.querySelectorAll('.story-focus') ?? [])].at(-1));
  return {
    ready: !!el?.hasAttribute('ready'),
    progress: root?.querySelector('[data-testid="story-progress"]')?.textContent ?? null,
    card: card && Math.round(card.top), cardBottom: card && Math.round(card.bottom), focus: focus && Math.round(focus.top),
    nav: Math.round(document.querySelector('.VPNav')?.getBoundingClientRect().bottom ?? 0),
    theme: root?.querySelector('.pp')?.dataset.theme ?? null, height: innerHeight,
  };
}, id);

async function axeOnElement(ctx, page, what) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => (await window.axe.run(document.querySelector('purgatory-playground'), { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`));
  ctx.assert(found.length === 0, `${what}: axe found ${found.length} violation(s) in the element:\n  ${found.join('\n  ')}`);
}

export default async function vitepressSpec(ctx) {
  buildSite(ctx);
  const { page, errors } = await ctx.openPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', bypassCSP: true });
  await page.goto(`${ctx.baseURL}${BASE}`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('purgatory-playground')?.hasAttribute('ready'), null, { timeout: 30000 });
  ctx.assert(!(await page.isVisible('purgatory-playground p')), 'the fallback line gives way to the element');

  // Client-side navigation (VitePress's router, no reload) to the story page, and Back.
  const marker = await page.evaluate(() => { window.__samePage = true; return true; });
  await page.click('a[href$="story.html"]');
  await page.waitForFunction(() => /story/.test(location.pathname) && document.querySelector('purgatory-playground[scenario^="s03"]')?.hasAttribute('ready'), null, { timeout: 30000 });
  ctx.assert(marker && await page.evaluate(() => window.__samePage === true), 'the story page came by client-side navigation');
  const first = await look(page);
  ctx.assert(/^Step 1 of/.test(first.progress ?? ''), `the story opens at its first caption: ${JSON.stringify(first)}`);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('purgatory-playground[scenario="s01-happy-path"]')?.hasAttribute('ready'), null, { timeout: 30000 });
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('purgatory-playground[scenario^="s03"]')?.hasAttribute('ready'), null, { timeout: 30000 });

  // The story below VitePress's fixed nav: each step's caption under it, what it points at under
  // the caption and on screen.
  for (const step of [2, 3]) {
    await page.locator('purgatory-playground [data-testid="story-next"]').click();
    await page.waitForFunction((n) => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="story-progress"]')?.textContent.startsWith(`Step ${n} `), step, { timeout: 60000 });
    await page.waitForTimeout(900); // the smooth scroll
    const seen = await look(page);
    ctx.assert(seen.nav >= 60 && seen.card >= seen.nav && seen.focus >= seen.cardBottom && seen.focus < seen.height - 16,
      `step ${step}: the caption below VitePress's nav, what it points at below the caption: ${JSON.stringify(seen)}`);
  }
  await ctx.screenshot(page, 'vitepress-story-step-3-light', { fullPage: false });
  await axeOnElement(ctx, page, 'VitePress, light, the story open');

  // VitePress's own appearance switch: the element (theme auto) follows, live.
  await page.click('.VPNavBarAppearance button, .VPSwitchAppearance');
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('.pp')?.dataset.theme === 'dark', null, { timeout: 5000 });
  await ctx.screenshot(page, 'vitepress-story-step-3-dark', { fullPage: false });
  await axeOnElement(ctx, page, 'VitePress, dark, the story open');
  ctx.assertNoErrors(errors, 'the VitePress site');
}
