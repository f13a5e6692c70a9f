// The Docusaurus recipe of docs/embedding.md, in the real framework from npm (e2e/sites/docusaurus,
// Docusaurus 3.10.2 with React 19, its lock file committed): the site is built on a sub-path base
// with the module in `scripts` and the element written as JSX in MDX (`story` bare), then driven as a reader would
// (e2e/docs-sites.mjs), below Docusaurus's sticky 60 px navbar and with its dark switch.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { copyElementFiles, driveDocsSite } from './docs-sites.mjs';

const SITE = path.join(REPO_ROOT, 'e2e/sites/docusaurus');
const BASE = 'target/e2e-docusaurus/';

/** Installs Docusaurus (once), copies the built element into `static/`, builds the site. */
function buildSite(ctx) {
  const t0 = Date.now();
  if (!existsSync(path.join(SITE, 'node_modules/@docusaurus/core'))) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: SITE, stdio: 'inherit' });
  }
  const installed = Date.now();
  copyElementFiles(path.join(SITE, 'static/pp'));
  execFileSync(path.join(SITE, 'node_modules/.bin/docusaurus'), ['build', '--out-dir', path.join(REPO_ROOT, BASE)], { cwd: SITE, stdio: 'pipe' });
  ctx.log(`Docusaurus: install ${installed - t0} ms, build ${Date.now() - installed} ms`);
}

/** The first run installs Docusaurus: time for a slow network or a cold build. */
export const timeoutMs = 600000;

export default async function docusaurusSpec(ctx) {
  buildSite(ctx);
  await driveDocsSite(ctx, {
    name: 'Docusaurus',
    url: `${ctx.baseURL}${BASE}`,
    storyLink: '.navbar a[href$="/story/"]',
    clientSide: true,
    header: '.navbar',
    toggleDark: async (page) => {
      // Its switch cycles light, dark (and the system's choice, where enabled): click to dark.
      for (let i = 0; i < 3 && await page.evaluate(() => document.documentElement.dataset.theme !== 'dark'); i++) {
        await page.click('.navbar button[aria-label*="dark and light mode"]:not([disabled])');
      }
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    },
  });
}
