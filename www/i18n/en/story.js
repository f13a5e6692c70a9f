// The guided story's frame (www/story.js): where the story is, its buttons, and the card after
// its last caption. The captions themselves come from the scenario files.
export default {
  'story.card': 'Guided story',
  'story.intro': 'Guided story · {count} steps',
  'story.progress': 'Step {step} of {steps} · {at} ms',
  'story.playingTo.progress': 'Playing to step {step} of {steps} · {at} ms',
  'story.playingTo': 'Playing to {at} ms… (Next again to go there at once)',
  'story.before': 'Before the story’s first moment. “Next” plays to it.',
  'story.after.progress': 'After the story · {at} ms',
  'story.after': 'The story is over: the run plays on to its end. Scrub the timeline to look again at any instant.',
  'story.after.end.progress': 'After the story · the end of the run, {at} ms',
  'story.after.end': 'The story is over and the scenario has reached its end. Scrub the timeline to look again at any instant.',

  'story.back': '◀ Back',
  'story.next': 'Next ▶',
  'story.playToTheEnd': 'Play to the end ▶',
  'story.ownWhatIf': 'The story tells this scenario’s own what-if: run B is {change} again.',
  'story.noSuchStep': 'The link names step {step}, but this story has {steps} steps: it opens where the link’s instant falls.',
  'story.stepElsewhere': 'The link names step {step}, which is at {stepAt} ms, but its instant is {at} ms: it opens at {at} ms.',
  'story.toTheEnd': 'To the end ▶▶',
  'story.again': 'Story again ↺',
  'story.live': 'Continue as a live session',
  'story.close': 'Close the story',
};
