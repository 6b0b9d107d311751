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
 *
 * With `fit` (lecture mode) the grid shows as many frames as fit the height
 * its box is given (viz/grid.ts rowWindow): more frames than that are
 * windowed around the frame the current step touched, with a mark above
 * and below saying which frames are off screen ("▲ f0–f9 above",
 * data-testid grid-rows-above / grid-rows-below).  Otherwise it shows up to
 * MAX_GRID_ROWS frames in a box that scrolls.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { GridColumn, Timeline } from '../../model/timeline';
import { pageAt, type PageNumber, type PageSequence } from '../../wasm/protocol';
import { gridWindow, rowWindow } from '../../viz/grid';
import { useElementWidth } from '../charts/useElementWidth';

export const MAX_GRID_ROWS = 64;

interface Props {
	timeline: Timeline;
	step: number;
	columns: number;
	/** Show only the frames that fit the box's height (lecture mode), windowed with marks. */
	fit?: boolean;
	onPick?: (step: number) => void;
}

/** The frames shown: first..first + count - 1, and whether frames above and below are left out. */
interface Rows {
	first: number;
	count: number;
	above: boolean;
	below: boolean;
}

type Moment = 'past' | 'current' | 'future';

interface ColumnProps {
	k: number;
	page: PageNumber;
	rows: Rows;
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

/* A windowed grid's mark row: blank in a step's column, the words in the label column (RowLabels). */
const MarkCell = () => <div className="pl-step-cell pl-step-mark-row" aria-hidden="true" />;

const Column = memo(function Column({ k, page, rows, column, result, moment, onPick }: ColumnProps) {
	const cells = [];
	for (let r = rows.first; r < rows.first + rows.count; r++) {
		const arrived = column?.entered.has(r) ?? false;
		cells.push(
			<div
				key={r}
				role="gridcell"
				tabIndex={-1}
				aria-label={cellWords(k, r, column?.rows[r], arrived, column === null)}
				aria-colindex={r + 2}
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
			{rows.above && <MarkCell />}
			{cells}
			{rows.below && <MarkCell />}
			<div className={`pl-step-cell pl-step-result pl-step-${result}`} role="gridcell" tabIndex={-1} data-row="result" aria-label={`step ${k}: ${outcome}`} data-testid={`grid-result-${k}`}>
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
	const step = Number(column.dataset.column);
	if (event.key === 'Enter') {
		onPick?.(step);
		event.preventDefault();
		return;
	}
	const delta: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
	const move = delta[event.key];
	if (!move) return;
	/* Up and down: the next cell of the column (a window's mark rows have no data-row); across: the same row. */
	const cells = [...column.querySelectorAll<HTMLElement>('[data-row]')];
	const target = move[1]
		? cells[cells.indexOf(cell) + move[1]]
		: event.currentTarget.querySelector<HTMLElement>(`[data-column="${step + move[0]}"] [data-row="${cell.dataset.row}"]`);
	if (target) {
		cell.tabIndex = -1;
		target.tabIndex = 0;
		target.focus();
	}
	event.preventDefault();
}

function RowMark({ testId, words }: { testId: string; words: string }) {
	return (
		<div className="pl-step-cell pl-step-label pl-step-mark-row" aria-hidden="true">
			<span className="pl-step-rows-off" data-testid={testId}>
				{words}
			</span>
		</div>
	);
}

function RowLabels({ rows, frames }: { rows: Rows; frames: number }) {
	const labels = [];
	for (let r = rows.first; r < rows.first + rows.count; r++)
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
			{rows.above && <RowMark testId="grid-rows-above" words={`▲ ${frameRange(0, rows.first - 1)} above`} />}
			{labels}
			{rows.below && <RowMark testId="grid-rows-below" words={`▼ ${frameRange(rows.first + rows.count, frames - 1)} below`} />}
			<div className="pl-step-cell pl-step-label" role="columnheader">
				<span className="pl-visually-hidden">hit or fault</span>
			</div>
		</div>
	);
}

const frameRange = (from: number, to: number) => (from === to ? `f${from}` : `f${from}–f${to}`);

/** Digits of the widest page number among `pages` (for the cell width): the largest one's. */
export function widestPage(pages: PageSequence): number {
	let largest: PageNumber = 0;
	for (let i = 0; i < pages.ids.length; i++) {
		const page = pageAt(pages, i);
		if (page > largest) largest = page;
	}
	return String(largest).length;
}

/* The frame the step at `step` touched: the one its page entered, or on a hit the one holding it. */
function touchedFrame(timeline: Timeline, step: number): number | null {
	if (step < 1) return null;
	const column = timeline.column(step);
	for (const row of column.entered) return row;
	const page = timeline.reference(step);
	const row = column.rows.findIndex((p) => p === page);
	return row < 0 ? null : row;
}

/*
 * How many grid rows the box has room for (fit only; Infinity until
 * measured): its height over one cell's (cells overlap by their 1 px
 * border), less the reference and result rows.
 */
function useRowRoom(fit: boolean) {
	const wrap = useRef<HTMLDivElement>(null);
	const box = useElementWidth(wrap, { height: fit });
	const [pitch, setPitch] = useState(0);
	useLayoutEffect(() => {
		const cell = wrap.current?.querySelector<HTMLElement>('.pl-step-cell');
		if (fit && cell) setPitch(cell.offsetHeight - 1);
	}, [fit, box.em]);
	const room = fit && pitch > 0 && box.height > 0 ? Math.floor((box.height - 1) / pitch) - 2 : Infinity;
	return { wrap, room };
}

export function FrameGrid({ timeline, step, columns, fit = false, onPick }: Props) {
	const digits = useMemo(() => widestPage(timeline.pages), [timeline]);
	/* The column window and the row window each stay put while the step stays inside them (viz/grid.ts). */
	const previousColumn = useRef(0);
	const { first, last } = gridWindow(Math.max(step, 1), timeline.steps, columns, previousColumn.current);
	const { wrap, room } = useRowRoom(fit);
	const previousFirst = useRef(0);
	const shownRows = fit && Number.isFinite(room) ? rowWindow(timeline.frames, room, touchedFrame(timeline, step), previousFirst.current) : null;
	useLayoutEffect(() => {
		previousColumn.current = first;
		if (shownRows) previousFirst.current = shownRows.first;
	});
	const rowsShown = shownRows ? shownRows.last - shownRows.first + 1 : Math.min(timeline.frames, MAX_GRID_ROWS);
	const rowStart = shownRows?.first ?? 0;
	/* One object per window, so the memoized columns redraw only when it moves. */
	const rows = useMemo<Rows>(
		() => ({ first: rowStart, count: rowsShown, above: rowStart > 0 && !!shownRows?.windowed, below: rowStart + rowsShown < timeline.frames && !!shownRows?.windowed }),
		[rowStart, rowsShown, timeline.frames, shownRows?.windowed],
	);
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
		<div className="pl-step-frame-grid-wrap" ref={wrap}>
			<div
				className="pl-step-frame-grid"
				data-testid="frame-grid"
				data-step={String(step)}
				role="grid"
				aria-label={`frames over time, steps ${first} to ${last} of ${timeline.steps}, ${
					rows.count < timeline.frames ? `frames ${rows.first} to ${rows.first + rows.count - 1} of ${timeline.frames}` : `${rows.count} frames`
				}`}
				aria-rowcount={timeline.steps + 1}
				aria-colcount={timeline.frames + 2}
				style={{ '--digits': digits, '--frame-chars': String(timeline.frames - 1).length + 1 } as CSSProperties}
				onKeyDown={(event) => moveFocus(event, onPick)}
			>
				<RowLabels rows={rows} frames={timeline.frames} />
				{shown}
			</div>
			{!shownRows && timeline.frames > rows.count && (
				<p className="pl-note">
					showing the first {rows.count} of {timeline.frames} frames
				</p>
			)}
			<p className="pl-note pl-step-grid-range">
				columns {first}–{last} of {timeline.steps}
			</p>
		</div>
	);
}
