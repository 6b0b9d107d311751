/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lfu.c - LFU, Least Frequently Used: evict the page referenced the fewest
 * times since it was loaded (Silberschatz, Operating System Concepts 10e,
 * 10.4.6, counting-based replacement).
 *
 * Structure: one list "frames", the frame table; each page has a field
 * "count", its references since it was loaded (a page's history is
 * forgotten when it is evicted: in-memory LFU, as in the textbook).
 *
 * Transitions
 *   hit     count := count + 1.
 *   fault   the victim is a page with the smallest count; among those, the
 *           least recently used one (its last reference is the oldest).
 *           The new page takes its slot with count := 1.
 *
 * Parameters: none.
 *
 * Cost: O(1) per reference (Shah, Mitra and Matani, "An O(1) algorithm for
 * implementing the LFU cache eviction scheme", 2010): pages with the same
 * count form a bucket, a list in recency order; the buckets form a list in
 * increasing count.  A hit moves its page to the tail of the next bucket
 * (creating it if count + 1 is missing), so the victim is always the head
 * of the first bucket; a page alone in its bucket, with no bucket for
 * count + 1 after it, takes its bucket along instead (the order is the
 * same, and a hot page's hit touches no list).  At most frames + 1
 * buckets exist at once (each holds a page, plus one made before an
 * emptied one is freed), so they come from a fixed pool.  Buckets hold
 * slots rather than pages, so that the lists stay within a frame-sized
 * array (8 bytes a slot).  A page's bucket is kept by page
 * (`page_bucket`, 4 bytes a page, written when the page enters a bucket),
 * so that a hit finds it from the page id alone: prefetch() asks for it
 * 16 references ahead, and a hit on a page alone in its bucket (a hot
 * page's, mostly) touches nothing else of the page.
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"
#include "dlist.h"

enum { LFU_FRAMES };
enum { LFU_COUNT };

struct lfu_bucket {
	uint32_t count;
	struct pl_dlist slots;	/* the pages' slots, least recently used first */
	uint32_t prev, next;	/* neighbouring buckets by count; next links the free pool */
};

/* A slot's place in its bucket's list. */
struct lfu_slot {
	struct pl_link link;
};

struct lfu {
	struct pl_ctx *ctx;
	struct frame_table table;
	struct lfu_slot *slots;		/* [frames_usable()] */
	uint32_t *page_bucket;		/* [npages]: a resident page's bucket */
	struct lfu_bucket *buckets;	/* pool of frames_usable() + 1 */
	uint32_t lowest;		/* bucket with the smallest count, or PL_NONE */
	uint32_t free_buckets;		/* head of the free pool, or PL_NONE */
};

static inline struct pl_record_links links(const struct lfu *l)
{
	return PL_RECORD_LINKS(l->slots, link);
}

static void lfu_destroy(void *state)
{
	struct lfu *l = state;

	if (!l)
		return;
	frame_table_free(&l->table);
	free(l->slots);
	free(l->page_bucket);
	free(l->buckets);
	free(l);
}

static void *lfu_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lfu *l = calloc(1, sizeof(*l));
	uint32_t nbuckets = frames_usable(ctx) + 1;

	if (!l) {
		snprintf(err->msg, sizeof(err->msg), "out of memory for LFU");
		return NULL;
	}
	l->ctx = ctx;
	if (frame_table_init(&l->table, ctx, LFU_FRAMES, err)) {
		free(l);
		return NULL;
	}
	l->buckets = malloc(sizeof(*l->buckets) * nbuckets);
	l->slots = malloc(sizeof(*l->slots) * frames_usable(ctx));
	l->page_bucket = malloc(sizeof(*l->page_bucket) * (ctx->npages ? ctx->npages : 1));
	if (!l->buckets || !l->slots || !l->page_bucket) {
		lfu_destroy(l);
		snprintf(err->msg, sizeof(err->msg), "out of memory for LFU");
		return NULL;
	}
	for (uint32_t b = 0; b < nbuckets; b++)
		l->buckets[b].next = b + 1 < nbuckets ? b + 1 : PL_NONE;
	l->free_buckets = 0;
	l->lowest = PL_NONE;
	return l;
}

/* Takes a bucket from the pool and links it in before `next` (PL_NONE: at the end). */
static uint32_t bucket_new(struct lfu *l, uint32_t count, uint32_t prev, uint32_t next)
{
	uint32_t b = l->free_buckets;
	struct lfu_bucket *bucket = &l->buckets[b];

	l->free_buckets = bucket->next;
	bucket->count = count;
	pl_dlist_init(&bucket->slots);
	bucket->prev = prev;
	bucket->next = next;
	if (prev == PL_NONE)
		l->lowest = b;
	else
		l->buckets[prev].next = b;
	if (next != PL_NONE)
		l->buckets[next].prev = b;
	return b;
}

/* Unlinks an emptied bucket and returns it to the pool. */
static void bucket_free(struct lfu *l, uint32_t b)
{
	struct lfu_bucket *bucket = &l->buckets[b];

	if (bucket->prev == PL_NONE)
		l->lowest = bucket->next;
	else
		l->buckets[bucket->prev].next = bucket->next;
	if (bucket->next != PL_NONE)
		l->buckets[bucket->next].prev = bucket->prev;
	bucket->next = l->free_buckets;
	l->free_buckets = b;
}

/* Takes `slot` out of its bucket `b`. */
static void bucket_take(struct lfu *l, uint32_t b, uint32_t slot)
{
	pl_rdlist_remove(links(l), &l->buckets[b].slots, slot);
	if (l->buckets[b].slots.len == 0)
		bucket_free(l, b);
}

/* Puts `slot`, holding `page`, at the tail of bucket `b`. */
static void bucket_put(struct lfu *l, uint32_t b, uint32_t slot, uint32_t page)
{
	pl_rdlist_push_tail(links(l), &l->buckets[b].slots, slot);
	l->page_bucket[page] = b;
}

/*
 * The far page's bucket number, which a hit reads first, and its slot
 * number, which a hit that moves the page reads.  The slot records (8
 * bytes a frame, in the L2 cache at 64K frames) are not asked for: the
 * near page's slot number, read here to name its record, was itself still
 * on its way often enough that the wait moved into prefetch().
 */
static void lfu_prefetch(const void *state, uint32_t far, uint32_t near,
			 struct pl_prefetch *out)
{
	const struct lfu *l = state;

	pl_prefetch(out, &l->page_bucket[far]);
	pl_prefetch(out, &l->table.page_slot[far]);
}

static void lfu_hit(void *state, const struct pl_ref *ref)
{
	struct lfu *l = state;
	uint32_t b = l->page_bucket[ref->page], slot;
	struct lfu_bucket *bucket = &l->buckets[b];
	uint32_t count = bucket->count;
	uint32_t up = bucket->next;
	bool up_is_next = up != PL_NONE && l->buckets[up].count == count + 1;

	pl_emit_set(l->ctx, ref->page, LFU_COUNT, (int32_t)count, (int32_t)count + 1);
	if (bucket->slots.len == 1 && !up_is_next) {
		bucket->count = count + 1;	/* alone: the bucket comes along */
		return;
	}
	if (!up_is_next)
		up = bucket_new(l, count + 1, b, up);
	slot = l->table.page_slot[ref->page];
	bucket_take(l, b, slot);
	bucket_put(l, up, slot, ref->page);
}

static void lfu_insert(void *state, const struct pl_ref *ref)
{
	struct lfu *l = state;
	uint32_t b = l->lowest;

	if (b == PL_NONE || l->buckets[b].count != 1)
		b = bucket_new(l, 1, PL_NONE, b);
	bucket_put(l, b, frame_table_insert(&l->table, l->ctx, ref->page), ref->page);
	pl_emit_set(l->ctx, ref->page, LFU_COUNT, 0, 1);
}

/* The victim's slot: the head of the first bucket; PL_NONE if empty. */
static uint32_t victim_slot(const struct lfu *l)
{
	return l->lowest != PL_NONE ? l->buckets[l->lowest].slots.head : PL_NONE;
}

static uint32_t lfu_victim(const void *state)
{
	const struct lfu *l = state;
	uint32_t slot = victim_slot(l);

	return slot != PL_NONE ? l->table.slot_page[slot] : PL_NONE;
}

static void lfu_evict(void *state, uint32_t victim)
{
	struct lfu *l = state;
	uint32_t slot = victim_slot(l), b = l->lowest;

	/* The victim is normally the one victim() named, whose slot and bucket
	 * are found again without reading them by page (cache misses). */
	if (slot == PL_NONE || l->table.slot_page[slot] != victim) {
		slot = l->table.page_slot[victim];
		b = l->page_bucket[victim];
	}
	bucket_take(l, b, slot);
	frame_table_evict_slot(&l->table, l->ctx, slot);
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	const struct lfu *l = state;

	values[LFU_COUNT] = (int32_t)l->buckets[l->page_bucket[page]].count;
}

static void lfu_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct lfu *l = state;

	frame_table_snapshot(&l->table, out, fill_fields, l);
}

static const char *const lfu_lists[] = { [LFU_FRAMES] = "frames" };
static const char *const lfu_fields[] = { [LFU_COUNT] = "count" };

const struct pl_policy_ops pl_policy_lfu = {
	.name = "lfu",
	.title = "LFU (Least Frequently Used)",
	.help = "Evicts the page with the fewest references since it was loaded; ties go to "
		"the least recently used of them.",
	.flags = PL_POLICY_SPARSE,
	.lists = lfu_lists,
	.nlists = 1,
	.fields = lfu_fields,
	.nfields = 1,
	.create = lfu_create,
	.destroy = lfu_destroy,
	.hit = lfu_hit,
	.prefetch = lfu_prefetch,
	.insert = lfu_insert,
	.victim = lfu_victim,
	.evict = lfu_evict,
	.snapshot = lfu_snapshot,
};
