/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arc.c - ARC, the Adaptive Replacement Cache (N. Megiddo and D. S. Modha,
 * "ARC: A Self-Tuning, Low Overhead Replacement Cache", FAST 2003, Fig. 4).
 *
 * Structure: four LRU lists, most recent at the head; c = frames.
 *
 *        resident (|T1| + |T2| <= c)         history (ghosts, no data)
 *   t1: [new ...........  old] --evict-->  b1: [new ........ old] --> forgotten
 *   t2: [new ...........  old] --evict-->  b2: [new ........ old] --> forgotten
 *        ^ hits in t1 or t2, and faults on a page in b1 or b2, go to t2's head
 *
 *   T1 holds pages seen once recently, T2 pages seen at least twice; B1 and
 *   B2 remember what was evicted from each.  p is the target size of T1: a
 *   fault on a B1 ghost says T1 was too small (p grows), a fault on a B2
 *   ghost says T2 was (p shrinks).
 *
 * Transitions (x the referenced page)
 *   hit in t1 or t2    x to the head of t2
 *   fault, x in b1     p := min(p + max(|B2|/|B1|, 1), c); REPLACE; x to t2's head
 *   fault, x in b2     p := max(p - max(|B1|/|B2|, 1), 0); REPLACE; x to t2's head
 *   fault, x new       if |T1| + |B1| = c: if B1 is not empty, forget B1's
 *                      tail and REPLACE, else evict T1's tail outright;
 *                      otherwise (|T1| + |B1| < c), if the four lists hold
 *                      2c pages forget B2's tail, then REPLACE; x to t1's head
 *   REPLACE            if T1 is not empty and (|T1| > p or (|T1| = p and x
 *                      is in b2)), or T2 is empty: T1's tail to b1's head,
 *                      else T2's tail to b2's head
 *   Evictions happen only when memory is full, as in the paper's Case IV
 *   (which it states for the full cache) and in libCacheSim.
 *
 * p is a real number, as in the paper (the ratios need not be whole): the
 * snapshot shows it as the hand "p" on t1 at position floor(p), the target
 * boundary of T1; the counter p_thousandths gives it to 1/1000.
 *
 * Reference: this is libCacheSim's ARC (libCacheSim/cache/eviction/ARC.c)
 * with unit-size pages, and equals its misses on every trace of
 * tests/libcachesim_diff.py; tests/test_modern.c also compares it with a
 * direct transcription of the paper's pseudocode on thousands of random
 * traces.
 *
 * Parameters: none (ARC has none; that is its point).
 * Lists: t1, t2, b1 (ghost), b2 (ghost).  Hands: p.  Counters:
 * b1_hits, b2_hits (faults on a ghost), p_thousandths.
 * Cost per reference: O(1); the lists share one record per page (its links
 * and list, 12 bytes).  Beyond lru's work: a hit reads the page's list (and
 * moves it between lists as lru moves it within one); a fault evicts t1's
 * or t2's tail into a ghost list and forgets b1's or b2's tail -- pages no
 * recent reference touched, so each fault requests the lines the next one
 * will take from the list it took from (request_tail()) -- and, on a ghost,
 * adapts p (a division).  prefetch() names only the far page's record and
 * the near page's neighbours.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"
#include "adaptive_target.h"

enum { T1, T2, B1, B2, NOWHERE };
enum { HAND_P };
enum { B1_HITS, B2_HITS, P_THOUSANDTHS };

/* A page's whole state in one record: one cache line to touch per page. */
struct arc_page {
	struct pl_link link;	/* in its list */
	uint8_t where;		/* T1 .. B2, or NOWHERE */
};

struct arc {
	struct pl_ctx *ctx;
	struct arc_page *page;	/* [npages] */
	struct pl_dlist list[4];
	double p;		/* target size of T1, 0 <= p <= c */
	uint32_t c;
	bool adapted;		/* p already adapted for the fault in progress */
	uint64_t ghost_hits[2];
};

static void arc_destroy(void *state)
{
	struct arc *a = state;

	if (!a)
		return;
	free(a->page);
	free(a);
}

static void *arc_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct arc *a = calloc(1, sizeof(*a));
	size_t n = ctx->npages ? ctx->npages : 1;

	if (!a || !(a->page = calloc(n, sizeof(*a->page)))) {
		arc_destroy(a);
		snprintf(err->msg, sizeof(err->msg), "arc: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		a->page[i].where = NOWHERE;
	a->ctx = ctx;
	a->c = ctx->frames;
	for (int i = 0; i < 4; i++)
		pl_dlist_init(&a->list[i]);
	return a;
}

static inline struct pl_record_links links(const struct arc *a)
{
	return PL_RECORD_LINKS(a->page, link);
}

/* List l has just lost its tail (pl_rdlist_request_tail(); t1 and t2 hold resident pages). */
static void request_tail(const struct arc *a, unsigned l)
{
	pl_rdlist_request_tail(links(a), &a->list[l], l <= T2 ? a->ctx : NULL);
}

/* Unlinks page from its list and puts it at the head of list `to`. */
static void relink(struct arc *a, uint32_t page, unsigned to)
{
	pl_rdlist_remove(links(a), &a->list[a->page[page].where], page);
	pl_rdlist_push_head(links(a), &a->list[to], page);
	a->page[page].where = (uint8_t)to;
}

/* p as adapted by a fault on x (unchanged unless x is a ghost). */
static double adapted_p(const struct arc *a, uint32_t x)
{
	uint32_t b1 = a->list[B1].len, b2 = a->list[B2].len;

	if (a->adapted)
		return a->p;
	if (a->page[x].where == B1)
		return adaptive_target_grown(a->p, b1, b2, a->c);
	if (a->page[x].where == B2)
		return adaptive_target_shrunk(a->p, b1, b2);
	return a->p;
}

/* REPLACE: the list whose tail goes to its ghost list. */
static unsigned replace_from(const struct arc *a, double p, uint32_t x)
{
	double t1 = a->list[T1].len;

	if ((t1 > 0 && (t1 > p || (t1 == p && a->page[x].where == B2))) || a->list[T2].len == 0)
		return T1;
	return T2;
}

/* What a fault on a page in no list does first: forget a ghost (or not). */
static bool t1_side_full(const struct arc *a)
{
	return a->list[T1].len + a->list[B1].len + 1 > a->c;
}

static uint32_t arc_victim(const void *state)
{
	const struct arc *a = state;
	uint32_t x = a->ctx->faulting;

	if (a->page[x].where == NOWHERE && t1_side_full(a) && a->list[B1].len == 0)
		return a->list[T1].tail;
	return a->list[replace_from(a, adapted_p(a, x), x)].tail;
}

static void forget_tail(struct arc *a, unsigned ghost)
{
	uint32_t page = a->list[ghost].tail;

	pl_rdlist_remove(links(a), &a->list[ghost], page);
	a->page[page].where = NOWHERE;
	pl_emit_remove(a->ctx, page, ghost);
	request_tail(a, ghost);
}

static void evict_to_ghost(struct arc *a, unsigned from)
{
	uint32_t page = a->list[from].tail;
	unsigned ghost = from == T1 ? B1 : B2;

	relink(a, page, ghost);
	pl_emit_evict(a->ctx, page, from);
	pl_emit_insert(a->ctx, page, ghost, 0);
	request_tail(a, from);
}

static void arc_evict(void *state, uint32_t victim)
{
	struct arc *a = state;
	uint32_t x = a->ctx->faulting;

	if (a->page[x].where == B1 || a->page[x].where == B2) {
		adaptive_target_set(a->ctx, HAND_P, &a->p, adapted_p(a, x));
		a->adapted = true;
		a->ghost_hits[a->page[x].where - B1]++;
	} else if (t1_side_full(a)) {
		if (a->list[B1].len == 0) {
			pl_rdlist_remove(links(a), &a->list[T1], victim);
			a->page[victim].where = NOWHERE;
			pl_emit_evict(a->ctx, victim, T1);
			request_tail(a, T1);
			return;
		}
		forget_tail(a, B1);
	} else if (a->list[T1].len + a->list[T2].len + a->list[B1].len + a->list[B2].len >=
		   2 * (uint64_t)a->c && a->list[B2].len) {
		forget_tail(a, B2);
	}
	evict_to_ghost(a, replace_from(a, a->p, x));
}

static void arc_insert(void *state, const struct pl_ref *ref)
{
	struct arc *a = state;
	uint32_t x = ref->page;
	unsigned from = a->page[x].where;

	if (from == B1 || from == B2) {
		if (!a->adapted) {	/* a ghost hit with memory not full */
			adaptive_target_set(a->ctx, HAND_P, &a->p, adapted_p(a, x));
			a->ghost_hits[from - B1]++;
		}
		relink(a, x, T2);
		pl_emit_move(a->ctx, x, from, T2, 0);
	} else {
		pl_rdlist_push_head(links(a), &a->list[T1], x);
		a->page[x].where = T1;
		pl_emit_insert(a->ctx, x, T1, 0);
	}
	a->adapted = false;
}

static void arc_hit(void *state, const struct pl_ref *ref)
{
	struct arc *a = state;
	uint32_t x = ref->page;
	unsigned from = a->page[x].where;

	if (from == T2 && a->list[T2].head == x)
		return;
	relink(a, x, T2);
	pl_emit_move(a->ctx, x, from, T2, 0);
}

/*
 * References ahead (policy.h, "Prefetching"): the far page's record, and
 * the near page's neighbours, which it leaves as it moves to t2's head.
 * What a fault touches that no recent reference did (the lists' oldest
 * pages) is requested by the faults before, in request_tail().
 */
static void arc_prefetch(const void *state, uint32_t far, uint32_t near,
			 struct pl_prefetch *out)
{
	const struct arc *a = state;
	struct pl_link n = a->page[near].link;

	pl_prefetch_record(out, &a->page[far], sizeof(*a->page));
	pl_prefetch(out, &a->page[pl_page_or(n.prev, near)]);
	pl_prefetch(out, &a->page[pl_page_or(n.next, near)]);
}

static void arc_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct arc *a = state;

	for (unsigned l = T1; l <= B2; l++)
		for (uint32_t p = a->list[l].head; p != PL_NONE; p = a->page[p].link.next)
			pl_snapshot_push(out, l, p, NULL);
	pl_snapshot_set_hand(out, HAND_P, (int32_t)a->p);
}

static void arc_read_counters(const void *state, uint64_t *counters)
{
	const struct arc *a = state;

	counters[B1_HITS] = a->ghost_hits[0];
	counters[B2_HITS] = a->ghost_hits[1];
	counters[P_THOUSANDTHS] = (uint64_t)(a->p * 1000 + 0.5);
}

static const char *const arc_lists[] = { [T1] = "t1", [T2] = "t2", [B1] = "b1", [B2] = "b2" };
static const char *const arc_hands[] = { [HAND_P] = "p" };
static const unsigned arc_hand_lists[] = { [HAND_P] = T1 };
static const char *const arc_counters[] = {
	[B1_HITS] = "b1_hits", [B2_HITS] = "b2_hits", [P_THOUSANDTHS] = "p_thousandths",
};

const struct pl_policy_ops pl_policy_arc = {
	.name = "arc",
	.title = "ARC (Adaptive Replacement Cache)",
	.help = "LRU lists for pages seen once (t1) and twice (t2) plus ghost lists of what "
		"each evicted; faults on a ghost move the target size p of t1.",
	.lists = arc_lists,
	.nlists = 4,
	.ghost_lists = 1u << B1 | 1u << B2,
	.hands = arc_hands,
	.hand_lists = arc_hand_lists,
	.nhands = 1,
	.counters = arc_counters,
	.ncounters = 3,
	.create = arc_create,
	.destroy = arc_destroy,
	.hit = arc_hit,
	.insert = arc_insert,
	.victim = arc_victim,
	.evict = arc_evict,
	.prefetch = arc_prefetch,
	.snapshot = arc_snapshot,
	.read_counters = arc_read_counters,
};
