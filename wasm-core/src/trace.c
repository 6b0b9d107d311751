/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.c - reference traces in memory: building them, and loading them
 * from a reader (trace_read.c parses every format).
 *
 * Interface: pl_trace_* in pagelab.h.
 *
 * Invariants of a struct pl_trace: page[0 .. n-1] < npages; number[id] is
 * the input page number that dense id `id` stands for, and the page map
 * holds exactly the pairs (number[id], id); pid and vtime, once allocated,
 * have an entry for every reference (0 for those added before).  n stays
 * below PL_NONE, so a step always fits in 32 bits with PL_NONE to spare.
 *
 * Speed: references are interned a reader's batch at a time
 * (pl_page_map_intern_batch(), which prefetches its slots ahead, so the
 * cache misses of a large page map overlap instead of queueing one after
 * another), straight into the trace's page array.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pagelab.h"
#include "page_map.h"

#define INTERN_SCRATCH 4096	/* ids interned at a time when the caller wants none */

void pl_trace_init(struct pl_trace *t)
{
	memset(t, 0, sizeof(*t));
}

void pl_trace_free(struct pl_trace *t)
{
	free(t->page);
	free(t->flags);
	free(t->pid);
	free(t->vtime);
	free(t->number);
	pl_page_map_destroy(t->map);
	pl_trace_init(t);
}

static void *grow_array(void *array, uint32_t cap, size_t size)
{
	return realloc(array, (size_t)cap * size);
}

/* Makes room for `more` references in every per-reference array. */
static int reserve_references(struct pl_trace *t, uint32_t more)
{
	uint32_t cap = t->cap;
	void *p;

	if (more <= t->cap - t->n)
		return 0;
	if (more >= PL_NONE - 1 - t->n)
		return -1;
	while (cap - t->n < more)
		cap = cap >= PL_NONE / 2 ? PL_NONE - 1 : cap ? cap * 2 : 1024;
	if (!(p = grow_array(t->page, cap, sizeof(*t->page))))
		return -1;
	t->page = p;
	if (!(p = grow_array(t->flags, cap, sizeof(*t->flags))))
		return -1;
	t->flags = p;
	if (t->pid) {
		if (!(p = grow_array(t->pid, cap, sizeof(*t->pid))))
			return -1;
		t->pid = p;
	}
	if (t->vtime) {
		if (!(p = grow_array(t->vtime, cap, sizeof(*t->vtime))))
			return -1;
		t->vtime = p;
	}
	t->cap = cap;
	return 0;
}

/* Makes room in number[] for `more` pages. */
static int room_for_numbers(struct pl_trace *t, uint32_t more)
{
	uint64_t cap = t->page_cap ? t->page_cap : 1024;
	uint64_t *p;

	while (cap < (uint64_t)t->npages + more)
		cap *= 2;
	if (cap > PL_NONE)
		cap = PL_NONE;
	if (cap < (uint64_t)t->npages + more ||
	    !(p = grow_array(t->number, (uint32_t)cap, sizeof(*t->number))))
		return -1;
	t->number = p;
	t->page_cap = (uint32_t)cap;
	return 0;
}

static int remember_number(struct pl_trace *t, uint32_t id, uint64_t number)
{
	if (id >= t->page_cap && room_for_numbers(t, 1))
		return -1;
	t->number[id] = number;
	t->npages = id + 1;
	return 0;
}

uint32_t pl_trace_intern(struct pl_trace *t, uint64_t number)
{
	uint32_t id;
	int added;

	if (!t->map && !(t->map = pl_page_map_create()))
		return PL_NONE;
	id = pl_page_map_intern(t->map, number, &added);
	if (id == PL_NONE || (added && remember_number(t, id, number)))
		return PL_NONE;
	return id;
}

int pl_trace_intern_batch(struct pl_trace *t, const uint64_t *numbers, uint32_t n,
			  uint32_t *ids)
{
	uint32_t scratch[INTERN_SCRATCH];

	if (!t->map && !(t->map = pl_page_map_create()))
		return -1;
	if (ids) {
		if (n > t->page_cap - t->npages && room_for_numbers(t, n))
			return -1;
		if (pl_page_map_intern_batch(t->map, numbers, n, ids, t->number))
			return -1;
		t->npages = pl_page_map_count(t->map);
		return 0;
	}
	for (uint32_t done = 0, k; done < n; done += k) {
		k = n - done < INTERN_SCRATCH ? n - done : INTERN_SCRATCH;
		if (pl_trace_intern_batch(t, numbers + done, k, scratch))
			return -1;
	}
	return 0;
}

uint32_t pl_trace_add(struct pl_trace *t, uint64_t number, unsigned flags)
{
	uint32_t id;

	if (reserve_references(t, 1))
		return PL_NONE;
	id = pl_trace_intern(t, number);
	if (id == PL_NONE)
		return PL_NONE;
	t->page[t->n] = id;
	t->flags[t->n] = (uint8_t)flags;
	if (t->pid)
		t->pid[t->n] = 0;
	if (t->vtime)
		t->vtime[t->n] = 0;
	t->n++;
	return id;
}

int pl_trace_set_pid(struct pl_trace *t, uint32_t pid)
{
	if (!t->n)
		return -1;
	if (!t->pid && !(t->pid = calloc(t->cap, sizeof(*t->pid))))
		return -1;
	t->pid[t->n - 1] = pid;
	return 0;
}

int pl_trace_set_vtime(struct pl_trace *t, uint64_t vtime)
{
	if (!t->n)
		return -1;
	if (!t->vtime && !(t->vtime = calloc(t->cap, sizeof(*t->vtime))))
		return -1;
	t->vtime[t->n - 1] = vtime;
	return 0;
}

/* ---------------------------------------------------------------- loading */

/* Why a batch of `more` references could not be added. */
static int load_error(const struct pl_trace *t, uint32_t more, const struct pl_reader *r,
		      struct pl_error *err)
{
	if ((uint64_t)t->n + more >= PL_NONE - 1)
		snprintf(err->msg, sizeof(err->msg),
			 "%s: more than %u references, the most a trace can hold",
			 pl_reader_name(r), PL_NONE - 2);
	else
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory after %u references",
			 pl_reader_name(r), t->n);
	return -1;
}

/* Appends a reader's batch: its numbers interned straight into the page array. */
static int add_batch(struct pl_trace *t, const struct pl_refs *b)
{
	uint32_t at = t->n;

	if (reserve_references(t, b->n) ||
	    pl_trace_intern_batch(t, b->number, b->n, t->page + at) ||
	    (b->pid && !t->pid && !(t->pid = calloc(t->cap, sizeof(*t->pid)))) ||
	    (b->time && !t->vtime && !(t->vtime = calloc(t->cap, sizeof(*t->vtime)))))
		return -1;
	memcpy(t->flags + at, b->flags, b->n);
	if (b->pid)
		memcpy(t->pid + at, b->pid, (size_t)b->n * sizeof(*t->pid));
	else if (t->pid)
		memset(t->pid + at, 0, (size_t)b->n * sizeof(*t->pid));
	if (b->time)
		memcpy(t->vtime + at, b->time, (size_t)b->n * sizeof(*t->vtime));
	else if (t->vtime)
		memset(t->vtime + at, 0, (size_t)b->n * sizeof(*t->vtime));
	t->n += b->n;
	return 0;
}

int pl_trace_load(struct pl_trace *t, struct pl_reader *r, struct pl_error *err)
{
	struct pl_refs b;
	int got;

	if (!t->map && !(t->map = pl_page_map_create()))
		return load_error(t, 0, r, err);
	while ((got = pl_reader_next(r, &b, err)) > 0)
		if (add_batch(t, &b))
			return load_error(t, b.n, r, err);
	return got;
}

/* Reads everything from a reader opened by the caller, then closes it. */
static int load_and_close(struct pl_trace *t, struct pl_reader *r, struct pl_error *err)
{
	int ret;

	if (!r)
		return -1;
	ret = pl_trace_load(t, r, err);
	pl_reader_close(r);
	return ret;
}

int pl_trace_parse_refs(struct pl_trace *t, const char *text, const char *source,
			struct pl_error *err)
{
	const struct pl_read_options opts = { .format = PL_FORMAT_TEXT, .no_comments = true };

	return load_and_close(t, pl_reader_open_buffer(text, strlen(text), source, &opts, err),
			      err);
}

int pl_trace_read_buffer(struct pl_trace *t, const char *buf, size_t len, const char *name,
			 struct pl_error *err)
{
	return load_and_close(t, pl_reader_open_buffer(buf, len, name, NULL, err), err);
}

int pl_trace_read(struct pl_trace *t, FILE *in, const char *name, struct pl_error *err)
{
	return load_and_close(t, pl_reader_open_stream(in, name, NULL, err), err);
}
