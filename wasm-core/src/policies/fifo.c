/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fifo.c - First In, First Out.
 *
 * Algorithm: resident pages form one queue in order of arrival.  A fault
 * evicts the page at the head (the one loaded longest ago) and appends the
 * new page at the tail.  Hits change nothing: FIFO ignores use, which is why
 * it shows Belady's anomaly (more frames, more faults on 1 2 3 4 1 2 5 1 2 3
 * 4 5).
 *
 * Transitions (list "queue", head = oldest):
 *   hit p           no change
 *   miss p, room    p appended at the tail
 *   miss p, full    head evicted, then p appended at the tail
 *
 * Parameters: none.  Lists: queue.  Fields, hands, counters: none.
 * Cost per reference: O(1) (two link updates).
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { LIST_QUEUE };

struct fifo {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist queue;
};

static void *fifo_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct fifo *f = calloc(1, sizeof(*f));

	if (!f || pl_links_init(&f->links, ctx->npages)) {
		free(f);
		snprintf(err->msg, sizeof(err->msg), "fifo: out of memory");
		return NULL;
	}
	f->ctx = ctx;
	pl_dlist_init(&f->queue);
	return f;
}

static void fifo_destroy(void *state)
{
	struct fifo *f = state;

	pl_links_free(&f->links);
	free(f);
}

static void fifo_hit(void *state, const struct pl_ref *ref)
{
	(void)state;
	(void)ref;
}

static void fifo_insert(void *state, const struct pl_ref *ref)
{
	struct fifo *f = state;

	pl_emit_insert(f->ctx, ref->page, LIST_QUEUE, f->queue.len);
	pl_dlist_push_tail(&f->links, &f->queue, ref->page);
}

static uint32_t fifo_victim(const void *state)
{
	const struct fifo *f = state;

	return f->queue.head;
}

static void fifo_evict(void *state, uint32_t victim)
{
	struct fifo *f = state;

	pl_dlist_remove(&f->links, &f->queue, victim);
	pl_emit_evict(f->ctx, victim, LIST_QUEUE);
}

static void fifo_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct fifo *f = state;

	for (uint32_t p = f->queue.head; p != PL_NONE; p = f->links.link[p].next)
		pl_snapshot_push(out, LIST_QUEUE, p, NULL);
}

static const char *const fifo_lists[] = { "queue" };

const struct pl_policy_ops pl_policy_fifo = {
	.name = "fifo",
	.title = "First In, First Out",
	.help = "Evicts the page loaded longest ago; hits change nothing.",
	.lists = fifo_lists,
	.nlists = 1,
	.create = fifo_create,
	.destroy = fifo_destroy,
	.hit = fifo_hit,
	.insert = fifo_insert,
	.victim = fifo_victim,
	.evict = fifo_evict,
	.snapshot = fifo_snapshot,
};
