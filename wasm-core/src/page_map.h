/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_map.h - the map from 64-bit input page numbers to dense page ids,
 * used while a trace is loaded.
 *
 * A direct array for densely numbered pages, an open-addressing hash table
 * (linear probing, at most half full) for the others; page_map.c says how
 * a number finds its part.  Ids are handed out in order of first
 * appearance: 0, 1, 2, ...  Every 64-bit number is a valid key.
 */
#ifndef PAGELAB_PAGE_MAP_H
#define PAGELAB_PAGE_MAP_H

#include <stdint.h>

struct pl_page_map;

struct pl_page_map *pl_page_map_create(void);
void pl_page_map_destroy(struct pl_page_map *map);
/*
 * The id of `number`, giving it the next free id (`*added` set to 1) if it
 * is new; PL_NONE when out of memory.
 */
uint32_t pl_page_map_intern(struct pl_page_map *map, uint64_t number, int *added);
/* Starts loading the slot where `number` would be, ahead of interning it. */
void pl_page_map_prefetch(const struct pl_page_map *map, uint64_t number);
/* How many ids have been handed out. */
uint32_t pl_page_map_count(const struct pl_page_map *map);
/*
 * ids[i] = pl_page_map_intern() of numbers[i], faster than one at a time
 * (slots prefetched ahead, so cache misses overlap); unless number_of is
 * NULL, number_of[id] = the number for each new id (it has room for n more
 * ids than there are).  -1 when out of memory.
 */
int pl_page_map_intern_batch(struct pl_page_map *map, const uint64_t *numbers, uint32_t n,
			     uint32_t *ids, uint64_t *number_of);

#endif /* PAGELAB_PAGE_MAP_H */
