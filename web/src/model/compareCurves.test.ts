import { describe, expect, it } from 'vitest';
import { beladyAnomalies, cumulativeFaultCurve, framesAxisIsLog, framesCurve, framesRange } from './compareCurves';
import type { FramesPoint } from '../wasm/protocol';

const runOf = (results: string) => Uint8Array.from([...results], (r) => (r === 'H' ? 1 : 0));

const point = (frames: number, misses: number): FramesPoint => ({
	frames,
	stats: { references: 12, hits: 12 - misses, misses, evictions: 0, writebacks: 0 },
});

/* FIFO on 1,2,3,4,1,2,5,1,2,3,4,5 (Silberschatz, Belady's anomaly). */
const fifoBelady = [point(1, 12), point(2, 12), point(3, 9), point(4, 10), point(5, 5), point(6, 5)];
/* LRU on the same string: a stack algorithm, never worse with more frames. */
const lruBelady = [point(1, 12), point(2, 12), point(3, 10), point(4, 8), point(5, 5), point(6, 5)];

describe('the cumulative fault curve', () => {
	it('starts at zero faults at step 0 and has one point per step on a short trace', () => {
		const curve = cumulativeFaultCurve(runOf('FHFF'), 100);
		expect([...curve.x]).toEqual([0, 1, 2, 3, 4]);
		expect([...curve.y]).toEqual([0, 1, 1, 2, 3]);
	});

	it('is sampled on a long trace, keeping the exact first and last values', () => {
		const outcome = new Uint8Array(1_000_000);
		outcome.fill(1, 500_000); /* faults in the first half, hits after */
		const curve = cumulativeFaultCurve(outcome, 1001);
		expect(curve.x.length).toBe(1001);
		expect(curve.x[0]).toBe(0);
		expect(curve.y[0]).toBe(0);
		expect(curve.x[1000]).toBe(1_000_000);
		expect(curve.y[1000]).toBe(500_000);
	});

	it('samples only true points of the exact curve', () => {
		const outcome = Uint8Array.from({ length: 999 }, (_, i) => (i % 3 === 0 ? 0 : 1));
		const curve = cumulativeFaultCurve(outcome, 50);
		for (let i = 0; i < curve.x.length; i++)
			expect(curve.y[i]).toBe(Math.ceil(curve.x[i] / 3));
	});

	it('needs at least two points', () => {
		expect(() => cumulativeFaultCurve(runOf('F'), 1)).toThrow(/at least two points/);
	});
});

describe('the faults-by-frames curve', () => {
	it('orders the runs by frame count and plots their misses', () => {
		const curve = framesCurve([point(3, 9), point(1, 12), point(2, 12)]);
		expect([...curve.x]).toEqual([1, 2, 3]);
		expect([...curve.y]).toEqual([12, 12, 9]);
	});

	it('refuses a frame count run twice rather than drawing a zigzag', () => {
		expect(() => framesCurve([point(3, 9), point(3, 10)])).toThrow(/run twice/);
	});
});

describe("Belady's anomaly", () => {
	it('shows up for FIFO on 1,2,3,4,1,2,5,1,2,3,4,5 going from 3 to 4 frames', () => {
		expect(beladyAnomalies(framesCurve(fifoBelady))).toEqual([
			{ fromFrames: 3, toFrames: 4, fromFaults: 9, toFaults: 10 },
		]);
	});

	it('never shows up for LRU on the same string', () => {
		expect(beladyAnomalies(framesCurve(lruBelady))).toEqual([]);
	});
});

describe('the frame range', () => {
	it('runs 1 up to one more than the distinct pages when that fits the limit', () => {
		expect(framesRange(5, 32)).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it('spreads the runs geometrically over the whole range when there are too many frame counts', () => {
		expect(framesRange(999, 4)).toEqual([1, 10, 100, 1000]);
	});

	it('never runs more than the limit, and always the first and the last count', () => {
		const counts = framesRange(4095, 12);
		expect(counts.length).toBeLessThanOrEqual(12);
		expect(counts[0]).toBe(1);
		expect(counts.at(-1)).toBe(4096);
		expect(counts).toEqual([...counts].sort((a, b) => a - b));
	});

	it('is drawn on a log axis only when it spans more than a few doublings', () => {
		expect(framesAxisIsLog([1, 2, 3, 4, 5, 6])).toBe(false);
		expect(framesAxisIsLog(framesRange(4095, 12))).toBe(true);
	});

	it('runs at least one frame even for an empty trace', () => {
		expect(framesRange(0, 8)).toEqual([1]);
	});

	it('needs room for at least one run', () => {
		expect(() => framesRange(5, 0)).toThrow(/at least one run/);
	});
});
