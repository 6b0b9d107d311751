/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pff.c - Page-Fault Frequency replacement (Chu and Opderbeck, "The page
 * fault frequency replacement algorithm", AFIPS FJCC 1972; cited by seed
 * 004, McMenamin 2011, section 1, as the ancestor of Windows NT's policy).
 *
 * Idea: measure the time between faults.  A long gap means the program is
 * settled in a locality that needs fewer pages, so at that fault the
 * resident set shrinks to the pages used since the previous fault; a short
 * gap means it needs more, so the faulting page is simply added.  Like WS
 * the resident set varies (report the mean resident set size beside the
 * faults); unlike WS it changes only at faults.
 *
 * Structure: one list "resident" in order of last reference, most recent
 * at the head; each page's field "referenced" is its use bit, set by a
 * reference and cleared at every fault.  Pages referenced since the last
 * fault therefore form a prefix of the list, and the unreferenced ones the
 * tail end:
 *
 *   head                                                     tail
 *   [a, ref=1] <-> [b, ref=1] <-> [c, ref=0] <-> [d, ref=0]
 *   '---- used since the last fault ----' '-- dropped at a late fault --'
 *
 * Transitions (interval = references since the previous fault, counting
 * this one; the first fault counts from the start of the trace)
 *   hit p                       p to the head, referenced := 1
 *   fault, interval > threshold every page with referenced = 0 is evicted
 *                               (tail first; counted in late_faults);
 *   fault, interval <= threshold nothing leaves (the set grows)
 *   then, either way            with a --frames bound still full: the tail
 *                               (least recently used) is evicted;
 *                               every remaining bit is cleared; p inserted
 *                               at the head with referenced = 1
 *
 * Parameters: threshold (references between faults, default 10).
 * Cost: O(1) per hit; a fault clears the use bits set since the previous
 * fault, the list's prefix: O(1) amortized, each bit cleared was set by a
 * hit (the "scan of the use bits" of the algorithm costs no more).
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { LIST_RESIDENT };
enum { FIELD_REFERENCED };
enum { COUNTER_LATE_FAULTS };
enum { PARAM_THRESHOLD };

struct pff {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist resident;
	uint8_t *referenced;	/* [npages] use bit */
	uint32_t nreferenced;	/* resident pages with the bit set: the list's prefix */
	uint32_t threshold;
	uint32_t hits_since_fault;	/* since the previous fault, or the start */
	uint64_t late_faults;
};

static void pff_destroy(void *state)
{
	struct pff *f = state;

	if (!f)
		return;
	pl_links_free(&f->links);
	free(f->referenced);
	free(f);
}

static void *pff_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct pff *f = calloc(1, sizeof(*f));

	if (!f || pl_links_init(&f->links, ctx->npages) ||
	    !(f->referenced = calloc(ctx->npages ? ctx->npages : 1, 1))) {
		pff_destroy(f);
		snprintf(err->msg, sizeof(err->msg), "pff: out of memory");
		return NULL;
	}
	f->ctx = ctx;
	f->threshold = (uint32_t)ctx->params[PARAM_THRESHOLD];
	pl_dlist_init(&f->resident);
	return f;
}

static void set_referenced(struct pff *f, uint32_t page, uint8_t bit)
{
	if (f->referenced[page] == bit)
		return;
	pl_emit_set(f->ctx, page, FIELD_REFERENCED, f->referenced[page], bit);
	f->referenced[page] = bit;
	f->nreferenced += bit ? 1 : -1;
}

static void pff_hit(void *state, const struct pl_ref *ref)
{
	struct pff *f = state;

	if (f->resident.head != ref->page) {
		pl_dlist_remove(&f->links, &f->resident, ref->page);
		pl_dlist_push_head(&f->links, &f->resident, ref->page);
		pl_emit_move(f->ctx, ref->page, LIST_RESIDENT, LIST_RESIDENT, 0);
	}
	set_referenced(f, ref->page, 1);
	f->hits_since_fault++;
}


static bool late_fault(const struct pff *f)
{
	return f->hits_since_fault + 1 > f->threshold;
}

/* Asked at a fault before any eviction. */
static uint32_t pff_reclaim_goal(const void *state, uint32_t resident)
{
	const struct pff *f = state;
	uint32_t goal = late_fault(f) ? resident - f->nreferenced : 0;

	if (resident - goal >= f->ctx->frames)
		goal++;
	return goal;
}

static uint32_t pff_victim(const void *state)
{
	const struct pff *f = state;

	return f->resident.tail;
}

static void pff_evict(void *state, uint32_t victim)
{
	struct pff *f = state;

	set_referenced(f, victim, 0);
	pl_dlist_remove(&f->links, &f->resident, victim);
	pl_emit_evict(f->ctx, victim, LIST_RESIDENT);
}

static void pff_insert(void *state, const struct pl_ref *ref)
{
	struct pff *f = state;

	f->late_faults += late_fault(f);
	/* The bits set since the last fault are the list's prefix. */
	for (uint32_t p = f->resident.head; p != PL_NONE && f->referenced[p];
	     p = f->links.link[p].next)
		set_referenced(f, p, 0);
	pl_dlist_push_head(&f->links, &f->resident, ref->page);
	pl_emit_insert(f->ctx, ref->page, LIST_RESIDENT, 0);
	set_referenced(f, ref->page, 1);
	f->hits_since_fault = 0;
}

static void pff_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct pff *f = state;

	for (uint32_t p = f->resident.head; p != PL_NONE; p = f->links.link[p].next) {
		int32_t referenced = f->referenced[p];

		pl_snapshot_push(out, LIST_RESIDENT, p, &referenced);
	}
}

static void pff_read_counters(const void *state, uint64_t *counters)
{
	const struct pff *f = state;

	counters[COUNTER_LATE_FAULTS] = f->late_faults;
}

static const struct pl_param pff_params[] = {
	[PARAM_THRESHOLD] = {
		.name = "threshold",
		.help = "references between faults above which a fault drops every page "
			"unused since the previous fault",
		.def = 10, .min = 1, .max = PL_NONE - 1,
	},
};

static const char *const pff_lists[] = { [LIST_RESIDENT] = "resident" };
static const char *const pff_fields[] = { [FIELD_REFERENCED] = "referenced" };
static const char *const pff_counters[] = { [COUNTER_LATE_FAULTS] = "late_faults" };

const struct pl_policy_ops pl_policy_pff = {
	.name = "pff",
	.title = "Page-Fault Frequency (Chu and Opderbeck)",
	.flags = PL_POLICY_VARIABLE_SPACE | PL_POLICY_SPARSE,
	.help = "At a fault after more than threshold references without one, drops every "
		"page unused since the previous fault; otherwise adds the page (--frames "
		"optional).",
	.params = pff_params,
	.nparams = 1,
	.lists = pff_lists,
	.nlists = 1,
	.fields = pff_fields,
	.nfields = 1,
	.counters = pff_counters,
	.ncounters = 1,
	.create = pff_create,
	.destroy = pff_destroy,
	.hit = pff_hit,
	.insert = pff_insert,
	.victim = pff_victim,
	.evict = pff_evict,
	.reclaim_goal = pff_reclaim_goal,
	.snapshot = pff_snapshot,
	.read_counters = pff_read_counters,
};
