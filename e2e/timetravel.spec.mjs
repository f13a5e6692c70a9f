// Going back in time, as a learner does it on s02 (a stalled follower; p1 times out at 31000 ms):
// click a marker on the timeline, step forward and back, keys on the timeline; a breakpoint on
// "a request expires" pauses the clock exactly at 31000 ms; acting in the past asks, forks, and
// undo brings the dropped future back; the session travels in a link and in a file, reopening at
// the same instant.
import { readFileSync } from 'node:fs';
import { playgroundsReady, onPlayground, nowMs, waitText } from './lib.mjs';

const S02 = 's02-stalled-follower-times-out';
const S03 = 's03-stalled-follower-completes-at-isr-shrink';

/** Sets one breakpoint in the Breakpoints menu, restarts, and plays at 1,000x. */
async function playFromZeroWithBreakpoint(page, testid) {
  await page.click('[data-menu="breakpoints"]');
  await page.check(`[data-testid="${testid}"]`);
  await page.keyboard.press('Escape');
  await page.click('[data-testid="restart"]');
  await page.selectOption('[data-testid="speed"]', '1000');
  await page.click('[data-testid="play"]');
}

export default async function timeTravel(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(`${ctx.baseURL}?scenario=${S02}`, { waitUntil: 'load' });
  await playgroundsReady(page);
  // The run is computed ahead while idle; the timeline shows its markers.
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelectorAll('.tl-mark').length >= 5, null, { timeout: 20000 });

  // A marker click moves the playhead to the marker's instant.
  const expiry = page.locator('.tl-mark[data-at="31000"]').first();
  ctx.assert(await expiry.count() === 1, 'the timeline has a marker at 31000 ms, where p1 expires');
  await expiry.click({ force: true });
  ctx.assert(await nowMs(page) === 31000, `a marker click seeks to it: ${await nowMs(page)}`);
  await waitText(page, '[data-testid="response"]', /^p1 .*REQUEST_TIMED_OUT/, { timeout: 5000 });
  await ctx.screenshot(page, 'timetravel-at-expiry', { fullPage: false });

  // Step back: the instant before, where p1 is still waiting; step forward: back at the expiry.
  await page.click('[data-testid="step-back"]');
  const back = await nowMs(page);
  ctx.assert(back < 31000, `step back goes to an earlier instant: ${back}`);
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '1', 'before the expiry p1 still waits');
  await page.click('[data-testid="step"]');
  ctx.assert(await nowMs(page) === 31000, `step forward comes back to 31000: ${await nowMs(page)}`);
  // Keys: '[' steps back on the page, Home on the timeline goes to 0.
  await page.keyboard.press('[');
  ctx.assert(await nowMs(page) === back, `'[' steps back: ${await nowMs(page)}`);
  await page.focus('[data-testid="timeline"]');
  await page.keyboard.press('Home');
  ctx.assert(await nowMs(page) === 0, `Home on the timeline goes to 0: ${await nowMs(page)}`);
  await page.keyboard.press('ArrowRight');
  const next = await nowMs(page);
  ctx.assert(next >= 0 && (await page.getAttribute('[data-testid="timeline"]', 'aria-valuenow')) === String(next), `ArrowRight moves to the next marker and the slider says so: ${next}`);
  // '}' and '{' on the page go from marked moment to marked moment, as the timeline's arrows do.
  await page.focus('[data-testid="play"]');
  await page.keyboard.press('}');
  const marked = await nowMs(page);
  const expected = await onPlayground(page, (el, at) => el.app.timeline.markerNear(at, 1), next);
  ctx.assert(marked > next && marked === expected, `'}' goes to the next marker: ${marked} (expected ${expected})`);
  await page.keyboard.press('{');
  ctx.assert(await nowMs(page) === next, `'{' comes back to the marker before: ${await nowMs(page)}`);
  // The same jumps by the buttons beside the timeline's count of marks.
  await page.click('[data-testid="tl-next-marker"]');
  ctx.assert(await nowMs(page) === marked, `the next-marker button goes where '}' went: ${await nowMs(page)}`);
  await page.click('[data-testid="tl-prev-marker"]');
  ctx.assert(await nowMs(page) === next, `the previous-marker button comes back: ${await nowMs(page)}`);

  // Zoom: + narrows the timeline to a window about the playhead (its ends labelled, its markers
  // inside it), a jump past the window moves it along, and "whole run" shows everything again.
  const scale = () => onPlayground(page, (el) => {
    const sr = el.shadowRoot;
    const ms = (sel) => Number(sr.querySelector(sel).textContent.replace(/[^\d]/g, ''));
    return { from: ms('.tl-from'), to: ms('.tl-to'), marks: [...sr.querySelectorAll('.tl-mark')].map((m) => Number(m.dataset.at)), now: el.nowMs };
  });
  const whole = await scale();
  await page.click('[data-testid="tl-zoom-in"]');
  const zoomed = await scale();
  ctx.assert(zoomed.from <= zoomed.now && zoomed.now <= zoomed.to && zoomed.to - zoomed.from === Math.round((whole.to - whole.from) / 4)
    && zoomed.marks.every((m) => m >= zoomed.from && m <= zoomed.to), `zoomed in to a quarter about the playhead: ${JSON.stringify({ whole, zoomed })}`);
  await page.focus('[data-testid="timeline"]');
  await page.keyboard.press('End');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const moved = await scale();
  ctx.assert(moved.now === whole.to && moved.to === whole.to && moved.to - moved.from === zoomed.to - zoomed.from, `the window follows the playhead to the end: ${JSON.stringify(moved)}`);
  // '{' finds the marked moment before, even left of the zoomed window.
  for (let i = 0; i < 3; i++) await page.click('[data-testid="tl-zoom-in"]');
  const deep = await scale();
  await page.focus('[data-testid="play"]');
  await page.keyboard.press('{');
  const before = await onPlayground(page, (el) => ({ at: el.nowMs, marks: el.app.sim.markers(0, el.nowMs, 1000).markers.map((m) => m.at_ms) }));
  ctx.assert(deep.marks.length === 0 && before.at < deep.from && before.marks.at(-1) === before.at,
    `'{' from a window with no marker goes to the last marker before it: ${JSON.stringify({ at: before.at, deep })}`);
  await page.click('[data-testid="tl-zoom-fit"]');
  const fit = await scale();
  ctx.assert(fit.from === whole.from && fit.to === whole.to, `"whole run" shows the whole run again: ${JSON.stringify(fit)}`);

  // A breakpoint on expiry: played from 0, the clock stops exactly at 31000 ms and says why.
  await playFromZeroWithBreakpoint(page, 'breakpoint-expiry');
  await waitText(page, '.notices', /Breakpoint: p1 expired on the timer \(at 31,000 ms\)/, { timeout: 30000 });
  ctx.assert(await nowMs(page) === 31000, `the breakpoint stopped the clock at 31000: ${await nowMs(page)}`);
  ctx.assert(!(await onPlayground(page, (el) => el.playing)), 'and paused it');
  await ctx.screenshot(page, 'timetravel-breakpoint', { fullPage: false });

  // Acting in the past asks first; confirmed, the future after it is dropped; undo restores it.
  await onPlayground(page, (el) => el.seek(20000));
  const actionsBefore = await onPlayground(page, (el) => el.app.sim.actions().length);
  // A question left open while the playhead moves asks about an instant no longer there: it goes.
  await page.click('[data-testid="pause-follower-1"]');
  await page.waitForSelector('[data-testid="fork-confirm"]');
  await onPlayground(page, (el) => el.seek(25000));
  ctx.assert(await page.locator('[data-testid="fork-confirm"]').count() === 0, 'a seek takes the question about the instant it left');
  await onPlayground(page, (el) => el.seek(20000));
  // Asked while playing, the clock waits at the instant asked about.
  await onPlayground(page, (el) => el.play());
  await page.click('[data-testid="pause-follower-1"]');
  await page.waitForSelector('[data-testid="fork-confirm"]');
  ctx.assert(!(await onPlayground(page, (el) => el.playing)), 'the question pauses the clock');
  await page.click('[data-testid="fork-cancel"]');
  await onPlayground(page, (el) => el.seek(20000));
  await page.click('[data-testid="pause-follower-1"]');
  await page.waitForSelector('[data-testid="fork-confirm"]');
  await ctx.screenshot(page, 'timetravel-fork-confirm', { fullPage: false });
  // The question names the action it is about (a second action would replace it, named too).
  await waitText(page, '.notice.confirm', /^Pause broker 1\? You are at 20,000 ms/);
  await page.click('[data-testid="fork-confirm"]');
  await waitText(page, '.notices', /this is a new future/);
  const forked = await onPlayground(page, (el) => ({ actions: el.app.sim.actions().length, frontier: el.app.sim.extent().frontier_ms }));
  ctx.assert(forked.actions === actionsBefore + 1, `the pause is an action of the new future: ${JSON.stringify(forked)}`);
  // The new future is computed ahead like the scenario's own run: its timeline shows markers past
  // the fork, and a click far right goes there (it used to stay stuck at the fork's instant).
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app.timeline.markers.some((m) => m.at_ms > 30000), null, { timeout: 20000 });
  const tl = await page.locator('[data-testid="timeline"]').boundingBox();
  await page.mouse.click(tl.x + tl.width * 0.9, tl.y + tl.height / 2);
  const span = await onPlayground(page, (el) => el.app.timeline.span);
  ctx.assert(Math.abs(await nowMs(page) - span.to * 0.9) < span.to * 0.02, `a click at 90% of the new future's timeline goes there: ${await nowMs(page)} of ${span.to}`);
  await page.click('[data-testid="undo"]');
  await waitText(page, '.notices', /dropped future is back/);
  ctx.assert(await onPlayground(page, (el) => el.app.sim.actions().length) === actionsBefore, 'undo takes the action back');

  // The session in a link: reopened in a new page at the same instant, the same request selected.
  await onPlayground(page, (el) => { el.seek(31000); el.app.select('p1'); });
  await page.click('[data-menu="share"]');
  await page.click('[data-testid="copy-link"]');
  await waitText(page, '.share-out', /characters/);
  const link = page.url();
  ctx.assert(/#/.test(link), `copy link puts the session in the address: ${link}`);
  const { page: page2, errors: errors2 } = await ctx.openPage();
  await page2.goto(link, { waitUntil: 'load' });
  await playgroundsReady(page2);
  ctx.assert(await nowMs(page2) === 31000, `the link reopens at 31000 ms: ${await nowMs(page2)}`);
  ctx.assert(await onPlayground(page2, (el) => el.app.selected) === 'p1', 'with p1 selected');

  // The session in a file: downloaded, then opened in a fresh page through the file input.
  await onPlayground(page, (el) => { el.seek(20000); el.command({ action: 'resume_follower', broker: 2 }); });
  const forkedHash = await onPlayground(page, (el) => el.exportSession());
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-session"]')]);
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  ctx.assert(text === forkedHash, 'the downloaded file is the session');
  await page2.click('[data-menu="share"]');
  await page2.setInputFiles('[data-testid="import-session"]', file);
  await waitText(page2, '.notices', /Opened/);
  const reopened = await onPlayground(page2, (el) => ({ at: el.nowMs, actions: el.app.sim.actions().filter((a) => a.by_user).length }));
  ctx.assert(reopened.at === await nowMs(page), `the file reopens at its instant: ${JSON.stringify(reopened)} vs ${await nowMs(page)}`);
  ctx.assert(reopened.actions >= 1, `with the resume the learner made: ${JSON.stringify(reopened)}`);
  const picked = await onPlayground(page2, (el) => { const s = el.shadowRoot.querySelector('.scenario-pick'); return s.options[s.selectedIndex].textContent; });
  ctx.assert(/^S02 · .*, with your actions \(from .+\)$/.test(picked), `the picker says the file is S02 with the learner's actions, not S02 itself: ${picked}`);
  ctx.assert(await onPlayground(page2, (el) => el.exportSession()) === text, 'export and import round-trip to the same bytes');
  // A file that is not a session: a clear message, nothing changed.
  await page2.click('[data-menu="share"]').catch(() => {});
  await page2.setInputFiles('[data-testid="import-session"]', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await waitText(page2, '.notices', /Could not open that file, and nothing was changed: notes.txt is not a session file/);
  ctx.assert(await nowMs(page2) === reopened.at, 'a bad file changes nothing');

  // s03: stepping back across the completion shows p1 waiting again; a breakpoint on an ISR
  // change stops the clock at the shrink's commit.
  await page.goto(`${ctx.baseURL}?scenario=${S03}`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('.tl-mark[data-kind="isr_committed"]'), null, { timeout: 20000 });
  const marks = await page.$$eval('.tl-mark', (els) => els.map((e) => ({ at: Number(e.dataset.at), kind: e.dataset.kind })));
  const answered = marks.find((m) => m.kind === 'answered');
  const commit = marks.find((m) => m.kind === 'isr_committed');
  ctx.assert(answered && commit, `s03's timeline marks p1's answer and the shrink commit: ${JSON.stringify(marks)}`);
  await onPlayground(page, (el, at) => el.seek(at), answered.at);
  await waitText(page, '[data-testid="response"]', /^p1 .*NONE/, { timeout: 5000 });
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '0', 'after the completion nothing waits');
  await page.click('[data-testid="step-back"]');
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '1', 'one step back p1 waits again');
  ctx.assert(!(await page.$('[data-testid="response"]')) || !/^p1 /.test(await page.textContent('[data-testid="response"]')), 'and has no answer yet');
  await playFromZeroWithBreakpoint(page, 'breakpoint-isr-change');
  await waitText(page, '.notices', /Breakpoint: /, { timeout: 30000 });
  ctx.assert(await nowMs(page) === commit.at, `the ISR-change breakpoint stops at the commit, ${commit.at} ms: ${await nowMs(page)}`);
  await ctx.screenshot(page, 'timetravel-s03-shrink-breakpoint', { fullPage: false });
  // Page2 holds the session file: a run with an action of the person's own (the resume at
  // 20,001), reopened at it. Acting there drops nothing of theirs (the rest of the run is the
  // model's projection of their choices), so it does not ask, and neither does the next action
  // within the future that made; acting before their own actions asks, since those would go.
  await page2.click('[data-testid="pause-follower-1"]');
  await waitText(page2, '.notices', /this is a new future/);
  ctx.assert(await page2.locator('[data-testid="fork-confirm"]').count() === 0, 'a reopened session of one\'s own does not ask when nothing of its own would go');
  await page2.waitForFunction(() => document.querySelector('purgatory-playground').app.complete, null, { timeout: 20000 });
  const before2 = await onPlayground(page2, (el) => el.app.sim.actions().length);
  await page2.click('[data-testid="resume-follower-1"]');
  ctx.assert(await page2.locator('[data-testid="fork-confirm"]').count() === 0, 'no question within one\'s own future');
  ctx.assert(await onPlayground(page2, (el) => el.app.sim.actions().length) === before2 + 1, 'and the action is taken');
  const firstOwn = await onPlayground(page2, (el) => Math.min(...el.app.sim.actions().filter((a) => a.by_user).map((a) => a.at_ms)));
  await onPlayground(page2, (el, at) => el.seek(at), firstOwn - 1000);
  await page2.locator('[data-testid="pause-follower-2"], [data-testid="resume-follower-2"]').first().click();
  await page2.waitForSelector('[data-testid="fork-confirm"]');
  ctx.assert(/drops the 3 actions you made after it/.test(await page2.textContent('.notices')), `acting before one's own actions asks: ${await page2.textContent('.notices')}`);
  await page2.click('[data-testid="fork-confirm"]');
  // At the run's last marker the next-marker button is off, the previous one on.
  await onPlayground(page2, (el) => el.seek(el.app.sim.extent().horizon_ms));
  await page2.waitForFunction(() => { const r = document.querySelector('purgatory-playground').shadowRoot; return r.querySelector('[data-testid="tl-next-marker"]').disabled; }, null, { timeout: 5000 });
  ctx.assert(!(await page2.locator('[data-testid="tl-prev-marker"]').isDisabled()), 'the previous-marker button stays on at the end');
  ctx.assertNoErrors(errors, 'time travel');
  ctx.assertNoErrors(errors2, 'reopened link');
}
