// A quiet live cluster, as a person watches it at 1,000x: once the model finds it repeating itself
// (long-polls that find nothing, ISR checks that find everyone caught up), the event log says so
// and leaves the repetitions out (the trace does too, which is what lets a jump over them write
// the same trace as every round trip simulated); the person's next command ends the stretch, and
// the log says how much it left out, just before the command's own line.
import { playgroundsReady } from './lib.mjs';

export default async function idle(ctx) {
  const { page, errors } = await ctx.openPage();
  await page.goto(`${ctx.baseURL}?lang=en`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.selectOption('[data-testid="speed"]', '1000');
  const playing = () => page.evaluate(() => document.querySelector('purgatory-playground').playing);
  if (!(await playing())) await page.click('[data-testid="play"]');
  const log = page.locator('[data-testid="panel-log"]');
  await log.getByText(/the cluster repeats itself every [\d,]+ ms/).waitFor({ timeout: 30000 });
  await page.evaluate(() => document.querySelector('purgatory-playground').pause());
  await page.evaluate(() => document.querySelector('purgatory-playground').command({ action: 'pause_follower', broker: 2 }));
  await log.getByText(/broker 2's replica fetchers paused/).waitFor({ timeout: 5000 });
  const text = await log.innerText();
  const began = text.search(/the cluster repeats itself every/);
  const ended = text.search(/the idle stretch ends \(an action or a timer comes due\): the log left out [\d,]+ ms of repetitions, from [\d,]+ ms on/);
  const paused = text.search(/broker 2's replica fetchers paused/);
  ctx.assert(began >= 0 && ended > began && paused > ended, `the log says where the stretch began, where the command ended it, then the command: ${text.slice(Math.max(0, began - 200))}`);
  await log.scrollIntoViewIfNeeded();
  await ctx.screenshot(page, 'idle-stretch-log', { fullPage: false });
  ctx.assert(errors.length === 0, `no page errors: ${errors.join('; ')}`);
}
