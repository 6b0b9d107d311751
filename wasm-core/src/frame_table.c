/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame_table.c - a fixed row of page frames; see frame_table.h.
 */
#include <stdlib.h>

#include "frame_table.h"

int frame_table_init(struct frame_table *t, const struct pl_ctx *ctx, unsigned list,
		     struct pl_error *err)
{
	t->used = 0;
	t->hole = PL_NONE;
	t->list = list;
	t->slot_page = malloc(sizeof(*t->slot_page) * frames_usable(ctx));
	t->page_slot = malloc(sizeof(*t->page_slot) * (ctx->npages ? ctx->npages : 1));
	if (!t->slot_page || !t->page_slot) {
		frame_table_free(t);
		snprintf(err->msg, sizeof(err->msg),
			 "out of memory for a frame table of %u frames", ctx->frames);
		return -1;
	}
	return 0;
}

void frame_table_free(struct frame_table *t)
{
	free(t->slot_page);
	free(t->page_slot);
	t->slot_page = NULL;
	t->page_slot = NULL;
}

void frame_table_snapshot_by_slot(const struct frame_table *t, struct pl_snapshot *out,
				  void (*fill)(const void *state, uint32_t slot,
					       int32_t *values),
				  const void *state)
{
	int32_t values[PL_MAX_FIELDS] = { 0 };

	for (uint32_t slot = 0; slot < t->used; slot++) {
		uint32_t page = t->slot_page[slot];

		if (page == PL_NONE)
			continue;
		if (fill)
			fill(state, slot, values);
		pl_snapshot_push(out, t->list, page, values);
	}
}

/* A fill by page, called by slot. */
struct fill_by_page {
	const struct frame_table *table;
	void (*fill)(const void *state, uint32_t page, int32_t *values);
	const void *state;
};

static void fill_page_of_slot(const void *arg, uint32_t slot, int32_t *values)
{
	const struct fill_by_page *f = arg;

	f->fill(f->state, f->table->slot_page[slot], values);
}

void frame_table_snapshot(const struct frame_table *t, struct pl_snapshot *out,
			  void (*fill)(const void *state, uint32_t page, int32_t *values),
			  const void *state)
{
	struct fill_by_page f = { .table = t, .fill = fill, .state = state };

	frame_table_snapshot_by_slot(t, out, fill ? fill_page_of_slot : NULL, &f);
}
