// Runs the seek bench and the live-week bench (www/bench-seek.html, ?mode=week) in headless
// Chromium against the built dist/, each in a fresh page, and prints their figures:
// node e2e/bench-seek.mjs [RUNS] (default 3 runs of each; each line is one run).
import { startServer, launchBrowser, openPage } from './lib.mjs';

const RUNS = Number(process.argv[2] || 3);
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const [mode, query] of [['seek', ''], ['week', '?mode=week']]) for (let i = 0; i < RUNS; i++) {
    const { page, context } = await openPage(browser);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}www/bench-seek.html${query}`);
    await page.waitForSelector('[data-testid="bench-result"][data-done]', { state: 'attached', timeout: 300000 }).catch((e) => {
      throw new Error(`the ${mode} bench did not finish: ${errors.join('; ') || e.message}`);
    });
    console.log(`${mode} bench: ${await page.textContent('[data-testid="bench-result"]')}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
