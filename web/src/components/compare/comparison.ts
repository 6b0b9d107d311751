/*
 * comparison.ts - the compare view's runs: every compared policy simulated
 * on one trace and frame count (simulateAll), what each holds at a step
 * (columnsAt), and why the policies first part ways (divergenceReasons).
 *
 * Invariants
 *   - Every run of one comparison is over the same trace and frames, so
 *     step k means the same reference in every strip and column.
 *   - Frame contents come from the policy's own snapshots (sessions) and
 *     are kept only for traces up to RECORD_LIMIT references; longer traces
 *     have strips and counts only (session null).
 *   - Whoever holds a Comparison disposes of its sessions (disposeRuns).
 */
import type { PagelabClient, Session, SimulateResult, TraceInfo } from '../../wasm/protocol';
import {
	FaultCounter,
	divergenceGroups,
	lastEviction,
	paramsFor,
	residentPages,
	type ComparedScenario,
} from '../../model/compare';

/* Recording keeps every event in the worker: enough for any lecture trace. */
export const RECORD_LIMIT = 100_000;

export interface Run {
	policy: string;
	outcome: Uint8Array;
	faults: FaultCounter;
	session: Session | null;
}

export interface Comparison {
	trace: TraceInfo;
	runs: Run[];
}

/** What one policy holds at the current step. */
export interface Column {
	resident: number[];
	evicted: number[];
}

export const shortName = (policy: string) => policy.toUpperCase();
export const faultCount = (faults: number) => `${faults.toLocaleString('en')} fault${faults === 1 ? '' : 's'}`;

function toRun(result: SimulateResult): Run {
	return {
		policy: result.policy,
		outcome: result.outcome,
		faults: new FaultCounter(result.outcome),
		session: result.session ?? null,
	};
}

export function disposeRuns(runs: Run[]): void {
	for (const run of runs)
		run.session?.dispose().catch(() => {
			/* The worker may already be gone; nothing is left to free then. */
		});
}

/**
 * Simulates `policies` one after another on the scenario, recording when the
 * trace is short; `report` is told what runs now ("LRU: 5,000 of 20,000 references").
 */
export async function simulateAll(
	client: PagelabClient,
	scenario: ComparedScenario,
	policies: string[],
	signal: AbortSignal,
	report: (progress: string) => void,
): Promise<Comparison> {
	const trace = await client.loadTrace(scenario.trace, { signal });
	const runs: Run[] = [];
	const onProgress = (policy: string, done: number, total: number) =>
		report(`${shortName(policy)}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} references`);
	try {
		for (const policy of policies) {
			onProgress(policy, 0, trace.references);
			const result = await client.simulate(
				{
					policy,
					frames: scenario.frames,
					params: paramsFor(scenario, policy),
					trace: scenario.trace,
					record: trace.references <= RECORD_LIMIT,
					omitTrace: true,
				},
				{ signal, onProgress: (done, total) => onProgress(policy, done, total) },
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
export async function columnsAt(runs: Run[], step: number): Promise<(Column | null)[]> {
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

/** For each run that faults at the divergence, the step at which it had evicted the page. */
export async function divergenceReasons(comparison: Comparison, divergence: number): Promise<Map<number, number>> {
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
