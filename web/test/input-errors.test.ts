/*
 * Bad input gets the same sentence in the page as in the CLI: frames,
 * parameter values, unknown parameters and policies, and traces with no
 * references (empty, blank, separators only, an empty file).  Each case runs
 * the native CLI (wasm-core/build/pagelab) and the page's check on the same
 * input; the page's sentence is the CLI's with the option name ("--frames",
 * "--param x=v", "--refs") left out.  The page's one other difference, its
 * upper bound on frames, is checked on its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessClient } from './support';
import { MAX_FRAMES, parseFrames, parseParam } from '../src/model/inputCheck';
import { validateScenario } from '../src/model/scenario';
import type { PolicyInfo } from '../src/wasm/protocol';

const CLI = fileURLToPath(new URL('../../wasm-core/build/pagelab', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'pagelab-input-'));
const client = inProcessClient();
let policies: PolicyInfo[] = [];
beforeAll(async () => {
	policies = await client.listPolicies();
});
afterAll(() => client.dispose());

/** The CLI's error line, without "pagelab: " and the help hint. */
function cliError(args: string[]): string {
	const run = spawnSync(CLI, ['run', ...args], { encoding: 'utf8' });
	expect(run.status, `pagelab run ${args.join(' ')} should fail`).not.toBe(0);
	return run.stderr.split('\n')[0].replace(/^pagelab: /, '');
}

function pageError(check: () => unknown): string {
	try {
		check();
	} catch (e) {
		return (e as Error).message;
	}
	throw new Error('the page accepted it');
}

const policy = (name: string) => policies.find((p) => p.name === name)!;

describe('frames', () => {
	for (const text of ['0', '-3', '2.5', 'abc', '', ' 3', '+3', '1e3', '0x10'])
		it(`'${text}' is refused in the CLI's words`, () => {
			expect(`--${pageError(() => parseFrames(text))}`).toBe(
				cliError(['--policy', 'lru', '--frames', text, '--refs', '1 2']).replace(/\(1 \.\. \d+\)/, `(1 .. ${MAX_FRAMES})`),
			);
		});

	it(`are whole numbers from 1 to ${MAX_FRAMES} in the page (the CLI goes to 2^32 - 2)`, () => {
		expect(parseFrames('1')).toBe(1);
		expect(parseFrames(String(MAX_FRAMES))).toBe(MAX_FRAMES);
		expect(pageError(() => parseFrames(String(MAX_FRAMES + 1)))).toBe(`frames: '${MAX_FRAMES + 1}' is not a number of frames (1 .. ${MAX_FRAMES})`);
		expect(cliError(['--policy', 'lru', '--frames', '4294967295', '--refs', '1'])).toContain('(1 .. 4294967294)');
	});
});

describe('parameters', () => {
	const cases: Array<[string, string, string]> = [
		['srrip', 'rrpv_bits', '9'],
		['srrip', 'rrpv_bits', '0'],
		['srrip', 'rrpv_bits', '2.5'],
		['srrip', 'rrpv_bits', 'two'],
		['srrip', 'rrpv_bits', ''],
		['clock', 'ref_on_load', 'maybe'],
		['clock', 'ref_on_load', '7'],
		['srrip', 'bits', '2'],
		['lru', 'k', '2'],
	];
	for (const [name, param, value] of cases)
		it(`${name} ${param}='${value}' is refused in the CLI's words`, () => {
			const cli = cliError(['--policy', name, '--frames', '3', '--param', `${param}=${value}`, '--refs', '1 2']);
			expect(cli.startsWith(`--param ${param}=${value}: `)).toBe(true);
			expect(pageError(() => parseParam(policy(name), param, value))).toBe(cli.slice(`--param ${param}=${value}: `.length));
		});

	it('take what the CLI takes: integers in range, and a choice by name or index', () => {
		expect(parseParam(policy('srrip'), 'rrpv_bits', '3')).toBe(3);
		expect(parseParam(policy('clock'), 'ref_on_load', 'clear')).toBe(policy('clock').params[0].choices!.indexOf('clear'));
		expect(parseParam(policy('clock'), 'ref_on_load', '0')).toBe(0);
	});

	it('from a link or a saved scenario are checked with the same words', () => {
		const scenario = { policy: 'srrip', frames: 4, params: { rrpv_bits: 9 }, trace: { kind: 'refs' as const, text: '1 2' } };
		expect(pageError(() => validateScenario(scenario, policies))).toBe(pageError(() => parseParam(policy('srrip'), 'rrpv_bits', '9')));
		expect(pageError(() => validateScenario({ ...scenario, params: {}, frames: 2.5 }, policies))).toBe(pageError(() => parseFrames('2.5')));
	});
});

describe('policies', () => {
	it('an unknown one is refused in the CLI\'s words', () => {
		const scenario = { policy: 'arcc', frames: 4, params: {}, trace: { kind: 'refs' as const, text: '1 2' } };
		expect(pageError(() => validateScenario(scenario, policies))).toBe(cliError(['--policy', 'arcc', '--frames', '3', '--refs', '1 2']));
	});
});

describe('traces with no references', () => {
	for (const [label, text] of [['empty', ''], ['blank', ' \n\t '], ['separators only', ',,,'], ['commas and newlines', ',\n, ,\n']])
		it(`a ${label} reference string is refused as the CLI refuses --refs`, async () => {
			await expect(client.loadTrace({ kind: 'text', text, name: 'reference string' })).rejects.toThrow('reference string: no references');
			expect(cliError(['--policy', 'lru', '--frames', '3', '--refs', text])).toBe('--refs: no references');
		});

	for (const [label, text] of [['empty', ''], ['separator-only', ',,,\n']])
		it(`an ${label} file is refused, named, as the CLI refuses it`, async () => {
			const path = join(scratch, `${label}.trace`);
			writeFileSync(path, text);
			const bytes = new TextEncoder().encode(text);
			await expect(client.loadTrace({ kind: 'file', name: path, bytes })).rejects.toThrow(`${path}: no references`);
			expect(cliError(['--policy', 'lru', '--frames', '3', '--trace', path])).toBe(`${path}: no references`);
		});

	it('a simulation of one is refused too, with nothing left open in the worker', async () => {
		const request = { policy: 'lru', frames: 3, trace: { kind: 'text' as const, text: ',,,', name: 'reference string' } };
		for (let i = 0; i < 80; i++) await expect(client.simulate(request)).rejects.toThrow('reference string: no references');
		await expect(client.loadTrace({ kind: 'text', text: '1 2', name: 'reference string' })).resolves.toMatchObject({ references: 2 });
	});
});
