// A person's walk through the page at 1280x800 and at 800x600, saving a screenshot at each stop
// (e2e/screenshots/walk-WxH-*.png): the initial state; one acks=all request in flight at slow
// speed; both followers paused, a request waiting, then timed out; a scenario by URL played to its
// end; dark mode with reduced motion. Then keyboard-only use and bad input in every kind of field.
const ready = (page) => page.waitForSelector('[data-testid="ready"]', { state: 'attached', timeout: 30000 });
const text = (page, sel) => page.textContent(sel);

async function setSpeed(page, pos) {
  await page.$eval('[data-testid="speed"]', (el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, pos);
}

async function walk(ctx, viewport) {
  const tag = `walk-${viewport.width}x${viewport.height}`;
  const shot = (page, name) => ctx.screenshot(page, `${tag}-${name}`, { fullPage: false });
  const { page, errors } = await ctx.openPage({ viewport });
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await ready(page);
  await shot(page, '1-initial');

  // (ii) One acks=all request at slow speed: fetches travelling, the op watched and on the wheel.
  await setSpeed(page, 150);
  await page.click('[data-testid="produce"]');
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="num-delayed-operations"]')?.textContent === '1'
    && document.querySelectorAll('.network .msg').length > 0, null, { timeout: 20000 });
  await page.click('[data-testid="play"]');
  await page.click('.responses [data-select], .eventlog [data-select]').catch(() => {});
  await shot(page, '2-acks-all-in-flight');
  ctx.assert(/tryCompleteElseWatch/.test(await text(page, '.codepath')), 'code path shown for the in-flight request');

  // (iii) Both followers paused: a request waits in the purgatory and on the wheel, then expires.
  await setSpeed(page, 800);
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="response"]')].some((e) => e.textContent.includes('NONE')), null, { timeout: 20000 });
  await page.click('[data-testid="play"]');
  await page.click('[data-testid="pause-follower-1"]');
  await page.click('[data-testid="pause-follower-2"]');
  await page.fill('input[name=timeout]', '3000');
  await page.click('[data-testid="produce"]');
  await page.click('[data-testid="step"]');
  ctx.assert((await text(page, '[data-testid="num-delayed-operations"]')) === '1', 'one op waiting');
  await shot(page, '3a-paused-waiting');
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="response"]')].some((e) => e.textContent.includes('REQUEST_TIMED_OUT')), null, { timeout: 30000 });
  await page.click('[data-testid="play"]');
  await shot(page, '3b-paused-timed-out');
  ctx.assertNoErrors(errors, `${tag} live session`);
  await page.context().close();

  // (iv) A scenario by URL, played to its end.
  const s = await ctx.openPage({ viewport });
  await s.page.goto(`${ctx.baseURL}?scenario=s03-stalled-follower-completes-at-isr-shrink`, { waitUntil: 'load' });
  await ready(s.page);
  await setSpeed(s.page, 1000);
  await s.page.click('[data-testid="play"]');
  await s.page.waitForFunction(() => document.querySelector('[data-testid="play"]').textContent === 'Play'
    && /nothing scheduled|next event/.test(document.querySelector('.next').textContent)
    && document.querySelectorAll('[data-testid="response"]').length > 0, null, { timeout: 60000 });
  await shot(s.page, '4-scenario-s03-end');
  ctx.assertNoErrors(s.errors, `${tag} scenario`);
  await s.page.context().close();

  // (v) Dark mode and reduced motion.
  const d = await ctx.openPage({ viewport });
  await d.page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await d.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await ready(d.page);
  await setSpeed(d.page, 150);
  await d.page.click('[data-testid="produce"]');
  await d.page.click('[data-testid="play"]');
  await d.page.waitForFunction(() => document.querySelectorAll('.network .msg').length > 0, null, { timeout: 20000 });
  await d.page.click('[data-testid="play"]');
  await shot(d.page, '5-dark-reduced-motion');
  ctx.assertNoErrors(d.errors, `${tag} dark`);
  await d.page.context().close();
}

async function keyboardAndBadInput(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await ready(page);
  // Tab order starts in the toolbar: Play, Step, Reset, Speed; focus is visible.
  const order = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => {
      const el = document.activeElement;
      const outline = getComputedStyle(el).outlineStyle;
      return `${el.dataset.testid || el.className || el.tagName}:${outline !== 'none' ? 'visible' : 'NO-OUTLINE'}`;
    }));
  }
  ctx.log(`tab order: ${order.join(' → ')}`);
  ctx.assert(order.every((o) => o.endsWith(':visible')), `focus visible on each: ${order}`);
  // Enter on the focused Send button fires a request; Space on Play starts the clock.
  await page.focus('[data-testid="produce"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="num-delayed-operations"]') !== null);
  await page.focus('[data-testid="play"]');
  await page.keyboard.press('Space');
  ctx.assert((await text(page, '[data-testid="play"]')) === 'Pause', 'Space on Play starts the clock');
  await page.keyboard.press('Space');

  // Bad input: an inline message each time, and the page keeps working.
  const bad = [
    ['input[name=count]', '-5', '.cmd-error'],
    ['input[name=count]', '10', null],
    ['input[name=timeout]', 'abc', '.cmd-error'],
    ['input[name=timeout]', '', null],
    ['input[name=partitions]', 'x', '.cmd-error'],
    ['input[name=partitions]', '0', null],
  ];
  for (const [sel, value, errSel] of bad) {
    await page.fill(sel, value);
    if (!errSel) continue;
    await page.click('[data-testid="produce"]');
    const msg = await text(page, errSel);
    ctx.log(`${sel}=${JSON.stringify(value)} → ${msg}`);
    ctx.assert(msg.trim().length > 0, `inline message for ${sel}=${value}`);
  }
  await page.click('.setup summary');
  await page.fill('#f-brokers', '0');
  await page.click('.setup-form button[type=submit]');
  const setupMsg = await text(page, '.setup-error');
  ctx.log(`brokers=0 → ${setupMsg}`);
  ctx.assert(/brokers/.test(setupMsg), 'brokers 0 is refused inline');
  await page.fill('#f-brokers', '3');
  await page.click('[data-testid="produce"]');
  ctx.assert((await text(page, '.cmd-error')).trim() === '', 'a good request clears the message');
  await ctx.screenshot(page, 'walk-bad-input', { fullPage: false });
  ctx.assertNoErrors(errors, 'keyboard and bad input');

  const n = await ctx.openPage({ viewport: { width: 800, height: 600 } });
  await n.page.goto(`${ctx.baseURL}?scenario=nope`, { waitUntil: 'load' });
  await ready(n.page);
  const msg = await text(n.page, '.scenario-error');
  ctx.log(`?scenario=nope → ${msg}`);
  ctx.assert(/nope/.test(msg), 'unknown scenario named inline');
  await n.page.click('[data-testid="produce"]');
  await n.page.click('[data-testid="step"]');
  ctx.assert((await text(n.page, '[data-testid="num-delayed-operations"]')) === '1', 'the page still works after ?scenario=nope');
  await ctx.screenshot(n.page, 'walk-unknown-scenario', { fullPage: false });
  ctx.assertNoErrors(n.errors.filter((e) => !/nope\.json/.test(e)), 'unknown scenario');
}

export default async function walkthrough(ctx) {
  await walk(ctx, { width: 1280, height: 800 });
  await walk(ctx, { width: 800, height: 600 });
  await keyboardAndBadInput(ctx);
}
