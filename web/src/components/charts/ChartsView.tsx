/*
 * ChartsView.tsx - the charts tab: cumulative faults over time per policy,
 * faults against the number of frames (where Belady's anomaly shows), and
 * which pages are referenced when (an access scatter on canvas).
 *
 * Props (scenario in, nothing else global)
 *   scenario  { policy, frames, params?, trace } - the scenario to chart.  A
 *             new `trace` object means a new trace: keep it stable while
 *             the trace is unchanged.
 *   client    the PagelabClient (wasm/protocol.ts); all simulation happens
 *             in its worker, so a 10M-reference trace never blocks the page.
 *   lecture   true for lecture-hall sizes (big type, thick lines) and one
 *             screen: one chart at a time (tabs charts-tab-<id>) filling the
 *             room under them, the checkboxes behind charts-edit-policies.
 *   policies, optional: the policies charted as saved in a slide link (read
 *   onPolicies-  when the policy list arrives or the scenario's policy
 *   Change       changes), and the callback told of every change.
 *
 * Behaviour
 *   The scenario's policy is charted with FIFO, LRU and OPT by default;
 *   checkboxes (chart-policy-<name>) choose others.  The cumulative chart
 *   comes first (one run per policy at the scenario's frames), then the
 *   frames chart (one missCurve call per policy over 1 .. distinct pages +
 *   1: one pass for lru and opt, one run per count for the others; at most
 *   MAX_FRAME_RUNS counts, fewer for big traces: FRAME_RUN_BUDGET).  A change of scenario or policies aborts the work
 *   in flight.  `charts-progress` shows while the worker runs.
 */

import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { type MissCurve, type PagelabClient, type PageSequence } from '../../wasm/protocol';
import { usePolicyList } from '../usePolicyList';
import { useSimulation } from '../useSimulation';
import { paramsFor, restorePolicies, type ComparedScenario } from '../../model/compare';
import {
	beladyAnomalies,
	cumulativeFaultCurve,
	framesAxisIsLog,
	framesRange,
	type Curve,
} from '../../model/compareCurves';
import type { ChartSeries, ChartSpec } from '../../viz/charts';
import { Chart } from './Chart';
import './charts.css';

export interface ChartsViewProps {
	scenario: ComparedScenario;
	client: PagelabClient;
	lecture?: boolean;
	policies?: string[];
	onPoliciesChange?: (policies: string[]) => void;
}

const COMPANIONS = ['fifo', 'lru', 'opt'];
/* A chart line has no more points than a wide screen has pixels. */
const MAX_CURVE_POINTS = 2000;
const MAX_FRAME_RUNS = 32;
const MIN_FRAME_RUNS = 6;
/*
 * References the frames chart may simulate in all (runs x policies x trace
 * length): a big trace gets fewer frame counts over the same span, so the
 * chart is done in a minute, not a quarter of an hour.
 */
const FRAME_RUN_BUDGET = 24_000_000;
/* Up to this many references the cumulative chart is drawn as exact steps. */
const MAX_STEP_CURVE = 400;
/* More dots than this only repaint the same pixels, slower. */
const MAX_SCATTER_POINTS = 50_000;

type ChartId = 'cumulative' | 'frames' | 'access';

interface PolicyCurves {
	policy: string;
	cumulative: Curve;
}

interface Access {
	references: number;
	distinctPages: number;
	pages: PageSequence | null;
}

interface Progress {
	what: string;
	done: number;
	total: number;
}

/* Legends and sentences name a policy as its short name in capitals: FIFO, LRU, CLOCK. */
const shortName = (policy: string) => policy.toUpperCase();

function cumulativeSpec(curves: PolicyCurves[], frames: number, references: number): ChartSpec {
	return {
		id: 'cumulative',
		title: `Page faults so far, ${frames} frame${frames === 1 ? '' : 's'}`,
		xLabel: 'references processed',
		yLabel: 'page faults',
		xIntegers: true,
		yIntegers: true,
		series: curves.map(({ policy, cumulative }) => ({
			id: policy,
			label: shortName(policy),
			x: cumulative.x,
			y: cumulative.y,
			mark: references <= MAX_STEP_CURVE ? 'step' : 'line',
		})),
	};
}

function framesSpec(runs: Map<string, Curve>, scenarioFrames: number): ChartSpec {
	const series: ChartSeries[] = [];
	const markers: ChartSpec['markers'] = [];
	for (const [policy, curve] of runs) {
		series.push({ id: policy, label: shortName(policy), x: curve.x, y: curve.y, mark: 'line' });
		for (const anomaly of beladyAnomalies(curve))
			markers.push({
				seriesId: policy,
				x: anomaly.toFrames,
				y: anomaly.toFaults,
				label: `Belady: ${anomaly.fromFrames}→${anomaly.toFrames} frames, ${anomaly.fromFaults}→${anomaly.toFaults} faults`,
			});
	}
	return {
		id: 'frames',
		title: 'Page faults against the number of frames',
		xLabel: 'frames',
		yLabel: 'page faults',
		xIntegers: true,
		yIntegers: true,
		series,
		markers,
		guides: [{ x: scenarioFrames, label: `this scenario: ${scenarioFrames}` }],
		xScale: series.length && framesAxisIsLog(Array.from(series[0].x)) ? 'log' : 'linear',
		pointAttributes: { series: 'policy', x: 'frames', y: 'faults' },
	};
}

function accessSpec(pages: PageSequence): ChartSpec {
	const references = pages.ids.length;
	const stride = Math.ceil(references / MAX_SCATTER_POINTS);
	const count = Math.ceil(references / stride);
	const x = new Float64Array(count);
	const y = new Float64Array(count);
	/* Read straight from the table (a number, or a bigint made a number for plotting): 50 000 points in the render. */
	const { ids, numbers } = pages;
	for (let i = 0; i < count; i++) {
		x[i] = i * stride + 1;
		y[i] = Number(numbers[ids[i * stride]]);
	}
	return {
		id: 'access',
		title: stride > 1 ? `Pages referenced over time (every ${stride}th reference)` : 'Pages referenced over time',
		xLabel: 'reference',
		yLabel: 'page number',
		xIntegers: true,
		yIntegers: true,
		series: [{ id: 'trace', label: 'reference', x, y, mark: 'canvas-points' }],
	};
}

/* A miss curve as the frames chart's line: faults against frames. */
function faultsCurve(curve: MissCurve): Curve {
	return { x: Float64Array.from(curve.frames), y: Float64Array.from(curve.misses) };
}

function anomalySentence(runs: Map<string, Curve>): string {
	const found: string[] = [];
	for (const [policy, curve] of runs)
		for (const a of beladyAnomalies(curve))
			found.push(`${shortName(policy)} faults ${a.toFaults} times with ${a.toFrames} frames but only ${a.fromFaults} with ${a.fromFrames}`);
	return found.length
		? `Belady's anomaly: ${found.join('; ')}.`
		: 'No anomaly: no policy here faults more when given more frames.';
}

export function ChartsView({ scenario, client, lecture = false, policies: saved, onPoliciesChange }: ChartsViewProps) {
	const [chosen, setChosen] = useState<string[]>([]);
	const [curves, setCurves] = useState<PolicyCurves[]>([]);
	const [frameRuns, setFrameRuns] = useState<Map<string, Curve>>(new Map());
	const [access, setAccess] = useState<Access | null>(null);
	/* Lecture mode shows one chart at a time and folds the policy checkboxes away. */
	const [shownChart, setShownChart] = useState<ChartId>('cumulative');
	const [editingPolicies, setEditingPolicies] = useState(false);
	const { progress, error, run: chart, cancel: cancelCharting, setError } = useSimulation<Progress>();
	const policies = usePolicyList(client, setError);
	const size = lecture ? 'lecture' : 'normal';
	const paramsKey = JSON.stringify(scenario.params ?? {});

	/* The saved selection is read only at these moments, so the user's choices are never undone. */
	useEffect(() => {
		if (!policies.length)
			return;
		const names = policies.map((p) => p.name);
		const defaults = new Set([scenario.policy, ...COMPANIONS]).size;
		setChosen(restorePolicies(saved, scenario.policy, COMPANIONS, names, saved?.length ? 1 : defaults, names.length));
	}, [scenario.policy, policies]);

	useEffect(() => {
		if (chosen.length)
			onPoliciesChange?.(chosen);
	}, [chosen, onPoliciesChange]);

	useEffect(() => {
		if (!chosen.length)
			return;
		const work = async (signal: AbortSignal, report: (progress: Progress) => void) => {
			const options = (what: string) => ({
				signal,
				onProgress: (done: number, total: number) => report({ what, done, total }),
			});
			const cumulative: PolicyCurves[] = [];
			let trace: Access | null = null;
			for (const policy of chosen) {
				report({ what: `${shortName(policy)} at ${scenario.frames} frames`, done: 0, total: 1 });
				const result = await client.simulate(
					{
						policy,
						frames: scenario.frames,
						params: paramsFor(scenario, policy),
						trace: scenario.trace,
						omitTrace: trace !== null,
					},
					options(`${shortName(policy)} at ${scenario.frames} frames`),
				);
				signal.throwIfAborted();
				trace ??= { references: result.trace.references, distinctPages: result.trace.distinctPages, pages: result.trace.pages };
				cumulative.push({ policy, cumulative: cumulativeFaultCurve(result.outcome, MAX_CURVE_POINTS) });
				setCurves([...cumulative]);
			}
			setAccess(trace);
			const affordable = Math.floor(FRAME_RUN_BUDGET / Math.max(1, (trace?.references ?? 0) * chosen.length));
			const runCount = Math.max(MIN_FRAME_RUNS, Math.min(MAX_FRAME_RUNS, affordable));
			const frames = framesRange(trace?.distinctPages ?? 0, runCount);
			const byPolicy = new Map<string, Curve>();
			for (const policy of chosen) {
				const what = `${shortName(policy)} at 1 to ${frames[frames.length - 1]} frames`;
				report({ what, done: 0, total: frames.length });
				const curve = await client.missCurve(
					{ policy, params: paramsFor(scenario, policy), trace: scenario.trace, frames },
					options(what),
				);
				byPolicy.set(policy, faultsCurve(curve));
				signal.throwIfAborted();
				setFrameRuns(new Map(byPolicy));
			}
		};
		setCurves([]);
		setFrameRuns(new Map());
		setAccess(null);
		void chart(work, () => {});
		return cancelCharting;
		/* The params object may be rebuilt on every render: compare it by value (paramsKey). */
	}, [client, chosen, scenario.trace, scenario.frames, scenario.policy, paramsKey]);

	const references = access?.references ?? 0;
	const cumulative = useMemo(
		() => cumulativeSpec(curves, scenario.frames, references),
		[curves, scenario.frames, references],
	);
	const framesChart = useMemo(() => framesSpec(frameRuns, scenario.frames), [frameRuns, scenario.frames]);
	const framesDone = frameRuns.size === chosen.length && chosen.length > 0;
	const beladyNote = useMemo(
		() => (framesDone ? <span data-testid="belady-note">{anomalySentence(frameRuns)}</span> : null),
		[framesDone, frameRuns],
	);
	const accessChart = useMemo(() => (access?.pages ? accessSpec(access.pages) : null), [access]);

	const charts: { id: ChartId; label: string; chart: ReactNode }[] = [
		{
			id: 'cumulative',
			label: 'Faults so far',
			chart: <Chart spec={cumulative} size={size} fill={lecture} fileBase={`pagelab-cumulative-${scenario.frames}frames`} />,
		},
		{
			id: 'frames',
			label: 'Faults by frames',
			chart: <Chart spec={framesChart} size={size} fill={lecture} fileBase="pagelab-faults-by-frames" caption={beladyNote} />,
		},
		{
			id: 'access',
			label: 'Pages over time',
			chart: accessChart && <Chart spec={accessChart} size={size} fill={lecture} fileBase="pagelab-access" />,
		},
	];

	const toggle = (name: string) =>
		setChosen((current) =>
			current.includes(name) ? current.filter((n) => n !== name) : policies.map((p) => p.name).filter((n) => n === name || current.includes(n)),
		);

	const policyChoice = (
		<fieldset className="pl-charts-policies" id="pl-charts-policies">
			<legend>Policies charted</legend>
			{policies.map((p) => (
				<label key={p.name} title={p.help}>
					<input
						type="checkbox"
						data-testid={`chart-policy-${p.name}`}
						checked={chosen.includes(p.name)}
						disabled={chosen.length === 1 && chosen.includes(p.name)}
						onChange={() => toggle(p.name)}
					/>
					{shortName(p.name)}
				</label>
			))}
		</fieldset>
	);
	const status = (
		<>
			{progress && (
				<p className="pl-charts-progress" data-testid="charts-progress" role="status">
					Simulating {progress.what}…
					<progress value={progress.done} max={Math.max(progress.total, 1)} />
				</p>
			)}
			{error && (
				<p className="pl-charts-error" data-testid="charts-error" role="alert">
					{error}
				</p>
			)}
		</>
	);

	if (!lecture)
		return (
			<section className="pl-charts" aria-label="Charts">
				{policyChoice}
				{status}
				{charts.map(({ id, chart }) => chart && <Fragment key={id}>{chart}</Fragment>)}
			</section>
		);
	/*
	 * On a projector one chart fills the screen under a row of tabs choosing
	 * it, and the policy checkboxes fold behind "policies…" (the legend says
	 * which are charted).
	 */
	return (
		<section className="pl-charts pl-charts-lecture" aria-label="Charts">
			<div className="pl-charts-bar">
				<div role="tablist" aria-label="Chart shown" className="pl-charts-tabs">
					{charts.map(({ id, label }) => (
						<button
							key={id}
							type="button"
							role="tab"
							id={`pl-charts-tab-${id}`}
							data-testid={`charts-tab-${id}`}
							aria-selected={id === shownChart}
							aria-controls="pl-charts-shown"
							onClick={() => setShownChart(id)}
						>
							{label}
						</button>
					))}
				</div>
				<button
					type="button"
					data-testid="charts-edit-policies"
					aria-expanded={editingPolicies}
					aria-controls={editingPolicies ? 'pl-charts-policies' : undefined}
					onClick={() => setEditingPolicies((open) => !open)}
				>
					{editingPolicies ? 'done' : 'policies…'}
				</button>
			</div>
			{editingPolicies && policyChoice}
			{status}
			<div className="pl-charts-shown" id="pl-charts-shown" role="tabpanel" aria-labelledby={`pl-charts-tab-${shownChart}`}>
				{charts.find((c) => c.id === shownChart)?.chart}
			</div>
		</section>
	);
}
