/*
 * 64-bit page numbers, exact from the text box to the screen and the link:
 * the core keeps them as uint64_t, the page as numbers up to 2^53 - 1 and
 * BigInts above (wasm/protocol.ts PageNumber), so 2^64 - 1 and 2^53 + 1
 * (which a double rounds to 2^53) are shown as typed, and each grid cell is
 * as wide as the widest number.
 */
import { test, expect } from '../lib/fixtures.mjs';
import { PageLab } from '../lib/pagelab.mjs';

const MAX = '18446744073709551615'; /* 2^64 - 1 */
const PAST_DOUBLE = '9007199254740993'; /* 2^53 + 1: a double would show ...992 */
const REFS = `${MAX} ${PAST_DOUBLE} 7 ${MAX}`;

async function showsExactly(lab) {
	await expect(lab.byTestId('grid-cell-2-0')).toHaveText(MAX);
	await expect(lab.byTestId('grid-cell-2-1')).toHaveText(PAST_DOUBLE);
	const pages = (await lab.structurePages()).map((entry) => entry.page).sort();
	expect(pages).toEqual([MAX, PAST_DOUBLE].sort());
}

test.describe('page numbers of 64 bits', () => {
	test('are shown exactly in the grid, the structure, the current reference and the narration', async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 2, refs: REFS });
		await lab.goToStep(2);
		await showsExactly(lab);
		await expect(lab.byTestId('narration')).toContainText(PAST_DOUBLE);
		await lab.goToStep(3);
		/* LRU evicts the least recent: 2^64 - 1, named exactly. */
		await expect(lab.byTestId('narration')).toContainText(MAX);
		await lab.goToStep(4);
		await expect(lab.byTestId('grid-result-4')).toHaveText('F');
		await expect(lab.byTestId('grid-cell-4-1')).toHaveText(MAX);
	});

	test('fit their grid cells: no digit is clipped', async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 2, refs: REFS });
		await lab.goToStep(2);
		const clipped = await lab.byTestId('frame-grid').evaluate((grid) =>
			[...grid.querySelectorAll('[data-testid^="grid-cell-"]')].filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.dataset.testid));
		expect(clipped).toEqual([]);
	});

	test('survive the link: opening it elsewhere shows the same numbers', async ({ lab, page, context }) => {
		await lab.setScenario({ policy: 'lru', frames: 2, refs: REFS });
		await page.waitForFunction(() => location.hash.startsWith('#v1.'));
		const restored = new PageLab(await context.newPage());
		await restored.page.goto(page.url());
		await expect(restored.byTestId('step-counter')).toHaveText(/ \/ 4/);
		await restored.goToStep(2);
		await showsExactly(restored);
	});

	test('from an uploaded file, in hex, are the same pages as typed in decimal', async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 2, refs: '1' });
		await lab.byTestId('trace-upload').setInputFiles({ name: 'wide.trace', mimeType: 'text/plain', buffer: Buffer.from(`0xffffffffffffffff\n0x20000000000001\n7\n${MAX}\n`) });
		await lab.waitForStep(0, 4);
		await lab.goToStep(2);
		await showsExactly(lab);
		await lab.goToStep(4);
		await expect(lab.byTestId('grid-result-4')).toHaveText('F');
	});
});
