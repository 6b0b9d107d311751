/*
 * Seed 000's Figure 2 (taken from Jaleel et al.'s RRIP paper, Figure 3):
 * 2-bit SRRIP with hit promotion on 4 blocks, references a1 a2 a2 a1 b1 b2 b3
 * b4 a1 a2, written here as pages 1 2 2 1 11 12 13 14 1 2 (TESTIDS.md).  A
 * miss inserts with RRPV 2, a hit sets 0, and a miss with no block at 3 ages
 * every block until one reaches 3.  The figure gives every block's RRPV after
 * every reference; the step view must show exactly those.
 */
import { test, expect } from '../lib/fixtures.mjs';

const RRIP_POLICY = 'srrip';
const FIGURE_2_REFS = '1 2 2 1 11 12 13 14 1 2';

/*
 * After reference k (1-based): its result and the blocks left to right (the
 * figure's ways; rrip.c keeps them in the same fixed slots) as [page, RRPV].
 */
const FIGURE_2 = [
	{ result: 'F', blocks: [[1, 2]] },
	{ result: 'F', blocks: [[1, 2], [2, 2]] },
	{ result: 'H', blocks: [[1, 2], [2, 0]] },
	{ result: 'H', blocks: [[1, 0], [2, 0]] },
	{ result: 'F', blocks: [[1, 0], [2, 0], [11, 2]] },
	{ result: 'F', blocks: [[1, 0], [2, 0], [11, 2], [12, 2]] },
	{ result: 'F', blocks: [[1, 1], [2, 1], [13, 2], [12, 3]] },
	{ result: 'F', blocks: [[1, 1], [2, 1], [13, 2], [14, 2]] },
	{ result: 'H', blocks: [[1, 0], [2, 1], [13, 2], [14, 2]] },
	{ result: 'H', blocks: [[1, 0], [2, 0], [13, 2], [14, 2]] },
];

async function blocksWithRrpv(lab) {
	return (await lab.structurePages()).map(({ page, fields }) => [Number(page), Number(fields.rrpv)]);
}

test.describe('seed 000\'s Figure 2: 2-bit SRRIP-HP on 4 blocks', () => {
	test('shows the figure\'s hit or miss and every block\'s RRPV after each reference', async ({ lab }) => {
		await lab.setScenario({ policy: RRIP_POLICY, frames: 4, refs: FIGURE_2_REFS, params: { rrpv_bits: 2 } });
		expect(await blocksWithRrpv(lab), 'the empty start').toEqual([]);
		for (let step = 1; step <= FIGURE_2.length; step++) {
			await lab.stepForward();
			const expected = FIGURE_2[step - 1];
			expect((await lab.byTestId(`grid-result-${step}`).textContent()).trim(), `result of reference ${step}`).toBe(expected.result);
			expect(await blocksWithRrpv(lab), `blocks and RRPVs after reference ${step}`).toEqual(expected.blocks);
			if (step === 7)
				await lab.screenshot('step-rrip');
		}
	});

	test('the narration of reference 7 says every RRPV was aged and which block went', async ({ lab }) => {
		await lab.setScenario({ policy: RRIP_POLICY, frames: 4, refs: FIGURE_2_REFS, params: { rrpv_bits: 2 } });
		await lab.goToStep(7);
		const narration = lab.byTestId('narration');
		await expect(narration).toContainText('13');
		await expect(narration).toContainText(/RRPV/i);
		await expect(narration).toContainText('11');
	});

	test('the Figure 2 preset loads the figure\'s scenario', async ({ lab }) => {
		await lab.byTestId('preset-select').selectOption('seed000-figure2');
		await lab.waitForStep(0, FIGURE_2.length);
		await expect(lab.byTestId('policy-select')).toHaveValue(RRIP_POLICY);
		await expect(lab.byTestId('frames-input')).toHaveValue('4');
		await expect(lab.byTestId('refs-input')).toHaveValue(/^1[\s,]+2[\s,]+2[\s,]+1[\s,]+11[\s,]+12[\s,]+13[\s,]+14[\s,]+1[\s,]+2$/);
		await lab.goToStep(7);
		expect(await blocksWithRrpv(lab)).toEqual(FIGURE_2[6].blocks);
	});
});
