/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wtinylfu.c - W-TinyLFU (G. Einziger, R. Friedman and B. Manes, "TinyLFU:
 * A Highly Efficient Cache Admission Policy", ACM ToS 13(4), 2017,
 * Section 4: W-TinyLFU), the policy of Caffeine.
 *
 * Structure: c = frames, W = max(1, floor(c * window_percent / 100)),
 * M = c - W split into probation (20%) and protected (80%):
 *
 *   fault --> window (LRU, W pages) --its LRU page, the candidate--+
 *                                                                  v
 *             TinyLFU: is the candidate more frequent than main's victim?
 *               yes: main's victim is evicted, the candidate enters main
 *               no:  the candidate is evicted
 *   main (SLRU): probation [recent .. old] --victim (then protected's tail
 *                  ^ hit: promoted          if probation is empty)
 *                protected [recent .. old] --its tail cools to probation
 *
 * A frequency sketch estimates how often each page was referenced
 * recently: a counting Bloom filter with minimal increment, sized as
 * libCacheSim sizes it (10 hash functions over 14.38 counters per main
 * frame); every counter is halved after 32 x M hits in main ("reset"
 * keeps the history recent).  Estimates are the minimum of a page's 4
 * counters; collisions can only overestimate.
 *
 * Transitions (x the referenced page)
 *   hit in window      x to the window's head
 *   hit in probation   x to protected's head; protected's tail, if over
 *                      its size, to probation's head; sketch += x
 *   hit in protected   x to protected's head; sketch += x
 *   fault, room        x to the window's head, sketch += x (the window
 *                      grows until memory is full)
 *   fault, full        first, if main is not full (the first eviction),
 *                      the window's LRU pages enter main (probation, then
 *                      protected) until it is, each counted; then
 *                      the window's LRU page w against main's victim m:
 *                      estimate(w) > estimate(m): m is evicted and w
 *                      enters main; otherwise w is evicted;
 *                      sketch += w; after a win the next window page
 *                      competes the same way (see Reference); then x to
 *                      the window's head, sketch += x
 *
 * Parameters (defaults: libCacheSim's WTinyLFU, window_size 0.01 and main
 * cache SLRU with segments 1:4)
 *   window_percent     W in percent of the frames, at least 1 page
 *   protected_percent  protected's share of main, in percent
 *
 * Reference: libCacheSim/cache/eviction/WTinyLFU.c, whose rules pagelab
 * follows where the paper leaves room: the window holds all of memory
 * until the first eviction, which fills main from the window's LRU end;
 * every page the eviction loop looks at is counted; and when a candidate
 * wins, the loop goes on with the next window page, so one fault can evict
 * several pages (1 + the wins in a row: reclaim_goal() predicts them; with
 * the window empty main evicts).  Misses are within 2.6% of libCacheSim's
 * (tests/libcachesim_diff.py at 106 and 404 frames: libCacheSim admits
 * nothing below 100 frames, its window being 1%, and splits main as
 * floor(M/5) : floor(4M/5), which must add up to M, else its SLRU evicts
 * during hits, see slru.c).  The rest is the sketch: libCacheSim hashes
 * object ids with xxHash, pagelab the page's dense id with SplitMix64, so
 * collisions (frequent once a trace has touched many more pages than main
 * holds) fall on other pages.  Window hits are not counted, as in
 * libCacheSim; the paper's W-TinyLFU, like Caffeine, counts every access
 * and keeps the window at W from the start.
 *
 * The sketch is not part of the snapshot: its counters belong to no page
 * (a collision changes several pages' estimates at once).
 *
 * Lists: window, probation, protected.  Counters: admitted (candidates
 * that beat main's victim), rejected, resets.
 * Cost per reference: O(1); a reset is O(M) once every 32 x M main hits.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "dlist.h"
#include "splitmix64.h"

enum { WINDOW, PROBATION, PROTECTED, NOWHERE };
enum { PARAM_WINDOW_PERCENT, PARAM_PROTECTED_PERCENT };
enum { ADMITTED, REJECTED, RESETS };
/* libCacheSim's sizing: a counting Bloom filter for M entries at a 0.1%
 * error rate has -ln(0.001) / ln(2)^2 = 14.38 counters per entry and
 * ceil(ln(2) x 14.38) = 10 hash functions. */
#define HASHES 10
#define COUNTERS_PER_THOUSAND_FRAMES 14378
#define SAMPLE_PER_FRAME 32

struct wtinylfu {
	struct pl_ctx *ctx;
	struct pl_links links;
	struct pl_dlist list[3];
	uint32_t max[3];	/* pages each list may hold */
	uint8_t *where;		/* [npages] */
	uint32_t *sketch;	/* [ncounters] */
	uint32_t ncounters;
	uint64_t main_hits, sample;
	uint64_t admitted, rejected, resets;
};

static void wtinylfu_destroy(void *state)
{
	struct wtinylfu *w = state;

	if (!w)
		return;
	pl_links_free(&w->links);
	free(w->where);
	free(w->sketch);
	free(w);
}

static void *wtinylfu_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct wtinylfu *w = calloc(1, sizeof(*w));
	size_t n = ctx->npages ? ctx->npages : 1;
	uint32_t main_size;

	if (w) {
		w->max[WINDOW] = (uint32_t)((uint64_t)ctx->frames *
					    ctx->params[PARAM_WINDOW_PERCENT] / 100);
		if (w->max[WINDOW] == 0)
			w->max[WINDOW] = 1;
		main_size = ctx->frames > w->max[WINDOW] ? ctx->frames - w->max[WINDOW] : 0;
		w->max[PROTECTED] = (uint32_t)((uint64_t)main_size *
					       ctx->params[PARAM_PROTECTED_PERCENT] / 100);
		w->max[PROBATION] = main_size - w->max[PROTECTED];
		w->ncounters = (uint32_t)(((uint64_t)main_size * COUNTERS_PER_THOUSAND_FRAMES +
					    999) / 1000);
		if (w->ncounters < 2 * HASHES)
			w->ncounters = 2 * HASHES;
		w->sample = (uint64_t)(main_size ? main_size : 1) * SAMPLE_PER_FRAME;
	}
	if (!w || pl_links_init(&w->links, ctx->npages) || !(w->where = malloc(n)) ||
	    !(w->sketch = calloc(w->ncounters, sizeof(*w->sketch)))) {
		wtinylfu_destroy(w);
		snprintf(err->msg, sizeof(err->msg), "wtinylfu: out of memory");
		return NULL;
	}
	memset(w->where, NOWHERE, n);
	w->ctx = ctx;
	for (int i = 0; i < 3; i++)
		pl_dlist_init(&w->list[i]);
	return w;
}

/* ------------------------------------------------------------ the sketch */

/* The i-th counter of a page: double hashing of one 64-bit mix. */
static uint32_t slot(const struct wtinylfu *w, uint64_t hash, unsigned i)
{
	return ((uint32_t)(hash >> 32) + i * (uint32_t)hash) % w->ncounters;
}

static uint64_t page_hash(uint32_t page)
{
	uint64_t state = page;

	return splitmix64_next(&state);
}

static uint32_t estimate(const struct wtinylfu *w, uint32_t page)
{
	uint64_t hash = page_hash(page);
	uint32_t min = UINT32_MAX;

	for (unsigned i = 0; i < HASHES; i++)
		if (w->sketch[slot(w, hash, i)] < min)
			min = w->sketch[slot(w, hash, i)];
	return min;
}

/* Minimal increment: only the counters at the minimum grow. */
static void count(struct wtinylfu *w, uint32_t page)
{
	uint64_t hash = page_hash(page);
	uint32_t min = estimate(w, page);

	if (min == UINT32_MAX)
		return;
	for (unsigned i = 0; i < HASHES; i++)
		if (w->sketch[slot(w, hash, i)] == min)
			w->sketch[slot(w, hash, i)]++;
}

static void count_main_hit(struct wtinylfu *w, uint32_t page)
{
	count(w, page);
	if (++w->main_hits < w->sample)
		return;
	w->main_hits = 0;
	w->resets++;
	for (uint32_t i = 0; i < w->ncounters; i++)
		w->sketch[i] >>= 1;
}

/* ------------------------------------------------------------- the lists */

static void move_to_head(struct wtinylfu *w, uint32_t page, unsigned to)
{
	unsigned from = w->where[page];

	pl_dlist_remove(&w->links, &w->list[from], page);
	pl_dlist_push_head(&w->links, &w->list[to], page);
	w->where[page] = (uint8_t)to;
	pl_emit_move(w->ctx, page, from, to, 0);
}

/* Into main: probation, or protected while probation is full. */
static void enter_main(struct wtinylfu *w, uint32_t page)
{
	move_to_head(w, page, w->list[PROBATION].len < w->max[PROBATION] ? PROBATION : PROTECTED);
}

static uint32_t main_victim(const struct wtinylfu *w)
{
	return w->list[PROBATION].len ? w->list[PROBATION].tail : w->list[PROTECTED].tail;
}

static void wtinylfu_hit(void *state, const struct pl_ref *ref)
{
	struct wtinylfu *w = state;
	uint32_t x = ref->page;
	unsigned in = w->where[x];

	if (in == WINDOW) {
		if (w->list[WINDOW].head != x)
			move_to_head(w, x, WINDOW);
		return;
	}
	count_main_hit(w, x);
	if (in == PROTECTED) {
		if (w->list[PROTECTED].head != x)
			move_to_head(w, x, PROTECTED);
		return;
	}
	move_to_head(w, x, PROTECTED);
	if (w->list[PROTECTED].len > w->max[PROTECTED])
		move_to_head(w, w->list[PROTECTED].tail, PROBATION);
}

static void wtinylfu_insert(void *state, const struct pl_ref *ref)
{
	struct wtinylfu *w = state;
	uint32_t x = ref->page;

	pl_dlist_push_head(&w->links, &w->list[WINDOW], x);
	w->where[x] = WINDOW;
	pl_emit_insert(w->ctx, x, WINDOW, 0);
	count(w, x);
}

static uint32_t main_len(const struct wtinylfu *w)
{
	return w->list[PROBATION].len + w->list[PROTECTED].len;
}

static uint32_t main_max(const struct wtinylfu *w)
{
	return w->max[PROBATION] + w->max[PROTECTED];
}

/*
 * The window's page that competes at this eviction, and main's victim.
 * Main is empty only at the first eviction: the window then holds all of
 * memory, and its LRU pages fill main first (probation, then protected);
 * the first of them, the window's tail, is then main's victim.
 */
static void contestants(const struct wtinylfu *w, uint32_t *candidate, uint32_t *main_page)
{
	uint32_t p = w->list[WINDOW].tail;

	if (main_len(w) > 0) {
		*candidate = p;
		*main_page = main_victim(w);
		return;
	}
	*main_page = p;
	for (uint32_t moved = 0; moved < main_max(w) && p != PL_NONE; moved++)
		p = w->links.link[p].prev;
	*candidate = p;
}

/* Does the candidate beat m?  m's count is one higher once it has been
 * spilled from the window into main (see wtinylfu_evict()). */
static bool beats(const struct wtinylfu *w, uint32_t candidate, uint32_t m)
{
	return estimate(w, candidate) > estimate(w, m) + (w->where[m] == WINDOW);
}

static uint32_t wtinylfu_victim(const void *state)
{
	const struct wtinylfu *w = state;
	uint32_t candidate, m;

	contestants(w, &candidate, &m);
	if (candidate == PL_NONE)
		return m != PL_NONE ? m : main_victim(w);
	if (m == PL_NONE || !beats(w, candidate, m))
		return candidate;
	return m;
}

#define MAX_CHAIN 64

/*
 * libCacheSim's eviction goes on after a candidate wins: the next window
 * page meets main's next victim, until a candidate loses (or the window
 * empties and main evicts).  So a fault evicts 1 + the number of wins in
 * a row.  Main's victims in such a chain are its lowest segment's pages
 * from the tail, then the winners in the order they entered (they enter
 * that segment once a victim has left it).  The chain is predicted from
 * the current estimates (the counts it adds on the way could change a
 * later comparison only through a hash collision) and cut at MAX_CHAIN.
 */
static uint32_t wtinylfu_reclaim_goal(const void *state, uint32_t resident)
{
	const struct wtinylfu *w = state;
	uint32_t candidate, m, winners[MAX_CHAIN], nwinners = 0, next_winner = 0;
	unsigned segment;

	if (resident < w->ctx->frames)
		return 0;
	contestants(w, &candidate, &m);
	segment = w->list[PROBATION].len || main_len(w) == 0 ? PROBATION : PROTECTED;
	for (;;) {
		if (candidate == PL_NONE || m == PL_NONE || !beats(w, candidate, m) ||
		    nwinners == MAX_CHAIN)
			return nwinners + 1;
		winners[nwinners++] = candidate;
		candidate = w->links.link[candidate].prev;
		if (m != PL_NONE && w->where[m] == segment && w->links.link[m].prev != PL_NONE &&
		    next_winner == 0)
			m = w->links.link[m].prev;
		else
			m = winners[next_winner++];
		if (w->max[PROBATION] == 0 && segment == PROBATION)
			segment = PROTECTED;
	}
}

static void wtinylfu_evict(void *state, uint32_t victim)
{
	struct wtinylfu *w = state;
	uint32_t candidate;
	unsigned from;

	while (main_len(w) < main_max(w) && w->list[WINDOW].len) {
		uint32_t spilled = w->list[WINDOW].tail;

		enter_main(w, spilled);
		count(w, spilled);	/* libCacheSim counts every page its loop looks at */
	}
	candidate = w->list[WINDOW].tail;
	from = w->where[victim];
	pl_dlist_remove(&w->links, &w->list[from], victim);
	w->where[victim] = NOWHERE;
	pl_emit_evict(w->ctx, victim, from);
	if (candidate == PL_NONE)
		return;
	if (victim != candidate) {
		w->admitted++;
		enter_main(w, candidate);
	} else {
		w->rejected++;
	}
	count(w, candidate);
}

static void wtinylfu_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct wtinylfu *w = state;

	for (unsigned l = WINDOW; l <= PROTECTED; l++)
		for (uint32_t p = w->list[l].head; p != PL_NONE; p = w->links.link[p].next)
			pl_snapshot_push(out, l, p, NULL);
}

static void wtinylfu_read_counters(const void *state, uint64_t *counters)
{
	const struct wtinylfu *w = state;

	counters[ADMITTED] = w->admitted;
	counters[REJECTED] = w->rejected;
	counters[RESETS] = w->resets;
}

static const struct pl_param wtinylfu_params[] = {
	[PARAM_WINDOW_PERCENT] = {
		.name = "window_percent",
		.help = "size of the LRU window in percent of the frames, at least 1 page "
			"(libCacheSim: 1)",
		.def = 1, .min = 0, .max = 99,
	},
	[PARAM_PROTECTED_PERCENT] = {
		.name = "protected_percent",
		.help = "the protected segment's share of main, in percent (libCacheSim: 80)",
		.def = 80, .min = 0, .max = 100,
	},
};

static const char *const wtinylfu_lists[] = {
	[WINDOW] = "window", [PROBATION] = "probation", [PROTECTED] = "protected",
};
static const char *const wtinylfu_counters[] = {
	[ADMITTED] = "admitted", [REJECTED] = "rejected", [RESETS] = "resets",
};

const struct pl_policy_ops pl_policy_wtinylfu = {
	.name = "wtinylfu",
	.title = "W-TinyLFU",
	.help = "A small LRU window in front of an SLRU main cache; a page leaving the window "
		"enters main only if a frequency sketch counts it more often than main's victim.",
	.params = wtinylfu_params,
	.nparams = 2,
	.lists = wtinylfu_lists,
	.nlists = 3,
	.counters = wtinylfu_counters,
	.ncounters = 3,
	.create = wtinylfu_create,
	.destroy = wtinylfu_destroy,
	.hit = wtinylfu_hit,
	.insert = wtinylfu_insert,
	.reclaim_goal = wtinylfu_reclaim_goal,
	.victim = wtinylfu_victim,
	.evict = wtinylfu_evict,
	.snapshot = wtinylfu_snapshot,
	.read_counters = wtinylfu_read_counters,
};
