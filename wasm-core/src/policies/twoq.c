/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twoq.c - 2Q, full version (T. Johnson and D. Shasha, "2Q: A Low Overhead
 * High Performance Buffer Management Replacement Algorithm", VLDB 1994,
 * Section 2.1, "the full version").
 *
 * Structure: c = frames, Kin = floor(c * ain_percent / 100),
 * Kout = floor(c * aout_percent / 100).
 *
 *   a1in:  [new ..... old] FIFO of pages seen once --evict--> a1out (ghost)
 *   a1out: [new ..... old] FIFO of their ids (at most Kout) --> forgotten
 *   am:    [recent .. old] LRU of pages referenced again after leaving a1in
 *
 * Transitions (x the referenced page)
 *   hit in am          x to the head of am
 *   hit in a1in        nothing (correlated references do not promote)
 *   fault, x in a1out  x's id leaves a1out (before reclaiming); x to am's head
 *   fault, x new       x to the head of a1in
 *   reclaim            if |A1in| > Kin, a1in's tail goes to a1out's head
 *                      (forgetting a1out's tail when a1out holds Kout ids);
 *                      otherwise am's tail is evicted (a1in's if am is
 *                      empty, which only ain_percent=100 allows)
 *
 * Parameters (defaults: libCacheSim's TwoQ, a_in_size_ratio 0.25 and
 * a_out_size_ratio 0.5, which are the paper's recommended Kin = 25% and
 * Kout = 50% of the buffer)
 *   ain_percent   Kin as a percentage of the frames
 *   aout_percent  Kout as a percentage of the frames
 *
 * Reference: libCacheSim/cache/eviction/TwoQ.c with unit-size pages; its
 * misses are equal on every trace of tests/libcachesim_diff.py, and
 * tests/test_modern.c compares it with a transcription of the paper's
 * pseudocode on thousands of random traces.
 *
 * Lists: a1in, am, a1out (ghost).  Counters: a1out_hits.
 * Cost per reference: O(1).  Beyond lru's work: a hit reads the page's
 * list (a hit in a1in moves nothing, less than lru); a fault takes a ghost
 * out of a1out, evicts a1in's or am's tail and, from a1in, pushes it into
 * a1out and forgets a1out's tail -- pages no recent reference touched, so
 * each fault requests the lines the next one will take from the list it
 * took from (request_tail()); prefetch() names only the far page's record
 * and the near page's neighbours.  A page's links and list are one
 * 12-byte record.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { A1IN, AM, A1OUT, NOWHERE };
enum { PARAM_AIN_PERCENT, PARAM_AOUT_PERCENT };
enum { A1OUT_HITS };

/* A page's whole state in one record: one cache line to touch per page. */
struct twoq_page {
	struct pl_link link;	/* in its list */
	uint8_t where;		/* A1IN, AM, A1OUT or NOWHERE */
};

struct twoq {
	struct pl_ctx *ctx;
	struct twoq_page *page;	/* [npages] */
	struct pl_dlist list[3];
	uint32_t kin, kout;
	bool ghost_hit;		/* the faulting page was in a1out (already removed) */
	uint64_t a1out_hits;
};

static void twoq_destroy(void *state)
{
	struct twoq *q = state;

	if (!q)
		return;
	free(q->page);
	free(q);
}

static void *twoq_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct twoq *q = calloc(1, sizeof(*q));
	size_t n = ctx->npages ? ctx->npages : 1;

	if (!q || !(q->page = calloc(n, sizeof(*q->page)))) {
		twoq_destroy(q);
		snprintf(err->msg, sizeof(err->msg), "twoq: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		q->page[i].where = NOWHERE;
	q->ctx = ctx;
	q->kin = (uint32_t)((uint64_t)ctx->frames * ctx->params[PARAM_AIN_PERCENT] / 100);
	q->kout = (uint32_t)((uint64_t)ctx->frames * ctx->params[PARAM_AOUT_PERCENT] / 100);
	for (int i = 0; i < 3; i++)
		pl_dlist_init(&q->list[i]);
	return q;
}

static inline struct pl_record_links links(const struct twoq *q)
{
	return PL_RECORD_LINKS(q->page, link);
}

/* List l has just lost its tail (pl_rdlist_request_tail(); a1out holds ghosts). */
static void request_tail(const struct twoq *q, unsigned l)
{
	pl_rdlist_request_tail(links(q), &q->list[l], l != A1OUT ? q->ctx : NULL);
}

static void push(struct twoq *q, uint32_t page, unsigned to)
{
	pl_rdlist_push_head(links(q), &q->list[to], page);
	q->page[page].where = (uint8_t)to;
}

static void unlink_page(struct twoq *q, uint32_t page)
{
	pl_rdlist_remove(links(q), &q->list[q->page[page].where], page);
	q->page[page].where = NOWHERE;
}

static void twoq_hit(void *state, const struct pl_ref *ref)
{
	struct twoq *q = state;
	uint32_t x = ref->page;

	if (q->page[x].where != AM || q->list[AM].head == x)
		return;
	unlink_page(q, x);
	push(q, x, AM);
	pl_emit_move(q->ctx, x, AM, AM, 0);
}

/*
 * A fault on a page in a1out takes its id out before anything is evicted
 * (libCacheSim removes it on lookup), so that the page evicted from a1in
 * for it finds that slot free.
 */
static void consume_ghost(struct twoq *q, uint32_t x)
{
	if (q->page[x].where != A1OUT)
		return;
	unlink_page(q, x);
	pl_emit_remove(q->ctx, x, A1OUT);
	q->ghost_hit = true;
	q->a1out_hits++;
}

static void twoq_insert(void *state, const struct pl_ref *ref)
{
	struct twoq *q = state;
	unsigned to;

	consume_ghost(q, ref->page);
	to = q->ghost_hit ? AM : A1IN;
	push(q, ref->page, to);
	pl_emit_insert(q->ctx, ref->page, to, 0);
	q->ghost_hit = false;
}

static unsigned reclaim_from(const struct twoq *q)
{
	/* am can be empty only if Kin = c (ain_percent=100) */
	return q->list[A1IN].len > q->kin || q->list[AM].len == 0 ? A1IN : AM;
}

static uint32_t twoq_victim(const void *state)
{
	const struct twoq *q = state;

	return q->list[reclaim_from(q)].tail;
}

static void twoq_evict(void *state, uint32_t victim)
{
	struct twoq *q = state;
	unsigned from = q->page[victim].where;

	consume_ghost(q, q->ctx->faulting);
	unlink_page(q, victim);
	pl_emit_evict(q->ctx, victim, from);
	request_tail(q, from);
	if (from != A1IN || q->kout == 0)
		return;
	if (q->list[A1OUT].len == q->kout) {
		uint32_t oldest = q->list[A1OUT].tail;

		unlink_page(q, oldest);
		pl_emit_remove(q->ctx, oldest, A1OUT);
		request_tail(q, A1OUT);
	}
	push(q, victim, A1OUT);
	pl_emit_insert(q->ctx, victim, A1OUT, 0);
}

/*
 * References ahead (policy.h, "Prefetching"): the far page's record, and
 * the near page's neighbours, which it leaves on a hit in am or a fault in
 * a1out.  What a fault touches that no recent reference did (the lists'
 * oldest pages) is requested by the faults before, in request_tail().
 */
static void twoq_prefetch(const void *state, uint32_t far, uint32_t near,
			  struct pl_prefetch *out)
{
	const struct twoq *q = state;
	struct pl_link n = q->page[near].link;

	pl_prefetch_record(out, &q->page[far], sizeof(*q->page));
	pl_prefetch(out, &q->page[pl_page_or(n.prev, near)]);
	pl_prefetch(out, &q->page[pl_page_or(n.next, near)]);
}

static void twoq_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct twoq *q = state;

	for (unsigned l = A1IN; l <= A1OUT; l++)
		for (uint32_t p = q->list[l].head; p != PL_NONE; p = q->page[p].link.next)
			pl_snapshot_push(out, l, p, NULL);
}

static void twoq_read_counters(const void *state, uint64_t *counters)
{
	const struct twoq *q = state;

	counters[A1OUT_HITS] = q->a1out_hits;
}

static const struct pl_param twoq_params[] = {
	[PARAM_AIN_PERCENT] = {
		.name = "ain_percent",
		.help = "size Kin of the FIFO a1in, in percent of the frames (libCacheSim: 25)",
		.def = 25, .min = 0, .max = 100,
	},
	[PARAM_AOUT_PERCENT] = {
		.name = "aout_percent",
		.help = "ghost ids a1out keeps (Kout), in percent of the frames (libCacheSim: 50)",
		.def = 50, .min = 0, .max = 400,
	},
};

static const char *const twoq_lists[] = { [A1IN] = "a1in", [AM] = "am", [A1OUT] = "a1out" };
static const char *const twoq_counters[] = { [A1OUT_HITS] = "a1out_hits" };

const struct pl_policy_ops pl_policy_twoq = {
	.name = "twoq",
	.title = "2Q (full version)",
	.help = "New pages wait in a FIFO (a1in); only a page referenced again after leaving it "
		"(found in the ghost FIFO a1out) enters the LRU list am.",
	.params = twoq_params,
	.nparams = 2,
	.lists = twoq_lists,
	.nlists = 3,
	.ghost_lists = 1u << A1OUT,
	.counters = twoq_counters,
	.ncounters = 1,
	.create = twoq_create,
	.destroy = twoq_destroy,
	.hit = twoq_hit,
	.insert = twoq_insert,
	.victim = twoq_victim,
	.evict = twoq_evict,
	.prefetch = twoq_prefetch,
	.snapshot = twoq_snapshot,
	.read_counters = twoq_read_counters,
};
