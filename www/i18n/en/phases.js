// The Phases view (www/views/phases.js): what each request gets at every phase φ of the leader's
// ISR-check beat.
export default {
  'phases.noAnswer': 'no answer',
  'phases.closed': '{errors} (connection closed)',
  'phases.notAnswered': 'not answered',
  'phases.answeredAt': 'answered at {at} ms',
  'phases.answeredBetween': 'answered {from}-{to} ms',
  'phases.edge': 'From φ = {phase}: {after}, {answeredAfter}; at φ = {before} just before it: {beforeOutcome}, {answeredBefore}.',
  'phases.openFailed': 'Could not open the run at φ = {phase}: {problem}',
  'phases.failed': 'The phases could not be swept: {error}',
  'phases.segment.title': '{outcome} for φ = {phases}: open the run at φ = {phase}',
  'phases.segment.label.one': '{request}: {outcome} for φ {from}; open the run there',
  'phases.segment.label': '{request}: {outcome} for φ {from} to {to}; open the run there',
  'phases.split': 'depends on the phase',
  'phases.same': 'the same at every phase',
  'phases.strip': '{request} at every phase',
  'phases.thisRun': 'this run: φ = {phase}',
  'phases.share': '{outcome}: φ {phases} ({share}%), {answered}',
  'phases.about': "Kafka runs each leader's ISR check every {period} ms from when the broker started, so where this run's actions fall on that beat (φ) is chance. Each strip is one request at every φ; ▲ marks this run's φ = {phase}. A segment opens the run at its phase.",
  'phases.progress': '{done} of {period} phases run…',
  'phases.progress.done': 'all {period} phases run',
  'phases.noRequest': 'This run sends no produce request.',
};
