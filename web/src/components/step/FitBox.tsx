/*
 * FitBox.tsx - scales its content down (never up) to the height of the box
 * it is given, so lecture mode shows the whole structure on one projector
 * screen: laid out 1/scale times as wide as the box, then shrunk by a CSS
 * transform, so it fills the box's width (never below MIN_SCALE, where it
 * would be unreadable: then it clips).  Measured again whenever the box or
 * the content changes size; the scale only grows back when the content
 * would use less than 90% of the height, so a layout that gets shorter as
 * it gets wider cannot make it flicker between two scales.  With `fit`
 * false it is a plain wrapper.
 */
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

const MIN_SCALE = 0.4;

export function FitBox({ fit, children }: { fit: boolean; children: ReactNode }) {
	const box = useRef<HTMLDivElement>(null);
	const content = useRef<HTMLDivElement>(null);
	const [scale, setScale] = useState(1);
	useLayoutEffect(() => {
		const outer = box.current;
		const inner = content.current;
		if (!fit || !outer || !inner) {
			setScale(1);
			return;
		}
		const measure = () => {
			const fitting = outer.clientHeight / Math.max(1, inner.scrollHeight);
			setScale((s) => {
				const shown = s * inner.scrollHeight;
				if (shown > outer.clientHeight + 1 || shown < 0.9 * outer.clientHeight)
					return Math.max(MIN_SCALE, Math.min(1, fitting * 0.98));
				return s;
			});
		};
		measure();
		const observer = new ResizeObserver(measure);
		observer.observe(outer);
		observer.observe(inner);
		return () => observer.disconnect();
	}, [fit]);
	if (!fit) return <>{children}</>;
	return (
		<div className="pl-step-fit-box" ref={box} data-scale={scale.toFixed(2)}>
			<div className="pl-step-fit-content" ref={content} style={scale < 1 ? { transform: `scale(${scale})`, width: `${100 / scale}%` } : undefined}>
				{children}
			</div>
		</div>
	);
}
