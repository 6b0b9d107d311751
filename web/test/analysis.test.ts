/*
 * The analyses in the WebAssembly module (engine.missCurve, lifetime,
 * workingSetSeries over abi.c) equal the native CLI's `pagelab mrc`,
 * `lifetime` and `wss` on the same trace: the browser's worker gets the
 * same numbers as the command line.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine } from './support';
import type { Engine } from '../src/wasm/engine';

const CLI = fileURLToPath(new URL('../../wasm-core/build/pagelab', import.meta.url));

function cli(args: string[]): unknown {
	return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
}

/** A reproducible skewed reference string (xorshift, not Math.random). */
function skewedRefs(length: number, pages: number, seed: number): string {
	let x = seed;
	const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 2 ** 32);
	return Array.from({ length }, () => Math.floor(next() * Math.floor(next() * pages + 1))).join(' ');
}

const REFS = skewedRefs(3000, 400, 4242);
const FRAMES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
let engine: Engine;
let trace: number;

beforeAll(async () => {
	engine = await loadEngine();
	trace = engine.traceFromText(REFS, 'skewed');
});

describe('the analyses in the browser equal the command line', () => {
	for (const policy of ['lru', 'opt', 'fifo', 'clock']) {
		it(`gives ${policy}'s misses at every size as pagelab mrc does`, () => {
			const rows = cli(['mrc', '--policies', policy, '--frames', FRAMES.join(','), '--refs', REFS, '--json']) as {
				misses: number;
			}[];
			expect(engine.missCurve(trace, policy, undefined, FRAMES)).toEqual(rows.map((r) => r.misses));
		});
	}

	it('gives the lifetime points of ws and lru as pagelab lifetime does', () => {
		const rows = cli(['lifetime', '--tau', '1,10,100,1000', '--frames', '1,10,100', '--refs', REFS, '--json']) as {
			policy: string;
			faults: number;
			mean_resident: number;
		}[];
		const { ws, lru } = engine.lifetime(trace, [1, 10, 100, 1000], [1, 10, 100]);
		expect([...ws, ...lru].map((p) => p.faults)).toEqual(rows.map((r) => r.faults));
		[...ws, ...lru].forEach((p, i) => expect(p.meanResident).toBeCloseTo(rows[i].mean_resident, 3));
	});

	it('gives the working-set size over time as pagelab wss does', () => {
		const json = cli(['wss', '--tau', '50', '--points', '30', '--refs', REFS, '--json']) as {
			series: { points: { mean: number }[] }[];
		};
		const series = engine.workingSetSeries(trace, 50, 30);
		series.forEach((mean, b) => expect(mean).toBeCloseTo(json.series[0].points[b].mean, 3));
	});

	it('refuses sizes out of order with the core message', () => {
		expect(() => engine.missCurve(trace, 'lru', undefined, [4, 2])).toThrow(
			'analysis: frame sizes must be >= 1 and ascending (size 2 is 2)',
		);
	});
});
