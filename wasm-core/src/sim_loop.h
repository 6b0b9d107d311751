/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_loop.h - the driver's step loop, written once and compiled once per
 * policy.
 *
 * Interface: struct pl_sim (the driver's state, private to the core),
 * SIM_LOOP(name, run, ops), which defines the loop `void name(struct
 * pl_sim *, uint32_t stop)` for one ops table, the recorded events'
 * appends (sim_record*()), and the out-of-line parts of a step that sim.c
 * implements (sim_*()).  Only sim.c and the units the build makes of the
 * policy files include it.
 *
 * Why per policy: through a table read at run time, every hit() is an
 * indirect call and every fault three (victim, evict, insert), each with
 * the calls' register saves and the checks around them, and in WebAssembly
 * a call_indirect with its signature check.  The build instead compiles
 * each src/policies/FILE.c inside a generated unit (tools/registry.sh)
 * that ends with SIM_LOOP(pl_policy_NAME_loop, loop_run_unrecorded,
 * &pl_policy_NAME) for each table the file defines: the table is a
 * constant whose initializer the compiler sees there, so ops->hit() and
 * the others become direct calls to the policy's static functions, which
 * it inlines.  A second unit (PL_RECORDED_UNIT) builds the recorded loop
 * from the file compiled with recording a constant, so that the policy's
 * events are appended inline there and the loops that do not record carry
 * none of that code.  The registry lists each table's loops beside it
 * (pl_policy_loops[], pl_policy_recorded_loops[]) and pl_sim_create()
 * takes one from there.  sim.c builds the loop once more with the
 * table read at run time (sim_loop_any()) for tables not registered, such
 * as the tests' probes.  The steps are the same code either way, with the
 * same checks; only what the compiler knows about the policy differs.
 *
 * One step (reference `step` to page p):
 *   tick(step)          if the policy asked for one every tick_period
 *                       references and step is a positive multiple of it,
 *                       then expire_goal(ref) times: VICTIM v = victim(),
 *                       evict(v) (variable-space policies only);
 *   HIT, hit(p)         if p is resident; otherwise
 *   MISS, then reclaim_goal() times: VICTIM v = victim(), evict(v);
 *   then insert(p);     and finally a write marks p dirty.
 * Checked on every step (sim.c's header lists all the rules): victim()
 * names a page that exists and evict(v) removes exactly v (through
 * pl_emit_evict(), which checks that v was resident); insert(p) brings in
 * p and memory is not over-full afterwards.
 *
 * Names here are loop_*, sim_* and SIM_*: the units include this header
 * after a policy's code, whose static names must not meet them.
 */
#ifndef PAGELAB_SIM_LOOP_H
#define PAGELAB_SIM_LOOP_H

#include "eventlog.h"
#include "policy.h"
#include "procs.h"

/* A policy's loop: steps from sim->pos up to `stop`. */
typedef void sim_loop_fn(struct pl_sim *sim, uint32_t stop);

struct pl_sim {
	const struct pl_policy_ops *ops;
	void *state;
	struct pl_ctx ctx;
	const struct pl_trace *trace;
	sim_loop_fn *loop;	/* the loop built for ops, or sim_loop_any() */
	int64_t params[PL_MAX_PARAMS];
	uint32_t npages, nlists;	/* copies of trace->npages, ops->nlists */
	unsigned ghost_lists;		/* copy of ops->ghost_lists */
	/* copies of ops->nfields, nhands, nvariables: a recorded SET, HAND or
	 * VARIABLE checks its index against them (one load, not two) */
	unsigned nfields, nhands, nvariables;

	uint32_t *next_use;	/* [n], PL_POLICY_FUTURE only */
	/*
	 * Residency (page_state, nresident) and what the policy may do right
	 * now (entering, leaving) live in ctx, where the inline emit calls
	 * of policy.h update them.  stats is brought up to date at the end
	 * of every pl_sim_step()/pl_sim_run() (sim.c's sync_stats()): per
	 * reference only misses are counted; references, hits and evictions
	 * follow from pos and nresident, writebacks is ctx.writebacks.
	 */
	struct pl_stats stats;
	uint32_t pos;		/* steps done */
	uint32_t next_tick;	/* step before which tick() runs next, or PL_NONE */
	/* resident_sum up to step counted_to (loop_count_resident()) */
	uint64_t resident_steps;
	uint32_t counted_to;
	bool running;		/* in the loop, which keeps the step being
				 * processed in a register, not in pos */

	bool failed;
	struct pl_error error;

	bool recording;
	struct eventlog *log;	/* while recording */

	struct proc_table procs;	/* a trace with pids: misses per process */
};

/* ------------------------------------------- the out-of-line parts (sim.c) */

/* Broken rules, reported (the first one only) and stopping the simulation. */
void sim_bad_victim(struct pl_sim *sim, uint32_t victim);	/* not a page */
void sim_bad_eviction(struct pl_sim *sim, uint32_t victim);	/* evict() kept it */
void sim_bad_insert(struct pl_sim *sim, uint32_t page);	/* insert() or memory */

/*
 * Recording: what the loop's inline parts (loop_record_*()) leave out -
 * an event that finds the log full (it grows, then appends), and the
 * start of step sim->pos when it is not the common case
 * (eventlog_begin_step_fast()).
 */
void sim_record_grown(struct pl_sim *sim, enum pl_event_kind kind, unsigned arg,
		      uint32_t page, int32_t a, int32_t b);
void sim_begin_recorded_step(struct pl_sim *sim);

/* The loop for any table, read at run time: tables not in the registry. */
sim_loop_fn sim_loop_any;

/*
 * The registry's loops (tools/registry.sh): pl_policy_loops[i] is the loop
 * built for pl_policies[i] when not recording, pl_policy_recorded_loops[i]
 * the one for recording, from the policy's recorded unit.
 */
extern sim_loop_fn *const pl_policy_loops[];
extern sim_loop_fn *const pl_policy_recorded_loops[];

/* ------------------------------------------------------------- the steps */

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
/* The step's parts are inlined into the loop: fewer instructions per step
 * also let the CPU overlap more of the steps' cache misses. */
#define SIM_STEP static inline __attribute__((always_inline))

/*
 * What the hot loop reads on every step, copied into locals of the loop:
 * the policy's calls could change anything reachable from sim as far as
 * the compiler knows (and the residency bytes are chars, which alias
 * everything), so read through sim these would be reloaded, pointer after
 * pointer, on every step.
 */
struct loop_locals {
	void *state;
	struct eventlog *log;	/* while recording */
	uint8_t *page_state;
	const uint32_t *page, *next_use, *pid;
	const uint8_t *flags;
};

SIM_STEP struct loop_locals loop_locals_of(const struct pl_sim *sim)
{
	return (struct loop_locals){
		.state = sim->state, .log = sim->log, .page_state = sim->ctx.page_state,
		.page = sim->trace->page, .next_use = sim->next_use, .pid = sim->trace->pid,
		.flags = sim->trace->flags,
	};
}

/*
 * The steps take their variants as constant arguments - recording or not,
 * whether the trace has the next_use and pid columns, whether the steps
 * may write - so that the compiler builds one loop for each and the
 * common one (no recording, no columns, no writes) tests none of that per
 * reference.
 */

/*
 * Recording: an event other than a HIT or MISS, appended to `log`
 * (sim->log) - into room, or through the cold call that grows it (which
 * picks the page's mode itself).  Always inline: with constants for kind,
 * mode and some values it folds to the few parts that event has.
 */
SIM_STEP void sim_record_as(struct pl_sim *sim, struct eventlog *log, enum pl_event_kind kind,
			    unsigned arg, unsigned mode, uint32_t page, int32_t a, int32_t b)
{
	if (likely(eventlog_has_room(log)))
		eventlog_append_as(log, kind, arg, mode, page, a, b);
	else
		sim_record_grown(sim, kind, arg, page, a, b);
}

SIM_STEP void sim_record(struct pl_sim *sim, struct eventlog *log, enum pl_event_kind kind,
			 unsigned arg, uint32_t page, int32_t a, int32_t b)
{
	sim_record_as(sim, log, kind, arg, eventlog_page_mode(log, page), page, a, b);
}

/*
 * The policy's events, recording: what pl_record_*() (sim.c) append, and
 * in the recorded units (policy.h's PL_RECORDED_UNIT) what pl_emit_*()
 * call, so that the loop appends them inline.  An index the policy does
 * not declare, or a MOVE across ghost and resident lists, is left to
 * pl_record_*(), which check every rule and report a broken one.
 *
 * The INSERT and EVICT here are pl_emit_insert()'s and pl_emit_evict()'s
 * common cases only.  The page inserted is then the one the fault brings
 * in, the step's reference (PAGE_REF), and the page evicted the victim, a
 * page (not PAGE_NONE), most often the previous event's (its VICTIM), so
 * that is tested first.
 */
SIM_STEP void sim_record_insert(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos)
{
	sim_record_as(ctx->sim, ctx->sim->log, PL_EV_INSERT, list, PAGE_REF, page, 0,
		      (int32_t)pos);
}

SIM_STEP void sim_record_evict(struct pl_ctx *ctx, uint32_t page, unsigned list, bool dirty)
{
	struct eventlog *log = ctx->sim->log;
	unsigned mode = page == log->prev_page ? PAGE_PREV :
			page == log->pos_page ? PAGE_REF : PAGE_VARINT;

	sim_record_as(ctx->sim, log, PL_EV_EVICT, list, mode, page, dirty, 0);
}

SIM_STEP void sim_record_move(struct pl_ctx *ctx, uint32_t page, unsigned from, unsigned to,
			      uint32_t pos)
{
	struct pl_sim *sim = ctx->sim;

	if (likely(from < sim->nlists && to < sim->nlists && page < sim->npages &&
		   (sim->ghost_lists >> from & 1) == (sim->ghost_lists >> to & 1)))
		sim_record(sim, sim->log, PL_EV_MOVE, to, page, (int32_t)from, (int32_t)pos);
	else
		pl_record_move(ctx, page, from, to, pos);
}

SIM_STEP void sim_record_set(struct pl_ctx *ctx, uint32_t page, unsigned field, int32_t from,
			     int32_t to)
{
	struct pl_sim *sim = ctx->sim;

	if (likely(field < sim->nfields))
		sim_record(sim, sim->log, PL_EV_SET, field, page, from, to);
	else
		pl_record_set(ctx, page, field, from, to);
}

SIM_STEP void sim_record_hand(struct pl_ctx *ctx, unsigned hand, uint32_t from, uint32_t to)
{
	struct pl_sim *sim = ctx->sim;

	if (likely(hand < sim->nhands))
		sim_record(sim, sim->log, PL_EV_HAND, hand, PL_NONE, (int32_t)from, (int32_t)to);
	else
		pl_record_hand(ctx, hand, from, to);
}

SIM_STEP void sim_record_variable(struct pl_ctx *ctx, unsigned variable, int32_t from,
				  int32_t to)
{
	struct pl_sim *sim = ctx->sim;

	if (likely(variable < sim->nvariables))
		sim_record(sim, sim->log, PL_EV_VARIABLE, variable, PL_NONE, from, to);
	else
		pl_record_variable(ctx, variable, from, to);
}

/* The driver's own events and the start of a step, inline. */
SIM_STEP void loop_record_outcome(struct pl_sim *sim, const struct loop_locals *l,
				  enum pl_event_kind kind, uint32_t page)
{
	if (likely(eventlog_has_room(l->log)))
		eventlog_append_outcome(l->log, kind, page);
	else
		sim_record_grown(sim, kind, 0, page, 0, 0);
}

SIM_STEP void loop_record_victim(struct pl_sim *sim, const struct loop_locals *l,
				 uint32_t victim)
{
	/*
	 * Its page is the previous event's only if the victim is bad (that
	 * event is the MISS, the reference's, or the EVICT of a page now gone):
	 * a varint, or the reference's, decodes to it all the same.
	 */
	sim_record_as(sim, l->log, PL_EV_VICTIM, 0,
		      victim == l->log->pos_page ? PAGE_REF : PAGE_VARINT, victim, 0, 0);
}

/* A fault's MISS, of `page`, and its first VICTIM together. */
SIM_STEP void loop_record_miss_victim(struct pl_sim *sim, const struct loop_locals *l,
				      uint32_t page, uint32_t victim)
{
	if (likely(eventlog_has_room(l->log))) {
		eventlog_append_miss_victim(l->log, page, victim);
	} else {
		loop_record_outcome(sim, l, PL_EV_MISS, page);
		loop_record_victim(sim, l, victim);
	}
}

/*
 * Step `step` begins, recording (the previous one has ended); false if
 * that failed.  sim->pos is brought up to date only for the slow path
 * (which reads it): the loop keeps the step in a register.
 */
SIM_STEP bool loop_begin_recorded_step(struct pl_sim *sim, const struct loop_locals *l,
				       uint32_t step)
{
	if (likely(eventlog_begin_step_fast(l->log, step)))
		return true;
	sim->pos = step;
	sim_begin_recorded_step(sim);
	return !sim->failed;
}

/*
 * Asks for a victim and evicts it; recording, `miss` is the page of the
 * fault whose MISS is still to be appended, with this VICTIM (PL_NONE
 * but for a fault's first eviction).  Whether the victim was resident is
 * learnt from pl_emit_evict() (it clears ctx.leaving) rather than read up
 * front: that read would be a cache miss the CPU must wait for on every
 * fault of a large simulation.  Evictions are not counted: every page
 * enters at a miss, one per miss, so sync_stats() (sim.c) knows how many
 * left.
 */
SIM_STEP void loop_evict_one(struct pl_sim *sim, const struct pl_policy_ops *ops,
			     const struct loop_locals *l, const bool recording, uint32_t miss)
{
	void *state = l->state;
	uint32_t victim = ops->victim(state);

	if (unlikely(victim >= sim->npages)) {
		if (recording && miss != PL_NONE)
			loop_record_outcome(sim, l, PL_EV_MISS, miss);
		sim_bad_victim(sim, victim);
		return;
	}
	if (recording && miss != PL_NONE)
		loop_record_miss_victim(sim, l, miss, victim);
	else if (recording)
		loop_record_victim(sim, l, victim);
	sim->ctx.leaving = victim;
	ops->evict(state, victim);
	if (unlikely(sim->ctx.leaving != PL_CTX_NONE))
		sim_bad_eviction(sim, victim);
}

/*
 * resident_sum is not added to per reference: memory changes only in a
 * fault or a tick, so those count the steps since the previous change,
 * [counted_to, step), each with the `resident` pages resident then, and
 * sync_stats() (sim.c) counts the rest.
 */
SIM_STEP void loop_count_resident(struct pl_sim *sim, uint32_t step, uint32_t resident)
{
	sim->resident_steps += (uint64_t)resident * (step - sim->counted_to);
	sim->counted_to = step;
}

/*
 * A fault.  `pids`: the trace may have a pid column (misses per process).
 * The step has not failed so far (the loop stops at a failed one).
 */
SIM_STEP void loop_miss(struct pl_sim *sim, const struct pl_policy_ops *ops,
			const struct loop_locals *l, const struct pl_ref *ref, const bool recording,
			const bool pids)
{
	void *state = l->state;
	struct pl_ctx *ctx = &sim->ctx;
	uint32_t resident = ctx->nresident;
	uint32_t goal;

	ctx->faulting = ref->page;
	goal = ops->reclaim_goal ? ops->reclaim_goal(state, resident) : resident >= ctx->frames;
	/*
	 * Recording, the MISS goes in with the first VICTIM (victim() only
	 * looks: no event of the policy's comes between them).
	 */
	if (recording && goal == 0)
		loop_record_outcome(sim, l, PL_EV_MISS, ref->page);
	for (uint32_t miss = recording ? ref->page : PL_NONE; goal > 0; goal--, miss = PL_NONE) {
		loop_evict_one(sim, ops, l, recording, miss);
		if (unlikely(sim->failed))
			return;
	}
	ctx->entering = ref->page;
	ops->insert(state, ref);
	/*
	 * With the default reclaim goal memory cannot be over-full here: a
	 * full memory has just lost its victim, and insert() can bring in
	 * only the one page.
	 */
	if (unlikely(ctx->entering != PL_CTX_NONE ||
		     (ops->reclaim_goal && ctx->nresident > ctx->frames)))
		sim_bad_insert(sim, ref->page);
	sim->stats.misses++;
	if (ctx->nresident != resident)
		loop_count_resident(sim, ref->step, resident);
	if (pids && sim->procs.n)	/* the trace has pids: ref->pid is read */
		sim->procs.misses[proc_table_find(&sim->procs, ref->pid)]++;
}

/*
 * The tick due before reference ref->step (the caller has read the
 * reference): tick(), then expire_goal() evictions.  Outside the spans of
 * steps without one (loop_steps()).
 */
SIM_STEP void loop_tick(struct pl_sim *sim, const struct pl_policy_ops *ops,
			const struct loop_locals *l, const struct pl_ref *ref, const bool recording)
{
	void *state = l->state;
	uint32_t step = ref->step;
	size_t events_from = recording ? eventlog_tick_begins(l->log, ref->page) : 0;

	loop_count_resident(sim, step, sim->ctx.nresident);
	sim->next_tick = sim->ctx.tick_period <= PL_NONE - step ?
			 step + sim->ctx.tick_period : PL_NONE;
	if (ops->tick)
		ops->tick(state, step);
	if (ops->expire_goal)
		for (uint32_t i = ops->expire_goal(state, ref); i > 0 && !sim->failed; i--)
			loop_evict_one(sim, ops, l, recording, PL_NONE);
	if (recording)
		eventlog_tick_ended(l->log, events_from);
}

/*
 * Reference `step`: page, step and flags (0 unless `writes`), and next_use
 * and pid when `columns` says the trace may have them.
 */
SIM_STEP struct pl_ref loop_read_ref(const struct loop_locals *l, uint32_t step,
				     const bool columns, const bool writes)
{
	return (struct pl_ref){
		.page = l->page[step], .step = step,
		.flags = writes ? l->flags[step] : 0,
		.next_use = columns && l->next_use ? l->next_use[step] : PL_NONE,
		.pid = columns && l->pid ? l->pid[step] : 0,
	};
}

/*
 * Processes reference `ref`, its tick (if one is due) done; the caller
 * checks sim->failed afterwards.
 */
SIM_STEP void loop_process(struct pl_sim *sim, const struct pl_policy_ops *ops,
			   const struct loop_locals *l, const struct pl_ref *ref,
			   const bool recording, const bool columns, const bool writes)
{
	uint32_t page = ref->page;

	if (l->page_state[page] & PL_PAGE_RESIDENT) {
		if (recording)
			loop_record_outcome(sim, l, PL_EV_HIT, page);
		ops->hit(l->state, ref);
	} else {
		loop_miss(sim, ops, l, ref, recording, columns);
	}
	if (writes && (ref->flags & PL_REF_WRITE))
		l->page_state[page] |= PL_PAGE_DIRTY;
}

/*
 * The residency byte of the page LOOP_PREFETCH_AHEAD references ahead is
 * requested before each step: with a large trace most of those bytes are
 * cache misses, and a step runs too many instructions for the CPU to reach
 * the next step's load on its own.  The byte is inside page_state (the
 * trace's pages are below npages), so it is requested without the test
 * of an arbitrary address (pl_request_line_inside()).  A policy with a
 * prefetch() is shown the pages PL_PREFETCH_FAR and PL_PREFETCH_NEAR
 * references ahead (policy.h, "Prefetching"); without one, the call and
 * its loads are not in the loop at all (ops is a constant there).  The
 * last steps of a run, as many as the loop looks ahead, go without, so
 * that the loop needs no test for the end of the trace.
 */
#define LOOP_PREFETCH_AHEAD 8

/*
 * Whether the loop calls the table's prefetch().  Not in WebAssembly: with
 * no prefetch there, what it names could only be requested by real reads,
 * which the CPU must wait for before it retires them (lfu at load 17:
 * wasm/native 0.43 -> 0.36 on zipf, 0.48 -> 0.27 uniform); a policy's own
 * requests are nothing there for the same reason (pl_request_line()).
 */
#ifdef __wasm__
#define LOOP_POLICY_PREFETCH(ops) false
#else
#define LOOP_POLICY_PREFETCH(ops) ((ops)->prefetch != NULL)
#endif

/* How far the loop looks ahead for this table. */
#define LOOP_LOOKAHEAD(ops) (LOOP_POLICY_PREFETCH(ops) ? PL_PREFETCH_FAR : LOOP_PREFETCH_AHEAD)

/* What the policy's prefetch() names for the steps ahead of `step`, requested. */
SIM_STEP void loop_prefetch(const struct pl_policy_ops *ops, const struct loop_locals *l,
			    uint32_t step)
{
	struct pl_prefetch out;

	out.n = 0;
	ops->prefetch(l->state, l->page[step + PL_PREFETCH_FAR], l->page[step + PL_PREFETCH_NEAR],
		      &out);
#pragma GCC unroll 16	/* PL_PREFETCH_MAX: with a constant count, no loop and no array */
	for (unsigned i = 0; i < out.n; i++)
		pl_request_line(out.addr[i], 1);
}

/*
 * Steps [step, end), none of them with a tick; returns the step reached (a
 * failed one, or end; recording, a step whose successor failed to begin
 * counts as done).
 */
SIM_STEP uint32_t loop_span(struct pl_sim *sim, const struct pl_policy_ops *ops,
			    const struct loop_locals *l, uint32_t step, uint32_t end,
			    const bool prefetch, const bool recording, const bool columns,
			    const bool writes)
{
	for (; step < end; step++) {
		struct pl_ref ref = loop_read_ref(l, step, columns, writes);

		if (prefetch) {
			pl_request_line_inside(&l->page_state[l->page[step + LOOP_PREFETCH_AHEAD]], 0);
			if (LOOP_POLICY_PREFETCH(ops))
				loop_prefetch(ops, l, step);
		}
		loop_process(sim, ops, l, &ref, recording, columns, writes);
		if (unlikely(sim->failed))
			break;
		if (recording && unlikely(!loop_begin_recorded_step(sim, l, step + 1)))
			return step + 1;
	}
	return step;
}

/*
 * Does any of the references [from, to) write?  Read four words at a
 * time (a fraction of an instruction per reference): the answer picks the
 * loop for a whole run.
 */
static inline bool loop_writes(const uint8_t *flags, uint32_t from, uint32_t to)
{
	uint64_t any = 0;
	uint32_t i = from;

	for (; to - i >= 4 * sizeof(uint64_t); i += 4 * sizeof(uint64_t)) {
		uint64_t words[4];

		__builtin_memcpy(words, flags + i, sizeof(words));
		any |= words[0] | words[1] | words[2] | words[3];
	}
	for (; i < to; i++)
		any |= flags[i];
	return any != 0;
}

/*
 * Steps from sim->pos to stop: the hot loop of the core, built for each
 * kind of trace recording and not (loop_run()), so that neither tests for
 * the other per reference.  It runs in spans between
 * ticks, so no step tests for one; sim->pos is set when it stops (at the
 * end, or at a failed step).
 */
SIM_STEP void loop_steps(struct pl_sim *sim, const struct pl_policy_ops *ops, uint32_t stop,
			 const bool recording, const bool columns, const bool writes)
{
	struct loop_locals l = loop_locals_of(sim);
	uint32_t step = sim->pos;
	uint32_t prefetch_stop = stop - step > LOOP_LOOKAHEAD(ops) ?
				 stop - LOOP_LOOKAHEAD(ops) : step;

	while (step < stop) {
		uint32_t end;

		if (unlikely(step == sim->next_tick)) {
			struct pl_ref ref = loop_read_ref(&l, step, columns, writes);

			loop_tick(sim, ops, &l, &ref, recording);
			if (unlikely(sim->failed))
				break;
		}
		end = sim->next_tick < stop ? sim->next_tick : stop;
		step = loop_span(sim, ops, &l, step, end < prefetch_stop ? end : prefetch_stop,
				 true, recording, columns, writes);
		if (likely(!sim->failed))
			step = loop_span(sim, ops, &l, step, end, false, recording, columns, writes);
		if (unlikely(sim->failed))
			break;
	}
	sim->pos = step;
}

/*
 * Steps from sim->pos to stop, recording (the browser's mode).  A trace
 * with next_use or pid columns takes a loop that reads them, one without
 * a loop that does not (a tenth of a recorded step's instructions on lru),
 * and, as not recording, one that reads the flags only if a reference of
 * the run writes (fifo's recorded run 193 -> 184 instructions a reference).
 */
SIM_STEP void loop_run_recorded(struct pl_sim *sim, const struct pl_policy_ops *ops,
				uint32_t stop)
{
	if (sim->next_use || sim->trace->pid)
		loop_steps(sim, ops, stop, true, true, true);
	else if (loop_writes(sim->trace->flags, sim->pos, stop))
		loop_steps(sim, ops, stop, true, false, true);
	else
		loop_steps(sim, ops, stop, true, false, false);
}

/*
 * The same not recording: with the columns or without, and without they
 * are read only if a reference in the run writes.
 */
SIM_STEP void loop_run_unrecorded(struct pl_sim *sim, const struct pl_policy_ops *ops,
				  uint32_t stop)
{
	if (sim->next_use || sim->trace->pid)
		loop_steps(sim, ops, stop, false, true, true);
	else if (loop_writes(sim->trace->flags, sim->pos, stop))
		loop_steps(sim, ops, stop, false, false, true);
	else
		loop_steps(sim, ops, stop, false, false, false);
}

/* Either, as the simulation records or not (sim_loop_any()). */
SIM_STEP void loop_run(struct pl_sim *sim, const struct pl_policy_ops *ops, uint32_t stop)
{
	if (sim->recording)
		loop_run_recorded(sim, ops, stop);
	else
		loop_run_unrecorded(sim, ops, stop);
}

/*
 * Defines `void name(struct pl_sim *sim, uint32_t stop)`, the loop `run`
 * (one of the three above) for the table `ops` (an expression, which may
 * read sim).  The registry's units build loop_run_unrecorded() for each
 * table, the recorded units loop_run_recorded() (tools/registry.sh).
 * `flatten` inlines into it whatever the policy's calls call in the same
 * unit, however often the loop's variants call it.  The sanitizer build
 * (the tests' second build) leaves it out: it needs the same code, not the
 * same inlining, and GCC's AddressSanitizer passes over one flattened
 * function of the whole loop took 20x as long (clockpro's recorded unit
 * 24.6 -> 1.1 s of CPU; the sanitizer library from scratch 394 -> 53 s).
 */
#ifdef __SANITIZE_ADDRESS__
#define SIM_LOOP_FLATTEN
#else
#define SIM_LOOP_FLATTEN __attribute__((flatten))
#endif
#define SIM_LOOP(name, run, ops)						\
	sim_loop_fn name;							\
	void SIM_LOOP_FLATTEN name(struct pl_sim *sim, uint32_t stop)		\
	{									\
		run(sim, (ops), stop);						\
	}

#endif /* PAGELAB_SIM_LOOP_H */
