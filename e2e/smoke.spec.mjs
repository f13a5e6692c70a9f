// The page loads, the wasm initialises (the page then adds [data-testid="ready"]), and nothing
// goes wrong on the way: no console error, no uncaught exception, no failed request.
export default async function smoke(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  try {
    await page.waitForSelector('[data-testid="ready"]', { state: 'attached', timeout: 30000 });
  } catch (err) {
    await ctx.screenshot(page, 'smoke-failed').catch(() => {});
    throw new Error(`[data-testid="ready"] never appeared${errors.length ? `; errors:\n  ${errors.join('\n  ')}` : ''}`);
  }
  await page.waitForTimeout(200); // let late errors surface
  ctx.assertNoErrors(errors, 'index.html');
  const file = await ctx.screenshot(page, 'smoke');
  ctx.log(`screenshot ${file}`);
}
