/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mglru.c - Linux's multi-generational LRU as merged in Linux 6.1
 * (Y. Zhao; mm/vmscan.c "the aging" and "the eviction", mm/workingset.c
 * lru_gen_eviction()/lru_gen_refault(), include/linux/mmzone.h and
 * include/linux/mm_inline.h), for one lruvec of one page type.
 *
 * Structure: pages are grouped in generations numbered by a sequence
 * number; generation seq lives in list gen(seq) = seq mod 4 (MAX_NR_GENS),
 * as in lrugen->folios[gen].  min_seq is the oldest generation, max_seq the
 * youngest; there are always 2 (MIN_NR_GENS) to 4 of them.
 *
 *     max_seq  gen3: [new ........ old]      <- faults (access=mapped)
 *              gen2: [new ........ old]      <- aging promotes young pages
 *              gen1: [new ........ old]         to the generation that was
 *     min_seq  gen0: [new ........ old] --->    max_seq before it opened a
 *                        |        ^     evict    new one
 *                        |        +-- sorting: protected by tier to
 *                        |            min_seq + 1's tail; young: to max_seq
 *                        +-- faults (access=fd) enter the oldest generation
 *     shadow:  [recent ... old]  evicted pages' (min_seq, refs) for refaults
 *
 *   Each page has the PTE accessed bit `young` (access=mapped) or, for
 *   pages read and written through file descriptors (access=fd), the
 *   folio_inc_refs() state: `referenced` (PG_referenced), then `refs` =
 *   LRU_REFS (0..3) + PG_workingset (folio_lru_refs(), 0..4).  A page's
 *   tier is order_base_2(refs + 1): 0..3 (MAX_NR_TIERS 4).
 *
 * Transitions (x the referenced page)
 *   hit, mapped     young(x) := 1 (the hardware sets the accessed bit)
 *   hit, fd         folio_inc_refs(): referenced, else workingset, else
 *                   LRU_REFS + 1 (saturating at 3)
 *   fault           x to the head of gen(max_seq) if mapped (a page faulted
 *                   in is active, lru_gen_add_folio()), of gen(min_seq) if
 *                   fd (clean and cold); mapped: young(x) := 1; fd: the
 *                   access is folio_inc_refs()'d.  If x has a shadow entry
 *                   and min_seq has not moved since its eviction, it is a
 *                   refault: refaulted[tier] += 1, and if mapped (in a
 *                   fault) or refs >= 3, refs := 4 (LRU_REFS_MASK and
 *                   PG_workingset set, lru_gen_refault())
 *   eviction        the tail of gen(min_seq), once sorted (below):
 *                   evicted[tier] += 1; x to the shadow list with min_seq
 *                   and refs (lru_gen_eviction())
 *   sorting         (sort_folio() and shrink_folio_list() on the oldest
 *                   generation's tail p, until p can go)
 *                   tier(p) > tier_idx or refs = 4: protected: p to the
 *                     tail of gen(min_seq + 1), refs cleared,
 *                     protected[tier - 1] += 1 (folio_inc_gen())
 *                   young(p): activated: young cleared, p to the head of
 *                     gen(max_seq) (lru_gen_look_around())
 *                   gen(min_seq) empty: min_seq += 1 while at least
 *                     MIN_NR_GENS + 1 generations remain (try_to_inc_min_seq())
 *   aging           (should_run_aging(), checked before each sort) when
 *                   only 2 generations remain, or with 3, when the youngest
 *                   holds more than 1/2 of the pages or the oldest less
 *                   than 1/4: every young page goes to the head of
 *                   gen(max_seq), young and refs cleared (the page-table
 *                   walk, folio_update_gen()), then max_seq += 1
 *                   (inc_max_seq()), an empty generation for new faults
 *
 * Tiers and refault feedback (the PID controller, get_tier_idx()): with
 * hist = min_seq mod 4, tier t's position is refaulted = avg_refaulted[t]
 * + refaulted[hist][t], total = avg_total[t] + evicted[hist][t] +
 * protected[hist][t - 1].  Tier 0 is the set point (gain 1); tier_idx is
 * the last tier t >= 0 such that every tier 1..t has refaulted < min_batch
 * or refaulted x (sp.total + min_batch) x 1 <= (sp.refaulted + 1) x total x
 * 2 (positive_ctrl_err()).  When min_seq advances, each tier's averages
 * become (avg + this generation's counts) / 2 (reset_ctrl_pos() carryover);
 * when max_seq advances, the counts of the generation max_seq + 1 is about
 * to reuse are cleared.
 *
 * Where pagelab simplifies the kernel (the issue asks to say exactly):
 *   - The aging walk: Linux walks the page tables of every mm (with Bloom
 *     filters to skip sparse PMDs) and only updates each young page's
 *     generation in its flags, leaving list order to sort_folio(); pagelab
 *     visits the resident pages, oldest generation first, each tail to
 *     head, and moves every young page at once, so lists always show each
 *     page's generation.
 *   - Look-around: lru_gen_look_around() also promotes the young neighbours
 *     of an evicted page's PTE; pagelab promotes only the page itself.
 *   - One page type (no anon/file balance, no swappiness), one zone, one
 *     memcg, no writeback: a dirty page is evicted like a clean one (the
 *     driver counts the writeback).
 *   - Batches: the kernel isolates up to MAX_LRU_BATCH pages a round;
 *     pagelab evicts one page per fault.  It sorts the oldest generation
 *     and ages *ahead* of the fault, as kswapd reclaims ahead of need: right
 *     after each fault (and each hit on the page that would go next) that
 *     leaves memory full, until the oldest generation's tail can be
 *     evicted.  So victim() is that tail, and a step's events end with the
 *     sorting for the next fault.
 *   - Shadow entries: the kernel keeps them in the page cache's xarray
 *     until a shrinker drops them; pagelab keeps the most recent `frames`.
 *   - Accesses: a trace says neither how a page is reached nor whether its
 *     PTE stays mapped, so `access` chooses one path for every reference.
 *
 * Parameters (defaults)
 *   access      mapped (page-table accesses, the accessed bit and aging;
 *               what a memory trace is) or fd (read()/write() accesses:
 *               tiers; aging only opens generations)
 *   min_batch   MIN_LRU_BATCH, the refaults below which a tier's error
 *               counts as positive (64 = BITS_PER_LONG); smaller values
 *               show the feedback on a lecture-sized trace
 *
 * Lists: gen0 .. gen3 (lrugen->folios[seq mod 4]), shadow (ghost).
 * Fields: seq (the page's generation; for a shadow entry the min_seq at its
 * eviction), young, referenced, refs.  Counters: min_seq, max_seq, agings,
 * activated, protected, refaults, tier_idx (the latest computed).
 * Cost: O(1) per hit; per fault amortized O(1) sorting (each page sorted
 * moves to a younger generation) and O(resident) per aging, which opens a
 * generation the evictions then empty; that walk reads each ring's
 * accessed bits a word (64 entries) at a time, so it is O(resident / 64)
 * plus O(1) per young page.  Every list is a ring of page ids (struct
 * page_ring) with each entry's accessed and refs bits beside it, so the
 * aging walk reads memory in order, no move touches another page, and
 * the pages' states that a fault or the walk will touch are requested
 * ahead (request_tail(), request_young()).
 * Beyond lru's work: a hit sets the page's accessed bit or raises its
 * refs (tier); a fault looks for its page among the shadow entries (the
 * refault test and the tier's refault counters), sorts the oldest
 * generation's pages that were accessed into younger ones, evicts, pushes
 * a shadow entry and drops the oldest; and every so often an aging pass
 * moves the young pages of the older generations.
 */
#include <stdlib.h>
#include <string.h>

#include "frame_table.h"	/* frames_usable() */

#define MAX_NR_GENS 4
#define MIN_NR_GENS 2
#define MAX_NR_TIERS 4
#define NR_HIST_GENS MAX_NR_GENS
#define MAX_LRU_REFS 3		/* LRU_REFS_WIDTH 2 bits */

enum { SHADOW = MAX_NR_GENS, NR_LISTS, NOWHERE = 0xff };
enum { F_SEQ, F_YOUNG, F_REFERENCED, F_REFS, NR_FIELDS };
enum { PARAM_ACCESS, PARAM_MIN_BATCH };
enum { ACCESS_MAPPED, ACCESS_FD };
enum { C_MIN_SEQ, C_MAX_SEQ, C_AGINGS, C_ACTIVATED, C_PROTECTED, C_REFAULTS, C_TIER_IDX,
       NR_COUNTERS };

struct page_state {
	uint8_t where;		/* gen list, SHADOW (an entry if in_shadow()) or NOWHERE */
	uint8_t referenced, workingset, lru_refs;
	uint8_t shadow_refs;	/* folio_lru_refs() at eviction */
	uint32_t seq;		/* its generation, or the min_seq of its eviction */
	uint32_t at;		/* its entry in its list's ring */
};

/*
 * A list's pages (a generation's, or the shadow entries), head to tail,
 * as a ring of page ids: pushing at either end touches only the ring, and
 * a page leaves by its entry (page_state.at) becoming PL_NONE, without
 * unlinking anything.  So the aging walk reads the ring in order and the
 * pages' states independently of each other, instead of chasing links
 * from page to page (a cache miss each, one after another), and a refault
 * or an eviction touches no other page.  The ring's tail entry is always
 * a page (list_leave()); a full ring drops its empty entries
 * (make_room()), and is sized so that this frees at least half of it.
 *
 * Two bits of a page live beside its entry, in the ring's bitmaps (bit i
 * for entry i): B_YOUNG, its accessed bit, and B_REFS, set while any of
 * referenced, workingset and LRU_REFS is (the fields stay in its state).
 * The aging walk reads the young bits a word (64 entries) at a time and
 * visits only the young pages, and of those touches the states of only
 * the pages it moves or whose refs it clears, writing them without
 * reading, instead of loading every resident page's state (a cache miss
 * each, 1.3 per reference on the benchmark's zipf trace).  Sorting a page
 * without refs reads only its bits.  A bit is set only at a page's entry:
 * an entry dropped or moved takes its bits with it.
 */
enum { B_YOUNG, B_REFS, NR_BITS };

struct page_ring {
	uint32_t *entry;	/* [mask + 1], a power of 2 */
	uint64_t (*bits)[NR_BITS];	/* [mask / 64 + 1]: each word's bits */
	uint32_t head, end;	/* entries head .. end - 1, mod 2^32 */
	uint32_t mask, len;	/* len: the entries that are pages */
};

struct ctrl_pos {
	uint64_t refaulted, total;
	unsigned gain;
};

struct mglru {
	struct pl_ctx *ctx;
	struct page_ring list[NR_LISTS];	/* the generations, then the shadow entries */
	struct page_state *page;	/* [npages] */
	bool fd;
	uint64_t min_batch;
	uint32_t min_seq, max_seq;
	uint64_t evicted[NR_HIST_GENS][MAX_NR_TIERS], refaulted[NR_HIST_GENS][MAX_NR_TIERS];
	uint64_t protected[NR_HIST_GENS][MAX_NR_TIERS - 1];
	uint64_t avg_refaulted[MAX_NR_TIERS], avg_total[MAX_NR_TIERS];
	uint64_t agings, activated, protections, refaults;
	int tier_idx;
	bool few_refaults;	/* note_refaults() */
	uint32_t victims_ahead;	/* request_tail()'s cursor */
	uint32_t shadows_swept;	/* the shadow ring's head at forget_stale() */
	/*
	 * The oldest generation's tail that prepare_victim() left: the tail
	 * whenever memory is full (only evict() and insert() move pages, and
	 * insert() sorts again), so a hit on any other page need not sort.
	 */
	uint32_t next_victim;
};

static unsigned gen_of(uint32_t seq)
{
	return seq % MAX_NR_GENS;
}

static unsigned hist_of(uint32_t seq)
{
	return seq % NR_HIST_GENS;
}

static unsigned refs_of(const struct page_state *p)
{
	return p->lru_refs + p->workingset;	/* folio_lru_refs() */
}

static unsigned tier_of(unsigned refs)
{
	/* order_base_2(refs + 1): the bits refs needs (4 -> 3, 3 -> 2) */
	return refs ? 32 - (unsigned)__builtin_clz(refs) : 0;
}

static void mglru_destroy(void *state)
{
	struct mglru *m = state;

	if (!m)
		return;
	for (unsigned l = 0; l < NR_LISTS; l++) {
		free(m->list[l].entry);
		free(m->list[l].bits);
	}
	free(m->page);
	free(m);
}

static void *mglru_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct mglru *m = calloc(1, sizeof(*m));
	size_t n = ctx->npages ? ctx->npages : 1;
	uint32_t cap = 2;

	/* twice the most pages a list can hold (the shadow list one more
	 * than the frames before trim_shadows()): see make_room() */
	while (cap < 2 * ((uint64_t)frames_usable(ctx) + 1))
		cap *= 2;
	if (!m || !(m->page = calloc(n, sizeof(*m->page))))
		goto oom;
	for (unsigned l = 0; l < NR_LISTS; l++) {
		m->list[l].mask = cap - 1;
		if (!(m->list[l].entry = malloc(cap * sizeof(*m->list[l].entry))))
			goto oom;
		if (!(m->list[l].bits = calloc(cap / 64 + 1, sizeof(*m->list[l].bits))))
			goto oom;
	}
	m->ctx = ctx;
	for (uint32_t i = 0; i < ctx->npages; i++)
		m->page[i].where = NOWHERE;
	m->fd = ctx->params[PARAM_ACCESS] == ACCESS_FD;
	m->min_batch = (uint64_t)ctx->params[PARAM_MIN_BATCH];
	m->max_seq = MIN_NR_GENS - 1;	/* lru_gen_init_lruvec(): min 0, max 1 */
	m->tier_idx = MAX_NR_TIERS - 1;
	m->next_victim = PL_NONE;
	m->few_refaults = true;	/* no refaults yet (note_refaults()) */
	return m;
oom:
	mglru_destroy(m);
	snprintf(err->msg, sizeof(err->msg), "mglru: out of memory");
	return NULL;
}

/* ------------------------------------------------------------- the rings */

static uint32_t *ring_at(const struct page_ring *r, uint32_t i)
{
	return &r->entry[i & r->mask];
}

static bool bit_at(const struct page_ring *r, unsigned b, uint32_t i)
{
	uint32_t slot = i & r->mask;

	return r->bits[slot / 64][b] >> (slot % 64) & 1;
}

static void clear_bits_at(struct page_ring *r, uint32_t i)
{
	uint32_t slot = i & r->mask;

	for (unsigned b = 0; b < NR_BITS; b++)
		r->bits[slot / 64][b] &= ~((uint64_t)1 << (slot % 64));
}

static inline void set_bit_at(struct page_ring *r, unsigned b, uint32_t i, bool on)
{
	uint32_t slot = i & r->mask;
	uint64_t bit = (uint64_t)1 << (slot % 64);

	if (on)
		r->bits[slot / 64][b] |= bit;
	else
		r->bits[slot / 64][b] &= ~bit;
}

/*
 * The young bits of the chunk of ring r (the 64 entries of one bitmap
 * word) that holds entry `last`, from entry `first` on if it is there:
 * bit b for entry *start + b.  Whether entries before the chunk remain
 * from `first` on.  (A ring of fewer than 64 entries has one word, whose
 * chunk is the whole ring.)
 */
static bool young_chunk(const struct page_ring *r, uint32_t first, uint32_t last,
			uint64_t *young, uint32_t *start)
{
	uint32_t slot = last & r->mask, bit = slot % 64;

	*young = r->bits[slot / 64][B_YOUNG] & (~(uint64_t)0 >> (63 - bit));
	*start = last - bit;
	if (last - first > bit)
		return true;
	*young &= ~(uint64_t)0 << (first - *start);
	return false;
}

/*
 * Room for one more entry in list l's ring: a full one keeps only its
 * pages, in order.  Those are at most the frames (+ 1), half the ring, so
 * the compaction is paid by the pushes that filled the other half.  Out
 * of line and cold: inlined, its loop's registers would be saved and
 * restored around every push.
 */
static __attribute__((noinline, cold)) void compact(struct mglru *m, unsigned l)
{
	struct page_ring *r = &m->list[l];
	uint32_t kept = r->head;

	for (uint32_t i = r->head; i != r->end; i++) {
		uint32_t page = *ring_at(r, i);

		if (page == PL_NONE)
			continue;
		for (unsigned b = 0; b < NR_BITS; b++) {
			bool on = bit_at(r, b, i);

			set_bit_at(r, b, i, false);
			set_bit_at(r, b, kept, on);
		}
		m->page[page].at = kept;
		*ring_at(r, kept++) = page;
	}
	r->end = kept;
}

static inline void make_room(struct mglru *m, unsigned l)
{
	if (m->list[l].end - m->list[l].head > m->list[l].mask)
		compact(m, l);
}

/* The tail page of list l, or PL_NONE. */
static uint32_t list_tail(const struct mglru *m, unsigned l)
{
	const struct page_ring *r = &m->list[l];

	return r->len ? *ring_at(r, r->end - 1) : PL_NONE;
}

/* An entry for the page at the head or the tail of list l's ring: its position. */
static uint32_t ring_push(struct mglru *m, unsigned l, uint32_t page, bool tail)
{
	struct page_ring *r = &m->list[l];
	uint32_t at;

	make_room(m, l);
	at = tail ? r->end++ : --r->head;
	r->entry[at & r->mask] = page;
	r->len++;
	return at;
}

/* Puts a page at the head or the tail of list l: its entry. */
static uint32_t list_push(struct mglru *m, unsigned l, uint32_t page, bool tail)
{
	uint32_t at = ring_push(m, l, page, tail);

	m->page[page].where = (uint8_t)l;
	m->page[page].at = at;
	return at;
}

/* Entry `at` of list l, a page, leaves it, whose tail is then a page again. */
static void list_drop(struct mglru *m, unsigned l, uint32_t at)
{
	struct page_ring *r = &m->list[l];
	uint32_t *entry = r->entry, mask = r->mask, head = r->head, end = r->end;

	entry[at & mask] = PL_NONE;
	if (l != SHADOW)	/* a shadow entry's bits are clear */
		clear_bits_at(r, at);
	r->len--;
	if (at != end - 1)
		return;
	do
		end--;
	while (end != head && entry[(end - 1) & mask] == PL_NONE);
	r->end = end;
}

/* The page leaves its list. */
static void list_leave(struct mglru *m, uint32_t page)
{
	list_drop(m, m->page[page].where, m->page[page].at);
}

/*
 * The pages at the oldest generation's tail go next, one a fault, in
 * order: sorted and evicted.  Every entry up to TAIL_AHEAD before the tail
 * has its page's state and the residency byte the driver reads as it
 * evicts requested once (*ahead: the entry requested last); the ring's
 * own line RING_AHEAD entries on, long unread, too.  A cursor rather than one entry
 * at a fixed distance: entries the tail skips (pages moved out) would
 * leave the pages between them unrequested.  Inlined by force: GCC takes
 * a call that only reads and prefetches for one without effect and drops
 * it.
 */
#define TAIL_AHEAD 8
#define RING_AHEAD 64

static inline __attribute__((always_inline)) void
request_tail(const struct mglru *m, const struct page_ring *r, uint32_t *ahead)
{
	const uint32_t *entry = r->entry;
	uint32_t mask = r->mask, head = r->head, tail = r->end - 1;
	uint32_t i = *ahead, to = tail - TAIL_AHEAD;

	__builtin_prefetch(&entry[(tail - RING_AHEAD) & mask]);
	if (tail - i > TAIL_AHEAD)	/* not in the window: from the tail */
		i = tail;
	while (i != to && i != head) {
		uint32_t page = entry[--i & mask];

		if (page == PL_NONE)
			continue;
		__builtin_prefetch(&m->page[page], 1);
		pl_prefetch_state(m->ctx, page);
	}
	*ahead = i;
}

/* ------------------------------------------------------- fields and lists */

/*
 * The setters read a field's old value only for the event, when
 * recording: otherwise they only write, and a page whose state is far
 * from the CPU (a young page the aging walk moves) is not waited for.
 */
static void set_field(struct mglru *m, uint32_t page, unsigned field, uint8_t *at, unsigned to)
{
	if (pl_recording(m->ctx) && *at != to)
		pl_emit_set(m->ctx, page, field, *at, (int32_t)to);
	*at = (uint8_t)to;
}

static void set_seq(struct mglru *m, uint32_t page, uint32_t seq)
{
	struct page_state *p = &m->page[page];

	if (pl_recording(m->ctx) && p->seq != seq)
		pl_emit_set(m->ctx, page, F_SEQ, (int32_t)p->seq, (int32_t)seq);
	p->seq = seq;
}

/* The accessed bit of a resident page, beside its entry. */
static bool young_of(const struct mglru *m, uint32_t page)
{
	return bit_at(&m->list[m->page[page].where], B_YOUNG, m->page[page].at);
}

/* The accessed bit at entry i of generation list l, whose page is `page`. */
static inline void set_young_at(struct mglru *m, unsigned l, uint32_t i, uint32_t page,
				bool young)
{
	struct page_ring *r = &m->list[l];

	if (pl_recording(m->ctx) && bit_at(r, B_YOUNG, i) != young)
		pl_emit_set(m->ctx, page, F_YOUNG, !young, young);
	set_bit_at(r, B_YOUNG, i, young);
}

static inline __attribute__((always_inline)) void
set_young(struct mglru *m, uint32_t page, bool young)
{
	set_young_at(m, m->page[page].where, m->page[page].at, page, young);
}

/* B_REFS of a resident page, after a change of its fields. */
static void note_refs(struct mglru *m, uint32_t page)
{
	const struct page_state *p = &m->page[page];

	set_bit_at(&m->list[p->where], B_REFS, p->at, p->referenced || refs_of(p));
}

/*
 * folio_update_gen()/folio_inc_gen(): the LRU_REFS bits and flags cleared,
 * for the page at entry i of list l.  Its state is not touched if B_REFS
 * says there is nothing to clear.
 */
static void clear_refs_at(struct mglru *m, unsigned l, uint32_t i, uint32_t page)
{
	struct page_state *p = &m->page[page];

	if (!bit_at(&m->list[l], B_REFS, i))
		return;
	set_field(m, page, F_REFERENCED, &p->referenced, 0);
	if (pl_recording(m->ctx) && refs_of(p))
		pl_emit_set(m->ctx, page, F_REFS, (int32_t)refs_of(p), 0);
	p->lru_refs = p->workingset = 0;
	set_bit_at(&m->list[l], B_REFS, i, false);
}

/* folio_lru_refs() of the page at entry i of list l: 0 without B_REFS. */
static unsigned refs_at(const struct mglru *m, unsigned l, uint32_t i, uint32_t page)
{
	return bit_at(&m->list[l], B_REFS, i) ? refs_of(&m->page[page]) : 0;
}

static void set_refs(struct mglru *m, uint32_t page, unsigned lru_refs, unsigned workingset)
{
	struct page_state *p = &m->page[page];
	unsigned old = refs_of(p);

	p->lru_refs = (uint8_t)lru_refs;
	p->workingset = (uint8_t)workingset;
	if (old != refs_of(p))
		pl_emit_set(m->ctx, page, F_REFS, (int32_t)old, (int32_t)refs_of(p));
	note_refs(m, page);
}

/*
 * Moves the resident page at entry `at` of generation list `from` to the
 * head or tail of generation seq (reading nothing of the page's state).
 */
static inline __attribute__((always_inline)) void
move_entry(struct mglru *m, uint32_t page, unsigned from, uint32_t at, uint32_t seq, bool tail)
{
	unsigned to = gen_of(seq);

	list_drop(m, from, at);
	list_push(m, to, page, tail);
	pl_emit_move(m->ctx, page, from, to, tail ? m->list[to].len - 1 : 0);
	set_seq(m, page, seq);
}

/* folio_inc_refs(), the fd path's folio_mark_accessed(). */
static void inc_refs(struct mglru *m, uint32_t page)
{
	struct page_state *p = &m->page[page];

	if (!p->referenced) {
		set_field(m, page, F_REFERENCED, &p->referenced, 1);
		note_refs(m, page);
	} else if (!p->workingset)
		set_refs(m, page, p->lru_refs, 1);
	else if (p->lru_refs < MAX_LRU_REFS)
		set_refs(m, page, p->lru_refs + 1u, 1);
}

/* ---------------------------------------------------- refault feedback */

static struct ctrl_pos read_ctrl_pos(const struct mglru *m, unsigned tier, unsigned gain)
{
	unsigned hist = hist_of(m->min_seq);
	struct ctrl_pos pos = {
		.refaulted = m->avg_refaulted[tier] + m->refaulted[hist][tier],
		.total = m->avg_total[tier] + m->evicted[hist][tier],
		.gain = gain,
	};

	if (tier)
		pos.total += m->protected[hist][tier - 1];
	return pos;
}

static bool positive_ctrl_err(const struct mglru *m, const struct ctrl_pos *sp,
			      const struct ctrl_pos *pv)
{
	return pv->refaulted < m->min_batch ||
	       pv->refaulted * (sp->total + m->min_batch) * sp->gain <=
	       (sp->refaulted + 1) * pv->total * pv->gain;
}

/*
 * Whether every tier above 0 has refaulted < min_batch, when each one's
 * error counts as positive and get_tier_idx() is the last tier whatever
 * tier 0's position: kept up to date as the counters and min_seq change.
 */
static void note_refaults(struct mglru *m)
{
	unsigned hist = hist_of(m->min_seq);

	m->few_refaults = true;
	for (unsigned tier = 1; tier < MAX_NR_TIERS; tier++)
		if (m->avg_refaulted[tier] + m->refaulted[hist][tier] >= m->min_batch)
			m->few_refaults = false;
}

static int get_tier_idx(const struct mglru *m)
{
	struct ctrl_pos sp, pv;
	unsigned tier;

	if (m->few_refaults)
		return MAX_NR_TIERS - 1;
	sp = read_ctrl_pos(m, 0, 1);
	for (tier = 1; tier < MAX_NR_TIERS; tier++) {
		pv = read_ctrl_pos(m, tier, 2);
		if (!positive_ctrl_err(m, &sp, &pv))
			break;
	}
	return (int)tier - 1;
}

/* reset_ctrl_pos(carryover = true), as min_seq leaves its generation. */
static void carry_over(struct mglru *m)
{
	unsigned hist = hist_of(m->min_seq);

	for (unsigned tier = 0; tier < MAX_NR_TIERS; tier++) {
		uint64_t total = m->avg_total[tier] + m->evicted[hist][tier];

		if (tier)
			total += m->protected[hist][tier - 1];
		m->avg_refaulted[tier] = (m->avg_refaulted[tier] + m->refaulted[hist][tier]) / 2;
		m->avg_total[tier] = total / 2;
	}
}

/* reset_ctrl_pos(carryover = false), before max_seq advances. */
static void clear_ctrl_pos(struct mglru *m)
{
	unsigned hist = hist_of(m->max_seq + 1);

	memset(m->refaulted[hist], 0, sizeof(m->refaulted[hist]));
	memset(m->evicted[hist], 0, sizeof(m->evicted[hist]));
	memset(m->protected[hist], 0, sizeof(m->protected[hist]));
	note_refaults(m);
}

/* ------------------------------------------------------ aging, sorting */

static uint32_t nr_gens(const struct mglru *m)
{
	return m->max_seq - m->min_seq + 1;
}

/* The generations hold the resident pages, ctx->nresident of them. */
static bool should_run_aging(const struct mglru *m)
{
	uint32_t total = m->ctx->nresident, young = m->list[gen_of(m->max_seq)].len;
	uint32_t old = m->list[gen_of(m->min_seq)].len;

	if (nr_gens(m) < MIN_NR_GENS + 1)
		return true;
	if (nr_gens(m) > MIN_NR_GENS + 1)
		return false;
	return (uint64_t)young * MIN_NR_GENS > total || (uint64_t)old * (MIN_NR_GENS + 2) < total;
}

/*
 * try_to_inc_max_seq(): the walk promotes young pages, then a new
 * generation.  Each generation's ring is read from the tail, a chunk of
 * 64 entries (one word of young bits) at a time, and the states of the
 * next chunk's young pages, to be moved, are requested while this one's
 * move.  Pages moved out of a ring leave dead entries behind, which have
 * no bits, and nothing is pushed to it while it is read (young pages go
 * to gen(max_seq), read last, which moves none): so the next chunk's bits
 * can be read before this one's pages move.
 */
/* The states of the young pages of a chunk, to be written (by force inline, as request_tail()). */
static inline __attribute__((always_inline)) void
request_young(const struct mglru *m, const struct page_ring *r, uint64_t young, uint32_t start)
{
	for (; young; young &= young - 1)
		__builtin_prefetch(&m->page[r->entry[(start + (unsigned)__builtin_ctzll(young)) &
						     r->mask]], 1);
}

/* The walk through generation list gen: its young pages, tail to head. */
static void age_gen(struct mglru *m, unsigned gen, bool move)
{
	const struct page_ring *r = &m->list[gen];
	uint32_t head = r->head, start;
	uint64_t young;
	bool more;

	if (r->end == head)
		return;
	more = young_chunk(r, head, r->end - 1, &young, &start);
	request_young(m, r, young, start);
	for (;;) {
		uint64_t chunk = young;
		uint32_t chunk_start = start;
		bool last = !more;

		if (more) {
			more = young_chunk(r, head, chunk_start - 1, &young, &start);
			request_young(m, r, young, start);
		}
		while (chunk) {
			unsigned b = 63 - (unsigned)__builtin_clzll(chunk);
			uint32_t i = chunk_start + b, p = r->entry[i & r->mask];

			chunk &= ~((uint64_t)1 << b);
			set_young_at(m, gen, i, p, false);
			clear_refs_at(m, gen, i, p);
			if (move)
				move_entry(m, p, gen, i, m->max_seq, false);
		}
		if (last)
			return;
	}
}

/*
 * The youngest generation's part of the walk, unrecorded: nothing moves
 * and no event tells the order, so its young bits are cleared a word at
 * a time, the whole ring's (outside the entries that are pages they are
 * clear), visiting only the pages that also have refs to clear.
 */
static void age_youngest(struct mglru *m, unsigned gen)
{
	struct page_ring *r = &m->list[gen];

	for (uint32_t w = 0; w <= r->mask / 64; w++) {
		uint64_t both = r->bits[w][B_YOUNG] & r->bits[w][B_REFS];

		for (; both; both &= both - 1) {
			uint32_t slot = w * 64 + (unsigned)__builtin_ctzll(both);

			clear_refs_at(m, gen, slot, *ring_at(r, slot));
		}
		r->bits[w][B_YOUNG] = 0;
	}
}

/*
 * Out of line (an aging comes every few thousand faults; inlined, its
 * registers would weigh on every fault), with the moves' list operations
 * inlined into it (flatten), which GCC would otherwise call.
 */
static __attribute__((noinline, flatten)) void age(struct mglru *m)
{
	for (uint32_t seq = m->min_seq; seq < m->max_seq; seq++)
		age_gen(m, gen_of(seq), true);
	if (pl_recording(m->ctx))
		age_gen(m, gen_of(m->max_seq), false);
	else
		age_youngest(m, gen_of(m->max_seq));
	clear_ctrl_pos(m);
	m->max_seq++;
	m->agings++;
}

/* try_to_inc_min_seq(): past empty generations, keeping MIN_NR_GENS. */
static bool inc_min_seq(struct mglru *m)
{
	uint32_t seq = m->min_seq;

	while (seq + MIN_NR_GENS <= m->max_seq && !m->list[gen_of(seq)].len)
		seq++;
	if (seq == m->min_seq)
		return false;
	carry_over(m);
	m->min_seq = seq;
	note_refaults(m);
	return true;
}


/*
 * Sorts the oldest generation's tail, ages and advances min_seq until that
 * tail can be evicted (see the header: done ahead of the fault).  Each turn
 * moves a page to a younger generation or advances a sequence number.
 */
static void prepare_victim(struct mglru *m)
{
	while (m->ctx->nresident >= m->ctx->frames) {
		const struct page_ring *r;
		uint32_t tail, at;
		unsigned gen, refs, tier;

		if (should_run_aging(m)) {
			age(m);
			continue;
		}
		gen = gen_of(m->min_seq);
		r = &m->list[gen];
		tail = list_tail(m, gen);
		if (tail == PL_NONE) {
			if (!inc_min_seq(m))
				return;		/* nothing resident: cannot happen when full */
			continue;
		}
		at = r->end - 1;
		refs = refs_at(m, gen, at, tail);
		m->tier_idx = get_tier_idx(m);
		tier = tier_of(refs);
		if ((int)tier > m->tier_idx || refs == MAX_LRU_REFS + 1) {
			m->protected[hist_of(m->min_seq)][tier - 1]++;
			m->protections++;
			clear_refs_at(m, gen, at, tail);
			move_entry(m, tail, gen, at, m->min_seq + 1, true);
			continue;
		}
		if (bit_at(r, B_YOUNG, at)) {
			set_young_at(m, gen, at, tail, false);
			clear_refs_at(m, gen, at, tail);
			move_entry(m, tail, gen, at, m->max_seq, false);
			m->activated++;
			continue;
		}
		request_tail(m, &m->list[gen_of(m->min_seq)], &m->victims_ahead);
		m->next_victim = tail;
		return;
	}
}

/* ------------------------------------------------------------ the ops */

/* A reference ahead (policy.h, "Prefetching"): the far page's state. */
static void mglru_prefetch(const void *state, uint32_t far, uint32_t near,
			   struct pl_prefetch *out)
{
	const struct mglru *m = state;

	(void)near;
	pl_prefetch(out, &m->page[far]);
}

static void mglru_hit(void *state, const struct pl_ref *ref)
{
	struct mglru *m = state;
	uint32_t x = ref->page;

	if (m->fd)
		inc_refs(m, x);
	else
		set_young(m, x, true);
	if (x == m->next_victim)
		prepare_victim(m);
}

/*
 * Whether a page not resident has a shadow entry.  Forgetting one drops
 * only its ring entry (trim_shadows()), not the page's state, which is far
 * from the CPU: its `at` is left behind the ring's end, where no entry
 * is pushed again (the ring grows at its head, and compact() packs the
 * kept entries towards it), so `where` = SHADOW with `at` between head
 * and end means an entry.  Positions count down mod 2^32, so an old `at`
 * could come round again after 2^32 pushes: forget_stale() clears them
 * every 2^31.
 */
static bool in_shadow(const struct mglru *m, const struct page_state *p)
{
	const struct page_ring *r = &m->list[SHADOW];

	return p->where == SHADOW && p->at - r->head < r->end - r->head;
}

static __attribute__((noinline, cold)) void forget_stale(struct mglru *m)
{
	for (uint32_t i = 0; i < m->ctx->npages; i++)
		if (m->page[i].where == SHADOW && !in_shadow(m, &m->page[i]))
			m->page[i].where = NOWHERE;
	m->shadows_swept = m->list[SHADOW].head;
}

/* lru_gen_refault(): counted if min_seq has not moved since the eviction. */
static void refault(struct mglru *m, uint32_t x)
{
	struct page_state *p = &m->page[x];
	unsigned refs = p->shadow_refs;

	if (p->seq != m->min_seq)
		return;
	m->refaulted[hist_of(m->min_seq)][tier_of(refs)]++;
	m->refaults++;
	note_refaults(m);
	if (!m->fd || refs >= MAX_LRU_REFS)
		set_refs(m, x, MAX_LRU_REFS, 1);
}

static void mglru_insert(void *state, const struct pl_ref *ref)
{
	struct mglru *m = state;
	uint32_t x = ref->page, seq = m->fd ? m->min_seq : m->max_seq;
	struct page_state *p = &m->page[x];
	unsigned to = gen_of(seq);
	uint32_t at;

	if (in_shadow(m, p)) {
		list_leave(m, x);
		at = list_push(m, to, x, false);
		pl_emit_move(m->ctx, x, SHADOW, to, 0);
		if (p->shadow_refs)	/* the field showed the shadow entry's refs */
			pl_emit_set(m->ctx, x, F_REFS, p->shadow_refs, 0);
		refault(m, x);
		set_seq(m, x, seq);
	} else {
		at = ring_push(m, to, x, false);
		*p = (struct page_state){ .where = (uint8_t)to, .seq = seq, .at = at };
		pl_emit_insert(m->ctx, x, to, 0);
		if (pl_recording(m->ctx) && seq)	/* from 0, the field's value before */
			pl_emit_set(m->ctx, x, F_SEQ, 0, (int32_t)seq);
	}
	if (m->fd)
		inc_refs(m, x);
	else
		set_young_at(m, to, at, x, true);
	prepare_victim(m);
}

static uint32_t mglru_victim(const void *state)
{
	const struct mglru *m = state;

	if (m->next_victim != PL_NONE)
		return m->next_victim;
	for (uint32_t seq = m->min_seq; seq <= m->max_seq; seq++)
		if (m->list[gen_of(seq)].len)
			return list_tail(m, gen_of(seq));
	return PL_NONE;
}

/* Forgets the oldest shadow entries beyond `frames` (see in_shadow()). */
static void trim_shadows(struct mglru *m)
{
	struct page_ring *r = &m->list[SHADOW];

	while (r->len > m->ctx->frames) {
		uint32_t old = list_tail(m, SHADOW);

		list_drop(m, SHADOW, r->end - 1);
		if (pl_recording(m->ctx))	/* as in mglru_evict() */
			pl_emit_remove(m->ctx, old, SHADOW);
	}
	if (m->shadows_swept - r->head >= (uint32_t)1 << 31)
		forget_stale(m);
}

static void mglru_evict(void *state, uint32_t victim)
{
	struct mglru *m = state;
	struct page_state *p = &m->page[victim];
	unsigned from, refs;
	uint32_t at;

	if (victim == m->next_victim) {	/* its place is known: its state is only written */
		from = gen_of(m->min_seq);
		at = m->list[from].end - 1;
		m->next_victim = PL_NONE;
	} else {
		from = p->where;
		at = p->at;
	}
	refs = refs_at(m, from, at, victim);
	m->evicted[hist_of(m->min_seq)][tier_of(refs)]++;
	pl_emit_evict(m->ctx, victim, from);
	list_drop(m, from, at);
	/* lru_gen_eviction(): the shadow entry keeps min_seq and the refs */
	*p = (struct page_state){
		.where = SHADOW, .shadow_refs = (uint8_t)refs, .seq = m->min_seq,
		.at = ring_push(m, SHADOW, victim, false),
	};
	if (pl_recording(m->ctx)) {	/* unrecorded, a ghost's events tell the driver nothing */
		pl_emit_insert(m->ctx, victim, SHADOW, 0);
		if (m->min_seq)
			pl_emit_set(m->ctx, victim, F_SEQ, 0, (int32_t)m->min_seq);
		if (refs)
			pl_emit_set(m->ctx, victim, F_REFS, 0, (int32_t)refs);
	}
	trim_shadows(m);
}

static void push_page(const struct mglru *m, struct pl_snapshot *out, unsigned list, uint32_t x)
{
	const struct page_state *p = &m->page[x];
	int32_t values[NR_FIELDS] = {
		[F_SEQ] = (int32_t)p->seq, [F_YOUNG] = list != SHADOW && young_of(m, x),
		[F_REFERENCED] = p->referenced,
		[F_REFS] = (int32_t)(list == SHADOW ? p->shadow_refs : refs_of(p)),
	};

	pl_snapshot_push(out, list, x, values);
}

static void mglru_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct mglru *m = state;

	for (unsigned l = 0; l < NR_LISTS; l++) {
		const struct page_ring *r = &m->list[l];

		for (uint32_t i = r->head; i != r->end; i++)
			if (*ring_at(r, i) != PL_NONE)
				push_page(m, out, l, *ring_at(r, i));
	}
}

static void mglru_read_counters(const void *state, uint64_t *counters)
{
	const struct mglru *m = state;

	counters[C_MIN_SEQ] = m->min_seq;
	counters[C_MAX_SEQ] = m->max_seq;
	counters[C_AGINGS] = m->agings;
	counters[C_ACTIVATED] = m->activated;
	counters[C_PROTECTED] = m->protections;
	counters[C_REFAULTS] = m->refaults;
	counters[C_TIER_IDX] = (uint64_t)m->tier_idx;
}

static const char *const access_choices[] = { "mapped", "fd", NULL };

static const struct pl_param mglru_params[] = {
	[PARAM_ACCESS] = {
		.name = "access",
		.help = "how every reference reaches its page: mapped (page tables: the accessed "
			"bit, promoted by aging) or fd (read/write: tiers by reference count)",
		.def = ACCESS_MAPPED, .min = 0, .max = 1, .choices = access_choices,
	},
	[PARAM_MIN_BATCH] = {
		.name = "min_batch",
		.help = "MIN_LRU_BATCH: refaults below which a tier is never judged worse than "
			"tier 0 (Linux: 64)",
		.def = 64, .min = 1, .max = 1 << 20,
	},
};

static const char *const mglru_lists[] = {
	"gen0", "gen1", "gen2", "gen3", [SHADOW] = "shadow",
};
static const char *const mglru_fields[] = {
	[F_SEQ] = "seq", [F_YOUNG] = "young", [F_REFERENCED] = "referenced", [F_REFS] = "refs",
};
static const char *const mglru_counters[] = {
	[C_MIN_SEQ] = "min_seq", [C_MAX_SEQ] = "max_seq", [C_AGINGS] = "agings",
	[C_ACTIVATED] = "activated", [C_PROTECTED] = "protected", [C_REFAULTS] = "refaults",
	[C_TIER_IDX] = "tier_idx",
};

const struct pl_policy_ops pl_policy_mglru = {
	.name = "mglru",
	.title = "Multi-Generational LRU (Linux 6.1)",
	.help = "Pages grouped in up to 4 generations; aging opens a new one and promotes "
		"accessed pages, eviction takes the oldest, and tiers with refault feedback "
		"protect pages read often.",
	.params = mglru_params,
	.nparams = 2,
	.lists = mglru_lists,
	.nlists = NR_LISTS,
	.ghost_lists = 1u << SHADOW,
	.fields = mglru_fields,
	.nfields = NR_FIELDS,
	.counters = mglru_counters,
	.ncounters = NR_COUNTERS,
	.create = mglru_create,
	.destroy = mglru_destroy,
	.hit = mglru_hit,
	.insert = mglru_insert,
	.victim = mglru_victim,
	.evict = mglru_evict,
	.prefetch = mglru_prefetch,
	.snapshot = mglru_snapshot,
	.read_counters = mglru_read_counters,
};
