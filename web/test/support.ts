/*
 * support.ts - what the tests share: the WebAssembly module loaded under
 * Node from web/src/wasm/generated (built by wasm-core/wasm.mk) and a client
 * over it that runs the worker's host in this thread.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import createModule from '../src/wasm/generated/pagelab.mjs';
import { Engine } from '../src/wasm/engine';
import { connectInProcess, type Client } from '../src/wasm/client';
import type { PagelabModule } from '../src/wasm/module';

const wasmPath = fileURLToPath(new URL('../src/wasm/generated/pagelab.wasm', import.meta.url));

export async function loadEngine(): Promise<Engine> {
	const module = await createModule({ wasmBinary: readFileSync(wasmPath) });
	return new Engine(module as PagelabModule);
}

export function inProcessClient(): Client {
	return connectInProcess(loadEngine());
}
