/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opt.c - OPT, Belady's MIN: evict the page whose next use lies furthest in
 * the future (Belady 1966; Silberschatz, Operating System Concepts 10e,
 * 10.4.3).  It needs the future, so it is a yardstick rather than a policy
 * an OS could run: the driver computes each reference's next use
 * (PL_POLICY_FUTURE) and passes it in pl_ref.next_use.
 *
 * Structure: one list "frames", the frame table; each page has a field
 * "next_use", the step of its next reference, or -1 if it is never used
 * again.
 *
 * Transitions
 *   hit     next_use := the reference's next use.
 *   fault   the victim is the resident page with the largest next_use,
 *           counting "never" as beyond every step; the new page takes its
 *           slot with next_use := the reference's next use.
 *
 * Tie-break: only pages never used again can tie (two pages cannot be next
 * used at the same step).  Among them the least recently used goes first -
 * the page whose last reference is oldest - so OPT is deterministic and,
 * on a trace's dead pages, behaves like LRU.
 *
 * Parameters: none.
 *
 * Cost: O(log frames) per reference: the slots of the resident pages that
 * are used again sit in slot_heap.h's 4-ary max-heap keyed by next use,
 * which OPT's keys allow where the general one (page_heap.h) would be
 * slower: every key is distinct (a step), so entries compare by key alone,
 * and the keys sit in the heap array beside their slots, a node's four
 * children in one cache line.  The pages never used again are a queue
 * apart (slot_ring.h), in the order of their last references: they are
 * the first victims, the oldest first, and never hit, so a page joins at
 * its last reference and leaves as a victim, both O(1) - in the heap each
 * would have risen to the top and been removed from there, two walks of
 * all its levels (every page of the trace ends so, most pages of a skewed
 * trace after one or two references).  What OPT does per reference that
 * LRU does not:
 *   - a hit re-keys its page: the page hit held the smallest key (its next
 *     use was this step), so it is a leaf, and its new key only rises: one
 *     sift up, a few levels on average, a comparison and a move each; at
 *     its last reference it leaves the heap for the queue instead;
 *   - a fault evicts the queue's oldest page or the heap's top: the hole
 *     sinks to a leaf along the largest children (log4(frames) levels,
 *     three comparisons and one cache line each: 8 at 64K frames) and the
 *     heap's last entry rises from there (Floyd), then the new page's
 *     entry is pushed and sifts up (or it joins the queue);
 *   - the driver reads each reference's next use (a column it computes
 *     once per trace, before the run and outside the benchmark's timing,
 *     as the benchmark's yardstick is timed on the trace alone), which
 *     LRU does not need;
 *   - prefetch() asks, per reference, for the slot number of the page 16
 *     references ahead and the heap position of the one 8 ahead, the two
 *     reads of a hit that miss the cache on a large trace; evict() takes
 *     the victim's slot from the queue or the heap's top instead of the
 *     page's index.
 * Measured with callgrind on the benchmark's zipf trace (64K frames, first
 * million references), per reference: 291 instructions and 7.4 L1 data
 * misses with page_heap.h (two comparisons a level, each through an id to
 * its key), 252 and 4.9 with this heap, 209 with slot_heap.h's branchless
 * largest child, 217 with the prefetching (which halved the time lost
 * waiting on memory: README, Benchmark), 219 before the queue of pages
 * never used again; lru: 55 and 1.9.
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"
#include "slot_heap.h"
#include "slot_ring.h"

enum { OPT_FRAMES };
enum { OPT_NEXT_USE };

/*
 * Heap keys: a page used again at step s has key s.  A page never used
 * again is in the queue `never` instead, which orders those pages by their
 * last references; shown, its next_use is -1.
 */
struct opt_slot {
	uint32_t queued_at;	/* its index in `never`, PL_NONE: in the heap */
};

struct opt {
	struct pl_ctx *ctx;
	struct frame_table table;
	struct slot_heap heap;		/* the slots of resident pages used again */
	struct pl_slot_ring never;	/* the slots of those never used again, oldest first */
	struct opt_slot *slot;		/* [frames_usable()] */
};

static inline struct pl_record_slots queue_slots(const struct opt *o)
{
	return PL_RECORD_SLOTS(o->slot, queued_at);
}

static inline bool never_used_again(const struct pl_ref *ref)
{
	return ref->next_use == PL_NONE;
}

/* The next_use field as the snapshot shows it. */
static int32_t shown_next_use(const struct opt *o, uint32_t slot)
{
	return o->slot[slot].queued_at != PL_NONE ? -1 : (int32_t)slot_heap_key(&o->heap, slot);
}

static int32_t shown_ref_next_use(const struct pl_ref *ref)
{
	return never_used_again(ref) ? -1 : (int32_t)ref->next_use;
}

/* The page in `slot` is never used again: it joins the queue's end. */
static inline void queue_never(struct opt *o, uint32_t slot)
{
	uint32_t no_hand = PL_NONE;

	pl_slot_ring_push(&o->never, queue_slots(o), slot, &no_hand);
}

static void opt_destroy(void *state)
{
	struct opt *o = state;

	if (!o)
		return;
	frame_table_free(&o->table);
	slot_heap_free(&o->heap);
	pl_slot_ring_free(&o->never);
	free(o->slot);
	free(o);
}

static void *opt_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct opt *o = calloc(1, sizeof(*o));

	if (!o) {
		snprintf(err->msg, sizeof(err->msg), "out of memory for OPT");
		return NULL;
	}
	o->ctx = ctx;
	if (frame_table_init(&o->table, ctx, OPT_FRAMES, err)) {
		free(o);
		return NULL;
	}
	o->slot = malloc(sizeof(*o->slot) * frames_usable(ctx));
	if (slot_heap_init(&o->heap, frames_usable(ctx)) || !o->slot ||
	    pl_slot_ring_init(&o->never, pl_slot_ring_size(frames_usable(ctx)))) {
		opt_destroy(o);
		snprintf(err->msg, sizeof(err->msg), "out of memory for OPT");
		return NULL;
	}
	return o;
}

static void opt_hit(void *state, const struct pl_ref *ref)
{
	struct opt *o = state;
	uint32_t slot = o->table.page_slot[ref->page];

	pl_emit_set(o->ctx, ref->page, OPT_NEXT_USE, shown_next_use(o, slot),
		    shown_ref_next_use(ref));
	if (!never_used_again(ref)) {
		slot_heap_update(&o->heap, slot, ref->next_use);
		return;
	}
	/* its last reference: a page in the queue is never hit again */
	slot_heap_remove(&o->heap, slot);
	queue_never(o, slot);
}

static void opt_insert(void *state, const struct pl_ref *ref)
{
	struct opt *o = state;
	uint32_t slot = frame_table_insert(&o->table, o->ctx, ref->page);

	/* A page enters with every field 0; a next use is never step 0. */
	pl_emit_set(o->ctx, ref->page, OPT_NEXT_USE, 0, shown_ref_next_use(ref));
	if (never_used_again(ref)) {
		queue_never(o, slot);
	} else {
		o->slot[slot].queued_at = PL_NONE;
		slot_heap_push(&o->heap, slot, ref->next_use);
	}
}

/* The victim's slot: the queue's oldest, else the heap's top; PL_NONE if empty. */
static uint32_t victim_slot(const struct opt *o)
{
	uint32_t slot = pl_slot_ring_first(&o->never);

	return slot != PL_NONE ? slot : slot_heap_top(&o->heap);
}

static uint32_t opt_victim(const void *state)
{
	const struct opt *o = state;
	uint32_t slot = victim_slot(o);

	return slot != PL_NONE ? o->table.slot_page[slot] : PL_NONE;
}

/*
 * The victim is the one opt_victim() named: its slot is taken from the
 * queue or the heap's top rather than from page_slot[victim], a page's
 * entry last touched long ago (a cache miss).  Any other page is looked up.
 */
static void opt_evict(void *state, uint32_t victim)
{
	struct opt *o = state;
	uint32_t slot = victim_slot(o);

	if (slot == PL_NONE || o->table.slot_page[slot] != victim)
		slot = o->table.page_slot[victim];
	if (o->slot[slot].queued_at != PL_NONE)
		pl_slot_ring_remove(&o->never, queue_slots(o), slot);
	else
		slot_heap_remove(&o->heap, slot);
	frame_table_evict_slot(&o->table, o->ctx, slot);
}

/*
 * The driver's prefetch() (policy.h, "Prefetching"): the far page's slot
 * number, and the heap position of the near page's slot (its slot number,
 * asked for 8 steps before, has arrived): a hit then finds its heap entry
 * without waiting on memory for either.  (The heap's entries themselves,
 * 16 bytes a frame, mostly stay in the cache.)
 */
static void opt_prefetch(const void *state, uint32_t far, uint32_t near,
			 struct pl_prefetch *out)
{
	const struct opt *o = state;
	uint32_t slot = o->table.page_slot[near];

	pl_prefetch(out, &o->table.page_slot[far]);
	pl_prefetch(out, &o->heap.pos[slot < o->table.used ? slot : 0]);
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	const struct opt *o = state;

	values[OPT_NEXT_USE] = shown_next_use(o, o->table.page_slot[page]);
}

static void opt_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct opt *o = state;

	frame_table_snapshot(&o->table, out, fill_fields, o);
}

static const char *const opt_lists[] = { [OPT_FRAMES] = "frames" };
static const char *const opt_fields[] = { [OPT_NEXT_USE] = "next_use" };

const struct pl_policy_ops pl_policy_opt = {
	.name = "opt",
	.title = "OPT (Belady's MIN)",
	.help = "Evicts the page used again furthest in the future (it reads the trace "
		"ahead): the fewest faults possible, a yardstick for the others.  Among "
		"pages never used again, the least recently used goes first.",
	.flags = PL_POLICY_FUTURE,
	.lists = opt_lists,
	.nlists = 1,
	.fields = opt_fields,
	.nfields = 1,
	.create = opt_create,
	.destroy = opt_destroy,
	.hit = opt_hit,
	.insert = opt_insert,
	.victim = opt_victim,
	.evict = opt_evict,
	.prefetch = opt_prefetch,
	.snapshot = opt_snapshot,
};
