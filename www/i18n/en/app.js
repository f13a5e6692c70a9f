// The playground's own notices (www/app.js): the model stopping, a new future, the story closing.
export default {
  'app.trap.opening': 'the model stopped while opening it',
  'app.gone': 'the view was closed while it opened',
  'app.trap': 'The model stopped with an internal error. Rebuilding this session from its saved actions…',
  'app.recovered': 'Recovered: the session was rebuilt from its actions, at {at} ms. Nothing was lost.',
  'app.notRecovered': 'The model stopped and the session could not be rebuilt. Download it to keep your work.',
  'app.forked': 'The run after {at} ms was dropped: this is a new future.',
  'app.continuedLive': 'The scenario had ended; it goes on as a live session.',
  'app.storyClosed': 'The guided story is closed: it tells the scenario’s own run, and your action changed it. Undo brings that run back, and “Guided story” starts the story again.',
  'app.futureBack': 'The dropped future is back.',
};
