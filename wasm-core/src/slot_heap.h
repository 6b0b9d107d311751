/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slot_heap.h - a max-heap of frame slots with their 64-bit keys inline,
 * for the policies that evict the slot with the largest key: OPT (the
 * farthest next use) and LRU-K (the oldest K-th reference).
 *
 * Interface (static inline: each policy's unit inlines it):
 *   slot_heap_init(h, slots) / slot_heap_free(h)
 *   slot_heap_push(h, slot, key)      a slot not in the heap
 *   slot_heap_update(h, slot, key)    a slot in the heap, any new key
 *   slot_heap_remove(h, slot)         a slot in the heap
 *   slot_heap_top(h)                  the slot with the largest key, or PL_NONE
 *   slot_heap_key(h, slot)            a slot's key
 *
 * Invariants: entry[0 .. len-1] with entry[i].key larger than the keys of
 * its children 4i+1 .. 4i+4; pos[slot] is the index of the slot's entry.
 * Keys must be distinct, so the top does not depend on the heap's shape.
 *
 *                  [0]
 *        /      /      \      \
 *      [1]    [2]    [3]    [4]      <- one 64-byte line
 *     / | \ \
 *   [5][6][7][8] ...                 <- one line
 *
 * Why 4-ary: four 16-byte children fill one cache line (entry[1], the
 * first of a group of siblings, starts a line), so a level of a sift costs
 * one line where a binary heap's two levels cost two, over half the
 * levels; the sifts are most of a fault's work in both policies.
 * Cost: O(log4 n) a push, update or removal.
 */
#ifndef PAGELAB_SLOT_HEAP_H
#define PAGELAB_SLOT_HEAP_H
#include <stdint.h>
#include <stdlib.h>

#include "policy.h"

#define SLOT_HEAP_ARITY 4

struct slot_heap_entry {
	uint64_t key;
	uint32_t slot;
};

struct slot_heap {
	struct slot_heap_entry *entry;	/* [len], entry[0] on top */
	void *block;			/* the allocation, aligned so that siblings share a line */
	uint32_t *pos;			/* [slots] index of a slot's entry */
	uint32_t len;
};

/* Returns 0, or -1 when out of memory. */
static inline int slot_heap_init(struct slot_heap *h, uint32_t slots)
{
	size_t line = SLOT_HEAP_ARITY * sizeof(struct slot_heap_entry);

	h->len = 0;
	h->block = aligned_alloc(line, ((size_t)slots / SLOT_HEAP_ARITY + 2) * line);
	h->entry = h->block ? (struct slot_heap_entry *)h->block + SLOT_HEAP_ARITY - 1 : NULL;
	h->pos = malloc((size_t)(slots ? slots : 1) * sizeof(*h->pos));
	return h->block && h->pos ? 0 : -1;
}

static inline void slot_heap_free(struct slot_heap *h)
{
	free(h->block);
	free(h->pos);
}

static inline uint32_t slot_heap_top(const struct slot_heap *h)
{
	return h->len ? h->entry[0].slot : PL_NONE;
}

static inline uint64_t slot_heap_key(const struct slot_heap *h, uint32_t slot)
{
	return h->entry[h->pos[slot]].key;
}

static inline void slot_heap_place(struct slot_heap *h, uint32_t i, struct slot_heap_entry e)
{
	h->entry[i] = e;
	h->pos[e.slot] = i;
}

/* Puts e at hole i or above it, moving down the entries it passes. */
static inline void slot_heap_sift_up(struct slot_heap *h, uint32_t i, struct slot_heap_entry e)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / SLOT_HEAP_ARITY;

		if (h->entry[parent].key > e.key)
			break;
		slot_heap_place(h, i, h->entry[parent]);
		i = parent;
	}
	slot_heap_place(h, i, e);
}

/* The child of i with the largest key (i has children). */
static inline uint32_t slot_heap_largest_child(const struct slot_heap *h, uint32_t i)
{
	uint32_t first = SLOT_HEAP_ARITY * i + 1, n = h->len - first, a, b;
	const struct slot_heap_entry *c = &h->entry[first];

	if (n < SLOT_HEAP_ARITY) {
		a = 0;
		for (uint32_t j = 1; j < n; j++)
			if (c[j].key > c[a].key)
				a = j;
		return first + a;
	}
	/* all four: a tournament, without a loop's branches */
	a = c[1].key > c[0].key;
	b = 2 + (c[3].key > c[2].key);
	return first + (c[b].key > c[a].key ? b : a);
}

/* Puts e at hole i or below it, moving up the entries it passes. */
static inline void slot_heap_sift_down(struct slot_heap *h, uint32_t i, struct slot_heap_entry e)
{
	while (SLOT_HEAP_ARITY * i + 1 < h->len) {
		uint32_t best = slot_heap_largest_child(h, i);

		if (h->entry[best].key < e.key)
			break;
		slot_heap_place(h, i, h->entry[best]);
		i = best;
	}
	slot_heap_place(h, i, e);
}

static inline void slot_heap_push(struct slot_heap *h, uint32_t slot, uint64_t key)
{
	slot_heap_sift_up(h, h->len++, (struct slot_heap_entry){ .key = key, .slot = slot });
}

static inline void slot_heap_update(struct slot_heap *h, uint32_t slot, uint64_t key)
{
	uint32_t i = h->pos[slot];
	struct slot_heap_entry e = { .key = key, .slot = slot };

	if (key > h->entry[i].key)
		slot_heap_sift_up(h, i, e);
	else
		slot_heap_sift_down(h, i, e);
}

/*
 * Removes a slot's entry (most often the top: the victim).  The hole sinks
 * to a leaf along the largest children and the last entry, which came from
 * the bottom, rises from there: sifting it down instead would compare it
 * at every level too, all the way down (Floyd's variant).
 */
static inline void slot_heap_remove(struct slot_heap *h, uint32_t slot)
{
	uint32_t i = h->pos[slot];
	struct slot_heap_entry last = h->entry[--h->len];

	if (i == h->len)
		return;
	while (SLOT_HEAP_ARITY * i + 1 < h->len) {
		uint32_t best = slot_heap_largest_child(h, i);

		slot_heap_place(h, i, h->entry[best]);
		i = best;
	}
	slot_heap_sift_up(h, i, last);
}

#endif /* PAGELAB_SLOT_HEAP_H */
