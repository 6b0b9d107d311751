/*
 * comparison.ts - the compare view's runs: every compared entry (a policy at
 * a number of frames with its parameters, model/compareEntries.ts)
 * simulated on one trace (simulateAll), what each holds at a step
 * (columnsAt), and why the runs first part ways (divergenceReasons).
 *
 * Invariants
 *   - Every run of one comparison is over the same trace, so step k means
 *     the same reference in every strip and column (frames may differ).
 *   - Frame contents come from the policy's own snapshots (sessions) and
 *     are kept only for traces up to RECORD_LIMIT references; longer traces
 *     have strips and counts only (session null).
 *   - Whoever holds a Comparison disposes of its sessions (disposeRuns).
 */
import { pageAt, type PageNumber, type PagelabClient, type Session, type SimulateResult, type TraceInfo, type TraceSource } from '../../wasm/protocol';
import { FaultCounter, divergenceGroups, lastEviction, residentPages } from '../../model/compare';
import type { CompareEntry } from '../../model/compareEntries';

/* Recording keeps every event in the worker: enough for any lecture trace. */
export const RECORD_LIMIT = 100_000;

export interface Run {
	policy: string;
	entry: CompareEntry;
	/** What strips, columns and sentences call it ("LRU", "LRU 8 frames"). */
	label: string;
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
	resident: PageNumber[];
	evicted: PageNumber[];
}

export const faultCount = (faults: number) => `${faults.toLocaleString('en')} fault${faults === 1 ? '' : 's'}`;

function toRun(result: SimulateResult, entry: CompareEntry, label: string): Run {
	return {
		policy: result.policy,
		entry,
		label,
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
 * Simulates the entries one after another on the trace, recording when the
 * trace is short; `report` is told what runs now ("LRU: 5,000 of 20,000
 * references"); `labels[i]` names entry i.
 */
export async function simulateAll(
	client: PagelabClient,
	source: TraceSource,
	entries: CompareEntry[],
	labels: string[],
	signal: AbortSignal,
	report: (progress: string) => void,
): Promise<Comparison> {
	const trace = await client.loadTrace(source, { signal });
	const runs: Run[] = [];
	const onProgress = (label: string, done: number, total: number) =>
		report(`${label}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} references`);
	try {
		for (const [i, entry] of entries.entries()) {
			onProgress(labels[i], 0, trace.references);
			const result = await client.simulate(
				{
					policy: entry.policy,
					frames: entry.frames,
					params: entry.params,
					trace: source,
					record: trace.references <= RECORD_LIMIT,
					omitTrace: true,
				},
				{ signal, onProgress: (done, total) => onProgress(labels[i], done, total) },
			);
			runs.push(toRun(result, entry, labels[i]));
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
	const page = pageAt(comparison.trace.pages, divergence - 1);
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
