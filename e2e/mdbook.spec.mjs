// The mdBook recipe of docs/embedding.md, in mdBook itself (0.5.4, installed by cargo from
// crates.io into target/tools/ the first time, about a minute): the book is built on a sub-path
// with the module in theme/head.hbs and the tag written as HTML in the chapters, then driven as a
// reader would (e2e/docs-sites.mjs), below mdBook's sticky menu bar and with its theme menu. mdBook
// has no client-side router: its links load pages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './lib.mjs';
import { SITE_TIMEOUT_MS, buildDocsSite, driveDocsSite } from './docs-sites.mjs';

const SITE = path.join(REPO_ROOT, 'e2e/sites/mdbook');
const BASE = 'target/e2e-mdbook/';
const MDBOOK_VERSION = '0.5.4';
const TOOLS = path.join(REPO_ROOT, 'target/tools');
const MDBOOK = path.join(TOOLS, 'bin/mdbook');

export const timeoutMs = SITE_TIMEOUT_MS;

export default async function mdbookSpec(ctx) {
  buildDocsSite(ctx, {
    name: 'mdBook',
    installed: () => existsSync(MDBOOK) && execFileSync(MDBOOK, ['--version'], { encoding: 'utf8' }).includes(MDBOOK_VERSION),
    install: () => execFileSync('cargo', ['install', 'mdbook', '--version', MDBOOK_VERSION, '--locked', '--no-default-features', '--root', TOOLS], { stdio: 'inherit' }),
    elementDir: path.join(SITE, 'src/pp'),
    build: () => execFileSync(MDBOOK, ['build', '-d', path.join(REPO_ROOT, BASE)], { cwd: SITE, stdio: 'pipe' }),
  });
  await driveDocsSite(ctx, {
    name: 'mdBook',
    url: `${ctx.baseURL}${BASE}`,
    storyLink: 'a[href="story.html"]:visible >> nth=0',
    clientSide: false,
    header: '#mdbook-menu-bar',
    toggleDark: async (page) => {
      await page.click('#mdbook-theme-toggle');
      await page.click('#mdbook-theme-navy');
      await page.waitForFunction(() => document.documentElement.classList.contains('navy'));
      await page.keyboard.press('Escape'); // the theme menu closes
    },
  });
}
