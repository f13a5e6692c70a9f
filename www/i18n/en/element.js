// The element itself (www/element.js): loading, a start that fails, the first visit's choice,
// and what a session link that cannot be opened says.
export default {
  'element.loading': 'Loading the broker model…',
  'element.fail': 'The playground could not start: {error}.',
  'element.fail.file': 'Pages opened from file:// cannot fetch the .wasm: serve the folder over HTTP, or use the self-contained purgatory-playground.html.',

  'element.thisSession': 'this session',
  'element.inline': 'the inline scenario',
  'element.link': 'the link',

  'welcome': 'New here? Start with',
  'welcome.story': 'a guided story (S03, a minute)',
  'welcome.article': 'the article',
  'welcome.drive': 'or drive it yourself',
  // With the page's defaults (request.timeout.ms 30 s, replica.lag.time.max.ms 30 s, the ISR
  // check every 15 s) the shrink after a pause commits at most 45,010 ms after the follower's
  // last caught-up fetch, so a request sent more than 15 s after the pause always outlives it;
  // one sent right away does only when a check happens to fall just right (about 2%).
  'welcome.hint': 'Try this: pause broker 2’s fetching, send an acks=all request, and watch it wait in the purgatory. Sent right away, it almost always times out after 30 s; sent more than 15 s after the pause, it completes when the ISR drops broker 2 (as in scenario S03). Or pick a scenario.',

  // What an author sees when an attribute asks for something the element cannot do (the code
  // words are variables: they stay as written in every language).
  'attr.problem': '{what}; {instead}.',
  'attr.notOneOf': '{attr} is not one of {choices}',
  'attr.views': { one: '{attr}: {unknown} is not a view ({choices})', other: '{attr}: {unknown} are not views ({choices})' },
  'attr.speed': '{attr} is not {auto} or a number of simulated ms per wall ms (0 < {name} ≤ {max})',
  'attr.height': '{attr} is not a length such as {a} or {b}',
  'attr.page': '{attr} is not a URL',
  'attr.nothingStarts': '{controls} without {autoplay}, {story} or the {timeline} view leaves nothing that starts the run',
  'attr.scenario': '{attr} is not a curated scenario (try {example})',
  'attr.src': '{attr} could not be loaded: {error}',
  'attr.source': '{source}: {error}',
  'attr.story': '{attr}: this session has no guided story',
  'attr.instead.default': 'using the default',
  'attr.instead.showing': 'showing {views}',
  'attr.instead.autoplay': 'add {autoplay}',
  'attr.instead.live': 'opening a live session with the defaults instead',
  'attr.instead.noStory': 'showing the run without one',

  'link.bad': 'This link could not be opened ({error})',
  'link.noSuchScenario': 'This link could not be opened (it names scenario "{name}", which does not exist)',
  'link.unknownScenario': 'There is no scenario called “{name}”',
  'link.instead': '{problem}; showing a live session instead.',
  'link.stays': '{problem}; the open session stays as it was.',
  'link.partly': 'Part of this link was left out: {problem}; the rest of it is open.',
  'session.left': {
    one: 'The session you were driving was closed, with your action.',
    other: 'The session you were driving was closed, with your {count} actions.',
  },
  'session.left.reopen': 'Reopen it',
  'session.left.label': 'your session',
  'session.left.notReopened': 'Your session could not be reopened: {error}. Download it to keep your work.',
  'seek.short': 'Computing the run to {asked} ms at once would hold the page for long: the playhead is at {at} ms, and the rest is computed as it plays.',
  'session.openedShort': 'This session was saved at {saved} ms, but computing that far at once would hold the page for long: it opens at {at} ms, and the rest of the run is computed as it plays.',
  'link.pastEnd': 'The link\'s instant {param} is past the end of this run; it opens at its end, {end} ms.',
  'link.noSuchRequest': 'The link selects {param}, a request this run does not have; {shown} is selected instead.',
  'link.noSuchRequest.none': 'The link selects {param}, a request this run does not have.',
  'link.opened.scenario': 'Opened the link: {name} at {at} ms.',
  "link.opened": "Opened the link's session at {at} ms.",
};
