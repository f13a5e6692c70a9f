// Cluster view: brokers with their follower state and buttons, each partition's replica logs as
// offset cells with LEO and HW markers, the committed and pending ISR, leader and epoch, and the
// messages travelling between brokers in simulated time.
import { html, join } from '../html.js';
import { fmt, set, patch } from './dom.js';

const MAX_CELLS = 40;
/** Beyond this many partitions the view draws one row per partition instead of the replica logs. */
const DETAILED_PARTITIONS = 8;

function isrPending(p) {
  const s = p.isr_state;
  if (!s || s.state === 'committed') return null;
  if (s.state === 'pending_expand') return html` <span class="pending" title="AlterPartition in flight; the maximal ISR already counts it">pending expand +${s.replica}</span>`;
  return html` <span class="pending" title="AlterPartition in flight; the maximal ISR is still the old set">pending shrink -${set(s.out_of_sync)}</span>`;
}

/**
 * A replica log's cells by `LEO/HW`: the view is redrawn every frame (the network moves) and the
 * same few pairs recur across replicas and frames, so each is built once (at most 256 kept).
 */
const cellsCache = new Map();

function logCells(r, hw) {
  const leo = r.log_end_offset;
  const key = `${leo}/${hw}`;
  const cached = cellsCache.get(key);
  if (cached) return cached;
  const start = Math.max(0, leo - MAX_CELLS);
  const cells = start > 0 ? [html`<span class="cell more" title="offsets 0-${start - 1} not drawn">…${fmt(start)}</span>`] : [];
  for (let o = start; o < leo; o++) {
    cells.push(o < hw
      ? html`<span class="cell committed" title="offset ${o} (below HW: committed)"></span>`
      : html`<span class="cell uncommitted" title="offset ${o} (above HW)"></span>`);
  }
  const markup = html`${cells}`;
  if (cellsCache.size >= 256) cellsCache.clear();
  cellsCache.set(key, markup);
  return markup;
}

/**
 * Kafka 3.7+ (KAFKA-15583): while the committed ISR is smaller than min.insync.replicas (capped at
 * the replica count), maybeIncrementLeaderHW does nothing: the HW stays where it is even when
 * every ISR replica has the records. Said on the partition, since no event marks it.
 */
function underMinIsr(leader, replicaCount, minIsr) {
  const effective = Math.min(minIsr, replicaCount);
  if (leader.isr.length >= effective) return null;
  return html` <span class="pending" data-testid="under-min-isr" title="Kafka 3.7+: the HW does not move while the committed ISR has fewer than min.insync.replicas (${minIsr}, capped at the ${replicaCount} replicas) members">under min ISR (${leader.isr.length} &lt; ${effective}): HW frozen</span>`;
}

function partitionBlock(tp, replicas, snap, brokerById, minIsr) {
  const leader = replicas.find((r) => r.is_leader && brokerById.get(r.broker).running);
  const ctrl = snap.controller.partitions.find((c) => c.tp === tp);
  const hw = leader ? leader.high_watermark : null;
  const [topic, part] = [replicas[0].topic, replicas[0].partition];
  const followerOf = new Map((leader?.followers ?? []).map((f) => [f.broker, f]));
  const rows = replicas.map((r) => {
    const b = brokerById.get(r.broker);
    const f = followerOf.get(r.broker);
    const role = r.is_leader ? `leader, epoch ${r.leader_epoch}` : `follower (epoch ${r.leader_epoch})`;
    const inIsr = (leader ?? ctrl)?.isr.includes(r.broker);
    const seen = !f ? ''
      : f.log_end_offset == null
        ? `the leader has not heard from it yet (no fetch since it became leader), so it does not know its LEO; counted as caught up at ${fmt(f.last_caught_up_time_ms)} ms`
        : `leader sees LEO ${f.log_end_offset}, caught up at ${fmt(f.last_caught_up_time_ms)} ms`;
    return html`<div class="replica ${b.state}">
      <div class="rlabel"><b>broker ${r.broker}</b> <span class="role">${role}</span>
        <span class="badge ${b.state}">${b.state}</span>${inIsr ? html`<span class="badge isr">ISR</span>` : html`<span class="badge out">out of ISR</span>`}</div>
      <div class="log" aria-label="broker ${r.broker} log of ${tp}: LEO ${r.log_end_offset}, HW ${r.high_watermark}">${logCells(r, r.high_watermark)}<span class="leo" title="log end offset">LEO ${fmt(r.log_end_offset)}</span><span class="hwm" title="this replica's high watermark">HW ${fmt(r.high_watermark)}</span></div>
      <div class="rmeta">${seen}</div>
    </div>`;
  });
  // A group, not a landmark: the same partition name recurs in every playground on a page.
  return html`<div class="partition" role="group" aria-label="partition ${tp}" data-story="hw-${topic}-${part}">
    <h3>${tp} <span class="kv">leader <b>${leader ? leader.broker : (ctrl?.leader ?? 'none')}</b> epoch <b>${leader ? leader.leader_epoch : ctrl?.leader_epoch}</b></span>
      <span class="kv">HW <b data-testid="hw-${topic}-${part}">${hw ?? '-'}</b></span>
      <span class="kv">ISR <b data-testid="isr-${topic}-${part}">${set((leader ?? ctrl)?.isr ?? [])}</b>${leader ? isrPending(leader) : null}${leader ? underMinIsr(leader, replicas.length, minIsr) : null}</span>
      ${leader ? html`<span class="kv" title="Kafka's maximalIsr: what the HW is computed with">maximal ISR ${set(leader.maximal_isr)}</span>` : null}</h3>
    ${rows}
  </div>`;
}

/** One row per partition (many partitions): leader and epoch, HW, ISR, each replica's LEO. */
function partitionTable(entries, snap) {
  const ctrlOf = new Map(snap.controller.partitions.map((c) => [c.tp, c]));
  const rows = entries.map(([tp, replicas]) => {
    const leader = replicas.find((r) => r.is_leader && r.running);
    const ctrl = ctrlOf.get(tp);
    const [topic, part] = [replicas[0].topic, replicas[0].partition];
    const leos = join(replicas.map((r) => html`<span class="${r.running ? '' : 'muted'}">${r.broker}: ${fmt(r.log_end_offset)}</span>`), ' ');
    return html`<tr data-story="hw-${topic}-${part}"><th scope="row">${tp}</th><td>${leader ? `${leader.broker} (epoch ${leader.leader_epoch})` : `${ctrl?.leader ?? 'none'} (not running)`}</td>
      <td data-testid="hw-${topic}-${part}">${leader ? fmt(leader.high_watermark) : '-'}</td>
      <td data-testid="isr-${topic}-${part}">${set((leader ?? ctrl)?.isr ?? [])}${leader ? isrPending(leader) : null}</td><td class="leos">${leos}</td></tr>`;
  });
  return html`<p class="muted">${fmt(entries.length)} partitions: one row each (the replica logs are drawn for up to ${DETAILED_PARTITIONS}).</p>
    <table class="ptable"><thead><tr><th scope="col">partition</th><th scope="col">leader</th><th scope="col">HW</th><th scope="col">ISR</th><th scope="col">LEO by broker</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function brokerCard(b, snap) {
  const id = b.id;
  return html`<div class="broker ${b.state}" data-story="broker-${id}">
    <div><b>broker ${id}</b> <span class="badge ${b.state}">${b.state}</span>${b.fenced && b.state !== 'fenced' ? html`<span class="badge fenced">fenced</span>` : null}</div>
    <div class="btns">
      ${b.fetching_paused
        ? html`<button data-cmd="resume_follower" data-broker="${id}" data-testid="resume-follower-${id}">Resume fetching</button>`
        : html`<button data-cmd="pause_follower" data-broker="${id}" data-testid="pause-follower-${id}">Pause fetching</button>`}
      ${b.running
        ? html`<button data-cmd="crash_broker" data-broker="${id}" data-testid="crash-broker-${id}">Crash</button>`
        : html`<button data-cmd="restart_broker" data-broker="${id}" data-testid="restart-broker-${id}">Restart</button>`}
    </div>
  </div>`;
}

function network(snap, now, n) {
  if (!snap.in_flight.length) return html`<p class="muted">No messages in flight.</p>`;
  const shown = snap.in_flight.slice(0, 12);
  // The controller gets a lane of its own (right of the brokers) while a message of its is in flight.
  const lanes = shown.some((m) => m.from == null || m.to == null) ? n + 1 : n;
  const x = (b) => (((b ?? n) + 0.5) / lanes) * 100;
  const rows = shown.map((m, i) => {
    const span = Math.max(1, m.arrives_ms - m.sent_ms);
    const t = Math.min(1, Math.max(0, (now - m.sent_ms) / span));
    const pos = x(m.from) + (x(m.to) - x(m.from)) * t;
    return html`<div class="msg ${m.kind}" style="--y:${i}"><span class="dot" style="left:${pos}%"></span><span class="mlabel">${m.label} · ${m.from ?? 'controller'} → ${m.to ?? 'controller'} · arrives ${fmt(m.arrives_ms)} ms</span></div>`;
  });
  const more = snap.in_flight_total > 12 ? html`<p class="muted">+ ${fmt(snap.in_flight_total - 12)} more in flight</p>` : null;
  const labels = Array.from({ length: lanes }, (_, b) => html`<span style="left:${x(b)}%">${b < n ? `broker ${b}` : 'controller'}</span>`);
  return html`<div class="lanes"><div class="lane-labels">${labels}</div>${rows}</div>${more}`;
}

/** `minIsr`: the cluster's min.insync.replicas (its partitions say when they are under it). */
export function renderCluster(el, snap, nowFrac, minIsr = 1) {
  if (!el) return;
  const brokerById = new Map(snap.brokers.map((b) => [b.id, b]));
  const byTp = new Map();
  for (const b of snap.brokers) {
    for (const r of b.partitions) {
      if (!byTp.has(r.tp)) byTp.set(r.tp, []);
      byTp.get(r.tp).push({ ...r, broker: b.id });
    }
  }
  const order = (list) => list.sort((a, c) => a.assignment.indexOf(a.broker) - c.assignment.indexOf(c.broker));
  const entries = [...byTp.entries()].map(([tp, list]) => [tp, order(list)]);
  const parts = entries.length > DETAILED_PARTITIONS
    ? partitionTable(entries.map(([tp, list]) => [tp, list.map((r) => ({ ...r, running: brokerById.get(r.broker).running }))]), snap)
    : html`${entries.map(([tp, list]) => partitionBlock(tp, list, snap, brokerById, minIsr))}`;
  patch(el.querySelector('.brokers'), html`${snap.brokers.map((b) => brokerCard(b, snap))}`);
  patch(el.querySelector('.partitions'), parts);
  patch(el.querySelector('.network'), network(snap, nowFrac, snap.brokers.length));
}
