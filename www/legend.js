// The legend: what every mark on the playground means, in one place reachable from every panel
// (each panel's "?" opens it at its section), so nothing is explained only in a hover tooltip.
import { html, join } from './html.js';

// Each swatch is the panel's own markup inside its panel's class (msg, fifo, purge), so it is drawn
// by the same rules as on the panel.
const item = (swatch, text) => html`<li><span class="sw">${swatch}</span><span>${text}</span></li>`;

// An error name may wrap after its underscores in the narrow swatch column (its text only, not
// its class name): the name in pieces, a <wbr> after each underscore.
const wrapAfterUnderscores = (text) => join(text.split(/(?<=_)/), html`<wbr>`);
const outcome = (name) => html`<span class="outcome ${name}">${wrapAfterUnderscores(name)}</span>`;

const SECTIONS = [
  ['cluster', 'Cluster', [
    item(html`<span class="cell committed"></span>`, 'a record below the high watermark (HW): committed, every in-sync replica has it, a consumer may read it'),
    item(html`<span class="cell uncommitted"></span>`, 'a record at or above the HW: appended here, not committed yet (the leader has not yet seen every in-sync replica reach it, or the HW is frozen under min.insync.replicas)'),
    item(html`<span class="hwm">HW 10</span>`, 'the high watermark: offsets below it are committed'),
    item(html`<span class="leo">LEO 12</span>`, 'the log end offset: the next offset this replica will write'),
    item(html`<span class="badge leader">leader</span>`, 'the replica that takes produce requests for the partition'),
    item(html`<span class="badge isr">ISR</span><span class="badge out">out of ISR</span>`, 'whether the replica is in the committed in-sync replica set. acks=all waits for the HW, which counts the maximal ISR: a replica being added counts at once, one being removed until the commit'),
    item(html`<span class="badge fetching">fetching</span><span class="badge paused">paused</span><span class="badge crashed">crashed</span><span class="badge fenced">fenced</span>`, 'a broker’s state: paused means alive and heart-beating but not fetching; fenced means the controller gave up on it'),
    item(html`<span class="pending">shrink pending</span>`, 'an ISR change the leader proposed (AlterPartition) that the controller has not committed yet'),
    item(html`<span class="pending">under min ISR: HW frozen</span>`, 'the committed ISR is smaller than min.insync.replicas (capped at the replica count): since Kafka 3.7 the HW does not move until it grows again, even when every ISR replica has the records'),
    item(html`<span class="msg fetch"><span class="dot"></span></span>`, 'a follower’s fetch on its way to the leader'),
    item(html`<span class="msg fetch_response"><span class="dot"></span></span>`, 'the leader’s fetch response (records, and its HW) on its way back'),
    item(html`<span class="msg metadata"><span class="dot"></span></span>`, 'a controller decision (new ISR, new leader) reaching a broker; an AlterPartition on its way'),
  ]],
  ['purgatory', 'Produce purgatory', [
    item(html`<span class="fifo"><span class="op waiting">p1</span></span>`, 'a DelayedProduce waiting on a partition’s watch list (FIFO, oldest first)'),
    item(html`<span class="fifo"><span class="op done">p1 ✓</span></span>`, 'completed, still on the list: garbage until a purge or the next checkAndComplete on that key takes it off'),
    item(html`<span class="purge"><span class="bar"><span style="width:40%"></span></span></span>`, 'operations completed since the last purge (estimated − delayed) against the purge interval: the reaper purges when it is exceeded'),
    item(html`<b>PurgatorySize</b>`, 'entries on all watch lists (a request on two partitions counts twice; completed ones until purged)'),
    item(html`<b>NumDelayed<wbr>Operations</b>`, 'requests still waiting'),
  ]],
  ['wheel', 'Timing wheel', [
    item(html`<span class="bucket full">3</span>`, 'a bucket holding that many timeouts; it is due at the start of its span, and its entries then fire or move to a finer level (cascade)'),
    item(html`<span class="bucket queued"></span>`, 'a bucket still queued for its time whose entries left: their requests completed, and each completion cancelled its timer entry'),
    item(html`<span class="bucket cur"></span>`, 'the bucket the level’s clock (currentTimeMs) is in; that clock moves only when a bucket comes due'),
    item(html`<span class="bucket sel">1</span>`, 'the bucket holding the selected request’s timeout'),
  ]],
  ['codepath', 'Code path', [
    item(html`<span class="step done">done</span>`, 'a step the request has been through'),
    item(html`<span class="step current">now</span>`, 'the step it is at now'),
    item(html`<span class="step skipped">skipped</span>`, 'a step its path did not take (a request answered at once never waits)'),
  ]],
  ['responses', 'Outcomes', [
    item(outcome('NONE'), 'success: for acks=all, every in-sync replica has the records'),
    item(outcome('REQUEST_TIMED_OUT'), 'the timeout passed while waiting; the records may still be committed later'),
    item(outcome('NOT_ENOUGH_REPLICAS'), 'the ISR was below min.insync.replicas before the append: nothing written'),
    item(outcome('NOT_LEADER_OR_FOLLOWER'), 'the broker is not (or no longer) the leader of the partition'),
    item(html`<span class="outcome other">other errors</span>`, 'INVALID_REQUIRED_ACKS, UNKNOWN_TOPIC_OR_PARTITION, a closed connection'),
    item(html`<span class="outcome waiting">waiting</span>`, 'no answer yet'),
  ]],
  ['phases', 'Phases', [
    item(html`<span class="strip"><span class="seg ok"></span></span>`, 'the phases of the leader’s ISR check at which the request succeeds (φ: where the check’s beat, every replica.lag.time.max.ms / 2 from the broker’s start, falls relative to the run’s 0 ms)'),
    item(html`<span class="strip"><span class="seg bad"></span></span>`, 'the phases at which it fails; the label and the list under the strip name the error'),
    item(html`<span class="strip"><span class="now"></span></span>`, 'this run’s phase; a segment opens the run at its phase'),
  ]],
  ['timeline', 'Timeline', [
    item(html`<span class="mark-swatch m-produce"></span>`, 'a produce request sent'),
    item(html`<span class="mark-swatch m-ok"></span>`, 'a request answered NONE'),
    item(html`<span class="mark-swatch m-bad"></span>`, 'answered with an error or expired; a broker fenced'),
    item(html`<span class="mark-swatch m-hw"></span>`, 'the HW moved'),
    item(html`<span class="mark-swatch m-isr"></span>`, 'an ISR change proposed or committed, a new leader, a broker back'),
    item(html`<span class="mark-swatch m-action"></span>`, 'an action: a pause, a crash, a restart'),
    item(html`<span class="mark-swatch m-purge"></span>`, 'a purge'),
    item(html`<span class="band-swatch"></span>`, 'the shaded band: how many requests wait in the purgatories (NumDelayedOperations, all brokers), over the run computed so far'),
    item(html`<span class="computed-swatch"></span>`, 'the line along the bottom: how far the run is computed (a scenario is computed ahead of the playhead)'),
  ]],
];

/** The legend menu's content (an Html, for `render`). */
export function legendHtml() {
  return html`<h2 class="menu-h">Legend</h2>${SECTIONS.map(([key, title, items]) => html`<section data-section="${key}"><h3>${title}</h3><ul>${items}</ul></section>`)}
  <section data-section="log"><h3>Event log</h3><p>One line per event of the causal trace, in Kafka’s words. Events that repeat while nothing changes (idle fetches, a held HW) fold into one line each with a count, also when the followers’ fetches interleave; click a request to see only its lines.</p></section>
  <section data-section="metrics"><h3>Metrics</h3><p>Each plot is a step plot of the gauge’s exact value at every change (from the trace, not sampled per frame); the shaded band shows the lowest and highest value within each pixel.</p></section>
  <section data-section="keys"><h3>Keys</h3><p><kbd>p</kbd> play / pause · <kbd>n</kbd> or <kbd>]</kbd> step to the next event · <kbd>[</kbd> step back · <kbd>}</kbd> / <kbd>{</kbd> the next / previous marked moment (or › / ‹ under the timeline) · on the timeline: arrows go to the previous / next marker, Page Up / Down move a tenth of it, Home / End, <kbd>+</kbd> / <kbd>-</kbd> / <kbd>0</kbd> zoom in, out, and back to the whole run (or Ctrl + wheel).</p></section>`;
}
