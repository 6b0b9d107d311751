/*
 * protocol.ts - the typed API of the pagelab simulation core as the page sees it.
 *
 * The core runs in a Web Worker (worker.ts) that owns the WebAssembly module;
 * client.ts implements `PagelabClient` on top of it with promises.  Everything
 * the views need goes through this interface, so a view never touches the
 * module, the worker or raw memory.
 *
 * Invariants
 *   - Page numbers are the trace's own page numbers (as typed or read from a
 *     file), never the core's dense ids; the client translates.  They are
 *     64-bit and exact: a PageNumber is a number up to 2^53 - 1 and a
 *     bigint above (pageNumber() makes the one form of each value, so ===,
 *     Map keys and String() work on both); arrays of them travel as a
 *     PageTable (a Float64Array, or a BigUint64Array when some number
 *     needs more than 53 bits) indexed by dense id.
 *   - Steps follow the core: "step k" is the state after references 0..k-1,
 *     so step 0 is empty and step `references` is the end.  `outcome[i]` is the
 *     result of reference i (0-based), i.e. of the move from step i to i+1.
 *   - Every call that takes a trace accepts the same `TraceSource`; bad input
 *     rejects with a `PagelabError` whose message names the input and line.
 *   - A `Session` holds memory in the worker until `dispose()` is called.
 *
 * This file is the contract with the compare view and the charts: extend it,
 * never change the meaning of what is here.
 */

/* ------------------------------------------------------------ reflection */

export interface ParamInfo {
	name: string;
	help: string;
	def: number;
	min: number;
	max: number;
	/** Named values (the value is the index), or null for a plain integer. */
	choices: string[] | null;
}

export interface ListInfo {
	name: string;
	/** A ghost list holds history of pages that are no longer resident. */
	ghost: boolean;
}

export interface HandInfo {
	name: string;
	/** Index into PolicyInfo.lists of the list the hand points into. */
	list: number;
}

export interface PolicyInfo {
	name: string;
	title: string;
	help: string;
	params: ParamInfo[];
	lists: ListInfo[];
	/** Per-page integer fields, e.g. "referenced", "rrpv". */
	fields: string[];
	hands: HandInfo[];
	/** The policy's own counters, e.g. "pgactivate". */
	counters: string[];
	/** Numbers of the policy as a whole that its decisions depend on, e.g. LeCaR's "w_lru" (thousandths). */
	variables: string[];
}

/* ---------------------------------------------------------- page numbers */

/**
 * A page number, exact to 64 bits: a number when it is at most
 * Number.MAX_SAFE_INTEGER, a bigint above.  Each value has exactly one
 * form, so `===`, Set and Map compare page numbers correctly.
 */
export type PageNumber = number | bigint;

/**
 * The page numbers of a trace's dense ids: a Float64Array when every one
 * fits in a double exactly, else a BigUint64Array.  Read with pageOf().
 */
export type PageTable = Float64Array | BigUint64Array;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The one form of a page number: a number when exact as one, else the bigint. */
export function pageNumber(value: bigint): PageNumber {
	return value <= SAFE ? Number(value) : value;
}

/** The page number of dense id `id` in `table`. */
export function pageOf(table: PageTable, id: number): PageNumber {
	const value = table[id];
	return typeof value === 'number' ? value : pageNumber(value);
}

/** Orders page numbers (for sort()), whichever form each has. */
export function comparePages(a: PageNumber, b: PageNumber): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The page number of each reference of a trace: ids[i] indexes `numbers`. */
export interface PageSequence {
	ids: Uint32Array;
	numbers: PageTable;
}

/** The page referenced by reference i (0-based) of `pages`. */
export function pageAt(pages: PageSequence, i: number): PageNumber {
	return pageOf(pages.numbers, pages.ids[i]);
}

/** The first n references of `pages` (shares their memory). */
export function firstPages(pages: PageSequence, n: number): PageSequence {
	return { ids: pages.ids.subarray(0, n), numbers: pages.numbers };
}

/* ----------------------------------------------------------------- trace */

/** How a synthetic trace is generated (wasm/generator.ts does the work, in the worker). */
export type GeneratorSpec =
	| { kind: 'uniform'; length: number; pages: number; seed: number }
	| { kind: 'zipf'; length: number; pages: number; exponent: number; seed: number }
	| { kind: 'loop'; length: number; pages: number }
	| {
			kind: 'phases';
			length: number;
			/** Each phase draws uniformly from its own working set. */
			phases: number;
			workingSet: number;
			seed: number;
	  };

export type TraceSource =
	/** A reference string: "7 0 1 2 0w 3", decimal or 0x-hex, 'w' marks a write. */
	| { kind: 'text'; text: string; name?: string }
	/** The bytes of a trace file in any format the core reads. */
	| { kind: 'file'; name: string; bytes: Uint8Array }
	/** Page numbers directly (writes[i] != 0 marks a write). */
	| { kind: 'pages'; pages: Uint32Array; writes?: Uint8Array }
	/** Generated in the worker, so a 10M-reference trace never blocks the page. */
	| { kind: 'generator'; spec: GeneratorSpec };

export interface TraceInfo {
	references: number;
	distinctPages: number;
	/** Page number of each reference, in order. */
	pages: PageSequence;
	/** 1 where the reference writes its page. */
	writes: Uint8Array;
}

/* ------------------------------------------------------------ simulation */

export interface Stats {
	references: number;
	hits: number;
	misses: number;
	evictions: number;
	writebacks: number;
}

/** Parameter values by name; a missing name takes the default. */
export type ParamValues = Record<string, number>;

export interface SimulateRequest {
	policy: string;
	frames: number;
	params?: ParamValues;
	trace: TraceSource;
	/**
	 * Keep the event log and snapshot checkpoints, and return a Session for
	 * seeking.  Costs memory per event: use it only for what the step view
	 * shows, and stats-only runs for big traces.
	 */
	record?: boolean;
	/**
	 * With record: record only the first recordSteps references (the
	 * session's steps); stats and outcome still cover the whole trace.
	 */
	recordSteps?: number;
	/** Leave out TraceInfo.pages/writes from the result (big traces). */
	omitTrace?: boolean;
}

export interface SimulateResult {
	policy: string;
	frames: number;
	stats: Stats;
	/** The policy's counters by name (PolicyInfo.counters). */
	counters: Record<string, number>;
	/** outcome[i] is 1 if reference i hit, 0 if it faulted. */
	outcome: Uint8Array;
	trace: TraceInfo;
	/** Present when the request asked to record. */
	session?: Session;
}

export interface FaultsByFramesRequest {
	policy: string;
	params?: ParamValues;
	trace: TraceSource;
	frames: number[];
}

/** Misses at several frame counts (ascending, distinct), each policy in one call. */
export interface MissCurveRequest {
	policy: string;
	params?: ParamValues;
	trace: TraceSource;
	frames: number[];
}

export interface MissCurve {
	frames: number[];
	/** misses[i] at frames[i]. */
	misses: Float64Array;
	references: number;
	/** 'one pass': lru's stack distances or OPT's stack; 'per size': one run per frame count. */
	method: 'one pass' | 'per size';
}

/** Denning's lifetime function from one pass: WS at each tau, LRU at each frame count. */
export interface LifetimeRequest {
	trace: TraceSource;
	taus: number[];
	frames: number[];
}

/** One point of a lifetime function: a window tau or a frame count. */
export interface LifetimePoint {
	size: number;
	meanResident: number;
	faults: number;
}

export interface LifetimePoints {
	references: number;
	ws: LifetimePoint[];
	lru: LifetimePoint[];
}

/** The working-set size |W(t, tau)| averaged over `points` buckets of steps. */
export interface WorkingSetRequest {
	trace: TraceSource;
	tau: number;
	points: number;
}

export interface FramesPoint {
	frames: number;
	stats: Stats;
}

/* --------------------------------------------------------------- session */

export type EventKind =
	| 'hit'
	| 'miss'
	| 'victim'
	| 'evict'
	| 'insert'
	| 'move'
	| 'remove'
	| 'set'
	| 'hand'
	| 'variable';

/** In the order of enum pl_event_kind. */
export const EVENT_KINDS: readonly EventKind[] = [
	'hit',
	'miss',
	'victim',
	'evict',
	'insert',
	'move',
	'remove',
	'set',
	'hand',
	'variable',
];

/**
 * One event, decoded.  Meaning of arg/a/b by kind (pagelab.h):
 *   evict   page left memory from list `arg`; a = 1 if it was dirty
 *   insert  page entered list `arg` at position b
 *   move    page moved from list a to list `arg`, position b
 *   remove  page dropped from (ghost) list `arg`
 *   set     page's field `arg` changed from a to b
 *   hand    hand `arg` moved from position a to b (page is null)
 *   variable  policy variable `arg` changed from a to b (page is null)
 */
export interface PolicyEvent {
	step: number;
	kind: EventKind;
	arg: number;
	/** Page number, or null for hand and variable events. */
	page: PageNumber | null;
	a: number;
	b: number;
}

/**
 * Events in parallel typed arrays (what the step view keeps for a whole
 * recording): event i is kind[i] (index into EVENT_KINDS), arg[i], page[i]
 * (the page's dense id, an index into `numbers`; NO_PAGE for hand events),
 * a[i], b[i]; the events of reference s are [start[s - from], start[s - from + 1]).
 */
export interface EventArrays {
	from: number;
	to: number;
	start: Uint32Array;
	kind: Uint8Array;
	arg: Uint16Array;
	page: Uint32Array;
	/** Page number of each dense id. */
	numbers: PageTable;
	a: Int32Array;
	b: Int32Array;
}

/** EventArrays.page of an event without a page (a hand moved). */
export const NO_PAGE = 0xffffffff;

/** Event i of `arrays`, which belongs to reference `step`, as a PolicyEvent. */
export function eventAt(arrays: Omit<EventArrays, 'from' | 'to' | 'start'>, i: number, step: number): PolicyEvent {
	return {
		step,
		kind: EVENT_KINDS[arrays.kind[i]],
		arg: arrays.arg[i],
		page: arrays.page[i] === NO_PAGE ? null : pageOf(arrays.numbers, arrays.page[i]),
		a: arrays.a[i],
		b: arrays.b[i],
	};
}

export interface SnapshotEntry {
	page: PageNumber;
	/** values[f] is field f (PolicyInfo.fields) of this page. */
	values: number[];
}

/**
 * A snapshot as the worker sends it: typed arrays (transferred, not
 * copied), no object per page, so a 4096-frame structure costs the page
 * nothing until a view reads the entries it draws.
 */
export interface SnapshotData {
	step: number;
	/** lengths[l] entries of list l; list l's entries follow list l-1's. */
	lengths: number[];
	/** Dense page id of each entry (an index into the session's page table). */
	ids: Uint32Array;
	/** Field f of entry e is values[e * nfields + f]. */
	values: Int32Array;
	nfields: number;
	hands: number[];
	variables: number[];
	counters: number[];
	countersBefore: number[];
}

/**
 * One list of a snapshot, head to tail.  Entries are decoded when read
 * (at, page, value), so drawing the rows in view of a long list costs
 * those rows only.
 */
export class SnapshotList implements Iterable<SnapshotEntry> {
	constructor(
		private readonly data: SnapshotData,
		private readonly numbers: PageTable,
		/** Index of this list's first entry in data.ids. */
		private readonly begin: number,
		readonly length: number,
	) {}

	/** The page number of entry i (0 <= i < length). */
	page(i: number): PageNumber {
		return pageOf(this.numbers, this.data.ids[this.begin + i]);
	}

	/** Field f of entry i. */
	value(i: number, f: number): number {
		return this.data.values[(this.begin + i) * this.data.nfields + f];
	}

	/** Entry i decoded, or undefined outside 0..length-1 (as Array.prototype.at, without negative indexes). */
	at(i: number): SnapshotEntry | undefined {
		if (!(i >= 0 && i < this.length)) return undefined;
		const from = (this.begin + i) * this.data.nfields;
		return { page: this.page(i), values: Array.from(this.data.values.subarray(from, from + this.data.nfields)) };
	}

	/** Where `page` is in the list, or -1; compares in the table's own form, decoding nothing. */
	indexOfPage(page: PageNumber): number {
		const { ids } = this.data;
		const numbers = this.numbers;
		const wanted = numbers instanceof BigUint64Array ? BigInt(page) : page;
		for (let i = 0; i < this.length; i++) if (numbers[ids[this.begin + i]] === wanted) return i;
		return -1;
	}

	/** Decimal digits of the largest page number among the first `count` entries (1 if none). */
	widestDigits(count = this.length): number {
		let widest: number | bigint = 0;
		for (let i = 0; i < Math.min(count, this.length); i++) {
			const number = this.numbers[this.data.ids[this.begin + i]];
			if (number > widest) widest = number;
		}
		return String(widest).length;
	}

	map<T>(fn: (entry: SnapshotEntry, i: number) => T): T[] {
		return Array.from({ length: this.length }, (_, i) => fn(this.at(i)!, i));
	}

	*[Symbol.iterator](): Iterator<SnapshotEntry> {
		for (let i = 0; i < this.length; i++) yield this.at(i)!;
	}
}

export interface Snapshot {
	step: number;
	/** lists[i] holds PolicyInfo.lists[i]'s pages from head to tail. */
	lists: SnapshotList[];
	/** hands[h] is the position of hand h in its list. */
	hands: number[];
	/** variables[v] is PolicyInfo.variables[v] at this step (0 before the first reference). */
	variables: number[];
	/** counters[c] is PolicyInfo.counters[c] after this step (kept per step by a recorded run). */
	counters: number[];
	/** The same counters one step earlier (at step 0: the counters themselves, all 0). */
	countersBefore: number[];
}

/** The Snapshot of `data`, its page ids read through the session's table `numbers`. */
export function snapshotOf(data: SnapshotData, numbers: PageTable): Snapshot {
	let begin = 0;
	const lists = data.lengths.map((length) => {
		const list = new SnapshotList(data, numbers, begin, length);
		begin += length;
		return list;
	});
	return { step: data.step, lists, hands: data.hands, variables: data.variables, counters: data.counters, countersBefore: data.countersBefore };
}

/** A Snapshot of plain lists of entries (page numbers up to 2^53), for tests and tools. */
export function snapshotFromEntries(step: number, lists: SnapshotEntry[][], hands: number[] = []): Snapshot {
	const entries = lists.flat();
	const nfields = entries[0]?.values.length ?? 0;
	const data: SnapshotData = {
		step,
		lengths: lists.map((list) => list.length),
		ids: Uint32Array.from(entries, (_, i) => i),
		values: Int32Array.from(entries.flatMap((entry) => entry.values)),
		nfields,
		hands,
		variables: [],
		counters: [],
		countersBefore: [],
	};
	return snapshotOf(data, Float64Array.from(entries, (entry) => Number(entry.page)));
}

export interface Session {
	readonly policy: PolicyInfo;
	readonly frames: number;
	/** Recorded references; steps run from 0 to this. */
	readonly steps: number;
	/** The policy's structure at step k (0 <= k <= steps). */
	snapshot(step: number): Promise<Snapshot>;
	/** Events of references from..to-1, in order (to - from <= 100 000). */
	events(from: number, to: number): Promise<PolicyEvent[]>;
	/** The same events as typed arrays: cheap to move for a whole recording. */
	eventArrays(from: number, to: number): Promise<EventArrays>;
	/** Frees the recording in the worker; the session is unusable after. */
	dispose(): Promise<void>;
}

/* ---------------------------------------------------------------- client */

/** done/total in references (or in runs for faultsByFrames). */
export type ProgressCallback = (done: number, total: number) => void;

export interface CallOptions {
	onProgress?: ProgressCallback;
	/** Aborting rejects the call with an AbortError and stops the work. */
	signal?: AbortSignal;
}

export interface PagelabClient {
	listPolicies(): Promise<PolicyInfo[]>;
	/** Parses a trace without simulating (validation, previews). */
	loadTrace(trace: TraceSource, options?: CallOptions): Promise<TraceInfo>;
	simulate(request: SimulateRequest, options?: CallOptions): Promise<SimulateResult>;
	faultsByFrames(request: FaultsByFramesRequest, options?: CallOptions): Promise<FramesPoint[]>;
	/** A miss-ratio curve in one call: one pass for lru and opt, one run per size (with progress) for the others. */
	missCurve(request: MissCurveRequest, options?: CallOptions): Promise<MissCurve>;
	lifetime(request: LifetimeRequest, options?: CallOptions): Promise<LifetimePoints>;
	workingSetSeries(request: WorkingSetRequest, options?: CallOptions): Promise<Float64Array>;
	/** Ends the worker; every pending call rejects. */
	dispose(): void;
}

/** Bad input or a failed call; `message` is the core's one-line diagnosis. */
export class PagelabError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PagelabError';
	}
}
