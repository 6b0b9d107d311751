/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux_rrip.c - "linux_rrip": seed 000's hybrid (A. Singer, "Re-Reference
 * Interval Prediction Swap Policy in the Linux Kernel", 2017): the Linux
 * two-list model whose active list is managed by RRIP.
 *
 * Algorithm
 *   Everything but the active list is the stock Linux 6.1 model of
 *   lru_model.h (inactive lists, PG_referenced, folio_mark_accessed(),
 *   folio_check_references(), watermarks, inactive_is_low()).  Each page
 *   also carries an RRPV (re-reference prediction value, 0 .. 2^M - 1),
 *   meaningful only while it is active.  As in the seed:
 *   - promotion to the active list (mark_page_accessed, reclaim
 *     activation, or a refault within the working set): RRPV := max - 1
 *     ("long" re-reference interval);
 *   - mark_page_accessed() on a page already active: RRPV := 0;
 *   - isolation (the seed's change to isolate_lru_pages, called from
 *     shrink_active_list): take the active tail; a page at max is
 *     deactivated (accessed bit cleared, to the inactive head, RRPV := 0);
 *     any other page gets RRPV + 1 and rotates to the active head.  This
 *     repeats until `batch` pages (at most the list's length) are
 *     deactivated; pgrefill counts every page taken.
 *   Accessed-bit references (anon pages, mmap'd file pages) do not touch
 *   the RRPV: as in the seed, only mark_page_accessed() was changed.
 *
 * Transition table for an active page (RRPV r, max = 2^M - 1)
 *   promoted                 -> r := max - 1
 *   syscall hit while active -> r := 0
 *   isolated, r == max       -> inactive head, r := 0 (pgdeactivate)
 *   isolated, r <  max       -> r := r + 1, active head
 *   (inactive pages: as in linux.c)
 *
 * Parameters (defaults): those of linux (lru_lists.h) plus rrpv_bits M = 2
 * (the seed's RRIP_COUNTER_MAX of 4 values).
 *
 * Cost per reference: amortized O(2^M): a deactivation may pass over
 * active pages several times, but each pass raises their RRPV, and an RRPV
 * only falls again on a reference.  Per reference it does all that linux
 * does (linux.c lists it: the mark_accessed table or the accessed bit, with
 * their field updates, the refault test, two reclaim walks per eviction,
 * the shadow entry, the prefetching of the page's record and of reclaim's
 * pages) plus the RRPV updates on promotion and on active hits, and at
 * isolation the rotations of active pages below the maximum RRPV, each
 * asking for the record of the page logged 8 positions behind it (the
 * active list's push log, lru_model.h); a hit to an active syscall file
 * page whose RRPV is already 0 changes nothing and costs one branch-free
 * test (rrip_hit_active_idle(), lru_model.h's touch_idle()).  By callgrind
 * on the benchmark's zipf trace (64K frames, first million references),
 * 249 instructions per reference against LRU's 55 and linux's 227 (243
 * with a branch on the page's type in every hit and fault: 2.03
 * mispredictions per reference in callgrind's branch model over the first
 * two million, against 1.66 now; 239 with 24-byte records
 * asked for as two lines each, 276 when every fault asked for pages near
 * all four tails, 227 before the push logs and the shadow ring, 197
 * before any prefetching, 433 when the model was a unit of its own;
 * README, Benchmark).
 */
#include "lru_lists.h"

enum { RRPV_BITS_PARAM = NR_LRU_PARAMS };

static void rrip_activated(struct lruvec *vec, uint32_t page)
{
	lruvec_set_field(vec, page, LRU_RRPV, vec->rrpv_max - 1);
}

static void rrip_hit_active(struct lruvec *vec, uint32_t page)
{
	lruvec_set_field(vec, page, LRU_RRPV, 0);
}

static bool rrip_hit_active_idle(const struct lruvec *vec, uint32_t page)
{
	return lruvec_field(vec, page, LRU_RRPV) == 0;
}

static void rrip_shrink_active(struct lruvec *vec, enum lru_list_id active, uint32_t nr)
{
	uint32_t deactivated = 0;

	while (deactivated < nr) {
		uint32_t page = lruvec_tail(vec, active);
		int32_t rrpv = lruvec_field(vec, page, LRU_RRPV);

		prefetch_behind(vec, active, page);
		vec->count[LRU_PGREFILL]++;
		if (rrpv == vec->rrpv_max) {
			lruvec_deactivate(vec, page);
			lruvec_set_field(vec, page, LRU_RRPV, 0);
			deactivated++;
		} else {
			lruvec_set_field(vec, page, LRU_RRPV, rrpv + 1);
			lruvec_move_head(vec, page, active);
		}
	}
}

/*
 * Isolation passes over the list in a fixed circular order (a rotated page
 * goes to the head, behind everything not yet taken), raising each RRPV by
 * one per pass: the first page to reach max is the one with the highest
 * RRPV, nearest the tail.  Newcomers sit behind the list at max - 1.
 */
static uint32_t rrip_first_deactivated(const struct lruvec *vec, enum lru_list_id active,
				       uint32_t newcomer)
{
	uint32_t best = PL_NONE;
	int32_t best_rrpv = -1;

	for (uint32_t page = lruvec_tail(vec, active); page != PL_NONE;
	     page = lruvec_toward_head(vec, page)) {
		int32_t rrpv = lruvec_field(vec, page, LRU_RRPV);

		/*
		 * None can beat it; isolation rotates the pages before it,
		 * which pays for this walk.
		 */
		if (rrpv == vec->rrpv_max)
			return page;
		if (rrpv > best_rrpv) {
			best = page;
			best_rrpv = rrpv;
		}
	}
	if (newcomer != PL_NONE && best_rrpv < vec->rrpv_max - 1)
		return newcomer;
	return best;
}

static const struct lru_aging lru_variant_aging = {
	.activated = rrip_activated,
	.accessed_active = rrip_hit_active,
	.accessed_active_idle = rrip_hit_active_idle,
	.shrink_active = rrip_shrink_active,
	.first_deactivated = rrip_first_deactivated,
};

static void *linux_rrip_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lruvec *vec = lruvec_create(ctx, LRU_COMMON_FIELDS + 1, err);

	if (vec)
		vec->rrpv_max = (1 << ctx->params[RRPV_BITS_PARAM]) - 1;
	return vec;
}

static const struct pl_param linux_rrip_params[] = {
	LRU_PARAMS,
	{ "rrpv_bits", "RRPV width M: active pages have RRPV 0 .. 2^M - 1", 2, 1, 7, NULL },
};
static const char *const linux_rrip_fields[] = {
	LRU_FIELD_NAMES, "rrpv", LRU_SHADOW_FIELD_NAMES
};

const struct pl_policy_ops pl_policy_linux_rrip = {
	.name = "linux_rrip",
	.title = "Linux two-list LRU with an RRIP active list (seed 000)",
	.help = "Linux 6.1's inactive list with the active list managed by RRIP: "
		"promotion at max-1, a hit while active sets 0, isolation deactivates "
		"pages at max and ages the others.",
	.params = linux_rrip_params,
	.nparams = NR_LRU_PARAMS + 1,
	LRUVEC_OPS,
	.prefetch = lruvec_prefetch,
	.fields = linux_rrip_fields,
	.nfields = LRU_COMMON_FIELDS + 1 + LRU_SHADOW_FIELDS,
	.create = linux_rrip_create,
};
