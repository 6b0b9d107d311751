/*
 * useElementWidth.ts - the width (and height) of an element and its font
 * size in pixels, kept current as the window, the sidebar or lecture mode
 * change it.  The charts size their SVG to it (in lecture mode its height
 * too) and the compare strips fit their cells to it.
 *
 * Returns { width: 0, height: 0, em: 16 } until the element is laid out.
 * With `{ height: false }` the height is not followed (always 0): a view
 * whose height changes at every step (the step view, as its narration
 * grows and shrinks) is then not rendered a second time for it.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

export interface ElementWidth {
	width: number;
	height: number;
	/** The element's font size in px: how many px one em is there. */
	em: number;
}

export function useElementWidth(ref: RefObject<HTMLElement | null>, { height = true }: { height?: boolean } = {}): ElementWidth {
	const [size, setSize] = useState<ElementWidth>({ width: 0, height: 0, em: 16 });
	useLayoutEffect(() => {
		const element = ref.current;
		if (!element)
			return;
		const measure = () => {
			const next = { width: element.clientWidth, height: height ? element.clientHeight : 0, em: parseFloat(getComputedStyle(element).fontSize) || 16 };
			setSize((current) => (current.width === next.width && current.height === next.height && current.em === next.em ? current : next));
		};
		measure();
		const observer = new ResizeObserver(measure);
		observer.observe(element);
		return () => observer.disconnect();
	}, [ref, height]);
	return size;
}
