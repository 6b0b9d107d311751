/*
 * clock.ts - the geometry of the clock face: where each frame slot sits on
 * the ring and where the hand points.
 *
 * Slot 0 is at twelve o'clock and slots go clockwise, as CLOCK is drawn in
 * textbooks.  The hand's angle is "unwrapped" (a position of n + 1 on a ring
 * of n is one full turn plus one slot), so a CSS rotation from the old angle
 * to the new one animates the sweep the policy made, full turns included.
 */
import { scaleLinear } from 'd3';

export interface Point {
	x: number;
	y: number;
}

/** Angle in degrees (0 = twelve o'clock, clockwise) of slot position p on a ring of n. */
export function slotAngle(p: number, n: number): number {
	return scaleLinear().domain([0, n]).range([0, 360])(p);
}

/** Centre of slot i on a ring of n slots with the given radius, around (0, 0). */
export function slotCentre(i: number, n: number, radius: number): Point {
	const radians = (slotAngle(i, n) * Math.PI) / 180;
	return { x: radius * Math.sin(radians), y: -radius * Math.cos(radians) };
}

/** The radius of a slot circle so that n of them fit around a ring of `radius`. */
export function slotRadius(n: number, radius: number): number {
	return Math.max(8, Math.min(radius * 0.32, (Math.PI * radius) / Math.max(n, 1) - 4));
}

/**
 * The unwrapped hand position after a step: forward steps add every slot
 * the hand moved (each HAND event from a to b moves (b - a) mod n slots
 * forward); any other jump lands on the position directly.
 */
export function unwrapHand(previous: number, moves: Array<{ a: number; b: number }>, n: number): number {
	return moves.reduce((at, move) => at + ((((move.b - move.a) % n) + n) % n), previous);
}
