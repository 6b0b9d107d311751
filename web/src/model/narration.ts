/*
 * narration.ts - one step explained in words, from its events only:
 *   "page 5: miss; RRPV of every page incremented; page 2 reached 3 and was
 *    evicted; page 5 inserted into frames with RRPV 2"
 *
 * The sentence follows the events in the order the policy made them, so it
 * says what happened, never a guess.  Runs of like events are folded: a
 * sweep of SETs with the same change becomes one clause, consecutive moves
 * of a hand become "swept from a to b", an INSERT followed by the new page's
 * first SETs becomes "inserted ... with RRPV 2".  Any policy is narrated by
 * its list, field and hand names; the words for well-known names (RRPV,
 * reference bit, promoted/demoted between Linux's active and inactive lists)
 * are a vocabulary, not policy code.
 */
import type { PolicyEvent, PolicyInfo } from '../wasm/protocol';

const FIELD_WORDS: Record<string, string> = {
	rrpv: 'RRPV',
	referenced: 'reference bit',
	accessed: 'accessed bit',
	modified: 'modified bit',
	active: 'active flag',
};

export function fieldWord(name: string): string {
	return FIELD_WORDS[name] ?? name.replace(/_/g, ' ');
}

function isBit(name: string): boolean {
	return /referenced|accessed|modified|active/.test(name);
}

function listWord(policy: PolicyInfo, list: number): string {
	return policy.lists[list]?.name ?? `list ${list}`;
}

function pageList(pages: number[]): string {
	return pages.length <= 6 ? pages.join(', ') : `${pages.slice(0, 5).join(', ')} and ${pages.length - 5} more`;
}

function setClause(policy: PolicyInfo, field: number, pages: number[], a: number, b: number, resident: number): string {
	const name = policy.fields[field] ?? `field ${field}`;
	const word = fieldWord(name);
	const many = pages.length > 1;
	const who = many ? (pages.length >= resident ? 'every page' : `pages ${pageList(pages)}`) : `page ${pages[0]}`;
	if (isBit(name) && (b === 0 || b === 1) && (a === 0 || a === 1))
		return `${word} of ${who} ${b ? 'set' : 'cleared'}`;
	if (many) {
		const delta = b - a;
		if (delta === 1) return `${word} of ${who} incremented`;
		if (delta === -1) return `${word} of ${who} decremented`;
		return `${word} of ${who} changed by ${delta > 0 ? '+' : ''}${delta}`;
	}
	return `${word} of ${who} ${a} → ${b}`;
}

function moveClause(policy: PolicyInfo, page: number, from: number, to: number, pos: number): string {
	const src = listWord(policy, from);
	const dst = listWord(policy, to);
	if (from === to) return pos === 0 ? `page ${page} moved to the head of ${dst}` : `page ${page} moved to position ${pos} of ${dst}`;
	if (/^inactive/.test(src) && /^active/.test(dst)) return `page ${page} promoted from ${src} to ${dst}`;
	if (/^active/.test(src) && /^inactive/.test(dst)) return `page ${page} demoted from ${src} to ${dst}`;
	if (policy.lists[from]?.ghost) return `page ${page} found in ghost list ${src}, back into ${dst}`;
	return `page ${page} moved from ${src} to ${dst}`;
}

function sweepWords(from: number, to: number): string {
	return from === to ? `went once round from ${from}` : `swept from ${from} to ${to}`;
}

/*
 * A clock sweep: pairs of "bit of the page under the hand cleared, hand
 * advanced", told as one clause with the pages that got a second chance.
 */
function handSweep(policy: PolicyInfo, events: PolicyEvent[], i: number): { clause: string; end: number } | null {
	const spared: number[] = [];
	let j = i;
	const field = events[i].arg;
	while (
		j + 1 < events.length &&
		events[j].kind === 'set' &&
		events[j].arg === field &&
		events[j].a === 1 &&
		events[j].b === 0 &&
		events[j + 1].kind === 'hand'
	) {
		spared.push(events[j].page as number);
		j += 2;
	}
	if (!spared.length || !isBit(policy.fields[field] ?? '')) return null;
	const hand = events[i + 1];
	const name = policy.hands[hand.arg]?.name ?? 'hand';
	const word = fieldWord(policy.fields[field]);
	const whose = spared.length > 1 ? `${word}s of pages ${pageList(spared)}` : `${word} of page ${spared[0]}`;
	return {
		clause: `${name} ${sweepWords(hand.a, events[j - 1].b)}, clearing the ${whose} (second chance)`,
		end: j,
	};
}

/**
 * The narration of one step.  `events` are the step's events in order;
 * `resident` is how many pages were in memory before it (for "every page");
 * `lengthsAfter`, each list's length after the step (for "at the tail").
 */
export function narrate(
	policy: PolicyInfo,
	events: PolicyEvent[],
	resident: number,
	write = false,
	lengthsAfter?: number[],
): string {
	const clauses: string[] = [];
	const lastSet = new Map<number, PolicyEvent>();
	let i = 0;
	while (i < events.length) {
		const e = events[i];
		const page = e.page as number;
		switch (e.kind) {
			case 'hit':
			case 'miss':
				clauses.push(`page ${page}: ${e.kind}${write ? ' (write)' : ''}`);
				i++;
				break;
			case 'victim':
				i++;
				break;
			case 'set': {
				const sweep = handSweep(policy, events, i);
				if (sweep) {
					clauses.push(sweep.clause);
					i = sweep.end;
					break;
				}
				let j = i;
				const pages: number[] = [];
				while (
					j < events.length &&
					events[j].kind === 'set' &&
					events[j].arg === e.arg &&
					events[j].b - events[j].a === e.b - e.a
				) {
					pages.push(events[j].page as number);
					lastSet.set(events[j].page as number, events[j]);
					j++;
				}
				clauses.push(setClause(policy, e.arg, pages, e.a, e.b, resident));
				i = j;
				break;
			}
			case 'evict': {
				const reached = lastSet.get(page);
				const how = e.a ? ' (dirty: written back)' : '';
				if (reached && reached.b > reached.a && !isBit(policy.fields[reached.arg] ?? '')) {
					clauses.push(`page ${page} reached ${reached.b} and was evicted${how}`);
					i++;
					break;
				}
				/* A batch of plain evictions from one list is one clause. */
				let j = i;
				const pages: number[] = [];
				while (j < events.length && events[j].kind === 'evict' && events[j].arg === e.arg && !events[j].a && !lastSet.has(events[j].page as number)) {
					pages.push(events[j].page as number);
					j++;
				}
				if (pages.length > 1) {
					clauses.push(`pages ${pageList(pages)} evicted from ${listWord(policy, e.arg)}`);
					i = j;
					break;
				}
				clauses.push(`page ${page} evicted from ${listWord(policy, e.arg)}${how}`);
				i++;
				break;
			}
			case 'insert': {
				let j = i + 1;
				const withs: string[] = [];
				while (j < events.length && events[j].kind === 'set' && events[j].page === page && events[j].a === 0) {
					withs.push(`${fieldWord(policy.fields[events[j].arg] ?? '')} ${events[j].b}`);
					lastSet.set(page, events[j]);
					j++;
				}
				const list = listWord(policy, e.arg);
				const atTail = lengthsAfter !== undefined && lengthsAfter[e.arg] > 1 && e.b === lengthsAfter[e.arg] - 1;
				const place = e.b === 0 ? ' at the head' : atTail ? ' at the tail' : ` at position ${e.b}`;
				const where = list === 'frames' ? `frame slot ${e.b}` : `${list}${place}`;
				clauses.push(`page ${page} inserted into ${where}${withs.length ? ` with ${withs.join(', ')}` : ''}`);
				i = j;
				break;
			}
			case 'move':
				clauses.push(moveClause(policy, page, e.a, e.arg, e.b));
				i++;
				break;
			case 'remove':
				clauses.push(`page ${page} forgotten from ${listWord(policy, e.arg)}`);
				i++;
				break;
			case 'hand': {
				let j = i;
				while (j + 1 < events.length && events[j + 1].kind === 'hand' && events[j + 1].arg === e.arg) j++;
				const name = policy.hands[e.arg]?.name ?? 'hand';
				const to = events[j].b;
				clauses.push(j > i ? `${name} ${sweepWords(e.a, to)}` : `${name} advanced from ${e.a} to ${to}`);
				i = j + 1;
				break;
			}
		}
	}
	return clauses.join('; ');
}
