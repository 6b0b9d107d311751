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
 */
import { memo } from 'react';
import type { GridColumn, Timeline } from '../../model/timeline';
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
	page: number;
	rows: number;
	/** null for a future column (nothing to show yet). */
	column: GridColumn | null;
	result: 'F' | 'H' | '';
	moment: Moment;
	onPick?: (step: number) => void;
}

const Column = memo(function Column({ k, page, rows, column, result, moment, onPick }: ColumnProps) {
	const cells = [];
	for (let r = 0; r < rows; r++) {
		const arrived = column?.entered.has(r) ?? false;
		cells.push(
			<div key={r} className={`cell${arrived ? ' arrived' : ''}`} data-testid={`grid-cell-${k}-${r}`}>
				{column?.rows[r] ?? ''}
			</div>,
		);
	}
	return (
		<div className={`grid-column ${moment}`}>
			<div className="cell ref" onClick={() => onPick?.(k)} title={`reference ${k}`}>
				{page}
			</div>
			{cells}
			<div className={`cell result ${result}`} data-testid={`grid-result-${k}`}>
				{result}
			</div>
		</div>
	);
});

function RowLabels({ rows }: { rows: number }) {
	const labels = [];
	for (let r = 0; r < rows; r++)
		labels.push(
			<div key={r} className="cell label">
				f{r}
			</div>,
		);
	return (
		<div className="grid-column labels">
			<div className="cell label">ref</div>
			{labels}
			<div className="cell label" />
		</div>
	);
}

export function FrameGrid({ timeline, step, columns, onPick }: Props) {
	const { first, last } = gridWindow(Math.max(step, 1), timeline.steps, columns);
	const rows = Math.min(timeline.frames, MAX_GRID_ROWS);
	const shown = [];
	for (let k = first; k <= last; k++) {
		const moment: Moment = k < step ? 'past' : k === step ? 'current' : 'future';
		shown.push(
			<Column
				key={k}
				k={k}
				page={timeline.pages[k - 1]}
				rows={rows}
				column={k <= step ? timeline.column(k) : null}
				result={k <= step ? (timeline.outcome[k - 1] ? 'H' : 'F') : ''}
				moment={moment}
				onPick={onPick}
			/>,
		);
	}
	return (
		<div className="frame-grid-wrap">
			<div className="frame-grid" data-testid="frame-grid" data-step={String(step)}>
				<RowLabels rows={rows} />
				{shown}
			</div>
			{timeline.frames > rows && <p className="note">showing the first {rows} of {timeline.frames} frames</p>}
			<p className="note">
				columns {first}–{last} of {timeline.steps}
			</p>
		</div>
	);
}
