/*
 * transitions.ts - what a step did to the structure, read from its events,
 * in the form the drawings animate: which pages entered, moved (promoted or
 * demoted between Linux-style lists), had a field changed or were evicted,
 * and how each hand moved.  Nothing here compares snapshots: the events
 * are the only source, so an animation never shows a guess.
 */
import type { PageNumber, PolicyEvent, PolicyInfo } from '../wasm/protocol';

export type MoveKind = 'promoted' | 'demoted' | 'moved';

export interface Transitions {
	entered: Set<PageNumber>;
	moved: Map<PageNumber, { from: number; to: number; kind: MoveKind }>;
	/** page -> field indexes that changed */
	changed: Map<PageNumber, Set<number>>;
	evicted: Array<{ page: PageNumber; list: number; dirty: boolean }>;
	/** hand index -> its moves in order */
	hands: Map<number, Array<{ a: number; b: number }>>;
	/** The referenced page, and whether it hit. */
	reference: { page: PageNumber; hit: boolean } | null;
}

export const NO_TRANSITIONS: Transitions = {
	entered: new Set(),
	moved: new Map(),
	changed: new Map(),
	evicted: [],
	hands: new Map(),
	reference: null,
};

export function moveKind(policy: PolicyInfo, from: number, to: number): MoveKind {
	const src = policy.lists[from]?.name ?? '';
	const dst = policy.lists[to]?.name ?? '';
	if (/^inactive/.test(src) && /^active/.test(dst)) return 'promoted';
	if (/^active/.test(src) && /^inactive/.test(dst)) return 'demoted';
	return 'moved';
}

export function transitionsOf(policy: PolicyInfo, events: PolicyEvent[]): Transitions {
	const t: Transitions = {
		entered: new Set(),
		moved: new Map(),
		changed: new Map(),
		evicted: [],
		hands: new Map(),
		reference: null,
	};
	for (const e of events) {
		const page = e.page as PageNumber;
		switch (e.kind) {
			case 'hit':
			case 'miss':
				t.reference = { page, hit: e.kind === 'hit' };
				break;
			case 'insert':
				t.entered.add(page);
				break;
			case 'move':
				if (e.a !== e.arg || !t.moved.has(page)) t.moved.set(page, { from: e.a, to: e.arg, kind: moveKind(policy, e.a, e.arg) });
				break;
			case 'set': {
				const fields = t.changed.get(page) ?? new Set<number>();
				fields.add(e.arg);
				t.changed.set(page, fields);
				break;
			}
			case 'evict':
				t.evicted.push({ page, list: e.arg, dirty: e.a === 1 });
				t.entered.delete(page);
				break;
			case 'hand': {
				const moves = t.hands.get(e.arg) ?? [];
				moves.push({ a: e.a, b: e.b });
				t.hands.set(e.arg, moves);
				break;
			}
			default:
				break;
		}
	}
	return t;
}
