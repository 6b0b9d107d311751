/*
 * grid.ts - which columns of the textbook frame grid are on screen.
 *
 * The grid shows at most `width` columns.  The window keeps the current
 * step's column visible with at least one column of what is coming, and
 * stays where it was (`previousFirst`) while the step walks across it, as
 * a page of a textbook's grid stays put: a step forward changes two
 * columns, not every column's place (nothing to lay out and paint again
 * but those two).  When the step leaves it, the window moves a page, the
 * step a third of the way across, so the audience sees what led up to it.
 */
export function gridWindow(step: number, total: number, width: number, previousFirst = 0): { first: number; last: number } {
	if (total <= width) return { first: 1, last: total };
	const stays = previousFirst >= 1 && previousFirst + width - 1 <= total && step >= previousFirst && step <= Math.min(total, previousFirst + width - 2);
	const first = stays ? previousFirst : Math.min(Math.max(1, step - Math.floor(width / 3)), total - width + 1);
	return { first, last: first + width - 1 };
}

/* Rows a windowed grid gives to its "more above" and "more below" marks. */
export const ROW_MARKS = 2;

/**
 * Which frames (rows, 0-based, inclusive) of the grid are on screen when
 * only `room` rows fit (lecture mode at a large frame count): every frame
 * if they fit; otherwise `room` - ROW_MARKS of them (at least one), the
 * marks saying what is above and below.  The window keeps `focus` (the
 * frame the current step touched; null for none) in view and stays at
 * `previousFirst` while the focus lies inside it, so stepping through hits
 * does not make the rows jump; when the focus leaves it, it is centred.
 */
export function rowWindow(
	frames: number,
	room: number,
	focus: number | null,
	previousFirst: number,
): { first: number; last: number; windowed: boolean } {
	if (frames <= room) return { first: 0, last: frames - 1, windowed: false };
	const count = Math.max(1, room - ROW_MARKS);
	const place = (first: number) => Math.min(Math.max(0, first), frames - count);
	let first = place(previousFirst);
	if (focus !== null && (focus < first || focus >= first + count)) first = place(focus - Math.floor(count / 2));
	return { first, last: first + count - 1, windowed: true };
}
