import { describe, expect, it } from 'vitest';
import {
	alignColumns,
	FaultCounter,
	countHits,
	divergenceGroups,
	firstDivergence,
	ghostColumn,
	initialPolicies,
	restorePolicies,
	lastEviction,
	nextDifference,
	paramsFor,
	residentPages,
	resultAt,
	stepResults,
	stripCells,
	stripWindow,
} from './compare';
import { snapshotFromEntries, type ListInfo, type PolicyEvent } from '../wasm/protocol';

/* 'HFF' -> outcome array (1 = hit). */
const runOf = (results: string) => Uint8Array.from([...results], (r) => (r === 'H' ? 1 : 0));

describe('a result at a step', () => {
	it('is the result of reference k - 1, because step k is the state after reference k', () => {
		const outcome = runOf('FFH');
		expect(resultAt(outcome, 1)).toBe('F');
		expect(resultAt(outcome, 3)).toBe('H');
	});

	it('does not exist at step 0 or past the end', () => {
		expect(resultAt(runOf('FH'), 0)).toBeNull();
		expect(resultAt(runOf('FH'), 3)).toBeNull();
	});

	it('is read for every run in lockstep', () => {
		expect(stepResults([runOf('FH'), runOf('FF')], 2)).toEqual(['H', 'F']);
	});
});

describe('the first divergence', () => {
	it('is the first step where one run hits and another faults', () => {
		expect(firstDivergence([runOf('FFFHF'), runOf('FFFFF')])).toBe(4);
	});

	it('is found among three or four runs when any one of them differs', () => {
		expect(firstDivergence([runOf('FFH'), runOf('FFH'), runOf('FHH'), runOf('FFH')])).toBe(2);
	});

	it('is at step 1 when the runs differ on the first reference', () => {
		expect(firstDivergence([runOf('H'), runOf('F')])).toBe(1);
	});

	it('is absent when the runs agree on every reference', () => {
		expect(firstDivergence([runOf('FFHF'), runOf('FFHF')])).toBeNull();
	});

	it('is absent with fewer than two runs or an empty trace', () => {
		expect(firstDivergence([runOf('FH')])).toBeNull();
		expect(firstDivergence([runOf(''), runOf('')])).toBeNull();
	});

	it('refuses runs of different lengths instead of comparing part of them', () => {
		expect(() => firstDivergence([runOf('FF'), runOf('FFF')])).toThrow(/different lengths/);
	});

	it('reports which runs hit and which faulted at that step', () => {
		const runs = [runOf('FH'), runOf('FF'), runOf('FH')];
		expect(divergenceGroups(runs, 2)).toEqual({ step: 2, hit: [0, 2], fault: [1] });
	});

	/*
	 * Silberschatz's string with 3 frames: FIFO faults 15 times, LRU 12.
	 * Both fault on 7 0 1 2, both hit the second 0, both fault on 3; then
	 * FIFO has evicted 0 (first in) while LRU evicted 1, so at step 7 the
	 * reference to 0 faults under FIFO and hits under LRU.
	 */
	it('is at step 7 for FIFO and LRU on the Silberschatz string with 3 frames', () => {
		const fifo = runOf('FFFFHFFFFFFHHFFHHFFF');
		const lru = runOf('FFFFHFHFFFFHHFHFHFHH');
		expect(firstDivergence([fifo, lru])).toBe(7);
	});
});

describe('the next difference', () => {
	const runs = [runOf('FFHFFH'), runOf('FHHFHH')];

	it('is the first divergence when counted from the start', () => {
		expect(nextDifference(runs, 0)).toBe(firstDivergence(runs));
	});

	it('is the next step after the current one where the runs differ', () => {
		expect(nextDifference(runs, 2)).toBe(5);
	});

	it('skips the difference at the current step itself', () => {
		expect(nextDifference(runs, 5)).toBeNull();
	});
});

describe('the last eviction of a page', () => {
	const event = (step: number, kind: PolicyEvent['kind'], page: number): PolicyEvent => ({ step, kind, arg: 0, page, a: 0, b: 0 });
	const events = [event(3, 'evict', 7), event(3, 'insert', 2), event(5, 'evict', 0), event(6, 'evict', 7)];

	it('is the 1-based step of the latest evict event for that page', () => {
		expect(lastEviction(events, 7)).toBe(7);
		expect(lastEviction(events, 0)).toBe(6);
	});

	it('is absent for a page that was never evicted, whatever else happened to it', () => {
		expect(lastEviction(events, 2)).toBeNull();
	});
});

describe('counting hits', () => {
	/* A view that starts one byte into its buffer: the first words are misaligned. */
	const shifted = (results: string) => {
		const bytes = new Uint8Array(results.length + 1);
		bytes.set(runOf(results), 1);
		return bytes.subarray(1);
	};

	it('counts every hit in a range, whatever its alignment', () => {
		const results = 'HFHHFFHHHHFHFHHHHFH';
		const expected = (from: number, to: number) => [...results.slice(from, to)].filter((r) => r === 'H').length;
		for (const outcome of [runOf(results), shifted(results)])
			for (let from = 0; from < results.length; from++)
				for (let to = from; to <= results.length; to++)
					expect(countHits(outcome, from, to)).toBe(expected(from, to));
	});

	it('finds a divergence hidden inside a word and one in a misaligned tail', () => {
		expect(firstDivergence([runOf('FFFFFFHF'), runOf('FFFFFFFF')])).toBe(7);
		expect(firstDivergence([shifted('FFFFFFFFF'), shifted('FFFFFFFFH')])).toBe(9);
	});
});

describe('the fault counter', () => {
	it('counts the faults before each step, starting from zero at step 0', () => {
		const counter = new FaultCounter(runOf('FHFF'));
		expect([0, 1, 2, 3, 4].map((k) => counter.at(k))).toEqual([0, 1, 1, 2, 3]);
		expect(counter.total).toBe(3);
	});

	it('agrees with a plain count at every step of a long run, across its stored blocks', () => {
		const outcome = Uint8Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 || i % 5 === 0 ? 0 : 1));
		const counter = new FaultCounter(outcome);
		let faults = 0;
		for (let k = 0; k <= outcome.length; k++) {
			expect(counter.at(k)).toBe(faults);
			faults += k < outcome.length && !outcome[k] ? 1 : 0;
		}
	});

	it('clamps a step outside the run to its ends', () => {
		const counter = new FaultCounter(runOf('FF'));
		expect(counter.at(-3)).toBe(0);
		expect(counter.at(99)).toBe(2);
	});
});

describe('a strip window', () => {
	it('shows the whole trace when it fits', () => {
		expect(stripWindow(12, 5, 100)).toEqual({ first: 1, last: 12 });
	});

	it('is empty for an empty trace', () => {
		const window = stripWindow(0, 0, 10);
		expect(window.first > window.last).toBe(true);
	});

	it('keeps the current step near its centre on a long trace', () => {
		expect(stripWindow(1000, 500, 11)).toEqual({ first: 495, last: 505 });
	});

	it('never runs off the start or the end of the trace', () => {
		expect(stripWindow(1000, 0, 10)).toEqual({ first: 1, last: 10 });
		expect(stripWindow(1000, 1000, 10)).toEqual({ first: 991, last: 1000 });
	});

	it('needs room for at least one cell', () => {
		expect(() => stripWindow(10, 1, 0)).toThrow(/at least one cell/);
	});
});

describe('strip cells', () => {
	it('carry the step, its result and the page referenced there', () => {
		const cells = stripCells(runOf('FHF'), { first: 2, last: 3 }, { ids: Uint32Array.from([0, 1, 2]), numbers: Float64Array.from([7, 0, 1]) });
		expect(cells).toEqual([
			{ step: 2, result: 'H', page: 0 },
			{ step: 3, result: 'F', page: 1 },
		]);
	});

	it('have no page when the trace is not at hand', () => {
		expect(stripCells(runOf('F'), { first: 1, last: 1 })[0].page).toBeNull();
	});
});

describe('resident pages', () => {
	const lists: ListInfo[] = [
		{ name: 't1', ghost: false },
		{ name: 'b1', ghost: true },
		{ name: 't2', ghost: false },
	];
	const entry = (page: number) => ({ page, values: [] });
	const snapshot = snapshotFromEntries(4, [[entry(3), entry(1)], [entry(9)], [entry(5)]]);

	it('are the pages of the non-ghost lists in list order', () => {
		expect(residentPages(snapshot, lists)).toEqual([3, 1, 5]);
	});
});

describe('the ghost OPT column', () => {
	it('lists what OPT holds in page order, with the runs that hold the same page', () => {
		const column = ghostColumn([4, 0, 2], [[0, 1, 2], [2, 3, 4]]);
		expect(column.opt).toEqual([
			{ page: 0, heldBy: [0] },
			{ page: 2, heldBy: [0, 1] },
			{ page: 4, heldBy: [1] },
		]);
	});

	it('names the pages each run holds that OPT has already let go', () => {
		const column = ghostColumn([4, 0, 2], [[0, 1, 2], [2, 3, 4]]);
		expect(column.notInOpt).toEqual([[1], [3]]);
	});

	it('finds nothing to blame when a run holds exactly what OPT holds', () => {
		expect(ghostColumn([1, 2], [[2, 1]]).notInOpt).toEqual([[]]);
	});
});

describe('the policies a comparison starts with', () => {
	const available = ['fifo', 'lru', 'opt', 'clock', 'srrip'];

	it('are the scenario policy and then its companions', () => {
		expect(initialPolicies('clock', ['lru', 'opt'], available, 3)).toEqual(['clock', 'lru', 'opt']);
	});

	it('skip a companion that is the scenario policy itself', () => {
		expect(initialPolicies('lru', ['lru', 'fifo'], available, 2)).toEqual(['lru', 'fifo']);
	});

	it('fill up from the available policies when a companion is not in the core', () => {
		expect(initialPolicies('fifo', ['arc'], available, 2)).toEqual(['fifo', 'lru']);
	});
});

describe('a saved selection of policies (a slide link)', () => {
	const available = ['fifo', 'lru', 'opt', 'clock'];
	const restore = (saved: string[] | undefined) => restorePolicies(saved, 'clock', ['lru'], available, 2, 4);

	it('comes back as it was saved', () => {
		expect(restore(['fifo', 'opt', 'lru'])).toEqual(['fifo', 'opt', 'lru']);
	});

	it('drops names the core does not have, and repeats', () => {
		expect(restore(['fifo', 'arc', 'fifo', 'opt'])).toEqual(['fifo', 'opt']);
	});

	it('keeps at most four policies', () => {
		expect(restore(['fifo', 'lru', 'opt', 'clock', 'fifo'])).toHaveLength(4);
	});

	it('starts afresh from the scenario when too little of it is left', () => {
		expect(restore(['arc', 'fifo'])).toEqual(['clock', 'lru']);
		expect(restore(undefined)).toEqual(['clock', 'lru']);
	});
});

describe('the parameters of a compared policy', () => {
	const scenario = { policy: 'srrip', frames: 4, params: { bits: 2 }, trace: { kind: 'text' as const, text: '1 2' } };

	it('are the scenario parameters for the scenario policy', () => {
		expect(paramsFor(scenario, 'srrip')).toEqual({ bits: 2 });
	});

	it('are the defaults for every other policy', () => {
		expect(paramsFor(scenario, 'lru')).toBeUndefined();
	});
});

describe('aligned frame columns', () => {
	it('put the pages every policy holds on the same rows, in page order', () => {
		expect(alignColumns([[2, 3, 0], [0, 3, 2]])).toEqual([[0, 2, 3], [0, 2, 3]]);
	});

	it('put the pages where the policies differ on the rows below, side by side', () => {
		/* FIFO and OPT on the Silberschatz string at step 6. */
		expect(alignColumns([[1, 2, 3], [0, 2, 3]])).toEqual([[2, 3, 1], [2, 3, 0]]);
	});

	it('keep every page of a column exactly once, even when memory is not yet full', () => {
		expect(alignColumns([[7], [7, 0]])).toEqual([[7], [7, 0]]);
		expect(alignColumns([])).toEqual([]);
	});
});
