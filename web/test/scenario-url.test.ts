/*
 * Scenarios, the URL that carries them and the trace generators: a state
 * survives a round trip through the URL, a bad URL names its bad parameter
 * and falls back instead of crashing, the form's checks name the field, and
 * a generated trace is the same for the same seed.
 */
import { describe, expect, it } from 'vitest';
import { compressToEncodedURIComponent } from 'lz-string';
import { decodeState, encodeState, linkFor, readScenarioFile, scenarioFile, DEFAULT_STATE, LINK_LIMIT, type AppState } from '../src/model/url';
import { PRESETS, validateScenario, withPolicy, effectiveParams } from '../src/model/scenario';
import { generate } from '../src/wasm/generator';
import type { PolicyInfo } from '../src/wasm/protocol';

const SRRIP: PolicyInfo = {
	name: 'srrip',
	title: 'Static RRIP',
	help: '',
	params: [{ name: 'rrpv_bits', help: '', def: 2, min: 1, max: 5, choices: null }],
	lists: [{ name: 'frames', ghost: false }],
	fields: ['rrpv'],
	hands: [],
	counters: [],
	variables: [],
};
const FIFO: PolicyInfo = { ...SRRIP, name: 'fifo', params: [], fields: [] };

function refsOf(n: number, pages: number): string {
	let x = 1;
	return Array.from({ length: n }, () => {
		x = (x * 1103515245 + 12345) % 2147483648;
		return x % pages;
	}).join(' ');
}

const withRefs = (text: string): AppState => ({ ...DEFAULT_STATE, scenario: { ...DEFAULT_STATE.scenario, trace: { kind: 'refs', text } } });

describe('the link', () => {
	it('lives in the fragment, so no server ever sees it', () => {
		expect(encodeState(DEFAULT_STATE)).toMatch(/^#v1\./);
	});

	it('carries a preset by its name, not its data: the million-reference zipf preset is a short link', () => {
		const zipf = PRESETS.find((p) => p.id === 'zipf-big')!;
		const state: AppState = { ...DEFAULT_STATE, scenario: zipf.scenario, view: 'charts', hideAnswers: true, predict: true };
		const link = encodeState(state);
		expect(link.length).toBeLessThan(200);
		expect(decodeState(link)).toEqual({ state, errors: [] });
	});

	it('round-trips 20 000 references within the link limit', () => {
		const state = withRefs(refsOf(20_000, 100_000));
		const link = linkFor(state, 20_000);
		expect(link.tooLarge).toBeNull();
		expect(link.fragment.length).toBeLessThanOrEqual(LINK_LIMIT);
		expect(decodeState(link.fragment)).toEqual({ state, errors: [] });
	});

	it('refuses a million references with a message, keeps the rest, and says so when opened', () => {
		const state = { ...withRefs(refsOf(1_000_000, 2000)), view: 'compare' as const };
		const link = linkFor(state, 1_000_000);
		expect(link.tooLarge).toMatch(/1,000,000 references\) is too large for a link.*download scenario/);
		expect(link.fragment.length).toBeLessThan(300);
		const opened = decodeState(link.fragment);
		expect(opened.state.view).toBe('compare');
		expect(opened.errors).toEqual([expect.stringMatching(/1,000,000 references.*too large for a link: open the scenario file/)]);
	});

	it('round-trips a million references through a scenario file', () => {
		const state = withRefs(refsOf(1_000_000, 2000));
		expect(readScenarioFile(scenarioFile(state), 'lecture.json')).toEqual({ state, errors: [] });
		expect(readScenarioFile('{"pagelab": "other"}', 'x.json').errors).toEqual(['x.json: not a pagelab scenario file (no "pagelab": "scenario")']);
		expect(readScenarioFile('{"pagelab": "scen', 'cut.json').errors[0]).toMatch(/^cut.json: not a pagelab scenario file/);
	});

	it('says a truncated or damaged link is truncated, and opens the default', () => {
		const link = encodeState(withRefs(refsOf(500, 50)));
		const trace = decodeState(link.slice(0, link.length - 7));
		expect(trace.state).toEqual(DEFAULT_STATE);
		expect(trace.errors).toEqual([expect.stringMatching(/^link: its trace is truncated or damaged/)]);
		const lecture = decodeState(encodeState({ ...DEFAULT_STATE, lecture: true, scenario: withRefs(refsOf(500, 50)).scenario }).slice(0, -7));
		expect(lecture.state.lecture).toBe(true);
		for (const cut of [link.slice(0, link.indexOf('.', 4)), link.slice(0, 12)]) {
			const decoded = decodeState(cut);
			expect(decoded.state, cut).toEqual(DEFAULT_STATE);
			expect(decoded.errors, cut).toEqual([expect.stringMatching(/^link: it is truncated or damaged/)]);
		}
		expect(decodeState('#v1.a b.c').errors[0]).toMatch(/characters a pagelab link never has/);
		expect(decodeState('#share-me').errors[0]).toMatch(/is not a pagelab link/);
	});

	it('checks every field of a hostile link against the schema and names what is wrong', () => {
		const hostile = encodeState(DEFAULT_STATE).replace(/^#v1\.[^.]*/, () => {
			const json = { policy: '<img src=x onerror=alert(1)>', frames: -3, params: { k: 'x' }, view: 'admin', step: 2.5, cmp: 'lru', lecture: 'yes' };
			return `#v1.${compressToEncodedURIComponent(JSON.stringify(json))}`;
		});
		const decoded = decodeState(hostile);
		expect(decoded.state.scenario.policy).toBe(DEFAULT_STATE.scenario.policy);
		expect(decoded.state.scenario.frames).toBe(DEFAULT_STATE.scenario.frames);
		expect(decoded.state.view).toBe('step');
		expect(decoded.state.lecture).toBe(false);
		expect(decoded.errors).toEqual([
			"link: policy '<img src=x onerror=alert(1)>' is not a policy name",
			"link: frames '-3' is not a whole number of frames",
			"link: params.k 'x' is not a number",
			"link: view 'admin' is not step, compare or charts",
			"link: step '2.5' is not a step number",
			"link: cmp 'lru' is not a list of policy names",
		]);
		const badRefs = encodeState(DEFAULT_STATE).replace(/\.[^.]*$/, `.${compressToEncodedURIComponent(JSON.stringify({ refs: '1 2 <script>' }))}`);
		expect(decodeState(badRefs).errors).toEqual([expect.stringMatching(/^link: trace.refs is not a reference string/)]);
	});
});

describe('the URL', () => {
	it('round-trips a typed scenario with parameters, the view, the step and lecture mode', () => {
		const state: AppState = {
			scenario: { policy: 'srrip', frames: 4, params: { rrpv_bits: 3 }, trace: { kind: 'refs', text: '1 2 2 1 0x1f 3w' } },
			view: 'compare',
			step: 7,
			lecture: true,
		};
		const decoded = decodeState(encodeState(state));
		expect(decoded.errors).toEqual([]);
		expect(decoded.state).toEqual(state);
	});

	it("round-trips the compare view's policies and OPT ghost and the charts' policies", () => {
		const state: AppState = {
			...DEFAULT_STATE,
			view: 'compare',
			compare: { policies: ['lru', 'clock', 'srrip'], ghostOpt: true },
			charts: ['fifo', 'opt', 'linux'],
		};
		expect(decodeState(encodeState(state))).toEqual({ state, errors: [] });
		const old = '?policy=fifo&frames=3&refs=7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1&view=compare&cmp=lru,clock,srrip&ghost=1&charts=fifo,opt,linux';
		expect(decodeState(old)).toEqual({ state, errors: [] });
		const withoutGhost = { ...state, compare: { policies: ['fifo', 'lru'], ghostOpt: false } };
		expect(decodeState(encodeState(withoutGhost)).state).toEqual(withoutGhost);
	});

	it('names a malformed policy list and leaves that choice to the view', () => {
		const decoded = decodeState('?policy=lru&frames=3&refs=1,2&cmp=lru,,clock&charts=fifo;opt');
		expect(decoded.errors).toEqual([
			"URL: cmp 'lru,,clock' is not a list of policy names ('')",
			"URL: charts 'fifo;opt' is not a list of policy names ('fifo;opt')",
		]);
		expect(decoded.state.compare).toBeUndefined();
		expect(decoded.state.charts).toBeUndefined();
	});

	it('round-trips a generated scenario', () => {
		const state: AppState = {
			...DEFAULT_STATE,
			scenario: { policy: 'lru', frames: 64, params: {}, trace: { kind: 'generator', spec: { kind: 'zipf', length: 100000, pages: 500, exponent: 0.9, seed: 4 } } },
		};
		expect(decodeState(encodeState(state)).state).toEqual(state);
	});

	it('names a bad parameter and keeps the default for it', () => {
		const decoded = decodeState('?policy=lru&frames=lots&refs=1,2,3&gen=spiral');
		expect(decoded.errors).toEqual(["URL: frames 'lots' is not a number"]);
		expect(decoded.state.scenario.frames).toBe(DEFAULT_STATE.scenario.frames);
		expect(decoded.state.scenario.trace).toEqual({ kind: 'refs', text: '1 2 3' });
	});

	it('says an uploaded file must be uploaded again', () => {
		const decoded = decodeState('?policy=lru&frames=3&file=big.trace');
		expect(decoded.errors[0]).toMatch(/big\.trace.*upload it again/);
	});

	it('opens the default scenario when it holds none', () => {
		expect(decodeState('')).toEqual({ state: DEFAULT_STATE, errors: [] });
	});
});

describe('the scenario checks', () => {
	const policies = [SRRIP, FIFO];
	const base = { policy: 'srrip', frames: 4, params: {}, trace: { kind: 'refs' as const, text: '1 2' } };

	it('name the field that is wrong', () => {
		expect(() => validateScenario({ ...base, policy: 'arc' }, policies)).toThrow("no policy named 'arc' (known: srrip, fifo)");
		expect(() => validateScenario({ ...base, frames: 0 }, policies)).toThrow("frames: '0'");
		expect(() => validateScenario({ ...base, frames: 2.5 }, policies)).toThrow("frames: '2.5'");
		expect(() => validateScenario({ ...base, params: { rrpv_bits: 9 } }, policies)).toThrow("srrip: '9' is not a valid value for rrpv_bits: expected an integer from 1 to 5");
		expect(() => validateScenario({ ...base, params: { bits: 2 } }, policies)).toThrow("policy srrip has no parameter 'bits' (it has: rrpv_bits)");
	});

	it('accept every preset whose policy exists', () => {
		const figure2 = PRESETS.find((p) => p.id === 'seed000-figure2')!.scenario;
		expect(validateScenario(figure2, policies)).toBe(SRRIP);
		expect(effectiveParams(figure2, SRRIP)).toEqual({ rrpv_bits: 2 });
	});

	it('drop the parameters a newly chosen policy does not have', () => {
		expect(withPolicy({ ...base, params: { rrpv_bits: 3 } }, FIFO).params).toEqual({});
	});
});

describe('the generators', () => {
	it('give the same trace for the same seed and another for another seed', () => {
		const spec = { kind: 'zipf' as const, length: 1000, pages: 50, exponent: 1, seed: 9 };
		expect(generate(spec)).toEqual(generate(spec));
		expect(generate(spec)).not.toEqual(generate({ ...spec, seed: 10 }));
	});

	it('stay within their pages, and a zipf trace favours its first pages', () => {
		const zipf = generate({ kind: 'zipf', length: 20000, pages: 100, exponent: 1.2, seed: 1 });
		expect(Math.max(...zipf)).toBeLessThan(100);
		const hot = zipf.filter((p) => p < 10).length;
		expect(hot / zipf.length).toBeGreaterThan(0.5);
		expect(Array.from(generate({ kind: 'loop', length: 7, pages: 3 }))).toEqual([0, 1, 2, 0, 1, 2, 0]);
	});

	it('give each phase its own working set', () => {
		const trace = generate({ kind: 'phases', length: 400, phases: 4, workingSet: 5, seed: 2 });
		for (let phase = 0; phase < 4; phase++) {
			const pages = new Set(trace.subarray(phase * 100, (phase + 1) * 100));
			expect([...pages].every((p) => p >= phase * 5 && p < (phase + 1) * 5)).toBe(true);
		}
	});

	it('name a bad field', () => {
		expect(() => generate({ kind: 'uniform', length: 0, pages: 5, seed: 1 })).toThrow("generator: length '0'");
		expect(() => generate({ kind: 'zipf', length: 5, pages: 5, exponent: -1, seed: 1 })).toThrow("generator: exponent '-1'");
	});
});
