/*
 * The compare model and the curves over the real core (the WebAssembly
 * module under Node, through the same client the page uses): the textbook
 * results come out of the core, and the model reads them as the textbook does.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessClient } from '../../test/support';
import { firstDivergence, ghostColumn, lastEviction, residentPages } from './compare';
import { beladyAnomalies, framesCurve, framesRange } from './compareCurves';
import type { TraceSource } from '../wasm/protocol';

const client = inProcessClient();
afterAll(() => client.dispose());

const SILBERSCHATZ: TraceSource = { kind: 'text', text: '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1' };
const BELADY: TraceSource = { kind: 'text', text: '1 2 3 4 1 2 5 1 2 3 4 5' };

const outcomeOf = async (policy: string, trace: TraceSource, frames: number) =>
	(await client.simulate({ policy, frames, trace })).outcome;

describe('the first divergence on the Silberschatz string with 3 frames', () => {
	it('is at step 7 for FIFO and LRU', async () => {
		expect(firstDivergence([await outcomeOf('fifo', SILBERSCHATZ, 3), await outcomeOf('lru', SILBERSCHATZ, 3)])).toBe(7);
	});

	it('is at step 9 for LRU and OPT, which agree longer', async () => {
		expect(firstDivergence([await outcomeOf('lru', SILBERSCHATZ, 3), await outcomeOf('opt', SILBERSCHATZ, 3)])).toBe(9);
	});

	it('is explained by FIFO having evicted page 0 at step 6', async () => {
		const { session } = await client.simulate({ policy: 'fifo', frames: 3, trace: SILBERSCHATZ, record: true });
		const events = await session!.events(0, 6);
		expect(lastEviction(events, 0)).toBe(6);
		await session!.dispose();
	});
});

describe('the ghost OPT column on the Silberschatz string with 3 frames', () => {
	it('shows, at step 6, that FIFO holds page 1 where OPT holds page 0', async () => {
		const fifo = await client.simulate({ policy: 'fifo', frames: 3, trace: SILBERSCHATZ, record: true });
		const opt = await client.simulate({ policy: 'opt', frames: 3, trace: SILBERSCHATZ, record: true });
		const held = residentPages(await fifo.session!.snapshot(6), fifo.session!.policy.lists);
		const optHeld = residentPages(await opt.session!.snapshot(6), opt.session!.policy.lists);
		expect([...held].sort()).toEqual([1, 2, 3]);
		expect([...optHeld].sort()).toEqual([0, 2, 3]);
		expect(ghostColumn(optHeld, [held]).notInOpt).toEqual([[1]]);
		await fifo.session!.dispose();
		await opt.session!.dispose();
	});
});

describe("Belady's anomaly from the core's runs across frame counts", () => {
	const frames = framesRange(5, 32);
	const anomalies = async (policy: string) =>
		beladyAnomalies(framesCurve(await client.faultsByFrames({ policy, trace: BELADY, frames })));

	it('runs 1 to 6 frames on the 5-page string', () => {
		expect(frames).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it('shows up for FIFO from 3 frames (9 faults) to 4 frames (10 faults)', async () => {
		expect(await anomalies('fifo')).toEqual([{ fromFrames: 3, toFrames: 4, fromFaults: 9, toFaults: 10 }]);
	});

	it('never shows up for the stack algorithms LRU and OPT', async () => {
		expect(await anomalies('lru')).toEqual([]);
		expect(await anomalies('opt')).toEqual([]);
	});
});
