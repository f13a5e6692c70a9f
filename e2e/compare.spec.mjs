// What if? (issue 26) As a person uses it: on the page, "Compare…" on s03 with acks=1 shows the
// second run beside the first, says where they part (20,000 ms: acks=1 is answered at once, acks=all
// waits in the purgatory), seeks there, and tables what p1 got in each; both runs move on one
// clock. A link reopens the comparison; x13 against acks=all marks the acknowledged-but-lost row;
// an embedded element takes `compare="acks=1"`; a bad change is refused with its reason. The three
// curated what-ifs play their guided stories to the end, each caption's compare target on screen.
import { playgroundsReady, onPlayground, waitText, nowMs, trapModel } from './lib.mjs';

const S03 = 's03-stalled-follower-completes-at-isr-shrink';

/** Three curated stories read to their ends at the story pace, holding at both runs' moments. */
export const timeoutMs = 240000;

export default async function compareSpec(ctx) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${ctx.baseURL}?scenario=${S03}`, { waitUntil: 'load' });
  await playgroundsReady(page);

  // A change that does not apply is refused in the form, and nothing starts.
  await page.getByTestId('compare-open').click();
  await page.getByTestId('compare-what').selectOption('min.insync.replicas');
  await page.getByTestId('compare-value').fill('0');
  await page.getByTestId('compare-apply').click();
  await waitText(page, '[data-testid="compare-error"]', /^with min\.insync\.replicas=0: config\.min_insync_replicas: /);
  ctx.assert(await page.getByTestId('compare-view').isHidden(), 'a refused change opens no comparison');

  // The lag time offered fits s03's ISR-check phase (7,300 ms: the check period must be longer),
  // and a change of a setting shows no action to pick.
  await page.getByTestId('compare-what').selectOption('replica.lag.time.max.ms');
  const lagOffered = await page.getByTestId('compare-value').inputValue();
  ctx.assert(lagOffered === '15000', `the form offers a lag time the phase fits: ${lagOffered}`);
  ctx.assert(await page.getByTestId('compare-action').isHidden(), 'no action to pick for a setting');

  // acks=1 against s03 as written.
  await page.getByTestId('compare-what').selectOption('acks');
  const offered = await page.getByTestId('compare-value').inputValue();
  ctx.assert(offered === '1', `the form offers the other acks: ${offered}`);
  await page.getByTestId('compare-apply').click();
  await waitText(page, '[data-testid="divergence"]', /At 20,000 ms the runs part/);
  const said = await page.textContent('[data-testid="divergence"]');
  ctx.assert(/In A \(as written\), p1 waits in the purgatory/.test(said) && /in B \(every request with acks=1\), p1: delayedProduceRequestRequired is false \(acks=1: respond at once\)/.test(said),
    `the divergence is said in words: ${said}`);
  const rows = await page.$$eval('[data-testid="outcomes"] tbody tr', (trs) => trs.map((tr) => [tr.dataset.request, tr.className, ...[...tr.querySelectorAll('td')].map((td) => td.textContent.trim())]));
  ctx.assert(JSON.stringify(rows) === JSON.stringify([['p1', 'differs', 'NONE at 37,310 ms · offset 0', 'NONE at 20,000 ms · offset 0', '≠ differs']]), `the outcome table: ${JSON.stringify(rows)}`);
  ctx.assert(await page.locator('.run-b [data-testid="b-panel-cluster"]').isVisible(), 'the second run has its own views');

  // Seek to the divergence: both runs stand at 20,000 ms; p1 waits in A's purgatory, not in B's.
  await page.getByTestId('divergence-seek').click();
  const at = await onPlayground(page, (el) => [el.app.sim.nowMs, el.app.comparison.twin.sim.nowMs,
    el.app.snap.purgatory?.brokers?.reduce?.((n, b) => n + (b.num_delayed_operations ?? 0), 0) ?? null]);
  ctx.assert(at[0] === 20000 && at[1] === 20000, `both runs at the divergence: ${JSON.stringify(at)}`);
  await ctx.screenshot(page, 'compare-s03-acks1', { fullPage: false });

  // One clock: a step and a seek move both.
  await page.getByTestId('step').click();
  const stepped = await onPlayground(page, (el) => [el.app.sim.nowMs, el.app.comparison.twin.sim.nowMs]);
  ctx.assert(stepped[0] === stepped[1] && stepped[0] >= 20000, `a step moves both: ${stepped}`);
  await onPlayground(page, (el) => el.app.playback.seek(40000));
  const sought = await onPlayground(page, (el) => [el.app.sim.nowMs, el.app.comparison.twin.sim.nowMs]);
  ctx.assert(sought[0] === 40000 && sought[1] === 40000, `a seek moves both: ${sought}`);
  const marks = await page.$$eval('[data-testid="tl-divergence"]', (els) => els.map((e) => e.dataset.at));
  ctx.assert(JSON.stringify(marks) === '["20000"]', `the timeline marks the divergence: ${marks}`);

  // A hold at a key moment (speed auto) keeps the clock playing but still. The second run's last
  // follow may come too soon after its last full draw for its slow panels (purgatory, responses):
  // they are drawn all the same during the hold, not left as they were before the instant.
  await onPlayground(page, (el) => el.app.playback.seek(19990));
  await onPlayground(page, (el) => {
    el.app.comparison.twin.lastSlow = performance.now() + 1000; // no full draw in follow's frames
    el.app.playback.setPlaying(true);
  });
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app.sim.nowMs === 20000, null, { timeout: 10000 });
  await page.waitForTimeout(1500);
  const held = await onPlayground(page, (el) => ({ at: el.app.sim.nowMs, speed: el.shadowRoot.querySelector('[data-testid="speed-now"]')?.textContent,
    b: el.app.comparison.twin.root.querySelector('.panel.responses').textContent.replace(/\s+/g, ' ') }));
  await onPlayground(page, (el) => el.app.playback.setPlaying(false));
  ctx.assert(held.at === 20000 && /holding/.test(held.speed), `the run holds at 20,000 ms: ${JSON.stringify(held)}`);
  ctx.assert(/p1 acks=1 → broker 0: t-0 NONE answered at 20,000 ms/.test(held.b), `during the hold, B's responses show p1 answered: ${held.b}`);

  // The story pace holds at the second run's own moments too: with replica.lag.time.max.ms 20,000
  // in B the runs part at 27,300 ms (B's ISR check asks for the shrink), where A has nothing to
  // mark; playing at speed auto from 26,000 ms stops there.
  const lag = await onPlayground(page, async (el) => {
    await el.app.comparison.onOpen('replica.lag.time.max.ms=20000');
    el.app.playback.seek(26000);
    el.app.playback.setPlaying(true);
    return el.app.comparison.report?.divergence?.at_ms;
  });
  ctx.assert(lag === 27300, `with the lag at 20,000 in B, the runs part at 27,300 ms: ${lag}`);
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app.sim.nowMs >= 27300, null, { timeout: 20000 });
  await page.waitForTimeout(500); // the hold starts with the frame after the instant
  const partHold = await onPlayground(page, (el) => ({ at: el.app.sim.nowMs, b: el.app.comparison.twin.sim.nowMs, speed: el.shadowRoot.querySelector('[data-testid="speed-now"]')?.textContent }));
  await onPlayground(page, (el) => el.app.playback.setPlaying(false));
  ctx.assert(partHold.at === 27300 && partHold.b === 27300 && /holding/.test(partHold.speed), `the pace holds where the runs part: ${JSON.stringify(partHold)}`);
  await onPlayground(page, (el) => el.app.comparison.onOpen('acks=1'));

  // Breakpoints act on both runs: "a request is answered" stops at B's answer (20,000 ms), which
  // comes long before A's (37,310).
  await onPlayground(page, (el) => el.app.playback.seek(19000));
  await page.click('[data-menu="breakpoints"]');
  await page.click('[data-testid="breakpoint-answered"]');
  await page.keyboard.press('Escape');
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => !document.querySelector('purgatory-playground').playing, null, { timeout: 30000 });
  const stopped = await onPlayground(page, (el) => [el.app.sim.nowMs, el.app.comparison.twin.sim.nowMs]);
  ctx.assert(stopped[0] === 20000 && stopped[1] === 20000, `B's answer stops both runs: ${stopped}`);
  await waitText(page, '.notices', /Breakpoint: in run B, /);
  await page.click('[data-menu="breakpoints"]');
  await page.click('[data-testid="breakpoint-answered"]');
  await page.keyboard.press('Escape');

  // The link carries the comparison; opened afresh it compares again.
  await page.click('[data-menu="share"]');
  await page.click('[data-testid="copy-link"]');
  await page.waitForFunction(() => location.hash.includes('compare='));
  const link = await page.evaluate(() => location.href);
  ctx.assert(/compare=acks%3D1/.test(link), `the link names the change: ${link}`);
  const again = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await again.page.goto(link, { waitUntil: 'load' });
  await playgroundsReady(again.page);
  await waitText(again.page, '[data-testid="divergence"]', /At 20,000 ms the runs part/);
  ctx.assertNoErrors(again.errors, 'a compare link');

  // Step and the marker buttons stop at the second run's moments too: with timeout_ms=5000, B's
  // p1 times out at 25,000 ms, an instant at which A traces nothing.
  const short = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await short.page.goto(`${ctx.baseURL}#scenario=${S03}&t=24990&compare=timeout_ms%3D5000`, { waitUntil: 'load' });
  await playgroundsReady(short.page);
  await waitText(short.page, '[data-testid="divergence"]', /runs part/);
  const both = () => onPlayground(short.page, (el) => [el.app.sim.nowMs, el.app.comparison.twin.sim.nowMs]);
  await short.page.getByTestId('step').click();
  const stepB = await both();
  ctx.assert(stepB[0] === 25000 && stepB[1] === 25000, `a step stops at B's timeout: ${stepB}`);
  await onPlayground(short.page, (el) => el.app.playback.stepBack());
  const backB = await both();
  ctx.assert(backB[0] < 25000 && backB[0] === backB[1], `a step back leaves it: ${backB}`);
  await onPlayground(short.page, (el) => el.app.playback.seek(24990));
  await onPlayground(short.page, (el) => el.app.playback.jumpMarker(1));
  const markB = await both();
  ctx.assert(markB[0] === 25000 && markB[1] === 25000, `the next marked moment is B's timeout: ${markB}`);
  ctx.assertNoErrors(short.errors, 'stepping a comparison');

  // Stop comparing: the second run goes.
  await page.keyboard.press('Escape'); // the share menu closes
  await page.getByTestId('compare-end').click();
  ctx.assert(await page.getByTestId('compare-view').isHidden() && await page.locator('.run-b').isHidden(), 'stopping removes the second run');
  ctx.assertNoErrors(errors, 'compare on the page');

  // A live session: compared up to the playhead, and again after each action.
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(page);
  await onPlayground(page, (el) => { el.pause(); el.command({ action: 'pause_follower', broker: 2 }); el.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: 0, count: 10 }] }); el.app.playback.advance(3000, false); });
  await page.click('[data-menu="compare"]');
  await page.getByTestId('compare-what').selectOption('acks');
  await page.getByTestId('compare-value').fill('1');
  await page.getByTestId('compare-apply').click();
  await waitText(page, '[data-testid="compare-view"]', /A live session: both runs compared up to/);
  ctx.assert((await page.$$('[data-testid="outcomes"] tbody tr')).length === 1, 'one request compared');
  await onPlayground(page, (el) => el.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: 0, count: 5 }] }));
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelectorAll('[data-testid="outcomes"] tbody tr').length === 2);
  const live = await onPlayground(page, (el) => [el.app.sim.nowMs, el.app.comparison.twin.sim.nowMs, el.app.comparison.twin.sim.actions().filter((a) => a.action === 'produce').map((a) => a.acks)]);
  ctx.assert(live[0] === live[1] && JSON.stringify(live[2]) === '[1,1]', `the second run took the new request, with acks=1, at the same instant: ${JSON.stringify(live)}`);
  ctx.assertNoErrors(errors, 'compare in a live session');

  // x13 against acks=all: the acknowledged acks=1 records are lost in A only, marked in words.
  await page.goto(`${ctx.baseURL}?scenario=x13-acks1-acknowledged-then-lost#scenario=x13-acks1-acknowledged-then-lost&t=0&compare=acks%3Dall`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await waitText(page, '[data-testid="divergence"]', /At 1,000 ms the runs part/);
  const lost = await page.$$eval('[data-testid="lost"]', (trs) => trs.map((tr) => [tr.dataset.request, tr.querySelector('td.lost')?.textContent.trim()]));
  ctx.assert(lost.length === 1 && lost[0][0] === 'p1-acks-1' && /NONE at 1,000 ms · offset 0 · LOST at 9,003 ms/.test(lost[0][1]), `the lost row: ${JSON.stringify(lost)}`);
  await ctx.screenshot(page, 'compare-x13-lost', { fullPage: false });

  // An embedded element with compare="acks=1".
  const embed = await ctx.openPage({ viewport: { width: 900, height: 900 } });
  await embed.page.goto(`${ctx.baseURL}docs/`, { waitUntil: 'load' });
  await playgroundsReady(embed.page, 6);
  await embed.page.evaluate((name) => {
    const el = document.createElement('purgatory-playground');
    for (const [k, v] of Object.entries({ id: 'what-if', scenario: name, compare: 'acks=1', views: 'timeline,narration,cluster,purgatory' })) el.setAttribute(k, v);
    document.querySelector('main').prepend(el);
  }, S03);
  await embed.page.waitForFunction(() => document.getElementById('what-if')?.shadowRoot?.querySelector('[data-testid="divergence"]')?.textContent.includes('20,000 ms'), null, { timeout: 30000 });
  const twinViews = await embed.page.evaluate(() => [...document.getElementById('what-if').shadowRoot.querySelectorAll('.run-b .panel')].map((p) => p.dataset.testid));
  ctx.assert(JSON.stringify(twinViews) === JSON.stringify(['b-panel-cluster', 'b-panel-purgatory']), `the embed's second run shows its views: ${twinViews}`);
  // A bad attribute is said in the element, and the run plays alone.
  await embed.page.evaluate(() => document.getElementById('what-if').setAttribute('compare', 'acks=7'));
  await embed.page.waitForFunction(() => /acks: `7` is not 0, 1 or all/.test(document.getElementById('what-if').shadowRoot.querySelector('.notices')?.textContent ?? ''));
  ctx.assertNoErrors(embed.errors, 'compare in an element');

  // The curated what-ifs: each opens comparing, and its story reads to the end by Next.
  for (const [name, divergedAt] of [['w01-acks1-against-all-leader-crash', '1,000'], ['w02-min-isr-1-against-2-with-a-follower-down', '12,000'], ['w03-request-early-against-late-in-a-stall', '1,000']]) {
    const story = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
    const p = story.page;
    await p.goto(`${ctx.baseURL}?scenario=${name}&story`, { waitUntil: 'load' });
    await playgroundsReady(p);
    await waitText(p, '[data-testid="divergence"]', new RegExp(`At ${divergedAt} ms the runs part`));
    const steps = await onPlayground(p, (el) => el.app.story.steps);
    for (let i = 1; i < steps.length; i++) {
      await p.click('[data-testid="story-next"]');
      await waitText(p, '[data-testid="story-progress"]', new RegExp(`^Step ${i + 1} of`), { timeout: 60000 });
      const at = await nowMs(p);
      ctx.assert(at === steps[i].at_ms, `${name}: step ${i + 1} holds at ${steps[i].at_ms}: ${at}`);
      const twinAt = await onPlayground(p, (el) => el.app.comparison.twin.sim.nowMs);
      ctx.assert(twinAt === at, `${name}: run B is at the same instant: ${twinAt}`);
      if (steps[i].look_at === 'compare') {
        await p.waitForTimeout(700); // the smooth scroll to the panel
        const seen = await onPlayground(p, (el) => [...el.shadowRoot.querySelectorAll('.story-focus')].map((n) => {
          const r = n.getBoundingClientRect();
          return { what: n.dataset.story, visible: r.height > 0 && r.bottom > 0 && r.top < innerHeight };
        }));
        ctx.assert(seen.some((x) => x.what === steps[i].target && x.visible), `${name}: step ${i + 1} shows ${steps[i].target}: ${JSON.stringify(seen)}`);
      }
    }
    await ctx.screenshot(p, `compare-story-${name.slice(0, 3)}`, { fullPage: false });
    ctx.assertNoErrors(story.errors, `${name}'s story`);
  }

  // The story tells its scenario's own what-if: started after another one (or none), it compares
  // with its own again and says so.
  {
    const w01 = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
    const p = w01.page;
    await p.goto(`${ctx.baseURL}#scenario=w01-acks1-against-all-leader-crash`, { waitUntil: 'load' });
    await playgroundsReady(p);
    await waitText(p, '[data-testid="divergence"]', /At 1,000 ms the runs part/);
    await onPlayground(p, (el) => el.app.comparison.end());
    await p.click('[data-testid="story-start"]');
    await waitText(p, '.notices', /The story tells this scenario’s own what-if: run B is acks=all again/);
    const back = await onPlayground(p, (el) => ({ active: el.app.comparison.active, change: el.app.comparison.change }));
    ctx.assert(back.active && back.change === 'acks=all', `the story's what-if is back: ${JSON.stringify(back)}`);
    ctx.assertNoErrors(w01.errors, 'the story after its what-if was stopped');
  }

  // Both runs stopping at a breakpoint in one instant: one notice says both.
  {
    const w03 = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
    const p = w03.page;
    await p.goto(`${ctx.baseURL}#scenario=w03-request-early-against-late-in-a-stall&t=37000`, { waitUntil: 'load' });
    await playgroundsReady(p);
    await waitText(p, '[data-testid="divergence"]', /the runs part/);
    await p.click('button[data-menu="breakpoints"]');
    await p.check('[data-testid="breakpoint-isr-change"]');
    await p.keyboard.press('Escape');
    await onPlayground(p, (el) => el.play());
    await waitText(p, '.notice.bp', /at 37,310 ms/, { timeout: 60000 });
    const said = await onPlayground(p, (el) => el.shadowRoot.querySelector('.notice.bp').textContent);
    ctx.assert(/^Breakpoint: the ISR of t-0 was committed as \{0, 1\}; in run B, the ISR of t-0 was committed as \{0, 1\} \(at 37,310 ms\)/.test(said), `one notice for both runs: ${said}`);
    ctx.assertNoErrors(w03.errors, 'breakpoints in both runs');
  }

  // A trap while comparing: the first run is rebuilt on a fresh instance and the second with it,
  // both at the same instant.
  const trap = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await trap.page.goto(`${ctx.baseURL}#scenario=${S03}&t=25000&compare=acks%3D1`, { waitUntil: 'load' });
  await playgroundsReady(trap.page);
  await waitText(trap.page, '[data-testid="divergence"]', /At 20,000 ms the runs part/);
  const recovered = trap.page.evaluate(() => new Promise((resolve) => document.querySelector('purgatory-playground').addEventListener('recovered', (e) => resolve(e.detail), { once: true })));
  await trapModel(trap.page);
  await recovered;
  await waitText(trap.page, '.notices', /Recovered: the session was rebuilt/);
  const rebuilt = await onPlayground(trap.page, (el) => ({ a: el.app.sim.nowMs, b: el.app.comparison.twin?.sim.nowMs, same: el.app.comparison.twin?.model === el.app.model, change: el.app.comparison.change }));
  ctx.assert(rebuilt.a === 25000 && rebuilt.b === 25000 && rebuilt.same && rebuilt.change === 'acks=1', `both runs rebuilt on the fresh instance: ${JSON.stringify(rebuilt)}`);
  await waitText(trap.page, '[data-testid="divergence"]', /At 20,000 ms the runs part/);
}
