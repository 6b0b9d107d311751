/*
 * narration.ts - one step explained in one sentence, from its events only,
 * each move with the rule that made it:
 *   "page 7: hit; referenced bit set on the inactive list → promoted to
 *    active_file (mark_page_accessed → folio_activate, pgactivate)"
 *   "page 5: miss; no page at RRPV 3, so every RRPV was incremented (aging);
 *    page 2 reached RRPV 3 (distant re-reference) → evicted; ..."
 *
 * The clauses follow the events in the order the policy made them, so they
 * say what happened, never a guess; the reason attached to a clause is read
 * from the same events (which bits the reclaim walk cleared, which list a
 * page came from, whether a shadow entry was consumed) and from the
 * vocabulary of well-known list and field names (Linux's inactive_/active_
 * lists and shadow entries, RRPV, reference bits, OPT's next use, LRU's
 * recency list, FIFO's queue), never from a policy's name.
 *
 * Events are first grouped into page stories: the consecutive events about
 * one page (a reclaim walk passing a page clears its bits and moves it: one
 * story, one clause).  Runs of like stories fold into one clause (a clock
 * sweep, a sweep of RRPV increments, a batch of evictions), and a step that
 * would need more than MAX_CLAUSES clauses (Linux reclaiming a batch of 32
 * at 4096 frames) ends with a count of the rest, so a sentence stays
 * readable and cheap however large the step.
 *
 * With `fold` (lecture mode, where a projector shows a few lines of a
 * narrow column), Linux's clauses take their short form, the rule in a few
 * words ("page 37 reclaimed from inactive_anon (accessed bit clear),
 * shadow at 108", as its chip reads; the drawing labels the tail reclaim
 * takes from), and the clauses of a step
 * that differ only in their page fold into one, told where the first of
 * them falls: "12 pages (4101, 4102, 4103…) deactivated to inactive_file
 * (inactive list low)" for twelve clauses, the shadow entries' eviction
 * counters as a range.  A reclaim walk that keeps, activates and keeps
 * again is told as one "kept" and one "activated" clause: each rule once,
 * however the walk interleaved them.  The full sentence, in the order the
 * policy acted, stays the one a screen reader reads.
 */
import type { PageNumber, PolicyEvent, PolicyInfo } from '../wasm/protocol';

const FIELD_WORDS: Record<string, string> = {
	rrpv: 'RRPV',
	referenced: 'reference bit',
	accessed: 'accessed bit',
	modified: 'modified bit',
	active: 'active flag',
	next_use: 'next use',
	eviction: 'eviction counter',
	refault_distance: 'refault distance',
};

/** Clauses told in full before the rest of a step is counted. */
export const MAX_CLAUSES = 8;

export function fieldWord(name: string): string {
	return FIELD_WORDS[name] ?? name.replace(/_/g, ' ');
}

export function isBit(name: string): boolean {
	return /^(referenced|accessed|modified|active)$/.test(name);
}

/** OPT's next use as people count: reference 1-based, "never" for none. */
export function nextUseWord(value: number): string {
	return value < 0 ? 'never' : `reference ${value + 1}`;
}

/** What the narration may know beyond the step's events. */
export interface NarrationContext {
	/** Pages in memory before the step (for "every page"). */
	resident: number;
	/** The reference writes. */
	write?: boolean;
	/** Each list's length after the step (for "at the tail"). */
	lengthsAfter?: number[];
	/** Largest value of each field (e.g. RRPV max), by field index. */
	fieldMax?: number[];
	/** The reference (1-based) that next uses a page after this step, null for never. */
	nextUse?: (page: PageNumber) => number | null;
	/** Linux's clauses short, and runs of them that differ only in their page told as one (lecture mode). */
	fold?: boolean;
}

type Story = { page: PageNumber | null; events: PolicyEvent[] };
type Phase = 'hit' | 'reclaim' | 'fault';

function listName(policy: PolicyInfo, list: number): string {
	return policy.lists[list]?.name ?? `list ${list}`;
}

function fieldName(policy: PolicyInfo, field: number): string {
	return policy.fields[field] ?? `field ${field}`;
}

function pageList(pages: PageNumber[]): string {
	return pages.length <= 6 ? pages.join(', ') : `${pages.slice(0, 5).join(', ')} and ${pages.length - 5} more`;
}

const isInactive = (name: string) => /^inactive/.test(name);
const isActive = (name: string) => /^active/.test(name);

/**
 * Consecutive events about one page, when `merge` (Linux's rules read a
 * page's whole passage through the reclaim walk); else one event each.
 * Hand, hit and miss events always stand alone.
 */
function storiesOf(events: PolicyEvent[], merge: boolean): Story[] {
	const stories: Story[] = [];
	for (const e of events) {
		if (e.kind === 'victim') continue;
		const last = merge ? stories[stories.length - 1] : undefined;
		const alone = (x: PolicyEvent) => x.kind === 'hit' || x.kind === 'miss';
		if (last && e.page !== null && last.page === e.page && !alone(e) && !alone(last.events[0])) last.events.push(e);
		else stories.push({ page: e.page, events: [e] });
	}
	return stories;
}

function setOf(policy: PolicyInfo, story: Story, name: string): PolicyEvent | undefined {
	return story.events.find((e) => e.kind === 'set' && fieldName(policy, e.arg) === name);
}

function withFields(policy: PolicyInfo, sets: PolicyEvent[]): string {
	const words = sets.map((e) => {
		const name = fieldName(policy, e.arg);
		if (name === 'next_use') return `next use ${nextUseWord(e.b)}`;
		return isBit(name) ? `${fieldWord(name)} ${e.b ? 'set' : 'clear'}` : `${fieldWord(name)} ${e.b}`;
	});
	return words.length ? ` with ${words.join(', ')}` : '';
}

/*
 * Linux's reclaim and mark_page_accessed() rules, told from a page story.
 * `phase` says where in the step the story sits: after a hit, inside the
 * reclaim a fault started, or bringing the faulting page in.
 */
function linuxClause(policy: PolicyInfo, story: Story, phase: Phase, ctx: NarrationContext): string | null {
	const page = story.page as PageNumber;
	const move = story.events.find((e) => e.kind === 'move');
	const evict = story.events.find((e) => e.kind === 'evict');
	const insert = story.events.find((e) => e.kind === 'insert');
	const short = ctx.fold ?? false;
	if (evict) {
		const shadow = insert && policy.lists[insert.arg]?.ghost ? setOf(policy, story, 'eviction') : undefined;
		const list = listName(policy, evict.arg);
		if (short) return `page ${page} reclaimed from ${list} (accessed bit clear)${evict.a ? ', written back' : ''}${shadow ? `, shadow at ${shadow.b}` : ''}`;
		const dirty = evict.a ? ', written back (dirty)' : '';
		const left = shadow ? `; shadow entry left with eviction counter ${shadow.b}` : '';
		return `page ${page} at the tail of ${list}, accessed bit clear → reclaimed (shrink_folio_list, pgsteal)${dirty}${left}`;
	}
	if (move) {
		const from = listName(policy, move.a);
		const to = listName(policy, move.arg);
		if (isInactive(from) && isActive(to)) {
			if (phase === 'hit') return `referenced bit set on ${from} → promoted to ${to} (mark_page_accessed${short ? '' : ' → folio_activate, pgactivate'})`;
			if (short) return `page ${page} activated from ${from} (accessed and referenced)`;
			return `page ${page} at the tail of ${from}, accessed and referenced → activated to ${to} (folio_check_references: activate, pgactivate)`;
		}
		if (isActive(from) && isInactive(to)) {
			const rrpv = setOf(policy, story, 'rrpv');
			const max = ctx.fieldMax?.[policy.fields.indexOf('rrpv')];
			if (policy.fields.includes('rrpv') && short) return `page ${page} at RRPV ${rrpv ? rrpv.a : max ?? 'max'} deactivated to ${to} (RRIP aging)`;
			if (policy.fields.includes('rrpv'))
				return `page ${page} at RRPV ${rrpv ? rrpv.a : max ?? 'max'} (distant) → deactivated to ${to} (RRIP aging of the active list, pgdeactivate)`;
			if (short) return `page ${page} deactivated to ${to} (inactive list low)`;
			return `page ${page} at the tail of ${from} → deactivated to ${to}, the inactive list being low (shrink_active_list, pgdeactivate)`;
		}
		if (move.a === move.arg && short) return `page ${page} kept on ${from}: accessed, not referenced`;
		if (move.a === move.arg)
			return `page ${page} at the tail of ${from}, accessed but not referenced → kept: referenced set, back to the head (folio_check_references: keep)`;
	}
	if (phase === 'hit') {
		const referenced = setOf(policy, story, 'referenced');
		const accessed = setOf(policy, story, 'accessed');
		const rrpv = setOf(policy, story, 'rrpv');
		if (rrpv && rrpv.b === 0) return `on the active list → RRPV ${rrpv.a} → 0 (hit promotion)`;
		if (referenced && referenced.b === 1) return 'first touch on an unreferenced page → referenced bit set (mark_page_accessed)';
		if (accessed && accessed.b === 1) return 'accessed bit set by the MMU (anon or mapped page: the kernel looks only when reclaim scans)';
		if (story.events.length === 0) return 'already active and referenced, or accessed: nothing changes';
	}
	if (insert && phase === 'fault' && !policy.lists[insert.arg]?.ghost) {
		const to = listName(policy, insert.arg);
		const distance = setOf(policy, story, 'refault_distance');
		const sets = story.events.filter((e) => e.kind === 'set' && e !== distance && fieldName(policy, e.arg) !== 'active');
		const fields = withFields(policy, sets);
		if (distance && short) return `refault of page ${page}: distance ${distance.b} ${isActive(to) ? '≤' : '>'} working set → ${to}`;
		if (short) return `page ${page} in at the head of ${to}`;
		if (distance) {
			const verdict = isActive(to)
				? `≤ the working set → straight to ${to} (workingset_refault, workingset_activate)`
				: `> the working set → ${to} as a new page (workingset_refault)`;
			return `refault of page ${page}: shadow entry found, refault distance ${distance.b} ${verdict}${fields}`;
		}
		return `page ${page} faulted in at the head of ${to}${fields} (folio_add_lru)`;
	}
	return null;
}

/* Why a page was the one evicted, from the names of its list and fields. */
function evictionReason(policy: PolicyInfo, evict: PolicyEvent, reached: PolicyEvent | undefined, ctx: NarrationContext): string {
	const list = listName(policy, evict.arg);
	if (reached && fieldName(policy, reached.arg) === 'rrpv') return ` (reached RRPV ${reached.b}: distant re-reference)`;
	if (policy.fields.includes('next_use') && ctx.nextUse) {
		const next = ctx.nextUse(evict.page as PageNumber);
		return next === null ? ' (never used again)' : ` (next use reference ${next}, the furthest ahead)`;
	}
	if (list === 'recency') return ' (least recently used: the tail of recency)';
	if (list === 'queue') return ' (loaded longest ago: the head of the queue)';
	if (policy.hands.length && policy.fields.includes('referenced')) return ' (under the hand with its reference bit clear)';
	if (policy.fields.includes('count')) return ' (fewest references since loaded)';
	if (policy.fields.includes('counter')) return ' (smallest age counter)';
	if (policy.fields.includes('modified')) return ' (from the lowest class of referenced, modified)';
	return '';
}

function sweepWords(from: number, to: number): string {
	return from === to ? `went once round from slot ${from}` : `swept from slot ${from} to slot ${to}`;
}

function setsClause(policy: PolicyInfo, field: number, pages: PageNumber[], a: number, b: number, ctx: NarrationContext): string {
	const name = fieldName(policy, field);
	const word = fieldWord(name);
	const many = pages.length > 1;
	const every = many && pages.length >= ctx.resident;
	const who = many ? (every ? 'every page' : `pages ${pageList(pages)}`) : `page ${pages[0]}`;
	if (isBit(name) && (a === 0 || a === 1) && (b === 0 || b === 1)) return `${word} of ${who} ${b ? 'set' : 'cleared'}`;
	if (name === 'next_use') return `next use of page ${pages[0]} now ${nextUseWord(b)}`;
	if (many) {
		const delta = b - a;
		const why = name === 'rrpv' && delta > 0 ? ' (no page at the maximum: aging)' : name === 'counter' ? ' (a tick: reference bits shifted in)' : '';
		if (delta === 1) return `${word} of ${who} incremented${why}`;
		if (delta === -1) return `${word} of ${who} decremented${why}`;
		return `${word} of ${who} changed by ${delta > 0 ? '+' : ''}${delta}${why}`;
	}
	if (name === 'rrpv' && b === 0) return `RRPV of page ${pages[0]} ${a} → 0 (hit: near re-reference)`;
	if (name === 'counter') return `age counter of page ${pages[0]} ${a.toString(2)} → ${b.toString(2)}`;
	return `${word} of page ${pages[0]} ${a} → ${b}`;
}

/**
 * The narration of one step.  `events` are the step's events in order.
 */
export function narrate(policy: PolicyInfo, events: PolicyEvent[], ctx: NarrationContext): string {
	const clauses: string[] = [];
	const linux = policy.lists.some((l) => isActive(l.name)) && policy.lists.some((l) => isInactive(l.name));
	const stories = storiesOf(events, linux);
	const phases = linux ? phasesOf(policy, stories) : [];
	/* Stories already told in a folded clause (lecture mode's Linux clauses). */
	const told = new Set<number>();
	const lastSet = new Map<PageNumber, PolicyEvent>();
	let i = 0;
	while (i < stories.length && clauses.length < MAX_CLAUSES) {
		if (told.has(i)) {
			i++;
			continue;
		}
		const story = stories[i];
		const e = story.events[0];
		const page = story.page as PageNumber;
		if (e.kind === 'hit' || e.kind === 'miss') {
			const head = `page ${page}: ${e.kind === 'hit' ? 'hit' : ctx.fold && linux ? 'miss' : 'miss (page fault)'}${ctx.write ? ' (write)' : ''}`;
			/* The hit's own changes follow as the next story of the same page. */
			const next = stories[i + 1];
			if (linux && e.kind === 'hit') {
				const own = next && next.page === page ? next : { page, events: [] };
				const why = linuxClause(policy, own, 'hit', ctx);
				clauses.push(why ? `${head}; ${why}` : head);
				i += own === next ? 2 : 1;
				continue;
			}
			clauses.push(head);
			i++;
			continue;
		}
		if (linux) {
			const clause = linuxClause(policy, story, phases[i], ctx);
			if (clause) {
				clauses.push(ctx.fold ? linuxFold(policy, stories, phases, i, clause, told, ctx) : clause);
				i++;
				continue;
			}
		}
		const folded = foldGeneric(policy, stories, i, ctx, lastSet);
		clauses.push(folded.clause);
		i = folded.end;
	}
	const rest = stories.filter((_, k) => k >= i && !told.has(k));
	if (rest.length) clauses.push(restCount(rest));
	return clauses.filter((c) => c).join('; ');
}

/*
 * Where in a Linux step each story sits: after a hit, inside the reclaim a
 * fault started, or (from the faulting page's insertion or refault on)
 * bringing the faulting page in.
 */
function phasesOf(policy: PolicyInfo, stories: Story[]): Phase[] {
	let phase: Phase = 'hit';
	let referenced: PageNumber | null = null;
	return stories.map(({ page, events }) => {
		const e = events[0];
		if (e.kind === 'hit' || e.kind === 'miss') {
			referenced = page;
			phase = e.kind === 'hit' ? 'hit' : 'reclaim';
		} else if (page === referenced && phase === 'reclaim' && events.some((x) => x.kind === 'insert' || (x.kind === 'set' && fieldName(policy, x.arg) === 'refault_distance')))
			phase = 'fault';
		return phase;
	});
}

/* A Linux clause with its page and eviction counter taken out: clauses of one template say the same of different pages. */
const COUNTER = /shadow at (\d+)/;
function template(clause: string, page: PageNumber): string {
	return clause.replace(`page ${page} `, '{pages} ').replace(COUNTER, 'shadow at {counter}');
}

/*
 * Story i's Linux `clause` told together with every later story of the
 * step whose clause shares its template (each marked `told`): "N pages (…)
 * at the tail of …", the shadow entries' eviction counters "a–b".  A
 * clause no other story shares is told as it is.
 */
function linuxFold(
	policy: PolicyInfo,
	stories: Story[],
	phases: Phase[],
	i: number,
	clause: string,
	told: Set<number>,
	ctx: NarrationContext,
): string {
	const first = stories[i].page as PageNumber;
	const shape = template(clause, first);
	if (!shape.startsWith('{pages} ')) return clause;
	const pages = [first];
	const counters = [COUNTER.exec(clause)?.[1]];
	for (let k = i + 1; k < stories.length; k++) {
		const page = stories[k].page;
		if (page === null || told.has(k) || stories[k].events[0].kind === 'hit' || stories[k].events[0].kind === 'miss') continue;
		const next = linuxClause(policy, stories[k], phases[k], ctx);
		if (next === null || template(next, page) !== shape) continue;
		told.add(k);
		pages.push(page);
		counters.push(COUNTER.exec(next)?.[1]);
	}
	if (pages.length === 1) return clause;
	const range = counters[0] === counters[counters.length - 1] ? counters[0] : `${counters[0]}–${counters[counters.length - 1]}`;
	const some = pages.length <= 3 ? pages.join(', ') : `${pages.slice(0, 3).join(', ')}…`;
	return shape.replace('{pages} ', `${pages.length} pages (${some}) `).replace('shadow at {counter}', `shadows at ${range}`);
}

/* "and 212 more changes: 30 evictions, 40 moves, 142 field changes". */
function restCount(rest: Story[]): string {
	const counts = new Map<string, number>();
	const words: Record<string, string> = { evict: 'evictions', move: 'moves', set: 'field changes', insert: 'insertions', remove: 'forgotten shadows', hand: 'hand moves', variable: 'variable changes' };
	let n = 0;
	for (const s of rest)
		for (const e of s.events) {
			if (!words[e.kind]) continue;
			counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
			n++;
		}
	const parts = [...counts].map(([kind, c]) => `${c} ${words[kind]}`);
	return `and ${n} more changes in this step (${parts.join(', ')})`;
}

/*
 * The narration of any policy by its names: folds a clock sweep, a run of
 * like field changes, a batch of evictions; attaches the eviction's reason.
 */
function foldGeneric(
	policy: PolicyInfo,
	stories: Story[],
	i: number,
	ctx: NarrationContext,
	lastSet: Map<PageNumber, PolicyEvent>,
): { clause: string; end: number } {
	const story = stories[i];
	const e = story.events[0];
	const page = story.page as PageNumber;
	const sweep = handSweep(policy, stories, i);
	if (sweep) return sweep;
	if (e.kind === 'hand') {
		let j = i;
		while (j + 1 < stories.length && stories[j + 1].events[0].kind === 'hand' && stories[j + 1].events[0].arg === e.arg) j++;
		const name = policy.hands[e.arg]?.name ?? 'hand';
		const to = stories[j].events[0].b;
		return { clause: j > i ? `${name} ${sweepWords(e.a, to)}` : `${name} advanced from slot ${e.a} to slot ${to}`, end: j + 1 };
	}
	if (e.kind === 'variable') {
		const name = policy.variables[e.arg] ?? 'variable';
		return { clause: `${name} ${e.b > e.a ? 'rose' : 'fell'} from ${e.a} to ${e.b}`, end: i + 1 };
	}
	if (story.events.every((x) => x.kind === 'set')) {
		/* A run of single-set stories with the same change: one clause. */
		let j = i;
		const pages: PageNumber[] = [];
		while (
			j < stories.length &&
			stories[j].events.length === 1 &&
			stories[j].events[0].kind === 'set' &&
			stories[j].events[0].arg === e.arg &&
			stories[j].events[0].b - stories[j].events[0].a === e.b - e.a
		) {
			pages.push(stories[j].page as PageNumber);
			lastSet.set(stories[j].page as PageNumber, stories[j].events[0]);
			j++;
		}
		if (j === i) {
			for (const x of story.events) lastSet.set(page, x);
			return { clause: story.events.map((x) => setsClause(policy, x.arg, [page], x.a, x.b, ctx)).join(', '), end: i + 1 };
		}
		return { clause: setsClause(policy, e.arg, pages, e.a, e.b, ctx), end: j };
	}
	const evict = story.events.find((x) => x.kind === 'evict');
	if (evict) {
		/* A batch of plain evictions from one list is one clause. */
		let j = i;
		const pages: PageNumber[] = [];
		while (j < stories.length && stories[j].events[0].kind === 'evict' && stories[j].events[0].arg === evict.arg && !stories[j].events[0].a && !lastSet.has(stories[j].page as PageNumber)) {
			pages.push(stories[j].page as PageNumber);
			j++;
		}
		if (pages.length > 1) return { clause: `pages ${pageList(pages)} evicted from ${listName(policy, evict.arg)}`, end: j };
		const reached = story.events.find((x) => x.kind === 'set') ?? lastSet.get(page);
		const how = evict.a ? ' (dirty: written back)' : '';
		return { clause: `page ${page} evicted from ${listName(policy, evict.arg)}${evictionReason(policy, evict, reached, ctx)}${how}`, end: i + 1 };
	}
	const insert = story.events.find((x) => x.kind === 'insert');
	if (insert) {
		/* The new page's first fields follow its insertion. */
		let j = i + 1;
		while (j < stories.length && stories[j].page === page && stories[j].events[0].kind === 'set' && stories[j].events[0].a === 0) j++;
		const sets = stories.slice(i + 1, j).map((x) => x.events[0]);
		for (const x of sets) lastSet.set(page, x);
		const list = listName(policy, insert.arg);
		const len = ctx.lengthsAfter?.[insert.arg] ?? 0;
		const atTail = len > 1 && insert.b === len - 1;
		const place = insert.b === 0 ? ' at the head' : atTail ? ' at the tail' : ` at position ${insert.b}`;
		const where = list === 'frames' ? `frame slot ${insert.b}` : `${list}${place}`;
		const rrpv = sets.find((x) => fieldName(policy, x.arg) === 'rrpv');
		const why = rrpv ? ` (${rrpv.b === 0 ? 'near' : 'long'} re-reference predicted)` : '';
		return { clause: `page ${page} inserted into ${where}${withFields(policy, sets)}${why}`, end: j };
	}
	const move = story.events.find((x) => x.kind === 'move');
	if (move) {
		const src = listName(policy, move.a);
		const dst = listName(policy, move.arg);
		const clause =
			move.a === move.arg
				? dst === 'recency'
					? `page ${page} moved to the head of recency (most recently used)`
					: `page ${page} moved to ${move.b === 0 ? 'the head' : `position ${move.b}`} of ${dst}`
				: policy.lists[move.a]?.ghost
					? `page ${page} found in ghost list ${src}, back into ${dst}`
					: `page ${page} moved from ${src} to ${dst}`;
		return { clause, end: i + 1 };
	}
	const remove = story.events.find((x) => x.kind === 'remove');
	if (remove) return { clause: `page ${page} forgotten from ${listName(policy, remove.arg)}`, end: i + 1 };
	return { clause: '', end: i + 1 };
}

/*
 * A clock sweep: stories "bit of the page under the hand cleared", each
 * followed by the hand advancing, told as one clause with the pages that
 * got a second chance.
 */
function handSweep(policy: PolicyInfo, stories: Story[], i: number): { clause: string; end: number } | null {
	const spared: PageNumber[] = [];
	let j = i;
	const first = stories[i].events[0];
	if (first.kind !== 'set' || !isBit(fieldName(policy, first.arg))) return null;
	let to = 0;
	while (
		j + 1 < stories.length &&
		stories[j].events.length === 1 &&
		stories[j].events[0].kind === 'set' &&
		stories[j].events[0].arg === first.arg &&
		stories[j].events[0].a === 1 &&
		stories[j].events[0].b === 0 &&
		stories[j + 1].events[0].kind === 'hand'
	) {
		spared.push(stories[j].page as PageNumber);
		to = stories[j + 1].events[0].b;
		j += 2;
	}
	if (!spared.length) return null;
	const hand = stories[i + 1].events[0];
	const name = policy.hands[hand.arg]?.name ?? 'hand';
	const word = fieldWord(fieldName(policy, first.arg));
	const whose = spared.length > 1 ? `${word}s of pages ${pageList(spared)}` : `${word} of page ${spared[0]}`;
	return { clause: `${name} ${sweepWords(hand.a, to)}, clearing the ${whose} (second chance)`, end: j };
}
