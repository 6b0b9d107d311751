/*
 * Columns.tsx - each compared policy's frames at the current step side by
 * side (compare-column-<i>), rows aligned so shared pages line up, and
 * optionally OPT's frames as a dashed ghost column (compare-ghost-column)
 * with the pages a policy holds that OPT has let go outlined.
 */
import { pageAt } from '../../wasm/protocol';
import { alignColumns, resultAt, type GhostColumn } from '../../model/compare';
import { RECORD_LIMIT, faultCount, type Column, type Comparison, type Run } from './comparison';
import { FrameBoxes } from './FrameBoxes';

/** What the ghost column shows: OPT's run, its frames now, and whether it is also a compared column. */
export interface GhostOpt {
	run: Run;
	column: Column | null;
	compared: boolean;
}

interface ColumnsProps {
	comparison: Comparison;
	columns: (Column | null)[];
	opt: GhostOpt | null;
	ghost: GhostColumn | null;
	step: number;
}

export function Columns({ comparison, columns, opt, ghost, step }: ColumnsProps) {
	const referenced = step > 0 ? pageAt(comparison.trace.pages, step - 1) : null;
	if (comparison.runs.every((r) => r.session === null))
		return (
			<p className="pl-compare-note">
				Frame contents are shown for traces of up to {RECORD_LIMIT.toLocaleString('en')} references; this one has{' '}
				{comparison.trace.references.toLocaleString('en')}. The strips and counts cover all of it.
			</p>
		);
	/* Rows line up across the columns: shared pages first, then where they differ. */
	const aligned = alignColumns([
		...columns.map((c) => c?.resident ?? []),
		...(opt?.column ? [opt.column.resident] : []),
	]);
	return (
		<div className="pl-compare-columns">
			{comparison.runs.map((run, i) => {
				const result = resultAt(run.outcome, step);
				const column = columns[i];
				return (
					<div key={i} className="pl-compare-column" data-testid={`compare-column-${i}`} data-step={step}>
						<h3>{run.label}</h3>
						<p className={`pl-compare-result pl-compare-result-${result ?? 'none'}`}>
							{result === null ? 'start' : `page ${referenced}: ${result === 'H' ? 'hit' : 'fault'}`}
						</p>
						{column && (
							<FrameBoxes
								pages={aligned[i]}
								frames={run.entry.frames}
								referenced={referenced}
								flagged={ghost ? new Set(ghost.notInOpt[i]) : new Set()}
								flagTitle="OPT would not hold this page now"
							/>
						)}
						<p className="pl-compare-evicted">{column?.evicted.length ? `evicted ${column.evicted.join(', ')}` : ' '}</p>
						<p>
							{faultCount(run.faults.at(step))} so far
						</p>
					</div>
				);
			})}
			{opt && (
				<div className="pl-compare-column pl-compare-ghost" data-testid="compare-ghost-column" data-step={step}>
					<h3>OPT would hold</h3>
					{opt.compared && <p className="pl-compare-legend">(the same as OPT's column)</p>}
					<p className={`pl-compare-result pl-compare-result-${resultAt(opt.run.outcome, step) ?? 'none'}`}>
						{step === 0 ? 'start' : `page ${referenced}: ${resultAt(opt.run.outcome, step) === 'H' ? 'hit' : 'fault'}`}
					</p>
					{opt.column && (
						<FrameBoxes
							pages={aligned[aligned.length - 1]}
							frames={opt.run.entry.frames}
							referenced={referenced}
							flagged={new Set(ghost?.opt.filter((p) => p.heldBy.length === 0).map((p) => p.page))}
							flagTitle="OPT keeps this page; none of the compared policies does"
						/>
					)}
					<p className="pl-compare-evicted">{opt.column?.evicted.length ? `evicted ${opt.column.evicted.join(', ')}` : ' '}</p>
					<p>
						{faultCount(opt.run.faults.at(step))} so far
					</p>
				</div>
			)}
			{ghost && (
				<p className="pl-compare-legend" data-testid="compare-ghost-note">
					Dashed: what OPT would hold now. Outlined in red: pages a policy holds that OPT has already let go.
				</p>
			)}
		</div>
	);
}
