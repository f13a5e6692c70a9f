// Measures the page: time to interactive from loopback (navigation start -> [data-testid=ready])
// and frames per second with 1,000 waiting requests (www/bench.html). node e2e/bench.mjs
import { startServer, launchBrowser, openPage } from './lib.mjs';

const server = await startServer();
const browser = await launchBrowser();
try {
  const tti = [];
  for (let i = 0; i < 5; i++) {
    const { page, context } = await openPage(browser);
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.waitForSelector('[data-testid="ready"]', { state: 'attached' });
    tti.push(await page.evaluate(() => performance.getEntriesByName('playground-ready')[0].startTime));
    await context.close();
  }
  tti.sort((a, b) => a - b);
  console.log(`time to interactive (ms, 5 cold contexts): ${tti.map((t) => t.toFixed(0)).join(', ')}; median ${tti[2].toFixed(0)}`);
  const { page } = await openPage(browser);
  await page.goto(`${server.url}www/bench.html?n=1000&seconds=5`);
  await page.waitForSelector('[data-testid="bench-result"][data-done]', { timeout: 60000 });
  console.log(`fps with 1,000 waiting requests: ${await page.textContent('[data-testid="bench-result"]')}`);
} finally {
  await browser.close();
  await server.stop();
}
