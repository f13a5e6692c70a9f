// ?scenario=NAME loads a curated scenario; playing it to its end gives the scenario's outcome.
export default async function scenarioSpec(ctx) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 800, height: 600 } });
  await page.goto(`${ctx.baseURL}?scenario=s02-stalled-follower-times-out`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="ready"]', { state: 'attached', timeout: 30000 });
  ctx.assert((await page.textContent('.run-name')).includes('s02-stalled-follower-times-out'), 'scenario named in the bar');
  await page.$eval('[data-testid="speed"]', (el) => { el.value = '700'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="num-delayed-operations"]')?.textContent === '1', null, { timeout: 20000 });
  await page.click('[data-testid="play"]');
  await ctx.screenshot(page, 'scenario-s02-waiting-800x600', { fullPage: false });
  await page.$eval('[data-testid="speed"]', (el) => { el.value = '1000'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="response"]')].some((e) => e.textContent.includes('REQUEST_TIMED_OUT')), null, { timeout: 30000 });
  await ctx.screenshot(page, 'scenario-s02-timed-out');
  // A name that does not exist: an inline message, the page still works.
  await page.goto(`${ctx.baseURL}?scenario=no-such-thing`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="ready"]', { state: 'attached', timeout: 30000 });
  ctx.assert((await page.textContent('.scenario-error')).includes('no-such-thing'), 'unknown scenario named inline');
  const expected = errors.filter((e) => !/no-such-thing/.test(e));
  ctx.assertNoErrors(expected, 'scenario page');
}
