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
 * Data structure: the reference bits are a bitmap by slot (8 KB for 64K
 * frames: it stays in the L1 cache), so the hand's sweep is word-at-a-time:
 * victim() finds the first clear bit from the hand with a shift and a
 * count of trailing zeros, and evict() clears the bits the hand passes
 * (all set, by definition of the victim) and counts them by the distance;
 * when the victim is in the hand's word, the usual case, that is an add
 * and an and, with no branch on where the bits are.  A hit finds its
 * page's slot in the frame table's index by page (4 MB for a million
 * pages), which prefetch() asks for PL_PREFETCH_FAR references ahead.
 * While recording, evict() sweeps slot by slot instead, emitting SET for
 * each cleared bit and HAND for each step of the hand: the animation the
 * browser plays.  The victim's residency byte, which the driver reads, is
 * not requested ahead: measured, the requests (of the likely victim 32
 * slots on, or one to eight faults on) cost more time than they saved.
 *
 * Cost: O(1) per hit; per fault O(1) amortized, since each slot the hand
 * passes costs one reference bit that an earlier reference set (a sweep is
 * at most one turn, O(frames / 64) words, when every bit is set).
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "frame_table.h"

enum { CLOCK_FRAMES };
enum { CLOCK_REFERENCED };
enum { CLOCK_HAND };
enum { CLOCK_SECOND_CHANCES };
enum { PARAM_REF_ON_LOAD };

struct clock {
	struct pl_ctx *ctx;
	struct frame_table table;
	/*
	 * Bit s % 64 of word s / 64: slot s's reference bit.  The bits of the
	 * slots not handed out yet (at and above table.used, up to the end of
	 * the last word) are set, so that the hand's sweep, which stops at a
	 * clear bit, never stops there and needs no bound.
	 */
	uint64_t *referenced;
	uint32_t nwords;
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
	c->ctx = ctx;
	c->ref_on_load = (uint8_t)ctx->params[PARAM_REF_ON_LOAD];
	c->nwords = frames_usable(ctx) / 64 + 1;
	c->referenced = malloc(c->nwords * sizeof(*c->referenced));
	if (!c->referenced) {
		clock_destroy(c);
		snprintf(err->msg, sizeof(err->msg), "out of memory for CLOCK");
		return NULL;
	}
	memset(c->referenced, 0xff, c->nwords * sizeof(*c->referenced));
	return c;
}

static inline bool referenced(const struct clock *c, uint32_t slot)
{
	return c->referenced[slot / 64] >> (slot % 64) & 1;
}

/*
 * Inline: a hit is this call.  The bit is read only for the event, so a
 * hit that records nothing is one or of the bitmap's word.
 */
static inline void set_referenced(struct clock *c, uint32_t slot, bool bit)
{
	uint64_t *word = &c->referenced[slot / 64];
	uint64_t mask = 1ull << (slot % 64);

	if (pl_recording(c->ctx) && referenced(c, slot) != bit)
		pl_emit_set(c->ctx, c->table.slot_page[slot], CLOCK_REFERENCED, !bit, bit);
	*word = bit ? *word | mask : *word & ~mask;
}

/* next_clear() past the word of `slot`: the rest of the turn, word by word. */
static uint32_t next_clear_beyond(const struct clock *c, uint32_t slot)
{
	uint32_t w = slot / 64;

	for (uint32_t i = 1; i <= c->nwords; i++) {
		uint32_t k = w + i < c->nwords ? w + i : w + i - c->nwords;
		uint64_t clear = ~c->referenced[k];

		if (k == w)	/* back in the first word: the bits below slot */
			clear &= (1ull << (slot % 64)) - 1;
		if (clear)
			return k * 64 + (uint32_t)__builtin_ctzll(clear);
	}
	return slot;
}

/*
 * The first slot at or after `slot` whose bit is clear, going round the
 * clock; `slot` itself if every bit is set.  Usually in the same word.
 */
static inline uint32_t next_clear(const struct clock *c, uint32_t slot)
{
	uint64_t clear = ~c->referenced[slot / 64] >> (slot % 64);

	if (__builtin_expect(clear != 0, 1))
		return slot + (uint32_t)__builtin_ctzll(clear);
	return next_clear_beyond(c, slot);
}

/* Clears the bits of the slots in [from, to) (nothing if to <= from). */
static void clear_bits(struct clock *c, uint32_t from, uint32_t to)
{
	uint32_t w = from / 64, last;
	uint64_t head, tail;

	if (to <= from)
		return;
	last = (to - 1) / 64;
	head = ~0ull << (from % 64);
	tail = ~0ull >> (63 - (to - 1) % 64);
	if (w == last) {
		c->referenced[w] &= ~(head & tail);
		return;
	}
	c->referenced[w] &= ~head;
	while (++w < last)
		c->referenced[w] = 0;
	c->referenced[last] &= ~tail;
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

/* The far page's slot number: a hit then finds it in the cache. */
static void clock_prefetch(const void *state, uint32_t far, uint32_t near,
			   struct pl_prefetch *out)
{
	const struct clock *c = state;

	(void)near;
	pl_prefetch(out, &c->table.page_slot[far]);
}

static void clock_hit(void *state, const struct pl_ref *ref)
{
	struct clock *c = state;

	set_referenced(c, c->table.page_slot[ref->page], 1);
}

static void clock_insert(void *state, const struct pl_ref *ref)
{
	struct clock *c = state;
	/* Refilling the victim's slot (rather than a never-used one) is when
	 * the hand moves past the new page. */
	bool refill = c->table.hole != PL_NONE;
	uint32_t slot = frame_table_insert(&c->table, c->ctx, ref->page);
	uint64_t *word = &c->referenced[slot / 64];

	/*
	 * The page enters with its bit ref_on_load, from clear: the victim's
	 * bit was, and a slot handed out for the first time loses its
	 * sentinel.  Written, not tested: one store either way.
	 */
	if (c->ref_on_load)
		pl_emit_set(c->ctx, ref->page, CLOCK_REFERENCED, 0, 1);
	*word = (*word & ~(1ull << (slot % 64))) | (uint64_t)c->ref_on_load << (slot % 64);
	if (refill)
		advance_hand(c);
}

static uint32_t clock_victim(const void *state)
{
	const struct clock *c = state;

	return c->table.slot_page[next_clear(c, c->hand)];
}

/* The sweep slot by slot, with its events, up to the victim's slot. */
static void sweep_recorded(struct clock *c, uint32_t victim)
{
	for (;;) {
		uint32_t slot = c->hand;

		if (!referenced(c, slot)) {
			if (c->table.slot_page[slot] == victim)
				break;
		} else {
			set_referenced(c, slot, 0);
			c->second_chances++;
		}
		advance_hand(c);
	}
}

/*
 * The sweep a word at a time, to the victim's slot `to`: every bit from
 * the hand up to it is set (the victim's is the first clear one), so they
 * are cleared with masks and counted by the distance.  If every bit is
 * set (`to` is the hand, its bit set), the hand goes round once, clearing
 * them all, and is back where it started.
 */
static void sweep_words(struct clock *c, uint32_t to)
{
	uint32_t from = c->hand, used = c->table.used;
	uint32_t passed;

	if (to >= from && !(to == from && referenced(c, from))) {
		clear_bits(c, from, to);
		passed = to - from;
	} else {	/* round the end of the table, or a whole turn */
		clear_bits(c, from, used);
		clear_bits(c, 0, to == from ? used : to);
		passed = used - from + to;
	}
	c->second_chances += passed;
	c->hand = to;
}

/*
 * The sweep when nothing records.  Usually the victim is in the hand's
 * word: the set bits from the hand's up to it are one run, which adding
 * the hand's bit turns to zeros (and the victim's, clear, to one), so an
 * and with the sum clears the run and nothing else.
 */
static inline void sweep(struct clock *c)
{
	uint32_t from = c->hand;
	uint64_t *word = &c->referenced[from / 64];
	uint64_t clear = ~*word >> (from % 64);

	if (__builtin_expect(clear == 0, 0)) {
		sweep_words(c, next_clear_beyond(c, from));
		return;
	}
	*word &= *word + (1ull << (from % 64));
	c->second_chances += (uint32_t)__builtin_ctzll(clear);
	c->hand = from + (uint32_t)__builtin_ctzll(clear);
}

static void clock_evict(void *state, uint32_t victim)
{
	struct clock *c = state;

	if (pl_recording(c->ctx))
		sweep_recorded(c, victim);
	else
		sweep(c);
	/* The victim is at the hand: no need to look its slot up. */
	frame_table_evict_slot(&c->table, c->ctx, c->hand);
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	const struct clock *c = state;

	values[CLOCK_REFERENCED] = referenced(c, c->table.page_slot[page]);
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
	.flags = PL_POLICY_SPARSE,
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
	.prefetch = clock_prefetch,
	.insert = clock_insert,
	.victim = clock_victim,
	.evict = clock_evict,
	.snapshot = clock_snapshot,
	.read_counters = clock_read_counters,
};
