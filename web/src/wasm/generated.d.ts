/*
 * generated.d.ts - the files wasm-core/wasm.mk writes into generated/
 * (git-ignored; built by npm start, npm test and npm run build).  The
 * factory's real result type is PagelabModule (module.ts).
 */
declare module '*/generated/pagelab.mjs' {
	const createModule: (options: {
		wasmBinary?: Uint8Array;
		locateFile?: (path: string) => string;
	}) => Promise<unknown>;
	export default createModule;
}
