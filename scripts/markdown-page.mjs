// A Markdown record as a page of its own: docs/kafka-check.md (what the Kafka check found, written
// by scripts/kafka-report.mjs) becomes dist/kafka-check.html, which the Kafka check's mark on the
// page opens. Only the Markdown that record is written in: `#` and `##` headings (the second with
// the anchor GitHub gives them, which the record's own links use), paragraphs, `- ` lists, tables,
// `code` spans and [links](#anchor). Every piece of text is escaped; a link goes to an anchor of
// the page or a relative or https address, nothing else. The page has no script.
import { cspMeta } from './csp.mjs';

/** The page's policy: its own style block, nothing to load or run. */
const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GitHub's anchor for a heading: lower case, spaces as `-`, other punctuation but `-` and `_` dropped. */
export const anchorOf = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** One line's text: code spans kept as written, links where the address is safe. */
function inline(text) {
  return text.split(/(`[^`]*`)/).map((piece, i) => {
    if (i % 2) return `<code>${escape(piece.slice(1, -1))}</code>`;
    return escape(piece).replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label, href) => (safeHref(href) ? `<a href="${href}">${label}</a>` : whole));
  }).join('');
}

/** An anchor of the page, an https address, or a relative one (no scheme: no javascript:). */
const safeHref = (href) => href.startsWith('#') || href.startsWith('https://') || !/^[^/?#]*:/.test(href);

/** A table row's cells: split at each `|` but an escaped `\|`. */
const cells = (row) => row.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim().replaceAll('\\|', '|'));

/** The body's markup for `markdown`. */
export function markdownBody(markdown) {
  const lines = markdown.split('\n');
  const out = [];
  let paragraph = [];
  const endParagraph = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      endParagraph();
      const level = heading[1].length;
      const id = level > 1 ? ` id="${escape(anchorOf(heading[2]))}"` : '';
      out.push(`<h${level}${id}>${inline(heading[2])}</h${level}>`);
    } else if (line.startsWith('|')) {
      endParagraph();
      const rows = [];
      while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++]);
      i--;
      const [head, , ...body] = rows;
      out.push(`<table><thead><tr>${cells(head).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead>`
        + `<tbody>${body.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('\n')}</tbody></table>`);
    } else if (line.startsWith('- ')) {
      endParagraph();
      const items = [];
      while (i < lines.length && lines[i].startsWith('- ')) items.push(lines[i++].slice(2));
      i--;
      out.push(`<ul>${items.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    } else if (!line.trim()) {
      endParagraph();
    } else {
      paragraph.push(line.trim());
    }
  }
  endParagraph();
  return out.join('\n');
}

/** The whole page: its title the first heading's text. */
export function markdownPage(markdown) {
  const title = /^# (.*)$/m.exec(markdown)?.[1] ?? 'Report';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${cspMeta(REPORT_CSP)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escape(title)} · Purgatory Playground</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid color-mix(in srgb, currentColor 25%, transparent); }
h2:target { background: color-mix(in srgb, Highlight 25%, transparent); }
table { border-collapse: collapse; display: block; overflow-x: auto; font-size: 13px; }
th, td { border: 1px solid color-mix(in srgb, currentColor 20%, transparent); padding: 3px 6px; text-align: left; vertical-align: top; }
code { font: 12.5px ui-monospace, monospace; overflow-wrap: anywhere; }
</style>
</head>
<body>
${markdownBody(markdown)}
</body>
</html>
`;
}
