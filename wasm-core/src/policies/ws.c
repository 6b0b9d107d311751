/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ws.c - Denning's working set (Denning, "The working set model for program
 * behavior", CACM 11(5), 1968; seed 004, McMenamin 2011, sections 1 and 4).
 *
 * Definition: the working set W(t, tau) is the set of pages referenced among
 * the last tau references.  Page p is resident at step t exactly when it is
 * in W(t, tau); a reference faults exactly when its page was not in the
 * working set just before it.  The resident set grows and shrinks with the
 * program's locality: this is a variable-space policy, and the figure to
 * set beside its faults is the mean resident set size (the driver's
 * resident_sum / references).  Time is virtual: one unit per reference.
 *
 * Structure: one list "working_set" in order of last reference, most recent
 * at the head; each page's field "last_ref" is the step of its last
 * reference.  Pages leave from the tail, when its last_ref falls out of the
 * window: at step t, before the reference, the tail leaves if its last_ref
 * is t - tau and it is not the page referenced now.  At most one page
 * leaves per step (only one page was referenced at step t - tau).
 *
 *   head (just referenced)                          tail (oldest last_ref)
 *   [p, last_ref=t-1] <-> [q, t-3] <-> ... <-> [r, t-tau]   r leaves at t
 *                                                           unless r is ref t
 *
 * Transitions (at step t, the driver asking expire_goal() first)
 *   step t, page p   the tail leaves (evicted) if last_ref = t - tau, tail != p
 *   hit p            p moved to the head, last_ref := t
 *   miss p, room     p inserted at the head, last_ref := t
 *   miss p, full     only with a --frames bound smaller than the working set:
 *                    the tail (least recently used) is evicted first, so the
 *                    policy is then LRU within the working set
 *
 * Parameters: tau (window, in references; default 10, as in Silberschatz's
 * working-set example).  Without a frames bound (the CLI's default for ws)
 * it is the pure working set of the definition; tests/test_variable.c
 * checks faults and mean size against a direct count over the window.
 *
 * Cost per reference: O(1) (an expiry check and one list move).
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { LIST_WORKING_SET };
enum { FIELD_LAST_REF };
enum { PARAM_TAU };

struct ws {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist set;
	uint32_t *last_ref;	/* [npages] step of the last reference */
	uint32_t tau;
};

static void ws_destroy(void *state)
{
	struct ws *w = state;

	if (!w)
		return;
	pl_links_free(&w->links);
	free(w->last_ref);
	free(w);
}

static void *ws_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct ws *w = calloc(1, sizeof(*w));

	if (!w || pl_links_init(&w->links, ctx->npages) ||
	    !(w->last_ref = calloc(ctx->npages ? ctx->npages : 1, sizeof(*w->last_ref)))) {
		ws_destroy(w);
		snprintf(err->msg, sizeof(err->msg), "ws: out of memory");
		return NULL;
	}
	w->ctx = ctx;
	w->tau = (uint32_t)ctx->params[PARAM_TAU];
	pl_dlist_init(&w->set);
	ctx->tick_period = 1;	/* expire_goal() on every reference */
	return w;
}

/*
 * Before reference t the working set is references t-tau .. t-1; after it,
 * t-tau+1 .. t.  The page last referenced at t-tau (the tail, if any: every
 * page referenced earlier has left already) leaves now unless it is the
 * page referenced at t.
 */
static uint32_t ws_expire_goal(const void *state, const struct pl_ref *ref)
{
	const struct ws *w = state;
	uint32_t tail = w->set.tail;

	return tail != PL_NONE && tail != ref->page &&
	       (uint64_t)w->last_ref[tail] + w->tau <= ref->step;
}

static void touch(struct ws *w, uint32_t page, uint32_t step)
{
	if (w->last_ref[page] != step)
		pl_emit_set(w->ctx, page, FIELD_LAST_REF, (int32_t)w->last_ref[page],
			    (int32_t)step);
	w->last_ref[page] = step;
}

static void ws_hit(void *state, const struct pl_ref *ref)
{
	struct ws *w = state;

	if (w->set.head != ref->page) {
		pl_dlist_remove(&w->links, &w->set, ref->page);
		pl_dlist_push_head(&w->links, &w->set, ref->page);
		pl_emit_move(w->ctx, ref->page, LIST_WORKING_SET, LIST_WORKING_SET, 0);
	}
	touch(w, ref->page, ref->step);
}

static void ws_insert(void *state, const struct pl_ref *ref)
{
	struct ws *w = state;

	pl_dlist_push_head(&w->links, &w->set, ref->page);
	pl_emit_insert(w->ctx, ref->page, LIST_WORKING_SET, 0);
	w->last_ref[ref->page] = 0;	/* a page enters with every field 0 */
	touch(w, ref->page, ref->step);
}

static uint32_t ws_victim(const void *state)
{
	const struct ws *w = state;

	return w->set.tail;
}

static void ws_evict(void *state, uint32_t victim)
{
	struct ws *w = state;

	pl_dlist_remove(&w->links, &w->set, victim);
	pl_emit_evict(w->ctx, victim, LIST_WORKING_SET);
}

static void ws_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct ws *w = state;

	for (uint32_t p = w->set.head; p != PL_NONE; p = w->links.link[p].next) {
		int32_t last_ref = (int32_t)w->last_ref[p];

		pl_snapshot_push(out, LIST_WORKING_SET, p, &last_ref);
	}
}

static const struct pl_param ws_params[] = {
	[PARAM_TAU] = {
		.name = "tau",
		.help = "window in references: a page stays resident while it was referenced "
			"among the last tau references",
		.def = 10, .min = 1, .max = PL_NONE - 1,
	},
};

static const char *const ws_lists[] = { [LIST_WORKING_SET] = "working_set" };
static const char *const ws_fields[] = { [FIELD_LAST_REF] = "last_ref" };

const struct pl_policy_ops pl_policy_ws = {
	.name = "ws",
	.title = "Working set (Denning)",
	.flags = PL_POLICY_VARIABLE_SPACE | PL_POLICY_SPARSE,
	.help = "Keeps exactly the pages referenced among the last tau references: the "
		"resident set grows and shrinks with locality (--frames optional).",
	.params = ws_params,
	.nparams = 1,
	.lists = ws_lists,
	.nlists = 1,
	.fields = ws_fields,
	.nfields = 1,
	.create = ws_create,
	.destroy = ws_destroy,
	.hit = ws_hit,
	.insert = ws_insert,
	.victim = ws_victim,
	.evict = ws_evict,
	.expire_goal = ws_expire_goal,
	.snapshot = ws_snapshot,
};
