/*
 * FrameBoxes.tsx - one policy's frames at the current step as boxes, in
 * columns of FRAMES_PER_COLUMN like the textbook grid: the referenced page
 * marked, flagged pages outlined (held here but not by OPT), free frames
 * drawn up to a column's worth and counted beyond it, and no more than
 * MAX_FRAME_BOXES boxes in all.
 *
 * Given `fit` (lecture mode: the room measured by Columns), columns of
 * fit.rows boxes and no more than fit.boxes boxes, the referenced page
 * always among them; what is left out is counted on one line ("+12 more,
 * 3 free") that is always there, so every policy's column is as tall.
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
	fit?: BoxesFit;
}

/** How many boxes a column has room for: per column of boxes, and in all. */
export interface BoxesFit {
	rows: number;
	boxes: number;
}

/* The first `limit` pages, the referenced one among them (in the last place if it was beyond). */
function pagesShown(pages: PageNumber[], limit: number, referenced: PageNumber | null): PageNumber[] {
	const shown = pages.slice(0, limit);
	if (referenced !== null && pages.length > limit && !shown.includes(referenced) && pages.includes(referenced)) shown[limit - 1] = referenced;
	return shown;
}

export function FrameBoxes({ pages, frames, referenced, flagged, flagTitle, fit }: FrameBoxesProps) {
	const perColumn = fit?.rows ?? FRAMES_PER_COLUMN;
	const shown = pagesShown(pages, fit?.boxes ?? MAX_FRAME_BOXES, referenced);
	const free = Math.max(0, frames - pages.length);
	/* Free frames are drawn as boxes up to a column's worth (when fitted: as many as there is room for); beyond that they are counted. */
	const drawnFree = shown.length + free <= (fit?.boxes ?? FRAMES_PER_COLUMN) ? free : 0;
	const rows = Math.min(Math.max(shown.length + drawnFree, 1), perColumn);
	const more = pages.length - shown.length;
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
				{!fit && more > 0 && <li className="pl-compare-more">+{more} more</li>}
			</ol>
			{fit ? (
				<p className="pl-compare-free" data-testid="compare-frames-off">
					{[more > 0 && `+${more} more`, free > drawnFree && `${free.toLocaleString('en')} free`].filter(Boolean).join(', ') || ' '}
				</p>
			) : (
				free > drawnFree && <p className="pl-compare-free">{free.toLocaleString('en')} frames free</p>
			)}
		</>
	);
}
