/*
 * FrameBoxes.tsx - one policy's frames at the current step as boxes, in
 * columns of FRAMES_PER_COLUMN like the textbook grid: the referenced page
 * marked, flagged pages outlined (held here but not by OPT), free frames
 * drawn up to a column's worth and counted beyond it, and no more than
 * MAX_FRAME_BOXES boxes in all.
 */
import type { PageNumber } from '../../wasm/protocol';

/* More frames than this are summarised, not drawn one box each. */
const MAX_FRAME_BOXES = 64;
/* Frames stack in columns of this many, like the textbook grid, then wrap sideways. */
const FRAMES_PER_COLUMN = 12;

interface FrameBoxesProps {
	pages: PageNumber[];
	frames: number;
	referenced: PageNumber | null;
	/** Pages to flag (held here but not by OPT). */
	flagged: Set<PageNumber>;
	flagTitle: string;
}

export function FrameBoxes({ pages, frames, referenced, flagged, flagTitle }: FrameBoxesProps) {
	const shown = pages.slice(0, MAX_FRAME_BOXES);
	const free = Math.max(0, frames - pages.length);
	/* Free frames are drawn as boxes up to a column's worth; beyond that they are counted. */
	const drawnFree = shown.length + free <= FRAMES_PER_COLUMN ? free : 0;
	const rows = Math.min(Math.max(shown.length + drawnFree, 1), FRAMES_PER_COLUMN);
	return (
		<>
			<ol className="pl-compare-frames" style={{ gridTemplateRows: `repeat(${rows}, auto)` }}>
				{shown.map((page) => (
					<li
						key={page}
						data-testid="compare-page"
						data-page={page}
						className={[page === referenced && 'pl-compare-referenced', flagged.has(page) && 'pl-compare-flagged'].filter(Boolean).join(' ')}
						title={flagged.has(page) ? `page ${page}: ${flagTitle}` : `page ${page}`}
					>
						{String(page)}
					</li>
				))}
				{Array.from({ length: drawnFree }, (_, i) => (
					<li key={`empty${i}`} className="pl-compare-empty" aria-label="empty frame" />
				))}
				{pages.length > shown.length && <li className="pl-compare-more">+{pages.length - shown.length} more</li>}
			</ol>
			{free > drawnFree && <p className="pl-compare-free">{free.toLocaleString('en')} frames free</p>}
		</>
	);
}
