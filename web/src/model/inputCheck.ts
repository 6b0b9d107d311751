/*
 * inputCheck.ts - the page checks frames, parameters and traces as the CLI
 * does, with the CLI's sentences, so a student who meets an error in one
 * meets the same words in the other.
 *
 *   CLI (wasm-core/src/cli/args.c, src/params.c)      page
 *   --frames: '2.5' is not a number of frames (1 .. N)  frames: '2.5' is not a number of frames (1 .. 4096)
 *   --param x=9: srrip: '9' is not a valid value for rrpv_bits: expected an integer from 1 to 8
 *                                                      srrip: '9' is not a valid value for rrpv_bits: expected an integer from 1 to 8
 *   --param bits=2: policy srrip has no parameter 'bits' (it has: rrpv_bits)
 *                                                      policy srrip has no parameter 'bits' (it has: rrpv_bits)
 *   t.txt: no references                               t.txt: no references (the worker, wasm/host.ts)
 *
 * Syntax is the CLI's: frames are decimal digits only (no sign, point,
 * exponent or spaces); an integer parameter is an optional '-' and decimal
 * digits; a parameter with choices takes a choice's name or its index.
 * The one difference is the upper bound of frames: the CLI takes up to
 * 2^32 - 2, the page MAX_FRAMES (what the step view can draw and the worker
 * can hold for a lecture); the message states the page's bound.
 */
import { PagelabError, type ParamInfo, type PolicyInfo } from '../wasm/protocol';

export const MAX_FRAMES = 4096;

const DIGITS = /^[0-9]+$/;
const INTEGER = /^-?[0-9]+$/;

/** Frames from what was typed; throws the CLI's sentence for anything else. */
export function parseFrames(text: string): number {
	const value = DIGITS.test(text) ? Number(text) : NaN;
	if (!(value >= 1 && value <= MAX_FRAMES))
		throw new PagelabError(`frames: '${text}' is not a number of frames (1 .. ${MAX_FRAMES})`);
	return value;
}

/** What the CLI says when `value` is not one of the parameter's values. */
export function badParamValue(policy: string, param: ParamInfo, value: string): string {
	const expected = param.choices
		? `expected one of ${param.choices.join(', ')}`
		: `expected an integer from ${param.min} to ${param.max}`;
	return `${policy}: '${value}' is not a valid value for ${param.name}: ${expected}`;
}

/** What the CLI says about a parameter the policy does not have. */
export function unknownParam(policy: PolicyInfo, name: string): string {
	return policy.params.length
		? `policy ${policy.name} has no parameter '${name}' (it has: ${policy.params.map((p) => p.name).join(', ')})`
		: `policy ${policy.name} has no parameters (got '${name}')`;
}

/** A parameter's value from what was typed or chosen (a choice by name or index). */
export function parseParam(policy: PolicyInfo, name: string, text: string): number {
	const param = policy.params.find((p) => p.name === name);
	if (!param)
		throw new PagelabError(unknownParam(policy, name));
	const choice = param.choices?.indexOf(text) ?? -1;
	const value = choice >= 0 ? choice : INTEGER.test(text) ? Number(text) : NaN;
	if (!(Number.isSafeInteger(value) && value >= param.min && value <= param.max))
		throw new PagelabError(badParamValue(policy.name, param, text));
	return value;
}

/** A checked value already a number (a link, a saved scenario): the same rules, the same words. */
export function checkParam(policy: PolicyInfo, name: string, value: number): void {
	parseParam(policy, name, String(value));
}

export function checkFrames(frames: number): void {
	parseFrames(String(frames));
}

