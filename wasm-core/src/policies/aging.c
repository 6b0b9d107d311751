/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aging.c - Aging (Tanenbaum, Modern Operating Systems 4e, 3.4.7; the
 * additional-reference-bits algorithm of Silberschatz, Operating System
 * Concepts 10e, 10.4.5.1): a software approximation of LRU.  Each page
 * keeps an n-bit counter; at every clock tick the counter shifts right by
 * one and the page's reference bit R enters at the top, then R is cleared.
 * The counter thus reads as the page's reference history, most recent tick
 * in the highest bit, and the page with the smallest counter is the least
 * recently used one as far as the last n ticks can tell.
 *
 * Structure: one list "frames", the frame table; each page has the fields
 * "referenced" (R) and "counter".
 *
 * Transitions
 *   hit          R := 1.
 *   load         R := 1, counter := 0 (the history starts at the next tick).
 *   tick         every tick_period references (before the reference), for
 *                every resident page: counter := counter >> 1 | R << (n-1),
 *                then R := 0.
 *   fault, full  the victim is the page with the smallest counter; among
 *                equal counters, the page loaded first.  The new page takes
 *                its slot.
 *
 * Consequence worth showing students: between two ticks a freshly loaded
 * page has counter 0, so it is evicted before any page whose counter is
 * non-zero; the tie-break only protects it from older pages whose counter
 * has decayed to 0 as well.
 *
 * Parameters
 *   bits         n, the width of the counter (default 8, 1..31).
 *   tick_period  references between two ticks; 0 (the default) means
 *                "frames".
 *
 * Cost: a tick is O(frames * ceil(n/8)): it updates every counter and
 * sorts the resident pages by counter with a stable radix sort over pages
 * in load order.  Between ticks counters do not change, so a fault is O(1):
 * the victim is either the next page of that sorted order or, once the
 * sorted pages left have a non-zero counter, the oldest page loaded since
 * the tick.  With tick_period >= frames (the default) this is O(ceil(n/8))
 * = O(1) amortized per reference.  The counters are kept by frame slot, so
 * the tick's walk and sort stay within frame-sized arrays; the R bits are a
 * bitmap by page (128 KB for a million pages, in the L2 cache), so a hit
 * sets a bit and reads no index (a page that is not resident has R clear).
 * A tick ages the counters in slot order and makes its events, while
 * recording, in load order; evict() finds the victim's slot at the head of
 * its queue, as victim() did, and the snapshot reads the fields by slot,
 * so the frame table keeps no index by page (a fault writes no 4 MB
 * array).  The victims to come are known (the next fresh page, the sorted
 * pages in order), so their residency bytes, which the driver reads, are
 * requested from memory before their fault.
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"
#include "dlist.h"

enum { AGING_FRAMES };
enum { AGING_REFERENCED, AGING_COUNTER };
enum { PARAM_BITS, PARAM_TICK_PERIOD };

/* Victims ahead whose residency bytes are requested (prefetch_victims()). */
#define PREFETCH_AHEAD 8

#define RADIX_BITS 8
#define RADIX (1u << RADIX_BITS)

struct aging {
	struct pl_ctx *ctx;
	struct frame_table table;
	unsigned bits;
	uint64_t *referenced;		/* bit p % 64 of word p / 64: page p's R */
	uint32_t *counter;		/* [slot] */
	struct pl_links links;		/* over slots */
	struct pl_dlist loaded;		/* occupied slots, loaded first at the head */
	uint32_t first_fresh;		/* slot of the first page loaded since the tick,
					 * or PL_NONE */
	uint32_t *sorted;		/* slots at the last tick by (counter, load) */
	uint32_t *scratch;		/* for the radix sort */
	uint32_t nsorted, cursor;	/* sorted[cursor .. nsorted-1] are still resident */
};

static void aging_destroy(void *state)
{
	struct aging *a = state;

	if (!a)
		return;
	frame_table_free(&a->table);
	pl_links_free(&a->links);
	free(a->referenced);
	free(a->counter);
	free(a->sorted);
	free(a->scratch);
	free(a);
}

static void *aging_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct aging *a = calloc(1, sizeof(*a));
	uint32_t slots = frames_usable(ctx);

	if (!a) {
		snprintf(err->msg, sizeof(err->msg), "out of memory for Aging");
		return NULL;
	}
	a->ctx = ctx;
	if (frame_table_init(&a->table, ctx, AGING_FRAMES, err)) {
		free(a);
		return NULL;
	}
	frame_table_drop_index(&a->table);	/* slots are found by the queues */
	a->referenced = calloc(ctx->npages / 64 + 1, sizeof(*a->referenced));
	a->counter = calloc(slots, sizeof(*a->counter));
	a->sorted = malloc(slots * sizeof(*a->sorted));
	a->scratch = malloc(slots * sizeof(*a->scratch));
	if (pl_links_init(&a->links, slots) || !a->referenced || !a->counter ||
	    !a->sorted || !a->scratch) {
		aging_destroy(a);
		snprintf(err->msg, sizeof(err->msg), "out of memory for Aging");
		return NULL;
	}
	a->bits = (unsigned)ctx->params[PARAM_BITS];
	pl_dlist_init(&a->loaded);
	a->first_fresh = PL_NONE;
	ctx->tick_period = ctx->params[PARAM_TICK_PERIOD] ?
			   (uint32_t)ctx->params[PARAM_TICK_PERIOD] : ctx->frames;
	return a;
}

static inline bool referenced(const struct aging *a, uint32_t page)
{
	return a->referenced[page / 64] >> (page % 64) & 1;
}

/* Sets R; the bit is read only for the event. */
static inline void set_referenced(struct aging *a, uint32_t page)
{
	if (pl_recording(a->ctx) && !referenced(a, page))
		pl_emit_set(a->ctx, page, AGING_REFERENCED, 0, 1);
	a->referenced[page / 64] |= 1ull << (page % 64);
}

/* Clears R without an event: the page is leaving, or its event is made. */
static inline void clear_referenced(struct aging *a, uint32_t page)
{
	a->referenced[page / 64] &= ~(1ull << (page % 64));
}

static void aging_hit(void *state, const struct pl_ref *ref)
{
	set_referenced(state, ref->page);
}

static void aging_insert(void *state, const struct pl_ref *ref)
{
	struct aging *a = state;
	uint32_t slot = frame_table_insert(&a->table, a->ctx, ref->page);

	/* The page enters with every field 0, whatever its slot had (its R
	 * is clear, as every page not resident has it). */
	a->counter[slot] = 0;
	pl_dlist_push_tail(&a->links, &a->loaded, slot);
	if (a->first_fresh == PL_NONE)
		a->first_fresh = slot;
	set_referenced(a, ref->page);
}

/* The counter of the page in `slot` once its R bit is shifted in. */
static uint32_t aged(const struct aging *a, uint32_t slot)
{
	uint32_t r = referenced(a, a->table.slot_page[slot]);

	return a->counter[slot] >> 1 | r << (a->bits - 1);
}

/* The tick's events, page by page in load order: the counter, then R. */
static void record_ageing(struct aging *a)
{
	for (uint32_t s = a->loaded.head; s != PL_NONE; s = a->links.link[s].next) {
		uint32_t page = a->table.slot_page[s];
		uint32_t to = aged(a, s);

		if (to != a->counter[s])
			pl_emit_set(a->ctx, page, AGING_COUNTER, (int32_t)a->counter[s],
				    (int32_t)to);
		if (referenced(a, page))
			pl_emit_set(a->ctx, page, AGING_REFERENCED, 1, 0);
	}
}

/*
 * Shifts every R bit into its counter and clears R, in slot order, and
 * counts the new counters' lowest digits into count[] for the sort.  What
 * the loop reads is in locals: its stores could change a->bits as far as
 * the compiler knows.
 */
static void age_all(struct aging *a, uint32_t count[RADIX])
{
	const uint32_t *slot_page = a->table.slot_page;
	uint64_t *referenced = a->referenced;
	uint32_t *counter = a->counter;
	unsigned top = a->bits - 1;

	for (uint32_t s = 0, used = a->table.used; s < used; s++) {
		uint32_t page = slot_page[s];
		uint64_t *word = &referenced[page / 64];

		counter[s] = counter[s] >> 1 | (uint32_t)(*word >> (page % 64) & 1) << top;
		*word &= ~(1ull << (page % 64));
		count[counter[s] & (RADIX - 1)]++;
	}
}

static unsigned digit(const struct aging *a, uint32_t slot, unsigned shift)
{
	return (a->counter[slot] >> shift) & (RADIX - 1);
}

/* Turns the count of each digit into the position of its first entry. */
static void counts_to_starts(uint32_t start[RADIX])
{
	for (uint32_t d = 0, sum = 0; d < RADIX; d++) {
		uint32_t count = start[d];

		start[d] = sum;
		sum += count;
	}
}

/* One stable counting-sort pass of sorted[] by the digit at `shift`. */
static void radix_pass(struct aging *a, unsigned shift)
{
	uint32_t start[RADIX] = { 0 };
	uint32_t *sorted = a->scratch;

	for (uint32_t i = 0; i < a->nsorted; i++)
		start[digit(a, a->sorted[i], shift)]++;
	counts_to_starts(start);
	for (uint32_t i = 0; i < a->nsorted; i++) {
		uint32_t slot = a->sorted[i];

		sorted[start[digit(a, slot, shift)]++] = slot;
	}
	a->scratch = a->sorted;
	a->sorted = sorted;
}

/*
 * Stable LSD radix sort of the resident pages by counter into sorted[],
 * equal counters in load order.  The first pass takes the pages from the
 * list in load order, with the counts of the lowest digit that age_all()
 * made.
 */
static void sort_by_counter(struct aging *a, uint32_t start[RADIX])
{
	counts_to_starts(start);
	a->nsorted = 0;
	for (uint32_t s = a->loaded.head; s != PL_NONE; s = a->links.link[s].next) {
		a->sorted[start[digit(a, s, 0)]++] = s;
		a->nsorted++;
	}
	for (unsigned shift = RADIX_BITS; shift < a->bits; shift += RADIX_BITS)
		radix_pass(a, shift);
}

static void aging_tick(void *state, uint32_t step)
{
	struct aging *a = state;
	uint32_t count[RADIX] = { 0 };

	(void)step;
	if (pl_recording(a->ctx))
		record_ageing(a);
	age_all(a, count);
	sort_by_counter(a, count);
	a->cursor = 0;
	a->first_fresh = PL_NONE;
}

/* The victim's slot: the head of one of two queues. */
static uint32_t victim_slot(const struct aging *a)
{
	uint32_t old = a->cursor < a->nsorted ? a->sorted[a->cursor] : PL_NONE;

	/* Pages loaded since the tick have counter 0 and were loaded after
	 * every sorted page: they come after the sorted pages of counter 0. */
	if (old != PL_NONE && (a->counter[old] == 0 || a->first_fresh == PL_NONE))
		return old;
	return a->first_fresh;
}

static uint32_t aging_victim(const void *state)
{
	return ((const struct aging *)state)->table.slot_page[victim_slot(state)];
}

/*
 * Requests the residency bytes of the coming victims, which the driver
 * reads (on a large trace, cache misses): of the next fresh page, and of
 * the sorted page PREFETCH_AHEAD places on, whose slot number is asked for
 * as far again ahead.  Hints only.  Always inline: a call that only reads
 * and prefetches counts as free of effects, and the compiler drops it.
 */
static inline __attribute__((always_inline)) void prefetch_victims(const struct aging *a)
{
	uint32_t ahead = a->cursor + PREFETCH_AHEAD;

	if (a->first_fresh != PL_NONE)
		pl_prefetch_state(a->ctx, a->table.slot_page[a->first_fresh]);
	if (ahead + PREFETCH_AHEAD < a->nsorted)
		__builtin_prefetch(&a->table.slot_page[a->sorted[ahead + PREFETCH_AHEAD]]);
	if (ahead < a->nsorted)
		pl_prefetch_state(a->ctx, a->table.slot_page[a->sorted[ahead]]);
}

static void aging_evict(void *state, uint32_t victim)
{
	struct aging *a = state;
	uint32_t slot = victim_slot(a);

	/* victim is what aging_victim() named: its slot is found again. */
	if (slot == a->first_fresh)
		a->first_fresh = a->links.link[slot].next;
	else
		a->cursor++;
	pl_dlist_remove(&a->links, &a->loaded, slot);
	clear_referenced(a, victim);
	frame_table_evict_slot(&a->table, a->ctx, slot);
	prefetch_victims(a);
}

static void fill_fields(const void *state, uint32_t slot, int32_t *values)
{
	const struct aging *a = state;

	values[AGING_REFERENCED] = referenced(a, a->table.slot_page[slot]);
	values[AGING_COUNTER] = (int32_t)a->counter[slot];
}

static void aging_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct aging *a = state;

	frame_table_snapshot_by_slot(&a->table, out, fill_fields, a);
}

static const struct pl_param aging_params[] = {
	[PARAM_BITS] = {
		.name = "bits",
		.help = "width n of each page's age counter",
		.def = 8, .min = 1, .max = 31,
	},
	[PARAM_TICK_PERIOD] = {
		.name = "tick_period",
		.help = "references between two ticks that age the counters (0: one per frames)",
		.def = 0, .min = 0, .max = UINT32_MAX - 1,
	},
};

static const char *const aging_lists[] = { [AGING_FRAMES] = "frames" };
static const char *const aging_fields[] = {
	[AGING_REFERENCED] = "referenced",
	[AGING_COUNTER] = "counter",
};

const struct pl_policy_ops pl_policy_aging = {
	.name = "aging",
	.title = "Aging",
	.help = "Each tick shifts every page's reference bit into an n-bit counter; a fault "
		"evicts the page with the smallest counter (oldest loaded among equals).",
	.flags = PL_POLICY_SPARSE,
	.params = aging_params,
	.nparams = 2,
	.lists = aging_lists,
	.nlists = 1,
	.fields = aging_fields,
	.nfields = 2,
	.create = aging_create,
	.destroy = aging_destroy,
	.hit = aging_hit,
	.insert = aging_insert,
	.victim = aging_victim,
	.evict = aging_evict,
	.tick = aging_tick,
	.snapshot = aging_snapshot,
};
