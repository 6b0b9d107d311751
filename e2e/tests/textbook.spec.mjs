/*
 * The textbook example (Silberschatz, Operating System Concepts, the page
 * replacement chapter): reference string 7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1
 * with 3 frames.  The book's figures give, per policy, the faults (15 / 12 / 9),
 * which references fault, and the frames at the end.  Rows of the grid are
 * frames, as in the book: a page keeps its row until it is evicted.
 */
import { test, expect } from '../lib/fixtures.mjs';

const SILBERSCHATZ = '7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1';
const FRAMES = 3;

const TEXTBOOK = [
	{ policy: 'fifo', faults: 15, results: 'FFFFHFFFFFFHHFFHHFFF', finalFrames: ['7', '0', '1'] },
	{ policy: 'lru', faults: 12, results: 'FFFFHFHFFFFHHFHFHFHH', finalFrames: ['1', '0', '7'] },
	{ policy: 'opt', faults: 9, results: 'FFFFHFHFHHFHHFHHHFHH', finalFrames: ['7', '0', '1'] },
];

function countFaults(results, steps) {
	return [...results.slice(0, steps)].filter((r) => r === 'F').length;
}

for (const book of TEXTBOOK) {
	test.describe(`${book.policy.toUpperCase()} on the Silberschatz string with 3 frames`, () => {
		test.beforeEach(async ({ lab }) => {
			await lab.setScenario({ policy: book.policy, frames: FRAMES, refs: SILBERSCHATZ });
		});

		test(`faults ${book.faults} times, at the references the book marks, and ends holding ${book.finalFrames.join(', ')}`, async ({ lab }) => {
			for (let step = 1; step <= 20; step++) {
				await lab.stepForward();
				const column = await lab.gridColumn(step, FRAMES);
				expect(column.result, `result of reference ${step}`).toBe(book.results[step - 1]);
				const stats = await lab.stats();
				expect(stats.faults, `faults after reference ${step}`).toBe(countFaults(book.results, step));
				expect(stats.hits, `hits after reference ${step}`).toBe(step - stats.faults);
			}
			expect((await lab.stats()).faults).toBe(book.faults);
			expect((await lab.gridColumn(20, FRAMES)).pages).toEqual(book.finalFrames);
		});

		test('stepping back to any step shows exactly what stepping forward showed', async ({ lab }) => {
			const forward = [await lab.stepViewDigest()];
			for (let step = 1; step <= 20; step++) {
				await lab.stepForward();
				forward.push(await lab.stepViewDigest());
			}
			expect(forward[20], 'the digest sees the grid fill in').not.toEqual(forward[0]);
			for (let step = 19; step >= 0; step--) {
				await lab.stepBack();
				expect(await lab.stepViewDigest(), `step view at step ${step}`).toEqual(forward[step]);
			}
		});
	});
}
