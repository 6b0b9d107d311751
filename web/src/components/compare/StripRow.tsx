/*
 * StripRow.tsx - one policy's row of the strips: its name, faults so far and
 * in all, and a hit (H) or fault (F) cell per step of the window.  With
 * answers hidden, the total and every cell after the current step are
 * left blank (data-hidden, no data-result) until the class gets there.
 */
import { stripCells, type stripWindow } from '../../model/compare';
import { faultCount, type Run } from './comparison';

interface StripRowProps {
	index: number;
	run: Run;
	step: number;
	window: ReturnType<typeof stripWindow>;
	cellClass: (step: number) => string;
	hideAfterStep: boolean;
	onStep: (step: number) => void;
}

export function StripRow({ index, run, step, window, cellClass, hideAfterStep, onStep }: StripRowProps) {
	return (
		<>
			<span className="pl-compare-label">
				<strong>{run.label}</strong>{' '}
				<span data-testid={`compare-faults-${index}`}>
					{faultCount(run.faults.at(step))}
				</span>{' '}
				{!hideAfterStep && <span className="pl-compare-total">/ {run.faults.total.toLocaleString('en')}</span>}
			</span>
			<div className="pl-compare-row" data-testid={`compare-strip-${index}`}>
				{stripCells(run.outcome, window).map((cell) =>
					hideAfterStep && cell.step > step ? (
						<button
							type="button"
							key={cell.step}
							data-hidden="true"
							data-step={cell.step}
							className={`${cellClass(cell.step)} pl-compare-hidden`}
							aria-label={`${run.label}, step ${cell.step}: not yet revealed`}
							onClick={() => onStep(cell.step)}
						/>
					) : (
						<button
							type="button"
							key={cell.step}
							data-result={cell.result}
							data-step={cell.step}
							className={`${cellClass(cell.step)} pl-compare-result-${cell.result}`}
							title={`${run.label}, step ${cell.step}: ${cell.result === 'H' ? 'hit' : 'fault'}`}
							onClick={() => onStep(cell.step)}
						>
							{cell.result}
						</button>
					),
				)}
			</div>
		</>
	);
}
