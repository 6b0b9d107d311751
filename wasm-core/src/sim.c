/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.c - the generic driver: runs one policy over one trace, a reference at
 * a time, keeps residency, dirty bits and statistics, records events and
 * checkpoints (eventlog.c), and restores any earlier step.
 *
 * Interface: pl_sim_* and pl_event_kind_name in pagelab.h; the pl_emit_*
 * calls and pl_resident in policy.h; the out-of-line parts of the step
 * loop, sim_*() in sim_loop.h.
 *
 * The steps themselves (tick, HIT or MISS, victim/evict, insert, the dirty
 * bit) are sim_loop.h's loop, which the build compiles once per policy
 * with the policy's calls inlined; this file runs it (sim->loop) and
 * builds it once more for tables that are not registered.
 *
 * Invariants, checked on every step whether recording or not (a violation
 * stops the simulation with a message from pl_sim_error(), never silent
 * corruption):
 *   - a page enters memory only during insert(p), and only p, once, and
 *     resident <= frames when insert() returns;
 *   - a page leaves memory only during evict(v), and only v; victim() must
 *     name a resident page and evict(v) must leave it non-resident;
 *   - pl_emit_remove() and moves into a ghost list never touch a resident
 *     page (leaving memory is pl_emit_evict()'s job, which does writeback);
 *   - list, field and hand indices are within the policy's declared ones
 *     (for MOVE, SET and HAND: while recording, see policy.h).
 *   hits + misses == references holds by construction.
 *
 * Recording (PL_SIM_RECORD): every event goes to the event log
 * (eventlog.h), which also keeps where each step's events begin and
 * snapshots of the policy (checkpoints: step 0, then spaced by size, or
 * every `checkpoint_every` steps).  pl_sim_seek(k) opens the last
 * checkpoint at or before k and replays the events up to k onto it
 * (replay.h); no policy code runs during a seek.
 *
 * Cost when not recording: the common case of pl_emit_insert/evict() is
 * inline (policy.h): a few compares and the residency byte; pl_emit_move/
 * set/hand() are one inline test unless a move can cross a ghost list;
 * pl_emit_remove() (ghosts only) is a call.  The step itself is a handful
 * of loads and the policy's own code, inlined into its loop, with one
 * call per fault (sim_loop.h); statistics other than misses and
 * resident_sum are derived when a run returns.  next_use is computed
 * (one backward pass, 4 bytes per reference) only for policies flagged
 * PL_POLICY_FUTURE.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog.h"
#include "sim_loop.h"


static const char *const event_kind_names[PL_EV_KINDS] = {
	[PL_EV_HIT] = "hit", [PL_EV_MISS] = "miss", [PL_EV_VICTIM] = "victim",
	[PL_EV_EVICT] = "evict", [PL_EV_INSERT] = "insert", [PL_EV_MOVE] = "move",
	[PL_EV_REMOVE] = "remove", [PL_EV_SET] = "set", [PL_EV_HAND] = "hand",
	[PL_EV_VARIABLE] = "variable",
};

const char *pl_event_kind_name(enum pl_event_kind kind)
{
	return (unsigned)kind < PL_EV_KINDS ? event_kind_names[kind] : "unknown";
}

/* ------------------------------------------------------------- failures */

static unsigned long long number_of(const struct pl_sim *sim, uint32_t page)
{
	return page < sim->trace->npages ? (unsigned long long)sim->trace->number[page] : page;
}

/* Puts "policy NAME, step N: " before the message, N = sim->pos. */
static void __attribute__((cold)) say_where(struct pl_sim *sim)
{
	char what[sizeof(sim->error.msg)];
	int used;

	memcpy(what, sim->error.msg, sizeof(what));
	used = snprintf(sim->error.msg, sizeof(sim->error.msg), "policy %s, step %u: ",
			sim->ops->name, sim->pos);
	snprintf(sim->error.msg + used, sizeof(sim->error.msg) - used, "%s", what);
}

/*
 * Stops the simulation; the first failure is the one reported.  During a
 * run the step is not known here (the loop keeps it in a register): run()
 * says where once the loop has stopped at it.
 */
static void __attribute__((cold, format(printf, 2, 3)))
fail(struct pl_sim *sim, const char *fmt, ...)
{
	va_list ap;

	if (sim->failed)
		return;
	sim->failed = true;
	va_start(ap, fmt);
	vsnprintf(sim->error.msg, sizeof(sim->error.msg), fmt, ap);
	va_end(ap);
	if (!sim->running)
		say_where(sim);
}

const char *pl_sim_error(const struct pl_sim *sim)
{
	return sim->failed ? sim->error.msg : NULL;
}

/* ------------------------------------------------------------- recording */

static void __attribute__((cold, noinline)) log_full(struct pl_sim *sim)
{
	fail(sim, "out of memory for the event log (%u events)", sim->log->nevents);
}

/*
 * An event that finds the log full: grows it, then appends (a HIT or MISS
 * as eventlog_append_outcome() does).  A call of its own, which the
 * appends jump to: their common path then saves no registers for it.
 */
void __attribute__((cold, noinline)) sim_record_grown(struct pl_sim *sim, enum pl_event_kind kind,
						      unsigned arg, uint32_t page, int32_t a,
						      int32_t b)
{
	if (eventlog_grow(sim->log))
		log_full(sim);
	else if (kind == PL_EV_HIT || kind == PL_EV_MISS)
		eventlog_append_outcome(sim->log, kind, page);
	else
		eventlog_append(sim->log, kind, arg, page, a, b);
}

/*
 * Step sim->pos begins, other than as eventlog_begin_step_fast() can:
 * marks it in the log and takes its checkpoint if due.
 */
void sim_begin_recorded_step(struct pl_sim *sim)
{
	struct pl_snapshot *cp;

	if (eventlog_begin_step_slow(sim->log, sim->pos, sim->ops, &cp))
		log_full(sim);
	else if (cp && pl_sim_snapshot(sim, cp))
		fail(sim, "snapshot() failed (out of memory or lists pushed out of order)");
}

/* ------------------------------------------------- calls from the policy */

/*
 * The common case of INSERT and EVICT is inline in policy.h; what reaches
 * this file is the rest: ghost lists, recording, and every broken rule,
 * which is reported out of line (cold).
 */

static bool is_ghost(const struct pl_sim *sim, unsigned list)
{
	return sim->ghost_lists >> list & 1;
}

static bool is_resident(const struct pl_sim *sim, uint32_t page)
{
	return pl_resident(&sim->ctx, page);
}

static void __attribute__((cold, noinline)) bad_index(struct pl_sim *sim, unsigned list,
						      unsigned list2, uint32_t page)
{
	if (list >= sim->nlists || list2 >= sim->nlists)
		fail(sim, "list %u does not exist (the policy declares %u)",
		     list >= sim->nlists ? list : list2, sim->nlists);
	else
		fail(sim, "page id %u is out of range (%u pages)", page, sim->npages);
}

/*
 * A page enters memory: only the page insert() is bringing in, once (the
 * fast path of pl_emit_insert() does the same).  Whether there was room is
 * checked by the driver when insert() returns.
 */
static void enter(struct pl_sim *sim, uint32_t page)
{
	struct pl_ctx *ctx = &sim->ctx;

	if (unlikely(page != ctx->entering)) {
		fail(sim, "page %llu entered memory outside insert() of that page",
		     number_of(sim, page));
		return;
	}
	ctx->page_state[page] = PL_PAGE_RESIDENT;
	ctx->nresident++;
	ctx->entering = PL_CTX_NONE;
}

void pl_insert_other(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos)
{
	struct pl_sim *sim = ctx->sim;

	if (unlikely(list >= sim->nlists || page >= sim->npages)) {
		bad_index(sim, list, list, page);
		return;
	}
	if (!is_ghost(sim, list))
		enter(sim, page);
	if (sim->recording)
		sim_record(sim, sim->log, PL_EV_INSERT, list, page, 0, (int32_t)pos);
}

/* pl_emit_insert()'s common case, recording: the page the fault brings in. */
void pl_record_insert(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos)
{
	sim_record_insert(ctx, page, list, pos);
}

/* Everything pl_emit_evict() does not take inline is a broken rule. */
void __attribute__((cold)) pl_evict_other(struct pl_ctx *ctx, uint32_t page, unsigned list)
{
	struct pl_sim *sim = ctx->sim;

	if (list >= sim->nlists || page >= sim->npages)
		bad_index(sim, list, list, page);
	else if (is_ghost(sim, list))
		fail(sim, "page %llu evicted from ghost list %s", number_of(sim, page),
		     sim->ops->lists[list]);
	else if (page != ctx->leaving)
		fail(sim, "page %llu evicted, but the victim being evicted is %s",
		     number_of(sim, page), ctx->leaving == PL_CTX_NONE ? "none" : "another page");
	else
		fail(sim, "victim() chose page %llu, which is not resident", number_of(sim, page));
}

void pl_record_evict(struct pl_ctx *ctx, uint32_t page, unsigned list, bool dirty)
{
	sim_record_evict(ctx, page, list, dirty);
}

static void __attribute__((cold, noinline)) bad_move(struct pl_sim *sim, uint32_t page,
						     unsigned to)
{
	fail(sim, "resident page %llu moved into ghost list %s: use pl_emit_evict()",
	     number_of(sim, page), sim->ops->lists[to]);
}

void pl_record_move(struct pl_ctx *ctx, uint32_t page, unsigned from, unsigned to, uint32_t pos)
{
	struct pl_sim *sim = ctx->sim;

	if (unlikely(from >= sim->nlists || to >= sim->nlists || page >= sim->npages)) {
		bad_index(sim, from, to, page);
		return;
	}
	if (unlikely(is_ghost(sim, from) != is_ghost(sim, to))) {
		if (is_ghost(sim, from))
			enter(sim, page);
		else
			bad_move(sim, page, to);
	}
	if (unlikely(sim->recording))
		sim_record(sim, sim->log, PL_EV_MOVE, to, page, (int32_t)from, (int32_t)pos);
}

void pl_remove_other(struct pl_ctx *ctx, uint32_t page, unsigned list)
{
	struct pl_sim *sim = ctx->sim;

	if (unlikely(list >= sim->nlists || page >= sim->npages)) {
		bad_index(sim, list, list, page);
		return;
	}
	if (unlikely(!is_ghost(sim, list)))
		fail(sim, "page %llu removed from non-ghost list %s: use pl_emit_evict()",
		     number_of(sim, page), sim->ops->lists[list]);
	if (unlikely(sim->recording))
		sim_record(sim, sim->log, PL_EV_REMOVE, list, page, 0, 0);
}

/*
 * SET, HAND and VARIABLE: `index` names one of the `declared` fields,
 * hands or variables (`what`); the event is kept (pl_emit_*() calls
 * these only while recording).  Inline in each, as sim_record() is: with its
 * kind a constant the append folds to that event's parts (a CLOCK sweep
 * records one SET and one HAND per frame it passes).
 */
static inline __attribute__((always_inline)) void record_indexed(struct pl_sim *sim, enum pl_event_kind kind, const char *what,
			   unsigned index, unsigned declared, uint32_t page, int32_t from,
			   int32_t to)
{
	if (unlikely(index >= declared)) {
		fail(sim, "%s %u does not exist (the policy declares %u)", what, index, declared);
		return;
	}
	sim_record(sim, sim->log, kind, index, page, from, to);
}

void pl_record_set(struct pl_ctx *ctx, uint32_t page, unsigned field, int32_t from, int32_t to)
{
	record_indexed(ctx->sim, PL_EV_SET, "field", field, ctx->sim->ops->nfields, page, from,
		       to);
}

void pl_record_hand(struct pl_ctx *ctx, unsigned hand, uint32_t from, uint32_t to)
{
	record_indexed(ctx->sim, PL_EV_HAND, "hand", hand, ctx->sim->ops->nhands, PL_NONE,
		       (int32_t)from, (int32_t)to);
}

void pl_record_variable(struct pl_ctx *ctx, unsigned variable, int32_t from, int32_t to)
{
	record_indexed(ctx->sim, PL_EV_VARIABLE, "variable", variable,
		       ctx->sim->ops->nvariables, PL_NONE, from, to);
}

/* ---------------------------------------------------------------- steps */

/* The step loop's broken rules (sim_loop.h). */
void __attribute__((cold)) sim_bad_victim(struct pl_sim *sim, uint32_t victim)
{
	fail(sim, "victim() chose %s%llu, which is not resident",
	     victim == PL_NONE ? "no page " : "page id ", number_of(sim, victim));
}

/* evict(v) returned without pl_emit_evict() of v, or it failed. */
void __attribute__((cold)) sim_bad_eviction(struct pl_sim *sim, uint32_t victim)
{
	sim->ctx.leaving = PL_CTX_NONE;
	if (sim->failed)
		return;
	if (is_resident(sim, victim))
		fail(sim, "evict() left the victim, page %llu, resident", number_of(sim, victim));
	else
		fail(sim, "victim() chose page %llu, which is not resident", number_of(sim, victim));
}

/* insert() did not consume ctx.entering, or memory is over-full. */
void __attribute__((cold)) sim_bad_insert(struct pl_sim *sim, uint32_t page)
{
	if (sim->ctx.entering != PL_CTX_NONE) {
		sim->ctx.entering = PL_CTX_NONE;
		fail(sim, "insert() did not bring page %llu in", number_of(sim, page));
	} else {
		fail(sim, "page %llu inserted into full memory (%u frames): reclaim evicted too little",
		     number_of(sim, page), sim->ctx.frames);
	}
}

SIM_LOOP(sim_loop_any, loop_run, sim->ops)

/*
 * The counts not kept per reference follow from those that are: every
 * page in memory entered at a miss, one per miss (the loop checks it), so
 * those that have left are the misses less those resident.
 */
static void sync_stats(struct pl_sim *sim)
{
	sim->stats.references = sim->pos;
	sim->stats.hits = sim->pos - sim->stats.misses;
	sim->stats.evictions = sim->stats.misses - sim->ctx.nresident;
	sim->stats.writebacks = sim->ctx.writebacks;
	sim->stats.resident_sum = sim->resident_steps +
				  (uint64_t)sim->ctx.nresident * (sim->pos - sim->counted_to);
}

/* The loop stops at a failing step, which sim->pos then is. */
static void run(struct pl_sim *sim, uint32_t stop)
{
	if (sim->failed)
		return;
	sim->running = true;
	sim->loop(sim, stop);
	sim->running = false;
	if (unlikely(sim->failed))
		say_where(sim);
	sync_stats(sim);
}

bool pl_sim_step(struct pl_sim *sim)
{
	if (sim->failed || sim->pos >= sim->trace->n)
		return false;
	run(sim, sim->pos + 1);
	return !sim->failed;
}

uint32_t pl_sim_run(struct pl_sim *sim, uint32_t steps)
{
	uint32_t start = sim->pos;

	run(sim, steps < sim->trace->n - start ? start + steps : sim->trace->n);
	return sim->pos - start;
}

uint32_t pl_sim_position(const struct pl_sim *sim)
{
	return sim->pos;
}

const struct pl_stats *pl_sim_stats(const struct pl_sim *sim)
{
	return &sim->stats;
}

uint32_t pl_sim_nprocs(const struct pl_sim *sim)
{
	return sim->procs.n;
}

void pl_sim_proc(const struct pl_sim *sim, uint32_t i, uint32_t *pid, struct pl_stats *stats)
{
	uint64_t refs = sim->procs.refs[i];	/* in the whole trace */

	if (sim->pos < sim->trace->n) {		/* mid-run: count those done */
		refs = 0;
		for (uint32_t step = 0; step < sim->pos; step++)
			refs += sim->trace->pid[step] == sim->procs.pid[i];
	}
	*pid = sim->procs.pid[i];
	*stats = (struct pl_stats){
		.references = refs, .misses = sim->procs.misses[i],
		.hits = refs - sim->procs.misses[i],
	};
}

void pl_sim_counters(const struct pl_sim *sim, uint64_t *out)
{
	memset(out, 0, sim->ops->ncounters * sizeof(*out));
	if (sim->ops->read_counters)
		sim->ops->read_counters(sim->state, out);
}

uint32_t pl_sim_resident(const struct pl_sim *sim)
{
	return sim->ctx.nresident;
}

int pl_sim_snapshot(const struct pl_sim *sim, struct pl_snapshot *out)
{
	out->nlists = sim->ops->nlists;
	out->nfields = sim->ops->nfields;
	out->nhands = sim->ops->nhands;
	out->nvariables = sim->ops->nvariables;
	pl_snapshot_clear(out);
	sim->ops->snapshot(sim->state, out);
	return out->failed ? -1 : 0;
}

const struct pl_event *pl_sim_events(struct pl_sim *sim, uint32_t from, uint32_t to,
				     uint32_t *count)
{
	*count = 0;
	if (!sim->recording || from >= to || from > sim->pos)
		return sim->log ? sim->log->decoded : NULL;
	return eventlog_decode(sim->log, from, to, count);
}

void pl_sim_step_events(const struct pl_sim *sim, uint32_t step, uint32_t *begin, uint32_t *end)
{
	if (!sim->recording || step >= sim->pos) {
		*begin = *end = sim->log ? sim->log->nevents : 0;
		return;
	}
	eventlog_step_range(sim->log, step, begin, end);
}

size_t pl_sim_recording_bytes(const struct pl_sim *sim)
{
	return sim->recording ? eventlog_bytes(sim->log, sim->trace->n) : 0;
}

int pl_sim_seek(const struct pl_sim *sim, uint32_t k, struct pl_snapshot *out)
{
	if (!sim->recording || k > sim->pos)
		return -1;
	return eventlog_seek(sim->log, k, out);
}

/* ------------------------------------------------------ create / destroy */

static int compute_next_use(struct pl_sim *sim)
{
	const struct pl_trace *t = sim->trace;
	uint32_t *last = malloc(((size_t)t->npages + 1) * sizeof(*last));

	sim->next_use = malloc(((size_t)t->n + 1) * sizeof(*sim->next_use));
	if (!last || !sim->next_use) {
		free(last);
		return -1;
	}
	for (uint32_t p = 0; p < t->npages; p++)
		last[p] = PL_NONE;
	for (uint32_t i = t->n; i-- > 0;) {
		sim->next_use[i] = last[t->page[i]];
		last[t->page[i]] = i;
	}
	free(last);
	return 0;
}

static int check_params(const struct pl_policy_ops *ops, const int64_t *params,
			struct pl_error *err)
{
	for (unsigned i = 0; i < ops->nparams; i++) {
		const struct pl_param *p = &ops->params[i];

		if (params[i] < p->min || params[i] > p->max) {
			snprintf(err->msg, sizeof(err->msg),
				 "%s: parameter %s = %lld is outside %lld .. %lld", ops->name,
				 p->name, (long long)params[i], (long long)p->min,
				 (long long)p->max);
			return -1;
		}
	}
	return 0;
}

static int start_recording(struct pl_sim *sim, uint32_t checkpoint_every)
{
	sim->log = calloc(1, sizeof(*sim->log));
	if (!sim->log ||
	    eventlog_init(sim->log, sim->trace->n, sim->trace->page, checkpoint_every))
		return -1;
	sim->recording = true;
	sim->ctx.recording = true;
	sim_begin_recorded_step(sim);
	return sim->failed ? -1 : 0;
}

/* Bit i set: list i is declared. */
static uint32_t declared_lists(const struct pl_policy_ops *ops)
{
	unsigned n = ops->nlists < PL_MAX_LISTS ? ops->nlists : PL_MAX_LISTS;

	return (1u << n) - 1;
}

/*
 * The loop built for a registered table, recording or not, else the one
 * for any table.
 */
static sim_loop_fn *loop_of(const struct pl_policy_ops *ops, bool recording)
{
	for (unsigned i = 0; pl_policies[i]; i++)
		if (pl_policies[i] == ops)
			return recording ? pl_policy_recorded_loops[i] : pl_policy_loops[i];
	return sim_loop_any;
}

static struct pl_sim *create_failed(struct pl_sim *sim, struct pl_error *err, const char *what)
{
	if (what)
		snprintf(err->msg, sizeof(err->msg), "%s", what);
	pl_sim_destroy(sim);
	return NULL;
}

struct pl_sim *pl_sim_create(const struct pl_policy_ops *ops, uint32_t frames,
			     const int64_t *params, const struct pl_trace *trace,
			     unsigned flags, uint32_t checkpoint_every, struct pl_error *err)
{
	struct pl_sim *sim;

	if (frames == 0) {
		snprintf(err->msg, sizeof(err->msg), "frames must be at least 1");
		return NULL;
	}
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return create_failed(sim, err, "out of memory");
	sim->ops = ops;
	sim->loop = loop_of(ops, flags & PL_SIM_RECORD);
	sim->trace = trace;
	sim->npages = trace->npages;
	sim->nlists = ops->nlists;
	sim->ghost_lists = ops->ghost_lists;
	sim->nfields = ops->nfields;
	sim->nhands = ops->nhands;
	sim->nvariables = ops->nvariables;
	if (params)
		memcpy(sim->params, params, sizeof(sim->params));
	else
		pl_params_default(ops, sim->params);
	if (check_params(ops, sim->params, err))
		return create_failed(sim, err, NULL);
	sim->ctx = (struct pl_ctx){
		.frames = frames, .npages = trace->npages, .params = sim->params, .sim = sim,
		.page_state = calloc((size_t)trace->npages + 1, 1),
		.entering = PL_CTX_NONE, .leaving = PL_CTX_NONE,
		.resident_lists = declared_lists(ops) & ~ops->ghost_lists,
		.ghost_lists = declared_lists(ops) & ops->ghost_lists,
		.vtime = trace->vtime, .number = trace->number,
	};
	if (!sim->ctx.page_state || ((ops->flags & PL_POLICY_FUTURE) && compute_next_use(sim)) ||
	    proc_table_init(&sim->procs, trace))
		return create_failed(sim, err, "out of memory");
	sim->state = ops->create(&sim->ctx, err);
	if (!sim->state)
		return create_failed(sim, err, NULL);
	sim->next_tick = sim->ctx.tick_period && (ops->tick || ops->expire_goal) ?
			 sim->ctx.tick_period : PL_NONE;
	if ((flags & PL_SIM_RECORD) && start_recording(sim, checkpoint_every))
		return create_failed(sim, err, sim->failed ? sim->error.msg :
					       "out of memory for the event log");
	return sim;
}

void pl_sim_destroy(struct pl_sim *sim)
{
	if (!sim)
		return;
	if (sim->state)
		sim->ops->destroy(sim->state);
	if (sim->log)
		eventlog_free(sim->log);
	free(sim->log);
	free(sim->next_use);
	free(sim->ctx.page_state);
	proc_table_free(&sim->procs);
	free(sim);
}
