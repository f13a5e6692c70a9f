// Starts compiling the broker model as soon as a page has read this small classic script, while
// the element's module is still on its way; the element takes the promise (www/wasm-module.js)
// instead of fetching the .wasm itself, and fetches it after all when this failed. A file rather
// than an inline script, so that a page with a strict Content-Security-Policy runs it too.
// scripts/bundle.mjs copies it to dist/purgatory-playground-early.js, next to the .wasm.
window.purgatoryPlaygroundWasm = WebAssembly.compileStreaming(
  fetch(new URL('purgatory-playground.wasm', document.currentScript.src)),
).catch(() => null);
