/*
 * engine.ts - synchronous TypeScript over the flat C ABI (abi.c).
 *
 * The engine turns handles, pointers and C strings into the types of
 * protocol.ts.  It runs wherever the module is: inside the Web Worker
 * (host.ts) and directly under Node in the tests.  It never blocks for long
 * on its own: simulations advance in chunks that the caller schedules.
 *
 * Invariants
 *   - Every C string or buffer the engine allocates is freed before the call
 *     that allocated it returns (try/finally).
 *   - Failures of the core become PagelabError with the core's message.
 *   - Page numbers handed out are the trace's own numbers, never dense ids,
 *     exact to 64 bits (the core keeps them as uint64_t; the engine reads
 *     both 32-bit halves from memory, see pageNumbers()).
 */
import type { PagelabModule } from './module';
import {
	eventAt,
	PagelabError,
	type PageTable,
	type EventArrays,
	type LifetimePoint,
	type ParamValues,
	type PolicyEvent,
	type PolicyInfo,
	type SnapshotData,
	type Stats,
	type TraceInfo,
} from './protocol';

/** enum pl_mrc_method's PL_MRC_PER_SIZE (analysis.h). */
const MRC_PER_SIZE = 2;

const EVENT_WORDS = 5;
/** Steps whose events the core decodes at once (eventArrays). */
const EVENT_CHUNK = 4096;
const MAX_LISTS = 8;
const MAX_HANDS = 3;
const MAX_VARIABLES = 4;

export class Engine {
	private readonly policies: PolicyInfo[];
	/* Each open simulation's number of policy counters, for its snapshots. */
	private readonly simCounters = new Map<number, number>();

	constructor(private readonly m: PagelabModule) {
		this.policies = [];
		for (let i = 0; i < m._pl_abi_policy_count(); i++) this.policies.push(this.describe(i));
	}

	listPolicies(): PolicyInfo[] {
		return this.policies;
	}

	policyIndex(name: string): number {
		const index = this.policies.findIndex((p) => p.name === name);
		if (index < 0) {
			const known = this.policies.map((p) => p.name).join(', ');
			throw new PagelabError(`policy: '${name}' is not a policy (known: ${known})`);
		}
		return index;
	}

	/* ------------------------------------------------------------ traces */

	/** A new trace parsed from a reference string; returns its handle. */
	traceFromText(text: string, name: string): number {
		return this.newTrace((t) =>
			this.withStrings([text, name], ([textPtr, namePtr]) =>
				this.m._pl_abi_trace_parse_refs(t, textPtr, namePtr),
			),
		);
	}

	/** A new trace read from file bytes in any format the core reads. */
	traceFromFile(bytes: Uint8Array, name: string): number {
		return this.newTrace((t) =>
			this.withBuffer(bytes, (buf) =>
				this.withStrings([name], ([namePtr]) =>
					this.m._pl_abi_trace_read_buffer(t, buf, bytes.length, namePtr),
				),
			),
		);
	}

	/** A new trace of the given page numbers (writes[i] != 0: a write). */
	traceFromPages(pages: Uint32Array, writes?: Uint8Array): number {
		return this.newTrace((t) =>
			this.withBuffer(new Uint8Array(pages.buffer, pages.byteOffset, pages.byteLength), (p) =>
				writes
					? this.withBuffer(writes, (w) => this.m._pl_abi_trace_add_pages(t, p, w, pages.length))
					: this.m._pl_abi_trace_add_pages(t, p, 0, pages.length),
			),
		);
	}

	/** A new trace holding the first n references of trace t. */
	tracePrefix(t: number, n: number): number {
		const prefix = this.m._pl_abi_trace_prefix(t, n);
		if (prefix < 0) throw new PagelabError(this.lastError());
		return prefix;
	}

	freeTrace(t: number): void {
		this.m._pl_abi_trace_free(t);
	}

	traceLength(t: number): number {
		return this.m._pl_abi_trace_length(t);
	}

	/**
	 * Page number of each dense id of trace t, exact: the core's uint64_t
	 * array read as two 32-bit words each (no BigInt crosses the ABI).  A
	 * Float64Array while every number fits 53 bits, else a BigUint64Array.
	 */
	pageNumbers(t: number): PageTable {
		const npages = this.m._pl_abi_trace_npages(t);
		const base = this.m._pl_abi_trace_numbers(t) >>> 2;
		const words = this.m.HEAPU32;
		let wide = false;
		for (let i = 0; i < npages && !wide; i++) wide = words[base + 2 * i + 1] >= 2 ** 21;
		if (wide) {
			const numbers = new BigUint64Array(npages);
			for (let i = 0; i < npages; i++)
				numbers[i] = (BigInt(words[base + 2 * i + 1]) << 32n) | BigInt(words[base + 2 * i]);
			return numbers;
		}
		const numbers = new Float64Array(npages);
		for (let i = 0; i < npages; i++) numbers[i] = words[base + 2 * i] + words[base + 2 * i + 1] * 2 ** 32;
		return numbers;
	}

	traceInfo(t: number, withPages: boolean): TraceInfo {
		const n = this.m._pl_abi_trace_length(t);
		const distinctPages = this.m._pl_abi_trace_npages(t);
		if (!withPages)
			return { references: n, distinctPages, pages: { ids: new Uint32Array(0), numbers: new Float64Array(0) }, writes: new Uint8Array(0) };
		const idsAt = this.m._pl_abi_trace_pages(t) >>> 2;
		const ids = this.m.HEAPU32.slice(idsAt, idsAt + n);
		const flags = this.m.HEAPU8.subarray(this.m._pl_abi_trace_flags(t));
		const writes = new Uint8Array(n);
		for (let i = 0; i < n; i++) writes[i] = flags[i] & 1;
		return { references: n, distinctPages, pages: { ids, numbers: this.pageNumbers(t) }, writes };
	}

	/* ------------------------------------------------------- simulations */

	createSim(
		policy: string,
		frames: number,
		params: ParamValues | undefined,
		trace: number,
		record: boolean,
	): number {
		const index = this.policyIndex(policy);
		if (!Number.isInteger(frames) || frames < 1)
			throw new PagelabError(`frames: '${frames}' is not a whole number of frames >= 1`);
		const assignments = Object.entries(params ?? {})
			.map(([name, value]) => `${name}=${value}`)
			.join('\n');
		const sim = this.withStrings([assignments], ([paramsPtr]) =>
			this.m._pl_abi_sim_create(index, frames, trace, paramsPtr, record ? 1 : 0, 0),
		);
		if (sim < 0) throw new PagelabError(this.lastError());
		this.simCounters.set(sim, this.policies[index].counters.length);
		return sim;
	}

	freeSim(sim: number): void {
		this.simCounters.delete(sim);
		this.m._pl_abi_sim_free(sim);
	}

	/**
	 * Runs up to `steps` references, writing each outcome (1 hit, 0 fault)
	 * into `outcome` at its step.  Returns how many ran; throws if the policy
	 * broke an invariant.
	 */
	run(sim: number, steps: number, outcome: Uint8Array): number {
		const from = this.m._pl_abi_sim_position(sim);
		const buf = this.m._malloc(Math.max(1, steps));
		try {
			const done = this.m._pl_abi_sim_run(sim, steps, buf);
			outcome.set(this.m.HEAPU8.subarray(buf, buf + done), from);
			const error = this.m._pl_abi_sim_error(sim);
			if (error) throw new PagelabError(this.m.UTF8ToString(error));
			return done;
		} finally {
			this.m._free(buf);
		}
	}

	stats(sim: number): Stats {
		const stat = (which: number) => this.m._pl_abi_sim_stat(sim, which);
		return {
			references: stat(0),
			hits: stat(1),
			misses: stat(2),
			evictions: stat(3),
			writebacks: stat(4),
		};
	}

	counters(sim: number, policy: string): Record<string, number> {
		const names = this.policies[this.policyIndex(policy)].counters;
		return Object.fromEntries(names.map((name, c) => [name, this.m._pl_abi_sim_counter(sim, c)]));
	}

	/** The structure at `step` as typed arrays of dense page ids and field values. */
	snapshot(sim: number, step: number): SnapshotData {
		const at = this.m._pl_abi_sim_seek(sim, step);
		if (!at) throw new PagelabError(`step ${step}: ${this.lastError()}`);
		const w = this.m.HEAP32.subarray(at >>> 2, (at >>> 2) + 4 + MAX_LISTS + MAX_HANDS + 3 + MAX_VARIABLES);
		const [nlists, nfields, nhands] = [w[0], w[1], w[2]];
		const lengths = Array.from(w.subarray(4, 4 + nlists));
		const total = lengths.reduce((sum, length) => sum + length, 0);
		const pagesAt = w[4 + MAX_LISTS + MAX_HANDS] >>> 2;
		const valuesAt = w[4 + MAX_LISTS + MAX_HANDS + 1] >>> 2;
		const hands = Array.from(w.subarray(4 + MAX_LISTS, 4 + MAX_LISTS + nhands));
		const ids = this.m.HEAPU32.slice(pagesAt, pagesAt + total);
		const values = this.m.HEAP32.slice(valuesAt, valuesAt + total * nfields);
		const variablesAt = 4 + MAX_LISTS + MAX_HANDS + 2;
		const variables = Array.from(w.subarray(variablesAt + 1, variablesAt + 1 + w[variablesAt]));
		const counters = this.countersAt(sim, step);
		const countersBefore = step > 0 ? this.countersAt(sim, step - 1) : counters;
		return { step, lengths, ids, values, nfields, hands, variables, counters, countersBefore };
	}

	/** A recorded simulation's counters after `step` (PolicyInfo.counters order; none if the policy has none). */
	private countersAt(sim: number, step: number): number[] {
		const n = this.simCounters.get(sim) ?? 0;
		if (!n) return [];
		const at = this.m._pl_abi_sim_counters_at(sim, step);
		if (!at) throw new PagelabError(`step ${step}: ${this.lastError()}`);
		return Array.from(this.m.HEAPF64.subarray(at >>> 3, (at >>> 3) + n));
	}

	/** Events of references from..to-1, page numbers translated through `numbers`. */
	events(sim: number, from: number, to: number, numbers: PageTable): PolicyEvent[] {
		const arrays = this.eventArrays(sim, from, to, numbers);
		const events: PolicyEvent[] = [];
		for (let ref = from; ref < to; ref++)
			for (let i = arrays.start[ref - from]; i < arrays.start[ref - from + 1]; i++) events.push(eventAt(arrays, i, ref));
		return events;
	}

	/** Events of references from..to-1 as parallel typed arrays. */
	eventArrays(sim: number, from: number, to: number, numbers: PageTable): EventArrays {
		const begin = to > from ? this.m._pl_abi_sim_event_bound(sim, from, 0) : 0;
		const end = to > from ? this.m._pl_abi_sim_event_bound(sim, to - 1, 1) : 0;
		const n = end - begin;
		const out: EventArrays = {
			from,
			to,
			start: new Uint32Array(Math.max(0, to - from) + 1),
			kind: new Uint8Array(n),
			arg: new Uint16Array(n),
			page: new Uint32Array(n),
			numbers,
			a: new Int32Array(n),
			b: new Int32Array(n),
		};
		// The core keeps events encoded; it decodes EVENT_CHUNK steps at a
		// time into a buffer of its own, so that buffer stays small.
		let ref = from;
		let i = 0;
		for (let chunk = from; chunk < to; chunk += EVENT_CHUNK) {
			const chunkEnd = Math.min(to, chunk + EVENT_CHUNK);
			const chunkEvents = (chunkEnd < to ? this.m._pl_abi_sim_event_bound(sim, chunkEnd, 0) : end) - begin;
			const ptr = this.m._pl_abi_sim_events(sim, chunk, chunkEnd);
			if (!ptr && chunkEvents > i) throw new PagelabError('out of memory decoding the event log');
			const words = this.m.HEAP32;
			for (let at = ptr >>> 2; i < chunkEvents; i++, at += EVENT_WORDS) {
				const step = words[at] >>> 0;
				while (ref < step) out.start[++ref - from] = i;
				out.kind[i] = words[at + 1] & 0xffff;
				out.arg[i] = words[at + 1] >>> 16;
				/* The core's PL_NONE (no page, a hand event) is NO_PAGE. */
				out.page[i] = words[at + 2] >>> 0;
				out.a[i] = words[at + 3];
				out.b[i] = words[at + 4];
			}
		}
		while (ref < to) out.start[++ref - from] = n;
		return out;
	}

	/* ----------------------------------------------------------- helpers */

	/* ---------------------------------------------------------- analyses */

	/**
	 * Misses at each frame count (ascending, distinct): one pass for lru
	 * (stack distances) and opt (OPT's stack), one run per size otherwise.
	 */
	missCurve(trace: number, policy: string, params: ParamValues | undefined, frames: number[]): number[] {
		const index = this.policyIndex(policy);
		const assignments = Object.entries(params ?? {})
			.map(([name, value]) => `${name}=${value}`)
			.join('\n');
		const at = this.withStrings([assignments], ([paramsPtr]) =>
			this.withBuffer(new Uint8Array(Uint32Array.from(frames).buffer), (framesPtr) =>
				this.m._pl_abi_mrc(trace, index, paramsPtr, framesPtr, frames.length),
			),
		);
		return this.doubles(at, frames.length);
	}

	/** Whether missCurve() makes `policy`'s curve in one pass (lru, opt) or one run per size. */
	missCurveInOnePass(policy: string): boolean {
		return this.m._pl_abi_mrc_method(this.policyIndex(policy)) !== MRC_PER_SIZE;
	}

	/**
	 * Denning's lifetime points from one pass: the working set at each tau
	 * and LRU at each frame count, as mean resident set and faults.
	 */
	lifetime(trace: number, taus: number[], frames: number[]): { ws: LifetimePoint[]; lru: LifetimePoint[] } {
		const words = new Uint8Array(Uint32Array.from([...taus, ...frames]).buffer);
		const at = this.withBuffer(words, (ptr) =>
			this.m._pl_abi_lifetime(trace, ptr, taus.length, ptr + 4 * taus.length, frames.length),
		);
		const values = this.doubles(at, 2 * (taus.length + frames.length));
		const point = (i: number, size: number) => ({ size, meanResident: values[2 * i], faults: values[2 * i + 1] });
		return {
			ws: taus.map((tau, i) => point(i, tau)),
			lru: frames.map((f, j) => point(taus.length + j, f)),
		};
	}

	/** The working-set size |W(t, tau)| averaged over `points` buckets of steps. */
	workingSetSeries(trace: number, tau: number, points: number): number[] {
		return this.doubles(this.m._pl_abi_wss(trace, tau, points), points);
	}

	private doubles(at: number, n: number): number[] {
		if (!at) throw new PagelabError(this.lastError());
		return Array.from(this.m.HEAPF64.subarray(at >>> 3, (at >>> 3) + n));
	}

	private describe(i: number): PolicyInfo {
		const m = this.m;
		const str = (ptr: number) => m.UTF8ToString(ptr);
		const range = (n: number) => Array.from({ length: n }, (_, k) => k);
		return {
			name: str(m._pl_abi_policy_name(i)),
			title: str(m._pl_abi_policy_title(i)),
			help: str(m._pl_abi_policy_help(i)),
			params: range(m._pl_abi_policy_nparams(i)).map((p) => ({
				name: str(m._pl_abi_param_name(i, p)),
				help: str(m._pl_abi_param_help(i, p)),
				def: m._pl_abi_param_bound(i, p, 0),
				min: m._pl_abi_param_bound(i, p, 1),
				max: m._pl_abi_param_bound(i, p, 2),
				choices: this.choices(i, p),
			})),
			lists: range(m._pl_abi_policy_nlists(i)).map((l) => ({
				name: str(m._pl_abi_list_name(i, l)),
				ghost: m._pl_abi_list_is_ghost(i, l) !== 0,
			})),
			fields: range(m._pl_abi_policy_nfields(i)).map((f) => str(m._pl_abi_field_name(i, f))),
			hands: range(m._pl_abi_policy_nhands(i)).map((h) => ({
				name: str(m._pl_abi_hand_name(i, h)),
				list: m._pl_abi_hand_list(i, h),
			})),
			counters: range(m._pl_abi_policy_ncounters(i)).map((c) => str(m._pl_abi_counter_name(i, c))),
			variables: range(m._pl_abi_policy_nvariables(i)).map((v) => str(m._pl_abi_variable_name(i, v))),
		};
	}

	private choices(i: number, p: number): string[] | null {
		const names: string[] = [];
		for (let c = 0, ptr; (ptr = this.m._pl_abi_param_choice(i, p, c)); c++)
			names.push(this.m.UTF8ToString(ptr));
		return names.length ? names : null;
	}

	private lastError(): string {
		return this.m.UTF8ToString(this.m._pl_abi_error());
	}

	private newTrace(fill: (t: number) => number): number {
		const t = this.m._pl_abi_trace_new();
		if (t < 0) throw new PagelabError(this.lastError());
		if (fill(t) < 0) {
			const message = this.lastError();
			this.m._pl_abi_trace_free(t);
			throw new PagelabError(message);
		}
		return t;
	}

	private withStrings<T>(texts: string[], use: (ptrs: number[]) => T): T {
		const ptrs = texts.map((text) => {
			const bytes = this.m.lengthBytesUTF8(text) + 1;
			const ptr = this.m._malloc(bytes);
			this.m.stringToUTF8(text, ptr, bytes);
			return ptr;
		});
		try {
			return use(ptrs);
		} finally {
			ptrs.forEach((ptr) => this.m._free(ptr));
		}
	}

	private withBuffer<T>(bytes: Uint8Array, use: (ptr: number) => T): T {
		const ptr = this.m._malloc(Math.max(1, bytes.length));
		this.m.HEAPU8.set(bytes, ptr);
		try {
			return use(ptr);
		} finally {
			this.m._free(ptr);
		}
	}
}
