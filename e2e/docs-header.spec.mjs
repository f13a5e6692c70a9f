// A guided story in an embed on a documentation site with a header that stays on screen: the
// caption sticks below the site's header, not under it, and each step scrolls the page so that what
// its caption points at sits below the caption, on screen. Three hosts, as the sites build them:
// a fixed header found by looking (VitePress: a 64 px `position: fixed` nav), a sticky one the
// page announces with `scroll-padding-top` (Docusaurus: a 60 px sticky navbar), and an author's
// `--pp-header-height` for a header the element cannot see (one that covers the top without being
// fixed or sticky itself).
import { playgroundsReady, addElements } from './lib.mjs';

const S03 = 's03-stalled-follower-completes-at-isr-shrink';

const HOSTS = [
  { name: 'VitePress-like fixed nav', header: 64, css: '#site-header { position: fixed; top: 0; left: 0; right: 0; height: 64px; z-index: 30; background: #eee; } main { padding-top: 64px; }' },
  { name: 'Docusaurus-like sticky navbar', header: 60, css: 'html { scroll-padding-top: 60px; } #site-header { position: sticky; top: 0; height: 60px; z-index: 30; background: #eee; }' },
  // The header's box is absolutely placed inside a fixed wrapper of no height: nothing at the top
  // edge is fixed or sticky itself, so only the author's word says how tall it is.
  { name: 'an author\'s --pp-header-height', header: 80, css: 'purgatory-playground { --pp-header-height: 5rem; } #site-header { position: absolute; top: 0; left: 0; right: 0; height: 80px; z-index: 30; background: #eee; } body { margin-top: 0; }' },
];

export default async function docsHeaderSpec(ctx) {
  for (const host of HOSTS) {
    const { page, errors } = await ctx.openPage({ viewport: { width: 1000, height: 800 }, reducedMotion: 'reduce' });
    await page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
    await playgroundsReady(page, 6);
    await page.addStyleTag({ content: host.css });
    await addElements(page, 'body', 'afterbegin', [['header', { id: 'site-header' }]]);
    await addElements(page, 'main', 'afterbegin', [['purgatory-playground', { id: 'told', scenario: S03, story: true }]]);
    await page.waitForSelector('#told[ready]', { state: 'attached', timeout: 20000 });
    if (host === HOSTS[0]) {
      // A story embed far down the article opens at its first caption without moving the page:
      // the reader is elsewhere; Next is what brings its panels into view.
      await addElements(page, 'main', 'beforeend', [['purgatory-playground', { id: 'below', scenario: S03, story: true }]]);
      await page.waitForSelector('#below[ready]', { state: 'attached', timeout: 20000 });
      await page.waitForTimeout(300);
      const y = await page.evaluate(() => scrollY);
      ctx.assert(y === 0, `a story embed opening further down leaves the page where it was: scrollY ${y}`);
      await page.evaluate(() => document.getElementById('below').remove());
    }
    await page.evaluate(() => scrollTo(0, 0));
    for (const step of [2, 3, 4]) {
      await page.locator('#told [data-testid="story-next"]').click();
      await page.waitForFunction((n) => document.querySelector('#told').shadowRoot.querySelector('[data-testid="story-progress"]')?.textContent.startsWith(`Step ${n} `), step, { timeout: 60000 });
      const seen = await page.evaluate(() => {
        const root = document.querySelector('#told').shadowRoot;
        const card = root.querySelector('.story-card').getBoundingClientRect();
        const focus = [...root.querySelectorAll('.story-focus')].at(-1).getBoundingClientRect();
        return { card: Math.round(card.top), cardBottom: Math.round(card.bottom), focus: Math.round(focus.top), height: innerHeight, what: [...root.querySelectorAll('.story-focus')].at(-1).dataset.story };
      });
      ctx.assert(seen.card >= host.header && seen.focus >= seen.cardBottom && seen.focus < seen.height - 16,
        `${host.name}, step ${step}: the caption below the ${host.header} px header, what it points at below the caption and on screen: ${JSON.stringify(seen)}`);
    }
    await ctx.screenshot(page, `docs-header-${host.header}`, { fullPage: false });
    ctx.assertNoErrors(errors, host.name);
  }
}
