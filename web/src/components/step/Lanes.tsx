/*
 * Lanes.tsx - Linux's LRU lists as lanes: for each page type (anon, file)
 * the active lane above the inactive lane, heads on the left.  Between
 * them the promotion and demotion arrows, after the inactive lane the
 * eviction arrow; an arrow lights up when this step's events did what it
 * says.  Pages carry their flags (referenced, accessed, active) and, in
 * the RRIP hybrid, their RRPV meter.  Lists that are not part of an
 * active/inactive pair are drawn by the generic ListRow below the lanes.
 */
import { useEffect, useRef, useState } from 'react';
import type { DrawingProps } from './ListsView';
import { EvictedGhosts, ListRow, followedIndex, marksFor } from './ListsView';
import { PageChip } from './PageChip';
import { ChipList } from './ChipList';
import { Shortened } from '../Shortened';

/** Pairs of (active, inactive) list indexes by type suffix, e.g. file: [3, 2]. */
export function lanePairs(names: string[]): Array<{ type: string; active: number; inactive: number }> {
	const pairs = [];
	for (const [i, name] of names.entries()) {
		const match = /^inactive_(.+)$/.exec(name);
		const active = match ? names.indexOf(`active_${match[1]}`) : -1;
		if (match && active >= 0) pairs.push({ type: match[1], active, inactive: i });
	}
	return pairs;
}

function Lane(props: DrawingProps & { list: number; kind: 'active' | 'inactive' }) {
	const { policy, snapshot, fieldMax, transitions, referenced, rows, list, kind } = props;
	const name = policy.lists[list].name;
	const entries = snapshot.lists[list];
	/* Skipped off screen (content-visibility) only once its list knows its chips' size: ChipList. */
	const [measured, setMeasured] = useState(false);
	/* Whether the browser skips it now (off screen), as its contentvisibilityautostatechange events tell. */
	const lane = useRef<HTMLDivElement>(null);
	const [skipped, setSkipped] = useState(false);
	useEffect(() => {
		const element = lane.current;
		if (!element) return;
		const onChange = (event: Event) => setSkipped((event as Event & { skipped: boolean }).skipped);
		element.addEventListener('contentvisibilityautostatechange', onChange);
		return () => element.removeEventListener('contentvisibilityautostatechange', onChange);
	}, []);
	return (
		<div ref={lane} className={`pl-step-lane pl-step-${kind}${measured ? ' pl-step-lane-lazy' : ''}`}>
			<header>
				<span className="pl-step-list-name">{name}</span>
				<span className="pl-step-count">{snapshot.lists[list].length}</span>
				<span className="pl-step-ends">
					<span className="pl-step-head-end">head: newest → </span>
					{/* A 4:3 projector's narrower column shows "tail: evict", "tail: deactivated". */}
					{kind === 'inactive' ? (
						<Shortened full="tail: evict from here">
							tail: evict<span className="pl-step-narrow-hidden"> from here</span>
						</Shortened>
					) : (
						<Shortened full="tail: deactivated first">
							tail: deactivated<span className="pl-step-narrow-hidden"> first</span>
						</Shortened>
					)}
				</span>
			</header>
			<ChipList
				testId={`list-${name}`}
				count={entries.length}
				rows={rows}
				digits={entries.widestDigits()}
				follow={followedIndex(entries, referenced)}
				onMeasured={setMeasured}
				offScreen={measured && skipped}
				chip={(i, position) => (
					<PageChip
						key={entries.page(i)}
						policy={policy}
						list={list}
						entry={entries.at(i)!}
						fieldMax={fieldMax}
						marks={marksFor(entries.page(i), transitions)}
						position={position}
					/>
				)}
			>
				{kind === 'inactive' && <EvictedGhosts list={list} transitions={transitions} />}
			</ChipList>
		</div>
	);
}

export function Lanes(props: DrawingProps) {
	const { policy, transitions, usedLists } = props;
	/* A page type the run never used (anon pages with anon_percent 0) would be two empty lanes. */
	const all = lanePairs(policy.lists.map((l) => l.name));
	const used = all.filter((p) => usedLists.has(p.active) || usedLists.has(p.inactive));
	const pairs = used.length ? used : all;
	const paired = new Set(all.flatMap((p) => [p.active, p.inactive]));
	const moves = [...transitions.moved.values()];
	return (
		<div className="pl-step-lanes">
			{pairs.map((pair) => {
				const promoted = moves.some((m) => m.kind === 'promoted' && m.to === pair.active);
				const demoted = moves.some((m) => m.kind === 'demoted' && m.from === pair.active);
				const evicted = transitions.evicted.some((e) => e.list === pair.inactive);
				return (
					<div key={pair.type} className="pl-step-lane-pair">
						<Lane {...props} list={pair.active} kind="active" />
						<div className="pl-step-lane-arrows">
							<span className={`pl-step-arrow pl-step-promote${promoted ? ' pl-step-lit' : ''}`}>
								▲ promote<span className="pl-step-why"> (referenced twice)</span>
							</span>
							<span className={`pl-step-arrow pl-step-demote${demoted ? ' pl-step-lit' : ''}`}>
								▼ demote<span className="pl-step-why"> (shrink_active_list)</span>
							</span>
							<span className={`pl-step-arrow pl-step-evict${evicted ? ' pl-step-lit' : ''}`}>evict from the inactive tail →</span>
						</div>
						<Lane {...props} list={pair.inactive} kind="inactive" />
					</div>
				);
			})}
			{policy.lists.map((_, l) => (paired.has(l) ? null : <ListRow key={l} {...props} list={l} />))}
			{pairs.length < all.length && (
				<p className="pl-note">
					Not shown: {all.filter((p) => !pairs.includes(p)).map((p) => `${p.type} lists`).join(', ')} (no page of that type in this trace).
				</p>
			)}
		</div>
	);
}
