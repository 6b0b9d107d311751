/*
 * The compare view at the lecture-hall sizes (1280x720, 1366x768, 1920x1080,
 * 1024x768), with three runs, one of them with a parameter and its own
 * frames: nothing wider than the window (no sideways scrolling), the run
 * editors, the export buttons and every strip within its width.  Screenshots go to
 * e2e/screenshots/compare-<w>x<h>.png to be looked at.
 */
import { test, expect } from '../lib/fixtures.mjs';

const LINK = '?policy=fifo&frames=3&refs=1,2,3,4,1,2,5,1,2,3,4,5&view=compare&step=7&cmp=fifo,fifo@4,srrip;rrpv_bits=1';

for (const [width, height] of [[1280, 720], [1366, 768], [1920, 1080], [1024, 768]])
	test(`compare view at ${width}x${height}: three runs, no sideways scrolling`, async ({ lab, page }) => {
		await page.setViewportSize({ width, height });
		await page.goto(`./${LINK}`);
		await expect(lab.byTestId('compare-strip-2')).toBeVisible({ timeout: 30_000 });
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
		/* Within the window's width (a strip row is display: contents: its last cell is measured).  At 1024
		 * wide the shell puts the scenario form above the view, so the view starts below the fold there. */
		const outside = await page.evaluate((ids) => ids.filter((id) => {
			const element = document.querySelector(`[data-testid="${id}"]`);
			const box = (element.getBoundingClientRect().width ? element : element.lastElementChild).getBoundingClientRect();
			return !(box.width > 0 && box.left >= 0 && box.right <= innerWidth);
		}), ['compare-policy-2', 'compare-frames-1', 'compare-param-2-rrpv_bits', 'compare-export-png', 'compare-strip-0', 'compare-strip-2']);
		expect(outside, 'outside the window').toEqual([]);
		await page.screenshot({ path: `e2e/screenshots/compare-${width}x${height}.png` });
	});
