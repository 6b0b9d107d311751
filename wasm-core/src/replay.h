/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - a snapshot opened up to replay many events onto it: every list
 * a chain of blocks of entries and a hash from page to entry, so that an
 * event finds its page in O(1) and an insertion or removal moves at most a
 * block.  pl_snapshot_apply() on the flat snapshot pays O(entries) per event
 * (the search for the page, the shift of the entries behind it), which made
 * a seek O(frames * events replayed); eventlog_seek() replays through this
 * instead, so a seek costs the checkpoint's size plus O(REPLAY_BLOCK + list
 * length / REPLAY_BLOCK) at most per event.
 *
 *   struct replay r;
 *   replay_open(&r, checkpoint);          O(entries)
 *   replay_apply(&r, &event) ...          see below
 *   replay_close(&r, out);                O(entries); frees r
 *
 * replay_apply() accepts and rejects exactly what pl_snapshot_apply() does
 * (same events, same result: the replay tests compare them on every policy).
 * An INSERT or MOVE names a position in its destination list.  A list is
 * kept as a chain of blocks of up to REPLAY_BLOCK node ids, each knowing
 * how many it holds, and a node knows its block: a position is found by
 * hopping blocks from the nearer end (a frame table of 4096 slots: at most
 * 32 hops, not 2048 pointer steps), then indexing; an insertion or removal
 * moves at most a block's ids, at the head and the tail too (where linked
 * nodes cost nothing: seeks of the policies that keep ordered lists, lru
 * or linux, take about twice as long as with them).
 *
 * Invariants: node n is in block node[n].block of list node[n].list, once;
 * no block in a list is empty; len[i] is the sum of list i's block counts;
 * the hash holds exactly the pages of the nodes in lists.
 */
#ifndef PAGELAB_REPLAY_H
#define PAGELAB_REPLAY_H

#include "pagelab.h"

#define REPLAY_BLOCK 64

struct replay_node {
	uint32_t page;
	uint32_t block;		/* its block; the next free node when free */
	uint32_t list;
};

struct replay_block {
	uint32_t next, prev;	/* block ids, PL_NONE at the ends; next: the free list too */
	uint32_t count;
	uint32_t node[REPLAY_BLOCK];
};

struct replay {
	uint32_t nlists, nfields, nhands, nvariables;
	int32_t hand[PL_MAX_HANDS];
	int32_t variable[PL_MAX_VARIABLES];
	uint32_t first[PL_MAX_LISTS], last[PL_MAX_LISTS];	/* block ids */
	uint32_t len[PL_MAX_LISTS];

	struct replay_node *node;	/* [cap] */
	int32_t *value;			/* [cap * nfields] */
	uint32_t cap, used, free;	/* nodes allocated, handed out, free list head */
	struct replay_block *block;	/* [blocks_cap] */
	uint32_t blocks_cap, blocks_used, free_block;

	uint32_t *slot;		/* hash: a node id per slot, PL_NONE if empty */
	uint32_t slot_mask;	/* slots - 1 (a power of two, at least twice the nodes) */
	uint32_t entries;	/* nodes in lists */
};

/* Opens `from` for replay; -1 when out of memory (nothing to free then). */
int replay_open(struct replay *r, const struct pl_snapshot *from);
/* Applies one event; -1 if it does not fit or memory ran out (r stays valid). */
int replay_apply(struct replay *r, const struct pl_event *ev);
/* Writes the structure reached to `out` and frees r; -1 when out of memory. */
int replay_close(struct replay *r, struct pl_snapshot *out);
/* Frees r without writing it. */
void replay_free(struct replay *r);

#endif /* PAGELAB_REPLAY_H */
