/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.c - CLOCK, the second-chance algorithm (Corbato 1968; Silberschatz,
 * Operating System Concepts 10e, 10.4.5.2; Tanenbaum, Modern Operating
 * Systems 4e, 3.4.5).
 *
 * Structure: one list "frames", the frame table, drawn as a clock face; a
 * hand "hand" on it points at the slot that is looked at next.  Each page
 * has a field "referenced", the hardware reference bit.
 *
 * Transitions
 *   hit          referenced := 1.  The hand does not move.
 *   fault, room  the page takes the next free slot (slots fill 0, 1, 2...;
 *                the hand stays on slot 0, the oldest page).
 *   fault, full  the hand sweeps: a page with referenced = 1 gets a second
 *                chance (referenced := 0, counted in second_chances) and
 *                the hand moves on; the first page with referenced = 0 is
 *                the victim.  If every bit is set, the hand goes round once
 *                clearing them all and evicts the page it started on
 *                (CLOCK then degenerates to FIFO).  The new page takes the
 *                victim's slot and the hand moves one past it.
 *   load         referenced := ref_on_load.
 *
 * Parameters
 *   ref_on_load  the reference bit of a page just loaded: "set" (1, the
 *                default: the access that faulted references the page, and
 *                the MMU records it when the access is retried) or "clear"
 *                (0: the convention of many course notes and exam problems,
 *                where only a later hit earns the second chance).  The
 *                textbooks leave it implicit and exercises differ; the
 *                choice changes fault counts (14 against 11 on
 *                Silberschatz's string with 3 frames, test_classic.c).
 *
 * victim() scans from the hand without clearing; evict() then performs the
 * sweep it predicted, emitting SET for each cleared bit and HAND for each
 * step of the hand.
 *
 * Data structure: the frame table keeps no index by page (a page leaves
 * from the slot the hand stopped at), and the reference bits are a bitmap
 * by page (128 KB for a million pages: it stays in the L2 cache), so a hit
 * sets a bit and touches nothing else.  A page that is not resident has
 * its bit clear: the hand only ever evicts a page whose bit is clear.  The
 * pages the hand will reach next are known (they are the next slots), so
 * their bits and residency bytes are requested from memory PREFETCH_AHEAD
 * slots before it gets there.
 *
 * Cost: O(1) per hit; per fault O(1) amortized, since each slot the hand
 * passes costs one reference bit that an earlier reference set (a sweep is
 * at most one turn, O(frames), when every bit is set).
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"

enum { CLOCK_FRAMES };
enum { CLOCK_REFERENCED };
enum { CLOCK_HAND };
enum { CLOCK_SECOND_CHANCES };
enum { PARAM_REF_ON_LOAD };

/* Slots ahead of the hand whose pages are requested from memory. */
#define PREFETCH_AHEAD 16

struct clock {
	struct pl_ctx *ctx;
	struct frame_table table;	/* without its index by page */
	uint64_t *referenced;	/* bit p % 64 of word p / 64: page p's reference bit */
	uint32_t hand;		/* slot */
	uint8_t ref_on_load;
	uint64_t second_chances;
};

static void clock_destroy(void *state)
{
	struct clock *c = state;

	if (!c)
		return;
	frame_table_free(&c->table);
	free(c->referenced);
	free(c);
}

static void *clock_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct clock *c = calloc(1, sizeof(*c));

	if (!c || frame_table_init(&c->table, ctx, CLOCK_FRAMES, err)) {
		if (!c)
			snprintf(err->msg, sizeof(err->msg), "out of memory for CLOCK");
		free(c);
		return NULL;
	}
	frame_table_drop_index(&c->table);	/* the victim is found by the hand */
	c->ctx = ctx;
	c->ref_on_load = (uint8_t)ctx->params[PARAM_REF_ON_LOAD];
	c->referenced = calloc(ctx->npages / 64 + 1, sizeof(*c->referenced));
	if (!c->referenced) {
		clock_destroy(c);
		snprintf(err->msg, sizeof(err->msg), "out of memory for CLOCK");
		return NULL;
	}
	return c;
}

static inline bool referenced(const struct clock *c, uint32_t page)
{
	return c->referenced[page / 64] >> (page % 64) & 1;
}

/*
 * Inline: a hit is this call.  The bit is read only for the event, so a
 * hit that records nothing is one or of the bitmap's word.
 */
static inline void set_referenced(struct clock *c, uint32_t page, bool bit)
{
	uint64_t *word = &c->referenced[page / 64];
	uint64_t mask = 1ull << (page % 64);

	if (c->ctx->recording && referenced(c, page) != bit)
		pl_emit_set(c->ctx, page, CLOCK_REFERENCED, !bit, bit);
	*word = bit ? *word | mask : *word & ~mask;
}

static uint32_t slot_after(const struct clock *c, uint32_t slot)
{
	return slot + 1 == c->table.used ? 0 : slot + 1;
}

static void advance_hand(struct clock *c)
{
	uint32_t to = slot_after(c, c->hand);

	if (to != c->hand)	/* with one frame the hand never moves */
		pl_emit_hand(c->ctx, CLOCK_HAND, c->hand, to);
	c->hand = to;
}

/*
 * Requests the bit and residency byte of the page PREFETCH_AHEAD slots
 * past `slot`: the hand's sweep reads both, and on a large trace each is a
 * cache miss.  During evict() every slot below `used` holds a page.
 */
static void prefetch_ahead(const struct clock *c, uint32_t slot)
{
	uint32_t ahead = slot + PREFETCH_AHEAD;
	uint32_t page;

	if (c->table.used <= PREFETCH_AHEAD)
		return;
	if (ahead >= c->table.used)
		ahead -= c->table.used;
	page = c->table.slot_page[ahead];
	__builtin_prefetch(&c->referenced[page / 64]);
	pl_prefetch_state(c->ctx, page);
}

static void clock_hit(void *state, const struct pl_ref *ref)
{
	set_referenced(state, ref->page, 1);
}

static void clock_insert(void *state, const struct pl_ref *ref)
{
	struct clock *c = state;
	/* Refilling the victim's slot (rather than a never-used one) is when
	 * the hand moves past the new page. */
	bool refill = c->table.hole != PL_NONE;

	frame_table_insert(&c->table, c->ctx, ref->page);
	/* The page enters with its bit clear, as every page not resident has it. */
	set_referenced(c, ref->page, c->ref_on_load);
	if (refill)
		advance_hand(c);
}

static uint32_t clock_victim(const void *state)
{
	const struct clock *c = state;
	uint32_t slot = c->hand;

	for (uint32_t looked = 0; looked < c->table.used; looked++) {
		uint32_t page = c->table.slot_page[slot];

		if (!referenced(c, page))
			return page;
		slot = slot_after(c, slot);
	}
	return c->table.slot_page[c->hand];
}

static void clock_evict(void *state, uint32_t victim)
{
	struct clock *c = state;

	for (;;) {
		uint32_t page = c->table.slot_page[c->hand];

		prefetch_ahead(c, c->hand);
		if (!referenced(c, page)) {
			if (page == victim)
				break;
		} else {
			set_referenced(c, page, 0);
			c->second_chances++;
		}
		advance_hand(c);
	}
	/* The victim is at the hand: no need to look its slot up. */
	frame_table_evict_slot(&c->table, c->ctx, c->hand);
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	values[CLOCK_REFERENCED] = referenced(state, page);
}

static void clock_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct clock *c = state;

	frame_table_snapshot(&c->table, out, fill_fields, c);
	pl_snapshot_set_hand(out, CLOCK_HAND, (int32_t)c->hand);
}

static void clock_read_counters(const void *state, uint64_t *counters)
{
	const struct clock *c = state;

	counters[CLOCK_SECOND_CHANCES] = c->second_chances;
}

static const char *const ref_on_load_choices[] = { "clear", "set", NULL };

static const struct pl_param clock_params[] = {
	[PARAM_REF_ON_LOAD] = {
		.name = "ref_on_load",
		.help = "reference bit of a page just loaded: set (textbook hardware) or clear",
		.def = 1, .min = 0, .max = 1,
		.choices = ref_on_load_choices,
	},
};

static const char *const clock_lists[] = { [CLOCK_FRAMES] = "frames" };
static const char *const clock_fields[] = { [CLOCK_REFERENCED] = "referenced" };
static const char *const clock_hands[] = { [CLOCK_HAND] = "hand" };
static const unsigned clock_hand_lists[] = { [CLOCK_HAND] = CLOCK_FRAMES };
static const char *const clock_counters[] = { [CLOCK_SECOND_CHANCES] = "second_chances" };

const struct pl_policy_ops pl_policy_clock = {
	.name = "clock",
	.title = "CLOCK (second chance)",
	.help = "Frames on a clock face; the hand evicts the first page whose reference bit "
		"is clear, clearing set bits (a second chance) as it passes.",
	.params = clock_params,
	.nparams = 1,
	.lists = clock_lists,
	.nlists = 1,
	.fields = clock_fields,
	.nfields = 1,
	.hands = clock_hands,
	.hand_lists = clock_hand_lists,
	.nhands = 1,
	.counters = clock_counters,
	.ncounters = 1,
	.create = clock_create,
	.destroy = clock_destroy,
	.hit = clock_hit,
	.insert = clock_insert,
	.victim = clock_victim,
	.evict = clock_evict,
	.snapshot = clock_snapshot,
	.read_counters = clock_read_counters,
};
