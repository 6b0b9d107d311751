/*
 * worker.ts - the Web Worker that owns the WebAssembly module.
 *
 * It loads the module once and hands every message to a Host (host.ts);
 * all protocol logic lives there so that the tests can run it without a
 * worker.  The page talks to it only through client.ts.
 */
/// <reference lib="webworker" />
import createModule from './generated/pagelab.mjs';
import wasmUrl from './generated/pagelab.wasm?url';
import { Engine } from './engine';
import type { PagelabModule } from './module';
import { Host, type Reply, type Request } from './host';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const engine = createModule({ locateFile: () => wasmUrl }).then(
	(module) => new Engine(module as PagelabModule),
);
const host = new Host(engine, (reply: Reply, transfer?: Transferable[]) =>
	scope.postMessage(reply, transfer ?? []),
);

scope.onmessage = (event: MessageEvent<Request>) => void host.handle(event.data);
