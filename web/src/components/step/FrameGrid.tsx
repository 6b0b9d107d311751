/*
 * FrameGrid.tsx - the textbook frame grid: time across (one column per
 * reference, the referenced page on top), frames down, F or H under each
 * column.  Column k shows memory after reference k; columns after the
 * current step stay empty, so the grid fills in as the lecture steps.  Cells
 * whose page arrived in that column are marked, as in the textbooks.
 */
import type { GridColumn, Timeline } from '../../model/timeline';
import { gridWindow } from '../../viz/grid';

export const MAX_GRID_ROWS = 64;

interface Props {
	timeline: Timeline;
	step: number;
	columns: number;
	onPick?: (step: number) => void;
}

export function FrameGrid({ timeline, step, columns, onPick }: Props) {
	const { first, last } = gridWindow(Math.max(step, 1), timeline.steps, columns);
	const rows = Math.min(timeline.frames, MAX_GRID_ROWS);
	const shown: Array<{ k: number; column: GridColumn | null }> = [];
	for (let k = first; k <= last; k++) shown.push({ k, column: k <= step ? timeline.column(k) : null });
	return (
		<div className="frame-grid-wrap">
			<table className="frame-grid" data-testid="frame-grid" data-step={String(step)}>
				<thead>
					<tr>
						<th className="corner">ref</th>
						{shown.map(({ k }) => (
							<th key={k} className={k === step ? 'current' : k > step ? 'future' : ''} onClick={() => onPick?.(k)} title={`reference ${k}`}>
								{timeline.pages[k - 1]}
							</th>
						))}
					</tr>
				</thead>
				<tbody>
					{Array.from({ length: rows }, (_, r) => (
						<tr key={r}>
							<th className="row-label">f{r}</th>
							{shown.map(({ k, column }) => {
								const page = column?.rows[r];
								const arrived = column?.entered.has(r) ?? false;
								return (
									<td key={k} data-testid={`grid-cell-${k}-${r}`} className={`${k === step ? 'current' : ''}${arrived ? ' arrived' : ''}`}>
										{page ?? ''}
									</td>
								);
							})}
						</tr>
					))}
					<tr className="results">
						<th className="row-label" />
						{shown.map(({ k }) => {
							const result = k <= step ? (timeline.outcome[k - 1] ? 'H' : 'F') : '';
							return (
								<td key={k} data-testid={`grid-result-${k}`} className={`result ${result}${k === step ? ' current' : ''}`}>
									{result}
								</td>
							);
						})}
					</tr>
				</tbody>
			</table>
			{timeline.frames > rows && <p className="note">showing the first {rows} of {timeline.frames} frames</p>}
			<p className="note">
				columns {first}–{last} of {timeline.steps}
			</p>
		</div>
	);
}
