// The page opens: the element mounts, the wasm initialises, a live session runs; nothing goes
// wrong on the way (no console error, uncaught exception or failed request); at 1280x800 the
// cluster, the purgatory, the wheel, the narration and the timeline are all on the first screen,
// and at 800x600 the same core starts on it.
import { playgroundsReady } from './lib.mjs';

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
  ctx.assert(/Try this/.test(await page.textContent('.notices')), 'a first-time hint says what to try');
  await page.click('[data-testid="produce"]');
  ctx.assert(!/Try this/.test(await page.textContent('.notices')), 'and goes once an acks=all request is sent');
  ctx.assertNoErrors(errors, 'index.html');

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
