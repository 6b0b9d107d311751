/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wsclock.c - WSClock (Carr and Hennessy, "WSCLOCK - a simple and effective
 * algorithm for virtual memory management", SOSP 1981; Tanenbaum, Modern
 * Operating Systems 4e, 3.4.9): the working set approximated by a CLOCK
 * over the frames, seed 004's "practical" working set.
 *
 * Structure: the frames on a clock face (list "frames", slot order) and a
 * hand.  Per page: "referenced" (the hardware bit), "last_use" (the virtual
 * time, in references, the hand last saw the page referenced, or its load)
 * and "dirty" (written since loaded or last written back).  A page is in
 * the working set while now - last_use <= tau.
 *
 *          hand
 *           v
 *   [a r=1 t=90] -> [b r=0 t=12 d] -> [c r=0 t=85] -> [d r=0 t=10] -> (a)
 *      clear r,        old & dirty:      young:          old & clean:
 *      t := now        write it          skip            VICTIM
 *
 * Transitions (now = the index of the reference)
 *   hit p            referenced := 1 (a write also dirty := 1)
 *   fault, room      p takes the next free slot, referenced := 1,
 *                    last_use := now
 *   fault, full      the hand sweeps, at most two turns:
 *     referenced = 1               referenced := 0, last_use := now; on
 *     r = 0, age > tau, clean      VICTIM (out of the working set)
 *     r = 0, age > tau, dirty      write scheduled (counted in
 *                                  writes_scheduled): dirty := 0; on
 *     r = 0, age <= tau            on (in the working set)
 *   A page whose write was scheduled on the first turn is clean and still
 *   old on the second, so the second turn takes it.  If the first turn
 *   scheduled nothing (every page in the working set), the second takes
 *   the first clean page, or if all are dirty the page under the hand.
 *   The new page fills the victim's slot; the hand moves past it.
 *
 * Writes complete at once in the simulation, so scheduling a write just
 * cleans the policy's dirty bit; the driver still counts the writeback
 * when the page is evicted (writebacks), so writes_scheduled shows how
 * many writes the hand issued.
 *
 * Parameters: tau (working-set window, in references, default 10).  Uses
 * --frames like CLOCK: the resident set is at most the frames.
 * Cost: O(1) amortized per fault as in CLOCK, each slot passed clears a
 * bit set by a reference or retires an old page; a sweep that finds the
 * whole memory in the working set costs two turns, O(frames).
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"

enum { LIST_FRAMES };
enum { FIELD_REFERENCED, FIELD_LAST_USE, FIELD_DIRTY };
enum { HAND };
enum { COUNTER_WRITES_SCHEDULED };
enum { PARAM_TAU };

struct wsclock {
	struct pl_ctx *ctx;
	struct frame_table table;
	uint8_t *referenced;	/* [npages] */
	uint8_t *dirty;		/* [npages] */
	uint32_t *last_use;	/* [npages] */
	uint32_t hand;		/* slot */
	uint32_t tau;
	uint32_t now;		/* references seen: the index of the current one */
	uint64_t writes_scheduled;
};

static void wsclock_destroy(void *state)
{
	struct wsclock *c = state;

	if (!c)
		return;
	frame_table_free(&c->table);
	free(c->referenced);
	free(c->dirty);
	free(c->last_use);
	free(c);
}

static void *wsclock_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct wsclock *c = calloc(1, sizeof(*c));
	size_t n = ctx->npages ? ctx->npages : 1;

	if (!c || frame_table_init(&c->table, ctx, LIST_FRAMES, err) ||
	    !(c->referenced = calloc(n, 1)) || !(c->dirty = calloc(n, 1)) ||
	    !(c->last_use = calloc(n, sizeof(*c->last_use)))) {
		wsclock_destroy(c);
		snprintf(err->msg, sizeof(err->msg), "wsclock: out of memory");
		return NULL;
	}
	c->ctx = ctx;
	c->tau = (uint32_t)ctx->params[PARAM_TAU];
	return c;
}

static void set_field(struct wsclock *c, uint32_t page, unsigned field, uint32_t *cell32,
		      uint8_t *cell8, uint32_t value)
{
	uint32_t old = cell32 ? *cell32 : *cell8;

	if (old == value)
		return;
	pl_emit_set(c->ctx, page, field, (int32_t)old, (int32_t)value);
	if (cell32)
		*cell32 = value;
	else
		*cell8 = (uint8_t)value;
}

static void set_referenced(struct wsclock *c, uint32_t page, uint8_t bit)
{
	set_field(c, page, FIELD_REFERENCED, NULL, &c->referenced[page], bit);
}

static void set_dirty(struct wsclock *c, uint32_t page, uint8_t bit)
{
	set_field(c, page, FIELD_DIRTY, NULL, &c->dirty[page], bit);
}

static void set_last_use(struct wsclock *c, uint32_t page, uint32_t when)
{
	set_field(c, page, FIELD_LAST_USE, &c->last_use[page], NULL, when);
}

static void reference(struct wsclock *c, const struct pl_ref *ref)
{
	set_referenced(c, ref->page, 1);
	if (ref->flags & PL_REF_WRITE)
		set_dirty(c, ref->page, 1);
	c->now = ref->step + 1;
}

static void wsclock_hit(void *state, const struct pl_ref *ref)
{
	reference(state, ref);
}

static uint32_t slot_after(const struct wsclock *c, uint32_t slot)
{
	return slot + 1 == c->table.used ? 0 : slot + 1;
}

static void advance_hand(struct wsclock *c)
{
	uint32_t to = slot_after(c, c->hand);

	if (to != c->hand)
		pl_emit_hand(c->ctx, HAND, c->hand, to);
	c->hand = to;
}

static void wsclock_insert(void *state, const struct pl_ref *ref)
{
	struct wsclock *c = state;
	bool refill = c->table.hole != PL_NONE;

	frame_table_insert(&c->table, c->ctx, ref->page);
	c->referenced[ref->page] = c->dirty[ref->page] = 0;
	c->last_use[ref->page] = 0;
	set_last_use(c, ref->page, ref->step);
	reference(c, ref);
	if (refill)
		advance_hand(c);
}

/* Out of the working set: not used within the last tau references. */
static bool old(const struct wsclock *c, uint32_t page)
{
	return (uint64_t)c->last_use[page] + c->tau < c->now;
}

/*
 * The sweep's outcome without performing it.  First turn: the first
 * unreferenced old clean page; failing that, the first unreferenced old
 * page, whose write the first turn schedules and the second turn finds
 * clean (the pages the first turn cleared are young by then).  With no
 * write scheduled, the second turn takes the first clean page (Tanenbaum:
 * "claim any clean page"), and failing that the page under the hand.
 */
static uint32_t wsclock_victim(const void *state)
{
	const struct wsclock *c = state;
	uint32_t slot = c->hand, first_dirty = PL_NONE, first_clean = PL_NONE;

	for (uint32_t looked = 0; looked < c->table.used; looked++) {
		uint32_t page = c->table.slot_page[slot];

		if (!c->referenced[page] && old(c, page)) {
			if (!c->dirty[page])
				return page;
			if (first_dirty == PL_NONE)
				first_dirty = page;
		}
		if (!c->dirty[page] && first_clean == PL_NONE)
			first_clean = page;
		slot = slot_after(c, slot);
	}
	if (first_dirty != PL_NONE)
		return first_dirty;
	return first_clean != PL_NONE ? first_clean : c->table.slot_page[c->hand];
}

/* Performs the sweep victim() predicted, stopping at the victim. */
static void wsclock_evict(void *state, uint32_t victim)
{
	struct wsclock *c = state;
	bool scheduled = false;

	for (uint32_t passed = 0; passed < 2 * c->table.used; passed++) {
		uint32_t page = c->table.slot_page[c->hand];
		bool second_turn = passed >= c->table.used;

		if (c->referenced[page]) {
			set_referenced(c, page, 0);
			set_last_use(c, page, c->now);
		} else if (old(c, page)) {
			if (!c->dirty[page])
				break;
			set_dirty(c, page, 0);
			c->writes_scheduled++;
			scheduled = true;
		} else if (second_turn && !scheduled && !c->dirty[page]) {
			break;
		}
		advance_hand(c);
	}
	frame_table_evict(&c->table, c->ctx, victim);
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	const struct wsclock *c = state;

	values[FIELD_REFERENCED] = c->referenced[page];
	values[FIELD_LAST_USE] = (int32_t)c->last_use[page];
	values[FIELD_DIRTY] = c->dirty[page];
}

static void wsclock_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct wsclock *c = state;

	frame_table_snapshot(&c->table, out, fill_fields, c);
	pl_snapshot_set_hand(out, HAND, (int32_t)c->hand);
}

static void wsclock_read_counters(const void *state, uint64_t *counters)
{
	const struct wsclock *c = state;

	counters[COUNTER_WRITES_SCHEDULED] = c->writes_scheduled;
}

static const struct pl_param wsclock_params[] = {
	[PARAM_TAU] = {
		.name = "tau",
		.help = "working-set window in references: an unreferenced page older than "
			"this may be replaced",
		.def = 10, .min = 1, .max = PL_NONE - 1,
	},
};

static const char *const wsclock_lists[] = { [LIST_FRAMES] = "frames" };
static const char *const wsclock_fields[] = {
	[FIELD_REFERENCED] = "referenced", [FIELD_LAST_USE] = "last_use", [FIELD_DIRTY] = "dirty",
};
static const char *const wsclock_hands[] = { [HAND] = "hand" };
static const unsigned wsclock_hand_lists[] = { [HAND] = LIST_FRAMES };
static const char *const wsclock_counters[] = {
	[COUNTER_WRITES_SCHEDULED] = "writes_scheduled",
};

const struct pl_policy_ops pl_policy_wsclock = {
	.name = "wsclock",
	.title = "WSClock (Carr and Hennessy)",
	.help = "A CLOCK over the frames that replaces the first unreferenced page older "
		"than tau, scheduling writes for old dirty pages on the way.",
	.flags = PL_POLICY_SPARSE,
	.params = wsclock_params,
	.nparams = 1,
	.lists = wsclock_lists,
	.nlists = 1,
	.fields = wsclock_fields,
	.nfields = 3,
	.hands = wsclock_hands,
	.hand_lists = wsclock_hand_lists,
	.nhands = 1,
	.counters = wsclock_counters,
	.ncounters = 1,
	.create = wsclock_create,
	.destroy = wsclock_destroy,
	.hit = wsclock_hit,
	.insert = wsclock_insert,
	.victim = wsclock_victim,
	.evict = wsclock_evict,
	.snapshot = wsclock_snapshot,
	.read_counters = wsclock_read_counters,
};
