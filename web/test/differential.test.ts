/*
 * The WebAssembly module under Node equals the native CLI
 * (wasm-core/build/pagelab, built by `make -C wasm-core`) on the same
 * traces: for every policy the CLI lists, the same reflection, the same
 * statistics and counters (`run --json`), and the same event stream, event
 * by event (`run --events`), over several traces, frame counts and every
 * named choice of every parameter.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessClient } from './support';
import type { PolicyEvent, PolicyInfo } from '../src/wasm/protocol';

const CLI = fileURLToPath(new URL('../../wasm-core/build/pagelab', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'pagelab-diff-'));
const client = inProcessClient();
afterAll(() => client.dispose());

function cli(args: string[]): string {
	return execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
}

/** A reproducible reference string with writes (xorshift, not Math.random). */
function randomRefs(length: number, pages: number, seed: number): string {
	let x = seed;
	const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 2 ** 32);
	return Array.from({ length }, () => `${Math.floor(next() * pages)}${next() < 0.2 ? 'w' : ''}`).join(' ');
}

const TRACES: Record<string, string> = {
	silberschatz: '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1',
	belady: '1 2 3 4 1 2 5 1 2 3 4 5',
	figure2: '1 2 2 1 11 12 13 14 1 2',
	loop: Array.from({ length: 60 }, (_, i) => i % 7).join(' '),
	random: randomRefs(600, 24, 12345),
	hex: '0x10 0x20w 0x10 0xfff 0x20 0x10 0x30 0xfff',
};
const FRAMES = [1, 3, 4, 9];

interface CliPolicy {
	name: string;
	title: string;
	help: string;
	params: Array<{ name: string; help: string; default: number; min: number; max: number; choices?: string[] }>;
	lists: string[];
	fields: string[];
	hands: string[];
	counters: string[];
	variables: string[];
}

const cliPolicies: CliPolicy[] = JSON.parse(cli(['list', '--json']));

/** The CLI's --events line for one event of the module. */
function asCliEvent(policy: PolicyInfo, e: PolicyEvent): Record<string, unknown> {
	const list = (l: number) => policy.lists[l].name;
	const head = { step: e.step, kind: e.kind };
	switch (e.kind) {
		case 'hit':
		case 'miss':
		case 'victim':
			return { ...head, page: e.page };
		case 'evict':
			return { ...head, page: e.page, list: list(e.arg), writeback: e.a === 1 };
		case 'insert':
			return { ...head, page: e.page, list: list(e.arg), pos: e.b };
		case 'move':
			return { ...head, page: e.page, from: list(e.a), to: list(e.arg), pos: e.b };
		case 'remove':
			return { ...head, page: e.page, list: list(e.arg) };
		case 'set':
			return { ...head, page: e.page, field: policy.fields[e.arg], from: e.a, to: e.b };
		case 'hand':
			return { ...head, hand: policy.hands[e.arg].name, from: e.a, to: e.b };
		case 'variable':
			return { ...head, variable: policy.variables[e.arg], from: e.a, to: e.b };
	}
}

/** Default parameters, then each named choice of each parameter. */
function parameterSettings(policy: CliPolicy): Array<Record<string, number>> {
	const settings: Array<Record<string, number>> = [{}];
	for (const param of policy.params) param.choices?.forEach((_, i) => settings.push({ [param.name]: i }));
	return settings;
}

describe('the WebAssembly module and the native CLI', () => {
	it('list the same policies with the same parameters, lists, fields, hands, counters and variables', async () => {
		const policies = await client.listPolicies();
		expect(policies.map((p) => p.name)).toEqual(cliPolicies.map((p) => p.name));
		for (const [i, p] of policies.entries()) {
			const c = cliPolicies[i];
			expect({ title: p.title, help: p.help, lists: p.lists.map((l) => l.name), fields: p.fields, hands: p.hands.map((h) => h.name), counters: p.counters, variables: p.variables }).toEqual({
				title: c.title,
				help: c.help,
				lists: c.lists,
				fields: c.fields,
				hands: c.hands,
				counters: c.counters,
				variables: c.variables,
			});
			expect(p.params.map((q) => [q.name, q.def, q.min, q.max, q.choices])).toEqual(
				c.params.map((q) => [q.name, q.default, q.min, q.max, q.choices ?? null]),
			);
		}
	});

	// The engine decodes the core's encoded event log a few thousand steps
	// at a time: a long run, and a window of it, cross those chunks.
	for (const name of ['lru', 'clock', 'linux']) {
		it(`agree on every event of ${name} over 10000 references, whole and in a window`, async () => {
			const refs = randomRefs(10000, 300, 777);
			const file = join(scratch, 'long.trace');
			writeFileSync(file, refs.split(' ').join('\n'));
			const lines = cli(['run', '--policy', name, '--frames', '64', '--trace', file, '--events']).trim().split('\n').map((l) => JSON.parse(l));
			lines.pop();
			const result = await client.simulate({ policy: name, frames: 64, params: {}, trace: { kind: 'text', text: refs }, record: true });
			const session = result.session!;
			const whole = (await session.events(0, session.steps)).map((e) => asCliEvent(session.policy, e));
			const window = (await session.events(3000, 9500)).map((e) => asCliEvent(session.policy, e));
			await session.dispose();
			expect(whole).toEqual(lines);
			expect(window).toEqual(lines.filter((e) => e.step >= 3000 && e.step < 9500));
		});
	}

	for (const policy of cliPolicies) {
		it(`agree on ${policy.name}: statistics, counters and every event, on every trace and frame count`, async () => {
			let compared = 0;
			for (const [traceName, refs] of Object.entries(TRACES)) {
				const file = join(scratch, `${traceName}.trace`);
				writeFileSync(file, refs.split(' ').join('\n'));
				for (const frames of FRAMES) {
					for (const params of parameterSettings(policy)) {
						const paramArgs = Object.entries(params).flatMap(([k, v]) => ['--param', `${k}=${v}`]);
						const args = ['run', '--policy', policy.name, '--frames', String(frames), '--trace', file, ...paramArgs];
						const lines = cli([...args, '--events']).trim().split('\n').map((l) => JSON.parse(l));
						const summary = lines.pop();
						const result = await client.simulate({
							policy: policy.name,
							frames,
							params,
							trace: { kind: 'text', text: refs },
							record: true,
						});
						const where = `${policy.name} on ${traceName} with ${frames} frames ${JSON.stringify(params)}`;
						const { stats, counters } = result;
						expect({ ...stats, counters }, where).toEqual({
							references: summary.references,
							hits: summary.hits,
							misses: summary.misses,
							evictions: summary.evictions,
							writebacks: summary.writebacks,
							counters: summary.counters,
						});
						expect(Array.from(result.outcome).filter((o) => o === 1).length, where).toBe(summary.hits);
						const session = result.session!;
						const events = await session.events(0, session.steps);
						await session.dispose();
						expect(events.map((e) => asCliEvent(session.policy, e)), where).toEqual(lines);
						compared++;
					}
				}
			}
			expect(compared).toBeGreaterThanOrEqual(Object.keys(TRACES).length * FRAMES.length);
		});
	}
});
