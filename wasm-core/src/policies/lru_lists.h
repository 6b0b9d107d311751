/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lru_lists.h - the Linux 6.1 two-list LRU machinery (multi-gen LRU off),
 * shared by the policies "linux" (linux.c), "linux_rrip" (linux_rrip.c,
 * seed 000's hybrid), "linux_lruk" (seed 002) and "counter_clock" (seed
 * 001).  lru_model.h holds the full model and cites the kernel function
 * behind each rule; this header is its interface and includes it at its
 * end.  The model is a header of static functions so that each variant's
 * unit compiles its own copy: the driver's step loop built for the
 * variant (sim_loop.h) then inlines hit(), insert(), victim() and evict()
 * with everything they call, and the variant's aging hooks are constants
 * the compiler resolves (a hook a variant leaves NULL costs nothing).
 *
 * What is shared and what is not
 *   Both policies keep the same four lists, the same page flags, the same
 *   folio_mark_accessed() table, the same inactive-list reclaim
 *   (shrink_inactive_list) and the same balance (inactive_is_low).  They
 *   differ only in how the *active* list ages: stock Linux deactivates the
 *   active tail (shrink_active_list), the hybrid runs RRIP over it.  That
 *   difference is a struct lru_aging: four hooks a variant provides.
 *
 * Interface
 *   A variant includes this header, defines its ops table with
 *   LRUVEC_OPS (the lruvec_*() functions of lru_model.h as the ops), its
 *   aging hooks as `static const struct lru_aging lru_variant_aging` (the
 *   name the model reads them by), and its own field list (the first
 *   three fields are always referenced, active, accessed; a variant may add
 *   more after them, e.g. "rrpv"; the two shadow fields come last).
 *   A variant may also keep one int64 per page (lruvec.wide, shown as the
 *   field after the common ones: linux_lruk's last_ref, counter_clock's
 *   counter).
 *   lruvec_create() takes the number of fields before the shadow fields.
 *   The parameters are LRU_PARAMS (below), in that order; a variant may
 *   append its own after them.
 *
 * Invariants
 *   every resident page is on exactly one of the four lists, the one of its
 *   type (anon/file) and of its PG_active flag; a page's type never
 *   changes; non-resident pages have every field 0; the ghost list
 *   "shadow" holds the shadow entries of at most `frames` most recently
 *   evicted pages (with workingset=1), newest at the head.
 */
#ifndef PAGELAB_LRU_LISTS_H
#define PAGELAB_LRU_LISTS_H

#include "dlist.h"
#include "huge_pages.h"
#include "policy.h"

/* The kernel's enum lru_list order: inactive + LRU_ACTIVE is active. */
enum lru_list_id {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	NR_LRU_LISTS,
	LRU_SHADOW = NR_LRU_LISTS,	/* ghost list: shadow entries (mm/workingset.c) */
	NR_LRU_ALL_LISTS
};
#define LRU_ACTIVE 1
#define LRU_FILE 2
#define LRU_NOT_RESIDENT 0xff

enum lru_field {
	LRU_REFERENCED,	/* PG_referenced */
	LRU_PG_ACTIVE,	/* PG_active: the page is on an active list */
	LRU_ACCESSED,	/* the hardware accessed ("young") bit of its PTE */
	LRU_COMMON_FIELDS,
	LRU_RRPV = LRU_COMMON_FIELDS,	/* linux_rrip only */
	LRU_WIDE = LRU_COMMON_FIELDS,	/* shows lruvec.wide, for variants that have it */
	LRU_CLOSE,			/* linux_lruk: the latest reference came within
					 * `threshold` of the one before */
	LRU_RECENT = LRU_CLOSE,		/* counter_clock: referenced since the last tick */
	LRU_MAX_FIELDS
};

enum lru_counter {
	LRU_PGACTIVATE,
	LRU_PGDEACTIVATE,
	LRU_PGREFILL,
	LRU_PGSCAN_ANON,
	LRU_PGSCAN_FILE,
	LRU_PGSTEAL_ANON,
	LRU_PGSTEAL_FILE,
	LRU_PGROTATED,
	LRU_WORKINGSET_REFAULT,
	LRU_WORKINGSET_ACTIVATE,
	LRU_NR_INACTIVE_ANON,	/* gauges: the list lengths, when read */
	LRU_NR_ACTIVE_ANON,
	LRU_NR_INACTIVE_FILE,
	LRU_NR_ACTIVE_FILE,
	LRU_REFERENCED_ACTIVE,	/* gauges kept up to date on every change */
	LRU_REFERENCED_INACTIVE,
	LRU_PROMOTED,		/* seed 001's cumulative memstat figures */
	LRU_DEMOTED,
	LRU_EVICTED,
	NR_LRU_COUNTERS
};

enum lru_param {
	LRU_PARAM_ANON_PERCENT,
	LRU_PARAM_FILE_ACCESS,
	LRU_PARAM_SWAPPINESS,
	LRU_PARAM_BATCH,
	LRU_PARAM_WMARK_LOW,
	LRU_PARAM_WMARK_HIGH,
	LRU_PARAM_WORKINGSET,
	NR_LRU_PARAMS
};

enum lru_file_access {
	LRU_FILE_SYSCALL,	/* file references are read()/write(): mark_page_accessed */
	LRU_FILE_MAPPED,	/* file references are loads/stores through mmap */
};

/*
 * A variant's field names: LRU_FIELD_NAMES, its own, then
 * LRU_SHADOW_FIELD_NAMES.  The shadow fields are 0 on resident pages; on an
 * entry of the shadow list, "eviction" is the nonresident_age its eviction
 * read (what the kernel packs into the shadow entry) and
 * "refault_distance" is set, just before the entry is consumed by a
 * refault, to the distance workingset_refault() compares.
 */
#define LRU_FIELD_NAMES "referenced", "active", "accessed"
#define LRU_SHADOW_FIELD_NAMES "eviction", "refault_distance"
#define LRU_SHADOW_FIELDS 2

/* The shared parameters, as initializers of a struct pl_param array. */
#define LRU_PARAMS							\
	{ "anon_percent", "share of pages that are anonymous (the rest are file " \
	  "pages), picked by a fixed hash of the page id", 50, 0, 100, NULL }, \
	{ "file_access", "how file pages are referenced: syscall (read()/write(), " \
	  "calls mark_page_accessed) or mapped (mmap, sets the accessed bit)", \
	  LRU_FILE_SYSCALL, 0, 1, lru_file_access_names },		\
	{ "swappiness", "reclaim scans anon and file pages in proportion to " \
	  "their counts times swappiness and 200 - swappiness", \
	  60, 0, 200, NULL },						\
	{ "batch", "SWAP_CLUSTER_MAX: reclaim frees frames in multiples of it " \
	  "and shrink_active_list deactivates up to it per call; 0: frames/64 " \
	  "within 1..32, so small memories reclaim one page at a time", \
	  0, 0, 4096, NULL },						\
	{ "wmark_low", "reclaim starts when a fault leaves at most this many " \
	  "frames free (0: only when memory is full)", 0, 0, 1 << 30, NULL }, \
	{ "wmark_high", "reclaim frees frames until this many stay free after " \
	  "the fault (raised to wmark_low if below it)", 0, 0, 1 << 30, NULL }, \
	{ "workingset", "refault detection: 1 sends a page that refaults within " \
	  "the working set size straight to the active list, 0 never", 1, 0, 1, NULL }

struct lruvec;

/* How a variant ages its active lists (see lru_model.h for stock Linux). */
struct lru_aging {
	/* The page has just joined an active list (promotion). */
	void (*activated)(struct lruvec *vec, uint32_t page);
	/* folio_mark_accessed() on a page that was already active. */
	void (*accessed_active)(struct lruvec *vec, uint32_t page);
	/*
	 * Read-only, required with accessed_active: would accessed_active()
	 * change nothing on this page now?  (lruvec_hit() skips a hit that
	 * changes nothing.)
	 */
	bool (*accessed_active_idle)(const struct lruvec *vec, uint32_t page);
	/*
	 * Moves `nr` (>= 1, <= list length) pages from the active list to the
	 * inactive list (through lruvec_deactivate()), counting pgrefill.
	 */
	void (*shrink_active)(struct lruvec *vec, enum lru_list_id active, uint32_t nr);
	/*
	 * Read-only: the first page shrink_active() would deactivate, if the
	 * active list were followed (nearer the head) by `newcomer` and the
	 * pages activated after it (PL_NONE: no newcomers), each just promoted.
	 */
	uint32_t (*first_deactivated)(const struct lruvec *vec, enum lru_list_id active,
				      uint32_t newcomer);
	/*
	 * Optional.  A reference to the page at `time` is about to be handled
	 * (`fault`: the page has just been brought in).
	 */
	void (*referenced)(struct lruvec *vec, uint32_t page, uint64_t time, bool fault);
	/*
	 * Optional, read-only.  May this inactive page be promoted now?  Asked
	 * by folio_mark_accessed() and by reclaim's folio_check_references()
	 * before an activation; when it says no, the page stays inactive
	 * (referenced, kept).  NULL: always.
	 */
	bool (*may_activate)(const struct lruvec *vec, uint32_t page);
	/*
	 * Optional, read-only.  The page of list `lru` that the variant moves
	 * to its tail when a reclaim round begins (the first page freed for a
	 * fault), before anything else; PL_NONE (or NULL): none.  The round's
	 * reclaim then proceeds from that tail as usual (counter_clock).
	 */
	uint32_t (*tail_at_reclaim)(const struct lruvec *vec, enum lru_list_id lru);
	/*
	 * Optional, for a variant that indexes the lists.  A page joined list
	 * `to` at its head (at its tail if `tail`) from list `from`
	 * (LRU_NOT_RESIDENT: it was just brought in), or left memory from
	 * `from` (`to` is LRU_NOT_RESIDENT; its fields still hold their values).
	 */
	void (*listed)(struct lruvec *vec, uint32_t page, unsigned from, unsigned to, bool tail);
	/*
	 * Optional, read-only.  The value field LRU_WIDE shows for a resident
	 * page, when vec->wide holds something it is computed from (NULL:
	 * vec->wide itself).
	 */
	int64_t (*shown_wide)(const struct lruvec *vec, uint32_t page);
	/* Optional: frees what the variant keeps in vec->own. */
	void (*destroy)(struct lruvec *vec);
};

/*
 * What the model keeps per page, its list links included, together so that
 * a reference touches one record, not one per array.  23 bytes of it are
 * used; it is padded to 32 so that, in an array aligned to a line (as
 * huge_alloc() gives from 2 MB on), no record straddles two lines: each
 * record is one line to wait for and one to ask for ahead (a quarter of
 * 24-byte records took two of each).
 */
struct lru_page {
	union {
		struct pl_link link;	/* in the list `lru` (pl_rdlist_*()) */
		uint64_t shadow_pos;	/* LRU_SHADOW: its entry's position */
	};
	union {
		/* not resident: nonresident_age at eviction + 1, 0: none */
		uint64_t shadow;
		/* resident: its position in its list's push log */
		uint32_t pushed_at;
	};
	uint8_t lru;		/* its list, LRU_SHADOW (it has been given a
				 * shadow entry, which may have been dropped
				 * since: shadow_listed()) or LRU_NOT_RESIDENT */
	bool file;		/* a file page (else anon): fixed at creation */
	uint8_t field[LRU_MAX_FIELDS];	/* 0 while not resident */
	uint8_t padding[32 - 2 * sizeof(uint64_t) - 2 - LRU_MAX_FIELDS];
};
_Static_assert(sizeof(struct lru_page) == 32, "an lru_page fills half a line");

/*
 * The shadow list as a ring of page ids, oldest at `tail`, next free
 * position at `head` (positions count up, 64 bits wide, and never wrap;
 * a position's slot is position & mask).  An entry consumed by a refault
 * leaves a hole (PL_NONE); `tail` is always a live entry or `head`.
 * Walking it reads one array in order, where a linked list would find
 * each entry through the record of the one before.
 */
struct shadow_ring {
	uint32_t *entry;	/* [mask + 1] */
	uint64_t tail, head;
	uint32_t mask, len;	/* len: live entries */
};

struct lruvec {
	struct pl_ctx *ctx;
	unsigned nfields;	/* the variant's own, before the shadow fields */
	uint32_t anon_percent, swappiness, batch, wmark_low, wmark_high;
	bool file_mapped, workingset;
	struct pl_dlist lists[NR_LRU_LISTS];
	struct shadow_ring shadow;
	struct lru_page *page;	/* [npages], in huge pages where the kernel has them */
	struct huge_array page_mem;	/* what holds `page` */
	uint64_t count[NR_LRU_COUNTERS];
	int64_t scan_credit[2];	/* anon, file: see scan_lru() */
	uint64_t nonresident_age;	/* lruvec->nonresident_age */
	bool reclaiming;	/* pages have been freed for the fault under way */
	int32_t rrpv_max;	/* linux_rrip only */
	uint64_t threshold;	/* linux_lruk only */
	int64_t limit;		/* counter_clock only: counters stay in -limit .. limit */
	uint64_t period, next_tick;	/* counter_clock only: tick times */
	void *own;		/* a variant's own state (counter_clock: its index) */
	/* lru_model.h's push logs: the pages pushed to each list's head, in
	 * order (push_log[lru][pos & push_mask]), pushed[lru] of them so far;
	 * ahead[lru]: the position up to which prefetch_ahead() asked for
	 * their records; ahead_turn: the list whose turn it is */
	uint32_t *push_log[NR_LRU_LISTS];
	uint32_t push_mask, pushed[NR_LRU_LISTS], ahead[NR_LRU_LISTS], ahead_turn;
	int64_t *wide;		/* [npages] a variant's own per-page value too wide
				 * for a field byte (linux_lruk: the time of the
				 * last reference), shown as field LRU_WIDE; 0
				 * while not resident; NULL if the variant has none */
};

/* The ops of a variant's table. */
#define LRUVEC_OPS						\
	.lists = lru_list_names,				\
	.nlists = NR_LRU_ALL_LISTS,				\
	.ghost_lists = 1 << LRU_SHADOW,				\
	.counters = lru_counter_names,				\
	.ncounters = NR_LRU_COUNTERS,				\
	.destroy = lruvec_destroy,				\
	.hit = lruvec_hit,					\
	.insert = lruvec_insert,				\
	.victim = lruvec_victim,				\
	.evict = lruvec_evict,					\
	.reclaim_goal = lruvec_reclaim_goal,			\
	.snapshot = lruvec_snapshot,				\
	.read_counters = lruvec_read_counters

/* The lists' links, in the pages' records. */
static inline struct pl_record_links lru_links(const struct lruvec *vec)
{
	return PL_RECORD_LINKS(vec->page, link);
}

/* For the aging hooks. */
static inline int32_t lruvec_field(const struct lruvec *vec, uint32_t page, enum lru_field f)
{
	return vec->page[page].field[f];
}

static inline uint32_t lruvec_tail(const struct lruvec *vec, enum lru_list_id lru)
{
	return vec->lists[lru].tail;
}

/* The neighbour of a page towards the head of its list (PL_NONE at the head). */
static inline uint32_t lruvec_toward_head(const struct lruvec *vec, uint32_t page)
{
	return vec->page[page].link.prev;
}

/* The head of a list (PL_NONE if empty) and a page's neighbour toward its tail. */
static inline uint32_t lruvec_head(const struct lruvec *vec, enum lru_list_id lru)
{
	return vec->lists[lru].head;
}

static inline uint32_t lruvec_toward_tail(const struct lruvec *vec, uint32_t page)
{
	return vec->page[page].link.next;
}

#include "lru_model.h"

#endif /* PAGELAB_LRU_LISTS_H */
