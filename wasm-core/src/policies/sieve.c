/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sieve.c - SIEVE (Y. Zhang, J. Yang, Y. Yue, Y. Vigfusson and K. V.
 * Rashmi, "SIEVE is Simpler than LRU: an Efficient Turn-Key Eviction
 * Algorithm for Web Caches", NSDI 2024, Algorithm 1).
 *
 * Structure: one FIFO queue, new pages at the head; a per-page "visited"
 * bit; a hand that walks from the tail towards the head and wraps.
 *
 *   queue: head [newest ........ hand ........ oldest] tail
 *                              <-- hand moves this way, then wraps to the tail
 *
 * Unlike CLOCK, a page that survives the hand keeps its place: new pages
 * enter at the head, so old popular pages stay behind the hand while new
 * ones are sifted quickly ("lazy promotion, quick demotion").
 *
 * Transitions (x the referenced page)
 *   hit                visited(x) := 1; nothing moves
 *   fault, room        x to the head, visited(x) := 0
 *   fault, full        from the hand (the tail if the hand is unset), each
 *                      page with visited = 1 has it cleared and the hand
 *                      moves one towards the head (wrapping to the tail);
 *                      the first page with visited = 0 is evicted and the
 *                      hand is left on its neighbour towards the head
 *                      (unset when it was the head: the next sweep starts
 *                      at the tail); then x enters at the head
 *
 * The hand's position in the snapshot is its index from the head; an unset
 * hand shows on the tail (where the next sweep starts).  A page entering at
 * the head shifts every index by one, so each insertion moves the hand too.
 *
 * Reference: libCacheSim/cache/eviction/Sieve.c with unit-size pages; equal
 * misses on every trace of tests/libcachesim_diff.py.
 *
 * Parameters: none.  Lists: queue.  Fields: visited.  Hands: hand.
 * Cost per reference: O(1) per hit; O(1) amortized per fault (each page
 * the hand passes had its bit set by an earlier hit).
 * Beyond lru's work: none on a hit (a bit is set where lru moves the page:
 * less); a fault moves the hand over visited pages, clearing their bits,
 * where lru takes its tail.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { QUEUE };
enum { VISITED };
enum { HAND };

struct sieve {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist queue;
	uint8_t *visited;	/* [npages] */
	uint32_t hand;		/* a page, or PL_NONE: start at the tail */
	uint32_t hand_pos;	/* index of the hand from the head (the tail's if unset) */
};

static void sieve_destroy(void *state)
{
	struct sieve *s = state;

	if (!s)
		return;
	pl_links_free(&s->links);
	free(s->visited);
	free(s);
}

static void *sieve_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct sieve *s = calloc(1, sizeof(*s));

	if (!s || pl_links_init(&s->links, ctx->npages) ||
	    !(s->visited = calloc(ctx->npages ? ctx->npages : 1, 1))) {
		sieve_destroy(s);
		snprintf(err->msg, sizeof(err->msg), "sieve: out of memory");
		return NULL;
	}
	s->ctx = ctx;
	s->hand = PL_NONE;
	pl_dlist_init(&s->queue);
	return s;
}

static void set_visited(struct sieve *s, uint32_t page, uint8_t bit)
{
	if (s->visited[page] == bit)
		return;
	pl_emit_set(s->ctx, page, VISITED, s->visited[page], bit);
	s->visited[page] = bit;
}

static void move_hand(struct sieve *s, uint32_t page, uint32_t pos)
{
	if (pos != s->hand_pos)
		pl_emit_hand(s->ctx, HAND, s->hand_pos, pos);
	s->hand = page;
	s->hand_pos = pos;
}

static void sieve_hit(void *state, const struct pl_ref *ref)
{
	struct sieve *s = state;

	set_visited(s, ref->page, 1);
}

static void sieve_insert(void *state, const struct pl_ref *ref)
{
	struct sieve *s = state;

	pl_dlist_push_head(&s->links, &s->queue, ref->page);
	s->visited[ref->page] = 0;
	pl_emit_insert(s->ctx, ref->page, QUEUE, 0);
	if (s->queue.len > 1)	/* an unset hand stays on the tail: index len - 1 */
		move_hand(s, s->hand, s->hand_pos + 1);
}

static uint32_t sieve_victim(const void *state)
{
	const struct sieve *s = state;
	uint32_t p = s->hand == PL_NONE ? s->queue.tail : s->hand;

	for (uint32_t looked = 0; looked <= s->queue.len; looked++) {
		if (!s->visited[p])
			return p;
		p = s->links.link[p].prev;
		if (p == PL_NONE)
			p = s->queue.tail;
	}
	/* every bit set: the sweep clears them all and comes back to the start */
	return s->hand == PL_NONE ? s->queue.tail : s->hand;
}

static void sieve_evict(void *state, uint32_t victim)
{
	struct sieve *s = state;
	uint32_t p = s->hand == PL_NONE ? s->queue.tail : s->hand;
	uint32_t pos = s->hand == PL_NONE ? s->queue.len - 1 : s->hand_pos;
	uint32_t prev;

	while (s->visited[p]) {
		set_visited(s, p, 0);
		p = s->links.link[p].prev;
		if (p == PL_NONE) {
			p = s->queue.tail;
			pos = s->queue.len - 1;
		} else {
			pos--;
		}
		move_hand(s, p, pos);
	}
	/* p == victim */
	prev = s->links.link[p].prev;
	pl_dlist_remove(&s->links, &s->queue, p);
	pl_emit_evict(s->ctx, p, QUEUE);
	if (prev != PL_NONE)
		move_hand(s, prev, pos - 1);
	else	/* unset: the next sweep starts at the tail, index len - 1 */
		move_hand(s, PL_NONE, s->queue.len ? s->queue.len - 1 : 0);
}

static void fill_fields(const struct sieve *s, uint32_t page, int32_t *values)
{
	values[VISITED] = s->visited[page];
}

static void sieve_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct sieve *s = state;
	int32_t values[1];

	for (uint32_t p = s->queue.head; p != PL_NONE; p = s->links.link[p].next) {
		fill_fields(s, p, values);
		pl_snapshot_push(out, QUEUE, p, values);
	}
	pl_snapshot_set_hand(out, HAND, (int32_t)s->hand_pos);
}

static const char *const sieve_lists[] = { [QUEUE] = "queue" };
static const char *const sieve_fields[] = { [VISITED] = "visited" };
static const char *const sieve_hands[] = { [HAND] = "hand" };
static const unsigned sieve_hand_lists[] = { [HAND] = QUEUE };

const struct pl_policy_ops pl_policy_sieve = {
	.name = "sieve",
	.title = "SIEVE",
	.help = "A FIFO queue with a visited bit; a hand moving from old to new evicts the "
		"first unvisited page, clearing bits it passes, and survivors keep their place.",
	.flags = PL_POLICY_SPARSE,
	.lists = sieve_lists,
	.nlists = 1,
	.fields = sieve_fields,
	.nfields = 1,
	.hands = sieve_hands,
	.hand_lists = sieve_hand_lists,
	.nhands = 1,
	.create = sieve_create,
	.destroy = sieve_destroy,
	.hit = sieve_hit,
	.insert = sieve_insert,
	.victim = sieve_victim,
	.evict = sieve_evict,
	.snapshot = sieve_snapshot,
};
