/*
 * Columns.tsx - each compared policy's frames at the current step side by
 * side (compare-column-<i>), rows aligned so shared pages line up, and
 * optionally OPT's frames as a dashed ghost column (compare-ghost-column)
 * with the pages a policy holds that OPT has let go outlined.
 *
 * With `fit` (lecture mode) the columns share the width and the height the
 * view leaves them: the boxes of each are laid out in as many rows as fit
 * that height and as many columns of boxes as fit its width, the rest
 * counted (FrameBoxes' fit), so a projector never scrolls.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { pageAt, type PageNumber } from '../../wasm/protocol';
import { Shortened } from '../Shortened';
import { alignColumns, resultAt, type GhostColumn } from '../../model/compare';
import { RECORD_LIMIT, faultCount, type Column, type Comparison, type Run } from './comparison';
import { FrameBoxes, type BoxesFit } from './FrameBoxes';
import { useElementWidth } from '../charts/useElementWidth';

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
	fit?: boolean;
}

/*
 * The room for frame boxes in the columns' box (fit only; null until
 * measured): its height less what a column shows besides its boxes, over a
 * box's height, and a column's width over the widest box's width.
 */
function useBoxesFit(fit: boolean) {
	const box = useRef<HTMLDivElement>(null);
	const room = useElementWidth(box);
	const [boxes, setBoxes] = useState<BoxesFit | null>(null);
	useLayoutEffect(() => {
		const columns = [...(box.current?.querySelectorAll<HTMLElement>('.pl-compare-column') ?? [])];
		const column = columns[0];
		const list = column?.querySelector<HTMLElement>('.pl-compare-frames');
		const items = [...(box.current?.querySelectorAll<HTMLElement>('.pl-compare-frames li:not(.pl-compare-more)') ?? [])];
		if (!fit || !column || !list || !items.length || room.height <= 0) return;
		const listStyle = getComputedStyle(list);
		const columnStyle = getComputedStyle(column);
		const rowGap = parseFloat(listStyle.rowGap) || 0;
		const columnGap = parseFloat(listStyle.columnGap) || 0;
		/* The tallest column's lines besides its boxes (OPT's ghost column has a longer heading). */
		const chrome = Math.max(
			...columns.map((c) => c.offsetHeight - (c.querySelector<HTMLElement>('.pl-compare-frames')?.offsetHeight ?? 0)),
		);
		const inside = column.clientWidth - parseFloat(columnStyle.paddingLeft) - parseFloat(columnStyle.paddingRight);
		const tallest = Math.max(...items.map((li) => li.offsetHeight));
		const widest = Math.max(...items.map((li) => li.offsetWidth));
		const rows = Math.max(1, Math.floor((room.height - chrome + rowGap) / (tallest + rowGap)));
		const across = Math.max(1, Math.floor((inside + columnGap) / (widest + columnGap)));
		setBoxes((old) => (old?.rows === rows && old.boxes === rows * across ? old : { rows, boxes: rows * across }));
	});
	return { box, boxes: fit ? boxes : null };
}

/* A column's outcome line: "page 7: fault", on a projector "fault" (the strips' current column shows the page). */
function Outcome({ referenced, result, short }: { referenced: PageNumber | null; result: 'H' | 'F' | null; short: boolean }) {
	if (result === null) return <>start</>;
	const word = result === 'H' ? 'hit' : 'fault';
	const words = `page ${referenced}: ${word}`;
	return short ? <Shortened full={words}>{word}</Shortened> : <>{words}</>;
}

/* "12 faults so far", on a projector "12 faults". */
function SoFar({ faults, short }: { faults: string; short: boolean }) {
	return <p>{short ? <Shortened full={`${faults} so far`}>{faults}</Shortened> : `${faults} so far`}</p>;
}

export function Columns({ comparison, columns, opt, ghost, step, fit = false }: ColumnsProps) {
	const { box, boxes } = useBoxesFit(fit);
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
		<div className="pl-compare-columns" ref={box}>
			{comparison.runs.map((run, i) => {
				const result = resultAt(run.outcome, step);
				const column = columns[i];
				return (
					<div key={i} className="pl-compare-column" data-testid={`compare-column-${i}`} data-step={step}>
						<h3>{run.label}</h3>
						<p className={`pl-compare-result pl-compare-result-${result ?? 'none'}`}>
							<Outcome referenced={referenced} result={result} short={fit} />
						</p>
						{column && (
							<FrameBoxes
								pages={aligned[i]}
								frames={run.entry.frames}
								referenced={referenced}
								flagged={ghost ? new Set(ghost.notInOpt[i]) : new Set()}
								flagTitle="OPT would not hold this page now"
								fit={boxes ?? undefined}
							/>
						)}
						<p className="pl-compare-evicted">{column?.evicted.length ? `evicted ${column.evicted.join(', ')}` : ' '}</p>
						<SoFar faults={faultCount(run.faults.at(step))} short={fit} />
					</div>
				);
			})}
			{opt && (
				<div className="pl-compare-column pl-compare-ghost" data-testid="compare-ghost-column" data-step={step}>
					<h3>{fit ? <Shortened full="OPT would hold">OPT holds</Shortened> : 'OPT would hold'}</h3>
					{opt.compared && <p className="pl-compare-legend">(the same as OPT's column)</p>}
					<p className={`pl-compare-result pl-compare-result-${resultAt(opt.run.outcome, step) ?? 'none'}`}>
						<Outcome referenced={referenced} result={resultAt(opt.run.outcome, step)} short={fit} />
					</p>
					{opt.column && (
						<FrameBoxes
							pages={aligned[aligned.length - 1]}
							frames={opt.run.entry.frames}
							referenced={referenced}
							flagged={new Set(ghost?.opt.filter((p) => p.heldBy.length === 0).map((p) => p.page))}
							flagTitle="OPT keeps this page; none of the compared policies does"
							fit={boxes ?? undefined}
						/>
					)}
					<p className="pl-compare-evicted">{opt.column?.evicted.length ? `evicted ${opt.column.evicted.join(', ')}` : ' '}</p>
					<SoFar faults={faultCount(opt.run.faults.at(step))} short={fit} />
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
