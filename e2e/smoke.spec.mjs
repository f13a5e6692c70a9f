// The page opens: the element mounts, the wasm initialises, a live session runs; nothing goes
// wrong on the way (no console error, uncaught exception or failed request); at 1280x800 the
// cluster, the purgatory, the wheel, the narration and the timeline are all on the first screen.
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
  const t = Number(await page.textContent('[data-testid="now-ms"]'));
  ctx.assert(t > 0, `a live session plays on opening (t = ${t})`);
  ctx.assert(/Try this/.test(await page.textContent('.notices')), 'a first-time hint says what to try');
  ctx.assertNoErrors(errors, 'index.html');
  ctx.log(`screenshot ${await ctx.screenshot(page, 'smoke-1280x800', { fullPage: false })}`);
}
