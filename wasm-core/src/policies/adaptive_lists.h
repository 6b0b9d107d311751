/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adaptive_lists.h - the four lists ARC (arc.c) and CAR (car.c) keep, and
 * each page's record in them.
 *
 *   resident:  T1 (seen once recently)    T2 (seen at least twice)
 *   ghosts:    B1 (evicted from T1)       B2 (evicted from T2)
 *
 * Each list is a queue of page ids in slots (slot_ring.h): pages join at
 * its end and leave from anywhere.  Its first entry is ARC's LRU tail, or
 * CAR's clock hand (t1, t2) and least recent ghost (b1, b2); each policy's
 * header says how it walks them.  Together the lists hold at most 2c
 * pages (c frames), so each ring is sized for min(2c, npages).
 *
 * A page's whole state is one 8-byte record: its list, its slot there and
 * CAR's reference bit (ARC leaves it 0), so a reference or an eviction
 * touches one cache line of records.
 */
#ifndef PAGELAB_ADAPTIVE_LISTS_H
#define PAGELAB_ADAPTIVE_LISTS_H

#include <stdlib.h>

#include "policy.h"
#include "slot_ring.h"

enum { T1, T2, B1, B2, NOWHERE };

struct adaptive_page {
	uint32_t slot;		/* in list[where] */
	uint8_t where;		/* T1 .. B2, or NOWHERE */
	uint8_t ref;		/* CAR's reference bit */
};

struct adaptive_lists {
	struct adaptive_page *page;	/* [npages] */
	struct pl_slot_ring list[4];
};

static inline void adaptive_lists_free(struct adaptive_lists *l)
{
	free(l->page);
	for (int i = T1; i <= B2; i++)
		pl_slot_ring_free(&l->list[i]);
}

/* Empty lists and every page NOWHERE; -1 when out of memory (then free them). */
static inline int adaptive_lists_init(struct adaptive_lists *l, const struct pl_ctx *ctx)
{
	size_t n = ctx->npages ? ctx->npages : 1;
	uint64_t most = 2 * (uint64_t)ctx->frames < n ? 2 * (uint64_t)ctx->frames : n;
	uint32_t size = pl_slot_ring_size(most);

	if (!(l->page = calloc(n, sizeof(*l->page))))
		return -1;
	for (int i = T1; i <= B2; i++)
		if (pl_slot_ring_init(&l->list[i], size))
			return -1;
	for (size_t i = 0; i < n; i++)
		l->page[i].where = NOWHERE;
	return 0;
}

static inline struct pl_record_slots adaptive_slots(const struct adaptive_lists *l)
{
	return PL_RECORD_SLOTS(l->page, slot);
}

/* List `which`'s first page (PL_NONE if empty). */
static inline uint32_t adaptive_first(const struct adaptive_lists *l, unsigned which)
{
	return pl_slot_ring_first(&l->list[which]);
}

/* The page joins list `to` as its last page. */
static inline void adaptive_join(struct adaptive_lists *l, uint32_t page, unsigned to)
{
	uint32_t no_hand = PL_NONE;

	pl_slot_ring_push(&l->list[to], adaptive_slots(l), page, &no_hand);
	l->page[page].where = (uint8_t)to;
}

/* The page leaves its list (its record still names it: set or rejoin). */
static inline void adaptive_leave(struct adaptive_lists *l, uint32_t page)
{
	pl_slot_ring_remove(&l->list[l->page[page].where], adaptive_slots(l), page);
}

/*
 * How many slots after a list's first page the records of its pages are
 * requested: about one page leaves a list's first slot a fault, so those
 * pages are met some faults later, by when their records have arrived.
 */
#define ADAPTIVE_LOOKAHEAD 4

/*
 * List `which`'s first page has just left: requests the records of the
 * pages in its first slots and, for t1 and t2, the new first page's
 * residency byte (pl_slot_ring_request_first()).
 */
static inline __attribute__((always_inline)) void
adaptive_request_first(const struct adaptive_lists *l, const struct pl_ctx *ctx, unsigned which)
{
	pl_slot_ring_request_first(&l->list[which], ctx, l->page, sizeof(l->page[0]),
				   ADAPTIVE_LOOKAHEAD, which <= T2);
}

/*
 * References ahead (policy.h, "Prefetching"): the far page's record and
 * the near page's slot in its list, which a hit or a ghost's fault clears.
 * What a fault touches that no recent reference did is requested by the
 * faults before it (adaptive_request_first()), not here: named on every
 * reference, the lists' first pages cost more instructions than the waits
 * they saved.
 */
static inline void adaptive_prefetch(const struct adaptive_lists *l, uint32_t far, uint32_t near,
				     struct pl_prefetch *out)
{
	struct adaptive_page n = l->page[near];
	const struct pl_slot_ring *in = &l->list[n.where != NOWHERE ? n.where : T1];

	pl_prefetch(out, &l->page[far]);
	pl_prefetch(out, &in->id[n.where != NOWHERE ? n.slot : in->lo]);
}

#endif /* PAGELAB_ADAPTIVE_LISTS_H */
