// The Kafka check's record, worded for people (www/kafka-check.js draws the mark that uses it).

/**
 * A difference as the record writes it (scripts/kafka-report.mjs, `brief`), for people:
 * `p0009.base_offsets: model [["t-0 @9"],["t-0 @9"]], Kafka ["t-0 @8"] / ["t-0 @8"]` reads
 * `p0009 base offsets: model t-0 @9, Kafka t-0 @8`; values that differ between runs stay apart
 * (`Kafka 4 / 3`). Anything else stays as written.
 */
export function differenceWords(item) {
  const m = /^(.+?): model (.+), Kafka (.+)$/.exec(item);
  if (!m) return item;
  const [, field, model, kafka] = m;
  const read = (text) => { try { return JSON.parse(text); } catch { return text; } };
  const value = (v) => (Array.isArray(v) ? v.map(value).join(' + ') : String(v));
  const runs = (values) => [...new Set(values.map(value))].join(' / ');
  // The model's value is recorded once per run, in one list; Kafka's run by run.
  const ours = read(model);
  const name = field.replace(/\.(\w+)(\[\d+\])?$/, (_, key, at) => ` ${key.replaceAll('_', ' ')}${at ?? ''}`);
  return `${name}: model ${Array.isArray(ours) ? runs(ours) : model}, Kafka ${runs(kafka.split(' / ').map(read))}`;
}
