// What the Kafka check (scripts/kafka-check.sh, docs/kafka-check.md) found for each curated
// scenario: a quiet mark under the narration while a curated scenario is open as it was written.
// "Checked against Apache Kafka 4.1.1" when Kafka agreed, what differed when it did not; nothing
// for a scenario the check has not run, or one the person has changed with actions of their own.
import { html, render } from './html.js';

// The record is imported when first asked for: a chunk beside the module in dist/ (inlined in the
// self-contained page), so the element's module does not carry it.
let CHECK = null;
let loading = null;
const load = () => (loading ??= import('../docs/kafka-check.json').then((m) => { CHECK = m.default; }));

/** The check's record of a curated scenario, or null (null too until the record has loaded). */
export function kafkaCheckOf(name) {
  return (name && CHECK?.scenarios[name]) || null;
}

/**
 * Draws the mark for `name` (null: none) into `el`. On the full page it links to the scenario's
 * row in docs/kafka-check.md; an embed (whose host has no such file) says it in its title.
 */
export async function renderKafkaMark(el, name, { link }) {
  if (name && !CHECK) {
    el.dataset.for = name;
    await load();
    if (el.dataset.for !== name) return; // another scenario opened meanwhile
  }
  el.dataset.for = name ?? '';
  const found = kafkaCheckOf(name);
  el.hidden = !found;
  if (!found) {
    el.replaceChildren();
    return;
  }
  const kafka = `Apache Kafka ${CHECK.kafka_version}`;
  const runs = `${found.runs} run${found.runs === 1 ? '' : 's'}, ${CHECK.date}`;
  const n = found.explained_count ?? found.explained?.length ?? 0;
  const explained = n
    ? `; ${n} difference${n === 1 ? '' : 's'} traced to the model's simplifications or the driver's limits (${found.explained.join('; ')}${n > found.explained.length ? '; …' : ''})`
    : '';
  const text = found.verdict === 'could-not-drive'
    ? `Not checked against ${kafka}: its point is a race a real cluster cannot be held to (${runs})`
    : found.verdict === 'disagree'
    ? `✗ ${kafka} answered differently: ${found.disagree.join('; ')} (${runs})`
    : found.verdict === 'noise'
      ? `✓ Checked against ${kafka}: the same answers where Kafka's own runs agree${explained} (${runs})`
      : `✓ Checked against ${kafka}: the same answers${explained} (${runs})`;
  const title = found.reason ?? `${found.fields} fields compared with ${kafka}: error codes, offsets, ISR, HW and LEO exactly, answer times within a window (docs/kafka-check.md)`;
  el.dataset.verdict = found.verdict;
  render(el, link
    ? html`<a href="${`docs/kafka-check.md#${name}`}" title="${title}">${text}</a>`
    : html`<span title="${title}">${text}</span>`);
}
