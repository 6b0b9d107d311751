/*
 * ClockFace.tsx - CLOCK's frames as a clock face: one slot per frame around
 * the ring, each page with its reference bit, and the hand, which sweeps
 * (CSS rotation of its unwrapped angle) over exactly the slots the events
 * say it passed.  Used for any policy with a hand over its only resident
 * list, so second-chance variants get it too.
 */
import type { DrawingProps } from './ListsView';
import { marksFor, EvictedGhosts } from './ListsView';
import { slotAngle, slotCentre, slotRadius } from '../../viz/clock';
import { isBitField } from './PageChip';
import { ClockSlot, SlotBadge } from './ClockSlot';

const RADIUS = 150;
/* Room between the hand's tip and the slot ring for a slot number at projector size (24 px). */
const HAND_CLEARANCE = 34;

export function ClockFace({ policy, snapshot, frames, transitions, handTurns }: DrawingProps) {
	const hand = 0;
	const list = policy.hands[hand].list;
	const entries = snapshot.lists[list];
	const slots = Math.max(frames, entries.length);
	const r = slotRadius(slots, RADIUS);
	const bit = policy.fields.findIndex(isBitField);
	const size = 2 * (RADIUS + r + 12);
	const handName = policy.hands[hand].name;
	return (
		<div className="pl-step-clock-face">
			<svg viewBox={`${-size / 2} ${-size / 2} ${size} ${size}`} role="img" aria-label={`${handName} over ${slots} frames`}>
				<circle className="pl-step-ring" r={RADIUS} />
				<g data-testid={`list-${policy.lists[list].name}`}>
					{Array.from({ length: slots }, (_, i) => {
						const at = slotCentre(i, slots, RADIUS);
						const entry = entries.at(i);
						const label = slotCentre(i, slots, RADIUS - r - 14);
						const number = (
							<text key={`n-${i}`} className="pl-step-slot-number" x={label.x} y={label.y} dy="0.35em">
								{i}
							</text>
						);
						if (!entry)
							return (
								<g key={`empty-${i}`}>
									<circle className="pl-step-slot pl-step-empty" cx={at.x} cy={at.y} r={r} />
									{number}
								</g>
							);
						const marks = marksFor(entry.page, transitions);
						return (
							<g key={`page-${entry.page}`}>
								{number}
								<ClockSlot policy={policy} list={list} entry={entry} at={at} r={r} marks={marks}>
									{bit >= 0 && (
										<SlotBadge r={r} className={`pl-step-bit${entry.values[bit] ? ' pl-step-on' : ''}${marks.changed?.has(bit) ? ' pl-step-changed' : ''}`}>
											{entry.values[bit]}
										</SlotBadge>
									)}
								</ClockSlot>
							</g>
						);
					})}
				</g>
				<g
					className="pl-step-hand"
					data-testid={`hand-${handName}`}
					data-position={String(snapshot.hands[hand])}
					style={{ transform: `rotate(${slotAngle(handTurns[hand] ?? snapshot.hands[hand], slots)}deg)` }}
				>
					{/* The hand stops short of the slot numbers (at RADIUS - r - 14), so it never covers the one it points at. */}
					<line y1={0} y2={-(RADIUS - r - HAND_CLEARANCE)} />
					<circle r={8} />
				</g>
			</svg>
			<div className="pl-step-clock-legend">
				<span className="pl-step-legend-item">
					<span className="pl-step-bit pl-step-on">1</span> reference bit set
				</span>
				<span className="pl-step-legend-item">
					<span className="pl-step-bit">0</span> clear
				</span>
				<EvictedGhosts list={list} transitions={transitions} />
			</div>
		</div>
	);
}
