// The controls' own words (www/controls.js, acting.js, playback.js, notices.js, share.js,
// compare.js, kafka-check.js): notices and their buttons, breakpoints, the speed, the question
// before acting in the past, the produce form's checks, the share menu's outputs, session files
// and links that cannot be opened, the what-if comparison, the Kafka check's mark, the end of a
// scenario. What the model (Rust) says, and what the scenarios and the check's record say, stay
// as written: these are the sentences around them.
export default {
  // Notices (notices.js)
  'notice.undo': 'Undo',
  'notice.download': 'Download the session',
  'notice.dismiss': 'Dismiss',

  // The playhead (playback.js): a breakpoint hit, the speed's words.
  'playback.breakpoint': 'Breakpoint: {what} (at {at} ms).',
  'playback.speed.auto': 'auto · {rate}',
  'playback.speed.paused': 'paused',
  'playback.speed.fixed.paused': '{rate} · paused',
  'playback.rate.holding': 'holding',
  'playback.rate.times': '{rate}×',
  'playback.rate.perMs': '1 ms per {wall} ms',
  'playback.rate.perSecond': '1 ms per {wall} s',

  // Acting in the past (acting.js)
  'fork.dialog': 'Start a new future?',
  'fork.question': 'You are at {at} ms, in the past of this run. Acting here starts a new future from this instant and drops the run computed to {frontier} ms. Undo brings it back.',
  'fork.question.actions': {
    one: 'You are at {at} ms, in the past of this run. Acting here starts a new future from this instant and drops the {count} action you made after it and the run computed to {frontier} ms. Undo brings it back.',
    other: 'You are at {at} ms, in the past of this run. Acting here starts a new future from this instant and drops the {count} actions you made after it and the run computed to {frontier} ms. Undo brings it back.',
  },
  'fork.what': '{what}?',
  'fork.act': 'Act here',
  'fork.cancel': 'Cancel',
  'fork.dontAsk': 'don’t ask again',

  // The produce form's checks (acting.js)
  'produce.problem.partitions': 'Partitions: list partition numbers such as "0" or "0, 1".',
  'produce.problem.partitionTwice': 'Partitions: name each partition once (a produce request holds each partition once).',
  'produce.problem.records': 'Records: a whole number from 1 to {max}.',
  'produce.problem.timeout': 'Timeout: a whole number of milliseconds from 0 to {max} (or empty for request.timeout.ms).',
  'produce.longerThanOwn': 'This request asks the broker to wait up to {timeout} ms, longer than the producer’s own request.timeout.ms ({own} ms): if no answer comes by then, the producer gives up first and the broker answers nobody.',
  'produce.problem.burst': 'Burst: a whole number from 1 to {max}.',

  // Breakpoints (controls.js)
  'bp.problem.stall': 'HW stalled for: a whole number of milliseconds from 1 to {max}; this breakpoint is off until then.',
  'bp.problem.stallName': 'HW stalled for',

  // The scenario picker (controls.js); the scenarios' titles are their own.
  'scenarios.live': 'Live session (you drive)',
  'scenarios.spec': 'The spec\'s scenarios',
  'scenarios.more': 'More stories',
  'scenarios.whatIfs': 'What ifs: two runs side by side',
  'scenarios.opened': '{what} (from {from})',
  'scenarios.openedAt': '{from} · {what}',
  'scenarios.withYourActions': '{scenario}, with your actions',
  'scenarios.opened.live': 'Live session',
  'scenarios.opened.unnamed': 'A scenario',
  'scenarios.opened.file': 'a file',

  // The share menu's outputs (controls.js)
  'share.out.copied': 'Copied ({size} characters).',
  'share.out.inAddressBar': 'The link is in the address bar ({size} characters).',
  'share.out.here': 'Copying was not allowed; the link ({size} characters):',
  'share.out.open': 'open it in the full playground',
  'share.out.saved': 'Saved {file} ({size} characters): the views at {at} ms.',
  'share.out.pictureTitle': 'Purgatory Playground · {what} · {at} ms',
  'share.out.live': 'live session',
  'share.out.session': 'session',

  // Session files (share.js, controls.js)
  'file.tooBig': '{file} is {size} bytes; a session file is at most 64 MB',
  'file.notSession': '{file} is not a session file (a session file is a JSON scenario)',
  'file.refused': '{file}: {error}',
  'file.opened': 'Opened {file}.',
  'file.notOpened': 'Could not open that file, and nothing was changed: {error}',

  // A session link that cannot be read (share.js): what goes in “This link could not be opened (…)”.
  'fragment.tooLong': 'the link is too long to be a session link',
  'fragment.badCharacters': 'the link is damaged: it holds characters a session link never has',
  'fragment.badBase64': 'the link is damaged: its session is not valid base64',
  'fragment.tooBig': 'the link holds a session larger than a session may be ({max} MB)',
  'fragment.badDeflate': 'the link is damaged: its session does not decompress (was it cut short when copied?)',
  'fragment.badStep': 'the link\'s story step {param} is not a step number (1, 2, …)',
  'fragment.badInstant': 'the link\'s instant {param} is not a whole number of milliseconds from 0',
  'fragment.sessionInstant': 'a session link opens at the instant it was saved, so {param} is not read',
  'fragment.lateInstant': 'the link\'s instant {param} is past a week ({max} ms), the longest run',

  // The trace's fingerprint while it is worked out (controls.js)
  'trace.computing': 'computing…',

  // The end of a scenario (controls.js)
  'end.reached': 'The scenario has reached its end ({at} ms).',
  'end.restart': 'Restart it',
  'end.live': 'Continue as a live session',

  // An action in the compare form's list (controls.js)
  'action.produce': {
    one: 'send a request with acks={acks}',
    other: 'send {count} requests with acks={acks}',
  },
  'action.pause': 'pause broker {broker}',
  'action.resume': 'resume broker {broker}',
  'action.crash': 'crash broker {broker}',
  'action.restart': 'restart broker {broker}',
  'action.elect': 'elect broker {broker} for {partition}',

  // The what-if comparison (compare.js, controls.js). A message with markup in it ({at} in
  // whatIf.divergence, {lost} in whatIf.lost) keeps each {name} where its language puts it.
  'whatIf.noActions': 'This run has no actions to change yet.',
  'whatIf.refused': '{change}: {error}',
  'whatIf.noRoom': 'this playground has no room for a second run',
  'whatIf.trapped': 'the model stopped while comparing',
  'whatIf.run': 'the what-if run',
  'whatIf.notOpened': 'the second run could not be opened: {error}',
  'whatIf.failed': 'The comparison with {change} could not be made: {error}',
  'whatIf.ended': 'The comparison with {change} ended: {error}',
  'whatIf.breakpoint': 'in run B, {what}',
  'whatIf.heading': 'What if: {change}',
  'whatIf.a': 'A · as written',
  'whatIf.allSame': 'every request got the same answer',
  'whatIf.differing': {
    one: '{differing} of {count} request answered differently',
    other: '{differing} of {count} requests answered differently',
  },
  'whatIf.stop': 'Stop comparing',
  'whatIf.live': 'A live session: both runs compared up to {at} ms. Each action compares them again.',
  'whatIf.again': 'Compare up to now',
  'whatIf.noDivergence': 'The two runs are the same, event for event: this change makes no difference here.',
  'whatIf.divergence': 'At {at} the runs part. {inA}; {inB}.',
  'whatIf.inA': 'In A (as written), {what}',
  'whatIf.inB': 'in B ({change}), {what}',
  'whatIf.runEnded': 'nothing more happens (its run has ended)',
  'whatIf.nothingNew': 'nothing happens then that the other run lacks',
  'whatIf.goTo': 'Go to {at} ms',
  'whatIf.change.acks': 'every request with acks={acks}',
  'whatIf.change.actionAcks': '{action} with acks={acks}',
  'whatIf.change.timeout': 'every request with timeout_ms {ms}',
  'whatIf.change.actionTimeout': '{action} with timeout_ms {ms}',
  'whatIf.change.at': '{action} at {at} ms instead of {was} ms',
  'whatIf.change.removed': 'without {action}',
  'whatIf.of.pause': "broker {broker}'s pause",
  'whatIf.of.resume': "broker {broker}'s resume",
  'whatIf.of.crash': "broker {broker}'s crash",
  'whatIf.of.restart': "broker {broker}'s restart",
  'whatIf.of.elect': 'the election of broker {broker} for {partition}',
  'outcome.noAnswer': 'no answer',
  'outcome.closed': '{errors}, connection closed',
  'outcome.gaveUp': '{errors}, timed out in the producer',
  'whatIf.request': 'request',
  'whatIf.verdict': 'same or different',
  'whatIf.follow': 'Follow {id} in both runs',
  'whatIf.absent': 'not in this run',
  'whatIf.answer.none': '{outcome}, no response (acks=0)',
  'whatIf.answer.atOnly': '{outcome} at {at} ms',
  'whatIf.answer.at': '{outcome} at {at} ms · offset {offsets}',
  'whatIf.answer.gaveUp': '{outcome} at {at} ms',
  'whatIf.lost': '{answer} · {lost} at {at} ms',
  'whatIf.differs': '≠ differs',
  'whatIf.same': 'same',

  // The Kafka check's mark (kafka-check.js); the record's differences and reasons stay as written.
  'kafkaCheck.kafka': 'Apache Kafka {version}',
  'kafkaCheck.runs': { one: '{count} run, {date}', other: '{count} runs, {date}' },
  'kafkaCheck.runsBoth': '{count} runs of A and B, {date}',
  'kafkaCheck.explained': {
    one: '; {count} difference traced to the model\'s simplifications or the driver\'s limits ({list})',
    other: '; {count} differences traced to the model\'s simplifications or the driver\'s limits ({list})',
  },
  'kafkaCheck.allExplained': {
    one: '✓ Checked against {kafka}: the same, but for {count} difference traced to the model\'s simplifications or the driver\'s limits ({list}) ({runs})',
    other: '✓ Checked against {kafka}: the same, but for {count} differences traced to the model\'s simplifications or the driver\'s limits ({list}) ({runs})',
  },
  'kafkaCheck.agree': '✓ Checked against {kafka}: the same answers{explained} ({runs})',
  'kafkaCheck.noise': '✓ Checked against {kafka}: the same answers where Kafka\'s own runs agree{explained} ({runs})',
  'kafkaCheck.disagree': '✗ {kafka} answered differently: {differences} ({runs})',
  'kafkaCheck.notDriven': 'Not checked against {kafka}: its point is a race a real cluster cannot be held to ({runs})',
  'kafkaCheck.title': '{fields} fields compared with {kafka}: error codes, offsets, ISR, HW and LEO exactly, answer times within a window ({doc})',
};
