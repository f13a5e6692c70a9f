// What the Kafka check (scripts/kafka-check.sh, docs/kafka-check.md) found for each curated
// scenario: a quiet mark under the narration while a curated scenario is open as it was written.
// "Checked against Apache Kafka 4.1.1" when Kafka agreed, what differed when it did not; nothing
// for a scenario the check has not run, or one the person has changed with actions of their own.
import { html, render } from './html.js';
import { checkReport } from 'bundle-files';
import { differenceWords } from './kafka-check-words.js';

// The record is imported when first asked for: a chunk beside the module in dist/ (inlined in the
// self-contained page), so the element's module does not carry it.
let CHECK = null;
let loading = null;
const load = () => (loading ??= import('../docs/kafka-check.json').then((m) => { CHECK = m.default; }));

// The worse of two verdicts, for a what-if's two runs.
const RANK = ['agree', 'explained', 'noise', 'could-not-drive', 'disagree'];

/**
 * The check's record of a curated scenario, or null (null too until the record has loaded). A
 * what-if's second run is checked as NAME.b, with its change: while the page compares the
 * scenario by that change (`comparing`), the mark speaks for both runs, the worse verdict.
 */
export function kafkaCheckOf(name, comparing = null) {
  const a = (name && CHECK?.scenarios[name]) || null;
  const b = a && CHECK.scenarios[`${name}.b`];
  if (!b || b.change !== comparing) return a;
  const worse = RANK.indexOf(b.verdict) > RANK.indexOf(a.verdict) ? b : a;
  return {
    both: true,
    verdict: worse.verdict,
    reason: worse.reason,
    runs: a.runs + b.runs,
    date: a.date ?? b.date,
    fields: a.fields + b.fields,
    disagree: [...a.disagree, ...b.disagree.map((d) => `B: ${d}`)],
    explained_count: (a.explained_count ?? 0) + (b.explained_count ?? 0),
    explained: [...(a.explained ?? []), ...(b.explained ?? []).map((d) => `B: ${d}`)],
  };
}

/**
 * Draws the mark for `name` (null: none) into `el`, in `tr`'s language (what the check's record
 * says in its own words, the differences and reasons, stays as written). On the full page it opens
 * the scenario's section of the report beside the module (dist/kafka-check.html, docs/kafka-check.md
 * as a page) in a new tab, so the session stays where it is; an embed, or the self-contained page
 * travelling alone, says it in its title.
 */
export async function renderKafkaMark(el, name, { link, tr, comparing = null }) {
  if (name && !CHECK) {
    el.dataset.for = name;
    await load();
    if (el.dataset.for !== name) return; // another scenario opened meanwhile
  }
  el.dataset.for = name ?? '';
  const found = kafkaCheckOf(name, comparing);
  el.hidden = !found;
  if (!found) {
    el.replaceChildren();
    return;
  }
  const kafka = tr.t('kafkaCheck.kafka', { version: CHECK.kafka_version });
  const runs = tr.t(found.both ? 'kafkaCheck.runsBoth' : 'kafkaCheck.runs', { count: String(found.runs), date: found.date ?? CHECK.date });
  const n = found.explained_count ?? found.explained?.length ?? 0;
  const list = `${(found.explained ?? []).map(differenceWords).join('; ')}${n > (found.explained?.length ?? 0) ? '; …' : ''}`;
  const explained = n ? tr.t('kafkaCheck.explained', { count: n, list }) : '';
  const text = found.verdict === 'could-not-drive'
    ? tr.t('kafkaCheck.notDriven', { kafka, runs })
    : found.verdict === 'disagree'
    ? tr.t('kafkaCheck.disagree', { kafka, differences: found.disagree.map(differenceWords).join('; '), runs })
    : found.verdict === 'noise'
      ? tr.t('kafkaCheck.noise', { kafka, explained, runs })
      // Not "the same answers": an explained difference may be in an answer (a base offset).
      : found.verdict === 'explained' ? tr.t('kafkaCheck.allExplained', { kafka, count: n, list, runs })
        : tr.t('kafkaCheck.agree', { kafka, explained, runs });
  // The count of fields as the record writes it (4006, not 4,006).
  const title = (found.reason && reasonIn(tr, name, found.reason)) ?? tr.t('kafkaCheck.title', { fields: String(found.fields), kafka, doc: 'docs/kafka-check.md' });
  el.dataset.verdict = found.verdict;
  const report = link ? checkReport() : null;
  render(el, report
    ? html`<a href="${`${report}#${name}`}" target="_blank" rel="noopener" title="${title}">${text}</a>`
    : html`<span title="${title}">${text}</span>`);
}

/**
 * Why a scenario was not checked against Kafka, in the reader's language: the record's English
 * (docs/kafka-check.json), or another language's `kafkaCheck.reason.NAME` (tests/i18n.test.mjs
 * checks that each language words every reason the record has).
 */
function reasonIn(tr, name, english) {
  return (tr.lang !== 'en' && tr.messages[`kafkaCheck.reason.${name}`]) || english;
}
