// The VitePress recipe of docs/embedding.md, in the real framework from npm (e2e/sites/vitepress,
// VitePress 1.6.4, its lock file committed): the site is built on a sub-path base with the module
// in its head and Vue's `isCustomElement`, then driven as a reader would (e2e/docs-sites.mjs),
// below VitePress's fixed 64 px nav and with its dark switch.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { copyElementFiles, driveDocsSite } from './docs-sites.mjs';

const SITE = path.join(REPO_ROOT, 'e2e/sites/vitepress');
const BASE = 'target/e2e-vitepress/';

/** Installs VitePress (once), copies the built element into the public folder, builds the site. */
function buildSite(ctx) {
  const t0 = Date.now();
  if (!existsSync(path.join(SITE, 'node_modules/vitepress'))) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: SITE, stdio: 'inherit' });
  }
  const installed = Date.now();
  copyElementFiles(path.join(SITE, 'docs/public/pp'));
  execFileSync(path.join(SITE, 'node_modules/.bin/vitepress'), ['build', 'docs'], { cwd: SITE, stdio: 'pipe' });
  ctx.log(`VitePress: install ${installed - t0} ms, build ${Date.now() - installed} ms`);
}

/** The first run installs VitePress: time for a slow network or a cold build. */
export const timeoutMs = 600000;

export default async function vitepressSpec(ctx) {
  buildSite(ctx);
  await driveDocsSite(ctx, {
    name: 'VitePress',
    url: `${ctx.baseURL}${BASE}`,
    storyLink: 'a[href$="story.html"]',
    clientSide: true,
    header: '.VPNav',
    toggleDark: async (page) => {
      await page.click('.VPNavBarAppearance button, .VPSwitchAppearance');
      await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    },
  });
}
