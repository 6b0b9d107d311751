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

import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PagelabClient } from '../../wasm/protocol';
import { usePolicyList } from '../usePolicyList';
import { useSimulation } from '../useSimulation';
import {
	firstDivergence,
	ghostColumn,
	nextDifference as nextDifferenceAfter,
	restorePolicies,
	type ComparedScenario,
} from '../../model/compare';
import { columnsAt, disposeRuns, divergenceReasons, simulateAll, type Column, type Comparison, type Run } from './comparison';
import { CompareControls } from './CompareControls';
import { useCompareKeys } from './useCompareKeys';
import { DivergenceNote } from './DivergenceNote';
import { Strips } from './Strips';
import { Columns, type GhostOpt } from './Columns';
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
	const comparing = useSimulation<string>();
	const ghosting = useSimulation<string>();
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
	const { run: compare, cancel: cancelComparing } = comparing;
	useEffect(() => {
		if (chosen.length < MIN_POLICIES)
			return;
		void compare(
			(signal, report) => simulateAll(client, scenario, chosen, signal, report),
			(next) => {
				setComparison(next);
				setOwnStep(firstDivergence(next.runs.map((r) => r.outcome)) ?? next.trace.references);
			},
			{ discard: (next) => disposeRuns(next.runs) },
		).then((failure) => failure && setComparison(null));
		return cancelComparing;
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
	const { run: ghost, cancel: cancelGhosting } = ghosting;
	useEffect(() => {
		if (!ghostOn || optCompared) {
			setOptRun(null);
			return;
		}
		void ghost(
			(signal, report) => simulateAll(client, scenario, ['opt'], signal, report),
			(next) => setOptRun(next.runs[0]),
			{ discard: (next) => disposeRuns(next.runs) },
		);
		return cancelGhosting;
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
	const ghostHeld =
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

	const progress = comparing.progress ?? ghosting.progress;
	const shownError = comparing.error ?? ghosting.error ?? error;

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
			{shownError && (
				<p className="pl-compare-error" data-testid="compare-error" role="alert">
					{shownError}
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
						ghost={ghostHeld}
						step={step}
						frames={scenario.frames}
					/>
				</>
			)}
		</section>
	);
}

