/*
 * Every view has its own style sheet beside it, and every class a sheet
 * styles carries the sheet's prefix, so one view's rules cannot reach into
 * another's.  The base sheet (src/styles.css) holds only the shared classes
 * (the shell and lecture-mode markers, notes, banners, the primary button,
 * text for screen readers only).
 * One sheet is a mode, not a view: lecture.css (lecture mode's layout and
 * minimum sizes across the views) may style any view's prefixed classes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const SHARED = ['pl-app', 'pl-lecture', 'pl-note', 'pl-banner', 'pl-primary', 'pl-visually-hidden'];
const PREFIXES: Record<string, string[]> = {
	'styles.css': [],
	'components/app.css': ['pl-app-'],
	'components/scenarioForm.css': ['pl-form'],
	'components/step/step.css': ['pl-step-'],
	'components/compare/compare.css': ['pl-compare'],
	'components/charts/charts.css': ['pl-chart'],
	'components/lecture.css': ['pl-app-', 'pl-form', 'pl-step-', 'pl-compare-', 'pl-chart'],
};

/** The class names a sheet's selectors use (comments and declarations left out). */
export function classesStyled(css: string): string[] {
	const selectors = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\{[^{}]*\}/g, '{}');
	return [...new Set([...selectors.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]))];
}

function foreignClasses(path: string, css: string): string[] {
	const prefixes = PREFIXES[path];
	return classesStyled(css).filter((name) => !SHARED.includes(name) && !prefixes.some((p) => name.startsWith(p)));
}

describe('the style sheets', () => {
	const sheets = readdirSync(SRC, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
		.map((entry) => relative(SRC, join(entry.parentPath, entry.name)).split('\\').join('/'));

	it('are one per view, each known here', () => {
		expect(sheets.sort()).toEqual(Object.keys(PREFIXES).sort());
	});

	it("style only their own view's prefixed classes and the shared ones", () => {
		for (const path of sheets) {
			const css = readFileSync(join(SRC, path), 'utf8');
			expect(classesStyled(css).length, path).toBeGreaterThan(path === 'styles.css' ? 3 : 5);
			expect(foreignClasses(path, css), path).toEqual([]);
		}
	});

	it('are checked for real: a planted foreign class is found', () => {
		expect(foreignClasses('components/step/step.css', '.pl-step-chip .cell, .pl-compare-row { color: red; }')).toEqual(['cell', 'pl-compare-row']);
		expect(classesStyled('/* .ignored */ .a:hover > .b { width: 0.5rem; }')).toEqual(['a', 'b']);
	});
});
