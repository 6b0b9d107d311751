/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_map.h - the map from 64-bit input page numbers to dense page ids,
 * used while a trace is loaded.
 *
 * An open-addressing hash table with linear probing over a power-of-two
 * number of slots, kept at most half full, so a lookup touches one or two
 * cache lines on average; batches can prefetch their slots first.  Ids are
 * handed out in order of first appearance: 0, 1, 2, ...  Every 64-bit
 * number is a valid key (an empty slot is marked by its id, not its key).
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

#endif /* PAGELAB_PAGE_MAP_H */
