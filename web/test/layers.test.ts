/*
 * The page's layers hold: every import in web/src goes down the stack
 *
 *     components  (React)            may import viz, model, wasm
 *     viz         (d3, math only)    may import model, wasm
 *     model       (pure TypeScript)  may import wasm
 *     wasm        (worker, client)   imports nothing above it
 *
 * d3 is imported only in viz/, React only in components/ (and main.tsx,
 * which mounts the App).  Type-only imports count: they tie the layers as
 * much as values do.  The check reads the sources as text (imports, export
 * ... from, import(), new URL(..., import.meta.url)); its own rules are
 * tested below on planted sources, so it cannot pass by finding nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const LAYERS = ['wasm', 'model', 'viz', 'components'] as const;
/* main.tsx mounts the App: it sits above every layer. */
const ENTRY_RANK = LAYERS.length;

interface SourceFile {
	/** Path under web/src with '/' separators, e.g. 'wasm/host.ts'. */
	path: string;
	source: string;
}

/** The rank of a file under web/src (higher may import lower), or null outside the layers. */
function rankOf(path: string): number | null {
	if (!path.includes('/'))
		return ENTRY_RANK;
	const rank = LAYERS.indexOf(path.split('/')[0] as (typeof LAYERS)[number]);
	return rank < 0 ? null : rank;
}

/* Comments may quote imports; strings such as 'http://' are not comments. */
function withoutComments(source: string): string {
	return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\w])\/\/.*$/gm, '$1');
}

/** Every module specifier a source refers to. */
export function specifiersOf(source: string): string[] {
	const code = withoutComments(source);
	const patterns = [
		/\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
		/\bimport\s*['"]([^'"]+)['"]/g,
		/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
		/\bnew\s+URL\s*\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g,
	];
	return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1]));
}

const isD3 = (specifier: string) => specifier === 'd3' || specifier.startsWith('d3-');
const isReact = (specifier: string) => /^react(-dom)?(\/|$)/.test(specifier);

/** What breaks the layering, one sentence per offending import. */
export function layerViolations(files: SourceFile[]): string[] {
	const found: string[] = [];
	for (const { path, source } of files) {
		const rank = rankOf(path);
		for (const specifier of specifiersOf(source)) {
			if (isD3(specifier) && !path.startsWith('viz/'))
				found.push(`${path} imports ${specifier}: d3 belongs in viz/ only`);
			if (isReact(specifier) && rank !== null && rank < LAYERS.indexOf('components'))
				found.push(`${path} imports ${specifier}: React belongs in components/ only`);
			if (!specifier.startsWith('.') || rank === null)
				continue;
			const target = posix.normalize(posix.join(posix.dirname(path), specifier));
			const targetRank = rankOf(target);
			if (targetRank !== null && targetRank > rank)
				found.push(
					`${path} imports ${specifier}: ${LAYERS[rank] ?? 'main'} may not import ${LAYERS[targetRank] ?? 'main'} (wasm → model → viz → components)`,
				);
		}
	}
	return found;
}

function sourcesUnder(dir: string): SourceFile[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && /\.(ts|tsx|mts)$/.test(entry.name))
		.map((entry) => {
			const file = join(entry.parentPath, entry.name);
			return { path: relative(SRC, file).split('\\').join('/'), source: readFileSync(file, 'utf8') };
		});
}

describe('the layers of web/src', () => {
	const files = sourcesUnder(SRC);

	it('are all present, with their imports read', () => {
		for (const layer of LAYERS)
			expect(files.filter((f) => f.path.startsWith(`${layer}/`)).length, layer).toBeGreaterThan(2);
		const relativeImports = files.flatMap((f) => specifiersOf(f.source)).filter((s) => s.startsWith('.'));
		expect(relativeImports.length).toBeGreaterThan(50);
	});

	it('import only downwards, d3 only in viz/ and React only in components/', () => {
		expect(layerViolations(files)).toEqual([]);
	});
});

describe('the layer check', () => {
	const check = (path: string, source: string) => layerViolations([{ path, source }]);

	it('refuses wasm importing model, even for types only', () => {
		expect(check('wasm/host.ts', "import { generate } from '../model/generator';")).toEqual([
			'wasm/host.ts imports ../model/generator: wasm may not import model (wasm → model → viz → components)',
		]);
		expect(check('wasm/client.ts', "import type {\n\tScenario,\n} from '../model/scenario';")).toHaveLength(1);
	});

	it('refuses model importing viz or components, and viz importing components', () => {
		expect(check('model/run.ts', "export { chartWidth } from '../viz/charts';")).toHaveLength(1);
		expect(check('model/run.ts', "const App = await import('../components/App');")).toHaveLength(1);
		expect(check('viz/grid.ts', "import { App } from '../components/App';")).toHaveLength(1);
	});

	it('refuses d3 outside viz/ and React outside components/', () => {
		expect(check('components/step/ClockFace.tsx', "import { scaleLinear } from 'd3';")).toEqual([
			"components/step/ClockFace.tsx imports d3: d3 belongs in viz/ only",
		]);
		expect(check('model/compare.ts', "import { max } from 'd3-array';")).toHaveLength(1);
		expect(check('viz/meter.ts', "import { useState } from 'react';")).toHaveLength(1);
		expect(check('viz/meter.ts', "import { interpolateRgb } from 'd3';")).toEqual([]);
	});

	it('allows imports down the stack and within a layer', () => {
		expect(
			check(
				'components/compare/Strips.tsx',
				"import { stripCells } from '../../model/compare';\nimport type { Session } from '../../wasm/protocol';\nimport './compare.css';",
			),
		).toEqual([]);
		expect(check('model/run.ts', "import { Timeline } from './timeline';")).toEqual([]);
		expect(check('main.tsx', "import { App } from './components/App';")).toEqual([]);
	});

	it('ignores imports quoted in comments', () => {
		expect(check('wasm/host.ts', "/* import { x } from '../model/x'; */\n// import { y } from '../viz/y';")).toEqual([]);
	});
});
