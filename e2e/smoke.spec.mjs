// The page opens: the element mounts, the wasm initialises, a live session runs; nothing goes
// wrong on the way (no console error, uncaught exception or failed request); at 1280x800 the
// cluster, the purgatory, the wheel, the narration and the timeline are all on the first screen,
// and at 800x600 the same core starts on it.
import { playgroundsReady, onPlayground } from './lib.mjs';

export default async function smoke(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  try {
    await playgroundsReady(page);
  } catch (err) {
    await ctx.screenshot(page, 'smoke-failed').catch(() => {});
    throw new Error(`the playground never became ready${errors.length ? `; errors:\n  ${errors.join('\n  ')}` : ''}`);
  }
  await page.waitForTimeout(600);
  for (const name of ['panel-cluster', 'panel-purgatory', 'panel-wheel', 'narration', 'timeline']) {
    const box = await page.locator(`[data-testid="${name}"]`).boundingBox();
    ctx.assert(box && box.y >= 0 && box.y + 40 <= 800 && box.x + box.width <= 1280, `${name} starts on the first screen at 1280x800: ${JSON.stringify(box)}`);
  }
  const t = Number(await page.getAttribute('[data-testid="now-ms"]', 'data-ms'));
  ctx.assert(t > 0, `a live session plays on opening (t = ${t})`);
  // A first visit offers three ways in; "Drive it yourself" says what to try, and is remembered.
  const ways = await page.locator('.notice.welcome .choice').allTextContents();
  ctx.assert(ways.length === 3 && /guided story/.test(ways[0]) && /article/.test(ways[1]) && /drive it yourself/.test(ways[2]), `a first visit offers a story, the article, or driving: ${JSON.stringify(ways)}`);
  ctx.assert(await page.getAttribute('[data-testid="welcome-article"]', 'href') === 'docs/', 'the article is linked');
  await ctx.screenshot(page, 'smoke-first-visit', { fullPage: false });
  // By keyboard: the line goes, and the focus stays in the playground (not on the page's body).
  await page.focus('[data-testid="welcome-drive"]');
  await page.keyboard.press('Enter');
  ctx.assert(/Try this/.test(await page.textContent('.notices')) && !(await page.locator('.notice.welcome').count()), 'driving: the hint says what to try');
  const focused = await onPlayground(page, (el) => el.shadowRoot.activeElement?.dataset.testid ?? el.shadowRoot.activeElement?.tagName ?? null);
  ctx.assert(focused === 'play', `closing the welcome by keyboard leaves the focus on the clock's Play: ${focused}`);
  await page.click('[data-testid="produce"]');
  ctx.assert(!/Try this/.test(await page.textContent('.notices')), 'and goes once an acks=all request is sent');
  // A timeout longer than the producer's own: once sent, a hint says the producer may give up first.
  await page.fill('input[name="timeout"]', '60000');
  await page.click('[data-testid="produce"]');
  ctx.assert(/wait up to 60,000 ms, longer than the producer’s own request.timeout.ms \(30,000 ms\)/.test(await page.textContent('.notices')), 'a longer timeout than the producer waits is pointed out');
  await page.fill('input[name="timeout"]', '');
  // A live run has no future: a click far right on the timeline stays where the run is, and says why.
  const tl = await page.locator('[data-testid="timeline"]').boundingBox();
  const before = await onPlayground(page, (el) => el.app.sim.extent().frontier_ms);
  await page.mouse.click(tl.x + tl.width * 0.97, tl.y + tl.height / 2);
  const after = await onPlayground(page, (el) => el.app.sim.nowMs);
  ctx.assert(after <= before + 50 && /no future yet/.test(await page.textContent('.notices')), `a click past a live run's end stays at its end (${after} ms, computed to ${before}) and says why`);
  const again = await page.context().newPage();
  await again.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(again);
  ctx.assert(!(await again.locator('.notice.welcome').count()) && /Try this/.test(await again.textContent('.notices')), 'the choice is remembered: a later visit opens with the hint');
  await again.close();
  ctx.assertNoErrors(errors, 'index.html');

  // A first visit that drives at once has answered the welcome: its line goes.
  const driver = await ctx.openPage();
  await driver.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(driver.page);
  ctx.assert(await driver.page.locator('.notice.welcome').count() === 1, 'a fresh visit is welcomed');
  await driver.page.click('[data-testid="produce"]');
  ctx.assert(!(await driver.page.locator('.notice.welcome').count()), 'sending a request answers the welcome');
  await driver.page.close();

  // The guided story from the first visit: S03 at its first caption, named in the address bar.
  const first = await ctx.openPage();
  await first.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(first.page);
  await first.page.click('[data-testid="welcome-story"]');
  await first.page.waitForFunction(() => /^Step 1 of/.test(document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="story-progress"]')?.textContent ?? ''));
  ctx.assert(/\?scenario=s03-stalled-follower-completes-at-isr-shrink&story$/.test(first.page.url()), `the address names the story: ${first.page.url()}`);
  ctx.assertNoErrors(first.errors, 'the first visit\'s story');

  // 800x600: the same core (the cluster with its controls, the purgatory, the wheel's heading,
  // the narration) starts on the first screen; the other views are a scroll away.
  const small = await ctx.openPage({ viewport: { width: 800, height: 600 } });
  await small.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(small.page);
  for (const name of ['panel-cluster', 'panel-purgatory', 'panel-wheel', 'narration', 'pause-follower-2']) {
    const box = await small.page.locator(`[data-testid="${name}"]`).boundingBox();
    ctx.assert(box && box.y >= 0 && box.y + 24 <= 600 && box.x + box.width <= 800, `${name} starts on the first screen at 800x600: ${JSON.stringify(box)}`);
  }
  ctx.assert(await small.page.evaluate(() => document.scrollingElement.scrollWidth) <= 800, 'no horizontal overflow at 800 px');
  await ctx.screenshot(small.page, 'smoke-800x600', { fullPage: false });
  ctx.assertNoErrors(small.errors, 'index.html at 800x600');
  ctx.log(`screenshot ${await ctx.screenshot(page, 'smoke-1280x800', { fullPage: false })}`);
}
