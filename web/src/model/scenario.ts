/*
 * scenario.ts - what the lecturer asks pagelab to show: a policy with its
 * parameters, a number of frames and a trace, plus the presets.
 *
 * A Scenario is plain data.  Its trace is a typed reference string, a
 * generator spec or an uploaded file; toTraceSource() turns it into what the
 * client simulates.  validateScenario() catches what the form can catch
 * before the core sees it, in the CLI's words (inputCheck.ts); the core
 * catches the rest (bad tokens, a trace with no references) with messages
 * naming the input and line.
 *
 * Invariants
 *   - frames is a whole number from 1 to MAX_FRAMES.
 *   - params only holds names the policy has; a missing name takes the
 *     policy's default (the core applies defaults).
 */
import {
	PagelabError,
	pageAt,
	type GeneratorSpec,
	type ParamValues,
	type PolicyInfo,
	type TraceInfo,
	type TraceSource,
} from '../wasm/protocol';
import { checkFrames, checkParam } from './inputCheck';

export { MAX_FRAMES } from './inputCheck';

export type TraceSpec =
	| { kind: 'refs'; text: string }
	| { kind: 'generator'; spec: GeneratorSpec }
	| { kind: 'file'; name: string; bytes: Uint8Array };

export interface Scenario {
	policy: string;
	frames: number;
	params: ParamValues;
	trace: TraceSpec;
}

export interface Preset {
	id: string;
	/** What the preset is, without giving away what happens. */
	title: string;
	/** What happens (a fault count, an anomaly): left out of the title while answers are hidden. */
	answer?: string;
	scenario: Scenario;
}

/** The preset's title, with its answer unless answers are hidden. */
export function presetTitle(preset: Preset, hideAnswers: boolean): string {
	return preset.answer && !hideAnswers ? `${preset.title} (${preset.answer})` : preset.title;
}

const SILBERSCHATZ = '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1';

/*
 * Seed 000's Figure 2 (from Jaleel et al.): a1 a2 a2 a1 b1 b2 b3 b4 a1 a2,
 * with a1 = 1, a2 = 2 and b1..b4 = 11..14, on 2-bit SRRIP-HP with 4 frames.
 */
const SEED000_FIGURE2 = '1 2 2 1 11 12 13 14 1 2';

export const PRESETS: readonly Preset[] = [
	{
		id: 'silberschatz-fifo',
		title: 'Silberschatz string, FIFO, 3 frames',
		answer: '15 faults',
		scenario: { policy: 'fifo', frames: 3, params: {}, trace: { kind: 'refs', text: SILBERSCHATZ } },
	},
	{
		id: 'silberschatz-lru',
		title: 'Silberschatz string, LRU, 3 frames',
		answer: '12 faults',
		scenario: { policy: 'lru', frames: 3, params: {}, trace: { kind: 'refs', text: SILBERSCHATZ } },
	},
	{
		id: 'silberschatz-opt',
		title: 'Silberschatz string, OPT, 3 frames',
		answer: '9 faults',
		scenario: { policy: 'opt', frames: 3, params: {}, trace: { kind: 'refs', text: SILBERSCHATZ } },
	},
	{
		id: 'silberschatz-clock',
		title: 'Silberschatz string, CLOCK, 3 frames',
		scenario: { policy: 'clock', frames: 3, params: {}, trace: { kind: 'refs', text: SILBERSCHATZ } },
	},
	{
		id: 'belady-3',
		title: "Belady's string 1 2 3 4 1 2 5 1 2 3 4 5, FIFO, 3 frames",
		answer: "9 faults: Belady's anomaly, 4 frames give 10",
		scenario: { policy: 'fifo', frames: 3, params: {}, trace: { kind: 'refs', text: '1 2 3 4 1 2 5 1 2 3 4 5' } },
	},
	{
		id: 'belady-4',
		title: "Belady's string 1 2 3 4 1 2 5 1 2 3 4 5, FIFO, 4 frames",
		answer: "10 faults: Belady's anomaly, 3 frames give 9",
		scenario: { policy: 'fifo', frames: 4, params: {}, trace: { kind: 'refs', text: '1 2 3 4 1 2 5 1 2 3 4 5' } },
	},
	{
		id: 'seed000-figure2',
		title: "Seed 000's Figure 2: 2-bit SRRIP-HP, 4 frames",
		scenario: {
			policy: 'srrip',
			frames: 4,
			params: { rrpv_bits: 2 },
			trace: { kind: 'refs', text: SEED000_FIGURE2 },
		},
	},
	{
		id: 'linux-promotion',
		title: 'Linux lists: pages referenced twice',
		answer: 'they are promoted to the active list',
		scenario: {
			policy: 'linux',
			frames: 6,
			params: { anon_percent: 0 },
			trace: { kind: 'refs', text: '1 2 3 1 1 4 2 2 5 6 7 8 1 3' },
		},
	},
	{
		id: 'loop-lru',
		title: 'LRU on a loop one page larger than memory',
		answer: 'every reference faults',
		scenario: {
			policy: 'lru',
			frames: 4,
			params: {},
			trace: { kind: 'generator', spec: { kind: 'loop', length: 30, pages: 5 } },
		},
	},
	{
		id: 'zipf-big',
		title: 'Zipf workload, 1 000 000 references (statistics only)',
		scenario: {
			policy: 'clock',
			frames: 64,
			params: {},
			trace: { kind: 'generator', spec: { kind: 'zipf', length: 1_000_000, pages: 2000, exponent: 0.9, seed: 7 } },
		},
	},
];

export const DEFAULT_SCENARIO: Scenario = PRESETS[0].scenario;

export function presetById(id: string): Preset | undefined {
	return PRESETS.find((p) => p.id === id);
}

/** A trace as the reference string that reads back to it: exact page numbers, 'w' on writes. */
export function referenceText({ pages, writes }: Pick<TraceInfo, 'pages' | 'writes'>): string {
	return Array.from(pages.ids, (_, i) => `${pageAt(pages, i)}${writes[i] ? 'w' : ''}`).join(' ');
}

export function toTraceSource(trace: TraceSpec): TraceSource {
	switch (trace.kind) {
		case 'refs':
			return { kind: 'text', text: trace.text, name: 'reference string' };
		case 'generator':
			return { kind: 'generator', spec: trace.spec };
		case 'file':
			return { kind: 'file', name: trace.name, bytes: trace.bytes };
	}
}

/** Throws a PagelabError naming the first field that is wrong. */
export function validateScenario(scenario: Scenario, policies: PolicyInfo[]): PolicyInfo {
	const policy = policies.find((p) => p.name === scenario.policy);
	if (!policy)
		throw new PagelabError(`no policy named '${scenario.policy}' (known: ${policies.map((p) => p.name).join(', ')})`);
	checkFrames(scenario.frames);
	for (const [name, value] of Object.entries(scenario.params))
		checkParam(policy, name, value);
	return policy;
}

/** The parameter values a scenario runs with: the given ones over the defaults. */
export function effectiveParams(scenario: Scenario, policy: PolicyInfo): ParamValues {
	return Object.fromEntries(policy.params.map((p) => [p.name, scenario.params[p.name] ?? p.def]));
}

/** Keeps only the parameters the newly chosen policy has (switching policy in the form). */
export function withPolicy(scenario: Scenario, policy: PolicyInfo): Scenario {
	const params = Object.fromEntries(
		Object.entries(scenario.params).filter(([name]) => policy.params.some((p) => p.name === name)),
	);
	return { ...scenario, policy: policy.name, params };
}
