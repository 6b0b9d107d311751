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
 *     file), never the core's dense ids; the client translates.
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
	pages: Float64Array;
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
	| 'hand';

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
];

/**
 * One event, decoded.  Meaning of arg/a/b by kind (pagelab.h):
 *   evict   page left memory from list `arg`; a = 1 if it was dirty
 *   insert  page entered list `arg` at position b
 *   move    page moved from list a to list `arg`, position b
 *   remove  page dropped from (ghost) list `arg`
 *   set     page's field `arg` changed from a to b
 *   hand    hand `arg` moved from position a to b (page is null)
 */
export interface PolicyEvent {
	step: number;
	kind: EventKind;
	arg: number;
	/** Page number, or null for hand events. */
	page: number | null;
	a: number;
	b: number;
}

/**
 * Events in parallel typed arrays (what the step view keeps for a whole
 * recording): event i is kind[i] (index into EVENT_KINDS), arg[i], page[i]
 * (page number, -1 for hand events), a[i], b[i]; the events of reference s
 * are [start[s - from], start[s - from + 1]).
 */
export interface EventArrays {
	from: number;
	to: number;
	start: Uint32Array;
	kind: Uint8Array;
	arg: Uint16Array;
	page: Float64Array;
	a: Int32Array;
	b: Int32Array;
}

/** Event i of `arrays`, which belongs to reference `step`, as a PolicyEvent. */
export function eventAt(arrays: Omit<EventArrays, 'from' | 'to' | 'start'>, i: number, step: number): PolicyEvent {
	return {
		step,
		kind: EVENT_KINDS[arrays.kind[i]],
		arg: arrays.arg[i],
		page: arrays.page[i] < 0 ? null : arrays.page[i],
		a: arrays.a[i],
		b: arrays.b[i],
	};
}

export interface SnapshotEntry {
	page: number;
	/** values[f] is field f (PolicyInfo.fields) of this page. */
	values: number[];
}

export interface Snapshot {
	step: number;
	/** lists[i] holds PolicyInfo.lists[i]'s pages from head to tail. */
	lists: SnapshotEntry[][];
	/** hands[h] is the position of hand h in its list. */
	hands: number[];
	/** counters[c] is PolicyInfo.counters[c] after this step (kept per step by a recorded run). */
	counters: number[];
	/** The same counters one step earlier (at step 0: the counters themselves, all 0). */
	countersBefore: number[];
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
