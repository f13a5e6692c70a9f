// Keyboard, screen reader and small screens: axe-core finds no violation at any impact on the page
// (light and dark, the legend open, the guided story open), comparing, or on the docs article; the page's keys (p, n, [) drive the clock; every
// button has an accessible name; at 360x740 (a small phone) nothing overflows sideways.
import { playgroundsReady, onPlayground, nowMs, AUDIT, axe } from './lib.mjs';

export default async function a11ySpec(ctx) {
  const { page, errors } = await ctx.openPage(AUDIT);
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.click('[data-testid="play"]'); // the live session plays on opening: pause it
  await axe(ctx, page, 'index.html (light)');
  await page.click('[data-testid="legend-open"]');
  await axe(ctx, page, 'index.html, the legend open');
  await page.keyboard.press('Escape');

  const unnamed = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('button, select, input')]
    .filter((b) => b.offsetParent !== null)
    .filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim() || b.labels?.length || b.title))
    .map((b) => b.outerHTML.slice(0, 80)));
  ctx.assert(unnamed.length === 0, `every visible control has a name: ${unnamed.join(' | ')}`);
  // One live region speaks the narration, at most every 2.5 s: the narration itself, rewritten
  // every few ms in a busy run, is not one (a screen reader heard each line twice, and all of them).
  const live = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('[aria-live]')].map((e) => `${e.className}:${e.getAttribute('aria-live')}`));
  ctx.assert(JSON.stringify(live) === '["notices:polite","live-sr sr-only:polite"]', `the live regions: ${JSON.stringify(live)}`);
  // A name says whose (a screen reader lists the buttons out of their cards), and the play button's
  // says what it does next, without a pressed state that says the opposite.
  const names = await onPlayground(page, (el) => {
    const b = (id) => el.shadowRoot.querySelector(`[data-testid="${id}"]`);
    return { crash: b('crash-broker-2').getAttribute('aria-label'), play: b('play').textContent.trim(), pressed: b('play').hasAttribute('aria-pressed'), glyph: b('play').querySelector('[aria-hidden="true"]')?.textContent };
  });
  ctx.assert(names.crash === 'Crash, broker 2' && names.play === '▶ Play' && !names.pressed && names.glyph === '▶', `buttons say whose and what: ${JSON.stringify(names)}`);
  // Focus goes into the legend as into the other menus, and back to Setup once a setup starts.
  await page.focus('[data-testid="legend-open"]');
  await page.keyboard.press('Enter');
  const inLegend = await onPlayground(page, (el) => el.shadowRoot.activeElement?.closest('[data-panel="legend"]') != null);
  ctx.assert(inLegend, 'Enter on Legend moves focus into it');
  await page.keyboard.press('Escape');
  await page.click('button[data-menu="setup"]');
  await page.click('.setup-form button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-panel="setup"]').hidden);
  const afterSetup = await onPlayground(page, (el) => el.shadowRoot.activeElement?.dataset.menu ?? el.shadowRoot.activeElement?.tagName ?? null);
  ctx.assert(afterSetup === 'setup', `after a setup starts, focus is back on Setup: ${afterSetup}`);
  await page.click('[data-testid="play"]'); // the new live session plays: pause it

  // Focus stays on the broker's controls after they act (the card is redrawn).
  await page.click('[data-testid="pause-follower-1"]');
  await page.keyboard.press('n');
  await page.keyboard.press('n');
  const focused = await onPlayground(page, (el) => el.shadowRoot.activeElement?.dataset.testid ?? null);
  ctx.assert(/^(resume|pause)-follower-1$/.test(focused ?? ''), `focus stays on broker 1's fetch control: ${focused}`);
  await page.keyboard.press('Enter');
  const focused2 = await onPlayground(page, (el) => el.shadowRoot.activeElement?.dataset.testid ?? null);
  ctx.assert(/^(resume|pause)-follower-1$/.test(focused2 ?? ''), `and after Enter on it: ${focused2}`);

  // Keys: n steps, [ steps back, p plays and pauses.
  await page.keyboard.press('n');
  const t1 = await nowMs(page);
  await page.keyboard.press('n');
  const t2 = await nowMs(page);
  ctx.assert(t2 > t1, `n steps forward: ${t1} -> ${t2}`);
  await page.keyboard.press('[');
  ctx.assert(await nowMs(page) === t1, `[ steps back: ${await nowMs(page)}`);
  await page.keyboard.press('p');
  ctx.assert(await onPlayground(page, (el) => el.playing), 'p plays');
  await page.keyboard.press('p');
  ctx.assert(!(await onPlayground(page, (el) => el.playing)), 'p pauses');
  // Tab from the top of the page reaches the toolbar's buttons.
  await page.click('h1'); // a click on the title puts the sequential focus start there
  let reached = false;
  for (let i = 0; i < 15 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await onPlayground(page, (el) => el.shadowRoot.activeElement?.dataset.testid === 'play');
  }
  ctx.assert(reached, 'Tab reaches the play button');

  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await axe(ctx, page, 'index.html (dark)');
  await ctx.screenshot(page, 'a11y-dark', { fullPage: false });
  ctx.assertNoErrors(errors, 'index.html');

  // The guided story open (its sticky caption between the timeline and the views), light and dark.
  const story = await ctx.openPage(AUDIT);
  await story.page.goto(`${ctx.baseURL}?scenario=s03-stalled-follower-completes-at-isr-shrink&story`, { waitUntil: 'load' });
  await playgroundsReady(story.page);
  await story.page.waitForFunction(() => /^Step 1 of/.test(document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="story-progress"]')?.textContent ?? ''));
  await axe(ctx, story.page, 'index.html, the story open');
  await story.page.emulateMedia({ colorScheme: 'dark' });
  await axe(ctx, story.page, 'index.html, the story open (dark)');
  ctx.assertNoErrors(story.errors, 'the story');

  const docs = await ctx.openPage(AUDIT);
  await docs.page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  await playgroundsReady(docs.page, 6);
  await axe(ctx, docs.page, 'docs/index.html');
  ctx.assertNoErrors(docs.errors, 'docs');

  // The page with a what-if beside the run (two runs, the comparison, its table), dark too.
  const what = await ctx.openPage(AUDIT);
  await what.page.goto(`${ctx.baseURL}#scenario=w01-acks1-against-all-leader-crash&t=9003&compare=acks%3Dall`, { waitUntil: 'load' });
  await playgroundsReady(what.page);
  await what.page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="lost"]'));
  await axe(ctx, what.page, 'index.html comparing');
  await what.page.emulateMedia({ colorScheme: 'dark' });
  await axe(ctx, what.page, 'index.html comparing (dark)');
  await ctx.screenshot(what.page, 'a11y-compare-dark', { fullPage: false });
  ctx.assertNoErrors(what.errors, 'comparing');

  const phone = await ctx.openPage({ viewport: { width: 360, height: 740 } });
  await phone.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(phone.page);
  const width = await phone.page.evaluate(() => document.scrollingElement.scrollWidth);
  ctx.assert(width <= 360, `no horizontal overflow at 360 px: scrollWidth ${width}`);
  // Nor a control cut off where its row clips it (Legend was, past the bar's right edge).
  const cut = await onPlayground(phone.page, (el) => [...el.shadowRoot.querySelectorAll('button, select, input')]
    .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().right > innerWidth + 1).map((b) => b.textContent.trim() || b.outerHTML.slice(0, 60)));
  ctx.assert(cut.length === 0, `every control is within 360 px: ${JSON.stringify(cut)}`);
  await ctx.screenshot(phone.page, 'a11y-phone-360', { fullPage: false });
  // A panel's "?" far down the page: the bar is not kept on screen here, so the legend opens under
  // that button, its section on screen (under the bar it opened out of sight).
  const help = phone.page.locator('.panel.wheel .help');
  await help.scrollIntoViewIfNeeded();
  await phone.page.evaluate(() => scrollBy(0, 300));
  await help.click();
  const legend = await onPlayground(phone.page, (el) => {
    const r = el.shadowRoot.querySelector('[data-section="wheel"]').getBoundingClientRect();
    const b = el.shadowRoot.querySelector('.panel.wheel .help').getBoundingClientRect();
    return { section: Math.round(r.top), help: Math.round(b.bottom), height: innerHeight };
  });
  ctx.assert(legend.section > 0 && legend.section < legend.height - 200 && legend.section >= legend.help, `on a phone the wheel's "?" opens the legend at its section, on screen under the button: ${JSON.stringify(legend)}`);
  await ctx.screenshot(phone.page, 'a11y-phone-legend', { fullPage: false });
  ctx.assertNoErrors(phone.errors, 'index.html at 360 px');
}
