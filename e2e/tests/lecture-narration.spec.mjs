/*
 * The whole "why" of a step on a projector: in lecture mode, at each of the
 * four projector sizes, the step whose narration is longest (for Linux,
 * Linux with RRIP aging and the three RRIP policies, at each frame count the
 * presets use; e2e/narration-worst-steps.json, kept honest by
 * web/test/narration-worst-steps.test.ts) is shown whole: its box is not
 * scrolled or cut (scrollHeight fits clientHeight), the box lies inside
 * the viewport, and its text is 24 px and nowhere outside the viewport.
 * The kernel counters below it get the height left: whole rows of them
 * (the rest scroll), never a row cut at the panel's edge.
 * Each policy writes e2e/screenshots/lecture-narration-<policy>-<w>x<h>.png
 * of its largest frame count.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from '../lib/fixtures.mjs';
import { PROJECTORS, expectCountersWhole, expectLectureText, expectLocatorOnScreen } from '../lib/screen.mjs';

const WORST = JSON.parse(readFileSync(new URL('../narration-worst-steps.json', import.meta.url), 'utf8'));

for (const [width, height] of PROJECTORS) {
	test.describe(`the longest narration at ${width}x${height}`, () => {
		test.use({ viewport: { width, height } });

		for (const [policy, steps] of Object.entries(WORST.steps))
			test(`${policy}: the longest step at each preset frame count reads whole, at 24 px, on screen`, async ({ lab, page }) => {
				test.setTimeout(120_000);
				for (const [frames, step] of Object.entries(steps)) {
					await lab.open(`?policy=${policy}&frames=${frames}&${WORST.trace}&view=step&lecture=1&step=${step}`);
					await expect(lab.byTestId('structure')).toHaveAttribute('data-step', String(step), { timeout: 30_000 });
					await page.waitForTimeout(900); /* transitions and the fit settle */
					const narration = lab.byTestId('narration');
					const fit = await narration.evaluate((box) => {
						const shown = box.querySelector('[data-testid="narration-folded"]') ?? box;
						const text = shown.getBoundingClientRect();
						const inner = box.getBoundingClientRect();
						return {
							scroll: box.scrollHeight,
							client: box.clientHeight,
							/* The text's own box inside the narration's: nothing clipped by the box's edges. */
							inside: text.top >= inner.top - 1 && text.bottom <= inner.bottom + 1,
							text: shown.textContent,
						};
					});
					expect(fit.scroll, `${policy}, ${frames} frames, step ${step}: "${fit.text}" cut`).toBeLessThanOrEqual(fit.client + 1);
					expect(fit.inside, `${policy}, ${frames} frames, step ${step}: text inside its box`).toBe(true);
					await expectLocatorOnScreen(narration, `${policy}, ${frames} frames: narration`, { width, height });
					await expectCountersWhole(lab, `${policy}, ${frames} frames, step ${step}`);
					await expectLectureText(lab, { width, height });
					expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([width, height]);
				}
				await page.screenshot({ path: `e2e/screenshots/lecture-narration-${policy}-${width}x${height}.png` });
			});
	});
}
