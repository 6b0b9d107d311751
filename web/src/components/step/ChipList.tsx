/*
 * ChipList.tsx - a list's page chips, drawn only where they can be seen.
 *
 * A list of up to ALL_CHIPS_LIMIT pages (`whole`) is drawn whole, as a
 * wrapping row of chips.  A longer one (Linux or CLOCK with thousands of
 * frames) is a scroll box VISIBLE_ROWS rows high that draws only the rows
 * in view (and one either side): a step then renders and lays out about a
 * hundred chips, not four thousand.  For that the chips of a long list
 * share one width (--chip-w, the widest chip drawn so far: chips of one
 * list carry the same fields, and every number takes the widest number's
 * digits), which makes every row hold the same number of chips and the
 * window a matter of arithmetic; the rows above and below the window are
 * the list's padding.
 *
 * Lecture mode gives `rows` instead (FitBox's budget, so that every list of
 * a structure fits the projector at 24 px): a list of more pages than
 * that is a scroll box of at most `rows` rows, its "drawn: positions" note
 * read by a screen reader only (lecture.css).
 *
 * The box follows the action: when `follow` (the index of the page this
 * step referenced, or the hand's) moves out of view, it scrolls there.
 * Each chip keeps its place in the whole list for a screen reader
 * (aria-posinset / aria-setsize), and a note says which part is shown.
 *
 * `onMeasured(known)` tells the owner whether the chips' size is known (a
 * list drawn whole: yes; a scroll box: once its first chips were measured).
 * Until then the list must be laid out even off screen (Linux's lanes are
 * `content-visibility: auto` only once their list was measured): a list
 * never laid out is never measured, and one not measured cannot work out
 * where the followed page is.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';

/** Lists up to this long are drawn whole. */
export const ALL_CHIPS_LIMIT = 96;
/** Rows of a long list's scroll box; in lecture mode the most a list is given (FitBox takes rows away until the structure fits). */
export const VISIBLE_ROWS = 6;
/* A row of chips before one is measured (a chip with flags at lecture size is about 1.8em high with its gap). */
const ROW_ESTIMATE_EM = 1.8;
/* Chips drawn before the first measurement (enough to fill a wide first row or two). */
const FIRST_DRAW = 48;

interface Props {
	testId: string;
	count: number;
	/** Draws chip i of the list (an <li>); `position` goes on it for assistive technology. */
	chip: (i: number, position: { 'aria-posinset'?: number; 'aria-setsize'?: number }) => ReactNode;
	/** The index to keep in view, or null. */
	follow: number | null;
	/** Digits of the list's widest page number: every number is drawn that wide from the first draw on. */
	digits: number;
	/** Drawn after the chips (fading evicted pages, notes). */
	children?: ReactNode;
	/** Lists up to this long are drawn whole. */
	whole?: number;
	/** Lecture mode: at most this many rows; a list of more pages is a scroll box (replaces `whole`). */
	rows?: number;
	/** Whether the chips' size is known, each time that changes (see the header). */
	onMeasured?: (known: boolean) => void;
	/** The list is not rendered (an off-screen lane): only the followed row is drawn, and the box takes its scroll position when it shows. */
	offScreen?: boolean;
}

interface Metrics {
	chipWidth: number;
	rowHeight: number;
	perRow: number;
}

export function ChipList({ testId, count, chip, follow, digits, children, whole = ALL_CHIPS_LIMIT, rows, onMeasured, offScreen }: Props) {
	/* A list of no more pages than rows fits them: a row holds at least one chip. */
	const drawnWhole = count <= (rows ?? whole);
	useEffect(() => {
		if (drawnWhole) onMeasured?.(true);
	}, [drawnWhole, onMeasured]);
	if (drawnWhole)
		return (
			<ol className="pl-step-chips" data-testid={testId}>
				{Array.from({ length: count }, (_, i) => chip(i, {}))}
				{children}
			</ol>
		);
	return (
		<WindowedChips testId={testId} count={count} chip={chip} follow={follow} digits={digits} rows={rows ?? VISIBLE_ROWS} onMeasured={onMeasured} offScreen={offScreen}>
			{children}
		</WindowedChips>
	);
}

/*
 * The chip and row sizes, grown by the chips whose size was just reported
 * (new ones, or ones whose content changed): the width only grows, so the
 * rows never reflow back and forth.  Read in a ResizeObserver's callback,
 * after the browser's own layout, so the reads force no layout.
 */
function measure(list: HTMLOListElement, resized: Element[], before: Metrics | null): Metrics | null {
	const chips = resized.filter((element): element is HTMLElement => element instanceof HTMLElement && element.parentElement === list);
	if (!chips.length && !before) return before;
	const style = getComputedStyle(list);
	const gap = parseFloat(style.columnGap) || 0;
	const rowGap = parseFloat(style.rowGap) || 0;
	let chipWidth = before?.chipWidth ?? 0;
	let chipHeight = 0;
	for (const element of chips) {
		chipWidth = Math.max(chipWidth, element.offsetWidth);
		chipHeight = Math.max(chipHeight, element.offsetHeight);
	}
	const inner = list.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
	const perRow = Math.max(1, Math.floor((inner + gap) / (chipWidth + gap)));
	const rowHeight = Math.max(before?.rowHeight ?? 0, chipHeight + rowGap);
	if (before && before.chipWidth === chipWidth && before.rowHeight === rowHeight && before.perRow === perRow) return before;
	return { chipWidth, rowHeight, perRow };
}

function WindowedChips({ testId, count, chip, follow, digits, children, rows: visibleRows, onMeasured, offScreen = false }: Omit<Props, 'rows' | 'whole'> & { rows: number }) {
	const box = useRef<HTMLDivElement>(null);
	const list = useRef<HTMLOListElement>(null);
	const [metrics, setMetrics] = useState<Metrics | null>(null);
	const measured = metrics !== null;
	useEffect(() => onMeasured?.(measured), [measured, onMeasured]);
	const [scrollTop, setScrollTop] = useState(0);
	/*
	 * The box and each drawn chip are observed, so a resized box or a wider
	 * chip (more digits, a longer field) is seen when it appears.  A chip
	 * stays observed while it is drawn: observing reports an element once,
	 * so a step reports only the chips it added or resized, not all of them.
	 */
	const observed = useRef(new Set<Element>());
	const observer = useMemo(
		() =>
			typeof ResizeObserver === 'undefined'
				? null
				: new ResizeObserver((entries) => {
						const element = list.current;
						if (element) setMetrics((before) => measure(element, entries.map((entry) => entry.target), before));
					}),
		[],
	);
	useEffect(() => () => observer?.disconnect(), [observer]);
	useLayoutEffect(() => {
		if (!observer || !box.current || !list.current) return;
		const drawn = new Set<Element>(list.current.querySelectorAll(':scope > li'));
		drawn.add(box.current);
		/* Chips no longer drawn are let go, or a long session would hold every chip it ever drew. */
		for (const element of observed.current)
			if (!drawn.has(element)) {
				observer.unobserve(element);
				observed.current.delete(element);
			}
		for (const element of drawn)
			if (!observed.current.has(element)) {
				observer.observe(element);
				observed.current.add(element);
			}
	});

	/*
	 * Keep the followed chip's row in view: when it changes (or the box gets
	 * fewer rows, lecture mode's FitBox, which can leave it out), not when the
	 * reader scrolls away from it.  The scroll position is worked out here,
	 * in the render, from the metrics: the step then draws the rows it
	 * scrolls to at once, where scrolling after the commit would lay the list
	 * out, draw it a second time and lay it out again.
	 */
	const rows = metrics ? Math.ceil(count / metrics.perRow) : 0;
	const [followed, setFollowed] = useState<string | null>(null);
	const followKey = `${follow}/${visibleRows}`;
	if (metrics && follow !== null && follow >= 0 && followKey !== followed) {
		setFollowed(followKey);
		const view = visibleRows * metrics.rowHeight;
		const top = Math.floor(follow / metrics.perRow) * metrics.rowHeight;
		if (top < scrollTop || top + metrics.rowHeight > scrollTop + view)
			setScrollTop(Math.min(Math.max(0, rows * metrics.rowHeight - view), Math.max(0, top - (view - metrics.rowHeight) / 2)));
	}
	/*
	 * The box's own position, as last set here or scrolled by the reader:
	 * written only when the render moved it, and not while the list is off
	 * screen (setting it lays the skipped lane out, a millisecond or more a
	 * step): the drawn rows follow meanwhile, the box scrolls to them when
	 * it shows.
	 */
	const boxScrollTop = useRef(0);
	useLayoutEffect(() => {
		if (!box.current || offScreen || scrollTop === boxScrollTop.current) return;
		box.current.scrollTop = scrollTop;
		boxScrollTop.current = scrollTop;
	}, [scrollTop, offScreen]);

	/*
	 * The rows in view and one either side; off screen only the followed
	 * row (a step then changes a dozen chips, not a hundred; the browser
	 * shows the lane again before it reaches the window, and it is drawn
	 * whole then).
	 */
	const followedRow = metrics && follow !== null && follow >= 0 ? Math.min(rows - 1, Math.floor(follow / metrics.perRow)) : null;
	const firstRow = !metrics ? 0 : offScreen && followedRow !== null ? followedRow : Math.max(0, Math.floor(scrollTop / metrics.rowHeight) - 1);
	const lastRow = !metrics ? 0 : offScreen && followedRow !== null ? followedRow : Math.min(rows - 1, firstRow + visibleRows + 2);
	const first = metrics ? firstRow * metrics.perRow : 0;
	const end = metrics ? Math.min(count, (lastRow + 1) * metrics.perRow) : Math.min(count, FIRST_DRAW);
	const drawn = [];
	for (let i = first; i < end; i++) drawn.push(chip(i, { 'aria-posinset': i + 1, 'aria-setsize': count }));
	const style = {
		'--chip-w': metrics ? `${metrics.chipWidth}px` : undefined,
		'--digits': digits,
		paddingTop: metrics ? `calc(${firstRow * metrics.rowHeight}px + 0.35rem)` : undefined,
		paddingBottom: metrics ? `calc(${Math.max(0, rows - 1 - lastRow) * metrics.rowHeight}px + 0.35rem)` : undefined,
	} as CSSProperties;
	return (
		<>
			<div
				className="pl-step-chip-scroller"
				ref={box}
				tabIndex={0}
				aria-label={`${count} pages; scroll for more`}
				style={{ maxHeight: metrics ? `calc(${visibleRows * metrics.rowHeight}px + 0.35rem)` : `${visibleRows * ROW_ESTIMATE_EM}em` }}
				onScroll={(event) => {
					/*
					 * The echo of a position set here is not news; taken as the
					 * reader's scroll, its state update (a lower priority than the
					 * click's) could land after the next step's follow and undo it.
					 */
					if (Math.abs(event.currentTarget.scrollTop - boxScrollTop.current) < 1) return;
					boxScrollTop.current = event.currentTarget.scrollTop;
					setScrollTop(boxScrollTop.current);
				}}
			>
				<ol className="pl-step-chips pl-step-windowed" data-testid={testId} ref={list} style={style} data-first={first} data-end={end}>
					{drawn}
				</ol>
			</div>
			<p className="pl-note pl-step-window-note" data-testid={`${testId}-window`}>
				drawn: positions {first + 1}–{end} of {count} (scroll the box for the rest)
			</p>
			{children}
		</>
	);
}
