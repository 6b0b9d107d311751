/*
 * ListsView.tsx - the generic drawing of any policy's structure: each list
 * from head to tail as a row of page chips, ghost lists dashed, each hand as
 * a marker under the page it points at, and the pages this step evicted
 * fading out at the end of the list they left.  A policy added to the core
 * later is drawn by this with no new UI code.
 */
import type { PageNumber, PolicyInfo, Snapshot, SnapshotList } from '../../wasm/protocol';
import type { Transitions } from '../../model/transitions';
import { PageChip, type ChipMarks } from './PageChip';
import { ChipList } from './ChipList';

export interface DrawingProps {
	policy: PolicyInfo;
	snapshot: Snapshot;
	frames: number;
	fieldMax: number[];
	transitions: Transitions;
	/** Unwrapped hand positions (clock.ts), for the sweep animation. */
	handTurns: number[];
	/** Lists the run ever used; drawings may leave out the others. */
	usedLists: Set<number>;
	/** The page this step referenced (null at step 0): a long list keeps it in view. */
	referenced: PageNumber | null;
	/** Lecture mode: the rows of chips each list may take, a longer list a scroll box (ChipList, FitBox). */
	rows?: number;
}

export function marksFor(page: PageNumber, t: Transitions): ChipMarks {
	return {
		entered: t.entered.has(page),
		moved: t.moved.get(page)?.kind,
		changed: t.changed.get(page),
		referenced: t.reference?.page === page,
		hit: t.reference?.hit,
	};
}

/** Where in `entries` the page `referenced` is, else where the first of `hands` points, else null. */
export function followedIndex(entries: SnapshotList, referenced: PageNumber | null, hands: number[] = []): number | null {
	const at = referenced === null ? -1 : entries.indexOfPage(referenced);
	if (at >= 0) return at;
	return hands.length ? hands[0] : null;
}

/** Pages this step evicted from list l, as fading labels (text in CSS, so not in the DOM's text). */
export function EvictedGhosts({ list, transitions }: { list: number; transitions: Transitions }) {
	const gone = transitions.evicted.filter((e) => e.list === list);
	if (!gone.length) return null;
	return (
		<span className="pl-step-evicted">
			{gone.map((e) => (
				<span key={e.page} className="pl-step-evicted-ghost" data-label={`${e.page}${e.dirty ? ' (written back)' : ''}`} />
			))}
		</span>
	);
}

/*
 * Which end of a list is which, and where the policy evicts from, read
 * from the list's well-known name (recency: LRU's; queue: FIFO's; Linux's
 * shadow entries; a frames list with a hand is a ring).
 */
export function endsOf(policy: PolicyInfo, list: number): string {
	const name = policy.lists[list].name;
	if (name === 'recency') return 'head: most recent → tail: least recent, evict from here';
	if (name === 'queue') return 'head: loaded first, evict from here → tail: newest';
	if (name === 'shadow') return 'head: evicted last → tail: oldest shadow entry';
	if (policy.lists[list].ghost) return 'head: newest → tail: oldest';
	if (policy.hands.some((h) => h.list === list)) return 'a ring: the hand picks the victim';
	if (name === 'frames') return 'frame slots in order: the victim is the page the rule picks';
	return 'head → tail';
}

/* A ghost list shows its newest entries only: history, not memory, and up to `frames` long. */
const GHOSTS_SHOWN = 24;

export function ListRow({ policy, snapshot, fieldMax, transitions, referenced, rows, list }: DrawingProps & { list: number }) {
	const info = policy.lists[list];
	const entries = snapshot.lists[list];
	const count = info.ghost ? Math.min(entries.length, GHOSTS_SHOWN) : entries.length;
	const hidden = entries.length - count;
	const hands = policy.hands
		.map((hand, h) => ({ ...hand, h, position: snapshot.hands[h] }))
		.filter((hand) => hand.list === list);
	return (
		<section className={`pl-step-list-row${info.ghost ? ' pl-step-ghost-list' : ''}`}>
			<header>
				<span className="pl-step-list-name">{info.name}</span>
				{info.ghost && <span className="pl-step-ghost-tag">ghost: not in memory</span>}
				<span className="pl-step-count">{snapshot.lists[list].length}</span>
				<span className="pl-step-ends">{endsOf(policy, list)}</span>
			</header>
			<ChipList
				testId={`list-${info.name}`}
				count={count}
				rows={rows}
				digits={entries.widestDigits(count)}
				follow={followedIndex(entries, referenced, hands.map((hand) => hand.position))}
				chip={(i, position) => (
					<PageChip
						key={entries.page(i)}
						policy={policy}
						list={list}
						entry={entries.at(i)!}
						fieldMax={fieldMax}
						marks={marksFor(entries.page(i), transitions)}
						position={position}
						style={hands.some((hand) => hand.position === i) ? { outline: '3px solid var(--hand)' } : undefined}
					/>
				)}
			>
				<EvictedGhosts list={list} transitions={transitions} />
				{hidden > 0 && <li className="pl-note pl-step-older-note">and {hidden} older</li>}
			</ChipList>
			{hands.map((hand) => (
				<div key={hand.name} className="pl-step-hand-marker" data-testid={`hand-${hand.name}`} data-position={String(hand.position)}>
					{hand.name} → position {hand.position}
				</div>
			))}
		</section>
	);
}

export function ListsView(props: DrawingProps) {
	return (
		<div className="pl-step-lists-view">
			{props.policy.lists.map((_, l) => (
				<ListRow key={l} {...props} list={l} />
			))}
		</div>
	);
}
