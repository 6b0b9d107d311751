/*
 * CountersPanel.tsx - the policy's own counters at the shown step, each
 * with what this step added to it, so a lecturer can point at
 * "workingset_refault +1" as the refault happens.  For Linux-shaped
 * policies only the kernel's /proc/vmstat counters are shown, under the
 * kernel's names and in the order a reclaim story reads (refaults, then
 * activations, then the scan and what it stole); list sizes (nr_*) are in
 * the lanes already.  A counter that stays 0 over the whole trace is left
 * out and named in one line, so the panel shows what moves.
 *
 * Reads only the snapshot (counters, countersBefore: kept per step by the
 * core's recorded run) and the whole run's final counters.
 *
 * On a projector (`wholeRows`) the panel gets what height the narration
 * leaves it, which is seldom a whole number of rows: it is cut down to the
 * rows that fit whole (the rest scroll), or folded to nothing when not one
 * fits, never a row cut in half (snapToWholeRows).
 */
import { memo, useLayoutEffect, useRef } from 'react';
import type { PolicyInfo, Snapshot } from '../../wasm/protocol';
import { linuxShaped } from './PageChip';

/* The kernel's vmstat counters, in the order the reclaim story tells them. */
const KERNEL_ORDER = [
	'workingset_refault',
	'workingset_activate',
	'pgactivate',
	'pgdeactivate',
	'pgrefill',
	'pgscan_anon',
	'pgscan_file',
	'pgsteal_anon',
	'pgsteal_file',
	'pgrotated',
];

/** Indexes (into PolicyInfo.counters) of the counters the panel shows, in order, and the names left out as always 0. */
export function countersShown(policy: PolicyInfo, whole: Record<string, number>): { shown: number[]; alwaysZero: string[] } {
	const names = policy.counters;
	const candidates = linuxShaped(policy)
		? KERNEL_ORDER.map((name) => names.indexOf(name)).filter((c) => c >= 0)
		: names.map((_, c) => c);
	return {
		shown: candidates.filter((c) => (whole[names[c]] ?? 0) !== 0),
		alwaysZero: candidates.filter((c) => (whole[names[c]] ?? 0) === 0).map((c) => names[c]),
	};
}

interface Props {
	policy: PolicyInfo;
	snapshot: Snapshot;
	/** The whole run's counters (SimulateResult.counters). */
	whole: Record<string, number>;
	/** Lecture mode: show only whole rows of counters in the height the layout leaves. */
	wholeRows?: boolean;
}

/*
 * Lets the layout give the panel its height, then caps it at the last row
 * of counters that fits in it whole; folded (no height, still read by a
 * screen reader) when not even the first row fits.  Two layouts, so only in
 * lecture mode, where the height is squeezed.  Run at every render (a new
 * step) and whenever a panel beside it, itself or the window changes size.
 */
function snapToWholeRows(panel: HTMLElement): void {
	panel.style.maxHeight = '';
	panel.classList.remove('pl-step-counters-folded');
	if (panel.scrollHeight <= panel.clientHeight + 1) return;
	const style = getComputedStyle(panel);
	const top = panel.getBoundingClientRect().top + panel.clientTop;
	/* A scroll box shows its content in its padding too: the view ends at the last whole row, not at the padding. */
	let view = 0;
	for (const item of panel.children) {
		const bottom = item.getBoundingClientRect().bottom - top;
		if (bottom <= panel.clientHeight + 0.5) view = Math.max(view, bottom);
	}
	if (view === 0) {
		panel.classList.add('pl-step-counters-folded');
		return;
	}
	const outside = style.boxSizing === 'border-box' ? 2 * panel.clientTop : -(parseFloat(style.paddingTop) + parseFloat(style.paddingBottom));
	panel.style.maxHeight = `${view + outside}px`;
}

/* Memoized: it reads only the snapshot, which changes once a step. */
export const CountersPanel = memo(function CountersPanel({ policy, snapshot, whole, wholeRows = false }: Props) {
	const panel = useRef<HTMLElement>(null);
	/* Each step (a render) may change the panel's rows. */
	useLayoutEffect(() => {
		if (wholeRows && panel.current) snapToWholeRows(panel.current);
	});
	useLayoutEffect(() => {
		const element = panel.current;
		if (!element) return;
		if (!wholeRows) {
			/* Undo a cap from lecture mode; touch nothing otherwise (a style write at every step would restyle the panel). */
			if (element.style.maxHeight) element.style.maxHeight = '';
			if (element.classList.contains('pl-step-counters-folded')) element.classList.remove('pl-step-counters-folded');
			return;
		}
		/*
		 * The narration and the statistics above it change what is left, so
		 * does the window, and predict mode's panel coming or going changes
		 * the panel's own size (once capped, a snap leaves that size as it
		 * was, so observing it does not loop).
		 */
		const observer = new ResizeObserver(() => snapToWholeRows(element));
		for (const sibling of element.parentElement?.children ?? []) observer.observe(sibling);
		observer.observe(document.documentElement);
		return () => observer.disconnect();
	}, [wholeRows, policy]);
	if (!policy.counters.length) return null;
	const { shown, alwaysZero } = countersShown(policy, whole);
	const kernel = linuxShaped(policy);
	return (
		<section
			ref={panel}
			className="pl-step-counters"
			data-testid="counters"
			data-step={String(snapshot.step)}
			aria-label={kernel ? 'kernel counters, as /proc/vmstat names them' : 'the policy’s counters'}
		>
			<span className="pl-step-counters-title">{kernel ? 'vmstat' : 'counters'}</span>
			{shown.map((c) => {
				const name = policy.counters[c];
				const value = snapshot.counters[c] ?? 0;
				const delta = value - (snapshot.countersBefore[c] ?? 0);
				return (
					<span
						key={name}
						className={`pl-step-counter${delta ? ' pl-step-bumped' : ''}`}
						data-testid={`counter-${name}`}
						data-value={String(value)}
						data-delta={String(delta)}
					>
						<code>{name}</code> <b>{value.toLocaleString('en')}</b>
						{delta !== 0 && <span className="pl-step-delta">{delta > 0 ? `+${delta}` : delta}</span>}
					</span>
				);
			})}
			{alwaysZero.length > 0 && (
				<span className="pl-step-counters-zero" title={alwaysZero.join(', ')}>
					{shown.length ? `${alwaysZero.length} more stay 0` : `all ${alwaysZero.length} stay 0 in this trace`}
				</span>
			)}
		</section>
	);
});
