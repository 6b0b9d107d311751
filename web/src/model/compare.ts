/*
 * compare.ts - the compare view's model: several policies run on the same
 * trace, read in lockstep.  Pure TypeScript, no React, no worker.
 *
 * Interface
 *   ComparedScenario               what the views need of a scenario
 *   paramsFor(scenario, policy)    the parameters a compared policy runs with
 *   initialPolicies(...)           the policies a comparison starts with
 *   restorePolicies(...)           a saved selection (a slide link), checked
 *   stepResults(outcomes, step)    each run's result ('H'/'F') at a step
 *   firstDivergence(outcomes)      the first step where the runs part ways
 *   nextDifference(outcomes, k)    the next step after k where they differ
 *   divergenceGroups(...)          which runs hit and which faulted there
 *   lastEviction(events, page)     when a run last evicted a page (the why)
 *   FaultCounter                   faults up to any step, in O(1) memory per 1024 steps
 *   stripWindow / stripCells       the visible part of a hit/miss strip
 *   residentPages(snapshot, ...)   the pages a policy holds at a step
 *   ghostColumn(opt, held)         OPT's frames against each policy's
 *   alignColumns(held)             frame columns ordered so rows line up
 *
 * Invariants (shared with wasm/protocol.ts and the frame grid)
 *   - outcome[i] is 1 if reference i hit, 0 if it faulted.
 *   - Steps are 1-based where a result is shown: step k is the state after
 *     reference k, its result is outcome[k - 1]; step 0 is the empty start
 *     and has no result.
 *   - All runs of one comparison have the same length (same trace); a caller
 *     passing runs of different lengths gets an Error, never a wrong answer.
 */

import { comparePages, pageAt, type ListInfo, type PageNumber, type PageSequence, type ParamValues, type PolicyEvent, type Snapshot, type TraceSource } from '../wasm/protocol';

/** The part of a scenario the compare view and the charts read. */
export interface ComparedScenario {
	policy: string;
	frames: number;
	params?: ParamValues;
	trace: TraceSource;
}

/**
 * The scenario's parameters belong to the scenario's policy; every other
 * compared policy runs with its defaults (a parameter of one policy means
 * nothing to another).
 */
export function paramsFor(scenario: ComparedScenario, policy: string): ParamValues | undefined {
	return policy === scenario.policy ? scenario.params : undefined;
}

/**
 * The scenario's policy first, then the companions that exist in the core
 * and are not already listed, up to `count` policies.
 */
export function initialPolicies(
	scenarioPolicy: string,
	companions: string[],
	available: string[],
	count: number,
): string[] {
	const chosen = [scenarioPolicy];
	for (const name of [...companions, ...available])
		if (chosen.length < count && available.includes(name) && !chosen.includes(name))
			chosen.push(name);
	return chosen;
}

export type StepResult = 'H' | 'F';

/** 'H' or 'F' for reference `step - 1`; null at step 0 (nothing referenced yet). */
export function resultAt(outcome: Uint8Array, step: number): StepResult | null {
	if (step < 1 || step > outcome.length)
		return null;
	return outcome[step - 1] ? 'H' : 'F';
}

export function stepResults(outcomes: Uint8Array[], step: number): (StepResult | null)[] {
	return outcomes.map((outcome) => resultAt(outcome, step));
}

function checkSameLength(outcomes: Uint8Array[]): number {
	const length = outcomes.length ? outcomes[0].length : 0;
	for (const outcome of outcomes)
		if (outcome.length !== length)
			throw new Error(
				`compare: runs of different lengths (${length} and ${outcome.length} references)`,
			);
	return length;
}

/*
 * Outcome arrays of 10M references are scanned on the main thread, so these
 * two scans read four outcomes per 32-bit word where the arrays allow it.
 */

/* A 32-bit view of bytes [from, to) when they start on a word boundary, else null. */
function wordsOf(bytes: Uint8Array, from: number, to: number): Uint32Array | null {
	const start = bytes.byteOffset + from;
	return start % 4 === 0 ? new Uint32Array(bytes.buffer, start, (to - from) >> 2) : null;
}

/** Hits among outcome[from, to).  Outcomes are 0 or 1, so a word's four sum with one multiply. */
export function countHits(outcome: Uint8Array, from: number, to: number): number {
	let hits = 0;
	let i = from;
	for (; i < to && (outcome.byteOffset + i) % 4 !== 0; i++)
		hits += outcome[i];
	const words = wordsOf(outcome, i, to);
	if (words) {
		for (let w = 0; w < words.length; w++)
			hits += Math.imul(words[w], 0x01010101) >>> 24;
		i += words.length * 4;
	}
	for (; i < to; i++)
		hits += outcome[i];
	return hits;
}

/* The first index >= from where a and b differ, or a.length; word by word when both align. */
function firstMismatch(a: Uint8Array, b: Uint8Array, from: number): number {
	let i = from;
	for (; i < a.length && (a.byteOffset + i) % 4 !== 0; i++)
		if (a[i] !== b[i])
			return i;
	const wa = wordsOf(a, i, a.length);
	const wb = wordsOf(b, i, b.length);
	if (wa && wb) {
		let w = 0;
		while (w < wa.length && wa[w] === wb[w])
			w++;
		i += w * 4;
	}
	for (; i < a.length; i++)
		if (a[i] !== b[i])
			return i;
	return a.length;
}

/**
 * The saved policies (e.g. from a URL) that the core has, without repeats,
 * at most `max`; if fewer than `min` remain, the selection starts afresh
 * from the scenario's policy, so a stale link never shows a broken view.
 */
export function restorePolicies(
	saved: string[] | undefined,
	scenarioPolicy: string,
	companions: string[],
	available: string[],
	min: number,
	max: number,
): string[] {
	const kept = [...new Set(saved ?? [])].filter((name) => available.includes(name)).slice(0, max);
	return kept.length >= min ? kept : initialPolicies(scenarioPolicy, companions, available, min);
}

/**
 * The first step (1-based) at which the runs do not all have the same
 * result, or null if they agree on every reference (or there are fewer than
 * two runs).  Policies that agree on every result so far may already hold
 * different pages; this is the first step where the difference shows as a
 * hit for one and a fault for another, which is what the strips make visible.
 */
export function firstDivergence(outcomes: Uint8Array[]): number | null {
	return nextDifference(outcomes, 0);
}

/**
 * The first step after `step` at which the runs do not all have the same
 * result, or null if they agree from there to the end: "where do they
 * differ next?" while stepping through a long trace.
 */
export function nextDifference(outcomes: Uint8Array[], step: number): number | null {
	const length = checkSameLength(outcomes);
	if (outcomes.length < 2)
		return null;
	let first = length;
	for (let r = 1; r < outcomes.length; r++)
		first = Math.min(first, firstMismatch(outcomes[0], outcomes[r], Math.max(step, 0)));
	return first < length ? first + 1 : null;
}

export interface DivergenceGroups {
	step: number;
	/** Indexes of the runs that hit at this step. */
	hit: number[];
	/** Indexes of the runs that faulted at this step. */
	fault: number[];
}

/** Splits the runs by their result at `step` (for the sentence under the strips). */
export function divergenceGroups(outcomes: Uint8Array[], step: number): DivergenceGroups {
	const groups: DivergenceGroups = { step, hit: [], fault: [] };
	stepResults(outcomes, step).forEach((result, run) => {
		if (result === 'H')
			groups.hit.push(run);
		else if (result === 'F')
			groups.fault.push(run);
	});
	return groups;
}

/**
 * The step (1-based) at which `page` was last evicted in `events`, or null
 * if it never was: why a run faults on a page another run still holds.
 */
export function lastEviction(events: PolicyEvent[], page: PageNumber): number | null {
	for (let i = events.length - 1; i >= 0; i--)
		if (events[i].kind === 'evict' && events[i].page === page)
			return events[i].step + 1;
	return null;
}

/* Steps between two stored counts: the memory/time trade of FaultCounter. */
const COUNT_EVERY = 1024;

/**
 * Faults among references 0..k-1 for any step k, for the counters beside
 * the strips.  It stores one count per COUNT_EVERY steps and scans at most
 * that many outcomes, so a 10M-reference run costs 40 KB, not 40 MB.
 */
export class FaultCounter {
	private readonly counts: Uint32Array;
	readonly total: number;

	constructor(private readonly outcome: Uint8Array) {
		this.counts = new Uint32Array(Math.floor(outcome.length / COUNT_EVERY) + 1);
		let faults = 0;
		for (let block = 0; block < this.counts.length; block++) {
			const from = block * COUNT_EVERY;
			const to = Math.min(from + COUNT_EVERY, outcome.length);
			this.counts[block] = faults;
			faults += to - from - countHits(outcome, from, to);
		}
		this.total = faults;
	}

	/** Faults in the first `step` references (step clamped to 0..n). */
	at(step: number): number {
		const k = Math.max(0, Math.min(step, this.outcome.length));
		const from = Math.floor(k / COUNT_EVERY) * COUNT_EVERY;
		return this.counts[from / COUNT_EVERY] + (k - from) - countHits(this.outcome, from, k);
	}
}

export interface StripWindow {
	/** First and last step shown, 1-based and inclusive; first > last if empty. */
	first: number;
	last: number;
}

/**
 * The steps a strip of at most `maxCells` cells shows around the current
 * step: the whole trace when it fits, else a window that keeps the current
 * step in view (centred where possible) and never runs off either end.
 */
export function stripWindow(references: number, current: number, maxCells: number): StripWindow {
	if (maxCells < 1)
		throw new Error(`compare: a strip needs at least one cell (got ${maxCells})`);
	if (references <= maxCells)
		return { first: 1, last: references };
	const centre = Math.min(Math.max(current, 1), references);
	let first = centre - Math.floor((maxCells - 1) / 2);
	first = Math.max(1, Math.min(first, references - maxCells + 1));
	return { first, last: first + maxCells - 1 };
}

export interface StripCell {
	step: number;
	result: StepResult;
	/** The page referenced at this step, when the caller knows the trace. */
	page: PageNumber | null;
}

export function stripCells(
	outcome: Uint8Array,
	window: StripWindow,
	pages?: PageSequence,
): StripCell[] {
	const cells: StripCell[] = [];
	for (let step = window.first; step <= window.last; step++)
		cells.push({
			step,
			result: outcome[step - 1] ? 'H' : 'F',
			page: pages ? pageAt(pages, step - 1) : null,
		});
	return cells;
}

/**
 * The pages a policy holds at a snapshot: every page in its non-ghost lists,
 * in list order (so LRU shows recency order, CLOCK its ring).
 */
export function residentPages(snapshot: Snapshot, lists: ListInfo[]): PageNumber[] {
	const pages: PageNumber[] = [];
	snapshot.lists.forEach((entries, i) => {
		if (lists[i] && !lists[i].ghost)
			for (const entry of entries)
				pages.push(entry.page);
	});
	return pages;
}

export interface GhostColumn {
	/** OPT's pages in ascending order, with the runs that hold each one too. */
	opt: { page: PageNumber; heldBy: number[] }[];
	/**
	 * Per run, the pages it holds that OPT does not: the frames it spends on
	 * pages the optimal policy has already let go.
	 */
	notInOpt: PageNumber[][];
}

/** Compares what OPT holds at a step with what each run holds at the same step. */
export function ghostColumn(optPages: PageNumber[], held: PageNumber[][]): GhostColumn {
	const optSet = new Set(optPages);
	const heldSets = held.map((pages) => new Set(pages));
	return {
		opt: [...optSet]
			.sort(comparePages)
			.map((page) => ({
				page,
				heldBy: heldSets.flatMap((set, run) => (set.has(page) ? [run] : [])),
			})),
		notInOpt: held.map((pages) => pages.filter((page) => !optSet.has(page))),
	};
}

/**
 * Orders each column's pages so that the columns read across: the pages
 * every column holds come first, in page order, on the same rows; then each
 * column's own pages in page order, so where the policies differ, they
 * differ on the same rows.  (The policy's own list order is what the step
 * view shows.)
 */
export function alignColumns(held: PageNumber[][]): PageNumber[][] {
	const common = held.length
		? held[0].filter((page) => held.every((pages) => pages.includes(page))).sort(comparePages)
		: [];
	const shared = new Set(common);
	return held.map((pages) => [...common, ...pages.filter((page) => !shared.has(page)).sort(comparePages)]);
}
