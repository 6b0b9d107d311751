/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lru_model.h - the Linux 6.1 two-list LRU model (CONFIG_LRU_GEN off), the
 * machinery behind the policies "linux", "linux_rrip", "linux_lruk" and
 * "counter_clock".  Interface and invariants: lru_lists.h, which includes
 * this file; every variant's unit compiles its own copy, with its hooks
 * (lru_variant_aging) as constants.
 *
 * Pages and lists
 *   A page is anonymous or a file page, for its whole life: a fixed hash of
 *   its dense page id puts `anon_percent` % of the pages in anon.  (The
 *   dense id is the order of first reference, so the split is reproducible
 *   for a given trace.)  There are four lists, as in enum lru_list and
 *   seed 001's memstat: inactive_anon, active_anon, inactive_file,
 *   active_file.  Position 0 is the head (where list_add() puts pages);
 *   reclaim takes pages from the tail (lru_to_folio()).
 *
 * Fields: referenced (PG_referenced), active (PG_active, which mirrors the
 * list), accessed (the PTE's hardware accessed bit, "young").
 *
 * How a reference touches a page (the rule is the reference's type)
 *   Anonymous memory is only reachable through page tables, so an anon
 *   reference sets the accessed bit and nothing else; the kernel sees it
 *   only when reclaim calls folio_referenced().  A file reference is a
 *   read()/write() system call by default (file_access=syscall): the
 *   kernel calls folio_mark_accessed() (mm/swap.c) on it, whose table is
 *     inactive,unreferenced -> inactive,referenced
 *     inactive,referenced   -> active,unreferenced   (folio_activate: pgactivate)
 *     active,unreferenced   -> active,referenced
 *     active,referenced     -> unchanged
 *   With file_access=mapped, file references are loads and stores through
 *   an mmap and set the accessed bit, like anon ones.  Reads and writes
 *   are treated alike (a write also dirties the page; the driver writes
 *   dirty pages back when they are evicted).
 *
 * Faults (folio_add_lru -> lru_add_fn)
 *   A new page goes to the head of the inactive list of its type (anon too:
 *   6.1 starts anon pages inactive).  A mapped page arrives with its
 *   accessed bit set by the faulting access; a syscall file page gets
 *   folio_mark_accessed() from filemap_read(), so it arrives referenced.
 *   Refault detection (mm/workingset.c, parameter workingset, on by
 *   default): every eviction leaves a shadow entry holding the lruvec's
 *   nonresident_age, a clock that ticks on each eviction and activation.
 *   When the page faults again, workingset_refault() compares the refault
 *   distance (ticks since its eviction) with the working set size (both
 *   active lists plus the other type's inactive list, as with swap
 *   available): if the distance is not larger, the page goes straight to
 *   the head of the active list (workingset_refault, workingset_activate).
 *
 *   The ghost list "shadow" shows those entries, newest at the head, each
 *   with its eviction counter ("eviction"); a refault sets the entry's
 *   "refault_distance" and consumes it:
 *
 *     evict p -> shadow: [p e=41] [q e=40] ... (at most `frames` entries)
 *     refault p at age 44: distance 44 - 41 = 3 <= workingset size?
 *
 *   It keeps the `frames` newest entries only, because an older one can
 *   never activate: every eviction ticks the age, so after `frames` more
 *   evictions its distance exceeds `frames`, hence any working set size.
 *   The page's shadow value is kept after its entry leaves the list, so
 *   workingset_refault still counts such a refault, as before.  The list
 *   is a ring of page ids (struct shadow_ring), not linked through the
 *   pages' records, so that dropping the oldest entry reads no record.
 *
 * Reclaim
 *   reclaim_goal: when a fault finds at most wmark_low frames free, reclaim
 *   frees frames until wmark_high stay free after the fault (kswapd's
 *   low/high watermarks; with both 0, the default, reclaim runs when
 *   memory is full, as direct reclaim does), in whole batches of `batch`
 *   (SWAP_CLUSTER_MAX = 32, the kernel's nr_to_reclaim per round), never
 *   more than is resident.  Use batch=1 to free one frame at a time in a
 *   textbook-sized memory.  Each freed frame is one pass of:
 *   1. get_scan_count(): pick anon or file.  Simplified to its
 *      proportions: passes go to each type in proportion to its page
 *      count times swappiness (anon) or 200 - swappiness (file), spread
 *      by a smooth weighted round robin; a type with no pages is never
 *      picked, so swappiness 0 reclaims anon only when no file page is
 *      left.
 *   2. inactive_is_low() (same formula as 6.1: inactive * ratio < active,
 *      ratio = int_sqrt(10 * GB of the type's pages), 1 below 1 GB with
 *      4 KiB pages): if so, shrink_active_list() deactivates `batch` pages
 *      (SWAP_CLUSTER_MAX = 32) from the active tail: the accessed bit is
 *      tested and cleared (folio_referenced) and, as in 6.1 for anything
 *      but executable file pages, the page is deactivated anyway -- to the
 *      inactive head, PG_active cleared, PG_referenced kept (pgrefill,
 *      pgdeactivate, demoted).
 *   3. shrink_inactive_list() -> shrink_folio_list(): take the inactive
 *      tail (pgscan) and ask folio_check_references():
 *        accessed, referenced   -> activate: to the active head (pgactivate)
 *        accessed, unreferenced -> keep: referenced set, back to the
 *                                  inactive head for another trip (pgrotated)
 *        not accessed           -> reclaim: evicted (pgsteal, evicted)
 *      The accessed bit is cleared and PG_referenced is tested-and-cleared
 *      (then set again on a keep or an activation) on the way.  If the
 *      inactive list runs dry, step 2 runs again.
 *   victim() follows the same steps read-only: one walk, reclaim_walk(),
 *   serves both.
 *
 * Counters: pgactivate, pgdeactivate, pgrefill, pgscan_anon, pgscan_file,
 * pgsteal_anon, pgsteal_file, pgrotated, workingset_refault,
 * workingset_activate (as in /proc/vmstat; the last two sum anon and
 * file), then seed 001's memstat figures: the four list sizes, referenced
 * pages on active / inactive lists, and cumulative promoted (activations
 * by folio_mark_accessed, where seed 001 counts them), demoted (by
 * shrink_active_list) and evicted (by shrink_inactive_list).
 *
 * Simplified, and why
 *   - A batch is reclaimed as `batch` passes that each free one page (the
 *     driver evicts one page per victim()/evict() pair), where the kernel
 *     isolates up to 32 pages at once and frees the unreferenced ones:
 *     the pages freed and the order of the lists afterwards can differ
 *     slightly from the kernel's, the rules applied to each page do not.
 *   - folio_batch (per-CPU pagevec) delays are gone: an activation moves
 *     the page at once.
 *   - One mapping per page (referenced_ptes <= 1), no VM_EXEC, VM_LOCKED,
 *     mlock, unevictable list or writeback: dirty pages are written back
 *     synchronously on eviction.
 *   - Workingset: shadow entries never expire (no shadow shrinker) and
 *     PG_workingset with its cost accounting is left out; refaults do not
 *     force deactivation (prepare_scan_count() does so once per reclaim
 *     round when refaults were seen since the last one; here every page
 *     freed is its own pass, so it would fire up to `batch` times too
 *     often).
 *   - pgrotated: 6.1 counts pages moved to the inactive tail when their
 *     writeback ends (folio_rotate_reclaimable).  With synchronous
 *     writeback that never happens, so the name counts the model's
 *     rotation instead: pages folio_check_references() keeps.
 *   - get_scan_count()'s cost model (refault and rotation costs, the
 *     priority shift, cache trim mode) is reduced to size x swappiness.
 *
 * Cost per reference: O(1) for a hit or a fault; reclaim is amortized O(1)
 * per reference, because every page it passes over without evicting had
 * its accessed bit or PG_referenced set by a reference, and passing clears
 * it.  victim() takes evict()'s walk read-only, doubling that work.
 */
#ifndef PAGELAB_LRU_MODEL_H
#define PAGELAB_LRU_MODEL_H

#include <stdlib.h>
#include <string.h>

#include "lru_lists.h"

/* The variant's aging hooks, which it defines after including lru_lists.h. */
static const struct lru_aging lru_variant_aging;

static inline void lruvec_destroy(void *state);

static const char *const lru_list_names[NR_LRU_ALL_LISTS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "shadow",
};

static const char *const lru_counter_names[NR_LRU_COUNTERS] = {
	"pgactivate", "pgdeactivate", "pgrefill", "pgscan_anon", "pgscan_file",
	"pgsteal_anon", "pgsteal_file", "pgrotated", "workingset_refault",
	"workingset_activate",
	"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	"referenced_active", "referenced_inactive",
	"promoted", "demoted", "evicted",
};

static const char *const lru_file_access_names[] = { "syscall", "mapped", NULL };

/* What folio_check_references() decides for an inactive page at reclaim. */
enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_KEEP,
	FOLIOREF_ACTIVATE,
};

/* ------------------------------------------------------------ page basics */

/* A page's type, fixed for its life: computed once per page at creation. */
static inline bool page_hash_is_file(uint32_t page, uint32_t anon_percent)
{
	/* murmur3's finalizer: consecutive ids land far apart */
	uint32_t h = page;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h % 100 >= anon_percent;
}

static inline bool page_is_file(const struct lruvec *vec, uint32_t page)
{
	return vec->page[page].file;
}

/* Does a reference to this page go through folio_mark_accessed()? */
static inline bool marks_accessed(const struct lruvec *vec, uint32_t page)
{
	return page_is_file(vec, page) && !vec->file_mapped;
}

static inline enum lru_list_id inactive_lru_of(const struct lruvec *vec, uint32_t page)
{
	return page_is_file(vec, page) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
}

static inline bool is_active_lru(enum lru_list_id lru)
{
	return lru & LRU_ACTIVE;
}

/* The memstat gauge counting the referenced pages of list `lru`. */
static inline enum lru_counter referenced_gauge(enum lru_list_id lru)
{
	return is_active_lru(lru) ? LRU_REFERENCED_ACTIVE : LRU_REFERENCED_INACTIVE;
}

/* Sets a field of a resident page. */
static inline void lruvec_set_field(struct lruvec *vec, uint32_t page, enum lru_field f,
				    int32_t value)
{
	uint8_t *slot = &vec->page[page].field[f];

	if (*slot == value)
		return;
	pl_emit_set(vec->ctx, page, f, *slot, value);
	*slot = (uint8_t)value;
	if (f == LRU_REFERENCED && value)
		vec->count[referenced_gauge(vec->page[page].lru)]++;
	else if (f == LRU_REFERENCED)
		vec->count[referenced_gauge(vec->page[page].lru)]--;
}

/* Tells a variant that indexes the lists where a page went. */
static inline void listed(struct lruvec *vec, uint32_t page, unsigned from, unsigned to,
			  bool tail)
{
	if (lru_variant_aging.listed)
		lru_variant_aging.listed(vec, page, from, to, tail);
}

/*
 * Reclaim's prefetching.  With memory full, a fault frees `batch` frames
 * at once (32 at 2048 frames and up): as many pages from the tails of the
 * inactive lists (and, when inactive_is_low(), as many from an active
 * tail), back to back.  Found through the list, each page's record is
 * reached through the one before - a chain of cache misses (pages last
 * touched `frames` faults ago) that nothing overlaps.  So each list also
 * logs the pages pushed to its head, in order, and each page remembers its
 * position in the log (while resident, in the space its shadow value
 * takes when it is not): the pages nearest a tail are those logged after
 * the tail's own position, still on the list.  Every fault asks, for one
 * list in turn, for the records and residency bytes of its next eight
 * logged pages, up to 4 x batch positions past the tail's: when the batch
 * comes, its records have arrived.  (One list per fault rather than two
 * pages of each: the same requests, for a quarter of the bookkeeping.)
 * A hint only, changing nothing the model shows: pages that have left the
 * list since are asked for too, and a log position older than the log's
 * length names whatever page came later.
 */
static inline void logged_push(struct lruvec *vec, uint32_t page, enum lru_list_id lru)
{
	uint32_t pos = vec->pushed[lru]++;

	vec->push_log[lru][pos & vec->push_mask] = page;
	vec->page[page].pushed_at = pos;
}

/*
 * The record of the page logged at `pos`, and on an inactive list its
 * residency byte, which the driver reads when the page is evicted (a page
 * taken from an active tail is deactivated, not evicted).  Inlined by
 * force, as prefetch_ahead() and every caller that only prefetches: a call
 * that only prefetches would count as free of side effects, and the
 * compiler could drop it.
 */
static inline __attribute__((always_inline))
void prefetch_logged(const struct lruvec *vec, enum lru_list_id lru, uint32_t pos)
{
	uint32_t page = vec->push_log[lru][pos & vec->push_mask];

	__builtin_prefetch(&vec->page[page], 1);
	if (!is_active_lru(lru))
		pl_prefetch_state(vec->ctx, page);
}

/*
 * A loop that takes pages from a tail one after another (shrink_active())
 * asks, for each, for the page logged PREFETCH_BEHIND_TAIL positions after
 * it: the records of the pages it takes next load while it works.
 */
#define PREFETCH_BEHIND_TAIL 8

static inline __attribute__((always_inline))
void prefetch_behind(const struct lruvec *vec, enum lru_list_id lru, uint32_t tail)
{
	prefetch_logged(vec, lru, vec->page[tail].pushed_at + PREFETCH_BEHIND_TAIL);
}

static inline __attribute__((always_inline))
void prefetch_ahead(struct lruvec *vec, enum lru_list_id lru)
{
	uint32_t tail = vec->lists[lru].tail, from, pos;

	if (tail == PL_NONE)
		return;
	from = vec->page[tail].pushed_at;
	pos = (int32_t)(vec->ahead[lru] - from) > 0 ? vec->ahead[lru] : from;
	/*
	 * Eight pages or none: a loop of fixed length has no exit to
	 * mispredict, where one that stopped at the window's end did once a
	 * call.  (Below 2 frames a batch, never: such memories are small.)
	 */
	if (pos - from + 8 > 4 * vec->batch || vec->pushed[lru] - pos < 8)
		return;
	for (unsigned n = 0; n < 8; n++)
		prefetch_logged(vec, lru, pos + n);
	vec->ahead[lru] = pos + 8;
	__builtin_prefetch(&vec->push_log[lru][(pos + 40) & vec->push_mask]);	/* the log itself */
}

static inline void lruvec_move_head(struct lruvec *vec, uint32_t page, enum lru_list_id to)
{
	enum lru_list_id from = vec->page[page].lru;

	pl_rdlist_remove(lru_links(vec), &vec->lists[from], page);
	pl_rdlist_push_head(lru_links(vec), &vec->lists[to], page);
	logged_push(vec, page, to);
	vec->page[page].lru = to;
	listed(vec, page, from, to, false);
	pl_emit_move(vec->ctx, page, from, to, 0);
	if (lruvec_field(vec, page, LRU_REFERENCED)) {
		vec->count[referenced_gauge(from)]--;
		vec->count[referenced_gauge(to)]++;
	}
}

/* folio_activate_fn(): to the head of the active list of the page's type. */
static inline void activate(struct lruvec *vec, uint32_t page)
{
	lruvec_move_head(vec, page, inactive_lru_of(vec, page) + LRU_ACTIVE);
	lruvec_set_field(vec, page, LRU_PG_ACTIVE, 1);
	vec->count[LRU_PGACTIVATE]++;
	vec->nonresident_age++;	/* workingset_activation(), move_folios_to_lru() */
	if (lru_variant_aging.activated)
		lru_variant_aging.activated(vec, page);
}

static inline void lruvec_deactivate(struct lruvec *vec, uint32_t page)
{
	lruvec_set_field(vec, page, LRU_ACCESSED, 0);	/* folio_referenced() */
	lruvec_set_field(vec, page, LRU_PG_ACTIVE, 0);
	lruvec_move_head(vec, page, inactive_lru_of(vec, page));
	vec->count[LRU_PGDEACTIVATE]++;
	vec->count[LRU_DEMOTED]++;
}

static inline bool may_activate(const struct lruvec *vec, uint32_t page)
{
	return !lru_variant_aging.may_activate || lru_variant_aging.may_activate(vec, page);
}

/* shrink_active_list() of 6.1 for anything but executable file pages. */
static inline void lruvec_deactivate_tail(struct lruvec *vec, enum lru_list_id active,
					  uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t page = lruvec_tail(vec, active);

		prefetch_behind(vec, active, page);
		vec->count[LRU_PGREFILL]++;
		lruvec_deactivate(vec, page);
	}
}

static inline uint32_t lruvec_tail_or_newcomer(const struct lruvec *vec, enum lru_list_id active,
					       uint32_t newcomer)
{
	uint32_t tail = lruvec_tail(vec, active);

	return tail != PL_NONE ? tail : newcomer;
}

/* folio_mark_accessed(), the four-state table in the header. */
static inline void mark_accessed(struct lruvec *vec, uint32_t page)
{
	bool was_active = lruvec_field(vec, page, LRU_PG_ACTIVE);

	if (!lruvec_field(vec, page, LRU_REFERENCED)) {
		lruvec_set_field(vec, page, LRU_REFERENCED, 1);
	} else if (!was_active && may_activate(vec, page)) {
		activate(vec, page);
		lruvec_set_field(vec, page, LRU_REFERENCED, 0);
		vec->count[LRU_PROMOTED]++;
	}
	if (was_active && lru_variant_aging.accessed_active)
		lru_variant_aging.accessed_active(vec, page);
}

/* Inlined into hit() and insert(), each with its own `fault`. */
static inline __attribute__((always_inline))
void touch(struct lruvec *vec, const struct pl_ref *ref, bool fault)
{
	uint32_t page = ref->page;

	if (lru_variant_aging.referenced)
		lru_variant_aging.referenced(vec, page, pl_time(vec->ctx, ref->step), fault);
	if (marks_accessed(vec, page))
		mark_accessed(vec, page);
	else
		lruvec_set_field(vec, page, LRU_ACCESSED, 1);
}

/*
 * touch() of a page just brought in, whose referenced and accessed fields
 * are 0 (lru_lists.h, Invariants): folio_mark_accessed() sets
 * PG_referenced (and, on a page a refault activated, calls the variant's
 * accessed_active()), an access through a PTE sets the accessed bit.  The
 * field is picked without a branch on the page's type, which its hash
 * makes a coin toss on every fault.  Not for variants with referenced().
 */
static inline void touch_new(struct lruvec *vec, uint32_t page)
{
	struct lru_page *p = &vec->page[page];
	unsigned syscall = p->file & (vec->file_mapped ^ 1);
	enum lru_field f = syscall ? LRU_REFERENCED : LRU_ACCESSED;

	pl_emit_set(vec->ctx, page, f, 0, 1);
	p->field[f] = 1;
	vec->count[referenced_gauge(p->lru)] += syscall;
	if (lru_variant_aging.accessed_active && (syscall & p->field[LRU_PG_ACTIVE]))
		lru_variant_aging.accessed_active(vec, page);
}

/*
 * The kernel's batch, SWAP_CLUSTER_MAX = 32, is a sliver of a real memory.
 * In a lecture's 8 frames it would empty memory on every fault, so the
 * default (batch=0) keeps roughly the kernel's proportion instead:
 * frames/64, at least 1 and at most 32 (reached at 2048 frames).
 */
static inline uint32_t batch_size(const struct pl_ctx *ctx)
{
	uint32_t batch = ctx->params[LRU_PARAM_BATCH];

	if (batch)
		return batch;
	batch = ctx->frames / 64;
	return batch < 1 ? 1 : batch > 32 ? 32 : batch;
}

/* ---------------------------------------------------------- shadow list */

/* Field values are 32-bit; the age passes 2^31 only after 2^31 evictions. */
static inline int32_t clamp_field(uint64_t value)
{
	return value > INT32_MAX ? INT32_MAX : (int32_t)value;
}

static inline int32_t clamp_wide(int64_t value)
{
	return value > INT32_MAX ? INT32_MAX : value < INT32_MIN ? INT32_MIN : (int32_t)value;
}

/* Sets the wide value of a resident page (shown clamped to a 32-bit field). */
static inline void lruvec_set_wide(struct lruvec *vec, uint32_t page, int64_t value)
{
	int64_t old = vec->wide[page];

	if (old == value)
		return;
	pl_emit_set(vec->ctx, page, LRU_WIDE, clamp_wide(old), clamp_wide(value));
	vec->wide[page] = value;
}


/*
 * Is the page's shadow entry still on the list?  A page keeps lru ==
 * LRU_SHADOW after its entry is dropped as the oldest (dropping it reads
 * only the ring, not the page's record).  Entries are dropped from the
 * tail, which only moves up (compaction moves entries down to it, not
 * below), so a dropped entry's position stays below the tail and a listed
 * one's does not: the test reads no ring.
 */
static inline bool shadow_listed(const struct lruvec *vec, uint32_t page)
{
	return vec->page[page].lru == LRU_SHADOW && vec->page[page].shadow_pos >= vec->shadow.tail;
}

/* Leaves a hole at `pos`; the tail moves past holes to a live entry. */
static inline void shadow_unlist(struct shadow_ring *ring, uint64_t pos)
{
	ring->entry[pos & ring->mask] = PL_NONE;
	ring->len--;
	while (ring->tail != ring->head && ring->entry[ring->tail & ring->mask] == PL_NONE)
		ring->tail++;
}

/* Drops a page's entry from the shadow list (its shadow value stays). */
static inline void forget_shadow(struct lruvec *vec, uint32_t page)
{
	shadow_unlist(&vec->shadow, vec->page[page].shadow_pos);
	vec->page[page].lru = LRU_NOT_RESIDENT;
	pl_emit_remove(vec->ctx, page, LRU_SHADOW);
}

/*
 * A full ring (every slot between tail and head taken, by entries or
 * holes) closes its holes: the live entries move toward the tail, in
 * order, and their pages learn their new positions.  The ring has room
 * for 4 x frames entries and at most `frames` are live, so this runs at
 * most once every 3 x frames evictions.
 */
static inline void shadow_compact(struct lruvec *vec)
{
	struct shadow_ring *ring = &vec->shadow;
	uint64_t to = ring->tail;

	for (uint64_t from = ring->tail; from != ring->head; from++) {
		uint32_t page = ring->entry[from & ring->mask];

		if (page == PL_NONE)
			continue;
		ring->entry[to & ring->mask] = page;
		vec->page[page].shadow_pos = to++;
	}
	ring->head = to;
}

/* A just-evicted page's entry at the head; the oldest beyond `frames` goes. */
static inline void add_shadow(struct lruvec *vec, uint32_t page)
{
	struct shadow_ring *ring = &vec->shadow;

	if (ring->head - ring->tail > ring->mask)
		shadow_compact(vec);
	ring->entry[ring->head & ring->mask] = page;
	vec->page[page].shadow_pos = ring->head++;
	ring->len++;
	vec->page[page].lru = LRU_SHADOW;
	pl_emit_insert(vec->ctx, page, LRU_SHADOW, 0);
	pl_emit_set(vec->ctx, page, vec->nfields, 0, clamp_field(vec->page[page].shadow - 1));
	if (ring->len > vec->ctx->frames) {
		uint32_t oldest = ring->entry[ring->tail & ring->mask];

		shadow_unlist(ring, ring->tail);
		pl_emit_remove(vec->ctx, oldest, LRU_SHADOW);
	}
}

/* Room for 4 x frames entries (a power of 2), of which at most min(frames,
 * pages) are live. */
static inline int shadow_ring_init(struct shadow_ring *ring, uint32_t frames, uint32_t npages)
{
	uint64_t live = frames < npages ? frames : npages, size = 4;

	while (size < 4 * live && size < (uint64_t)1 << 31)
		size *= 2;
	ring->entry = malloc(size * sizeof(*ring->entry));
	ring->mask = (uint32_t)size - 1;
	return ring->entry ? 0 : -1;
}

/* Each list's push log: 2 x frames entries (a power of 2), page 0 until written. */
static inline int push_logs_init(struct lruvec *vec, uint32_t frames)
{
	uint64_t size = 2;

	while (size < 2 * (uint64_t)frames && size < (uint64_t)1 << 31)
		size *= 2;
	vec->push_mask = (uint32_t)size - 1;
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		vec->push_log[lru] = calloc(size, sizeof(*vec->push_log[lru]));
		if (!vec->push_log[lru])
			return -1;
	}
	return 0;
}

/* -------------------------------------------------------------------- ops */

static inline void *lruvec_create(struct pl_ctx *ctx, unsigned nfields, struct pl_error *err)
{
	struct lruvec *vec = calloc(1, sizeof(*vec));
	size_t npages = ctx->npages ? ctx->npages : 1;

	if (!vec)
		goto oom;
	vec->ctx = ctx;
	vec->nfields = nfields;
	vec->anon_percent = ctx->params[LRU_PARAM_ANON_PERCENT];
	vec->file_mapped = ctx->params[LRU_PARAM_FILE_ACCESS] == LRU_FILE_MAPPED;
	vec->workingset = ctx->params[LRU_PARAM_WORKINGSET];
	vec->swappiness = ctx->params[LRU_PARAM_SWAPPINESS];
	vec->batch = batch_size(ctx);
	vec->wmark_low = ctx->params[LRU_PARAM_WMARK_LOW];
	vec->wmark_high = ctx->params[LRU_PARAM_WMARK_HIGH];
	if (vec->wmark_high < vec->wmark_low)
		vec->wmark_high = vec->wmark_low;
	/* touched at random, 32 MB at 1M pages: no page walk per reference */
	vec->page = huge_alloc(&vec->page_mem, npages * sizeof(*vec->page));
	if (!vec->page || shadow_ring_init(&vec->shadow, ctx->frames, (uint32_t)npages) ||
	    push_logs_init(vec, ctx->frames))
		goto oom;
	for (unsigned i = 0; i < NR_LRU_LISTS; i++)
		pl_dlist_init(&vec->lists[i]);
	for (size_t page = 0; page < npages; page++) {
		vec->page[page].lru = LRU_NOT_RESIDENT;
		vec->page[page].file = page_hash_is_file((uint32_t)page, vec->anon_percent);
	}
	return vec;
oom:
	lruvec_destroy(vec);
	snprintf(err->msg, sizeof(err->msg), "out of memory for the LRU lists of %u pages",
		 ctx->npages);
	return NULL;
}

static inline void lruvec_destroy(void *state)
{
	struct lruvec *vec = state;

	if (!vec)
		return;
	if (lru_variant_aging.destroy)
		lru_variant_aging.destroy(vec);
	huge_free(&vec->page_mem);
	free(vec->shadow.entry);
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++)
		free(vec->push_log[lru]);
	free(vec->wide);
	free(vec);
}

/*
 * The driver's prefetch() (policy.h, "Prefetching"): the record of the page
 * referenced PL_PREFETCH_FAR steps ahead, which its hit or fault reads (its
 * flags, its shadow value).  Reclaim's pages are asked for by the faults
 * (prefetch_ahead()).
 */
static inline void lruvec_prefetch(const void *state, uint32_t far, uint32_t near,
				   struct pl_prefetch *out)
{
	const struct lruvec *vec = state;

	pl_prefetch(out, &vec->page[far]);
}

/*
 * Would touch() change nothing?  A syscall file page that is referenced and
 * active is left as it is by folio_mark_accessed() (but for the variant's
 * accessed_active()); any other page, by setting an accessed bit already
 * set.  Computed without a branch on the page's type, which its hash makes
 * a coin toss on every reference.
 */
static inline bool touch_idle(const struct lruvec *vec, uint32_t page)
{
	const struct lru_page *p = &vec->page[page];
	unsigned syscall = p->file & (vec->file_mapped ^ 1);
	unsigned settled = p->field[LRU_REFERENCED] & p->field[LRU_PG_ACTIVE];

	if (lru_variant_aging.accessed_active)
		settled &= lru_variant_aging.accessed_active_idle(vec, page);
	return (syscall & settled) | ((syscall ^ 1) & p->field[LRU_ACCESSED]);
}

/*
 * Most hits are to pages whose fields a hit leaves as they are (a hot
 * page's accessed bit is set, a hot file page active and referenced): one
 * test of them, rather than touch()'s branches.  A variant told of every
 * reference (referenced()) always takes touch().
 */
static inline void lruvec_hit(void *state, const struct pl_ref *ref)
{
	if (!lru_variant_aging.referenced && touch_idle(state, ref->page))
		return;
	touch(state, ref, false);
}

/*
 * workingset_refault(): does the faulting page come back soon enough after
 * its eviction to be part of the working set?  Consumes its shadow entry.
 */
static inline bool refault_activates(struct lruvec *vec, uint32_t page)
{
	bool file = page_is_file(vec, page);
	uint64_t distance, workingset_size;

	if (!vec->workingset || !vec->page[page].shadow)
		return false;
	distance = vec->nonresident_age - (vec->page[page].shadow - 1);
	vec->page[page].shadow = 0;
	if (shadow_listed(vec, page)) {
		pl_emit_set(vec->ctx, page, vec->nfields + 1, 0, clamp_field(distance));
		forget_shadow(vec, page);
	}
	vec->count[LRU_WORKINGSET_REFAULT]++;
	workingset_size = vec->lists[LRU_ACTIVE_FILE].len + vec->lists[LRU_ACTIVE_ANON].len +
			  vec->lists[file ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE].len;
	return distance <= workingset_size;
}

static inline void lruvec_insert(void *state, const struct pl_ref *ref)
{
	struct lruvec *vec = state;
	uint32_t page = ref->page;
	enum lru_list_id lru = inactive_lru_of(vec, page);
	bool active = refault_activates(vec, page);

	vec->reclaiming = false;	/* the fault's reclaim is over */
	if (active)
		lru += LRU_ACTIVE;
	pl_rdlist_push_head(lru_links(vec), &vec->lists[lru], page);
	logged_push(vec, page, lru);
	vec->page[page].lru = lru;
	listed(vec, page, LRU_NOT_RESIDENT, lru, false);
	pl_emit_insert(vec->ctx, page, lru, 0);
	if (active) {
		lruvec_set_field(vec, page, LRU_PG_ACTIVE, 1);
		vec->count[LRU_WORKINGSET_ACTIVATE]++;
		vec->nonresident_age++;
		if (lru_variant_aging.activated)
			lru_variant_aging.activated(vec, page);
	}
	if (lru_variant_aging.referenced)
		touch(vec, ref, true);
	else
		touch_new(vec, page);
	prefetch_ahead(vec, vec->ahead_turn++ % NR_LRU_LISTS);
}

static inline uint32_t lruvec_reclaim_goal(const void *state, uint32_t resident)
{
	const struct lruvec *vec = state;
	uint32_t free_frames = vec->ctx->frames - resident;
	uint64_t goal;

	if (free_frames > vec->wmark_low)
		return 0;
	goal = (uint64_t)vec->wmark_high + 1 - free_frames;
	goal = (goal + vec->batch - 1) / vec->batch * vec->batch;
	return goal < resident ? (uint32_t)goal : resident;
}

/* ---------------------------------------------------------------- reclaim */

static inline uint32_t pages_of_type(const struct lruvec *vec, enum lru_list_id inactive)
{
	return vec->lists[inactive].len + vec->lists[inactive + LRU_ACTIVE].len;
}

/*
 * get_scan_count(), reduced to its proportions: each type's weight is its
 * page count times its share of swappiness (anon: swappiness, file:
 * 200 - swappiness).  A smooth weighted round robin spreads the reclaim
 * passes in those proportions, deterministically: the type whose credit
 * plus weight is larger is scanned (file on a tie), and charge_scan()
 * settles the credits.  A type with no pages is never picked.
 */
static inline void scan_weights(const struct lruvec *vec, int64_t weight[2])
{
	weight[0] = (int64_t)pages_of_type(vec, LRU_INACTIVE_ANON) * vec->swappiness;
	weight[1] = (int64_t)pages_of_type(vec, LRU_INACTIVE_FILE) * (200 - vec->swappiness);
}

static inline enum lru_list_id scan_lru(const struct lruvec *vec, int64_t weight[2])
{
	weight[0] = weight[1] = 0;	/* no choice: charge_scan() charges nothing */
	if (!pages_of_type(vec, LRU_INACTIVE_ANON))
		return LRU_INACTIVE_FILE;
	if (!pages_of_type(vec, LRU_INACTIVE_FILE))
		return LRU_INACTIVE_ANON;
	scan_weights(vec, weight);
	return vec->scan_credit[0] + weight[0] > vec->scan_credit[1] + weight[1] ?
	       LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
}

/* Settles the credits with the weights scan_lru() chose by. */
static inline void charge_scan(struct lruvec *vec, enum lru_list_id scanned,
			       const int64_t weight[2])
{
	vec->scan_credit[0] += weight[0];
	vec->scan_credit[1] += weight[1];
	vec->scan_credit[scanned == LRU_INACTIVE_FILE] -= weight[0] + weight[1];
}

static inline uint32_t int_sqrt(uint64_t x)
{
	uint64_t r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/* inactive_is_low() as in 6.1, with 4 KiB pages (2^18 pages per GB). */
static inline bool inactive_is_low(const struct lruvec *vec, enum lru_list_id inactive)
{
	uint64_t nr_inactive = vec->lists[inactive].len;
	uint64_t nr_active = vec->lists[inactive + LRU_ACTIVE].len;
	uint64_t gb = (nr_inactive + nr_active) >> 18;
	uint64_t ratio = gb ? int_sqrt(10 * gb) : 1;

	return nr_inactive * ratio < nr_active;
}

static inline void shrink_active_list(struct lruvec *vec, enum lru_list_id inactive)
{
	enum lru_list_id active = inactive + LRU_ACTIVE;
	uint32_t nr = vec->lists[active].len;

	if (nr > vec->batch)
		nr = vec->batch;
	lru_variant_aging.shrink_active(vec, active, nr);
}

/* folio_check_references() without touching anything. */
static inline enum folio_references check_references(const struct lruvec *vec, uint32_t page)
{
	if (!lruvec_field(vec, page, LRU_ACCESSED))
		return FOLIOREF_RECLAIM;
	return lruvec_field(vec, page, LRU_REFERENCED) && may_activate(vec, page) ?
	       FOLIOREF_ACTIVATE : FOLIOREF_KEEP;
}

/*
 * One page of shrink_folio_list(): clears the accessed bit the check
 * consumed, marks a referenced page and moves it on.  Returns the verdict.
 */
static inline enum folio_references shrink_folio(struct lruvec *vec, uint32_t page)
{
	enum folio_references verdict = check_references(vec, page);

	if (verdict == FOLIOREF_RECLAIM)
		return verdict;	/* leaving memory: nothing to update */
	lruvec_set_field(vec, page, LRU_ACCESSED, 0);
	lruvec_set_field(vec, page, LRU_REFERENCED, 1);
	if (verdict == FOLIOREF_ACTIVATE) {
		activate(vec, page);
	} else {
		lruvec_move_head(vec, page, vec->page[page].lru);
		vec->count[LRU_PGROTATED]++;
	}
	return verdict;
}

/* Frees a page of an inactive list; returns it. */
static inline uint32_t reclaim(struct lruvec *vec, uint32_t page)
{
	enum lru_list_id lru = vec->page[page].lru;

	pl_rdlist_remove(lru_links(vec), &vec->lists[lru], page);
	listed(vec, page, lru, LRU_NOT_RESIDENT, false);
	if (lruvec_field(vec, page, LRU_REFERENCED))
		vec->count[referenced_gauge(lru)]--;
	vec->page[page].lru = LRU_NOT_RESIDENT;
	vec->page[page].shadow = ++vec->nonresident_age;	/* workingset_eviction() */
	memset(vec->page[page].field, 0, sizeof(vec->page[page].field));
	if (vec->wide)
		vec->wide[page] = 0;
	pl_emit_evict(vec->ctx, page, lru);
	if (vec->workingset)
		add_shadow(vec, page);
	vec->count[lru == LRU_INACTIVE_FILE ? LRU_PGSTEAL_FILE : LRU_PGSTEAL_ANON]++;
	vec->count[LRU_EVICTED]++;
	return page;
}

/*
 * When a reclaim round begins, a variant may move one page of each list to
 * its tail (tail_at_reclaim).  moved[lru] is that page, or PL_NONE when the
 * variant moves none or the page is already at the tail.
 */
static inline void pages_moved_at_reclaim(const struct lruvec *vec,
					  uint32_t moved[NR_LRU_LISTS])
{
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		uint32_t page;

		moved[lru] = PL_NONE;
		if (!lru_variant_aging.tail_at_reclaim || vec->reclaiming)
			continue;
		page = lru_variant_aging.tail_at_reclaim(vec, lru);
		if (page != vec->lists[lru].tail)
			moved[lru] = page;
	}
}

static inline void move_tail(struct lruvec *vec, uint32_t page)
{
	enum lru_list_id lru = vec->page[page].lru;
	struct pl_dlist *list = &vec->lists[lru];

	pl_rdlist_remove(lru_links(vec), list, page);
	pl_rdlist_push_tail(lru_links(vec), list, page);
	listed(vec, page, lru, lru, true);
	pl_emit_move(vec->ctx, page, lru, lru, list->len - 1);
}

/*
 * The walk's next page toward the head.  A page the round moves to the
 * tail (`moved`, read-only walks only: evict() has really moved it) is
 * walked first, then the old tail, and is skipped where it was.
 */
static inline uint32_t walk_next(const struct lruvec *vec, uint32_t page, uint32_t moved,
				 uint32_t old_tail)
{
	uint32_t next;

	if (!lru_variant_aging.tail_at_reclaim)
		return lruvec_toward_head(vec, page);	/* nothing is ever moved */
	next = page == moved ? old_tail : lruvec_toward_head(vec, page);
	return next != PL_NONE && next == moved ? lruvec_toward_head(vec, next) : next;
}

/*
 * shrink_inactive_list() for one freed frame, written once for both
 * victim() and evict(): with `commit` false it only reads and returns the
 * page evict() would free; with `commit` true it makes every change on the
 * way and frees that page.
 *
 * If a reclaim round begins here and the variant moves pages to the tails
 * (counter_clock), evict() moves them first; the peek walks as if they had
 * been moved.  The walk takes the pages that were on the inactive list
 * when reclaim began, from the tail.  The first one not accessed is
 * reclaimed; the others are kept (back to the head, referenced) or
 * activated.  If none is reclaimed, the next page at the tail is, in
 * evict()'s order of events: the first page deactivated before the walk
 * (inactive_is_low), else the first kept page (now unaccessed), else --
 * every page was activated and the list ran dry -- the first page a refill
 * deactivates.  Those pages are never accessed, so they are reclaimed
 * without another look; the peek asks the aging hooks which page that will
 * be (the moved page, if the active list's tail was moved).
 */
/* Inlined into victim() and evict(), so that each keeps only its half. */
static inline __attribute__((always_inline))
uint32_t reclaim_walk(struct lruvec *vec, bool commit)
{
	int64_t weight[2];
	enum lru_list_id inactive = scan_lru(vec, weight);
	enum lru_list_id active = inactive + LRU_ACTIVE;
	bool low = inactive_is_low(vec, inactive);
	uint32_t moved[NR_LRU_LISTS], page, next, old_tail, left;
	uint32_t first_kept = PL_NONE, first_activated = PL_NONE;
	enum lru_counter pgscan = inactive == LRU_INACTIVE_FILE ? LRU_PGSCAN_FILE : LRU_PGSCAN_ANON;

	pages_moved_at_reclaim(vec, moved);
	if (commit && lru_variant_aging.tail_at_reclaim) {
		for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++)
			if (moved[lru] != PL_NONE)
				move_tail(vec, moved[lru]);
		memset(moved, 0xff, sizeof(moved));	/* done: walk the lists as they are */
	}
	/* the pages on the list now; those deactivated below go to its head */
	old_tail = vec->lists[inactive].tail;
	left = vec->lists[inactive].len;
	if (commit) {
		vec->reclaiming = true;
		charge_scan(vec, inactive, weight);
		if (low)
			shrink_active_list(vec, inactive);
	}
	page = lru_variant_aging.tail_at_reclaim && moved[inactive] != PL_NONE ?
	       moved[inactive] : old_tail;
	for (; left && page != PL_NONE; left--, page = next) {
		enum folio_references verdict;

		next = walk_next(vec, page, moved[inactive], old_tail);
		verdict = commit ? shrink_folio(vec, page) : check_references(vec, page);
		if (commit) {
			vec->count[pgscan]++;
		}
		if (verdict == FOLIOREF_RECLAIM)
			return commit ? reclaim(vec, page) : page;
		if (verdict == FOLIOREF_KEEP && first_kept == PL_NONE)
			first_kept = page;
		if (verdict == FOLIOREF_ACTIVATE && first_activated == PL_NONE)
			first_activated = page;
	}
	if (!commit) {
		if (lru_variant_aging.tail_at_reclaim && moved[active] != PL_NONE &&
		    (low || first_kept == PL_NONE))
			return moved[active];
		if (low)
			return lru_variant_aging.first_deactivated(vec, active, PL_NONE);
		if (first_kept != PL_NONE)
			return first_kept;
		return lru_variant_aging.first_deactivated(vec, active, first_activated);
	}
	if (!vec->lists[inactive].len)
		shrink_active_list(vec, inactive);
	vec->count[pgscan]++;
	return reclaim(vec, vec->lists[inactive].tail);
}

static inline void lruvec_evict(void *state, uint32_t victim)
{
	/* frees `victim`: lruvec_victim() took the same walk */
	reclaim_walk(state, true);
}

static inline uint32_t lruvec_victim(const void *state)
{
	/* a peek: reclaim_walk() without commit writes nothing */
	return reclaim_walk((struct lruvec *)state, false);
}

/* -------------------------------------------------------------- reporting */

/* One entry of a snapshot: the page's fields, then the two shadow fields. */
static inline void snapshot_push(const struct lruvec *vec, unsigned lru, uint32_t page,
				 struct pl_snapshot *out)
{
	int32_t values[PL_MAX_FIELDS] = { 0 };

	for (unsigned f = 0; f < vec->nfields; f++)
		values[f] = lruvec_field(vec, page, f);
	if (vec->wide && lru != LRU_SHADOW)
		values[LRU_WIDE] = clamp_wide(lru_variant_aging.shown_wide ?
					      lru_variant_aging.shown_wide(vec, page) :
					      vec->wide[page]);
	values[vec->nfields] = lru == LRU_SHADOW ? clamp_field(vec->page[page].shadow - 1) : 0;
	pl_snapshot_push(out, lru, page, values);
}

static inline void lruvec_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct lruvec *vec = state;
	const struct shadow_ring *ring = &vec->shadow;

	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++)
		for (uint32_t page = vec->lists[lru].head; page != PL_NONE;
		     page = lruvec_toward_tail(vec, page))
			snapshot_push(vec, lru, page, out);
	for (uint64_t pos = ring->head; pos != ring->tail; pos--) {	/* newest first */
		uint32_t page = ring->entry[(pos - 1) & ring->mask];

		if (page != PL_NONE)
			snapshot_push(vec, LRU_SHADOW, page, out);
	}
}

static inline void lruvec_read_counters(const void *state, uint64_t *counters)
{
	const struct lruvec *vec = state;

	memcpy(counters, vec->count, sizeof(vec->count));
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++)
		counters[LRU_NR_INACTIVE_ANON + lru] = vec->lists[lru].len;
}

#endif /* PAGELAB_LRU_MODEL_H */
