// "Save picture" in the Share menu: the views as they are at the playhead, as an SVG file named for
// the scenario and the instant, that opens as an image of the same width with the moment's text in
// it (the waiting request, the clock) and none of the controls.
import { readFileSync } from 'node:fs';
import { playgroundsReady } from './lib.mjs';

export default async function pictureSpec(ctx) {
  const { page, errors } = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${ctx.baseURL}#scenario=s03-stalled-follower-completes-at-isr-shrink&t=25000&sel=p1`, { waitUntil: 'load' });
  await playgroundsReady(page);
  await page.click('[data-menu="share"]');
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="save-picture"]')]);
  ctx.assert(file.suggestedFilename() === 'purgatory-s03-stalled-follower-completes-at-isr-shrink-25000ms.svg', `named for the scenario and the instant: ${file.suggestedFilename()}`);
  const svg = readFileSync(await file.path(), 'utf8');
  ctx.assert(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1280"') && svg.includes('<foreignObject'), 'an SVG as wide as the element');
  ctx.assert(svg.includes('25,000 ms') && svg.includes('acksPending') && svg.includes('tryCompleteElseWatch'), 'with the moment in it: the clock, the waiting request, its code path');
  const drawn = svg.slice(svg.indexOf('</style>')); // the views, after the element's stylesheet
  ctx.assert(!drawn.includes('data-testid="play"') && !drawn.includes('data-testid="produce"') && !drawn.includes('Pause fetching'), 'and none of the controls');
  const view = await ctx.openPage({ viewport: { width: 1280, height: 900 } });
  await view.page.setContent(`<img id="picture" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`);
  const size = await view.page.waitForFunction(() => { const i = document.getElementById('picture'); return i.complete && i.naturalWidth ? [i.naturalWidth, i.naturalHeight] : null; }).then((h) => h.jsonValue());
  ctx.assert(size[0] === 1280 && size[1] > 900, `it opens as an image: ${size}`);
  await ctx.screenshot(view.page, 'picture-s03-25000');
  ctx.assertNoErrors(errors, 'save picture');
}
