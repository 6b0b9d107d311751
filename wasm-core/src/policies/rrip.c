/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rrip.c - Re-Reference Interval Prediction (Jaleel, Theobald, Steely and
 * Emer, ISCA 2010): "srrip" (static RRIP, hit priority), "srrip_fp" (static
 * RRIP, frequency priority), "brrip" (bimodal RRIP) and "drrip" (dynamic
 * RRIP: set dueling between SRRIP and BRRIP, section 4 of the paper), four
 * ops tables sharing all their code.
 *
 * Algorithm
 *   Every resident page has an M-bit re-reference prediction value (RRPV):
 *   0 predicts a near-immediate re-reference, max = 2^M - 1 a distant one.
 *   Pages sit in a fixed row of frames (frame_table.h: they fill slots
 *   0, 1, 2, ... and a new page takes the slot of the page it replaced),
 *   which is the "left to right" of the paper's and seed 000's Figure 2.
 *   On a miss with memory full, the victim is the leftmost page whose RRPV
 *   is max; if there is none, every RRPV is incremented until one is.
 *
 * Transition table (r = the page's RRPV)
 *                  srrip          srrip_fp            brrip
 *   insertion      r := max - 1   r := max - 1        r := max, except every
 *                                                     long_every-th insertion:
 *                                                     max - 1
 *   hit            r := 0         r := max(r - 1, 0)  r := 0
 *   eviction       leftmost page with r == max, after raising every r by
 *                  (max - highest r) when no page is at max
 *   BRRIP's epsilon is deterministic: a counter of insertions, so runs are
 *   reproducible and the lecture can say exactly which insertion is "long".
 *
 * DRRIP (set dueling)
 *   Memory here is fully associative, so the paper's sets become the pages
 *   themselves: page id p (the order of first reference) leads for SRRIP
 *   if p mod `leader_every` is 0, for BRRIP if it is 1, and follows
 *   otherwise.  A leader always inserts by its own policy; a fault on an SRRIP leader's page increments PSEL, a fault
 *   on a BRRIP leader's page decrements it (saturating at 0 and
 *   2^psel_bits - 1).  Followers insert by BRRIP while PSEL's top bit is
 *   set, else by SRRIP; PSEL starts just below the middle, so followers
 *   start as SRRIP and switch once SRRIP's leaders have missed more.  Hits
 *   and eviction are SRRIP's (hit priority), whoever inserted the page.
 *   `pin` holds PSEL at an end (srrip: 0, brrip: the top) and makes every
 *   set, leaders too, insert by that policy: drrip is then exactly srrip or
 *   brrip, which the tests check.
 *   PSEL is drrip's variable "psel" in the snapshot, with a VARIABLE event
 *   at each change, so a view can draw the duel step by step.  Like every
 *   snapshot before the first reference, drrip's is empty then (PSEL 0):
 *   the first reference sets PSEL to its starting value, with an event.
 *
 *     page id:  0      1      2   ..  leader_every - 1  | leader_every ...
 *               SRRIP  BRRIP  follow ..  follow            | SRRIP ...
 *               leader leader (PSEL)     (PSEL)            | leader
 *      miss in an SRRIP leader: PSEL++   miss in a BRRIP leader: PSEL--
 *
 * Parameters (defaults): rrpv_bits M = 2 (1 .. 5); brrip and drrip also
 * long_every = 32 (the paper's epsilon = 1/32); drrip also
 * leader_every = 32 (2 pages of every 32 lead), psel_bits = 10 and
 * pin = none.
 *
 * Counters: aging_rounds (times every RRPV was raised), long_insertions
 * (at max - 1), distant_insertions (at max); drrip also psel (its value
 * now, as its variable psel), srrip_leader_misses, brrip_leader_misses.  drrip's pages have a
 * second field, leader: 1 in an SRRIP leader set, 2 in a BRRIP one, 0
 * for followers.
 *
 * Data structure and cost
 *   RRPVs are kept by slot.  For every RRPV value a bitmap of the slots
 *   holding a page with that value, with a summary tree of 64-way words
 *   above it, and a count.  The victim is the lowest slot of the highest
 *   non-empty value: one word test per level (3 for 64K frames, at most
 *   6), and victim() only reads.  Raising every RRPV by d rotates the
 *   bitmaps (O(2^M)) and updates each slot's value with its SET event
 *   (O(frames), in memory order); each raise lifts every resident page at
 *   least one step towards max, and a page only falls back on a reference
 *   or an insertion, so raises cost amortized O(2^M) per reference (the
 *   walk without its events, when nothing records, is a vectorised add).
 *   Hits and insertions are O(1).  The index by page (frame_table.h) is
 *   read on a hit only: evict() finds its victim's slot again in the
 *   bitmaps, which stay in the cache, as victim() did.
 */
#include <stdlib.h>
#include <string.h>

#include "frame_table.h"

#define RRIP_MAX_BITS 5
#define RRIP_VALUES (1 << RRIP_MAX_BITS)

enum rrip_variant {
	SRRIP_HP,
	SRRIP_FP,
	BRRIP,
	DRRIP,
};

enum {
	RRIP_AGING_ROUNDS, RRIP_LONG_INSERTIONS, RRIP_DISTANT_INSERTIONS, NR_RRIP_COUNTERS,
	DRRIP_PSEL = NR_RRIP_COUNTERS, DRRIP_SRRIP_LEADER_MISSES, DRRIP_BRRIP_LEADER_MISSES,
	NR_DRRIP_COUNTERS
};
enum {
	RRIP_PARAM_BITS, RRIP_PARAM_LONG_EVERY, DRRIP_PARAM_LEADER_EVERY, DRRIP_PARAM_PSEL_BITS,
	DRRIP_PARAM_PIN
};
enum { RRIP_RRPV, DRRIP_LEADER };
enum { DRRIP_VAR_PSEL };
/* drrip's leader field, and its pin parameter's choices */
enum duel_role { FOLLOWER, SRRIP_LEADER, BRRIP_LEADER };
enum { PIN_NONE, PIN_SRRIP, PIN_BRRIP };

/*
 * The slots holding pages of one RRPV value: a bitmap with a summary tree
 * above it (bit i of a word at level k + 1: word i of level k is not zero),
 * up to a single top word, so the lowest slot is found in one word test
 * per level: at most 6 levels for 2^32 frames.
 */
#define SLOT_SET_MAX_LEVELS 6

struct slot_set {
	uint64_t *level[SLOT_SET_MAX_LEVELS];	/* level[0]: bit s = slot s */
	uint32_t count;
};

struct rrip {
	struct pl_ctx *ctx;
	enum rrip_variant variant;
	int32_t max;
	uint32_t long_every;
	uint32_t brrip_insertions;	/* BRRIP's epsilon counter */
	uint32_t leader_every;
	uint32_t psel, psel_max;
	unsigned pin;
	struct frame_table frames;
	uint8_t *rrpv;		/* [frames_usable()] by slot: ageing walks it in order */
	unsigned nlevels;
	struct slot_set *by_value[RRIP_VALUES];	/* by_value[r]: pages with RRPV r */
	struct slot_set sets[RRIP_VALUES];	/* storage behind by_value */
	uint64_t count[NR_DRRIP_COUNTERS];
};

/* -------------------------------------------------------------- slot sets */

/* Allocates the levels for slots 0 .. slots-1 (at least 1); -1 when out of memory. */
static int slot_set_init(struct slot_set *set, uint32_t slots, unsigned *nlevels)
{
	uint64_t bits = slots;
	unsigned k = 0;

	do {
		bits = (bits + 63) / 64;	/* words at level k */
		set->level[k] = calloc(bits, sizeof(uint64_t));
		if (!set->level[k])
			return -1;
		k++;
	} while (bits > 1);
	*nlevels = k;
	return 0;
}

static void slot_set_add(struct slot_set *set, unsigned nlevels, uint32_t slot)
{
	for (unsigned k = 0; k < nlevels; k++, slot /= 64) {
		uint64_t *word = &set->level[k][slot / 64];
		bool was_empty = !*word;

		*word |= 1ull << (slot % 64);
		if (!was_empty)
			break;	/* the levels above already know */
	}
	set->count++;
}

static void slot_set_del(struct slot_set *set, unsigned nlevels, uint32_t slot)
{
	for (unsigned k = 0; k < nlevels; k++, slot /= 64) {
		uint64_t *word = &set->level[k][slot / 64];

		*word &= ~(1ull << (slot % 64));
		if (*word)
			break;	/* still not empty: the levels above stay */
	}
	set->count--;
}

/* The lowest slot in a non-empty set. */
static uint32_t slot_set_first(const struct slot_set *set, unsigned nlevels)
{
	uint32_t index = 0;

	for (unsigned k = nlevels; k-- > 0;)
		index = index * 64 + __builtin_ctzll(set->level[k][index]);
	return index;
}

/* ------------------------------------------------------------ RRPV updates */

static uint32_t slot_of(const struct rrip *r, uint32_t page)
{
	return r->frames.page_slot[page];
}

/* Gives `page`, resident in `slot`, the RRPV `value`. */
static void set_rrpv(struct rrip *r, uint32_t slot, uint32_t page, int32_t value)
{
	int32_t old = r->rrpv[slot];

	if (old == value)
		return;
	slot_set_del(r->by_value[old], r->nlevels, slot);
	slot_set_add(r->by_value[value], r->nlevels, slot);
	r->rrpv[slot] = (uint8_t)value;
	pl_emit_set(r->ctx, page, RRIP_RRPV, old, value);
}

static int32_t highest_rrpv(const struct rrip *r)
{
	int32_t v = r->max;

	while (v > 0 && !r->by_value[v]->count)
		v--;
	return v;
}

/* Raises every RRPV by d; no page is above max - d, so none saturates. */
static void age_all(struct rrip *r, int32_t d)
{
	struct slot_set *rotated[RRIP_VALUES];
	uint8_t *rrpv = r->rrpv;

	for (int32_t v = 0; v <= r->max; v++)
		rotated[(v + d) % (r->max + 1)] = r->by_value[v];
	memcpy(r->by_value, rotated, sizeof(rotated[0]) * (r->max + 1));
	if (pl_recording(r->ctx)) {
		for (uint32_t slot = 0; slot < r->frames.used; slot++) {
			uint32_t page = r->frames.slot_page[slot];

			if (page != PL_NONE)
				pl_emit_set(r->ctx, page, RRIP_RRPV, r->rrpv[slot],
					    r->rrpv[slot] + d);
		}
	}
	/* An empty slot's RRPV is set when a page takes it, so it may be
	 * raised with the rest: the loop then tests nothing per slot. */
	for (uint32_t slot = 0, used = r->frames.used; slot < used; slot++)
		rrpv[slot] += d;
	r->count[RRIP_AGING_ROUNDS]++;
}

/* ------------------------------------------------------------ set dueling */

static void drrip_setup(struct rrip *r, const int64_t *params)
{
	r->leader_every = (uint32_t)params[DRRIP_PARAM_LEADER_EVERY];
	r->psel_max = (1u << params[DRRIP_PARAM_PSEL_BITS]) - 1;
	r->pin = (unsigned)params[DRRIP_PARAM_PIN];
	r->psel = r->pin == PIN_BRRIP ? r->psel_max :
		  r->pin == PIN_SRRIP ? 0 : r->psel_max / 2;
	r->count[DRRIP_PSEL] = r->psel;
}

static enum duel_role role_of(const struct rrip *r, uint32_t page)
{
	uint32_t position;

	if (r->variant != DRRIP || r->pin != PIN_NONE)
		return FOLLOWER;
	position = page % r->leader_every;
	return position == 0 ? SRRIP_LEADER : position == 1 ? BRRIP_LEADER : FOLLOWER;
}

static void set_psel(struct rrip *r, uint32_t from, uint32_t to)
{
	if (from != to)
		pl_emit_variable(r->ctx, DRRIP_VAR_PSEL, (int32_t)from, (int32_t)to);
	r->psel = to;
	r->count[DRRIP_PSEL] = to;
}

/*
 * A fault on a leader's page moves PSEL away from that leader's policy.
 * `first`: the first reference, which shows PSEL's starting value.
 */
static void duel(struct rrip *r, enum duel_role role, bool first)
{
	uint32_t psel = r->psel;

	if (first)
		set_psel(r, 0, psel);
	if (role == SRRIP_LEADER) {
		r->count[DRRIP_SRRIP_LEADER_MISSES]++;
		psel += psel < r->psel_max;
	} else if (role == BRRIP_LEADER) {
		r->count[DRRIP_BRRIP_LEADER_MISSES]++;
		psel -= psel > 0;
	}
	set_psel(r, r->psel, psel);
}

/* Does an insertion of a page of this role follow BRRIP? */
static bool inserts_bimodal(const struct rrip *r, enum duel_role role)
{
	if (r->variant != DRRIP)
		return r->variant == BRRIP;
	if (role != FOLLOWER)
		return role == BRRIP_LEADER;
	return r->psel > r->psel_max / 2;	/* PSEL's top bit */
}

/* -------------------------------------------------------------------- ops */

static void rrip_destroy(void *state)
{
	struct rrip *r = state;

	if (!r)
		return;
	for (unsigned v = 0; v < RRIP_VALUES; v++)
		for (unsigned k = 0; k < SLOT_SET_MAX_LEVELS; k++)
			free(r->sets[v].level[k]);
	frame_table_free(&r->frames);
	free(r->rrpv);
	free(r);
}

static void *rrip_create(struct pl_ctx *ctx, enum rrip_variant variant, struct pl_error *err)
{
	struct rrip *r = calloc(1, sizeof(*r));

	if (!r)
		goto oom;
	r->ctx = ctx;
	r->variant = variant;
	r->max = (1 << ctx->params[RRIP_PARAM_BITS]) - 1;
	r->long_every = variant >= BRRIP ? ctx->params[RRIP_PARAM_LONG_EVERY] : 1;
	if (variant == DRRIP)
		drrip_setup(r, ctx->params);
	r->rrpv = calloc(frames_usable(ctx), 1);
	if (!r->rrpv)
		goto oom;
	if (frame_table_init(&r->frames, ctx, 0, err)) {
		rrip_destroy(r);
		return NULL;
	}
	for (int32_t v = 0; v <= r->max; v++) {
		if (slot_set_init(&r->sets[v], frames_usable(ctx), &r->nlevels))
			goto oom;
		r->by_value[v] = &r->sets[v];
	}
	return r;
oom:
	rrip_destroy(r);
	snprintf(err->msg, sizeof(err->msg), "out of memory for RRIP with %u frames",
		 ctx->frames);
	return NULL;
}

static void *srrip_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return rrip_create(ctx, SRRIP_HP, err);
}

static void *srrip_fp_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return rrip_create(ctx, SRRIP_FP, err);
}

static void *brrip_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return rrip_create(ctx, BRRIP, err);
}

static void *drrip_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return rrip_create(ctx, DRRIP, err);
}

static void rrip_hit(void *state, const struct pl_ref *ref)
{
	struct rrip *r = state;
	uint32_t slot = slot_of(r, ref->page);
	int32_t old = r->rrpv[slot];

	set_rrpv(r, slot, ref->page, r->variant == SRRIP_FP && old > 0 ? old - 1 : 0);
}

static int32_t insertion_rrpv(struct rrip *r, bool bimodal)
{
	if (bimodal && ++r->brrip_insertions % r->long_every) {
		r->count[RRIP_DISTANT_INSERTIONS]++;
		return r->max;
	}
	r->count[RRIP_LONG_INSERTIONS]++;
	return r->max - 1;
}

static void rrip_insert(void *state, const struct pl_ref *ref)
{
	struct rrip *r = state;
	uint32_t page = ref->page;
	bool first = r->frames.used == 0;	/* the first reference always faults */
	uint32_t slot = frame_table_insert(&r->frames, r->ctx, page);
	enum duel_role role = role_of(r, page);

	int32_t value;

	/* A page enters with every field 0: its RRPV's SET comes from 0. */
	if (role != FOLLOWER)
		pl_emit_set(r->ctx, page, DRRIP_LEADER, 0, role);
	if (r->variant == DRRIP)
		duel(r, role, first);
	value = insertion_rrpv(r, inserts_bimodal(r, role));
	r->rrpv[slot] = (uint8_t)value;
	slot_set_add(r->by_value[value], r->nlevels, slot);
	if (value != 0)
		pl_emit_set(r->ctx, page, RRIP_RRPV, 0, value);
}

/* The victim's slot, the leftmost of RRPV `highest`; PL_NONE if empty. */
static uint32_t victim_slot(const struct rrip *r, int32_t highest)
{
	const struct slot_set *set = r->by_value[highest];

	return set->count ? slot_set_first(set, r->nlevels) : PL_NONE;
}

static uint32_t rrip_victim(const void *state)
{
	const struct rrip *r = state;
	uint32_t slot = victim_slot(r, highest_rrpv(r));

	return slot != PL_NONE ? r->frames.slot_page[slot] : PL_NONE;
}

static void rrip_evict(void *state, uint32_t victim)
{
	struct rrip *r = state;
	int32_t highest = highest_rrpv(r);
	uint32_t slot = victim_slot(r, highest);

	/* The victim is normally the one victim() named, whose slot is found
	 * again without reading the index by page (a cache miss). */
	if (slot == PL_NONE || r->frames.slot_page[slot] != victim)
		slot = slot_of(r, victim);
	if (highest < r->max)
		age_all(r, r->max - highest);
	slot_set_del(r->by_value[r->rrpv[slot]], r->nlevels, slot);
	frame_table_evict_slot(&r->frames, r->ctx, slot);
}

static void fill_rrpv(const void *state, uint32_t page, int32_t *values)
{
	const struct rrip *r = state;

	values[RRIP_RRPV] = r->rrpv[slot_of(r, page)];
	if (r->variant == DRRIP)
		values[DRRIP_LEADER] = role_of(r, page);
}

static void rrip_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct rrip *r = state;

	frame_table_snapshot(&r->frames, out, fill_rrpv, r);
	if (r->variant == DRRIP && r->frames.used)	/* else before the first reference */
		pl_snapshot_set_variable(out, DRRIP_VAR_PSEL, (int32_t)r->psel);
}

static void rrip_read_counters(const void *state, uint64_t *counters)
{
	const struct rrip *r = state;

	memcpy(counters, r->count, sizeof(r->count));
}

static const char *const rrip_lists[] = { "frames" };
static const char *const rrip_fields[] = { [RRIP_RRPV] = "rrpv", [DRRIP_LEADER] = "leader" };
static const char *const rrip_counters[NR_DRRIP_COUNTERS] = {
	"aging_rounds", "long_insertions", "distant_insertions",
	"psel", "srrip_leader_misses", "brrip_leader_misses",
};
static const char *const drrip_pins[] = { "none", "srrip", "brrip", NULL };
static const char *const drrip_variables[] = { [DRRIP_VAR_PSEL] = "psel" };

#define RRIP_BITS_PARAM \
	{ "rrpv_bits", "RRPV width M: values 0 .. 2^M - 1", 2, 1, RRIP_MAX_BITS, NULL }

static const struct pl_param srrip_params[] = { RRIP_BITS_PARAM };
#define RRIP_LONG_EVERY_PARAM \
	{ "long_every", "every Nth insertion is at max - 1 (long), the rest at max " \
	  "(distant): BRRIP's epsilon = 1/N", 32, 1, 1 << 30, NULL }

static const struct pl_param brrip_params[] = { RRIP_BITS_PARAM, RRIP_LONG_EVERY_PARAM };
static const struct pl_param drrip_params[] = {
	RRIP_BITS_PARAM,
	RRIP_LONG_EVERY_PARAM,
	[DRRIP_PARAM_LEADER_EVERY] = { "leader_every", "page id p (the order of first "
				       "reference) leads for SRRIP if p mod leader_every is 0, "
				       "for BRRIP if it is 1", 32, 2, 1 << 20, NULL },
	[DRRIP_PARAM_PSEL_BITS] = { "psel_bits", "width of the saturating policy selector "
				    "PSEL; followers use BRRIP while its top bit is set",
				    10, 1, 16, NULL },
	[DRRIP_PARAM_PIN] = { "pin", "hold PSEL at one end: every set inserts by that "
			      "policy (none: duel)", PIN_NONE, 0, 2, drrip_pins },
};

#define RRIP_OPS(create_fn)				\
	.lists = rrip_lists,				\
	.nlists = 1,					\
	.fields = rrip_fields,				\
	.counters = rrip_counters,			\
	.create = create_fn,				\
	.destroy = rrip_destroy,			\
	.hit = rrip_hit,				\
	.insert = rrip_insert,				\
	.victim = rrip_victim,				\
	.evict = rrip_evict,				\
	.snapshot = rrip_snapshot,			\
	.read_counters = rrip_read_counters

const struct pl_policy_ops pl_policy_srrip = {
	.name = "srrip",
	.title = "Static RRIP, hit priority",
	.help = "RRIP with insertion at max-1 and RRPV 0 on a hit; evicts the leftmost "
		"page at max, ageing all pages when none is.",
	.flags = PL_POLICY_SPARSE,
	.params = srrip_params,
	.nparams = 1,
	.nfields = 1,
	.ncounters = NR_RRIP_COUNTERS,
	RRIP_OPS(srrip_create),
};

const struct pl_policy_ops pl_policy_srrip_fp = {
	.name = "srrip_fp",
	.title = "Static RRIP, frequency priority",
	.help = "SRRIP whose hits decrement the RRPV by one instead of zeroing it.",
	.flags = PL_POLICY_SPARSE,
	.params = srrip_params,
	.nparams = 1,
	.nfields = 1,
	.ncounters = NR_RRIP_COUNTERS,
	RRIP_OPS(srrip_fp_create),
};

const struct pl_policy_ops pl_policy_brrip = {
	.name = "brrip",
	.title = "Bimodal RRIP",
	.help = "RRIP inserting at max (distant) except every long_every-th insertion "
		"at max-1; hits set the RRPV to 0. Resists scans.",
	.flags = PL_POLICY_SPARSE,
	.params = brrip_params,
	.nparams = 2,
	.nfields = 1,
	.ncounters = NR_RRIP_COUNTERS,
	RRIP_OPS(brrip_create),
};

const struct pl_policy_ops pl_policy_drrip = {
	.name = "drrip",
	.title = "Dynamic RRIP (set dueling)",
	.help = "SRRIP and BRRIP duel: a few leader sets of pages always insert by one or "
		"the other, and their faults move the PSEL counter that decides how the "
		"other sets insert. Hits and eviction as SRRIP.",
	.flags = PL_POLICY_SPARSE,
	.params = drrip_params,
	.nparams = 5,
	.nfields = 2,
	.ncounters = NR_DRRIP_COUNTERS,
	.variables = drrip_variables,
	.nvariables = 1,
	RRIP_OPS(drrip_create),
};
