/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lecar.c - LeCaR, Learning Cache Replacement (G. Vietri, L. V. Rodriguez,
 * W. A. Martinez, S. Lyons, J. Liu, R. Rangaswami, M. Zhao and G.
 * Narasimhan, "Driving Cache Replacement with ML-based LeCaR", HotStorage
 * 2018, Algorithm 1).
 *
 * Two experts propose a victim, LRU (the least recently used page) and LFU
 * (the least frequently used, oldest at that frequency first); LeCaR picks
 * one at random with probabilities w_lru and w_lfu = 1 - w_lru and
 * remembers the page in that expert's history.  A fault on a page in an
 * expert's history means the expert chose badly: its weight is multiplied
 * by exp(-lr x dr^t), t the references since that eviction, and the two
 * weights are normalised (regret minimisation).
 *
 *   cache:  [most recent ............ least recent]  each page: freq
 *            LRU expert: the tail   LFU expert: lowest freq, oldest first
 *   h_lru:  [newest .. oldest] ghosts evicted on LRU's advice  (at most c/2)
 *   h_lfu:  [newest .. oldest] ghosts evicted on LFU's advice  (at most c/2)
 *
 * Transitions (x the referenced page)
 *   hit                x to the cache's head, freq(x) += 1
 *   fault, x in h_lru  w_lru *= exp(-lr dr^t), normalise; x leaves h_lru
 *   fault, x in h_lfu  w_lfu *= exp(-lr dr^t), normalise; x leaves h_lfu
 *   fault, full        the experts' candidates; if they are the same page
 *                      it is evicted and remembered nowhere; else draw
 *                      r in {0, 0.01, .., 0.99}: r < w_lru evicts LRU's
 *                      candidate into h_lru, else LFU's into h_lfu (the
 *                      oldest ghost goes when a history exceeds c/2)
 *   then               x to the cache's head with freq 1
 *
 * Parameters (defaults: libCacheSim's LeCaR: lr 0.45, dr = 0.005^(1/c),
 * weights 0.5 each)
 *   learning_rate_percent  lr x 100
 *   seed                   of the random draws (SplitMix64)
 *
 * Reference: libCacheSim/cache/eviction/LeCaR.c with unit-size pages.  The
 * draws are random in both and come from different generators, so misses
 * are compared within 2% (tests/libcachesim_diff.py); the rules are the
 * same.
 *
 * The weights belong to the policy, not to a page: they are its variables
 * w_lru and w_lfu, in thousandths (rounded), in the snapshot, with a
 * VARIABLE event whenever a regret changes one's thousandths; the counters
 * w_lru_permille and w_lfu_permille give the same figures.  Like every
 * snapshot before the first reference, LeCaR's is empty then (weights 0):
 * the first reference sets them to their starting 500 each, with events.
 *
 * Lists: cache, h_lru (ghost), h_lfu (ghost).  Fields: freq.
 * Variables: w_lru, w_lfu (thousandths).
 * Counters: w_lru_permille, w_lfu_permille, lru_regrets, lfu_regrets.
 * Cost per reference: O(1): frequency buckets (a list of pages per
 * frequency, the buckets in a list by frequency) as in O(1) LFU; a page
 * alone in its bucket takes the bucket along as its frequency grows.  A
 * hit touches the page's one record (struct lecar_page) and its
 * neighbours; the weights are computed once per fault on a ghost.
 * Beyond lru's work: a hit also moves the page to the next frequency's
 * bucket (a second list); a fault draws a random number, asks both
 * experts (lru's tail and the lowest bucket's oldest page), pushes the
 * victim into its expert's ghost list and forgets that list's oldest, and
 * on a ghost computes two exponentials for the weights.  Each eviction
 * requests what the next one will touch (prefetch_next_eviction()), as no
 * reference ahead names it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "dlist.h"
#include "splitmix64.h"

enum { CACHE, H_LRU, H_LFU, NOWHERE };
enum { FREQ };
enum { PARAM_LEARNING_RATE, PARAM_SEED };
enum { W_LRU_PERMILLE, W_LFU_PERMILLE, LRU_REGRETS, LFU_REGRETS };
enum { VAR_W_LRU, VAR_W_LFU };

struct bucket {
	uint32_t freq;
	uint32_t prev, next;	/* buckets, by frequency */
	struct pl_dlist pages;	/* oldest at the head */
};

/*
 * What a hit reads and writes, in one 20-byte record: the page's place in
 * the cache and in its bucket, and its bucket (whose frequency is the
 * page's).  A ghost uses only `link` and, as `evicted_at`, the field
 * `bucket`.  Which list a page is in is apart, in a byte: only a fault asks.
 */
struct lecar_page {
	struct pl_link link;		/* in cache, h_lru or h_lfu */
	struct pl_link in_bucket;	/* in cache: among its bucket's pages */
	uint32_t bucket;		/* in cache: its bucket; a ghost: evicted_at, */
					/* `now` when it was evicted */
};

/*
 * The weights once a fault on a ghost has been learnt from: victim()
 * computes them to draw, evict() to keep them; computed once (see memo).
 */
struct learnt {
	uint32_t page, now;		/* the faulting page, at `now` (page PL_NONE: none) */
	double w_lru, w_lfu;
};

struct lecar {
	struct pl_ctx *ctx;
	struct lecar_page *page;	/* [npages] */
	uint8_t *where;			/* [npages] */
	struct pl_dlist list[3];
	struct bucket *bucket;		/* [frames + 2] */
	uint32_t first_bucket, free_bucket;
	struct learnt *memo;		/* victim()'s weights, for evict() */
	double w_lru, w_lfu, lr, dr;
	uint64_t rng;
	uint32_t now;			/* references seen before the current one:
					 * LeCaR's clock (libCacheSim's n_req) */
	uint32_t history_max;
	uint64_t regrets[2];
};

static inline struct pl_record_links links(const struct lecar *l)
{
	return PL_RECORD_LINKS(l->page, link);
}

static inline struct pl_record_links bucket_links(const struct lecar *l)
{
	return PL_RECORD_LINKS(l->page, in_bucket);
}

static void lecar_destroy(void *state)
{
	struct lecar *l = state;

	if (!l)
		return;
	free(l->page);
	free(l->where);
	free(l->bucket);
	free(l->memo);
	free(l);
}

static void *lecar_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lecar *l = calloc(1, sizeof(*l));
	size_t n = ctx->npages ? ctx->npages : 1;
	uint32_t nbuckets = ctx->frames + 2;

	if (!l || !(l->page = calloc(n, sizeof(*l->page))) || !(l->where = malloc(n)) ||
	    !(l->bucket = calloc(nbuckets, sizeof(*l->bucket))) ||
	    !(l->memo = malloc(sizeof(*l->memo)))) {
		lecar_destroy(l);
		snprintf(err->msg, sizeof(err->msg), "lecar: out of memory");
		return NULL;
	}
	memset(l->where, NOWHERE, n);
	l->memo->page = PL_NONE;
	l->ctx = ctx;
	for (int i = 0; i < 3; i++)
		pl_dlist_init(&l->list[i]);
	/* free buckets chained through next */
	for (uint32_t b = 0; b < nbuckets; b++)
		l->bucket[b].next = b + 1 < nbuckets ? b + 1 : PL_NONE;
	l->free_bucket = 0;
	l->first_bucket = PL_NONE;
	l->w_lru = l->w_lfu = 0.5;
	l->lr = (double)ctx->params[PARAM_LEARNING_RATE] / 100;
	l->dr = pow(0.005, 1.0 / (ctx->frames ? ctx->frames : 1));
	l->rng = (uint64_t)ctx->params[PARAM_SEED];
	l->history_max = ctx->frames / 2;
	return l;
}

/* ------------------------------------------------- frequency buckets */

/* A bucket of frequency `freq` right after bucket `after` (PL_NONE: first). */
static uint32_t bucket_after(struct lecar *l, uint32_t after, uint32_t freq)
{
	uint32_t next = after == PL_NONE ? l->first_bucket : l->bucket[after].next;
	uint32_t b;

	if (next != PL_NONE && l->bucket[next].freq == freq)
		return next;
	b = l->free_bucket;
	l->free_bucket = l->bucket[b].next;
	l->bucket[b].freq = freq;
	pl_dlist_init(&l->bucket[b].pages);
	l->bucket[b].prev = after;
	l->bucket[b].next = next;
	if (next != PL_NONE)
		l->bucket[next].prev = b;
	if (after != PL_NONE)
		l->bucket[after].next = b;
	else
		l->first_bucket = b;
	return b;
}

static void leave_bucket(struct lecar *l, uint32_t page)
{
	uint32_t b = l->page[page].bucket;
	struct bucket *bk = &l->bucket[b];

	pl_rdlist_remove(bucket_links(l), &bk->pages, page);
	if (bk->pages.len)
		return;
	if (bk->prev != PL_NONE)
		l->bucket[bk->prev].next = bk->next;
	else
		l->first_bucket = bk->next;
	if (bk->next != PL_NONE)
		l->bucket[bk->next].prev = bk->prev;
	bk->next = l->free_bucket;
	l->free_bucket = b;
}

static void join_bucket(struct lecar *l, uint32_t page, uint32_t b)
{
	pl_rdlist_push_tail(bucket_links(l), &l->bucket[b].pages, page);
	l->page[page].bucket = b;
}

/*
 * A page's frequency grows by one (a SET): to the bucket of the next
 * frequency, at its tail -- or, alone in its bucket with no bucket of the
 * next frequency, it stays and the bucket's frequency grows (the common
 * case of a frequently used page, with no list to touch).
 */
static void next_bucket(struct lecar *l, uint32_t page)
{
	uint32_t b = l->page[page].bucket, freq = l->bucket[b].freq + 1;
	uint32_t next = l->bucket[b].next;

	pl_emit_set(l->ctx, page, FREQ, (int32_t)freq - 1, (int32_t)freq);
	if (l->bucket[b].pages.len == 1 && (next == PL_NONE || l->bucket[next].freq != freq)) {
		l->bucket[b].freq = freq;
		return;
	}
	next = bucket_after(l, b, freq);
	leave_bucket(l, page);
	join_bucket(l, page, next);
}

/* ----------------------------------------------------------- the policy */

static void lecar_hit(void *state, const struct pl_ref *ref)
{
	struct lecar *l = state;
	uint32_t x = ref->page;

	next_bucket(l, x);
	if (l->list[CACHE].head != x) {
		pl_rdlist_move_to_head(links(l), &l->list[CACHE], x);
		pl_emit_move(l->ctx, x, CACHE, CACHE, 0);
	}
	l->now++;
}

/*
 * References ahead (policy.h, "Prefetching"): the far page's record and
 * list byte; for the near page, its neighbours in the cache and in its
 * bucket and its bucket, which a hit touches; and the experts' next
 * candidates, the cache's tail and the first bucket's oldest page.  A
 * missing page is replaced by the near one (already near), so that every
 * call names as many addresses and the driver's requests need no loop.
 */
static void lecar_prefetch(const void *state, uint32_t far, uint32_t near,
			   struct pl_prefetch *out)
{
	const struct lecar *l = state;
	struct lecar_page pg = l->page[near];
	uint32_t first = l->first_bucket != PL_NONE ? l->first_bucket : 0;
	/* a ghost's `bucket` is its eviction time, not a bucket */
	uint32_t bucket = l->where[near] == CACHE ? pg.bucket : first;

	pl_prefetch_record(out, &l->page[far], sizeof(*l->page));
	pl_prefetch(out, &l->where[far]);
	pl_prefetch(out, &l->page[pl_page_or(pg.link.prev, near)].link);
	pl_prefetch(out, &l->page[pl_page_or(pg.link.next, near)].link);
	pl_prefetch(out, &l->page[pl_page_or(pg.in_bucket.prev, near)].in_bucket);
	pl_prefetch(out, &l->page[pl_page_or(pg.in_bucket.next, near)].in_bucket);
	pl_prefetch(out, &l->bucket[bucket]);
	pl_prefetch(out, &l->page[pl_page_or(l->list[CACHE].tail, near)]);
	pl_prefetch(out, &l->page[pl_page_or(l->bucket[first].pages.head, near)]);
}

static uint32_t lfu_candidate(const struct lecar *l)
{
	return l->bucket[l->first_bucket].pages.head;
}

/*
 * w_lru once the fault on x has been learnt from (libCacheSim updates the
 * weights on the lookup, before it evicts): a fault on a ghost shrinks its
 * expert's weight by exp(-lr dr^t), t the references since its eviction.
 * victim() and then evict() ask for the same fault: the second time, the
 * weights come from the memo (memory *l points to, so victim() may fill it).
 */
static void weights_after(const struct lecar *l, uint32_t x, double *w_lru, double *w_lfu)
{
	unsigned ghost = l->where[x];
	struct learnt *memo = l->memo;
	double bad, good, s;

	*w_lru = l->w_lru;
	*w_lfu = l->w_lfu;
	if (ghost != H_LRU && ghost != H_LFU)
		return;
	if (memo->page == x && memo->now == l->now) {
		*w_lru = memo->w_lru;
		*w_lfu = memo->w_lfu;
		return;
	}
	bad = ghost == H_LRU ? l->w_lru : l->w_lfu;
	good = ghost == H_LRU ? l->w_lfu : l->w_lru;
	bad = bad * exp(-l->lr * pow(l->dr, (double)(l->now - l->page[x].bucket))) + 1e-10;
	s = bad + good + 2e-10;
	*(ghost == H_LRU ? w_lru : w_lfu) = bad / s;
	*(ghost == H_LRU ? w_lfu : w_lru) = (good + 1e-10) / s;
	*memo = (struct learnt){ .page = x, .now = l->now, .w_lru = *w_lru, .w_lfu = *w_lfu };
}

/* The draw r < w_lru, from a copy of the generator (victim() peeks). */
static bool lru_drawn(uint64_t rng, double w_lru)
{
	return (double)(splitmix64_next(&rng) % 100) / 100.0 < w_lru;
}

static uint32_t lecar_victim(const void *state)
{
	const struct lecar *l = state;
	uint32_t lru = l->list[CACHE].tail, lfu = lfu_candidate(l);
	double w_lru, w_lfu;

	if (lru == lfu)
		return lru;
	weights_after(l, l->ctx->faulting, &w_lru, &w_lfu);
	return lru_drawn(l->rng, w_lru) ? lru : lfu;
}

static void forget(struct lecar *l, uint32_t page, unsigned ghost)
{
	pl_rdlist_remove(links(l), &l->list[ghost], page);
	l->where[page] = NOWHERE;
	pl_emit_remove(l->ctx, page, ghost);
}

/* A weight as the snapshot shows it: thousandths, rounded. */
static int32_t permille(double w)
{
	return (int32_t)(w * 1000 + 0.5);
}

static void set_weight(struct lecar *l, unsigned variable, double *w, double to)
{
	int32_t from = permille(*w);

	if (permille(to) != from)
		pl_emit_variable(l->ctx, variable, from, permille(to));
	*w = to;
}

/* The first reference: the weights appear (the empty snapshot has 0). */
static void start(struct lecar *l)
{
	pl_emit_variable(l->ctx, VAR_W_LRU, 0, permille(l->w_lru));
	pl_emit_variable(l->ctx, VAR_W_LFU, 0, permille(l->w_lfu));
}

/* A fault on a ghost: its expert's weight shrinks, and the ghost goes. */
static void regret(struct lecar *l, uint32_t x)
{
	unsigned ghost = l->where[x];
	double w_lru, w_lfu;

	weights_after(l, x, &w_lru, &w_lfu);
	set_weight(l, VAR_W_LRU, &l->w_lru, w_lru);
	set_weight(l, VAR_W_LFU, &l->w_lfu, w_lfu);
	l->memo->page = PL_NONE;	/* learnt from: the weights it was made of are gone */
	l->regrets[ghost - H_LRU]++;
	forget(l, x, ghost);
}

/* The victim, evicted on its expert's advice (ghost) or on both's (NOWHERE). */
static void evict_into(struct lecar *l, uint32_t victim, unsigned ghost)
{
	leave_bucket(l, victim);
	pl_rdlist_remove(links(l), &l->list[CACHE], victim);
	l->where[victim] = NOWHERE;
	pl_emit_evict(l->ctx, victim, CACHE);
	if (ghost == NOWHERE || l->history_max == 0)
		return;
	pl_rdlist_push_head(links(l), &l->list[ghost], victim);
	l->where[victim] = (uint8_t)ghost;
	l->page[victim].bucket = l->now;	/* evicted_at */
	pl_emit_insert(l->ctx, victim, ghost, 0);
	if (l->list[ghost].len > l->history_max)
		forget(l, l->list[ghost].tail, ghost);
}

/*
 * Requests what the next fault touches that no reference ahead names: of
 * either expert's candidate, its record's lines (the candidate after it,
 * the other list's neighbours, which its eviction relinks) and its
 * residency byte, which the driver reads; of each history's oldest ghost,
 * its neighbour and list byte, which forgetting it writes.  The candidates'
 * and the oldest ghosts' own records were touched by this eviction or an
 * earlier one (their neighbour left), so reading them here does not wait.
 * Hints only; without them the next fault's eviction waits on 3-5 cache
 * misses in turn.  Always inline: a call that only reads and prefetches
 * counts as free of effects, and the compiler drops it.
 */
static inline __attribute__((always_inline)) void prefetch_next_eviction(const struct lecar *l)
{
	uint32_t lru = l->list[CACHE].tail, lfu = lfu_candidate(l);
	struct lecar_page t = l->page[lru], f = l->page[lfu];

	pl_request_line(&l->page[pl_page_or(t.link.prev, lru)], 1);
	pl_request_line(&l->page[pl_page_or(t.in_bucket.prev, lru)].in_bucket, 1);
	pl_request_line(&l->page[pl_page_or(t.in_bucket.next, lru)].in_bucket, 1);
	pl_prefetch_state(l->ctx, lru);
	pl_request_line(&l->page[pl_page_or(f.in_bucket.next, lfu)], 1);
	pl_request_line(&l->page[pl_page_or(f.link.prev, lfu)].link, 1);
	pl_request_line(&l->page[pl_page_or(f.link.next, lfu)].link, 1);
	pl_prefetch_state(l->ctx, lfu);
	for (unsigned ghost = H_LRU; ghost <= H_LFU; ghost++) {
		uint32_t oldest = l->list[ghost].tail;

		if (oldest == PL_NONE)
			continue;
		pl_request_line(&l->page[pl_page_or(l->page[oldest].link.prev, oldest)].link, 1);
		pl_request_line(&l->where[oldest], 1);
	}
}

static void lecar_evict(void *state, uint32_t victim)
{
	struct lecar *l = state;
	uint32_t x = l->ctx->faulting, lru = l->list[CACHE].tail;
	unsigned ghost;

	if (l->where[x] == H_LRU || l->where[x] == H_LFU)
		regret(l, x);
	ghost = victim == lfu_candidate(l) && victim == lru ? NOWHERE :
		victim == lru ? H_LRU : H_LFU;
	if (ghost != NOWHERE)
		splitmix64_next(&l->rng);	/* the draw victim() peeked at */
	evict_into(l, victim, ghost);
	if (l->list[CACHE].len)
		prefetch_next_eviction(l);
}

static void lecar_insert(void *state, const struct pl_ref *ref)
{
	struct lecar *l = state;
	uint32_t x = ref->page;

	if (l->now == 0)	/* the first reference always faults */
		start(l);
	if (l->where[x] == H_LRU || l->where[x] == H_LFU)	/* memory was not full */
		regret(l, x);
	pl_rdlist_push_head(links(l), &l->list[CACHE], x);
	l->where[x] = CACHE;
	pl_emit_insert(l->ctx, x, CACHE, 0);
	join_bucket(l, x, bucket_after(l, PL_NONE, 1));
	pl_emit_set(l->ctx, x, FREQ, 0, 1);
	l->now++;
}

static void lecar_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct lecar *l = state;

	for (unsigned list = CACHE; list <= H_LFU; list++) {
		for (uint32_t p = l->list[list].head; p != PL_NONE; p = l->page[p].link.next) {
			int32_t freq = list == CACHE ? (int32_t)l->bucket[l->page[p].bucket].freq : 0;

			pl_snapshot_push(out, list, p, &freq);
		}
	}
	if (l->now == 0)
		return;		/* before the first reference: empty */
	pl_snapshot_set_variable(out, VAR_W_LRU, permille(l->w_lru));
	pl_snapshot_set_variable(out, VAR_W_LFU, permille(l->w_lfu));
}

static void lecar_read_counters(const void *state, uint64_t *counters)
{
	const struct lecar *l = state;

	counters[W_LRU_PERMILLE] = (uint64_t)permille(l->w_lru);
	counters[W_LFU_PERMILLE] = (uint64_t)permille(l->w_lfu);
	counters[LRU_REGRETS] = l->regrets[0];
	counters[LFU_REGRETS] = l->regrets[1];
}

static const struct pl_param lecar_params[] = {
	[PARAM_LEARNING_RATE] = {
		.name = "learning_rate_percent",
		.help = "lr x 100, how fast a regret shrinks an expert's weight (libCacheSim: 45)",
		.def = 45, .min = 0, .max = 1000,
	},
	[PARAM_SEED] = {
		.name = "seed",
		.help = "seed of the random choice between the experts",
		.def = 1, .min = 0, .max = INT64_MAX,
	},
};

static const char *const lecar_lists[] = { [CACHE] = "cache", [H_LRU] = "h_lru", [H_LFU] = "h_lfu" };
static const char *const lecar_fields[] = { [FREQ] = "freq" };
static const char *const lecar_counters[] = {
	[W_LRU_PERMILLE] = "w_lru_permille", [W_LFU_PERMILLE] = "w_lfu_permille",
	[LRU_REGRETS] = "lru_regrets", [LFU_REGRETS] = "lfu_regrets",
};
static const char *const lecar_variables[] = { [VAR_W_LRU] = "w_lru", [VAR_W_LFU] = "w_lfu" };

const struct pl_policy_ops pl_policy_lecar = {
	.name = "lecar",
	.title = "LeCaR (Learning Cache Replacement)",
	.help = "Evicts on the advice of LRU or LFU, chosen at random by weights it learns: a "
		"fault on a page an expert evicted (its history) lowers that expert's weight.",
	.params = lecar_params,
	.nparams = 2,
	.lists = lecar_lists,
	.nlists = 3,
	.ghost_lists = 1u << H_LRU | 1u << H_LFU,
	.fields = lecar_fields,
	.nfields = 1,
	.counters = lecar_counters,
	.ncounters = 4,
	.variables = lecar_variables,
	.nvariables = 2,
	.create = lecar_create,
	.destroy = lecar_destroy,
	.hit = lecar_hit,
	.insert = lecar_insert,
	.victim = lecar_victim,
	.evict = lecar_evict,
	.prefetch = lecar_prefetch,
	.snapshot = lecar_snapshot,
	.read_counters = lecar_read_counters,
};
