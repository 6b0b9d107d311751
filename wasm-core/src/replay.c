/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.c - replaying events onto a snapshot (lists of blocks of node ids
 * and a page hash).  Interface, invariants and costs: replay.h.
 */
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/* ------------------------------------------------------------ page hash */

/* Dense page ids spread over the slots (a multiply and a fold). */
static uint32_t slot_of(const struct replay *r, uint32_t page)
{
	uint32_t mix = page * 0x9e3779b1u;

	return (mix ^ mix >> 16) & r->slot_mask;
}

/* The node holding `page`, or PL_NONE. */
static uint32_t find(const struct replay *r, uint32_t page)
{
	for (uint32_t s = slot_of(r, page);; s = (s + 1) & r->slot_mask) {
		uint32_t n = r->slot[s];

		if (n == PL_NONE || r->node[n].page == page)
			return n;
	}
}

static void hash_put(struct replay *r, uint32_t n)
{
	uint32_t s = slot_of(r, r->node[n].page);

	while (r->slot[s] != PL_NONE)
		s = (s + 1) & r->slot_mask;
	r->slot[s] = n;
}

/* Sized for `entries` at most half full; -1 when out of memory. */
static int hash_build(struct replay *r, uint32_t entries)
{
	uint32_t slots = 16;

	while (slots < 2 * (uint64_t)entries + 2)
		slots *= 2;
	free(r->slot);
	r->slot = malloc((size_t)slots * sizeof(*r->slot));
	if (!r->slot)
		return -1;
	memset(r->slot, 0xff, (size_t)slots * sizeof(*r->slot));	/* PL_NONE */
	r->slot_mask = slots - 1;
	for (unsigned l = 0; l < r->nlists; l++)
		for (uint32_t b = r->first[l]; b != PL_NONE; b = r->block[b].next)
			for (uint32_t i = 0; i < r->block[b].count; i++)
				hash_put(r, r->block[b].node[i]);
	return 0;
}

/* Linear probing's deletion: the entries after the hole move back into it. */
static void hash_delete(struct replay *r, uint32_t page)
{
	uint32_t hole = slot_of(r, page), s;

	while (r->node[r->slot[hole]].page != page)
		hole = (hole + 1) & r->slot_mask;
	for (s = (hole + 1) & r->slot_mask; r->slot[s] != PL_NONE; s = (s + 1) & r->slot_mask) {
		uint32_t home = slot_of(r, r->node[r->slot[s]].page);

		/* movable unless its home lies cyclically in (hole, s] */
		if (((s - home) & r->slot_mask) >= ((s - hole) & r->slot_mask)) {
			r->slot[hole] = r->slot[s];
			hole = s;
		}
	}
	r->slot[hole] = PL_NONE;
}

/* ------------------------------------------------------------------ nodes */

static int32_t *values_of(const struct replay *r, uint32_t n)
{
	return r->value + (size_t)n * r->nfields;
}

/* A node for `page` with every field 0, not yet in a list; PL_NONE when out of memory. */
static uint32_t new_node(struct replay *r, uint32_t page)
{
	uint32_t n;

	if (r->free != PL_NONE) {
		n = r->free;
		r->free = r->node[n].block;
	} else {
		if (r->used == r->cap) {
			uint32_t cap = r->cap * 2 + 16;
			struct replay_node *node = realloc(r->node, (size_t)cap * sizeof(*node));
			int32_t *value;

			if (!node)
				return PL_NONE;
			r->node = node;
			value = realloc(r->value, (size_t)cap * r->nfields * sizeof(*value) + 1);
			if (!value)
				return PL_NONE;
			r->value = value;
			r->cap = cap;
		}
		n = r->used++;
	}
	r->node[n].page = page;
	memset(values_of(r, n), 0, r->nfields * sizeof(*r->value));
	return n;
}

/* ----------------------------------------------------------------- blocks */

/*
 * An empty block linked into list l after block `after` (PL_NONE: first);
 * PL_NONE when out of memory.  It may move r->block.
 */
static uint32_t new_block(struct replay *r, unsigned l, uint32_t after)
{
	struct replay_block *x;
	uint32_t b;

	if (r->free_block != PL_NONE) {
		b = r->free_block;
		r->free_block = r->block[b].next;
	} else {
		if (r->blocks_used == r->blocks_cap) {
			uint32_t cap = r->blocks_cap * 2 + 4;
			struct replay_block *block = realloc(r->block, (size_t)cap * sizeof(*block));

			if (!block)
				return PL_NONE;
			r->block = block;
			r->blocks_cap = cap;
		}
		b = r->blocks_used++;
	}
	x = &r->block[b];
	x->count = 0;
	x->prev = after;
	x->next = after == PL_NONE ? r->first[l] : r->block[after].next;
	if (x->prev != PL_NONE)
		r->block[x->prev].next = b;
	else
		r->first[l] = b;
	if (x->next != PL_NONE)
		r->block[x->next].prev = b;
	else
		r->last[l] = b;
	return b;
}

/* Unlinks empty block b from list l and frees it. */
static void free_block(struct replay *r, unsigned l, uint32_t b)
{
	struct replay_block *x = &r->block[b];

	if (x->prev != PL_NONE)
		r->block[x->prev].next = x->next;
	else
		r->first[l] = x->next;
	if (x->next != PL_NONE)
		r->block[x->next].prev = x->prev;
	else
		r->last[l] = x->prev;
	x->next = r->free_block;
	r->free_block = b;
}

/* Takes node n out of its list. */
static void unlink_node(struct replay *r, uint32_t n)
{
	uint32_t b = r->node[n].block, i = 0;
	unsigned l = r->node[n].list;
	struct replay_block *x = &r->block[b];

	while (x->node[i] != n)
		i++;
	x->count--;
	memmove(&x->node[i], &x->node[i + 1], (x->count - i) * sizeof(x->node[0]));
	if (x->count == 0)
		free_block(r, l, b);
	r->len[l]--;
}

/*
 * Where position pos (< len) of list l is: *block and the index in it,
 * hopping blocks from the nearer end.
 */
static uint32_t locate(const struct replay *r, unsigned l, uint32_t pos, uint32_t *block)
{
	uint32_t b, rest;

	if (pos <= r->len[l] / 2) {
		for (b = r->first[l]; pos >= r->block[b].count; b = r->block[b].next)
			pos -= r->block[b].count;
		*block = b;
		return pos;
	}
	for (b = r->last[l], rest = r->len[l] - pos; rest > r->block[b].count; b = r->block[b].prev)
		rest -= r->block[b].count;
	*block = b;
	return r->block[b].count - rest;
}

/*
 * Makes room at index i of full block b (of list l): at the list's head or
 * tail a new block there (a list that grows at an end fills whole
 * blocks), else at a block's end the neighbour's room if it has some,
 * else the block's upper half moved into a new block after it.  Returns
 * the index and sets *block to the block the room is in; -1 when out of
 * memory.
 */
static int64_t make_room(struct replay *r, unsigned l, uint32_t *block, uint32_t i)
{
	uint32_t b = *block, nb, half = REPLAY_BLOCK / 2;
	uint32_t prev = r->block[b].prev, next = r->block[b].next;
	struct replay_block *x, *y;

	if (i == 0 && prev != PL_NONE && r->block[prev].count < REPLAY_BLOCK) {
		*block = prev;
		return r->block[prev].count;
	}
	if (i == REPLAY_BLOCK && next != PL_NONE && r->block[next].count < REPLAY_BLOCK) {
		*block = next;
		return 0;
	}
	if ((i == 0 && prev == PL_NONE) || (i == REPLAY_BLOCK && next == PL_NONE)) {
		nb = new_block(r, l, i == 0 ? PL_NONE : b);
		*block = nb;
		return nb == PL_NONE ? -1 : 0;
	}
	nb = new_block(r, l, b);
	if (nb == PL_NONE)
		return -1;
	x = &r->block[b];
	y = &r->block[nb];
	memcpy(y->node, &x->node[half], half * sizeof(x->node[0]));
	for (uint32_t k = 0; k < half; k++)
		r->node[y->node[k]].block = nb;
	x->count = y->count = half;
	if (i > half) {
		*block = nb;
		return i - half;
	}
	return i;
}

/* Links node n at position pos (<= len) of list l; -1 when out of memory. */
static int link_at(struct replay *r, uint32_t n, unsigned l, uint32_t pos)
{
	uint32_t b, i;
	struct replay_block *x;

	if (r->len[l] == 0) {
		b = new_block(r, l, PL_NONE);
		if (b == PL_NONE)
			return -1;
		i = 0;
	} else if (pos == r->len[l]) {
		b = r->last[l];
		i = r->block[b].count;
	} else {
		i = locate(r, l, pos, &b);
	}
	if (r->block[b].count == REPLAY_BLOCK) {
		int64_t at = make_room(r, l, &b, i);

		if (at < 0)
			return -1;
		i = (uint32_t)at;
	}
	x = &r->block[b];
	memmove(&x->node[i + 1], &x->node[i], (x->count - i) * sizeof(x->node[0]));
	x->node[i] = n;
	x->count++;
	r->node[n].block = b;
	r->node[n].list = l;
	r->len[l]++;
	return 0;
}

/* ------------------------------------------------------------- open/close */

void replay_free(struct replay *r)
{
	free(r->node);
	free(r->value);
	free(r->block);
	free(r->slot);
	memset(r, 0, sizeof(*r));
}

int replay_open(struct replay *r, const struct pl_snapshot *from)
{
	uint32_t entry = 0;

	memset(r, 0, sizeof(*r));
	r->nlists = from->nlists;
	r->nfields = from->nfields;
	r->nhands = from->nhands;
	r->nvariables = from->nvariables;
	memcpy(r->hand, from->hand, sizeof(r->hand));
	memcpy(r->variable, from->variable, sizeof(r->variable));
	r->free = r->free_block = PL_NONE;
	r->cap = from->total + 64;
	r->node = malloc((size_t)r->cap * sizeof(*r->node));
	r->value = malloc((size_t)r->cap * r->nfields * sizeof(*r->value) + 1);
	if (!r->node || !r->value)
		goto out_of_memory;
	for (unsigned l = 0; l < r->nlists; l++) {
		r->first[l] = r->last[l] = PL_NONE;
		for (uint32_t i = 0; i < from->len[l]; i++, entry++) {
			r->node[entry].page = from->page[entry];
			if (link_at(r, entry, l, i))
				goto out_of_memory;
		}
	}
	if (from->total)
		memcpy(r->value, from->value, (size_t)from->total * r->nfields * sizeof(*r->value));
	r->used = r->entries = from->total;
	if (hash_build(r, r->cap))
		goto out_of_memory;
	return 0;
out_of_memory:
	replay_free(r);
	return -1;
}

int replay_close(struct replay *r, struct pl_snapshot *out)
{
	uint32_t at = 0;

	out->nlists = r->nlists;
	out->nfields = r->nfields;
	out->nhands = r->nhands;
	out->nvariables = r->nvariables;
	pl_snapshot_clear(out);
	if (pl_snapshot_reserve(out, r->entries)) {
		replay_free(r);
		return -1;
	}
	for (unsigned l = 0; l < r->nlists; l++) {
		for (uint32_t b = r->first[l]; b != PL_NONE; b = r->block[b].next) {
			for (uint32_t i = 0; i < r->block[b].count; i++, at++) {
				uint32_t n = r->block[b].node[i];

				out->page[at] = r->node[n].page;
				memcpy(out->value + (size_t)at * r->nfields, values_of(r, n),
				       r->nfields * sizeof(*r->value));
			}
		}
		out->len[l] = r->len[l];
	}
	out->total = at;
	memcpy(out->hand, r->hand, sizeof(out->hand));
	memcpy(out->variable, r->variable, sizeof(out->variable));
	replay_free(r);
	return 0;
}

/* ------------------------------------------------------------------ events */

static int apply_insert(struct replay *r, unsigned l, uint32_t page, int32_t pos)
{
	uint32_t n;

	if (l >= r->nlists || pos < 0 || (uint32_t)pos > r->len[l] || find(r, page) != PL_NONE)
		return -1;
	if (2 * ((uint64_t)r->entries + 1) > r->slot_mask && hash_build(r, 2 * r->entries + 2))
		return -1;
	n = new_node(r, page);
	if (n == PL_NONE)
		return -1;
	if (link_at(r, n, l, (uint32_t)pos)) {
		r->node[n].block = r->free;
		r->free = n;
		return -1;
	}
	hash_put(r, n);
	r->entries++;
	return 0;
}

static int apply_remove(struct replay *r, unsigned l, uint32_t page)
{
	uint32_t n = find(r, page);

	if (l >= r->nlists || n == PL_NONE || r->node[n].list != l)
		return -1;
	unlink_node(r, n);
	hash_delete(r, page);
	r->node[n].block = r->free;
	r->free = n;
	r->entries--;
	return 0;
}

/* A MOVE's position counts in the destination after the page left its source. */
static int apply_move(struct replay *r, unsigned from, unsigned to, uint32_t page, int32_t pos)
{
	uint32_t n = find(r, page);

	if (from >= r->nlists || to >= r->nlists || n == PL_NONE || r->node[n].list != from)
		return -1;
	/* within one list the page counts in len[to] before it leaves */
	if (pos < 0 || (uint32_t)pos > r->len[to] - (from == to))
		return -1;
	unlink_node(r, n);
	return link_at(r, n, to, (uint32_t)pos);
}

static int apply_set(struct replay *r, unsigned field, uint32_t page, int32_t from, int32_t to)
{
	uint32_t n = find(r, page);

	if (field >= r->nfields || n == PL_NONE || values_of(r, n)[field] != from)
		return -1;
	values_of(r, n)[field] = to;
	return 0;
}

int replay_apply(struct replay *r, const struct pl_event *ev)
{
	switch (ev->kind) {
	case PL_EV_HIT:
	case PL_EV_MISS:
	case PL_EV_VICTIM:
		return 0;
	case PL_EV_EVICT:
	case PL_EV_REMOVE:
		return apply_remove(r, ev->arg, ev->page);
	case PL_EV_INSERT:
		return apply_insert(r, ev->arg, ev->page, ev->b);
	case PL_EV_MOVE:
		if (ev->a < 0)
			return -1;
		return apply_move(r, (unsigned)ev->a, ev->arg, ev->page, ev->b);
	case PL_EV_SET:
		return apply_set(r, ev->arg, ev->page, ev->a, ev->b);
	case PL_EV_HAND:
		if (ev->arg >= r->nhands || r->hand[ev->arg] != ev->a)
			return -1;
		r->hand[ev->arg] = ev->b;
		return 0;
	case PL_EV_VARIABLE:
		if (ev->arg >= r->nvariables || r->variable[ev->arg] != ev->a)
			return -1;
		r->variable[ev->arg] = ev->b;
		return 0;
	default:
		return -1;
	}
}
