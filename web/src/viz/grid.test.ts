import { describe, expect, it } from 'vitest';
import { gridWindow, rowWindow } from './grid';

describe('the grid\'s columns on screen', () => {
	it('are all the steps when they fit', () => {
		expect(gridWindow(3, 10, 12)).toEqual({ first: 1, last: 10 });
	});

	it('put the current step a third of the way across, and end at the last step', () => {
		expect(gridWindow(50, 100, 12)).toEqual({ first: 46, last: 57 });
		expect(gridWindow(100, 100, 12)).toEqual({ first: 89, last: 100 });
	});

	it('stay put while the step walks across them, one column of what is coming always shown, then move a page', () => {
		expect(gridWindow(51, 100, 12, 46)).toEqual({ first: 46, last: 57 });
		expect(gridWindow(56, 100, 12, 46)).toEqual({ first: 46, last: 57 });
		expect(gridWindow(57, 100, 12, 46)).toEqual({ first: 53, last: 64 });
		/* A step back before the window, or a jump, moves it too. */
		expect(gridWindow(45, 100, 12, 46)).toEqual({ first: 41, last: 52 });
		expect(gridWindow(99, 100, 12, 89)).toEqual({ first: 89, last: 100 });
		expect(gridWindow(100, 100, 12, 89)).toEqual({ first: 89, last: 100 });
	});
});

describe('the grid\'s rows on screen', () => {
	it('are every frame when they fit', () => {
		expect(rowWindow(12, 12, 5, 0)).toEqual({ first: 0, last: 11, windowed: false });
	});

	it('leave two rows for the marks and centre the frame the step touched', () => {
		expect(rowWindow(64, 12, 40, 0)).toEqual({ first: 35, last: 44, windowed: true });
	});

	it('stay where they were while the touched frame is inside them', () => {
		expect(rowWindow(64, 12, 44, 35)).toEqual({ first: 35, last: 44, windowed: true });
		expect(rowWindow(64, 12, 45, 35)).toEqual({ first: 40, last: 49, windowed: true });
	});

	it('end at the first and at the last frame', () => {
		expect(rowWindow(64, 12, 1, 30)).toEqual({ first: 0, last: 9, windowed: true });
		expect(rowWindow(4096, 12, 4095, 0)).toEqual({ first: 4086, last: 4095, windowed: true });
		expect(rowWindow(64, 12, null, 500)).toEqual({ first: 54, last: 63, windowed: true });
	});

	it('show at least one frame in a tiny room', () => {
		expect(rowWindow(64, 1, 7, 0)).toEqual({ first: 7, last: 7, windowed: true });
	});
});
