// A picture of a moment, for slides and static docs: the views as they are drawn now (the clock,
// the narration, the timeline and every panel of both runs), as one SVG file. The views are HTML,
// so the SVG holds a copy of them in a <foreignObject> with the element's own stylesheet: the
// picture is the page's own drawing, scaled without loss, and its text stays text (searchable,
// selectable). Nothing interactive is kept: the copy has no toolbar, menus, notices, caption,
// forms or buttons' focus rings.

/** What the picture leaves out: controls and messages, which say nothing about the moment. */
const LEFT_OUT = '.top, .notices, .story, .kafka-mark, .live-sr, .produce-form, .help, .log-filter, .tl-zoom, .phases, .brokers button, .explain';

/**
 * The SVG text of `pp` (the playground's `.pp` box) as drawn now, with `css` (its stylesheet) and
 * a caption line naming the moment.
 */
export function pictureOf(pp, css, caption) {
  const width = Math.ceil(pp.getBoundingClientRect().width);
  const copy = pp.cloneNode(true);
  copy.classList.remove('fixed-height'); // the whole height, not the embed's scrolled window
  copy.removeAttribute('role');
  copy.removeAttribute('aria-label');
  for (const el of copy.querySelectorAll(LEFT_OUT)) el.remove();
  for (const el of copy.querySelectorAll('[hidden]')) el.remove();
  for (const el of copy.querySelectorAll('[style*="top"]')) el.style.top = ''; // sticky offsets
  const title = document.createElement('p');
  title.className = 'picture-caption';
  title.textContent = caption;
  copy.prepend(title);
  // Measured where the page lays it out: the same width, off screen, with the same styles.
  const stage = document.createElement('div');
  stage.style.cssText = `position:fixed;left:-100000px;top:0;width:${width}px;container:pp / inline-size`;
  stage.append(copy);
  pp.parentNode.append(stage);
  const height = Math.ceil(copy.getBoundingClientRect().height);
  stage.remove();
  const style = document.createElement('style');
  style.textContent = `${css}\n.picture-caption { margin: 0; padding: 6px 10px; font-weight: 600; border-bottom: 1px solid var(--line); }`;
  // The element is the container its layout queries ask about (`@container pp`): so is the copy's.
  const body = document.createElementNS('http://www.w3.org/1999/xhtml', 'div');
  body.setAttribute('style', `width:${width}px;container:pp / inline-size`);
  body.append(style, copy);
  const xhtml = new XMLSerializer().serializeToString(body);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`
    + `<foreignObject x="0" y="0" width="${width}" height="${height}">${xhtml}</foreignObject></svg>`;
}
