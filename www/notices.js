// The message lines above a playground's views: what happened that the views do not say (a
// fork, a breakpoint, a recovery, a refused link), each dismissable, at most three at a time, one
// per kind.
import { html, render } from './html.js';

const MAX_SHOWN = 3;

export class Notices {
  /**
   * @param {HTMLElement} box where the lines go
   * @param {{undo: () => void, download: (text: string) => void}} actions what a line's Undo and
   *   "Download the session" buttons do
   */
  constructor(box, actions) {
    this.box = box;
    this.actions = actions;
  }

  /**
   * Shows a line of kind `ok`, `warn`, `bad`, `bp` (breakpoint), `fork` or `hint` (the first
   * visit's suggestion), replacing the one of its kind: with an Undo button, or one that
   * downloads `download` (a session file's text).
   */
  show(kind, text, { undo = false, download = null } = {}) {
    const el = document.createElement('p');
    el.className = `notice ${kind}`;
    el.setAttribute('role', kind === 'bad' ? 'alert' : 'status');
    render(el, html`<span>${text}</span>${undo ? html` <button type="button" data-testid="undo" class="undo">Undo</button>` : null}${download ? html` <button type="button" class="download-saved">Download the session</button>` : null} <button type="button" class="dismiss" aria-label="Dismiss">×</button>`);
    el.querySelector('.undo')?.addEventListener('click', () => { el.remove(); this.actions.undo(); });
    el.querySelector('.download-saved')?.addEventListener('click', () => this.actions.download(download));
    el.querySelector('.dismiss').addEventListener('click', () => el.remove());
    this.clear(kind);
    this.box.append(el);
    while (this.box.children.length > MAX_SHOWN) this.box.firstElementChild.remove();
  }

  /** Removes the lines of `kind`, or every line. */
  clear(kind) {
    this.box.querySelectorAll(kind ? `.notice.${kind}` : '.notice').forEach((n) => n.remove());
  }
}
