/*
 * ClockProFace.tsx - CLOCK-Pro's one clock as the paper draws it: every
 * entry it holds (resident hot and cold pages, and non-resident cold pages
 * still in their test period) on one ring in the order the hands meet them,
 * and its three hands, hot, cold and test, each pointing at the entry it
 * will look at next.
 *
 * A policy gets this drawing by its shape, not its name: several hands and
 * an `order` field that merges its lists into one clock (the core's CLOCK-Pro
 * snapshot: lists clock and test, hand positions counted in that merged
 * order).  Hot pages are filled, cold ones white, non-resident ones dashed
 * and grey; a page in its test period carries a "T" badge and the
 * reference bit an "R" badge, so nothing depends on colour alone.  The
 * hands differ in length, dash and label as well as colour.
 */
import type { PageNumber } from '../../wasm/protocol';
import type { DrawingProps } from './ListsView';
import { marksFor } from './ListsView';
import { slotCentre, slotRadius, slotAngle } from '../../viz/clock';
import { ClockSlot, SlotBadge } from './ClockSlot';

const RADIUS = 150;

/** Whether a policy is drawn as one clock of merged lists with several hands (CLOCK-Pro's shape). */
export function isMergedClock(policy: DrawingProps['policy']): boolean {
	return policy.hands.length > 1 && policy.fields.includes('order');
}

interface RingEntry {
	page: PageNumber;
	list: number;
	values: number[];
	order: number;
}

/* The hands' looks: length (share of the inner radius), dash pattern, short label. */
const HAND_LOOKS: Array<{ length: number; dash?: string; label: string }> = [
	{ length: 0.5, label: 'hot' },
	{ length: 0.72, dash: '10 6', label: 'cold' },
	{ length: 0.94, dash: '3 5', label: 'test' },
];

function handLook(name: string, h: number) {
	const short = name.replace(/^hand_/, '');
	return { ...HAND_LOOKS[h % HAND_LOOKS.length], label: short };
}

export function ClockProFace({ policy, snapshot, transitions }: DrawingProps) {
	const field = (name: string) => policy.fields.indexOf(name);
	const [hot, test, referenced, order] = ['hot', 'test', 'referenced', 'order'].map(field);
	const ring: RingEntry[] = snapshot.lists
		.flatMap((entries, list) => entries.map((e) => ({ page: e.page, list, values: e.values, order: e.values[order] })))
		.sort((a, b) => a.order - b.order);
	const slots = Math.max(1, ring.length);
	const r = slotRadius(slots, RADIUS);
	const inner = RADIUS - r - 8;
	const size = 2 * (RADIUS + r + 14);
	return (
		<div className="pl-step-clock-face pl-step-clockpro-face">
			<svg viewBox={`${-size / 2} ${-size / 2} ${size} ${size}`} role="img" aria-label={`one clock of ${ring.length} entries with ${policy.hands.map((h) => h.name).join(', ')}`}>
				<circle className="pl-step-ring" r={RADIUS} />
				{snapshot.lists.map((_, list) => (
					<g key={list} data-testid={`list-${policy.lists[list].name}`}>
						{ring.map((entry, i) => {
							if (entry.list !== list) return null;
							const ghost = policy.lists[list].ghost;
							const at = slotCentre(i, slots, RADIUS);
							const kind = ghost ? 'pl-step-nonresident' : entry.values[hot] ? 'pl-step-hot' : 'pl-step-cold';
							return (
								<ClockSlot key={`${entry.page}`} policy={policy} list={list} entry={entry} at={at} r={r} marks={marksFor(entry.page, transitions)} kind={kind}>
									{!ghost && referenced >= 0 && (
										<SlotBadge r={r} className={`pl-step-bit${entry.values[referenced] ? ' pl-step-on' : ''}`}>
											R
										</SlotBadge>
									)}
									{test >= 0 && entry.values[test] !== 0 && (
										<SlotBadge r={r} lower className="pl-step-bit pl-step-test-badge">
											T
										</SlotBadge>
									)}
								</ClockSlot>
							);
						})}
					</g>
				))}
				{policy.hands.map((hand, h) => {
					const look = handLook(hand.name, h);
					const position = snapshot.hands[h];
					const tip = -inner * look.length;
					return (
						<g
							key={hand.name}
							className={`pl-step-hand pl-step-hand-${h}`}
							data-testid={`hand-${hand.name}`}
							data-position={String(position)}
							style={{ transform: `rotate(${ring.length ? slotAngle(position, slots) : 0}deg)` }}
						>
							<line y1={0} y2={tip} strokeDasharray={look.dash} />
							<text className="pl-step-hand-label" y={tip - 4} transform={`rotate(${-(ring.length ? slotAngle(position, slots) : 0)} 0 ${tip - 4})`}>
								{look.label}
							</text>
						</g>
					);
				})}
				<circle className="pl-step-hub" r={7} />
			</svg>
			<div className="pl-step-clock-legend">
				<span className="pl-step-key pl-step-hot">hot</span>
				<span className="pl-step-key pl-step-cold">cold</span>
				<span className="pl-step-key pl-step-nonresident">not resident</span>
				{/* A key stays on the line of its words when the legend wraps (a 4:3 projector). */}
				<span className="pl-step-legend-item">
					<span className="pl-step-bit pl-step-on">R</span> referenced
				</span>
				<span className="pl-step-legend-item">
					<span className="pl-step-bit">T</span> in its test period
				</span>
			</div>
		</div>
	);
}
