// What a producer got, in the reader's language: each partition's error ("no answer" where it read
// none), then a closed connection, then the producer's own timeout. The model sends the parts
// (src/sweep.rs, `Outcome`): the Phases view has them for each outcome of a sweep, the what-if's
// table for each request in each run (`Answer.got`). The runner's English label
// (`Outcome::label`) reads the same as the English here.

/** `outcome` = `{errors: [name | null], connection_closed, client_timed_out?}` in words. */
export function outcomeWords(outcome, tr) {
  let errors = outcome.errors.map((e) => e ?? tr.t('outcome.noAnswer')).join(' + ');
  if (outcome.connection_closed) errors = tr.t('outcome.closed', { errors });
  return outcome.client_timed_out ? tr.t('outcome.gaveUp', { errors }) : errors;
}

/** Whether the producer got what it asked for: every partition NONE (or not answered yet), its
 * connection open, and its answer read. */
export function outcomeIsGood(outcome) {
  return !outcome.connection_closed && !outcome.client_timed_out && outcome.errors.every((e) => e === 'NONE' || e == null);
}
