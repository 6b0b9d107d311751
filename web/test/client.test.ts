/*
 * The typed client, end to end through the host and the WebAssembly module
 * (in this thread instead of a worker): reflection, simulation, sessions,
 * errors and cancellation.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessClient, loadEngine } from './support';
import { Client } from '../src/wasm/client';
import { Host, type Reply, type Request } from '../src/wasm/host';
import { comparePages, EVENT_KINDS, NO_PAGE, pageAt, pageOf, PagelabError, type Snapshot, type TraceInfo } from '../src/wasm/protocol';

const pagesOf = (info: TraceInfo) => Array.from(info.pages.ids, (_, i) => pageAt(info.pages, i));

const client = inProcessClient();
afterAll(() => client.dispose());

const SILBERSCHATZ = '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1';

/* A client whose requests reach a host over structured clones, as the worker's would, and are kept in `sent`. */
function keyedClient(): { sent: Request[]; keyed: Client } {
	const sent: Request[] = [];
	let listener: (reply: Reply) => void = () => {};
	const host = new Host(loadEngine(), (reply) => queueMicrotask(() => listener(reply)));
	const keyed = new Client({
		send: (request) => {
			sent.push(request);
			void host.handle(structuredClone(request));
		},
		onReply: (l) => (listener = l),
		close: () => {},
	});
	return { sent, keyed };
}

describe('the client', () => {
	it('lists every policy with its lists, fields and parameters', async () => {
		const policies = await client.listPolicies();
		const names = policies.map((p) => p.name);
		expect(names).toEqual(expect.arrayContaining(['fifo', 'lru']));
		const lru = policies.find((p) => p.name === 'lru')!;
		expect(lru.title.length).toBeGreaterThan(0);
		expect(lru.lists.length).toBeGreaterThan(0);
	});

	it('counts the textbook faults of FIFO and LRU on the Silberschatz string with 3 frames', async () => {
		const trace = { kind: 'text' as const, text: SILBERSCHATZ };
		const fifo = await client.simulate({ policy: 'fifo', frames: 3, trace });
		const lru = await client.simulate({ policy: 'lru', frames: 3, trace });
		expect(fifo.stats.misses).toBe(15);
		expect(lru.stats.misses).toBe(12);
		expect(fifo.outcome.length).toBe(20);
		expect(Array.from(fifo.outcome).filter((o) => o === 0).length).toBe(15);
	});

	it('reports the page numbers of the trace, not dense ids', async () => {
		const info = await client.loadTrace({ kind: 'text', text: '100 0x20 100w' });
		expect(pagesOf(info)).toEqual([100, 32, 100]);
		expect(Array.from(info.writes)).toEqual([0, 0, 1]);
		expect(info.distinctPages).toBe(2);
	});

	it('reads an uploaded trace file through the core, and names the file, line and token of a bad one', async () => {
		const bytes = (text: string) => new TextEncoder().encode(text);
		const info = await client.loadTrace({ kind: 'file', name: 'good.trace', bytes: bytes('# a comment\n7\n0w\n\n7\n') });
		expect(pagesOf(info)).toEqual([7, 0, 7]);
		const bad = client.loadTrace({ kind: 'file', name: 'bad.trace', bytes: bytes('1\n2\nx9\n') });
		await expect(bad).rejects.toThrow(/bad\.trace:3:.*x9/);
	});

	it('keeps 64-bit page numbers exact: numbers up to 2^53 - 1, bigints above, in the trace, snapshots and events', async () => {
		const text = '18446744073709551615 9007199254740993 9007199254740991 0xffffffffffffffff 7';
		const info = await client.loadTrace({ kind: 'text', text });
		expect(pagesOf(info)).toEqual([2n ** 64n - 1n, 2n ** 53n + 1n, 2 ** 53 - 1, 2n ** 64n - 1n, 7]);
		expect(info.distinctPages).toBe(4);
		const result = await client.simulate({ policy: 'lru', frames: 2, trace: { kind: 'text', text }, record: true });
		const session = result.session!;
		const resident = (await session.snapshot(2)).lists.flatMap((list) => [...list]).map((e) => e.page);
		expect(resident.sort(comparePages)).toEqual([2n ** 53n + 1n, 2n ** 64n - 1n]);
		expect(String((await session.snapshot(4)).lists.flatMap((list) => [...list]).find((e) => e.page !== 2 ** 53 - 1)?.page)).toBe('18446744073709551615');
		/* LRU's one list at step 2, most recent first: read without decoding a whole entry. */
		const [recency] = (await session.snapshot(2)).lists;
		expect([recency.page(0), recency.page(1)]).toEqual([2n ** 53n + 1n, 2n ** 64n - 1n]);
		expect(recency.indexOfPage(2n ** 64n - 1n)).toBe(1);
		expect(recency.indexOfPage(2 ** 53 - 1)).toBe(-1);
		expect(recency.widestDigits()).toBe(20);
		expect(recency.widestDigits(1)).toBe(16);
		expect(recency.at(2)).toBeUndefined();
		const evicted = (await session.events(0, 5)).filter((e) => e.kind === 'evict').map((e) => String(e.page));
		/* LRU at 2 frames: each of the first three pages is evicted in turn, the largest first. */
		expect(evicted).toEqual(['18446744073709551615', '9007199254740993', '9007199254740991']);
		await session.dispose();
	});

	it('rejects a malformed reference string with the token named', async () => {
		const bad = client.simulate({ policy: 'lru', frames: 3, trace: { kind: 'text', text: '1 2 x17 3' } });
		await expect(bad).rejects.toThrow(PagelabError);
		await expect(bad).rejects.toThrow(/x17/);
	});

	it('rejects an unknown policy and a bad parameter by name', async () => {
		const trace = { kind: 'text' as const, text: '1 2 3' };
		await expect(client.simulate({ policy: 'nope', frames: 3, trace })).rejects.toThrow(/nope/);
		await expect(client.simulate({ policy: 'lru', frames: 0, trace })).rejects.toThrow(/frames/);
		await expect(
			client.simulate({ policy: 'lru', frames: 3, trace, params: { bogus: 1 } }),
		).rejects.toThrow(/bogus/);
	});

	it('seeks any step of a recorded session and gives each step its events', async () => {
		const result = await client.simulate({
			policy: 'fifo',
			frames: 3,
			trace: { kind: 'text', text: SILBERSCHATZ },
			record: true,
		});
		const session = result.session!;
		expect(session.steps).toBe(20);
		const start = await session.snapshot(0);
		expect(start.lists.every((list) => list.length === 0)).toBe(true);
		const third = await session.snapshot(3);
		const resident = third.lists.flatMap((list) => [...list]).map((e) => e.page).sort(comparePages);
		expect(resident).toEqual([0, 1, 7]);
		const events = await session.events(3, 4);
		expect(events[0]).toMatchObject({ step: 3, kind: 'miss', page: 2 });
		expect(events.some((e) => e.kind === 'evict' && e.page === 7)).toBe(true);
		const arrays = await session.eventArrays(0, session.steps);
		const all = await session.events(0, session.steps);
		expect(arrays.kind.length).toBe(all.length);
		expect(all.map((e) => [e.kind, e.arg, e.page ?? -1, e.a, e.b])).toEqual(
			all.map((_, i) => [EVENT_KINDS[arrays.kind[i]], arrays.arg[i], arrays.page[i] === NO_PAGE ? -1 : pageOf(arrays.numbers, arrays.page[i]), arrays.a[i], arrays.b[i]]),
		);
		expect(arrays.start[3]).toBe(all.findIndex((e) => e.step === 3));
		expect(arrays.start[20]).toBe(all.length);
		await session.dispose();
		await expect(session.snapshot(1)).rejects.toThrow(/disposed/);
	});

	it('gives every policy the same snapshot at each step whether it steps forward or seeks back', async () => {
		/* Forward, the worker continues from the step it holds; back, it restores a checkpoint and replays. */
		const text = Array.from({ length: 300 }, (_, i) => (i * 7919 + (i >> 4) * 13) % 23).join(' ');
		const plain = (snapshot: Snapshot) => ({ lists: snapshot.lists.map((list) => [...list]), hands: snapshot.hands, variables: snapshot.variables });
		for (const policy of await client.listPolicies()) {
			const record = () => client.simulate({ policy: policy.name, frames: 6, trace: { kind: 'text', text }, record: true });
			const [forward, back] = [(await record()).session!, (await record()).session!];
			try {
				const sought = [];
				for (let k = forward.steps; k >= 0; k--) sought[k] = plain(await back.snapshot(k));
				for (let k = 0; k <= forward.steps; k++) expect(plain(await forward.snapshot(k)), `${policy.name} at step ${k}`).toEqual(sought[k]);
			} finally {
				await forward.dispose();
				await back.dispose();
			}
		}
	});

	it("shows a policy's variables in each step's snapshot: LeCaR's weights, learnt from its regrets", async () => {
		const result = await client.simulate({ policy: 'lecar', frames: 2, trace: { kind: 'text', text: '1 1 2 3 1 2 1 2' }, record: true });
		const session = result.session!;
		expect(session.policy.variables).toEqual(['w_lru', 'w_lfu']);
		expect((await session.snapshot(0)).variables).toEqual([0, 0]);
		expect((await session.snapshot(1)).variables).toEqual([500, 500]);
		const counter = (s: { counters: number[] }, name: string) => s.counters[session.policy.counters.indexOf(name)];
		for (let step = 1; step <= session.steps; step++) {
			const s = await session.snapshot(step);
			expect(s.variables, `step ${step}`).toEqual([counter(s, 'w_lru_permille'), counter(s, 'w_lfu_permille')]);
		}
		const end = await session.snapshot(session.steps);
		expect(counter(end, 'lru_regrets') + counter(end, 'lfu_regrets')).toBeGreaterThan(0);
		expect(end.variables).not.toEqual([500, 500]);
		await session.dispose();
	});

	it('counts faults for each number of frames', async () => {
		const points = await client.faultsByFrames({
			policy: 'fifo',
			trace: { kind: 'text', text: '1 2 3 4 1 2 5 1 2 3 4 5' },
			frames: [3, 4],
		});
		expect(points.map((p) => p.stats.misses)).toEqual([9, 10]);
	});

	it("draws a miss curve in one call: Belady's anomaly for fifo by runs, lru and opt in one pass, equal to a run per size", async () => {
		const trace = { kind: 'text' as const, text: '1 2 3 4 1 2 5 1 2 3 4 5' };
		const frames = [1, 2, 3, 4, 5];
		for (const [policy, method, misses] of [
			['fifo', 'per size', [12, 12, 9, 10, 5]],
			['lru', 'one pass', [12, 12, 10, 8, 5]],
			['opt', 'one pass', [12, 9, 7, 6, 5]],
		] as const) {
			const curve = await client.missCurve({ policy, trace, frames });
			expect(curve.method).toBe(method);
			expect(curve.references).toBe(12);
			expect(curve.frames).toEqual(frames);
			expect(Array.from(curve.misses)).toEqual(misses);
			const runs = await client.faultsByFrames({ policy, trace, frames });
			expect(Array.from(curve.misses)).toEqual(runs.map((p) => p.stats.misses));
		}
	});

	it('reports progress in references over every size of a per-size curve, and stops when aborted', async () => {
		const trace = { kind: 'generator' as const, spec: { kind: 'uniform' as const, length: 600_000, pages: 500, seed: 2 } };
		const seen: [number, number][] = [];
		await client.missCurve({ policy: 'fifo', trace, frames: [10, 100] }, { onProgress: (d, t) => seen.push([d, t]) });
		expect(seen[seen.length - 1]).toEqual([1_200_000, 1_200_000]);
		const controller = new AbortController();
		const aborted = client.missCurve({ policy: 'clock', trace, frames: [10, 100, 200] }, { signal: controller.signal });
		controller.abort();
		await expect(aborted).rejects.toThrow();
	});

	it("gives the lifetime points and the working-set series of a trace through the worker's protocol", async () => {
		const trace = { kind: 'text' as const, text: '1 2 3 1 2 3 4 5 4 5' };
		const life = await client.lifetime({ trace, taus: [1, 3], frames: [2, 3] });
		expect(life.references).toBe(10);
		/* ws with tau 1 faults on every change of page: all 10 references */
		expect(life.ws.map((p) => [p.size, p.faults])).toEqual([[1, 10], [3, 5]]);
		const ws3 = await client.simulate({ policy: 'ws', frames: 5, params: { tau: 3 }, trace });
		expect(life.ws[1].faults).toBe(ws3.stats.misses);
		const lru2 = await client.simulate({ policy: 'lru', frames: 2, trace });
		expect(life.lru[0].faults).toBe(lru2.stats.misses);
		const series = await client.workingSetSeries({ trace, tau: 2, points: 5 });
		expect(series).toBeInstanceOf(Float64Array);
		/* |W(t, 2)|: 1 2 2 2 2 2 2 2 2 2, by buckets of two steps */
		expect(Array.from(series)).toEqual([1.5, 2, 2, 2, 2]);
	});

	it('reads a gzip-compressed trace file as its text, and refuses a truncated one naming the file', async () => {
		const text = '# Belady\n1\n2\n3\n4\n1\n2\n5\n1\n2\n3\n4\n5w\n';
		const bytes = new Uint8Array(gzipSync(Buffer.from(text)));
		const info = await client.loadTrace({ kind: 'file', name: 'belady.txt.gz', bytes });
		expect(pagesOf(info)).toEqual([1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5]);
		expect(info.writes[11]).toBe(1);
		const fifo = await client.simulate({ policy: 'fifo', frames: 4, trace: { kind: 'file', name: 'belady.txt.gz', bytes } });
		expect(fifo.stats.misses).toBe(10);
		const cut = bytes.slice(0, bytes.length - 6);
		await expect(client.loadTrace({ kind: 'file', name: 'cut.txt.gz', bytes: cut })).rejects.toThrow(/^cut\.txt\.gz: not a whole gzip file/);
	});

	it('reports progress on a long trace and stops when aborted', async () => {
		const trace = { kind: 'generator' as const, spec: { kind: 'uniform' as const, length: 2_000_000, pages: 1000, seed: 1 } };
		const seen: number[] = [];
		const done = await client.simulate({ policy: 'lru', frames: 100, trace, omitTrace: true }, {
			onProgress: (d) => seen.push(d),
		});
		expect(done.stats.references).toBe(2_000_000);
		expect(seen.length).toBeGreaterThan(2);
		expect(seen[seen.length - 1]).toBe(2_000_000);

		const controller = new AbortController();
		const aborted = client.simulate({ policy: 'lru', frames: 100, trace }, {
			onProgress: () => controller.abort(),
			signal: controller.signal,
		});
		await expect(aborted).rejects.toThrow(/abort/);
	});

	it('sends a big trace to the worker once and names it by its key after that, with the same answers and errors', async () => {
		const { sent, keyed } = keyedClient();
		/* Half the references among 40 hot pages, half over 701: hits and faults at 64 frames. */
		const lines = Array.from({ length: 30_000 }, (_, i) => String(((i * 7919) % 701) % (i % 2 ? 40 : 701)));
		const bytes = new TextEncoder().encode(lines.join('\n'));
		const trace = { kind: 'file' as const, name: 'big.trace', bytes };
		const fifo = await keyed.simulate({ policy: 'fifo', frames: 64, trace });
		/* A new source object over the same bytes (as the scenario rebuilds it) is the same trace. */
		const lru = await keyed.simulate({ policy: 'lru', frames: 64, trace: { ...trace } });
		const curve = await keyed.missCurve({ policy: 'lru', trace, frames: [64] });
		expect(sent.filter((r) => r.method === 'storeTrace')).toHaveLength(1);
		const calls = sent.filter((r) => r.method === 'simulate' || r.method === 'missCurve');
		expect(calls.map((r) => ('request' in r ? r.request.trace : null))).toEqual(Array(3).fill({ kind: 'stored', key: 1 }));
		/* The answers are those of the trace sent whole, straight to the host. */
		const whole = await new Promise<Reply>((resolve) => {
			const direct = new Host(loadEngine(), (reply) => 'ok' in reply && resolve(reply));
			void direct.handle({ id: 1, method: 'simulate', request: { policy: 'fifo', frames: 64, trace } });
		});
		expect('ok' in whole && whole.ok && (whole.value as { stats: unknown }).stats).toEqual(fifo.stats);
		expect(fifo.stats.hits).toBeGreaterThan(0);
		expect(curve.misses[0]).toBe(lru.stats.misses);
		/* A bad big file is named by its name, line and token as before. */
		const bad = new TextEncoder().encode(`${lines.join('\n')}\nx9\n`);
		await expect(keyed.loadTrace({ kind: 'file', name: 'bad.trace', bytes: bad })).rejects.toThrow(/bad\.trace:30001:.*x9/);
		keyed.dispose();
	});

	it('keeps the keys of the last two big texts and drops an older one, storing it again when it comes back', async () => {
		const { sent, keyed } = keyedClient();
		const text = (seed: number) => Array.from({ length: 20_000 }, (_, i) => String((i * seed) % 500)).join(' ');
		const [a, b, c] = [text(7), text(11), text(13)].map((t) => ({ kind: 'text' as const, text: t }));
		const faults = async (trace: { kind: 'text'; text: string }) => (await keyed.simulate({ policy: 'lru', frames: 50, trace })).stats.misses;
		const first = await faults(a);
		await faults(b);
		await faults(c);
		expect(sent.filter((r) => r.method === 'dropTrace')).toEqual([expect.objectContaining({ key: 1 })]);
		expect(await faults(a)).toBe(first);
		expect(sent.filter((r) => r.method === 'storeTrace').map((r) => ('key' in r ? r.key : 0))).toEqual([1, 2, 3, 4]);
		keyed.dispose();
	});
});
