// The Phases view: s02's one request swept over every phase of the leader's ISR check, the strip
// split exactly as the runner's `purgatory sweep` splits it (REQUEST_TIMED_OUT at φ 0 and
// 990-14,999, NONE at 1-989), this run's φ = 7,300 marked; a segment opens the run at its phase,
// where the model answers as the strip said. A trap in the sweep rebuilds the session and sweeps
// anew. The heartbeats' beat splits a fencing race the ISR check's does not. In an embed showing
// only the view, too.
import { playgroundsReady, onPlayground, waitText } from './lib.mjs';

// Nine sweeps in the page, five of them of 15,000 runs: about 70-85 s on the build machine
// (docs/benchmarks.md, "Stop 44"), close to the runner's default of 120 s for one spec; a slow CI
// machine has room.
export const timeoutMs = 240000;

export default async function phasesSpec(ctx) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${ctx.baseURL}?scenario=s02-stalled-follower-times-out`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.locator('.panel.phases').scrollIntoViewIfNeeded(); // it sweeps only while on screen
  await waitText(page, '[data-testid="phase-progress"]', /all 15,000 phases run/, { timeout: 90000 });
  const segments = await page.$$eval('.panel.phases .seg', (els) => els.map((e) => e.getAttribute('aria-label')));
  ctx.assert(JSON.stringify(segments) === JSON.stringify([
    'p1: REQUEST_TIMED_OUT for φ 0; open the run there',
    'p1: NONE for φ 1 to 989; open the run there',
    'p1: REQUEST_TIMED_OUT for φ 990 to 14,999; open the run there',
  ]), `s02's strip splits where the sweep does: ${JSON.stringify(segments)}`);
  const shares = await page.textContent('.panel.phases .shares');
  ctx.assert(/NONE: φ 1-989 \(6\.6%\), answered 30,011-30,999 ms/.test(shares), `the shares and answer times: ${shares}`);
  const marked = await page.getAttribute('.panel.phases .now', 'title');
  ctx.assert(marked === 'this run: φ = 7,300', `this run's phase is marked: ${marked}`);
  // The one-phase segment at φ 0 is a few pixels wide and drawn over its neighbour: a pointer at
  // the strip's left edge reaches it.
  const atEdge = await onPlayground(page, (el) => {
    const strip = el.shadowRoot.querySelector('.panel.phases .strip').getBoundingClientRect();
    return el.shadowRoot.elementFromPoint(strip.left + 1, strip.top + strip.height / 2)?.dataset.phase ?? null;
  });
  ctx.assert(atEdge === '0', `the φ 0 segment is the one under the strip's left edge: ${atEdge}`);
  await ctx.screenshot(page, 'phases-s02', { fullPage: false });

  // A segment opens the run at its middle phase, where p1 succeeds.
  await page.click('.panel.phases .seg.ok');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.source?.label === 'φ = 495');
  const p1 = await onPlayground(page, (el) => { el.app.playback.seek(60000); return JSON.parse(el.app.sim.result()).responses[0]; });
  ctx.assert(p1.responded_ms === 30505 && p1.partitions[0].error === 'NONE', `at φ = 495 p1 succeeds at the shrink's commit: ${JSON.stringify(p1)}`);
  // It is not s02 as written: no story (its captions tell φ = 7,300), no Kafka check's mark, and
  // a link that holds the session itself rather than naming s02.
  const moved = await onPlayground(page, async (el) => ({
    curated: el.app.curatedName,
    story: el.app.sim.story().length,
    storyButton: el.shadowRoot.querySelector('[data-testid="story-start"]')?.hidden ?? true,
    mark: el.shadowRoot.querySelector('.kafka-mark')?.textContent.trim() ?? '',
    picker: el.shadowRoot.querySelector('.scenario-pick option.opened')?.textContent ?? '',
  }));
  ctx.assert(moved.curated === null && moved.story === 0 && moved.storyButton && moved.mark === '', `the run at φ = 495 is a scenario of its own: ${JSON.stringify(moved)}`);
  // The picker names the phase first, where a long title's end would hide it.
  ctx.assert(moved.picker.startsWith('φ = 495 · S02'), `the picker says the phase: ${moved.picker}`);
  // Nor does the address bar name s02 any more: a reload would open s02 at its own phase.
  const address = await page.evaluate(() => location.search);
  ctx.assert(!/scenario=/.test(address), `the address no longer names s02: ${address}`);
  const link = await onPlayground(page, async (el) => { await el.app.controls.copyLink(); return location.hash; });
  ctx.assert(/^#session=/.test(link) && !/scenario=s02/.test(link), `its link holds the session: ${link.slice(0, 120)}`);
  // By keyboard: Enter on a segment opens its run, and the focus comes back to that segment once
  // the new run's strips are drawn (not to the page's top, where the removed button left it).
  const bad = page.locator('.panel.phases .seg.bad').first();
  const key = await bad.getAttribute('data-key');
  await bad.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((k) => {
    const el = document.querySelector('purgatory-playground');
    return el.app?.source?.label !== 'φ = 495' && el.shadowRoot.activeElement?.dataset.key === k;
  }, key, { timeout: 30000 });
  ctx.log(`focus back on ${key}`);
  ctx.assertNoErrors(errors, 'phases on the page');

  // The sweep shares the session's module instance: a trap in it (its step throws as a trapped
  // handle does) rebuilds the session, as a trap anywhere does, and the view sweeps anew on the
  // fresh instance.
  const recovered = page.evaluate(() => new Promise((resolve) => document.querySelector('purgatory-playground').addEventListener('recovered', (e) => resolve(e.detail), { once: true })));
  const modelBefore = await onPlayground(page, (el) => {
    const view = el.app.phases;
    view.restart();
    view.sweep.step = () => { throw new WebAssembly.RuntimeError('unreachable'); };
    window.__modelBefore = el.app.model;
    return view.sweep.phasesDone;
  });
  await recovered;
  await waitText(page, '.notices', /Recovered: the session was rebuilt/);
  await waitText(page, '[data-testid="phase-progress"]', /all 15,000 phases run/, { timeout: 90000 });
  const fresh = await onPlayground(page, (el) => el.app.model !== window.__modelBefore && el.app.phases.sweep?.phasesDone === 15000);
  ctx.assert(modelBefore === 0 && fresh, `the sweep ran again to its end on a fresh instance: ${modelBefore}, ${fresh}`);
  const segmentsAfter = await page.$$eval('.panel.phases .seg', (els) => els.length);
  ctx.assert(segmentsAfter === 3, `the strip after the rebuild: ${segmentsAfter} segments`);
  // A trap that comes back (the model is deterministic): the same sweep is tried once more, then
  // the view says it failed, and the app is not rebuilt again and again.
  const rebuilds = await onPlayground(page, async (el) => {
    let count = 0;
    const trapNext = () => { el.app.phases.sweep.step = () => { throw new WebAssembly.RuntimeError('unreachable'); }; };
    el.addEventListener('recovered', () => { count++; if (el.app.phases.sweep) trapNext(); });
    el.app.phases.restart();
    trapNext();
    await new Promise((res) => setTimeout(res, 3000));
    return count;
  });
  await waitText(page, '.panel.phases .error', /The phases could not be swept: unreachable/);
  ctx.assert(rebuilds === 1, `a trap that comes back rebuilds once, not again and again: ${rebuilds}`);
  const unexpected = errors.filter((e) => !/the model trapped; rebuilding the session/.test(e));
  ctx.assertNoErrors(unexpected, 'phases after a trap in the sweep');

  // The heartbeats' beat: s14 with p1's timeout at 8,500 ms races the crashed follower's fencing.
  // The runner's `purgatory sweep FILE --phase heartbeat` splits it: NONE for φ 0-496 and
  // 1,000-1,999, REQUEST_TIMED_OUT at 9,500 for φ 497-999 (the ISR check's beat: NONE at every φ).
  const opened = await onPlayground(page, async (el) => {
    const doc = JSON.parse(el.app.sim.exportSession(false));
    const s14 = { ...doc, name: 'heartbeat-race', config: { brokers: 3, min_insync_replicas: 2 }, phases: undefined, story: undefined, session: undefined,
      topics: [{ name: 't', partitions: 1, replication_factor: 3 }], run_until_ms: 20000,
      actions: [{ at_ms: 1000, action: 'crash_broker', broker: 2 }, { at_ms: 1000, action: 'produce', id: 'p1', acks: -1, timeout_ms: 8500, records: [{ topic: 't', partition: 0, count: 10 }] }] };
    return el.app.open({ text: JSON.stringify(s14), label: 'heartbeat race' }, { play: false });
  });
  ctx.assert(!opened, `the heartbeat race opens: ${opened}`);
  await page.locator('.panel.phases').scrollIntoViewIfNeeded();
  // One phase in, nothing is known of the others yet: the row says so.
  const early = await onPlayground(page, (el) => {
    const view = el.app.phases;
    view.restart();
    view.sweep.step(1);
    view.draw();
    return el.shadowRoot.querySelector('.panel.phases [data-testid="phase-row"] p').textContent;
  });
  ctx.assert(/p1 the same at every phase run so far/.test(early), `mid-sweep, the row says "so far": ${early}`);
  await waitText(page, '[data-testid="phase-progress"]', /all 15,000 phases run/, { timeout: 90000 });
  ctx.assert(await page.textContent('.panel.phases .phase-list') !== null && /the same at every phase/.test(await page.textContent('.panel.phases .phase-list')), 'over the ISR check, p1 is the same at every phase');
  await page.click('[data-testid="phase-beat-heartbeat"]');
  await waitText(page, '[data-testid="phase-progress"]', /all 2,000 phases run/, { timeout: 90000 });
  const hb = await page.$$eval('.panel.phases .seg', (els) => els.map((e) => e.getAttribute('aria-label')));
  ctx.assert(JSON.stringify(hb) === JSON.stringify([
    'p1: NONE for φ 0 to 496; open the run there',
    'p1: REQUEST_TIMED_OUT for φ 497 to 999; open the run there',
    'p1: NONE for φ 1,000 to 1,999; open the run there',
  ]), `over the heartbeats p1 splits as the runner's sweep does: ${JSON.stringify(hb)}`);
  const about = await page.textContent('.panel.phases .phases-body p.muted');
  ctx.assert(/heartbeat every 2,000 ms/.test(about) && /more than 9,000 ms/.test(about), `the view says which beat: ${about}`);
  const pressed = await page.getAttribute('[data-testid="phase-beat-heartbeat"]', 'aria-pressed');
  ctx.assert(pressed === 'true', `the heartbeat button is pressed: ${pressed}`);
  await ctx.screenshot(page, 'phases-heartbeat', { fullPage: false });
  // Its timed-out segment opens the run with every heartbeat at φ = 748, where p1 times out; the
  // view stays on the heartbeats for the run it opened.
  await page.click('.panel.phases .seg.bad');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.source?.label === 'heartbeats at φ = 748');
  const p1hb = await onPlayground(page, (el) => { el.app.playback.seek(20000); return { phases: JSON.parse(el.app.sim.exportSession(false)).phases, p1: JSON.parse(el.app.sim.result()).responses[0] }; });
  ctx.assert(p1hb.phases?.heartbeat_ms === 748 && p1hb.p1.responded_ms === 9500 && p1hb.p1.partitions[0].error === 'REQUEST_TIMED_OUT', `at heartbeat φ = 748 p1 times out at 9,500: ${JSON.stringify(p1hb)}`);
  await waitText(page, '[data-testid="phase-progress"]', /all 2,000 phases run/, { timeout: 90000 });
  // In a new language the run is named anew, and back again.
  for (const [lang, label] of [['zh-CN', '心跳相位 φ = 748'], ['en', 'heartbeats at φ = 748']]) {
    await page.evaluate((l) => document.querySelector('purgatory-playground').setAttribute('lang', l), lang);
    await page.waitForFunction((l) => document.querySelector('purgatory-playground').app?.source?.label === l, label, { timeout: 20000 })
      .catch(() => ctx.assert(false, `in ${lang} the run opened at a heartbeat phase is called "${label}"`));
  }
  // The view stays on the heartbeats through both remounts (it sweeps while on screen).
  await page.locator('.panel.phases').scrollIntoViewIfNeeded();
  await waitText(page, '[data-testid="phase-progress"]', /all 2,000 phases run/, { timeout: 90000 });
  const pressedNow = await page.getAttribute('[data-testid="phase-beat-heartbeat"]', 'aria-pressed');
  ctx.assert(pressedNow === 'true', `after a new language the view still sweeps the heartbeats: ${pressedNow}`);
  ctx.assertNoErrors(errors.filter((e) => !/the model trapped; rebuilding the session/.test(e)), 'phases over the heartbeats');

  // A produce of one's own in the run's past forks it, and its strip joins the sweep; the fork's
  // undo takes the strip away again.
  const rowsNow = () => page.$$eval('.panel.phases [data-testid="phase-row"]', (els) => els.map((e) => e.dataset.request));
  await onPlayground(page, (el) => { el.app.playback.seek(500); el.command({ action: 'produce', id: 'mine', acks: -1, records: [{ topic: 't', partition: 0, count: 1 }] }); });
  await waitText(page, '[data-testid="phase-progress"]', /all 2,000 phases run/, { timeout: 90000 });
  const withMine = await rowsNow();
  ctx.assert(JSON.stringify(withMine) === '["mine","p1"]', `one's own request is swept: ${JSON.stringify(withMine)}`);
  await onPlayground(page, (el) => el.app.undo());
  await waitText(page, '[data-testid="phase-progress"]', /all 2,000 phases run/, { timeout: 90000 });
  const afterUndo = await rowsNow();
  ctx.assert(JSON.stringify(afterUndo) === '["p1"]', `after the undo, its strip is gone: ${JSON.stringify(afterUndo)}`);

  // A thousand requests (s15): forty strips, and a line for the rest, so that the page keeps its
  // frames while it sweeps.
  await page.goto('about:blank');
  await page.goto(`${ctx.baseURL}?scenario=s15-purge-after-1001-expired`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.locator('.panel.phases').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-testid="phase-rows-left"]', { timeout: 30000 });
  const many = await page.evaluate(() => {
    const root = document.querySelector('purgatory-playground').shadowRoot;
    const requests = document.querySelector('purgatory-playground').app.sim.actions().filter((a) => a.action === 'produce').length;
    return { rows: root.querySelectorAll('.panel.phases [data-testid="phase-row"]').length, left: root.querySelector('[data-testid="phase-rows-left"]').textContent, requests };
  });
  ctx.assert(many.rows === 40 && new RegExp(`^…and ${(many.requests - 40).toLocaleString('en-US')} more requests, each the same at every phase( run so far)?\\.$`).test(many.left), `s15 draws forty strips and counts the rest: ${JSON.stringify(many)}`);

  // A live session: a request sent now is swept on until it is answered, not cut off at the
  // instant it was sent.
  await page.goto('about:blank');
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(page);
  await onPlayground(page, (el) => { el.pause(); el.command({ action: 'produce', id: 'now', acks: -1, records: [{ topic: 't', partition: 0, count: 1 }] }); });
  await page.locator('.panel.phases').scrollIntoViewIfNeeded();
  await page.click('[data-testid="phase-beat-isr_check"]');
  await waitText(page, '[data-testid="phase-progress"]', /all 15,000 phases run/, { timeout: 90000 });
  const live = await page.textContent('.panel.phases .phase-list');
  ctx.assert(/now the same at every phase/.test(live) && /NONE: φ 0-14,999 \(100\.0%\), answered (at|between) /.test(live) && !/not answered/.test(live), `the live request's answer is swept: ${live}`);

  // An embed with only the view (its chunk imported on demand).
  const embed = await ctx.openPage({ viewport: { width: 700, height: 500 } });
  await embed.page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  await playgroundsReady(embed.page, 6);
  await embed.page.evaluate(() => {
    const el = document.createElement('purgatory-playground');
    for (const [k, v] of Object.entries({ id: 'phases-only', scenario: 's10-multi-partition-request', views: 'phases', controls: 'none' })) el.setAttribute(k, v);
    document.querySelector('main').prepend(el);
    el.scrollIntoView();
  });
  await embed.page.waitForSelector('#phases-only[ready]', { state: 'attached', timeout: 20000 });
  await embed.page.waitForFunction(() => /all 15,000 phases run/.test(document.getElementById('phases-only').shadowRoot.querySelector('[data-testid="phase-progress"]')?.textContent ?? ''), null, { timeout: 90000 });
  const rows = await embed.page.$$eval('#phases-only >> [data-testid="phase-row"]', (els) => els.map((e) => `${e.dataset.request}: ${e.querySelector('p').textContent}`));
  ctx.assert(rows.length === 3 && /p1-one-done-one-times-out: p1-one-done-one-times-out depends on the phase/.test(rows[0]) && rows.slice(1).every((r) => /the same at every phase/.test(r)), `s10: only p1 depends on the phase: ${JSON.stringify(rows)}`);
  // The race scenario in an element of its own, the view beside the responses.
  await embed.page.evaluate(() => {
    const el = document.createElement('purgatory-playground');
    for (const [k, v] of Object.entries({ id: 'race', scenario: 'x12-stalled-follower-race-on-kafka-defaults', views: 'responses,phases', controls: 'minimal' })) el.setAttribute(k, v);
    document.querySelector('main').prepend(el);
    el.scrollIntoView();
  });
  await embed.page.waitForSelector('#race[ready]', { state: 'attached', timeout: 20000 });
  await embed.page.waitForFunction(() => /all 15,000 phases run/.test(document.getElementById('race').shadowRoot.querySelector('[data-testid="phase-progress"]')?.textContent ?? ''), null, { timeout: 90000 });
  const raceSegments = await embed.page.$$eval('#race >> .panel.phases .seg', (els) => els.map((e) => e.getAttribute('aria-label')));
  ctx.assert(raceSegments.length === 3 && raceSegments.some((l) => /NONE for φ 4,519 to 12,489/.test(l)), `x12 in an element splits as its sweep: ${JSON.stringify(raceSegments)}`);
  await embed.page.evaluate(() => document.getElementById('race').scrollIntoView());
  await ctx.screenshot(embed.page, 'phases-x12-element', { fullPage: false });
  // Whose beat decides: the leader's (broker 0) splits p1 as every broker's does; a follower's
  // alone changes nothing (as `purgatory sweep x12 --broker 1`: NONE at 38,010 at every φ).
  const raceDone = () => embed.page.waitForFunction(() => /all 15,000 phases run/.test(document.getElementById('race').shadowRoot.querySelector('[data-testid="phase-progress"]')?.textContent ?? ''), null, { timeout: 90000 });
  const raceRow = () => embed.page.$eval('#race >> [data-testid="phase-row"]', (e) => e.textContent.replace(/\s+/g, ' '));
  await embed.page.selectOption('#race >> [data-testid="phase-broker"]', '1');
  await raceDone();
  const follower = await raceRow();
  ctx.assert(/the same at every phase/.test(follower) && /NONE: φ 0-14,999 \(100\.0%\), answered at 38,010 ms/.test(follower), `broker 1's ISR check alone decides nothing: ${follower}`);
  ctx.assert(/Only broker 1’s beat moves here/.test(await embed.page.textContent('#race >> .phases-body p.muted')), 'the view says whose beat moves');
  await embed.page.selectOption('#race >> [data-testid="phase-broker"]', '0');
  await raceDone();
  const leader = await raceRow();
  ctx.assert(/depends on the phase/.test(leader) && /NONE: φ 4,519-12,489/.test(leader), `broker 0's, the leader's, splits p1: ${leader}`);
  // A segment opens the run with broker 0's check moved there, the others' where they were.
  await embed.page.click('#race >> .panel.phases .seg.ok');
  await embed.page.waitForFunction(() => /^broker 0’s ISR check at φ = /.test(document.getElementById('race').app?.source?.label ?? ''));
  const byZero = await embed.page.evaluate(() => JSON.parse(document.getElementById('race').app.sim.exportSession(false)).phases);
  ctx.assert(JSON.stringify(byZero) === '{"isr_check_ms":[8504,8000,8000]}', `only broker 0's phase moved: ${JSON.stringify(byZero)}`);
  ctx.assertNoErrors(embed.errors, 'phases in an embed');

  // A live session on a phase of one's own, from the Setup form: a value out of the contract's
  // range is refused with its message and changes nothing; a good one starts the session there,
  // and the Phases view and the form show it.
  await page.goto(`${ctx.baseURL}`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.click('button[data-menu="setup"]');
  await page.fill('#f-isr_check_ms', '15000');
  await page.click('.setup-form button[type="submit"]');
  await waitText(page, '.setup-error', /ISR-check phase/);
  const refused = await page.textContent('.setup-error');
  // Named by the form's own label, not the model's path (setup.phases.isr_check_ms).
  ctx.assert(/^ISR-check phase φ \(ms\): expected an integer from 0 to 14999 .*found 15000$/.test(refused), `φ = 15,000 is out of range, and the form says so: ${refused}`);
  ctx.assert(await onPlayground(page, (el) => JSON.stringify(el.app.sim.setup().phases)) === '{}', 'and the session is unchanged');
  // Said beside its field, which is marked wrong and focused (the form scrolls; its end may be
  // out of sight); reopened, the form is the session's again, without the old error.
  const where = await onPlayground(page, (el) => { const r = el.shadowRoot; return { beside: r.querySelector('.setup-error').closest('.field')?.querySelector('input')?.id, invalid: r.querySelector('.setup-form [aria-invalid="true"]')?.id, focused: r.activeElement?.id }; });
  ctx.assert(where.beside === 'f-isr_check_ms' && where.invalid === 'f-isr_check_ms' && where.focused === 'f-isr_check_ms', `the error stands at its field: ${JSON.stringify(where)}`);
  // What a Kafka broker refuses to start with (KafkaConfig: replica.fetch.wait.max.ms at most
  // replica.lag.time.max.ms), in Kafka's names; a number past 2^53 is said as typed.
  await page.fill('#f-isr_check_ms', '0');
  await page.fill('#f-replica_lag_time_max_ms', '400');
  await page.click('.setup-form button[type="submit"]');
  await waitText(page, '.setup-error', /refuses to start/);
  const start = await page.textContent('.setup-error');
  ctx.assert(start === 'replica.fetch.wait.max.ms: expected an integer from 0 to 400 (at most replica.lag.time.max.ms, or a Kafka broker refuses to start), found 500', `a broker's start check: ${start}`);
  // A negative number is the model's to refuse, in the same words as any value out of range.
  await page.fill('#f-isr_check_ms', '-5');
  await page.click('.setup-form button[type="submit"]');
  await waitText(page, '.setup-error', /found -5/);
  ctx.assert(await page.textContent('.setup-error') === 'ISR-check phase φ (ms): expected an integer from 0 to 199 (replica.lag.time.max.ms / 2 − 1), found -5', `a negative phase: ${await page.textContent('.setup-error')}`);
  await page.fill('#f-isr_check_ms', '0');
  await page.fill('#f-replica_fetch_wait_max_ms', '100000000000000000000');
  await page.click('.setup-form button[type="submit"]');
  await waitText(page, '.setup-error', /the largest whole number the page passes on exactly/);
  ctx.assert((await page.textContent('.setup-error')).includes('100000000000000000000'), 'a huge number is said as typed');
  await page.keyboard.press('Escape');
  await page.click('button[data-menu="setup"]');
  const reopened = await onPlayground(page, (el) => [el.shadowRoot.querySelector('.setup-error').textContent, el.shadowRoot.querySelectorAll('.setup-form [aria-invalid]').length]);
  ctx.assert(reopened[0] === '' && reopened[1] === 0 && await page.inputValue('#f-replica_lag_time_max_ms') === '30000', `reopened, the form is the session's: ${JSON.stringify(reopened)}`);
  ctx.assert(await onPlayground(page, (el) => el.app.sim.setup().config.replica_lag_time_max_ms) === 30000, 'and nothing was applied');
  await page.fill('#f-isr_check_ms', '7300');
  await page.click('.setup-form button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.sim?.setup().phases?.isr_check_ms === 7300, null, { timeout: 10000 });
  await page.locator('.panel.phases').scrollIntoViewIfNeeded();
  await page.waitForSelector('.panel.phases .now', { timeout: 20000 }).catch(() => null);
  const own = await onPlayground(page, (el) => el.app.phases?.ownPhase);
  ctx.assert(own === 7300, `the Phases view marks the session's own φ: ${own}`);
  await page.click('button[data-menu="setup"]');
  ctx.assert(await page.inputValue('#f-isr_check_ms') === '7300', 'the form shows the session\'s phase');
  ctx.log(`refused: ${refused}`);
  await ctx.screenshot(page, 'setup-phases', { fullPage: false });
  await page.keyboard.press('Escape');

  // x12's story ends on the picture of the race: its last caption points at p1's strip, which is
  // on screen and split as the sweep splits it (NONE for φ 4,519-12,489, REQUEST_TIMED_OUT else).
  const race = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await race.page.goto(`${ctx.baseURL}?scenario=x12-stalled-follower-race-on-kafka-defaults&story`, { waitUntil: 'load' });
  await playgroundsReady(race.page);
  const steps = await onPlayground(race.page, (el) => el.app.story.steps);
  for (let i = 1; i < steps.length; i++) {
    await race.page.click('[data-testid="story-next"]');
    await waitText(race.page, '[data-testid="story-progress"]', new RegExp(`^Step ${i + 1} of`), { timeout: 60000 });
  }
  ctx.assert(steps.at(-1).look_at === 'phases' && steps.at(-1).target === 'phases-p1', `the story ends on the Phases view: ${JSON.stringify(steps.at(-1))}`);
  await waitText(race.page, '[data-testid="phase-progress"]', /all 15,000 phases run/, { timeout: 90000 });
  await race.page.waitForTimeout(700); // the smooth scroll to the strip
  const strip = await onPlayground(race.page, (el) => {
    const row = el.shadowRoot.querySelector('[data-story="phases-p1"]');
    const r = row.getBoundingClientRect();
    return { focused: row.classList.contains('story-focus'), onScreen: r.top >= 0 && r.top < innerHeight, shares: row.querySelector('.shares').textContent, edges: [...row.querySelectorAll('.edge-words li')].map((li) => li.textContent) };
  });
  ctx.assert(strip.focused && strip.onScreen, `the last caption shows p1's strip: ${JSON.stringify(strip)}`);
  ctx.assert(/NONE: φ 4,519-12,489 \(53\.1%\), answered 34,529-42,499 ms/.test(strip.shares) && /REQUEST_TIMED_OUT: φ 0-4,518, 12,490-14,999 \(46\.9%\), answered at 42,500 ms/.test(strip.shares), `the split: ${strip.shares}`);
  ctx.assert(JSON.stringify(strip.edges) === JSON.stringify([
    'From φ = 4,519: NONE, answered at 34,529 ms; at φ = 4,518 just before it: REQUEST_TIMED_OUT, answered at 42,500 ms.',
    'From φ = 12,490: REQUEST_TIMED_OUT, answered at 42,500 ms; at φ = 12,489 just before it: NONE, answered at 42,499 ms.',
  ]), `each boundary in words: ${JSON.stringify(strip.edges)}`);
  await ctx.screenshot(race.page, 'phases-x12-story-end', { fullPage: false });
  ctx.assertNoErrors(race.errors, 'x12 story');
}
