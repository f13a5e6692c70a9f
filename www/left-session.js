// A session with actions of the person's own, replaced by another (a scenario picked, a new
// setup, a file opened, a restart, the page reloaded): kept before it goes, said once it has, and
// offered back.
import { keepForReload, takeKeptForReload } from './settings.js';

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
  app.host.lastOffer = kept; // what a reload keeps when nothing newer is left (see `keepForNextLoad`)
  const { tr } = app;
  const reopen = async () => {
    const msg = await app.open(kept.source, { at: kept.at, selected: kept.selected, play: false });
    if (msg) app.notice('bad', tr.t('session.left.notReopened', { error: msg }), { download: kept.source.text });
    else {
      kept.answered = true; // the next reload no longer offers it (see `keepForNextLoad`)
      app.host.syncUrl?.();
    }
  };
  // A kind of its own: a link's warning on the same load (a session opened short) stays beside it.
  app.notice('left', tr.t('session.left', { count: kept.own }), {
    choices: [{ label: tr.t('session.left.reopen'), testid: 'reopen-left', primary: true, run: reopen }],
    download: kept.source.text,
    dismissed: () => { kept.answered = true; }, // declined: not offered again
  });
}

/**
 * The full page is left (a reload, Back): the session of one's own is kept for the tab's next
 * load, or, with none, the last offer made (`offerBack`) and neither taken nor dismissed (so Back
 * after leaving it offers it still).
 */
export function keepForNextLoad(app, offered) {
  keepForReload(keepOwn(app) ?? (offered?.answered ? null : offered) ?? null);
}

/** Offers back what the tab's last load was left with, if anything. */
export function offerLastLoad(app) {
  offerBack(app, takeKeptForReload());
}
