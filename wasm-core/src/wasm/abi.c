// SPDX-License-Identifier: GPL-2.0
/*
 * abi.c - the flat C ABI the WebAssembly module exports to JavaScript.
 *
 * JavaScript cannot hold C pointers to structures safely, so every object
 * lives here in a table and JS names it by a small integer handle: traces
 * (pl_abi_trace_*) and simulations (pl_abi_sim_*).  Everything crosses as
 * numbers, NUL-terminated strings or pointers into the module's memory that
 * JS reads as typed arrays (the event log is an Int32Array view of struct
 * pl_event, five words each).  64-bit values cross as doubles, exact below
 * 2^53, so the module needs no BigInt support.
 *
 * This file knows nothing about any policy: it only forwards pagelab.h and
 * analysis.h.
 *
 * Invariants
 *   - A handle is an index into its table, >= 0; -1 means failure, and then
 *     pl_abi_error() returns the core's one-line message naming the input.
 *   - A trace must outlive the simulations made from it: JS frees
 *     simulations first (the worker does).
 *   - Pointers returned to JS stay valid until the next call that may
 *     allocate; JS copies what it reads before calling again.
 */
#include <stdlib.h>
#include <string.h>
#include <emscripten/emscripten.h>

#include "pagelab.h"
#include "analysis.h"

#define ABI_MAX_TRACES 256	/* as many as simulations: each run of the page may hold one */
#define ABI_MAX_SIMS 256

struct abi_sim {
	struct pl_sim *sim;
	const struct pl_policy_ops *ops;
	struct pl_snapshot snapshot;	/* scratch for pl_abi_sim_seek() */
	/* The scratch holds step snapshot_step when snapshot_held (a seek from there forward is cheap). */
	bool snapshot_held;
	uint32_t snapshot_step;
	/*
	 * A recorded simulation keeps its policy's counters after every step
	 * it ran through pl_abi_sim_run (the core keeps only the latest):
	 * counter_trail[(k - 1) * ncounters + c] is counter c after step k.
	 */
	bool record;
	double *counter_trail;
	uint32_t trail_steps, trail_capacity;
};

static struct pl_trace *traces[ABI_MAX_TRACES];
static struct abi_sim *sims[ABI_MAX_SIMS];
static struct pl_error last_error;

static void fail(const char *msg)
{
	strncpy(last_error.msg, msg, sizeof(last_error.msg) - 1);
	last_error.msg[sizeof(last_error.msg) - 1] = '\0';
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_error(void)
{
	return last_error.msg;
}

/* ------------------------------------------------------------ reflection */

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_count(void)
{
	int n = 0;

	while (pl_policies[n])
		n++;
	return n;
}

static const struct pl_policy_ops *policy_at(int i)
{
	return i >= 0 && i < pl_abi_policy_count() ? pl_policies[i] : NULL;
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_policy_name(int i)
{
	return pl_policy_name(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_policy_title(int i)
{
	return pl_policy_title(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_policy_help(int i)
{
	return pl_policy_help(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_nparams(int i)
{
	return pl_policy_nparams(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_param_name(int i, int p)
{
	return pl_policy_param(policy_at(i), p)->name;
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_param_help(int i, int p)
{
	return pl_policy_param(policy_at(i), p)->help;
}

/* which: 0 default, 1 minimum, 2 maximum. */
EMSCRIPTEN_KEEPALIVE double pl_abi_param_bound(int i, int p, int which)
{
	const struct pl_param *param = pl_policy_param(policy_at(i), p);

	return which == 0 ? param->def : which == 1 ? param->min : param->max;
}

/* The c-th named choice, or NULL past the last (or for a plain integer). */
EMSCRIPTEN_KEEPALIVE const char *pl_abi_param_choice(int i, int p, int c)
{
	const struct pl_param *param = pl_policy_param(policy_at(i), p);
	int k;

	if (!param->choices)
		return NULL;
	for (k = 0; k < c && param->choices[k]; k++)
		;
	return param->choices[k];
}

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_nlists(int i)
{
	return pl_policy_nlists(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_list_name(int i, int l)
{
	return pl_policy_list_name(policy_at(i), l);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_list_is_ghost(int i, int l)
{
	return pl_policy_list_is_ghost(policy_at(i), l);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_nfields(int i)
{
	return pl_policy_nfields(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_field_name(int i, int f)
{
	return pl_policy_field_name(policy_at(i), f);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_nhands(int i)
{
	return pl_policy_nhands(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_hand_name(int i, int h)
{
	return pl_policy_hand_name(policy_at(i), h);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_hand_list(int i, int h)
{
	return pl_policy_hand_list(policy_at(i), h);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_nvariables(int i)
{
	return pl_policy_nvariables(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_variable_name(int i, int v)
{
	return pl_policy_variable_name(policy_at(i), v);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_policy_ncounters(int i)
{
	return pl_policy_ncounters(policy_at(i));
}

EMSCRIPTEN_KEEPALIVE const char *pl_abi_counter_name(int i, int c)
{
	return pl_policy_counter_name(policy_at(i), c);
}

/* ----------------------------------------------------------------- trace */

static struct pl_trace *trace_at(int t)
{
	return t >= 0 && t < ABI_MAX_TRACES ? traces[t] : NULL;
}

EMSCRIPTEN_KEEPALIVE int pl_abi_trace_new(void)
{
	int t;

	for (t = 0; t < ABI_MAX_TRACES && traces[t]; t++)
		;
	if (t == ABI_MAX_TRACES) {
		fail("too many traces open at once");
		return -1;
	}
	traces[t] = malloc(sizeof(*traces[t]));
	if (!traces[t]) {
		fail("out of memory for a trace");
		return -1;
	}
	pl_trace_init(traces[t]);
	return t;
}

EMSCRIPTEN_KEEPALIVE void pl_abi_trace_free(int t)
{
	struct pl_trace *trace = trace_at(t);

	if (!trace)
		return;
	pl_trace_free(trace);
	free(trace);
	traces[t] = NULL;
}

EMSCRIPTEN_KEEPALIVE int pl_abi_trace_parse_refs(int t, const char *text, const char *source)
{
	return pl_trace_parse_refs(trace_at(t), text, source, &last_error);
}

EMSCRIPTEN_KEEPALIVE int pl_abi_trace_read_buffer(int t, const char *buf, uint32_t len,
						  const char *name)
{
	return pl_trace_read_buffer(trace_at(t), buf, len, name, &last_error);
}

/* Appends n references; writes may be NULL (all reads). */
EMSCRIPTEN_KEEPALIVE int pl_abi_trace_add_pages(int t, const uint32_t *pages,
						const uint8_t *writes, uint32_t n)
{
	struct pl_trace *trace = trace_at(t);
	uint32_t i;

	for (i = 0; i < n; i++) {
		unsigned flags = writes && writes[i] ? PL_REF_WRITE : 0;

		if (pl_trace_add(trace, pages[i], flags) == PL_NONE) {
			fail("out of memory while adding references to the trace");
			return -1;
		}
	}
	return 0;
}

/*
 * A new trace holding the first n references of trace t (the step view
 * records only what it can show of a long trace); -1 on failure.
 */
EMSCRIPTEN_KEEPALIVE int pl_abi_trace_prefix(int t, uint32_t n)
{
	const struct pl_trace *src = trace_at(t);
	int prefix = pl_abi_trace_new();
	uint32_t i;

	if (prefix < 0)
		return -1;
	for (i = 0; i < n && i < src->n; i++) {
		if (pl_trace_add(traces[prefix], src->number[src->page[i]], src->flags[i]) == PL_NONE) {
			pl_abi_trace_free(prefix);
			fail("out of memory while copying the start of the trace");
			return -1;
		}
	}
	return prefix;
}

EMSCRIPTEN_KEEPALIVE uint32_t pl_abi_trace_length(int t)
{
	return trace_at(t)->n;
}

EMSCRIPTEN_KEEPALIVE uint32_t pl_abi_trace_npages(int t)
{
	return trace_at(t)->npages;
}

/* [n] dense page id of each reference. */
EMSCRIPTEN_KEEPALIVE const uint32_t *pl_abi_trace_pages(int t)
{
	return trace_at(t)->page;
}

/* [n] enum pl_ref_flags of each reference. */
EMSCRIPTEN_KEEPALIVE const uint8_t *pl_abi_trace_flags(int t)
{
	return trace_at(t)->flags;
}

/* [npages] 64-bit input page number of each dense id (JS reads lo, hi words). */
EMSCRIPTEN_KEEPALIVE const uint64_t *pl_abi_trace_numbers(int t)
{
	return trace_at(t)->number;
}

/* ------------------------------------------------------------ simulation */

static struct abi_sim *sim_at(int s)
{
	return s >= 0 && s < ABI_MAX_SIMS ? sims[s] : NULL;
}

/* Applies "name=value" lines (newline-separated) on top of the defaults. */
static int parse_assignments(const struct pl_policy_ops *ops, const char *text,
			     int64_t values[PL_MAX_PARAMS])
{
	char line[128];
	const char *end;

	pl_params_default(ops, values);
	for (; *text; text = *end ? end + 1 : end) {
		size_t len;

		end = strchr(text, '\n');
		if (!end)
			end = text + strlen(text);
		len = end - text;
		if (len == 0)
			continue;
		if (len >= sizeof(line)) {
			fail("a parameter assignment is longer than 127 characters");
			return -1;
		}
		memcpy(line, text, len);
		line[len] = '\0';
		if (pl_params_set(ops, values, line, &last_error) < 0)
			return -1;
	}
	return 0;
}

/*
 * A simulation of policy number `policy` over trace `t`; `params` holds
 * "name=value" lines (may be empty).  record: keep events and checkpoints.
 */
EMSCRIPTEN_KEEPALIVE int pl_abi_sim_create(int policy, uint32_t frames, int t,
					   const char *params, int record,
					   uint32_t checkpoint_every)
{
	const struct pl_policy_ops *ops = policy_at(policy);
	struct pl_trace *trace = trace_at(t);
	int64_t values[PL_MAX_PARAMS];
	struct abi_sim *entry;
	int s;

	if (!ops || !trace) {
		fail("no such policy or trace");
		return -1;
	}
	if (parse_assignments(ops, params, values) < 0)
		return -1;
	for (s = 0; s < ABI_MAX_SIMS && sims[s]; s++)
		;
	if (s == ABI_MAX_SIMS) {
		fail("too many simulations open at once");
		return -1;
	}
	entry = calloc(1, sizeof(*entry));
	if (!entry) {
		fail("out of memory for a simulation");
		return -1;
	}
	entry->ops = ops;
	entry->record = record;
	entry->sim = pl_sim_create(ops, frames, values, trace, record ? PL_SIM_RECORD : 0,
				   checkpoint_every, &last_error);
	if (!entry->sim) {
		free(entry);
		return -1;
	}
	pl_snapshot_init(&entry->snapshot, ops);
	sims[s] = entry;
	return s;
}

EMSCRIPTEN_KEEPALIVE void pl_abi_sim_free(int s)
{
	struct abi_sim *entry = sim_at(s);

	if (!entry)
		return;
	pl_snapshot_free(&entry->snapshot);
	pl_sim_destroy(entry->sim);
	free(entry->counter_trail);
	free(entry);
	sims[s] = NULL;
}

/* Appends the counters after the step just done to a recorded simulation's trail. */
static int keep_counters(struct abi_sim *entry)
{
	unsigned n = pl_policy_ncounters(entry->ops);
	uint64_t counters[PL_MAX_COUNTERS];
	unsigned c;

	if (entry->trail_steps == entry->trail_capacity) {
		uint32_t capacity = entry->trail_capacity ? 2 * entry->trail_capacity : 1024;
		double *grown = realloc(entry->counter_trail, (size_t)capacity * n * sizeof(*grown));

		if (!grown) {
			fail("out of memory for the per-step counters");
			return -1;
		}
		entry->counter_trail = grown;
		entry->trail_capacity = capacity;
	}
	pl_sim_counters(entry->sim, counters);
	for (c = 0; c < n; c++)
		entry->counter_trail[(size_t)entry->trail_steps * n + c] = (double)counters[c];
	entry->trail_steps++;
	return 0;
}

/*
 * Runs up to `steps` references; the i-th of them writes its outcome (1 hit,
 * 0 fault) to outcome[i], unless outcome is NULL.  A recorded simulation
 * also keeps its counters after each step (pl_abi_sim_counters_at).
 * Returns the number run; fewer than asked means the trace ended or the
 * simulation failed (pl_abi_sim_error).
 */
EMSCRIPTEN_KEEPALIVE uint32_t pl_abi_sim_run(int s, uint32_t steps, uint8_t *outcome)
{
	struct abi_sim *entry = sim_at(s);
	struct pl_sim *sim = entry->sim;
	const struct pl_stats *stats = pl_sim_stats(sim);
	bool trail = entry->record && pl_policy_ncounters(entry->ops) > 0;
	uint32_t done;

	if (!outcome && !trail)
		return pl_sim_run(sim, steps);
	for (done = 0; done < steps; done++) {
		uint64_t hits_before = stats->hits;

		if (!pl_sim_step(sim))
			break;
		if (outcome)
			outcome[done] = stats->hits != hits_before;
		if (trail && keep_counters(entry) < 0)
			break;
	}
	return done;
}

EMSCRIPTEN_KEEPALIVE uint32_t pl_abi_sim_position(int s)
{
	return pl_sim_position(sim_at(s)->sim);
}

/* NULL while the simulation is sound; else why it stopped. */
EMSCRIPTEN_KEEPALIVE const char *pl_abi_sim_error(int s)
{
	return pl_sim_error(sim_at(s)->sim);
}

/* which: 0 references, 1 hits, 2 misses, 3 evictions, 4 writebacks,
 * 5 resident_sum (resident pages after each step, summed). */
EMSCRIPTEN_KEEPALIVE double pl_abi_sim_stat(int s, int which)
{
	const struct pl_stats *stats = pl_sim_stats(sim_at(s)->sim);
	const uint64_t figures[] = { stats->references, stats->hits, stats->misses,
				     stats->evictions, stats->writebacks, stats->resident_sum };

	return which >= 0 && which < 6 ? (double)figures[which] : -1;
}

EMSCRIPTEN_KEEPALIVE double pl_abi_sim_counter(int s, int c)
{
	uint64_t counters[PL_MAX_COUNTERS];

	pl_sim_counters(sim_at(s)->sim, counters);
	return c >= 0 && (unsigned)c < pl_policy_ncounters(sim_at(s)->ops) ? (double)counters[c] : -1;
}

/* ------------------------------------------------------- recorded sessions */

/*
 * The policy's counters after step k of a recorded simulation (k = 0: before
 * the first reference, all 0), as ncounters doubles; NULL (with
 * pl_abi_error) if step k was not run through pl_abi_sim_run.
 */
EMSCRIPTEN_KEEPALIVE const double *pl_abi_sim_counters_at(int s, uint32_t k)
{
	static double zeros[PL_MAX_COUNTERS];
	struct abi_sim *entry = sim_at(s);

	if (k == 0)
		return zeros;
	if (k > entry->trail_steps) {
		fail("no counters for that step: it was not recorded or is past the end");
		return NULL;
	}
	return entry->counter_trail + (size_t)(k - 1) * pl_policy_ncounters(entry->ops);
}

/*
 * A seek at most this many steps past the step the scratch holds replays
 * those steps' events onto it (stepping forward in the page costs one
 * step's events), not a checkpoint's worth; further, or back, it seeks.
 */
#define SEEK_FORWARD_STEPS 64

/*
 * The scratch snapshot brought to step k: forward from the step it holds,
 * or restored by pl_sim_seek.  Both apply the same events in the same order
 * to the structure at an earlier step, so they give the same snapshot (the
 * web tests compare the two at every step).
 */
static int seek_scratch(struct abi_sim *entry, uint32_t k)
{
	struct pl_snapshot *snap = &entry->snapshot;
	uint32_t from = entry->snapshot_step, count = 0, i;
	const struct pl_event *events;

	if (entry->snapshot_held && from <= k && k - from <= SEEK_FORWARD_STEPS &&
	    k <= pl_sim_position(entry->sim)) {
		events = from < k ? pl_sim_events(entry->sim, from, k, &count) : NULL;
		for (i = 0; events && i < count && !pl_snapshot_apply(snap, &events[i]); i++)
			;
		if ((from == k || events) && i == count && !snap->failed) {
			entry->snapshot_step = k;
			return 0;
		}
	}
	entry->snapshot_held = false;
	if (pl_sim_seek(entry->sim, k, snap) < 0 || snap->failed)
		return -1;
	entry->snapshot_held = true;
	entry->snapshot_step = k;
	return 0;
}

/*
 * Seeks the structure at step k into the simulation's scratch snapshot and
 * returns it as words JS reads with HEAP32:
 *   [0] nlists [1] nfields [2] nhands [3] total
 *   [4 .. 4+PL_MAX_LISTS) len[]   then PL_MAX_HANDS hand positions
 *   then the address of page[total] and of value[total * nfields],
 *   then nvariables and PL_MAX_VARIABLES variable values.
 * NULL (with pl_abi_error) if the step is out of range or not recorded.
 */
EMSCRIPTEN_KEEPALIVE const int32_t *pl_abi_sim_seek(int s, uint32_t k)
{
	static int32_t words[4 + PL_MAX_LISTS + PL_MAX_HANDS + 3 + PL_MAX_VARIABLES];
	struct abi_sim *entry = sim_at(s);
	struct pl_snapshot *snap = &entry->snapshot;
	int32_t *w = words;
	unsigned i;

	if (seek_scratch(entry, k) < 0) {
		fail("cannot restore that step: it was not recorded or is past the end");
		return NULL;
	}
	*w++ = snap->nlists;
	*w++ = snap->nfields;
	*w++ = snap->nhands;
	*w++ = snap->total;
	for (i = 0; i < PL_MAX_LISTS; i++)
		*w++ = snap->len[i];
	for (i = 0; i < PL_MAX_HANDS; i++)
		*w++ = snap->hand[i];
	*w++ = (int32_t)(uintptr_t)snap->page;
	*w++ = (int32_t)(uintptr_t)snap->value;
	*w++ = snap->nvariables;
	for (i = 0; i < PL_MAX_VARIABLES; i++)
		*w++ = snap->variable[i];
	return words;
}

/*
 * The events of steps [from, to), decoded into a buffer the simulation
 * reuses at its next call; as many as pl_abi_sim_event_bound() says
 * (NULL when out of memory).
 */
EMSCRIPTEN_KEEPALIVE const struct pl_event *pl_abi_sim_events(int s, uint32_t from, uint32_t to)
{
	uint32_t count;

	return pl_sim_events(sim_at(s)->sim, from, to, &count);
}

/* Index of the first event of `step` (which: 0) or one past its last (which: 1). */
EMSCRIPTEN_KEEPALIVE uint32_t pl_abi_sim_event_bound(int s, uint32_t step, int which)
{
	uint32_t begin, end;

	pl_sim_step_events(sim_at(s)->sim, step, &begin, &end);
	return which == 0 ? begin : end;
}

/* -------------------------------------------------------------- analyses */

/*
 * The analyses of analysis.h over a whole trace.  Each returns a pointer to
 * doubles in a buffer this file owns (valid until the next analysis call),
 * or NULL with pl_abi_error() set.
 */
static double *results;
static uint32_t results_cap;

static double *result_buffer(uint32_t n)
{
	if (n > results_cap) {
		double *bigger = realloc(results, (size_t)n * sizeof(*bigger));

		if (!bigger) {
			fail("out of memory for an analysis's results");
			return NULL;
		}
		results = bigger;
		results_cap = n;
	}
	return results;
}

/* Misses of policy number `policy` at frames[0 .. n-1] (ascending). */
/* How pl_abi_mrc() makes policy i's curve: enum pl_mrc_method (0 one pass, 1 OPT's stack, 2 per size). */
EMSCRIPTEN_KEEPALIVE int pl_abi_mrc_method(int i)
{
	const struct pl_policy_ops *ops = policy_at(i);

	return ops ? (int)pl_mrc_method_of(ops) : -1;
}

EMSCRIPTEN_KEEPALIVE const double *pl_abi_mrc(int t, int policy, const char *params,
					      const uint32_t *frames, uint32_t n)
{
	const struct pl_policy_ops *ops = policy_at(policy);
	int64_t values[PL_MAX_PARAMS];
	uint64_t *misses;
	double *out;

	if (!ops || !trace_at(t)) {
		fail("no such policy or trace");
		return NULL;
	}
	if (parse_assignments(ops, params, values) < 0 || !(out = result_buffer(n ? n : 1)))
		return NULL;
	misses = malloc((n ? n : 1) * sizeof(*misses));
	if (!misses) {
		fail("out of memory for a miss-ratio curve");
		return NULL;
	}
	if (pl_mrc(ops, values, trace_at(t), frames, n, misses, &last_error)) {
		free(misses);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		out[i] = (double)misses[i];
	free(misses);
	return out;
}

/*
 * Lifetime points: for each taus[i] then each frames[j], two doubles: the
 * mean resident set and the faults (WS, then LRU).
 */
EMSCRIPTEN_KEEPALIVE const double *pl_abi_lifetime(int t, const uint32_t *taus, uint32_t ntaus,
						   const uint32_t *frames, uint32_t nframes)
{
	struct pl_trace *trace = trace_at(t);
	uint32_t max_tau = 0;
	struct pl_locality *l;
	double *out;

	if (!trace) {
		fail("no such trace");
		return NULL;
	}
	for (uint32_t i = 0; i < ntaus; i++)
		max_tau = taus[i] > max_tau ? taus[i] : max_tau;
	if (!(out = result_buffer(2 * (ntaus + nframes) + 1)) ||
	    !(l = pl_locality_create(max_tau, &last_error)))
		return NULL;
	if (pl_locality_add_trace(l, trace, NULL, NULL, &last_error)) {
		pl_locality_destroy(l);
		return NULL;
	}
	for (uint32_t i = 0; i < ntaus; i++) {
		out[2 * i] = pl_locality_ws_mean_size(l, taus[i]);
		out[2 * i + 1] = (double)pl_locality_ws_misses(l, taus[i]);
	}
	for (uint32_t j = 0; j < nframes; j++) {
		out[2 * (ntaus + j)] = pl_locality_lru_mean_resident(l, frames[j]);
		out[2 * (ntaus + j) + 1] = (double)pl_locality_lru_misses(l, frames[j]);
	}
	pl_locality_destroy(l);
	return out;
}

/* |W(t, tau)| in `points` buckets: the mean of each bucket. */
EMSCRIPTEN_KEEPALIVE const double *pl_abi_wss(int t, uint32_t tau, uint32_t points)
{
	struct pl_trace *trace = trace_at(t);
	uint32_t *max;
	uint64_t *hist;
	double *out;
	int ret;

	if (!trace) {
		fail("no such trace");
		return NULL;
	}
	if (!(out = result_buffer(points ? points : 1)))
		return NULL;
	max = malloc((points ? points : 1) * sizeof(*max));
	hist = malloc(((size_t)tau + 1) * sizeof(*hist));
	ret = max && hist ? pl_wss_series(trace, tau, points, out, max, hist, &last_error) : -1;
	if (!max || !hist)
		fail("out of memory for a working-set series");
	free(max);
	free(hist);
	return ret ? NULL : out;
}
