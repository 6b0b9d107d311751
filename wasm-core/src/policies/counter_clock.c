/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter_clock.c - seed 001's counter-based clock on Linux's two lists
 * (the report "New Page Replacement Policy", T. Han and S. Shin, Linux
 * 5.15.4; section 2.2): every page carries a counter (their my_ref_c, an
 * int in struct page, 0 when the page is set up); a kernel timer
 * (ref_counter_watchdog, every second) walks the four LRU lists and adds 1
 * to the counter of each page referenced since, subtracts 1 from the
 * others, within -limit .. limit (the report's -10000 .. 10000); and
 * try_to_free_pages() first moves the page with the lowest counter of
 * each list to that list's tail (on a tie the one nearest the tail), so
 * that the unchanged second-chance reclaim, which works from the tails,
 * reaches the least frequently used pages first.  Everything else is
 * Linux 6.1's model (lru_lists.c): the lists, folio_mark_accessed(),
 * reclaim, refault detection.
 *
 * Transition table (t = the reference's time, pl_time())
 *   reference (hit or fault)  recent := 1, then the Linux rules
 *   fault                     counter := 0 (a new page)
 *   tick at time T            each resident page: counter := counter + 1
 *     (T = period, 2 period,    if recent, else counter - 1, clamped to
 *      ... after the first      -limit .. limit; recent := 0.  Ticks that
 *      reference's time)        fall in a pause (no reference between
 *                               them) find no page recent: -1 each.
 *   reclaim round begins      in each of the four lists, the page with the
 *     (the first page freed     lowest counter (nearest the tail on a tie)
 *      for a fault)             moves to the tail; then Linux's reclaim.
 *
 *   inactive_anon: head [ 9 c=2 ] [ 4 c=-3 ] [ 7 c=0 ] tail
 *   reclaim:       head [ 9 c=2 ] [ 7 c=0 ] [ 4 c=-3 ] tail  -> 4 checked first
 *
 * Where this differs from the report, and why
 *   - "Referenced" is "referenced since the last tick" (the rule,
 *     and what the report means by a page referenced recently).  The
 *     module tested PageReferenced(), the PG_referenced flag, which the
 *     tick does not clear and which anonymous pages (the report's test
 *     program writes malloc()ed memory) rarely carry: their references set
 *     only the PTE's accessed bit.
 *   - Once per reclaim round (the fault that needs frames), as
 *     try_to_free_pages() runs once per direct reclaim; a round frees
 *     `batch` frames (lru_lists.c).
 *   - The report's tick is one second of wall-clock time.  Here it is
 *     `period` units of the trace's time: its time column (pagelab gen
 *     writes milliseconds, so 1000 is the report's second), or else the
 *     reference's index.  The default, 1000, is a second of a timed trace;
 *     on an untimed one it is 1000 references.
 *
 * Parameters: LRU_PARAMS (lru_lists.h), then period (default 1000) and
 * limit (default 10000).  Fields: referenced, active, accessed, counter,
 * recent, then the shadow fields.  Counters: as linux (promoted, demoted,
 * evicted are seed 001's memstat figures).
 *
 * Finding the lowest counter.  The report walks all four lists at every
 * try_to_free_pages(); here an index answers at once: per list, one bucket
 * per counter value (-limit .. limit), each holding that list's pages of
 * that value in list order.  The lists only ever gain pages at the head or
 * the tail, and the buckets mirror that, so a bucket's tail is the page of
 * its value nearest the list's tail: the lowest non-empty bucket's tail is
 * the page to move.  A hint per list (no lower bucket is non-empty) makes
 * the search start near the answer.  A tick changes every counter, so it
 * refiles every resident page.
 *
 *   inactive_anon buckets:  c=-3: [4]   c=0: [9 7]   c=2: [3]
 *
 * Cost: a reference is O(1) as in linux, plus O(1) to keep the index when
 * a page changes lists; a tick visits every resident page, O(frames)
 * every `period` time units (amortized O(frames / period) per reference
 * on an untimed trace); a reclaim round finds each list's lowest counter
 * in O(1) amortized (the hint moves up over empty buckets at most as far
 * as pages have moved it down).  Memory: 4 x (2 limit + 1) buckets of 12
 * bytes (1 MB at the default limit) and 8 bytes per page.
 */
#include <stdlib.h>

#include "lru_lists.h"

enum { PERIOD_PARAM = NR_LRU_PARAMS, LIMIT_PARAM };
#define MAX_LIMIT 65536		/* the buckets take 4 x (2 limit + 1) x 12 bytes */

/* The lowest-counter index (see the header). */
struct counter_index {
	uint32_t span;		/* buckets per list: 2 limit + 1 */
	struct pl_links links;	/* a page's neighbours in its bucket */
	struct pl_dlist *bucket[NR_LRU_LISTS];	/* [span]: counter c at c + limit */
	uint32_t low[NR_LRU_LISTS];	/* no non-empty bucket below this one */
};

static struct counter_index *index_of(const struct lruvec *vec)
{
	return vec->own;
}

static uint32_t bucket_of(const struct lruvec *vec, uint32_t page)
{
	return (uint32_t)(vec->wide[page] + vec->limit);
}

static void file_page(struct lruvec *vec, uint32_t page, unsigned lru, bool tail)
{
	struct counter_index *ix = index_of(vec);
	uint32_t b = bucket_of(vec, page);

	if (tail)
		pl_dlist_push_tail(&ix->links, &ix->bucket[lru][b], page);
	else
		pl_dlist_push_head(&ix->links, &ix->bucket[lru][b], page);
	if (b < ix->low[lru])
		ix->low[lru] = b;
}

static void unfile_page(struct lruvec *vec, uint32_t page, unsigned lru)
{
	struct counter_index *ix = index_of(vec);

	pl_dlist_remove(&ix->links, &ix->bucket[lru][bucket_of(vec, page)], page);
}

static void counter_listed(struct lruvec *vec, uint32_t page, unsigned from, unsigned to,
			   bool tail)
{
	if (from != LRU_NOT_RESIDENT)
		unfile_page(vec, page, from);
	if (to != LRU_NOT_RESIDENT)
		file_page(vec, page, to, tail);
}

static void counter_destroy(struct lruvec *vec)
{
	struct counter_index *ix = index_of(vec);

	if (!ix)
		return;
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++)
		free(ix->bucket[lru]);
	pl_links_free(&ix->links);
	free(ix);
}

static int counter_index_init(struct lruvec *vec, uint32_t npages)
{
	struct counter_index *ix = calloc(1, sizeof(*ix));

	vec->own = ix;
	if (!ix || pl_links_init(&ix->links, npages))
		return -1;
	ix->span = 2 * (uint32_t)vec->limit + 1;
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		ix->bucket[lru] = malloc(ix->span * sizeof(*ix->bucket[lru]));
		if (!ix->bucket[lru])
			return -1;
		for (uint32_t b = 0; b < ix->span; b++)
			pl_dlist_init(&ix->bucket[lru][b]);
		ix->low[lru] = ix->span;
	}
	return 0;
}

static void counter_referenced(struct lruvec *vec, uint32_t page, uint64_t time, bool fault)
{
	lruvec_set_field(vec, page, LRU_RECENT, 1);
}

/* The lowest counter of the list, nearest the tail on a tie. */
static uint32_t lowest_counter(const struct lruvec *vec, enum lru_list_id lru)
{
	struct counter_index *ix = index_of(vec);	/* the hint may move: not the lists */

	if (!vec->lists[lru].len)
		return PL_NONE;
	while (!ix->bucket[lru][ix->low[lru]].len)
		ix->low[lru]++;
	return ix->bucket[lru][ix->low[lru]].tail;
}

static int64_t clamp_counter(const struct lruvec *vec, int64_t counter)
{
	return counter > vec->limit ? vec->limit : counter < -vec->limit ? -vec->limit : counter;
}

/*
 * `ticks` ticks at once: the first sees which pages were referenced since
 * the previous one; the others fall in a pause, when nothing is.
 */
static void age_counters(struct lruvec *vec, uint64_t ticks)
{
	int64_t idle = ticks - 1 > (uint64_t)(2 * vec->limit) ? 2 * vec->limit : (int64_t)(ticks - 1);

	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		uint32_t page;

		for (page = lruvec_head(vec, lru); page != PL_NONE;
		     page = lruvec_toward_tail(vec, page)) {
			int64_t step = lruvec_field(vec, page, LRU_RECENT) ? 1 : -1;
			int64_t counter = clamp_counter(vec, vec->wide[page] + step);

			unfile_page(vec, page, lru);
			lruvec_set_wide(vec, page, clamp_counter(vec, counter - idle));
			lruvec_set_field(vec, page, LRU_RECENT, 0);
		}
		/* every bucket of the list is empty now: refile in list order */
		index_of(vec)->low[lru] = index_of(vec)->span;
		for (page = lruvec_head(vec, lru); page != PL_NONE;
		     page = lruvec_toward_tail(vec, page))
			file_page(vec, page, lru, true);
	}
}

/* Runs the ticks due by the time of reference `step`. */
static void counter_tick(void *state, uint32_t step)
{
	struct lruvec *vec = state;
	uint64_t now = pl_time(vec->ctx, step), to_next;

	if (now < vec->next_tick)
		return;
	age_counters(vec, (now - vec->next_tick) / vec->period + 1);
	/* the first tick time after now */
	to_next = vec->period - (now - vec->next_tick) % vec->period;
	vec->next_tick = now > UINT64_MAX - to_next ? UINT64_MAX : now + to_next;
}

static const struct lru_aging counter_aging = {
	/* the active list ages as in stock Linux (linux.c) */
	.shrink_active = lruvec_deactivate_tail,
	.first_deactivated = lruvec_tail_or_newcomer,
	.referenced = counter_referenced,
	.tail_at_reclaim = lowest_counter,
	.listed = counter_listed,
	.destroy = counter_destroy,
};

static void *counter_clock_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lruvec *vec = lruvec_create(ctx, &counter_aging, LRU_RECENT + 1, err);
	uint64_t period = (uint64_t)ctx->params[PERIOD_PARAM];

	if (!vec)
		return NULL;
	vec->period = period;
	vec->limit = ctx->params[LIMIT_PARAM];
	vec->next_tick = (ctx->vtime ? ctx->vtime[0] : 0) + period;
	/* untimed: time is the index, so the driver's tick every `period`
	 * references is exactly on time; timed: look at every reference */
	ctx->tick_period = ctx->vtime || period > UINT32_MAX ? 1 : (uint32_t)period;
	vec->wide = calloc(ctx->npages ? ctx->npages : 1, sizeof(*vec->wide));
	if (!vec->wide || counter_index_init(vec, ctx->npages ? ctx->npages : 1)) {
		lruvec_destroy(vec);
		snprintf(err->msg, sizeof(err->msg), "counter_clock: out of memory for %u pages",
			 ctx->npages);
		return NULL;
	}
	return vec;
}

static const struct pl_param counter_clock_params[] = {
	LRU_PARAMS,
	{ "period", "time between two ticks of the counters (seed 001: a 1-second timer; "
	  "1000 with the millisecond times pagelab gen writes; on a trace without times, "
	  "references)", 1000, 1, INT64_MAX / 4, NULL },
	{ "limit", "counters stay within -limit .. limit (seed 001: 10000)", 10000, 1,
	  MAX_LIMIT, NULL },
};
static const char *const counter_clock_fields[] = {
	LRU_FIELD_NAMES, "counter", "recent", LRU_SHADOW_FIELD_NAMES
};

const struct pl_policy_ops pl_policy_counter_clock = {
	.name = "counter_clock",
	.title = "Counter-based clock on Linux's two lists (seed 001)",
	.help = "Linux 6.1's two lists, plus a counter per page that a tick every period "
		"raises for pages referenced since the last tick and lowers for the others "
		"(within -limit .. limit); when reclaim begins, the lowest-counter page of each "
		"list is moved to its tail first.",
	.params = counter_clock_params,
	.nparams = NR_LRU_PARAMS + 2,
	LRUVEC_OPS,
	.tick = counter_tick,
	.fields = counter_clock_fields,
	.nfields = LRU_RECENT + 1 + LRU_SHADOW_FIELDS,
	.create = counter_clock_create,
};
