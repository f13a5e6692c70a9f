// The Docusaurus recipe of docs/embedding.md, in the real framework from npm (e2e/sites/docusaurus,
// Docusaurus 3.10.2 with React 19, its lock file committed): the site is built on a sub-path base
// with the module in `scripts` and the element written as JSX in MDX (`story` bare), then driven
// as a reader would (e2e/docs-sites.mjs), below Docusaurus's sticky 60 px navbar and with its dark
// switch.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { SITE_TIMEOUT_MS, buildDocsSite, driveDocsSite, hasPackage, npmCi } from './docs-sites.mjs';

const SITE = path.join(REPO_ROOT, 'e2e/sites/docusaurus');
const BASE = 'target/e2e-docusaurus/';

export const timeoutMs = SITE_TIMEOUT_MS;

export default async function docusaurusSpec(ctx) {
  buildDocsSite(ctx, {
    name: 'Docusaurus',
    installed: () => hasPackage(SITE, '@docusaurus/core'),
    install: () => npmCi(SITE),
    elementDir: path.join(SITE, 'static/pp'),
    build: () => execFileSync(path.join(SITE, 'node_modules/.bin/docusaurus'), ['build', '--out-dir', path.join(REPO_ROOT, BASE)], { cwd: SITE, stdio: 'pipe' }),
  });
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
