/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freebsd.c - FreeBSD 10's page queues and pagedaemon (sys/vm/vm_pageout.c,
 * vm_pageout_scan(); sys/vm/vm_page.h, the ACT_* constants; the era of seed
 * 003, Chawla, Danandeh and Mertogul 2016), "freebsd", and the report's
 * "Slim Chance" modification of the same scan, "freebsd_slim": two ops
 * tables sharing all their code.
 *
 * Queues (lists, head first; the pagedaemon scans each from its head)
 *
 *   fault --> active:   [h] <-> ... <-> [t]   act_count per page
 *                 |  act_count reaches 0 (active_to_inactive)
 *                 v
 *             inactive: [h] <-> ... <-> [t]   referenced -> back to active
 *                 |  clean (inactive_to_cache)   dirty: requeued once
 *                 v                              ("cycled"), then laundered
 *             cache:    [h] <-> ... <-> [t]   (queued_for_flush: clean
 *                 |  reused by the next fault    after flush_delay refs)
 *                 v
 *             free: frames - resident, a count: a freed page keeps no
 *                   identity, so the free queue has no pages to show.
 *
 * Per page: act_count (0 .. ACT_MAX), referenced (the pmap reference bit,
 * PGA_REFERENCED), dirty, cycled (PG_WINATCFLS: its extra trip round the
 * inactive queue is done) and flushing (a laundry write is in flight).
 *
 * Transitions
 *   hit, active or inactive   referenced := 1 (a write: dirty := 1); the
 *                             page does not move (the hardware sets a bit)
 *   hit, cache                a reclaim (soft fault, counted in reclaims):
 *                             to the active tail, act_count >= ACT_INIT
 *   fault                     a free frame if any, else the cache's head
 *                             is reused (evicted); the page enters the
 *                             active tail with act_count = ACT_INIT and
 *                             referenced = 1.  Then, if free + cache <
 *                             free_target, the pagedaemon scans:
 *   inactive scan, from the head, each page once, while short of the
 *   target (pages_scanned counts every page looked at, both queues):
 *     flushing                skipped (busy)
 *     referenced              referenced := 0, to the active tail,
 *                             act_count += ACT_ADVANCE + 1 (reactivated)
 *     clean                   to the cache tail (inactive_to_cache)
 *     dirty, not cycled       cycled := 1, to the inactive tail
 *     dirty, cycled           laundered: dirty := 0, flushing := 1, the
 *                             write completes flush_delay references later
 *                             (queued_for_flush; at most max_launder a scan)
 *   active scan, from the head, each page once, while the inactive queue is
 *   below inactive_target or free + cache below free_target:
 *     referenced              referenced := 0, act_count += ACT_ADVANCE + 1
 *                             (at most ACT_MAX); to the active tail
 *     not referenced          act_count -= ACT_DECLINE (at least 0); at 0 to
 *                             the inactive tail (active_to_inactive), else
 *                             to the active tail
 *   no free frame and no cache at a fault (the daemon could not keep up)
 *                             the first clean idle inactive page is freed
 *                             (inactive_to_free); else the oldest laundry
 *                             write is waited for and that page freed; else
 *                             the inactive head, else the active head
 *
 * freebsd_slim (the report's "Alternate"): "we divided the activity count"
 * -- an unreferenced active page's act_count is halved instead of
 * decremented -- and "place recently used pages on the rear of the queue,
 * and not the front": a referenced page the scan finds (requeued in active,
 * or reactivated from inactive) goes to the head of the active queue, the
 * end the next scan takes first, instead of the tail.  The report names the
 * end pages leave from the "rear"; this is our reading of its two sentences,
 * the only description of the change it gives.
 *
 * Constants (vm_page.h): ACT_DECLINE 1, ACT_ADVANCE 3, ACT_INIT 5, ACT_MAX
 * 64.  Parameters: free_target and inactive_target in percent of the frames
 * (at least one page), flush_delay in references, max_launder per scan
 * (FreeBSD's vm_max_launder, 32).  Not modelled: the periodic idle scan of
 * the active queue, page clustering, the swap daemon, several passes.
 *
 * Writebacks: laundering clears this policy's dirty bit; the driver counts a
 * writeback when a page written since it was loaded leaves memory, so
 * queued_for_flush is the figure for the laundry's writes.
 *
 * Cost: O(1) per hit and per completed write (a tick per reference checks
 * the oldest write in flight); a daemon run is the algorithm's own scan,
 * bounded by the queues' lengths and counted in pages_scanned.
 */
#include <stdlib.h>

#include "policy.h"
#include "dlist.h"
#include "frame_table.h"

#define ACT_DECLINE 1
#define ACT_ADVANCE 3
#define ACT_INIT 5
#define ACT_MAX 64

enum { Q_ACTIVE, Q_INACTIVE, Q_CACHE, NR_QUEUES };
enum { F_ACT_COUNT, F_REFERENCED, F_DIRTY, F_CYCLED, F_FLUSHING, NR_FIELDS };
enum {
	C_PAGES_SCANNED, C_ACTIVE_TO_INACTIVE, C_INACTIVE_TO_CACHE, C_INACTIVE_TO_FREE,
	C_QUEUED_FOR_FLUSH, C_REACTIVATED, C_RECLAIMS, C_DAEMON_RUNS, NR_COUNTERS
};
enum { P_FREE_MIN, P_FREE_TARGET, P_INACTIVE_TARGET, P_FLUSH_DELAY, P_MAX_LAUNDER, NR_PARAMS };

/* Enough passes for any act_count to decline to 0 with no reference between. */
#define MAX_PASSES (ACT_MAX / ACT_DECLINE + 2)

/* A page's fields and queue side by side: a scan touches one cache line. */
struct page_state {
	uint8_t field[NR_FIELDS];
	uint8_t where;		/* the queue of a resident page */
};

struct freebsd {
	struct pl_ctx *ctx;
	bool slim;
	struct pl_links links;
	struct pl_dlist queue[NR_QUEUES];
	struct page_state *page;	/* [npages] */
	uint32_t *flush_done;		/* [npages] step its write completes */
	uint32_t *laundry;		/* pages in flight, oldest first (a ring) */
	uint32_t laundry_head, laundry_len, laundry_cap;
	uint32_t free_min, free_target, inactive_target, flush_delay, max_launder;
	bool changed;			/* a pass moved or changed a page */
	uint32_t now;			/* the reference being processed */
	uint32_t resident;
	uint64_t counter[NR_COUNTERS];
};

static void freebsd_destroy(void *state)
{
	struct freebsd *f = state;

	if (!f)
		return;
	pl_links_free(&f->links);
	free(f->page);
	free(f->flush_done);
	free(f->laundry);
	free(f);
}

static uint32_t percent_of_frames(const struct pl_ctx *ctx, int64_t percent)
{
	uint64_t pages = (uint64_t)frames_usable(ctx) * (uint64_t)percent / 100;

	return pages ? (uint32_t)pages : 1;
}

static void *create(struct pl_ctx *ctx, struct pl_error *err, bool slim)
{
	struct freebsd *f = calloc(1, sizeof(*f));
	size_t n = ctx->npages ? ctx->npages : 1;
	bool ok = f && !pl_links_init(&f->links, ctx->npages);

	if (ok) {
		f->page = calloc(n, sizeof(*f->page));
		f->flush_done = calloc(n, sizeof(*f->flush_done));
		f->laundry_cap = frames_usable(ctx);
		f->laundry = calloc(f->laundry_cap, sizeof(*f->laundry));
		ok = f->page && f->flush_done && f->laundry;
	}
	if (!ok) {
		freebsd_destroy(f);
		snprintf(err->msg, sizeof(err->msg), "freebsd: out of memory");
		return NULL;
	}
	f->ctx = ctx;
	f->slim = slim;
	for (unsigned q = 0; q < NR_QUEUES; q++)
		pl_dlist_init(&f->queue[q]);
	f->free_target = percent_of_frames(ctx, ctx->params[P_FREE_TARGET]);
	f->free_min = percent_of_frames(ctx, ctx->params[P_FREE_MIN]);
	if (f->free_min > f->free_target)
		f->free_min = f->free_target;
	f->inactive_target = percent_of_frames(ctx, ctx->params[P_INACTIVE_TARGET]);
	f->flush_delay = (uint32_t)ctx->params[P_FLUSH_DELAY];
	f->max_launder = (uint32_t)ctx->params[P_MAX_LAUNDER];
	ctx->tick_period = 1;	/* completes laundry writes on time */
	return f;
}

static void *freebsd_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return create(ctx, err, false);
}

static void *slim_create(struct pl_ctx *ctx, struct pl_error *err)
{
	return create(ctx, err, true);
}

/* ------------------------------------------------------------ helpers */

static void set(struct freebsd *f, uint32_t page, unsigned field, uint8_t value)
{
	uint8_t *cell = &f->page[page].field[field];

	if (*cell == value)
		return;
	pl_emit_set(f->ctx, page, field, *cell, value);
	*cell = value;
	f->changed = true;
}

static uint8_t get(const struct freebsd *f, uint32_t page, unsigned field)
{
	return f->page[page].field[field];
}

/* Moves a resident page to the head or tail of queue `to`. */
static void requeue(struct freebsd *f, uint32_t page, unsigned to, bool at_head)
{
	unsigned from = f->page[page].where;

	pl_dlist_remove(&f->links, &f->queue[from], page);
	if (at_head)
		pl_dlist_push_head(&f->links, &f->queue[to], page);
	else
		pl_dlist_push_tail(&f->links, &f->queue[to], page);
	f->page[page].where = (uint8_t)to;
	pl_emit_move(f->ctx, page, from, to, at_head ? 0 : f->queue[to].len - 1);
	f->changed = true;
}

static uint32_t free_frames(const struct freebsd *f)
{
	return f->ctx->frames - f->resident;
}

/* How far free + cache are below `target` (vm_paging_target() for free_target). */
static int64_t shortage_below(const struct freebsd *f, uint32_t target)
{
	return (int64_t)target - free_frames(f) - f->queue[Q_CACHE].len;
}

static int64_t paging_shortage(const struct freebsd *f)
{
	return shortage_below(f, f->free_target);
}

static void activate(struct freebsd *f, uint32_t page, bool at_head)
{
	requeue(f, page, Q_ACTIVE, at_head);
	if (get(f, page, F_ACT_COUNT) < ACT_INIT)
		set(f, page, F_ACT_COUNT, ACT_INIT);
}

static void advance(struct freebsd *f, uint32_t page)
{
	unsigned count = get(f, page, F_ACT_COUNT) + ACT_ADVANCE + 1;

	set(f, page, F_ACT_COUNT, count > ACT_MAX ? ACT_MAX : (uint8_t)count);
}

/* ----------------------------------------------------------- laundry */

static void launder(struct freebsd *f, uint32_t page)
{
	set(f, page, F_DIRTY, 0);
	set(f, page, F_FLUSHING, 1);
	f->flush_done[page] = f->now + f->flush_delay;
	f->laundry[(f->laundry_head + f->laundry_len++) % f->laundry_cap] = page;
	f->counter[C_QUEUED_FOR_FLUSH]++;
}

static uint32_t oldest_flush(const struct freebsd *f)
{
	return f->laundry_len ? f->laundry[f->laundry_head] : PL_NONE;
}

static void flush_completed(struct freebsd *f)
{
	uint32_t page = oldest_flush(f);

	f->laundry_head = (f->laundry_head + 1) % f->laundry_cap;
	f->laundry_len--;
	set(f, page, F_FLUSHING, 0);
}

/* Writes complete in the order they were queued (one delay for all). */
static void freebsd_tick(void *state, uint32_t step)
{
	struct freebsd *f = state;

	f->now = step;
	while (f->laundry_len && f->flush_done[oldest_flush(f)] <= step)
		flush_completed(f);
}

/* ------------------------------------------------------- the pagedaemon */

/* One inactive page looked at; returns how much of the shortage it met. */
static int64_t scan_inactive_page(struct freebsd *f, uint32_t page, unsigned pass,
				  uint32_t *launder_left)
{
	if (get(f, page, F_FLUSHING))
		return 0;
	if (get(f, page, F_REFERENCED)) {
		set(f, page, F_REFERENCED, 0);
		activate(f, page, f->slim);
		advance(f, page);
		f->counter[C_REACTIVATED]++;
		return 0;
	}
	if (!get(f, page, F_DIRTY)) {
		requeue(f, page, Q_CACHE, false);
		f->counter[C_INACTIVE_TO_CACHE]++;
		return 1;
	}
	if (!get(f, page, F_CYCLED) && pass == 0) {
		set(f, page, F_CYCLED, 1);
		requeue(f, page, Q_INACTIVE, false);
		return 0;
	}
	if (!*launder_left)
		return 0;
	(*launder_left)--;
	launder(f, page);
	return 1;	/* FreeBSD counts the (future) clean page */
}

static void scan_inactive(struct freebsd *f, unsigned pass)
{
	int64_t shortage = paging_shortage(f);
	uint32_t launder_left = pass > 1 ? UINT32_MAX : f->max_launder;
	uint32_t page = f->queue[Q_INACTIVE].head;

	for (uint32_t n = f->queue[Q_INACTIVE].len; n > 0 && shortage > 0 && page != PL_NONE; n--) {
		uint32_t next = f->links.link[page].next;

		f->counter[C_PAGES_SCANNED]++;
		shortage -= scan_inactive_page(f, page, pass, &launder_left);
		page = next;
	}
}

static uint8_t decline(const struct freebsd *f, uint8_t count)
{
	if (f->slim)
		return count / 2;
	return count > ACT_DECLINE ? count - ACT_DECLINE : 0;
}

static void scan_active(struct freebsd *f)
{
	int64_t shortage = (int64_t)f->inactive_target - f->queue[Q_INACTIVE].len +
			   (paging_shortage(f) > 0 ? paging_shortage(f) : 0);
	uint32_t page = f->queue[Q_ACTIVE].head;

	for (uint32_t n = f->queue[Q_ACTIVE].len; n > 0 && shortage > 0 && page != PL_NONE; n--) {
		uint32_t next = f->links.link[page].next;

		f->counter[C_PAGES_SCANNED]++;
		if (get(f, page, F_REFERENCED)) {
			set(f, page, F_REFERENCED, 0);
			advance(f, page);
			requeue(f, page, Q_ACTIVE, f->slim);
		} else {
			set(f, page, F_ACT_COUNT, decline(f, get(f, page, F_ACT_COUNT)));
			if (get(f, page, F_ACT_COUNT) == 0) {
				requeue(f, page, Q_INACTIVE, false);
				f->counter[C_ACTIVE_TO_INACTIVE]++;
				shortage--;
			} else {
				requeue(f, page, Q_ACTIVE, false);
			}
		}
		page = next;
	}
}

/*
 * Woken when free + cache fall below free_min, the daemon scans until they
 * reach free_target again.  A pass that falls short is followed by a more
 * aggressive one, as vm_pageout_worker() does while the faulting program
 * waits: from pass 1 dirty pages are laundered without their extra trip,
 * from pass 2 with no launder limit.  No reference happens in between, so
 * the passes end when the target is met, a pass changes nothing, or every
 * act_count has had time to decline to 0.
 */
static void pagedaemon(struct freebsd *f)
{
	f->counter[C_DAEMON_RUNS]++;
	for (unsigned pass = 0; pass < MAX_PASSES && paging_shortage(f) > 0; pass++) {
		f->changed = false;
		scan_inactive(f, pass);
		scan_active(f);
		if (!f->changed)
			break;
	}
}

/* ---------------------------------------------------------- the ops */

static void reference(struct freebsd *f, const struct pl_ref *ref)
{
	set(f, ref->page, F_REFERENCED, 1);
	if (ref->flags & PL_REF_WRITE)
		set(f, ref->page, F_DIRTY, 1);
}

static void freebsd_hit(void *state, const struct pl_ref *ref)
{
	struct freebsd *f = state;

	if (f->page[ref->page].where == Q_CACHE) {
		f->counter[C_RECLAIMS]++;
		activate(f, ref->page, false);
	}
	reference(f, ref);
}

static void freebsd_insert(void *state, const struct pl_ref *ref)
{
	struct freebsd *f = state;
	uint32_t page = ref->page;

	f->now = ref->step;
	f->page[page] = (struct page_state){ .where = Q_ACTIVE };
	pl_dlist_push_tail(&f->links, &f->queue[Q_ACTIVE], page);
	f->resident++;
	pl_emit_insert(f->ctx, page, Q_ACTIVE, f->queue[Q_ACTIVE].len - 1);
	set(f, page, F_ACT_COUNT, ACT_INIT);
	reference(f, ref);
	if (shortage_below(f, f->free_min) > 0)
		pagedaemon(f);
}

/* The first clean page of the inactive queue with no write in flight. */
static uint32_t first_clean_inactive(const struct freebsd *f)
{
	for (uint32_t p = f->queue[Q_INACTIVE].head; p != PL_NONE; p = f->links.link[p].next)
		if (!get(f, p, F_DIRTY) && !get(f, p, F_FLUSHING))
			return p;
	return PL_NONE;
}

static uint32_t freebsd_victim(const void *state)
{
	const struct freebsd *f = state;
	uint32_t page;

	if (f->queue[Q_CACHE].len)
		return f->queue[Q_CACHE].head;
	if ((page = first_clean_inactive(f)) != PL_NONE)
		return page;
	if ((page = oldest_flush(f)) != PL_NONE)
		return page;
	if (f->queue[Q_INACTIVE].len)
		return f->queue[Q_INACTIVE].head;
	return f->queue[Q_ACTIVE].head;
}

static void freebsd_evict(void *state, uint32_t victim)
{
	struct freebsd *f = state;
	unsigned from = f->page[victim].where;

	if (get(f, victim, F_FLUSHING)) {	/* the fault waits for the write */
		while (oldest_flush(f) != victim)
			flush_completed(f);
		flush_completed(f);
	}
	if (from == Q_INACTIVE)
		f->counter[C_INACTIVE_TO_FREE]++;
	pl_dlist_remove(&f->links, &f->queue[from], victim);
	f->resident--;
	pl_emit_evict(f->ctx, victim, from);
}

static void freebsd_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct freebsd *f = state;

	for (unsigned q = 0; q < NR_QUEUES; q++)
		for (uint32_t p = f->queue[q].head; p != PL_NONE; p = f->links.link[p].next) {
			int32_t values[NR_FIELDS];

			for (unsigned i = 0; i < NR_FIELDS; i++)
				values[i] = f->page[p].field[i];
			pl_snapshot_push(out, q, p, values);
		}
}

static void freebsd_read_counters(const void *state, uint64_t *counters)
{
	const struct freebsd *f = state;

	for (unsigned i = 0; i < NR_COUNTERS; i++)
		counters[i] = f->counter[i];
}

static const struct pl_param freebsd_params[] = {
	[P_FREE_MIN] = {
		.name = "free_min",
		.help = "percent of the frames (at least one page, at most free_target): the "
			"pagedaemon wakes when free + cache fall below",
		.def = 5, .min = 1, .max = 50,
	},
	[P_FREE_TARGET] = {
		.name = "free_target",
		.help = "percent of the frames (at least one page) the pagedaemon refills "
			"free + cache to",
		.def = 10, .min = 1, .max = 50,
	},
	[P_INACTIVE_TARGET] = {
		.name = "inactive_target",
		.help = "percent of the frames the active scan keeps in the inactive queue",
		.def = 33, .min = 1, .max = 90,
	},
	[P_FLUSH_DELAY] = {
		.name = "flush_delay",
		.help = "references until a laundered page's write completes and it is clean",
		.def = 16, .min = 0, .max = 1000000,
	},
	[P_MAX_LAUNDER] = {
		.name = "max_launder",
		.help = "dirty pages the inactive scan may launder per run (vm_max_launder)",
		.def = 32, .min = 1, .max = 1000000,
	},
};

static const char *const freebsd_lists[] = {
	[Q_ACTIVE] = "active", [Q_INACTIVE] = "inactive", [Q_CACHE] = "cache",
};
static const char *const freebsd_fields[] = {
	[F_ACT_COUNT] = "act_count", [F_REFERENCED] = "referenced", [F_DIRTY] = "dirty",
	[F_CYCLED] = "cycled", [F_FLUSHING] = "flushing",
};
static const char *const freebsd_counters[] = {
	[C_PAGES_SCANNED] = "pages_scanned",
	[C_ACTIVE_TO_INACTIVE] = "active_to_inactive",
	[C_INACTIVE_TO_CACHE] = "inactive_to_cache",
	[C_INACTIVE_TO_FREE] = "inactive_to_free",
	[C_QUEUED_FOR_FLUSH] = "queued_for_flush",
	[C_REACTIVATED] = "reactivated",
	[C_RECLAIMS] = "reclaims",
	[C_DAEMON_RUNS] = "daemon_runs",
};

#define FREEBSD_OPS						\
	.params = freebsd_params,				\
	.nparams = NR_PARAMS,					\
	.lists = freebsd_lists,					\
	.nlists = NR_QUEUES,					\
	.fields = freebsd_fields,				\
	.nfields = NR_FIELDS,					\
	.counters = freebsd_counters,				\
	.ncounters = NR_COUNTERS,				\
	.destroy = freebsd_destroy,				\
	.hit = freebsd_hit,					\
	.insert = freebsd_insert,				\
	.victim = freebsd_victim,				\
	.evict = freebsd_evict,					\
	.tick = freebsd_tick,					\
	.snapshot = freebsd_snapshot,				\
	.read_counters = freebsd_read_counters

const struct pl_policy_ops pl_policy_freebsd = {
	.name = "freebsd",
	.title = "FreeBSD 10 page queues and pagedaemon",
	.help = "Active, inactive and cache queues with act_count aging; the pagedaemon "
		"refills free + cache from the inactive queue, laundering dirty pages first.",
	.flags = PL_POLICY_SPARSE,
	.create = freebsd_create,
	FREEBSD_OPS,
};

const struct pl_policy_ops pl_policy_freebsd_slim = {
	.name = "freebsd_slim",
	.title = "FreeBSD with seed 003's Slim Chance scan",
	.help = "FreeBSD's pagedaemon with the report's change: act_count halved instead of "
		"decremented, referenced pages requeued where the scan looks first.",
	.flags = PL_POLICY_SPARSE,
	.create = slim_create,
	FREEBSD_OPS,
};
