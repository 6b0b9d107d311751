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
 * Linux 6.1's model (lru_model.h): the lists, folio_mark_accessed(),
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
 *     `batch` frames (lru_model.h).
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
 * Lazy counters.  A tick changes every counter, so a tick that wrote them
 * all would cost O(resident) (at 64K frames, most of the run).  Instead a
 * page keeps key = its counter + E at the time the counter was set, where
 * E, the epoch, counts the ticks so far; its counter is then
 * max(-limit, key - E) for as long as it is not referenced: each tick
 * lowers it by one without touching it.  A tick visits only the pages
 * referenced since the one before (the recent list): their counter goes up
 * instead, so their key is recomputed.  Ticks in a pause advance E by at
 * most 2 limit + 1, which brings every counter they lower to -limit.
 *
 * Finding the lowest counter.  The report walks all four lists at every
 * try_to_free_pages(); here, per list, two indexed heaps (page_heap.h)
 * answer at once.  Pages are ranked by counter and, on a tie, by position
 * in the list: the lists only ever gain pages at the head or the tail, so
 * a stamp from a counter per end (head: counting down, tail: up) orders
 * them.  Counters above -limit are ranked by key, so the "live" heap keeps
 * them by (lowest key, highest stamp); at -limit every page ties, so the
 * "floor" heap keeps them by stamp alone.  A tick moves the pages whose key
 * has fallen to E - limit from live to floor (each once, as it gets
 * there).  The page to move to the tail is floor's top, or else live's.
 *
 *   inactive_anon:  floor (-limit): [4] [9]   live: [7 c=0] [3 c=2]
 *
 * Live keys lie within E - limit .. E + limit, so the live heap stores
 * them as key - base in KEY_BITS bits beside a SEQ_BITS stamp; base moves
 * up (every key rewritten in place, their order unchanged) before they
 * would overflow: once in 2^KEY_BITS - 4 limit ticks, limit <= 65536.
 *
 * Recording: the events must carry every counter's change, so a tick of a
 * recorded run also walks the resident pages to emit them, O(resident),
 * as the web's runs are small.
 *
 * Cost: a reference is O(1) as in linux, plus O(log frames) when a page
 * changes lists (its heap entry moves); a tick is O(log frames) per page
 * referenced since the last one plus per page reaching -limit; a reclaim
 * round reads the two tops of each list, O(1).  Memory: 36 bytes per page
 * of the trace and 32 per frame.
 */
#include <stdlib.h>

#include "frame_table.h"
#include "lru_lists.h"
#include "page_heap.h"

enum { PERIOD_PARAM = NR_LRU_PARAMS, LIMIT_PARAM };
#define MAX_LIMIT 65536		/* keeps live keys within KEY_BITS, see the header */
#define SEQ_BITS 44
#define KEY_BITS (64 - SEQ_BITS)
#define FIRST_STAMP (1ull << (SEQ_BITS - 1))
#define IN_FLOOR (1ull << 63)	/* in a stamp: the page is in a floor heap */

/* The lazy counters and the lowest-counter index (see the header). */
struct counter_index {
	int64_t epoch;		/* E: ticks so far (a pause counts 2 limit + 1 at most) */
	int64_t base;		/* live heap keys are stored as key - base */
	uint64_t head_stamp[NR_LRU_LISTS], tail_stamp[NR_LRU_LISTS];
	uint64_t *stamp;	/* [npages] list position, | IN_FLOOR */
	struct page_heap live[NR_LRU_LISTS], floor[NR_LRU_LISTS];
	struct pl_links links;	/* for the recent list */
	struct pl_dlist recent;	/* pages referenced since the last tick */
};

static struct counter_index *index_of(const struct lruvec *vec)
{
	return vec->own;
}

/* A page's counter now; vec->wide holds its key. */
static int64_t counter_of(const struct lruvec *vec, uint32_t page)
{
	int64_t counter = vec->wide[page] - index_of(vec)->epoch;

	return counter < -vec->limit ? -vec->limit : counter;
}

static int64_t shown_counter(const struct lruvec *vec, uint32_t page)
{
	return counter_of(vec, page);
}

static uint64_t live_key(const struct counter_index *ix, int64_t key, uint64_t stamp)
{
	uint64_t offset = (uint64_t)(key - ix->base);	/* 1 .. 2^KEY_BITS - 1 */

	return ((1ull << KEY_BITS) - 1 - offset) << SEQ_BITS | stamp;
}

/* Files a page of list `lru` in the heap its counter belongs to. */
static void file_page(struct lruvec *vec, uint32_t page, unsigned lru)
{
	struct counter_index *ix = index_of(vec);
	uint64_t stamp = ix->stamp[page] & ~IN_FLOOR;

	if (counter_of(vec, page) == -vec->limit) {
		ix->stamp[page] = stamp | IN_FLOOR;
		page_heap_push(&ix->floor[lru], page, stamp);
	} else {
		ix->stamp[page] = stamp;
		page_heap_push(&ix->live[lru], page, live_key(ix, vec->wide[page], stamp));
	}
}

static void unfile_page(struct lruvec *vec, uint32_t page, unsigned lru)
{
	struct counter_index *ix = index_of(vec);

	page_heap_remove(ix->stamp[page] & IN_FLOOR ? &ix->floor[lru] : &ix->live[lru], page);
}

static void counter_listed(struct lruvec *vec, uint32_t page, unsigned from, unsigned to,
			   bool tail)
{
	struct counter_index *ix = index_of(vec);

	if (from != LRU_NOT_RESIDENT)
		unfile_page(vec, page, from);
	else
		vec->wide[page] = ix->epoch;	/* a new page: counter 0 */
	if (to == LRU_NOT_RESIDENT) {
		if (lruvec_field(vec, page, LRU_RECENT))
			pl_dlist_remove(&ix->links, &ix->recent, page);
		return;
	}
	ix->stamp[page] = tail ? ++ix->tail_stamp[to] : --ix->head_stamp[to];
	file_page(vec, page, to);
}

static void counter_destroy(struct lruvec *vec)
{
	struct counter_index *ix = index_of(vec);

	if (!ix)
		return;
	/* the heaps sharing live[0]'s per-page arrays first */
	for (unsigned lru = NR_LRU_LISTS; lru-- > 0;) {
		page_heap_free(&ix->floor[lru]);
		if (lru)
			page_heap_free(&ix->live[lru]);
	}
	page_heap_free(&ix->live[0]);
	free(ix->stamp);
	pl_links_free(&ix->links);
	free(ix);
}

static int counter_index_init(struct lruvec *vec, uint32_t npages, uint32_t frames)
{
	struct counter_index *ix = calloc(1, sizeof(*ix));

	vec->own = ix;
	if (!ix || pl_links_init(&ix->links, npages) ||
	    !(ix->stamp = malloc(npages * sizeof(*ix->stamp))) ||
	    page_heap_init(&ix->live[0], frames, npages))
		return -1;
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		ix->head_stamp[lru] = ix->tail_stamp[lru] = FIRST_STAMP;
		if ((lru && page_heap_init_shared(&ix->live[lru], frames, &ix->live[0])) ||
		    page_heap_init_shared(&ix->floor[lru], frames, &ix->live[0]))
			return -1;
	}
	pl_dlist_init(&ix->recent);
	ix->base = -vec->limit - 1;
	return 0;
}

static void counter_referenced(struct lruvec *vec, uint32_t page, uint64_t time, bool fault)
{
	if (lruvec_field(vec, page, LRU_RECENT))
		return;
	lruvec_set_field(vec, page, LRU_RECENT, 1);
	pl_dlist_push_tail(&index_of(vec)->links, &index_of(vec)->recent, page);
}

/* The lowest counter of the list, nearest the tail on a tie. */
static uint32_t lowest_counter(const struct lruvec *vec, enum lru_list_id lru)
{
	const struct counter_index *ix = index_of(vec);
	uint32_t page = page_heap_top(&ix->floor[lru]);

	return page != PL_NONE ? page : page_heap_top(&ix->live[lru]);
}

/* A counter after `ticks` ticks (at most 2 limit + 1), the first of which
 * finds the page `recent` or not and the others find it idle. */
static int64_t counter_after(const struct lruvec *vec, int64_t counter, bool recent,
			     int64_t ticks)
{
	if (recent)
		counter = (counter < vec->limit ? counter + 1 : counter) - (ticks - 1);
	else
		counter -= ticks;
	return counter < -vec->limit ? -vec->limit : counter;
}

/* Recording: every resident page's change of counter, as events. */
static void emit_counters(struct lruvec *vec, int64_t ticks)
{
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		for (uint32_t page = lruvec_head(vec, lru); page != PL_NONE;
		     page = lruvec_toward_tail(vec, page)) {
			int64_t from = counter_of(vec, page);
			int64_t to = counter_after(vec, from, lruvec_field(vec, page, LRU_RECENT),
						   ticks);

			if (from != to)
				pl_emit_set(vec->ctx, page, LRU_WIDE, (int32_t)from, (int32_t)to);
		}
	}
}

/* Moves base up to just below every live key (their order stays). */
static void rebase(struct counter_index *ix, int64_t base)
{
	uint64_t shift = (uint64_t)(base - ix->base) << SEQ_BITS;

	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++)
		for (uint32_t i = 0; i < ix->live[lru].len; i++)
			ix->live[lru].key[ix->live[lru].heap[i]] += shift;
	ix->base = base;
}

/*
 * `ticks` ticks at once: the first sees which pages were referenced since
 * the previous one; the others fall in a pause, when nothing is.
 */
static void age_counters(struct lruvec *vec, uint64_t ticks)
{
	struct counter_index *ix = index_of(vec);
	int64_t d = ticks > (uint64_t)(2 * vec->limit + 1) ? 2 * vec->limit + 1 : (int64_t)ticks;
	uint32_t page;

	if (pl_recording(vec->ctx))
		emit_counters(vec, d);
	/* every live key is above epoch - limit; new ones stay below epoch + d + limit */
	if (ix->epoch + d + vec->limit - ix->base >= (int64_t)(1ull << KEY_BITS) - 1)
		rebase(ix, ix->epoch - vec->limit);
	while ((page = ix->recent.head) != PL_NONE) {
		int64_t counter = counter_after(vec, counter_of(vec, page), true, d);
		unsigned lru = vec->page[page].lru;

		pl_dlist_remove(&ix->links, &ix->recent, page);
		lruvec_set_field(vec, page, LRU_RECENT, 0);
		unfile_page(vec, page, lru);
		vec->wide[page] = counter + ix->epoch + d;
		ix->stamp[page] &= ~IN_FLOOR;
		page_heap_push(&ix->live[lru], page, live_key(ix, vec->wide[page], ix->stamp[page]));
	}
	ix->epoch += d;
	/* the live pages whose counter has reached -limit join the floor */
	for (unsigned lru = 0; lru < NR_LRU_LISTS; lru++) {
		while ((page = page_heap_top(&ix->live[lru])) != PL_NONE &&
		       counter_of(vec, page) == -vec->limit) {
			page_heap_remove(&ix->live[lru], page);
			ix->stamp[page] |= IN_FLOOR;
			page_heap_push(&ix->floor[lru], page, ix->stamp[page] & ~IN_FLOOR);
		}
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

static const struct lru_aging lru_variant_aging = {
	/* the active list ages as in stock Linux (linux.c) */
	.shrink_active = lruvec_deactivate_tail,
	.first_deactivated = lruvec_tail_or_newcomer,
	.referenced = counter_referenced,
	.tail_at_reclaim = lowest_counter,
	.listed = counter_listed,
	.shown_wide = shown_counter,
	.destroy = counter_destroy,
};

static void *counter_clock_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lruvec *vec = lruvec_create(ctx, LRU_RECENT + 1, err);
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
	if (!vec->wide || counter_index_init(vec, ctx->npages ? ctx->npages : 1, frames_usable(ctx))) {
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
