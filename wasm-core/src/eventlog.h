/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventlog.h - the driver's record of a simulation (PL_SIM_RECORD): every
 * event in order, compactly encoded, an index of where steps begin, and
 * snapshots of the policy (checkpoints), so that any earlier step can be
 * rebuilt without running the policy again.  Used by sim.c only; the
 * public calls (pl_sim_events, pl_sim_step_events, pl_sim_seek) are thin
 * wrappers around it.
 *
 * Encoding (a byte stream; the 20-byte struct pl_event is only what the
 * decoder hands out).  Each event is a head byte and up to four varints:
 *
 *   head  bits 0-3  kind (enum pl_event_kind)
 *         bit  4    the first event of a new step (every step has one:
 *                   its HIT or MISS, so steps are counted, not stored)
 *         bits 5-6  the page: 0 a varint follows, 1 the page of this
 *                   step's reference (HIT, MISS, the INSERT of a fault),
 *                   2 the page of the step's previous event (the EVICT
 *                   after its VICTIM), 3 PL_NONE (HAND, VARIABLE)
 *         bit  7    a and b are both 0 (no varints for them)
 *   [page]          varint, if bits 5-6 are 0
 *   [arg]           varint, for EVICT, INSERT, MOVE, REMOVE, SET, HAND,
 *                   VARIABLE
 *   [a, b - a]      zigzag varints, unless bit 7 (a hand moving on by
 *                   one, a field going up by one: one byte each)
 *
 * The step bit is the driver's business alone: the HIT or MISS takes it
 * (eventlog_append_outcome(), eventlog_append_miss_victim()), or, when a tick came first and emitted
 * events, the first of those (eventlog_tick_ended()); the policy's events
 * never test for it.
 *
 * A varint holds 32 bits in 1 to 5 bytes, the length in the first byte's
 * low bits (a prefix varint): v below 2^7 is v << 1, below 2^14 v << 2 | 1,
 * below 2^21 v << 3 | 3, and so on, little-endian.  The encoder stores it
 * as one shifted word, the decoder reads the length from the trailing
 * ones: neither tests byte by byte.
 *
 * So an LRU hit is 3 bytes (HIT, MOVE to the head) and a fault with an
 * eviction 9 or so, against 20 bytes an event unencoded.
 *
 * Step index: for every STEP_BLOCK-th step, where its events begin (byte
 * and event number); a step's events are found by decoding from there.
 *
 * Checkpoints: step 0 always; then, with checkpoint_every K > 0, every K
 * steps; with K = 0 (the default) spaced by size: the first step of a
 * block becomes a checkpoint once the events since the previous one take
 * CHECKPOINT_SPACING times the bytes that checkpoint did.  Checkpoints
 * then hold at most 1/CHECKPOINT_SPACING of what the events hold, whatever
 * the number of frames, and a seek replays at most CHECKPOINT_SPACING
 * checkpoints' worth of events (O(1) each: milliseconds).
 *
 * Invariants: the events of steps < pos are complete in the stream; every
 * checkpoint is the policy's snapshot at its step, and its byte/event
 * offsets are where that step's events begin.
 *
 * Cost: an append is amortized O(1) (the stream grows by half); a seek is
 * O(S + E): S the checkpoint's size, E the events replayed onto it, each
 * O(1) through replay.h (an INSERT in the middle of a list walks to its
 * place from the nearer end); the events of a step are found in
 * O(STEP_BLOCK) decodes.
 */
#ifndef PAGELAB_EVENTLOG_H
#define PAGELAB_EVENTLOG_H

#include "pagelab.h"

struct eventlog_checkpoint {
	struct pl_snapshot snapshot;
	uint32_t step;		/* the step it is the state at */
	uint32_t event;		/* events before that step */
	size_t byte;		/* where that step's events begin */
};

struct eventlog_block {
	uint32_t event;
	size_t byte;
};

/*
 * The encoder's state comes first: an append reads and writes only these
 * few words (at, room_end, the two pages, nevents), held by pointer, not
 * by offset (no base + size to add), and the step bit is the driver's,
 * once a step.  prev_page and nevents, both stored by every append, are
 * kept apart: side by side, gcc merged their two stores into one built
 * in SSE registers, about five instructions an event.
 */
struct eventlog {
	uint8_t *at;		/* where the next event goes (bytes + size) */
	uint8_t *room_end;	/* at < room_end: room for one more event */
	uint32_t pos_page;	/* the page of the recorded step's reference */
	/* the next step at which a block begins, a checkpoint may be due or
	 * the trace ends: eventlog_begin_step_slow()'s */
	uint32_t slow_at;
	uint32_t prev_page;	/* the page of the step's previous event */
	uint8_t step_bit;	/* the next HIT or MISS's: HEAD_STEP, 0 after a tick's events */
	uint32_t nevents;

	uint8_t *bytes;
	size_t cap;
	size_t mapped;		/* the bytes reserved for the stream (Linux) */
	const uint32_t *ref_page;	/* the trace's pages: the page of each step */
	uint32_t n;			/* the trace's steps */

	struct eventlog_block *blocks;	/* [n / STEP_BLOCK + 1] */
	uint32_t checkpoint_every;	/* 0: spaced by size */
	struct eventlog_checkpoint *checkpoints;
	uint32_t ncheckpoints, checkpoints_cap;

	/* pl_sim_events(): events decoded for the caller */
	struct pl_event *decoded;
	uint32_t decoded_cap;
};

#define STEP_BLOCK 64
#define CHECKPOINT_SPACING 8

enum {
	HEAD_KIND = 0x0f,
	HEAD_STEP = 0x10,
	HEAD_PAGE_SHIFT = 5,
	HEAD_ZERO = 0x80,
};

enum page_mode { PAGE_VARINT, PAGE_REF, PAGE_PREV, PAGE_NONE };

/* The most bytes one event takes: head, page, arg and two 32-bit varints. */
#define EVENT_MAX (1 + 5 + 5 + 5 + 5)
/*
 * The room an append needs: its bytes, and the 8 bytes a varint is stored
 * with (eventlog_put_varint()) at its last varint's place.
 */
#define EVENT_ROOM (EVENT_MAX + 8)

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "eventlog_put_varint() stores a little-endian word"
#endif

/*
 * Allocates for a trace of n steps whose pages are `ref_page`
 * (checkpoint_every: K, or 0 to space checkpoints by size); -1 when out
 * of memory.
 */
int eventlog_init(struct eventlog *log, uint32_t n, const uint32_t *ref_page,
		  uint32_t checkpoint_every);
void eventlog_free(struct eventlog *log);

/* Memory held: the stream and step index as allocated, and every checkpoint. */
size_t eventlog_bytes(const struct eventlog *log, uint32_t n);

/* Grows the stream by half; -1 when out of memory. */
int eventlog_grow(struct eventlog *log);

/* The bytes of the stream. */
static inline size_t eventlog_size(const struct eventlog *log)
{
	return (size_t)(log->at - log->bytes);
}

/*
 * The encoding's pieces, inline: the driver's loop appends several events
 * a step, and each pl_record_*() call appends one with its constants
 * folded in.  A varint is stored as one 8-byte word, the cursor moving on
 * by its length: no branch per byte, which a random mix of page ids would
 * mispredict.
 */

/*
 * The bytes of v as a varint less one: ceil(bits / 7) - 1 (0 for 0), as a
 * multiply ((bits * 9 + 64) >> 6 is the length itself).
 */
static inline unsigned eventlog_varint_extra(uint32_t v)
{
	unsigned bits = 32 - (unsigned)__builtin_clz(v | 1);

	return bits * 9 >> 6;
}

/*
 * Stores v as a varint at p (8 bytes writable there); returns its length.
 * The word is v << len with len - 1 ones below it: (v << 1 | 1) shifted
 * by len - 1, less one, which sets the ones and clears the 1 above them.
 */
static inline unsigned eventlog_put_varint(uint8_t *p, uint32_t v)
{
	uint64_t word;
	unsigned extra;

	if (__builtin_expect(v < 0x80, 1)) {
		*p = (uint8_t)(v << 1);
		return 1;
	}
	extra = eventlog_varint_extra(v);
	word = (((uint64_t)v << 1 | 1) << extra) - 1;
	__builtin_memcpy(p, &word, sizeof(word));
	return extra + 1;
}

/* Small magnitudes of either sign in few bytes: 0, -1, 1, -2 -> 0, 1, 2, 3. */
static inline uint32_t eventlog_zigzag(uint32_t v)
{
	return v << 1 ^ (0u - (v >> 31));
}

static inline bool eventlog_has_arg(unsigned kind)
{
	return kind >= PL_EV_EVICT;
}

/*
 * Is there room for one more event?  Every append needs it (and, when
 * not, eventlog_grow() first): the check is the caller's, so that the
 * growing is a call apart and the common path, an append into room, calls
 * nothing (no registers to save).
 */
static inline bool eventlog_has_room(const struct eventlog *log)
{
	return __builtin_expect(log->at < log->room_end, 1);
}

/*
 * Appends the HIT or MISS of the step whose reference is `page`, into
 * room: one byte, the step's first unless a tick's events came first.
 */
static inline void eventlog_append_outcome(struct eventlog *log, enum pl_event_kind kind,
					   uint32_t page)
{
	*log->at++ = (uint8_t)((uint8_t)kind | PAGE_REF << HEAD_PAGE_SHIFT | HEAD_ZERO |
			       log->step_bit);
	log->step_bit = HEAD_STEP;
	log->nevents++;
	log->pos_page = page;
	log->prev_page = page;
}

/*
 * Appends a fault's MISS (as eventlog_append_outcome()) and the VICTIM
 * its first eviction names, into room: one update of the encoder's state
 * for the two, which the room for one event holds.  The VICTIM's page is
 * never the previous event's unless it is the reference's (the MISS's).
 */
static inline void eventlog_append_miss_victim(struct eventlog *log, uint32_t page,
					       uint32_t victim)
{
	uint8_t *p = log->at;
	unsigned mode = victim == page ? PAGE_REF : PAGE_VARINT;

	p[0] = (uint8_t)(PL_EV_MISS | PAGE_REF << HEAD_PAGE_SHIFT | HEAD_ZERO | log->step_bit);
	p[1] = (uint8_t)(PL_EV_VICTIM | mode << HEAD_PAGE_SHIFT | HEAD_ZERO);
	p += 2;
	if (mode == PAGE_VARINT)
		p += eventlog_put_varint(p, victim);
	log->at = p;
	log->step_bit = HEAD_STEP;
	log->nevents += 2;
	log->pos_page = page;
	log->prev_page = victim;
}

/*
 * A tick is due before the HIT or MISS of the step whose reference is
 * `page`: its events are the step's and come first.  Returns where they
 * begin, for eventlog_tick_ended().
 */
static inline size_t eventlog_tick_begins(struct eventlog *log, uint32_t page)
{
	log->pos_page = page;
	log->prev_page = PL_NONE;
	return eventlog_size(log);
}

/* The tick's events, from byte `from` on, are in: the first takes the step bit. */
static inline void eventlog_tick_ended(struct eventlog *log, size_t from)
{
	if (eventlog_size(log) != from) {
		log->bytes[from] |= HEAD_STEP;
		log->step_bit = 0;
	}
}

/*
 * How an event gives its page (enum page_mode): PAGE_NONE, the step's
 * reference, the previous event's, else a varint.  The encoder may give a
 * page any way that decodes to it (a varint always does); these pick the
 * fewest bytes, and callers that know more say so with a constant.
 */
static inline unsigned eventlog_page_mode(const struct eventlog *log, uint32_t page)
{
	return page == PL_NONE ? PAGE_NONE :
	       page == log->pos_page ? PAGE_REF :
	       page == log->prev_page ? PAGE_PREV : PAGE_VARINT;
}

/*
 * Appends one event of the recorded step other than its HIT or MISS, into
 * room, its page given as `mode` says (eventlog_page_mode(), or a mode the
 * caller knows to hold).  Always inline: called with constants for kind,
 * mode and some of the values, it folds to the few parts that event has.
 */
static inline __attribute__((always_inline)) void
eventlog_append_as(struct eventlog *log, enum pl_event_kind kind, unsigned arg, unsigned mode,
		   uint32_t page, int32_t a, int32_t b)
{
	uint8_t *head = log->at, *p = head + 1, zero = 0;

	if (mode == PAGE_VARINT)
		p += eventlog_put_varint(p, page);
	if (eventlog_has_arg(kind))
		p += eventlog_put_varint(p, arg);
	if (a != 0 || b != 0) {
		p += eventlog_put_varint(p, eventlog_zigzag((uint32_t)a));
		p += eventlog_put_varint(p, eventlog_zigzag((uint32_t)b - (uint32_t)a));
	} else {
		zero = HEAD_ZERO;
	}
	*head = (uint8_t)((uint8_t)kind | mode << HEAD_PAGE_SHIFT | zero);
	log->at = p;
	log->nevents++;
	log->prev_page = page;
}

static inline __attribute__((always_inline)) void
eventlog_append(struct eventlog *log, enum pl_event_kind kind, unsigned arg, uint32_t page,
		int32_t a, int32_t b)
{
	eventlog_append_as(log, kind, arg, eventlog_page_mode(log, page), page, a, b);
}

/*
 * Step `pos` begins here (so step pos - 1 ends): called at the start and
 * after every step.  When `pos` is to be a checkpoint, sets *cp to the
 * snapshot the caller must fill (initialised for ops), else to NULL.  At
 * the trace's end the stream is trimmed to its size.  -1 when out of
 * memory.
 */
int eventlog_begin_step_slow(struct eventlog *log, uint32_t pos,
			     const struct pl_policy_ops *ops, struct pl_snapshot **cp);

/*
 * The same for most steps - no block to index, no checkpoint to consider,
 * not the end - inline: nothing to do (the step's HIT or MISS, or its
 * tick, sets the encoder's pages); false for the others, which take
 * eventlog_begin_step_slow().
 */
static inline bool eventlog_begin_step_fast(const struct eventlog *log, uint32_t pos)
{
	return __builtin_expect(pos < log->slow_at, 1);
}

/* The events of finished step `step` (< pos) as event numbers: [*begin, *end). */
void eventlog_step_range(const struct eventlog *log, uint32_t step, uint32_t *begin,
			 uint32_t *end);
/*
 * The events of steps [from, to) (those recorded: a failed step's are
 * there too), decoded into log->decoded; NULL when out of memory.
 */
const struct pl_event *eventlog_decode(struct eventlog *log, uint32_t from, uint32_t to,
				       uint32_t *count);
/* The structure at step k <= pos, from the checkpoint at or before it; -1 if it cannot. */
int eventlog_seek(const struct eventlog *log, uint32_t k, struct pl_snapshot *out);

#endif /* PAGELAB_EVENTLOG_H */
