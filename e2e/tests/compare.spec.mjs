/*
 * The compare view: policies side by side on the same trace, one hit/miss strip
 * each, the first step where they part ways marked.  On the Silberschatz string
 * with 3 frames FIFO and LRU agree up to reference 6 and part at reference 7
 * (page 0: FIFO evicted it at reference 6, LRU kept it), so the mark is at 7.
 * There every policy holds pages 0, 2 and 3, and so would OPT.
 */
import { test, expect } from '../lib/fixtures.mjs';

const SILBERSCHATZ = '7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1';
const TEXTBOOK_RESULTS = {
	fifo: 'FFFFHFFFFFFHHFFHHFFF',
	lru: 'FFFFHFHFFFFHHFHFHFHH',
	opt: 'FFFFHFHFHHFHHFHHHFHH',
};

async function stripResults(lab, index) {
	return (await lab.byTestId(`compare-strip-${index}`).locator('[data-result]').evaluateAll((cells) =>
		cells.map((cell) => cell.dataset.result))).join('');
}

async function heldPages(lab, columnId) {
	const pages = await lab.byTestId(columnId).locator('[data-testid="compare-page"]').evaluateAll((nodes) =>
		nodes.map((node) => node.dataset.page));
	return pages.sort();
}

async function openCompare(lab, refs, policies) {
	await lab.setScenario({ policy: policies[0], frames: 3, refs });
	await lab.byTestId('tab-compare').click();
	for (let i = 0; i < policies.length; i++) {
		if (!(await lab.byTestId(`compare-policy-${i}`).isVisible()))
			await lab.byTestId('compare-add').click();
		await lab.byTestId(`compare-policy-${i}`).selectOption(policies[i]);
	}
}

test.describe('comparing policies on the Silberschatz string with 3 frames', () => {
	test('FIFO and LRU show their textbook strips and part ways at reference 7', async ({ lab }) => {
		await openCompare(lab, SILBERSCHATZ, ['fifo', 'lru']);
		await expect.poll(() => stripResults(lab, 0)).toBe(TEXTBOOK_RESULTS.fifo);
		await expect.poll(() => stripResults(lab, 1)).toBe(TEXTBOOK_RESULTS.lru);
		await expect(lab.byTestId('first-divergence')).toHaveAttribute('data-step', '7');
	});

	test('adding OPT as a third policy keeps the mark at 7 and shows OPT\'s strip', async ({ lab }) => {
		await openCompare(lab, SILBERSCHATZ, ['fifo', 'lru', 'opt']);
		await expect.poll(() => stripResults(lab, 2)).toBe(TEXTBOOK_RESULTS.opt);
		await expect(lab.byTestId('first-divergence')).toHaveAttribute('data-step', '7');
		await lab.byTestId('compare-goto-divergence').click();
		await expect(lab.byTestId('compare-column-0')).toHaveAttribute('data-step', '7');
		await lab.byTestId('compare-ghost-opt').click();
		for (const column of ['compare-column-0', 'compare-column-1', 'compare-column-2', 'compare-ghost-column'])
			await expect.poll(() => heldPages(lab, column), `${column} at step 7`).toEqual(['0', '2', '3']);
		await lab.screenshot('compare');
	});

	test('LRU and OPT agree longer than FIFO and LRU: they part at reference 9', async ({ lab }) => {
		await openCompare(lab, SILBERSCHATZ, ['lru', 'opt']);
		await expect(lab.byTestId('first-divergence')).toHaveAttribute('data-step', '9');
	});
});

test('policies that never part ways show no divergence mark', async ({ lab }) => {
	await openCompare(lab, '1 2 3 1 2 3 3 2 1', ['fifo', 'lru']);
	await expect.poll(() => stripResults(lab, 1)).toBe('FFFHHHHHH');
	await expect(lab.byTestId('first-divergence')).toHaveCount(0);
});
