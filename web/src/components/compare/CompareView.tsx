/*
 * CompareView.tsx - the compare tab: two to four policies on the scenario's
 * trace and frames, in lockstep.  One hit/miss strip per policy, the first
 * step where they part ways marked, each policy's frames at the current
 * step side by side, and optionally OPT's frames as a ghost column.
 *
 * Props (scenario in, nothing else global)
 *   scenario      { policy, frames, params?, trace }: the trace and frames
 *                 every compared policy runs on.  The scenario's params apply
 *                 to its own policy; others run with their defaults.  A new
 *                 `trace` object means a new trace: keep it stable.
 *   client        the PagelabClient (wasm/protocol.ts).
 *   lecture       true for lecture-hall sizes.
 *   selection,    optional: which policies are compared and whether OPT's
 *   onSelection-  ghost shows, as saved in a slide link (read when the
 *   Change        policy list arrives or the scenario's policy changes), and
 *                 the callback told of every change, to save it again.
 *   step,         the shared step position ("state after reference k",
 *   onStepChange  0..N), e.g. the step view's.  Omit both and the view keeps
 *                 its own position (starting at the first divergence).
 *
 * Controls: its own buttons and scrub (compare-step-*), clicking a strip
 * cell, and the keys ←/→, Home and D (next difference); all of them move
 * the shared step when there is one.
 *
 * Invariants
 *   - Every run of one comparison is over the same trace and frames, so
 *     step k means the same reference in every strip and column.
 *   - Frame contents come from the policy's own snapshots (sessions) and
 *     are kept only for traces up to RECORD_LIMIT references; longer traces
 *     show strips and counts, and say why the columns are missing.
 *   - Sessions are disposed when the comparison is replaced or unmounted.
 */

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PagelabClient, Session, SimulateResult, TraceInfo } from '../../wasm/protocol';
import { isAbortError } from '../../wasm/client';
import { usePolicyList } from '../usePolicyList';
import {
	FaultCounter,
	divergenceGroups,
	firstDivergence,
	ghostColumn,
	alignColumns,
	lastEviction,
	nextDifference as nextDifferenceAfter,
	paramsFor,
	residentPages,
	restorePolicies,
	resultAt,
	stripCells,
	stripWindow,
	type ComparedScenario,
	type GhostColumn,
} from '../../model/compare';
import { useElementWidth } from '../charts/useElementWidth';
import './compare.css';

/** What a slide link restores of the compare view. */
export interface CompareSelection {
	policies: string[];
	ghostOpt: boolean;
}

export interface CompareViewProps {
	scenario: ComparedScenario;
	client: PagelabClient;
	lecture?: boolean;
	selection?: CompareSelection;
	onSelectionChange?: (selection: CompareSelection) => void;
	step?: number;
	onStepChange?: (step: number) => void;
}

const MIN_POLICIES = 2;
const MAX_POLICIES = 4;
const COMPANIONS = ['lru', 'fifo', 'opt'];
/* Recording keeps every event in the worker: enough for any lecture trace. */
const RECORD_LIMIT = 100_000;
/* Strip geometry in em of the view's font: the narrowest cell. */
const MIN_CELL_EM = 1.7;
/* Average character width in em, to budget the label column ("CLOCK 67 faults / 687191"). */
const CHAR_EM = 0.6;
const LABEL_FIXED_CHARS = 11;
/* Average digit width in em, plus the cell's padding, for cells wide enough for their page number. */
const DIGIT_EM = 0.62;
const CELL_PADDING_EM = 0.6;
const MIN_STRIP_CELLS = 8;
/* More frames than this are summarised, not drawn one box each. */
const MAX_FRAME_BOXES = 64;
/* Frames stack in columns of this many, like the textbook grid, then wrap sideways. */
const FRAMES_PER_COLUMN = 12;

interface Run {
	policy: string;
	outcome: Uint8Array;
	faults: FaultCounter;
	session: Session | null;
}

interface Comparison {
	trace: TraceInfo;
	runs: Run[];
}

/** What one policy holds at the current step. */
interface Column {
	resident: number[];
	evicted: number[];
}

const shortName = (policy: string) => policy.toUpperCase();
const faultCount = (faults: number) => `${faults.toLocaleString('en')} fault${faults === 1 ? '' : 's'}`;

function toRun(result: SimulateResult): Run {
	return {
		policy: result.policy,
		outcome: result.outcome,
		faults: new FaultCounter(result.outcome),
		session: result.session ?? null,
	};
}

function disposeRuns(runs: Run[]): void {
	for (const run of runs)
		run.session?.dispose().catch(() => {
			/* The worker may already be gone; nothing is left to free then. */
		});
}

/** Simulates `policies` one after another on the scenario, recording when the trace is short. */
async function simulateAll(
	client: PagelabClient,
	scenario: ComparedScenario,
	policies: string[],
	signal: AbortSignal,
	onProgress: (what: string, done: number, total: number) => void,
): Promise<Comparison> {
	const trace = await client.loadTrace(scenario.trace, { signal });
	const runs: Run[] = [];
	try {
		for (const policy of policies) {
			onProgress(shortName(policy), 0, trace.references);
			const result = await client.simulate(
				{
					policy,
					frames: scenario.frames,
					params: paramsFor(scenario, policy),
					trace: scenario.trace,
					record: trace.references <= RECORD_LIMIT,
					omitTrace: true,
				},
				{ signal, onProgress: (done, total) => onProgress(shortName(policy), done, total) },
			);
			runs.push(toRun(result));
		}
	} catch (error) {
		disposeRuns(runs);
		throw error;
	}
	return { trace, runs };
}

/** Frame contents and evictions of every recorded run at `step`. */
async function columnsAt(runs: Run[], step: number): Promise<(Column | null)[]> {
	return Promise.all(
		runs.map(async ({ session }) => {
			if (!session)
				return null;
			const [snapshot, events] = await Promise.all([
				session.snapshot(step),
				step > 0 ? session.events(step - 1, step) : Promise.resolve([]),
			]);
			return {
				resident: residentPages(snapshot, session.policy.lists),
				evicted: events.flatMap((e) => (e.kind === 'evict' && e.page !== null ? [e.page] : [])),
			};
		}),
	);
}

/* ------------------------------------------------------------ controls */

interface ControlsProps {
	step: number;
	total: number;
	nextDifference: number | null;
	onStep: (step: number) => void;
}

/*
 * The compare view's own step controls: they move the shared step when the
 * App passes one, so the step view and this view stay at the same moment.
 */
function CompareControls({ step, total, nextDifference, onStep }: ControlsProps) {
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
			<button
				type="button"
				data-testid="compare-next-difference"
				onClick={() => nextDifference !== null && onStep(nextDifference)}
				disabled={nextDifference === null}
				title="the next step where the policies' results differ (D)"
			>
				next difference
			</button>
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

/* Keys typed into a form field are the field's, not the view's. */
function typingInField(target: EventTarget | null): boolean {
	return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}

/** ←/→ step, Home goes to the start, D to the next difference (as in the step view). */
function useCompareKeys(step: number, nextDifference: number | null, onStep: (step: number) => void): void {
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (typingInField(event.target) || event.ctrlKey || event.metaKey || event.altKey)
				return;
			const target =
				event.key === 'ArrowRight' ? step + 1
				: event.key === 'ArrowLeft' ? step - 1
				: event.key === 'Home' ? 0
				: (event.key === 'd' || event.key === 'D') && nextDifference !== null ? nextDifference
				: null;
			if (target === null)
				return;
			event.preventDefault();
			onStep(target);
		};
		window.addEventListener('keydown', onKey);
		return () => window.removeEventListener('keydown', onKey);
	}, [step, nextDifference, onStep]);
}

/* ------------------------------------------------------------- strips */

/** For each run that faults at the divergence, the step at which it had evicted the page. */
async function divergenceReasons(comparison: Comparison, divergence: number): Promise<Map<number, number>> {
	const page = comparison.trace.pages[divergence - 1];
	const reasons = new Map<number, number>();
	const faulting = divergenceGroups(
		comparison.runs.map((r) => r.outcome),
		divergence,
	).fault;
	await Promise.all(
		faulting.map(async (i) => {
			const session = comparison.runs[i].session;
			if (!session || divergence < 2)
				return;
			const evictedAt = lastEviction(await session.events(0, divergence - 1), page);
			if (evictedAt !== null)
				reasons.set(i, evictedAt);
		}),
	);
	return reasons;
}

interface DivergenceNoteProps {
	comparison: Comparison;
	divergence: number | null;
	reasons: Map<number, number>;
	onStep: (step: number) => void;
}

function DivergenceNote({ comparison, divergence, reasons, onStep }: DivergenceNoteProps) {
	if (divergence === null)
		return (
			<p className="pl-compare-agree" data-testid="compare-agree">
				These policies never part ways on this trace: the same hit or fault at every step.
			</p>
		);
	const groups = divergenceGroups(
		comparison.runs.map((r) => r.outcome),
		divergence,
	);
	const page = comparison.trace.pages[divergence - 1];
	const names = (runs: number[]) => runs.map((i) => shortName(comparison.runs[i].policy)).join(', ');
	const why = [...reasons].map(([run, step]) => `${shortName(comparison.runs[run].policy)} evicted page ${page} at step ${step}`);
	return (
		<p className="pl-compare-divergence" data-testid="first-divergence" data-step={divergence}>
			<strong>First divergence at step {divergence}</strong> (page {page}): {names(groups.hit)}{' '}
			{groups.hit.length === 1 ? 'hits' : 'hit'}, {names(groups.fault)} {groups.fault.length === 1 ? 'faults' : 'fault'}
			{why.length ? ` because ${why.join(' and ')}` : ''}.{' '}
			<button type="button" data-testid="compare-goto-divergence" onClick={() => onStep(divergence)}>
				Go there
			</button>
		</p>
	);
}

interface StripsProps {
	comparison: Comparison;
	step: number;
	divergence: number | null;
	onStep: (step: number) => void;
}

/**
 * As many cells as fit the width, each wide enough for the longest page
 * number of the trace, so a lecture screen shows no scroll bar.
 */
function Strips({ comparison, step, divergence, onStep }: StripsProps) {
	const { trace, runs } = comparison;
	const box = useRef<HTMLDivElement>(null);
	const { width, em } = useElementWidth(box);
	const labelEm =
		CHAR_EM * (Math.max(...runs.map((r) => r.policy.length)) + 2 * String(trace.references).length + LABEL_FIXED_CHARS);
	/*
	 * Cells are as wide as the longest page number shown so far on this
	 * trace: they only ever grow, so stepping never makes the strip jump
	 * back and forth, and no 10M-reference scan is needed to size them.
	 */
	const digits = useRef({ trace, widest: 1 });
	if (digits.current.trace !== trace)
		digits.current = { trace, widest: 1 };
	const windowFor = (widest: number) => {
		const cellEm = Math.max(MIN_CELL_EM, widest * DIGIT_EM + CELL_PADDING_EM);
		const fitting = Math.floor((width / em - labelEm) / cellEm);
		return { cellEm, window: stripWindow(trace.references, step, Math.max(MIN_STRIP_CELLS, fitting)) };
	};
	let { cellEm, window } = windowFor(digits.current.widest);
	for (let s = window.first; s <= window.last; s++)
		digits.current.widest = Math.max(digits.current.widest, String(trace.pages[s - 1]).length);
	({ cellEm, window } = windowFor(digits.current.widest));
	const cellClass = (cellStep: number) =>
		['pl-compare-cell', cellStep === step && 'pl-current', cellStep === divergence && 'pl-divergence'].filter(Boolean).join(' ');
	return (
		<div ref={box} className="pl-compare-strips-box">
			<div
				className="pl-compare-strips"
				style={{
					['--pl-cell' as string]: `${cellEm}em`,
					gridTemplateColumns: `auto repeat(${window.last - window.first + 1}, var(--pl-cell))`,
				}}
			>
				{divergence !== null && divergence >= window.first && divergence <= window.last && (
					<span
						className="pl-compare-marker"
						style={{ gridColumn: divergence - window.first + 2 }}
						title={`first divergence: step ${divergence}`}
					>
						▼
					</span>
				)}
				<span className="pl-compare-label pl-compare-label-refs" style={{ gridColumn: 1 }}>
					reference
				</span>
				<div className="pl-compare-row" data-testid="compare-refs">
					{stripCells(runs[0].outcome, window, trace.pages).map((cell) => (
						<button
							type="button"
							key={cell.step}
							className={cellClass(cell.step) + ' pl-compare-ref'}
							title={`step ${cell.step}: page ${cell.page}`}
							onClick={() => onStep(cell.step)}
						>
							{cell.page}
						</button>
					))}
				</div>
				{runs.map((run, i) => (
					<StripRow key={i} index={i} run={run} step={step} window={window} cellClass={cellClass} onStep={onStep} />
				))}
			</div>
		</div>
	);
}

interface StripRowProps {
	index: number;
	run: Run;
	step: number;
	window: ReturnType<typeof stripWindow>;
	cellClass: (step: number) => string;
	onStep: (step: number) => void;
}

function StripRow({ index, run, step, window, cellClass, onStep }: StripRowProps) {
	return (
		<>
			<span className="pl-compare-label">
				<strong>{shortName(run.policy)}</strong>{' '}
				<span data-testid={`compare-faults-${index}`}>
					{faultCount(run.faults.at(step))}
				</span>{' '}
				<span className="pl-compare-total">/ {run.faults.total.toLocaleString('en')}</span>
			</span>
			<div className="pl-compare-row" data-testid={`compare-strip-${index}`}>
				{stripCells(run.outcome, window).map((cell) => (
					<button
						type="button"
						key={cell.step}
						data-result={cell.result}
						data-step={cell.step}
						className={`${cellClass(cell.step)} pl-result-${cell.result}`}
						title={`${shortName(run.policy)}, step ${cell.step}: ${cell.result === 'H' ? 'hit' : 'fault'}`}
						onClick={() => onStep(cell.step)}
					>
						{cell.result}
					</button>
				))}
			</div>
		</>
	);
}

/* ------------------------------------------------------------ columns */

interface FrameBoxesProps {
	pages: number[];
	frames: number;
	referenced: number | null;
	/** Pages to flag (held here but not by OPT). */
	flagged: Set<number>;
	flagTitle: string;
}

function FrameBoxes({ pages, frames, referenced, flagged, flagTitle }: FrameBoxesProps) {
	const shown = pages.slice(0, MAX_FRAME_BOXES);
	const free = Math.max(0, frames - pages.length);
	/* Free frames are drawn as boxes up to a column's worth; beyond that they are counted. */
	const drawnFree = shown.length + free <= FRAMES_PER_COLUMN ? free : 0;
	const rows = Math.min(Math.max(shown.length + drawnFree, 1), FRAMES_PER_COLUMN);
	return (
		<>
			<ol className="pl-compare-frames" style={{ gridTemplateRows: `repeat(${rows}, auto)` }}>
				{shown.map((page) => (
					<li
						key={page}
						data-testid="compare-page"
						data-page={page}
						className={[page === referenced && 'pl-referenced', flagged.has(page) && 'pl-flagged'].filter(Boolean).join(' ')}
						title={flagged.has(page) ? `page ${page}: ${flagTitle}` : `page ${page}`}
					>
						{page}
					</li>
				))}
				{Array.from({ length: drawnFree }, (_, i) => (
					<li key={`empty${i}`} className="pl-empty" aria-label="empty frame" />
				))}
				{pages.length > shown.length && <li className="pl-more">+{pages.length - shown.length} more</li>}
			</ol>
			{free > drawnFree && <p className="pl-compare-free">{free.toLocaleString('en')} frames free</p>}
		</>
	);
}

/** What the ghost column shows: OPT's run, its frames now, and whether it is also a compared column. */
interface GhostOpt {
	run: Run;
	column: Column | null;
	compared: boolean;
}

interface ColumnsProps {
	comparison: Comparison;
	columns: (Column | null)[];
	opt: GhostOpt | null;
	ghost: GhostColumn | null;
	step: number;
	frames: number;
}

function Columns({ comparison, columns, opt, ghost, step, frames }: ColumnsProps) {
	const referenced = step > 0 ? comparison.trace.pages[step - 1] : null;
	if (comparison.runs.every((r) => r.session === null))
		return (
			<p className="pl-compare-note">
				Frame contents are shown for traces of up to {RECORD_LIMIT.toLocaleString('en')} references; this one has{' '}
				{comparison.trace.references.toLocaleString('en')}. The strips and counts cover all of it.
			</p>
		);
	/* Rows line up across the columns: shared pages first, then where they differ. */
	const aligned = alignColumns([
		...columns.map((c) => c?.resident ?? []),
		...(opt?.column ? [opt.column.resident] : []),
	]);
	return (
		<div className="pl-compare-columns">
			{comparison.runs.map((run, i) => {
				const result = resultAt(run.outcome, step);
				const column = columns[i];
				return (
					<div key={i} className="pl-compare-column" data-testid={`compare-column-${i}`} data-step={step}>
						<h3>{shortName(run.policy)}</h3>
						<p className={`pl-compare-result pl-result-${result ?? 'none'}`}>
							{result === null ? 'start' : `page ${referenced}: ${result === 'H' ? 'hit' : 'fault'}`}
						</p>
						{column && (
							<FrameBoxes
								pages={aligned[i]}
								frames={frames}
								referenced={referenced}
								flagged={ghost ? new Set(ghost.notInOpt[i]) : new Set()}
								flagTitle="OPT would not hold this page now"
							/>
						)}
						<p className="pl-compare-evicted">{column?.evicted.length ? `evicted ${column.evicted.join(', ')}` : ' '}</p>
						<p>
							{faultCount(run.faults.at(step))} so far
						</p>
					</div>
				);
			})}
			{opt && (
				<div className="pl-compare-column pl-compare-ghost" data-testid="compare-ghost-column" data-step={step}>
					<h3>OPT would hold</h3>
					{opt.compared && <p className="pl-compare-legend">(the same as OPT's column)</p>}
					<p className={`pl-compare-result pl-result-${resultAt(opt.run.outcome, step) ?? 'none'}`}>
						{step === 0 ? 'start' : `page ${referenced}: ${resultAt(opt.run.outcome, step) === 'H' ? 'hit' : 'fault'}`}
					</p>
					{opt.column && (
						<FrameBoxes
							pages={aligned[aligned.length - 1]}
							frames={frames}
							referenced={referenced}
							flagged={new Set(ghost?.opt.filter((p) => p.heldBy.length === 0).map((p) => p.page))}
							flagTitle="OPT keeps this page; none of the compared policies does"
						/>
					)}
					<p className="pl-compare-evicted">{opt.column?.evicted.length ? `evicted ${opt.column.evicted.join(', ')}` : ' '}</p>
					<p>
						{faultCount(opt.run.faults.at(step))} so far
					</p>
				</div>
			)}
			{ghost && (
				<p className="pl-compare-legend" data-testid="compare-ghost-note">
					Dashed: what OPT would hold now. Outlined in red: pages a policy holds that OPT has already let go.
				</p>
			)}
		</div>
	);
}

/* --------------------------------------------------------------- view */

export function CompareView({
	scenario,
	client,
	lecture = false,
	selection,
	onSelectionChange,
	step: sharedStep,
	onStepChange,
}: CompareViewProps) {
	const [chosen, setChosen] = useState<string[]>([]);
	const [ghostOn, setGhostOn] = useState(selection?.ghostOpt ?? false);
	const [comparison, setComparison] = useState<Comparison | null>(null);
	const [optRun, setOptRun] = useState<Run | null>(null);
	const [columns, setColumns] = useState<{ runs: (Column | null)[]; opt: Column | null; step: number } | null>(null);
	const [progress, setProgress] = useState<string | null>(null);
	const [error, setError] = useState<string | null>(null);
	const policies = usePolicyList(client, setError);
	const [ownStep, setOwnStep] = useState(0);
	const paramsKey = JSON.stringify(scenario.params ?? {});
	const controlled = sharedStep !== undefined;
	const total = comparison?.trace.references ?? 0;
	const step = Math.max(0, Math.min(controlled ? sharedStep : ownStep, total));
	const setStep = useCallback(
		(next: number) => {
			const clamped = Math.max(0, Math.min(next, total));
			if (controlled)
				onStepChange?.(clamped);
			else
				setOwnStep(clamped);
		},
		[controlled, onStepChange, total],
	);

	/* The saved selection is read only at these moments, so the user's choices are never undone. */
	useEffect(() => {
		if (policies.length)
			setChosen(
				restorePolicies(
					selection?.policies,
					scenario.policy,
					COMPANIONS,
					policies.map((p) => p.name),
					MIN_POLICIES,
					MAX_POLICIES,
				),
			);
	}, [scenario.policy, policies]);

	useEffect(() => {
		if (chosen.length >= MIN_POLICIES)
			onSelectionChange?.({ policies: chosen, ghostOpt: ghostOn });
	}, [chosen, ghostOn, onSelectionChange]);

	/* The compared runs. */
	useEffect(() => {
		if (chosen.length < MIN_POLICIES)
			return;
		const abort = new AbortController();
		setError(null);
		simulateAll(client, scenario, chosen, abort.signal, (what, done, all) =>
			setProgress(`${what}: ${done.toLocaleString('en')} of ${all.toLocaleString('en')} references`),
		).then(
			(next) => {
				if (abort.signal.aborted) {
					disposeRuns(next.runs);
					return;
				}
				setProgress(null);
				setComparison(next);
				setOwnStep(firstDivergence(next.runs.map((r) => r.outcome)) ?? next.trace.references);
			},
			(e: Error) => {
				if (isAbortError(e))
					return;
				setProgress(null);
				setComparison(null);
				setError(e.message);
			},
		);
		return () => abort.abort();
		/* params compared by value: the object may be rebuilt on every render. */
	}, [client, chosen, scenario.trace, scenario.frames, scenario.policy, paramsKey]);

	/* A comparison's sessions live exactly as long as it is the one shown. */
	useEffect(
		() => () => {
			if (comparison)
				disposeRuns(comparison.runs);
		},
		[comparison],
	);

	/* OPT's run for the ghost column, only while the ghost is shown and OPT is not compared anyway. */
	const optCompared = chosen.includes('opt');
	useEffect(() => {
		if (!ghostOn || optCompared) {
			setOptRun(null);
			return;
		}
		const abort = new AbortController();
		simulateAll(client, scenario, ['opt'], abort.signal, (what, done, all) =>
			setProgress(`${what}: ${done.toLocaleString('en')} of ${all.toLocaleString('en')} references`),
		).then(
			(next) => {
				if (abort.signal.aborted) {
					disposeRuns(next.runs);
					return;
				}
				setProgress(null);
				setOptRun(next.runs[0]);
			},
			(e: Error) => {
				if (isAbortError(e))
					return;
				setProgress(null);
				setError(e.message);
			},
		);
		return () => abort.abort();
	}, [client, ghostOn, optCompared, scenario.trace, scenario.frames]);

	useEffect(
		() => () => {
			if (optRun)
				disposeRuns([optRun]);
		},
		[optRun],
	);

	/* Frame contents at the current step. */
	useEffect(() => {
		if (!comparison)
			return;
		let live = true;
		const runs = optRun ? [...comparison.runs, optRun] : comparison.runs;
		columnsAt(runs, step).then(
			(all) => live && setColumns({ runs: all.slice(0, comparison.runs.length), opt: optRun ? all[all.length - 1] : null, step }),
			(e: Error) => live && setError(e.message),
		);
		return () => {
			live = false;
		};
	}, [comparison, optRun, step]);

	const divergence = useMemo(() => (comparison ? firstDivergence(comparison.runs.map((r) => r.outcome)) : null), [comparison]);
	const nextDifference = useMemo(
		() => (comparison ? nextDifferenceAfter(comparison.runs.map((r) => r.outcome), step) : null),
		[comparison, step],
	);
	useCompareKeys(step, nextDifference, setStep);
	const [reasons, setReasons] = useState<{ of: Comparison; reasons: Map<number, number> } | null>(null);

	useEffect(() => {
		if (!comparison || divergence === null)
			return;
		let live = true;
		divergenceReasons(comparison, divergence).then(
			(found) => live && setReasons({ of: comparison, reasons: found }),
			(e: Error) => live && setError(e.message),
		);
		return () => {
			live = false;
		};
	}, [comparison, divergence]);
	const current = columns && columns.step === step ? columns : null;
	/* The ghost is OPT's own run when OPT is compared (no second simulation), else the extra run. */
	const comparedOpt = comparison?.runs.findIndex((r) => r.policy === 'opt') ?? -1;
	const ghostOpt: GhostOpt | null = !ghostOn
		? null
		: comparedOpt >= 0
			? { run: comparison!.runs[comparedOpt], column: current?.runs[comparedOpt] ?? null, compared: true }
			: optRun && { run: optRun, column: current?.opt ?? null, compared: false };
	const optResident = ghostOpt?.column?.resident;
	const ghost =
		ghostOn && optResident && current?.runs.every((c) => c !== null)
			? ghostColumn(
					optResident,
					current.runs.map((c) => c!.resident),
				)
			: null;

	const choose = (index: number, name: string) => setChosen((list) => list.map((n, i) => (i === index ? name : n)));
	const add = () =>
		setChosen((list) => [...list, policies.find((p) => !list.includes(p.name))?.name ?? policies[0].name]);
	const remove = (index: number) => setChosen((list) => list.filter((_, i) => i !== index));

	return (
		<section className={`pl-compare${lecture ? ' pl-compare-lecture' : ''}`} aria-label="Compare policies">
			<div className="pl-compare-toolbar">
				{chosen.map((name, i) => (
					<span key={i} className="pl-compare-choice">
						<label>
							Policy {i + 1}{' '}
							<select data-testid={`compare-policy-${i}`} value={name} onChange={(e) => choose(i, e.target.value)}>
								{policies.map((p) => (
									<option key={p.name} value={p.name} title={p.help}>
										{p.name}
									</option>
								))}
							</select>
						</label>
						{chosen.length > MIN_POLICIES && (
							<button type="button" data-testid={`compare-remove-${i}`} aria-label={`Remove policy ${i + 1}`} onClick={() => remove(i)}>
								✕
							</button>
						)}
					</span>
				))}
				{chosen.length < MAX_POLICIES && (
					<button type="button" data-testid="compare-add" onClick={add}>
						+ Add a policy
					</button>
				)}
				<label className="pl-compare-ghost-toggle">
					<input type="checkbox" data-testid="compare-ghost-opt" checked={ghostOn} onChange={(e) => setGhostOn(e.target.checked)} />
					Show what OPT would hold
				</label>
			</div>
			<p className="pl-compare-scenario">
				Same trace, {scenario.frames} frame{scenario.frames === 1 ? '' : 's'}, all policies step by step together.
			</p>
			{progress && (
				<p className="pl-compare-progress" data-testid="compare-progress" role="status">
					Simulating {progress}…
				</p>
			)}
			{error && (
				<p className="pl-compare-error" data-testid="compare-error" role="alert">
					{error}
				</p>
			)}
			{comparison && (
				<>
					<CompareControls step={step} total={total} nextDifference={nextDifference} onStep={setStep} />
					<DivergenceNote
						comparison={comparison}
						divergence={divergence}
						reasons={reasons?.of === comparison ? reasons.reasons : new Map()}
						onStep={setStep}
					/>
					<Strips
						comparison={comparison}
						step={step}
						divergence={divergence}
						onStep={setStep}
					/>
					<Columns
						comparison={comparison}
						columns={current?.runs ?? comparison.runs.map(() => null)}
						opt={ghostOpt}
						ghost={ghost}
						step={step}
						frames={scenario.frames}
					/>
				</>
			)}
		</section>
	);
}
