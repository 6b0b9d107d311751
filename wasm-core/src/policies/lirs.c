/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lirs.c - LIRS, Low Inter-reference Recency Set (S. Jiang and X. Zhang,
 * "LIRS: An Efficient Low Inter-reference Recency Set Replacement Policy
 * to Improve Buffer Cache Performance", SIGMETRICS 2002, Section 3).
 *
 * A page's inter-reference recency (IRR) is the number of other pages used
 * between its last two references.  LIRS keeps the pages of low IRR (LIR
 * pages, at most Llirs = c - Lhirs of them) resident and uses the few
 * remaining frames (Lhirs, 1% by default) for pages of high IRR (HIR),
 * which are the ones evicted.
 *
 * Structure, as in the paper: the stack S holds, in order of last
 * reference, the LIR pages and the HIR pages (resident or not) referenced
 * more recently than the least recent LIR page -- "stack pruning" keeps an
 * LIR page at S's bottom.  The queue Q holds the resident HIR pages.
 *
 *   S (recency):   top [ x  L  h  L  n  h  L ] bottom   L = LIR, h = resident
 *                                         ^ always LIR       HIR, n = non-resident
 *   Q (resident HIR):  end [ h h h ] front --> evicted     HIR (a ghost)
 *
 * pagelab shows S and Q as three lists, each page in exactly one:
 *   lir          the LIR pages, most recent first (S restricted to LIR)
 *   hir          Q: the resident HIR pages, newest (Q's end) at the head,
 *                Q's front, the next victim, at the tail
 *   nonresident  ghost: the non-resident HIR pages still in S, the most
 *                recently evicted first
 * and two fields that rebuild S exactly: in_s (the page has an entry in S)
 * and last_ref (1 + the step of its last reference, S's order: merge the
 * entries with in_s = 1 by last_ref, largest on top).
 *
 * Transitions (x the referenced page)
 *   hit, x LIR            x to S's top; if x was S's bottom, prune S
 *   hit, x HIR in S       x becomes LIR (leaves Q), to S's top; S's bottom
 *                         LIR page becomes HIR, leaves S for Q's end; prune
 *   hit, x HIR not in S   x to S's top and to Q's end (stays HIR; so does
 *                         every page when Llirs = 0: one frame, or
 *                         hir_percent=100)
 *   fault                 Q's front is evicted (if it is in S it stays
 *                         there as non-resident HIR); then:
 *     x non-resident in S x becomes LIR at S's top; S's bottom LIR page
 *                         becomes HIR, to Q's end; prune S
 *     x not in S          x enters as resident HIR at S's top and Q's end
 *                         (while fewer than Llirs pages are LIR, as LIR)
 *   prune S               remove HIR entries from S's bottom until an LIR
 *                         page is there (non-resident ones are forgotten)
 *   bound S               when S holds more than stack_percent/100 x c
 *                         entries, forget the non-resident page evicted
 *                         longest ago (as libCacheSim does; the paper leaves
 *                         the bound to the implementation)
 *
 * Parameters (defaults: libCacheSim's LIRS, hirs_ratio 0.01, S at most 2c)
 *   hir_percent    Lhirs in percent of the frames, at least 1 page
 *   stack_percent  most entries S holds, in percent of the frames
 *
 * Reference: libCacheSim/cache/eviction/LIRS.c.  Its misses are within 2%
 * of pagelab's on every trace of tests/libcachesim_diff.py, not equal: on a
 * hit to a resident HIR page that is not in S, libCacheSim also demotes S's
 * bottom LIR page into Q and, Q being full, evicts Q's front -- an eviction
 * on a hit, which the paper does not do (it only moves the page to S's top
 * and Q's end) and which a page replacement policy cannot do here.
 *
 * Counters: lir_promotions (HIR pages that became LIR), pruned.
 * Cost per reference: O(1) amortized (pruning removes each entry once).
 * The list lir is S's LIR entries, not a list of its own (see struct lirs),
 * and a hit on an LIR page touches one 24-byte record of that page.
 * Beyond lru's work: a hit on an LIR page is lru's move plus a prune when
 * it was S's bottom; a hit on an HIR page also moves it in Q (and, in S,
 * promotes it and demotes S's bottom); a fault evicts Q's front, keeps it
 * as a ghost in S, and forgets the oldest ghost once S holds 2c entries
 * -- two more pages no recent reference touched, whose lines each fault
 * (and each hit that changes S's bottom or the ghosts) requests for the
 * next one (request_next_fault()).  The ghosts are kept in eviction order
 * in slots (slot_ring.h), not a list: forgetting the oldest, one a fault,
 * no longer waits for its record to name the next oldest, whose record
 * bound_stack() requests GHOST_LOOKAHEAD ghosts ahead.  Pruning still
 * walks S's list upwards, one record after another; the first it reads is
 * requested with the rest.  prefetch() names only the far page's record
 * (see lirs_prefetch() for why not the near page's neighbours in S).
 * The records are in huge pages (lirs_create()).
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"
#include "huge_pages.h"
#include "slot_ring.h"

enum { LIR, HIR, NONRESIDENT, NOWHERE };
enum { IN_S, LAST_REF };
enum { PARAM_HIR_PERCENT, PARAM_STACK_PERCENT };
enum { LIR_PROMOTIONS, PRUNED };

/*
 * A page's whole state in one 24-byte record: its entry in S, its place in
 * hir or nonresident (HIR pages only), its state and last reference.  One
 * cache line to touch per page (measured: fewer misses than a 16-byte
 * record with the hir/nonresident links apart, and than 32 bytes).
 */
struct lirs_page {
	struct pl_link s;		/* its entry in S, if in_s */
	union {
		struct pl_link q;	/* in hir */
		uint32_t slot;		/* in nonresident */
	};
	uint32_t last_ref;		/* 1 + step of the last reference */
	uint8_t state;			/* LIR .. NOWHERE */
	uint8_t in_s;
};

/*
 * The list lir is S restricted to its LIR pages, so it is not kept apart:
 * its order is S's, its tail S's bottom (pruning keeps an LIR page there);
 * only its head (for the MOVE a hit reports) and length are kept.
 */
struct lirs {
	struct pl_ctx *ctx;
	struct lirs_page *page;		/* [npages] */
	struct huge_array page_mem;	/* page's memory: see lirs_create() */
	struct pl_dlist s;		/* the stack S, top at the head */
	struct pl_dlist hir;		/* Q, its end at the head */
	/*
	 * nonresident, the most recently evicted last, in slots
	 * (slot_ring.h): the oldest ghosts, which bound_stack() forgets,
	 * are known ahead without reading each one's record in turn.
	 */
	struct pl_slot_ring ghosts;
	uint32_t lir_head, lir_len;	/* the most recent LIR page; LIR pages */
	uint32_t lir_max, stack_max;
	uint64_t promotions, pruned;
};

static inline struct pl_record_links s_links(const struct lirs *l)
{
	return PL_RECORD_LINKS(l->page, s);
}

static inline struct pl_record_links q_links(const struct lirs *l)
{
	return PL_RECORD_LINKS(l->page, q);
}

static inline struct pl_record_slots ghost_slots(const struct lirs *l)
{
	return PL_RECORD_SLOTS(l->page, slot);
}

static void lirs_destroy(void *state)
{
	struct lirs *l = state;

	if (!l)
		return;
	huge_free(&l->page_mem);
	pl_slot_ring_free(&l->ghosts);
	free(l);
}

static void *lirs_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lirs *l = calloc(1, sizeof(*l));
	size_t n = ctx->npages ? ctx->npages : 1;
	uint32_t hir_max, stack_max;
	/* every ghost is in S, which bound_stack() keeps at stack_max
	 * entries but for the one a fault adds */
	uint64_t most;

	stack_max = (uint32_t)((uint64_t)ctx->frames * ctx->params[PARAM_STACK_PERCENT] / 100);
	most = (uint64_t)stack_max + 1 < n ? (uint64_t)stack_max + 1 : n;
	/*
	 * The records in huge pages (huge_pages.h): a reference, a
	 * prefetch() naming one and each fault's oldest ghost touch a
	 * record at random in 24 bytes x npages, and in 4 KB pages each
	 * such touch was a page walk as well.
	 */
	if (!l || !(l->page = huge_alloc(&l->page_mem, n * sizeof(*l->page))) ||
	    pl_slot_ring_init(&l->ghosts, pl_slot_ring_size(most))) {
		lirs_destroy(l);
		snprintf(err->msg, sizeof(err->msg), "lirs: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		l->page[i].state = NOWHERE;
	l->ctx = ctx;
	hir_max = (uint32_t)((uint64_t)ctx->frames * ctx->params[PARAM_HIR_PERCENT] / 100);
	if (hir_max == 0)
		hir_max = 1;
	l->lir_max = ctx->frames > hir_max ? ctx->frames - hir_max : 0;
	l->stack_max = stack_max;
	pl_dlist_init(&l->hir);
	pl_dlist_init(&l->s);
	l->lir_head = PL_NONE;
	return l;
}

static void set_in_s(struct lirs *l, uint32_t page, uint8_t in)
{
	pl_emit_set(l->ctx, page, IN_S, l->page[page].in_s, in);
	l->page[page].in_s = in;
}

/*
 * The page's last reference is now, at `step`.  Every reference stamps its
 * page once, at a step no earlier stamp had, so the field always changes.
 */
static inline void stamp(struct lirs *l, uint32_t page, uint32_t step)
{
	struct lirs_page *pg = &l->page[page];

	pl_emit_set(l->ctx, page, LAST_REF, (int32_t)pg->last_ref, (int32_t)step + 1);
	pg->last_ref = step + 1;
}

/* The page becomes S's top entry, referenced at `step`. */
static void to_stack_top(struct lirs *l, uint32_t page, uint32_t step)
{
	if (!l->page[page].in_s) {
		set_in_s(l, page, 1);
		pl_rdlist_push_head(s_links(l), &l->s, page);
	} else if (l->s.head != page) {
		pl_rdlist_move_to_head(s_links(l), &l->s, page);
	}
	stamp(l, page, step);
}

/*
 * A page leaves or joins lir, hir or nonresident (at the head).  A page
 * leaves lir only from its tail, S's bottom (demote_bottom(), or evicted
 * when Q is empty), so lir's head changes only if that was its last page.
 */
static inline void leave_list(struct lirs *l, uint32_t page)
{
	unsigned from = l->page[page].state;

	if (from == HIR)
		pl_rdlist_remove(q_links(l), &l->hir, page);
	else if (from == NONRESIDENT)
		pl_slot_ring_remove(&l->ghosts, ghost_slots(l), page);
	else if (--l->lir_len == 0)
		l->lir_head = PL_NONE;
}

static inline void join_list(struct lirs *l, uint32_t page, unsigned to)
{
	if (to == HIR) {
		pl_rdlist_push_head(q_links(l), &l->hir, page);
	} else if (to == NONRESIDENT) {
		uint32_t no_hand = PL_NONE;

		pl_slot_ring_push(&l->ghosts, ghost_slots(l), page, &no_hand);
	} else {
		l->lir_head = page;
		l->lir_len++;
	}
	l->page[page].state = (uint8_t)to;
}

/* Moves a page between lir, hir and nonresident (to the head). */
static void move_to(struct lirs *l, uint32_t page, unsigned to)
{
	unsigned from = l->page[page].state;

	leave_list(l, page);
	join_list(l, page, to);
	pl_emit_move(l->ctx, page, from, to, 0);
}

/* A page leaving every list: its fields back to 0. */
static inline void clear(struct lirs *l, uint32_t page)
{
	l->page[page] = (struct lirs_page){ .state = NOWHERE };
}

/* A non-resident page, out of S and of nonresident now: forgotten. */
static inline void forgotten(struct lirs *l, uint32_t page)
{
	clear(l, page);
	pl_emit_remove(l->ctx, page, NONRESIDENT);
}

/* A non-resident page, already out of S, leaves nonresident: forgotten. */
static void forget(struct lirs *l, uint32_t page)
{
	pl_slot_ring_remove(&l->ghosts, ghost_slots(l), page);
	forgotten(l, page);
}

static void prune(struct lirs *l)
{
	uint32_t p;

	while ((p = l->s.tail) != PL_NONE && l->page[p].state != LIR) {
		pl_rdlist_remove(s_links(l), &l->s, p);
		l->pruned++;
		if (l->page[p].state == HIR)
			set_in_s(l, p, 0);
		else
			forget(l, p);
	}
}

/* The least recent LIR page (S's bottom, pruning keeps it there) becomes
 * HIR: it leaves S for Q's end. */
static void demote_bottom(struct lirs *l)
{
	uint32_t p = l->s.tail;

	pl_rdlist_remove(s_links(l), &l->s, p);
	set_in_s(l, p, 0);
	move_to(l, p, HIR);
	prune(l);
}

/*
 * How many ghosts ahead of the oldest the record of one is requested: the
 * oldest is forgotten about once a fault when S is full, and prefetch()
 * then reads the record of the next oldest, which should have arrived.
 */
#define GHOST_LOOKAHEAD 8

/* Only S's growth (a page entering it) can take it over stack_max. */
static void bound_stack(struct lirs *l)
{
	while (l->s.len > l->stack_max && l->ghosts.len) {
		uint32_t from = l->ghosts.lo, p = l->ghosts.id[from];

		pl_rdlist_remove(s_links(l), &l->s, p);
		pl_slot_ring_remove_first(&l->ghosts);
		forgotten(l, p);
		/* over the holes of ghosts that left early */
		pl_slot_ring_request_passed(&l->ghosts, from, l->ghosts.lo, GHOST_LOOKAHEAD,
					    l->page, sizeof(*l->page));
	}
}

/*
 * What the next fault touches that no recent reference did, requested as
 * this one ends (they change only at faults and the rarer hits that prune
 * or forget): the oldest ghost, which bound_stack() forgets, and its
 * neighbours in S; and the entry above S's bottom, the first a prune reads
 * (the bottom is an LIR page, and the prune walks up from it, each entry's
 * record read before the next is known); and the next victim, Q's front,
 * its record and the driver's residency byte (pl_emit_evict() reads it).
 * Inlined by force: GCC takes a call that only reads and prefetches for
 * one without effect and drops it.
 */
static inline __attribute__((always_inline)) void request_next_fault(const struct lirs *l)
{
	uint32_t oldest = pl_slot_ring_first(&l->ghosts), bottom = l->s.tail;
	uint32_t victim = l->hir.tail;

	if (victim != PL_NONE) {
		pl_request_record(&l->page[victim], sizeof(*l->page));
		pl_prefetch_state(l->ctx, victim);
	}

	if (oldest != PL_NONE) {
		struct pl_link old = l->page[oldest].s;

		pl_request_line(&l->page[pl_page_or(old.prev, oldest)].s, 1);
		pl_request_line(&l->page[pl_page_or(old.next, oldest)].s, 1);
	}
	if (bottom != PL_NONE) {
		uint32_t above = pl_page_or(l->page[bottom].s.prev, bottom);

		pl_request_record(&l->page[above], sizeof(*l->page));
	}
}

/* x, in S, becomes LIR at S's top; LIR over its size: S's bottom is demoted. */
static void promote(struct lirs *l, uint32_t x, uint32_t step)
{
	to_stack_top(l, x, step);
	move_to(l, x, LIR);
	l->promotions++;
	if (l->lir_len > l->lir_max)
		demote_bottom(l);
}

static void hit_hir(struct lirs *l, uint32_t x, uint32_t step)
{
	if (l->page[x].in_s && l->lir_max) {
		promote(l, x, step);
	} else {
		to_stack_top(l, x, step);
		if (l->hir.head != x)
			move_to(l, x, HIR);
		bound_stack(l);
	}
	request_next_fault(l);
}

/* Most hits are on LIR pages: to S's top (and lir's head); prune if x was S's bottom. */
static void lirs_hit(void *state, const struct pl_ref *ref)
{
	struct lirs *l = state;
	uint32_t x = ref->page;
	bool bottom = l->s.tail == x;

	if (l->page[x].state != LIR) {
		hit_hir(l, x, ref->step);
		return;
	}
	if (l->s.head != x)
		pl_rdlist_move_to_head(s_links(l), &l->s, x);
	stamp(l, x, ref->step);
	if (l->lir_head != x) {
		pl_emit_move(l->ctx, x, LIR, LIR, 0);
		l->lir_head = x;
	}
	if (bottom) {
		prune(l);
		request_next_fault(l);
	}
}

/*
 * A reference ahead (policy.h, "Prefetching"): the far page's record.
 * What the next fault touches is requested by the one before
 * (request_next_fault()).  The near page's neighbours in S, which a hit
 * on it rewrites as it moves to S's top, are not named: reading the near
 * record to find them waited for it on every reference, and only stores
 * go to the neighbours (session 12, records in huge pages: 10-15% faster
 * on zipf without them, in six alternating rounds).
 */
static void lirs_prefetch(const void *state, uint32_t far, uint32_t near,
			  struct pl_prefetch *out)
{
	const struct lirs *l = state;

	(void)near;
	pl_prefetch_record(out, &l->page[far], sizeof(*l->page));
}

static uint32_t lirs_victim(const void *state)
{
	const struct lirs *l = state;

	/* Q is empty only when every frame holds an LIR page (hir_percent
	 * makes Lhirs >= 1, so only an over-full LIR set): take S's bottom. */
	return l->hir.len ? l->hir.tail : l->s.tail;
}

static void lirs_evict(void *state, uint32_t victim)
{
	struct lirs *l = state;
	uint32_t x = l->ctx->faulting;
	unsigned from = l->page[victim].state;

	/* The faulting page's S entry moves to the top first, so that no
	 * pruning below forgets it (insert() then stamps last_ref). */
	if (l->page[x].state == NONRESIDENT && l->s.head != x)
		pl_rdlist_move_to_head(s_links(l), &l->s, x);
	leave_list(l, victim);
	pl_emit_evict(l->ctx, victim, from);
	if (l->page[victim].in_s && from == HIR) {
		join_list(l, victim, NONRESIDENT);
		pl_emit_insert(l->ctx, victim, NONRESIDENT, 0);
		/* the INSERT carries no fields: state them again */
		pl_emit_set(l->ctx, victim, IN_S, 0, 1);
		pl_emit_set(l->ctx, victim, LAST_REF, 0, (int32_t)l->page[victim].last_ref);
		return;
	}
	if (l->page[victim].in_s)
		pl_rdlist_remove(s_links(l), &l->s, victim);
	clear(l, victim);
	prune(l);
}

static void lirs_insert(void *state, const struct pl_ref *ref)
{
	struct lirs *l = state;
	uint32_t x = ref->page;

	if (l->page[x].state == NONRESIDENT) {
		if (l->lir_max) {
			promote(l, x, ref->step);
		} else {	/* one frame: no LIR page fits */
			to_stack_top(l, x, ref->step);
			move_to(l, x, HIR);
		}
	} else {
		unsigned to = l->lir_len < l->lir_max ? LIR : HIR;

		join_list(l, x, to);
		pl_emit_insert(l->ctx, x, to, 0);
		set_in_s(l, x, 1);
		pl_rdlist_push_head(s_links(l), &l->s, x);
		stamp(l, x, ref->step);
	}
	bound_stack(l);
	request_next_fault(l);
}

static void push_page(const struct lirs *l, unsigned list, uint32_t p, struct pl_snapshot *out)
{
	int32_t values[2] = { l->page[p].in_s, (int32_t)l->page[p].last_ref };

	pl_snapshot_push(out, list, p, values);
}

static void lirs_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct lirs *l = state;

	for (uint32_t p = l->s.head; p != PL_NONE; p = l->page[p].s.next)
		if (l->page[p].state == LIR)
			push_page(l, LIR, p, out);
	for (uint32_t p = l->hir.head; p != PL_NONE; p = l->page[p].q.next)
		push_page(l, HIR, p, out);
	for (uint32_t slot = l->ghosts.hi; slot-- > l->ghosts.lo;)
		if (l->ghosts.id[slot] != PL_NONE)
			push_page(l, NONRESIDENT, l->ghosts.id[slot], out);
}

static void lirs_read_counters(const void *state, uint64_t *counters)
{
	const struct lirs *l = state;

	counters[LIR_PROMOTIONS] = l->promotions;
	counters[PRUNED] = l->pruned;
}

static const struct pl_param lirs_params[] = {
	[PARAM_HIR_PERCENT] = {
		.name = "hir_percent",
		.help = "frames for resident HIR pages (Q), in percent, at least 1 page "
			"(libCacheSim: 1)",
		.def = 1, .min = 0, .max = 100,
	},
	[PARAM_STACK_PERCENT] = {
		.name = "stack_percent",
		.help = "most entries the stack S keeps, in percent of the frames "
			"(libCacheSim: 200)",
		.def = 200, .min = 100, .max = 1000,
	},
};

static const char *const lirs_lists[] = {
	[LIR] = "lir", [HIR] = "hir", [NONRESIDENT] = "nonresident",
};
static const char *const lirs_fields[] = { [IN_S] = "in_s", [LAST_REF] = "last_ref" };
static const char *const lirs_counters[] = {
	[LIR_PROMOTIONS] = "lir_promotions", [PRUNED] = "pruned",
};

const struct pl_policy_ops pl_policy_lirs = {
	.name = "lirs",
	.title = "LIRS (Low Inter-reference Recency Set)",
	.help = "Keeps pages whose last two uses were close together (LIR) and evicts from a "
		"small queue of the others (HIR); a recency stack S with ghosts tells them apart.",
	.params = lirs_params,
	.nparams = 2,
	.lists = lirs_lists,
	.nlists = 3,
	.ghost_lists = 1u << NONRESIDENT,
	.fields = lirs_fields,
	.nfields = 2,
	.counters = lirs_counters,
	.ncounters = 2,
	.create = lirs_create,
	.destroy = lirs_destroy,
	.hit = lirs_hit,
	.insert = lirs_insert,
	.victim = lirs_victim,
	.evict = lirs_evict,
	.prefetch = lirs_prefetch,
	.snapshot = lirs_snapshot,
	.read_counters = lirs_read_counters,
};
