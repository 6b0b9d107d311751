/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux_lruk.c - seed 002's LRU-K variant of Linux's two-list LRU (the
 * report "Advance Project", T. Manoharan): an inactive page is promoted to
 * the active list only when its previous reference lies within `threshold`
 * time units of this one; otherwise it stays inactive, with the time of its
 * last reference updated.  Everything else is Linux 6.1's model
 * (lru_model.h): the same four lists, folio_mark_accessed(), reclaim and
 * refault detection.  The classic algorithm is lruk.c.
 *
 * Where the rule applies (both promotion points of lru_model.h)
 *   folio_mark_accessed(): inactive,referenced -> active only if close;
 *                          else it stays inactive,referenced.
 *   reclaim, folio_check_references(): accessed,referenced -> activate
 *                          only if close; else kept (rotated, referenced).
 *   A page brought in by a fault has no previous reference (the kernel's
 *   struct page is new), so its first reference is never close.
 *
 * Transition table (t = the reference's time, last = the page's field
 * last_ref, the time of its previous reference)
 *   fault                  last_ref := t, close := 0
 *   hit,  t - last <= threshold   close := 1, last_ref := t
 *   hit,  t - last >  threshold   close := 0, last_ref := t
 *   then the Linux rules above, with close gating every activation.
 *
 *   inactive_file:  head [ 9 | ref last_ref=5100 close=0 ] ... tail
 *                   a second read 5000 ms after the first: not close,
 *                   stays inactive (stock Linux would promote it)
 *
 * Time is the trace's time column (pl_time(): the reference's index
 * without one); seed 002 used seconds with threshold 10 s, pagelab gen
 * writes milliseconds, so threshold = 10000 reproduces the report.
 *
 * Parameters: LRU_PARAMS (lru_lists.h), then threshold (default 10000).
 * Fields: referenced, active, accessed, last_ref, close, then the shadow
 * fields.  Counters: as linux.  Cost: as linux, O(1) more per reference.
 */
#include <stdlib.h>

#include "lru_lists.h"

enum { THRESHOLD_PARAM = NR_LRU_PARAMS };

static void lruk_referenced(struct lruvec *vec, uint32_t page, uint64_t time, bool fault)
{
	bool close = !fault && time - (uint64_t)vec->wide[page] <= vec->threshold;

	lruvec_set_field(vec, page, LRU_CLOSE, close);
	lruvec_set_wide(vec, page, (int64_t)time);
}

static bool lruk_may_activate(const struct lruvec *vec, uint32_t page)
{
	return lruvec_field(vec, page, LRU_CLOSE);
}

static const struct lru_aging lru_variant_aging = {
	/* the active list ages as in stock Linux (linux.c) */
	.shrink_active = lruvec_deactivate_tail,
	.first_deactivated = lruvec_tail_or_newcomer,
	.referenced = lruk_referenced,
	.may_activate = lruk_may_activate,
};

static void *linux_lruk_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lruvec *vec = lruvec_create(ctx, LRU_CLOSE + 1, err);

	if (!vec)
		return NULL;
	vec->threshold = (uint64_t)ctx->params[THRESHOLD_PARAM];
	vec->wide = calloc(ctx->npages ? ctx->npages : 1, sizeof(*vec->wide));
	if (!vec->wide) {
		lruvec_destroy(vec);
		snprintf(err->msg, sizeof(err->msg), "linux_lruk: out of memory for %u pages",
			 ctx->npages);
		return NULL;
	}
	return vec;
}

static const struct pl_param linux_lruk_params[] = {
	LRU_PARAMS,
	{ "threshold", "an inactive page is promoted only if its previous reference is at "
	  "most this many time units before this one (seed 002: 10 s; 10000 with the "
	  "millisecond times pagelab gen writes)", 10000, 0, INT64_MAX / 2, NULL },
};
static const char *const linux_lruk_fields[] = {
	LRU_FIELD_NAMES, "last_ref", "close", LRU_SHADOW_FIELD_NAMES
};

const struct pl_policy_ops pl_policy_linux_lruk = {
	.name = "linux_lruk",
	.title = "Linux two-list LRU with LRU-K promotion (seed 002)",
	.help = "Linux 6.1's two lists, but an inactive page is promoted only when its "
		"previous reference lies within threshold time units of this one; "
		"otherwise it stays inactive with its time updated.",
	.params = linux_lruk_params,
	.nparams = NR_LRU_PARAMS + 1,
	LRUVEC_OPS,
	.prefetch = lruvec_prefetch,
	.fields = linux_lruk_fields,
	.nfields = LRU_CLOSE + 1 + LRU_SHADOW_FIELDS,
	.create = linux_lruk_create,
};
