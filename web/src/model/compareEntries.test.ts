/*
 * Compared runs are entries (policy, frames, every parameter) that a link
 * saves as short text and gets back exactly, with labels that tell two runs
 * of one policy apart; and a comparison exports as CSV, JSON and an SVG
 * figure whose numbers are the runs' own.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyInfo } from '../wasm/protocol';
import { defaultEntry, entryLabels, entryText, parseEntry, restoreEntries, type CompareEntry } from './compareEntries';
import { comparisonJson, csvChunks, stripsSvg } from './compareExport';

const param = (name: string, def: number, min: number, max: number, choices: string[] | null = null) => ({ name, help: '', def, min, max, choices });
const policy = (name: string, params: PolicyInfo['params'] = []): PolicyInfo => ({ name, title: name, help: '', params, lists: [], fields: [], hands: [], counters: [], variables: [] });
const POLICIES = [
	policy('lru'),
	policy('fifo'),
	policy('opt'),
	policy('srrip', [param('rrpv_bits', 2, 1, 5)]),
	policy('clock', [param('ref_on_load', 1, 0, 1, ['clear', 'set'])]),
];
const SCENARIO = { policy: 'srrip', frames: 4, params: { rrpv_bits: 3 }, trace: { kind: 'text' as const, text: '1 2 3' } };
const info = (name: string) => POLICIES.find((p) => p.name === name)!;

describe('a compared entry', () => {
	it("starts at the scenario's frames with the scenario's parameters for its policy and the defaults for others, all listed", () => {
		expect(defaultEntry(info('srrip'), SCENARIO)).toEqual({ policy: 'srrip', frames: 4, params: { rrpv_bits: 3 } });
		expect(defaultEntry(info('clock'), SCENARIO)).toEqual({ policy: 'clock', frames: 4, params: { ref_on_load: 1 } });
	});

	it('is saved as short text: frames only when not the scenario\'s, parameters only when not the defaults', () => {
		expect(entryText({ policy: 'lru', frames: 4, params: {} }, info('lru'), SCENARIO)).toBe('lru');
		expect(entryText({ policy: 'lru', frames: 8, params: {} }, info('lru'), SCENARIO)).toBe('lru@8');
		expect(entryText({ policy: 'srrip', frames: 4, params: { rrpv_bits: 3 } }, info('srrip'), SCENARIO)).toBe('srrip;rrpv_bits=3');
		expect(entryText({ policy: 'clock', frames: 3, params: { ref_on_load: 0 } }, info('clock'), SCENARIO)).toBe('clock@3;ref_on_load=0');
	});

	it('comes back from its text exactly, a choice by name or index', () => {
		const entries: CompareEntry[] = [
			{ policy: 'lru', frames: 8, params: {} },
			{ policy: 'srrip', frames: 4, params: { rrpv_bits: 5 } },
			{ policy: 'clock', frames: 2, params: { ref_on_load: 0 } },
		];
		for (const entry of entries)
			expect(parseEntry(entryText(entry, info(entry.policy), SCENARIO), POLICIES, SCENARIO)).toEqual(entry);
		expect(parseEntry('clock;ref_on_load=clear', POLICIES, SCENARIO).params).toEqual({ ref_on_load: 0 });
	});

	it('refuses bad text in the CLI\'s words', () => {
		expect(() => parseEntry('arc', POLICIES, SCENARIO)).toThrow("no policy named 'arc'");
		expect(() => parseEntry('lru@0', POLICIES, SCENARIO)).toThrow("frames: '0' is not a number of frames (1 .. 4096)");
		expect(() => parseEntry('srrip;rrpv_bits=9', POLICIES, SCENARIO)).toThrow("srrip: '9' is not a valid value for rrpv_bits: expected an integer from 1 to 5");
		expect(() => parseEntry('srrip;bits=2', POLICIES, SCENARIO)).toThrow("policy srrip has no parameter 'bits' (it has: rrpv_bits)");
		expect(() => parseEntry('lru;k', POLICIES, SCENARIO)).toThrow("'k' is not a parameter setting: expected name=value");
	});

	it('restored from a link keeps what parses, names what does not, and fills up with companions', () => {
		const errors: string[] = [];
		const entries = restoreEntries(['lru@3', 'arc', 'lru@4'], SCENARIO, ['lru', 'fifo'], POLICIES, 2, 4, errors);
		expect(entries.map((e) => entryText(e, info(e.policy), SCENARIO))).toEqual(['lru@3', 'lru']);
		expect(errors).toEqual(["compare: arc: no policy named 'arc' (known: lru, fifo, opt, srrip, clock)"]);
		expect(restoreEntries(undefined, SCENARIO, ['lru', 'fifo'], POLICIES, 3, 4, []).map((e) => e.policy)).toEqual(['srrip', 'lru', 'fifo']);
	});

	it('is labelled by what tells it apart', () => {
		expect(entryLabels([{ policy: 'lru', frames: 4, params: {} }, { policy: 'fifo', frames: 4, params: {} }])).toEqual(['LRU', 'FIFO']);
		expect(entryLabels([{ policy: 'fifo', frames: 3, params: {} }, { policy: 'fifo', frames: 4, params: {} }])).toEqual(['FIFO 3 frames', 'FIFO 4 frames']);
		expect(entryLabels([
			{ policy: 'srrip', frames: 4, params: { rrpv_bits: 1 } },
			{ policy: 'srrip', frames: 4, params: { rrpv_bits: 2 } },
			{ policy: 'lru', frames: 4, params: {} },
		])).toEqual(['SRRIP rrpv_bits=1', 'SRRIP rrpv_bits=2', 'LRU']);
	});
});

describe('an exported comparison', () => {
	/* References 1 2 3 1 4 1000 as the core hands them out: dense ids into a table of page numbers. */
	const pages = { ids: Uint32Array.from([0, 1, 2, 0, 3, 4]), numbers: Float64Array.from([1, 2, 3, 4, 1000]) };
	const runs = [
		{ label: 'LRU', policy: 'lru', frames: 3, params: {}, outcome: Uint8Array.from([0, 0, 0, 1, 0, 0]) },
		{ label: 'FIFO, "3"', policy: 'fifo', frames: 3, params: {}, outcome: Uint8Array.from([0, 0, 0, 1, 0, 0]) },
	];

	it('as CSV has a row per step whose last faults are each run\'s total, in pieces of any size', () => {
		const csv = [...csvChunks(pages, runs, 4)].join('');
		const lines = csv.trim().split('\n');
		expect(lines[0]).toBe('step,page,LRU result,LRU faults,"FIFO, ""3"" result","FIFO, ""3"" faults"');
		expect(lines).toHaveLength(7);
		expect(lines[4]).toBe('4,1,H,3,H,3');
		expect(lines[6]).toBe('6,1000,F,5,F,5');
		expect([...csvChunks(pages, runs, 4)]).toHaveLength(3);
	});

	it('as JSON holds each run\'s settings, totals and results', () => {
		const json = JSON.parse(comparisonJson(pages, runs, 4, null));
		expect(json.references).toBe(6);
		expect(json.runs[0]).toEqual({ label: 'LRU', policy: 'lru', frames: 3, params: {}, faults: 5, hits: 1, faultRate: 5 / 6, results: 'FFFHFF' });
	});

	it('as SVG is one well-formed figure with a cell per step and escaped labels', () => {
		const { markup, width, height } = stripsSvg(pages, runs, { first: 1, last: 6 }, 4, 2);
		expect(markup).toContain(`width="${width}" height="${height}"`);
		expect(markup).toContain('FIFO, &#34;3&#34;  3 / 5 faults');
		expect(markup.match(/>H</g)).toHaveLength(2);
		expect(markup.match(/>F</g)).toHaveLength(10);
		expect(markup).toContain('>1000<');
		expect(markup).not.toMatch(/<(?!\/?(svg|rect|text)\b|\?xml)/);
		for (const element of markup.match(/<[a-z][^>]*>/g)!) {
			const names = [...element.matchAll(/\s([a-z:-]+)=/g)].map((m) => m[1]);
			expect(new Set(names).size, element).toBe(names.length);
		}
	});
});
