/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slru.c - Segmented LRU (R. Karedla, J. S. Love and B. G. Wherry, "Caching
 * Strategies to Improve Disk System Performance", IEEE Computer 27(3),
 * 1994), with n segments as in libCacheSim.
 *
 * Structure: n LRU lists ("segments", most recent at the head); segment 0
 * is the probationary one, segment n-1 the most protected.  Each holds at
 * most floor(c / n) pages, c = frames, except segment 0, which also gets
 * the remainder c - n * floor(c / n).
 *
 *   seg3: [recent .. old] --cool--+        (hits in seg3 stay in seg3)
 *   seg2: [recent .. old] --cool--+ <--hit-- promoted one segment up
 *   seg1: [recent .. old] --cool--+
 *   seg0: [recent .. old] --evict-->       (new pages: lowest segment with room)
 *
 * Transitions (x the referenced page)
 *   hit, x in seg n-1     x to the head of seg n-1
 *   hit, x in seg i < n-1 x to the head of seg i+1; if seg i+1 is now over
 *                         its size, its tail is cooled to the head of seg i
 *                         (which x just left, so nothing cascades further)
 *   fault                 x to the head of the lowest segment with room
 *                         (while the cache fills, that climbs: seg0 fills
 *                         first, then seg1, ...); full: the tail of the lowest
 *                         non-empty segment is evicted first
 *
 * Parameters
 *   segments  n, 1 to 4 (libCacheSim's default is 4; n = 1 is LRU)
 *
 * Reference: libCacheSim/cache/eviction/SLRU.c with unit-size pages.  Its
 * misses are equal whenever frames is a multiple of segments (checked in
 * tests/libcachesim_diff.py).  Otherwise libCacheSim gives every segment
 * floor(c / n), fills the rest into segment 0 over its size, and then evicts
 * from segment 0 during a hit's cooling cascade; a page replacement policy
 * evicts only on a fault, so pagelab gives segment 0 the remainder instead.
 *
 * Lists: seg0 .. seg3 (those beyond `segments` stay empty).
 * Cost per reference: O(1) (at most two moves per hit).
 * Beyond lru's work: a hit reads the page's segment and moves it to the
 * next segment's head, and a full segment sends its tail down one (a
 * second move); a fault is lru's, from the lowest non-empty segment.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

#define MAX_SEGMENTS 4
enum { PARAM_SEGMENTS };

struct slru {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist seg[MAX_SEGMENTS];
	uint32_t max[MAX_SEGMENTS];	/* pages each segment may hold */
	uint8_t *seg_of;		/* [npages]: segment of a resident page */
	unsigned n;
};

static void slru_destroy(void *state)
{
	struct slru *s = state;

	if (!s)
		return;
	pl_links_free(&s->links);
	free(s->seg_of);
	free(s);
}

static void *slru_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct slru *s = calloc(1, sizeof(*s));

	if (!s || pl_links_init(&s->links, ctx->npages) ||
	    !(s->seg_of = calloc(ctx->npages ? ctx->npages : 1, 1))) {
		slru_destroy(s);
		snprintf(err->msg, sizeof(err->msg), "slru: out of memory");
		return NULL;
	}
	s->ctx = ctx;
	s->n = (unsigned)ctx->params[PARAM_SEGMENTS];
	for (unsigned i = 0; i < MAX_SEGMENTS; i++) {
		pl_dlist_init(&s->seg[i]);
		s->max[i] = i < s->n ? ctx->frames / s->n : 0;
	}
	s->max[0] += ctx->frames % s->n;
	return s;
}

static void move_to_head(struct slru *s, uint32_t page, unsigned to)
{
	unsigned from = s->seg_of[page];

	pl_dlist_remove(&s->links, &s->seg[from], page);
	pl_dlist_push_head(&s->links, &s->seg[to], page);
	s->seg_of[page] = (uint8_t)to;
	pl_emit_move(s->ctx, page, from, to, 0);
}

static void slru_hit(void *state, const struct pl_ref *ref)
{
	struct slru *s = state;
	uint32_t x = ref->page;
	unsigned i = s->seg_of[x];

	if (i == s->n - 1) {
		if (s->seg[i].head != x)
			move_to_head(s, x, i);
		return;
	}
	move_to_head(s, x, i + 1);
	if (s->seg[i + 1].len > s->max[i + 1])
		move_to_head(s, s->seg[i + 1].tail, i);
}

static void slru_insert(void *state, const struct pl_ref *ref)
{
	struct slru *s = state;
	unsigned i = 0;

	/* The segment sizes add up to the frames, so one has room. */
	while (s->seg[i].len >= s->max[i])
		i++;
	pl_dlist_push_head(&s->links, &s->seg[i], ref->page);
	s->seg_of[ref->page] = (uint8_t)i;
	pl_emit_insert(s->ctx, ref->page, i, 0);
}

static uint32_t slru_victim(const void *state)
{
	const struct slru *s = state;
	unsigned i = 0;

	while (s->seg[i].len == 0)
		i++;
	return s->seg[i].tail;
}

static void slru_evict(void *state, uint32_t victim)
{
	struct slru *s = state;
	unsigned i = s->seg_of[victim];

	pl_dlist_remove(&s->links, &s->seg[i], victim);
	pl_emit_evict(s->ctx, victim, i);
}

static void slru_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct slru *s = state;

	for (unsigned i = 0; i < MAX_SEGMENTS; i++)
		for (uint32_t p = s->seg[i].head; p != PL_NONE; p = s->links.link[p].next)
			pl_snapshot_push(out, i, p, NULL);
}

static const struct pl_param slru_params[] = {
	[PARAM_SEGMENTS] = {
		.name = "segments",
		.help = "number of LRU segments, seg0 probationary (libCacheSim: 4)",
		.def = 4, .min = 1, .max = MAX_SEGMENTS,
	},
};

static const char *const slru_lists[MAX_SEGMENTS] = { "seg0", "seg1", "seg2", "seg3" };

const struct pl_policy_ops pl_policy_slru = {
	.name = "slru",
	.title = "Segmented LRU",
	.help = "LRU segments of equal size: a hit promotes a page one segment up, pushing "
		"that segment's oldest page down; faults evict from the lowest segment.",
	.flags = PL_POLICY_SPARSE,
	.params = slru_params,
	.nparams = 1,
	.lists = slru_lists,
	.nlists = MAX_SEGMENTS,
	.create = slru_create,
	.destroy = slru_destroy,
	.hit = slru_hit,
	.insert = slru_insert,
	.victim = slru_victim,
	.evict = slru_evict,
	.snapshot = slru_snapshot,
};
