/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clockpro.c - CLOCK-Pro (S. Jiang, F. Chen and X. Zhang, "CLOCK-Pro: An
 * Effective Improvement of the CLOCK Replacement", USENIX ATC 2005,
 * Section 3).
 *
 * LIRS's idea on a clock.  A page is hot (LIRS's LIR: a small reuse
 * distance) or cold (HIR).  A cold page gets a test period when it enters
 * or is used again: re-referenced during it, its reuse distance is smaller
 * than the hot pages' and it becomes hot; the test period of a cold page
 * that was evicted goes on after it leaves memory (a non-resident cold page
 * is history only, like LIRS's non-resident HIR pages).  Hits only set a
 * reference bit, as in CLOCK.
 *
 * One clock holds the resident hot and cold pages and the non-resident
 * cold pages in their test period, in the order the hands meet them.
 * Three hands go round it, all the same way:
 *
 *                    HAND_hot (always at the clock's tail: the page
 *                     |         there has the largest recency)
 *          head  ...  v
 *        [c n H] -> [H h c n H c] -> ...      H hot, c resident cold,
 *            ^           ^      ^             n non-resident cold (test),
 *            |           |      HAND_cold     h hot (reference bit set)
 *      new pages enter   HAND_test
 *      here, behind HAND_hot
 *
 *   HAND_cold  evicts: stops at resident cold pages only.
 *   HAND_hot   turns the hot page of largest recency cold, ending the
 *              test period of each cold page it passes.
 *   HAND_test  ends test periods (forgets non-resident pages) when more
 *              than m (= frames) non-resident pages are kept.
 *
 * pagelab keeps the clock cut at HAND_hot: the page under HAND_hot is the
 * first, the head (where pages enter) the last, and HAND_hot moving past a
 * page moves it to the end ("equivalent to leaving the page it moves by at
 * the list head", the paper says).  So HAND_hot is always at position 0.
 *
 * Transitions (x the referenced page; m frames; mc the cold target,
 * adaptive in [1, max(1, m - 1)], starting at max(1, m / 100) like LIRS's
 * HIR share; hot pages are kept at most m - mc)
 *   hit                   referenced(x) := 1, nothing moves
 *   fault, memory full    HAND_cold, from its page, over resident cold pages:
 *     referenced 0        evict it; in its test period it stays in the
 *                         clock, non-resident; otherwise it leaves the clock
 *     referenced 1, test  referenced := 0, it becomes hot, mc := mc + 1
 *     referenced 1        referenced := 0, a new test period begins
 *                         until one page is evicted
 *   fault, x non-resident x leaves its place and enters at the head, hot;
 *     in the clock        mc := mc + 1 (re-used during its test period)
 *   fault, x not in it    x enters at the head, cold, in its test period
 *   then                  while hot pages > m - mc: HAND_hot; then while
 *                         non-resident pages > m: HAND_test
 *   HAND_hot, one step    hot, referenced 1: referenced := 0, pass it;
 *                         hot, referenced 0: it becomes cold (no test
 *                         period), pass it, stop; cold in test: the test
 *                         ends (mc := mc - 1), a non-resident page leaves
 *                         the clock; other pages: pass
 *   HAND_test, one step   cold in test: the test ends (mc := mc - 1), a
 *                         non-resident page leaves the clock; pass
 *
 * Where the paper leaves a choice, pagelab takes the simple one and says so:
 *   - HAND_cold leaves a referenced cold page where it is (as CLOCK does)
 *     rather than moving it to the head;
 *   - the HAND_hot work due to the cold pages HAND_cold turned hot is done
 *     after the eviction, not in the middle of HAND_cold's sweep (so that
 *     victim() can name the victim without running HAND_hot) -- unless the
 *     sweep turns the last resident cold page hot, when HAND_hot runs once
 *     there so that a page can be evicted at all;
 *   - a hot page HAND_hot turns cold gets no test period (like a LIR page
 *     LIRS demotes, which leaves the stack S);
 *   - HAND_test runs while more than m pages are non-resident (the bound
 *     of the paper's Section 3.3).
 * libCacheSim's ClockPro is not a usable reference (it misses 2-3x more
 * than LRU on correlated bursts), so tests/test_modern.c checks this file
 * against a transcription of these rules, every hit and miss and the final
 * clock, on thousands of random traces; the benchmark compares its misses
 * with LIRS's.
 *
 * Snapshot: lists clock (the resident pages) and test (ghost: the
 * non-resident cold pages), each in clock order from HAND_hot.  Fields:
 * hot, test (in its test period), referenced, and order, which merges the
 * two lists into the one clock (ascending).  The hands' positions count
 * the entries of both lists in that merged order.  Counters: cold_target
 * (mc), promotions (cold pages turned hot), tests_expired, test_hand_steps
 * (the entries HAND_test has passed: its work, amortized O(1), see below).
 * Cost per reference: O(1) per hit; per fault, the hands' steps, each O(1):
 * HAND_cold's are paid by the hits that set bits or by evictions.  It
 * passes the pages that are not resident cold in one step: the resident
 * cold pages are also linked in clock order (cold_next, the first of them
 * at or after the hand), so sparse cold pages cost nothing more.
 * Beyond lru's work: a hit sets a bit where lru moves the page (less); a
 * fault runs three hands where lru takes a tail: HAND_cold over cold
 * pages, HAND_hot over the clock's first entries, and HAND_test from entry
 * to entry (0.9 steps a fault on the zipf benchmark), each step a record
 * no recent reference touched.  As a linked list, the clock made HAND_test's
 * walk a chain of loads, each next entry known only once the previous
 * record had arrived, and most of clockpro's time.  The clock is therefore
 * a ring of page ids in clock order (slot_ring.h): the pages ahead of
 * HAND_hot and HAND_test are read from consecutive slots, and their
 * records requested HAND_LOOKAHEAD slots ahead of every slot a hand
 * passes (holes included), faults before the hand gets there.  The
 * records are in huge pages (clockpro_create()).  The ring's slots are not the order numbers the snapshot
 * shows (entries are packed when the ring's end is reached), so each
 * record keeps both, and its own residency (place), so that no hand reads
 * the driver's residency bytes.
 * A hand's step passes the slots of the entries that left since the ring
 * was last packed, each at most once a lap for HAND_hot and HAND_test;
 * HAND_cold, which goes from cold page to cold page, looks for the entry
 * after its page only after an eviction.  Packing the ring is O(1) per
 * entry joined (slot_ring.h).
 * HAND_test steps over every entry, but is amortized O(1) all the same, as
 * the paper's hands are: the clock's circular order only changes where
 * entries come in (behind HAND_hot) or leave, so in one lap HAND_test
 * passes at most the 2m + 1 entries the clock can hold (m resident, at
 * most m + 1 non-resident) plus the ones inserted meanwhile.  A lap
 * starts in a run, so with more than m non-resident pages, and every one
 * of them has left the clock or turned resident before the hand comes
 * back (HAND_test forgets each it meets), each once per eviction: laps
 * are at most faults / (m + 1), and HAND_test's steps at most
 * 3 x faults + 2m + 1 (tests/test_modern.c counts them on adversarial
 * traces).
 * While recording, an event's position is a rank by order: two Fenwick
 * trees (every entry, the resident ones) over the order numbers, O(log n)
 * per event, doubled and refilled when the orders outgrow them.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "dlist.h"
#include "huge_pages.h"
#include "slot_ring.h"

enum { CLOCK, TEST };
enum { HOT, IN_TEST, REFERENCED, ORDER };
enum { HAND_HOT, HAND_COLD, HAND_TEST, NHANDS };
enum { COLD_TARGET, PROMOTIONS, TESTS_EXPIRED, TEST_HAND_STEPS };

/*
 * A Fenwick tree counting entries by order number (1 .. size): how many
 * come before a given order, in O(log size).  Orders only grow, so the
 * tree doubles when next_order outgrows it and is rebuilt from the clock.
 */
struct rank_tree {
	uint32_t *count;	/* [size + 1], count[0] unused */
	uint32_t size;
};

enum { RANKED_NOT, RANKED_GHOST, RANKED_RESIDENT };

/* Where a page is: out of the clock, in it resident, or in it non-resident. */
enum { OUT, RESIDENT, GHOST };

/*
 * A page's whole state, its places in the clock and among the cold pages
 * included, in one 20-byte record: a hand's step reads and writes one
 * record, not several arrays.  Its residency is its own (place), so that
 * the hands need not read the driver's residency bytes, one more line per
 * step.
 */
struct clockpro_page {
	struct pl_link cold;	/* among the resident cold pages, if it is one */
	uint32_t order;		/* its place in the clock (ascending from HAND_hot) */
	uint32_t slot;		/* its index in the ring, if in the clock */
	uint8_t place, hot, test, ref;
};

struct clockpro {
	struct pl_ctx *ctx;
	/*
	 * The clock, from HAND_hot to the head, in slots (slot_ring.h): a
	 * hand goes round it over consecutive slots, so the pages ahead of
	 * it are known without reading the records of the ones before.
	 */
	struct pl_slot_ring clock;
	struct clockpro_page *pg;	/* [npages] */
	struct huge_array pg_mem;	/* pg's memory: see clockpro_create() */
	uint8_t *ranked;		/* [npages] RANKED_* as counted in the trees,
					 * while recording */
	uint32_t next_order;
	uint32_t hand_cold;		/* a page, PL_NONE if the clock is empty */
	uint32_t hand_test;		/* a slot of the ring, PL_NONE if empty */
	/*
	 * The resident cold pages in clock order, so that HAND_cold passes the
	 * others without a step each: cold_next is the first of them at or
	 * after HAND_cold, or PL_NONE if there is none before the clock's end
	 * (the hand then wraps to the list's head).
	 */
	struct pl_dlist cold;
	uint32_t cold_next;
	int32_t shown[NHANDS];		/* the hand positions last reported */
	uint32_t m, mc, mc_max;
	uint32_t nhot, ncold, nghost;
	uint64_t promotions, tests_expired, test_hand_steps;
	/* While recording: positions are ranks by order (see position()). */
	struct rank_tree all, resident;	/* entries of the clock, resident ones */
};

static inline struct pl_record_links cold_links(const struct clockpro *c)
{
	return PL_RECORD_LINKS(c->pg, cold);
}

static void clockpro_destroy(void *state)
{
	struct clockpro *c = state;

	if (!c)
		return;
	huge_free(&c->pg_mem);
	pl_slot_ring_free(&c->clock);
	free(c->ranked);
	free(c->all.count);
	free(c->resident.count);
	free(c);
}

static void *clockpro_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct clockpro *c = calloc(1, sizeof(*c));
	size_t n = ctx->npages ? ctx->npages : 1;
	/* at most m resident and m + 1 non-resident entries (one more than
	 * HAND_test leaves, between an eviction and the insert) */
	uint64_t most = 2 * (uint64_t)ctx->frames + 1;

	/*
	 * The records in huge pages (huge_pages.h): references, hands and
	 * prefetches touch them at random in 20 bytes x npages, and in 4 KB
	 * pages each such touch was a page walk as well.  Untouched, they
	 * take no memory, as calloc()'s did (PL_POLICY_SPARSE).
	 */
	if (!c || !(c->pg = huge_alloc(&c->pg_mem, n * sizeof(*c->pg))) ||
	    !(c->ranked = calloc(n, 1)) ||
	    pl_slot_ring_init(&c->clock, pl_slot_ring_size(most < n ? most : n))) {
		clockpro_destroy(c);
		snprintf(err->msg, sizeof(err->msg), "clockpro: out of memory");
		return NULL;
	}
	c->ctx = ctx;
	c->m = ctx->frames;
	c->mc_max = c->m > 1 ? c->m - 1 : 1;
	c->mc = c->m / 100 > 1 ? c->m / 100 : 1;
	c->hand_cold = c->hand_test = c->cold_next = PL_NONE;
	pl_dlist_init(&c->cold);
	return c;
}

/* Sets field `id` of page, *at, to v. */
static void set_field(struct clockpro *c, uint8_t *at, unsigned id, uint32_t page, uint8_t v)
{
	if (*at == v)
		return;
	pl_emit_set(c->ctx, page, id, *at, v);
	*at = v;
}

/* ------------------------------------------------------------ the clock */

static inline struct pl_record_slots clock_slots(const struct clockpro *c)
{
	return PL_RECORD_SLOTS(c->pg, slot);
}

static inline uint32_t clock_head(const struct clockpro *c)
{
	return pl_slot_ring_first(&c->clock);
}

/* The page after `page` going round the clock. */
static inline uint32_t after(const struct clockpro *c, uint32_t page)
{
	return c->clock.id[pl_slot_ring_after(&c->clock, c->pg[page].slot)];
}

/* The page enters the clock as its last entry (just before HAND_hot). */
static void clock_push(struct clockpro *c, uint32_t page)
{
	pl_slot_ring_push(&c->clock, clock_slots(c), page, &c->hand_test);
}

/* The page leaves the clock (HAND_test, if on it, has moved on). */
static void clock_remove(struct clockpro *c, uint32_t page)
{
	pl_slot_ring_remove(&c->clock, clock_slots(c), page);
}

/*
 * The clock's first page (HAND_hot's) goes to its end; HAND_test, if on
 * it, goes with it.
 */
static void clock_head_to_end(struct clockpro *c, uint32_t page)
{
	bool hand = c->hand_test == c->clock.lo;

	pl_slot_ring_remove_first(&c->clock);
	clock_push(c, page);
	if (hand)
		c->hand_test = c->pg[page].slot;
}

static inline bool resident(const struct clockpro *c, uint32_t page)
{
	return c->pg[page].place == RESIDENT;
}

static bool resident_cold(const struct clockpro *c, uint32_t page)
{
	return resident(c, page) && !c->pg[page].hot;
}

/* A resident cold page has just become the clock's last entry. */
static void cold_join(struct clockpro *c, uint32_t page)
{
	pl_rdlist_push_tail(cold_links(c), &c->cold, page);
	if (c->cold_next == PL_NONE)
		c->cold_next = page;	/* the tail is at or after any hand */
}

static void cold_leave(struct clockpro *c, uint32_t page)
{
	if (c->cold_next == page)
		c->cold_next = c->pg[page].cold.next;
	pl_rdlist_remove(cold_links(c), &c->cold, page);
}

/*
 * HAND_cold moves on to `page`, the entry after its own: past the clock's
 * end it is at the head again, and the first resident cold page at or
 * after it is the list's head; otherwise cold_next still holds.
 */
static void set_hand_cold(struct clockpro *c, uint32_t page)
{
	c->hand_cold = page;
	if (page == clock_head(c))
		c->cold_next = c->cold.head;
}

/* The resident cold page HAND_cold meets next (PL_NONE: there is none). */
static uint32_t cold_ahead(const struct clockpro *c)
{
	return c->cold_next != PL_NONE ? c->cold_next : c->cold.head;
}

/* The resident cold page after `page` round the clock. */
static uint32_t cold_after(const struct clockpro *c, uint32_t page)
{
	uint32_t next = c->pg[page].cold.next;

	return next != PL_NONE ? next : c->cold.head;
}

/* ------------------------------------------- positions, while recording */

static void rank_add(struct rank_tree *t, uint32_t order, int32_t delta)
{
	for (; order <= t->size; order += order & -order)
		t->count[order] += (uint32_t)delta;
}

/* Entries with an order below `order`. */
static uint32_t rank_before(const struct rank_tree *t, uint32_t order)
{
	uint32_t n = 0;

	for (order--; order > 0; order -= order & -order)
		n += t->count[order];
	return n;
}

static void rank_page(struct clockpro *c, uint32_t page, int32_t delta)
{
	rank_add(&c->all, c->pg[page].order, delta);
	if (c->ranked[page] == RANKED_RESIDENT)
		rank_add(&c->resident, c->pg[page].order, delta);
}

/* Counts the page in the trees as it is now (resident or not), once. */
static void rank(struct clockpro *c, uint32_t page)
{
	if (!c->all.count)
		return;
	c->ranked[page] = resident(c, page) ? RANKED_RESIDENT : RANKED_GHOST;
	rank_page(c, page, 1);
}

static void unrank(struct clockpro *c, uint32_t page)
{
	if (!c->all.count || c->ranked[page] == RANKED_NOT)
		return;
	rank_page(c, page, -1);
	c->ranked[page] = RANKED_NOT;
}

/*
 * Makes room for order numbers up to `order`: trees of twice the size,
 * refilled from the clock.  Out of memory, positions stay 0 (the
 * simulation goes on, the recording's positions do not: the invariant
 * tests would say so).
 */
static void grow_ranks(struct clockpro *c, uint32_t order)
{
	uint32_t size = c->all.size ? c->all.size : 1024;

	while (size < order)
		size *= 2;
	free(c->all.count);
	free(c->resident.count);
	c->all = (struct rank_tree){ .count = calloc((size_t)size + 1, sizeof(uint32_t)),
				     .size = size };
	c->resident = (struct rank_tree){ .count = calloc((size_t)size + 1, sizeof(uint32_t)),
					  .size = size };
	if (!c->all.count || !c->resident.count) {
		free(c->all.count);
		free(c->resident.count);
		c->all = c->resident = (struct rank_tree){ 0 };
		return;
	}
	for (uint32_t slot = c->clock.lo; slot < c->clock.hi; slot++) {
		uint32_t p = c->clock.id[slot];

		if (p != PL_NONE && c->ranked[p] != RANKED_NOT)
			rank_page(c, p, 1);
	}
}

/* Position of `page` among the entries of its own list (resident or not),
 * or in the whole clock if `merged`: only computed while recording. */
static int32_t position(const struct clockpro *c, uint32_t page, bool merged)
{
	uint32_t all, resident;

	if (!pl_recording(c->ctx) || page == PL_NONE || !c->all.count)
		return 0;
	all = rank_before(&c->all, c->pg[page].order);
	if (merged)
		return (int32_t)all;
	resident = rank_before(&c->resident, c->pg[page].order);
	return (int32_t)(c->pg[page].place == RESIDENT ? resident : all - resident);
}

/* set_order() while recording: the trees count the page at its new order. */
static void rerank(struct clockpro *c, uint32_t page, uint32_t to)
{
	pl_emit_set(c->ctx, page, ORDER, (int32_t)c->pg[page].order, (int32_t)to);
	unrank(c, page);
	if (to > c->all.size)
		grow_ranks(c, to);
	c->pg[page].order = to;
	rank(c, page);
}

/* The page takes the next order number: it is now last in the clock. */
static inline void set_order(struct clockpro *c, uint32_t page)
{
	uint32_t to = ++c->next_order;

	if (__builtin_expect(pl_recording(c->ctx), 0))
		rerank(c, page, to);
	else
		c->pg[page].order = to;
}

/* show_hands() while recording. */
static void report_hands(struct clockpro *c)
{
	uint32_t at[NHANDS] = { clock_head(c), c->hand_cold,
				c->hand_test != PL_NONE ? c->clock.id[c->hand_test] : PL_NONE };

	for (unsigned h = 0; h < NHANDS; h++) {
		int32_t pos = position(c, at[h], true);

		if (pos != c->shown[h])
			pl_emit_hand(c->ctx, h, (uint32_t)c->shown[h], (uint32_t)pos);
		c->shown[h] = pos;
	}
}

/* Reports the hands that moved (their positions shift as pages come and go). */
static inline void show_hands(struct clockpro *c)
{
	if (__builtin_expect(pl_recording(c->ctx), 0))
		report_hands(c);
}

/* A hand on `page` moves on before the page leaves the clock. */
static void release_hands(struct clockpro *c, uint32_t page)
{
	uint32_t slot = c->pg[page].slot, next;

	if (c->hand_cold != page && c->hand_test != slot)
		return;
	next = c->clock.len > 1 ? pl_slot_ring_after(&c->clock, slot) : PL_NONE;
	if (c->hand_cold == page)
		set_hand_cold(c, next != PL_NONE ? c->clock.id[next] : PL_NONE);
	if (c->hand_test == slot)
		c->hand_test = next;
}

/* Takes a non-resident page out of the clock, forgotten. */
static void forget(struct clockpro *c, uint32_t page)
{
	release_hands(c, page);
	unrank(c, page);
	clock_remove(c, page);
	c->pg[page].place = OUT;
	c->pg[page].test = 0;
	c->pg[page].order = 0;
	c->nghost--;
	pl_emit_remove(c->ctx, page, TEST);
}

static void end_test(struct clockpro *c, uint32_t page)
{
	set_field(c, &c->pg[page].test, IN_TEST, page, 0);
	c->tests_expired++;
	if (c->mc > 1)
		c->mc--;
	if (c->pg[page].place == GHOST)
		forget(c, page);
}

static void raise_mc(struct clockpro *c)
{
	c->promotions++;
	if (c->mc < c->mc_max)
		c->mc++;
}

/* HAND_hot passes the page under it: the page goes to the head's side. */
static void pass_hot_hand(struct clockpro *c, uint32_t page)
{
	unsigned list = resident(c, page) ? CLOCK : TEST;
	uint32_t len = list == CLOCK ? c->ctx->nresident : c->nghost;

	clock_head_to_end(c, page);
	pl_emit_move(c->ctx, page, list, list, len - 1);
	set_order(c, page);
	if (resident_cold(c, page)) {
		cold_leave(c, page);
		cold_join(c, page);
	}
	if (c->hand_cold == page)	/* the hand goes with its page to the end */
		c->cold_next = resident_cold(c, page) ? page : PL_NONE;
}

/*
 * How many slots ahead of a hand the record of the page there is requested
 * (HAND_hot and HAND_test take a step or so a fault, so the record has
 * several faults' time to arrive).
 */
#define HAND_LOOKAHEAD 6

/*
 * A hand went from slot `from` to slot `to`: the records HAND_LOOKAHEAD
 * slots ahead of every slot it passed are requested (HAND_hot passes
 * about three slots a step on the zipf benchmark, HAND_test 1.2).
 */
static inline __attribute__((always_inline)) void request_passed(const struct clockpro *c,
								  uint32_t from, uint32_t to)
{
	pl_slot_ring_request_passed(&c->clock, from, to, HAND_LOOKAHEAD, c->pg, sizeof(*c->pg));
}

/*
 * Where the hands start at the next fault, requested as a fault ends: the
 * records of HAND_hot's page, the clock's first entry, and of the resident
 * cold page HAND_cold meets next, with that page's residency byte (most
 * often the victim, whose byte pl_emit_evict() reads).  Only a fault moves
 * the hands or changes the cold pages (a hit sets a bit), so prefetch()
 * need not name them on every reference.
 */
static inline __attribute__((always_inline)) void request_hands(const struct clockpro *c)
{
	uint32_t hot = clock_head(c), cold = cold_ahead(c);

	if (hot != PL_NONE)
		pl_request_record(&c->pg[hot], sizeof(*c->pg));
	if (cold != PL_NONE) {
		pl_request_record(&c->pg[cold], sizeof(*c->pg));
		pl_prefetch_state(c->ctx, cold);
	}
}

/* HAND_hot runs until it has turned one hot page cold. */
static void run_hot_hand(struct clockpro *c)
{
	uint32_t passed = c->clock.lo - 1;	/* HAND_hot's slot is lo */

	for (;;) {
		uint32_t p = clock_head(c);

		request_passed(c, passed, c->clock.lo);
		passed = c->clock.lo;
		if (c->pg[p].hot && !c->pg[p].ref) {
			pass_hot_hand(c, p);
			set_field(c, &c->pg[p].hot, HOT, p, 0);
			c->nhot--;
			c->ncold++;
			cold_join(c, p);
			return;
		}
		if (c->pg[p].hot) {
			set_field(c, &c->pg[p].ref, REFERENCED, p, 0);
		} else if (c->pg[p].test) {
			end_test(c, p);
			if (c->pg[p].place == OUT)
				continue;
		}
		pass_hot_hand(c, p);
	}
}

static void run_test_hand(struct clockpro *c)
{
	while (c->nghost > c->m) {
		uint32_t from = c->hand_test, p = c->clock.id[from];

		c->hand_test = pl_slot_ring_after(&c->clock, from);
		c->test_hand_steps++;
		request_passed(c, from, c->hand_test);
		if (!c->pg[p].hot && c->pg[p].test)
			end_test(c, p);
	}
}

/*
 * HAND_cold's sweep without changing anything.  In the first lap from the
 * hand, the first resident cold page with its bit clear is the victim;
 * failing that, the first one whose bit the lap cleared and that stayed
 * cold (no test period); failing that every cold page turned hot, and
 * HAND_hot turns the first hot page it meets with a clear bit cold -- the
 * pages just turned hot have clear bits, and HAND_cold then finds it.
 */
static uint32_t clockpro_victim(const void *state)
{
	const struct clockpro *c = state;
	uint32_t p = cold_ahead(c), kept = PL_NONE, cold_left = c->ncold;

	for (uint32_t i = 0; i < c->cold.len; i++, p = cold_after(c, p)) {
		if (!c->pg[p].ref)
			return p;
		if (!c->pg[p].test && kept == PL_NONE)
			kept = p;
		if (c->pg[p].test && --cold_left == 0)
			break;
	}
	if (kept != PL_NONE)
		return kept;
	for (p = clock_head(c); !resident(c, p) || (c->pg[p].hot && c->pg[p].ref);)
		p = after(c, p);
	return p;
}

static void clockpro_evict(void *state, uint32_t victim)
{
	struct clockpro *c = state;

	(void)victim;
	for (;;) {
		/* the hand passes the pages that are not resident cold */
		uint32_t p = c->hand_cold = c->cold_next = cold_ahead(c);

		if (!c->pg[p].ref)
			break;
		set_field(c, &c->pg[p].ref, REFERENCED, p, 0);
		c->cold_next = c->pg[p].cold.next;
		/*
		 * The hand moves on past p: only whether it wraps (p is the
		 * clock's last entry) matters before the next turn puts it on
		 * a page, unless HAND_hot runs first (below).
		 */
		if (c->pg[p].slot == c->clock.hi - 1)
			c->cold_next = c->cold.head;
		if (!c->pg[p].test) {
			set_field(c, &c->pg[p].test, IN_TEST, p, 1);
			continue;
		}
		cold_leave(c, p);
		set_field(c, &c->pg[p].hot, HOT, p, 1);
		set_field(c, &c->pg[p].test, IN_TEST, p, 0);
		c->nhot++;
		raise_mc(c);
		if (--c->ncold == 0) {
			c->hand_cold = after(c, p);
			run_hot_hand(c);
		}
	}
	victim = c->hand_cold;
	c->ncold--;
	cold_leave(c, victim);
	pl_emit_evict(c->ctx, victim, CLOCK);
	unrank(c, victim);
	if (c->pg[victim].test) {
		/* stays in the clock, non-resident, until its test period ends */
		c->pg[victim].place = GHOST;
		rank(c, victim);
		set_hand_cold(c, after(c, victim));
		c->nghost++;
		pl_emit_insert(c->ctx, victim, TEST, (uint32_t)position(c, victim, false));
		pl_emit_set(c->ctx, victim, IN_TEST, 0, 1);
		pl_emit_set(c->ctx, victim, ORDER, 0, (int32_t)c->pg[victim].order);
	} else {
		release_hands(c, victim);
		clock_remove(c, victim);
		c->pg[victim].place = OUT;
		c->pg[victim].order = 0;
	}
	show_hands(c);
}

static void clockpro_insert(void *state, const struct pl_ref *ref)
{
	struct clockpro *c = state;
	uint32_t x = ref->page;

	if (c->pg[x].place == GHOST) {
		/* non-resident, in its test period: a small reuse distance */
		release_hands(c, x);
		clock_remove(c, x);
		c->nghost--;
		clock_push(c, x);
		c->pg[x].place = RESIDENT;
		pl_emit_move(c->ctx, x, TEST, CLOCK, c->ctx->nresident);
		set_field(c, &c->pg[x].hot, HOT, x, 1);
		set_field(c, &c->pg[x].test, IN_TEST, x, 0);
		set_order(c, x);
		c->nhot++;
		raise_mc(c);
	} else {
		clock_push(c, x);
		c->pg[x].place = RESIDENT;
		pl_emit_insert(c->ctx, x, CLOCK, c->ctx->nresident);
		set_field(c, &c->pg[x].test, IN_TEST, x, 1);
		set_order(c, x);
		c->ncold++;
		cold_join(c, x);
	}
	if (c->hand_cold == PL_NONE)
		c->hand_cold = x;
	if (c->hand_test == PL_NONE)
		c->hand_test = c->pg[x].slot;
	while (c->nhot > c->m - c->mc)
		run_hot_hand(c);
	run_test_hand(c);
	show_hands(c);
	request_hands(c);
}

/*
 * A reference ahead (policy.h, "Prefetching"): the far page's record.
 * Where the hands start at the next fault is requested as a fault ends
 * (request_hands()).
 */
static void clockpro_prefetch(const void *state, uint32_t far, uint32_t near,
			      struct pl_prefetch *out)
{
	const struct clockpro *c = state;

	(void)near;
	pl_prefetch_record(out, &c->pg[far], sizeof(*c->pg));
}

static void clockpro_hit(void *state, const struct pl_ref *ref)
{
	struct clockpro *c = state;

	set_field(c, &c->pg[ref->page].ref, REFERENCED, ref->page, 1);
}

static void clockpro_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct clockpro *c = state;
	uint32_t at[NHANDS] = { clock_head(c), c->hand_cold,
				c->hand_test != PL_NONE ? c->clock.id[c->hand_test] : PL_NONE };

	for (unsigned l = CLOCK; l <= TEST; l++) {
		for (uint32_t slot = c->clock.lo; slot < c->clock.hi; slot++) {
			uint32_t p = c->clock.id[slot];
			int32_t v[4];

			if (p == PL_NONE || resident(c, p) != (l == CLOCK))
				continue;
			v[HOT] = c->pg[p].hot;
			v[IN_TEST] = c->pg[p].test;
			v[REFERENCED] = c->pg[p].ref;
			v[ORDER] = (int32_t)c->pg[p].order;
			pl_snapshot_push(out, l, p, v);
		}
	}
	for (unsigned h = 0; h < NHANDS; h++) {
		int32_t pos = 0;

		for (uint32_t slot = c->clock.lo; at[h] != PL_NONE && c->clock.id[slot] != at[h]; slot++)
			pos += c->clock.id[slot] != PL_NONE;
		pl_snapshot_set_hand(out, h, pos);
	}
}

static void clockpro_read_counters(const void *state, uint64_t *counters)
{
	const struct clockpro *c = state;

	counters[COLD_TARGET] = c->mc;
	counters[PROMOTIONS] = c->promotions;
	counters[TESTS_EXPIRED] = c->tests_expired;
	counters[TEST_HAND_STEPS] = c->test_hand_steps;
}

static const char *const clockpro_lists[] = { [CLOCK] = "clock", [TEST] = "test" };
static const char *const clockpro_fields[] = {
	[HOT] = "hot", [IN_TEST] = "test", [REFERENCED] = "referenced", [ORDER] = "order",
};
static const char *const clockpro_hands[] = {
	[HAND_HOT] = "hand_hot", [HAND_COLD] = "hand_cold", [HAND_TEST] = "hand_test",
};
static const unsigned clockpro_hand_lists[] = { CLOCK, CLOCK, CLOCK };
static const char *const clockpro_counters[] = {
	[COLD_TARGET] = "cold_target", [PROMOTIONS] = "promotions",
	[TESTS_EXPIRED] = "tests_expired", [TEST_HAND_STEPS] = "test_hand_steps",
};

const struct pl_policy_ops pl_policy_clockpro = {
	.name = "clockpro",
	.title = "CLOCK-Pro",
	.help = "LIRS on a clock: cold pages get a test period, and one re-used during it "
		"turns hot; three hands evict cold pages, turn old hot pages cold and end "
		"test periods; the cold share adapts.",
	.flags = PL_POLICY_SPARSE,
	.lists = clockpro_lists,
	.nlists = 2,
	.ghost_lists = 1u << TEST,
	.fields = clockpro_fields,
	.nfields = 4,
	.hands = clockpro_hands,
	.hand_lists = clockpro_hand_lists,
	.nhands = NHANDS,
	.counters = clockpro_counters,
	.ncounters = 4,
	.create = clockpro_create,
	.destroy = clockpro_destroy,
	.hit = clockpro_hit,
	.insert = clockpro_insert,
	.victim = clockpro_victim,
	.evict = clockpro_evict,
	.prefetch = clockpro_prefetch,
	.snapshot = clockpro_snapshot,
	.read_counters = clockpro_read_counters,
};
