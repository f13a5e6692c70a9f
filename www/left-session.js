// A session with actions of the person's own, replaced by another (a scenario picked, a new
// setup, a file opened): kept before it goes, said once it has, and offered back.

/**
 * The open session of `app` as it stands, when it holds actions of the person's own: what opening
 * another in its place would lose (null when nothing would be). `offerBack` gives it back.
 */
export function keepOwn(app) {
  const own = app.guard(() => app.sim?.actions().filter((a) => a.by_user).length) ?? 0;
  const text = own ? app.guard(() => app.sim.exportSession(false)) : null;
  if (!text) return null;
  const label = app.source?.label ?? app.tr.t('session.left.label');
  return { own, at: app.sim.nowMs, selected: app.selected, source: { text, label, scenario: app.curatedName ?? undefined, was: app.sessionKind } };
}

/** Another session took the place of `kept` (see `keepOwn`): say so, and offer it back. */
export function offerBack(app, kept) {
  if (!kept) return;
  const { tr } = app;
  const reopen = async () => {
    const msg = await app.open(kept.source, { at: kept.at, selected: kept.selected, play: false });
    if (msg) app.notice('bad', tr.t('session.left.notReopened', { error: msg }), { download: kept.source.text });
    else app.host.syncUrl?.();
  };
  // A kind of its own: a link's warning on the same load (a session opened short) stays beside it.
  app.notice('left', tr.t('session.left', { count: kept.own }), {
    choices: [{ label: tr.t('session.left.reopen'), testid: 'reopen-left', primary: true, run: reopen }],
    download: kept.source.text,
  });
}
