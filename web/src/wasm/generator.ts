/*
 * generator.ts - synthetic reference strings for the generator form, made in
 * the worker (host.ts) beside the core that runs them.
 *
 * generate(spec) returns page numbers (0-based) as a Uint32Array.  It is
 * deterministic: the same spec (including the seed) gives the same trace,
 * so a generated scenario in a URL reproduces exactly.  It runs in the
 * worker for big traces, so it must not touch the DOM.
 *
 * Kinds
 *   uniform  every reference picks one of `pages` pages uniformly
 *   zipf     page k (0-based rank) has weight 1/(k+1)^exponent: a few hot pages
 *   loop     0, 1, ..., pages-1, 0, 1, ...: the pattern that defeats LRU
 *   phases   `phases` equal stretches, each drawing uniformly from its own
 *            working set of `workingSet` pages (a working-set shift per phase)
 */
import { PagelabError, type GeneratorSpec } from './protocol';

export const MAX_GENERATED_REFERENCES = 20_000_000;
export const MAX_GENERATED_PAGES = 1_000_000;

/**
 * mulberry32: a small, fast, well-mixed 32-bit PRNG; returns [0, 1).  Exported
 * for the e2e fuzz test, which replays its actions from a seed the same way.
 */
export function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function requireWhole(name: string, value: number, min: number, max: number): void {
	if (!Number.isInteger(value) || value < min || value > max)
		throw new PagelabError(`generator: ${name} '${value}' must be a whole number from ${min} to ${max}`);
}

function zipfTable(pages: number, exponent: number): Float64Array {
	const cdf = new Float64Array(pages);
	let sum = 0;
	for (let k = 0; k < pages; k++) cdf[k] = sum += 1 / Math.pow(k + 1, exponent);
	for (let k = 0; k < pages; k++) cdf[k] /= sum;
	return cdf;
}

/** The first index whose cumulative weight reaches u. */
function search(cdf: Float64Array, u: number): number {
	let lo = 0;
	let hi = cdf.length - 1;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (cdf[mid] < u) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

export function generate(spec: GeneratorSpec): Uint32Array {
	requireWhole('length', spec.length, 1, MAX_GENERATED_REFERENCES);
	const out = new Uint32Array(spec.length);
	switch (spec.kind) {
		case 'uniform': {
			requireWhole('pages', spec.pages, 1, MAX_GENERATED_PAGES);
			const next = random(spec.seed);
			for (let i = 0; i < out.length; i++) out[i] = Math.floor(next() * spec.pages);
			return out;
		}
		case 'zipf': {
			requireWhole('pages', spec.pages, 1, MAX_GENERATED_PAGES);
			if (!(spec.exponent > 0 && spec.exponent <= 5))
				throw new PagelabError(`generator: exponent '${spec.exponent}' must be above 0 and at most 5`);
			const cdf = zipfTable(spec.pages, spec.exponent);
			const next = random(spec.seed);
			for (let i = 0; i < out.length; i++) out[i] = search(cdf, next());
			return out;
		}
		case 'loop':
			requireWhole('pages', spec.pages, 1, MAX_GENERATED_PAGES);
			for (let i = 0; i < out.length; i++) out[i] = i % spec.pages;
			return out;
		case 'phases': {
			requireWhole('phases', spec.phases, 1, 1000);
			requireWhole('working set', spec.workingSet, 1, MAX_GENERATED_PAGES);
			const next = random(spec.seed);
			const stretch = Math.ceil(out.length / spec.phases);
			for (let i = 0; i < out.length; i++) {
				const phase = Math.floor(i / stretch);
				out[i] = phase * spec.workingSet + Math.floor(next() * spec.workingSet);
			}
			return out;
		}
		default:
			throw new PagelabError(`generator: unknown kind '${(spec as { kind: string }).kind}'`);
	}
}
