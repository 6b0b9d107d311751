/* SPDX-License-Identifier: GPL-2.0 */
/*
 * random.c - Random replacement: evict a page chosen uniformly at random
 * (RAND in Belady, "A study of replacement algorithms for a virtual-storage
 * computer", IBM Systems Journal 5(2), 1966; the baseline every policy
 * should beat on a trace with locality).
 *
 * Structure: one list "frames", the frame table.  No per-page fields.
 *
 * Transitions
 *   hit     nothing.
 *   fault   the victim is the page in slot r, r = splitmix64_below(x,
 *           frames) where x is the generator's next number (splitmix64.h);
 *           the new page takes its slot.
 *
 * Reproducibility: the generator is pagelab's own SplitMix64, advanced once
 * per eviction and never otherwise, so a given seed, trace and frame count
 * give the same victims on every platform, natively and in WebAssembly.
 * victim() peeks at the next number; evict() consumes it.
 *
 * Parameters
 *   seed   the generator's initial state (default 1).
 *
 * Cost: O(1) per reference; the frame table keeps no index by page (its
 * victim is a slot), so a fault writes no per-page array.
 */
#include <stdlib.h>

#include "policy.h"
#include "frame_table.h"
#include "splitmix64.h"

enum { RANDOM_FRAMES };
enum { PARAM_SEED };

struct random {
	struct pl_ctx *ctx;
	struct frame_table table;
	uint64_t rng;		/* SplitMix64 state */
};

static void random_destroy(void *state)
{
	struct random *r = state;

	if (!r)
		return;
	frame_table_free(&r->table);
	free(r);
}

static void *random_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct random *r = calloc(1, sizeof(*r));

	if (!r) {
		snprintf(err->msg, sizeof(err->msg), "out of memory for Random");
		return NULL;
	}
	r->ctx = ctx;
	r->rng = (uint64_t)ctx->params[PARAM_SEED];
	if (frame_table_init(&r->table, ctx, RANDOM_FRAMES, err)) {
		free(r);
		return NULL;
	}
	frame_table_drop_index(&r->table);	/* the victim is found by slot */
	return r;
}

static void random_hit(void *state, const struct pl_ref *ref)
{
	(void)state;
	(void)ref;
}

static void random_insert(void *state, const struct pl_ref *ref)
{
	struct random *r = state;

	frame_table_insert(&r->table, r->ctx, ref->page);
}

/* The slot of the next victim: the generator's next number, not yet taken. */
static uint32_t victim_slot(const struct random *r)
{
	return splitmix64_below(splitmix64_peek(r->rng), r->table.used);
}

static uint32_t random_victim(const void *state)
{
	const struct random *r = state;

	return r->table.slot_page[victim_slot(r)];
}

/* The victim is in the slot victim() read it from. */
static void random_evict(void *state, uint32_t victim)
{
	struct random *r = state;
	uint32_t slot = victim_slot(r);

	splitmix64_next(&r->rng);
	frame_table_evict_slot(&r->table, r->ctx, slot);
}

static void random_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct random *r = state;

	frame_table_snapshot(&r->table, out, NULL, r);
}

static const struct pl_param random_params[] = {
	[PARAM_SEED] = {
		.name = "seed",
		.help = "initial state of the SplitMix64 generator",
		.def = 1, .min = 0, .max = INT64_MAX,
	},
};

static const char *const random_lists[] = { [RANDOM_FRAMES] = "frames" };

const struct pl_policy_ops pl_policy_random = {
	.name = "random",
	.title = "Random",
	.help = "Evicts a page chosen at random by a seeded generator: the same seed gives "
		"the same run everywhere.",
	.flags = PL_POLICY_SPARSE,
	.params = random_params,
	.nparams = 1,
	.lists = random_lists,
	.nlists = 1,
	.create = random_create,
	.destroy = random_destroy,
	.hit = random_hit,
	.insert = random_insert,
	.victim = random_victim,
	.evict = random_evict,
	.snapshot = random_snapshot,
};
