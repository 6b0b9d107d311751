/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux.c - "linux": the Linux 6.1 two-list LRU with multi-gen LRU off.
 *
 * Algorithm
 *   Four lists (inactive/active x anon/file), PG_referenced and PG_active,
 *   the folio_mark_accessed() table, the hardware accessed bit tested at
 *   reclaim by folio_referenced(), reclaim between watermarks, and the
 *   inactive_is_low() balance: all of it is the shared model in
 *   lru_model.h, whose header describes every rule, cites the 6.1
 *   function behind it and lists what is simplified.
 *
 *   What this file adds is how the active list ages, as in 6.1's
 *   shrink_active_list() (mm/vmscan.c): take `batch` pages from the active
 *   tail; folio_referenced() tests and clears each one's accessed bit, but
 *   since 6.1 only gives executable file pages another trip around the
 *   active list (and the model has none), every page is deactivated: to
 *   the head of the inactive list, PG_active cleared, PG_referenced kept.
 *
 * Transition table (list, PG_referenced, accessed bit)
 *   fault, anon or mmap'd file -> inactive, 0, 1
 *   fault, read()/write() file -> inactive, 1, 0
 *   refault within the working set -> active instead (then as a hit)
 *   syscall hit: inactive,0 -> inactive,1 -> active,0 (pgactivate) -> active,1
 *   mapped hit:  accessed bit := 1
 *   reclaim, active tail        -> inactive head, accessed := 0 (pgdeactivate)
 *   reclaim, inactive tail: accessed && referenced -> active head (pgactivate)
 *                           accessed && !referenced -> inactive head,
 *                                                      referenced := 1 (pgrotated)
 *                           !accessed -> evicted (pgsteal)
 *
 * Parameters (defaults): anon_percent 50, file_access syscall, swappiness 60,
 * batch 0 (automatic: frames/64 within 1..32, SWAP_CLUSTER_MAX at 2048
 * frames and up), wmark_low 0, wmark_high 0, workingset 1.
 *
 * Cost per reference: O(1) for hits and faults, reclaim amortized O(1)
 * (see lru_model.h).  It is several times LRU's by design; per reference
 * the model does, beyond LRU's unlink and push:
 *   - every reference: the folio_mark_accessed() table (file pages) or the
 *     accessed bit (anon pages): a field tested and at most one updated,
 *     PG_referenced with its referenced-pages gauge; a promotion moves the
 *     page between lists (three counters, the nonresident age).  A hit
 *     that would change nothing (most: hot pages are accessed, or active
 *     and referenced) is one test of the record's fields, computed without
 *     a branch on the page's type, and so is the choice of field a fault
 *     sets (lru_model.h, touch_idle(), touch_new()).  The page's record is
 *     asked for 16 references ahead (the driver's prefetch());
 *   - every fault: the refault test against the page's shadow value (and
 *     the working set size; a shadow entry still listed is looked up in
 *     the shadow ring), the insert into one of four lists, logged in that
 *     list's push log, and the records of eight pages near one of the
 *     four tails asked for (each list in turn, none when eight more would
 *     pass the window), read from the logs (lru_model.h, prefetch_ahead());
 *   - every eviction: get_scan_count()'s weighted choice of anon or file
 *     (two 64-bit products), inactive_is_low(), then the walk from the
 *     inactive tail, twice - read-only for victim() and for real in
 *     evict(), which rotates or activates every page it passes over, and
 *     every `batch` pages a shrink_active_list() - and the shadow entry
 *     written to the ring (and the oldest dropped, from the ring alone).
 * What of that is needed: all of it is the model the narration explains
 * (lists, flags, counters, shadow entries, refault distances) except the
 * prefetching, which buys time with instructions.  Events cost a test or
 * two each when nothing records; no statistics are kept beyond the
 * kernel's counters.
 * Measured with callgrind on the benchmark's zipf trace (64K frames, first
 * million references: 0.41 faults and 0.35 evictions per reference, 1.6
 * pages walked per eviction): 227 instructions per reference against
 * LRU's 55 (221 with a branch on the page's type in every hit and fault,
 * where callgrind's branch model counts 2.07 mispredictions per reference
 * over the first two million, against 1.45 now; 223 with 24-byte records,
 * asked for as two lines each; 256
 * when every fault asked for two pages near each of the four tails, 219
 * with the shadow list linked through the records and the lists' tails
 * prefetched by walking them, 188 before any
 * prefetching, 398 when the model was a unit of its own; README,
 * Benchmark).  Time is not instructions here: a fault frees `batch`
 * frames at once (32 at 64K frames), and walking the tails of the lists
 * 32 pages at a time is a chain of cache misses, each record found through
 * the one before.  Prefetching by walking the lists one page per fault
 * only moved that chain into the walk (over half of the time, perf); the
 * push logs and the shadow ring name the pages near the tails without
 * reading any record.  A page's state and its list links are one 32-byte
 * record (23 bytes used, padded so that none straddles two lines), in huge
 * pages where the kernel has them (32 MB at 1M pages: no page walk per
 * record), so a fault touches the new page's line and the victim's (LRU:
 * two link pairs of 8 bytes).
 */
#include "lru_lists.h"

static const struct lru_aging lru_variant_aging = {
	.shrink_active = lruvec_deactivate_tail,
	.first_deactivated = lruvec_tail_or_newcomer,
};

static void *linux_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return lruvec_create(ctx, LRU_COMMON_FIELDS, err);
}

static const struct pl_param linux_params[] = { LRU_PARAMS };
static const char *const linux_fields[] = { LRU_FIELD_NAMES, LRU_SHADOW_FIELD_NAMES };

const struct pl_policy_ops pl_policy_linux = {
	.name = "linux",
	.title = "Linux two-list LRU (6.1)",
	.help = "Linux 6.1's active/inactive lists for anon and file pages: "
		"mark_page_accessed, the accessed bit tested at reclaim, "
		"shrink_active_list / shrink_inactive_list and inactive_is_low.",
	.params = linux_params,
	.nparams = NR_LRU_PARAMS,
	LRUVEC_OPS,
	.prefetch = lruvec_prefetch,
	.fields = linux_fields,
	.nfields = LRU_COMMON_FIELDS + LRU_SHADOW_FIELDS,
	.create = linux_create,
};
