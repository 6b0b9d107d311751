/*
 * compareEntries.ts - what the compare view compares: entries, each a policy
 * at a number of frames with every one of its parameters, so one policy can
 * be compared with itself at two frame counts or with two parameter sets,
 * and no policy runs with a default nobody saw.  Pure TypeScript.
 *
 * Interface
 *   CompareEntry                      { policy, frames, params (all of them) }
 *   defaultEntry(policy, scenario)    the scenario's frames; the scenario's params
 *                                     for its own policy, else the policy's defaults
 *   entryText(entry, scenario)        how a link saves it: "lru", "lru@8",
 *                                     "srrip@4;rrpv_bits=3" (frames when not the
 *                                     scenario's, parameters when not the defaults)
 *   parseEntry(text, policies, sc.)   the reverse; an Error naming what is wrong
 *   restoreEntries(saved, ...)        a saved list, checked, padded with companions
 *   entryLabels(entries)              short names that tell entries apart
 *                                     ("LRU", "LRU 8 frames", "SRRIP rrpv_bits=3")
 *
 * Invariants
 *   - entry.params holds every parameter of the policy (effective values).
 *   - parseEntry(entryText(e, s), policies, s) equals e.
 *   - Values are checked with the CLI's rules and words (inputCheck.ts).
 */
import { PagelabError, type ParamValues, type PolicyInfo } from '../wasm/protocol';
import type { ComparedScenario } from './compare';
import { parseFrames, parseParam } from './inputCheck';

export interface CompareEntry {
	policy: string;
	frames: number;
	params: ParamValues;
}

function infoOf(policy: string, policies: PolicyInfo[]): PolicyInfo {
	const info = policies.find((p) => p.name === policy);
	if (!info)
		throw new PagelabError(`no policy named '${policy}' (known: ${policies.map((p) => p.name).join(', ')})`);
	return info;
}

export function defaultEntry(info: PolicyInfo, scenario: ComparedScenario): CompareEntry {
	const given = info.name === scenario.policy ? scenario.params ?? {} : {};
	return {
		policy: info.name,
		frames: scenario.frames,
		params: Object.fromEntries(info.params.map((p) => [p.name, given[p.name] ?? p.def])),
	};
}

export function entryText(entry: CompareEntry, info: PolicyInfo, scenario: ComparedScenario): string {
	const frames = entry.frames === scenario.frames ? '' : `@${entry.frames}`;
	const params = info.params.filter((p) => entry.params[p.name] !== p.def).map((p) => `;${p.name}=${entry.params[p.name]}`);
	return `${entry.policy}${frames}${params.join('')}`;
}

/** An entry from a link's text; parameters not named take the policy's defaults (shown in the view). */
export function parseEntry(text: string, policies: PolicyInfo[], scenario: ComparedScenario): CompareEntry {
	const [head, ...settings] = text.split(';');
	const [policy, frames] = head.split('@');
	const info = infoOf(policy, policies);
	const entry: CompareEntry = {
		policy,
		frames: frames === undefined ? scenario.frames : parseFrames(frames),
		params: Object.fromEntries(info.params.map((p) => [p.name, p.def])),
	};
	for (const setting of settings) {
		const eq = setting.indexOf('=');
		if (eq <= 0)
			throw new PagelabError(`'${setting}' is not a parameter setting: expected name=value`);
		const name = setting.slice(0, eq);
		entry.params[name] = parseParam(info, name, setting.slice(eq + 1));
	}
	return entry;
}

/**
 * The saved entries that parse (the others are named in `errors`), then the
 * scenario's policy and the companions, up to `min`; never more than `max`.
 */
export function restoreEntries(
	saved: string[] | undefined,
	scenario: ComparedScenario,
	companions: string[],
	policies: PolicyInfo[],
	min: number,
	max: number,
	errors: string[],
): CompareEntry[] {
	const entries: CompareEntry[] = [];
	for (const text of saved ?? []) {
		try {
			if (entries.length < max) entries.push(parseEntry(text, policies, scenario));
		} catch (e) {
			errors.push(`compare: ${text}: ${(e as Error).message}`);
		}
	}
	for (const name of [scenario.policy, ...companions, ...policies.map((p) => p.name)]) {
		if (entries.length >= min) break;
		const info = policies.find((p) => p.name === name);
		if (info && !entries.some((e) => e.policy === name)) entries.push(defaultEntry(info, scenario));
	}
	return entries;
}

/** Labels that tell the entries apart: the policy, then frames or parameters where they differ. */
export function entryLabels(entries: CompareEntry[]): string[] {
	const framesDiffer = new Set(entries.map((e) => e.frames)).size > 1;
	return entries.map((entry) => {
		const twins = entries.filter((e) => e.policy === entry.policy);
		const differing = Object.keys(entry.params).filter((name) => twins.some((t) => t.params[name] !== entry.params[name]));
		return [
			entry.policy.toUpperCase(),
			...(framesDiffer ? [`${entry.frames} frame${entry.frames === 1 ? '' : 's'}`] : []),
			...differing.map((name) => `${name}=${entry.params[name]}`),
		].join(' ');
	});
}
