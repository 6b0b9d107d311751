/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_map.c - open-addressing hash table: 64-bit page number -> dense id.
 *
 * Invariants: nslots is a power of two; count * 2 <= nslots, so every probe
 * sequence ends at an empty slot; id[i] == PL_NONE marks slot i empty; the
 * ids in use are exactly 0 .. count-1.
 *
 * Hashing: Fibonacci multiplicative hashing, taking the top bits of
 * number * 2^64/phi.  Traces often use page numbers that are multiples of a
 * large power of two (addresses >> 12 of aligned regions); the multiply
 * spreads those over all slots, which a plain mask would not.
 */
#include <stdlib.h>

#include "pagelab.h"
#include "page_map.h"

struct pl_page_map {
	uint64_t *key;
	uint32_t *id;
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
	map->key = malloc((size_t)nslots * sizeof(*map->key));
	map->id = malloc((size_t)nslots * sizeof(*map->id));
	if (!map->key || !map->id) {
		free(map->key);
		free(map->id);
		return -1;
	}
	for (uint32_t i = 0; i < nslots; i++)
		map->id[i] = PL_NONE;
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
	free(map->key);
	free(map->id);
	free(map);
}

static void place(struct pl_page_map *map, uint64_t number, uint32_t id)
{
	uint32_t mask = map->nslots - 1;
	uint32_t i = slot_of(map, number);

	while (map->id[i] != PL_NONE)
		i = (i + 1) & mask;
	map->key[i] = number;
	map->id[i] = id;
}

static int grow(struct pl_page_map *map)
{
	uint64_t *old_key = map->key;
	uint32_t *old_id = map->id;
	uint32_t old_nslots = map->nslots;

	if (old_nslots > UINT32_MAX / 2 || alloc_slots(map, old_nslots * 2)) {
		map->key = old_key;
		map->id = old_id;
		return -1;
	}
	for (uint32_t i = 0; i < old_nslots; i++)
		if (old_id[i] != PL_NONE)
			place(map, old_key[i], old_id[i]);
	free(old_key);
	free(old_id);
	return 0;
}

uint32_t pl_page_map_intern(struct pl_page_map *map, uint64_t number, int *added)
{
	uint32_t mask = map->nslots - 1;
	uint32_t i = slot_of(map, number);

	*added = 0;
	for (; map->id[i] != PL_NONE; i = (i + 1) & mask)
		if (map->key[i] == number)
			return map->id[i];
	if (((uint64_t)map->count + 1) * 2 > map->nslots || map->count == PL_NONE - 1) {
		if (map->count == PL_NONE - 1 || grow(map))
			return PL_NONE;
		return pl_page_map_intern(map, number, added);
	}
	map->key[i] = number;
	map->id[i] = map->count;
	*added = 1;
	return map->count++;
}
