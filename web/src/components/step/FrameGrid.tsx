/*
 * FrameGrid.tsx - the textbook frame grid: time across (one column per
 * reference, the referenced page on top), frames down, F or H under each
 * column.  Column k shows memory after reference k; columns after the
 * current step stay empty, so the grid fills in as the lecture steps.  Cells
 * whose page arrived in that column are marked, as in the textbooks.
 *
 * The grid is a row of column elements rather than a table: a step changes
 * two columns (the old and the new current one), and each column is a
 * memoized component over the timeline's cached column, so only those two
 * are redrawn and laid out.
 *
 * For a screen reader it is an ARIA grid read one step at a time: each
 * time column is a row ("reference 5, page 3, fault"; then "frame 0: page
 * 7, arrived"), the label column is the header row.  The keyboard moves
 * between cells with the arrows (roving tabindex: one cell is in the tab
 * order), Enter jumps to the step of the focused cell.  Cells are as wide
 * as the widest page number of the trace (--digits).
 */
import { memo, useMemo, type CSSProperties, type KeyboardEvent } from 'react';
import type { GridColumn, Timeline } from '../../model/timeline';
import { pageAt, type PageNumber, type PageSequence } from '../../wasm/protocol';
import { gridWindow } from '../../viz/grid';

export const MAX_GRID_ROWS = 64;

interface Props {
	timeline: Timeline;
	step: number;
	columns: number;
	onPick?: (step: number) => void;
}

type Moment = 'past' | 'current' | 'future';

interface ColumnProps {
	k: number;
	page: PageNumber;
	rows: number;
	/** null for a future column (nothing to show yet). */
	column: GridColumn | null;
	result: 'F' | 'H' | '';
	moment: Moment;
	onPick?: (step: number) => void;
}

function cellWords(k: number, r: number, page: PageNumber | null | undefined, arrived: boolean, future: boolean): string {
	if (future) return `step ${k}, frame ${r}: not yet shown`;
	return `step ${k}, frame ${r}: ${page === null || page === undefined ? 'empty' : `page ${page}${arrived ? ', arrived now' : ''}`}`;
}

const Column = memo(function Column({ k, page, rows, column, result, moment, onPick }: ColumnProps) {
	const cells = [];
	for (let r = 0; r < rows; r++) {
		const arrived = column?.entered.has(r) ?? false;
		cells.push(
			<div
				key={r}
				role="gridcell"
				tabIndex={-1}
				aria-label={cellWords(k, r, column?.rows[r], arrived, column === null)}
				data-row={r + 1}
				className={`pl-step-cell${arrived ? ' pl-step-arrived' : ''}`}
				data-testid={`grid-cell-${k}-${r}`}
			>
				{String(column?.rows[r] ?? '')}
			</div>,
		);
	}
	const outcome = result === 'F' ? 'fault' : result === 'H' ? 'hit' : 'not yet shown';
	return (
		<div className={`pl-step-grid-column pl-step-${moment}`} role="row" data-column={k} aria-current={moment === 'current' ? 'step' : undefined}>
			<div
				className="pl-step-cell pl-step-ref"
				role="rowheader"
				tabIndex={moment === 'current' ? 0 : -1}
				data-row={0}
				aria-label={`reference ${k}: page ${page}, ${outcome}`}
				onClick={() => onPick?.(k)}
				title={`reference ${k}`}
			>
				{String(page)}
			</div>
			{cells}
			<div className={`pl-step-cell pl-step-result pl-step-${result}`} role="gridcell" tabIndex={-1} data-row={rows + 1} aria-label={`step ${k}: ${outcome}`} data-testid={`grid-result-${k}`}>
				{result && <span className="pl-step-mark" data-testid={`grid-mark-${k}`} aria-hidden="true" />}
				{result}
			</div>
		</div>
	);
});

/* Arrow keys move the focus between cells; Enter shows the focused cell's step. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>, onPick?: (step: number) => void): void {
	const cell = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('[data-row]') : null;
	const column = cell?.closest<HTMLElement>('[data-column]');
	if (!cell || !column) return;
	const row = Number(cell.dataset.row);
	const step = Number(column.dataset.column);
	if (event.key === 'Enter') {
		onPick?.(step);
		event.preventDefault();
		return;
	}
	const delta: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
	const move = delta[event.key];
	if (!move) return;
	const grid = event.currentTarget;
	const target = grid.querySelector<HTMLElement>(`[data-column="${step + move[0]}"] [data-row="${row + move[1]}"]`);
	if (target) {
		cell.tabIndex = -1;
		target.tabIndex = 0;
		target.focus();
	}
	event.preventDefault();
}

function RowLabels({ rows }: { rows: number }) {
	const labels = [];
	for (let r = 0; r < rows; r++)
		labels.push(
			<div key={r} className="pl-step-cell pl-step-label" role="columnheader" aria-label={`frame ${r}`}>
				f{r}
			</div>,
		);
	return (
		<div className="pl-step-grid-column pl-step-labels" role="row">
			<div className="pl-step-cell pl-step-label" role="columnheader" aria-label="reference">
				ref
			</div>
			{labels}
			<div className="pl-step-cell pl-step-label" role="columnheader">
				<span className="pl-visually-hidden">hit or fault</span>
			</div>
		</div>
	);
}

/** Digits of the widest page number among `pages` (for the cell width): the largest one's. */
export function widestPage(pages: PageSequence): number {
	let largest: PageNumber = 0;
	for (let i = 0; i < pages.ids.length; i++) {
		const page = pageAt(pages, i);
		if (page > largest) largest = page;
	}
	return String(largest).length;
}

export function FrameGrid({ timeline, step, columns, onPick }: Props) {
	const digits = useMemo(() => widestPage(timeline.pages), [timeline]);
	const { first, last } = gridWindow(Math.max(step, 1), timeline.steps, columns);
	const rows = Math.min(timeline.frames, MAX_GRID_ROWS);
	const shown = [];
	for (let k = first; k <= last; k++) {
		const moment: Moment = k < step ? 'past' : k === step ? 'current' : 'future';
		shown.push(
			<Column
				key={k}
				k={k}
				page={timeline.reference(k)}
				rows={rows}
				column={k <= step ? timeline.column(k) : null}
				result={k <= step ? (timeline.outcome[k - 1] ? 'H' : 'F') : ''}
				moment={moment}
				onPick={onPick}
			/>,
		);
	}
	return (
		<div className="pl-step-frame-grid-wrap">
			<div
				className="pl-step-frame-grid"
				data-testid="frame-grid"
				data-step={String(step)}
				role="grid"
				aria-label={`frames over time, steps ${first} to ${last} of ${timeline.steps}, ${rows} frames`}
				aria-rowcount={timeline.steps + 1}
				aria-colcount={rows + 2}
				style={{ '--digits': digits } as CSSProperties}
				onKeyDown={(event) => moveFocus(event, onPick)}
			>
				<RowLabels rows={rows} />
				{shown}
			</div>
			{timeline.frames > rows && <p className="pl-note">showing the first {rows} of {timeline.frames} frames</p>}
			<p className="pl-note pl-step-grid-range">
				columns {first}–{last} of {timeline.steps}
			</p>
		</div>
	);
}
