/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_heap.h - an indexed binary max-heap of ids (page ids, or frame
 * slots) keyed by 64-bit integers: the id with the largest key is on top,
 * and an id's key can be changed or the id removed wherever it sits,
 * because the heap keeps each id's position.
 *
 * Used by OPT (ids: frame slots; key: next use); any policy that needs "the
 * page with the largest/smallest X" in O(log n) can use it (invert keys for
 * a min-heap).  Below, "page" stands for whatever ids the caller uses.
 *
 * Invariants: key[heap[i]] >= key[heap[2i+1]], key[heap[2i+2]];
 * pos[heap[i]] == i for i < len; ties are broken by the smaller page id
 * being "larger", so the order is total and the top is deterministic.
 *
 * Cost: push, update and remove O(log len); top O(1); init O(1) besides
 * the allocation (pos and key are only read for pages in the heap).
 */
#ifndef PAGELAB_PAGE_HEAP_H
#define PAGELAB_PAGE_HEAP_H

#include "pagelab.h"

struct page_heap {
	uint32_t len;
	uint32_t *heap;		/* [capacity] page ids */
	uint32_t *pos;		/* [nids] index of an id in heap[] */
	uint64_t *key;		/* [nids] */
	bool shares;		/* pos and key belong to another heap */
};

/* Returns 0, or -1 when out of memory. */
/* Ids 0 .. nids-1, at most capacity at once. */
int page_heap_init(struct page_heap *h, uint32_t capacity, uint32_t nids);
/*
 * A heap of the same ids as `owner`, sharing its per-id arrays, for a
 * family of heaps that an id is in at most one of at a time (one heap per
 * list): the per-id memory is paid once.  Free it before the owner.
 */
int page_heap_init_shared(struct page_heap *h, uint32_t capacity, const struct page_heap *owner);
void page_heap_free(struct page_heap *h);

void page_heap_push(struct page_heap *h, uint32_t page, uint64_t key);
void page_heap_update(struct page_heap *h, uint32_t page, uint64_t key);
void page_heap_remove(struct page_heap *h, uint32_t page);

/* The page with the largest key, or PL_NONE when empty. */
static inline uint32_t page_heap_top(const struct page_heap *h)
{
	return h->len ? h->heap[0] : PL_NONE;
}

#endif /* PAGELAB_PAGE_HEAP_H */
