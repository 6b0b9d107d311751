/*
 * ClockSlot.tsx - one page on a clock's ring, as every clock drawing shows
 * it (ClockFace for CLOCK and its variants, ClockProFace for CLOCK-Pro): a
 * circle at the slot's centre with the page number, classes for what the
 * step did to the page (entered, referenced as hit or miss), the page's
 * fields as data-* attributes for tests and tools, and the drawing's own
 * badges as children (SlotBadge: the reference bit, a test period).
 */
import type { ReactNode } from 'react';
import type { DrawingProps } from './ListsView';
import type { ChipMarks } from './PageChip';
import type { PageNumber } from '../../wasm/protocol';

interface ClockSlotProps {
	policy: DrawingProps['policy'];
	list: number;
	entry: { page: PageNumber; values: number[] };
	at: { x: number; y: number };
	r: number;
	marks: ChipMarks;
	/** The drawing's own class for the page (hot, cold, not resident), if any. */
	kind?: string;
	children?: ReactNode;
}

export function ClockSlot({ policy, list, entry, at, r, marks, kind, children }: ClockSlotProps) {
	const data: Record<string, string> = {};
	policy.fields.forEach((name, f) => (data[`data-${name}`] = String(entry.values[f])));
	const classes = [
		'pl-step-slot',
		kind ?? '',
		marks.entered ? 'pl-step-entered' : '',
		marks.referenced ? (marks.hit ? 'pl-step-ref-hit' : 'pl-step-ref-miss') : '',
	];
	return (
		<g
			className={classes.filter(Boolean).join(' ')}
			transform={`translate(${at.x} ${at.y})`}
			data-testid="page"
			data-page={String(entry.page)}
			data-list={policy.lists[list].name}
			{...data}
		>
			<circle r={r} />
			<text className="pl-step-number" dy="0.35em">
				{String(entry.page)}
			</text>
			{children}
		</g>
	);
}

/** A small badge on a slot's upper (the reference bit) or lower (a test period) right. */
export function SlotBadge({ r, lower, className, children }: { r: number; lower?: boolean; className: string; children: ReactNode }) {
	return (
		<g className={className} transform={`translate(${r * 0.75} ${(lower ? 1 : -1) * r * 0.75})`}>
			<circle r={Math.max(7, r * 0.38)} />
			<text dy="0.35em">{children}</text>
		</g>
	);
}
