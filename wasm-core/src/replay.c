/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.c - replaying events onto a snapshot in O(1) an event (linked
 * lists and a page hash).  Interface, invariants and costs: replay.h.
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
		for (uint32_t n = r->head[l]; n != PL_NONE; n = r->node[n].next)
			hash_put(r, n);
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
		r->free = r->node[n].next;
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

static void unlink_node(struct replay *r, uint32_t n)
{
	struct replay_node *x = &r->node[n];

	if (x->prev != PL_NONE)
		r->node[x->prev].next = x->next;
	else
		r->head[x->list] = x->next;
	if (x->next != PL_NONE)
		r->node[x->next].prev = x->prev;
	else
		r->tail[x->list] = x->prev;
	r->len[x->list]--;
}

/* The node at position pos (< len) of list l, walked to from the nearer end. */
static uint32_t node_at(const struct replay *r, unsigned l, uint32_t pos)
{
	uint32_t n;

	if (pos <= r->len[l] / 2) {
		for (n = r->head[l]; pos > 0; pos--)
			n = r->node[n].next;
	} else {
		for (n = r->tail[l], pos = r->len[l] - 1 - pos; pos > 0; pos--)
			n = r->node[n].prev;
	}
	return n;
}

/* Links node n at position pos (<= len) of list l. */
static void link_at(struct replay *r, uint32_t n, unsigned l, uint32_t pos)
{
	struct replay_node *x = &r->node[n];
	uint32_t after = pos == r->len[l] ? PL_NONE : node_at(r, l, pos);

	x->list = l;
	x->next = after;
	x->prev = after == PL_NONE ? r->tail[l] : r->node[after].prev;
	if (x->prev != PL_NONE)
		r->node[x->prev].next = n;
	else
		r->head[l] = n;
	if (after != PL_NONE)
		r->node[after].prev = n;
	else
		r->tail[l] = n;
	r->len[l]++;
}

/* ------------------------------------------------------------- open/close */

void replay_free(struct replay *r)
{
	free(r->node);
	free(r->value);
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
	r->free = PL_NONE;
	r->cap = from->total + 64;
	r->node = malloc((size_t)r->cap * sizeof(*r->node));
	r->value = malloc((size_t)r->cap * r->nfields * sizeof(*r->value) + 1);
	if (!r->node || !r->value)
		goto out_of_memory;
	for (unsigned l = 0; l < r->nlists; l++) {
		r->head[l] = r->tail[l] = PL_NONE;
		for (uint32_t i = 0; i < from->len[l]; i++, entry++) {
			r->node[entry] = (struct replay_node){
				.page = from->page[entry], .list = l,
				.prev = r->tail[l], .next = PL_NONE,
			};
			if (r->tail[l] != PL_NONE)
				r->node[r->tail[l]].next = entry;
			else
				r->head[l] = entry;
			r->tail[l] = entry;
		}
		r->len[l] = from->len[l];
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
		for (uint32_t n = r->head[l]; n != PL_NONE; n = r->node[n].next, at++) {
			out->page[at] = r->node[n].page;
			memcpy(out->value + (size_t)at * r->nfields, values_of(r, n),
			       r->nfields * sizeof(*r->value));
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
	link_at(r, n, l, (uint32_t)pos);
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
	r->node[n].next = r->free;
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
	link_at(r, n, to, (uint32_t)pos);
	return 0;
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
