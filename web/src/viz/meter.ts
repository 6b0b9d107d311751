/*
 * meter.ts - a per-page counter drawn as a column of cells 0..max (RRPV,
 * age bits): the cell of the current value is lit, colour from "near" (0,
 * re-reference soon) to "distant" (max, next to go).
 */
import { interpolateRgb, scaleLinear } from 'd3';

export function meterColour(value: number, max: number): string {
	const t = scaleLinear().domain([0, Math.max(1, max)]).range([0, 1]).clamp(true)(value);
	return interpolateRgb('#1b7f3b', '#c0392b')(t);
}

/** The largest counter value a field reaches: from the policy's width parameter when it has one. */
export function meterMax(observed: number, bits?: number): number {
	return Math.max(observed, bits ? 2 ** bits - 1 : 0, 1);
}
