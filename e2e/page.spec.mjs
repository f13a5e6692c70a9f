// The live page as a person uses it: acks=all answered NONE once the followers fetched it; both
// followers paused, a request waits in the purgatory and on the wheel, then times out; acks=1 is
// answered at once; acks=2 gets INVALID_REQUIRED_ACKS; bad form input gets an inline message.
import { onPlayground, playgroundsReady, waitText } from './lib.mjs';

const responded = (id, error) => new RegExp(`^${id} acks=.*${error}`);

export default async function pageSpec(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.click('[data-testid="play"]'); // the live session plays on opening: pause it
  // Paused, an action is marked on the timeline at once (not when the clock next runs).
  const marked = () => onPlayground(page, (el) => el.app.timeline.total);
  const marksBefore = await marked();
  await page.click('[data-testid="pause-follower-2"]');
  ctx.assert(await marked() === marksBefore + 1, `the pause is marked at once while paused: ${marksBefore} -> ${await marked()}`);
  await page.click('[data-testid="resume-follower-2"]');

  await page.selectOption('[data-testid="speed"]', '10');
  await page.selectOption('[data-testid="acks"]', 'all');
  await page.click('[data-testid="produce"]');
  await page.click('[data-testid="play"]');
  await waitText(page, '[data-testid="response"]', responded('p1', 'NONE'));
  await page.click('[data-testid="play"]');
  ctx.assert((await page.textContent('[data-testid="hw-t-0"]')) === '10', 'HW of t-0 is 10 after p1');
  const path1 = await page.textContent('[data-testid="panel-codepath"]');
  ctx.assert(/checkAndComplete/.test(path1) && /the HW of t-0 reached 10/.test(path1) && /t-0 NONE/.test(path1), `code path says why p1 completed: ${path1}`);
  await ctx.screenshot(page, 'page-acks-all-none', { fullPage: false });

  // Both followers paused: the request waits in the purgatory and on the wheel.
  await page.click('[data-testid="pause-follower-1"]');
  await page.click('[data-testid="pause-follower-2"]');
  await page.fill('.produce-form input[name=timeout]', '5000');
  await page.click('[data-testid="produce"]');
  for (let i = 0; i < 20 && (await page.textContent('[data-testid="num-delayed-operations"]')) !== '1'; i++) {
    await page.click('[data-testid="step"]'); // the request travels to the leader, event by event
  }
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '1', 'one DelayedProduce waiting');
  ctx.assert((await page.textContent('[data-testid="purgatory-size"]')) === '1', 'PurgatorySize 1');
  ctx.assert(await page.$('[data-testid="panel-wheel"] .bucket.full'), 'the op sits in a wheel bucket');
  const path2 = await page.textContent('[data-testid="panel-codepath"]');
  ctx.assert(/watch on t-0/.test(path2) && /timer: expires at/.test(path2), `code path shows watch and timer: ${path2}`);
  await ctx.screenshot(page, 'page-acks-all-waiting', { fullPage: false });
  await page.selectOption('[data-testid="speed"]', '1000');
  await page.click('[data-testid="play"]');
  await waitText(page, '[data-testid="response"]', responded('p2', 'REQUEST_TIMED_OUT'));
  await page.click('[data-testid="play"]');
  ctx.assert((await page.textContent('[data-testid="num-delayed-operations"]')) === '0', 'nothing waiting after the timeout');
  const path3 = await page.textContent('[data-testid="panel-codepath"]');
  ctx.assert(/onExpiration/.test(path3) && /timer fired/.test(path3) && !/every partition done/.test(path3), `code path says p2's timer fired: ${path3}`);
  // Both followers stay paused until the ISR shrinks to the leader alone, below the page's
  // min.insync.replicas of 2: the partition says its HW is frozen (Kafka 3.7+), which no event does.
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="isr-t-0"]')?.textContent === '{0}', null, { timeout: 30000 });
  await page.click('[data-testid="play"]');
  const frozen = await page.textContent('[data-testid="under-min-isr"]');
  ctx.assert(/under min ISR \(1 < 2\): HW frozen/.test(frozen) && (await page.textContent('[data-testid="hw-t-0"]')) === '10', `an ISR of {0} under min ISR 2 is said to freeze the HW (at 10): ${frozen}`);

  // acks=1: answered at once, at the leader append.
  await page.selectOption('[data-testid="acks"]', '1');
  await page.click('[data-testid="produce"]');
  await page.click('[data-testid="step"]');
  await waitText(page, '[data-testid="response"]', /^p3 acks=1.*NONE.*\(0 ms\)/, { timeout: 5000 });

  // An invalid acks value: INVALID_REQUIRED_ACKS; bad input: an inline message, nothing sent.
  await page.selectOption('[data-testid="acks"]', '2');
  await page.click('[data-testid="produce"]');
  await page.click('[data-testid="step"]');
  await waitText(page, '[data-testid="response"]', responded('p4', 'INVALID_REQUIRED_ACKS'), { timeout: 5000 });
  await page.fill('.produce-form input[name=count]', 'ten');
  await page.click('[data-testid="produce"]');
  ctx.assert((await page.textContent('[data-testid="command-error"]')).includes('Records'), 'a bad record count gets an inline message');
  await page.fill('.produce-form input[name=count]', '10');
  await page.fill('.produce-form input[name=partitions]', '0, 0');
  await page.click('[data-testid="produce"]');
  const dup = await page.textContent('[data-testid="command-error"]');
  ctx.assert(/partition/i.test(dup), `the same partition twice is refused inline: ${dup}`);
  // Typos are refused, not read as something else: "0," is not partition 0, "1e1" not 10 (each
  // message differs from the one before it, so a stale message cannot pass).
  const requests = () => page.locator('li[data-story^="request-"]').count();
  const sent = await requests();
  // Numbers past what the form can say exactly, or past a Java int, are the form's own problems too.
  for (const [field, value, says] of [['partitions', '0,', 'list partition numbers'], ['count', '1e3', 'Records'],
    ['partitions', '99999999999999999999', 'list partition numbers'], ['timeout', '2147483648', 'from 0 to 2,147,483,647'], ['partitions', '1e1', 'list partition numbers']]) {
    await page.fill('.produce-form input[name=count]', '10');
    await page.fill('.produce-form input[name=partitions]', '0');
    await page.fill('.produce-form input[name=timeout]', '');
    await page.fill(`.produce-form input[name=${field}]`, value);
    await page.click('[data-testid="produce"]');
    const said = await page.textContent('[data-testid="command-error"]');
    ctx.assert(said.includes(says), `${field} "${value}" gets an inline message: ${said}`);
    const marked = await page.$$eval('.produce-form [aria-invalid="true"]', (els) => els.map((e) => e.name));
    ctx.assert(JSON.stringify(marked) === JSON.stringify([field]), `the ${field} field alone is marked invalid: ${marked}`);
  }
  // Fixing the marked field takes the mark and the message away.
  await page.fill('.produce-form input[name=partitions]', '0');
  ctx.assert(!(await page.$('.produce-form [aria-invalid]')) && (await page.textContent('[data-testid="command-error"]')) === '', 'an edit clears the mark and its message');
  await page.fill('.produce-form input[name=count]', '10');
  await page.fill('.produce-form input[name=partitions]', '0');
  await page.fill('input[name=burst]', '1e2');
  await page.click('[data-testid="burst"]');
  const burst = await page.textContent('[data-testid="command-error"]');
  ctx.assert(burst.includes('Burst'), `burst "1e2" gets an inline message: ${burst}`);
  await page.click('[data-testid="step"]');
  ctx.assert(await requests() === sent, `no produce was sent for the refused inputs (${sent} requests before)`);
  await page.fill('.produce-form input[name=partitions]', '0');
  await ctx.screenshot(page, 'page-after-acks-1', { fullPage: false });

  // A burst: every request goes, one instant apart, and the newest is the one followed (the
  // followers are saved and drawn once, so a burst of thousands does not hold the page).
  const model = () => onPlayground(page, (el) => ({ now: el.app.sim.nowMs, produces: el.app.sim.actions().filter((a) => a.action === 'produce').length, selected: el.app.selected }));
  const before = await model();
  await page.fill('input[name=burst]', '300');
  await page.click('[data-testid="burst"]');
  const after = await model();
  ctx.assert(after.produces === before.produces + 300 && after.now === before.now + 300, `a burst of 300 sent 300 produces, one per instant: ${JSON.stringify({ before, after })}`);
  const newest = await onPlayground(page, (el) => el.app.sim.actions().filter((a) => a.action === 'produce').at(-1).id);
  ctx.assert(after.selected === newest, `the burst's newest request is selected: ${after.selected} (newest ${newest})`);
  ctx.assert((await page.textContent('[data-testid="command-error"]')) === '', 'no message after a good burst');
  // The log draws its newest lines and says that older ones are left out, and how to reach them.
  await page.waitForFunction(() => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="log-older"]'));
  const older = await page.textContent('[data-testid="log-older"]');
  ctx.assert(/^Only the newest 150 lines are drawn/.test(older), `the log says what it does not draw: ${older}`);

  // Scrolled down, the bar stays on top and a menu it opens shows just below it, on screen.
  await page.mouse.wheel(0, 900);
  await page.waitForFunction(() => scrollY > 300);
  await page.click('[data-testid="legend-open"]');
  const menu = await page.locator('[data-testid="legend"]').boundingBox();
  const bar = await page.locator('.bar[role="toolbar"]').boundingBox();
  ctx.assert(bar.y === 0 && menu && menu.y >= bar.y + bar.height - 1 && menu.y < 200, `the legend opens under the bar while scrolled: ${JSON.stringify({ bar, menu })}`);
  await ctx.screenshot(page, 'page-legend-scrolled', { fullPage: false });
  // Every swatch of the legend is drawn as on its panel (the wire's dots and the purge bar were
  // empty, the watch-list chips unstyled).
  const blank = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('[data-testid="legend"] .sw')]
    .filter((sw) => [...sw.querySelectorAll('*')].every((n) => { const r = n.getBoundingClientRect(); return r.width === 0 || r.height === 0; }))
    .map((sw) => sw.parentElement.textContent.slice(0, 40)));
  ctx.assert(blank.length === 0, `no blank legend swatch: ${JSON.stringify(blank)}`);
  const chips = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('[data-testid="legend"] .op')].map((n) => getComputedStyle(n).borderTopWidth));
  ctx.assert(chips.length === 2 && chips.every((w) => w !== '0px'), `the watch-list chips look as on the panel: ${chips}`);
  const marks = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('[data-testid="legend"] :is(.outcome, .step.current)')]
    .map((n) => (n.classList.contains('outcome') ? getComputedStyle(n).borderLeftWidth : getComputedStyle(n).backgroundColor)));
  ctx.assert(marks.length === 7 && marks.every((v) => v !== '0px' && v !== 'rgba(0, 0, 0, 0)'), `the outcomes and the current step are marked as on their panels: ${marks}`);
  await page.keyboard.press('Escape');
  // A panel's "?" opens the legend at that panel's section, without moving the page (it used to
  // open and close at once).
  await page.locator('.panel.wheel .help').scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => scrollY);
  await page.click('.panel.wheel .help');
  const legend = await onPlayground(page, (el) => {
    const menu = el.shadowRoot.querySelector('[data-testid="legend"]');
    const section = menu.querySelector('[data-section="wheel"]');
    return { hidden: menu.hidden, offset: section && Math.round(section.getBoundingClientRect().top - menu.getBoundingClientRect().top), focus: el.shadowRoot.activeElement?.closest('[data-section]')?.dataset.section };
  });
  ctx.assert(!legend.hidden && legend.offset === 0 && legend.focus === 'wheel', `the wheel's "?" opens the legend at its section: ${JSON.stringify(legend)}`);
  ctx.assert(await page.evaluate(() => scrollY) === scrolled, 'and the page stays where it was');
  await ctx.screenshot(page, 'page-legend-from-wheel', { fullPage: false });
  await page.keyboard.press('Escape');
  // Escape closes a menu whose field has the focus, and hands the focus back to its button.
  for (const name of ['setup', 'breakpoints']) {
    await page.click(`button[data-menu="${name}"]`);
    const inField = await onPlayground(page, (el) => el.shadowRoot.activeElement?.closest('.menu')?.dataset.panel ?? null);
    await page.keyboard.press('Escape');
    const after = await onPlayground(page, (el, n) => ({ hidden: el.shadowRoot.querySelector(`[data-panel="${n}"]`).hidden, focus: el.shadowRoot.activeElement?.dataset.menu ?? null }), name);
    ctx.assert(inField === name && after.hidden && after.focus === name, `Escape closes the ${name} menu from its field: ${JSON.stringify({ inField, after })}`);
  }
  // A stall breakpoint with a value that is not a whole number of ms says so (it was silently off).
  await page.click('button[data-menu="breakpoints"]');
  await page.fill('[data-bp-stall]', 'abc');
  await page.check('[data-testid="breakpoint-hw-stalled"]');
  ctx.assert(/HW stalled for: a whole number/.test(await page.textContent('.bp-error')) && (await page.getAttribute('[data-bp-stall]', 'aria-invalid')) === 'true',
    `a bad stall value is reported and marked: ${await page.textContent('.bp-error')}`);
  await page.fill('[data-bp-stall]', '3000');
  await page.press('[data-bp-stall]', 'Enter');
  ctx.assert((await page.textContent('.bp-error')) === '' && (await page.getAttribute('[data-bp-stall]', 'aria-invalid')) === null, 'a good value clears it');
  await page.uncheck('[data-testid="breakpoint-hw-stalled"]');
  await page.keyboard.press('Escape');
  // min.insync.replicas above the replica count counts as the replica count (Kafka 3.7+): the
  // cluster says so, and acks=all is answered NONE once every replica has the records.
  await page.click('button[data-menu="setup"]');
  await page.fill('#f-min_insync_replicas', '4');
  await page.click('.setup-form button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.sim?.setup().config.min_insync_replicas === 4);
  const capped = await page.textContent('[data-testid="min-isr-capped"]');
  ctx.assert(capped === 'min.insync.replicas 4 counts as 3 here, the replica count (Kafka 3.7+): acks=all needs all 3 replicas in the ISR, not an impossible 4.', `the cap is said: ${capped}`);
  // The leader rebalance is off on the page (0) and can be turned on from the form; a setup
  // without it (the page's defaults) shows it off again.
  await page.click('button[data-menu="setup"]');
  ctx.assert((await page.inputValue('#f-leader_imbalance_check_interval_ms')) === '0', 'the rebalance check is off by default');
  await page.fill('#f-leader_imbalance_check_interval_ms', '300000');
  await page.click('.setup-form button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('purgatory-playground').app?.sim?.setup().config.leader_imbalance_check_interval_ms === 300000);
  await page.click('button[data-menu="setup"]');
  ctx.assert((await page.inputValue('#f-leader_imbalance_check_interval_ms')) === '300000', 'the form shows the setup it made');
  await page.click('.setup-defaults');
  ctx.assert((await page.inputValue('#f-leader_imbalance_check_interval_ms')) === '0', 'the defaults turn it off again');
  await page.keyboard.press('Escape');
  // A request sent to a broker that is down never reaches it: the narration, the log and the
  // code path say so, rather than walking it through appendRecords.
  // Paused, so that the request goes out while the producer's metadata still names broker 0.
  await onPlayground(page, (el) => el.pause());
  await page.selectOption('[data-testid="acks"]', 'all');
  const leader = await onPlayground(page, (el) => el.app.snapshot().controller.partitions[0].leader);
  await page.click(`[data-testid="crash-broker-${leader}"]`);
  await page.click('[data-testid="produce"]');
  await onPlayground(page, (el) => el.step());
  await page.waitForFunction((b) => new RegExp(`never reached broker ${b}`).test(document.querySelector('purgatory-playground').shadowRoot.querySelector('.cp-body')?.textContent ?? ''), leader);
  const refused = await onPlayground(page, (el) => ({
    narration: el.shadowRoot.querySelector('.narration').textContent,
    log: [...el.shadowRoot.querySelectorAll('.log li')].map((li) => li.textContent).join('\n'),
  }));
  ctx.assert(new RegExp(`is sent to broker ${leader}; p\\d+ gets no answer: broker ${leader} is down: the connection is refused`).test(refused.narration), `the narration: ${refused.narration}`);
  ctx.assert(new RegExp(`sent to broker ${leader}, which does not take it`).test(refused.log), `the log: ${refused.log.slice(-300)}`);
  // A seek ahead in a live session goes there (its run computed as playing would), up to the
  // week a run may last, the timeline with it.
  const seeks = await onPlayground(page, (el) => {
    const from = el.nowMs;
    el.seek(from + 12000);
    const ahead = el.nowMs - from;
    el.seek(8 * 86400000);
    return [ahead, el.nowMs];
  });
  ctx.assert(seeks[0] === 12000 && seeks[1] === 604800000, `a live session's seeks: ${seeks}`);
  // A cluster too busy to reach a week in about a second stops short, says so, and plays on from there.
  const busy = await onPlayground(page, async (el) => {
    await el.app.open({ live: { config: { brokers: 64, replica_fetch_wait_max_ms: 0 }, topics: [{ name: 't', partitions: 1024, replication_factor: 3 }] } }, { play: false });
    el.seek(604800000);
    return el.nowMs;
  });
  ctx.assert(busy < 604800000, `a busy week is not computed at once: at ${busy}`);
  await waitText(page, '.notices', /Computing the run to 604,800,000 ms at once would hold the page for long: the playhead is at [\d,]+ ms/);
  await page.waitForTimeout(300);
  ctx.assertNoErrors(errors, 'page');
}
