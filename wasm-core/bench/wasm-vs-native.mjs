#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0
/*
 * wasm-vs-native.mjs - the core's speed as WebAssembly in Node over its
 * speed natively, per policy: part of `npm run bench`.
 *
 *   node bench/wasm-vs-native.mjs [POLICY,...]     (from wasm-core/)
 *
 * Runs the benchmark's --rates mode of the native build (build/bench,
 * make bench) and of the same bench.c linked with the library objects the
 * web page is built from (build/wasm/bench.js, make -f wasm.mk bench),
 * alternately, ROUNDS times each, and keeps each policy's best rate of
 * each build: on a shared machine a run is only ever slowed by the
 * others, and alternating gives both builds the same spells of load (one
 * run of each, a minute or so apart, measured the load's drift as much
 * as the builds).  Then prints each policy's rates on the zipf and
 * uniform traces of the benchmark and wasm/native for each (goal: at
 * least 0.8 on both).  Both time CPU, not wall, and each prints its own
 * "x min" against the minimal LRU built the same way (from the run of
 * the best rate on that trace); the load average before each run is
 * printed.
 * A benchmark: prints figures, fails only if a run fails.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const GOAL = 0.8;
const ROUNDS = 2;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const only = process.argv.slice(2);

/** The "rate NAME ZIPF UNIFORM ZIPF_X_MIN UNIFORM_X_MIN" lines of one run, by policy. */
function rates(command, args) {
	const out = execFileSync(command, [...args, '--rates', ...only], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
		maxBuffer: 1 << 20,
	});
	const byPolicy = new Map();
	for (const line of out.split('\n')) {
		const [tag, name, zipf, uniform, zipfMin, uniformMin] = line.split(' ');
		if (tag === 'rate') byPolicy.set(name, { zipf: +zipf, uniform: +uniform, zipfMin: +zipfMin, uniformMin: +uniformMin });
	}
	return byPolicy;
}

const load = () => loadavg()[0].toFixed(2);
const mps = (r) => `${(r / 1e6).toFixed(2).padStart(6)} M/s`;
const ratio = (w, n) => (n > 0 ? w / n : 0);

/** Each policy's best rates over the runs (each x min from the run of that best rate). */
function best(into, run) {
	for (const [name, r] of run) {
		const b = into.get(name);
		if (!b) into.set(name, { ...r });
		else {
			if (r.zipf > b.zipf) Object.assign(b, { zipf: r.zipf, zipfMin: r.zipfMin });
			if (r.uniform > b.uniform) Object.assign(b, { uniform: r.uniform, uniformMin: r.uniformMin });
		}
	}
}

const native = new Map();
const wasm = new Map();
const loads = [];
for (let round = 0; round < ROUNDS; round++) {
	loads.push(load());
	best(native, rates(path.join(root, 'build/bench'), []));
	loads.push(load());
	best(wasm, rates(process.execPath, [path.join(root, 'build/wasm/bench.js')]));
}
loads.push(load());

console.log('WebAssembly (-O3 -msimd128, the policy units at inline threshold 2000, Node ' + process.versions.node + ')');
console.log(`over native (gcc -O2), same traces and policy table, CPU time, best of ${ROUNDS} alternate runs`);
console.log('of each; load average');
console.log(`${loads.join(' / ')} (before each run, native first, and at the end).`);
console.log('"x min": each build\'s rate over its own minimal LRU.');
console.log(
	'  ' +
		['policy'.padEnd(12), 'zipf: native'.padStart(14), 'wasm'.padStart(10), 'w/n'.padStart(5), 'x min n/w'.padStart(10),
			'uniform: native'.padStart(16), 'wasm'.padStart(10), 'w/n'.padStart(5), 'x min n/w'.padStart(10), `goal ${GOAL}`].join(' '),
);
for (const [name, n] of native) {
	const w = wasm.get(name);
	if (!w) {
		console.log(`  ${name.padEnd(12)} (no wasm figure)`);
		continue;
	}
	const z = ratio(w.zipf, n.zipf);
	const u = ratio(w.uniform, n.uniform);
	console.log(
		'  ' +
			[name.padEnd(12), mps(n.zipf).padStart(14), mps(w.zipf).padStart(10), z.toFixed(2).padStart(5),
				`${n.zipfMin.toFixed(2)}/${w.zipfMin.toFixed(2)}`.padStart(10), mps(n.uniform).padStart(16),
				mps(w.uniform).padStart(10), u.toFixed(2).padStart(5),
				`${n.uniformMin.toFixed(2)}/${w.uniformMin.toFixed(2)}`.padStart(10),
				Math.min(z, u) >= GOAL ? 'ok' : 'NO'].join(' '),
	);
}
