/*
 * url.ts - the whole scenario and view in the URL's fragment, so a link on
 * a slide opens exactly what the lecturer showed, and in a scenario file
 * when the trace is too large for a link.
 *
 *   #v1.<lz-string of the JSON below, trace left out>.<lz-string of the trace's JSON>
 *   (the fragment never reaches a server; the trace is compressed apart, once
 *   per trace, so writing the step of a 20k-reference scenario stays cheap)
 *   { "policy": "srrip", "frames": 4, "params": { "rrpv_bits": 2 },
 *     "trace": { "refs": "1 2 2 1 11" } | { "preset": "zipf-big" }
 *            | { "gen": { "kind": "zipf", ... } } | { "file": "big.trace", "references": 1000000 },
 *     "view": "step", "step": 5, "lecture": true, "hide": true, "predict": true,
 *     "cmp": ["lru", "clock"], "ghost": true, "charts": ["fifo", "opt"] }
 *
 * A trace that is one of the presets' travels as the preset's id, not its
 * data.  A trace whose link would pass LINK_LIMIT characters is left out of
 * the link (linkFor() says so, and the page offers the scenario as a file
 * instead: scenarioFile()/readScenarioFile(), same schema, larger limits).
 * Old links (?policy=lru&frames=3&refs=1,2,3&view=step&step=5, with
 * gen/len/pages/exp/seed/phases/ws, file, cmp, ghost, charts, lecture)
 * still open.
 *
 * A link is untrusted input: it is decompressed with a size limit, parsed
 * as JSON and checked field by field against the schema (types, ranges,
 * name patterns, lengths); nothing from it is ever rendered as HTML (React
 * renders text).  `cmp`/`charts` names are checked only for form here: a
 * name the core lacks is dropped by the view that reads it.
 *
 * Invariants
 *   - decodeState(encodeState(s)) == s for every state whose trace is a
 *     reference string, a generator or a preset (tested).
 *   - decodeState never throws: what is wrong leaves the default in place
 *     and is reported in `errors`, naming the field and what was wrong
 *     (truncated, not a pagelab link, too large, bad value).
 */
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import type { GeneratorSpec } from '../wasm/protocol';
import { DEFAULT_SCENARIO, PRESETS, presetById, type Scenario } from './scenario';

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
	/** Totals, fault marks ahead of the cursor, result-giving titles and compare strips hidden. */
	hideAnswers?: boolean;
	/** The class predicts each step before it is shown. */
	predict?: boolean;
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
/* A compared run: a policy name, its frames when not the scenario's, parameters when not the defaults (model/compareEntries.ts). */
const COMPARE_ENTRY = /^[a-z][a-z0-9_-]*(@[0-9]{1,7})?(;[a-z][a-z0-9_]*=-?[0-9a-z_]{1,20}){0,8}$/;

/** A comma-separated list of policy names, or undefined (reported) when one is malformed. */
function policyList(q: URLSearchParams, key: string, errors: string[], pattern = POLICY_NAME): string[] | undefined {
	const text = q.get(key);
	if (text === null) return undefined;
	const names = text.split(',');
	const bad = names.find((name) => !pattern.test(name));
	if (bad === undefined) return names;
	errors.push(`URL: ${key} '${text}' is not a list of policy names ('${bad}')`);
	return undefined;
}

function decodeCompare(q: URLSearchParams, errors: string[]): CompareChoice | undefined {
	const policies = policyList(q, 'cmp', errors, COMPARE_ENTRY);
	return policies && { policies, ghostOpt: q.get('ghost') === '1' };
}

/* An old link: the query string pagelab wrote before links moved to the fragment. */
function decodeQuery(search: string): Decoded {
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

/* ------------------------------------------------------------- fragment */

const FRAGMENT_PREFIX = '#v1.';
/** Longest link the page writes; a larger trace goes in a scenario file. */
export const LINK_LIMIT = 64_000;
/** Largest JSON a link may decompress to (a bomb is refused, not expanded). */
const LINK_JSON_LIMIT = 1_000_000;
/** Largest reference string a scenario file may hold (characters). */
const FILE_JSON_LIMIT = 64_000_000;
const MAX_STEP = 100_000_000;
const DEFAULT_PRESET = PRESETS[0].id;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function presetIdOf(scenario: Scenario): string | undefined {
	const trace = scenario.trace;
	if (trace.kind === 'file') return undefined;
	const same = JSON.stringify(trace);
	return PRESETS.find((p) => JSON.stringify(p.scenario.trace) === same)?.id;
}

function normalRefs(text: string): string {
	return text.trim().split(/[\s,]+/).join(' ');
}

/** The state as the schema's JSON; `withTrace` false leaves a file trace's data out. */
function toJson(state: AppState, references?: number): Record<string, Json> {
	const { scenario } = state;
	const trace = scenario.trace;
	const preset = presetIdOf(scenario);
	const json: Record<string, Json> = {
		policy: scenario.policy,
		frames: scenario.frames,
		params: { ...scenario.params },
		trace: preset
			? { preset }
			: trace.kind === 'refs'
				? { refs: normalRefs(trace.text) }
				: trace.kind === 'generator'
					? { gen: { ...trace.spec } as unknown as Json }
					: { file: trace.name, ...(references !== undefined ? { references } : {}) },
		view: state.view,
	};
	if (state.step) json.step = state.step;
	if (state.lecture) json.lecture = true;
	if (state.hideAnswers) json.hide = true;
	if (state.predict) json.predict = true;
	if (state.compare) {
		json.cmp = state.compare.policies;
		if (state.compare.ghostOpt) json.ghost = true;
	}
	if (state.charts) json.charts = state.charts;
	return json;
}

/* Compressed traces by trace object: a scenario's trace is compressed once. */
const compressedTraces = new WeakMap<object, string>();

function compressTrace(trace: Scenario['trace'], json: Json): string {
	let text = compressedTraces.get(trace);
	if (text === undefined) {
		text = compressToEncodedURIComponent(JSON.stringify(json));
		compressedTraces.set(trace, text);
	}
	return text;
}

function fragmentOf(json: Record<string, Json>, trace: Scenario['trace']): string {
	const { trace: traceJson, ...rest } = json;
	return `${FRAGMENT_PREFIX}${compressToEncodedURIComponent(JSON.stringify(rest))}.${compressTrace(trace, traceJson)}`;
}

/** The link fragment for a state, whatever its size (see linkFor()). */
export function encodeState(state: AppState): string {
	return fragmentOf(toJson(state), state.scenario.trace);
}

/* A trace whose JSON is this long cannot compress under LINK_LIMIT: not even tried (1M references would take seconds). */
const COMPRESSIBLE_LIMIT = 6 * LINK_LIMIT;

export type Link = { fragment: string; tooLarge: null } | { fragment: string; tooLarge: string };

/**
 * The fragment to write for a state.  A trace that would make it longer
 * than LINK_LIMIT is replaced by its name and size (the link still opens
 * the view, policy and frames, and says the trace must be loaded from the
 * scenario file); `tooLarge` is then the message to show.
 */
export function linkFor(state: AppState, references: number): Link {
	const trace = state.scenario.trace;
	const rawLength = trace.kind === 'refs' ? trace.text.length : trace.kind === 'file' ? Infinity : 0;
	const full = rawLength <= COMPRESSIBLE_LIMIT ? encodeState(state) : null;
	if (full !== null && full.length <= LINK_LIMIT) return { fragment: full, tooLarge: null };
	const name = trace.kind === 'file' ? trace.name : 'reference string';
	const placeholder: Scenario['trace'] = { kind: 'file', name, bytes: new Uint8Array() };
	const json = toJson({ ...state, scenario: { ...state.scenario, trace: placeholder } }, references);
	const size = full !== null ? ` (${Math.round(full.length / 1000)} KB, the limit is ${LINK_LIMIT / 1000} KB)` : '';
	return {
		fragment: fragmentOf(json, placeholder),
		tooLarge: `this trace (${references.toLocaleString('en')} references) is too large for a link${size}: the link keeps the policy, frames and view only; use “download scenario” to share it as a file`,
	};
}

/** A scenario file: the same schema as a link, as readable JSON. */
export function scenarioFile(state: AppState): string {
	return JSON.stringify({ pagelab: 'scenario', version: 1, ...toJson(state) });
}

/** Reads a scenario file (text), as untrusted as a link. */
export function readScenarioFile(text: string, name: string): Decoded {
	const errors: string[] = [];
	if (text.length > FILE_JSON_LIMIT) return { state: DEFAULT_STATE, errors: [`${name}: ${text.length} bytes is larger than a scenario file may be (${FILE_JSON_LIMIT})`] };
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (e) {
		return { state: DEFAULT_STATE, errors: [`${name}: not a pagelab scenario file (${(e as Error).message})`] };
	}
	if (!isObject(json) || json.pagelab !== 'scenario') return { state: DEFAULT_STATE, errors: [`${name}: not a pagelab scenario file (no "pagelab": "scenario")`] };
	const state = fromJson(json, errors, `${name}: `, FILE_JSON_LIMIT);
	return { state, errors };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function quote(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	return `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
}

function integerIn(value: unknown, min: number, max: number): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

const GENERATOR_FIELDS: Record<string, string[]> = {
	uniform: ['length', 'pages', 'seed'],
	zipf: ['length', 'pages', 'exponent', 'seed'],
	loop: ['length', 'pages'],
	phases: ['length', 'phases', 'workingSet', 'seed'],
};

function generatorFrom(value: unknown, errors: string[], at: string): GeneratorSpec | undefined {
	if (!isObject(value) || typeof value.kind !== 'string' || !GENERATOR_FIELDS[value.kind]) {
		errors.push(`${at}trace.gen ${quote(value)} is not a generator (uniform, zipf, loop, phases)`);
		return undefined;
	}
	const spec: Record<string, unknown> = { kind: value.kind };
	for (const field of GENERATOR_FIELDS[value.kind]) {
		const v = value[field];
		if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1e9) {
			errors.push(`${at}trace.gen.${field} ${quote(v)} is not a number from 0 to 10^9`);
			return undefined;
		}
		spec[field] = v;
	}
	return spec as unknown as GeneratorSpec;
}

function traceFrom(value: unknown, errors: string[], at: string, refsLimit: number): Scenario['trace'] {
	if (isObject(value)) {
		if (typeof value.preset === 'string') {
			const preset = presetById(value.preset);
			if (preset) return preset.scenario.trace;
			errors.push(`${at}trace.preset ${quote(value.preset)} is not a preset of this version`);
		} else if (typeof value.refs === 'string') {
			if (value.refs.length <= refsLimit && /^[0-9a-fA-FxXwW\s,]*$/.test(value.refs)) return { kind: 'refs', text: value.refs };
			errors.push(`${at}trace.refs is not a reference string (page numbers, 'w' for writes) of at most ${refsLimit} characters`);
		} else if (value.gen !== undefined) {
			const spec = generatorFrom(value.gen, errors, at);
			if (spec) return { kind: 'generator', spec };
		} else if (typeof value.file === 'string') {
			const size = integerIn(value.references, 0, 1e10) ? ` of ${value.references.toLocaleString('en')} references` : '';
			errors.push(`${at}the trace${size} ('${value.file.slice(0, 80)}') was too large for a link: open the scenario file it was shared with (or upload the trace again)`);
		} else errors.push(`${at}trace ${quote(value)} has no refs, preset, gen or file`);
	} else errors.push(`${at}trace is missing`);
	return DEFAULT_SCENARIO.trace;
}

function namesFrom(value: unknown, key: string, errors: string[], at: string, pattern = POLICY_NAME): string[] | undefined {
	if (value === undefined) return undefined;
	if (Array.isArray(value) && value.length <= 64 && value.every((n) => typeof n === 'string' && pattern.test(n) && n.length <= 200)) return value as string[];
	errors.push(`${at}${key} ${quote(value)} is not a list of policy names`);
	return undefined;
}

/* Checks every field of a decoded link or file; what is wrong keeps its default and is named. */
function fromJson(json: Record<string, unknown>, errors: string[], at: string, refsLimit: number): AppState {
	const policy = typeof json.policy === 'string' && POLICY_NAME.test(json.policy) && json.policy.length <= 40 ? json.policy : undefined;
	if (policy === undefined) errors.push(`${at}policy ${quote(json.policy)} is not a policy name`);
	const frames = integerIn(json.frames, 1, 1 << 20) ? json.frames : undefined;
	if (frames === undefined) errors.push(`${at}frames ${quote(json.frames)} is not a whole number of frames`);
	const params: Record<string, number> = {};
	if (isObject(json.params))
		for (const [name, value] of Object.entries(json.params).slice(0, 16)) {
			if (POLICY_NAME.test(name) && typeof value === 'number' && Number.isFinite(value)) params[name] = value;
			else errors.push(`${at}params.${name.slice(0, 40)} ${quote(value)} is not a number`);
		}
	else if (json.params !== undefined) errors.push(`${at}params ${quote(json.params)} is not a set of parameters`);
	const trace = traceFrom(json.trace, errors, at, refsLimit);
	const view = json.view === 'compare' || json.view === 'charts' || json.view === 'step' ? json.view : 'step';
	if (json.view !== undefined && view !== json.view) errors.push(`${at}view ${quote(json.view)} is not step, compare or charts`);
	const step = integerIn(json.step, 0, MAX_STEP) ? json.step : 0;
	if (json.step !== undefined && step !== json.step) errors.push(`${at}step ${quote(json.step)} is not a step number`);
	const cmp = namesFrom(json.cmp, 'cmp', errors, at, COMPARE_ENTRY);
	const state: AppState = {
		scenario: { policy: policy ?? DEFAULT_SCENARIO.policy, frames: frames ?? DEFAULT_SCENARIO.frames, params: policy ? params : {}, trace },
		view,
		step,
		lecture: json.lecture === true,
	};
	if (cmp) state.compare = { policies: cmp, ghostOpt: json.ghost === true };
	const charts = namesFrom(json.charts, 'charts', errors, at);
	if (charts) state.charts = charts;
	if (json.hide === true) state.hideAnswers = true;
	if (json.predict === true) state.predict = true;
	return state;
}

function decodeFragment(fragment: string): Decoded {
	const at = 'link: ';
	const fail = (why: string): Decoded => ({ state: DEFAULT_STATE, errors: [`${at}${why}; the default scenario is shown instead`] });
	if (!fragment.startsWith(FRAGMENT_PREFIX)) return fail(`'${fragment.slice(0, 20)}' is not a pagelab link (it should start with ${FRAGMENT_PREFIX})`);
	const parts = fragment.slice(FRAGMENT_PREFIX.length).split('.');
	if (parts.length !== 2) return fail('it is truncated or damaged (it should have two parts); copy the whole link again');
	if (!parts.every((part) => /^[A-Za-z0-9+\-$]+$/.test(part))) return fail('it holds characters a pagelab link never has (was it edited or cut by a mail program?)');
	const [state, trace] = parts.map((part) => {
		let text: string | null = null;
		try {
			text = decompressFromEncodedURIComponent(part);
		} catch {
			text = null;
		}
		if (!text || text.length > LINK_JSON_LIMIT) return undefined;
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return undefined;
		}
	});
	if (state === undefined || !isObject(state)) return fail('it is truncated or damaged (its content does not decompress to a scenario); copy the whole link again');
	const errors: string[] = [];
	/* A link cut inside its trace still opens its view and mode (lecture mode shows the message too). */
	if (trace === undefined) {
		const kept = fromJson({ ...state, trace: { preset: DEFAULT_PRESET } }, errors, at, LINK_JSON_LIMIT);
		errors.push(`${at}its trace is truncated or damaged (it does not decompress); the default trace is shown instead: copy the whole link again`);
		return { state: { ...kept, step: 0 }, errors };
	}
	return { state: fromJson({ ...state, trace }, errors, at, LINK_JSON_LIMIT), errors };
}

/**
 * The state a link holds: its fragment (#v1....) or, for old links, its
 * query string (?policy=...).  Never throws.
 */
export function decodeState(location: string): Decoded {
	if (location.startsWith('#') && location.length > 1) return decodeFragment(location);
	return decodeQuery(location.startsWith('#') ? '' : location);
}
