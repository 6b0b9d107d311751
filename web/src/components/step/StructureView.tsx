/*
 * StructureView.tsx - the policy's own structure at the current step, drawn
 * from its snapshot: a clock face for a policy with a hand over its only
 * resident list, one clock with several hands for lists merged by an
 * `order` field (CLOCK-Pro), lanes for Linux-style active/inactive pairs, and the
 * generic lists otherwise.  The choice is made from the policy's shape
 * (hands, list names), never from its name.  Below the chips, a legend of
 * their flag letters (the clock face has its own legend).
 */
import { memo } from 'react';
import { ClockFace } from './ClockFace';
import { ClockProFace, isMergedClock } from './ClockProFace';
import { Lanes, lanePairs } from './Lanes';
import { ListsView, type DrawingProps } from './ListsView';
import { FlagLegend } from './PageChip';

const CLOCK_MAX_FRAMES = 32;

export type Drawing = 'clock' | 'clockpro' | 'lanes' | 'lists';

export function drawingFor(props: Pick<DrawingProps, 'policy' | 'frames'>): Drawing {
	const { policy, frames } = props;
	const resident = policy.lists.filter((l) => !l.ghost);
	if (policy.hands.length === 1 && resident.length === 1 && frames <= CLOCK_MAX_FRAMES) return 'clock';
	/* Entries are the frames plus as many non-resident pages in their test period. */
	if (isMergedClock(policy) && frames <= CLOCK_MAX_FRAMES) return 'clockpro';
	if (lanePairs(policy.lists.map((l) => l.name)).length > 0) return 'lanes';
	return 'lists';
}

/* Memoized: a render that changes the step before its snapshot arrives (the grid, the narration) leaves the drawing alone. */
export const StructureView = memo(function StructureView(props: DrawingProps & { step: number }) {
	const drawing = drawingFor(props);
	return (
		<div className={`pl-step-structure pl-step-${drawing}`} data-testid="structure" data-step={String(props.step)}>
			{drawing === 'clock' && <ClockFace {...props} />}
			{drawing === 'clockpro' && <ClockProFace {...props} />}
			{drawing === 'lanes' && <Lanes {...props} />}
			{drawing === 'lists' && <ListsView {...props} />}
			{drawing !== 'clock' && drawing !== 'clockpro' && <FlagLegend policy={props.policy} />}
		</div>
	);
});
