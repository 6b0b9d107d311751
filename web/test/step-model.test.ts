/*
 * The step view's model, on real runs of the core: the frame grid holds
 * exactly the resident pages of the policy's own snapshot at every step,
 * for every policy; running counts; jumps; the narration of seed 000's
 * Figure 2, of CLOCK's second chances, of Linux's promotion, shadow
 * entries and refaults, of every policy's reason for its victim; and what a
 * step's events say to animate.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { inProcessClient } from './support';
import { STEP_VIEW_LIMIT, loadRun, type Run } from '../src/model/run';
import { narrate } from '../src/model/narration';
import { fieldText } from '../src/components/step/PageChip';
import { transitionsOf } from '../src/model/transitions';
import type { Scenario } from '../src/model/scenario';
import { comparePages, type PageNumber, type SnapshotList } from '../src/wasm/protocol';

const client = inProcessClient();
const runs: Run[] = [];
/* The module keeps a limited number of traces open: each test closes its runs. */
afterEach(async () => {
	await Promise.all(runs.splice(0).map((r) => r.session.dispose()));
});
afterAll(() => client.dispose());

async function run(policy: string, frames: number, text: string, params: Record<string, number> = {}): Promise<Run> {
	const scenario: Scenario = { policy, frames, params, trace: { kind: 'refs', text } };
	const loaded = await loadRun(client, scenario, await client.listPolicies());
	runs.push(loaded);
	return loaded;
}

function residentOf(lists: SnapshotList[], ghost: boolean[]): PageNumber[] {
	return lists.flatMap((list, l) => (ghost[l] ? [] : list.map((e) => e.page))).sort(comparePages);
}

const RANDOM = Array.from({ length: 300 }, (_, i) => (i * 7919 + (i >> 3) * 31) % 17).join(' ');

describe('the frame grid', () => {
	it('holds exactly the resident pages of every policy at every step', async () => {
		for (const policy of await client.listPolicies()) {
			for (const frames of [1, 4, 7]) {
				const r = await run(policy.name, frames, RANDOM);
				const ghost = policy.lists.map((l) => l.ghost);
				for (let k = 0; k <= r.timeline.steps; k += 1) {
					const column = r.timeline.column(k).rows.filter((p): p is PageNumber => p !== null).sort(comparePages);
					const snapshot = await r.session.snapshot(k);
					expect(column, `${policy.name}, ${frames} frames, step ${k}`).toEqual(residentOf(snapshot.lists, ghost));
				}
				// Closed here, not after all tests: the core holds at most 64 traces at once.
				runs.splice(runs.indexOf(r), 1);
				await r.session.dispose();
			}
		}
	});

	it('shows the textbook final frames of the Silberschatz string (FIFO 7 0 1, LRU 1 0 7)', async () => {
		const silberschatz = '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1';
		const fifo = await run('fifo', 3, silberschatz);
		const lru = await run('lru', 3, silberschatz);
		expect(fifo.timeline.column(20).rows).toEqual([7, 0, 1]);
		expect(lru.timeline.column(20).rows).toEqual([1, 0, 7]);
		expect(fifo.timeline.column(4).entered).toEqual(new Set([0]));
	});

	it('of a trace longer than the step view records ends at the last recorded step, and says so past it', async () => {
		/* The compare view crash: the shared step at 60,000 of a 60,000-reference trace, the step view recording 50,000. */
		const long = Array.from({ length: STEP_VIEW_LIMIT + 10_000 }, (_, i) => (i * 7) % 97).join(' ');
		const r = await run('lru', 16, long);
		expect(r.timeline.steps).toBe(STEP_VIEW_LIMIT);
		expect(r.timeline.column(STEP_VIEW_LIMIT).rows.filter((p) => p !== null)).toHaveLength(16);
		expect(() => r.timeline.column(STEP_VIEW_LIMIT + 1)).toThrow(new RangeError(`frame grid: step ${STEP_VIEW_LIMIT + 1} is outside the recorded steps 0..${STEP_VIEW_LIMIT}`));
	});

	it('counts faults, hits and evictions up to each step, and finds the next fault and eviction', async () => {
		const r = await run('fifo', 3, '1 2 3 1 4 1 5');
		const t = r.timeline;
		expect([t.faultsAt(0), t.hitsAt(0), t.evictionsAt(0)]).toEqual([0, 0, 0]);
		expect([t.faultsAt(4), t.hitsAt(4), t.evictionsAt(4)]).toEqual([3, 1, 0]);
		expect([t.faultsAt(7), t.hitsAt(7), t.evictionsAt(7)]).toEqual([6, 1, 3]);
		expect(t.nextFault(3)).toBe(5);
		expect(t.nextEviction(0)).toBe(5);
		expect(t.nextFault(7)).toBeNull();
	});
});

describe('the narration', () => {
	const tell = (r: Run, k: number) =>
		narrate(r.policy, r.timeline.log.eventsOfStep(k), {
			resident: k > 1 ? r.timeline.column(k - 1).rows.filter((p) => p !== null).length : 0,
			lengthsAfter: r.timeline.listLengths(k),
			fieldMax: r.fieldMax,
			nextUse: (page) => r.timeline.nextUse(page, k),
		});

	it("tells seed 000's Figure 2 step 7 as the paper does: every RRPV aged, page 11 reached 3 and was evicted", async () => {
		const r = await run('srrip', 4, '1 2 2 1 11 12 13 14 1 2', { rrpv_bits: 2 });
		expect(tell(r, 7)).toBe(
			'page 13: miss (page fault); RRPV of every page incremented (no page at the maximum: aging); page 11 evicted from frames (reached RRPV 3: distant re-reference); page 13 inserted into frame slot 2 with RRPV 2 (long re-reference predicted)',
		);
		expect(tell(r, 3)).toBe('page 2: hit; RRPV of page 2 2 → 0 (hit: near re-reference)');
		expect(r.fieldMax).toEqual([3]);
	});

	it("draws an aging counter in bits, as many as the policy's bits parameter, whatever values the trace reached", async () => {
		const r = await run('aging', 3, '7 0 1 2 0 3 0 4 2 3', { bits: 8 });
		const counter = r.policy.fields.indexOf('counter');
		expect(r.fieldMax[counter]).toBe(255);
		expect(fieldText('counter', 192, r.fieldMax[counter])).toBe('11000000');
		expect(fieldText('counter', 0, r.fieldMax[counter])).toBe('00000000');
	});

	it('tells where in its list a page went: the tail of a FIFO queue, the head of an LRU list', async () => {
		const fifo = await run('fifo', 3, '1 2 3');
		expect(tell(fifo, 3)).toBe('page 3: miss (page fault); page 3 inserted into queue at the tail');
		expect(fifo.timeline.listLengths(2)).toEqual([2]);
		const lru = await run('lru', 3, '1 2 3');
		expect(tell(lru, 3)).toMatch(/at the (head|tail)/);
	});

	it('says why each policy chose its victim', async () => {
		expect(tell(await run('fifo', 2, '1 2 3'), 3)).toContain('page 1 evicted from queue (loaded longest ago: the head of the queue)');
		expect(tell(await run('lru', 2, '1 2 1 3'), 4)).toContain('page 2 evicted from recency (least recently used: the tail of recency)');
		expect(tell(await run('opt', 2, '1 2 3 1'), 3)).toContain('page 2 evicted from frames (never used again)');
		expect(tell(await run('opt', 2, '1 2 3 2 1'), 3)).toContain('page 1 evicted from frames (next use reference 5, the furthest ahead)');
	});

	it('counts OPT\'s next use from 1 and says never for a page not used again', async () => {
		const r = await run('opt', 2, '1 2 1');
		expect(tell(r, 1)).toBe('page 1: miss (page fault); page 1 inserted into frame slot 0 with next use reference 3');
		expect(tell(r, 2)).toContain('next use never');
	});

	it("tells CLOCK's sweep as second chances", async () => {
		const r = await run('clock', 3, '1 2 3 1 4', { ref_on_load: 1 });
		expect(tell(r, 5)).toBe(
			'page 4: miss (page fault); hand went once round from slot 0, clearing the reference bits of pages 1, 2, 3 (second chance); page 1 evicted from frames (under the hand with its reference bit clear); page 4 inserted into frame slot 0 with reference bit set; hand advanced from slot 0 to slot 1',
		);
	});

	it("tells Linux's promotion of a page read twice with the kernel function behind it", async () => {
		const r = await run('linux', 4, '1 2 1', { anon_percent: 0 });
		expect(tell(r, 3)).toBe(
			'page 1: hit; referenced bit set on inactive_file → promoted to active_file (mark_page_accessed → folio_activate, pgactivate)',
		);
		expect(tell(r, 1)).toBe('page 1: miss (page fault); page 1 faulted in at the head of inactive_file with reference bit set (folio_add_lru)');
	});

	it('tells a Linux eviction with its shadow entry, and the refault distance when the page comes back', async () => {
		const r = await run('linux', 2, '1 2 3 1', { anon_percent: 0, batch: 1 });
		expect(tell(r, 3)).toContain('page 1 at the tail of inactive_file, accessed bit clear → reclaimed (shrink_folio_list, pgsteal); shadow entry left with eviction counter 0');
		expect(tell(r, 4)).toContain('refault of page 1: shadow entry found, refault distance 2 > the working set → inactive_file as a new page (workingset_refault)');
	});

	it('keeps a step of a large reclaim to a readable sentence, with the rest counted', async () => {
		const refs = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 1500).join(' ');
		const r = await run('linux', 512, refs, { batch: 64, anon_percent: 0 });
		let longest = 0;
		for (let k = 1; k <= r.timeline.steps; k++) longest = Math.max(longest, tell(r, k).length);
		expect(longest).toBeLessThanOrEqual(1500);
		const big = Array.from({ length: r.timeline.steps }, (_, k) => k + 1).find((k) => r.timeline.log.eventsOfStep(k).length > 100)!;
		expect(tell(r, big)).toMatch(/and \d+ more changes in this step \(\d+ evictions/);
	});

	it('folds, for a projector, a reclaim batch into one clause per kind of move, every page counted, the eviction counters as a range', async () => {
		const refs = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 1500).join(' ');
		const r = await run('linux', 512, refs, { batch: 64, anon_percent: 0 });
		const big = Array.from({ length: r.timeline.steps }, (_, k) => k + 1).find((k) => r.timeline.log.eventsOfStep(k).some((e) => e.kind === 'evict'))!;
		const events = r.timeline.log.eventsOfStep(big);
		const folded = narrate(r.policy, events, { resident: 512, lengthsAfter: r.timeline.listLengths(big), fieldMax: r.fieldMax, fold: true });
		const evicted = events.filter((e) => e.kind === 'evict').length;
		expect(evicted).toBeGreaterThan(1);
		expect(folded).toContain(`${evicted} pages (`);
		expect(folded).toMatch(new RegExp(`${evicted} pages \\([\\d, ]+…\\) reclaimed from inactive_file \\(accessed bit clear\\), shadows at \\d+–\\d+`));
		expect(folded).not.toMatch(/more changes in this step/);
		expect(folded.length).toBeLessThan(tell(r, big).length / 3);
	});

	it('tells, for a projector, each Linux rule in its short form, two pages kept by the same rule in one clause', async () => {
		const r = await run('linux', 4, '1 2 3 1 4 5 1 6');
		const at = (k: number, fold: boolean) =>
			narrate(r.policy, r.timeline.log.eventsOfStep(k), { resident: 4, lengthsAfter: r.timeline.listLengths(k), fieldMax: r.fieldMax, fold });
		expect(at(8, true)).toBe(
			'page 6: miss; 2 pages (1, 2) kept on inactive_anon: accessed, not referenced; page 1 reclaimed from inactive_anon (accessed bit clear), shadow at 1; page 6 in at the head of inactive_file',
		);
		expect(at(8, false)).toContain('page 1 at the tail of inactive_anon, accessed but not referenced → kept');
		for (let k = 1; k <= 8; k++) expect(at(k, true).length, `step ${k}`).toBeLessThanOrEqual(at(k, false).length);
	});

	it('tells, for a projector, each rule of a reclaim walk once, however the walk interleaved them, and the faulting page last', async () => {
		/* The zipf preset's trace at 64 frames: step 28218's walk keeps 6 pages, activates one, keeps one, activates one, keeps one; told in full it runs out of clauses before the faulting page. */
		const zipf: Scenario = { policy: 'linux', frames: 64, params: {}, trace: { kind: 'generator', spec: { kind: 'zipf', length: 28_218, pages: 2000, exponent: 0.9, seed: 7 } } };
		const r = await loadRun(client, zipf, await client.listPolicies());
		runs.push(r);
		const k = 28_218;
		const at = (fold: boolean) =>
			narrate(r.policy, r.timeline.log.eventsOfStep(k), { resident: 64, lengthsAfter: r.timeline.listLengths(k), fieldMax: r.fieldMax, fold });
		expect(at(false)).toMatch(/and \d+ more changes in this step/);
		expect(at(true)).toBe(
			'page 1459: miss; 8 pages (207, 524, 92…) kept on inactive_anon: accessed, not referenced; 2 pages (15, 0) activated from inactive_anon (accessed and referenced); ' +
				'page 54 reclaimed from inactive_anon (accessed bit clear), shadow at 20893; page 77 forgotten from shadow; page 1459 in at the head of inactive_anon',
		);
	});

	it('gives the list lengths of any step from checkpoints as a full replay would', async () => {
		const refs = Array.from({ length: 1200 }, (_, i) => (i * 31) % 97).join(' ');
		const r = await run('linux', 16, refs);
		for (const k of [0, 1, 255, 256, 257, 700, 1200]) {
			const snapshot = await r.session.snapshot(k);
			expect(r.timeline.listLengths(k), `step ${k}`).toEqual(snapshot.lists.map((l) => l.length));
		}
	});
});

describe("the policy's counters at each step", () => {
	it('equal the counters of a fresh run of that many references, for every policy that has counters', async () => {
		const refs = RANDOM.split(' ');
		for (const policy of (await client.listPolicies()).filter((p) => p.counters.length)) {
			const whole = await run(policy.name, 5, RANDOM);
			for (const k of [0, 1, 9, 60, 173, refs.length]) {
				const snapshot = await whole.session.snapshot(k);
				const prefix = k
					? (await client.simulate({ policy: policy.name, frames: 5, trace: { kind: 'text', text: refs.slice(0, k).join(' '), name: 'prefix' } })).counters
					: Object.fromEntries(policy.counters.map((name) => [name, 0]));
				expect(Object.fromEntries(policy.counters.map((name, c) => [name, snapshot.counters[c]])), `${policy.name} at step ${k}`).toEqual(prefix);
			}
			const last = await whole.session.snapshot(refs.length);
			expect(last.counters.map((value, c) => value - last.countersBefore[c]), `${policy.name}: the last step's increments`).toEqual(
				(await whole.session.snapshot(refs.length - 1)).counters.map((before, c) => last.counters[c] - before),
			);
			await whole.session.dispose();
			runs.splice(runs.indexOf(whole), 1);
		}
	});

	it("count a Linux refault in workingset_refault at the step an evicted page faults again, under the kernel's names", async () => {
		const text = '1 2 3 4 5 6 1 2 3 7 1 2';
		const linux = await run('linux', 3, text);
		const names = linux.policy.counters;
		expect(names).toEqual(expect.arrayContaining(['workingset_refault', 'workingset_activate', 'pgactivate', 'pgdeactivate', 'pgscan_file', 'pgsteal_file']));
		const refault = names.indexOf('workingset_refault');
		const pages = text.split(' ').map(Number);
		let refaults = 0;
		for (let k = 1; k <= pages.length; k++) {
			const [before, after] = [await linux.session.snapshot(k - 1), await linux.session.snapshot(k)];
			const delta = after.counters[refault] - after.countersBefore[refault];
			expect(after.countersBefore).toEqual(before.counters);
			/* Every eviction leaves a shadow value (lru_model.h), so a fault on a page seen before is a refault. */
			const resident = before.lists.some((list, l) => !linux.policy.lists[l].ghost && list.indexOfPage(pages[k - 1]) >= 0);
			const refaulted = !resident && pages.slice(0, k - 1).includes(pages[k - 1]);
			expect(delta, `step ${k} (page ${pages[k - 1]})`).toBe(refaulted ? 1 : 0);
			refaults += delta;
		}
		expect(refaults).toBeGreaterThan(0);
		expect(refaults).toBe(linux.result.counters.workingset_refault);
	});
});

describe('the transitions of a step', () => {
	it('mark the promoted page, its changed fields and nothing else', async () => {
		const r = await run('linux', 4, '1 2 1', { anon_percent: 0 });
		const t = transitionsOf(r.policy, r.timeline.log.eventsOfStep(3));
		const active = r.policy.lists.findIndex((l) => l.name === 'active_file');
		expect(t.reference).toEqual({ page: 1, hit: true });
		expect(t.moved.get(1)).toMatchObject({ kind: 'promoted', to: active });
		expect([...t.changed.keys()]).toEqual([1]);
		expect(t.entered.size).toBe(0);
		expect(t.evicted).toEqual([]);
	});

	it('mark the evicted page, the entered page and every hand move', async () => {
		const r = await run('clock', 3, '1 2 3 1 4', { ref_on_load: 1 });
		const t = transitionsOf(r.policy, r.timeline.log.eventsOfStep(5));
		expect(t.evicted).toEqual([{ page: 1, list: 0, dirty: false }]);
		expect([...t.entered]).toEqual([4]);
		expect(t.hands.get(0)).toEqual([
			{ a: 0, b: 1 },
			{ a: 1, b: 2 },
			{ a: 2, b: 0 },
			{ a: 0, b: 1 },
		]);
	});
});

describe('a long trace', () => {
	it('is recorded only as far as the step view shows, with statistics over all of it', async () => {
		const r = await loadRun(
			client,
			{ policy: 'lru', frames: 16, params: {}, trace: { kind: 'generator', spec: { kind: 'uniform', length: 120_000, pages: 64, seed: 3 } } },
			await client.listPolicies(),
		);
		runs.push(r);
		expect(r.result.stats.references).toBe(120_000);
		expect(r.timeline.steps).toBe(r.session.steps);
		expect(r.timeline.steps).toBeLessThan(120_000);
		expect(r.timeline.faultsAt(r.timeline.steps)).toBe(
			Array.from(r.result.outcome.subarray(0, r.timeline.steps)).filter((o) => o === 0).length,
		);
	});
});
