/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lruk.c - LRU-K (E. J. O'Neil, P. E. O'Neil and G. Weikum, "The LRU-K Page
 * Replacement Algorithm For Database Disk Buffering", SIGMOD 1993), with
 * its correlated reference period and retained information period.  Seed
 * 002 builds a variant of it into Linux; that one is linux_lruk.c.
 *
 * Algorithm
 *   Time is counted in references (the step).  Each page p has HIST(p, 1..K),
 *   the times of its K most recent *uncorrelated* references (HIST(p, 1) the
 *   latest), and LAST(p), the time of its most recent reference.  A
 *   reference within `crp` references of LAST(p) is correlated with it (one
 *   burst of use, e.g. a transaction's read then write) and does not count
 *   as a new reference.  The backward K-distance of p at time t is
 *   t - HIST(p, K), infinite when p has fewer than K references.  On a miss
 *   with memory full the victim is, among the resident pages outside their
 *   correlated period (t - LAST(p) > crp), the one with the largest backward
 *   K-distance; pages with infinite distance tie and the one with the least
 *   recent LAST goes first.  (If every resident page is inside its
 *   correlated period -- possible only with crp > 0 -- the page with the
 *   least recent LAST goes.)  An evicted page's history is kept for `rip`
 *   references after its LAST, so that a page coming back soon is not a
 *   stranger; after that it is forgotten.
 *
 * Transition table (t = the time of the reference to p)
 *   hit,  t - LAST(p) <= crp   LAST(p) := t                    (correlated)
 *   hit,  t - LAST(p) >  crp   d := LAST(p) - HIST(p,1);
 *                              HIST(p,i) := HIST(p,i-1) + d for i = K..2;
 *                              HIST(p,1) := t; LAST(p) := t
 *   miss, history retained     HIST(p,i) := HIST(p,i-1) for i = K..2;
 *         (t - LAST(p) <= rip)  HIST(p,1) := t; LAST(p) := t
 *   miss, no history           HIST(p,1) := t, HIST(p,2..K) := none; LAST(p) := t
 *   eviction                   max over eligible q of t - HIST(q,K), ties
 *                              (infinite distances) by least recent LAST
 *
 * Structure: the list "frames" (the frame table: a page keeps its slot
 * while resident) and the ghost list "history": the evicted pages whose
 * history is retained, most recently evicted at the head; fields hist1 ..
 * hist4 (the reference times, -1: none; hist2 .. hist4 stay -1 beyond k)
 * and last, on both.  With rip = 0 an evicted page's history is dropped at
 * its eviction; with rip > 0 an entry older than rip stays listed until its
 * page faults again, when it is forgotten (counter "forgotten").
 *
 *     frames:  [ 7 | hist1=9 hist2=4 last=9 ] [ 0 | hist1=8 hist2=-1 ... ] ...
 *     history: [ 3 | hist1=2 hist2=-1 last=2 ] ...   (evicted, remembered)
 *     filed, by what decides their turn to go:
 *       young        pages with < K references: a log, oldest LAST first
 *       eligible     the others, outside their correlated period:
 *         queue      most: a bitmap over the recent references' times,
 *                    a page's bit at its HIST(K), oldest first (time_queue)
 *         heap       the rest (a HIST(K) older than the queue's first, or
 *                    no reference time): a 4-ary max-heap of their slots
 *                    on (-HIST(K), -LAST)
 *       correlated   the others, inside it:       head (oldest LAST) -> tail
 *
 * Parameters (defaults): k = 2 (1 .. 4); crp = 0 (references); rip = -1
 * (references; -1: history is kept for ever, 0: forgotten at eviction).
 *
 * Counters: correlated_hits, retained_refaults (faults that found the
 * page's history), forgotten (histories dropped for age at a fault).
 *
 * Cost: amortized O(1) per reference on the default parameters, O(log
 * frames) at worst.  Pages with fewer than K references all have infinite
 * distance, so they are ranked by LAST alone: appended to the young log
 * (page_log below), O(1).  The others, outside their correlated period, are
 * ranked by HIST(K), a time at which the page was referenced unless k > 2
 * with crp > 0: such a time is one bit of the time queue, where a hit
 * moves the page's bit forward and the victim is the first bit set, found
 * by a scan that only goes forward (each word of the bitmap passed once).
 * A key older than the first bit cannot join (the scan would go back),
 * nor one older than the ring of the queue (QUEUE_SPAN references per
 * frame) remembers; those pages, the queue's oldest when the ring comes
 * round to it, and every eligible page when HIST(K) is no reference time,
 * go to a heap of frame slots keyed by (HIST(K), LAST).  The heap holds
 * the likeliest victims (the pages with the oldest HIST(K)), so it stays
 * small: two entries on average, 30 at most, on the 10M-reference zipf
 * trace at 64K frames.  Pages inside their correlated period are in a
 * list ordered by LAST, filed as eligible when the period ends, each at
 * most once per reference; with crp = 0 that list stays empty.  The
 * history list is a log too, walked newest first for the snapshot; its
 * compaction tests residency bytes and a bitmap, not the records.  What
 * a reference reads of its page is one record (times[], in huge pages
 * where Linux gives them): a hit on a page in the queue, most hits,
 * touches nothing else of that page's but two bits, and of the others'
 * only the ring's entry for now.  Memory per page of the trace: K + 2
 * words (the record), 2 (the correlated list's links) and, with rip != 0,
 * 4 (the history log) and a bit (its compaction's); per frame, QUEUE_SPAN
 * words and bits (the ring and its bitmap), and about a dozen words (the
 * frame table keeps no page -> slot index: a page's slot is in its record).
 * Beyond lru's work: a hit shifts the page's K times in its record and
 * moves its bit (or moves a page in its correlated period); a fault reads
 * the faulting page's history record and the victim's, evicts, and files
 * the new page in the young log, the queue or the heap.  The victims, next
 * and after next, are known before their faults: prefetch() names their
 * records and residency bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "dlist.h"
#include "frame_table.h"
#include "huge_pages.h"
#include "slot_heap.h"

#define LRUK_MAX_K 4
/* For the few helpers a reference runs many times: no call, whatever the unit's size. */
#define LRUK_INLINE static inline __attribute__((always_inline))
/*
 * The ops that run on every reference are each written once, as an
 * inline body, and compiled twice: where k is 2, the default, so that the
 * compiler knows a record's size and makes each loop over HIST one step,
 * and for any k.  (k is a size_t so that no store of a time, a uint32_t,
 * could change it as far as the compiler knows.)  Callgrind, 1M zipf
 * references at 64K frames: 330 -> 294 instructions a reference.
 */
#define FOR_K(l, body) do { if ((l)->k == 2) body; else body; } while (0)

enum { LRUK_FRAMES, LRUK_HISTORY };
enum { LRUK_HIST1, LRUK_LAST = LRUK_MAX_K, NR_LRUK_FIELDS };
enum { LRUK_PARAM_K, LRUK_PARAM_CRP, LRUK_PARAM_RIP };
/*
 * Where a resident page is filed (see the structure in the header), in the
 * low PLACE_BITS of its record's last word, above them its frame slot; a
 * page not resident is NOWHERE.
 */
enum lruk_place { IN_YOUNG, IN_QUEUE, IN_HEAP, IN_CORRELATED, NOWHERE };
#define PLACE_BITS 3
#define PLACE_MASK ((1u << PLACE_BITS) - 1)

enum { LRUK_CORRELATED_HITS, LRUK_RETAINED_REFAULTS, LRUK_FORGOTTEN, NR_LRUK_COUNTERS };

/*
 * An append-only log of pages, each entry stamped with a time: the entry
 * holds only while its page's record agrees (young_live(), history_live()).  A page thus leaves the log by a
 * change of its own record, never by unlinking, so leaving touches no
 * other page.  Dead entries are dropped when the log fills (log_append());
 * room for twice the most live entries makes that O(1) per append.
 */
struct page_log {
	struct log_entry {
		uint32_t page, stamp;
	} *entry;
	uint32_t head, end, cap;	/* entries [head, end) of [cap] */
};

/*
 * The time queue: eligible pages filed by their HIST(K) where that is a
 * time at which the page itself was referenced (with crp = 0 always; with
 * k <= 2 too, a correlated period only moving LAST), so that no two pages
 * share it.  A ring remembers which page each of the last (mask + 1)
 * references named, a bitmap beside it which of those times are the
 * HIST(K) of a page filed here ("live"); the eligible page with the oldest
 * HIST(K) among them is the ring's page at the first live time, found by
 * scanning the bitmap forward a word at a time.  A hit moves its page's
 * bit forward, a victim's bit is cleared: two bit flips, where a heap
 * sifts through its levels.  A key the queue cannot take -- older than its
 * first live time, or than the ring remembers -- goes to the heap, and so
 * does the queue's oldest page when the ring comes round to it (both are
 * the next victims, so the heap stays small); the victim is the older of
 * the two candidates.
 */
struct time_queue {
	uint32_t *page;		/* [mask + 1] the page referenced at time t, at t & mask */
	uint64_t *live;		/* [(mask + 1) / 64] bit t & mask: t is live */
	uint32_t mask;
	uint32_t first;		/* no live time is older; the oldest once settled */
	uint32_t len;		/* live times */
	bool usable;		/* every HIST(K) is a reference time (k <= 2 or crp = 0) */
};

/* The ring covers this many references per frame (a power of two >= 64 in all). */
#define QUEUE_SPAN 32

/*
 * Times are stored as step + 1, so that 0 means "none" and a page that has
 * never been seen has all-zero history without initialisation.
 */
struct lruk {
	struct pl_ctx *ctx;
	size_t k;		/* size_t: see FOR_K() */
	uint64_t crp;
	int64_t rip;
	uint32_t *times;	/* [npages * (k + 2)]: HIST(p, 1..K), LAST(p) and
				 * p's slot and place (where_of()): everything a
				 * reference reads of its page, in one record */
	struct huge_array times_mem;	/* times' memory: see lruk_create() */
	struct frame_table table;
	struct time_queue queue;	/* eligible pages by HIST(K), most of them */
	struct slot_heap eligible;	/* slots of the other eligible pages */
	struct page_log young;	/* resident pages with fewer than K references,
				 * oldest LAST first; stamped with LAST */
	struct pl_links links;
	struct pl_dlist correlated;	/* the others inside their correlated period,
					 * oldest LAST first */
	struct page_log history;	/* evicted pages with history, oldest eviction
					 * first; stamped with the eviction's time */
	uint64_t *seen;		/* [npages / 64] all 0 but inside compact_history() */
	uint32_t next;		/* the next reference's time (stored units) */
	bool top_vacated;	/* the heap's top is the slot evict() just emptied */
	uint64_t count[NR_LRUK_COUNTERS];
};

static uint32_t *hist_of(const struct lruk *l, uint32_t page)
{
	return &l->times[(size_t)page * (l->k + 2)];
}

static uint32_t *last_of(const struct lruk *l, uint32_t page)
{
	return &hist_of(l, page)[l->k];
}

/* slot << PLACE_BITS | place */
static uint32_t *where_of(const struct lruk *l, uint32_t page)
{
	return &hist_of(l, page)[l->k + 1];
}

static enum lruk_place filed_in(const struct lruk *l, uint32_t page)
{
	return (enum lruk_place)(*where_of(l, page) & PLACE_MASK);
}

/*
 * The heap holds frame slots, not page ids: its keys and positions then
 * fit in a few hundred kilobytes for 64K frames, where per-page arrays
 * would be a cache miss on every comparison.
 */
static uint32_t slot_of(const struct lruk *l, uint32_t page)
{
	return *where_of(l, page) >> PLACE_BITS;
}

LRUK_INLINE void set_place(struct lruk *l, uint32_t page, enum lruk_place place)
{
	*where_of(l, page) = (*where_of(l, page) & ~PLACE_MASK) | place;
}

/* The field value shown for a stored time: the step, -1 for none. */
static int32_t shown(uint32_t stored)
{
	return (int32_t)stored - 1;
}

/*
 * Heap key: the victim has the largest.  Smaller HIST(K) (none = 0 is the
 * smallest, infinite distance) ranks first, then smaller LAST.
 */
static uint64_t victim_key(const struct lruk *l, uint32_t page)
{
	return (uint64_t)(UINT32_MAX - hist_of(l, page)[l->k - 1]) << 32 |
	       (UINT32_MAX - *last_of(l, page));
}

static void set_time(struct lruk *l, uint32_t page, unsigned field, uint32_t *slot,
		     uint32_t value)
{
	if (pl_recording(l->ctx) && *slot != value)
		pl_emit_set(l->ctx, page, field, shown(*slot), shown(value));
	*slot = value;
}

/* --------------------------------------------------------------- logs */

/* A young log entry: its page is still young, with this LAST. */
static bool young_live(const struct lruk *l, struct log_entry e)
{
	return filed_in(l, e.page) == IN_YOUNG && *last_of(l, e.page) == e.stamp;
}

/*
 * A history log entry, stamped with the time of its page's eviction: the
 * page has not been referenced since.  (So evict() need not read the
 * victim's record.)
 */
static bool history_live(const struct lruk *l, struct log_entry e)
{
	return *last_of(l, e.page) < e.stamp;
}

/* Room for twice `most` live entries, so that a compaction frees half. */
static int log_init(struct page_log *log, uint32_t most)
{
	log->head = log->end = 0;
	log->cap = 2 * (most ? most : 1);
	log->entry = malloc((size_t)log->cap * sizeof(*log->entry));
	return log->entry ? 0 : -1;
}

/* How many entries ahead a compaction asks for what it tests. */
#define LOG_AHEAD 16

/* Drops the young log's dead entries, keeping the others' order (`coming`: see log_append()). */
static __attribute__((noinline)) void compact_young(struct lruk *l, uint32_t coming)
{
	struct page_log *log = &l->young;
	uint32_t kept = 0;

	for (uint32_t i = log->head; i < log->end; i++) {
		/* each test reads a page's record: ask for those ahead */
		if (log->end - i > LOG_AHEAD)
			pl_request_line(hist_of(l, log->entry[i + LOG_AHEAD].page), 0);
		if (young_live(l, log->entry[i]))
			log->entry[kept++] = log->entry[i];
	}
	log->head = 0;
	log->end = kept;
}

/*
 * Drops the history log's dead entries, keeping the others' order, before
 * `coming` (just evicted) is appended.  An entry is live (history_live())
 * iff its page is not resident and the entry is the page's latest: a
 * reference since the eviction made the page resident, and its next
 * eviction appended a newer entry (as `coming`'s is about to be).  So the
 * log is walked newest first, testing each page's residency byte and a
 * bit of `seen` (set for a page's latest entry, cleared again after):
 * 1 MB and 128 KB for the benchmark's 1M pages, mostly in the caches,
 * where the pages' records (16 MB) mostly are not.
 */
static __attribute__((noinline)) void compact_history(struct lruk *l, uint32_t coming)
{
	struct page_log *log = &l->history;
	const uint8_t *page_state = l->ctx->page_state;
	uint32_t kept = log->end;

	l->seen[coming >> 6] = (uint64_t)1 << (coming & 63);

	/*
	 * Without a branch on the tests, whose loads wait for the caches:
	 * the walk goes on meanwhile.  Each entry is written to the next
	 * free place from the top (kept - 1 >= i), which it keeps if live.
	 */
	for (uint32_t i = log->end; i-- > log->head;) {
		struct log_entry e = log->entry[i];
		uint64_t *word = &l->seen[e.page >> 6], seen = *word;
		uint64_t live = (~page_state[e.page] & PL_PAGE_RESIDENT) &
				~(seen >> (e.page & 63));

		if (i >= log->head + LOG_AHEAD)
			pl_request_line(&page_state[log->entry[i - LOG_AHEAD].page], 0);
		*word = seen | live << (e.page & 63);
		log->entry[kept - 1] = e;
		kept -= (uint32_t)live;
	}
	for (uint32_t i = kept; i < log->end; i++)
		l->seen[log->entry[i].page >> 6] = 0;
	l->seen[coming >> 6] = 0;
	memmove(log->entry, &log->entry[kept], (size_t)(log->end - kept) * sizeof(*log->entry));
	log->head = 0;
	log->end -= kept;
}

/*
 * Appends `page`'s entry, first making room in a full log (`compact`: its
 * compaction, told the page whose entry is coming).
 */
LRUK_INLINE void log_append(struct lruk *l, struct page_log *log, uint32_t page, uint32_t stamp,
			    void (*compact)(struct lruk *, uint32_t))
{
	if (log->end == log->cap)
		compact(l, page);
	log->entry[log->end++] = (struct log_entry){ .page = page, .stamp = stamp };
}

/* Drops the dead entries at the young log's head, which is then the young
 * page with the least recent LAST. */
static void clean_young(struct lruk *l)
{
	struct page_log *log = &l->young;

	while (log->head < log->end && !young_live(l, log->entry[log->head]))
		log->head++;
}

/* The young page with the least recent LAST, or PL_NONE (after clean_young()). */
static uint32_t oldest_young(const struct lruk *l)
{
	return l->young.head < l->young.end ? l->young.entry[l->young.head].page : PL_NONE;
}

/* ------------------------------------------------------ time queue */

LRUK_INLINE void queue_flip(struct time_queue *q, uint32_t time)
{
	q->live[(time & q->mask) >> 6] ^= (uint64_t)1 << (time & 63);
}

/* queue_scan() past the word of `time`, which has no live time from `time` on. */
static __attribute__((noinline)) uint32_t queue_scan_on(const struct time_queue *q,
							 uint32_t time)
{
	uint64_t bits;

	do {
		time = (time | 63) + 1;
		bits = q->live[(time & q->mask) >> 6];
	} while (!bits);
	return (time & ~(uint32_t)63) + (uint32_t)__builtin_ctzll(bits);
}

/* The oldest live time from `time` on (the queue is not empty). */
LRUK_INLINE uint32_t queue_scan(const struct time_queue *q, uint32_t time)
{
	uint64_t bits = q->live[(time & q->mask) >> 6] & (~(uint64_t)0 << (time & 63));

	if (!bits)
		return queue_scan_on(q, time);
	return (time & ~(uint32_t)63) + (uint32_t)__builtin_ctzll(bits);
}

/* Points `first` at the oldest live time. */
static void queue_settle(struct time_queue *q)
{
	if (q->len)
		q->first = queue_scan(q, q->first);
}

/*
 * Can the queue take `key`, the HIST(K) of the page referenced at `now`?
 * The ring must still hold the key's page, and `first` stay below every
 * live time.
 */
static bool queue_takes(const struct time_queue *q, uint32_t key, uint32_t now)
{
	return q->usable && now - key <= q->mask && (!q->len || key >= q->first);
}

static void queue_file(struct lruk *l, uint32_t page, uint32_t key)
{
	struct time_queue *q = &l->queue;

	queue_flip(q, key);
	if (!q->len++)
		q->first = key;
	set_place(l, page, IN_QUEUE);
}

static void queue_unfile(struct time_queue *q, uint32_t key)
{
	queue_flip(q, key);
	q->len--;
}

static void push_eligible(struct lruk *l, uint32_t page);

/*
 * Notes that `page` is referenced at time `now`, in the ring's entry that
 * held now - (mask + 1): should that time still be live, its page, the
 * queue's oldest, moves to the heap first, and `first` is settled again.
 * (The queue is usable.)
 */
static void queue_note(struct lruk *l, uint32_t page, uint32_t now)
{
	struct time_queue *q = &l->queue;

	if (q->len && now - q->first > q->mask) {
		queue_settle(q);
		if (now - q->first > q->mask) {
			uint32_t oldest = q->page[q->first & q->mask];

			queue_unfile(q, q->first);
			push_eligible(l, oldest);
			queue_settle(q);
		}
	}
	q->page[now & q->mask] = page;
}

/* ------------------------------------------------------- eligibility */

/* Has the page's correlated period ended by time `now` (stored units)? */
static bool eligible_at(const struct lruk *l, uint32_t page, uint32_t now)
{
	return now - *last_of(l, page) > l->crp;
}

static void push_eligible(struct lruk *l, uint32_t page)
{
	uint32_t slot = slot_of(l, page);

	slot_heap_push(&l->eligible, slot, victim_key(l, page));
	set_place(l, page, IN_HEAP);
}

/*
 * A victim from the heap is its top, and the page faulting in takes the
 * victim's slot (frame_table.h).  So evict() leaves the slot's entry on
 * top, vacated, and the insertion re-keys it in place: one sift down from
 * the top, which stops early for a page coming back with an old history
 * (the likely next victims), instead of a removal sifting a leaf all the
 * way down and a push sifting the newcomer all the way up.  A newcomer
 * that does not join the heap removes the entry.  (The default reclaim
 * goal: one eviction, then the insertion.)
 */
static void fill_vacated_top(struct lruk *l, uint32_t page, bool joins_heap)
{
	uint32_t slot = slot_of(l, page);

	l->top_vacated = false;
	if (!joins_heap) {
		slot_heap_remove(&l->eligible, slot);
		return;
	}
	slot_heap_update(&l->eligible, slot, victim_key(l, page));
	set_place(l, page, IN_HEAP);
}

static enum lruk_place place_for(const struct lruk *l, uint32_t page, uint32_t next)
{
	uint32_t key = hist_of(l, page)[l->k - 1];

	if (!key)
		return IN_YOUNG;
	if (!eligible_at(l, page, next))
		return IN_CORRELATED;
	return queue_takes(&l->queue, key, next - 1) ? IN_QUEUE : IN_HEAP;
}

/*
 * Takes a page out of where it is filed, by its times as they are.  A
 * young page leaves the young log by its record changing: nothing to do.
 */
static void unfile(struct lruk *l, uint32_t page)
{
	if (filed_in(l, page) == IN_QUEUE) {
		queue_unfile(&l->queue, hist_of(l, page)[l->k - 1]);
	} else if (filed_in(l, page) == IN_HEAP) {
		slot_heap_remove(&l->eligible, slot_of(l, page));
	} else if (filed_in(l, page) == IN_CORRELATED) {
		pl_dlist_remove(&l->links, &l->correlated, page);
	}
}

/* Files a page that is filed nowhere; its LAST is the latest. */
static void file(struct lruk *l, uint32_t page, enum lruk_place place)
{
	if (place == IN_QUEUE) {
		queue_file(l, page, hist_of(l, page)[l->k - 1]);
	} else if (place == IN_HEAP) {
		push_eligible(l, page);
	} else if (place == IN_YOUNG) {
		set_place(l, page, place);
		log_append(l, &l->young, page, *last_of(l, page), compact_young);
	} else {
		set_place(l, page, place);
		pl_dlist_push_tail(&l->links, &l->correlated, page);
	}
}

/*
 * Files a resident page whose times just changed (`filed`: it was filed
 * before), ready for the reference at time `next`.  Its LAST is the
 * latest, so it joins a list at the tail.
 */
static void refile(struct lruk *l, uint32_t page, bool filed, uint32_t next)
{
	enum lruk_place place = place_for(l, page, next);

	if (filed && place == IN_HEAP && filed_in(l, page) == IN_HEAP) {
		slot_heap_update(&l->eligible, slot_of(l, page), victim_key(l, page));
		return;
	}
	if (filed)
		unfile(l, page);
	if (l->top_vacated) {
		fill_vacated_top(l, page, place == IN_HEAP);
		if (place == IN_HEAP)
			return;
	}
	file(l, page, place);
}

/* Files as eligible the pages whose correlated period is over by time `next`. */
static void end_correlated_periods(struct lruk *l, uint32_t next)
{
	uint32_t page;

	while ((page = l->correlated.head) != PL_NONE && eligible_at(l, page, next)) {
		pl_dlist_remove(&l->links, &l->correlated, page);
		file(l, page, place_for(l, page, next));
	}
}

/* After a reference at step `step`: file its page, ready for the next one. */
static void settle(struct lruk *l, uint32_t page, bool filed, uint32_t step)
{
	uint32_t next = step + 2;	/* the next reference's time, stored */

	l->next = next;
	refile(l, page, filed, next);
	if (l->queue.usable)
		queue_note(l, page, next - 1);
	if (l->correlated.head != PL_NONE)
		end_correlated_periods(l, next);
	clean_young(l);
	queue_settle(&l->queue);
}

/* ---------------------------------------------------------------- ops */

static void lruk_destroy(void *state)
{
	struct lruk *l = state;

	if (!l)
		return;
	huge_free(&l->times_mem);
	free(l->young.entry);
	free(l->history.entry);
	free(l->seen);
	free(l->queue.page);
	free(l->queue.live);
	frame_table_free(&l->table);
	slot_heap_free(&l->eligible);
	pl_links_free(&l->links);
	free(l);
}

/* Returns 0, or -1 when out of memory. */
static int queue_init(struct time_queue *q, bool usable, uint32_t frames)
{
	uint32_t size = 64;

	q->usable = usable;
	if (!usable)
		return 0;
	while (size / QUEUE_SPAN < frames && size < 1u << 30)
		size <<= 1;
	q->mask = size - 1;
	q->page = malloc((size_t)size * sizeof(*q->page));
	q->live = calloc(size / 64, sizeof(*q->live));
	return q->page && q->live ? 0 : -1;
}

static void *lruk_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct lruk *l = calloc(1, sizeof(*l));
	size_t npages = ctx->npages ? ctx->npages : 1;

	if (!l)
		goto oom;
	l->ctx = ctx;
	l->k = (uint32_t)ctx->params[LRUK_PARAM_K];
	l->crp = (uint64_t)ctx->params[LRUK_PARAM_CRP];
	l->rip = ctx->params[LRUK_PARAM_RIP];
	pl_dlist_init(&l->correlated);
	/*
	 * Every reference reads one record at random among npages (16 MB for
	 * the benchmark's 1M pages at k = 2), far more than the TLB covers in
	 * 4 KB pages: in huge pages (huge_pages.h), a record's address, and
	 * the prefetch() that names it, cost no page walk.
	 */
	l->times = huge_alloc(&l->times_mem, npages * (l->k + 2) * sizeof(*l->times));
	if (!l->times || pl_links_init(&l->links, npages) ||
	    log_init(&l->young, frames_usable(ctx)) ||
	    log_init(&l->history, l->rip ? ctx->npages : 0) ||
	    !(l->seen = calloc(l->rip ? (npages + 63) / 64 : 1, sizeof(*l->seen))) ||
	    slot_heap_init(&l->eligible, frames_usable(ctx)))
		goto oom;
	if (queue_init(&l->queue, l->k <= 2 || !l->crp, frames_usable(ctx)))
		goto oom;
	if (frame_table_init(&l->table, ctx, LRUK_FRAMES, err)) {
		lruk_destroy(l);
		return NULL;
	}
	frame_table_drop_index(&l->table);	/* a page's slot is in its record */
	return l;
oom:
	lruk_destroy(l);
	snprintf(err->msg, sizeof(err->msg), "lruk: out of memory for %u pages", ctx->npages);
	return NULL;
}

/*
 * A reference ahead (policy.h, "Prefetching"): the far page's record; and
 * what the next faults read and write of their victims: the queue's first
 * page's residency byte and frame slot (its record was named while it
 * was second), the second's record, the heap's top page's record and
 * residency byte and the top's key (each named again and again while it
 * waits, then from the cache).
 */
LRUK_INLINE void prefetch_body(const void *state, uint32_t far, uint32_t near,
			       struct pl_prefetch *out)
{
	const struct lruk *l = state;
	const struct time_queue *q = &l->queue;
	uint32_t top = slot_heap_top(&l->eligible);
	uint32_t first = far, second = far, topmost = far;
	uint32_t young = pl_page_or(oldest_young(l), far);

	(void)near;
	if (q->len > 1)
		second = q->page[queue_scan(q, q->first + 1) & q->mask];
	if (q->len)
		first = q->page[q->first & q->mask];
	if (top != PL_NONE)
		topmost = l->table.slot_page[top];
	if (l->k == 2)	/* 16 bytes, 16-byte aligned (huge_alloc()): in one line */
		pl_prefetch(out, hist_of(l, far));
	else
		pl_prefetch_record(out, hist_of(l, far), (l->k + 2) * sizeof(*l->times));
	pl_prefetch(out, &l->ctx->page_state[first]);
	pl_prefetch(out, hist_of(l, second));
	pl_prefetch(out, hist_of(l, topmost));
	pl_prefetch(out, &l->ctx->page_state[topmost]);
	pl_prefetch(out, hist_of(l, young));
}

static void lruk_prefetch(const void *state, uint32_t far, uint32_t near,
			  struct pl_prefetch *out)
{
	FOR_K((const struct lruk *)state, prefetch_body(state, far, near, out));
}

/*
 * Most hits: a page in the queue, without a correlated period.  Every
 * reference then counts, so LAST = HIST(1) and the times just shift; the
 * page's bit moves from its old HIST(K) to its new one, which is younger,
 * so the queue takes it; and no other page's period can end.
 */
LRUK_INLINE void hit_in_queue(struct lruk *l, uint32_t page, uint32_t *hist, uint32_t t)
{
	struct time_queue *q = &l->queue;
	uint32_t k = l->k, old_key = hist[k - 1];

	queue_flip(q, old_key);
	for (uint32_t i = k - 1; i > 0; i--)
		set_time(l, page, LRUK_HIST1 + i, &hist[i], hist[i - 1]);
	set_time(l, page, LRUK_HIST1, &hist[0], t);
	set_time(l, page, LRUK_LAST, &hist[k], t);
	queue_flip(q, hist[k - 1]);
	l->next = t + 1;
	if (old_key == q->first)	/* else the oldest live time is still first */
		queue_settle(q);
	queue_note(l, page, t);
}

LRUK_INLINE void hit_body(void *state, const struct pl_ref *ref)
{
	struct lruk *l = state;
	uint32_t page = ref->page, t = ref->step + 1, k = l->k;
	uint32_t *hist = hist_of(l, page), last = hist[k];
	bool in_queue = (hist[k + 1] & PLACE_MASK) == IN_QUEUE;

	if (in_queue && !l->crp) {
		hit_in_queue(l, page, hist, t);
		return;
	}
	if (in_queue)	/* by its HIST(K) before this reference */
		unfile(l, page);
	if (t - last <= l->crp) {
		l->count[LRUK_CORRELATED_HITS]++;
	} else {
		uint32_t period = last - hist[0];

		for (uint32_t i = k - 1; i > 0; i--)
			set_time(l, page, LRUK_HIST1 + i, &hist[i],
				 hist[i - 1] ? hist[i - 1] + period : 0);
		set_time(l, page, LRUK_HIST1, &hist[0], t);
	}
	set_time(l, page, LRUK_LAST, &hist[k], t);
	if (in_queue)
		set_place(l, page, NOWHERE);
	settle(l, page, true, ref->step);
}

static void lruk_hit(void *state, const struct pl_ref *ref)
{
	FOR_K((const struct lruk *)state, hit_body(state, ref));
}

/* The history a faulting page comes back with: kept, or forgotten for age. */
static void recall_history(struct lruk *l, uint32_t page, uint32_t t)
{
	uint32_t *hist = hist_of(l, page);

	if (!*last_of(l, page))
		return;
	pl_emit_remove(l->ctx, page, LRUK_HISTORY);
	if (l->rip >= 0 && t - *last_of(l, page) > (uint64_t)l->rip) {
		memset(hist, 0, l->k * sizeof(*hist));
		*last_of(l, page) = 0;
		l->count[LRUK_FORGOTTEN]++;
		return;
	}
	l->count[LRUK_RETAINED_REFAULTS]++;
}

static void fill_fields(const void *state, uint32_t page, int32_t *values)
{
	const struct lruk *l = state;

	for (uint32_t i = 0; i < LRUK_MAX_K; i++)
		values[LRUK_HIST1 + i] = i < l->k ? shown(hist_of(l, page)[i]) : -1;
	values[LRUK_LAST] = shown(*last_of(l, page));
}

/*
 * A page enters a list with every field 0: the SETs that give it its
 * values, while recording (otherwise its record is not even read).
 */
static void enter_fields(struct lruk *l, uint32_t page)
{
	int32_t values[PL_MAX_FIELDS];

	if (!pl_recording(l->ctx))
		return;
	fill_fields(l, page, values);
	for (unsigned field = 0; field < NR_LRUK_FIELDS; field++)
		if (values[field])
			pl_emit_set(l->ctx, page, field, 0, values[field]);
}

LRUK_INLINE void insert_body(void *state, const struct pl_ref *ref)
{
	struct lruk *l = state;
	uint32_t page = ref->page, t = ref->step + 1;
	uint32_t *hist = hist_of(l, page);

	recall_history(l, page, t);
	*where_of(l, page) = frame_table_insert(&l->table, l->ctx, page) << PLACE_BITS | NOWHERE;
	for (uint32_t i = l->k - 1; i > 0; i--)
		hist[i] = hist[i - 1];
	hist[0] = t;
	*last_of(l, page) = t;
	enter_fields(l, page);
	settle(l, page, false, ref->step);
}

static void lruk_insert(void *state, const struct pl_ref *ref)
{
	FOR_K((const struct lruk *)state, insert_body(state, ref));
}

static uint32_t lruk_victim(const void *state)
{
	const struct lruk *l = state;
	uint32_t young = oldest_young(l), old = l->correlated.head;
	uint32_t slot = slot_heap_top(&l->eligible);

	const struct time_queue *q = &l->queue;

	/* an eligible page with infinite distance beats every other one */
	if (young != PL_NONE && eligible_at(l, young, l->next))
		return young;
	/* then the older HIST(K) of the queue's first and the heap's top
	 * (both reference times when the queue is used: never equal) */
	if (q->len && (slot == PL_NONE ||
		       q->first < UINT32_MAX - (uint32_t)(l->eligible.entry[0].key >> 32)))
		return q->page[q->first & q->mask];
	if (slot != PL_NONE)
		return l->table.slot_page[slot];
	/* nothing is eligible: the least recent LAST */
	if (young == PL_NONE || (old != PL_NONE && *last_of(l, old) < *last_of(l, young)))
		return old;
	return young;
}

/* An evicted page's history joins the ghost list, or is dropped (rip = 0). */
static void retain_history(struct lruk *l, uint32_t page)
{
	*where_of(l, page) = NOWHERE;
	if (!l->rip) {
		memset(hist_of(l, page), 0, (l->k + 1) * sizeof(uint32_t));
		return;
	}
	log_append(l, &l->history, page, l->next, compact_history);
	pl_emit_insert(l->ctx, page, LRUK_HISTORY, 0);
	enter_fields(l, page);
}

/*
 * The victim is the heap's top or the oldest young page unless nothing is
 * eligible: only then is its record read before it is written.
 */
LRUK_INLINE void evict_body(void *state, uint32_t victim)
{
	struct lruk *l = state;
	uint32_t top = slot_heap_top(&l->eligible), slot;

	/* insert() reads the faulting page's record next: fetch it meanwhile */
	__builtin_prefetch(hist_of(l, l->ctx->faulting));

	if (top != PL_NONE && l->table.slot_page[top] == victim) {
		l->top_vacated = true;	/* see fill_vacated_top() */
		slot = top;
	} else {
		if (victim != oldest_young(l))
			unfile(l, victim);	/* (the young log drops it lazily) */
		slot = slot_of(l, victim);	/* (clean_young() has read its record) */
	}
	frame_table_evict_slot(&l->table, l->ctx, slot);
	retain_history(l, victim);
	clean_young(l);
}

static void lruk_evict(void *state, uint32_t victim)
{
	FOR_K((const struct lruk *)state, evict_body(state, victim));
}

static void lruk_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct lruk *l = state;
	int32_t values[PL_MAX_FIELDS] = { 0 };

	frame_table_snapshot(&l->table, out, fill_fields, l);
	for (uint32_t i = l->history.end; i-- > l->history.head;) {
		uint32_t page = l->history.entry[i].page;

		if (!history_live(l, l->history.entry[i]))
			continue;
		fill_fields(l, page, values);
		pl_snapshot_push(out, LRUK_HISTORY, page, values);
	}
}

static void lruk_read_counters(const void *state, uint64_t *counters)
{
	const struct lruk *l = state;

	memcpy(counters, l->count, sizeof(l->count));
}

static const char *const lruk_lists[] = {
	[LRUK_FRAMES] = "frames", [LRUK_HISTORY] = "history",
};
static const char *const lruk_fields[NR_LRUK_FIELDS] = {
	"hist1", "hist2", "hist3", "hist4", "last",
};
static const char *const lruk_counters[NR_LRUK_COUNTERS] = {
	"correlated_hits", "retained_refaults", "forgotten",
};

static const struct pl_param lruk_params[] = {
	[LRUK_PARAM_K] = { "k", "K: pages are ranked by the time of their K-th most recent "
			   "(uncorrelated) reference", 2, 1, LRUK_MAX_K, NULL },
	[LRUK_PARAM_CRP] = { "crp", "correlated reference period, in references: a "
			     "reference within crp of the page's last one does not count as "
			     "a new one, and the page cannot be evicted meanwhile",
			     0, 0, 1 << 30, NULL },
	[LRUK_PARAM_RIP] = { "rip", "retained information period, in references: an "
			     "evicted page's history is kept this long after its last "
			     "reference (-1: for ever, 0: not at all)", -1, -1, 1 << 30, NULL },
};

const struct pl_policy_ops pl_policy_lruk = {
	.name = "lruk",
	.title = "LRU-K (O'Neil, O'Neil, Weikum)",
	.help = "Evicts the page whose K-th most recent reference is oldest (pages with "
		"fewer than K references first, least recently used among them), skipping "
		"pages within their correlated reference period; keeps the history of "
		"evicted pages for rip references.",
	.params = lruk_params,
	.nparams = 3,
	.lists = lruk_lists,
	.nlists = 2,
	.ghost_lists = 1 << LRUK_HISTORY,
	.fields = lruk_fields,
	.nfields = NR_LRUK_FIELDS,
	.counters = lruk_counters,
	.ncounters = NR_LRUK_COUNTERS,
	.create = lruk_create,
	.destroy = lruk_destroy,
	.hit = lruk_hit,
	.insert = lruk_insert,
	.victim = lruk_victim,
	.evict = lruk_evict,
	.prefetch = lruk_prefetch,
	.snapshot = lruk_snapshot,
	.read_counters = lruk_read_counters,
};
