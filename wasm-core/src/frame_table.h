/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame_table.h - a fixed row of page frames ("slots"), the structure of the
 * policies that think in frames rather than in ordered lists: CLOCK, Random,
 * LFU, NRU, Aging and OPT.
 *
 * The table is one list of the policy (list id `list`); position i of that
 * list is slot i.  While memory fills, pages take slots 0, 1, 2, ... in
 * order; once memory is full, each insertion reuses the slot that the
 * preceding eviction emptied.  A page therefore never moves while resident,
 * which is what lets the visualizer draw the table as fixed boxes or as a
 * clock face, and what lets a hand be a plain slot number.
 *
 * Events: frame_table_insert() emits INSERT at the slot's position and
 * frame_table_evict() emits EVICT; replaying them keeps the positions right
 * because the insertion refills exactly the position the eviction closed.
 *
 * Invariants
 *   slot_page[0 .. used-1] are the resident pages, except that between an
 *   eviction and the next insertion one slot, `hole`, is empty (so at most
 *   one eviction may precede each insertion: the default reclaim goal);
 *   page_slot[p] is p's slot while p is resident.
 *
 * Cost: O(1) per insertion and eviction; the snapshot is O(frames).
 */
#ifndef PAGELAB_FRAME_TABLE_H
#define PAGELAB_FRAME_TABLE_H

#include <stdlib.h>

#include "policy.h"

/*
 * The most pages that can ever be resident at once: a trace of npages
 * distinct pages never fills more frames than that, so per-frame arrays
 * are sized by this (a huge --frames costs nothing).  At least 1.
 */
static inline uint32_t frames_usable(const struct pl_ctx *ctx)
{
	uint32_t n = ctx->frames < ctx->npages ? ctx->frames : ctx->npages;

	return n ? n : 1;
}

struct frame_table {
	uint32_t used;		/* slots handed out so far (<= frames_usable()) */
	uint32_t hole;		/* slot emptied by the last eviction, or PL_NONE */
	unsigned list;		/* the policy's list id for the table */
	uint32_t *slot_page;	/* [frames_usable()] */
	uint32_t *page_slot;	/* [npages], or NULL: see frame_table_drop_index() */
};

/* Returns 0, or -1 with err filled when out of memory. */
int frame_table_init(struct frame_table *t, const struct pl_ctx *ctx, unsigned list,
		     struct pl_error *err);
void frame_table_free(struct frame_table *t);

/*
 * Puts page in the hole (or the next unused slot); returns the slot.
 * Inline, as is evict: with the policy's calls inlined into the driver's
 * loop (sim_loop.h), a fault is then one call in all.
 */
static inline uint32_t frame_table_insert(struct frame_table *t, struct pl_ctx *ctx,
					  uint32_t page)
{
	uint32_t slot = t->hole;

	if (slot == PL_NONE)
		slot = t->used++;
	t->hole = PL_NONE;
	t->slot_page[slot] = page;
	if (t->page_slot)
		t->page_slot[page] = slot;
	pl_emit_insert(ctx, page, t->list, slot);
	return slot;
}

/* Removes the resident page in `slot`, leaving the slot as the hole. */
static inline void frame_table_evict_slot(struct frame_table *t, struct pl_ctx *ctx,
					  uint32_t slot)
{
	uint32_t page = t->slot_page[slot];

	t->slot_page[slot] = PL_NONE;
	t->hole = slot;
	pl_emit_evict(ctx, page, t->list);
}

/* Removes a resident page, leaving its slot as the hole; returns the slot. */
static inline uint32_t frame_table_evict(struct frame_table *t, struct pl_ctx *ctx,
					 uint32_t page)
{
	uint32_t slot = t->page_slot[page];

	frame_table_evict_slot(t, ctx, slot);
	return slot;
}

/*
 * For a policy that never looks a page up by id (Random: its victim is a
 * slot): frees page_slot, so that a fault does not write a per-page array
 * (a cache miss on a large trace); it then evicts with
 * frame_table_evict_slot() only.
 */
static inline void frame_table_drop_index(struct frame_table *t)
{
	free(t->page_slot);
	t->page_slot = NULL;
}

/*
 * Pushes the table to a snapshot in slot order; fill(state, page, values)
 * writes the page's fields.
 */
void frame_table_snapshot(const struct frame_table *t, struct pl_snapshot *out,
			  void (*fill)(const void *state, uint32_t page, int32_t *values),
			  const void *state);

/*
 * The same, with fill(state, slot, values) told the page's slot: for a
 * policy that keeps its fields by slot and no index by page.
 */
void frame_table_snapshot_by_slot(const struct frame_table *t, struct pl_snapshot *out,
				  void (*fill)(const void *state, uint32_t slot,
					       int32_t *values),
				  const void *state);

#endif /* PAGELAB_FRAME_TABLE_H */
