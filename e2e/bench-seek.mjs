// Runs the seek bench (www/bench-seek.html) in headless Chromium against the built dist/ and prints
// its figures: node e2e/bench-seek.mjs [RUNS] (default 3 runs; each line is one run).
import { startServer, launchBrowser, openPage } from './lib.mjs';

const RUNS = Number(process.argv[2] || 3);
const server = await startServer();
const browser = await launchBrowser();
try {
  for (let i = 0; i < RUNS; i++) {
    const { page, context } = await openPage(browser);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}www/bench-seek.html`);
    await page.waitForSelector('[data-testid="bench-result"][data-done]', { state: 'attached', timeout: 300000 }).catch((e) => {
      throw new Error(`the seek bench did not finish: ${errors.join('; ') || e.message}`);
    });
    console.log(`seek bench: ${await page.textContent('[data-testid="bench-result"]')}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
