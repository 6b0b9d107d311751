/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_heap.c - an indexed binary max-heap of pages; see page_heap.h.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "page_heap.h"

int page_heap_init(struct page_heap *h, uint32_t capacity, uint32_t nids)
{
	size_t ids = nids ? nids : 1;

	h->len = 0;
	h->shares = false;
	h->heap = malloc(sizeof(*h->heap) * (capacity ? capacity : 1));
	h->pos = malloc(sizeof(*h->pos) * ids);
	h->key = malloc(sizeof(*h->key) * ids);
	if (!h->heap || !h->pos || !h->key) {
		page_heap_free(h);
		return -1;
	}
	return 0;
}

int page_heap_init_shared(struct page_heap *h, uint32_t capacity, const struct page_heap *owner)
{
	h->len = 0;
	h->heap = malloc(sizeof(*h->heap) * (capacity ? capacity : 1));
	h->pos = owner->pos;
	h->key = owner->key;
	h->shares = true;
	return h->heap ? 0 : -1;
}

void page_heap_free(struct page_heap *h)
{
	free(h->heap);
	if (!h->shares) {
		free(h->pos);
		free(h->key);
	}
	h->heap = NULL;
	h->pos = NULL;
	h->key = NULL;
}

/* Does page a belong above page b? */
static bool above(const struct page_heap *h, uint32_t a, uint32_t b)
{
	return h->key[a] > h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static void place(struct page_heap *h, uint32_t i, uint32_t page)
{
	h->heap[i] = page;
	h->pos[page] = i;
}

static void sift_up(struct page_heap *h, uint32_t i)
{
	uint32_t page = h->heap[i];

	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!above(h, page, h->heap[parent]))
			break;
		place(h, i, h->heap[parent]);
		i = parent;
	}
	place(h, i, page);
}

static void sift_down(struct page_heap *h, uint32_t i)
{
	uint32_t page = h->heap[i];

	for (;;) {
		uint32_t child = 2 * i + 1;

		if (child >= h->len)
			break;
		if (child + 1 < h->len && above(h, h->heap[child + 1], h->heap[child]))
			child++;
		if (!above(h, h->heap[child], page))
			break;
		place(h, i, h->heap[child]);
		i = child;
	}
	place(h, i, page);
}

void page_heap_push(struct page_heap *h, uint32_t page, uint64_t key)
{
	h->key[page] = key;
	place(h, h->len, page);
	sift_up(h, h->len++);
}

void page_heap_update(struct page_heap *h, uint32_t page, uint64_t key)
{
	uint32_t i = h->pos[page];

	h->key[page] = key;
	sift_up(h, i);
	sift_down(h, h->pos[page]);
}

void page_heap_remove(struct page_heap *h, uint32_t page)
{
	uint32_t i = h->pos[page];
	uint32_t last = h->heap[--h->len];

	if (i == h->len)
		return;
	place(h, i, last);
	sift_up(h, i);
	sift_down(h, h->pos[last]);
}
