/*
 * StepView.tsx - the step tab: controls, statistics, narration, the frame
 * grid and the policy's structure, all at one step.
 *
 * The step is owned by the App (it lives in the URL); this view asks the
 * worker for the snapshot of that step and shows it when it arrives, so
 * `structure`'s data-step can lag the counter for a moment but never shows
 * a mix of two steps.  The snapshots of the steps either side of the shown
 * one (two ahead) are fetched ahead, so a single step forward or back usually commits
 * the structure with the grid, without waiting for the worker.  Arriving at step k from step k-1 animates what the
 * events of step k say happened; any other jump redraws without animation.
 *
 * Keyboard, for a presentation clicker as much as a keyboard: PageDown,
 * ArrowRight step forward, PageUp, ArrowLeft step back, Home/End jump to
 * the ends, space play/pause.  They work wherever focus is (a button, the
 * speed list, the slider: the key is taken before the element sees it),
 * except in a field that takes typing (elementTakesTyping).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { PageNumber, Snapshot } from '../../wasm/protocol';
import type { Run } from '../../model/run';
import { narrate } from '../../model/narration';
import { NO_TRANSITIONS, transitionsOf, type Transitions } from '../../model/transitions';
import { unwrapHand } from '../../viz/clock';
import { Controls } from './Controls';
import { FrameGrid, widestPage } from './FrameGrid';
import { FitBox } from './FitBox';
import { VISIBLE_ROWS } from './ChipList';
import { useElementWidth } from '../charts/useElementWidth';
import { StructureView, drawingFor } from './StructureView';
import { CountersPanel } from './CountersPanel';
import { Shortened } from '../Shortened';
import { PredictPanel, score, type Prediction, type Scored } from './PredictPanel';
import { stepLogCsv } from '../../model/stepLog';
import './step.css';

interface Props {
	run: Run;
	step: number;
	onStep: (step: number) => void;
	lecture: boolean;
	/** Totals and the jumps that give away where faults are, hidden. */
	hideAnswers: boolean;
	/** The class predicts each step before it is revealed. */
	predict: boolean;
}

interface Shown {
	run: Run;
	step: number;
	snapshot: Snapshot;
	transitions: Transitions;
	handTurns: number[];
}

/* Text fields keep every key: typing a trace or a number must never step. */
export function elementTakesTyping(target: EventTarget | null): boolean {
	if (!(target instanceof HTMLElement)) return false;
	if (target.tagName === 'TEXTAREA' || target.isContentEditable) return true;
	if (target.tagName !== 'INPUT') return false;
	return !['range', 'checkbox', 'radio', 'file', 'button', 'submit', 'reset'].includes((target as HTMLInputElement).type);
}

/** The step a clicker or keyboard key asks for, or null if the key is not a stepping key. */
export function stepForKey(key: string, step: number, total: number): number | null {
	switch (key) {
		case 'PageDown':
		case 'ArrowRight':
			return Math.min(total, step + 1);
		case 'PageUp':
		case 'ArrowLeft':
			return Math.max(0, step - 1);
		case 'Home':
			return 0;
		case 'End':
			return total;
		default:
			return null;
	}
}

/* Predict mode's keys: H hit, F fault, 1-9 the n-th page in memory as the victim. */
function predictionForKey(key: string, run: Run, step: number): Prediction | null {
	if (key === 'h' || key === 'H') return { hit: true, victim: null };
	if (key === 'f' || key === 'F') return { hit: false, victim: null };
	if (!/^[1-9]$/.test(key) || step === 0) return null;
	const resident = run.timeline.column(step).rows.filter((p): p is PageNumber => p !== null);
	const page = resident[Number(key) - 1];
	return page === undefined ? null : { hit: false, victim: page };
}

/*
 * Cached snapshots around the shown step, so that a step forward or back
 * draws at once.  Two steps ahead: stepping on before the worker answered
 * for the next step (a clicker pressed twice, a busy machine) would draw
 * the step twice, the grid first and the structure when its snapshot
 * arrives.
 */
/* A 4:3 projector (lecture.css's max-width: 1100px), where lecture mode's two columns share the width half and half. */
const NARROW_PROJECTOR_PX = 1100;
const SNAPSHOT_CACHE_LIMIT = 8;
const NEIGHBOURS = [1, 2, -1];

/** What the structure shows at `step` given what it showed before (`before`). */
function shownAt(before: Shown | null, run: Run, step: number, snapshot: Snapshot): Shown {
	const forward = before !== null && before.run === run && before.step === step - 1;
	const transitions = forward ? transitionsOf(run.policy, run.timeline.log.eventsOfStep(step)) : NO_TRANSITIONS;
	const slots = (h: number) => Math.max(run.scenario.frames, snapshot.lists[run.policy.hands[h].list].length);
	const handTurns = snapshot.hands.map((position, h) =>
		forward ? unwrapHand(before.handTurns[h], transitions.hands.get(h) ?? [], slots(h)) : position,
	);
	return { run, step, snapshot, transitions, handTurns };
}

function remember(cache: Map<number, Snapshot>, step: number, snapshot: Snapshot): void {
	cache.set(step, snapshot);
	if (cache.size > SNAPSHOT_CACHE_LIMIT) cache.delete(cache.keys().next().value!);
}

/*
 * Seeks snapshots from the worker; shows each when it arrives, newest
 * request wins.  Once a step is shown its neighbours are fetched ahead: a
 * cached snapshot is adopted during the render that changes the step, so
 * the structure commits together with the grid instead of one worker round
 * trip later.  A step asked for while its fetch ahead is still under way
 * waits for that fetch, so the worker never seeks the same step twice.
 */
function useShownStep(run: Run, step: number): Shown | null {
	const [shown, setShown] = useState<Shown | null>(null);
	const latest = useRef(0);
	const cache = useRef({ run, snapshots: new Map<number, Snapshot>(), fetching: new Map<number, Promise<Snapshot>>() });
	if (cache.current.run !== run) cache.current = { run, snapshots: new Map(), fetching: new Map() };
	const { snapshots, fetching } = cache.current;

	const cached = snapshots.get(step);
	if (cached && (shown?.run !== run || shown.step !== step)) setShown(shownAt(shown, run, step, cached));
	/* What the committed render shows, for the effect: a step adopted from the cache needs no second render. */
	const committed = useRef(shown);
	useEffect(() => {
		committed.current = shown;
	});

	useEffect(() => {
		const request = ++latest.current;
		const fetch = (k: number): Promise<Snapshot> => {
			const known = snapshots.get(k);
			if (known) return Promise.resolve(known);
			let pending = fetching.get(k);
			if (!pending) {
				pending = run.session.snapshot(k).then(
					(snapshot) => {
						fetching.delete(k);
						remember(snapshots, k, snapshot);
						return snapshot;
					},
					(error: unknown) => {
						fetching.delete(k);
						throw error;
					},
				);
				fetching.set(k, pending);
			}
			return pending;
		};
		const prefetch = async () => {
			for (const k of NEIGHBOURS.map((d) => step + d))
				if (k >= 0 && k <= run.timeline.steps && request === latest.current) await fetch(k);
		};
		fetch(step)
			.then((snapshot) => {
				if (request !== latest.current) return;
				const now = committed.current;
				if (now?.run !== run || now.step !== step)
					setShown((before) => (before?.run === run && before.step === step ? before : shownAt(before, run, step, snapshot)));
				return prefetch();
			})
			.catch(() => {
				/* a disposed session: a newer run replaced this one */
			});
	}, [run, step, snapshots, fetching]);
	/* Until the new run's first snapshot arrives, the old run's must not be drawn with the new policy. */
	return shown?.run === run ? shown : null;
}

function saveText(name: string, text: string, type: string): void {
	const url = URL.createObjectURL(new Blob([text], { type }));
	const a = document.createElement('a');
	a.href = url;
	a.download = name;
	a.click();
	setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/*
 * Predict mode's state: the prediction for the next step and the scored
 * ones.  A prediction is scored when the step it was made for is revealed
 * (one step forward); any other move drops it.
 */
function usePredictions(run: Run, step: number) {
	const [prediction, setShownPrediction] = useState<Prediction | null>(null);
	const [scored, setScored] = useState<Scored[]>([]);
	const [last, setLast] = useState<Scored | null>(null);
	const current = useRef<Prediction | null>(null);
	const setPrediction = useCallback((p: Prediction | null) => {
		current.current = p;
		setShownPrediction(p);
	}, []);
	const seen = useRef({ run, step });
	useEffect(() => {
		const before = seen.current;
		seen.current = { run, step };
		if (before.run !== run) {
			setScored([]);
			setLast(null);
		} else if (before.step !== step) {
			const guess = current.current;
			const result = step === before.step + 1 && guess ? score(run.timeline, step, guess) : null;
			if (result) setScored((list) => [...list.filter((s) => s.step !== step), result]);
			setLast(result);
		} else return;
		setPrediction(null);
	}, [run, step, setPrediction]);
	return { prediction, setPrediction, scored, last };
}

export function StepView({ run, step: requested, onStep, lecture, hideAnswers, predict }: Props) {
	/* The shared step may lie past the recorded references (the compare view covers the whole trace). */
	const step = Math.min(requested, run.timeline.steps);
	const [playing, setPlaying] = useState(false);
	const predictions = usePredictions(run, step);
	const view = useRef<HTMLDivElement>(null);
	const viewSize = useElementWidth(view, { height: false });
	const [speed, setSpeed] = useState(1);
	const shown = useShownStep(run, step);
	const { timeline } = run;
	const usedLists = useMemo(() => timeline.usedLists(), [timeline]);
	const total = timeline.steps;
	const clamp = (k: number) => Math.max(0, Math.min(total, k));
	/* Stable, so the grid's memoized columns are not all redrawn on every step. */
	const pick = useCallback((k: number) => onStep(k), [onStep]);

	useEffect(() => {
		if (!playing) return;
		if (step >= total) {
			setPlaying(false);
			return;
		}
		const timer = setTimeout(() => onStep(step + 1), 1000 / speed);
		return () => clearTimeout(timer);
	}, [playing, step, total, speed, onStep]);

	useEffect(() => {
		/* Capture phase: the key is ours before a focused button, list or slider acts on it. */
		const onKey = (event: KeyboardEvent) => {
			if (elementTakesTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
			const target = event.target instanceof HTMLElement ? event.target : null;
			/* A blanked screen takes the next key to come back (App), not to step. */
			if (target?.closest('.pl-app-blank-screen')) return;
			/* The grid's own arrows move between its cells. */
			if (target?.closest('[role=grid]') && /^Arrow/.test(event.key)) return;
			const next = stepForKey(event.key, step, total);
			const guess = predict ? predictionForKey(event.key, run, step) : null;
			if (guess) predictions.setPrediction(guess);
			else if (event.key === ' ') setPlaying((p) => !p);
			else if (next !== null) {
				setPlaying(false);
				onStep(next);
			} else return;
			event.preventDefault();
			event.stopPropagation();
		};
		window.addEventListener('keydown', onKey, { capture: true });
		return () => window.removeEventListener('keydown', onKey, { capture: true });
	});

	const resident = step > 0 ? timeline.column(step - 1).rows.filter((p) => p !== null).length : 0;
	const reference = step > 0 ? timeline.reference(step) : null;
	/* Lecture mode shows runs of like Linux clauses folded (four lines on a projector); a screen reader always hears every clause. */
	const [narration, shownNarration] = useMemo(() => {
		if (step === 0) {
			const empty = `Memory is empty: ${run.scenario.frames} frames, ${total} references to come. Step forward to process the first.`;
			return [empty, empty];
		}
		const tell = (fold: boolean) =>
			narrate(run.policy, timeline.log.eventsOfStep(step), {
				resident,
				write: run.result.trace.writes[step - 1] === 1,
				lengthsAfter: timeline.listLengths(step),
				fieldMax: run.fieldMax,
				nextUse: (page) => timeline.nextUse(page, step),
				fold,
			});
		const full = tell(false);
		return [full, lecture ? tell(true) : full];
	}, [run, timeline, step, total, resident, lecture]);
	const animation = { '--anim-ms': `${Math.round(Math.min(700, 800 / speed))}ms` } as CSSProperties;
	const full = run.result.stats;
	const wholeFaults = full.misses.toLocaleString('en');
	const wholeReferences = full.references.toLocaleString('en');
	const wholePercent = ((100 * full.misses) / Math.max(1, full.references)).toFixed(1);
	const exportLog = () =>
		saveText(`pagelab-${run.scenario.policy}-steps-1-${step}.csv`, stepLogCsv(run, step, predictions.scored), 'text/csv');
	const answersHidden = hideAnswers || predict;
	/*
	 * As many grid columns as fit at the widest page number's width: in
	 * lecture mode the grid has the left column, 45% of the view's width
	 * (half of it on a 4:3 projector; lecture.css; the structure the rest),
	 * elsewhere the whole width (the structure wraps below it).
	 */
	const digits = useMemo(() => widestPage(timeline.pages), [timeline]);
	const cellPx = viewSize.em * (digits * 0.65 + 0.9 + 0.3);
	const leftColumn = window.innerWidth <= NARROW_PROJECTOR_PX ? 0.5 : 0.45;
	const gridPx = viewSize.width * (lecture ? leftColumn : 1) - 3.5 * viewSize.em;
	const columns = viewSize.width ? Math.max(4, Math.min(lecture ? 24 : 30, Math.floor(gridPx / cellPx))) : 16;

	return (
		<div className="pl-step-view" style={animation} ref={view}>
			<Controls
				step={step}
				total={total}
				playing={playing}
				speed={speed}
				nextFault={answersHidden ? null : timeline.nextFault(step)}
				nextEviction={answersHidden ? null : timeline.nextEviction(step)}
				hideJumps={answersHidden}
				onExportLog={exportLog}
				onStep={(k) => onStep(clamp(k))}
				onPlaying={setPlaying}
				onSpeed={setSpeed}
			/>
			<div className="pl-step-stats-row" data-testid="step-stats">
				<div className="pl-step-stat">
					<span className="pl-step-label">
						<Shortened full="reference">
							ref<span className="pl-step-narrow-hidden">erence</span>
						</Shortened>
					</span>
					<span className="pl-step-value">{reference === null ? '—' : String(reference)}</span>
				</div>
				<div className="pl-step-stat pl-step-fault">
					<span className="pl-step-label">faults</span>
					<span className="pl-step-value" data-testid="stat-faults">
						{timeline.faultsAt(step)}
					</span>
				</div>
				<div className="pl-step-stat pl-step-hit">
					<span className="pl-step-label">hits</span>
					<span className="pl-step-value" data-testid="stat-hits">
						{timeline.hitsAt(step)}
					</span>
				</div>
				<div className="pl-step-stat">
					<span className="pl-step-label">evictions</span>
					<span className="pl-step-value" data-testid="stat-evictions">
						{timeline.evictionsAt(step)}
					</span>
				</div>
				{!answersHidden && <div className="pl-step-stat pl-step-whole">
					<span className="pl-step-label">
						<Shortened full="whole trace">
							whole<span className="pl-step-medium-hidden"> trace</span>
						</Shortened>
					</span>
					<span className="pl-step-value pl-step-small" data-testid="stat-whole">
						<Shortened full={`${wholeFaults} faults / ${wholeReferences} refs (${wholePercent}%)`}>
							{wholeFaults}
							<span className="pl-step-narrow-hidden"> faults</span> / {wholeReferences}
							<span className="pl-step-narrow-hidden">
								{' '}
								refs ({wholePercent}%)
							</span>
						</Shortened>
					</span>
				</div>}
			</div>
			{shown && <CountersPanel policy={run.policy} snapshot={shown.snapshot} whole={run.result.counters} wholeRows={lecture} />}
			{full.references > total && (
				<p className="pl-note pl-banner" data-testid="step-recorded-note">
					The step view shows the first {total.toLocaleString('en')} of {full.references.toLocaleString('en')} references; the statistics
					under “whole trace”, the compare view and the charts cover all of them.
					{requested > total && ` The other views were at step ${requested.toLocaleString('en')}: this view shows its last recorded step.`}
				</p>
			)}
			{predict && <PredictPanel timeline={timeline} step={step} {...predictions} onPredict={predictions.setPrediction} />}
			<p className="pl-step-narration" data-testid="narration" aria-live="polite">
				{step > 0 && <span className="pl-step-tag">{step}.</span>}{' '}
				{shownNarration === narration ? (
					narration
				) : (
					<>
						<span aria-hidden="true" data-testid="narration-folded">
							{shownNarration}
						</span>
						<span className="pl-visually-hidden">{narration}</span>
					</>
				)}
			</p>
			<div className="pl-step-panels">
				<section className="pl-step-panel pl-step-grid-panel">
					<h2>Frames over time</h2>
					<FrameGrid timeline={timeline} step={step} columns={columns} fit={lecture} onPick={pick} />
				</section>
				<section className="pl-step-panel pl-step-structure-panel">
					<h2>
						{run.policy.title} <span className="pl-step-policy-name">({run.policy.name})</span>
					</h2>
					{/* The clock face is an SVG that scales itself to the panel; the lists and lanes are fitted by FitBox. */}
					<FitBox resetFor={run} fit={lecture && !['clock', 'clockpro'].includes(drawingFor({ policy: run.policy, frames: run.scenario.frames }))} rows={lecture ? VISIBLE_ROWS : undefined}>
						{(rows) =>
							shown ? (
								<StructureView
									policy={run.policy}
									snapshot={shown.snapshot}
									frames={run.scenario.frames}
									fieldMax={run.fieldMax}
									transitions={shown.transitions}
									handTurns={shown.handTurns}
									usedLists={usedLists}
									referenced={shown.step > 0 ? timeline.reference(shown.step) : null}
									rows={rows}
									step={shown.step}
								/>
							) : (
								<p className="pl-note">loading the structure…</p>
							)
						}
					</FitBox>
				</section>
			</div>
		</div>
	);
}
