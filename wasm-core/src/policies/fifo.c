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
 *
 * Structure: the queue is a ring of page ids as long as memory can hold
 * pages (frames_usable()), the oldest at `head`.  Only its two ends ever
 * change - hits change nothing, so nothing has to find a page in it - and
 * consecutive faults touch neighbouring entries: a fault costs no cache
 * miss beyond the driver's own (a per-page list would cost two or three).
 * Cost per reference: O(1).
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"

enum { LIST_QUEUE };

struct fifo {
	struct pl_ctx *ctx;
	uint32_t *ring;		/* [size]: ring[head], ring[head + 1] ... the queue */
	uint32_t size, head, len;
};

static void *fifo_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct fifo *f = calloc(1, sizeof(*f));

	if (f) {
		f->size = frames_usable(ctx);
		f->ring = malloc(sizeof(*f->ring) * f->size);
	}
	if (!f || !f->ring) {
		free(f);
		snprintf(err->msg, sizeof(err->msg), "fifo: out of memory");
		return NULL;
	}
	f->ctx = ctx;
	return f;
}

static void fifo_destroy(void *state)
{
	struct fifo *f = state;

	free(f->ring);
	free(f);
}

/* The ring index of queue position `pos`. */
static uint32_t ring_index(const struct fifo *f, uint32_t pos)
{
	uint32_t i = f->head + pos;

	return i >= f->size ? i - f->size : i;
}

static void fifo_hit(void *state, const struct pl_ref *ref)
{
	(void)state;
	(void)ref;
}

static void fifo_insert(void *state, const struct pl_ref *ref)
{
	struct fifo *f = state;

	pl_emit_insert(f->ctx, ref->page, LIST_QUEUE, f->len);
	f->ring[ring_index(f, f->len)] = ref->page;
	f->len++;
}

static uint32_t fifo_victim(const void *state)
{
	const struct fifo *f = state;

	return f->len ? f->ring[f->head] : PL_NONE;
}

/* The victim is the head: victim() named it. */
static void fifo_evict(void *state, uint32_t victim)
{
	struct fifo *f = state;

	f->head = ring_index(f, 1);
	f->len--;
	pl_emit_evict(f->ctx, victim, LIST_QUEUE);
}

static void fifo_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct fifo *f = state;

	for (uint32_t pos = 0; pos < f->len; pos++)
		pl_snapshot_push(out, LIST_QUEUE, f->ring[ring_index(f, pos)], NULL);
}

static const char *const fifo_lists[] = { "queue" };

const struct pl_policy_ops pl_policy_fifo = {
	.name = "fifo",
	.title = "First In, First Out",
	.help = "Evicts the page loaded longest ago; hits change nothing.",
	.flags = PL_POLICY_SPARSE,
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
