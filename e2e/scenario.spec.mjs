// Scenarios by link: ?scenario=NAME opens a curated scenario (800x600); played to its end it shows
// the scenario's outcome and the end notice; a name that does not exist and a damaged session link
// each get a clear message while a live session opens instead; a session link followed in the open
// page opens in place, and a damaged one leaves the open session as it was.
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import path from 'node:path';
import { REPO_ROOT, playgroundsReady, waitText, onPlayground } from './lib.mjs';

/** The native run's trace hash (tests/wasm_golden/trace-hashes.txt: `s02 <hash>` lines). */
function nativeHash(short) {
  const text = readFileSync(path.join(REPO_ROOT, 'tests/wasm_golden/trace-hashes.txt'), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(`${short} `));
  if (!line) throw new Error(`no ${short} line in tests/wasm_golden/trace-hashes.txt`);
  return line.split(' ')[1].trim();
}

export default async function scenarioSpec(ctx) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 800, height: 600 } });
  await page.goto(`${ctx.baseURL}?scenario=s02-stalled-follower-times-out`, { waitUntil: 'load' });
  await playgroundsReady(page);
  ctx.assert((await page.inputValue('[data-testid="scenario-pick"]')) === 's02-stalled-follower-times-out', 'the picker names the scenario');
  await page.selectOption('[data-testid="speed"]', '10');
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="num-delayed-operations"]')?.textContent === '1', null, { timeout: 20000 });
  await page.click('[data-testid="play"]');
  await ctx.screenshot(page, 'scenario-s02-waiting-800x600', { fullPage: false });
  await page.selectOption('[data-testid="speed"]', '1000');
  await page.click('[data-testid="play"]');
  await waitText(page, '[data-testid="response"]', /^p1 .*REQUEST_TIMED_OUT/, { timeout: 30000 });
  await page.waitForSelector('[data-testid="scenario-end"]', { timeout: 30000 });
  const hash = await onPlayground(page, (el) => el.app.sim.traceHash);
  const expected = nativeHash('s02');
  ctx.assert(hash === expected, `s02's trace hash in the browser is the native one (${expected}): ${hash}`);
  await ctx.screenshot(page, 'scenario-s02-end-800x600', { fullPage: false });
  // Both followers fetching again: their idle fetches interleave, and the log folds each one's
  // into a line with a count (it folded only repeats in a row, so two followers filled it).
  await onPlayground(page, (el) => el.command({ action: 'resume_follower', broker: 2 }));
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').nowMs >= 70000, null, { timeout: 30000 });
  await page.click('[data-testid="play"]');
  const idle = await onPlayground(page, async (el) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const lines = [...el.shadowRoot.querySelectorAll('.log-lines li')].map((li) => li.textContent);
    return lines.slice(lines.findLastIndex((t) => !/\(was 10\)/.test(t)) + 1);
  });
  ctx.assert(idle.length === 2 && idle.every((t) => /×\d+$/.test(t)) && idle.some((t) => /replica 1 /.test(t)) && idle.some((t) => /replica 2 /.test(t)),
    `after the resume, each follower's idle fetches are one line with a count: ${JSON.stringify(idle)}`);
  // Long after, the log is past its bound: it has dropped idle lines first, says how many, and
  // still tells p1's story (its lines used to go with the oldest idle ones, uncounted).
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app.history.dropped > 0, null, { timeout: 60000 });
  await page.click('[data-testid="play"]');
  const log = await onPlayground(page, async (el) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return [...el.shadowRoot.querySelectorAll('.log-lines li')].map((li) => li.textContent);
  });
  ctx.assert(/^[\d,]+ older events not kept/.test(log[0]) && log.some((t) => /p1 answered after 30,000 ms/.test(t)),
    `past its bound the log counts what it dropped and keeps p1's answer: ${JSON.stringify(log.slice(0, 3))} … ${log.find((t) => /p1 /.test(t))}`);

  // A scenario the module imports on demand (a chunk beside it in dist/): it opens like the rest.
  await page.goto(`${ctx.baseURL}?scenario=s15-purge-after-1001-expired`, { waitUntil: 'load' });
  await playgroundsReady(page);
  const big = await onPlayground(page, (el) => ({ name: el.app.source.curated, actions: el.app.sim.actions().length }));
  ctx.assert(big.name === 's15-purge-after-1001-expired' && big.actions === 1003, `the on-demand S15 scenario opened: ${JSON.stringify(big)}`);

  // Two picks in a row, the first a scenario whose chunk is still to load: the second opens, as
  // the picker says, and stays (the first's chunk arriving later no longer wins).
  await onPlayground(page, (el) => { el.app.controls.pick('s15-no-purge-at-1000-expired'); el.app.controls.pick('s01-happy-path'); });
  await page.waitForTimeout(1500);
  const raced = await onPlayground(page, (el) => el.app.source.curated);
  ctx.assert(raced === 's01-happy-path', `the later of two picks is the one open: ${raced}`);

  // A session opened anew does not keep the last one's narration (at 31,000 ms s02 says p1 timed
  // out; a live session at 0 ms has said nothing yet).
  await page.goto(`${ctx.baseURL}?scenario=s02-stalled-follower-times-out`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await onPlayground(page, (el) => el.app.playback.seek(31000));
  const before = await page.textContent('[data-testid="narration"]');
  await page.selectOption('[data-testid="scenario-pick"]', '');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.live === true);
  const fresh = await onPlayground(page, (el) => ({ said: el.shadowRoot.querySelector('[data-testid="narration"]').textContent, at: el.app.sim.nowMs }));
  ctx.assert(/REQUEST_TIMED_OUT/.test(before) && !/REQUEST_TIMED_OUT|p1/.test(fresh.said), `the live session does not tell s02's timeout: ${JSON.stringify({ before, fresh })}`);

  // The live session, driven with actions of one's own, then left by picking a scenario: the
  // notice says what went and reopens it, actions and all.
  await onPlayground(page, (el) => {
    el.command({ action: 'pause_follower', broker: 1 });
    el.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: 0, count: 10 }] });
  });
  // Restart from 0 ms begins the live session anew without them, and offers them back the same way.
  await page.click('[data-testid="restart"]');
  await waitText(page, '.notices', /session you were driving was closed, with your 2 actions/);
  ctx.assert(await onPlayground(page, (el) => el.app.sim.actions().filter((a) => a.by_user).length) === 0, 'restarted without the actions');
  await page.click('[data-testid="reopen-left"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.sim.actions().filter((a) => a.by_user).length === 2);
  await page.selectOption('[data-testid="scenario-pick"]', 's01-happy-path');
  await waitText(page, '.notices', /session you were driving was closed, with your 2 actions/);
  await page.click('[data-testid="reopen-left"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.live === true);
  const reopened = await onPlayground(page, (el) => el.app.sim.actions().filter((a) => a.by_user).map((a) => a.action));
  ctx.assert(JSON.stringify(reopened) === '["pause_follower","produce"]', `the left session came back with its actions: ${JSON.stringify(reopened)}`);
  // A reload (or Back) of the page loses nothing: the session is offered back in the same tab,
  // and again after leaving the offer for another page and coming Back.
  await page.reload({ waitUntil: 'load' });
  await playgroundsReady(page);
  await waitText(page, '.notices', /session you were driving was closed, with your 2 actions/);
  const here = page.url();
  await page.goto(`${ctx.baseURL}?scenario=s01-happy-path`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.goBack({ waitUntil: 'load' });
  ctx.assert(page.url() === here, `back where the offer was: ${page.url()}`);
  await playgroundsReady(page);
  await waitText(page, '.notices', /session you were driving was closed, with your 2 actions/);
  await page.click('[data-testid="reopen-left"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.sim.actions().filter((a) => a.by_user).length === 2);
  // Restarted from 0 ms, a session reopened from its file keeps its actions: nothing to offer back.
  const restartedAt = await onPlayground(page, async (el) => { await el.app.playback.restart({ play: false }); return el.nowMs; });
  ctx.assert(restartedAt === 0, `at 0 ms, not at the instant its file was saved at: ${restartedAt}`);
  await page.click('[data-testid="restart"]');
  await page.waitForTimeout(300);
  ctx.assert(await onPlayground(page, (el) => el.app.sim.actions().filter((a) => a.by_user).length) === 2, 'a reopened session restarts with its actions');
  ctx.assert(!/session you were driving/.test(await page.locator('purgatory-playground >> .notices').innerText()), 'and says nothing of a closed session');
  // A link pasted over it (the address's fragment changed) offers it back as a pick does; the
  // offer outlives another link followed, and a reload keeps it while it is neither taken nor
  // dismissed.
  const offered = /session you were driving was closed, with your 2 actions/;
  await page.evaluate(() => { location.hash = 'scenario=s01-happy-path'; });
  await waitText(page, '.notices', offered);
  await page.evaluate(() => { location.hash = 'scenario=s02-stalled-follower-times-out'; });
  await waitText(page, '.notices', /Opened the link: s02-stalled-follower-times-out/);
  ctx.assert(offered.test(await page.locator('purgatory-playground >> .notices').innerText()), 'the offer outlives another link');
  await page.reload({ waitUntil: 'load' });
  await playgroundsReady(page);
  await waitText(page, '.notices', offered);
  await page.click('[data-testid="reopen-left"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.sim.actions().filter((a) => a.by_user).length === 2);
  await onPlayground(page, (el) => el.app.open({ curated: 's01-happy-path' }, { play: false }));
  await page.reload({ waitUntil: 'load' });
  await playgroundsReady(page);
  await page.waitForTimeout(300);
  ctx.assert(!/session you were driving/.test(await page.locator('purgatory-playground >> .notices').innerText()), 'an offer taken is not made again');
  // Dismissed, an offer is declined: no reload makes it again.
  await onPlayground(page, (el) => el.command({ action: 'pause_follower', broker: 1 }));
  await page.selectOption('[data-testid="scenario-pick"]', 's02-stalled-follower-times-out');
  await waitText(page, '.notices', /session you were driving was closed, with your/);
  await page.click('.notice.left .dismiss');
  await page.reload({ waitUntil: 'load' });
  await playgroundsReady(page);
  await page.waitForTimeout(300);
  ctx.assert(!/session you were driving/.test(await page.locator('purgatory-playground >> .notices').innerText()), 'an offer dismissed is not made again');

  // A link that opens at the run's end: Play says the run has ended, with the ways on; a seek
  // past the end stops there.
  await page.goto('about:blank');
  await page.goto(`${ctx.baseURL}#scenario=x15-producer-gives-up-then-the-records-commit&t=50000`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.click('[data-testid="play"]');
  await page.waitForSelector('[data-testid="scenario-end"]', { timeout: 5000 });
  ctx.assert(!(await onPlayground(page, (el) => el.playing)), 'Play at the end plays nothing');
  await onPlayground(page, (el) => el.seek(1e300));
  ctx.assert((await onPlayground(page, (el) => el.nowMs)) === 50000, 'a seek past the end stops at the end');
  const bigint = await onPlayground(page, (el) => { try { el.seek(10n); return null; } catch (e) { return `${e.name}: ${e.message}`; } });
  ctx.assert(/^TypeError: .*got 10n$/.test(bigint), `a BigInt is refused in words: ${bigint}`);

  // x13: p1 was acknowledged with acks=1, and the new leader's log lacks its records: Responses
  // says so beside its NONE.
  await page.goto('about:blank');
  await page.goto(`${ctx.baseURL}#scenario=x13-acks1-acknowledged-then-lost&t=30000`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await waitText(page, '.resp-list', /p1-acks-1 .*NONE answered at 1,000 ms .*LOST at 9,003 ms/);
  // A script that sets the page's scenario attribute opens that scenario (the link chose only
  // the first), and the address names it.
  await page.evaluate(() => document.querySelector('purgatory-playground').setAttribute('scenario', 's09-leader-change-answers-waiting-request'));
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.curatedName === 's09-leader-change-answers-waiting-request');
  ctx.assert(new URL(page.url()).search === '?scenario=s09-leader-change-answers-waiting-request', `the address follows: ${page.url()}`);

  // A name that does not exist: a message, and a live session.
  await page.goto(`${ctx.baseURL}?scenario=no-such-thing`, { waitUntil: 'load' });
  await playgroundsReady(page);
  ctx.assert(/no scenario called “no-such-thing”/.test(await page.textContent('.notices')), 'an unknown scenario is named in a notice');
  ctx.assert((await page.inputValue('[data-testid="scenario-pick"]')) === '', 'a live session opened instead');

  // A damaged session link: a message that says so.
  await page.goto(`${ctx.baseURL}#session=AAAA*bad`, { waitUntil: 'load' });
  await playgroundsReady(page);
  ctx.assert(/link could not be opened.*damaged/.test(await page.textContent('.notices')), 'a damaged link is reported');
  await page.goto(`${ctx.baseURL}#session=q1YqzsjMS`, { waitUntil: 'load' });
  await playgroundsReady(page);
  ctx.assert(/does not decompress|damaged/.test(await page.textContent('.notices')), 'a cut-short link is reported');
  // A saved session whose instant is costly to reach (a hundred partitions fetched without a
  // wait, a minute in) opens short of it at once and says so; played on, it gets there.
  {
    const busy = {
      name: 'busy', seed: 3, config: { brokers: 3, replica_fetch_wait_max_ms: 0 },
      topics: [{ name: 't', partitions: 100, replication_factor: 3 }],
      actions: [{ at_ms: 10, action: 'produce', id: 'p1', acks: -1, records: [{ topic: 't', partition: 0, count: 1 }] }],
      run_until_ms: 60000, session: { at_ms: 60000 },
    };
    await page.goto('about:blank');
    await page.goto(`${ctx.baseURL}#session=${Buffer.from(deflateRawSync(Buffer.from(JSON.stringify(busy)))).toString('base64url')}`, { waitUntil: 'load' });
    await playgroundsReady(page);
    await waitText(page, '.notices', /This session was saved at 60,000 ms, but computing that far at once would hold the page for long: it opens at [\d,]+ ms/);
    const at = await onPlayground(page, (el) => el.app.sim.nowMs);
    ctx.assert(at > 0 && at < 60000, `it opens short of its instant: ${at} ms`);
    const reached = await onPlayground(page, (el) => el.seek(60000) ?? el.app.sim.nowMs);
    ctx.assert(reached === 60000, `and seeks on from there to its instant: ${reached} ms`);
  }
  {
    // A session link's instant is its text's: a `t=` beside it is said to be left out.
    const quiet = { name: 'quiet', seed: 1, config: { brokers: 3 }, topics: [{ name: 't', partitions: 1, replication_factor: 3 }], actions: [], run_until_ms: 60000, session: { at_ms: 5000 } };
    await page.goto('about:blank');
    await page.goto(`${ctx.baseURL}#session=${Buffer.from(deflateRawSync(Buffer.from(JSON.stringify(quiet)))).toString('base64url')}&t=9`, { waitUntil: 'load' });
    await playgroundsReady(page);
    await waitText(page, '.notices', /Part of this link was left out: a session link opens at the instant it was saved, so t="9" is not read/);
    const at = await onPlayground(page, (el) => el.app.sim.nowMs);
    ctx.assert(at === 5000, `the session opens at its own instant: ${at} ms`);
  }
  // A link whose instant is not a plain whole number of milliseconds ("1e3" is a typo, not 1000).
  for (const t of ['1e3', '-5', '12.5']) {
    await page.goto('about:blank'); // a change of fragment alone would not reload the page
    await page.goto(`${ctx.baseURL}#scenario=s03-stalled-follower-completes-at-isr-shrink&t=${t}`, { waitUntil: 'load' });
    await playgroundsReady(page);
    const notice = await page.textContent('.notices');
    ctx.assert(notice.includes(`t="${t}" is not a whole number`), `t=${t} is reported: ${notice}`);
    // Only the instant is left out: the scenario it names opens, at its start.
    const opened = await onPlayground(page, (el) => [el.app.source?.curated, el.app.sim.nowMs]);
    ctx.assert(opened[0] === 's03-stalled-follower-completes-at-isr-shrink' && opened[1] === 0 && /Part of this link was left out/.test(notice), `t=${t}: the rest of the link opens: ${JSON.stringify(opened)} ${notice}`);
  }
  // Past the longest run the model seeks to (it once stopped the page from starting at all).
  for (const t of ['604800001', '99999999999', '99999999999999999999']) {
    await page.goto('about:blank');
    await page.goto(`${ctx.baseURL}#scenario=s03-stalled-follower-completes-at-isr-shrink&t=${t}`, { waitUntil: 'load' });
    await playgroundsReady(page);
    const notice = await page.textContent('.notices');
    ctx.assert(notice.includes(`t="${t}" is past a week (604,800,000 ms)`), `t=${t} is reported: ${notice}`);
  }
  // Within a week but past the run's end (s03 runs to 60,000 ms), and a request the run lacks
  // (sel= cut short in the message): each said in the one notice, the run open at its end with
  // its usual request.
  const longSel = `p${'9'.repeat(300)}`;
  await page.goto('about:blank');
  await page.goto(`${ctx.baseURL}#scenario=s03-stalled-follower-completes-at-isr-shrink&t=500000&sel=${longSel}`, { waitUntil: 'load' });
  await playgroundsReady(page);
  const late = await page.textContent('.notices');
  const lateState = await onPlayground(page, (el) => [el.app.sim.nowMs, el.app.selected]);
  ctx.assert(lateState[0] === 60000 && lateState[1] === 'p1', `past its end, the run opens at its end with p1: ${JSON.stringify(lateState)}`);
  ctx.assert(late.includes('t="500000" is past the end of this run; it opens at its end, 60,000 ms.'), `the late instant is said: ${late}`);
  ctx.assert(late.includes(`sel="p${'9'.repeat(39)}…", a request this run does not have; p1 is selected instead.`) && !late.includes('9'.repeat(41)), `the unknown request is said, cut short: ${late}`);

  // A session link followed in the open page (pasted into the address bar, an in-page link):
  // it opens in place at its instant; a fragment that names no session is the host page's own;
  // a damaged one says so and leaves the open session as it was.
  const s03 = 's03-stalled-follower-completes-at-isr-shrink';
  const state = () => onPlayground(page, (el) => ({ name: el.app.source?.curated ?? null, at: el.app.sim.nowMs, actions: el.app.sim.actions().length }));
  await page.evaluate((h) => { location.hash = h; }, `scenario=${s03}&t=250`);
  await page.waitForFunction((name) => document.querySelector('purgatory-playground').app?.source?.curated === name, s03, { timeout: 10000 });
  await waitText(page, '.notices', new RegExp(`Opened the link: ${s03} at 250 ms`));
  const opened = await state();
  ctx.assert(opened.at === 250 && (await page.inputValue('[data-testid="scenario-pick"]')) === s03, `the followed link opened s03 at 250 ms: ${JSON.stringify(opened)}`);
  await ctx.screenshot(page, 'scenario-link-followed-800x600', { fullPage: false });
  await page.evaluate(() => { location.hash = 'top'; });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  ctx.assert(JSON.stringify(await state()) === JSON.stringify(opened), 'a fragment that names no session changes nothing');
  await page.evaluate(() => { location.hash = 'session=AAAA*bad'; });
  await waitText(page, '.notices', /could not be opened.*the open session stays as it was/);
  ctx.assert(JSON.stringify(await state()) === JSON.stringify(opened), 'a damaged link followed in the page keeps the open session');
  ctx.assert(!/Opened the link/.test(await page.textContent('.notices')), 'the damaged link\'s message does not stand beside the last link\'s "Opened"');
  // Back to an address that names another scenario opens it: the page and its address agree.
  await page.goto(`${ctx.baseURL}?scenario=s01-happy-path`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.evaluate((h) => { location.hash = h; }, `scenario=${s03}&t=250`);
  await page.waitForFunction((name) => document.querySelector('purgatory-playground').app?.source?.curated === name, s03, { timeout: 10000 });
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.source?.curated === 's01-happy-path', null, { timeout: 10000 });
  ctx.assert(new URL(page.url()).search === '?scenario=s01-happy-path', `Back shows the scenario its address names: ${page.url()}`);

  // The Kafka check's mark (docs/kafka-check.json): on a curated scenario as written, linking to
  // its row; gone once the person's own action has changed the run.
  const mark = () => onPlayground(page, (el) => {
    const m = el.shadowRoot.querySelector('[data-testid="kafka-mark"]');
    const a = m.querySelector('a');
    return { hidden: m.hidden, text: m.textContent, href: a?.getAttribute('href') ?? null, target: a?.target ?? null };
  });
  await page.waitForFunction(() => !document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="kafka-mark"]').hidden, null, { timeout: 10000 });
  const checked = await mark();
  ctx.assert(!checked.hidden && /Checked against Apache Kafka 4\.\d+\.\d+: the same answers/.test(checked.text) && checked.href === `${ctx.baseURL}dist/kafka-check.html#s01-happy-path` && checked.target === '_blank', `s01 carries the Kafka check's mark: ${JSON.stringify(checked)}`);
  // It opens the report as a page (docs/kafka-check.md rendered at build), in a tab of its own so
  // the session stays, at the scenario's section.
  const report = await ctx.openPage({ viewport: { width: 1000, height: 700 } });
  await report.page.goto(checked.href, { waitUntil: 'load' });
  const section = await report.page.evaluate(() => ({ heading: document.querySelector('h2#s01-happy-path')?.textContent, rows: document.querySelectorAll('table tr').length, top: Math.round(document.getElementById('s01-happy-path')?.getBoundingClientRect().top ?? -1), scripts: document.scripts.length }));
  ctx.assert(section.heading === 's01-happy-path' && section.rows > 100 && section.top >= 0 && section.top < 50 && section.scripts === 0, `the report opens at s01's section: ${JSON.stringify(section)}`);
  await ctx.screenshot(report.page, 'kafka-check-report', { fullPage: false });
  ctx.assertNoErrors(report.errors, 'the Kafka check report');
  await onPlayground(page, (el) => el.command({ action: 'pause_follower', broker: 2 }));
  ctx.assert((await mark()).hidden, 'an action of one\'s own takes the mark away (the run is no longer the one checked)');
  // A what-if's mark speaks for both its runs: the record has the second as NAME.b.
  const w01 = 'w01-acks1-against-all-leader-crash';
  const record = JSON.parse(readFileSync(path.join(REPO_ROOT, 'docs/kafka-check.json'), 'utf8')).scenarios;
  ctx.assert(record[w01] && record[`${w01}.b`], 'the Kafka check\'s record has both of w01\'s runs');
  await page.evaluate((h) => { location.hash = h; }, `scenario=${w01}`);
  await page.waitForFunction((name) => { const el = document.querySelector('purgatory-playground'); return el.app?.source?.curated === name && !el.shadowRoot.querySelector('[data-testid="kafka-mark"]').hidden; }, w01, { timeout: 10000 });
  const both = await mark();
  ctx.assert(both.text.includes(`(${record[w01].runs + record[`${w01}.b`].runs} runs of A and B`) && both.href.endsWith(`#${w01}`), `w01's mark counts the runs of both: ${JSON.stringify(both)}`);
  // Without the second run beside it, the mark speaks for the first alone.
  await onPlayground(page, (el) => el.shadowRoot.querySelector('[data-testid="compare-end"]').click());
  const alone = await mark();
  ctx.assert(alone.text.includes(`(${record[w01].runs} runs, `), `w01's mark, comparing stopped, counts its own runs: ${JSON.stringify(alone)}`);

  // What the page says at a link's instant matches Kafka (and each event is told once).
  const said = async (fragment) => {
    await page.evaluate((h) => { location.hash = h; }, fragment);
    const [name, at] = [/scenario=([^&]+)/.exec(fragment)[1], Number(/t=(\d+)/.exec(fragment)[1])];
    await page.waitForFunction(([n, t]) => { const el = document.querySelector('purgatory-playground'); return el.app?.source?.curated === n && el.nowMs === t; }, [name, at], { timeout: 10000 });
    await waitText(page, '.notices', /Opened the link/);
    return onPlayground(page, (el) => ({
      narration: el.shadowRoot.querySelector('.narration').textContent,
      steps: [...el.shadowRoot.querySelectorAll('.steps li')].map((li) => `${li.className}: ${li.textContent.replace(/\s+/g, ' ').trim()}`),
    }));
  };
  const s08 = await said('scenario=s08-isr-of-leader-only-completes-at-once&t=40000&sel=p1');
  ctx.assert(!/waits in the purgatory/.test(s08.narration) && /first try/.test(s08.narration), `s08: completed on its first try, never said to wait: ${s08.narration}`);
  ctx.assert(s08.steps[0].split('t-0 offsets').length === 2, `the code path lists the append once: ${s08.steps[0]}`);
  const x03 = await said('scenario=x03-unknown-topic-or-partition&t=1000&sel=partition-5-of-1');
  ctx.assert(/^skipped: appendRecordsnot called: KafkaApis answers t-5 UNKNOWN_TOPIC_OR_PARTITION at once$/.test(x03.steps[0]), `no partition exists: appendRecords is never called: ${x03.steps[0]}`);
  const s10 = await said('scenario=s10-multi-partition-request&t=5000&sel=p2-one-not-led-here');
  ctx.assert(/until the HW reaches 15 on healthy-0 \(/.test(s10.narration), `only the partition it waits on is named: ${s10.narration}`);
  ctx.assert(s10.steps[2].includes('stalled-1 NOT_LEADER_OR_FOLLOWER (not waited on)'), `a failed partition is not waited on: ${s10.steps[2]}`);
  // x13: the leader crashes at 2,000 ms with p2 waiting; long after, nothing counts p2's timer
  // down, and the wheel's last word is the crash.
  const x13 = await said('scenario=x13-acks1-acknowledged-then-lost&t=20003&sel=p2-acks-all');
  ctx.assert(!x13.steps.some((line) => /ms left/.test(line)) && /never called on its keys: the broker went down first/.test(x13.steps[4]), `a crashed broker's request has no timer left: ${JSON.stringify(x13.steps)}`);
  const justNow = await page.textContent('.panel.wheel .wheel-changes');
  ctx.assert(/2,000 ms · broker 0: crashed: its timer is gone/.test(justNow), `the wheel's recent changes end with the crash: ${justNow}`);
  // x15: the producer's own request.timeout.ms (10 s) runs out at 11,001 ms while the broker still
  // holds p1; at 45,010 the broker answers NONE, and nobody reads it.
  const response = () => page.textContent('[data-testid="response"]');
  const gaveUp = await said('scenario=x15-producer-gives-up-then-the-records-commit&t=11001&sel=p1');
  const atGaveUp = await response();
  ctx.assert(/p1: the producer stops waiting after its own request.timeout.ms \(10,000 ms\) and reports REQUEST_TIMED_OUT/.test(gaveUp.narration), `the narration says the producer gave up: ${gaveUp.narration}`);
  ctx.assert(/^p1 .*t-0 REQUEST_TIMED_OUT the producer gave up at 11,001 ms; the broker still holds it$/.test(atGaveUp.trim()), `p1 at 11,001 ms: ${atGaveUp}`);
  ctx.assert(/timer: expires at 61,000 ms/.test(gaveUp.steps[3]) && /the producer gave up at 11,001 ms/.test(gaveUp.steps[5]), `the broker's path goes on without the producer: ${JSON.stringify(gaveUp.steps)}`);
  await said('scenario=x15-producer-gives-up-then-the-records-commit&t=45010&sel=p1');
  const unread = await response();
  ctx.assert(/the broker answered at 45,010 ms, unread$/.test(unread.trim()) && /REQUEST_TIMED_OUT/.test(unread), `p1 at 45,010 ms: ${unread}`);
  const logLines = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('.log-lines li')].map((li) => li.textContent));
  ctx.assert(logLines.some((t) => /p1: the producer’s own request.timeout.ms \(10,000 ms\) ran out with no answer/.test(t))
    && logLines.some((t) => /p1 answered after 44,010 ms, into a closed connection/.test(t)), `the log tells both sides: ${JSON.stringify(logLines.filter((t) => /p1/.test(t)))}`);
  ctx.assertNoErrors(errors, 'scenario page');
}
