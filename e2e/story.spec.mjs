// The guided story at human speed: ?scenario=s03…&story opens the scenario's story on its first
// caption; "Next" plays the run at the story pace and holds exactly at the next caption's instant,
// with that caption shown and its panel highlighted; "Back" returns to the previous caption's
// instant; a seek by hand shows the caption of the instant reached; closing hands back the page;
// on a phone the caption stays on screen above the panel it talks about.
import { playgroundsReady, onPlayground, nowMs, waitText } from './lib.mjs';

const S03 = 's03-stalled-follower-completes-at-isr-shrink';

export default async function storySpec(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(`${ctx.baseURL}?scenario=${S03}&story`, { waitUntil: 'load' });
  await playgroundsReady(page);
  const steps = await onPlayground(page, (el) => el.app.story.steps);
  ctx.assert(steps.length >= 4, `s03 has a story: ${steps.length} steps`);
  await waitText(page, '[data-testid="story-progress"]', new RegExp(`^Step 1 of ${steps.length}`));
  ctx.assert((await page.textContent('[data-testid="story-caption"]')) === steps[0].caption, 'the first caption is shown');
  ctx.assert(await nowMs(page) === steps[0].at_ms, `held at the first caption's instant: ${await nowMs(page)}`);
  await ctx.screenshot(page, 'story-step-1', { fullPage: false });

  // The whole story by its Next buttons: each caption at its instant, what it points at on screen.
  const wall0 = Date.now();
  for (let i = 1; i < steps.length; i++) {
    const t0 = Date.now();
    await page.click('[data-testid="story-next"]');
    await waitText(page, '[data-testid="story-progress"]', new RegExp(`^Step ${i + 1} of`), { timeout: 60000 });
    const at = await nowMs(page);
    ctx.assert(at === steps[i].at_ms, `"Next" holds at step ${i + 1}'s instant ${steps[i].at_ms}: ${at}`);
    ctx.assert((await page.textContent('[data-testid="story-caption"]')) === steps[i].caption, `step ${i + 1}'s caption is shown`);
    ctx.assert(!(await onPlayground(page, (el) => el.playing)), 'and the clock holds there');
    if (steps[i].look_at) {
      await page.waitForTimeout(700); // the smooth scroll to the panel
      const seen = await onPlayground(page, (el) => [...el.shadowRoot.querySelectorAll('.story-focus')].map((n) => {
        const r = n.getBoundingClientRect();
        return { what: n.dataset.story, visible: r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth };
      }));
      ctx.assert(seen.some((x) => x.what === `panel-${steps[i].look_at}` && x.visible), `step ${i + 1} marks its panel (${steps[i].look_at}) on screen: ${JSON.stringify(seen)}`);
      if (steps[i].target) ctx.assert(seen.some((x) => x.what === steps[i].target && x.visible), `and its element ${steps[i].target}: ${JSON.stringify(seen)}`);
      // The timeline stays in view under the bar, so the playhead is seen at the caption's instant.
      const head = await onPlayground(page, (el) => {
        const r = el.shadowRoot.querySelector('.tl-head').getBoundingClientRect();
        return { top: Math.round(r.top), bar: Math.round(el.shadowRoot.querySelector('.top').getBoundingClientRect().bottom) };
      });
      ctx.assert(head.top >= head.bar - 1, `step ${i + 1}: the timeline's playhead is on screen below the bar: ${JSON.stringify(head)}`);
    }
    ctx.log(`step ${i + 1} at ${at} ms reached in ${Date.now() - t0} ms wall`);
    if (i === 3) await ctx.screenshot(page, 'story-step-4', { fullPage: false });
  }
  ctx.log(`the whole story by its Next buttons: ${Date.now() - wall0} ms wall`);
  await ctx.screenshot(page, 'story-last-step', { fullPage: false });

  // After the last caption: "Play to the end" plays on and the card says where the run is; Next
  // then goes to the end at once; there the card offers what the end banner does (which would
  // sit under the sticky caption), and Back returns to the last caption.
  const last = steps.length - 1;
  const card = () => onPlayground(page, (el) => {
    const q = (sel) => el.shadowRoot.querySelector(sel);
    return { at: el.nowMs, progress: q('[data-testid="story-progress"]').textContent, next: q('[data-testid="story-next"]').textContent, live: !!q('[data-testid="story-live"]'), banner: !!q('[data-testid="scenario-end"]') };
  });
  ctx.assert((await card()).next === 'Play to the end ▶', 'the last step offers to play to the end');
  await page.click('[data-testid="story-next"]');
  await waitText(page, '[data-testid="story-progress"]', /^After the story · /);
  const playing = await card();
  ctx.assert(playing.next === 'To the end ▶▶' && playing.at < 60000, `playing on after the story: ${JSON.stringify(playing)}`);
  await page.click('[data-testid="story-next"]');
  await waitText(page, '[data-testid="story-progress"]', /the end of the run, 60,000 ms/);
  const end = await card();
  ctx.assert(end.at === 60000 && end.next === 'Story again ↺' && end.live && !end.banner, `at the end the card offers the end's choices: ${JSON.stringify(end)}`);
  await ctx.screenshot(page, 'story-after-the-end', { fullPage: false });
  await page.click('[data-testid="story-back"]');
  await waitText(page, '[data-testid="story-progress"]', new RegExp(`^Step ${last + 1} of`));
  ctx.assert(await nowMs(page) === steps[last].at_ms, `Back from the end returns to the last caption: ${await nowMs(page)}`);

  await page.click('[data-testid="story-back"]');
  await waitText(page, '[data-testid="story-progress"]', new RegExp(`^Step ${last} of`));
  ctx.assert(await nowMs(page) === steps[last - 1].at_ms, `"Back" returns to step ${last}'s instant: ${await nowMs(page)}`);

  // A seek by hand: the story follows to the caption of the instant reached, and the page stays
  // where the reader has it (a drag on the timeline used to scroll it away mid-drag).
  const scrolled = await page.evaluate(() => scrollY);
  await onPlayground(page, (el, at) => el.seek(at), steps[1].at_ms);
  await waitText(page, '[data-testid="story-progress"]', /^Step 2 of/);
  await page.waitForTimeout(700); // what a smooth scroll would take
  // (The caption's new height may move it a line's worth by scroll anchoring; a scroll to the
  // caption's panel moved it 200 px and more.)
  const after = await page.evaluate(() => scrollY);
  ctx.assert(Math.abs(after - scrolled) < 40, `a seek by hand leaves the page where it was: ${scrolled} -> ${after}`);

  // A link copied during the story reopens it at the same caption, paused there; the same link
  // followed in an open page (hashchange) does too.
  await page.click('[data-menu="share"]');
  // The menu opens below the caption, never over its Back / Next / × buttons.
  const overlap = await onPlayground(page, (el) => {
    const r = (sel) => el.shadowRoot.querySelector(sel).getBoundingClientRect();
    return { menu: Math.round(r('[data-panel="share"]').top), card: Math.round(r('.story-card').bottom) };
  });
  ctx.assert(overlap.menu >= overlap.card, `the Share menu opens below the caption: ${JSON.stringify(overlap)}`);
  await page.click('[data-testid="copy-link"]');
  await waitText(page, '.share-out', /characters/);
  const link = page.url();
  ctx.assert(/#scenario=s03[^&]*&t=\d+.*&story=2$/.test(link), `the link names the story's step: ${link}`);
  // Steps 2 and 3 share an instant: a link made at step 3 reopens step 3, not the first caption
  // there; a step that is not a number is refused in words.
  const third = await ctx.openPage();
  await third.page.goto(link.replace(/&story=2$/, '&story=3'), { waitUntil: 'load' });
  await playgroundsReady(third.page);
  await waitText(third.page, '[data-testid="story-progress"]', /^Step 3 of/);
  ctx.assert((await third.page.textContent('[data-testid="story-caption"]')) === steps[2].caption, 'a link at step 3 reopens step 3');
  ctx.assertNoErrors(third.errors, 'a link at step 3');
  await third.page.goto(`${ctx.baseURL}#scenario=${S03}&t=20000&story=two`, { waitUntil: 'load' });
  await playgroundsReady(third.page);
  await waitText(third.page, '.notices', /story step story="two" is not a step number/);
  await third.page.goto('about:blank');
  await third.page.goto(`${ctx.baseURL}#scenario=${S03}&t=20000&story=999`, { waitUntil: 'load' });
  await playgroundsReady(third.page);
  await waitText(third.page, '.notices', new RegExp(`names step 999, but this story has ${steps.length} steps`));
  // A step and an instant that disagree (a link edited by hand): the instant wins, and is said.
  await third.page.goto('about:blank');
  const elsewhere = steps[0].at_ms + 1;
  await third.page.goto(`${ctx.baseURL}#scenario=${S03}&t=${elsewhere}&story=1`, { waitUntil: 'load' });
  await playgroundsReady(third.page);
  await waitText(third.page, '.notices', /names step 1, which is at [\d,]+ ms, but its instant is [\d,]+ ms/);
  ctx.assert(await nowMs(third.page) === elsewhere, `it opens at the link's instant: ${await nowMs(third.page)}`);
  const other = await ctx.openPage();
  await other.page.goto(link, { waitUntil: 'load' });
  await playgroundsReady(other.page);
  await waitText(other.page, '[data-testid="story-progress"]', /^Step 2 of/);
  ctx.assert(await nowMs(other.page) === steps[1].at_ms, `the link reopens the story at step 2's instant: ${await nowMs(other.page)}`);
  ctx.assert((await other.page.textContent('[data-testid="story-caption"]')) === steps[1].caption, 'with step 2\'s caption');
  ctx.assert(!(await onPlayground(other.page, (el) => el.playing)), 'paused there');
  // By keyboard: Enter on Next walks the story with the focus staying on Next (the card is drawn
  // anew at each step, which dropped the focus to the page), and Escape closes it, the focus
  // going to the button that starts it again.
  await other.page.focus('[data-testid="story-next"]');
  await other.page.keyboard.press('Enter');
  await waitText(other.page, '[data-testid="story-progress"]', /^Step 3 of/, { timeout: 60000 });
  const focusOn = () => onPlayground(other.page, (el) => el.shadowRoot.activeElement?.dataset.testid ?? null);
  ctx.assert(await focusOn() === 'story-next', `the focus stays on Next: ${await focusOn()}`);
  await other.page.keyboard.press('Enter');
  await waitText(other.page, '[data-testid="story-progress"]', /^Step 4 of/, { timeout: 60000 });
  ctx.assert(await focusOn() === 'story-next', `and a second Enter reads on: ${await focusOn()}`);
  await other.page.keyboard.press('Escape');
  ctx.assert(await other.page.isHidden('[data-testid="story"]') && await focusOn() === 'story-start', `Escape closes the story, the focus on "Guided story": ${await focusOn()}`);
  const later = steps.findIndex((s) => s.at_ms > steps[1].at_ms); // the first caption of a later instant
  await other.page.evaluate((h) => { location.hash = h; }, link.split('#')[1].replace(/&t=\d+/, `&t=${steps[later].at_ms}`));
  await waitText(other.page, '[data-testid="story-progress"]', new RegExp(`^Step ${later + 1} of`));
  ctx.assert(await nowMs(other.page) === steps[later].at_ms, 'a story link followed in the page opens the story at its caption');
  ctx.assertNoErrors(other.errors, 'a story link');

  // A scenario of one's own (here s03's text under another name) in a session link: the link holds
  // the story too, and reopens it at its caption; the picker names the session, not "Live".
  const mine = await ctx.openPage();
  await mine.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(mine.page);
  await onPlayground(mine.page, async (el, at) => {
    const text = await (await fetch(`scenarios/${'s03-stalled-follower-completes-at-isr-shrink'}.json`)).text();
    await el.app.open({ text: text.replace('"name": "s03', '"name": "my-s03'), label: 'my file' }, { play: false });
    el.app.story.start();
    el.seek(at);
  }, steps[1].at_ms);
  await waitText(mine.page, '[data-testid="story-progress"]', /^Step 2 of/);
  await mine.page.click('[data-menu="share"]');
  await mine.page.click('[data-testid="copy-link"]');
  await waitText(mine.page, '.share-out', /characters/);
  const sessionLink = mine.page.url();
  ctx.assert(/#session=[\w-]+&story=2$/.test(sessionLink), `a session link (its text says the story is open, the step rides beside it): ${sessionLink.slice(0, 80)}…`);
  const again = await ctx.openPage();
  await again.page.goto(sessionLink, { waitUntil: 'load' });
  await playgroundsReady(again.page);
  await waitText(again.page, '[data-testid="story-progress"]', /^Step 2 of/);
  ctx.assert(await nowMs(again.page) === steps[1].at_ms, 'the session link reopens the story at its caption');
  const picked = await onPlayground(again.page, (el) => { const s = el.shadowRoot.querySelector('.scenario-pick'); return s.options[s.selectedIndex].textContent; });
  ctx.assert(/^my-s03.* \(from the link\)$/.test(picked), `the picker names the session: ${picked}`);
  // The same session saved to a file while the story is open, and opened in a fresh page: the
  // story comes back at the same caption.
  const [saved] = await Promise.all([mine.page.waitForEvent('download'), mine.page.click('[data-testid="export-session"]')]);
  const fresh = await ctx.openPage();
  await fresh.page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(fresh.page);
  await fresh.page.click('[data-menu="share"]');
  await fresh.page.setInputFiles('[data-testid="import-session"]', await saved.path());
  await waitText(fresh.page, '[data-testid="story-progress"]', /^Step 2 of/);
  ctx.assert(await nowMs(fresh.page) === steps[1].at_ms, 'a session file saved during the story reopens it at its caption');
  ctx.assertNoErrors([...mine.errors, ...again.errors, ...fresh.errors], 'a session link with a story');
  await page.keyboard.press('Escape'); // the Share menu

  await page.click('[data-testid="story-close"]');
  ctx.assert(await page.isHidden('[data-testid="story"]'), 'the story closes');
  ctx.assert(await page.isVisible('[data-testid="story-start"]'), 'and can be started again from the toolbar');

  // Acting during the story asks first (it drops the run the captions tell), then closes the story
  // and says why, since its captions no longer describe the run.
  await page.click('[data-testid="story-start"]');
  await waitText(page, '[data-testid="story-progress"]', /^Step 1 of/);
  await page.click('[data-testid="pause-follower-1"]');
  await page.click('[data-testid="fork-confirm"]');
  await waitText(page, '.notices', /guided story is closed/);
  ctx.assert(await page.isHidden('[data-testid="story"]'), 'an action closes the story');
  ctx.assertNoErrors(errors, 'story');

  // On a phone the caption stays on screen while the story scrolls to the panel it talks about.
  const phone = await ctx.openPage({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  await phone.page.goto(`${ctx.baseURL}?scenario=${S03}&story`, { waitUntil: 'load' });
  await playgroundsReady(phone.page);
  /** Waits until the story holds at its caption (no longer playing to it). */
  const held = () => phone.page.waitForFunction(() => !/Playing/.test(document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="story-caption"]').textContent), null, { timeout: 60000 });
  for (let step = 2; step <= 3; step++) {
    await phone.page.click('[data-testid="story-next"]');
    await waitText(phone.page, '[data-testid="story"]', new RegExp(`Step ${step} of`), { timeout: 60000 });
    await held();
    const seen = await onPlayground(phone.page, (el) => {
      const box = (n) => { const r = n.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom) }; };
      return { caption: box(el.shadowRoot.querySelector('[data-testid="story-caption"]')), focus: box([...el.shadowRoot.querySelectorAll('.story-focus')].at(-1)), height: innerHeight };
    });
    ctx.assert(seen.caption.top >= 0 && seen.caption.bottom <= seen.height && seen.focus.top >= seen.caption.bottom && seen.focus.top < seen.height,
      `step ${step} on a phone: the caption on screen and its panel below it: ${JSON.stringify(seen)}`);
  }
  await ctx.screenshot(phone.page, 'story-phone-step-3', { fullPage: false });
  // Next while the run plays to a caption goes there at once (step 5 is 17 s of run away).
  await phone.page.click('[data-testid="story-next"]');
  await waitText(phone.page, '[data-testid="story"]', /Step 4 of/, { timeout: 60000 });
  await held();
  await phone.page.click('[data-testid="story-next"]');
  ctx.assert(/Playing to 37,300 ms/.test(await phone.page.textContent('[data-testid="story-caption"]')), 'the first Next plays towards step 5');
  await phone.page.click('[data-testid="story-next"]');
  const skipped = await onPlayground(phone.page, (el) => ({ at: el.nowMs, progress: el.shadowRoot.querySelector('.story-progress').textContent }));
  ctx.assert(skipped.at === 37300 && /Step 5 of/.test(skipped.progress), `the second Next went to step 5 at once: ${JSON.stringify(skipped)}`);
  ctx.assertNoErrors(phone.errors, 'story on a phone');
}
