/*
 * CompareControls.tsx - the compare view's own step controls (compare-step-*,
 * compare-next-difference, compare-scrub).  They move the shared step when
 * the App passes one, so the step view and this view stay at the same moment.
 */

interface CompareControlsProps {
	step: number;
	total: number;
	nextDifference: number | null;
	/** Hide answers: no jump to the next difference (it tells where the results differ). */
	hideJumps?: boolean;
	onStep: (step: number) => void;
}

export function CompareControls({ step, total, nextDifference, hideJumps = false, onStep }: CompareControlsProps) {
	return (
		<div className="pl-compare-controls" role="toolbar" aria-label="compare step controls">
			<button type="button" data-testid="compare-step-start" onClick={() => onStep(0)} disabled={step === 0} title="back to the start (Home)">
				⇤ start
			</button>
			<button type="button" data-testid="compare-step-back" onClick={() => onStep(step - 1)} disabled={step === 0} title="one step back (←)">
				◀ back
			</button>
			<button
				type="button"
				data-testid="compare-step-forward"
				onClick={() => onStep(step + 1)}
				disabled={step >= total}
				title="one step forward (→)"
			>
				forward ▶
			</button>
			{!hideJumps && <button
				type="button"
				data-testid="compare-next-difference"
				onClick={() => nextDifference !== null && onStep(nextDifference)}
				disabled={nextDifference === null}
				title="the next step where the policies' results differ (D)"
			>
				next difference
			</button>}
			<input
				type="range"
				data-testid="compare-scrub"
				aria-label="step"
				min={0}
				max={total}
				value={step}
				onChange={(e) => onStep(Number(e.target.value))}
			/>
			<span data-testid="compare-step-counter" className="pl-compare-counter">
				step {step} / {total}
			</span>
		</div>
	);
}

