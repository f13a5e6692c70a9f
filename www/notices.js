// The message lines above a playground's views: what happened that the views do not say (a
// fork, a breakpoint, a recovery, a refused link), each dismissable, at most three at a time, one
// per kind.
import { html, render } from './html.js';

const MAX_SHOWN = 3;

export class Notices {
  /**
   * @param {HTMLElement} box where the lines go
   * @param {{undo: () => void, download: (text: string) => void, focusAway?: () => void}} actions
   *   what a line's Undo and "Download the session" buttons do, and where the focus goes when the
   *   line it was on is closed
   * @param {import('./i18n.js').Translator} tr the language of the lines' own buttons
   */
  constructor(box, actions, tr) {
    this.box = box;
    this.actions = actions;
    this.tr = tr;
  }

  /**
   * Shows a line of kind `ok`, `warn`, `bad`, `bp` (breakpoint), `fork`, `left` (a session
   * closed, offered back), `hint` (the first visit's suggestion) or `welcome` (a first visit's ways
   * in), replacing the one of its kind: with
   * `choices` (buttons and links, each closing the line), an Undo button, or one that downloads
   * `download` (a session file's text); `dismissed` runs when the reader closes it with ×.
   */
  show(kind, text, { undo = false, download = null, choices = [], dismissed = null } = {}) {
    const el = document.createElement('p');
    el.className = `notice ${kind}`;
    el.setAttribute('role', kind === 'bad' ? 'alert' : 'status');
    // A choice is a button (`run`) or a link (`href`, and `run` when followed); either closes the line.
    const choice = (c, i) => (c.href
      ? html` <a class="choice" data-choice="${i}" data-testid="${c.testid}" href="${c.href}">${c.label}</a>`
      : html` <button type="button" class="${c.primary ? 'choice primary' : 'choice'}" data-choice="${i}" data-testid="${c.testid}">${c.label}</button>`);
    const { tr } = this;
    render(el, html`<span>${text}</span>${choices.map(choice)}${undo ? html` <button type="button" data-testid="undo" class="undo">${tr.t('notice.undo')}</button>` : null}${download ? html` <button type="button" class="download-saved">${tr.t('notice.download')}</button>` : null} <button type="button" class="dismiss" aria-label="${tr.t('notice.dismiss')}">×</button>`);
    el.querySelector('.undo')?.addEventListener('click', () => { this.drop(el); this.actions.undo(); });
    el.querySelector('.download-saved')?.addEventListener('click', () => this.actions.download(download));
    for (const node of el.querySelectorAll('[data-choice]')) {
      node.addEventListener('click', () => { this.drop(el); choices[Number(node.dataset.choice)].run?.(); });
    }
    el.querySelector('.dismiss').addEventListener('click', () => { this.drop(el); dismissed?.(); });
    this.clear(kind);
    this.box.append(el);
    while (this.box.children.length > MAX_SHOWN) this.box.firstElementChild.remove();
  }

  /**
   * Takes line `el` away after one of its own buttons was used. Where it held the focus, the focus
   * goes to the next line's first button, or where the playground says (`actions.focusAway`),
   * rather than falling to the page's body.
   */
  drop(el) {
    const hadFocus = el.contains(el.getRootNode().activeElement);
    const next = (el.nextElementSibling ?? el.previousElementSibling)?.querySelector('button, a');
    el.remove();
    if (!hadFocus) return;
    if (next) next.focus({ preventScroll: true });
    else this.actions.focusAway?.();
  }

  /** Removes the lines of `kind`, or every line but an offer of a session left (`left`). */
  clear(kind) {
    this.box.querySelectorAll(kind ? `.notice.${kind}` : '.notice:not(.left)').forEach((n) => n.remove());
  }
}
