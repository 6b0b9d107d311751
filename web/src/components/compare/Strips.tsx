/*
 * Strips.tsx - one hit/fault strip per compared policy under the strip of
 * references, as many cells as fit the width around the current step, the
 * first divergence marked (compare-refs, compare-strip-<i>).  Clicking a
 * cell goes to its step.
 */
import { pageAt } from '../../wasm/protocol';
import { useRef } from 'react';
import { stripCells, stripWindow } from '../../model/compare';
import { useElementWidth } from '../charts/useElementWidth';
import type { Comparison } from './comparison';
import { StripRow } from './StripRow';

/* Strip geometry in em of the view's font: the narrowest cell. */
const MIN_CELL_EM = 1.7;
/* Average character width in em, to budget the label column ("CLOCK 67 faults / 687191"). */
const CHAR_EM = 0.6;
const LABEL_FIXED_CHARS = 11;
/* Average digit width in em, plus the cell's padding, for cells wide enough for their page number. */
const DIGIT_EM = 0.62;
const CELL_PADDING_EM = 0.6;
const MIN_STRIP_CELLS = 8;

export interface StripsProps {
	comparison: Comparison;
	step: number;
	divergence: number | null;
	/** Hide answers: cells after the current step are blank and totals hidden. */
	hideAfterStep?: boolean;
	onStep: (step: number) => void;
}

/**
 * As many cells as fit the width, each wide enough for the longest page
 * number of the trace, so a lecture screen shows no scroll bar.
 */
export function Strips({ comparison, step, divergence, hideAfterStep = false, onStep }: StripsProps) {
	const { trace, runs } = comparison;
	const box = useRef<HTMLDivElement>(null);
	const { width, em } = useElementWidth(box);
	const labelEm =
		CHAR_EM * (Math.max(...runs.map((r) => r.label.length)) + 2 * String(trace.references).length + LABEL_FIXED_CHARS);
	/*
	 * Cells are as wide as the longest page number shown so far on this
	 * trace: they only ever grow, so stepping never makes the strip jump
	 * back and forth, and no 10M-reference scan is needed to size them.
	 */
	const digits = useRef({ trace, widest: 1 });
	if (digits.current.trace !== trace)
		digits.current = { trace, widest: 1 };
	const windowFor = (widest: number) => {
		const cellEm = Math.max(MIN_CELL_EM, widest * DIGIT_EM + CELL_PADDING_EM);
		const fitting = Math.floor((width / em - labelEm) / cellEm);
		return { cellEm, window: stripWindow(trace.references, step, Math.max(MIN_STRIP_CELLS, fitting)) };
	};
	let { cellEm, window } = windowFor(digits.current.widest);
	for (let s = window.first; s <= window.last; s++)
		digits.current.widest = Math.max(digits.current.widest, String(pageAt(trace.pages, s - 1)).length);
	({ cellEm, window } = windowFor(digits.current.widest));
	const cellClass = (cellStep: number) =>
		['pl-compare-cell', cellStep === step && 'pl-compare-current', cellStep === divergence && 'pl-compare-diverges'].filter(Boolean).join(' ');
	return (
		<div ref={box} className="pl-compare-strips-box">
			<div
				className="pl-compare-strips"
				style={{
					['--pl-cell' as string]: `${cellEm}em`,
					gridTemplateColumns: `auto repeat(${window.last - window.first + 1}, var(--pl-cell))`,
				}}
			>
				{divergence !== null && divergence >= window.first && divergence <= window.last && (
					<span
						className="pl-compare-marker"
						style={{ gridColumn: divergence - window.first + 2 }}
						title={`first divergence: step ${divergence}`}
					>
						▼
					</span>
				)}
				<span className="pl-compare-label pl-compare-label-refs" style={{ gridColumn: 1 }}>
					reference
				</span>
				<div className="pl-compare-row" data-testid="compare-refs">
					{stripCells(runs[0].outcome, window, trace.pages).map((cell) => (
						<button
							type="button"
							key={cell.step}
							className={cellClass(cell.step) + ' pl-compare-ref'}
							title={`step ${cell.step}: page ${cell.page}`}
							onClick={() => onStep(cell.step)}
						>
							{String(cell.page)}
						</button>
					))}
				</div>
				{runs.map((run, i) => (
					<StripRow key={i} index={i} run={run} step={step} window={window} cellClass={cellClass} hideAfterStep={hideAfterStep} onStep={onStep} />
				))}
			</div>
		</div>
	);
}
