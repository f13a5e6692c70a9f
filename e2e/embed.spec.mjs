// Embedding, as a documentation author meets it: docs/index.html (six playgrounds in an article)
// opens with every one ready and sharing one wasm module; a hostile host stylesheet does not reach
// inside and the element's styles do not leak out; an attribute changed at run time takes effect;
// bad attributes are reported in the element and on the console while it keeps working; an
// element scrolled off screen stops its clock and resumes where it was; events carry details; the
// article reads at 320 px with no horizontal overflow; the self-contained file opens from file://;
// an author's page from file:// shows the fallback content inside the tag.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, playgroundsReady, onPlayground, nowMs, addElements } from './lib.mjs';

const HOSTILE = '* { font: 30px serif !important; box-sizing: content-box } button { display: none }';
const count = (page) => page.evaluate(() => document.querySelectorAll('purgatory-playground').length);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export default async function embedSpec(ctx) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 1000, height: 900 } });
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  const n = await count(page);
  ctx.assert(n === 6, `the article embeds six playgrounds: ${n}`);
  await playgroundsReady(page, 6);
  // The article's autoplaying figure (s03, the second) is below the fold when the page opens: it
  // waits there until the reader scrolls to it. (It is seen in view for a moment while the page
  // above it lays out; an observer's batch of both changes once left it playing unseen.)
  await sleep(1500);
  const waiting = await page.evaluate(() => { const el = document.querySelectorAll('purgatory-playground')[1]; return { top: Math.round(el.getBoundingClientRect().top), at: el.nowMs }; });
  ctx.assert(waiting.top > 900 && waiting.at === 0, `the autoplaying figure below the fold waits: ${JSON.stringify(waiting)}`);
  await page.locator('purgatory-playground').nth(1).scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelectorAll('purgatory-playground')[1].nowMs > 0, null, { timeout: 10000 });
  await page.evaluate(() => scrollTo(0, 0));
  ctx.assert(await page.evaluate(() => {
    const els = [...document.querySelectorAll('purgatory-playground')];
    return els.every((e) => e.app.model === els[0].app.model) && new Set(els.map((e) => e.app.sim)).size === els.length;
  }), 'one shared wasm module, one session per element');
  await ctx.screenshot(page, 'embed-docs-1000', { fullPage: false });
  // Without the cluster view the panels go two by two, in the order the element names them.
  const placed = await page.evaluate(() => [2, 3].map((i) => [...document.querySelectorAll('purgatory-playground')[i].shadowRoot.querySelectorAll('.panel')]
    .map((p) => ({ name: p.dataset.testid.replace('panel-', ''), left: Math.round(p.getBoundingClientRect().left), top: Math.round(p.getBoundingClientRect().top) }))));
  for (const [a, b] of placed) {
    ctx.assert(a.top === b.top && a.left < b.left, `${a.name} and ${b.name} side by side, in the order named: ${JSON.stringify([a, b])}`);
  }

  // Hostile host CSS: nothing inside changes; the element's own rules do not reach the host page.
  await page.addStyleTag({ content: HOSTILE });
  await addElements(page, 'main', 'afterbegin', [['div', { id: 'probe', class: 'pp panel bar story' }]]);
  await addElements(page, '#probe', 'beforeend', [['button', { class: 'primary play' }]]);
  await page.evaluate(() => { document.querySelector('#probe button').textContent = 'probe'; });
  const styles = await onPlayground(page, (el) => {
    const play = el.shadowRoot.querySelector('[data-testid="play"]');
    const cs = getComputedStyle(play);
    const probe = document.getElementById('probe');
    return {
      playDisplay: cs.display,
      playFont: cs.fontSize,
      panelFont: getComputedStyle(el.shadowRoot.querySelector('.panel')).fontSize,
      probeBorder: getComputedStyle(probe).borderTopWidth,
      probePadding: getComputedStyle(probe).paddingTop,
      probeButtonBg: getComputedStyle(probe.querySelector('button')).backgroundColor,
    };
  });
  ctx.log(JSON.stringify(styles));
  ctx.assert(styles.playDisplay !== 'none', `the host's button{display:none} does not hide the element's buttons: ${styles.playDisplay}`);
  ctx.assert(styles.playFont !== '30px' && styles.panelFont !== '30px', `the host's 30px font does not reach inside: ${JSON.stringify(styles)}`);
  ctx.assert(styles.probeBorder === '0px' && styles.probePadding === '0px', `the element's .pp/.panel rules do not style the host's elements: ${JSON.stringify(styles)}`);
  // The documented custom properties do reach inside: the host themes the accent and the radius.
  const themed = await onPlayground(page, (el) => {
    el.style.setProperty('--pp-accent', 'rgb(200, 0, 100)');
    el.style.setProperty('--pp-radius', '0px');
    const play = getComputedStyle(el.shadowRoot.querySelector('[data-testid="play"]')).backgroundColor;
    const radius = getComputedStyle(el.shadowRoot.querySelector('.pp')).borderTopLeftRadius;
    el.style.removeProperty('--pp-accent');
    el.style.removeProperty('--pp-radius');
    return { play, radius };
  });
  ctx.assert(themed.play === 'rgb(200, 0, 100)' && themed.radius === '0px', `--pp-accent and --pp-radius theme the element: ${JSON.stringify(themed)}`);
  await page.locator('purgatory-playground').first().scrollIntoViewIfNeeded();
  await ctx.screenshot(page, 'embed-hostile-css', { fullPage: false });

  // Events out: `response` with the answer, `end` when the scenario finishes.
  const events = page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('purgatory-playground');
    const got = [];
    el.addEventListener('response', (e) => got.push(e.detail));
    el.addEventListener('end', (e) => resolve({ responses: got, end: e.detail }), { once: true });
  }));
  await onPlayground(page, (el) => { el.setAttribute('speed', '5000'); el.play(); });
  const out = await events;
  ctx.assert(out.responses.length >= 1 && out.responses[0].id === 'p1' && out.responses[0].outcome === 'NONE', `a response event with its detail: ${JSON.stringify(out.responses[0])}`);
  ctx.assert(out.end.result && Array.isArray(out.end.result.responses), `the end event carries the result document: ${JSON.stringify(out.end).slice(0, 200)}`);

  // An attribute changed at run time takes effect: another scenario, other views.
  const reopened = page.evaluate(() => new Promise((resolve) => document.querySelector('purgatory-playground').addEventListener('ready', (e) => resolve(e.detail), { once: true })));
  await onPlayground(page, (el) => el.setAttribute('scenario', 's02-stalled-follower-times-out'));
  const detail = await reopened;
  ctx.assert(detail.scenario === 's02-stalled-follower-times-out', `the ready event names the new scenario: ${JSON.stringify(detail)}`);
  // Other views rebuild the markup and keep the session: its name in `ready`, and no `response`
  // again for answers already given.
  await onPlayground(page, (el) => { el.seek(40000); });
  const remounted = page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('purgatory-playground');
    const responses = [];
    el.addEventListener('response', (e) => responses.push(e.detail.id));
    el.addEventListener('ready', (e) => setTimeout(() => resolve({ ready: e.detail, responses }), 300), { once: true });
  }));
  await onPlayground(page, (el) => el.setAttribute('views', 'timeline,wheel'));
  await page.waitForFunction(() => {
    const r = document.querySelector('purgatory-playground').shadowRoot;
    return r.querySelector('[data-testid="panel-wheel"]') && !r.querySelector('[data-testid="panel-cluster"]');
  }, null, { timeout: 10000 });
  const again = await remounted;
  ctx.assert(again.ready.scenario === 's02-stalled-follower-times-out' && again.ready.at_ms === 40000 && again.responses.length === 0,
    `a new set of views keeps the session, its name, and sends no old responses: ${JSON.stringify(again)}`);
  // Moved in the document (as frameworks do), it goes on where it was.
  const moved = await onPlayground(page, (el) => { el.parentElement.prepend(el); return new Promise((r) => setTimeout(() => r({ at: el.nowMs, ready: el.hasAttribute('ready') }), 200)); });
  ctx.assert(moved.at === 40000 && moved.ready, `a moved element keeps its session and instant: ${JSON.stringify(moved)}`);
  // A source that was wrong and is fixed takes its message away.
  const fixedSource = page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('purgatory-playground');
    el.addEventListener('ready', () => {
      const wrong = el.shadowRoot.querySelectorAll('[data-testid="attr-problem"]').length;
      el.addEventListener('ready', () => resolve({ wrong, fixed: el.shadowRoot.querySelectorAll('[data-testid="attr-problem"]').length }), { once: true });
      el.setAttribute('scenario', 's01-happy-path');
    }, { once: true });
    el.setAttribute('scenario', 'nope');
  }));
  const cleared = await fixedSource;
  ctx.assert(cleared.wrong === 1 && cleared.fixed === 0, `a fixed scenario attribute clears its message: ${JSON.stringify(cleared)}`);
  // A scenario and views set in one task (as a framework sets two properties at once): the new
  // views show the new scenario, not the session it replaced.
  const both = page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('purgatory-playground');
    el.addEventListener('ready', (e) => setTimeout(() => resolve({ ready: e.detail, cluster: !!el.shadowRoot.querySelector('[data-testid="panel-cluster"]'), wheel: !!el.shadowRoot.querySelector('[data-testid="panel-wheel"]') }), 300), { once: true });
    el.setAttribute('scenario', 's07-acks-variants');
    el.setAttribute('views', 'cluster,responses');
  }));
  const together = await both;
  ctx.assert(together.ready.scenario === 's07-acks-variants' && together.cluster && !together.wheel, `a scenario and views set together: ${JSON.stringify(together)}`);

  // Bad attributes: an inline message naming each, a console warning, and the element still works.
  await addElements(page, 'main', 'beforeend', [['purgatory-playground', { id: 'bad', views: 'cluster,bogus', speed: 'fast', theme: 'neon', controls: 'some', height: 'tall', page: 'http://[' }]]);
  await page.waitForSelector('#bad[ready]', { state: 'attached', timeout: 20000 });
  const problems = await page.$$eval('#bad >> [data-testid="attr-problem"]', (ps) => ps.map((p) => p.textContent));
  ctx.log(problems.join(' | '));
  for (const attr of ['views', 'speed', 'theme', 'controls', 'height', 'page']) {
    ctx.assert(problems.some((p) => p.includes(attr)), `the bad ${attr} is named in the element: ${problems.join(' | ')}`);
    ctx.assert(warnings.some((w) => w.includes(`${attr}=`) || w.includes(`${attr}:`)), `and on the console: ${warnings.join(' | ')}`);
  }
  ctx.assert(await page.$('#bad >> [data-testid="panel-cluster"]'), 'the known view is still shown');
  ctx.assert(problems.some((p) => /"bogus" is not a view .*; showing cluster\.$/.test(p)), `and the message says so (not "using the default"): ${problems.join(' | ')}`);
  // A figure nothing can start (no controls, no timeline, no autoplay) is pointed out too.
  await addElements(page, 'main', 'beforeend', [['purgatory-playground', { id: 'frozen', views: 'cluster', controls: 'none' }]]);
  await page.waitForSelector('#frozen[ready]', { state: 'attached', timeout: 20000 });
  const frozen = await page.$$eval('#frozen >> [data-testid="attr-problem"]', (ps) => ps.map((p) => p.textContent));
  ctx.assert(frozen.length === 1 && /leaves nothing that starts the run; add autoplay\.$/.test(frozen[0]), `a figure that cannot start says so: ${frozen}`);
  await page.evaluate(() => document.getElementById('frozen').remove());
  await addElements(page, 'main', 'beforeend', [['purgatory-playground', { id: 'nostory', story: true }]]);
  await page.waitForSelector('#nostory[ready]', { state: 'attached', timeout: 20000 });
  const noStory = await page.$$eval('#nostory >> [data-testid="attr-problem"]', (ps) => ps.map((p) => p.textContent));
  ctx.assert(noStory.some((p) => p.includes('no guided story')), `story on a session without one is reported: ${noStory}`);
  await page.evaluate(() => document.getElementById('nostory').remove());
  // A src that is not there: the attribute and its status, once each.
  await addElements(page, 'main', 'beforeend', [['purgatory-playground', { id: 'nosrc', src: 'no-such-scenario.json' }]]);
  await page.waitForSelector('#nosrc[ready]', { state: 'attached', timeout: 20000 });
  const noSrc = await page.$$eval('#nosrc >> [data-testid="attr-problem"]', (ps) => ps.map((p) => p.textContent));
  ctx.assert(noSrc.length === 1 && /src="no-such-scenario\.json" could not be loaded: HTTP 404; opening a live session with the defaults instead\.$/.test(noSrc[0]), `a missing src is said plainly: ${noSrc}`);
  await page.evaluate(() => document.getElementById('nosrc').remove());
  await page.locator('#bad').scrollIntoViewIfNeeded();
  await ctx.screenshot(page, 'embed-bad-attributes', { fullPage: false });

  // A short embed of fixed height with the story: the caption stays on top of the embed's own
  // box, which scrolls to what each caption points at (it stayed at its top, the panels out of
  // sight below); the page around it does not move.
  await addElements(page, 'main', 'afterbegin', [['purgatory-playground', { id: 'short', scenario: 's03-stalled-follower-completes-at-isr-shrink', height: '260px', story: true }]]);
  await page.waitForSelector('#short[ready]', { state: 'attached', timeout: 20000 });
  await page.evaluate(() => scrollTo(0, 0));
  await page.emulateMedia({ reducedMotion: 'reduce' }); // scrolls at once, nothing to wait out
  for (const step of [1, 2, 3]) {
    if (step > 1) await page.locator('#short [data-testid="story-next"]').click();
    await page.waitForFunction((n) => document.querySelector('#short').shadowRoot.querySelector('[data-testid="story-progress"]')?.textContent.startsWith(`Step ${n} `), step, { timeout: 60000 });
    // Where the marked element sits, once it is in view (the first caption's scroll waits for
    // the element's first layout); after 3 s, where it is anyway, for the message.
    const shown = (settled) => {
      const root = document.querySelector('#short').shadowRoot;
      const box = root.querySelector('.pp').getBoundingClientRect();
      const card = root.querySelector('.story').getBoundingClientRect();
      const focus = [...root.querySelectorAll('.story-focus')].at(-1).getBoundingClientRect();
      const s = { below: Math.round(focus.top - card.bottom), inside: Math.round(box.bottom - focus.top), pageY: scrollY };
      return settled || (s.below >= 0 && s.inside > 16) ? s : null;
    };
    const seen = await page.waitForFunction(shown, false, { timeout: 3000 }).then((h) => h.jsonValue(), () => page.evaluate(shown, true));
    ctx.assert(seen.below >= 0 && seen.inside > 16 && seen.pageY === 0, `story step ${step} in a 260px embed shows what it points at, below its caption: ${JSON.stringify(seen)}`);
  }
  await ctx.screenshot(page, 'embed-short-story', { fullPage: false });
  // Escape closes it; without the full toolbar the focus goes to Play.
  await page.locator('#short [data-testid="story-next"]').focus();
  await page.keyboard.press('Escape');
  const closed = await page.evaluate(() => { const root = document.querySelector('#short').shadowRoot; return { hidden: root.querySelector('[data-testid="story"]').hidden, focus: root.activeElement?.dataset.testid ?? null }; });
  ctx.assert(closed.hidden && closed.focus === 'play', `Escape closes the embed's story, the focus on Play: ${JSON.stringify(closed)}`);
  await page.emulateMedia({ reducedMotion: null });
  await page.evaluate(() => document.getElementById('short').remove());

  // `loop`: at its end the scenario starts again, playing, and ends again.
  const ends = page.evaluate(() => new Promise((resolve) => {
    const el = document.createElement('purgatory-playground');
    for (const [k, v] of Object.entries({ id: 'looping', scenario: 's01-happy-path', views: 'timeline', loop: '', autoplay: '', speed: '100000' })) el.setAttribute(k, v);
    document.querySelector('main').prepend(el);
    el.scrollIntoView(); // a clock runs only on screen
    let n = 0;
    el.addEventListener('end', () => { n += 1; if (n === 2) resolve(n); });
  }));
  ctx.assert(await ends === 2, 'a looping scenario ends, starts again by itself and ends again');
  await page.evaluate(() => document.getElementById('looping').remove());

  // Off screen, the clock stops; back on screen, it resumes where it was.
  await addElements(page, 'main', 'beforeend', [['div', { style: 'height:2000px' }], ['purgatory-playground', { id: 'live', autoplay: true, speed: '50' }], ['div', { style: 'height:2000px' }]]);
  await page.waitForSelector('#live[ready]', { state: 'attached', timeout: 20000 });
  const liveIndex = (await count(page)) - 1;
  await page.locator('#live').scrollIntoViewIfNeeded();
  await sleep(400);
  const t1 = await nowMs(page, liveIndex);
  await sleep(400);
  ctx.assert(await nowMs(page, liveIndex) > t1, 'on screen, an autoplaying live session runs');
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(300);
  const off = await nowMs(page, liveIndex);
  await sleep(800);
  ctx.assert(await nowMs(page, liveIndex) === off, `off screen its clock stops: ${off} -> ${await nowMs(page, liveIndex)}`);
  await page.locator('#live').scrollIntoViewIfNeeded();
  await sleep(600);
  const back = await nowMs(page, liveIndex);
  ctx.assert(back > off, `back on screen it resumes from ${off}: ${back}`);
  // Its Share menu's link opens the session in the full page beside the module (the article's
  // address holds none, and several embeds could not share one): the same actions, the same
  // instant. Without the clipboard, the link is offered in the menu.
  const FULL = 'purgatory-playground[controls="full"]:not([layout])';
  const copyLink = (allowed) => page.evaluate(async ([sel, ok]) => {
    const el = document.querySelector(sel);
    let written = null;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text) => { if (!ok) throw new Error('denied'); written = text; } } });
    await el.app.controls.copyLink();
    const offered = el.shadowRoot.querySelector('.share-out a');
    return { written, offered: offered?.href ?? null, said: el.shadowRoot.querySelector('.share-out').textContent, at: el.app.sim.nowMs, actions: el.app.sim.actions().length };
  }, [FULL, allowed]);
  await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    el.app.playback.setPlaying(false);
    el.command({ action: 'pause_follower', broker: 2 });
    el.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: 0, count: 5 }] });
  }, FULL);
  const copied = await copyLink(true);
  ctx.assert(copied.written?.startsWith(`${ctx.baseURL}dist/purgatory-playground.html#session=`), `an embed's link opens the full page: ${copied.written?.slice(0, 100)}`);
  const refused = await copyLink(false);
  ctx.assert(refused.written === null && refused.offered === copied.written && /Copying was not allowed/.test(refused.said), `without the clipboard the link is offered: ${refused.said}`);
  const opened = await ctx.openPage({ viewport: { width: 1000, height: 800 } });
  await opened.page.goto(copied.written, { waitUntil: 'load' });
  await playgroundsReady(opened.page);
  const there = await onPlayground(opened.page, (el) => ({ at: el.app.sim.nowMs, actions: el.app.sim.actions().length }));
  ctx.assert(there.at === copied.at && there.actions === copied.actions && copied.actions >= 2, `the full page opens the embed's session: ${JSON.stringify({ there, copied })}`);
  ctx.assertNoErrors(opened.errors, 'the full page from an embed\'s link');
  ctx.assertNoErrors(errors.filter((e) => !/no-such-scenario\.json/.test(e)), 'docs page'); // the missing src's 404 is the point

  // 320 px wide: one column, no horizontal overflow.
  const narrow = await ctx.openPage({ viewport: { width: 320, height: 720 } });
  await narrow.page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  await playgroundsReady(narrow.page, 6);
  const overflow = await narrow.page.evaluate(() => document.scrollingElement.scrollWidth);
  ctx.assert(overflow <= 320, `no horizontal overflow at 320 px: scrollWidth ${overflow}`);
  await narrow.page.locator('purgatory-playground').nth(1).scrollIntoViewIfNeeded();
  await ctx.screenshot(narrow.page, 'embed-docs-320', { fullPage: false });
  ctx.assertNoErrors(narrow.errors, 'docs page at 320 px');

  // The self-contained file from file://: the wasm is inlined, so it opens.
  const file = await ctx.openPage({ viewport: { width: 1000, height: 800 } });
  await file.page.goto(pathToFileURL(path.join(REPO_ROOT, 'dist/purgatory-playground.html')).href, { waitUntil: 'load' });
  await playgroundsReady(file.page);
  // It travels without the article, so a first visit offers the other two ways in.
  const ways = await file.page.locator('.notice.welcome .choice').allTextContents();
  ctx.assert(ways.length === 2 && !ways.some((w) => /article/.test(w)), `the self-contained file links no article it does not have: ${JSON.stringify(ways)}`);
  await file.page.click('[data-testid="step"]');
  ctx.assert(await nowMs(file.page) > 0, 'the self-contained file steps from file://');
  await ctx.screenshot(file.page, 'embed-self-contained-file', { fullPage: false });
  ctx.assertNoErrors(file.errors, 'self-contained file');

  // An author's own page with the recipe's fallback content inside the tag: from file:// the
  // browser refuses the module, and the fallback says why instead of a blank box; over HTTP the
  // element is defined and the fallback gives way to its views.
  const dir = path.join(REPO_ROOT, 'target/e2e-fallback');
  mkdirSync(dir, { recursive: true });
  // The files the recipe says to copy: the module, its chunks and the .wasm.
  for (const f of readdirSync(path.join(REPO_ROOT, 'dist')).filter((n) => /\.(js|wasm)$/.test(n))) copyFileSync(path.join(REPO_ROOT, 'dist', f), path.join(dir, f));
  writeFileSync(path.join(dir, 'page.html'), `<!doctype html><meta charset="utf-8"><title>An author's page</title>
<script type="module" src="purgatory-playground.js"></script>
<purgatory-playground scenario="s01-happy-path">
  <p class="pp-fallback">The Kafka purgatory playground loads here. If this line stays, the page was opened from a file: serve the folder over HTTP, or use the self-contained purgatory-playground.html.</p>
</purgatory-playground>`);
  const blank = await ctx.openPage({ viewport: { width: 900, height: 600 } });
  await blank.page.goto(pathToFileURL(path.join(dir, 'page.html')).href, { waitUntil: 'load' });
  await sleep(500);
  ctx.assert(await blank.page.isVisible('.pp-fallback'), 'from file://, the fallback inside the tag says what to do');
  await ctx.screenshot(blank.page, 'embed-fallback-file', { fullPage: false });
  const served = await ctx.openPage({ viewport: { width: 900, height: 600 } });
  await served.page.goto(`${ctx.baseURL}target/e2e-fallback/page.html`, { waitUntil: 'load' });
  await playgroundsReady(served.page);
  ctx.assert(!(await served.page.isVisible('.pp-fallback')), 'over HTTP the element is defined and the fallback gives way');
  ctx.assertNoErrors(served.errors, 'an author page with fallback content');

  // theme="auto" follows a docs site's own dark-mode toggle, live: VitePress's class on <html>,
  // Docusaurus's data-theme, MkDocs Material's data-md-color-scheme; without one, the media query.
  const host = await ctx.openPage({ viewport: { width: 900, height: 700 }, colorScheme: 'light' });
  await host.page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  await playgroundsReady(host.page, 6);
  const drawn = () => host.page.evaluate(() => {
    const pp = document.querySelector('purgatory-playground').shadowRoot.querySelector('.pp');
    return [pp.dataset.theme, getComputedStyle(pp).backgroundColor];
  });
  const light = await drawn();
  for (const [what, set, unset] of [
    ['class="dark" on <html>', () => document.documentElement.classList.add('dark'), () => document.documentElement.classList.remove('dark')],
    ['data-theme="dark"', () => document.documentElement.setAttribute('data-theme', 'dark'), () => document.documentElement.removeAttribute('data-theme')],
    ['data-md-color-scheme="slate"', () => document.body.setAttribute('data-md-color-scheme', 'slate'), () => document.body.removeAttribute('data-md-color-scheme')],
  ]) {
    await host.page.evaluate(set);
    await host.page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('.pp').dataset.theme === 'dark');
    const dark = await drawn();
    ctx.assert(dark[1] !== light[1], `${what}: the element turns dark with the page: ${JSON.stringify([light, dark])}`);
    await host.page.evaluate(unset);
    await host.page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('.pp').dataset.theme === 'auto');
  }
  ctx.assert(JSON.stringify(await drawn()) === JSON.stringify(light), 'and back to the reader\'s scheme when the page states none');
  ctx.assertNoErrors(host.errors, 'host dark mode');
}
