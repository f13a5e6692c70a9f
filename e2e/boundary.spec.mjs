// The model's handle in the shipped wasm, reached through a playground on the real page: wrong
// arguments are thrown JS Errors that say what was wrong (never a panic), commands take
// scenario-action values, an exported session replays to the same result; and when the model
// does trap, the playground rebuilds its session at the same instant and says so.
import { playgroundsReady, onPlayground, waitText, trapModel } from './lib.mjs';

export default async function boundarySpec(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await playgroundsReady(page);
  const r = await onPlayground(page, (el) => {
    const { Playground } = el.app.model;
    const thrown = (f) => { try { f(); return null; } catch (e) { return `${e instanceof Error}:${e.message}`; } };
    const sim = new Playground({ seed: 3, config: { brokers: 3, min_insync_replicas: 2 } });
    const out = {
      badSetup: thrown(() => new Playground({ config: { brokers: 0 } })),
      notObject: thrown(() => new Playground(undefined)),
      badJson: thrown(() => Playground.fromScenario('{')),
      badAcks: thrown(() => sim.command({ action: 'produce', acks: 'many', records: [{ topic: 't', partition: 0, count: 1 }] })),
      badBroker: thrown(() => sim.command({ action: 'pause_follower', broker: 9 })),
      unknownAction: thrown(() => sim.command({ action: 'explode' })),
      badAdvance: thrown(() => sim.advance(-1)),
      fraction: thrown(() => sim.advance(1.5)),
      badSeek: thrown(() => sim.seek(Number.NaN)),
    };
    const { id } = sim.command({ action: 'produce', acks: 'all', records: [{ topic: 't', partition: 0, count: 5 }] });
    out.dupId = thrown(() => sim.command({ action: 'produce', id, acks: 1, records: [{ topic: 't', partition: 0, count: 1 }] }));
    sim.advance(100);
    out.id = id;
    out.result = sim.result();
    const replay = Playground.fromScenario(sim.exportSession());
    while (!replay.extend(10000)) { /* computed ahead to the end of the exported run */ }
    replay.seek(replay.extent().frontier_ms);
    out.replayResult = replay.result();
    out.events = sim.takeEvents().events.length;
    // The element's own API refuses wrong arguments the same way.
    out.apiSeek = thrown(() => el.seek(-5));
    out.apiSeekText = thrown(() => el.seek('10'));
    out.apiCommand = thrown(() => el.command('pause'));
    out.apiCommandBad = thrown(() => el.command({ action: 'pause_follower', broker: 'two' }));
    out.apiCommandNaN = thrown(() => el.command({ action: 'produce', acks: 1, records: [{ topic: 't', partition: 0, count: NaN }] }));
    // An action the model ignores is in the run and says why.
    out.ignored = el.command({ action: 'restart_broker', broker: 1 }).ignored;
    out.applied = el.command({ action: 'pause_follower', broker: 1 }).ignored;
    // A refusal that quotes a word of a trap's is a refusal: thrown, the session kept.
    const unreachable = { action: 'produce', id: 'unreachable', acks: 1, records: [{ topic: 't', partition: 0, count: 1 }] };
    el.command(unreachable);
    out.trapWord = thrown(() => el.command(unreachable));
    return out;
  });
  ctx.log(JSON.stringify(r, null, 0).slice(0, 600));
  for (const k of ['badSetup', 'notObject', 'badJson', 'badAcks', 'badBroker', 'unknownAction', 'badAdvance', 'fraction', 'badSeek', 'dupId', 'apiSeek', 'apiSeekText', 'apiCommand', 'apiCommandBad', 'apiCommandNaN']) {
    ctx.assert(r[k] && r[k].startsWith('true:'), `${k} throws an Error: ${r[k]}`);
  }
  ctx.assert(/acks/.test(r.badAcks), `acks error names the field: ${r.badAcks}`);
  ctx.assert(/broker/.test(r.badBroker), `broker error names the field: ${r.badBroker}`);
  ctx.assert(/whole number/.test(r.apiSeek), `seek says what it takes: ${r.apiSeek}`);
  ctx.assert(/action\.records\[0\]\.count must be a finite number, got NaN/.test(r.apiCommandNaN), `a NaN is named, not sent as null: ${r.apiCommandNaN}`);
  ctx.assert(r.ignored === 'broker 1 is already running' && r.applied === null, `an ignored command says why: ${r.ignored} / ${r.applied}`);
  await waitText(page, '.notices', /restart_broker ignored: broker 1 is already running/);
  ctx.assert(r.trapWord === 'true:command.id: "unreachable" is already used', `a refusal quoting "unreachable" is thrown: ${r.trapWord}`);
  ctx.assert(!(await page.locator('purgatory-playground >> .notices').innerText()).includes('Recovered'), 'and no recovery ran');
  ctx.assert(r.id === 'p1', `first generated id is p1, got ${r.id}`);
  ctx.assert(r.result.includes('"error": "NONE"'), 'the request was answered NONE');
  ctx.assert(r.result.replace(/"name": "[^"]*"/, '') === r.replayResult.replace(/"name": "[^"]*"/, ''), 'export + replay gives the same result');
  ctx.assert(r.events > 0, 'events came out of the session');
  ctx.assertNoErrors(errors, 'boundary');

  // A trap in the model: the playground rebuilds the session on a fresh instance, same instant.
  await onPlayground(page, (el) => { el.pause(); el.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: 0, count: 3 }] }); el.seek(Math.max(el.nowMs, 2500)); });
  const before = await onPlayground(page, (el) => ({ at: el.nowMs, actions: el.app.sim.actions().length }));
  const recovered = page.evaluate(() => new Promise((resolve) => document.querySelector('purgatory-playground').addEventListener('recovered', (e) => resolve(e.detail), { once: true })));
  await trapModel(page);
  const detail = await recovered;
  await waitText(page, '.notices', /Recovered: the session was rebuilt/);
  const after = await onPlayground(page, (el) => ({ at: el.nowMs, actions: el.app.sim.actions().length }));
  ctx.assert(detail.at_ms === before.at && after.at === before.at, `rebuilt at the same instant: ${JSON.stringify({ before, after, detail })}`);
  ctx.assert(after.actions === before.actions, `no action lost: ${before.actions} -> ${after.actions}`);
  await onPlayground(page, (el) => el.step());
  ctx.assert((await onPlayground(page, (el) => el.nowMs)) > before.at, 'the rebuilt session goes on');
  await ctx.screenshot(page, 'boundary-recovered', { fullPage: false });
}
