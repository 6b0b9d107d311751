/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_map.c - open-addressing hash table: 64-bit page number -> dense id.
 *
 * Invariants: nslots is a power of two; count * 2 <= nslots, so every probe
 * sequence ends at an empty slot; slot[i].id == PL_NONE marks slot i empty;
 * the ids in use are exactly 0 .. count-1.
 *
 * Layout: key and id share a 16-byte slot, so a lookup of a page absent
 * from the cache costs one cache miss, not two; pl_page_map_prefetch()
 * lets a caller with a batch of numbers overlap those misses.
 *
 * Hashing: Fibonacci multiplicative hashing, taking the top bits of
 * number * 2^64/phi.  Traces often use page numbers that are multiples of a
 * large power of two (addresses >> 12 of aligned regions); the multiply
 * spreads those over all slots, which a plain mask would not.
 */
#include <stdlib.h>

#include "pagelab.h"
#include "page_map.h"

struct slot {
	uint64_t key;
	uint32_t id;
};

struct pl_page_map {
	struct slot *slot;
	uint32_t nslots;
	unsigned shift;		/* 64 - log2(nslots) */
	uint32_t count;
};

static inline uint32_t slot_of(const struct pl_page_map *map, uint64_t number)
{
	return (uint32_t)((number * 0x9e3779b97f4a7c15ull) >> map->shift);
}

static int alloc_slots(struct pl_page_map *map, uint32_t nslots)
{
	struct slot *slot = malloc((size_t)nslots * sizeof(*slot));

	if (!slot)
		return -1;
	for (uint32_t i = 0; i < nslots; i++)
		slot[i].id = PL_NONE;
	map->slot = slot;
	map->nslots = nslots;
	map->shift = 64 - __builtin_ctz(nslots);
	return 0;
}

struct pl_page_map *pl_page_map_create(void)
{
	struct pl_page_map *map = calloc(1, sizeof(*map));

	if (map && alloc_slots(map, 1024)) {
		free(map);
		return NULL;
	}
	return map;
}

void pl_page_map_destroy(struct pl_page_map *map)
{
	if (!map)
		return;
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

static int grow(struct pl_page_map *map)
{
	struct slot *old = map->slot;
	uint32_t old_nslots = map->nslots;

	if (old_nslots > UINT32_MAX / 2 || alloc_slots(map, old_nslots * 2))
		return -1;
	for (uint32_t i = 0; i < old_nslots; i++)
		if (old[i].id != PL_NONE)
			place(map, old[i].key, old[i].id);
	free(old);
	return 0;
}

void pl_page_map_prefetch(const struct pl_page_map *map, uint64_t number)
{
	__builtin_prefetch(&map->slot[slot_of(map, number)]);
}

uint32_t pl_page_map_intern(struct pl_page_map *map, uint64_t number, int *added)
{
	uint32_t mask = map->nslots - 1;
	uint32_t i = slot_of(map, number);

	*added = 0;
	for (; map->slot[i].id != PL_NONE; i = (i + 1) & mask)
		if (map->slot[i].key == number)
			return map->slot[i].id;
	if (((uint64_t)map->count + 1) * 2 > map->nslots || map->count == PL_NONE - 1) {
		if (map->count == PL_NONE - 1 || grow(map))
			return PL_NONE;
		return pl_page_map_intern(map, number, added);
	}
	map->slot[i] = (struct slot){ number, map->count };
	*added = 1;
	return map->count++;
}
