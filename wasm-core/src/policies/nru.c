/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nru.c - NRU, Not Recently Used (Tanenbaum, Modern Operating Systems 4e,
 * 3.4.2; the same four classes order Silberschatz's enhanced second-chance
 * algorithm, Operating System Concepts 10e, 10.4.5.3): the reference bit R
 * and the modified bit M sort the pages into four classes, and a fault
 * evicts from the lowest non-empty class.
 *
 *   class 0  R=0 M=0  not referenced, not modified
 *   class 1  R=0 M=1  not referenced, modified (R cleared by a tick)
 *   class 2  R=1 M=0  referenced, not modified
 *   class 3  R=1 M=1  referenced, modified
 *
 * Structure: one list "frames", the frame table; each page has the fields
 * "referenced" (R) and "modified" (M).
 *
 * Transitions
 *   read hit     R := 1.
 *   write hit    R := 1, M := 1.
 *   load         R := 1; M := 1 if the reference writes.
 *   tick         every tick_period references (before the reference), R := 0
 *                for every resident page, as the clock interrupt does; M
 *                stays (only writing the page back would clear it, and the
 *                model writes back only on eviction).
 *   fault, full  the victim comes from the lowest non-empty class; the new
 *                page takes its slot.
 *
 * Choice within a class: Tanenbaum picks at random; pagelab picks
 * deterministically the page that has been in its class longest (each
 * class is a FIFO queue; a page joins the tail when its class changes, and
 * a tick moves the pages of class 2 and 3, in their queue order, to the
 * tails of classes 0 and 1).  The counters victims_class0..3 say which
 * class each victim came from.
 *
 * Parameters
 *   tick_period  references between two clearings of R; 0 (the default)
 *                means "frames", one clearing per frame-table's worth of
 *                references.
 *
 * Cost: O(1) per reference.  A tick touches only the pages whose R is set,
 * at most one per reference since the previous tick, so it is O(1)
 * amortized.  Classes and their queues are kept by frame slot, so that
 * work stays within frame-sized arrays; a slot's class and its links in
 * the class's queue are one record.  The index by page (frame_table.h) is
 * read on a hit only: evict() finds the victim's slot at the head of its
 * class's queue, as victim() did.
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"
#include "dlist.h"

enum { NRU_FRAMES };
enum { NRU_REFERENCED, NRU_MODIFIED };
enum { PARAM_TICK_PERIOD };

#define NRU_CLASSES 4
#define CLASS_R 2	/* class = R * 2 + M */
#define CLASS_M 1

/* A slot's class and its place in that class's queue. */
struct nru_slot {
	struct pl_link link;
	uint32_t class;
};

struct nru {
	struct pl_ctx *ctx;
	struct frame_table table;
	struct nru_slot *slots;			/* [frames_usable()] */
	struct pl_dlist classes[NRU_CLASSES];	/* slots, longest in the class first */
	uint64_t victims[NRU_CLASSES];
};

static inline struct pl_record_links links(const struct nru *n)
{
	return PL_RECORD_LINKS(n->slots, link);
}

static void nru_destroy(void *state)
{
	struct nru *n = state;

	if (!n)
		return;
	frame_table_free(&n->table);
	free(n->slots);
	free(n);
}

static void *nru_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct nru *n = calloc(1, sizeof(*n));

	if (!n) {
		snprintf(err->msg, sizeof(err->msg), "out of memory for NRU");
		return NULL;
	}
	n->ctx = ctx;
	if (frame_table_init(&n->table, ctx, NRU_FRAMES, err)) {
		free(n);
		return NULL;
	}
	n->slots = malloc(sizeof(*n->slots) * frames_usable(ctx));
	if (!n->slots) {
		nru_destroy(n);
		snprintf(err->msg, sizeof(err->msg), "out of memory for NRU");
		return NULL;
	}
	for (unsigned c = 0; c < NRU_CLASSES; c++)
		pl_dlist_init(&n->classes[c]);
	ctx->tick_period = ctx->params[PARAM_TICK_PERIOD] ?
			   (uint32_t)ctx->params[PARAM_TICK_PERIOD] : ctx->frames;
	return n;
}

/* Emits the R and M changes from class `from` to class `to`. */
static void emit_bits(struct nru *n, uint32_t slot, unsigned from, unsigned to)
{
	uint32_t page = n->table.slot_page[slot];

	if ((from ^ to) & CLASS_R)
		pl_emit_set(n->ctx, page, NRU_REFERENCED, !!(from & CLASS_R), !!(to & CLASS_R));
	if ((from ^ to) & CLASS_M)
		pl_emit_set(n->ctx, page, NRU_MODIFIED, !!(from & CLASS_M), !!(to & CLASS_M));
}

static void change_class(struct nru *n, uint32_t slot, unsigned to)
{
	unsigned from = n->slots[slot].class;

	if (from == to)
		return;
	pl_rdlist_remove(links(n), &n->classes[from], slot);
	pl_rdlist_push_tail(links(n), &n->classes[to], slot);
	n->slots[slot].class = to;
	emit_bits(n, slot, from, to);
}

static unsigned referenced_class(const struct pl_ref *ref)
{
	return CLASS_R | (ref->flags & PL_REF_WRITE ? CLASS_M : 0);
}

static void nru_hit(void *state, const struct pl_ref *ref)
{
	struct nru *n = state;
	uint32_t slot = n->table.page_slot[ref->page];

	change_class(n, slot, n->slots[slot].class | referenced_class(ref));
}

static void nru_insert(void *state, const struct pl_ref *ref)
{
	struct nru *n = state;
	unsigned to = referenced_class(ref);
	uint32_t slot = frame_table_insert(&n->table, n->ctx, ref->page);

	pl_rdlist_push_tail(links(n), &n->classes[to], slot);
	n->slots[slot].class = to;
	emit_bits(n, slot, 0, to);
}

/*
 * Links class `from`'s queue, in its order, behind class `to`'s in one
 * step; while recording, first the events of each page's change, in that
 * order.  The pages' class fields are the caller's to change.
 */
static void move_queue(struct nru *n, unsigned from, unsigned to)
{
	struct pl_dlist *src = &n->classes[from], *dst = &n->classes[to];

	if (!src->len)
		return;
	if (pl_recording(n->ctx)) {
		for (uint32_t slot = src->head; slot != PL_NONE; slot = n->slots[slot].link.next)
			emit_bits(n, slot, from, to);
	}
	if (dst->len) {
		n->slots[dst->tail].link.next = src->head;
		n->slots[src->head].link.prev = dst->tail;
	} else {
		dst->head = src->head;
	}
	dst->tail = src->tail;
	dst->len += src->len;
	pl_dlist_init(src);
}

/*
 * Each R class's queue goes behind its R-clear class's, and every page's
 * class loses R in one pass in slot order: a walk along the queues would
 * chase a link per page.  (No slot is empty between two references.)
 */
static void nru_tick(void *state, uint32_t step)
{
	struct nru *n = state;

	(void)step;
	for (unsigned from = CLASS_R; from < NRU_CLASSES; from++)
		move_queue(n, from, from & ~CLASS_R);
	for (uint32_t slot = 0, used = n->table.used; slot < used; slot++)
		n->slots[slot].class &= ~CLASS_R;
}

/* The victim's slot: the head of the lowest non-empty class; PL_NONE if none. */
static uint32_t victim_slot(const struct nru *n)
{
	for (unsigned c = 0; c < NRU_CLASSES; c++) {
		if (n->classes[c].len)
			return n->classes[c].head;
	}
	return PL_NONE;
}

static uint32_t nru_victim(const void *state)
{
	const struct nru *n = state;
	uint32_t slot = victim_slot(n);

	return slot != PL_NONE ? n->table.slot_page[slot] : PL_NONE;
}

static void nru_evict(void *state, uint32_t victim)
{
	struct nru *n = state;
	uint32_t slot = victim_slot(n);
	unsigned c;

	/* The victim is normally the one victim() named, whose slot is found
	 * again without reading the index by page (a cache miss). */
	if (slot == PL_NONE || n->table.slot_page[slot] != victim)
		slot = n->table.page_slot[victim];
	c = n->slots[slot].class;
	pl_rdlist_remove(links(n), &n->classes[c], slot);
	n->victims[c]++;
	frame_table_evict_slot(&n->table, n->ctx, slot);
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	const struct nru *n = state;
	unsigned c = n->slots[n->table.page_slot[page]].class;

	values[NRU_REFERENCED] = !!(c & CLASS_R);
	values[NRU_MODIFIED] = !!(c & CLASS_M);
}

static void nru_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct nru *n = state;

	frame_table_snapshot(&n->table, out, fill_fields, n);
}

static void nru_read_counters(const void *state, uint64_t *counters)
{
	const struct nru *n = state;

	for (unsigned c = 0; c < NRU_CLASSES; c++)
		counters[c] = n->victims[c];
}

static const struct pl_param nru_params[] = {
	[PARAM_TICK_PERIOD] = {
		.name = "tick_period",
		.help = "references between two clearings of the R bits (0: one per frames)",
		.def = 0, .min = 0, .max = UINT32_MAX - 1,
	},
};

static const char *const nru_lists[] = { [NRU_FRAMES] = "frames" };
static const char *const nru_fields[] = {
	[NRU_REFERENCED] = "referenced",
	[NRU_MODIFIED] = "modified",
};
static const char *const nru_counters[] = {
	"victims_class0", "victims_class1", "victims_class2", "victims_class3",
};

const struct pl_policy_ops pl_policy_nru = {
	.name = "nru",
	.title = "NRU (Not Recently Used)",
	.help = "Classes pages by their referenced and modified bits (R cleared every "
		"tick) and evicts from the lowest class, the page longest in it.",
	.flags = PL_POLICY_SPARSE,
	.params = nru_params,
	.nparams = 1,
	.lists = nru_lists,
	.nlists = 1,
	.fields = nru_fields,
	.nfields = 2,
	.counters = nru_counters,
	.ncounters = NRU_CLASSES,
	.create = nru_create,
	.destroy = nru_destroy,
	.hit = nru_hit,
	.insert = nru_insert,
	.victim = nru_victim,
	.evict = nru_evict,
	.tick = nru_tick,
	.snapshot = nru_snapshot,
	.read_counters = nru_read_counters,
};
