/*
 * compareCurves.ts - the data behind the charts that compare policies:
 * cumulative faults over time and faults against the number of frames, with
 * Belady's anomaly found in the latter.  Pure TypeScript, no d3, no React.
 *
 * Interface
 *   cumulativeFaultCurve(outcome, maxPoints)  faults so far, sampled
 *   framesCurve(points)                       faults per frame count
 *   beladyAnomalies(curve)                    where more frames cost more faults
 *   framesRange(distinctPages, limit)         the frame counts worth running
 *   framesAxisIsLog(frames)                   whether to plot them on a log axis
 *
 * Invariants
 *   - A curve is two equal-length arrays x and y, x strictly increasing.
 *   - Sampling never invents a value: every (x, y) of a sampled curve is a
 *     point of the exact curve, and the first and last points are always
 *     kept, so the total a chart ends on is the true total.
 */

import type { FramesPoint } from '../wasm/protocol';
import { countHits } from './compare';

export interface Curve {
	x: Float64Array;
	y: Float64Array;
}

/**
 * Faults after each step k = 0..n (step 0: none yet).  A trace longer than
 * maxPoints is sampled at evenly spaced steps, so a chart of a 10M-reference
 * trace draws a few thousand points, not ten million.
 */
export function cumulativeFaultCurve(outcome: Uint8Array, maxPoints: number): Curve {
	if (maxPoints < 2)
		throw new Error(`charts: a curve needs at least two points (got ${maxPoints})`);
	const steps = outcome.length;
	const count = Math.min(steps + 1, maxPoints);
	const curve = { x: new Float64Array(count), y: new Float64Array(count) };
	/* One pass, counting as it goes: no 4-bytes-per-reference prefix array. */
	let faults = 0;
	let done = 0;
	for (let i = 0; i < count; i++) {
		const step = count === 1 ? 0 : Math.round((i * steps) / (count - 1));
		faults += step - done - countHits(outcome, done, step);
		done = step;
		curve.x[i] = step;
		curve.y[i] = faults;
	}
	return curve;
}

/** Faults (misses) by frame count, ordered by frames; repeated frame counts are refused. */
export function framesCurve(points: FramesPoint[]): Curve {
	const sorted = [...points].sort((a, b) => a.frames - b.frames);
	for (let i = 1; i < sorted.length; i++)
		if (sorted[i].frames === sorted[i - 1].frames)
			throw new Error(`charts: frame count ${sorted[i].frames} was run twice`);
	return {
		x: Float64Array.from(sorted, (p) => p.frames),
		y: Float64Array.from(sorted, (p) => p.stats.misses),
	};
}

export interface BeladyAnomaly {
	fromFrames: number;
	toFrames: number;
	fromFaults: number;
	toFaults: number;
}

/**
 * Every pair of neighbouring frame counts on the curve where the larger
 * memory faults more: Belady's anomaly.  A stack algorithm (LRU, OPT) never
 * has one; FIFO has one on 1,2,3,4,1,2,5,1,2,3,4,5 from 3 to 4 frames.
 */
export function beladyAnomalies(curve: Curve): BeladyAnomaly[] {
	const anomalies: BeladyAnomaly[] = [];
	for (let i = 1; i < curve.x.length; i++)
		if (curve.y[i] > curve.y[i - 1])
			anomalies.push({
				fromFrames: curve.x[i - 1],
				toFrames: curve.x[i],
				fromFaults: curve.y[i - 1],
				toFaults: curve.y[i],
			});
	return anomalies;
}

/**
 * Frame counts 1..n where n is one more than the distinct pages (from there
 * on only cold faults remain, so the curve is flat), at most `limit` runs.
 * Past the limit the counts grow geometrically from 1 to n: a miss curve
 * changes most at small memories, which an even spread would skip (the
 * chart then draws frames on a log axis, see framesAxisIsLog).
 */
export function framesRange(distinctPages: number, limit: number): number[] {
	if (limit < 1)
		throw new Error(`charts: the frame range needs at least one run (got ${limit})`);
	const top = Math.max(1, distinctPages + 1);
	if (top <= limit)
		return Array.from({ length: top }, (_, i) => i + 1);
	const counts = new Set<number>();
	for (let i = 0; i < limit; i++)
		counts.add(Math.round(top ** (i / (limit - 1 || 1))));
	counts.add(top);
	return [...counts].sort((a, b) => a - b);
}

/* Beyond this ratio of largest to smallest frame count, equal steps hide the small memories. */
const LOG_AXIS_RATIO = 64;

/** Whether a frames chart over `frames` reads better on a log axis. */
export function framesAxisIsLog(frames: number[]): boolean {
	return frames.length > 1 && frames[frames.length - 1] / Math.max(1, frames[0]) > LOG_AXIS_RATIO;
}
