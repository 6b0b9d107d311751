/*
 * DivergenceNote.tsx - the sentence under the compare controls: the first
 * step where the compared policies part ways, who hits and who faults there,
 * and why (the step at which each faulting policy had evicted the page),
 * with a button that goes there; or that they never part ways.
 */
import { pageAt } from '../../wasm/protocol';
import { divergenceGroups } from '../../model/compare';
import type { Comparison } from './comparison';

export interface DivergenceNoteProps {
	comparison: Comparison;
	divergence: number | null;
	reasons: Map<number, number>;
	onStep: (step: number) => void;
}

export function DivergenceNote({ comparison, divergence, reasons, onStep }: DivergenceNoteProps) {
	if (divergence === null)
		return (
			<p className="pl-compare-agree" data-testid="compare-agree">
				These policies never part ways on this trace: the same hit or fault at every step.
			</p>
		);
	const groups = divergenceGroups(
		comparison.runs.map((r) => r.outcome),
		divergence,
	);
	const page = String(pageAt(comparison.trace.pages, divergence - 1));
	const names = (runs: number[]) => runs.map((i) => comparison.runs[i].label).join(', ');
	const why = [...reasons].map(([run, step]) => `${comparison.runs[run].label} evicted page ${page} at step ${step}`);
	return (
		<p className="pl-compare-divergence" data-testid="first-divergence" data-step={divergence}>
			<strong>First divergence at step {divergence}</strong> (page {page}): {names(groups.hit)}{' '}
			{groups.hit.length === 1 ? 'hits' : 'hit'}, {names(groups.fault)} {groups.fault.length === 1 ? 'faults' : 'fault'}
			{why.length ? ` because ${why.join(' and ')}` : ''}.{' '}
			<button type="button" data-testid="compare-goto-divergence" onClick={() => onStep(divergence)}>
				Go there
			</button>
		</p>
	);
}
