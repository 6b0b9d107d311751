// SPDX-License-Identifier: GPL-2.0
/*
 * mrc.c - miss-ratio curves: misses at many memory sizes (interface:
 * include/analysis.h).
 *
 *   lru        every size from one pass of stack distances (locality.c).
 *   opt        Mattson's OPT stack (Mattson, Gecsei, Slutz, Traiger, "Evaluation
 *              techniques for storage hierarchies", IBM Systems Journal 9(2),
 *              1970): the top c entries of the stack are OPT's memory with c
 *              frames.  A reference to x at depth d (d = infinity if absent)
 *              puts x on top and pushes the old top down; at each depth above
 *              d the page carried down and the page there compete, and the
 *              one used sooner stays.  Kept to depth K = the largest size
 *              asked for: the top K entries evolve without looking below.
 *
 *                 before x (depth 4)    after
 *                 0: a (next use 9)     0: x
 *                 1: b (5)              1: b  (b used before a: b stays,
 *                 2: c (12)             2: a   a carried on; a before c:
 *                 3: x                  3: c   a stays, c lands where x was)
 *
 *   any other  one simulation per size.
 *   sampled    a spatial sample: a page is in it when the hash of its page
 *              number falls below rate * 2^24, so every reference to a
 *              sampled page is kept.  For lru (SHARDS) stack distances in
 *              the sample are the true ones scaled by the rate: the miss
 *              ratio at c frames is the sample's misses at c * rate divided
 *              by the expected sample size N * rate (SHARDS-adj).  Any
 *              other policy runs on the sample with c * rate frames (a
 *              miniature simulation).  The same pass splits the sample by
 *              further hash bits into 8 parts; the spread of their curves
 *              estimates the error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_fail.h"
#include "splitmix64.h"

#define SAMPLE_MODULUS (1u << 24)
#define SAMPLE_GROUPS 8

static int check_sizes(const uint32_t *frames, unsigned n, struct pl_error *err)
{
	for (unsigned i = 0; i < n; i++) {
		if (!frames[i] || (i && frames[i] <= frames[i - 1])) {
			snprintf(err->msg, sizeof(err->msg),
				 "analysis: frame sizes must be >= 1 and ascending (size %u is %u)",
				 i + 1, frames[i]);
			return -1;
		}
	}
	return 0;
}

enum pl_mrc_method pl_mrc_method_of(const struct pl_policy_ops *ops)
{
	if (ops == pl_policy_find("lru"))
		return PL_MRC_ONE_PASS;
	if (ops == pl_policy_find("opt"))
		return PL_MRC_OPT_STACK;
	return PL_MRC_PER_SIZE;
}

/* ------------------------------------------------------------------ lru */

static int lru_curve(const struct pl_trace *t, const uint32_t *frames, unsigned n,
		     uint64_t *misses, struct pl_error *err)
{
	struct pl_locality *l = pl_locality_create(0, err);

	if (!l)
		return -1;
	if (pl_locality_add_trace(l, t, NULL, NULL, err)) {
		pl_locality_destroy(l);
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		misses[i] = pl_locality_lru_misses(l, frames[i]);
	pl_locality_destroy(l);
	return 0;
}

/* ------------------------------------------------------------------ opt */

struct opt_stack {
	uint32_t *page;		/* [depth] top first */
	uint32_t *where;	/* [npages] 1 + index in page[], 0: not in the top */
	uint32_t *next_use;	/* [npages] step of the page's next reference */
	uint32_t len, depth;
	uint64_t *at_depth;	/* [depth + 1] references found at depth 1 .. depth; [0]: deeper */
};

/* next[i]: the step of the next reference to t->page[i], or t->n if none. */
static uint32_t *next_references(const struct pl_trace *t)
{
	uint32_t *next = malloc(((size_t)t->n + 1) * sizeof(*next));
	uint32_t *seen = malloc(((size_t)t->npages + 1) * sizeof(*seen));

	if (next && seen) {
		for (uint32_t p = 0; p < t->npages; p++)
			seen[p] = t->n;
		for (uint32_t i = t->n; i-- > 0;) {
			next[i] = seen[t->page[i]];
			seen[t->page[i]] = i;
		}
	} else {
		free(next);
		next = NULL;
	}
	free(seen);
	return next;
}

static void put(struct opt_stack *s, uint32_t index, uint32_t page)
{
	s->page[index] = page;
	s->where[page] = index + 1;
}

/* One reference to x: counts its depth, then updates the stack as above. */
static void opt_reference(struct opt_stack *s, uint32_t x)
{
	uint32_t found = s->where[x], end, carry;

	s->at_depth[found]++;
	if (found == 1)
		return;
	if (!s->len) {
		put(s, 0, x);
		s->len = 1;
		return;
	}
	carry = s->page[0];
	put(s, 0, x);
	end = found ? found - 1 : s->len;
	for (uint32_t j = 1; j < end; j++) {
		uint32_t here = s->page[j];

		if (s->next_use[carry] < s->next_use[here]) {
			put(s, j, carry);
			carry = here;
		}
	}
	if (found)
		put(s, found - 1, carry);
	else if (s->len < s->depth)
		put(s, s->len++, carry);
	else
		s->where[carry] = 0;
}

int pl_mrc_opt(const struct pl_trace *t, const uint32_t *frames, unsigned n, uint64_t *misses,
	       struct pl_error *err)
{
	struct opt_stack s = { .depth = n ? frames[n - 1] : 1 };
	uint32_t *next;
	int ret = 0;

	if (check_sizes(frames, n, err))
		return -1;
	if (s.depth > t->npages)
		s.depth = t->npages ? t->npages : 1;
	next = next_references(t);
	s.page = malloc((size_t)s.depth * sizeof(*s.page));
	s.where = calloc((size_t)t->npages + 1, sizeof(*s.where));
	s.next_use = malloc(((size_t)t->npages + 1) * sizeof(*s.next_use));
	s.at_depth = calloc((size_t)s.depth + 1, sizeof(*s.at_depth));
	if (!next || !s.page || !s.where || !s.next_use || !s.at_depth) {
		ret = pl_analysis_fail(err, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		s.next_use[t->page[i]] = next[i];
		opt_reference(&s, t->page[i]);
	}
	/* misses at c: references deeper than c (at_depth[0] counts the deepest) */
	for (unsigned i = 0; i < n; i++) {
		misses[i] = s.at_depth[0];
		for (uint32_t d = frames[i] + 1; d <= s.depth; d++)
			misses[i] += s.at_depth[d];
	}
out:
	free(next);
	free(s.page);
	free(s.where);
	free(s.next_use);
	free(s.at_depth);
	return ret;
}

/* ------------------------------------------------------------- per size */

int pl_mrc_simulate(const struct pl_policy_ops *ops, const int64_t *params,
		    const struct pl_trace *t, uint32_t frames, uint64_t *misses,
		    struct pl_error *err)
{
	struct pl_sim *sim = pl_sim_create(ops, frames, params, t, 0, 0, err);
	int ret = 0;

	if (!sim)
		return -1;
	pl_sim_run(sim, UINT32_MAX);
	if (pl_sim_error(sim)) {
		snprintf(err->msg, sizeof(err->msg), "%s", pl_sim_error(sim));
		ret = -1;
	}
	*misses = pl_sim_stats(sim)->misses;
	pl_sim_destroy(sim);
	return ret;
}

int pl_mrc(const struct pl_policy_ops *ops, const int64_t *params, const struct pl_trace *t,
	   const uint32_t *frames, unsigned n, uint64_t *misses, struct pl_error *err)
{
	if (check_sizes(frames, n, err))
		return -1;
	switch (pl_mrc_method_of(ops)) {
	case PL_MRC_ONE_PASS:
		return lru_curve(t, frames, n, misses, err);
	case PL_MRC_OPT_STACK:
		return pl_mrc_opt(t, frames, n, misses, err);
	case PL_MRC_PER_SIZE:
		break;
	}
	for (unsigned i = 0; i < n; i++)
		if (pl_mrc_simulate(ops, params, t, frames[i], &misses[i], err))
			return -1;
	return 0;
}

/* ------------------------------------------------------------- sampling */

/* The sample (index 0) and its SAMPLE_GROUPS disjoint parts (1 ..). */
struct pl_mrc_sample {
	const struct pl_policy_ops *ops;
	int64_t params[PL_MAX_PARAMS];
	bool defaults;		/* params NULL: the policy's defaults */
	bool lru;
	double rate;		/* as used: threshold / SAMPLE_MODULUS */
	uint64_t threshold;
	uint64_t references;	/* all references seen, sampled or not */
	struct pl_locality *locality[1 + SAMPLE_GROUPS];	/* lru */
	struct pl_trace trace[1 + SAMPLE_GROUPS];		/* any other policy */
	struct pl_error *err;
	bool failed;
};

void pl_mrc_sample_destroy(struct pl_mrc_sample *s)
{
	if (!s)
		return;
	for (unsigned k = 0; k <= SAMPLE_GROUPS; k++) {
		pl_locality_destroy(s->locality[k]);
		pl_trace_free(&s->trace[k]);
	}
	free(s);
}

struct pl_mrc_sample *pl_mrc_sample_create(const struct pl_policy_ops *ops,
					   const int64_t *params, double rate,
					   struct pl_error *err)
{
	struct pl_mrc_sample *s;

	if (!(rate > 0 && rate <= 1)) {
		snprintf(err->msg, sizeof(err->msg),
			 "analysis: sampling rate %g is not in (0, 1]", rate);
		return NULL;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		pl_analysis_fail(err, "out of memory");
		return NULL;
	}
	s->ops = ops;
	s->defaults = !params;
	if (params)
		memcpy(s->params, params, sizeof(s->params));
	s->lru = pl_mrc_method_of(ops) == PL_MRC_ONE_PASS;
	s->threshold = (uint64_t)llround(rate * SAMPLE_MODULUS);
	s->threshold = s->threshold ? s->threshold : 1;
	s->rate = (double)s->threshold / SAMPLE_MODULUS;
	for (unsigned k = 0; k <= SAMPLE_GROUPS; k++) {
		pl_trace_init(&s->trace[k]);
		if (s->lru && !(s->locality[k] = pl_locality_create(0, err))) {
			pl_mrc_sample_destroy(s);
			return NULL;
		}
	}
	return s;
}

static int sample_add(struct pl_mrc_sample *s, unsigned k, uint64_t number, uint8_t flags,
		      struct pl_error *err)
{
	if (s->lru)
		return pl_locality_add_numbers(s->locality[k], &number, 1, err);
	if (pl_trace_add(&s->trace[k], number, flags) == PL_NONE)
		return pl_analysis_fail(err, "out of memory");
	return 0;
}

/* 0 if the page numbered `number` is not in the sample, else 1 + its part. */
static unsigned part_of(const struct pl_mrc_sample *s, uint64_t number)
{
	uint64_t hash = splitmix64_mix(number);

	if ((hash & (SAMPLE_MODULUS - 1)) >= s->threshold)
		return 0;
	return 1 + (unsigned)((hash >> 24) % SAMPLE_GROUPS);
}

/* A reference to a sampled page, to the sample and to its part k. */
static int sample_add_to(struct pl_mrc_sample *s, unsigned k, uint64_t number, uint8_t flags,
			 struct pl_error *err)
{
	return sample_add(s, 0, number, flags, err) || sample_add(s, k, number, flags, err) ? -1 : 0;
}

int pl_mrc_sample_add(struct pl_mrc_sample *s, const uint64_t *number, const uint8_t *flags,
		      uint32_t n, struct pl_error *err)
{
	for (uint32_t i = 0; i < n; i++) {
		unsigned k = part_of(s, number[i]);

		if (k && sample_add_to(s, k, number[i], flags[i], err))
			return -1;
	}
	s->references += n;
	return 0;
}

/* Part k's estimate of the miss ratio at `frames`, part k sampled at `rate`. */
static double estimate(struct pl_mrc_sample *s, unsigned k, double rate, uint64_t n,
		       uint32_t frames)
{
	double ratio;
	uint64_t misses;

	if (s->lru) {
		if (!pl_locality_references(s->locality[k]))
			return 1.0;
		misses = pl_locality_lru_misses(s->locality[k], (uint32_t)floor(frames * rate));
		ratio = (double)misses / ((double)n * rate);	/* SHARDS-adj */
	} else {
		uint32_t scaled = (uint32_t)llround(frames * rate);

		if (!s->trace[k].n)
			return 1.0;
		if (pl_mrc_simulate(s->ops, s->defaults ? NULL : s->params, &s->trace[k],
				    scaled ? scaled : 1, &misses, s->err))
			s->failed = true;
		ratio = (double)misses / s->trace[k].n;
	}
	return ratio > 1.0 ? 1.0 : ratio;
}

/* Twice the standard error of the sample's estimate, from its parts' spread. */
static double part_error(struct pl_mrc_sample *s, double rate, uint64_t n, uint32_t frames)
{
	double sum = 0, sum2 = 0, mean, var;

	for (unsigned k = 1; k <= SAMPLE_GROUPS; k++) {
		double r = estimate(s, k, rate / SAMPLE_GROUPS, n, frames);

		sum += r;
		sum2 += r * r;
	}
	mean = sum / SAMPLE_GROUPS;
	var = (sum2 - SAMPLE_GROUPS * mean * mean) / (SAMPLE_GROUPS - 1);
	return 2.0 * sqrt(var > 0 ? var : 0) / sqrt(SAMPLE_GROUPS);
}

int pl_mrc_sample_curve(struct pl_mrc_sample *s, const uint32_t *frames, unsigned n,
			double *miss_ratio, struct pl_shards *info, struct pl_error *err)
{
	uint64_t refs = s->references;

	if (check_sizes(frames, n, err))
		return -1;
	if (!refs)
		return pl_analysis_fail(err, "no references to sample");
	s->err = err;
	s->failed = false;
	info->rate = s->rate;
	info->sampled = s->lru ? pl_locality_references(s->locality[0]) : s->trace[0].n;
	info->error_bound = 0;
	for (unsigned i = 0; i < n && !s->failed; i++) {
		double e = s->rate < 1 ? part_error(s, s->rate, refs, frames[i]) : 0;

		miss_ratio[i] = estimate(s, 0, s->rate, refs, frames[i]);
		info->error_bound = fmax(info->error_bound, e);
	}
	return s->failed ? -1 : 0;
}

int pl_mrc_sampled(const struct pl_policy_ops *ops, const int64_t *params,
		   const struct pl_trace *t, double rate, const uint32_t *frames, unsigned n,
		   double *miss_ratio, struct pl_shards *info, struct pl_error *err)
{
	struct pl_mrc_sample *s;
	int ret = 0;

	uint8_t *part;

	if (check_sizes(frames, n, err) || !(s = pl_mrc_sample_create(ops, params, rate, err)))
		return -1;
	/* each page's part once, not a hash and a random read of its number per reference */
	if (!(part = malloc(t->npages ? t->npages : 1))) {
		pl_mrc_sample_destroy(s);
		return pl_analysis_fail(err, "out of memory");
	}
	for (uint32_t p = 0; p < t->npages; p++)
		part[p] = (uint8_t)part_of(s, t->number[p]);
	for (uint32_t i = 0; i < t->n && !ret; i++)
		if (part[t->page[i]])
			ret = sample_add_to(s, part[t->page[i]], t->number[t->page[i]], t->flags[i],
					    err);
	s->references = t->n;
	free(part);
	if (!ret)
		ret = pl_mrc_sample_curve(s, frames, n, miss_ratio, info, err);
	pl_mrc_sample_destroy(s);
	return ret;
}
