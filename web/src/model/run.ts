/*
 * run.ts - turns an applied scenario into what the step view shows: one
 * simulation in the worker (statistics over the whole trace), a recorded
 * session over the part the step view can show, its events, and the
 * Timeline built from them.
 *
 * Invariants
 *   - Only the first STEP_VIEW_LIMIT references are recorded: events cost
 *     memory per reference, and nobody steps through more by hand.  The
 *     statistics in `result` still cover the whole trace.
 *   - A failed load disposes whatever it created and rejects with the
 *     core's message; the caller keeps the previous run.
 */
import { firstPages, type CallOptions, type PagelabClient, type PolicyInfo, type Session, type SimulateResult } from '../wasm/protocol';
import { effectiveParams, toTraceSource, validateScenario, type Scenario } from './scenario';
import { Timeline } from './timeline';

export const STEP_VIEW_LIMIT = 50_000;

export interface Run {
	scenario: Scenario;
	policy: PolicyInfo;
	result: SimulateResult;
	session: Session;
	timeline: Timeline;
	/** Largest value each field can take, for meters (fieldMaxima). */
	fieldMax: number[];
}

/**
 * The largest value of each field: the highest any event set, raised to
 * 2^bits - 1 when the policy has a "<field>_bits" width parameter (aging's
 * counter: its width is the plain "bits"), so a counter is drawn as wide
 * as it is from the first step, in bits (PageChip's fieldText).
 */
export function fieldMaxima(timeline: Timeline, policy: PolicyInfo, params: Record<string, number>): number[] {
	return policy.fields.map((name, f) => {
		const bits = params[`${name}_bits`] ?? (name === 'counter' ? params.bits : undefined);
		return Math.max(timeline.highestSet(f), bits ? 2 ** bits - 1 : 0, 1);
	});
}

export async function loadRun(
	client: PagelabClient,
	scenario: Scenario,
	policies: PolicyInfo[],
	options: CallOptions = {},
): Promise<Run> {
	const policy = validateScenario(scenario, policies);
	const result = await client.simulate(
		{
			policy: scenario.policy,
			frames: scenario.frames,
			params: scenario.params,
			trace: toTraceSource(scenario.trace),
			record: true,
			recordSteps: STEP_VIEW_LIMIT,
		},
		options,
	);
	const session = result.session!;
	try {
		const steps = session.steps;
		const events = await session.eventArrays(0, steps);
		const timeline = await Timeline.build(policy, scenario.frames, firstPages(result.trace.pages, steps), result.outcome.subarray(0, steps), events);
		options.signal?.throwIfAborted();
		return { scenario, policy, result, session, timeline, fieldMax: fieldMaxima(timeline, policy, effectiveParams(scenario, policy)) };
	} catch (error) {
		await session.dispose();
		throw error;
	}
}
