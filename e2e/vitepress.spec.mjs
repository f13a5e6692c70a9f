// The VitePress recipe of docs/embedding.md, in the real framework from npm (e2e/sites/vitepress,
// VitePress 1.6.4, its lock file committed): the site is built on a sub-path base with the module
// in its head and Vue's `isCustomElement`, then driven as a reader would (e2e/docs-sites.mjs),
// below VitePress's fixed 64 px nav and with its dark switch.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { SITE_TIMEOUT_MS, buildDocsSite, driveDocsSite, hasPackage, npmCi } from './docs-sites.mjs';

const SITE = path.join(REPO_ROOT, 'e2e/sites/vitepress');
const BASE = 'target/e2e-vitepress/';

export const timeoutMs = SITE_TIMEOUT_MS;

export default async function vitepressSpec(ctx) {
  buildDocsSite(ctx, {
    name: 'VitePress',
    installed: () => hasPackage(SITE, 'vitepress'),
    install: () => npmCi(SITE),
    elementDir: path.join(SITE, 'docs/public/pp'),
    build: () => execFileSync(path.join(SITE, 'node_modules/.bin/vitepress'), ['build', 'docs'], { cwd: SITE, stdio: 'pipe' }),
  });
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
