/*
 * StepView.tsx - the step tab: controls, statistics, narration, the frame
 * grid and the policy's structure, all at one step.
 *
 * The step is owned by the App (it lives in the URL); this view asks the
 * worker for the snapshot of that step and shows it when it arrives, so
 * `structure`'s data-step can lag the counter for a moment but never shows
 * a mix of two steps.  The snapshots of the steps either side of the shown
 * one are fetched ahead, so a single step forward or back usually commits
 * the structure with the grid, without waiting for the worker.  Arriving at step k from step k-1 animates what the
 * events of step k say happened; any other jump redraws without animation.
 *
 * Keyboard: space play/pause, ArrowRight/ArrowLeft step, Home reset,
 * unless the focused element uses that key itself (elementOwnsKey).
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { Snapshot } from '../../wasm/protocol';
import type { Run } from '../../model/run';
import { narrate } from '../../model/narration';
import { NO_TRANSITIONS, transitionsOf, type Transitions } from '../../model/transitions';
import { unwrapHand } from '../../viz/clock';
import { Controls } from './Controls';
import { FrameGrid } from './FrameGrid';
import { StructureView } from './StructureView';

interface Props {
	run: Run;
	step: number;
	onStep: (step: number) => void;
	lecture: boolean;
}

interface Shown {
	run: Run;
	step: number;
	snapshot: Snapshot;
	transitions: Transitions;
	handTurns: number[];
}

/*
 * Whether the focused element does something itself with this key, so the
 * shortcut must stay out of its way: text fields and selects take every
 * key, the scrub slider its arrows, buttons and checkboxes the space bar.
 */
function elementOwnsKey(target: EventTarget | null, key: string): boolean {
	if (!(target instanceof HTMLElement)) return false;
	const tag = target.tagName;
	if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
	if (tag === 'BUTTON') return key === ' ';
	if (tag !== 'INPUT') return false;
	const type = (target as HTMLInputElement).type;
	if (type === 'range') return key !== ' ';
	if (type === 'checkbox' || type === 'radio' || type === 'file') return key === ' ';
	return true;
}

/* Cached snapshots around the shown step, so that a step forward or back draws at once. */
const SNAPSHOT_CACHE_LIMIT = 8;
const NEIGHBOURS = [1, -1];

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
 * trip later.
 */
function useShownStep(run: Run, step: number): Shown | null {
	const [shown, setShown] = useState<Shown | null>(null);
	const latest = useRef(0);
	const cache = useRef({ run, snapshots: new Map<number, Snapshot>() });
	if (cache.current.run !== run) cache.current = { run, snapshots: new Map() };
	const snapshots = cache.current.snapshots;

	const cached = snapshots.get(step);
	if (cached && (shown?.run !== run || shown.step !== step)) setShown(shownAt(shown, run, step, cached));

	useEffect(() => {
		const request = ++latest.current;
		const fetch = async (k: number) => {
			const known = snapshots.get(k);
			if (known) return known;
			const snapshot = await run.session.snapshot(k);
			remember(snapshots, k, snapshot);
			return snapshot;
		};
		const prefetch = async () => {
			for (const k of NEIGHBOURS.map((d) => step + d))
				if (k >= 0 && k <= run.timeline.steps && request === latest.current) await fetch(k);
		};
		fetch(step)
			.then((snapshot) => {
				if (request !== latest.current) return;
				setShown((before) => (before?.run === run && before.step === step ? before : shownAt(before, run, step, snapshot)));
				return prefetch();
			})
			.catch(() => {
				/* a disposed session: a newer run replaced this one */
			});
	}, [run, step, snapshots]);
	/* Until the new run's first snapshot arrives, the old run's must not be drawn with the new policy. */
	return shown?.run === run ? shown : null;
}

export function StepView({ run, step, onStep, lecture }: Props) {
	const [playing, setPlaying] = useState(false);
	const [speed, setSpeed] = useState(1);
	const shown = useShownStep(run, step);
	const { timeline } = run;
	const usedLists = useMemo(() => timeline.usedLists(), [timeline]);
	const total = timeline.steps;
	const clamp = (k: number) => Math.max(0, Math.min(total, k));

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
		const onKey = (event: KeyboardEvent) => {
			if (elementOwnsKey(event.target, event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
			if (event.key === ' ') setPlaying((p) => !p);
			else if (event.key === 'ArrowRight') onStep(clamp(step + 1));
			else if (event.key === 'ArrowLeft') onStep(clamp(step - 1));
			else if (event.key === 'Home') onStep(0);
			else return;
			event.preventDefault();
		};
		window.addEventListener('keydown', onKey);
		return () => window.removeEventListener('keydown', onKey);
	});

	const resident = step > 0 ? timeline.column(step - 1).rows.filter((p) => p !== null).length : 0;
	const reference = step > 0 ? timeline.pages[step - 1] : null;
	const narration =
		step === 0
			? `Memory is empty: ${run.scenario.frames} frames, ${total} references to come. Step forward to process the first.`
			: narrate(run.policy, timeline.log.eventsOfStep(step), resident, run.result.trace.writes[step - 1] === 1, timeline.listLengths(step));
	const animation = { '--anim-ms': `${Math.round(Math.min(700, 800 / speed))}ms` } as CSSProperties;
	const full = run.result.stats;

	return (
		<div className="step-view" style={animation}>
			<Controls
				step={step}
				total={total}
				playing={playing}
				speed={speed}
				nextFault={timeline.nextFault(step)}
				nextEviction={timeline.nextEviction(step)}
				onStep={(k) => onStep(clamp(k))}
				onPlaying={setPlaying}
				onSpeed={setSpeed}
			/>
			<div className="stats-row">
				<div className="stat">
					<span className="label">reference</span>
					<span className="value">{reference ?? '—'}</span>
				</div>
				<div className="stat fault">
					<span className="label">faults</span>
					<span className="value" data-testid="stat-faults">
						{timeline.faultsAt(step)}
					</span>
				</div>
				<div className="stat hit">
					<span className="label">hits</span>
					<span className="value" data-testid="stat-hits">
						{timeline.hitsAt(step)}
					</span>
				</div>
				<div className="stat">
					<span className="label">evictions</span>
					<span className="value" data-testid="stat-evictions">
						{timeline.evictionsAt(step)}
					</span>
				</div>
				<div className="stat whole">
					<span className="label">whole trace</span>
					<span className="value small" data-testid="stat-whole">
						{full.misses.toLocaleString('en')} faults / {full.references.toLocaleString('en')} refs (
						{((100 * full.misses) / Math.max(1, full.references)).toFixed(1)}%)
					</span>
				</div>
			</div>
			{full.references > total && (
				<p className="note banner">
					The step view shows the first {total.toLocaleString('en')} of {full.references.toLocaleString('en')} references; the statistics
					under “whole trace”, the compare view and the charts cover all of them.
				</p>
			)}
			<p className="narration" data-testid="narration" aria-live="polite">
				{step > 0 && <span className="step-tag">{step}.</span>} {narration}
			</p>
			<div className="step-panels">
				<section className="panel grid-panel">
					<h2>Frames over time</h2>
					<FrameGrid timeline={timeline} step={step} columns={lecture ? 16 : 24} onPick={(k) => onStep(k)} />
				</section>
				<section className="panel structure-panel">
					<h2>
						{run.policy.title} <span className="policy-name">({run.policy.name})</span>
					</h2>
					{shown ? (
						<StructureView
							policy={run.policy}
							snapshot={shown.snapshot}
							frames={run.scenario.frames}
							fieldMax={run.fieldMax}
							transitions={shown.transitions}
							handTurns={shown.handTurns}
							usedLists={usedLists}
							step={shown.step}
						/>
					) : (
						<p className="note">loading the structure…</p>
					)}
				</section>
			</div>
		</div>
	);
}
