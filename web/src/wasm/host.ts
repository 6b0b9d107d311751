/*
 * host.ts - the worker side of the client protocol: answers requests with
 * the engine, in chunks, so that progress flows and cancels are heard.
 *
 * The host is plain TypeScript with a `post` callback, so the same code runs
 * in the Web Worker (worker.ts wires it to postMessage) and in the tests
 * (wired straight to a client in the same thread).
 *
 * Invariants
 *   - Every request gets exactly one final reply (ok or error); progress
 *     replies come before it.
 *   - Nothing the host allocates in the module outlives a request, except a
 *     recorded session's simulation and trace, freed by disposeSession.
 *   - Long loops yield to the event loop between chunks, so a cancel
 *     message arriving meanwhile stops the work at the next chunk.
 */
import type { Engine } from './engine';
import { generate } from './generator';
import {
	PagelabError,
	type FaultsByFramesRequest,
	type FramesPoint,
	type LifetimePoints,
	type LifetimeRequest,
	type MissCurve,
	type MissCurveRequest,
	type WorkingSetRequest,
	type PageTable,
	type ParamValues,
	type SimulateRequest,
	type SimulateResult,
	type TraceSource,
} from './protocol';

/** References simulated between two progress reports / cancel checks. */
const CHUNK = 1 << 18;

/**
 * A trace as it crosses to the worker: as given, or (a big one, after the
 * first call) the key under which the host keeps it (storeTrace).
 */
export type WireTrace = TraceSource | { kind: 'stored'; key: number };

/** A request body with its trace as it crosses to the worker. */
type Wired<R> = Omit<R, 'trace'> & { trace: WireTrace };

export type Request =
	| { id: number; method: 'listPolicies' }
	| { id: number; method: 'loadTrace'; trace: WireTrace }
	| { id: number; method: 'simulate'; request: Wired<SimulateRequest> }
	| { id: number; method: 'faultsByFrames'; request: Wired<FaultsByFramesRequest> }
	| { id: number; method: 'missCurve'; request: Wired<MissCurveRequest> }
	| { id: number; method: 'lifetime'; request: Wired<LifetimeRequest> }
	| { id: number; method: 'workingSetSeries'; request: Wired<WorkingSetRequest> }
	| { id: number; method: 'storeTrace'; key: number; trace: TraceSource }
	| { id: number; method: 'dropTrace'; key: number }
	| { id: number; method: 'snapshot'; session: number; step: number }
	| { id: number; method: 'events'; session: number; from: number; to: number }
	| { id: number; method: 'eventArrays'; session: number; from: number; to: number }
	| { id: number; method: 'disposeSession'; session: number }
	| { id: number; method: 'cancel'; target: number };

/** What `simulate` sends back: the result with the session as a number. */
export type SimulateReply = Omit<SimulateResult, 'session'> & {
	session?: number;
	sessionSteps?: number;
	/** The session's page table, sent once: its snapshots carry dense ids into it. */
	sessionNumbers?: PageTable;
};

export type Reply =
	| { id: number; progress: [number, number] }
	| { id: number; ok: true; value: unknown }
	| { id: number; ok: false; error: string; aborted: boolean };

export type Post = (reply: Reply, transfer?: Transferable[]) => void;

interface SessionState {
	sim: number;
	trace: number;
	numbers: PageTable;
	steps: number;
}

class Aborted extends Error {}

const MAX_EVENT_SPAN = 100_000;

/** How errors name a trace: its file or field, as the CLI names --trace and --refs. */
function traceName(source: TraceSource): string {
	switch (source.kind) {
		case 'text':
			return source.name ?? 'reference string';
		case 'file':
			return source.name;
		case 'pages':
			return 'trace';
		case 'generator':
			return `generator ${source.spec.kind}`;
	}
}

const GZIP_MAGIC = [0x1f, 0x8b];

/*
 * A gzip-compressed trace file inflated by the platform's DecompressionStream
 * (browsers, workers and Node 18+): the WebAssembly build carries no zlib
 * (Emscripten's zlib port is a download), so gzip is undone here, before
 * the core reads the bytes.  A truncated or corrupt file is an error naming
 * it, never a shorter trace.
 */
async function inflated(source: TraceSource): Promise<TraceSource> {
	if (source.kind !== 'file' || source.bytes[0] !== GZIP_MAGIC[0] || source.bytes[1] !== GZIP_MAGIC[1]) return source;
	try {
		const stream = new Blob([source.bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
		return { ...source, bytes: new Uint8Array(await new Response(stream).arrayBuffer()) };
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		throw new PagelabError(`${source.name}: not a whole gzip file (${why})`);
	}
}

/** A request whose trace is the source itself, inflated if it was gzip-compressed. */
type Resolved<R> = R extends { trace: WireTrace }
	? Omit<R, 'trace'> & { trace: TraceSource }
	: R extends { request: { trace: WireTrace } }
		? Omit<R, 'request'> & { request: Omit<R['request'], 'trace'> & { trace: TraceSource } }
		: R;
type ResolvedRequest = Resolved<Exclude<Request, { method: 'storeTrace' | 'dropTrace' | 'cancel' }>>;

export class Host {
	private readonly sessions = new Map<number, SessionState>();
	private readonly cancelled = new Set<number>();
	/* Traces the client sent once (storeTrace), inflated, by key: later calls name them (WireTrace). */
	private readonly stored = new Map<number, Promise<TraceSource>>();
	private nextSession = 1;

	constructor(
		private readonly engine: Promise<Engine>,
		private readonly post: Post,
	) {}

	/*
	 * cancel, storeTrace and dropTrace take effect at once, before any await,
	 * so a call that follows them in the queue already sees them; they get
	 * no reply (a bad stored gzip file fails the calls that use it).
	 */
	async handle(request: Request): Promise<void> {
		if (request.method === 'cancel') {
			this.cancelled.add(request.target);
			return;
		}
		if (request.method === 'storeTrace') {
			const source = inflated(request.trace);
			source.catch(() => {});
			this.stored.set(request.key, source);
			return;
		}
		if (request.method === 'dropTrace') {
			this.stored.delete(request.key);
			return;
		}
		const { id } = request;
		/* Looked up now, before any await: a dropTrace queued behind this call must not take its trace away. */
		const resolving = this.resolved(request);
		resolving.catch(() => {});
		try {
			const engine = await this.engine;
			const [value, transfer] = await this.answer(engine, await resolving);
			this.post({ id, ok: true, value }, transfer);
		} catch (error) {
			const aborted = error instanceof Aborted;
			const message = error instanceof Error ? error.message : String(error);
			this.post({ id, ok: false, error: aborted ? 'cancelled' : message, aborted });
		} finally {
			this.cancelled.delete(id);
		}
	}

	/* The source a wire trace stands for: a stored one looked up, a file inflated if it is gzip. */
	private async source(trace: WireTrace): Promise<TraceSource> {
		if (trace.kind !== 'stored') return inflated(trace);
		const stored = this.stored.get(trace.key);
		if (!stored) throw new PagelabError(`trace ${trace.key} was dropped or never stored`);
		return stored;
	}

	private async resolved(request: Exclude<Request, { method: 'storeTrace' | 'dropTrace' | 'cancel' }>): Promise<ResolvedRequest> {
		if (request.method === 'loadTrace') return { ...request, trace: await this.source(request.trace) };
		if ('request' in request) return { ...request, request: { ...request.request, trace: await this.source(request.request.trace) } } as ResolvedRequest;
		return request;
	}

	private async answer(engine: Engine, request: ResolvedRequest): Promise<[unknown, Transferable[]]> {
		switch (request.method) {
			case 'listPolicies':
				return [engine.listPolicies(), []];
			case 'loadTrace': {
				const t = this.loadTrace(engine, request.trace);
				try {
					const info = engine.traceInfo(t, true);
					return [info, [info.pages.ids.buffer, info.pages.numbers.buffer, info.writes.buffer]];
				} finally {
					engine.freeTrace(t);
				}
			}
			case 'simulate': {
				const reply = await this.simulate(engine, request.id, request.request);
				const { pages, writes } = reply.trace;
				const transfer = [reply.outcome.buffer, pages.ids.buffer, pages.numbers.buffer, writes.buffer];
				if (reply.sessionNumbers) transfer.push(reply.sessionNumbers.buffer);
				return [reply, transfer];
			}
			case 'faultsByFrames':
				return [await this.faultsByFrames(engine, request.id, request.request), []];
			case 'missCurve': {
				const curve = await this.missCurve(engine, request.id, request.request);
				return [curve, [curve.misses.buffer]];
			}
			case 'lifetime':
				return [this.withTrace(engine, request.request.trace, (t) => this.lifetime(engine, t, request.request)), []];
			case 'workingSetSeries': {
				const { trace, tau, points } = request.request;
				const series = this.withTrace(engine, trace, (t) => Float64Array.from(engine.workingSetSeries(t, tau, points)));
				return [series, [series.buffer]];
			}
			case 'snapshot': {
				const session = this.session(request.session);
				this.checkStep(session, request.step);
				const snapshot = engine.snapshot(session.sim, request.step);
				return [snapshot, [snapshot.ids.buffer, snapshot.values.buffer]];
			}
			case 'events': {
				const session = this.eventRange(request.session, request.from, request.to, MAX_EVENT_SPAN);
				return [engine.events(session.sim, request.from, request.to, session.numbers), []];
			}
			case 'eventArrays': {
				const session = this.eventRange(request.session, request.from, request.to, Infinity);
				/* The numbers are the session's own, kept for its next calls: copied, not moved. */
				const arrays = { ...engine.eventArrays(session.sim, request.from, request.to, session.numbers) };
				arrays.numbers = arrays.numbers.slice();
				const { start, kind, arg, page, numbers, a, b } = arrays;
				return [arrays, [start.buffer, kind.buffer, arg.buffer, page.buffer, numbers.buffer, a.buffer, b.buffer]];
			}
			case 'disposeSession': {
				const session = this.sessions.get(request.session);
				if (session) {
					engine.freeSim(session.sim);
					engine.freeTrace(session.trace);
					this.sessions.delete(request.session);
				}
				return [null, []];
			}
		}
	}

	/* A trace with no references is refused as the CLI refuses it: "<name>: no references". */
	private loadTrace(engine: Engine, source: TraceSource): number {
		const trace = this.readTrace(engine, source);
		if (engine.traceLength(trace) === 0) {
			engine.freeTrace(trace);
			throw new PagelabError(`${traceName(source)}: no references`);
		}
		return trace;
	}

	private readTrace(engine: Engine, source: TraceSource): number {
		switch (source.kind) {
			case 'text':
				return engine.traceFromText(source.text, source.name ?? 'reference string');
			case 'file':
				return engine.traceFromFile(source.bytes, source.name);
			case 'pages':
				return engine.traceFromPages(source.pages, source.writes);
			case 'generator':
				return engine.traceFromPages(generate(source.spec));
		}
	}

	private async simulate(engine: Engine, id: number, request: SimulateRequest): Promise<SimulateReply> {
		const trace = this.loadTrace(engine, request.trace);
		const n = engine.traceLength(trace);
		const recordSteps = request.record ? Math.min(n, request.recordSteps ?? n) : 0;
		/* Recording all of it: one recorded run; else a plain run, then a recorded prefix. */
		const recordAll = request.record && recordSteps === n;
		let sim = -1;
		let kept = false;
		try {
			sim = engine.createSim(request.policy, request.frames, request.params, trace, !!recordAll);
			const outcome = new Uint8Array(n);
			await this.runChunked(id, n, (steps) => engine.run(sim, steps, outcome));
			const reply: SimulateReply = {
				policy: request.policy,
				frames: request.frames,
				stats: engine.stats(sim),
				counters: engine.counters(sim, request.policy),
				outcome,
				trace: engine.traceInfo(trace, !request.omitTrace),
			};
			if (this.cancelled.has(id)) throw new Aborted();
			if (recordAll) {
				reply.session = this.keepSession(engine, sim, trace, n);
				kept = true;
			} else if (request.record) {
				reply.session = await this.recordPrefix(engine, id, request, trace, recordSteps);
			}
			if (reply.session !== undefined) {
				reply.sessionSteps = recordSteps;
				/* A copy: the session keeps its own table for its event calls. */
				reply.sessionNumbers = this.session(reply.session).numbers.slice();
			}
			return reply;
		} finally {
			if (!kept) {
				if (sim >= 0) engine.freeSim(sim);
				engine.freeTrace(trace);
			}
		}
	}

	private async recordPrefix(
		engine: Engine,
		id: number,
		request: SimulateRequest,
		trace: number,
		steps: number,
	): Promise<number> {
		const prefix = engine.tracePrefix(trace, steps);
		let sim = -1;
		try {
			sim = engine.createSim(request.policy, request.frames, request.params, prefix, true);
			const outcome = new Uint8Array(steps);
			await this.runChunked(id, steps, (chunk) => engine.run(sim, chunk, outcome));
			return this.keepSession(engine, sim, prefix, steps);
		} catch (error) {
			if (sim >= 0) engine.freeSim(sim);
			engine.freeTrace(prefix);
			throw error;
		}
	}

	private keepSession(engine: Engine, sim: number, trace: number, steps: number): number {
		const handle = this.nextSession++;
		this.sessions.set(handle, { sim, trace, numbers: engine.pageNumbers(trace), steps });
		return handle;
	}

	private async faultsByFrames(engine: Engine, id: number, request: FaultsByFramesRequest): Promise<FramesPoint[]> {
		const trace = this.loadTrace(engine, request.trace);
		try {
			return await this.runSizes(engine, id, trace, request.policy, request.params, request.frames);
		} finally {
			engine.freeTrace(trace);
		}
	}

	/** One run of `policy` per frame count over a loaded trace, progress in references over all runs. */
	private async runSizes(
		engine: Engine,
		id: number,
		trace: number,
		policy: string,
		params: ParamValues | undefined,
		sizes: number[],
	): Promise<FramesPoint[]> {
		const n = engine.traceLength(trace);
		const total = n * sizes.length;
		const points: FramesPoint[] = [];
		const outcome = new Uint8Array(n);
		for (const [i, frames] of sizes.entries()) {
			const sim = engine.createSim(policy, frames, params, trace, false);
			try {
				await this.runChunked(id, n, (steps) => engine.run(sim, steps, outcome), i * n, total);
				points.push({ frames, stats: engine.stats(sim) });
			} finally {
				engine.freeSim(sim);
			}
		}
		return points;
	}

	/**
	 * One call per curve: lru and opt in one pass over the trace (the core's
	 * pl_mrc), any other policy one run per size, chunked so that progress
	 * (in references over all sizes) flows and a cancel stops it.
	 */
	private async missCurve(engine: Engine, id: number, request: MissCurveRequest): Promise<MissCurve> {
		const { policy, params, frames } = request;
		const trace = this.loadTrace(engine, request.trace);
		try {
			const references = engine.traceLength(trace);
			if (engine.missCurveInOnePass(policy)) {
				const misses = Float64Array.from(engine.missCurve(trace, policy, params, frames));
				this.post({ id, progress: [references, references] });
				return { frames, misses, references, method: 'one pass' };
			}
			const points = await this.runSizes(engine, id, trace, policy, params, frames);
			return { frames, misses: Float64Array.from(points, (p) => p.stats.misses), references, method: 'per size' };
		} finally {
			engine.freeTrace(trace);
		}
	}

	private lifetime(engine: Engine, trace: number, request: LifetimeRequest): LifetimePoints {
		return { references: engine.traceLength(trace), ...engine.lifetime(trace, request.taus, request.frames) };
	}

	private withTrace<T>(engine: Engine, source: TraceSource, use: (trace: number) => T): T {
		const trace = this.loadTrace(engine, source);
		try {
			return use(trace);
		} finally {
			engine.freeTrace(trace);
		}
	}

	/** Calls run(steps) until n references are done, reporting progress. */
	private async runChunked(
		id: number,
		n: number,
		run: (steps: number) => number,
		offset = 0,
		total = n,
	): Promise<void> {
		for (let done = 0; done < n; ) {
			const ran = run(Math.min(CHUNK, n - done));
			if (ran === 0) break;
			done += ran;
			this.post({ id, progress: [offset + done, total] });
			if (done < n) {
				await new Promise((resolve) => setTimeout(resolve, 0));
				if (this.cancelled.has(id)) throw new Aborted();
			}
		}
	}

	private session(handle: number): SessionState {
		const session = this.sessions.get(handle);
		if (!session) throw new PagelabError(`session ${handle} was disposed or never existed`);
		return session;
	}

	private eventRange(handle: number, from: number, to: number, span: number): SessionState {
		const session = this.session(handle);
		this.checkStep(session, from);
		this.checkStep(session, to);
		if (to - from > span) throw new PagelabError(`events: at most ${span} steps at once (asked ${from}..${to})`);
		return session;
	}

	private checkStep(session: SessionState, step: number): void {
		if (!Number.isInteger(step) || step < 0 || step > session.steps)
			throw new PagelabError(`step ${step} is outside 0..${session.steps}`);
	}
}
