// Bundles the playground for the page and for authors who embed it (esbuild), into dist/:
//
//   dist/purgatory-playground.js     one ES module: the <purgatory-playground> element, its views,
//                                    styles, curated scenarios and the wasm-bindgen glue
//   dist/purgatory-playground-*.js   chunks the module imports on demand (the two big S15 scenarios)
//   dist/purgatory-playground.wasm   the broker model, found next to the module (import.meta.url)
//   dist/purgatory-playground-early.js  a classic script a page may load first, to start compiling
//                                    the .wasm before the module arrives (www/compile-early.js)
//   dist/purgatory-playground.html   the whole playground in one file, the wasm inlined: opens
//                                    from file:// and on hosts that take a single file
//   dist/kafka-check.html            docs/kafka-check.md as a page, which the Kafka check's mark
//                                    opens (scripts/markdown-page.mjs)
//
// Needs www/pkg from `npm run build:wasm`. Prints each file's size, raw and gzipped.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import zopfli from '@gfx/zopfli';
import { createHash } from 'node:crypto';
import { cspMeta, standaloneCsp } from './csp.mjs';
import { markdownPage } from './markdown-page.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const GLUE = path.join(ROOT, 'www/pkg/purgatory_playground.js');
const WASM = path.join(ROOT, 'www/pkg/purgatory_playground_bg.wasm');

/**
 * wasm-bindgen's glue keeps its instance in module variables; wrapped in a function, every call
 * makes an independent set of bindings, so a playground whose instance trapped can get a fresh one.
 */
function glueAsFactory(text) {
  const exported = [];
  const body = text
    .replace(/^export (class|function) (\w+)/gm, (_, kind, name) => { exported.push(name); return `${kind} ${name}`; })
    .replace(/^export \{[^}]*\};?\s*$/gm, '');
  if (!exported.includes('Playground')) throw new Error(`unexpected wasm-bindgen glue in ${GLUE}: no Playground export`);
  return `export function createBindings() {\n${body}\nreturn { ${exported.join(', ')}, initSync };\n}\n`;
}

const SCENARIOS = path.join(ROOT, 'scenarios');

/**
 * A curated scenario as the module carries it: its story's captions in other languages
 * (`captions`) go to that language's chunk instead (`storyCaptions`), so that a reader in English
 * downloads no Chinese.
 */
function scenarioForModule(file) {
  const text = readFileSync(file, 'utf8');
  // JSON.parse keeps integers exactly only up to 2^53; a scenario's seed may go to 2^64 - 1.
  if (/[\d]{16,}/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) throw new Error(`${file}: a number of 16 digits or more would not survive JSON.parse: bundle this scenario as its text`);
  const doc = JSON.parse(text);
  for (const step of doc.story ?? []) delete step.captions;
  return JSON.stringify(doc); // compact: one string literal the model reads as is
}

/** The curated stories' captions in `lang`, by scenario name: `{name: [caption per step]}`. */
function storyCaptions(lang) {
  const byName = {};
  for (const file of readdirSync(SCENARIOS).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(readFileSync(path.join(SCENARIOS, file), 'utf8'));
    const captions = (doc.story ?? []).map((step) => step.captions?.[lang] ?? null);
    if (captions.some(Boolean)) byName[doc.name] = captions;
  }
  return byName;
}

function plugins(wasmSourceCode) {
  return [{
    name: 'playground',
    setup(b) {
      // A curated scenario is bundled as its JSON text, which the model reads as is: one string
      // literal costs the browser far less to parse at load than the same data as object literals.
      b.onLoad({ filter: /[\\/]scenarios[\\/][^\\/]+\.json$/ }, (args) => ({
        contents: `export default ${JSON.stringify(scenarioForModule(args.path))};`,
        loader: 'js',
      }));
      // `story-captions:zh-CN`: the curated stories in that language (www/i18n.js loads it with
      // the language's messages).
      b.onResolve({ filter: /^story-captions:/ }, (args) => ({ path: args.path.slice('story-captions:'.length), namespace: 'story-captions' }));
      b.onLoad({ filter: /.*/, namespace: 'story-captions' }, (args) => ({
        contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(storyCaptions(args.path)))});`,
        loader: 'js',
      }));
      b.onLoad({ filter: /purgatory_playground\.js$/ }, (args) => ({
        contents: glueAsFactory(readFileSync(args.path, 'utf8')),
        loader: 'js',
      }));
      b.onResolve({ filter: /^bundle-files$/ }, () => ({ path: 'bundle-files', namespace: 'virtual' }));
      b.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({ contents: wasmSourceCode, loader: 'js' }));
    },
  }];
}

// The module's own files: the model, and the full page a share link from an embed opens (the
// self-contained page is that page itself, and its links are its own address).
const FETCHED = `export const wasmSource = () => fetch(new URL('./purgatory-playground.wasm', import.meta.url));
export const fullPage = () => new URL('./purgatory-playground.html', import.meta.url).href;
export const checkReport = () => new URL('./kafka-check.html', import.meta.url).href;`;

/**
 * The self-contained page's model: the .wasm deflated, as base64, inflated by the browser's
 * DecompressionStream. Zopfli writes deflate that any inflater reads, 5% smaller than zlib's
 * level 9 (237,411 bytes against 249,493 for the .wasm of 2026-12-07, 2 s of build time).
 */
async function inlined(wasmBytes) {
  const deflated = await zopfli.deflateAsync(wasmBytes, { numiterations: 5 });
  const packed = Buffer.from(deflated).toString('base64');
  return `export const fullPage = () => null;
export const checkReport = () => null;
const PACKED = ${JSON.stringify(packed)};
export async function wasmSource() {
  const bytes = Uint8Array.from(atob(PACKED), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}`;
}

/**
 * The element as one ES module. With `split`, what www/ imports on demand (the two big S15
 * scenarios) becomes chunk files beside it, loaded only when picked; without, all of it is inlined
 * (the self-contained page). Returns `{main, chunks: [[name, bytes]]}`.
 */
async function bundle(wasmSourceCode, { split }) {
  const out = await build({
    entryPoints: { 'purgatory-playground': path.join(ROOT, 'www/element.js') },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    splitting: split,
    outdir: DIST,
    chunkNames: 'purgatory-playground-[name]-[hash]',
    target: ['chrome110', 'firefox115', 'safari16.4'],
    loader: { '.css': 'text', '.json': 'json' },
    legalComments: 'none',
    plugins: plugins(wasmSourceCode),
    logLevel: 'warning',
  });
  const files = out.outputFiles.map((f) => [path.basename(f.path), Buffer.from(f.contents)]);
  const main = files.find(([name]) => name === 'purgatory-playground.js');
  if (!main) throw new Error(`esbuild wrote no purgatory-playground.js: ${files.map(([n]) => n).join(', ')}`);
  return { main: main[1], chunks: files.filter((f) => f !== main) };
}

function standalonePage(script) {
  const safe = script.toString('utf8').replace(/<\/(script)/gi, '<\\/$1');
  // The policy allows exactly this inline script, by the hash of its text as it stands in the page.
  const hash = createHash('sha256').update(safe, 'utf8').digest('base64');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${cspMeta(standaloneCsp(hash))}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Purgatory Playground: how Kafka answers acks=all</title>
<link rel="icon" href="data:,">
<style>html,body{margin:0;min-height:100%}body{background:Canvas}</style>
</head>
<body>
<purgatory-playground layout="page" controls="full" views="all"></purgatory-playground>
<noscript>This page runs a Kafka broker model in WebAssembly and needs JavaScript.</noscript>
<script type="module">${safe}</script>
</body>
</html>
`;
}

function report(file, bytes) {
  const gz = gzipSync(bytes, { level: 9 }).length;
  console.log(`bundle: ${path.relative(ROOT, file)}: ${bytes.length.toLocaleString('en')} B, ${gz.toLocaleString('en')} B gzipped`);
}

const wasmBytes = readFileSync(WASM);
rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });
const module = await bundle(FETCHED, { split: true });
const single = await bundle(await inlined(wasmBytes), { split: false });
if (single.chunks.length) throw new Error('the self-contained page must be one file, but esbuild split it');
const outputs = [
  [path.join(DIST, 'purgatory-playground.js'), module.main],
  ...module.chunks.map(([name, bytes]) => [path.join(DIST, name), bytes]),
  [path.join(DIST, 'purgatory-playground.html'), Buffer.from(standalonePage(single.main))],
  // What the Kafka check found, which its mark on the page opens (the module's own file: a
  // self-contained page, travelling alone, has none).
  [path.join(DIST, 'kafka-check.html'), Buffer.from(markdownPage(readFileSync(path.join(ROOT, 'docs/kafka-check.md'), 'utf8')))],
];
for (const [file, bytes] of outputs) writeFileSync(file, bytes);
copyFileSync(WASM, path.join(DIST, 'purgatory-playground.wasm'));
copyFileSync(path.join(ROOT, 'www/compile-early.js'), path.join(DIST, 'purgatory-playground-early.js'));
for (const [file, bytes] of outputs) report(file, bytes);
report(path.join(DIST, 'purgatory-playground.wasm'), wasmBytes);
