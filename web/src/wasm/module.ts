/*
 * module.ts - the shape of the Emscripten module built from wasm-core/src/wasm/abi.c.
 *
 * wasm-core/wasm.mk writes generated/pagelab.mjs (an ES module factory) and
 * generated/pagelab.wasm.  Each `_pl_abi_*` below is one exported C function
 * of abi.c, with pointers as numbers; the HEAP views are replaced when memory
 * grows, so callers read `module.HEAPU8` afresh after every call that may
 * allocate instead of keeping a view.
 */

export interface PagelabModule {
	HEAP8: Int8Array;
	HEAPU8: Uint8Array;
	HEAP32: Int32Array;
	HEAPU32: Uint32Array;
	UTF8ToString(ptr: number): string;
	stringToUTF8(text: string, ptr: number, maxBytes: number): number;
	lengthBytesUTF8(text: string): number;
	_malloc(bytes: number): number;
	_free(ptr: number): void;

	_pl_abi_error(): number;
	_pl_abi_policy_count(): number;
	_pl_abi_policy_name(i: number): number;
	_pl_abi_policy_title(i: number): number;
	_pl_abi_policy_help(i: number): number;
	_pl_abi_policy_nparams(i: number): number;
	_pl_abi_param_name(i: number, p: number): number;
	_pl_abi_param_help(i: number, p: number): number;
	_pl_abi_param_bound(i: number, p: number, which: number): number;
	_pl_abi_param_choice(i: number, p: number, c: number): number;
	_pl_abi_policy_nlists(i: number): number;
	_pl_abi_list_name(i: number, l: number): number;
	_pl_abi_list_is_ghost(i: number, l: number): number;
	_pl_abi_policy_nfields(i: number): number;
	_pl_abi_field_name(i: number, f: number): number;
	_pl_abi_policy_nhands(i: number): number;
	_pl_abi_hand_name(i: number, h: number): number;
	_pl_abi_hand_list(i: number, h: number): number;
	_pl_abi_policy_ncounters(i: number): number;
	_pl_abi_policy_nvariables(i: number): number;
	_pl_abi_variable_name(i: number, v: number): number;
	_pl_abi_counter_name(i: number, c: number): number;

	_pl_abi_trace_new(): number;
	_pl_abi_trace_free(t: number): void;
	_pl_abi_trace_parse_refs(t: number, text: number, source: number): number;
	_pl_abi_trace_read_buffer(t: number, buf: number, len: number, name: number): number;
	_pl_abi_trace_add_pages(t: number, pages: number, writes: number, n: number): number;
	_pl_abi_trace_prefix(t: number, n: number): number;
	_pl_abi_trace_length(t: number): number;
	_pl_abi_trace_npages(t: number): number;
	_pl_abi_trace_pages(t: number): number;
	_pl_abi_trace_flags(t: number): number;
	_pl_abi_trace_numbers(t: number): number;

	_pl_abi_sim_create(
		policy: number,
		frames: number,
		trace: number,
		params: number,
		record: number,
		checkpointEvery: number,
	): number;
	_pl_abi_sim_free(s: number): void;
	_pl_abi_sim_run(s: number, steps: number, outcome: number): number;
	_pl_abi_sim_position(s: number): number;
	_pl_abi_sim_error(s: number): number;
	_pl_abi_sim_stat(s: number, which: number): number;
	_pl_abi_sim_counter(s: number, c: number): number;
	_pl_abi_sim_seek(s: number, step: number): number;
	_pl_abi_sim_counters_at(s: number, step: number): number;
	_pl_abi_sim_events(s: number, from: number, to: number): number;
	_pl_abi_sim_event_bound(s: number, step: number, which: number): number;

	_pl_abi_mrc_method(policy: number): number;
	_pl_abi_mrc(t: number, policy: number, params: number, frames: number, n: number): number;
	_pl_abi_lifetime(t: number, taus: number, ntaus: number, frames: number, nframes: number): number;
	_pl_abi_wss(t: number, tau: number, points: number): number;
	HEAPF64: Float64Array;
}
