// The page as a person uses it: fire acks=all and see NONE; pause both followers, fire acks=all,
// watch it wait in the purgatory and on the wheel, speed up and see REQUEST_TIMED_OUT; fire
// acks=1 and see NONE at once. Screenshots of each stage go to e2e/screenshots/.
const ready = (page) => page.waitForSelector('[data-testid="ready"]', { state: 'attached', timeout: 30000 });

async function setSpeed(page, pos) {
  await page.$eval('[data-testid="speed"]', (el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, pos);
}

async function responseText(page, id) {
  return page.$$eval('[data-testid="response"]', (els, rid) => els.map((e) => e.textContent).filter((t) => t.includes(`${rid} `) || t.startsWith(rid)), id);
}

async function waitResponse(ctx, page, id, error, timeout = 20000) {
  try {
    await page.waitForFunction(([rid, err]) => [...document.querySelectorAll('[data-testid="response"]')]
      .some((e) => e.querySelector('b')?.textContent === rid && e.textContent.includes(err)), [id, error], { timeout });
  } catch (e) {
    await ctx.screenshot(page, `failed-${id}`).catch(() => {});
    throw new Error(`no response "${id}" with ${error}: ${JSON.stringify(await responseText(page, id))}`);
  }
}

export default async function pageSpec(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await ready(page);
  await ctx.screenshot(page, 'page-loaded');

  // acks=all with everyone fetching: NONE once both followers fetched past it.
  await page.selectOption('[data-testid="acks"]', 'all');
  await page.click('[data-testid="produce"]');
  await setSpeed(page, 500); // about 1x
  await page.click('[data-testid="play"]');
  await waitResponse(ctx, page, 'p1', 'NONE');
  ctx.assert((await page.textContent('[data-testid="hw-t-0"]')) === '10', 'HW of t-0 is 10 after p1');
  await page.click('[data-testid="play"]'); // pause
  const path1 = await page.textContent('.codepath');
  ctx.assert(/completed by checkAndComplete\(t-0\)/.test(path1) && /the HW of t-0 reached 10/.test(path1), `code path says why p1 completed: ${path1}`);
  await ctx.screenshot(page, 'acks-all-none');

  // Both followers paused: the request waits in the purgatory and on the wheel.
  await page.click('[data-testid="pause-follower-1"]');
  await page.click('[data-testid="pause-follower-2"]');
  await page.fill('input[name=timeout]', '5000');
  await page.click('[data-testid="produce"]');
  await page.click('[data-testid="step"]');
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '1', 'one DelayedProduce waiting');
  ctx.assert((await page.textContent('[data-testid="purgatory-size"]')) === '1', 'PurgatorySize 1');
  ctx.assert(await page.$('.wheel .bucket.full'), 'the op sits in a wheel bucket');
  const path2 = await page.textContent('.codepath');
  ctx.assert(/watch on t-0/.test(path2) && /timer: expires at/.test(path2), `code path shows watch and timer: ${path2}`);
  await ctx.screenshot(page, 'acks-all-waiting');
  await setSpeed(page, 800); // fast
  await page.click('[data-testid="play"]');
  await waitResponse(ctx, page, 'p2', 'REQUEST_TIMED_OUT');
  await page.click('[data-testid="play"]');
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '0', 'nothing waiting after the timeout');
  await ctx.screenshot(page, 'acks-all-timed-out');

  // acks=1: answered at once, at the leader append.
  await page.selectOption('[data-testid="acks"]', '1');
  await page.click('[data-testid="produce"]');
  await waitResponse(ctx, page, 'p3', 'NONE', 2000);
  const p3 = (await responseText(page, 'p3')).join(' ');
  ctx.assert(/answered at [\d,]+ ms \(0 ms\)/.test(p3), `acks=1 answered at once: ${p3}`);

  // An invalid acks value: INVALID_REQUIRED_ACKS; bad input: an inline message.
  await page.selectOption('[data-testid="acks"]', '2');
  await page.click('[data-testid="produce"]');
  await waitResponse(ctx, page, 'p4', 'INVALID_REQUIRED_ACKS', 2000);
  await page.fill('input[name=count]', 'ten');
  await page.click('[data-testid="produce"]');
  ctx.assert((await page.textContent('.cmd-error')).includes('Records'), 'bad record count gets an inline message');
  await page.fill('input[name=count]', '10');
  await page.click('[data-testid="resume-follower-1"]');
  await page.click('[data-testid="resume-follower-2"]');
  await ctx.screenshot(page, 'after-acks-1');
  ctx.assertNoErrors(errors, 'page');
}
