/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy.h - what a replacement policy implements, and the calls it makes
 * back into the driver.
 *
 * A policy is one file in src/policies/ whose only non-static symbols are
 * ops tables named pl_policy_<name> (normally one; a family of variants that
 * share all their code, such as SRRIP and BRRIP, may export one each).  The
 * build finds them by that name and registers them: adding a policy never
 * touches the driver, the CLI or the web page.
 *
 * Division of labour
 *   The driver owns the trace, residency, dirty bits, statistics, the event
 *   log and the decision *when* to evict.  The policy owns its structure and
 *   every decision *what* to evict and how its lists and fields change.
 *
 *   On each reference the driver calls:
 *     tick()                   every tick_period references (if set), first;
 *     victim() / evict(v)      expire_goal(ref) times at a tick, if the
 *                              policy has one (a variable-space policy,
 *                              whose resident set shrinks on hits too);
 *     hit(page)                if the page is resident, else
 *     victim() / evict(v)      reclaim_goal() times (default: 1 if full), then
 *     insert(page)             to bring the page in.
 *
 *   victim() is a peek: it names the page evict() would remove now and must
 *   not change anything (not even a hand).  evict(v) then performs all the
 *   changes on the way to removing v (clearing bits as a hand sweeps,
 *   rotating, demoting) and removes it.
 *
 * Events
 *   The driver emits HIT, MISS and VICTIM.  The policy reports each change of
 *   its structure through the pl_emit_*() calls below, at the moment it makes
 *   it, and in the order it makes them; they are cheap when nothing records.
 *   A page enters memory only through pl_emit_insert() (or pl_emit_move()
 *   out of a ghost list) and leaves only through pl_emit_evict(): that is how
 *   the driver tracks residency, writes back dirty pages and counts.
 *   The events must describe the structure completely: replaying them must
 *   give what snapshot() reports (tested for every policy on random traces).
 *
 * Memory
 *   The trace is known when the policy is created, so per-page state is a
 *   plain array of ctx->npages entries indexed by dense page id.
 *
 * Prefetching
 *   On a long trace most pages' state is far from the CPU, and the first
 *   touch of the referenced page's record is a cache miss that the
 *   hundreds of instructions of a step keep the CPU from reaching early.
 *   The trace is known, so the driver can say which pages come next: a
 *   policy with a prefetch() is called before each step, when not
 *   recording, with the page referenced PL_PREFETCH_FAR steps later and
 *   the one PL_PREFETCH_NEAR steps later, and names the addresses the
 *   driver should request: the far page's record (pl_prefetch_record());
 *   by the time that page is near, the record has arrived and can be read
 *   to name what it points to (list neighbours, sketch counters).  A hint
 *   only: it must not change anything, and what it reads may have changed
 *   by the time the reference comes (the requests are then wasted, nothing
 *   worse).  It costs instructions on every step, so it names few
 *   addresses, and as many on every call (a missing neighbour replaced by
 *   a page already near): the driver's requests then compile to straight
 *   code.  Without a prefetch() the driver's loop has no trace of the call,
 *   nor in WebAssembly, which has no prefetch (pl_request_line()).
 */
#ifndef PAGELAB_POLICY_H
#define PAGELAB_POLICY_H

#include "pagelab.h"

/* What the driver tells the policy about the reference being processed. */
struct pl_ref {
	uint32_t page;		/* dense page id */
	uint32_t step;		/* index in the trace */
	uint32_t next_use;	/* next step referencing this page, PL_NONE if never;
				 * computed only for policies with PL_POLICY_FUTURE */
	uint8_t flags;		/* enum pl_ref_flags */
	uint32_t pid;		/* 0 if the trace has none */
};

/* A page's residency as the driver keeps it (struct pl_ctx.page_state). */
enum pl_page_state {
	PL_PAGE_RESIDENT = 1 << 0,
	PL_PAGE_DIRTY = 1 << 1,		/* written since it entered: a writeback on eviction */
};

/* The driver-side handle a policy keeps; see sim.c. */
struct pl_ctx {
	uint32_t frames;	/* page frames available */
	uint32_t npages;	/* distinct pages in the trace */
	uint32_t tick_period;	/* set by create() to get tick() every N refs */
	const int64_t *params;	/* [PL_MAX_PARAMS], validated against the ranges */
	const uint64_t *vtime;	/* the trace's times, or NULL: read with pl_time() */
	const uint64_t *number;	/* [npages] the input page number of each dense id
				 * (policies that hash pages, like W-TinyLFU's
				 * sketch, hash these, as libCacheSim hashes ids) */
	struct pl_sim *sim;	/* for the emit functions */
	uint32_t faulting;	/* the page a miss is bringing in, set before
				 * that miss's reclaim_goal(), victim() and
				 * evict() and kept through insert(): adaptive
				 * policies (ARC, CAR, 2Q) pick the victim by
				 * the ghost list the faulting page is in */
	/* Set by the driver, read by the inline emit calls below: */
	bool recording;		/* events are being kept */
	/*
	 * Residency, owned by the driver and updated only by the inline emit
	 * calls below (a policy reads it through pl_resident(), nothing more):
	 * they are on every fault, so their common case is a few instructions
	 * here rather than a call.
	 */
	uint8_t *page_state;	/* [npages] enum pl_page_state */
	uint32_t nresident;	/* pages resident */
	uint64_t entering;	/* the page insert() is bringing in, else PL_CTX_NONE */
	uint64_t leaving;	/* the victim evict() is removing, else PL_CTX_NONE */
	uint32_t resident_lists;	/* bit i: list i is declared and not a ghost list */
	uint32_t ghost_lists;		/* bit i: list i is declared and a ghost list */
	uint64_t writebacks;	/* dirty pages evicted */
};

/*
 * ctx.entering and ctx.leaving outside insert() and evict(): wider than a
 * page id, so that no page, not even PL_NONE, equals it and one compare
 * checks a page against them.
 */
#define PL_CTX_NONE UINT64_MAX

enum pl_policy_flags {
	PL_POLICY_FUTURE = 1 << 0,	/* needs pl_ref.next_use (OPT) */
	PL_POLICY_VARIABLE_SPACE = 1 << 1,	/* sizes its own resident set (WS, PFF):
						 * frames is only an upper bound */
	/*
	 * Touches the per-page state of referenced pages only: create()
	 * allocates its [npages] arrays without writing them (malloc, or
	 * calloc's untouched zeros), nothing walks them by npages and
	 * nothing else is sized by it (lruk's history log is), so
	 * ctx->npages may be a bound far above the pages there are (a text
	 * file streamed before its pages are counted, input.c) and memory
	 * still grows with the pages seen.  test_sparse.c holds every policy
	 * that says so to it.
	 */
	PL_POLICY_SPARSE = 1 << 2,
};

struct pl_prefetch;

struct pl_policy_ops {
	const char *name;	/* CLI name, lower case: "lru", "linux", "srrip" */
	const char *title;	/* "Least Recently Used" */
	const char *help;	/* one or two sentences for `pagelab list` and the UI */
	unsigned flags;		/* enum pl_policy_flags */

	const struct pl_param *params;
	unsigned nparams;
	const char *const *lists;	/* list names, e.g. "inactive_file" */
	unsigned nlists;
	unsigned ghost_lists;		/* bit i set: list i holds non-resident history */
	const char *const *fields;	/* per-page field names, e.g. "referenced" */
	unsigned nfields;
	const char *const *hands;	/* hand names, e.g. "hand" */
	const unsigned *hand_lists;	/* the list each hand points into */
	unsigned nhands;
	const char *const *counters;	/* policy counter names, e.g. "pgactivate" */
	unsigned ncounters;
	const char *const *variables;	/* policy-wide values in the snapshot, e.g. "w_lru" */
	unsigned nvariables;

	/* Allocates the state; NULL on failure (with err filled). */
	void *(*create)(struct pl_ctx *ctx, struct pl_error *err);
	void (*destroy)(void *state);

	void (*hit)(void *state, const struct pl_ref *ref);
	void (*insert)(void *state, const struct pl_ref *ref);
	uint32_t (*victim)(const void *state);
	void (*evict)(void *state, uint32_t victim);

	/* Optional. How many pages to evict before inserting into `resident`
	 * of ctx->frames pages; NULL means 1 when full, else 0. */
	uint32_t (*reclaim_goal)(const void *state, uint32_t resident);
	/* Optional. Periodic work every ctx->tick_period references. */
	void (*tick)(void *state, uint32_t step);
	/* Optional, for variable-space policies (WS): how many pages leave
	 * memory at a tick, before the reference `ref` is looked up, whether
	 * or not it faults; the driver evicts them with victim()/evict().
	 * Asked at every tick (so a policy wanting it on every reference sets
	 * tick_period = 1, with or without a tick()); NULL means none. */
	uint32_t (*expire_goal)(const void *state, const struct pl_ref *ref);

	/*
	 * Optional, for speed only: a look at references to come (see
	 * "Prefetching" above).  `far` is the page referenced
	 * PL_PREFETCH_FAR steps after the one about to be processed, `near`
	 * the one PL_PREFETCH_NEAR steps after it (the far page of an
	 * earlier call).  It may read the state and name addresses with
	 * pl_prefetch(), nothing else; the driver requests them.
	 */
	void (*prefetch)(const void *state, uint32_t far, uint32_t near, struct pl_prefetch *out);

	/* Reports the structure: pl_snapshot_push() list by list, in order. */
	void (*snapshot)(const void *state, struct pl_snapshot *out);
	/* Optional. Fills counters[0 .. ncounters-1]. */
	void (*read_counters)(const void *state, uint64_t *counters);
};

/* ------------------------------------------------- calls into the driver */

/*
 * Is the simulation keeping its events?  Read here rather than as
 * ctx->recording: the build compiles every policy file twice
 * (tools/registry.sh), once for the loops that do not record, where this
 * is ctx->recording, and once more for the recorded loop alone
 * (PL_RECORDED_UNIT), where it is the constant true, so that neither loop
 * carries the other's code.  There the events are also appended inline
 * (sim_loop.h's sim_record_*(), whose uncommon cases call the
 * pl_record_*() below) instead of through a call per event into sim.c.
 */
static inline bool pl_recording(const struct pl_ctx *ctx)
{
#ifdef PL_RECORDED_UNIT
	(void)ctx;
	return true;
#else
	return ctx->recording;
#endif
}

#ifdef PL_RECORDED_UNIT
/*
 * Defined in sim_loop.h, which the recorded unit includes after the
 * policy.  All are always inline there, the pl_emit_*() too (PL_EMIT):
 * with an append in each they pass gcc's size limits, which the loop's
 * `flatten` did not lift (fifo's insert and evict stayed calls).
 */
#define PL_EMIT static inline __attribute__((always_inline))
PL_EMIT void sim_record_insert(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos);
PL_EMIT void sim_record_evict(struct pl_ctx *ctx, uint32_t page, unsigned list, bool dirty);
PL_EMIT void sim_record_move(struct pl_ctx *ctx, uint32_t page, unsigned from, unsigned to,
			     uint32_t pos);
PL_EMIT void sim_record_set(struct pl_ctx *ctx, uint32_t page, unsigned field, int32_t from,
			    int32_t to);
PL_EMIT void sim_record_hand(struct pl_ctx *ctx, unsigned hand, uint32_t from, uint32_t to);
PL_EMIT void sim_record_variable(struct pl_ctx *ctx, unsigned variable, int32_t from,
				 int32_t to);
#define PL_RECORD(event) sim_record_##event
#else
#define PL_EMIT static inline
#define PL_RECORD(event) pl_record_##event
#endif

/*
 * INSERT and EVICT of resident pages run on every fault.  Their common case
 * - the page insert() is bringing in enters a declared resident list, or
 * the victim evict() is removing leaves one and was resident - is inline:
 * a few compares and the residency update; so is a ghost list's INSERT or
 * REMOVE when nothing records (history only: nothing the driver tracks).
 * Everything else (a broken rule, recording) goes to the driver's
 * pl_*_other() / pl_record_*(), which check every rule and report a broken
 * one (sim.c).  Policies call pl_emit_*(), never those directly.
 */
void pl_insert_other(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos);
void pl_evict_other(struct pl_ctx *ctx, uint32_t page, unsigned list);
void pl_remove_other(struct pl_ctx *ctx, uint32_t page, unsigned list);
void pl_record_insert(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos);
void pl_record_evict(struct pl_ctx *ctx, uint32_t page, unsigned list, bool dirty);

/* Is list a declared list of resident pages?  (Folds away for a constant list.) */
static inline bool pl_resident_list(const struct pl_ctx *ctx, unsigned list)
{
	return list < PL_MAX_LISTS && (ctx->resident_lists >> list & 1);
}

/* A ghost list's INSERT or REMOVE that the driver need not see. */
static inline bool pl_untracked_ghost(const struct pl_ctx *ctx, uint32_t page, unsigned list)
{
	return list < PL_MAX_LISTS && (ctx->ghost_lists >> list & 1) && page < ctx->npages &&
	       !pl_recording(ctx);
}

PL_EMIT void pl_emit_insert(struct pl_ctx *ctx, uint32_t page, unsigned list, uint32_t pos)
{
	if (__builtin_expect(page != ctx->entering || !pl_resident_list(ctx, list), 0)) {
		if (!pl_untracked_ghost(ctx, page, list))
			pl_insert_other(ctx, page, list, pos);
		return;
	}
	ctx->page_state[page] = PL_PAGE_RESIDENT;
	ctx->nresident++;
	ctx->entering = PL_CTX_NONE;	/* one page per insert(), once */
	if (__builtin_expect(pl_recording(ctx), 0))
		PL_RECORD(insert)(ctx, page, list, pos);
}

PL_EMIT void pl_emit_remove(struct pl_ctx *ctx, uint32_t page, unsigned list)
{
	if (!pl_untracked_ghost(ctx, page, list))
		pl_remove_other(ctx, page, list);
}

PL_EMIT void pl_emit_evict(struct pl_ctx *ctx, uint32_t page, unsigned list)
{
	uint8_t state;

	if (__builtin_expect(page != ctx->leaving || !pl_resident_list(ctx, list), 0)) {
		pl_evict_other(ctx, page, list);
		return;
	}
	state = ctx->page_state[page];
	if (__builtin_expect(!(state & PL_PAGE_RESIDENT), 0)) {
		pl_evict_other(ctx, page, list);
		return;
	}
	ctx->page_state[page] = 0;
	ctx->nresident--;
	ctx->leaving = PL_CTX_NONE;	/* only the victim, only once */
	ctx->writebacks += (state & PL_PAGE_DIRTY) != 0;
	if (__builtin_expect(pl_recording(ctx), 0))
		PL_RECORD(evict)(ctx, page, list, state & PL_PAGE_DIRTY);
}

/*
 * MOVE, SET and HAND change nothing the driver tracks unless a move
 * crosses between a ghost list and a resident one (or names a list that
 * does not exist), so when nothing records they cost a test or two inline
 * (a CLOCK sweep or an RRIP aging round emits one per frame passed).  The index checks on them therefore run only while
 * recording, as in the invariant tests.  Policies call pl_emit_*(), never
 * pl_record_*() directly.
 */
void pl_record_move(struct pl_ctx *ctx, uint32_t page, unsigned from, unsigned to, uint32_t pos);
void pl_record_set(struct pl_ctx *ctx, uint32_t page, unsigned field, int32_t from, int32_t to);
void pl_record_hand(struct pl_ctx *ctx, unsigned hand, uint32_t from, uint32_t to);
void pl_record_variable(struct pl_ctx *ctx, unsigned variable, int32_t from, int32_t to);

PL_EMIT void pl_emit_move(struct pl_ctx *ctx, uint32_t page, unsigned from, unsigned to,
			  uint32_t pos)
{
	if (pl_recording(ctx))
		PL_RECORD(move)(ctx, page, from, to, pos);
	else if (ctx->ghost_lists && pl_resident_list(ctx, from) != pl_resident_list(ctx, to))
		pl_record_move(ctx, page, from, to, pos);
}

PL_EMIT void pl_emit_set(struct pl_ctx *ctx, uint32_t page, unsigned field, int32_t from,
			 int32_t to)
{
	if (pl_recording(ctx))
		PL_RECORD(set)(ctx, page, field, from, to);
}

PL_EMIT void pl_emit_hand(struct pl_ctx *ctx, unsigned hand, uint32_t from, uint32_t to)
{
	if (pl_recording(ctx))
		PL_RECORD(hand)(ctx, hand, from, to);
}

PL_EMIT void pl_emit_variable(struct pl_ctx *ctx, unsigned variable, int32_t from,
			      int32_t to)
{
	if (pl_recording(ctx))
		PL_RECORD(variable)(ctx, variable, from, to);
}

/*
 * The time of reference `step`: the trace's time column if it has one
 * (never decreasing; a pause is a gap), else the step itself.
 */
static inline uint64_t pl_time(const struct pl_ctx *ctx, uint32_t step)
{
	return ctx->vtime ? ctx->vtime[step] : step;
}

/* Is the page resident?  (Driver state: policies may ask, never change it.) */
static inline bool pl_resident(const struct pl_ctx *ctx, uint32_t page)
{
	return ctx->page_state[page] & PL_PAGE_RESIDENT;
}

/*
 * How far ahead prefetch() looks, in steps (see "Prefetching"): far
 * enough that a request made at PL_PREFETCH_FAR has arrived by
 * PL_PREFETCH_NEAR, and one made there by the step itself.
 */
#define PL_PREFETCH_NEAR 8
#define PL_PREFETCH_FAR 16

/*
 * The addresses prefetch() names, which the driver then requests: a
 * __builtin_prefetch() inside prefetch() would not do, as a function that
 * only reads and prefetches counts as free of side effects, and the
 * compiler drops the call.  (pl_prefetch_state() below is for code that
 * changes state anyway, such as a hand's sweep.)
 */
#define PL_PREFETCH_MAX 16

struct pl_prefetch {
	const void *addr[PL_PREFETCH_MAX];
	unsigned n;
};

/* The line holding *p is wanted soon (names beyond PL_PREFETCH_MAX are ignored). */
static inline void pl_prefetch(struct pl_prefetch *out, const void *p)
{
	if (out->n < PL_PREFETCH_MAX)
		out->addr[out->n++] = p;
}

/* The lines of a record of `size` bytes at p: its first and its last. */
static inline void pl_prefetch_record(struct pl_prefetch *out, const void *p, size_t size)
{
	pl_prefetch(out, p);
	pl_prefetch(out, (const char *)p + size - 1);
}

/*
 * p, or `instead` if p is PL_NONE: a page to name without a branch.  A
 * prefetch() that names a list's tail or a page's neighbour puts the near
 * page (already near) where there is none, so that every call names as
 * many addresses and the driver's requests need no loop.
 */
static inline uint32_t pl_page_or(uint32_t p, uint32_t instead)
{
	return p != PL_NONE ? p : instead;
}

/*
 * Requests the line holding the byte at p, to be read (write 0) or written
 * (write 1) soon: the one way the core asks for memory ahead.  Natively a
 * prefetch, which may name any address (a hint read from a record not yet
 * initialised, say).  WebAssembly has no prefetch (emscripten drops
 * __builtin_prefetch), and there a policy's requests are nothing: read
 * for real (with a memory.size test, since an address outside the
 * module's memory would trap) they cost more than they saved, as the
 * loop's calls of prefetch() did in session 7 (session 13, wasm --rates,
 * two alternating rounds, zipf / uniform medians: clock 60.7 / 40.1 ->
 * 65.2 / 46.5 M/s, aging 44.8 / 27.2 -> 48.1 / 32.3, linux 9.8 / 4.1 ->
 * 10.7 / 4.7; lru 68 / 47 -> 63 / 49, within its noise).
 *
 * pl_request_line_inside() is the driver's request, once a step, of an
 * address inside memory the core allocated (an array's element at an
 * index checked when the trace was built).  In WebAssembly it is a read
 * of the byte whose value nobody waits for, with no test: the line is on
 * its way as a prefetch's would be (wasm fifo zipf 98 -> 107 M/s, lru
 * 63 -> 71 against the read with the test; 100 and 60 with none).
 */
#ifdef __wasm__
static inline void pl_request_line_inside(const void *p, int write)
{
	(void)write;
	(void)*(const volatile uint8_t *)p;
}
#define pl_request_line(p, write) ((void)(p))
#else
#define pl_request_line(p, write) __builtin_prefetch((p), (write))
#define pl_request_line_inside(p, write) __builtin_prefetch((p), (write))
#endif

/*
 * Asks for the page's residency byte: a policy that knows its next
 * victims (a hand's next slots) calls it ahead, so that evicting one,
 * whose residency the driver reads, does not wait for memory.  A hint
 * only: it changes nothing.
 */
static inline void pl_prefetch_state(const struct pl_ctx *ctx, uint32_t page)
{
	pl_request_line(&ctx->page_state[page], 0);
}

/*
 * Asks for the lines of a record of `size` bytes at p, its first and its
 * last, to be written soon: a record the next fault will change, requested
 * by the fault before (as pl_prefetch_record() names one for prefetch()).
 */
static inline void pl_request_record(const void *p, size_t size)
{
	pl_request_line(p, 1);
	pl_request_line((const char *)p + size - 1, 1);
}

/* Snapshot building: entries must be pushed grouped by list, lists ascending. */
int pl_snapshot_push(struct pl_snapshot *s, unsigned list, uint32_t page, const int32_t *values);
void pl_snapshot_set_hand(struct pl_snapshot *s, unsigned hand, int32_t pos);
void pl_snapshot_set_variable(struct pl_snapshot *s, unsigned variable, int32_t value);

#endif /* PAGELAB_POLICY_H */
