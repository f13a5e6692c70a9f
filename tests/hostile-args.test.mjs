// The shipped wasm (www/pkg, built by `npm run build`) driven from JavaScript, as a page or a
// Node user drives it: every export of `Playground` is called with hostile arguments (undefined,
// null, NaN, the infinities, -1, 1e18, 2^53, strings up to 70 MB, a BigInt, a Symbol, a getter or
// a Proxy that throws, arrays, functions, cycles, 100k-deep nesting, missing and extra arguments).
// Each call either answers (the cases that legitimately take the value are listed below) or
// throws an `Error` whose message names the method or the argument; never a wasm trap, never a
// panic, never a non-Error; and the handle still works afterwards. Then the calls after `free()`,
// and after a trap, on the crate built with its test hook (`scripts/build-wasm.sh --test-hooks`):
// the shipped module has no call that panics on request.
//
//   node --test tests/hostile-args.test.mjs
//   (after `npm run build` and `scripts/build-wasm.sh --test-hooks`; scripts/test.sh runs it)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';

/**
 * A built package: its glue's text and its compiled module. Never skips quietly: a missing build
 * is a failure that says what to run.
 */
function loadPackage(dir, build) {
  const pkg = new URL(dir, import.meta.url);
  const glueFile = new URL('purgatory_playground.js', pkg);
  const wasmFile = new URL('purgatory_playground_bg.wasm', pkg);
  for (const file of [glueFile, wasmFile]) {
    if (!existsSync(file)) throw new Error(`${file.pathname} is missing: run '${build}' first`);
  }
  return { glue: readFileSync(glueFile, 'utf8'), compiled: new WebAssembly.Module(readFileSync(wasmFile)) };
}

/** The shipped module. */
const SHIPPED = loadPackage('../www/pkg/', 'npm run build');
/**
 * The same crate built with the `test-hooks` feature, whose one addition is `__trapForTests` (a
 * panic on demand): loaded only by the test that needs a trap.
 */
let withHooks = null;
let instances = 0;

/**
 * A fresh instance of a package (the shipped one unless told) with its own copy of the glue (the
 * glue keeps its instance in module-level variables, so each import of a distinct URL is one
 * independent instance, as the page's `freshModel` makes one).
 */
async function instance(pkg = SHIPPED) {
  const source = `${pkg.glue}\n// instance ${++instances}\n`;
  const bindings = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  bindings.initSync({ module: pkg.compiled });
  return bindings;
}

const { Playground, PhaseSweep } = await instance();

/** console.error lines written while `f` runs: the panic hook writes one for every panic. */
function consoleErrors(f) {
  const lines = [];
  const original = console.error;
  console.error = (...args) => lines.push(args.join(' '));
  try {
    return { value: f(), lines };
  } finally {
    console.error = original;
  }
}

const INTERNAL = /unreachable|RuntimeError|panicked|recursive use|null pointer|unwrap_throw|memory access/i;

/** Calls `f`: `{ok: true, value}` or `{ok: false, error}`; asserts no panic was logged. */
function call(label, f) {
  let outcome;
  const { lines } = consoleErrors(() => {
    try {
      outcome = { ok: true, value: f() };
    } catch (error) {
      outcome = { ok: false, error };
    }
  });
  assert.deepEqual(lines, [], `${label}: nothing logged (a panic logs its message)`);
  return outcome;
}

/** `f` throws an Error naming what was wrong (`names`), not a trap or a glue error. */
function refused(label, f, names) {
  const got = call(label, f);
  assert.ok(!got.ok, `${label}: expected a thrown Error, got ${describe(got.value)}`);
  const { error } = got;
  assert.ok(error instanceof Error, `${label}: threw a non-Error: ${describe(error)}`);
  assert.ok(!(error instanceof WebAssembly.RuntimeError), `${label}: a wasm trap: ${error.message}`);
  assert.ok(error.message.length > 0, `${label}: an Error with an empty message`);
  assert.doesNotMatch(error.message, INTERNAL, `${label}: an internal message`);
  assert.match(error.message, names, `${label}: the message names the method or the argument`);
  return error.message;
}

/** `f` answers; returns the answer. */
function accepted(label, f) {
  const got = call(label, f);
  assert.ok(got.ok, `${label}: expected an answer, got ${got.error instanceof Error ? got.error.message : describe(got.error)}`);
  return got.value;
}

function describe(v) {
  try {
    return typeof v === 'string' ? `a ${v.length}-character string` : String(v);
  } catch {
    return typeof v;
  }
}

/** The handle still works: readable, plays on, and its export reopens to the same bytes. */
function assertHealthy(p, label, { roundTrip = false } = {}) {
  const now = p.nowMs;
  assert.equal(typeof now, 'number', `${label}: nowMs is a number`);
  const played = accepted(`${label}: advance(10)`, () => p.advance(10));
  assert.equal(played.now_ms, p.nowMs, `${label}: advance says where the playhead is`);
  assert.ok(p.nowMs > now && p.nowMs <= now + 10, `${label}: advance(10) moved the playhead ${now} -> ${p.nowMs}`);
  if (roundTrip) {
    const text = p.exportSession();
    const q = accepted(`${label}: fromScenario(export)`, () => Playground.fromScenario(text));
    assert.equal(q.nowMs, p.nowMs, `${label}: the reopened session is at the same instant`);
    assert.equal(q.exportSession(), text, `${label}: export -> fromScenario -> export is the same text`);
    q.free();
  }
}

/** A getter, a Proxy, a cycle... built fresh for each use (a Proxy is single-purpose). */
function hostileValues() {
  const cyclic = { action: 'produce' };
  cyclic.self = cyclic;
  let deepArray = [];
  for (let i = 0; i < 100_000; i++) deepArray = [deepArray];
  const throwsIn = (thrown) => ({ get action() { throw thrown; } });
  const proxy = new Proxy({}, new Proxy({}, { get: () => () => { throw new Error('a Proxy trap threw'); } }));
  return {
    undefined,
    null: null,
    NaN,
    Infinity,
    '-Infinity': -Infinity,
    '-1': -1,
    '1e18': 1e18,
    '2**53': 2 ** 53,
    '1.5': 1.5,
    true: true,
    '"abc"': 'abc',
    '""': '',
    '10 MB string': 'x'.repeat(10 * 1024 * 1024),
    '10 MB JSON string': JSON.stringify({ action: 'produce', id: 'y'.repeat(10 * 1024 * 1024) }),
    '100k-deep JSON text': '['.repeat(100_000) + ']'.repeat(100_000),
    '100k-deep array': deepArray,
    '1n': 1n,
    'Symbol()': Symbol('hostile'),
    'getter throwing an Error': throwsIn(new Error('a getter threw')),
    'getter throwing null': throwsIn(null),
    'getter throwing 42': throwsIn(42),
    'toJSON returning undefined': { toJSON: () => undefined },
    'valueOf throwing': { valueOf() { throw new Error('valueOf threw'); }, toString() { throw new Error('toString threw'); } },
    'Proxy whose traps throw': proxy,
    '[]': [],
    '[5]': [5],
    'function': () => 5,
    'cyclic object': cyclic,
    '{}': {},
    'String object': new String('abc'),
    'Number object': new Number(5),
  };
}

// What legitimately answers instead of throwing, by method (everything else must throw).
const ACCEPTS = {
  // An empty setup takes every default (an object of only methods is `{}` as JSON).
  new: new Set(['{}', 'valueOf throwing']),
  // Unknown ids are looked up (null: no such request) whatever their length.
  requestEvents: new Set(['"abc"', '""', '10 MB string', '10 MB JSON string', '100k-deep JSON text']),
  // Any string is an id (an unknown one selects nothing); null and undefined clear the selection.
  select: new Set(['undefined', 'null', '"abc"', '""', '10 MB string', '10 MB JSON string', '100k-deep JSON text']),
  // The curated scenario's name, as a saved session names one (a-z, 0-9, -; at most 80), or none.
  'fromScenario.curated': new Set(['undefined', 'null', '"abc"']),
  // `{}` sets no breakpoints (an object of only methods is `{}` as JSON).
  setBreakpoints: new Set(['{}', 'valueOf throwing']),
  // The beat to sweep: none means the ISR check.
  'PhaseSweep.beat': new Set(['undefined', 'null']),
  // Whose beat: none means every broker's.
  'PhaseSweep.broker': new Set(['undefined', 'null']),
};

const SCENARIO = readFileSync(new URL('../scenarios/s02-stalled-follower-times-out.json', import.meta.url), 'utf8');

// One argument position of a method: how to call it with `v`, and what its message must name.
const POSITIONS = [
  { name: 'new', call: (p, v) => new Playground(v), names: /^setup\b/ },
  // A scenario's own errors name the field (`topics: ...`), the argument's name the argument.
  { name: 'fromScenario', call: (p, v) => Playground.fromScenario(v), names: /^(scenario\b|expected a JSON object \(the scenario\)|[\w.[\]]+: )/ },
  { name: 'fromScenario.curated', call: (p, v) => Playground.fromScenario(SCENARIO, v), names: /^fromScenario\.curated: / },
  { name: 'command', call: (p, v) => p.command(v), names: /^command\b/ },
  { name: 'advance', call: (p, v) => p.advance(v), names: /^advance: / },
  { name: 'seek', call: (p, v) => p.seek(v), names: /^seek: / },
  { name: 'extend', call: (p, v) => p.extend(v), names: /^extend: / },
  { name: 'markers.from_ms', call: (p, v) => p.markers(v, 100, 10), names: /^markers\.from_ms: / },
  { name: 'markers.to_ms', call: (p, v) => p.markers(0, v, 10), names: /^markers\.to_ms: / },
  { name: 'markers.max', call: (p, v) => p.markers(0, 100, v), names: /^markers\.max: / },
  { name: 'series.from_ms', call: (p, v) => p.series(v, 100, 10), names: /^series\.from_ms: / },
  { name: 'series.to_ms', call: (p, v) => p.series(0, v, 10), names: /^series\.to_ms: / },
  { name: 'series.bins', call: (p, v) => p.series(0, 100, v), names: /^series\.bins: / },
  { name: 'requestEvents', call: (p, v) => p.requestEvents(v), names: /^requestEvents: / },
  { name: 'select', call: (p, v) => p.select(v), names: /^select: / },
  { name: 'setBreakpoints', call: (p, v) => p.setBreakpoints(v), names: /^breakpoints\b/ },
  // The Phases view's sweep: its scenario, its beat, and a step's count of phases.
  { name: 'PhaseSweep', call: (p, v) => new PhaseSweep(v), names: /^(scenario\b|expected a JSON object \(the scenario\)|[\w.[\]]+: )/ },
  { name: 'PhaseSweep.beat', call: (p, v) => new PhaseSweep(SCENARIO, v), names: /^PhaseSweep\.beat: / },
  { name: 'PhaseSweep.broker', call: (p, v) => new PhaseSweep(SCENARIO, 'isr_check', v), names: /^PhaseSweep\.broker: / },
  { name: 'PhaseSweep.step', call: (p, v) => stepOne.step(v), names: /^PhaseSweep\.step: / },
];

/** A sweep whose `step` the table calls (s02 at every phase: 15,000 phases, one step each at most). */
const stepOne = new PhaseSweep(SCENARIO);

// Whole numbers in range are valid milliseconds for these positions.
const NUMERIC = new Set(['advance', 'seek', 'extend', 'markers.from_ms', 'markers.to_ms', 'markers.max', 'series.from_ms', 'series.to_ms', 'series.bins', 'PhaseSweep.step', 'PhaseSweep.broker']);
const IN_RANGE = new Set(['-1', '1.5', '1e18', '2**53', 'NaN', 'Infinity', '-Infinity']);

function acceptsValue(position, key) {
  return ACCEPTS[position]?.has(key) ?? false;
}

let calls = 0;

test('every argument position refuses hostile values with an Error naming it, and the handle lives on', () => {
  const p = new Playground({ seed: 7 });
  p.command({ action: 'produce', acks: 'all', records: [{ topic: 't', partition: 0, count: 2 }] });
  for (const position of POSITIONS) {
    for (const [key, value] of Object.entries(hostileValues())) {
      const label = `${position.name}(${key})`;
      calls++;
      if (NUMERIC.has(position.name) && !IN_RANGE.has(key) && typeof value === 'number') {
        throw new Error(`${label}: the table has a number the test does not classify`);
      }
      if (acceptsValue(position.name, key)) {
        const answer = accepted(label, () => position.call(p, value));
        if (answer instanceof Playground || answer instanceof PhaseSweep) answer.free();
      } else {
        const message = refused(label, () => position.call(p, value), position.names);
        // A value the message can show, it shows (not a generic "invalid").
        if (NUMERIC.has(position.name) && typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e15) {
          assert.ok(message.endsWith(`found ${value}`), `${label}: the message shows the value: ${message}`);
        }
      }
      assertHealthy(p, label);
    }
    assertHealthy(p, position.name, { roundTrip: true });
  }
});

test('fromScenario refuses a 70 MB scenario text by its length', () => {
  calls++;
  const message = refused('fromScenario(70 MB)', () => Playground.fromScenario(' '.repeat(70 * 1024 * 1024)), /^scenario: the text is \d+ bytes long/);
  assert.match(message, /at most \d+ are read/);
});

test('missing arguments are refused by name; optional ones take their default', () => {
  const p = new Playground({});
  const missing = [
    ['new', () => new Playground(), /^setup: expected an object, found undefined$/],
    ['fromScenario', () => Playground.fromScenario(), /^scenario: expected an object, found undefined$/],
    ['command', () => p.command(), /^command: expected an object, found undefined$/],
    ['advance', () => p.advance(), /^advance: .* found undefined$/],
    ['seek', () => p.seek(), /^seek: .* found undefined$/],
    ['extend', () => p.extend(), /^extend: .* found undefined$/],
    ['markers', () => p.markers(), /^markers\.from_ms: .* found undefined$/],
    ['markers(0, 10)', () => p.markers(0, 10), /^markers\.max: .* found undefined$/],
    ['series', () => p.series(), /^series\.from_ms: .* found undefined$/],
    ['series(0, 10)', () => p.series(0, 10), /^series\.bins: .* found undefined$/],
    ['requestEvents', () => p.requestEvents(), /^requestEvents: expected a string, found null or undefined$/],
    ['setBreakpoints', () => p.setBreakpoints(), /^breakpoints: expected an object, found undefined$/],
  ];
  for (const [label, f, names] of missing) {
    calls++;
    refused(`${label}()`, f, names);
    assertHealthy(p, `${label}()`);
  }
  calls += 3;
  // advance without stop_at_notable does not stop at markers; select() clears the selection;
  // fromScenario without a curated name is not curated.
  assert.equal(accepted('advance(5)', () => p.advance(5)).notable, false);
  p.select('p1');
  accepted('select()', () => p.select());
  assert.equal(p.selected, undefined, 'select() clears the selection');
  assert.equal(accepted('fromScenario(s02)', () => Playground.fromScenario(SCENARIO)).curated, undefined);
  // A key twice in one object is refused, as the file reader refuses it.
  refused('fromScenario(a repeated key)', () => Playground.fromScenario('{"name": "a", "name": "b", "topics": [], "actions": [], "run_until_ms": 0}'), /^scenario: not JSON: the key "name" appears twice in one object at line 1 column 20$/);
  // A curated name is one a saved session can carry, so that the export reads back.
  refused('fromScenario(s02, "My Scenario!")', () => Playground.fromScenario(SCENARIO, 'My Scenario!'), /^fromScenario\.curated: expected a scenario name \(a-z, 0-9 and -, at most 80 characters\), found "My Scenario!"$/);
  const named = accepted('fromScenario(s02, "my-s02")', () => Playground.fromScenario(SCENARIO, 'my-s02'));
  assert.equal(Playground.fromScenario(named.exportSession()).curated, 'my-s02', 'its export reads back, curated name and all');
  assertHealthy(p, 'missing arguments', { roundTrip: true });
});

test('extra arguments and hostile values where no argument is read are ignored', () => {
  const p = Playground.fromScenario(SCENARIO, 's02');
  const noArgs = ['forkPreview', 'undo', 'step', 'stepBack', 'continueLive', 'extent', 'setup', 'snapshot', 'takeEvents', 'actions', 'story', 'result', 'exportSession'];
  for (const [key, value] of Object.entries(hostileValues())) {
    for (const method of noArgs) {
      calls++;
      accepted(`${method}(${key})`, () => p[method](value, value));
    }
    // stop_at_notable is read by JS truthiness: any value answers.
    calls++;
    const played = accepted(`advance(10, ${key})`, () => p.advance(10, value));
    assert.equal(typeof played.notable, 'boolean');
    // Extra arguments after valid ones.
    calls += 3;
    accepted(`seek(0, ${key})`, () => p.seek(0, value));
    accepted(`markers(0, 10, 5, ${key})`, () => p.markers(0, 10, 5, value));
    accepted(`series(0, 10, 5, ${key})`, () => p.series(0, 10, 5, value));
  }
  // Getters: readable, and a write is a TypeError naming the property (nothing reaches Rust).
  const getters = ['nextMarkerMs', 'previousMarkerMs', 'nowMs', 'nextEventMs', 'runUntilMs', 'name', 'selected', 'curated', 'storyOpen', 'traceHash', 'checkpointCount'];
  for (const getter of getters) {
    calls += 2;
    accepted(getter, () => p[getter]);
    refused(`${getter} = 5`, () => { p[getter] = 5; }, new RegExp(getter));
  }
  assert.equal(p.curated, 's02');
  assertHealthy(p, 'extra arguments', { roundTrip: true });
});

test('ten thousand refused calls leave the instance usable (a throw through wasm would leak its stack)', async () => {
  // A JS exception that unwinds through wasm frames skips their epilogues: each one leaks a
  // frame of the 1 MiB shadow stack, and about 8,000 of them kill the whole instance. A refusal
  // must be an ordinary return.
  const { Playground: Fresh } = await instance();
  const p = new Fresh({});
  const values = hostileValues();
  for (let i = 0; i < 10_000; i++) {
    for (const f of [() => p.advance(-1), () => p.command(values['getter throwing null']), () => p.select(5), () => p.requestEvents(null), () => new Fresh(values['toJSON returning undefined'])]) {
      try { f(); } catch (e) { if (!(e instanceof Error) || INTERNAL.test(e.message)) throw e; }
    }
  }
  calls += 5;
  assertHealthy(p, 'after 50,000 refusals');
  const q = new Fresh({});
  q.advance(1000);
  assert.equal(q.nowMs, 1000);
});

test('after free(), every call throws an Error and a second free() too', async () => {
  const { Playground: Fresh } = await instance();
  const p = new Fresh({});
  p.free();
  for (const [label, f] of everyCall(p)) {
    calls++;
    const got = call(`freed ${label}`, f);
    assert.ok(!got.ok, `freed ${label}: answered ${describe(got.value)}`);
    assert.ok(got.error instanceof Error && got.error.message.length > 0, `freed ${label}: ${describe(got.error)}`);
    assert.ok(!(got.error instanceof WebAssembly.RuntimeError), `freed ${label}: a trap: ${got.error.message}`);
  }
  const q = new Fresh({});
  assertHealthy(q, 'a new handle after free', { roundTrip: true });
});

/** Every method and getter of a handle, each with valid arguments, free() last. */
function everyCall(p) {
  return [
    ['command', () => p.command({ action: 'produce', acks: 1, records: [{ topic: 't', partition: 0, count: 1 }] })],
    ['forkPreview', () => p.forkPreview()],
    ['undo', () => p.undo()],
    ['advance', () => p.advance(10)],
    ['nextMarkerMs', () => p.nextMarkerMs],
    ['previousMarkerMs', () => p.previousMarkerMs],
    ['step', () => p.step()],
    ['stepBack', () => p.stepBack()],
    ['seek', () => p.seek(0)],
    ['extend', () => p.extend(10)],
    ['continueLive', () => p.continueLive()],
    ['nowMs', () => p.nowMs],
    ['nextEventMs', () => p.nextEventMs],
    ['runUntilMs', () => p.runUntilMs],
    ['name', () => p.name],
    ['extent', () => p.extent()],
    ['setup', () => p.setup()],
    ['snapshot', () => p.snapshot()],
    ['takeEvents', () => p.takeEvents()],
    ['retell', () => p.retell()],
    ['requestEvents', () => p.requestEvents('p1')],
    ['markers', () => p.markers(0, 100, 10)],
    ['series', () => p.series(0, 100, 10)],
    ['actions', () => p.actions()],
    ['story', () => p.story()],
    ['setBreakpoints', () => p.setBreakpoints({ expiry: true })],
    ['selected', () => p.selected],
    ['select', () => p.select('p1')],
    ['curated', () => p.curated],
    ['traceHash', () => p.traceHash],
    ['checkpointCount', () => p.checkpointCount],
    ['result', () => p.result()],
    ['exportSession', () => p.exportSession()],
    ['free', () => p.free()],
  ];
}

test('every call with valid arguments answers on a healthy handle', () => {
  const p = new Playground({});
  for (const [label, f] of everyCall(p)) {
    if (label === 'free') continue;
    calls++;
    accepted(label, f);
  }
  assertHealthy(p, 'valid calls', { roundTrip: true });
});

test('the shipped module has no test hooks: nothing in its API panics on request', () => {
  assert.equal(typeof Playground.prototype.__trapForTests, 'undefined');
  assert.doesNotMatch(SHIPPED.glue, /trapForTests/);
  assert.ok(!WebAssembly.Module.exports(SHIPPED.compiled).some((e) => /trap/i.test(e.name)), 'no trap export in the .wasm');
});

test('after a trap: the trapped handle throws Errors, free() too; the instance and other handles live on', async () => {
  withHooks ??= loadPackage('../target/test-hooks-pkg/', 'scripts/build-wasm.sh --test-hooks');
  const { Playground: Fresh } = await instance(withHooks);
  const bystander = new Fresh({ seed: 1 });
  bystander.advance(500);
  const p = new Fresh({});
  p.advance(100);
  calls++;
  let thrown;
  const { lines } = consoleErrors(() => {
    try { p.__trapForTests(); } catch (e) { thrown = e; }
  });
  // A panic: the hook logs its message, then the wasm trap is a RuntimeError (an Error).
  assert.ok(thrown instanceof WebAssembly.RuntimeError, `the trap is a RuntimeError: ${describe(thrown)}`);
  assert.match(thrown.message, /unreachable/);
  assert.match(lines.join('\n'), /trap requested by a test/, 'the panic message is logged');

  // The trapped handle stays borrowed for ever: every call, free() included, throws
  // wasm-bindgen's Error (which the page's `isTrap` recognises, and answers by rebuilding the
  // session on a fresh instance). No call hangs or crashes the process.
  for (const [label, f] of everyCall(p)) {
    calls++;
    const got = call(`trapped ${label}`, f);
    assert.ok(!got.ok, `trapped ${label}: answered ${describe(got.value)}`);
    assert.ok(got.error instanceof Error, `trapped ${label}: threw a non-Error ${describe(got.error)}`);
    assert.ok(!(got.error instanceof WebAssembly.RuntimeError), `trapped ${label}: trapped again: ${got.error.message}`);
    assert.match(got.error.message, label === 'free' ? /while it was borrowed/ : /^recursive use of an object/, `trapped ${label}`);
  }

  // The instance itself goes on: the other handle, and a new one (the page still retires the
  // instance, see www/wasm-module.js: after a trap Rust promises nothing about it).
  assertHealthy(bystander, 'the other handle after the trap', { roundTrip: true });
  const after = accepted('new Playground after the trap', () => new Fresh({}));
  assertHealthy(after, 'a new handle after the trap', { roundTrip: true });
  // And a fresh instance, as the page makes one.
  const { Playground: Again } = await instance(withHooks);
  assertHealthy(new Again({}), 'a fresh instance after the trap', { roundTrip: true });
});

test('the suite made the calls it says', () => {
  // Printed so a reader sees the coverage; at least one call per hostile value per position.
  console.log(`hostile-args: ${calls} calls checked`);
  assert.ok(calls > POSITIONS.length * Object.keys(hostileValues()).length);
});
