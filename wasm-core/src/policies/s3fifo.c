/* SPDX-License-Identifier: GPL-2.0 */
/*
 * s3fifo.c - S3-FIFO (J. Yang, Y. Zhang, Z. Qiu, Y. Yue and K. V. Rashmi,
 * "FIFO queues are all you need for cache eviction", SOSP 2023,
 * Algorithm 1).
 *
 * Structure: three FIFO queues, newest at the head; c = frames,
 * S = max(1, floor(c * small_percent / 100)) and M = c - S.
 *
 *   fault, not in ghost                          fault, in ghost
 *         |                                            |
 *         v                                            v
 *   small: [new .. old] --freq >= threshold--> main: [new ........ old] --+
 *         |                                            ^  freq >= 1:       |
 *         | freq < threshold: evicted                  +- reinserted, -----+
 *         v                                               freq - 1
 *   ghost: [new .. old] (ids only, at most G = floor(c * ghost_percent / 100))
 *
 * Each resident page has a frequency "freq" of 0 to 3 (two bits): a hit
 * adds one (saturating), entering small or main sets it to 0.
 *
 * Transitions (x the referenced page)
 *   hit                  freq(x) := min(freq(x) + 1, 3); nothing moves
 *   fault, x in ghost    x leaves ghost for main's head
 *   fault, x new         x to small's head; but while memory fills for the
 *                        first time, once small holds S pages new pages go
 *                        to main's head instead (libCacheSim's current
 *                        S3FIFO; its S3FIFOv0 and the paper fill small)
 *   reclaim              if main holds more than M pages or small is empty,
 *                        EVICT-MAIN; otherwise small's tail t: if freq(t) >=
 *                        move_threshold it moves to main's head with freq 0
 *                        (quick promotion) and the next tail is looked at;
 *                        the first t below the threshold is evicted and its
 *                        id goes to ghost's head (forgetting ghost's tail if
 *                        ghost holds G).  If small empties without an
 *                        eviction, EVICT-MAIN.
 *   EVICT-MAIN           main's tail t: if freq(t) >= 1 it goes back to
 *                        main's head with freq(t) - 1 (lazy promotion) and the
 *                        next tail is looked at; else it is evicted
 *
 * Parameters (defaults: libCacheSim's S3FIFO, small_size_ratio 0.1,
 * ghost_size_ratio 0.9, move_to_main_threshold 2)
 *   small_percent    S in percent of the frames
 *   ghost_percent    G in percent of the frames
 *   move_threshold   hits in small needed to move to main (1 to 3)
 *
 * Reference: libCacheSim/cache/eviction/S3FIFO.c with unit-size pages; equal
 * misses on every trace of tests/libcachesim_diff.py with at least 20
 * frames.  Below that libCacheSim's small queue holds at most one object
 * and it refuses to admit an object as large as the small queue, so with
 * fewer than 20 frames it caches only ghost hits (and with fewer than 10,
 * nothing): pagelab always admits, with S at least 1.  libCacheSim's
 * counter is not bounded, but only min(freq, 3) and freq >= threshold
 * matter, so two bits give the same decisions.
 *
 * Lists: small, main, ghost (ghost).  Fields: freq.
 * Counters: moved_to_main (small to main), ghost_hits.
 * Cost per reference: O(1) per hit; O(1) amortized per fault (each page a
 * scan passes either leaves small or spends frequency a hit earned).
 * Beyond lru's work: a hit raises a two-bit count where lru moves the page
 * to a list's head (less); a fault takes a ghost out of the ghost FIFO,
 * scans small's and main's tails (moving pages with a count to a head),
 * pushes the victim of small into the ghost FIFO and forgets its oldest
 * id -- pages no recent reference touched, so each fault requests the
 * lines the next one starts from (request_tails()); prefetch() names only
 * the far page's record and the near page's neighbours.  A page's links,
 * list and count are one 12-byte record.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"

enum { SMALL, MAIN, GHOST, NOWHERE };
enum { FREQ };
enum { PARAM_SMALL_PERCENT, PARAM_GHOST_PERCENT, PARAM_MOVE_THRESHOLD };
enum { MOVED_TO_MAIN, GHOST_HITS };
#define FREQ_MAX 3

/* A page's whole state in one record: one cache line to touch per page. */
struct s3fifo_page {
	struct pl_link link;	/* in its list */
	uint8_t where;		/* SMALL, MAIN, GHOST or NOWHERE */
	uint8_t freq;
};

struct s3fifo {
	struct pl_ctx *ctx;
	struct s3fifo_page *page;	/* [npages] */
	struct pl_dlist list[3];
	uint32_t small_size, main_size, ghost_size;
	uint8_t threshold;
	bool ghost_hit;		/* the faulting page was in ghost (already removed) */
	bool has_evicted;	/* memory has been full once */
	uint64_t moved_to_main, ghost_hits;
};

static void s3fifo_destroy(void *state)
{
	struct s3fifo *s = state;

	if (!s)
		return;
	free(s->page);
	free(s);
}

static void *s3fifo_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct s3fifo *s = calloc(1, sizeof(*s));
	size_t n = ctx->npages ? ctx->npages : 1;
	if (!s || !(s->page = calloc(n, sizeof(*s->page)))) {
		s3fifo_destroy(s);
		snprintf(err->msg, sizeof(err->msg), "s3fifo: out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		s->page[i].where = NOWHERE;
	s->ctx = ctx;
	s->small_size = (uint32_t)((uint64_t)ctx->frames * ctx->params[PARAM_SMALL_PERCENT] / 100);
	if (s->small_size == 0)
		s->small_size = 1;
	s->main_size = ctx->frames > s->small_size ? ctx->frames - s->small_size : 0;
	s->ghost_size = (uint32_t)((uint64_t)ctx->frames * ctx->params[PARAM_GHOST_PERCENT] / 100);
	s->threshold = (uint8_t)ctx->params[PARAM_MOVE_THRESHOLD];
	for (int i = 0; i < 3; i++)
		pl_dlist_init(&s->list[i]);
	return s;
}

static inline struct pl_record_links links(const struct s3fifo *s)
{
	return PL_RECORD_LINKS(s->page, link);
}

static void set_freq(struct s3fifo *s, uint32_t page, uint8_t freq)
{
	if (s->page[page].freq == freq)
		return;
	pl_emit_set(s->ctx, page, FREQ, s->page[page].freq, freq);
	s->page[page].freq = freq;
}

static void push(struct s3fifo *s, uint32_t page, unsigned to)
{
	pl_rdlist_push_head(links(s), &s->list[to], page);
	s->page[page].where = (uint8_t)to;
}

static void unlink_page(struct s3fifo *s, uint32_t page)
{
	pl_rdlist_remove(links(s), &s->list[s->page[page].where], page);
	s->page[page].where = NOWHERE;
}

/* Moves a resident page to the head of `to` (its own list or main). */
static void requeue(struct s3fifo *s, uint32_t page, unsigned to)
{
	unsigned from = s->page[page].where;

	unlink_page(s, page);
	push(s, page, to);
	pl_emit_move(s->ctx, page, from, to, 0);
}

static void s3fifo_hit(void *state, const struct pl_ref *ref)
{
	struct s3fifo *s = state;

	if (s->page[ref->page].freq < FREQ_MAX)
		set_freq(s, ref->page, s->page[ref->page].freq + 1);
}

/* Removes the faulting page's ghost entry, once, before anything is evicted. */
static void consume_ghost(struct s3fifo *s, uint32_t x)
{
	if (s->page[x].where != GHOST)
		return;
	unlink_page(s, x);
	pl_emit_remove(s->ctx, x, GHOST);
	s->ghost_hit = true;
	s->ghost_hits++;
}

static void s3fifo_insert(void *state, const struct pl_ref *ref)
{
	struct s3fifo *s = state;
	uint32_t x = ref->page;

	unsigned to = SMALL;

	consume_ghost(s, x);
	if (s->ghost_hit || (!s->has_evicted && s->list[SMALL].len >= s->small_size))
		to = MAIN;
	s->page[x].freq = 0;
	push(s, x, to);
	pl_emit_insert(s->ctx, x, to, 0);
	s->ghost_hit = false;
}

static bool evicts_from_main(const struct s3fifo *s)
{
	return s->list[MAIN].len > s->main_size || s->list[SMALL].len == 0;
}

/*
 * The page EVICT-MAIN would remove: the first one, from the tail, that the
 * fewest passes bring to frequency 0 (each pass takes one from every page
 * it reinserts).  `moved` is the first page small would move into main
 * behind the current ones (with frequency 0), or PL_NONE.
 */
static uint32_t main_victim(const struct s3fifo *s, uint32_t moved)
{
	uint32_t best = PL_NONE;
	uint8_t best_freq = FREQ_MAX + 1;

	for (uint32_t p = s->list[MAIN].tail; p != PL_NONE; p = s->page[p].link.prev) {
		if (s->page[p].freq == 0)
			return p;
		if (s->page[p].freq < best_freq && moved == PL_NONE) {
			best = p;
			best_freq = s->page[p].freq;
		}
	}
	return moved != PL_NONE ? moved : best;
}

static uint32_t s3fifo_victim(const void *state)
{
	const struct s3fifo *s = state;

	if (evicts_from_main(s))
		return main_victim(s, PL_NONE);
	for (uint32_t p = s->list[SMALL].tail; p != PL_NONE; p = s->page[p].link.prev)
		if (s->page[p].freq < s->threshold)
			return p;
	return main_victim(s, s->list[SMALL].tail);
}

static void remember(struct s3fifo *s, uint32_t page)
{
	if (s->ghost_size == 0)
		return;
	if (s->list[GHOST].len >= s->ghost_size) {
		uint32_t oldest = s->list[GHOST].tail;

		unlink_page(s, oldest);
		pl_emit_remove(s->ctx, oldest, GHOST);
	}
	push(s, page, GHOST);
	pl_emit_insert(s->ctx, page, GHOST, 0);
}

static void evict_main(struct s3fifo *s)
{
	for (;;) {
		uint32_t t = s->list[MAIN].tail;

		if (s->page[t].freq == 0) {
			unlink_page(s, t);
			pl_emit_evict(s->ctx, t, MAIN);
			return;
		}
		requeue(s, t, MAIN);
		set_freq(s, t, s->page[t].freq - 1);
	}
}

/* Small's scan: the first tail below the threshold leaves for ghost. */
static void evict_small(struct s3fifo *s)
{
	while (s->list[SMALL].len) {
		uint32_t t = s->list[SMALL].tail;

		if (s->page[t].freq < s->threshold) {
			unlink_page(s, t);
			pl_emit_evict(s->ctx, t, SMALL);
			remember(s, t);
			return;
		}
		requeue(s, t, MAIN);
		set_freq(s, t, 0);
		s->moved_to_main++;
	}
	evict_main(s);
}

/*
 * What the next fault's scans start from, requested as this one ends (a
 * hit moves no page, so only faults change the tails): the neighbour that
 * becomes each list's tail as a scan takes it, and the residency bytes of
 * small's and main's tails, which the driver reads on eviction -- pages no
 * recent reference touched.  The tails' own records were requested as such
 * neighbours before, or touched by this fault's scans.
 */
static void request_tails(const struct s3fifo *s)
{
#pragma GCC unroll 3	/* each list its own straight code: l != GHOST folds */
	for (unsigned l = SMALL; l <= GHOST; l++)
		pl_rdlist_request_tail(links(s), &s->list[l], l != GHOST ? s->ctx : NULL);
}

static void s3fifo_evict(void *state, uint32_t victim)
{
	struct s3fifo *s = state;

	s->has_evicted = true;
	consume_ghost(s, s->ctx->faulting);
	if (evicts_from_main(s))
		evict_main(s);
	else
		evict_small(s);
	request_tails(s);
}

/*
 * References ahead (policy.h, "Prefetching"): the far page's record, and
 * the near page's neighbours, which it leaves if it faults as a ghost.
 * What a fault touches that no recent reference did (the lists' oldest
 * pages) is requested by the fault before, in request_tails().
 */
static void s3fifo_prefetch(const void *state, uint32_t far, uint32_t near,
			    struct pl_prefetch *out)
{
	const struct s3fifo *s = state;
	struct pl_link n = s->page[near].link;

	pl_prefetch_record(out, &s->page[far], sizeof(*s->page));
	pl_prefetch(out, &s->page[pl_page_or(n.prev, near)]);
	pl_prefetch(out, &s->page[pl_page_or(n.next, near)]);
}

static void s3fifo_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct s3fifo *s = state;

	for (unsigned l = SMALL; l <= GHOST; l++) {
		for (uint32_t p = s->list[l].head; p != PL_NONE; p = s->page[p].link.next) {
			int32_t freq = l == GHOST ? 0 : s->page[p].freq;

			pl_snapshot_push(out, l, p, &freq);
		}
	}
}

static void s3fifo_read_counters(const void *state, uint64_t *counters)
{
	const struct s3fifo *s = state;

	counters[MOVED_TO_MAIN] = s->moved_to_main;
	counters[GHOST_HITS] = s->ghost_hits;
}

static const struct pl_param s3fifo_params[] = {
	[PARAM_SMALL_PERCENT] = {
		.name = "small_percent",
		.help = "size of the small FIFO in percent of the frames, at least 1 page "
			"(libCacheSim: 10)",
		.def = 10, .min = 0, .max = 100,
	},
	[PARAM_GHOST_PERCENT] = {
		.name = "ghost_percent",
		.help = "ids the ghost FIFO keeps, in percent of the frames (libCacheSim: 90)",
		.def = 90, .min = 0, .max = 400,
	},
	[PARAM_MOVE_THRESHOLD] = {
		.name = "move_threshold",
		.help = "hits in small that move a page to main when it reaches small's tail "
			"(libCacheSim: 2)",
		.def = 2, .min = 1, .max = FREQ_MAX,
	},
};

static const char *const s3fifo_lists[] = { [SMALL] = "small", [MAIN] = "main", [GHOST] = "ghost" };
static const char *const s3fifo_fields[] = { [FREQ] = "freq" };
static const char *const s3fifo_counters[] = {
	[MOVED_TO_MAIN] = "moved_to_main", [GHOST_HITS] = "ghost_hits",
};

const struct pl_policy_ops pl_policy_s3fifo = {
	.name = "s3fifo",
	.title = "S3-FIFO",
	.help = "New pages enter a small FIFO; those hit there move to the main FIFO, the rest "
		"are evicted early and remembered in a ghost FIFO that admits them to main.",
	.params = s3fifo_params,
	.nparams = 3,
	.lists = s3fifo_lists,
	.nlists = 3,
	.ghost_lists = 1u << GHOST,
	.fields = s3fifo_fields,
	.nfields = 1,
	.counters = s3fifo_counters,
	.ncounters = 2,
	.create = s3fifo_create,
	.destroy = s3fifo_destroy,
	.hit = s3fifo_hit,
	.insert = s3fifo_insert,
	.victim = s3fifo_victim,
	.evict = s3fifo_evict,
	.prefetch = s3fifo_prefetch,
	.snapshot = s3fifo_snapshot,
	.read_counters = s3fifo_read_counters,
};
