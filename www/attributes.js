// What an element's attributes ask for (docs/embedding.md, "Attributes"): `parseOptions` reads
// them into the options the markup and the session are built from, with each bad value's problem
// (the element shows them, worded by `problemText` in its language, and uses the default);
// `hostScheme` reads the colour scheme a host page states, which `theme="auto"` follows.
import { VIEWS, DEFAULT_VIEWS, CONTROLS } from './template.js';

const SPEED_MAX = 100000;
const THEMES = ['auto', 'light', 'dark'];
const CSS_LENGTH = /^\d+(\.\d+)?(px|rem|em|vh|svh|dvh|%)$/;

/** The attributes by which documentation sites switch their colour scheme. */
export const SCHEME_ATTRS = ['class', 'data-theme', 'data-md-color-scheme', 'style'];

/**
 * The host page's own colour scheme where it states one, `dark` or `light`, else null:
 * `class="dark"` / `"light"` on <html> or <body> (VitePress), `data-theme` (Docusaurus),
 * `data-md-color-scheme` (MkDocs Material: `slate` is its dark one), or a `color-scheme` of just
 * `dark` or `light` on <html>.
 */
export function hostScheme(doc = document) {
  const els = [doc.documentElement, doc.body].filter(Boolean);
  for (const el of els) {
    if (el.classList.contains('dark')) return 'dark';
    if (el.classList.contains('light')) return 'light';
    const theme = el.getAttribute('data-theme');
    if (theme === 'dark' || theme === 'light') return theme;
    const md = el.getAttribute('data-md-color-scheme');
    if (md) return md === 'slate' ? 'dark' : 'light';
  }
  const scheme = getComputedStyle(doc.documentElement).colorScheme.trim();
  return scheme === 'dark' || scheme === 'light' ? scheme : null;
}

/**
 * A problem an author sees: what is wrong and what is shown instead, each a message and its
 * variables (`attr.*`, www/i18n/<lang>/element.js); a variable may be a function of the
 * translator (the model's error, worded in the language it is shown in).
 */
export const problem = (what, vars = {}, instead = 'attr.instead.default', insteadVars = {}) => ({ what, vars, instead, insteadVars });

/** A problem in `tr`'s language. */
export function problemText(p, tr) {
  const vars = Object.fromEntries(Object.entries(p.vars).map(([name, v]) => [name, typeof v === 'function' ? v(tr) : v]));
  return tr.t('attr.problem', { what: tr.t(p.what, vars), instead: tr.t(p.instead, p.insteadVars) });
}

/** The element's options from its attributes: `{opts, problems}`. */
export function parseOptions(el) {
  const problems = [];
  const bad = (...args) => problems.push(problem(...args));
  const layout = el.getAttribute('layout') === 'page' ? 'page' : 'embed';
  if (el.hasAttribute('layout') && !['page', 'embed'].includes(el.getAttribute('layout'))) bad('attr.notOneOf', { attr: `layout="${el.getAttribute('layout')}"`, choices: 'page, embed' });
  let views = layout === 'page' ? VIEWS.slice() : DEFAULT_VIEWS.slice();
  const rawViews = el.getAttribute('views');
  if (rawViews != null) {
    const asked = rawViews.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean).map((v) => (v === 'code-path' ? 'codepath' : v));
    if (asked.includes('all')) views = VIEWS.slice();
    else {
      const unknown = asked.filter((v) => !VIEWS.includes(v));
      const known = asked.filter((v) => VIEWS.includes(v));
      if (known.length) views = VIEWS.filter((v) => known.includes(v));
      if (unknown.length) {
        const vars = { attr: 'views', count: unknown.length, unknown: unknown.map((v) => `"${v}"`).join(', '), choices: `${VIEWS.join(', ')}, all` };
        if (known.length) bad('attr.views', vars, 'attr.instead.showing', { views: views.join(', ') });
        else bad('attr.views', vars);
      }
    }
  }
  let controls = layout === 'page' ? 'full' : 'minimal';
  const rawControls = el.getAttribute('controls');
  if (rawControls != null) {
    if (CONTROLS.includes(rawControls)) controls = rawControls;
    else bad('attr.notOneOf', { attr: `controls="${rawControls}"`, choices: CONTROLS.join(', ') });
  }
  let speed = 'auto';
  const rawSpeed = el.getAttribute('speed');
  if (rawSpeed != null && rawSpeed !== 'auto') {
    const n = Number(rawSpeed);
    if (Number.isFinite(n) && n > 0 && n <= SPEED_MAX) speed = n;
    else bad('attr.speed', { attr: `speed="${rawSpeed}"`, auto: 'auto', name: 'speed', max: String(SPEED_MAX) });
  }
  const theme = el.getAttribute('theme') ?? 'auto';
  if (!THEMES.includes(theme)) bad('attr.notOneOf', { attr: `theme="${theme}"`, choices: THEMES.join(', ') });
  const height = el.getAttribute('height');
  if (height != null && !CSS_LENGTH.test(height)) bad('attr.height', { attr: `height="${height}"`, a: '480px', b: '30rem' });
  const page = el.getAttribute('page');
  let pageUrl = null;
  try {
    if (page != null) pageUrl = new URL(page, document.baseURI).href;
  } catch { /* said below */ }
  if (page != null && !pageUrl) bad('attr.page', { attr: `page="${page}"` });
  if (controls === 'none' && !views.includes('timeline') && !['autoplay', 'story'].some((a) => el.hasAttribute(a))) {
    bad('attr.nothingStarts', { controls: 'controls="none"', autoplay: 'autoplay', story: 'story', timeline: 'timeline' }, 'attr.instead.autoplay', { autoplay: 'autoplay' });
  }
  return {
    problems,
    opts: {
      layout,
      views,
      controls,
      speed,
      loop: el.hasAttribute('loop'),
      autoplay: el.hasAttribute('autoplay'),
      story: el.hasAttribute('story'),
      theme: THEMES.includes(theme) ? theme : 'auto',
      height: height != null && CSS_LENGTH.test(height) ? height : null,
      // Where a share link from an embed opens (see `Controls.fullPage`).
      page: pageUrl,
    },
  };
}
