/*
 * FitBox.tsx - fits its content to the height of the box it is given, so
 * lecture mode shows the whole structure on one projector screen with its
 * text at 24 px.
 *
 * First it takes rows away: its content is a function of `rows`, the rows
 * of chips each list may take (ChipList: a longer list becomes a scroll box
 * of that many rows, following the referenced page), starting at `rows`
 * and lowered one at a time while the content is taller than the box.
 * Only when one row a list is still too tall (or the content has no lists,
 * `rows` not given) does it scale the content down: laid out 1/scale times
 * as wide as the box, then shrunk by a CSS transform, so it fills the box's
 * width (never below MIN_SCALE, where it would be unreadable: then it
 * clips).  Measured again whenever the box or the content changes size;
 * the scale only grows back when the content would use less than 90% of
 * the height, so a layout that gets shorter as it gets wider cannot make
 * it flicker between two scales; the rows come back only when the box
 * itself changes size (another window, the scenario form folded) or
 * `resetFor` changes (another run).  With
 * `fit` false it is a plain wrapper (rows undefined).
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

const MIN_SCALE = 0.4;

interface Props {
	fit: boolean;
	/** The most rows of chips a list may take (lecture mode), or undefined for a drawing without lists. */
	rows?: number;
	/** Whatever, changed, starts the fit again from the most rows (the run shown). */
	resetFor?: unknown;
	children: (rows: number | undefined) => ReactNode;
}

export function FitBox({ fit, rows: mostRows, resetFor, children }: Props) {
	const box = useRef<HTMLDivElement>(null);
	const content = useRef<HTMLDivElement>(null);
	const [scale, setScale] = useState(1);
	const [rows, setRows] = useState(mostRows);
	/* What is shown, for the observer's callback (which outlives renders). */
	const shown = useRef({ rows: mostRows, scale: 1, boxSize: '' });
	useLayoutEffect(() => {
		const outer = box.current;
		const inner = content.current;
		const state = shown.current;
		const show = (nextRows: number | undefined, nextScale: number) => {
			state.rows = nextRows;
			state.scale = nextScale;
			setRows(nextRows);
			setScale(nextScale);
		};
		show(mostRows, 1);
		if (!fit || !outer || !inner) return;
		const measure = () => {
			const boxSize = `${outer.clientWidth}x${outer.clientHeight}`;
			if (boxSize !== state.boxSize) {
				const fresh = state.boxSize === '';
				state.boxSize = boxSize;
				/* A new box: start again from the most rows, unscaled. */
				if (!fresh && (state.rows !== mostRows || state.scale !== 1)) {
					show(mostRows, 1);
					return;
				}
			}
			const height = state.scale * inner.scrollHeight;
			const tooTall = height > outer.clientHeight + 1;
			if (tooTall && state.rows !== undefined && state.rows > 1) {
				show(state.rows - 1, 1);
				/* Measured again once drawn: a row fewer may not change the content's size (no list used it), which no observer would report. */
				frame = requestAnimationFrame(measure);
			} else if (tooTall || height < 0.9 * outer.clientHeight)
				show(state.rows, Math.max(MIN_SCALE, Math.min(1, (outer.clientHeight / Math.max(1, inner.scrollHeight)) * 0.98)));
		};
		let frame = 0;
		measure();
		const observer = new ResizeObserver(measure);
		observer.observe(outer);
		observer.observe(inner);
		return () => {
			cancelAnimationFrame(frame);
			observer.disconnect();
		};
	}, [fit, mostRows, resetFor]);
	if (!fit) return <>{children(undefined)}</>;
	return (
		<div className="pl-step-fit-box" ref={box} data-scale={scale.toFixed(2)} data-rows={rows}>
			<div className="pl-step-fit-content" ref={content} style={scale < 1 ? { transform: `scale(${scale})`, width: `${100 / scale}%` } : undefined}>
				{children(rows)}
			</div>
		</div>
	);
}
