/*
 * The steps e2e/tests/lecture-narration.spec.mjs shows on a projector are
 * the worst cases it claims: for each policy and frame count in
 * e2e/narration-worst-steps.json, no step of the trace there has a longer
 * lecture-mode narration (narrate with fold, as StepView tells it) than the
 * step named.  When the narration's words change, this names the new
 * longest step to write into the file.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessClient } from './support';
import { loadRun } from '../src/model/run';
import { narrate } from '../src/model/narration';
import { decodeState } from '../src/model/url';

const worst = JSON.parse(readFileSync(new URL('../../e2e/narration-worst-steps.json', import.meta.url), 'utf8')) as {
	trace: string;
	steps: Record<string, Record<string, number>>;
};

const client = inProcessClient();
afterAll(() => client.dispose());

describe('the longest lecture narration of each policy and frame count', () => {
	for (const [policy, steps] of Object.entries(worst.steps))
		it(`${policy}: is at the step e2e/narration-worst-steps.json names`, async () => {
			const policies = await client.listPolicies();
			for (const [frames, named] of Object.entries(steps)) {
				const { scenario } = decodeState(`?policy=${policy}&frames=${frames}&${worst.trace}`).state;
				const r = await loadRun(client, scenario, policies);
				try {
					let longest = { step: 0, length: 0 };
					for (let k = 1; k <= r.timeline.steps; k++) {
						const told = narrate(r.policy, r.timeline.log.eventsOfStep(k), {
							resident: r.timeline.column(k - 1).rows.filter((p) => p !== null).length,
							write: r.result.trace.writes[k - 1] === 1,
							lengthsAfter: r.timeline.listLengths(k),
							fieldMax: r.fieldMax,
							nextUse: (page) => r.timeline.nextUse(page, k),
							fold: true,
						});
						/* The step's number leads the narration on screen. */
						const length = String(k).length + told.length;
						if (length > longest.length) longest = { step: k, length };
					}
					expect(longest.step, `${policy} at ${frames} frames`).toBe(named);
				} finally {
					await r.session.dispose();
				}
			}
		}, 300_000);
});
