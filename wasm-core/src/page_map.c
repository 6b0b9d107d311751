/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_map.c - 64-bit page number -> dense id: a direct array for the
 * small numbers, an open-addressing hash table for the others.
 *
 * Invariants: numbers below ndirect live in direct[] only (direct[number]
 * is the id, PL_NONE if unseen); every other number lives in slot[] only.
 * nslots is a power of two; nhashed * 2 <= nslots, so every probe sequence
 * ends at an empty slot; slot[i].id == PL_NONE marks slot i empty.  The ids
 * in use are exactly 0 .. count-1, handed out in order of first appearance
 * whichever part holds the number, so the layout never changes an id.
 *
 * Why two parts: most traces number their pages densely (1..N, or the
 * addresses of a few regions shifted right), and then an array indexed by
 * the number is both the cheapest lookup (one load, no key compare) and
 * the smallest table: 4 bytes a number against the hash table's 32 to 64
 * bytes a page (16-byte slots, at most half full).  For 1M pages that is
 * 4 MB, which stays in the last-level cache, against 32 MB, which does
 * not.  ndirect grows (a power of two) to take in a new number as long as
 * the array stays within DIRECT_PER_PAGE entries for each number it would
 * hold, or within DIRECT_FREE entries (4 MB) whatever it holds:
 * hashed_by_log says how many hashed numbers lie below any power of two,
 * so the check costs no scan.  The hashed numbers it then covers move
 * into it and the table is rebuilt without them.  Sparse numbers (hashed
 * string ids, the high addresses of a stack) stay in the table.  Each
 * growth at least doubles ndirect, so there are few.  DIRECT_FREE is that
 * large because a trace numbering a million pages densely in random order
 * (the zipf traces) would otherwise hash its first 64K pages until the
 * density allows the array, then move them all: 4.7 ms of a 0.1 s run,
 * spent while a streamed run's simulation waits for its first references.
 *
 * Hashing: Fibonacci multiplicative hashing, taking the top bits of
 * number * 2^64/phi.  Traces often use page numbers that are multiples of a
 * large power of two (addresses >> 12 of aligned regions); the multiply
 * spreads those over all slots, which a plain mask would not.  Key and id
 * share a 16-byte slot, so a lookup of a page absent from the cache costs
 * one cache miss, not two.
 */
#include <stdlib.h>
#include <string.h>

#include "pagelab.h"
#include "page_map.h"

#define MIN_SLOTS 1024u
#define DIRECT_FIRST_LOG 12		/* log2 of the direct array's smallest size */
#define DIRECT_FREE (1u << 20)		/* entries the direct array may always have */
#define DIRECT_PER_PAGE 16u		/* entries (4 bytes each) it may have a page */
#define DIRECT_MAX ((uint64_t)1 << 31)	/* entries it never exceeds (8 GB) */
#define INTERN_AHEAD 128			/* a batch's slots prefetched ahead */

struct slot {
	uint64_t key;
	uint32_t id;
};

struct pl_page_map {
	uint32_t *direct;
	uint64_t ndirect;
	uint32_t ndirect_pages;		/* numbers in direct[] */
	struct slot *slot;
	uint32_t nslots, nhashed;
	unsigned shift;		/* 64 - log2(nslots) */
	uint32_t count;
	uint32_t hashed_by_log[64];	/* hashed numbers by floor(log2(number)) */
};

static inline unsigned log2_of(uint64_t number)
{
	return 63 - (unsigned)__builtin_clzll(number | 1);
}

static inline uint32_t slot_of(const struct pl_page_map *map, uint64_t number)
{
	return (uint32_t)((number * 0x9e3779b97f4a7c15ull) >> map->shift);
}

static struct slot *alloc_slots(uint32_t nslots)
{
	struct slot *slot = malloc((size_t)nslots * sizeof(*slot));

	for (uint32_t i = 0; slot && i < nslots; i++)
		slot[i].id = PL_NONE;
	return slot;
}

static void use_slots(struct pl_page_map *map, struct slot *slot, uint32_t nslots)
{
	map->slot = slot;
	map->nslots = nslots;
	map->shift = 64 - __builtin_ctz(nslots);
}

struct pl_page_map *pl_page_map_create(void)
{
	struct pl_page_map *map = calloc(1, sizeof(*map));
	struct slot *slot = map ? alloc_slots(MIN_SLOTS) : NULL;

	if (!slot) {
		free(map);
		return NULL;
	}
	use_slots(map, slot, MIN_SLOTS);
	return map;
}

void pl_page_map_destroy(struct pl_page_map *map)
{
	if (!map)
		return;
	free(map->direct);
	free(map->slot);
	free(map);
}

static void place(struct pl_page_map *map, uint64_t number, uint32_t id)
{
	uint32_t mask = map->nslots - 1;
	uint32_t i = slot_of(map, number);

	while (map->slot[i].id != PL_NONE)
		i = (i + 1) & mask;
	map->slot[i] = (struct slot){ number, id };
}

/* Moves the table's entries into a fresh one of nslots: those below ndirect into direct[]. */
static int rehash(struct pl_page_map *map, uint32_t nslots)
{
	struct slot *old = map->slot, *slot = alloc_slots(nslots);
	uint32_t old_nslots = map->nslots;

	if (!slot)
		return -1;
	use_slots(map, slot, nslots);
	map->nhashed = 0;
	memset(map->hashed_by_log, 0, sizeof(map->hashed_by_log));
	for (uint32_t i = 0; i < old_nslots; i++) {
		if (old[i].id == PL_NONE)
			continue;
		if (old[i].key < map->ndirect) {
			map->direct[old[i].key] = old[i].id;
			map->ndirect_pages++;
		} else {
			place(map, old[i].key, old[i].id);
			map->nhashed++;
			map->hashed_by_log[log2_of(old[i].key)]++;
		}
	}
	free(old);
	return 0;
}

/*
 * Grows the direct array to cover `number` if that keeps it within its
 * bounds, moving the hashed numbers it then covers; 0 if it now does.
 * Failing to grow is no error: the number is hashed instead.
 */
static int grow_direct(struct pl_page_map *map, uint64_t number)
{
	unsigned log = log2_of(number) + 1;	/* of n, the power of two above number */
	uint32_t moving = 0, nslots = MIN_SLOTS;
	uint64_t n, pages;
	uint32_t *direct;

	if (number >= DIRECT_MAX)
		return -1;
	if (log < DIRECT_FIRST_LOG)
		log = DIRECT_FIRST_LOG;
	n = (uint64_t)1 << log;
	for (unsigned b = 0; b < log; b++)
		moving += map->hashed_by_log[b];	/* the hashed numbers below n */
	pages = (uint64_t)map->ndirect_pages + moving + 1;
	if ((n > DIRECT_FREE && n > pages * DIRECT_PER_PAGE) || n > SIZE_MAX / sizeof(*direct))
		return -1;
	if (!(direct = realloc(map->direct, (size_t)n * sizeof(*direct))))
		return -1;
	memset(direct + map->ndirect, 0xff, (size_t)(n - map->ndirect) * sizeof(*direct));
	map->direct = direct;
	while ((uint64_t)(map->nhashed - moving) * 2 > nslots)
		nslots *= 2;
	if (moving) {
		uint64_t old = map->ndirect;

		map->ndirect = n;
		if (rehash(map, nslots)) {
			map->ndirect = old;	/* the table still holds them: keep it */
			return -1;
		}
	}
	map->ndirect = n;
	return 0;
}

/*
 * Where number's entry is or would be: its direct[] entry or its home slot.
 * Callers prefetch the address themselves: a helper whose only effect is a
 * __builtin_prefetch() counts as free of side effects, and GCC (12, -O2)
 * then deletes the call to it (policy.h, "Prefetching", says the same).
 */
static inline const void *entry_of(const struct pl_page_map *map, uint64_t number)
{
	if (number < map->ndirect)
		return &map->direct[number];
	return &map->slot[slot_of(map, number)];
}

void pl_page_map_prefetch(const struct pl_page_map *map, uint64_t number)
{
	__builtin_prefetch(entry_of(map, number));
}

/* The next id, for a new number; PL_NONE when all are taken. */
static uint32_t next_id(struct pl_page_map *map, int *added)
{
	if (map->count == PL_NONE - 1)
		return PL_NONE;
	*added = 1;
	return map->count++;
}

uint32_t pl_page_map_intern(struct pl_page_map *map, uint64_t number, int *added)
{
	uint32_t mask = map->nslots - 1;
	uint32_t i = slot_of(map, number), id;

	*added = 0;
	if (number < map->ndirect) {
		if (map->direct[number] == PL_NONE) {
			map->direct[number] = next_id(map, added);
			map->ndirect_pages += *added;
		}
		return map->direct[number];
	}
	for (; map->slot[i].id != PL_NONE; i = (i + 1) & mask)
		if (map->slot[i].key == number)
			return map->slot[i].id;
	if (!grow_direct(map, number))
		return pl_page_map_intern(map, number, added);
	if (((uint64_t)map->nhashed + 1) * 2 > map->nslots) {
		if (map->nslots > UINT32_MAX / 2 || rehash(map, map->nslots * 2))
			return PL_NONE;
		return pl_page_map_intern(map, number, added);
	}
	if ((id = next_id(map, added)) != PL_NONE) {
		map->slot[i] = (struct slot){ number, id };
		map->nhashed++;
		map->hashed_by_log[log2_of(number)]++;
	}
	return id;
}

uint32_t pl_page_map_count(const struct pl_page_map *map)
{
	return map->count;
}

int pl_page_map_intern_batch(struct pl_page_map *map, const uint64_t *numbers, uint32_t n,
			     uint32_t *ids, uint64_t *number_of)
{
	int added;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t number = numbers[i];
		uint32_t id;

		if (i + INTERN_AHEAD < n)
			__builtin_prefetch(entry_of(map, numbers[i + INTERN_AHEAD]));
		if (number < map->ndirect && (id = map->direct[number]) != PL_NONE)
			;	/* seen before, densely numbered: the common case */
		else if ((id = pl_page_map_intern(map, number, &added)) == PL_NONE)
			return -1;
		else if (added && number_of)
			number_of[id] = number;
		ids[i] = id;
	}
	return 0;
}
