/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slot_ring.h - a queue of pages kept as page ids in consecutive slots of
 * an array, for a policy whose hand or queue end goes through its pages in
 * order (CLOCK-Pro's clock, LIRS's non-resident pages).
 *
 * Pages join at the end; any page may leave, its slot then holds PL_NONE
 * (a hole).  The entries are id[lo, hi), in order, with id[lo] and
 * id[hi - 1] entries whenever the queue is not empty.  When a page joins
 * and hi is the array's end, the entries are packed at its start.  Each
 * page's slot is kept in the policy's own per-page record, named with
 * PL_RECORD_SLOTS(records, member) as links are with PL_RECORD_LINKS.
 *
 * Why not a linked list: going through a list, each next page is known
 * only once the previous page's record has arrived, a chain of cache
 * misses.  Here the pages ahead are read from consecutive slots, so their
 * records can be requested all at once, or long before they are reached.
 *
 * Size: at least four times the most entries the queue can hold
 * (pl_slot_ring_size()), so that after packing at most a quarter of the
 * array is in use: packing then runs again only after as many pages have
 * joined as it moved, O(1) per page joined.
 */
#ifndef PAGELAB_SLOT_RING_H
#define PAGELAB_SLOT_RING_H

#include <stdlib.h>

#include "pagelab.h"
#include "policy.h"

struct pl_slot_ring {
	uint32_t *id;		/* [size], a power of two */
	uint32_t size, lo, hi, len;
};

struct pl_record_slots {
	char *first;	/* the slot of page 0 */
	size_t size;	/* bytes from one page's slot to the next's */
};

#define PL_RECORD_SLOTS(records, member) \
	((struct pl_record_slots){ (char *)&(records)[0].member, sizeof((records)[0]) })

static inline uint32_t *pl_record_slot(struct pl_record_slots slots, uint32_t page)
{
	return (uint32_t *)(slots.first + (size_t)page * slots.size);
}

/* The array's size for a queue of at most `most` pages; 0 if too large. */
static inline uint32_t pl_slot_ring_size(uint64_t most)
{
	uint64_t size = 16;

	while (size < 4 * most)
		size *= 2;
	return size > UINT32_MAX / 2 ? 0 : (uint32_t)size;
}

/* An empty queue of at most size / 4 pages; -1 when out of memory. */
static inline int pl_slot_ring_init(struct pl_slot_ring *r, uint32_t size)
{
	*r = (struct pl_slot_ring){ .id = size ? calloc(size, sizeof(uint32_t)) : NULL,
				    .size = size };
	return r->id ? 0 : -1;
}

static inline void pl_slot_ring_free(struct pl_slot_ring *r)
{
	free(r->id);
	r->id = NULL;
}

/* The first page (PL_NONE if none). */
static inline uint32_t pl_slot_ring_first(const struct pl_slot_ring *r)
{
	return r->len ? r->id[r->lo] : PL_NONE;
}

/* The slot of the entry after the one in `slot`, the first's after the last's. */
static inline uint32_t pl_slot_ring_after(const struct pl_slot_ring *r, uint32_t slot)
{
	do
		slot++;
	while (slot < r->hi && r->id[slot] == PL_NONE);
	return slot < r->hi ? slot : r->lo;
}

/* The page `ahead` slots after `slot`, PL_NONE if a hole or past the end. */
static inline uint32_t pl_slot_ring_ahead(const struct pl_slot_ring *r, uint32_t slot,
					  uint32_t ahead)
{
	return slot + ahead < r->hi ? r->id[slot + ahead] : PL_NONE;
}

/*
 * A hand or queue end went from slot `from` to slot `to`, over the holes
 * between: the records (`size` bytes each, in `records` by page) of the
 * entries `ahead` slots after every slot it passed, (from, to], are
 * requested, not only to's, or the entries ahead of the holes would come
 * unannounced.  After a wrap or a packing (to < from), to's.  Inlined by
 * force, as the requests of its callers are.
 */
static inline __attribute__((always_inline)) void
pl_slot_ring_request_passed(const struct pl_slot_ring *r, uint32_t from, uint32_t to,
			    uint32_t ahead, const void *records, size_t size)
{
	for (uint32_t slot = to > from ? from + 1 : to; slot <= to; slot++) {
		uint32_t page = pl_slot_ring_ahead(r, slot, ahead);

		if (page != PL_NONE)
			pl_request_record((const char *)records + (size_t)page * size, size);
	}
}

/*
 * Packs the entries at the array's start, in order; *hand, a slot of an
 * entry (or PL_NONE), follows its entry.
 */
static inline void pl_slot_ring_pack(struct pl_slot_ring *r, struct pl_record_slots slots,
				     uint32_t *hand)
{
	uint32_t to = 0;

	for (uint32_t from = r->lo; from < r->hi; from++) {
		uint32_t p = r->id[from];

		if (p == PL_NONE)
			continue;
		if (*hand == from)
			*hand = to;
		r->id[to] = p;
		*pl_record_slot(slots, p) = to++;
	}
	r->lo = 0;
	r->hi = to;
}

/* The page joins at the end (packing first if the array's end is reached). */
static inline void pl_slot_ring_push(struct pl_slot_ring *r, struct pl_record_slots slots,
				     uint32_t page, uint32_t *hand)
{
	if (r->hi == r->size)
		pl_slot_ring_pack(r, slots, hand);
	r->id[r->hi] = page;
	*pl_record_slot(slots, page) = r->hi++;
	r->len++;
}

/* The page leaves (a hand on it must have moved on). */
static inline void pl_slot_ring_remove(struct pl_slot_ring *r, struct pl_record_slots slots,
				       uint32_t page)
{
	r->id[*pl_record_slot(slots, page)] = PL_NONE;
	if (--r->len == 0) {
		r->lo = r->hi = 0;
		return;
	}
	while (r->id[r->lo] == PL_NONE)
		r->lo++;
	while (r->id[r->hi - 1] == PL_NONE)
		r->hi--;
}

/*
 * The first page leaves: pl_slot_ring_remove() without reading its slot
 * from its record, and only lo moves.
 */
static inline void pl_slot_ring_remove_first(struct pl_slot_ring *r)
{
	r->id[r->lo] = PL_NONE;
	if (--r->len == 0) {
		r->lo = r->hi = 0;
		return;
	}
	while (r->id[r->lo] == PL_NONE)
		r->lo++;
}

#endif /* PAGELAB_SLOT_RING_H */
