/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lru.c - Least Recently Used.
 *
 * Algorithm: resident pages form one list in order of last use, most recent
 * at the head.  A reference moves (or inserts) its page to the head; a fault
 * with memory full evicts the tail, the page unused for longest.  LRU is a
 * stack algorithm: it never shows Belady's anomaly.
 *
 * Transitions (list "recency", head = most recently used):
 *   hit p           p moved to the head (no event if it is there already)
 *   miss p, room    p inserted at the head
 *   miss p, full    tail evicted, then p inserted at the head
 *
 * Parameters: none.  Lists: recency.  Fields, hands, counters: none.
 * Cost per reference: O(1) (a doubly linked list over dense page ids).
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { LIST_RECENCY };

struct lru {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist recency;
};

static void *lru_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lru *l = calloc(1, sizeof(*l));

	if (!l || pl_links_init(&l->links, ctx->npages)) {
		free(l);
		snprintf(err->msg, sizeof(err->msg), "lru: out of memory");
		return NULL;
	}
	l->ctx = ctx;
	pl_dlist_init(&l->recency);
	return l;
}

static void lru_destroy(void *state)
{
	struct lru *l = state;

	pl_links_free(&l->links);
	free(l);
}

static void lru_hit(void *state, const struct pl_ref *ref)
{
	struct lru *l = state;

	if (l->recency.head == ref->page)
		return;
	pl_dlist_move_to_head(&l->links, &l->recency, ref->page);
	pl_emit_move(l->ctx, ref->page, LIST_RECENCY, LIST_RECENCY, 0);
}

static void lru_insert(void *state, const struct pl_ref *ref)
{
	struct lru *l = state;

	pl_dlist_push_head(&l->links, &l->recency, ref->page);
	pl_emit_insert(l->ctx, ref->page, LIST_RECENCY, 0);
}

static uint32_t lru_victim(const void *state)
{
	const struct lru *l = state;

	return l->recency.tail;
}

static void lru_evict(void *state, uint32_t victim)
{
	struct lru *l = state;

	pl_dlist_remove(&l->links, &l->recency, victim);
	pl_emit_evict(l->ctx, victim, LIST_RECENCY);
}

static void lru_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct lru *l = state;

	for (uint32_t p = l->recency.head; p != PL_NONE; p = l->links.link[p].next)
		pl_snapshot_push(out, LIST_RECENCY, p, NULL);
}

static const char *const lru_lists[] = { "recency" };

const struct pl_policy_ops pl_policy_lru = {
	.name = "lru",
	.title = "Least Recently Used",
	.help = "Evicts the page whose last use lies furthest in the past.",
	.flags = PL_POLICY_SPARSE,
	.lists = lru_lists,
	.nlists = 1,
	.create = lru_create,
	.destroy = lru_destroy,
	.hit = lru_hit,
	.insert = lru_insert,
	.victim = lru_victim,
	.evict = lru_evict,
	.snapshot = lru_snapshot,
};
