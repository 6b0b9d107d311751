/*
 * CLOCK's step view: the frames drawn as a clock face with its hand, each page
 * with its reference bit.  Trace 1 2 3 1 4 on 3 frames: the hit on page 1 sets
 * its bit, so when page 4 faults the hand gives page 1 a second chance.  Which
 * page then goes depends on the bit a freshly loaded page gets (ref_on_load,
 * clock.c), so the two settings are two different, exactly known outcomes.
 */
import { test, expect } from '../lib/fixtures.mjs';

const TRACE = '1 2 3 1 4';

test.describe('CLOCK on 1 2 3 1 4 with 3 frames', () => {
	test('with clear bits on load, page 1 gets a second chance and page 2 is evicted', async ({ lab }) => {
		await lab.setScenario({ policy: 'clock', frames: 3, refs: TRACE, params: { ref_on_load: 'clear' } });
		await lab.goToStep(4);
		expect(await lab.structurePages()).toEqual([
			{ list: 'frames', page: '1', fields: { referenced: '1' } },
			{ list: 'frames', page: '2', fields: { referenced: '0' } },
			{ list: 'frames', page: '3', fields: { referenced: '0' } },
		]);
		await expect(lab.byTestId('hand-hand')).toHaveAttribute('data-position', '0');
		await lab.stepForward();
		expect(await lab.structurePages()).toEqual([
			{ list: 'frames', page: '1', fields: { referenced: '0' } },
			{ list: 'frames', page: '4', fields: { referenced: '0' } },
			{ list: 'frames', page: '3', fields: { referenced: '0' } },
		]);
		await expect(lab.byTestId('hand-hand')).toHaveAttribute('data-position', '2');
		await expect(lab.byTestId('narration')).toContainText('4');
		expect(await lab.stats()).toEqual({ faults: 4, hits: 1, evictions: 1 });
		await lab.screenshot('step-clock');
	});

	test('with set bits on load, the hand clears every bit and evicts the page it started on', async ({ lab }) => {
		await lab.setScenario({ policy: 'clock', frames: 3, refs: TRACE, params: { ref_on_load: 'set' } });
		await lab.goToStep(5);
		expect(await lab.structurePages()).toEqual([
			{ list: 'frames', page: '4', fields: { referenced: '1' } },
			{ list: 'frames', page: '2', fields: { referenced: '0' } },
			{ list: 'frames', page: '3', fields: { referenced: '0' } },
		]);
		await expect(lab.byTestId('hand-hand')).toHaveAttribute('data-position', '1');
	});
});
