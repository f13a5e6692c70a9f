// The Playground handle in the real page's wasm build: wrong arguments are thrown JS Errors that
// say what was wrong (never a panic), commands take scenario-action values, and an exported
// session replays to the same result.
export default async function boundarySpec(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(ctx.baseURL, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="ready"]', { state: 'attached', timeout: 30000 });
  const r = await page.evaluate(async () => {
    const { loadPlayground } = await import('./www/wasm-module.js');
    const Playground = await loadPlayground();
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
    return out;
  });
  ctx.log(JSON.stringify(r, null, 0).slice(0, 600));
  for (const k of ['badSetup', 'notObject', 'badJson', 'badAcks', 'badBroker', 'unknownAction', 'badAdvance', 'fraction', 'dupId']) {
    ctx.assert(r[k] && r[k].startsWith('true:'), `${k} throws an Error: ${r[k]}`);
  }
  ctx.assert(/acks/.test(r.badAcks), `acks error names the field: ${r.badAcks}`);
  ctx.assert(/broker/.test(r.badBroker), `broker error names the field: ${r.badBroker}`);
  ctx.assert(r.id === 'p1', `first generated id is p1, got ${r.id}`);
  ctx.assert(r.result.includes('"error": "NONE"'), 'the request was answered NONE');
  ctx.assert(r.result.replace(/"name": "[^"]*"/, '') === r.replayResult.replace(/"name": "[^"]*"/, ''), 'export + replay gives the same result');
  ctx.assertNoErrors(errors, 'boundary');
}
