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
 * recently: a counting Bloom filter sized as libCacheSim sizes it (10 hash
 * functions over ceil(14.38 M) counters); every counter is halved after
 * 32 x M hits in main ("reset" keeps the history recent).  A page's
 * estimate is the minimum of its 10 counters; collisions can only
 * overestimate.  The paper counts by minimal increment (only the counters
 * at the minimum grow); libCacheSim 0.3.5's minimalIncrementCBF grows all
 * of them (its test of the minimum guards only a debug print, checked
 * through its exported functions), and so does pagelab by default
 * (`conservative=1` gives the paper's).  Counters are 16-bit here and stop
 * at 65535 (libCacheSim's at 2^32 - 1), so that the sketch is half as large
 * (1.9 MB at 64K frames, against a 2 MB L2 cache): equal counts unless one
 * reaches 65535 (not on the 10M-reference zipf benchmark: equal misses).
 * A cheaper sketch (one cache line per page) was measured and left out:
 * see "Cost" below.
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
 *                      sketch += w; then x to the window's head,
 *                      sketch += x
 *
 * Parameters (defaults: libCacheSim's WTinyLFU, window_size 0.01 and main
 * cache SLRU with segments 1:4)
 *   window_percent     W in percent of the frames, at least 1 page
 *   protected_percent  protected's share of main, in percent
 *   conservative       1: the paper's minimal increment, 0: libCacheSim's
 *
 * Reference: libCacheSim/cache/eviction/WTinyLFU.c as built into the
 * Python bindings 0.3.5, whose rules pagelab follows where the paper
 * leaves room: the window holds all of memory until the first eviction,
 * which fills main from the window's LRU end; every page the eviction
 * looks at is counted; window hits are not counted; one eviction per
 * fault (the source on GitHub goes on after a win; the 0.3.5 build stops,
 * measured: a model of each against its misses).  The sketch hashes the
 * trace's page number as libCacheSim hashes an object id: the low 32 bits
 * of XXH64 with its seeds 0x12345678 (a) and 0x12344321 (b), the i-th
 * counter being (a + i b) mod counters in 32-bit arithmetic.  So the
 * misses are equal to libCacheSim's (tests/libcachesim_diff.py, at 106,
 * 404 and 1000 frames).  Elsewhere they differ where libCacheSim's sizes
 * do: below 100 frames its window is empty and it admits nothing, and its
 * main SLRU is split floor(M/5) : floor(4M/5), which must add up to M, else
 * its SLRU evicts during hits (see slru.c).  The paper's W-TinyLFU, like
 * Caffeine, also counts window hits and keeps the window at W from the
 * start.
 *
 * Snapshot: each resident page's field `estimate` is the sketch's estimate
 * of it, what the contest compares.  A count changes the estimate of every
 * resident page sharing one of its counters, so while recording the policy
 * keeps, per counter, the resident pages hashed there, to emit those SETs.
 *
 * Lists: window, probation, protected.  Counters: admitted (candidates
 * that beat main's victim), rejected, resets.
 * Cost per reference: O(1); a reset is O(M) once every 32 x M main hits.
 * The sketch is most of it: 10 counters in as many cache lines per
 * estimate or count, one per main hit and four per fault.  A count-min
 * sketch with its counters in one 64-byte block per page costs one line,
 * but no sketch other than libCacheSim's own keeps its misses within 2%
 * on every trace of tests/libcachesim_diff.py: on the loops trace at 404
 * frames, where most contests are ties that collisions decide, a blocked
 * sketch missed 8.8% more, and libCacheSim's own with one seed bit changed
 * 9.95% more (the ties fall otherwise), so the exact sketch stays.
 * Beyond lru's work: the sketch (above: 10 counters, each index a
 * multiply, per main hit, and four counts or estimates per fault), a move
 * within or between three lists on a hit, and per fault the window's
 * overflow into probation and, main being full, the admission contest.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "dlist.h"

enum { WINDOW, PROBATION, PROTECTED, NOWHERE };
enum { PARAM_WINDOW_PERCENT, PARAM_PROTECTED_PERCENT, PARAM_CONSERVATIVE };
enum { ADMITTED, REJECTED, RESETS };
enum { FIELD_ESTIMATE };
/*
 * libCacheSim's sizing: a counting Bloom filter for M entries at a 0.1%
 * error rate has -ln(0.001) / ln(2)^2 = 14.38 counters per entry, rounded
 * up over M, and ceil(ln(2) x 14.38) = 10 hash functions.
 */
#define ERROR_RATE 0.001
#define LN2_SQUARED 0.480453013918201
#define HASHES 10
#define SAMPLE_PER_FRAME 32

/*
 * What a reference to a page reads: its place in its list and its two
 * hashes, in one 16-byte record (its list number is apart, in a byte).
 */
struct wtinylfu_page {
	struct pl_link link;	/* in window, probation or protected */
	uint32_t a, b;		/* the low halves of its two XXH64 hashes */
};

struct wtinylfu {
	struct pl_ctx *ctx;
	struct wtinylfu_page *page;	/* [npages], hashes computed at create */
	struct pl_dlist list[3];
	uint32_t max[3];	/* pages each list may hold */
	uint8_t *where;		/* [npages] */
	uint16_t *sketch;	/* [ncounters] */
	uint32_t ncounters;
	uint64_t magic;		/* for fast_mod() by ncounters */
	bool conservative;
	uint16_t (*spill_before)[HASHES];	/* [main's size + 1] see count_undoably() */
	/* While recording (see the header): */
	int32_t *shown;		/* [npages] each resident page's estimate as last emitted */
	uint32_t *chain;	/* [ncounters] first node hashed there, or PL_NONE */
	uint32_t *node_next, *node_prev;	/* [npages x HASHES]: node page x HASHES + i */
	uint64_t main_hits, sample;
	uint64_t admitted, rejected, resets;
};

static inline struct pl_record_links links(const struct wtinylfu *w)
{
	return PL_RECORD_LINKS(w->page, link);
}

/* ------------------------------------------------------------ the sketch */

/*
 * XXH64 (Y. Collet's xxHash, 64-bit variant) of one 8-byte little-endian
 * key, written from its specification: the hash libCacheSim computes of an
 * object id, twice with two seeds, to place it in its filter.
 */
#define XXH_PRIME64_1 0x9E3779B185EBCA87ull
#define XXH_PRIME64_2 0xC2B2AE3D27D4EB4Full
#define XXH_PRIME64_3 0x165667B19E3779F9ull
#define XXH_PRIME64_4 0x85EBCA77C2B2AE63ull
#define XXH_PRIME64_5 0x27D4EB2F165667C5ull

static uint64_t rotl64(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

static uint64_t xxh64_of_u64(uint64_t key, uint64_t seed)
{
	uint64_t h = seed + XXH_PRIME64_5 + 8;

	h ^= rotl64(key * XXH_PRIME64_2, 31) * XXH_PRIME64_1;
	h = rotl64(h, 27) * XXH_PRIME64_1 + XXH_PRIME64_4;
	h ^= h >> 33;
	h *= XXH_PRIME64_2;
	h ^= h >> 29;
	h *= XXH_PRIME64_3;
	return h ^ h >> 32;
}

/* Counters for a main of M pages, computed as libCacheSim computes them. */
static uint32_t counters_for(uint32_t main_size)
{
	double per_entry = -log(ERROR_RATE) / LN2_SQUARED;
	double n = ceil(per_entry * main_size);

	if (n > INT32_MAX)
		n = INT32_MAX;
	return n < HASHES ? 2 * HASHES : (uint32_t)n;
}

/* libCacheSim's HASH_SEED0 and HASH_SEED1 (dataStructure/hash/hash.h). */
#define SEED_A 0x12345678u
#define SEED_B 0x12344321u

/*
 * x mod d for 32-bit x and d without a division (D. Lemire, O. Kaser and
 * N. Kurz, "Faster remainder by direct computation", 2019): exact for
 * every 32-bit x, with magic = floor((2^64 - 1) / d) + 1.  It is the top 64
 * bits of the product (magic x mod 2^64) d.  A 64-bit CPU has a multiply
 * for them (unsigned __int128); WebAssembly has none, and the library call
 * made that policy run at a fifth of its native speed, so there they are
 * taken in two 64-bit multiplies (20% slower natively, measured): with
 * fraction = hi 2^32 + lo, they are (hi d + (lo d >> 32)) >> 32, and
 * hi d + (lo d >> 32) <= (2^32 - 1)^2 + 2^32 - 1 < 2^64 does not overflow.
 */
static uint32_t fast_mod(uint32_t x, uint64_t magic, uint32_t d)
{
	uint64_t fraction = magic * x;

#ifdef __wasm__
	return (uint32_t)(((fraction >> 32) * d + ((fraction & UINT32_MAX) * d >> 32)) >> 32);
#else
	return (uint32_t)(((unsigned __int128)fraction * d) >> 64);
#endif
}

/*
 * A page's counters: the i-th is (a + i b) mod counters in 32-bit
 * arithmetic.  Computed into an array first, from locals, so that the
 * counters' loads (most of them cache misses) can all be under way at once.
 */
static void slots(const struct wtinylfu *w, uint32_t page, uint32_t at[HASHES])
{
	uint32_t a = w->page[page].a, b = w->page[page].b, n = w->ncounters;
	uint64_t magic = w->magic;

	for (unsigned i = 0; i < HASHES; i++)
		at[i] = fast_mod(a + i * b, magic, n);
}

static uint32_t least(const uint16_t *sketch, const uint32_t at[HASHES])
{
	uint32_t min = UINT16_MAX;

	for (unsigned i = 0; i < HASHES; i++)
		min = sketch[at[i]] < min ? sketch[at[i]] : min;
	return min;
}

/* One loop, not slots() + least(): the hot path of every contest. */
static uint32_t estimate(const struct wtinylfu *w, uint32_t page)
{
	uint32_t x = w->page[page].a, b = w->page[page].b, min = UINT16_MAX;

#pragma GCC unroll 10	/* HASHES: GCC -O2 keeps the loop, 3 of each 10 instructions */
	for (unsigned i = 0; i < HASHES; i++, x += b) {
		uint32_t v = w->sketch[fast_mod(x, w->magic, w->ncounters)];

		min = v < min ? v : min;
	}
	return min;
}

/* One more reference to page: its counters grow (see `conservative`), but not past UINT16_MAX. */
static void count(const struct wtinylfu *w, uint32_t page)
{
	uint32_t at[HASHES], min, x = w->page[page].a, b = w->page[page].b;
	uint16_t *sketch = w->sketch;

	if (!w->conservative) {
		/* every counter grows; the minimum only guards overflow */
#pragma GCC unroll 10	/* HASHES */
		for (unsigned i = 0; i < HASHES; i++, x += b) {
			uint16_t *c = &sketch[fast_mod(x, w->magic, w->ncounters)];

			*c += *c != UINT16_MAX;
		}
		return;
	}
	slots(w, page, at);
	min = least(sketch, at);
	for (unsigned i = 0; i < HASHES; i++)
		if (sketch[at[i]] == min && min != UINT16_MAX)
			sketch[at[i]]++;
}

/*
 * victim() counts and uncounts (the sketch is memory *w points to): the
 * counters' values before a count, and those values put back, in the
 * reverse order of the counts, restore the sketch exactly (whichever grew,
 * whether two of a page's counters are one).
 */
static void count_undoably(const struct wtinylfu *w, uint32_t page, uint16_t before[HASHES])
{
	uint32_t at[HASHES];

	slots(w, page, at);
	for (unsigned i = 0; i < HASHES; i++)
		before[i] = w->sketch[at[i]];
	count(w, page);
}

static void uncount(const struct wtinylfu *w, uint32_t page, const uint16_t before[HASHES])
{
	uint32_t at[HASHES];

	slots(w, page, at);
	for (unsigned i = HASHES; i-- > 0;)
		w->sketch[at[i]] = before[i];
}

/* ------------------------------------------- the estimates, as shown */

static int32_t shown_estimate(const struct wtinylfu *w, uint32_t page)
{
	return (int32_t)estimate(w, page);
}

static void show_estimate(struct wtinylfu *w, uint32_t page)
{
	int32_t now = shown_estimate(w, page);

	if (now != w->shown[page]) {
		pl_emit_set(w->ctx, page, FIELD_ESTIMATE, w->shown[page], now);
		w->shown[page] = now;
	}
}

/* A page entering memory (its estimate shown as 0) joins its counters' chains. */
static void index_page(struct wtinylfu *w, uint32_t page)
{
	uint32_t at[HASHES];

	w->shown[page] = 0;
	slots(w, page, at);
	for (unsigned i = 0; i < HASHES; i++) {
		uint32_t s = at[i], node = page * HASHES + i;

		w->node_next[node] = w->chain[s];
		w->node_prev[node] = PL_NONE;
		if (w->chain[s] != PL_NONE)
			w->node_prev[w->chain[s]] = node;
		w->chain[s] = node;
	}
}

static void unindex_page(struct wtinylfu *w, uint32_t page)
{
	uint32_t at[HASHES];

	slots(w, page, at);
	for (unsigned i = 0; i < HASHES; i++) {
		uint32_t node = page * HASHES + i, next = w->node_next[node];
		uint32_t prev = w->node_prev[node];

		if (prev != PL_NONE)
			w->node_next[prev] = next;
		else
			w->chain[at[i]] = next;
		if (next != PL_NONE)
			w->node_prev[next] = prev;
	}
}

/* A reference to page counted; while recording, the estimates it changed are shown. */
static void add_reference(struct wtinylfu *w, uint32_t page)
{
	uint32_t at[HASHES];

	count(w, page);
	if (!pl_recording(w->ctx))
		return;
	slots(w, page, at);
	for (unsigned i = 0; i < HASHES; i++)
		for (uint32_t n = w->chain[at[i]]; n != PL_NONE; n = w->node_next[n])
			show_estimate(w, n / HASHES);
}

static void count_main_hit(struct wtinylfu *w, uint32_t page)
{
	add_reference(w, page);
	if (++w->main_hits < w->sample)
		return;
	w->main_hits = 0;
	w->resets++;
	for (uint32_t i = 0; i < w->ncounters; i++)
		w->sketch[i] >>= 1;
	if (pl_recording(w->ctx))
		for (unsigned l = WINDOW; l <= PROTECTED; l++)
			for (uint32_t p = w->list[l].head; p != PL_NONE; p = w->page[p].link.next)
				show_estimate(w, p);
}

static void wtinylfu_destroy(void *state)
{
	struct wtinylfu *w = state;

	if (!w)
		return;
	free(w->page);
	free(w->where);
	free(w->sketch);
	free(w->spill_before);
	free(w->shown);
	free(w->chain);
	free(w->node_next);
	free(w->node_prev);

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
		w->ncounters = counters_for(main_size);
		w->sample = (uint64_t)(main_size ? main_size : 1) * SAMPLE_PER_FRAME;
	}
	if (!w || !(w->page = malloc(n * sizeof(*w->page))) || !(w->where = malloc(n)) ||
	    !(w->sketch = calloc(w->ncounters, sizeof(*w->sketch))) ||
	    !(w->spill_before = malloc(((size_t)main_size + 1) * sizeof(*w->spill_before))) ||
	    !(w->shown = malloc(n * sizeof(*w->shown))) ||
	    !(w->chain = malloc((size_t)w->ncounters * sizeof(*w->chain))) ||
	    !(w->node_next = malloc(n * HASHES * sizeof(uint32_t))) ||
	    !(w->node_prev = malloc(n * HASHES * sizeof(uint32_t)))) {
		wtinylfu_destroy(w);
		snprintf(err->msg, sizeof(err->msg), "wtinylfu: out of memory");
		return NULL;
	}
	w->magic = UINT64_MAX / w->ncounters + 1;
	memset(w->chain, 0xff, (size_t)w->ncounters * sizeof(*w->chain));	/* PL_NONE */
	w->conservative = ctx->params[PARAM_CONSERVATIVE];
	for (uint32_t page = 0; page < ctx->npages; page++) {
		w->page[page].a = (uint32_t)xxh64_of_u64(ctx->number[page], SEED_A);
		w->page[page].b = (uint32_t)xxh64_of_u64(ctx->number[page], SEED_B);
	}
	memset(w->where, NOWHERE, n);
	w->ctx = ctx;
	for (int i = 0; i < 3; i++)
		pl_dlist_init(&w->list[i]);
	return w;
}

/* ------------------------------------------------------------- the lists */

static void move_to_head(struct wtinylfu *w, uint32_t page, unsigned to)
{
	unsigned from = w->where[page];

	pl_rdlist_remove(links(w), &w->list[from], page);
	pl_rdlist_push_head(links(w), &w->list[to], page);
	w->where[page] = (uint8_t)to;
	pl_emit_move(w->ctx, page, from, to, 0);
}

/* Into main: probation, or protected while probation is full. */
static void enter_main(struct wtinylfu *w, uint32_t page)
{
	move_to_head(w, page, w->list[PROBATION].len < w->max[PROBATION] ? PROBATION : PROTECTED);
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

/*
 * References ahead (policy.h, "Prefetching"): the far page's record and
 * list byte; for the near page, its neighbours in its list, which a hit
 * touches, and its counters, which a hit in main or a fault counts (a
 * hit in the window, which is not counted, wastes them).  A missing
 * neighbour is replaced by the near page, so that every call names as
 * many addresses and the driver's requests need no loop.
 */
static void wtinylfu_prefetch(const void *state, uint32_t far, uint32_t near,
			      struct pl_prefetch *out)
{
	const struct wtinylfu *w = state;
	struct wtinylfu_page pg = w->page[near];
	uint32_t x = pg.a;

	pl_prefetch(out, &w->page[far]);
	pl_prefetch(out, &w->where[far]);
	pl_prefetch(out, &w->page[pg.link.prev != PL_NONE ? pg.link.prev : near]);
	pl_prefetch(out, &w->page[pg.link.next != PL_NONE ? pg.link.next : near]);
#pragma GCC unroll 10	/* HASHES: a constant count of names */
	for (unsigned i = 0; i < HASHES; i++, x += pg.b)
		pl_prefetch(out, &w->sketch[fast_mod(x, w->magic, w->ncounters)]);
}

static void wtinylfu_insert(void *state, const struct pl_ref *ref)
{
	struct wtinylfu *w = state;
	uint32_t x = ref->page;

	pl_rdlist_push_head(links(w), &w->list[WINDOW], x);
	w->where[x] = WINDOW;
	pl_emit_insert(w->ctx, x, WINDOW, 0);
	if (pl_recording(w->ctx))
		index_page(w, x);
	add_reference(w, x);
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
 * Main's victim once `spilled` pages have gone from the window's LRU end
 * into main (probation while it has room, then protected).
 */
static uint32_t victim_after_spill(const struct wtinylfu *w, uint32_t spilled)
{
	const struct pl_dlist *probation = &w->list[PROBATION], *protected = &w->list[PROTECTED];
	uint32_t into_probation = w->max[PROBATION] - probation->len;

	if (probation->len)
		return probation->tail;
	if ((into_probation && spilled) || (!protected->len && spilled))
		return w->list[WINDOW].tail;	/* the first page spilled */
	return protected->tail;
}

/*
 * One eviction per fault.  Main has room only at the first eviction (the
 * window held all of memory until then): the window's LRU pages fill it
 * first, each counted in the sketch, which may change the contest that
 * follows (a page's own estimate, and through collisions others'); the
 * peek makes those counts, reads the contest and takes them back.
 */
static uint32_t wtinylfu_victim(const void *state)
{
	const struct wtinylfu *w = state;
	uint32_t room = main_max(w) - main_len(w), spilled = 0;
	uint32_t candidate = w->list[WINDOW].tail, m, victim, p;

	for (; room && candidate != PL_NONE; room--, spilled++) {
		count_undoably(w, candidate, w->spill_before[spilled]);	/* uncounted below */
		candidate = w->page[candidate].link.prev;
	}
	m = victim_after_spill(w, spilled);
	if (candidate == PL_NONE)
		victim = m;		/* the window is empty: main evicts */
	else if (m == PL_NONE || estimate(w, candidate) <= estimate(w, m))
		victim = candidate;
	else
		victim = m;
	/* the spilled pages, from the last to the first (the window's tail) */
	p = candidate != PL_NONE ? w->page[candidate].link.next : w->list[WINDOW].head;
	for (; spilled--; p = w->page[p].link.next)
		uncount(w, p, w->spill_before[spilled]);
	return victim;
}

/* The spills, then the contest's loser (or main's victim) leaves. */
static void wtinylfu_evict(void *state, uint32_t victim)
{
	struct wtinylfu *w = state;
	uint32_t candidate;
	unsigned from;

	while (main_len(w) < main_max(w) && w->list[WINDOW].len) {
		uint32_t spilled = w->list[WINDOW].tail;

		enter_main(w, spilled);
		add_reference(w, spilled);
	}
	candidate = w->list[WINDOW].tail;
	from = w->where[victim];
	pl_rdlist_remove(links(w), &w->list[from], victim);
	w->where[victim] = NOWHERE;
	pl_emit_evict(w->ctx, victim, from);
	if (pl_recording(w->ctx))
		unindex_page(w, victim);
	if (candidate == PL_NONE)
		return;		/* the window was empty: main evicted */
	if (victim != candidate) {
		w->admitted++;
		enter_main(w, candidate);
	} else {
		w->rejected++;
	}
	add_reference(w, candidate);
}

static void wtinylfu_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct wtinylfu *w = state;

	for (unsigned l = WINDOW; l <= PROTECTED; l++)
		for (uint32_t p = w->list[l].head; p != PL_NONE; p = w->page[p].link.next)
			pl_snapshot_push(out, l, p, &(int32_t){ shown_estimate(w, p) });
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
	[PARAM_CONSERVATIVE] = {
		.name = "conservative",
		.help = "1: the paper's minimal increment (only a page's counters at its "
			"minimum grow); 0: all its counters grow (libCacheSim: 0)",
		.def = 0, .min = 0, .max = 1,
	},
};

static const char *const wtinylfu_lists[] = {
	[WINDOW] = "window", [PROBATION] = "probation", [PROTECTED] = "protected",
};
static const char *const wtinylfu_fields[] = { [FIELD_ESTIMATE] = "estimate" };
static const char *const wtinylfu_counters[] = {
	[ADMITTED] = "admitted", [REJECTED] = "rejected", [RESETS] = "resets",
};

const struct pl_policy_ops pl_policy_wtinylfu = {
	.name = "wtinylfu",
	.title = "W-TinyLFU",
	.help = "A small LRU window in front of an SLRU main cache; a page leaving the window "
		"enters main only if a frequency sketch counts it more often than main's victim.",
	.params = wtinylfu_params,
	.nparams = 3,
	.lists = wtinylfu_lists,
	.nlists = 3,
	.fields = wtinylfu_fields,
	.nfields = 1,
	.counters = wtinylfu_counters,
	.ncounters = 3,
	.create = wtinylfu_create,
	.destroy = wtinylfu_destroy,
	.hit = wtinylfu_hit,
	.insert = wtinylfu_insert,
	.victim = wtinylfu_victim,
	.evict = wtinylfu_evict,
	.prefetch = wtinylfu_prefetch,
	.snapshot = wtinylfu_snapshot,
	.read_counters = wtinylfu_read_counters,
};
