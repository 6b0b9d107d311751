// SPDX-License-Identifier: GPL-2.0
/*
 * locality.c - one pass over a reference stream that gathers the stack
 * distances and intervals every locality analysis needs (interface and
 * definitions: include/analysis.h).
 *
 * State, for D distinct pages seen so far and N references:
 *   marks, owner  "time positions" 1 .. cap: position t is marked when it
 *                 holds some page's last reference, and owner[t] is that
 *                 page.  A reference to page p with its last mark at
 *                 position q has stack distance 1 + (marks after q); then
 *                 q is unmarked and the next free position `now` marked.
 *                 Marks are bits, 64 positions to a word, with a Fenwick
 *                 tree of the marks per word: marks after q are a popcount
 *                 of the few words up to `now` when q is recent (a hot
 *                 page: most references), else D minus a prefix sum of
 *                 words (O(log(cap / 64)) on a tree 64 times smaller than
 *                 one over positions, so it stays in cache).  A mark moved
 *                 within its word leaves the tree unchanged, and the tree
 *                 counts only the words before now's (no prefix sum goes
 *                 further): a word enters it in one update when `now`
 *                 leaves it, not in one update per reference.
 *
 *                   word:   |0 . . 1 . 1 . . | 1 1 . . . . . . | 1 . . [now]
 *                   tree:        2                  2               -
 *
 *   compaction    when the positions run out, the D marks are renumbered
 *                 1 .. D in order (their order is all distances depend
 *                 on; the marked bits say which owners are current) and
 *                 the tree rebuilt; cap doubles while D > cap / 2, so
 *                 compaction costs O(1) amortised per reference and the
 *                 structure stays O(D).
 *   hist          references by stack distance (index 0: first references).
 *   intervals     references by interval 1 .. max_window, and how many
 *                 were longer; last_step[p] for the intervals and for the
 *                 working sets still open at the end of the trace (kept
 *                 only when max_window > 0: LRU's curve needs neither).
 *   first_step    the step at which the k-th distinct page first appeared
 *                 (LRU's resident set is min(frames, pages seen)).
 *
 * Invariants: the marked positions are exactly last_pos[p] for the pages
 * seen, all below `now`; sum of hist == N; sum of intervals + hist[0] == N.
 *
 * Queries sum these histograms; their prefix sums are cached and rebuilt
 * when references were added since.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_fail.h"
#include "page_map.h"

#define INITIAL_POSITIONS 1024
#define INTERN_CHUNK 4096	/* page numbers interned at a time (pl_locality_add_numbers) */
/* A reuse whose mark is at most this many words back is counted by popcount. */
#define NEAR_WORDS 8
/* pl_locality_add_pages(): references counted together, and how far ahead it fetches */
#define BATCH 64
#define PREFETCH_AHEAD 16

struct pl_locality {
	uint64_t *bits;		/* [words] bit t: position t is marked */
	uint32_t *tree;		/* [words + 1] Fenwick tree of marks per word, 1-based */
	uint32_t words;
	uint32_t counted;	/* words in the tree: those before now's word */
	uint32_t *owner;	/* [cap + 1] page marked at a position */
	uint32_t cap, now;	/* positions, next free position */

	uint32_t *last_pos;	/* [page_cap] 0: page not seen */
	uint64_t *last_step;	/* [page_cap], if max_window */
	uint32_t page_cap;

	uint64_t *hist;		/* [hist_cap] by stack distance */
	uint32_t hist_cap;
	uint64_t *first_step;	/* [first_cap] by order of first reference */
	uint32_t first_cap;

	struct pl_page_map *map;	/* page number -> id, for pl_locality_add_numbers() */

	uint32_t max_window;
	uint64_t *intervals;	/* [max_window + 2]; [max_window + 1]: longer */

	uint64_t n;
	uint32_t distinct;

	/* Cached sums, valid while cached_n == n. */
	uint64_t cached_n;
	uint64_t *misses_above;	/* [distinct + 1] hist[0] + refs at distance > d */
	uint64_t *first_sum;	/* [distinct + 1] sum of (N - first_step) of the first k pages */
	uint64_t *tail_lengths;	/* [max_window + 2] pages by N - last_step, capped */
};

int pl_analysis_fail(struct pl_error *err, const char *msg)
{
	snprintf(err->msg, sizeof(err->msg), "analysis: %s", msg);
	return -1;
}

/* Grows *array of `size`-byte elements from *cap to at least `need`, zero-filled. */
static int grow(void **array, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t new_cap = *cap ? *cap : 16;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (new_cap < need)
		new_cap = new_cap > UINT32_MAX / 2 ? UINT32_MAX : new_cap * 2;
	bigger = realloc(*array, (size_t)new_cap * size);
	if (!bigger)
		return -1;
	memset((char *)bigger + (size_t)*cap * size, 0, (size_t)(new_cap - *cap) * size);
	*array = bigger;
	*cap = new_cap;
	return 0;
}

struct pl_locality *pl_locality_create(uint32_t max_window, struct pl_error *err)
{
	struct pl_locality *l = calloc(1, sizeof(*l));

	if (l) {
		l->cap = INITIAL_POSITIONS;
		l->now = 1;
		l->max_window = max_window;
		l->words = l->cap / 64 + 1;
		l->bits = calloc(l->words, sizeof(*l->bits));
		l->tree = calloc(l->words + 1, sizeof(*l->tree));
		l->owner = calloc(l->cap + 1, sizeof(*l->owner));
		l->intervals = calloc((size_t)max_window + 2, sizeof(*l->intervals));
		l->cached_n = UINT64_MAX;
	}
	if (!l || !l->bits || !l->tree || !l->owner || !l->intervals) {
		pl_locality_destroy(l);
		pl_analysis_fail(err, "out of memory");
		return NULL;
	}
	return l;
}

static void drop_cache(struct pl_locality *l)
{
	free(l->misses_above);
	free(l->first_sum);
	free(l->tail_lengths);
	l->misses_above = l->first_sum = l->tail_lengths = NULL;
	l->cached_n = UINT64_MAX;
}

void pl_locality_destroy(struct pl_locality *l)
{
	if (!l)
		return;
	drop_cache(l);
	free(l->bits);
	free(l->tree);
	free(l->owner);
	free(l->last_pos);
	free(l->last_step);
	free(l->hist);
	free(l->first_step);
	free(l->intervals);
	pl_page_map_destroy(l->map);
	free(l);
}

/* ------------------------------------------------------------- marks */

/*
 * Marks in a word.  The builtin is one instruction in WebAssembly and on
 * x86-64 built for POPCNT, but a call into libgcc on baseline x86-64 (9% of
 * the one pass): there, the usual sum of bit fields in halving widths.
 */
static inline uint32_t marks_in(uint64_t word)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
	word -= (word >> 1) & 0x5555555555555555ull;
	word = (word & 0x3333333333333333ull) + ((word >> 2) & 0x3333333333333333ull);
	word = (word + (word >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((word * 0x0101010101010101ull) >> 56);
#else
	return (uint32_t)__builtin_popcountll(word);
#endif
}

/* Marks in words 0 .. w - 1. */
static uint32_t marks_before_word(const struct pl_locality *l, uint32_t w)
{
	uint32_t sum = 0;

	for (; w; w &= w - 1)
		sum += l->tree[w];
	return sum;
}

static void count_in_word(struct pl_locality *l, uint32_t w, int32_t delta)
{
	for (w++; w <= l->words; w += w & -w)
		l->tree[w] += (uint32_t)delta;
}

/* The bits of positions above pos within its word. */
static uint64_t above(uint32_t pos)
{
	return (pos & 63) == 63 ? 0 : ~0ull << ((pos & 63) + 1);
}

/* Marks at positions after q (every mark is below now). */
static uint32_t marks_after(const struct pl_locality *l, uint32_t q)
{
	uint32_t qw = q / 64, last = (l->now - 1) / 64, count;

	if (last - qw > NEAR_WORDS)
		return l->distinct - marks_before_word(l, qw) -
		       marks_in(l->bits[qw] & ~above(q));
	count = marks_in(l->bits[qw] & above(q));
	for (uint32_t w = qw + 1; w <= last; w++)
		count += marks_in(l->bits[w]);
	return count;
}

/*
 * Moves a mark from position q (0: none) to position `to` == now.  The
 * tree learns now's word only once `now` has left it (prefix sums are
 * only asked of words up to now's), in one update for its 64 positions.
 */
static void move_mark(struct pl_locality *l, uint32_t q, uint32_t to)
{
	if (to / 64 > l->counted) {	/* now moved on by one word */
		count_in_word(l, l->counted, (int32_t)marks_in(l->bits[l->counted]));
		l->counted++;
	}
	if (q) {
		l->bits[q / 64] &= ~(1ull << (q % 64));
		if (q / 64 < l->counted)
			count_in_word(l, q / 64, -1);
	}
	l->bits[to / 64] |= 1ull << (to % 64);
}

/* Positions 1 .. marks marked, the rest clear, now = marks + 1, in O(words). */
static void rebuild_marks(struct pl_locality *l, uint32_t marks)
{
	memset(l->bits, 0, (size_t)l->words * sizeof(*l->bits));
	memset(l->tree, 0, ((size_t)l->words + 1) * sizeof(*l->tree));
	for (uint32_t pos = 1; pos <= marks; pos++)
		l->bits[pos / 64] |= 1ull << (pos % 64);
	l->now = marks + 1;
	l->counted = l->now / 64;
	for (uint32_t w = 1; w <= l->words; w++) {
		uint32_t parent = w + (w & -w);

		if (w <= l->counted)
			l->tree[w] += marks_in(l->bits[w - 1]);
		if (parent <= l->words)
			l->tree[parent] += l->tree[w];
	}
}

/* Doubles the positions; -1 when out of memory (nothing changed then). */
static int more_positions(struct pl_locality *l)
{
	uint32_t cap = l->cap * 2, words = cap / 64 + 1;
	uint64_t *bits;
	uint32_t *tree, *owner;

	if (l->cap > UINT32_MAX / 4)
		return -1;
	bits = realloc(l->bits, (size_t)words * sizeof(*bits));
	if (!bits)
		return -1;
	l->bits = bits;
	tree = realloc(l->tree, ((size_t)words + 1) * sizeof(*tree));
	if (!tree)
		return -1;
	l->tree = tree;
	owner = realloc(l->owner, ((size_t)cap + 1) * sizeof(*owner));
	if (!owner)
		return -1;
	l->owner = owner;
	l->cap = cap;
	l->words = words;
	return 0;
}

/* Renumbers the marks 1 .. D in order, doubling the positions if crowded. */
static int compact(struct pl_locality *l)
{
	uint32_t marks = 0;

	/* the marks say which owners are current: no look at last_pos[] to tell */
	for (uint32_t w = 0; w < l->words; w++) {
		for (uint64_t b = l->bits[w]; b; b &= b - 1) {
			uint32_t page = l->owner[w * 64 + (uint32_t)__builtin_ctzll(b)];

			l->owner[++marks] = page;
			l->last_pos[page] = marks;
		}
	}
	if (marks > l->cap / 2 && more_positions(l))
		return -1;
	rebuild_marks(l, marks);
	return 0;
}

/* ------------------------------------------------------------ one pass */

static int note_first_reference(struct pl_locality *l)
{
	if (grow((void **)&l->first_step, &l->first_cap, l->distinct + 1,
		 sizeof(*l->first_step)) ||
	    grow((void **)&l->hist, &l->hist_cap, l->distinct + 2, sizeof(*l->hist)))
		return -1;
	l->first_step[l->distinct++] = l->n;
	return 0;
}

/* The stack distance of a reuse of page, and its interval counted. */
static uint32_t note_reuse(struct pl_locality *l, uint32_t page)
{
	if (l->max_window) {
		uint64_t interval = l->n - l->last_step[page];

		l->intervals[interval <= l->max_window ? interval : (uint64_t)l->max_window + 1]++;
	}
	return 1 + marks_after(l, l->last_pos[page]);
}

/*
 * One reference to page, all but its count in hist: its stack distance
 * (0: a first reference) in *distance; -1 when out of memory.
 */
static int reference(struct pl_locality *l, uint32_t page, uint32_t *distance)
{
	uint32_t pos_cap = l->page_cap, step_cap = l->page_cap;

	if (page >= l->page_cap) {
		if (grow((void **)&l->last_pos, &pos_cap, page + 1, sizeof(*l->last_pos)) ||
		    (l->max_window &&
		     grow((void **)&l->last_step, &step_cap, page + 1, sizeof(*l->last_step))))
			return -1;
		l->page_cap = pos_cap;
	}
	if (l->now > l->cap && compact(l))
		return -1;
	if (l->last_pos[page])
		*distance = note_reuse(l, page);
	else if (note_first_reference(l))
		return -1;
	else
		*distance = 0;
	move_mark(l, l->last_pos[page], l->now);
	l->owner[l->now] = page;
	l->last_pos[page] = l->now++;
	if (l->max_window)
		l->last_step[page] = l->n;
	l->n++;
	return 0;
}

int pl_locality_add(struct pl_locality *l, uint32_t page, struct pl_error *err)
{
	uint32_t distance;

	if (reference(l, page, &distance))
		return pl_analysis_fail(err, "out of memory");
	l->hist[distance]++;
	return 0;
}

/*
 * Most of a reference's time is two cache misses, last_pos[page] and
 * hist[distance] (4 and 8 bytes a page, random): here the first is fetched
 * PREFETCH_AHEAD references early, and the histogram's counts are added
 * BATCH at a time, after their distances, so that their misses overlap
 * instead of each one stalling the next reference (2.5x faster on the
 * benchmark's curve).
 */
int pl_locality_add_pages(struct pl_locality *l, const uint32_t *page, uint32_t n,
			  struct pl_error *err)
{
	uint32_t distance[BATCH];

	for (uint32_t done = 0, k; done < n; done += k) {
		uint32_t taken = 0;

		k = n - done < BATCH ? n - done : BATCH;
		for (; taken < k; taken++) {
			uint32_t ahead = done + taken + PREFETCH_AHEAD;

			if (ahead < n && page[ahead] < l->page_cap)
				__builtin_prefetch(&l->last_pos[page[ahead]], 1);
			if (reference(l, page[done + taken], &distance[taken]))
				break;
		}
		for (uint32_t i = 0; i < taken; i++)	/* those taken, even on failure */
			l->hist[distance[i]]++;
		if (taken < k)
			return pl_analysis_fail(err, "out of memory");
	}
	return 0;
}

int pl_locality_add_numbers(struct pl_locality *l, const uint64_t *number, uint32_t n,
			    struct pl_error *err)
{
	uint32_t page[INTERN_CHUNK];

	if (!l->map && !(l->map = pl_page_map_create()))
		return pl_analysis_fail(err, "out of memory");
	for (uint32_t done = 0, k; done < n; done += k) {
		k = n - done < INTERN_CHUNK ? n - done : INTERN_CHUNK;
		if (pl_page_map_intern_batch(l->map, number + done, k, page, NULL))
			return pl_analysis_fail(err, "out of memory");
		if (pl_locality_add_pages(l, page, k, err))
			return -1;
	}
	return 0;
}

int pl_locality_add_trace(struct pl_locality *l, const struct pl_trace *t,
			  void (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx,
			  struct pl_error *err)
{
	const uint32_t step = 1u << 20;

	for (uint32_t done = 0, k; done < t->n; done += k) {
		k = t->n - done < step ? t->n - done : step;
		if (progress)
			progress(ctx, done, t->n);
		if (pl_locality_add_pages(l, t->page + done, k, err))
			return -1;
	}
	if (progress)
		progress(ctx, t->n, t->n);
	return 0;
}

uint64_t pl_locality_references(const struct pl_locality *l)
{
	return l->n;
}

uint32_t pl_locality_distinct(const struct pl_locality *l)
{
	return l->distinct;
}

const uint64_t *pl_locality_stack_histogram(const struct pl_locality *l, uint32_t *len)
{
	*len = l->distinct + 1;
	return l->hist;
}

/* -------------------------------------------------------------- queries */

/* Rebuilds the cached sums after new references; false when out of memory. */
static bool refresh(struct pl_locality *l)
{
	uint32_t d = l->distinct, w = l->max_window;

	if (l->cached_n == l->n)
		return true;
	drop_cache(l);
	l->misses_above = malloc(((size_t)d + 1) * sizeof(uint64_t));
	l->first_sum = malloc(((size_t)d + 1) * sizeof(uint64_t));
	l->tail_lengths = calloc((size_t)w + 2, sizeof(uint64_t));
	if (!l->misses_above || !l->first_sum || !l->tail_lengths) {
		drop_cache(l);
		return false;
	}
	l->misses_above[d] = l->hist ? l->hist[0] : 0;
	for (uint32_t k = d; k > 0; k--)
		l->misses_above[k - 1] = l->misses_above[k] + l->hist[k];
	l->first_sum[0] = 0;
	for (uint32_t k = 0; k < d; k++)
		l->first_sum[k + 1] = l->first_sum[k] + (l->n - l->first_step[k]);
	for (uint32_t p = 0; w && p < l->page_cap; p++) {
		uint64_t tail;

		if (!l->last_pos[p])
			continue;
		tail = l->n - l->last_step[p];
		l->tail_lengths[tail <= w ? tail : (uint64_t)w + 1]++;
	}
	l->cached_n = l->n;
	return true;
}

/*
 * The queries below return 0 when the cache cannot be built (out of
 * memory); the callers that matter (the CLI, the ABI) ask only after a
 * successful pass over a trace whose arrays are already larger.
 */
uint64_t pl_locality_lru_misses(struct pl_locality *l, uint32_t frames)
{

	if (!refresh(l))
		return 0;
	if (frames >= l->distinct)
		return l->misses_above[l->distinct];
	return l->misses_above[frames];
}

double pl_locality_lru_mean_resident(struct pl_locality *l, uint32_t frames)
{

	if (!l->n || !refresh(l))
		return 0.0;
	return (double)l->first_sum[frames < l->distinct ? frames : l->distinct] / (double)l->n;
}

uint64_t pl_locality_ws_misses(struct pl_locality *l, uint32_t tau)
{
	uint64_t misses = l->hist ? l->hist[0] : 0;

	for (uint64_t i = (uint64_t)tau + 1; i <= (uint64_t)l->max_window + 1; i++)
		misses += l->intervals[i];
	return misses;
}

/* Sum over a capped histogram h[1 .. w + 1] of min(tau, length) * count. */
static uint64_t capped_sum(const uint64_t *h, uint32_t w, uint32_t tau)
{
	uint64_t sum = 0;

	for (uint64_t i = 1; i <= (uint64_t)w + 1; i++)
		sum += h[i] * (i < tau ? i : tau);
	return sum;
}

double pl_locality_ws_mean_size(struct pl_locality *l, uint32_t tau)
{

	if (!l->n || tau > l->max_window || !refresh(l))
		return 0.0;
	/* each reference holds its page for min(tau, steps to its next reference) */
	return (double)(capped_sum(l->intervals, l->max_window, tau) +
			capped_sum(l->tail_lengths, l->max_window, tau)) /
	       (double)l->n;
}
