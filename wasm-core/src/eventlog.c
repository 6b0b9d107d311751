/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventlog.c - the event log, step index and checkpoints of a recorded
 * simulation.  Interface, encoding, invariants and costs: eventlog.h.
 */
#define _GNU_SOURCE		/* MADV_HUGEPAGE */
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "eventlog.h"
#include "huge_pages.h"
#include "replay.h"

/* A varint (eventlog.h): its length is the first byte's trailing ones, plus one. */
static uint32_t get_varint(const uint8_t *bytes, size_t *at)
{
	unsigned len = (unsigned)__builtin_ctz(~(unsigned)bytes[*at]) + 1;
	uint64_t word = 0;

	for (unsigned i = 0; i < len; i++)
		word |= (uint64_t)bytes[*at + i] << 8 * i;
	*at += len;
	return (uint32_t)(word >> len);
}

static uint32_t unzigzag(uint32_t z)
{
	return z >> 1 ^ (0u - (z & 1));
}

/*
 * The stream's memory.  On Linux a mapping of its own, reserved up front
 * for RESERVED_PER_STEP bytes a step, aligned to HUGE_PAGE and advised
 * into huge pages: a recorded run writes its stream once, front to back,
 * into memory it has never touched, and as 4 KB pages every 4 KB of it
 * costs a fault (clock, 28 bytes a reference: 7000 faults in a
 * 1M-reference run, a fifth of its time), as 2 MB pages one per 512 of
 * those.  Only what is written takes memory (up to a huge page more
 * than the stream holds; eventlog_bytes() counts the stream's `cap`, as
 * before); growing within the reservation is moving room_end, beyond it
 * mremap(), which moves page tables rather than bytes.  Elsewhere
 * (WebAssembly) realloc().
 */
#define RESERVED_PER_STEP 32

#if defined(__linux__) && defined(MADV_HUGEPAGE)
static uint8_t *stream_resize(struct eventlog *log, size_t cap)
{
	uint64_t want = (uint64_t)log->n * RESERVED_PER_STEP;
	size_t reserve = want < SIZE_MAX / 4 ? (size_t)want : 0;

	if (!log->bytes)
		return huge_map(cap > reserve ? cap : reserve, &log->mapped);
	if (cap <= log->mapped)
		return log->bytes;
	return huge_remap(log->bytes, &log->mapped, cap);
}

static void stream_free(struct eventlog *log)
{
	if (log->bytes)
		munmap(log->bytes, log->mapped);
}
#else
static uint8_t *stream_resize(struct eventlog *log, size_t cap)
{
	return realloc(log->bytes, cap);
}

static void stream_free(struct eventlog *log)
{
	free(log->bytes);
}
#endif

int eventlog_init(struct eventlog *log, uint32_t n, const uint32_t *ref_page,
		  uint32_t checkpoint_every)
{
	log->ref_page = ref_page;
	log->n = n;
	log->checkpoint_every = checkpoint_every;
	log->step_bit = HEAD_STEP;
	log->blocks = calloc((size_t)n / STEP_BLOCK + 1, sizeof(*log->blocks));
	return log->blocks ? eventlog_grow(log) : -1;
}

void eventlog_free(struct eventlog *log)
{
	for (uint32_t i = 0; i < log->ncheckpoints; i++)
		pl_snapshot_free(&log->checkpoints[i].snapshot);
	free(log->checkpoints);
	free(log->blocks);
	stream_free(log);
	free(log->decoded);
}

static size_t checkpoint_bytes(const struct eventlog_checkpoint *cp)
{
	const struct pl_snapshot *s = &cp->snapshot;

	return sizeof(*cp) + (size_t)s->cap * (sizeof(*s->page) + s->nfields * sizeof(*s->value));
}

size_t eventlog_bytes(const struct eventlog *log, uint32_t n)
{
	size_t bytes = log->cap + ((size_t)n / STEP_BLOCK + 1) * sizeof(*log->blocks);

	for (uint32_t i = 0; i < log->ncheckpoints; i++)
		bytes += checkpoint_bytes(&log->checkpoints[i]);
	return bytes + (log->checkpoints_cap - log->ncheckpoints) * sizeof(*log->checkpoints);
}

/* The stream's bytes are now `bytes`, `cap` of them, the first `size` used. */
static void set_stream(struct eventlog *log, uint8_t *bytes, size_t cap, size_t size)
{
	log->bytes = bytes;
	log->cap = cap;
	log->at = bytes + size;
	log->room_end = cap >= EVENT_ROOM ? bytes + cap - EVENT_ROOM + 1 : bytes;
}

/* Grows the stream by half (a doubling would leave up to half unused). */
int eventlog_grow(struct eventlog *log)
{
	size_t size = log->bytes ? eventlog_size(log) : 0;
	size_t cap = log->cap < 4096 ? 4096 : log->cap + log->cap / 2;
	uint8_t *bytes;

	if (cap > SIZE_MAX / 2 || log->nevents == UINT32_MAX)
		return -1;
	bytes = stream_resize(log, cap);
	if (!bytes)
		return -1;
	set_stream(log, bytes, cap, size);
	return 0;
}

/* Room for one more checkpoint; NULL when out of memory. */
static struct eventlog_checkpoint *new_checkpoint(struct eventlog *log)
{
	if (log->ncheckpoints == log->checkpoints_cap) {
		uint32_t cap = log->checkpoints_cap ? log->checkpoints_cap * 2 : 16;
		struct eventlog_checkpoint *more;

		more = realloc(log->checkpoints, cap * sizeof(*more));
		if (!more)
			return NULL;
		log->checkpoints = more;
		log->checkpoints_cap = cap;
	}
	return &log->checkpoints[log->ncheckpoints++];
}

/* Is step pos (> 0) to be a checkpoint?  (By size: asked every STEP_BLOCK steps.) */
static bool checkpoint_due(const struct eventlog *log, uint32_t pos)
{
	const struct eventlog_checkpoint *last = &log->checkpoints[log->ncheckpoints - 1];

	if (log->checkpoint_every)
		return pos % log->checkpoint_every == 0;
	return pos % STEP_BLOCK == 0 &&
	       eventlog_size(log) - last->byte >= CHECKPOINT_SPACING * checkpoint_bytes(last);
}

/* The first step after pos that begins a block, may be a checkpoint or is the end. */
static uint32_t next_slow_step(const struct eventlog *log, uint32_t pos)
{
	uint64_t next = ((uint64_t)pos / STEP_BLOCK + 1) * STEP_BLOCK;
	uint32_t k = log->checkpoint_every;

	if (k && ((uint64_t)pos / k + 1) * k < next)
		next = ((uint64_t)pos / k + 1) * k;
	return next < log->n ? (uint32_t)next : log->n;
}

int eventlog_begin_step_slow(struct eventlog *log, uint32_t pos, const struct pl_policy_ops *ops,
			     struct pl_snapshot **snapshot)
{
	struct eventlog_checkpoint *cp;

	size_t size = eventlog_size(log);

	*snapshot = NULL;
	log->pos_page = pos < log->n ? log->ref_page[pos] : PL_NONE;
	log->prev_page = PL_NONE;
	log->step_bit = HEAD_STEP;
	if (pos % STEP_BLOCK == 0)
		log->blocks[pos / STEP_BLOCK] = (struct eventlog_block){
			.event = log->nevents, .byte = size,
		};
	log->slow_at = next_slow_step(log, pos);
	if (pos == log->n && size) {
		uint8_t *trimmed = stream_resize(log, size);

		if (trimmed)
			set_stream(log, trimmed, size, size);
	}
	if (pos > 0 && !checkpoint_due(log, pos))
		return 0;
	cp = new_checkpoint(log);
	if (!cp)
		return -1;
	*cp = (struct eventlog_checkpoint){ .step = pos, .event = log->nevents, .byte = size };
	pl_snapshot_init(&cp->snapshot, ops);
	/* sized like the previous one (memory changes little between two),
	 * not grown by doubling: less copying and no unused half (a failure
	 * here shows again, and is reported, when the snapshot is pushed) */
	if (log->ncheckpoints > 1)
		pl_snapshot_reserve(&cp->snapshot, cp[-1].snapshot.total);
	*snapshot = &cp->snapshot;
	return 0;
}

/* ------------------------------------------------------------- decoding */

/* A place in the stream: the next byte, and the step of the event before it. */
struct reader {
	const struct eventlog *log;
	size_t at;
	uint32_t step;
	uint32_t prev_page;
};

/* A reader at the first event of step `step`, whose offsets are `byte`. */
static struct reader reader_at(const struct eventlog *log, uint32_t step, size_t byte)
{
	return (struct reader){ .log = log, .at = byte, .step = step - 1, .prev_page = PL_NONE };
}

/*
 * Reads the next event into *ev; false at the end of the stream or when the
 * next event belongs to step `stop` or later (it is not consumed then).
 */
static bool read_event(struct reader *r, uint32_t stop, struct pl_event *ev)
{
	const uint8_t *bytes = r->log->bytes;
	uint8_t head;
	unsigned kind;

	if (r->at >= eventlog_size(r->log))
		return false;
	head = bytes[r->at];
	if (head & HEAD_STEP) {
		if (r->step + 1 >= stop)
			return false;
		r->step++;
		r->prev_page = PL_NONE;
	}
	r->at++;
	kind = head & HEAD_KIND;
	ev->step = r->step;
	ev->kind = (uint16_t)kind;
	switch ((enum page_mode)(head >> HEAD_PAGE_SHIFT & 3)) {
	case PAGE_VARINT:
		ev->page = get_varint(bytes, &r->at);
		break;
	case PAGE_REF:
		ev->page = r->log->ref_page[r->step];
		break;
	case PAGE_PREV:
		ev->page = r->prev_page;
		break;
	case PAGE_NONE:
		ev->page = PL_NONE;
		break;
	}
	ev->arg = eventlog_has_arg(kind) ? (uint16_t)get_varint(bytes, &r->at) : 0;
	if (head & HEAD_ZERO) {
		ev->a = ev->b = 0;
	} else {
		uint32_t a = unzigzag(get_varint(bytes, &r->at));

		ev->a = (int32_t)a;
		ev->b = (int32_t)(a + unzigzag(get_varint(bytes, &r->at)));
	}
	r->prev_page = ev->page;
	return true;
}

/* A reader at the start of the block holding step `step`; *event: its event number. */
static struct reader block_reader(const struct eventlog *log, uint32_t step, uint32_t *event)
{
	const struct eventlog_block *b = &log->blocks[step / STEP_BLOCK];

	*event = b->event;
	return reader_at(log, step / STEP_BLOCK * STEP_BLOCK, b->byte);
}

void eventlog_step_range(const struct eventlog *log, uint32_t step, uint32_t *begin,
			 uint32_t *end)
{
	uint32_t event;
	struct reader r = block_reader(log, step, &event);
	struct pl_event ev;

	while (read_event(&r, step, &ev))
		event++;
	*begin = event;
	while (read_event(&r, step + 1, &ev))
		event++;
	*end = event;
}

const struct pl_event *eventlog_decode(struct eventlog *log, uint32_t from, uint32_t to,
				       uint32_t *count)
{
	uint32_t event, n = 0;
	struct reader r = block_reader(log, from, &event);
	struct pl_event ev;

	while (read_event(&r, from, &ev))
		;
	while (read_event(&r, to, &ev)) {
		if (n == log->decoded_cap) {
			uint32_t cap = log->decoded_cap ? log->decoded_cap * 2 : 256;
			struct pl_event *more = realloc(log->decoded, (size_t)cap * sizeof(*more));

			if (!more)
				return NULL;
			log->decoded = more;
			log->decoded_cap = cap;
		}
		log->decoded[n++] = ev;
	}
	*count = n;
	return log->decoded;
}

/* The last checkpoint at or before step k. */
static const struct eventlog_checkpoint *checkpoint_before(const struct eventlog *log,
							    uint32_t k)
{
	uint32_t lo = 0, hi = log->ncheckpoints;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (log->checkpoints[mid].step <= k)
			lo = mid;
		else
			hi = mid;
	}
	return &log->checkpoints[lo];
}

int eventlog_seek(const struct eventlog *log, uint32_t k, struct pl_snapshot *out)
{
	const struct eventlog_checkpoint *cp;
	struct replay replay;
	struct reader r;
	struct pl_event ev;

	if (!log->ncheckpoints)
		return -1;
	cp = checkpoint_before(log, k);
	if (cp->step == k)
		return pl_snapshot_copy(out, &cp->snapshot);
	if (replay_open(&replay, &cp->snapshot))
		return -1;
	r = reader_at(log, cp->step, cp->byte);
	while (read_event(&r, k, &ev)) {
		if (replay_apply(&replay, &ev)) {
			replay_free(&replay);
			return -1;
		}
	}
	return replay_close(&replay, out);
}
