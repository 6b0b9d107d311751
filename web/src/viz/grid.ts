/*
 * grid.ts - which columns of the textbook frame grid are on screen.
 *
 * The grid shows at most `width` columns.  The window keeps the current
 * step's column visible, two thirds of the way across when it can, so the
 * audience sees what led up to the step and a little of what is coming.
 */
export function gridWindow(step: number, total: number, width: number): { first: number; last: number } {
	if (total <= width) return { first: 1, last: total };
	const first = Math.min(Math.max(1, step - Math.floor((width * 2) / 3)), total - width + 1);
	return { first, last: first + width - 1 };
}
