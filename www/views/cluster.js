// Cluster view: brokers with their follower state and buttons, each partition's replica logs as
// offset cells with LEO and HW markers, the committed and pending ISR, leader and epoch, and the
// messages travelling between brokers in simulated time. Its words come from the translator `tr`
// (www/i18n/*/views.js); Kafka's field names (LEO, HW, ISR, epoch) are shown as they are.
import { html, join } from '../html.js';
import { set, patch } from './dom.js';

const MAX_CELLS = 40;
/** Beyond this many partitions the view draws one row per partition instead of the replica logs. */
const DETAILED_PARTITIONS = 8;

function isrPending(p, tr) {
  const s = p.isr_state;
  if (!s || s.state === 'committed') return null;
  if (s.state === 'pending_expand') return html` <span class="pending" title="${tr.t('cluster.expand.title')}">${tr.t('cluster.expand', { replica: String(s.replica) })}</span>`;
  return html` <span class="pending" title="${tr.t('cluster.shrink.title')}">${tr.t('cluster.shrink', { replicas: set(s.out_of_sync) })}</span>`;
}

/**
 * A replica log's cells by language and `LEO/HW`: the view is redrawn every frame (the network
 * moves) and the same few pairs recur across replicas and frames, so each is built once (at most
 * 256 kept).
 */
const cellsCache = new Map();

function logCells(r, hw, tr) {
  const leo = r.log_end_offset;
  const key = `${tr.lang}/${leo}/${hw}`;
  const cached = cellsCache.get(key);
  if (cached) return cached;
  const start = Math.max(0, leo - MAX_CELLS);
  // Offsets are names of records, written as Kafka writes them (no grouping).
  const cells = start > 0 ? [html`<span class="cell more" title="${tr.t('cluster.cells.more', { last: String(start - 1) })}">…${tr.num(start)}</span>`] : [];
  for (let o = start; o < leo; o++) {
    cells.push(o < hw
      ? html`<span class="cell committed" title="${tr.t('cluster.cell.committed', { offset: String(o) })}"></span>`
      : html`<span class="cell uncommitted" title="${tr.t('cluster.cell.uncommitted', { offset: String(o) })}"></span>`);
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
function underMinIsr(leader, replicaCount, minIsr, tr) {
  const effective = Math.min(minIsr, replicaCount);
  if (leader.isr.length >= effective) return null;
  const title = tr.t('cluster.underMinIsr.title', { minIsr, replicas: replicaCount });
  return html` <span class="pending" data-testid="under-min-isr" title="${title}">${tr.t('cluster.underMinIsr', { isr: leader.isr.length, min: effective })}</span>`;
}

/** What the leader knows of follower `f`'s log, or '' for the leader's own replica. */
function leaderSees(f, tr) {
  if (!f) return '';
  // A caught-up time of null: never (a new leader counts a follower outside the ISR so).
  const never = f.last_caught_up_time_ms == null ? '.notCaughtUp' : '';
  if (f.log_end_offset == null) return tr.t(`cluster.seen.never${never}`, { at: f.last_caught_up_time_ms });
  return tr.t(`cluster.seen${never}`, { leo: String(f.log_end_offset), at: f.last_caught_up_time_ms });
}

/**
 * The controller's record where it has moved the leadership on and the leader has not learnt it
 * yet (its metadata update is on the wire): the header shows the leader as the brokers see it.
 */
function recordAhead(leader, ctrl, tr) {
  if (!leader || !ctrl || (ctrl.leader === leader.broker && ctrl.leader_epoch === leader.leader_epoch)) return null;
  const recorded = { leader: ctrl.leader ?? tr.t('cluster.leader.none'), epoch: String(ctrl.leader_epoch) };
  return html` <span class="muted" data-testid="leader-ahead" title="${tr.t('cluster.leader.ahead.title')}">${tr.t('cluster.leader.ahead', recorded)}</span>`;
}

function partitionBlock(tp, replicas, snap, brokerById, minIsr, tr) {
  const leader = replicas.find((r) => r.is_leader && brokerById.get(r.broker).running);
  const ctrl = snap.controller.partitions.find((c) => c.tp === tp);
  const hw = leader ? leader.high_watermark : null;
  const [topic, part] = [replicas[0].topic, replicas[0].partition];
  const followerOf = new Map((leader?.followers ?? []).map((f) => [f.broker, f]));
  const rows = replicas.map((r) => {
    const b = brokerById.get(r.broker);
    const f = followerOf.get(r.broker);
    const epoch = String(r.leader_epoch);
    // As this broker sees it; a broker that is down keeps the view it had.
    const seen = r.is_leader ? tr.t('cluster.role.leader', { epoch })
      : r.leader != null ? tr.t('cluster.role.follower', { epoch, leader: String(r.leader) })
        : tr.t('cluster.role.noLeader', { epoch });
    const role = b.running ? seen : tr.t('cluster.role.down', { role: seen });
    const inIsr = (leader ?? ctrl)?.isr.includes(r.broker);
    const logLabel = tr.t('cluster.log.label', { broker: String(r.broker), tp, leo: String(r.log_end_offset), hw: String(r.high_watermark) });
    return html`<div class="replica ${b.state}">
      <div class="rlabel"><b>broker ${r.broker}</b> <span class="role">${role}</span>
        <span class="badge ${b.state}">${tr.t(`broker.state.${b.state}`)}</span>${inIsr ? html`<span class="badge isr">ISR</span>` : html`<span class="badge out">${tr.t('cluster.outOfIsr')}</span>`}</div>
      <div class="log" aria-label="${logLabel}">${logCells(r, r.high_watermark, tr)}<span class="leo" title="${tr.t('cluster.leo.title')}">LEO ${tr.num(r.log_end_offset)}</span><span class="hwm" title="${tr.t('cluster.hw.title')}">HW ${tr.num(r.high_watermark)}</span></div>
      <div class="rmeta">${leaderSees(f, tr)}</div>
    </div>`;
  });
  // A group, not a landmark: the same partition name recurs in every playground on a page.
  return html`<div class="partition" role="group" aria-label="${tr.t('cluster.partition.label', { tp })}" data-story="hw-${topic}-${part}">
    <h3>${tp} <span class="kv">leader <b>${leader ? leader.broker : (ctrl?.leader ?? tr.t('cluster.leader.none'))}</b> epoch <b>${leader ? leader.leader_epoch : ctrl?.leader_epoch}</b>${leader ? null : html` <span class="muted" data-testid="leader-recorded-${topic}-${part}" title="${tr.t('cluster.leader.recorded.title')}">${tr.t('cluster.leader.recorded')}</span>`}${recordAhead(leader, ctrl, tr)}</span>
      <span class="kv">HW <b data-testid="hw-${topic}-${part}">${hw ?? '-'}</b></span>
      <span class="kv">ISR <b data-testid="isr-${topic}-${part}">${set((leader ?? ctrl)?.isr ?? [])}</b>${leader ? isrPending(leader, tr) : null}${leader ? underMinIsr(leader, replicas.length, minIsr, tr) : null}</span>
      ${leader ? html`<span class="kv" title="${tr.t('cluster.maximalIsr.title')}">${tr.t('cluster.maximalIsr', { isr: set(leader.maximal_isr) })}</span>` : null}</h3>
    ${minIsr > replicas.length ? html`<p class="muted" data-testid="min-isr-capped">${tr.t('cluster.minIsrCapped', { minIsr, replicas: replicas.length })}</p>` : null}
    ${rows}
  </div>`;
}

/** One row per partition (many partitions): leader and epoch, HW, ISR, each replica's LEO. */
function partitionTable(entries, snap, tr) {
  const ctrlOf = new Map(snap.controller.partitions.map((c) => [c.tp, c]));
  const rows = entries.map(([tp, replicas]) => {
    const leader = replicas.find((r) => r.is_leader && r.running);
    const ctrl = ctrlOf.get(tp);
    const [topic, part] = [replicas[0].topic, replicas[0].partition];
    const leos = join(replicas.map((r) => html`<span class="${r.running ? '' : 'muted'}">${r.broker}: ${tr.num(r.log_end_offset)}</span>`), ' ');
    const who = leader
      ? tr.t('cluster.table.leader', { broker: String(leader.broker), epoch: String(leader.leader_epoch) })
      : tr.t('cluster.table.leaderDown', { broker: String(ctrl?.leader ?? tr.t('cluster.leader.none')) });
    return html`<tr data-story="hw-${topic}-${part}"><th scope="row">${tp}</th><td>${who}</td>
      <td data-testid="hw-${topic}-${part}">${leader ? tr.num(leader.high_watermark) : '-'}</td>
      <td data-testid="isr-${topic}-${part}">${set((leader ?? ctrl)?.isr ?? [])}${leader ? isrPending(leader, tr) : null}</td><td class="leos">${leos}</td></tr>`;
  });
  return html`<p class="muted">${tr.t('cluster.table.about', { count: entries.length, max: DETAILED_PARTITIONS })}</p>
    <table class="ptable"><thead><tr><th scope="col">${tr.t('cluster.table.partition')}</th><th scope="col">leader</th><th scope="col">HW</th><th scope="col">ISR</th><th scope="col">${tr.t('cluster.table.leos')}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function brokerCard(b, tr) {
  const id = b.id;
  // Each card's buttons read alike: their names say whose they are (a screen reader lists them
  // out of their cards).
  const named = (key) => tr.t('broker.button', { action: tr.t(key), broker: id });
  return html`<div class="broker ${b.state}" data-story="broker-${id}">
    <div><b>broker ${id}</b> <span class="badge ${b.state}">${tr.t(`broker.state.${b.state}`)}</span>${b.fenced && b.state !== 'fenced' ? html`<span class="badge fenced">${tr.t('broker.state.fenced')}</span>` : null}</div>
    <div class="btns">
      ${!b.running
        // A process that is down has no fetchers to pause (the model would ignore it).
        ? html`<button data-testid="pause-follower-${id}" aria-label="${named('broker.pause')}" disabled>${tr.t('broker.pause')}</button>`
        : b.fetching_paused
          ? html`<button data-cmd="resume_follower" data-broker="${id}" data-testid="resume-follower-${id}" aria-label="${named('broker.resume')}">${tr.t('broker.resume')}</button>`
          : html`<button data-cmd="pause_follower" data-broker="${id}" data-testid="pause-follower-${id}" aria-label="${named('broker.pause')}">${tr.t('broker.pause')}</button>`}
      ${b.running
        ? html`<button data-cmd="crash_broker" data-broker="${id}" data-testid="crash-broker-${id}" aria-label="${named('broker.crash')}">${tr.t('broker.crash')}</button>`
        : html`<button data-cmd="restart_broker" data-broker="${id}" data-testid="restart-broker-${id}" aria-label="${named('broker.restart')}">${tr.t('broker.restart')}</button>`}
    </div>
  </div>`;
}

function network(snap, now, n, tr) {
  if (!snap.in_flight.length) return html`<p class="muted">${tr.t('cluster.wire.none')}</p>`;
  const shown = snap.in_flight.slice(0, 12);
  // The controller gets a lane of its own (right of the brokers) while a message of its is in flight.
  const lanes = shown.some((m) => m.from == null || m.to == null) ? n + 1 : n;
  const x = (b) => (((b ?? n) + 0.5) / lanes) * 100;
  const controller = tr.t('cluster.controller');
  const rows = shown.map((m, i) => {
    const span = Math.max(1, m.arrives_ms - m.sent_ms);
    const t = Math.min(1, Math.max(0, (now - m.sent_ms) / span));
    const pos = x(m.from) + (x(m.to) - x(m.from)) * t;
    const label = tr.t('cluster.wire.message', {
      // A request's name is Kafka's (Fetch, FetchResponse, AlterPartition); the model's
      // "metadata update" is said in the reader's language.
      what: m.kind === 'metadata' ? tr.t('cluster.wire.metadata') : m.label,
      from: m.from == null ? controller : String(m.from),
      to: m.to == null ? controller : String(m.to),
      at: m.arrives_ms,
    });
    return html`<div class="msg ${m.kind}" style="--y:${i}"><span class="dot" style="left:${pos}%"></span><span class="mlabel">${label}</span></div>`;
  });
  const more = snap.in_flight_total > 12 ? html`<p class="muted">${tr.t('cluster.wire.more', { count: snap.in_flight_total - 12 })}</p>` : null;
  const labels = Array.from({ length: lanes }, (_, b) => html`<span style="left:${x(b)}%">${b < n ? `broker ${b}` : controller}</span>`);
  return html`<div class="lanes"><div class="lane-labels">${labels}</div>${rows}</div>${more}`;
}

/**
 * `minIsr`: the cluster's min.insync.replicas (its partitions say when they are under it); `tr`:
 * the translator the view speaks through.
 */
export function renderCluster(el, snap, nowFrac, minIsr, tr) {
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
    ? partitionTable(entries.map(([tp, list]) => [tp, list.map((r) => ({ ...r, running: brokerById.get(r.broker).running }))]), snap, tr)
    : html`${entries.map(([tp, list]) => partitionBlock(tp, list, snap, brokerById, minIsr, tr))}`;
  patch(el.querySelector('.brokers'), html`${snap.brokers.map((b) => brokerCard(b, tr))}`);
  patch(el.querySelector('.partitions'), parts);
  patch(el.querySelector('.network'), network(snap, nowFrac, snap.brokers.length, tr));
}
