// 简体中文 as a reader meets it (issue 33): the page in Chinese from its link, its switch, the
// reader's remembered choice and the browser's language; the guided story, the legend and a
// request's code path drawn in Chinese; an embed following its host page's <html lang> live; and a
// scan of everything visible that fails on any Latin word outside Kafka's vocabulary and the run's
// own names (tests/i18n-vocabulary.mjs). Screenshots of the page and an embed in Chinese, light and
// dark, at 1280x900 and 390x844.
import { playgroundsReady, onPlayground, waitText, AUDIT, axe } from './lib.mjs';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { strayLatin } from '../tests/i18n-vocabulary.mjs';

const S03 = 's03-stalled-follower-completes-at-isr-shrink';

/** Everything the playground shows (its shadow root's visible text, the legend's too). */
const shownText = (page, index = 0) => onPlayground(page, (el) => el.shadowRoot.querySelector('.pp').innerText, null, index);

/** The run's own names (request ids, topics, the scenario's name) and each language's name in
 * itself (the switch offers "English") are not words to translate. */
const runNames = (page, index = 0) => onPlayground(page, (el) => {
  const setup = el.app.sim.setup();
  return ['English', ...el.app.sim.actions().map((a) => a.id).filter(Boolean), ...setup.topics.map((t) => t.name), el.app.curatedName ?? ''].filter(Boolean);
}, null, index);

async function assertChinese(ctx, page, what, index = 0) {
  const stray = strayLatin(await shownText(page, index), await runNames(page, index));
  ctx.assert(stray.length === 0, `${what}: every word is Chinese or Kafka's; found ${JSON.stringify([...new Set(stray)])}`);
}

export default async function i18n(ctx) {
  // A link in Chinese: the page, its <html lang>, the switch, and what it says.
  const { page, errors } = await ctx.openPage({ viewport: { width: 1280, height: 900 }, ...AUDIT });
  await page.goto(`${ctx.baseURL}?scenario=${S03}&lang=zh-CN`, { waitUntil: 'load' });
  await playgroundsReady(page);
  ctx.assert(await page.evaluate(() => document.documentElement.lang) === 'zh-CN', 'the page says it is in Chinese (<html lang>)');
  ctx.assert(await page.inputValue('[data-testid="language"]') === 'zh-CN', 'the switch shows 简体中文');
  ctx.assert(/发送/.test(await page.textContent('[data-testid="produce"]')), 'the controls speak Chinese');
  ctx.assert(await page.title() === 'Purgatory Playground：Kafka 如何应答 acks=all', `the document's title too: ${await page.title()}`);
  ctx.assert(await onPlayground(page, (el) => el.shadowRoot.querySelector('.pp').lang) === 'zh-CN', "the element's markup says its language");
  await assertChinese(ctx, page, 'S03 at 0 ms');

  // The guided story at step 3 in Chinese, its caption included; the legend; a later instant.
  await page.click('[data-testid="story-start"]');
  for (let n = 2; n <= 3; n++) {
    await page.click('[data-testid="story-next"]');
    await waitText(page, '[data-testid="story-progress"]', new RegExp(`^第 ${n} 步`), { timeout: 30000 });
  }
  const caption = await page.textContent('[data-testid="story-caption"]');
  ctx.assert(/[\u4e00-\u9fff]/.test(caption ?? ''), `the caption is Chinese: ${caption}`);
  await assertChinese(ctx, page, 'the story at step 3');
  await axe(ctx, page, 'the page in Chinese, the story open');
  await ctx.screenshot(page, 'i18n-zh-story-step-3-light', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  await ctx.screenshot(page, 'i18n-zh-story-step-3-dark', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'light' });
  // The language switched in the middle of the story: the same step, in the other language.
  for (const [lang, step] of [['en', /^Step 3 of 7/], ['zh-CN', /^第 3 步/]]) {
    await page.selectOption('[data-testid="language"]', lang);
    await waitText(page, '[data-testid="story-progress"]', step);
  }
  await page.keyboard.press('Escape');
  await onPlayground(page, (el) => el.seek(37310));
  await page.click('[data-testid="legend-open"]');
  await assertChinese(ctx, page, 'S03 at 37,310 ms, the legend open');
  await axe(ctx, page, 'the page in Chinese, the legend open');
  await ctx.screenshot(page, 'i18n-zh-page-1280', { fullPage: true });
  await page.keyboard.press('Escape');
  // What the model says is worded here too: the timeline markers' tooltips and a breakpoint's hit.
  const titles = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('.tl-mark')].map((m) => m.title));
  ctx.assert(titles.length >= 5 && titles.every((t) => /[\u4e00-\u9fff]/.test(t)), `every marker's tooltip is Chinese: ${JSON.stringify(titles)}`);
  const strayInTitles = strayLatin(titles.join('\n'), await runNames(page));
  ctx.assert(strayInTitles.length === 0, `the tooltips have no stray Latin word: ${JSON.stringify(strayInTitles)}`);
  await page.click('[data-menu="breakpoints"]');
  await page.check('[data-testid="breakpoint-isr-change"]');
  await page.keyboard.press('Escape');
  await page.click('[data-testid="restart"]');
  await page.selectOption('[data-testid="speed"]', '1000');
  await page.click('[data-testid="play"]');
  await waitText(page, '.notices', /断点：t-0 的 ISR 提交为 \{0, 1\}（于 37,310 ms）/, { timeout: 30000 });
  await page.click('[data-menu="breakpoints"]');
  await page.uncheck('[data-testid="breakpoint-isr-change"]');
  await page.keyboard.press('Escape');
  await onPlayground(page, (el) => el.seek(37310));

  // The switch: English at once, the session where it was; remembered on the next visit.
  const at = await onPlayground(page, (el) => el.nowMs);
  await page.keyboard.press('Escape');
  await page.selectOption('[data-testid="language"]', 'en');
  await page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('[data-testid="produce"]')?.textContent === 'Send');
  ctx.assert(await onPlayground(page, (el) => el.nowMs) === at, 'switching keeps the instant');
  // The breakpoint the playhead stands at is said again, in the new language.
  await waitText(page, '.notices', /Breakpoint: .*t-0.*\{0, 1\}.* \(at 37,310 ms\)\./);
  ctx.assert(await page.evaluate(() => document.documentElement.lang) === 'en', '<html lang> follows');
  ctx.assert(await page.title() === 'Purgatory Playground: how Kafka answers acks=all', `and the title: ${await page.title()}`);
  const again = await page.context().newPage();
  await again.goto(`${ctx.baseURL}?scenario=${S03}`, { waitUntil: 'load' });
  await playgroundsReady(again);
  ctx.assert(await again.inputValue('[data-testid="language"]') === 'en', 'the choice is remembered');
  await again.close();
  // A fork's Undo survives a switch: the model's handle itself goes on in the new views, which
  // read its run again (the event log holds it) and offer the Undo again.
  const acted = await onPlayground(page, (el) => {
    el.app.playback.seek(10000);
    const before = el.app.sim.actions().length;
    el.command({ action: 'resume_follower', broker: 2 });
    return { before, after: el.app.sim.actions().length, at: el.app.sim.nowMs };
  });
  await waitText(page, '.notices', /The run after 10,000 ms was dropped/);
  const logged = await onPlayground(page, (el) => el.shadowRoot.querySelectorAll('.panel.log li').length);
  await page.selectOption('[data-testid="language"]', 'zh-CN');
  await page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('[data-testid="produce"]')?.textContent !== 'Send');
  await waitText(page, '.notices', /10,000 ms 之后的运行被丢弃了/);
  const retold = await onPlayground(page, (el) => ({ at: el.app.sim.nowMs, lines: el.shadowRoot.querySelectorAll('.panel.log li').length, actions: el.app.sim.actions().length }));
  ctx.assert(retold.at === acted.at && retold.lines === logged && logged > 0 && retold.actions === acted.after, `the new views tell the same run: ${JSON.stringify(retold)}, ${logged} log lines before`);
  await page.click('[data-testid="undo"]');
  await waitText(page, '.notices', /被丢弃的未来回来了/);
  const undone = await onPlayground(page, (el) => el.app.sim.actions().length);
  ctx.assert(undone === acted.before, `the Undo after the switch takes the fork back: ${undone} actions (${JSON.stringify(acted)})`);
  await page.selectOption('[data-testid="language"]', 'en');
  await page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('[data-testid="produce"]')?.textContent === 'Send');
  // Two switches in one task, the second before the first's views have the session: the second
  // carries the same session on (it once opened the default scenario, the handle left behind).
  const twice = await onPlayground(page, (el) => {
    el.app.playback.setPlaying(false);
    el.app.playback.seek(12000);
    el.command({ action: 'resume_follower', broker: 2 });
    const at = el.app.sim.nowMs;
    window.handleBefore = el.app.sim;
    el.setLanguage('zh-CN');
    el.setLanguage('en');
    return { at, carried: el.carried?.handle === window.handleBefore };
  });
  await page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.app?.sim != null);
  await waitText(page, '.notices', /The run after 12,000 ms was dropped/);
  const after = await onPlayground(page, (el) => ({ same: el.app.sim === window.handleBefore, at: el.app.sim.nowMs, actions: el.app.sim.actions().length, scenario: el.app.curatedName, lang: el.opts.tr.lang, carried: el.carried }));
  ctx.assert(twice.carried && after.same && after.at === twice.at && after.scenario === S03 && after.lang === 'en' && after.carried === null, `a second switch under way keeps the session and its handle: ${JSON.stringify({ twice, after })}`);
  // The page's keys are the window's: a remount takes its listener with the old app (it once
  // left one behind per switch, each holding the old app and its views).
  const cdp = await page.context().newCDPSession(page);
  const windowKeydowns = async () => {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
    return listeners.filter((l) => l.type === 'keydown').length;
  };
  const keydownsBefore = await windowKeydowns();
  for (const [lang, send] of [['zh-CN', '发送'], ['en', 'Send']]) {
    await page.selectOption('[data-testid="language"]', lang);
    await page.waitForFunction((send) => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('[data-testid="produce"]')?.textContent === send, send);
  }
  const keydownsAfter = await windowKeydowns();
  ctx.assert(keydownsBefore >= 1 && keydownsAfter === keydownsBefore, `two more switches leave the window's keydown listeners as they were: ${keydownsBefore} then ${keydownsAfter}`);
  await cdp.detach();
  ctx.assertNoErrors(errors, 'the page in Chinese');

  // A first visit follows the browser's language; the phone size.
  const phone = await ctx.openPage({ viewport: { width: 390, height: 844 }, locale: 'zh-CN' });
  await phone.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(phone.page);
  ctx.assert(await phone.page.inputValue('[data-testid="language"]') === 'zh-CN', 'a Chinese browser gets Chinese on a first visit');
  await assertChinese(ctx, phone.page, 'the first visit');
  ctx.assert(await phone.page.evaluate(() => document.scrollingElement.scrollWidth) <= 390, 'no horizontal overflow at 390 px in Chinese');
  await ctx.screenshot(phone.page, 'i18n-zh-phone-light', { fullPage: false });
  await phone.page.emulateMedia({ colorScheme: 'dark' });
  await ctx.screenshot(phone.page, 'i18n-zh-phone-dark', { fullPage: false });
  // Switching a live session's language keeps it live, playing, at its instant, with its
  // breakpoints.
  await phone.page.click('[data-testid="welcome-drive"]');
  await onPlayground(phone.page, (el) => { const box = el.shadowRoot.querySelector('[data-testid="breakpoint-expiry"]'); box.checked = true; box.dispatchEvent(new Event('change')); });
  await phone.page.selectOption('[data-testid="language"]', 'en');
  await phone.page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('[data-testid="produce"]')?.textContent === 'Send');
  const kept = await onPlayground(phone.page, (el) => ({
    live: el.shadowRoot.querySelector('.pp').dataset.live, pick: el.shadowRoot.querySelector('.scenario-pick').value,
    playing: el.playing, expiry: el.shadowRoot.querySelector('[data-testid="breakpoint-expiry"]').checked,
  }));
  ctx.assert(kept.live === 'true' && kept.pick === '' && kept.playing && kept.expiry, `a live session stays live, playing, with its breakpoint: ${JSON.stringify(kept)}`);
  ctx.assertNoErrors(phone.errors, 'the page on a Chinese phone');

  // A link the model refuses says why in Chinese: the path and the value as written, the rest
  // worded (www/error-words.js).
  const bad = JSON.parse(readFileSync(new URL(`../scenarios/${S03}.json`, import.meta.url), 'utf8'));
  bad.actions[1].acks = 7.5;
  const fragment = Buffer.from(deflateRawSync(Buffer.from(JSON.stringify(bad)))).toString('base64url');
  const refused = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await refused.page.goto(`${ctx.baseURL}?lang=zh-CN#session=${fragment}`, { waitUntil: 'load' });
  await playgroundsReady(refused.page);
  await waitText(refused.page, '.notices', /actions\[1\]\.acks/);
  const said = await refused.page.textContent('.notices');
  ctx.assert(said.includes('actions[1].acks：应为：整数或 "all"；实际是：7.5') && said.includes('改为显示一个实时会话') && !/expected|found/.test(said), `the refused link, in Chinese: ${said}`);
  // And the live session that opens instead runs, as it does without a link.
  await refused.page.waitForFunction(() => document.querySelector('purgatory-playground').nowMs > 0, null, { timeout: 10000 });
  ctx.assertNoErrors(refused.errors, 'a refused link in Chinese');

  // Embeds follow their host page's language, live; `lang` on the element wins.
  const docs = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await docs.page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  const count = await docs.page.locator('purgatory-playground').count();
  await playgroundsReady(docs.page, count);
  await docs.page.evaluate(() => { document.documentElement.lang = 'zh-CN'; });
  await docs.page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('.panel h2')?.textContent === '集群');
  await assertChinese(ctx, docs.page, 'the article’s first embed under <html lang="zh-CN">');
  const first = docs.page.locator('purgatory-playground').first();
  await first.scrollIntoViewIfNeeded();
  await ctx.screenshot(docs.page, 'i18n-zh-embed-light', { fullPage: false });
  await docs.page.emulateMedia({ colorScheme: 'dark' });
  await ctx.screenshot(docs.page, 'i18n-zh-embed-dark', { fullPage: false });
  await first.evaluate((el) => el.setAttribute('lang', 'en'));
  await docs.page.waitForFunction(() => document.querySelector('purgatory-playground[ready]')?.shadowRoot.querySelector('.panel h2')?.textContent === 'Cluster');
  ctx.assert(await onPlayground(docs.page, (el) => el.shadowRoot.querySelector('.panel h2').textContent, null, 1) === '集群', 'the others stay with their host page');
  ctx.assertNoErrors(docs.errors, 'the article in Chinese');

  // The article in Chinese (docs/zh-CN/): its six embeds speak Chinese from the start, following
  // its <html lang>; its own words are Chinese apart from Kafka's and code; light and dark, at
  // both sizes.
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const zh = await ctx.openPage({ viewport: { width, height }, ...AUDIT });
    await zh.page.goto(`${ctx.baseURL}docs/zh-CN/`, { waitUntil: 'load' });
    await playgroundsReady(zh.page, 6);
    const langs = await zh.page.$$eval('purgatory-playground', (els) => els.map((el) => el.shadowRoot.querySelector('.pp').lang));
    ctx.assert(langs.length === 6 && langs.every((l) => l === 'zh-CN'), `the six embeds speak Chinese: ${langs}`);
    const article = await zh.page.evaluate(() => {
      const main = document.querySelector('main').cloneNode(true);
      for (const el of main.querySelectorAll('code, .lang')) el.remove();
      return main.textContent;
    });
    const stray = strayLatin(article, []);
    ctx.assert(stray.length === 0, `the article's words are Chinese or Kafka's: ${JSON.stringify(stray)}`);
    for (let i = 0; i < 6; i++) await assertChinese(ctx, zh.page, `the Chinese article's embed ${i + 1}`, i);
    ctx.assert(await zh.page.evaluate(() => document.scrollingElement.scrollWidth) <= width, `no horizontal overflow at ${width} px`);
    if (width === 1280) await axe(ctx, zh.page, 'docs/zh-CN/index.html');
    await ctx.screenshot(zh.page, `i18n-zh-article-${width}-light`, { fullPage: false });
    await zh.page.emulateMedia({ colorScheme: 'dark' });
    await ctx.screenshot(zh.page, `i18n-zh-article-${width}-dark`, { fullPage: false });
    // Its link to the English article, and back.
    await zh.page.click('.lang a');
    await zh.page.waitForURL(/\/docs\/index\.html$/);
    ctx.assert(await zh.page.textContent('.lang a') === '简体中文', 'the English article links to the Chinese one');
    ctx.assertNoErrors(zh.errors, `the Chinese article at ${width} px`);
  }
}
