/*
 * client.ts - the promise-based PagelabClient (protocol.ts) over a worker.
 *
 * createWorkerClient() starts worker.ts; the tests build a Client over a
 * Host in the same thread with connectInProcess().  Each call gets an id;
 * the host's progress replies go to that call's onProgress and the final
 * reply settles its promise.
 *
 * A big trace (a file, pasted text or page array of STORE_BYTES or more)
 * crosses to the worker once: the first call that uses it stores it there
 * under a key (storeTrace), and every call names it by that key, so an
 * uploaded 1M-reference file is copied once, not once per chart and run
 * (each copy is a main-thread task of the file's size).  The key lives as
 * long as the trace: a file's bytes or a page array until it is garbage
 * (FinalizationRegistry), a text while it is among the STORED_TEXTS last
 * ones; then the worker is told to drop it (dropTrace).
 *
 * Invariants
 *   - Each pending call settles exactly once: by its reply, by its
 *     AbortSignal (AbortError; the host is told to stop), or by dispose().
 *   - Errors from the core arrive as PagelabError with the core's message.
 *   - A storeTrace is posted before the first call naming its key, and a
 *     dropTrace only when no later call can name it.
 */
import { Host, type Reply, type Request, type SimulateReply, type WireTrace } from './host';
import type { Engine } from './engine';
import {
	PagelabError,
	type CallOptions,
	type EventArrays,
	type FaultsByFramesRequest,
	type FramesPoint,
	type LifetimePoints,
	type LifetimeRequest,
	type MissCurve,
	type MissCurveRequest,
	type PagelabClient,
	type PolicyEvent,
	type PolicyInfo,
	type Session,
	type SimulateRequest,
	type SimulateResult,
	type PageTable,
	type SnapshotData,
	snapshotOf,
	type TraceInfo,
	type TraceSource,
	type WorkingSetRequest,
} from './protocol';

/** The two ends of a message channel, as a Worker or an in-process pair provides. */
export interface Port {
	send(request: Request): void;
	onReply(listener: (reply: Reply) => void): void;
	close(): void;
}

/** Request without its id, one member per method. */
type Body = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/* A trace whose bytes (text: characters) reach this is sent to the worker once and named by a key after that. */
const STORE_BYTES = 1 << 16;
/* Texts cannot be weakly held: the last few big ones keep their keys. */
const STORED_TEXTS = 2;

/** What makes a trace big: its bytes, page array or text. */
function payloadOf(trace: WireTrace): { payload: object | string; size: number } | null {
	switch (trace.kind) {
		case 'file':
			return { payload: trace.bytes, size: trace.bytes.byteLength };
		case 'pages':
			return { payload: trace.pages, size: trace.pages.byteLength };
		case 'text':
			return { payload: trace.text, size: trace.text.length };
		default:
			return null;
	}
}

interface Pending {
	resolve(value: unknown): void;
	reject(error: Error): void;
	onProgress?: (done: number, total: number) => void;
}

/* How an aborted call rejects; isAbortError() tells it from a real failure. */
function abortError(): DOMException {
	return new DOMException('the call was aborted', 'AbortError');
}

/** True for the rejection of a call whose AbortSignal fired: not an error to show. */
export function isAbortError(error: unknown): boolean {
	return error instanceof DOMException && error.name === 'AbortError';
}

export class Client implements PagelabClient {
	private readonly pending = new Map<number, Pending>();
	private nextId = 1;
	private policies?: Promise<PolicyInfo[]>;
	/* The keys of the big traces stored in the worker, by their bytes or page array, and the last texts. */
	private readonly storedArrays = new WeakMap<object, number>();
	private readonly storedTexts = new Map<string, number>();
	private readonly dropWhenGone = new FinalizationRegistry<number>((key) => this.drop(key));
	private nextKey = 1;
	private disposed = false;

	constructor(private readonly port: Port) {
		port.onReply((reply) => this.receive(reply));
	}

	listPolicies(): Promise<PolicyInfo[]> {
		this.policies ??= this.call<PolicyInfo[]>({ method: 'listPolicies' });
		return this.policies;
	}

	loadTrace(trace: TraceSource, options?: CallOptions): Promise<TraceInfo> {
		return this.call<TraceInfo>({ method: 'loadTrace', trace }, options);
	}

	async simulate(request: SimulateRequest, options?: CallOptions): Promise<SimulateResult> {
		const reply = await this.call<SimulateReply>({ method: 'simulate', request }, options);
		const { session, sessionSteps, sessionNumbers, ...result } = reply;
		if (session === undefined) return result;
		const policy = (await this.listPolicies()).find((p) => p.name === request.policy)!;
		return { ...result, session: this.session(session, policy, request.frames, sessionSteps ?? 0, sessionNumbers!) };
	}

	faultsByFrames(request: FaultsByFramesRequest, options?: CallOptions): Promise<FramesPoint[]> {
		return this.call<FramesPoint[]>({ method: 'faultsByFrames', request }, options);
	}

	missCurve(request: MissCurveRequest, options?: CallOptions): Promise<MissCurve> {
		return this.call<MissCurve>({ method: 'missCurve', request }, options);
	}

	lifetime(request: LifetimeRequest, options?: CallOptions): Promise<LifetimePoints> {
		return this.call<LifetimePoints>({ method: 'lifetime', request }, options);
	}

	workingSetSeries(request: WorkingSetRequest, options?: CallOptions): Promise<Float64Array> {
		return this.call<Float64Array>({ method: 'workingSetSeries', request }, options);
	}

	dispose(): void {
		this.disposed = true;
		this.port.close();
		for (const pending of this.pending.values()) pending.reject(new PagelabError('the simulation worker was stopped'));
		this.pending.clear();
	}

	private session(handle: number, policy: PolicyInfo, frames: number, steps: number, numbers: PageTable): Session {
		let disposed = false;
		return {
			policy,
			frames,
			steps,
			snapshot: async (step) => snapshotOf(await this.call<SnapshotData>({ method: 'snapshot', session: handle, step }), numbers),
			events: (from, to) => this.call<PolicyEvent[]>({ method: 'events', session: handle, from, to }),
			eventArrays: (from, to) => this.call<EventArrays>({ method: 'eventArrays', session: handle, from, to }),
			dispose: async () => {
				if (disposed) return;
				disposed = true;
				await this.call<null>({ method: 'disposeSession', session: handle });
			},
		};
	}

	/* The trace as it is sent: a big one stored in the worker on first use, then its key. */
	private wired(trace: WireTrace): WireTrace {
		const big = payloadOf(trace);
		if (!big || big.size < STORE_BYTES) return trace;
		const text = typeof big.payload === 'string' ? big.payload : null;
		let key = text === null ? this.storedArrays.get(big.payload as object) : this.storedTexts.get(text);
		if (key === undefined) {
			key = this.nextKey++;
			this.port.send({ method: 'storeTrace', key, trace: trace as TraceSource, id: this.nextId++ });
			if (text === null) {
				this.storedArrays.set(big.payload as object, key);
				this.dropWhenGone.register(big.payload as object, key);
			} else this.storedTexts.set(text, key);
		} else if (text !== null) {
			/* The most recently used text is the last one dropped. */
			this.storedTexts.delete(text);
			this.storedTexts.set(text, key);
		}
		for (const [oldest, oldKey] of this.storedTexts) {
			if (this.storedTexts.size <= STORED_TEXTS) break;
			this.storedTexts.delete(oldest);
			this.drop(oldKey);
		}
		return { kind: 'stored', key };
	}

	private drop(key: number): void {
		if (!this.disposed) this.port.send({ method: 'dropTrace', key, id: this.nextId++ });
	}

	/* The body with its trace (its own, or its request's) as it is sent. */
	private wiredBody(body: Body): Body {
		if ('trace' in body) return { ...body, trace: this.wired(body.trace) } as Body;
		if ('request' in body) return { ...body, request: { ...body.request, trace: this.wired(body.request.trace) } } as Body;
		return body;
	}

	private call<T>(body: Body, options: CallOptions = {}): Promise<T> {
		const id = this.nextId++;
		const { signal, onProgress } = options;
		return new Promise<T>((resolve, reject) => {
			if (signal?.aborted) {
				reject(abortError());
				return;
			}
			const abort = () => {
				this.pending.delete(id);
				this.port.send({ method: 'cancel', target: id, id: this.nextId++ });
				reject(abortError());
			};
			signal?.addEventListener('abort', abort, { once: true });
			this.pending.set(id, {
				resolve: (value) => {
					signal?.removeEventListener('abort', abort);
					resolve(value as T);
				},
				reject: (error) => {
					signal?.removeEventListener('abort', abort);
					reject(error);
				},
				onProgress,
			});
			this.port.send({ ...this.wiredBody(body), id } as Request);
		});
	}

	private receive(reply: Reply): void {
		const pending = this.pending.get(reply.id);
		if (!pending) return;
		if ('progress' in reply) {
			pending.onProgress?.(...reply.progress);
			return;
		}
		this.pending.delete(reply.id);
		if (reply.ok) pending.resolve(reply.value);
		else pending.reject(new PagelabError(reply.error));
	}
}

export function createWorkerClient(): Client {
	const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
	return new Client({
		send: (request) => worker.postMessage(request),
		onReply: (listener) => worker.addEventListener('message', (event: MessageEvent<Reply>) => listener(event.data)),
		close: () => worker.terminate(),
	});
}

/** A client whose host runs in this thread (tests, Node). */
export function connectInProcess(engine: Promise<Engine>): Client {
	let listener: (reply: Reply) => void = () => {};
	const host = new Host(engine, (reply) => queueMicrotask(() => listener(reply)));
	return new Client({
		send: (request) => void host.handle(structuredClone(request)),
		onReply: (l) => (listener = l),
		close: () => {},
	});
}
