/*
 * url.ts - the whole scenario and view in the URL's query string, so a link
 * on a slide opens exactly what the lecturer showed.
 *
 *   ?policy=srrip&frames=4&p.rrpv_bits=2&refs=1,2,2,1,11&view=step&step=5
 *   ?policy=lru&frames=64&gen=zipf&len=100000&pages=500&exp=0.9&seed=1
 *   &view=compare&lecture=1&cmp=lru,clock,srrip&ghost=1&charts=fifo,lru,opt
 *
 * `cmp`/`ghost` are the compare view's policies and OPT ghost column,
 * `charts` the policies the charts plot; absent, each view picks its own.
 * Their names are checked only for form here: a name the core lacks is
 * dropped by the view that reads it (model/compare.ts restorePolicies).
 *
 * An uploaded file cannot travel in a URL: a small one is stored as its
 * reference string (the page numbers it held), a big one only by name, and
 * loading such a link says the file must be uploaded again.
 *
 * Invariants
 *   - decodeState(encodeState(s)) == s for every state whose trace is a
 *     reference string or a generator (tested).
 *   - decodeState never throws: a bad value leaves the default in place and
 *     is reported in `errors`, naming the URL parameter.
 */
import type { GeneratorSpec } from '../wasm/protocol';
import { DEFAULT_SCENARIO, type Scenario } from './scenario';

export type View = 'step' | 'compare' | 'charts';

export interface CompareChoice {
	policies: string[];
	ghostOpt: boolean;
}

export interface AppState {
	scenario: Scenario;
	view: View;
	step: number;
	lecture: boolean;
	/* Absent until the compare view (or a link) has chosen. */
	compare?: CompareChoice;
	/* Absent until the charts view (or a link) has chosen. */
	charts?: string[];
}

export const DEFAULT_STATE: AppState = {
	scenario: DEFAULT_SCENARIO,
	view: 'step',
	step: 0,
	lecture: false,
};

/* Generator fields and their URL names. */
const GENERATOR_KEYS: Record<string, string> = {
	length: 'len',
	pages: 'pages',
	exponent: 'exp',
	seed: 'seed',
	phases: 'phases',
	workingSet: 'ws',
};

export function encodeState(state: AppState): string {
	const q = new URLSearchParams();
	const { scenario } = state;
	q.set('policy', scenario.policy);
	q.set('frames', String(scenario.frames));
	for (const [name, value] of Object.entries(scenario.params)) q.set(`p.${name}`, String(value));
	const trace = scenario.trace;
	if (trace.kind === 'refs') q.set('refs', trace.text.trim().split(/[\s,]+/).join(','));
	else if (trace.kind === 'generator') {
		q.set('gen', trace.spec.kind);
		for (const [field, key] of Object.entries(GENERATOR_KEYS)) {
			const value = (trace.spec as unknown as Record<string, number | undefined>)[field];
			if (value !== undefined) q.set(key, String(value));
		}
	} else q.set('file', trace.name);
	q.set('view', state.view);
	if (state.step) q.set('step', String(state.step));
	if (state.lecture) q.set('lecture', '1');
	if (state.compare) {
		q.set('cmp', state.compare.policies.join(','));
		if (state.compare.ghostOpt) q.set('ghost', '1');
	}
	if (state.charts) q.set('charts', state.charts.join(','));
	return `?${q.toString().replace(/%2C/g, ',')}`;
}

export interface Decoded {
	state: AppState;
	errors: string[];
}

function wholeNumber(q: URLSearchParams, key: string, errors: string[]): number | undefined {
	const text = q.get(key);
	if (text === null) return undefined;
	const value = Number(text);
	if (text.trim() === '' || !Number.isFinite(value)) {
		errors.push(`URL: ${key} '${text}' is not a number`);
		return undefined;
	}
	return value;
}

function decodeGenerator(q: URLSearchParams, errors: string[]): GeneratorSpec | undefined {
	const kind = q.get('gen');
	const spec: Record<string, unknown> = { kind };
	if (!['uniform', 'zipf', 'loop', 'phases'].includes(kind ?? '')) {
		errors.push(`URL: gen '${kind}' is not a generator (uniform, zipf, loop, phases)`);
		return undefined;
	}
	for (const [field, key] of Object.entries(GENERATOR_KEYS)) {
		const value = wholeNumber(q, key, errors);
		if (value !== undefined) spec[field] = value;
	}
	return spec as unknown as GeneratorSpec;
}

const POLICY_NAME = /^[a-z][a-z0-9_-]*$/;

/** A comma-separated list of policy names, or undefined (reported) when one is malformed. */
function policyList(q: URLSearchParams, key: string, errors: string[]): string[] | undefined {
	const text = q.get(key);
	if (text === null) return undefined;
	const names = text.split(',');
	const bad = names.find((name) => !POLICY_NAME.test(name));
	if (bad === undefined) return names;
	errors.push(`URL: ${key} '${text}' is not a list of policy names ('${bad}')`);
	return undefined;
}

function decodeCompare(q: URLSearchParams, errors: string[]): CompareChoice | undefined {
	const policies = policyList(q, 'cmp', errors);
	return policies && { policies, ghostOpt: q.get('ghost') === '1' };
}

export function decodeState(search: string): Decoded {
	const q = new URLSearchParams(search);
	const errors: string[] = [];
	if (!q.has('policy')) return { state: DEFAULT_STATE, errors };
	const params: Record<string, number> = {};
	for (const [key] of q) {
		if (!key.startsWith('p.')) continue;
		const value = wholeNumber(q, key, errors);
		if (value !== undefined) params[key.slice(2)] = value;
	}
	let trace: Scenario['trace'] = DEFAULT_SCENARIO.trace;
	if (q.has('refs')) trace = { kind: 'refs', text: q.get('refs')!.split(',').join(' ') };
	else if (q.has('gen')) {
		const spec = decodeGenerator(q, errors);
		if (spec) trace = { kind: 'generator', spec };
	} else if (q.has('file'))
		errors.push(`URL: the trace was the uploaded file '${q.get('file')}'; upload it again to see it`);
	const scenario: Scenario = {
		policy: q.get('policy')!,
		frames: wholeNumber(q, 'frames', errors) ?? DEFAULT_SCENARIO.frames,
		params,
		trace,
	};
	const view = q.get('view');
	return {
		state: {
			scenario,
			view: view === 'compare' || view === 'charts' ? view : 'step',
			step: Math.max(0, Math.floor(wholeNumber(q, 'step', errors) ?? 0)),
			lecture: q.get('lecture') === '1',
			compare: decodeCompare(q, errors),
			charts: policyList(q, 'charts', errors),
		},
		errors,
	};
}
