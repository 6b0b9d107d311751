/*
 * Shortened.tsx - a label a projector may show shortened (lecture mode or a
 * narrow window hide part of it with CSS: "ref" for "reference", "whole"
 * for "whole trace", "at 13" for "evicted at 13"), read by a screen reader
 * as its full words whatever shows.
 *
 *   <Shortened full="reference">ref<span className="pl-step-narrow-hidden">erence</span></Shortened>
 *
 * The children are what shows (hidden from the accessibility tree), `full`
 * is what is read (visually hidden, always present).
 */
import type { ReactNode } from 'react';

export function Shortened({ full, children }: { full: string; children: ReactNode }) {
	return (
		<>
			<span aria-hidden="true">{children}</span>
			<span className="pl-visually-hidden">{full}</span>
		</>
	);
}
