// Hostile markup through every way a string enters the page, in every string field of the
// scenario format: nothing runs, no element is injected, and the text shows literally where it is
// shown. The pages are opened with their CSP bypassed, so that the escaping of www/html.js is the
// only wall under test (switch its escaping off and this spec fails); a last check opens the
// attacker's link under the real CSP and Trusted Types, which the page works under unchanged.
//
// The ways in: a #session= link packed as Share packs it, a session file opened from the Share
// menu, ?scenario=, a #scenario= link's request, and on an author's page the element's scenario
// and src attributes and an inline scenario. The fields: the scenario's name, a produce's topics
// (a topic that cannot exist, answered UNKNOWN_TOPIC_OR_PARTITION), an elect_leader's topic (the
// action is ignored, its reason naming the topic), story captions and targets, and the refused
// ones (topic names, request ids, the session extension's scenario and selected request) whose
// error quotes them.
import { deflateRawSync } from 'node:zlib';
import { playgroundsReady, onPlayground, waitText } from './lib.mjs';

/** Markup that would add an element carrying `data-pwned` and run script, were it inserted. */
const payload = (tag) => `<img data-pwned="${tag}" src=x onerror="(window.__pwned ??= []).push('${tag}')"><b data-pwned="${tag}">${tag}</b>`;

const P = {
  name: payload('name'),
  topic: payload('topic'),
  onlyUnknown: payload('only-unknown'),
  elect: payload('elect'),
  caption: payload('caption'),
  target: '<b data-pwned="target">T</b>', // a target is at most 80 characters
};

/** A scenario with hostile markup in every free string field it may hold. */
function hostileScenario() {
  return {
    name: P.name,
    seed: 1,
    config: { brokers: 3, min_insync_replicas: 2 },
    topics: [{ name: 't', partitions: 1, replication_factor: 3 }],
    actions: [
      { at_ms: 0, action: 'pause_follower', broker: 2 },
      { at_ms: 5, action: 'produce', id: 'p1', acks: -1, records: [{ topic: 't', partition: 0, count: 2 }] },
      // One known and one unknown partition: the unknown one is rejected with its topic named.
      { at_ms: 10, action: 'produce', id: 'p2', acks: -1, records: [{ topic: P.topic, partition: 0, count: 1 }, { topic: 't', partition: 0, count: 1 }] },
      // Only unknown partitions: KafkaApis answers without appendRecords (the code path says so).
      { at_ms: 12, action: 'produce', id: 'p3', acks: 1, records: [{ topic: P.onlyUnknown, partition: 3, count: 1 }] },
      { at_ms: 15, action: 'elect_leader', topic: P.elect, partition: 0, broker: 1 },
    ],
    story: [
      { at_ms: 0, caption: `${P.caption} (first)`, look_at: 'cluster', target: P.target },
      { at_ms: 20, caption: P.caption, look_at: 'codepath', request: 'p2' },
    ],
    run_until_ms: 100,
  };
}

const base64url = (bytes) => Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** The #session= fragment the page's Share makes for a scenario text. */
const sessionLink = (baseURL, doc) => `${baseURL}#session=${base64url(deflateRawSync(Buffer.from(JSON.stringify(doc))))}`;

/**
 * What the document and every shadow root hold: the elements carrying data-pwned, the <img>
 * elements, whether any hostile script ran, and all the text a person can read.
 */
function inspect(page) {
  return page.evaluate(() => {
    const roots = [document];
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    const all = (sel) => roots.flatMap((r) => [...r.querySelectorAll(sel)]);
    return {
      injected: all('[data-pwned]').map((e) => e.outerHTML.slice(0, 80)),
      images: all('img').length,
      ran: window.__pwned ?? [],
      text: roots.map((r) => (r === document ? document.body.innerText : [...r.children].map((c) => c.textContent).join(' '))).join('\n'),
    };
  });
}

async function checkClean(ctx, page, what) {
  const seen = await inspect(page);
  ctx.assert(seen.ran.length === 0, `${what}: hostile script ran: ${seen.ran.join(', ')}`);
  ctx.assert(seen.injected.length === 0 && seen.images === 0, `${what}: hostile markup became elements: ${seen.injected.join(' | ')} (${seen.images} img)`);
  return seen.text;
}

function assertShown(ctx, text, hostile, where) {
  ctx.assert(text.includes(hostile), `${where}: the text ${JSON.stringify(hostile.slice(0, 50))}… is shown literally`);
}

/** Plays the open session to its end and walks the views that show the strings. */
async function walk(ctx, page) {
  // The element's seek computes the run there first (the page computes it ahead between frames,
  // which a loaded machine may not have done yet).
  await onPlayground(page, (el) => { el.seek(100); el.app.refresh(); });
  await page.waitForFunction(() => document.querySelector('purgatory-playground').nowMs >= 100);
  for (const id of ['p2', 'p3']) {
    await onPlayground(page, (el, r) => { el.app.select(r); el.app.refresh(); }, id);
    const code = await page.textContent('.cp-body');
    ctx.assert(code.includes(id === 'p2' ? P.topic : P.onlyUnknown), `the code path of ${id} names its unknown topic literally: ${code.slice(0, 300)}`);
  }
}

export default async function hostileSpec(ctx) {
  const doc = hostileScenario();

  // 1. The attacker's link, opened on the page.
  {
    const { page, errors } = await ctx.openPage({ bypassCSP: true });
    await page.goto(sessionLink(ctx.baseURL, doc), { waitUntil: 'load' });
    await playgroundsReady(page);
    await checkClean(ctx, page, 'session link, on opening');
    await walk(ctx, page);
    const text = await checkClean(ctx, page, 'session link, after the run');
    for (const field of ['topic', 'onlyUnknown', 'elect']) assertShown(ctx, text, P[field], `session link: ${field}`);
    const log = await page.textContent('.log-lines');
    ctx.assert(log.includes(P.elect) && log.includes(P.topic), 'the event log shows the ignored election\'s topic and the rejected topic as text');
    const responses = await page.textContent('.resp-list');
    ctx.assert(responses.includes(P.topic), `responses name the unknown topic as text: ${responses.slice(0, 200)}`);
    // The scenario's name, where the picker names the opened session.
    const picked = await page.textContent('[data-testid="scenario-pick"]');
    ctx.assert(picked.includes(P.name) || (await inspect(page)).text.includes(P.name), 'the scenario name is shown as text');
    // The story: its captions and a target that matches no element.
    await onPlayground(page, (el) => { el.app.playback.seek(0); el.app.story.start(); });
    await page.waitForSelector('[data-testid="story-caption"]');
    ctx.assert((await page.textContent('[data-testid="story-caption"]')).includes(P.caption), 'the first caption shows literally');
    await page.click('[data-testid="story-next"]');
    await page.waitForFunction((c) => document.querySelector('purgatory-playground').shadowRoot.querySelector('[data-testid="story-caption"]')?.textContent === c, P.caption);
    await checkClean(ctx, page, 'story');
    await ctx.screenshot(page, 'hostile-session-link', { fullPage: false });
    ctx.assertNoErrors(errors.filter((e) => !/HTTP 404|request failed/.test(e)), 'session link');
  }

  // 2. The same session as a file opened from the Share menu.
  {
    const { page, errors } = await ctx.openPage({ bypassCSP: true });
    await page.goto(ctx.baseURL, { waitUntil: 'load' });
    await playgroundsReady(page);
    await page.setInputFiles('[data-testid="import-session"]', { name: `${P.name}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await page.waitForFunction(() => document.querySelector('purgatory-playground').app.sim?.actions().length === 5);
    await walk(ctx, page);
    const text = await checkClean(ctx, page, 'session file');
    assertShown(ctx, text, P.topic, 'session file: topic');
    ctx.assertNoErrors(errors, 'session file');
  }

  // 3. Refused files: a hostile topic name and a hostile request id are file errors, quoted.
  const KAFKA_RULE = /1-249 characters of a-z A-Z 0-9 \. _ -/;
  for (const [field, edit, rule] of [
    ['topic name', (d) => { d.topics[0].name = P.topic; }, KAFKA_RULE],
    ['request id', (d) => { d.actions[1].id = P.topic; }, KAFKA_RULE],
    // The session extension's strings: the curated scenario it came from, the selected request.
    ['session scenario', (d) => { d.session = { at_ms: 50, scenario: P.topic }; }, /a scenario name \(a-z, 0-9 and -/],
    ['session selected', (d) => { d.session = { at_ms: 50, selected: P.topic }; }, /no produce action has the id/],
  ]) {
    const bad = hostileScenario();
    edit(bad);
    const { page } = await ctx.openPage({ bypassCSP: true });
    await page.goto(sessionLink(ctx.baseURL, bad), { waitUntil: 'load' });
    await playgroundsReady(page);
    // The link's problem is said in the page's notices, as every bad link's is (the file error,
    // its value quoted as JSON), and a live session opens instead.
    await waitText(page, '.notices', /This link could not be opened \(.*\); showing a live session instead\./);
    const said = await page.textContent('.notices');
    ctx.assert(await page.locator('[data-testid="attr-problem"]').count() === 0, `a link's problem is not an attribute's (${field})`);
    ctx.assert(rule.test(said), `a hostile ${field} is refused with the rule: ${said}`);
    ctx.assert(said.includes('"<img data-pwned='), `the refused ${field} is quoted as text: ${said}`);
    await checkClean(ctx, page, `refused ${field}`);
  }

  // 3b. A deflate bomb: 70 MB of one byte packs into a link of about 90,000 characters. It is
  // refused as it inflates, past the 64 MB a session may be, and a live session opens instead.
  {
    const bomb = `${ctx.baseURL}#session=${base64url(deflateRawSync(Buffer.alloc(70 * 1024 * 1024, 0x20), { level: 9 }))}`;
    const { page, errors } = await ctx.openPage();
    await page.goto(bomb, { waitUntil: 'load' });
    await playgroundsReady(page);
    await waitText(page, '.notices', /This link could not be opened \(the link holds a session larger than a session may be \(64 MB\)\); showing a live session instead\./);
    ctx.assert(bomb.length < 200_000, `the bomb is a short link: ${bomb.length} characters`);
    ctx.assertNoErrors(errors, 'a deflate bomb');
  }

  // 4. ?scenario= and a #scenario= link with a hostile request to follow.
  {
    const { page } = await ctx.openPage({ bypassCSP: true });
    await page.goto(`${ctx.baseURL}?scenario=${encodeURIComponent(P.name)}`, { waitUntil: 'load' });
    await playgroundsReady(page);
    // Quoted as a link's long parameters are, its first 40 characters and an ellipsis.
    assertShown(ctx, await checkClean(ctx, page, '?scenario='), `${[...P.name].slice(0, 40).join('')}…`, '?scenario= notice');
    await page.goto('about:blank');
    await page.goto(`${ctx.baseURL}#scenario=s02-stalled-follower-times-out&t=1000&sel=${encodeURIComponent(P.topic)}`, { waitUntil: 'load' });
    await playgroundsReady(page);
    await checkClean(ctx, page, '#scenario=…&sel=');
    // A request the run does not have is not followed: the scenario's own request is.
    const followed = await onPlayground(page, (el) => el.app.selected);
    ctx.assert(followed === 'p1', `a hostile sel= is not followed: ${followed}`);
  }

  // 5. An author's page: the element's scenario attribute, src, and an inline scenario.
  {
    const { page, errors } = await ctx.openPage({ bypassCSP: true });
    const dir = `${ctx.baseURL}__hostile/`;
    const inline = JSON.stringify(doc).replace(/</g, '\\u003c');
    await page.route(`${dir}**`, (route) => {
      const url = route.request().url();
      if (url.endsWith('/scenario.json')) return route.fulfill({ contentType: 'application/json', body: JSON.stringify(doc) });
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><title>author</title>
<script type="module" src="../dist/purgatory-playground.js"></script>
<purgatory-playground id="by-src" src="scenario.json" views="all" controls="full"></purgatory-playground>
<purgatory-playground id="inline" views="all" controls="full"><script type="application/json">${inline}</script></purgatory-playground>
<purgatory-playground id="by-name" scenario="${P.name.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}" views="codepath"></purgatory-playground>`,
      });
    });
    await page.goto(`${dir}author.html`, { waitUntil: 'load' });
    await playgroundsReady(page, 3);
    for (const index of [0, 1]) {
      // The run is computed ahead while the page is idle, which a busy machine may not have
      // reached yet: compute it to 100 ms first, or the seek stops at the frontier.
      await onPlayground(page, (el) => { el.app.playback.computeUntil(100); el.app.playback.seek(100); el.app.select('p2'); el.app.refresh(); }, null, index);
      const code = await onPlayground(page, (el) => el.shadowRoot.querySelector('.cp-body').textContent, null, index);
      ctx.assert(code.includes(P.topic), `element ${index}: the code path shows the topic literally`);
    }
    const text = await checkClean(ctx, page, 'author page');
    assertShown(ctx, text, P.name, 'the element\'s scenario attribute, in its notice');
    ctx.assertNoErrors(errors.filter((e) => !/could not start|no scenario/.test(e)), 'author page');
  }

  // 6. The attacker's link under the real CSP and Trusted Types: shown, nothing refused.
  {
    const { page, errors } = await ctx.openPage();
    await page.goto(sessionLink(ctx.baseURL, doc), { waitUntil: 'load' });
    await playgroundsReady(page);
    await walk(ctx, page);
    const text = await checkClean(ctx, page, 'session link under CSP');
    assertShown(ctx, text, P.topic, 'under CSP');
    await ctx.screenshot(page, 'hostile-under-csp', { fullPage: false });
    ctx.assertNoErrors(errors, 'session link under CSP');
  }
}
