/*
 * timeline.ts - everything the step view derives from one recorded run: the
 * event log in compact arrays, running statistics, where the faults and
 * evictions are, and the textbook frame grid.
 *
 * Steps follow the core: step k is the state after references 0..k-1, so
 * step 0 is empty and step n the end.  The events of reference k-1 are "the
 * events of step k": they turn step k-1 into step k.
 *
 * The frame grid is derived from the event stream alone, as a textbook
 * draws it: rows are frames; a page entering memory (INSERT into a list that
 * is not a ghost list, or MOVE out of a ghost list) takes the row the
 * page evicted in the same step left free, else the lowest free row; EVICT
 * frees its row.  So a policy added later gets its grid with no UI code.
 *
 * Invariants
 *   - faultsAt(k) + hitsAt(k) == k.
 *   - column(k) holds exactly the resident pages at step k (tested against
 *     the snapshots).
 *   - Memory is O(events + steps + frames * steps / GRID_CHECKPOINT).
 */
import {
	EVENT_KINDS,
	eventAt,
	pageAt,
	pageOf,
	type EventArrays,
	type EventKind,
	type PageNumber,
	type PageSequence,
	type PageTable,
	type PolicyEvent,
	type PolicyInfo,
} from '../wasm/protocol';

const GRID_CHECKPOINT = 256;
const COLUMN_CACHE = 4096;
const KIND = Object.fromEntries(EVENT_KINDS.map((k, i) => [k, i])) as Record<EventKind, number>;

/** The event log as parallel arrays; events of step k are [start[k-1], start[k]). */
export class EventLog {
	readonly kind: Uint8Array;
	readonly arg: Uint16Array;
	/** Dense page id of each event (NO_PAGE for a hand), an index into `numbers`. */
	readonly page: Uint32Array;
	readonly numbers: PageTable;
	readonly a: Int32Array;
	readonly b: Int32Array;
	/** start[i] is the index of the first event of reference i; start[n] is the count. */
	readonly start: Uint32Array;

	/** Adopts the arrays of a recording's events from step 0. */
	constructor(arrays: EventArrays) {
		if (arrays.from !== 0) throw new Error('an event log starts at step 0');
		({ kind: this.kind, arg: this.arg, page: this.page, numbers: this.numbers, a: this.a, b: this.b, start: this.start } = arrays);
	}

	/** The events that turn step k-1 into step k (k >= 1), decoded. */
	eventsOfStep(k: number): PolicyEvent[] {
		const out: PolicyEvent[] = [];
		for (let i = this.start[k - 1]; i < this.start[k]; i++) out.push(eventAt(this, i, k - 1));
		return out;
	}
}

export interface GridColumn {
	/** rows[r] is the page in frame r after the step, or null. */
	rows: (PageNumber | null)[];
	/** Rows whose page entered memory in this step. */
	entered: Set<number>;
}

export class Timeline {
	readonly steps: number;
	readonly log: EventLog;
	private readonly faults: Uint32Array;
	private readonly evictions: Uint32Array;
	/** Per step, the rows that changed and the page (dense id of the event log) each now holds (-1: empty). */
	private readonly changeStart: Uint32Array;
	private readonly changeRow: Uint32Array;
	private readonly changePage: Float64Array;
	private readonly checkpoints: Float64Array[];
	private readonly columnCache = new Map<number, GridColumn>();
	private readonly used: Set<number>;
	private readonly setMax: number[];
	/** List lengths at every GRID_CHECKPOINT-th step, filled on demand. */
	private readonly lengthCheckpoints: number[][];

	private constructor(
		readonly policy: PolicyInfo,
		readonly frames: number,
		/** Page number of each reference. */
		readonly pages: PageSequence,
		/** 1 where reference i hit. */
		readonly outcome: Uint8Array,
		log: EventLog,
		index: EventIndex,
	) {
		this.steps = outcome.length;
		this.log = log;
		this.faults = index.faults;
		this.evictions = index.evictions;
		this.changeStart = index.grid.start;
		this.changeRow = index.grid.row;
		this.changePage = index.grid.page;
		this.checkpoints = index.grid.checkpoints;
		this.used = index.used;
		this.setMax = index.setMax;
		this.lengthCheckpoints = [policy.lists.map(() => 0)];
	}

	/**
	 * Builds the timeline of a recording.  The event log of 50 000 steps of
	 * Linux is millions of events: they are read in slices, and `pause`
	 * (by default a macrotask) runs between slices, so the page never
	 * freezes while a big trace is applied.
	 */
	static async build(
		policy: PolicyInfo,
		frames: number,
		pages: PageSequence,
		outcome: Uint8Array,
		events: EventArrays,
		pause: () => Promise<void> = nextTask,
	): Promise<Timeline> {
		const log = new EventLog(events);
		const index = await indexEvents(policy, frames, outcome.length, outcome, log, pause);
		return new Timeline(policy, frames, pages, outcome, log, index);
	}

	/** How many pages each list holds at step k, replayed from the nearest checkpoint. */
	listLengths(k: number): number[] {
		const base = Math.floor(k / GRID_CHECKPOINT);
		for (let c = this.lengthCheckpoints.length; c <= base; c++)
			this.lengthCheckpoints.push(this.replayLengths(this.lengthCheckpoints[c - 1], (c - 1) * GRID_CHECKPOINT, c * GRID_CHECKPOINT));
		return this.replayLengths(this.lengthCheckpoints[base], base * GRID_CHECKPOINT, k);
	}

	/** The page that reference k (1-based: the move to step k) referenced. */
	reference(k: number): PageNumber {
		return pageAt(this.pages, k - 1);
	}

	/** The reference (1-based) that next uses `page` after step k, or null: OPT's reason. */
	nextUse(page: PageNumber, k: number): number | null {
		for (let j = k; j < this.steps; j++) if (pageAt(this.pages, j) === page) return j + 1;
		return null;
	}

	private replayLengths(from: number[], stepFrom: number, stepTo: number): number[] {
		const lengths = from.slice();
		const log = this.log;
		for (let i = log.start[stepFrom]; i < log.start[stepTo]; i++) {
			const kind = EVENT_KINDS[log.kind[i]];
			if (kind === 'insert') lengths[log.arg[i]]++;
			else if (kind === 'evict' || kind === 'remove') lengths[log.arg[i]]--;
			else if (kind === 'move') {
				lengths[log.a[i]]--;
				lengths[log.arg[i]]++;
			}
		}
		return lengths;
	}

	/** The lists any event of the run put a page into or took one out of. */
	usedLists(): Set<number> {
		return this.used;
	}

	/** The highest value any event of the run set field f to (0 if none). */
	highestSet(f: number): number {
		return this.setMax[f] ?? 0;
	}

	faultsAt(k: number): number {
		return this.faults[k];
	}

	hitsAt(k: number): number {
		return k - this.faults[k];
	}

	evictionsAt(k: number): number {
		return this.evictions[k];
	}

	/** The first step after k whose reference faulted, or null. */
	nextFault(k: number): number | null {
		for (let j = k + 1; j <= this.steps; j++) if (!this.outcome[j - 1]) return j;
		return null;
	}

	/** The first step after k that evicted a page, or null. */
	nextEviction(k: number): number | null {
		for (let j = k + 1; j <= this.steps; j++) if (this.evictions[j] > this.evictions[j - 1]) return j;
		return null;
	}

	/**
	 * The frame grid's column at step k (k >= 0; column 0 is empty memory).
	 * The same object for the same k while it stays in the cache, so a view
	 * can skip redrawing columns that did not change.
	 */
	column(k: number): GridColumn {
		if (!Number.isInteger(k) || k < 0 || k > this.steps)
			throw new RangeError(`frame grid: step ${k} is outside the recorded steps 0..${this.steps}`);
		let column = this.columnCache.get(k);
		if (!column) {
			if (this.columnCache.size >= COLUMN_CACHE) this.columnCache.clear();
			column = this.computeColumn(k);
			this.columnCache.set(k, column);
		}
		return column;
	}

	private computeColumn(k: number): GridColumn {
		const base = Math.floor(k / GRID_CHECKPOINT);
		const ids = Array.from(this.checkpoints[base]);
		for (let j = base * GRID_CHECKPOINT + 1; j <= k; j++) this.applyChanges(j, ids);
		const rows = ids.map((id) => (id < 0 ? null : pageOf(this.log.numbers, id)));
		const entered = new Set<number>();
		if (k > 0)
			for (let c = this.changeStart[k - 1]; c < this.changeStart[k]; c++)
				if (this.changePage[c] >= 0) entered.add(this.changeRow[c]);
		return { rows, entered };
	}

	private applyChanges(k: number, ids: number[]): void {
		for (let c = this.changeStart[k - 1]; c < this.changeStart[k]; c++) ids[this.changeRow[c]] = this.changePage[c];
	}

}

/** What a Timeline derives from the event log in one pass. */
interface EventIndex {
	faults: Uint32Array;
	evictions: Uint32Array;
	grid: { start: Uint32Array; row: Uint32Array; page: Float64Array; checkpoints: Float64Array[] };
	used: Set<number>;
	setMax: number[];
}

/* Events read between two pauses: a few milliseconds of work. */
const EVENTS_PER_SLICE = 100_000;

function nextTask(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 0));
}

/*
 * One pass over the event log: running faults and evictions, the lists
 * used, the highest value set per field, and the frame grid's changes.
 * The grid: a page entering memory takes the row a page evicted in the
 * same step left free, else the lowest free row; EVICT frees its row.
 */
async function indexEvents(
	policy: PolicyInfo,
	frames: number,
	steps: number,
	outcome: Uint8Array,
	log: EventLog,
	pause: () => Promise<void>,
): Promise<EventIndex> {
	const ghost = policy.lists.map((l) => l.ghost);
	const faults = new Uint32Array(steps + 1);
	const evictions = new Uint32Array(steps + 1);
	const used = new Set<number>();
	const setMax = policy.fields.map(() => 0);
	const rows = new Float64Array(frames).fill(-1);
	const rowOf = new Map<number, number>();
	const start = new Uint32Array(steps + 1);
	const row: number[] = [];
	const page: number[] = [];
	const checkpoints = [rows.slice()];
	let sliceEnd = EVENTS_PER_SLICE;
	for (let k = 1; k <= steps; k++) {
		const freed: number[] = [];
		let evicted = 0;
		for (let i = log.start[k - 1]; i < log.start[k]; i++) {
			const kind = log.kind[i];
			const list = log.arg[i];
			const p = log.page[i];
			if (kind === KIND.set) setMax[list] = Math.max(setMax[list], log.b[i]);
			else if (kind === KIND.insert || kind === KIND.remove) used.add(list);
			else if (kind === KIND.move) used.add(list).add(log.a[i]);
			if (kind === KIND.evict) {
				used.add(list);
				evicted++;
				const r = rowOf.get(p);
				if (r === undefined) continue;
				rowOf.delete(p);
				rows[r] = -1;
				freed.push(r);
				row.push(r);
				page.push(-1);
				continue;
			}
			const enters = (kind === KIND.insert && !ghost[list]) || (kind === KIND.move && ghost[log.a[i]] && !ghost[list]);
			if (enters && !rowOf.has(p)) {
				const r = freed.length ? freed.shift()! : rows.indexOf(-1);
				if (r < 0) continue; /* more resident pages than frames: the core reports that */
				rowOf.set(p, r);
				rows[r] = p;
				row.push(r);
				page.push(p);
			}
		}
		faults[k] = faults[k - 1] + (outcome[k - 1] ? 0 : 1);
		evictions[k] = evictions[k - 1] + evicted;
		start[k] = row.length;
		if (k % GRID_CHECKPOINT === 0) checkpoints.push(rows.slice());
		if (log.start[k] >= sliceEnd) {
			sliceEnd = log.start[k] + EVENTS_PER_SLICE;
			await pause();
		}
	}
	return {
		faults,
		evictions,
		grid: { start, row: Uint32Array.from(row), page: Float64Array.from(page), checkpoints },
		used,
		setMax,
	};
}
