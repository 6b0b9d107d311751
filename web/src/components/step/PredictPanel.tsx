/*
 * PredictPanel.tsx - predict mode: before the next reference is revealed
 * the class says whether it hits or faults and, when a fault must evict,
 * which page goes.  The lecturer clicks the class's answer (or presses H /
 * F, and 1-9 for the n-th page in memory); stepping forward reveals the
 * step and scores the prediction.  The score counts predictions made, not
 * steps taken, so skipping a question costs nothing.
 */
import type { PageNumber } from '../../wasm/protocol';
import type { Timeline } from '../../model/timeline';

export interface Prediction {
	hit: boolean;
	/** The page predicted to be evicted (only for a fault on full memory). */
	victim: PageNumber | null;
}

export interface Scored {
	step: number;
	page: PageNumber;
	prediction: Prediction;
	correct: boolean;
	/** What happened, in words: "fault, evicted 7". */
	actual: string;
}

/** What really happened at step k (the reference k-1): hit, or fault and the pages evicted. */
export function outcomeOf(timeline: Timeline, k: number): { hit: boolean; evicted: PageNumber[] } {
	const evicted = timeline.log
		.eventsOfStep(k)
		.filter((e) => e.kind === 'evict')
		.map((e) => e.page as PageNumber);
	return { hit: timeline.outcome[k - 1] === 1, evicted };
}

export function score(timeline: Timeline, k: number, prediction: Prediction): Scored {
	const { hit, evicted } = outcomeOf(timeline, k);
	const victimRight = prediction.victim === null ? evicted.length === 0 : evicted.includes(prediction.victim);
	const correct = prediction.hit === hit && (hit || victimRight);
	const actual = hit ? 'hit' : evicted.length ? `fault, evicted ${evicted.join(', ')}` : 'fault, no eviction';
	return { step: k, page: timeline.reference(k), prediction, correct, actual };
}

interface Props {
	timeline: Timeline;
	step: number;
	prediction: Prediction | null;
	onPredict: (prediction: Prediction) => void;
	scored: Scored[];
	last: Scored | null;
}

export function PredictPanel({ timeline, step, prediction, onPredict, scored, last }: Props) {
	const next = step + 1;
	const right = scored.filter((s) => s.correct).length;
	const resident = step > 0 ? timeline.column(step).rows.filter((p): p is PageNumber => p !== null) : [];
	const full = resident.length >= timeline.frames;
	return (
		<section className="pl-step-predict-panel" data-testid="predict-panel" aria-label="predict the next step">
			{last && (
				<p className={`pl-step-verdict ${last.correct ? 'pl-step-right' : 'pl-step-wrong'}`} data-testid="predict-verdict" role="status">
					{last.correct ? '✓ right' : '✗ not quite'}: reference {last.step} (page {String(last.page)}) was a {last.actual}.
				</p>
			)}
			{next <= timeline.steps ? (
				<div className="pl-step-question">
					<span className="pl-step-ask">
						Next: page <strong>{String(timeline.reference(next))}</strong> — hit or fault?
					</span>
					<button data-testid="predict-hit" aria-pressed={prediction?.hit === true} onClick={() => onPredict({ hit: true, victim: null })}>
						hit (H)
					</button>
					<button data-testid="predict-fault" aria-pressed={prediction?.hit === false && prediction.victim === null} onClick={() => onPredict({ hit: false, victim: null })}>
						fault (F)
					</button>
					{full && (
						<span className="pl-step-victims">
							evicts:
							{resident.map((page, i) => (
								<button
									key={page}
									data-testid={`predict-victim-${page}`}
									aria-pressed={prediction?.victim === page}
									onClick={() => onPredict({ hit: false, victim: page })}
								>
									{String(page)}
									{i < 9 ? ` (${i + 1})` : ''}
								</button>
							))}
						</span>
					)}
				</div>
			) : (
				<p className="pl-step-question">The trace is over.</p>
			)}
			<p className="pl-step-score" data-testid="predict-score">
				score: {right} / {scored.length}
			</p>
		</section>
	);
}
