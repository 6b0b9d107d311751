/*
 * CompareView.tsx - the compare tab: two to four runs on the scenario's
 * trace, in lockstep.  A run is a policy at a number of frames with every
 * one of its parameters (model/compareEntries.ts), so a policy can be set
 * against itself at two frame counts or with two parameter sets.  One
 * hit/fault strip per run, the first step where they part ways marked, each
 * run's frames at the current step side by side, optionally OPT's frames as
 * a ghost column, and the comparison exported as CSV, JSON, SVG or PNG.
 *
 * Props (scenario in, nothing else global)
 *   scenario      { policy, frames, params?, trace }: the trace every run
 *                 uses; a new run starts at the scenario's frames, with the
 *                 scenario's params for its policy and the defaults for
 *                 others (all shown and editable).  A new `trace` object
 *                 means a new trace: keep it stable.
 *   client        the PagelabClient (wasm/protocol.ts).
 *   lecture       true for lecture-hall sizes.
 *   selection,    optional: the runs (as entryText strings, "lru@8;k=2")
 *   onSelection-  and whether OPT's ghost shows, as saved in a slide link
 *   Change        (read when the policy list arrives or the scenario
 *                 changes), and the callback told of every change.
 *   step,         the shared step position ("state after reference k",
 *   onStepChange  0..N), e.g. the step view's.  Omit both and the view keeps
 *                 its own position (starting at the first divergence).
 *
 * Controls: its own buttons and scrub (compare-step-*), clicking a strip
 * cell, and the keys ←/→, Home and D (next difference); all of them move
 * the shared step when there is one.
 *
 * Invariants
 *   - Every run of one comparison is over the same trace, so step k means
 *     the same reference in every strip and column.
 *   - Frame contents come from the policy's own snapshots (sessions) and
 *     are kept only for traces up to RECORD_LIMIT references; longer traces
 *     show strips and counts, and say why the columns are missing.
 *   - Sessions are disposed when the comparison is replaced or unmounted.
 */

import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PagelabClient } from '../../wasm/protocol';
import { usePolicyList } from '../usePolicyList';
import { useSimulation } from '../useSimulation';
import {
	firstDivergence,
	ghostColumn,
	nextDifference as nextDifferenceAfter,
	type ComparedScenario,
} from '../../model/compare';
import { defaultEntry, entryLabels, entryText, restoreEntries, type CompareEntry } from '../../model/compareEntries';
import { columnsAt, disposeRuns, divergenceReasons, simulateAll, type Column, type Comparison, type Run } from './comparison';
import { CompareControls } from './CompareControls';
import { useCompareKeys } from './useCompareKeys';
import { DivergenceNote } from './DivergenceNote';
import { Strips } from './Strips';
import { Columns, type GhostOpt } from './Columns';
import { EntryEditor } from './EntryEditor';
import { CompareExport } from './CompareExport';
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
	/** Hide answers / predict mode: nothing past the current step (strips, totals, divergence, jumps, export). */
	hideAnswers?: boolean;
}

const MIN_POLICIES = 2;
const MAX_POLICIES = 4;
const COMPANIONS = ['lru', 'fifo', 'opt'];

export function CompareView({
	scenario,
	client,
	lecture = false,
	selection,
	onSelectionChange,
	step: sharedStep,
	onStepChange,
	hideAnswers = false,
}: CompareViewProps) {
	const [chosen, setChosen] = useState<CompareEntry[]>([]);
	const [ghostOn, setGhostOn] = useState(selection?.ghostOpt ?? false);
	const [comparison, setComparison] = useState<Comparison | null>(null);
	const [optRun, setOptRun] = useState<Run | null>(null);
	const [columns, setColumns] = useState<{ runs: (Column | null)[]; opt: Column | null; step: number } | null>(null);
	const comparing = useSimulation<string>();
	const ghosting = useSimulation<string>();
	const [error, setError] = useState<string | null>(null);
	/* Lecture mode folds the run editors away (like the scenario form) until "runs…" opens them. */
	const [editing, setEditing] = useState(false);
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
		if (!policies.length)
			return;
		const errors: string[] = [];
		setChosen(restoreEntries(selection?.policies, scenario, COMPANIONS, policies, MIN_POLICIES, MAX_POLICIES, errors));
		setError(errors.length ? errors.join('; ') : null);
	}, [scenario.policy, scenario.frames, paramsKey, policies]);

	useEffect(() => {
		if (chosen.length >= MIN_POLICIES)
			onSelectionChange?.({
				policies: chosen.map((entry) => entryText(entry, policies.find((p) => p.name === entry.policy)!, scenario)),
				ghostOpt: ghostOn,
			});
	}, [chosen, ghostOn, onSelectionChange]);
	const chosenKey = JSON.stringify(chosen);

	/* The compared runs. */
	const { run: compare, cancel: cancelComparing } = comparing;
	useEffect(() => {
		if (chosen.length < MIN_POLICIES)
			return;
		void compare(
			(signal, report) => simulateAll(client, scenario.trace, chosen, entryLabels(chosen), signal, report),
			(next) => {
				setComparison(next);
				setOwnStep(firstDivergence(next.runs.map((r) => r.outcome)) ?? next.trace.references);
			},
			{ discard: (next) => disposeRuns(next.runs) },
		).then((failure) => failure && setComparison(null));
		return cancelComparing;
		/* params compared by value: the object may be rebuilt on every render. */
	}, [client, chosenKey, scenario.trace]);

	/* A comparison's sessions live exactly as long as it is the one shown. */
	useEffect(
		() => () => {
			if (comparison)
				disposeRuns(comparison.runs);
		},
		[comparison],
	);

	/* OPT's run for the ghost column, only while the ghost is shown and OPT is not compared anyway. */
	const optCompared = chosen.some((entry) => entry.policy === 'opt' && entry.frames === scenario.frames);
	const { run: ghost, cancel: cancelGhosting } = ghosting;
	useEffect(() => {
		const opt = policies.find((p) => p.name === 'opt');
		if (!ghostOn || optCompared || !opt) {
			setOptRun(null);
			return;
		}
		const optEntry = defaultEntry(opt, scenario);
		void ghost(
			(signal, report) => simulateAll(client, scenario.trace, [optEntry], ['OPT'], signal, report),
			(next) => setOptRun(next.runs[0]),
			{ discard: (next) => disposeRuns(next.runs) },
		);
		return cancelGhosting;
	}, [client, ghostOn, optCompared, policies, scenario.trace, scenario.frames]);

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
	useCompareKeys(step, hideAnswers ? null : nextDifference, setStep);
	/* With answers hidden, the divergence is told only once the class has reached it. */
	const shownDivergence = hideAnswers && divergence !== null && divergence > step ? null : divergence;
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
	const comparedOpt = comparison?.runs.findIndex((r) => r.policy === 'opt' && r.entry.frames === scenario.frames) ?? -1;
	const ghostOpt: GhostOpt | null = !ghostOn
		? null
		: comparedOpt >= 0
			? { run: comparison!.runs[comparedOpt], column: current?.runs[comparedOpt] ?? null, compared: true }
			: optRun && { run: optRun, column: current?.opt ?? null, compared: false };
	const optResident = ghostOpt?.column?.resident;
	const ghostHeld =
		ghostOn && optResident && current?.runs.every((c) => c !== null)
			? ghostColumn(
					optResident,
					current.runs.map((c) => c!.resident),
				)
			: null;

	const entryOf = (name: string) => defaultEntry(policies.find((p) => p.name === name)!, scenario);
	const choose = (index: number, name: string) => setChosen((list) => list.map((e, i) => (i === index ? entryOf(name) : e)));
	const edit = (index: number, entry: CompareEntry) => setChosen((list) => list.map((e, i) => (i === index ? entry : e)));
	const add = () =>
		setChosen((list) => [...list, entryOf(policies.find((p) => !list.some((e) => e.policy === p.name))?.name ?? list[0].policy)]);
	const remove = (index: number) => setChosen((list) => list.filter((_, i) => i !== index));

	const sameFrames = chosen.every((entry) => entry.frames === scenario.frames);
	const progress = comparing.progress ?? ghosting.progress;
	const shownError = comparing.error ?? ghosting.error ?? error;

	return (
		<section className={`pl-compare${lecture ? ' pl-compare-lecture' : ''}`} aria-label="Compare policies">
			{lecture && (
				<button type="button" className="pl-compare-edit-runs" data-testid="compare-edit-runs" aria-expanded={editing} onClick={() => setEditing((e) => !e)}>
					{editing ? 'hide runs' : 'runs…'}
				</button>
			)}
			{(!lecture || editing) && <div className="pl-compare-toolbar">
				{chosen.map((entry, i) => (
					<EntryEditor
						key={i}
						index={i}
						entry={entry}
						policies={policies}
						removable={chosen.length > MIN_POLICIES}
						onPolicy={(name) => choose(i, name)}
						onChange={(next) => edit(i, next)}
						onRemove={() => remove(i)}
						onError={setError}
					/>
				))}
				{chosen.length < MAX_POLICIES && (
					<button type="button" data-testid="compare-add" onClick={add}>
						+ Add a run
					</button>
				)}
				<label className="pl-compare-ghost-toggle">
					<input type="checkbox" data-testid="compare-ghost-opt" checked={ghostOn} onChange={(e) => setGhostOn(e.target.checked)} />
					Show what OPT would hold
				</label>
			</div>}
			<p className="pl-compare-scenario">
				{sameFrames
					? `Same trace, ${scenario.frames} frame${scenario.frames === 1 ? '' : 's'}, all runs step by step together.`
					: 'Same trace, every run at its own number of frames, step by step together.'}
				{ghostOn && !sameFrames && ` OPT is shown at the scenario's ${scenario.frames} frames.`}
			</p>
			{progress && (
				<p className="pl-compare-progress" data-testid="compare-progress" role="status">
					Simulating {progress}…
				</p>
			)}
			{shownError && (
				<p className="pl-compare-error" data-testid="compare-error" role="alert">
					{shownError}
				</p>
			)}
			{comparison && (
				<>
					<CompareControls step={step} total={total} nextDifference={hideAnswers ? null : nextDifference} hideJumps={hideAnswers} onStep={setStep} />
					{!hideAnswers && !lecture && <CompareExport comparison={comparison} step={step} divergence={divergence} onError={setError} />}
					{hideAnswers && shownDivergence === null ? (
						<p className="pl-compare-agree" data-testid="compare-answers-hidden">
							Answers hidden: the strips show each run's hits and faults up to this step only.
						</p>
					) : (
						<DivergenceNote
							comparison={comparison}
							divergence={shownDivergence}
							reasons={reasons?.of === comparison ? reasons.reasons : new Map()}
							onStep={setStep}
						/>
					)}
					<Strips
						comparison={comparison}
						step={step}
						divergence={shownDivergence}
						hideAfterStep={hideAnswers}
						onStep={setStep}
					/>
					<Columns
						comparison={comparison}
						columns={current?.runs ?? comparison.runs.map(() => null)}
						opt={ghostOpt}
						ghost={ghostHeld}
						step={step}
						fit={lecture}
					/>
				</>
			)}
		</section>
	);
}

