/*
 * Long lists are drawn only where they can be seen (components/step/ChipList.tsx):
 * with thousands of frames a list is a scroll box that holds the chips of the
 * rows in view, follows the page each step references, and draws the rest
 * when scrolled to; short lists stay whole.
 */
import { test, expect } from '../lib/fixtures.mjs';

const FRAMES = 2048;
/* Pages 0..FRAMES-1 fill memory; the last reference hits a page deep in the list. */
const DEEP = FRAMES - 100;
const REFS = [...Array.from({ length: FRAMES }, (_, i) => i), DEEP].join(' ');

/* Straight to step k with the slider (stepping there one by one would take minutes). */
async function jump(lab, k) {
	await lab.byTestId('scrub').fill(String(k));
	await lab.waitForStep(k);
}

async function drawnPages(lab, list) {
	return lab.byTestId(`list-${list}`).locator('[data-testid="page"]').count();
}

test.describe(`CLOCK with ${FRAMES} frames`, () => {
	test('draws a window of the frames list, not every page, and says which part', async ({ lab }) => {
		await lab.setScenario({ policy: 'clock', frames: FRAMES, refs: REFS });
		await jump(lab, FRAMES);
		const drawn = await drawnPages(lab, 'frames');
		expect(drawn).toBeGreaterThan(0);
		expect(drawn).toBeLessThan(FRAMES / 4);
		await expect(lab.byTestId('list-frames-window')).toContainText(`of ${FRAMES}`);
		/* Every drawn chip knows its place in the whole list. */
		const chip = lab.byTestId('list-frames').locator('[data-testid="page"]').first();
		await expect(chip).toHaveAttribute('aria-setsize', String(FRAMES));
	});

	test('follows the page just referenced to the end of the list; scrolling back draws the head', async ({ lab }) => {
		await lab.setScenario({ policy: 'clock', frames: FRAMES, refs: REFS });
		await jump(lab, FRAMES);
		const chip = (position) => lab.byTestId('list-frames').locator(`[aria-posinset="${position}"]`);
		/* Step FRAMES loaded page FRAMES-1 into the last slot: the box shows it, not the head. */
		await expect(chip(FRAMES)).toHaveAttribute('data-page', String(FRAMES - 1));
		await expect(chip(1)).toHaveCount(0);
		await lab.byTestId('list-frames').evaluate((list) => {
			list.parentElement.scrollTop = 0;
		});
		await expect(chip(1)).toHaveAttribute('data-page', '0');
		await expect(chip(FRAMES)).toHaveCount(0);
	});

	test('the page a step references is drawn, wherever it is in the list', async ({ lab }) => {
		await lab.setScenario({ policy: 'clock', frames: FRAMES, refs: REFS });
		await jump(lab, FRAMES + 1);
		await expect(lab.byTestId('list-frames').locator(`[data-testid="page"][data-page="${DEEP}"]`)).toHaveCount(1);
	});
});

test('Linux with 2048 frames draws windows of its lanes', async ({ lab }) => {
	await lab.setScenario({ policy: 'linux', frames: FRAMES, refs: REFS, params: { anon_percent: 0 } });
	await jump(lab, FRAMES);
	const total = await lab.byTestId('structure').locator('[data-testid="page"]').count();
	expect(total).toBeGreaterThan(0);
	expect(total).toBeLessThan(FRAMES / 4);
});

test('a Linux lane below the window follows the referenced page before it is scrolled to', async ({ lab, page }) => {
	/* Mapped file pages: the hit on DEEP sets its accessed bit and leaves it a hundred pages down the inactive list. */
	await lab.setScenario({ policy: 'linux', frames: FRAMES, refs: REFS, params: { anon_percent: 0, file_access: 'mapped' } });
	await jump(lab, FRAMES + 1);
	const lane = lab.byTestId('list-inactive_file');
	/* The list's scroll box (the list itself moves up as the box scrolls). */
	expect((await lane.locator('xpath=..').boundingBox()).y, 'the lane lies below the window').toBeGreaterThan(page.viewportSize().height);
	await expect(lane.locator(`[data-testid="page"][data-page="${DEEP}"]`)).toHaveCount(1);
	await lane.scrollIntoViewIfNeeded();
	await expect(lane.locator(`[data-testid="page"][data-page="${DEEP}"]`)).toBeInViewport();
});

test('a short list is drawn whole, with no scroll box', async ({ lab }) => {
	await lab.setScenario({ policy: 'lru', frames: 40, refs: Array.from({ length: 60 }, (_, i) => i).join(' ') });
	await jump(lab, 60);
	expect(await drawnPages(lab, 'recency')).toBe(40);
	await expect(lab.byTestId('list-recency-window')).toHaveCount(0);
});
