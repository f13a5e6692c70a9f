// The Content-Security-Policy of the shipped pages, in one place. index.html and the docs articles (docs/index.html, docs/zh-CN/index.html)
// carry PAGE_CSP in a <meta http-equiv> (tests/csp.test.mjs checks they do, word for word); the
// self-contained dist/purgatory-playground.html gets standaloneCsp() from scripts/bundle.mjs, with
// the hash of its one inline module script in place of 'self'.
//
// - script-src: our own files only; no inline script and no handler attribute runs.
//   'wasm-unsafe-eval' lets WebAssembly compile (it allows no JavaScript eval).
// - style-src 'unsafe-inline': the element's styles live in its shadow root and a few views set
//   positions in style attributes (a marker's left edge, a bar's width); styles run no script.
// - require-trusted-types-for 'script': the browser itself refuses a plain string written to
//   innerHTML and its kin; only markup from www/html.js's `html` tag passes, through its one
//   policy, named `purgatory-playground` (browsers without Trusted Types ignore both).
// - frame-ancestors cannot be set from a <meta>; a host that wants it sets it as a header.
import { POLICY_NAME as TRUSTED_TYPES_POLICY } from '../www/html.js';

const common = [
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  `trusted-types ${TRUSTED_TYPES_POLICY}`,
];

export const PAGE_CSP = ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", ...common].join('; ');

/** The policy of the self-contained page: its inline module script by hash, nothing fetched. */
export function standaloneCsp(scriptSha256Base64) {
  return ["default-src 'none'", `script-src 'sha256-${scriptSha256Base64}' 'wasm-unsafe-eval'`, ...common].join('; ');
}

/** The <meta> element that carries a policy. */
export const cspMeta = (policy) => `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
