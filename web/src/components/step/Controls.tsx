/*
 * Controls.tsx - stepping through a run: back, forward, play/pause, speed,
 * scrub slider, jump to the next fault or eviction, reset, and the step
 * counter ("step K / N").  Keyboard shortcuts live in StepView, which owns
 * the playing state.
 */
export const SPEEDS = [0.5, 1, 2, 4, 8, 16];

interface Props {
	step: number;
	total: number;
	playing: boolean;
	speed: number;
	nextFault: number | null;
	nextEviction: number | null;
	onStep: (step: number) => void;
	onPlaying: (playing: boolean) => void;
	onSpeed: (speed: number) => void;
	/** Hide answers / predict mode: no jumps to the next fault or eviction (they tell where faults are). */
	hideJumps: boolean;
	onExportLog: () => void;
}

export function Controls({ step, total, playing, speed, nextFault, nextEviction, onStep, onPlaying, onSpeed, hideJumps, onExportLog }: Props) {
	return (
		<div className="pl-step-controls" role="toolbar" aria-label="step controls">
			<button data-testid="reset" aria-label="reset" onClick={() => onStep(0)} disabled={step === 0} title="reset (Home; End jumps to the end)">
				↺<span className="pl-step-label-text"> reset</span>
			</button>
			<button data-testid="step-back" aria-label="step back" onClick={() => onStep(step - 1)} disabled={step === 0} title="step back (← or PageUp)">
				◀<span className="pl-step-label-text"> back</span>
			</button>
			<button data-testid="play-pause" aria-label={playing ? 'pause' : 'play'} className="pl-primary" onClick={() => onPlaying(!playing)} disabled={!playing && step >= total} title="play / pause (space)">
				{playing ? '⏸' : '▶'}
				<span className="pl-step-label-text">{playing ? ' pause' : ' play'}</span>
			</button>
			<button data-testid="step-forward" aria-label="step forward" onClick={() => onStep(step + 1)} disabled={step >= total} title="step forward (→ or PageDown)">
				<span className="pl-step-label-text">forward </span>▶
			</button>
			{!hideJumps && (
				<>
					<button data-testid="next-fault" onClick={() => nextFault !== null && onStep(nextFault)} disabled={nextFault === null}>
						next fault
					</button>
					<button data-testid="next-eviction" onClick={() => nextEviction !== null && onStep(nextEviction)} disabled={nextEviction === null}>
						next eviction
					</button>
				</>
			)}
			<label className="pl-step-speed">
				speed
				<select data-testid="speed" value={speed} onChange={(e) => onSpeed(Number(e.target.value))}>
					{SPEEDS.map((s) => (
						<option key={s} value={s}>
							{s} {s === 1 ? 'step' : 'steps'}/s
						</option>
					))}
				</select>
			</label>
			<input
				className="pl-step-scrub"
				data-testid="scrub"
				type="range"
				min={0}
				max={total}
				value={step}
				onChange={(e) => onStep(Number(e.target.value))}
				aria-label="scrub through the steps"
			/>
			<button data-testid="export-log" onClick={onExportLog} disabled={step === 0} title="the steps so far, with their narration, as CSV">
				export log
			</button>
			<span className="pl-step-counter" data-testid="step-counter">
				step {step} / {total}
			</span>
		</div>
	);
}
