/* SPDX-License-Identifier: GPL-2.0 */
/*
 * car.c - CAR, Clock with Adaptive Replacement (S. Bansal and D. S. Modha,
 * "CAR: Clock with Adaptive Replacement", FAST 2004, Fig. 2).
 *
 * ARC's idea on two clocks: resident pages carry a reference bit, as in
 * CLOCK, so a hit only sets a bit (no list is touched, no lock in a real
 * kernel); the ghost lists B1 and B2 and the target p adapt as in ARC.
 *
 *   t1 clock (recency):   hand -> [head ........... tail] (new pages enter at the tail)
 *                                   | ref = 1: to t2's tail, ref := 0
 *                                   | ref = 0: evicted to b1's head
 *   t2 clock (frequency): hand -> [head ........... tail]
 *                                   | ref = 1: to t2's tail, ref := 0
 *                                   | ref = 0: evicted to b2's head
 *   b1, b2 (ghosts, LRU): [most recent .... least recent] --> forgotten
 *
 * Each clock is shown from its hand: the head is the page the hand looks
 * at next, the tail the page just behind it.
 *
 * Transitions (x the referenced page, c = frames)
 *   hit                 referenced(x) := 1
 *   fault, full         REPLACE; then, if x is in no ghost list, forget
 *                       b1's LRU page when |T1| + |B1| = c, else b2's when
 *                       the four lists hold 2c pages
 *   fault, x new        x to t1's tail, referenced 0
 *   fault, x in b1      p := min(p + max(1, |B2|/|B1|), c); x to t2's tail
 *   fault, x in b2      p := max(p - max(1, |B1|/|B2|), 0); x to t2's tail
 *   REPLACE             repeat: if |T1| >= max(1, p), look at t1's head:
 *                       referenced 0, evict it to b1; else clear the bit
 *                       and move it to t2's tail.  Otherwise look at t2's
 *                       head: referenced 0, evict it to b2; else clear the
 *                       bit and move it to t2's tail.  Until one is evicted.
 *
 * p is real, as in the paper; the hand "p" on t1 shows floor(p) and the
 * counter p_thousandths its value to 1/1000.
 *
 * libCacheSim has no CAR; tests/test_modern.c compares this file with a
 * transcription of the paper's Fig. 2 on thousands of random traces.
 *
 * Parameters: none.  Lists: t1, t2, b1 (ghost), b2 (ghost).
 * Fields: referenced.  Hands: p.  Counters: b1_hits, b2_hits,
 * p_thousandths.
 * Cost per reference: O(1) per hit; O(1) amortized per fault (each page
 * the hands pass had its bit set by a hit, or leaves t1 for good).
 * Beyond lru's work: a hit sets a byte where lru moves the page to a
 * list's head (less); a fault reads the hand's page at t1's (or t2's)
 * head, moves referenced ones to t2's tail, demotes the victim to a ghost
 * list's head and forgets a ghost list's oldest page -- pages no recent
 * reference touched, so each fault requests the lines the next one will
 * touch (request_hands()); prefetch() names only the far page's record and
 * the near page's neighbours.  A page's links, list and bit are one
 * 12-byte record.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"
#include "adaptive_target.h"

enum { T1, T2, B1, B2, NOWHERE };
enum { REFERENCED };
enum { HAND_P };
enum { B1_HITS, B2_HITS, P_THOUSANDTHS };

/* A page's whole state in one record: one cache line to touch per page. */
struct car_page {
	struct pl_link link;	/* in its list */
	uint8_t where;		/* T1 .. B2, or NOWHERE */
	uint8_t ref;		/* reference bit */
};

struct car {
	struct pl_ctx *ctx;
	struct car_page *page;	/* [npages] */
	struct pl_dlist list[4];
	double p;
	uint32_t c;
	bool replaced;		/* REPLACE ran for the fault in progress */
	uint64_t ghost_hits[2];
};

static void car_destroy(void *state)
{
	struct car *a = state;

	if (!a)
		return;
	free(a->page);
	free(a);
}

static void *car_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct car *a = calloc(1, sizeof(*a));
	size_t n = ctx->npages ? ctx->npages : 1;

	if (!a || !(a->page = calloc(n, sizeof(*a->page)))) {
		car_destroy(a);
		snprintf(err->msg, sizeof(err->msg), "car: out of memory");
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

static inline struct pl_record_links links(const struct car *a)
{
	return PL_RECORD_LINKS(a->page, link);
}

static void set_ref(struct car *a, uint32_t page, uint8_t bit)
{
	if (a->page[page].ref == bit)
		return;
	pl_emit_set(a->ctx, page, REFERENCED, a->page[page].ref, bit);
	a->page[page].ref = bit;
}

/* Moves a page (resident or ghost) to the tail of t2. */
static void to_t2_tail(struct car *a, uint32_t page)
{
	unsigned from = a->page[page].where;

	pl_rdlist_remove(links(a), &a->list[from], page);
	pl_rdlist_push_tail(links(a), &a->list[T2], page);
	a->page[page].where = T2;
	pl_emit_move(a->ctx, page, from, T2, a->list[T2].len - 1);
}

/* REPLACE looks at t1 while |T1| >= max(1, p). */
static bool t1_turn(const struct car *a, uint32_t t1_len)
{
	return t1_len >= 1 && t1_len >= a->p;
}

/*
 * REPLACE's victim without changing anything.  While it is t1's turn the
 * hand passes referenced t1 pages (each leaves t1, so |T1| shrinks); then
 * t2's hand meets t2's pages, then the pages t1 sent behind them (bits
 * clear).  Once t1's turn ends it does not come back within one REPLACE.
 */
static uint32_t car_victim(const void *state)
{
	const struct car *a = state;
	uint32_t t1_len = a->list[T1].len;
	uint32_t p = a->list[T1].head, first_moved = PL_NONE;

	for (; t1_turn(a, t1_len); p = a->page[p].link.next, t1_len--) {
		if (!a->page[p].ref)
			return p;
		if (first_moved == PL_NONE)
			first_moved = p;
	}
	for (p = a->list[T2].head; p != PL_NONE; p = a->page[p].link.next)
		if (!a->page[p].ref)
			return p;
	return first_moved != PL_NONE ? first_moved : a->list[T2].head;
}

static void demote(struct car *a, unsigned from)
{
	uint32_t page = a->list[from].head;
	unsigned ghost = from == T1 ? B1 : B2;

	pl_rdlist_remove(links(a), &a->list[from], page);
	pl_emit_evict(a->ctx, page, from);
	a->page[page].ref = 0;
	pl_rdlist_push_head(links(a), &a->list[ghost], page);
	a->page[page].where = (uint8_t)ghost;
	pl_emit_insert(a->ctx, page, ghost, 0);
}

static void car_evict(void *state, uint32_t victim)
{
	struct car *a = state;

	for (;;) {
		unsigned from = t1_turn(a, a->list[T1].len) ? T1 : T2;
		uint32_t head = a->list[from].head;

		if (!a->page[head].ref) {
			demote(a, from);
			break;
		}
		set_ref(a, head, 0);
		to_t2_tail(a, head);
	}
	a->replaced = true;
}

static void forget_lru(struct car *a, unsigned ghost)
{
	uint32_t page = a->list[ghost].tail;

	if (page == PL_NONE)
		return;
	pl_rdlist_remove(links(a), &a->list[ghost], page);
	a->page[page].where = NOWHERE;
	pl_emit_remove(a->ctx, page, ghost);
}

/*
 * What the next fault touches that no recent reference did, requested as
 * this one ends (a hit only sets a bit, so only faults move the hands and
 * the ghosts' tails): the pages at the hands (t1's head and the one after
 * it, t2's head) with their residency bytes, which the driver reads on
 * eviction, and the neighbour that becomes b1's and b2's tail as their
 * oldest page is forgotten.  t1's head and the ghosts' oldest pages were
 * requested as such neighbours before, or touched by this fault.
 */
static void request_hands(const struct car *a)
{
	uint32_t t1 = a->list[T1].head, t2 = a->list[T2].head;

	if (t1 != PL_NONE) {
		pl_prefetch_state(a->ctx, t1);
		pl_request_line(&a->page[pl_page_or(a->page[t1].link.next, t1)], 1);
	}
	if (t2 != PL_NONE) {
		pl_request_line(&a->page[t2], 1);
		pl_prefetch_state(a->ctx, t2);
	}
	pl_rdlist_request_tail(links(a), &a->list[B1], NULL);
	pl_rdlist_request_tail(links(a), &a->list[B2], NULL);
}

static void car_insert(void *state, const struct pl_ref *ref)
{
	struct car *a = state;
	uint32_t x = ref->page;
	unsigned from = a->page[x].where;
	uint32_t b1 = a->list[B1].len, b2 = a->list[B2].len;

	if (a->replaced && from == NOWHERE) {
		if (a->list[T1].len + b1 == a->c)
			forget_lru(a, B1);
		else if (a->list[T1].len + a->list[T2].len + b1 + b2 == 2 * (uint64_t)a->c)
			forget_lru(a, B2);
	}
	a->replaced = false;
	if (from == B1) {
		adaptive_target_set(a->ctx, HAND_P, &a->p,
				    adaptive_target_grown(a->p, b1, b2, a->c));
		a->ghost_hits[0]++;
		to_t2_tail(a, x);
	} else if (from == B2) {
		adaptive_target_set(a->ctx, HAND_P, &a->p, adaptive_target_shrunk(a->p, b1, b2));
		a->ghost_hits[1]++;
		to_t2_tail(a, x);
	} else {
		pl_rdlist_push_tail(links(a), &a->list[T1], x);
		a->page[x].where = T1;
		pl_emit_insert(a->ctx, x, T1, a->list[T1].len - 1);
	}
	request_hands(a);
}

static void car_hit(void *state, const struct pl_ref *ref)
{
	struct car *a = state;

	set_ref(a, ref->page, 1);
}

/*
 * References ahead (policy.h, "Prefetching"): the far page's record, and
 * the near page's neighbours, which it leaves if it is a ghost that
 * faults.  What a fault touches that no recent reference did (the pages at
 * the hands, the ghosts' oldest) is requested by the fault before, in
 * request_hands().
 */
static void car_prefetch(const void *state, uint32_t far, uint32_t near,
			 struct pl_prefetch *out)
{
	const struct car *a = state;
	struct pl_link n = a->page[near].link;

	pl_prefetch_record(out, &a->page[far], sizeof(*a->page));
	pl_prefetch(out, &a->page[pl_page_or(n.prev, near)]);
	pl_prefetch(out, &a->page[pl_page_or(n.next, near)]);
}

static void car_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct car *a = state;

	for (unsigned l = T1; l <= B2; l++) {
		for (uint32_t p = a->list[l].head; p != PL_NONE; p = a->page[p].link.next) {
			int32_t referenced = a->page[p].ref;

			pl_snapshot_push(out, l, p, &referenced);
		}
	}
	pl_snapshot_set_hand(out, HAND_P, (int32_t)a->p);
}

static void car_read_counters(const void *state, uint64_t *counters)
{
	const struct car *a = state;

	counters[B1_HITS] = a->ghost_hits[0];
	counters[B2_HITS] = a->ghost_hits[1];
	counters[P_THOUSANDTHS] = (uint64_t)(a->p * 1000 + 0.5);
}

static const char *const car_lists[] = { [T1] = "t1", [T2] = "t2", [B1] = "b1", [B2] = "b2" };
static const char *const car_fields[] = { [REFERENCED] = "referenced" };
static const char *const car_hands[] = { [HAND_P] = "p" };
static const unsigned car_hand_lists[] = { [HAND_P] = T1 };
static const char *const car_counters[] = {
	[B1_HITS] = "b1_hits", [B2_HITS] = "b2_hits", [P_THOUSANDTHS] = "p_thousandths",
};

const struct pl_policy_ops pl_policy_car = {
	.name = "car",
	.title = "CAR (Clock with Adaptive Replacement)",
	.help = "ARC on two clocks: hits only set a reference bit; t1's and t2's hands evict "
		"into ghost lists b1 and b2, whose hits move the target size p of t1.",
	.lists = car_lists,
	.nlists = 4,
	.ghost_lists = 1u << B1 | 1u << B2,
	.fields = car_fields,
	.nfields = 1,
	.hands = car_hands,
	.hand_lists = car_hand_lists,
	.nhands = 1,
	.counters = car_counters,
	.ncounters = 3,
	.create = car_create,
	.destroy = car_destroy,
	.hit = car_hit,
	.insert = car_insert,
	.victim = car_victim,
	.evict = car_evict,
	.prefetch = car_prefetch,
	.snapshot = car_snapshot,
	.read_counters = car_read_counters,
};
