/*
 * PageChip.tsx - one resident (or ghost) page as every structure drawing
 * shows it: the page number, then each per-page field drawn by its kind:
 * a bit as a lit/unlit badge, a small counter (RRPV) as a meter of cells
 * 0..max, anything else as "name value".
 *
 * FlagLegend says what each flag letter on the chips means.
 *
 * The chip carries the test-id contract (data-testid="page", data-page,
 * data-list, data-<field>) and only classes for animation, so stepping back
 * to a step renders exactly what stepping forward rendered.
 */
import { memo, type CSSProperties } from 'react';
import type { PolicyInfo, SnapshotEntry } from '../../wasm/protocol';
import { fieldWord, nextUseWord } from '../../model/narration';
import { meterColour } from '../../viz/meter';
import { Shortened } from '../Shortened';

export const METER_LIMIT = 7;

export function isBitField(name: string): boolean {
	return /^(referenced|accessed|modified|active|dirty)$/.test(name);
}

const BIT_LETTERS: Record<string, string> = { referenced: 'R', accessed: 'A', modified: 'M', active: 'act', dirty: 'D' };

/* What a lit flag says, in the words a lecturer would use; Linux's own names only for Linux-shaped policies. */
const BIT_MEANINGS: Record<string, string> = {
	referenced: 'referenced: used since the policy last cleared it',
	accessed: "accessed: the page table's hardware bit, set by a mapped access, seen only when reclaim looks",
	modified: 'modified: written since it was loaded',
	active: 'active: on an active list (PG_active)',
	dirty: 'dirty: must be written back before its frame is reused',
};
const LINUX_REFERENCED = 'referenced: PG_referenced, set by mark_page_accessed; a second use while inactive promotes';

/* Fields that describe a ghost entry (Linux's shadow entries), never a resident page. */
const GHOST_FIELDS = new Set(['eviction', 'refault_distance']);

/** Whether the policy has Linux's active/inactive lists (its legend then uses the kernel's names). */
export function linuxShaped(policy: PolicyInfo): boolean {
	return policy.lists.some((l) => /^active_/.test(l.name)) && policy.lists.some((l) => /^inactive_/.test(l.name));
}

/** The width in bits of a counter whose largest value is max (2^n - 1), or 0 if max is not of that form. */
function bitWidth(max: number): number {
	const n = Math.log2(max + 1);
	return Number.isInteger(n) ? n : 0;
}

/** How a field's value reads on a chip: OPT's next use 1-based or "never", an aging counter in binary. */
export function fieldText(name: string, value: number, max: number): string {
	if (name === 'next_use') return `next ${value < 0 ? 'never' : nextUseWord(value).replace('reference ', 'ref ')}`;
	if (name === 'counter' && bitWidth(max)) return value.toString(2).padStart(bitWidth(max), '0');
	return `${fieldWord(name)} ${value}`;
}

/** The legend of the flags a policy's chips carry; nothing when they carry none. */
export function FlagLegend({ policy }: { policy: PolicyInfo }) {
	const flags = policy.fields.filter(isBitField);
	const linux = linuxShaped(policy);
	if (!flags.length) return null;
	return (
		<ul className="pl-step-flag-legend" data-testid="flag-legend">
			{flags.map((name) => (
				<li key={name}>
					<span className="pl-step-bit pl-step-on">{BIT_LETTERS[name]}</span> {linux && name === 'referenced' ? LINUX_REFERENCED : BIT_MEANINGS[name]}
				</li>
			))}
		</ul>
	);
}

export interface ChipMarks {
	entered?: boolean;
	moved?: string;
	changed?: Set<number>;
	referenced?: boolean;
	hit?: boolean;
}

interface Props {
	policy: PolicyInfo;
	list: number;
	entry: SnapshotEntry;
	fieldMax: number[];
	marks?: ChipMarks;
	style?: CSSProperties;
	/** The chip's place in its whole list, when only part of the list is drawn (ChipList). */
	position?: { 'aria-posinset'?: number; 'aria-setsize'?: number };
}

function Meter({ value, max, changed, label }: { value: number; max: number; changed: boolean; label: string }) {
	const cells = [];
	for (let v = max; v >= 0; v--)
		cells.push(
			<span
				key={v}
				className={v === value ? 'pl-step-cell pl-step-lit' : 'pl-step-cell'}
				style={v === value ? { background: meterColour(v, max) } : undefined}
			>
				{v}
			</span>,
		);
	return (
		<span className={`pl-step-meter${changed ? ' pl-step-changed' : ''}`} title={`${label} ${value} of 0..${max}`}>
			{cells}
		</span>
	);
}

function sameMarks(a: ChipMarks = {}, b: ChipMarks = {}): boolean {
	return (
		a.entered === b.entered &&
		a.moved === b.moved &&
		a.referenced === b.referenced &&
		a.hit === b.hit &&
		a.changed === b.changed
	);
}

/* A step changes few pages: a chip whose page, values and marks are the same is not redrawn. */
function sameChip(a: Props, b: Props): boolean {
	return (
		a.policy === b.policy &&
		a.list === b.list &&
		a.fieldMax === b.fieldMax &&
		a.entry.page === b.entry.page &&
		a.entry.values.every((v, f) => v === b.entry.values[f]) &&
		sameMarks(a.marks, b.marks) &&
		a.style?.outline === b.style?.outline &&
		a.position?.['aria-posinset'] === b.position?.['aria-posinset'] &&
		a.position?.['aria-setsize'] === b.position?.['aria-setsize']
	);
}

export const PageChip = memo(function PageChip({ policy, list, entry, fieldMax, marks = {}, style, position }: Props) {
	const data: Record<string, string> = {};
	policy.fields.forEach((name, f) => (data[`data-${name}`] = String(entry.values[f])));
	const classes = ['pl-step-chip'];
	const ghost = policy.lists[list]?.ghost ?? false;
	if (ghost) classes.push('pl-step-ghost');
	if (marks.entered) classes.push('pl-step-entered');
	if (marks.moved) classes.push(`pl-step-${marks.moved}`);
	if (marks.referenced) classes.push(marks.hit ? 'pl-step-ref-hit' : 'pl-step-ref-miss');
	return (
		<li
			className={classes.join(' ')}
			style={style}
			data-testid="page"
			data-page={String(entry.page)}
			data-list={policy.lists[list]?.name}
			{...position}
			{...data}
		>
			<span className="pl-step-number">{String(entry.page)}</span>
			{policy.fields.map((name, f) => {
				const value = entry.values[f];
				const changed = marks.changed?.has(f) ?? false;
				/* A ghost shows its history (eviction counter), a resident page never does; nothing else is alive in a ghost. */
				if (GHOST_FIELDS.has(name) !== ghost || (ghost && name === 'refault_distance' && !value)) return null;
				if (isBitField(name))
					return (
						<span key={name} className={`pl-step-bit${value ? ' pl-step-on' : ''}${changed ? ' pl-step-changed' : ''}`} data-flag={name} title={`${fieldWord(name)} ${value}`}>
							{BIT_LETTERS[name] ?? name}
						</span>
					);
				if (fieldMax[f] <= METER_LIMIT && name !== 'next_use')
					return <Meter key={name} value={value} max={fieldMax[f]} changed={changed} label={fieldWord(name)} />;
				/* A shadow entry's eviction counter reads "evicted at 13", on a projector "@13" (lecture.css). */
				if (name === 'eviction')
					return (
						<span key={name} className="pl-step-attr" title={`evicted at eviction counter ${value}`}>
							<Shortened full={`evicted at ${value}`}>
								<span className="pl-step-long">evicted </span>at {value}
							</Shortened>
						</span>
					);
				return (
					<span key={name} className={`pl-step-attr${changed ? ' pl-step-changed' : ''}`} title={`${fieldWord(name)} ${value}`}>
						{fieldText(name, value, fieldMax[f])}
					</span>
				);
			})}
		</li>
	);
}, sameChip);
