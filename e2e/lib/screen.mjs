/*
 * screen.mjs - what a projector shows, measured in the page: the checks
 * lecture mode's tests share.
 *
 *   PROJECTORS         [width, height] of the four projector sizes.
 *   textBoxes()        (run in the page with page.evaluate) every element with
 *                      its own visible text (not scrolled out of a scroll box's
 *                      view): its text, its box, and how large
 *                      the text is on screen (the computed size times the
 *                      scale FitBox applies, or for SVG text the height of
 *                      its box), and whether it is cut with an ellipsis.
 *   expectOnScreen(lab, ids, {width, height})
 *                      each test id's box lies inside the viewport.
 *   expectLocatorOnScreen(locator, what, {width, height})
 *                      the same for any locator.
 *   expectLectureText(lab, {width, height})
 *                      no text outside the viewport, none under 24 px, none cut.
 *   expectCountersWhole(lab, what)
 *                      the counters panel shows whole rows: no counter, nor
 *                      the ring around a counter the step bumped, cut by its
 *                      lower edge (the rest scroll).
 */
import { expect } from '@playwright/test';

/* The projector sizes lecture mode is built for (issue 10). */
export const PROJECTORS = [
	[1280, 720],
	[1366, 768],
	[1920, 1080],
	[1024, 768],
];

export function textBoxes() {
	/* Text a scroll box (a long list in lecture mode) has scrolled out of its view is not on screen. */
	const scrolledOutOfView = (element, box) => {
		for (let up = element.parentElement; up; up = up.parentElement) {
			if (!/auto|scroll/.test(getComputedStyle(up).overflowY)) continue;
			const view = up.getBoundingClientRect();
			if (box.bottom <= view.top + up.clientTop || box.top >= view.top + up.clientTop + up.clientHeight) return true;
		}
		return false;
	};
	const out = [];
	for (const element of document.querySelectorAll('body *')) {
		const own = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
		if (!own || !element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
		const box = element.getBoundingClientRect();
		if (!box.width || !box.height || scrolledOutOfView(element, box)) continue;
		const scale = Number(element.closest('[data-scale]')?.getAttribute('data-scale') ?? 1);
		const svg = element instanceof SVGElement;
		const size = svg ? box.height : parseFloat(getComputedStyle(element).fontSize) * scale;
		const clipped = !svg && element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).textOverflow === 'ellipsis';
		out.push({ text: element.textContent.trim().slice(0, 30), size, clipped, right: box.right, bottom: box.bottom, left: box.left, top: box.top });
	}
	return out;
}

export async function expectOnScreen(lab, ids, viewport) {
	for (const id of ids) await expectLocatorOnScreen(lab.byTestId(id), id, viewport);
}

export async function expectLocatorOnScreen(locator, what, { width, height }) {
	const box = await locator.boundingBox();
	expect(box, what).not.toBeNull();
	expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1, `${what} at ${JSON.stringify(box)}`).toBe(true);
}

export async function expectLectureText(lab, { width, height }) {
	const texts = await lab.page.evaluate(textBoxes);
	expect(texts.filter((t) => t.right > width + 1 || t.bottom > height + 1 || t.left < -1 || t.top < -1), 'text outside the viewport').toEqual([]);
	expect(texts.filter((t) => t.size < 23.5), 'text under 24 px').toEqual([]);
	expect(texts.filter((t) => t.clipped), 'text cut with an ellipsis').toEqual([]);
}

export async function expectCountersWhole(lab, what) {
	const cut = await lab.byTestId('counters').evaluate((panel) => {
		const bottom = panel.getBoundingClientRect().top + panel.clientTop + panel.clientHeight;
		/* What a counter draws: its box and an outline around it (a ring cut off is a cut row too). */
		const drawn = (item) => {
			const style = getComputedStyle(item);
			const ring = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
			const box = item.getBoundingClientRect();
			return { top: box.top - ring, bottom: box.bottom + ring };
		};
		return [...panel.children]
			.filter((item) => drawn(item).top < bottom - 0.5 && drawn(item).bottom > bottom + 0.5)
			.map((item) => item.textContent);
	});
	expect(cut, `${what}: counters cut by the panel's lower edge`).toEqual([]);
}
