/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.c - a policy's structure as plain data, and the replay of
 * structural events onto it.
 *
 * Interface: pl_snapshot_{init,free,clear,copy,equal,apply} (pagelab.h) and
 * pl_snapshot_{push,set_hand} (policy.h).
 *
 * Layout: the entries of list 0, then list 1, ... in one array, each entry a
 * page id plus nfields values.  List i starts at the sum of len[0 .. i-1].
 *
 * Invariants: total == sum(len); cap >= total; a page appears at most once
 * in the whole snapshot (a policy keeps a page in one list at a time).
 *
 * Cost: apply() finds the page by id (O(list length), eight entries a
 * compare) and shifts the entries after the insertion or removal point
 * (O(total); a move within one list only those between its two places).
 * A seek replays through replay.h instead, O(1) an event.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"

void pl_snapshot_init(struct pl_snapshot *s, const struct pl_policy_ops *ops)
{
	memset(s, 0, sizeof(*s));
	s->nlists = ops->nlists;
	s->nfields = ops->nfields;
	s->nhands = ops->nhands;
	s->nvariables = ops->nvariables;
}

void pl_snapshot_free(struct pl_snapshot *s)
{
	free(s->page);
	free(s->value);
	s->page = NULL;
	s->value = NULL;
	s->cap = 0;
	pl_snapshot_clear(s);
}

void pl_snapshot_clear(struct pl_snapshot *s)
{
	memset(s->len, 0, sizeof(s->len));
	memset(s->hand, 0, sizeof(s->hand));
	memset(s->variable, 0, sizeof(s->variable));
	s->total = 0;
	s->failed = false;
}

static int reserve(struct pl_snapshot *s, uint32_t want)
{
	uint32_t cap = s->cap ? s->cap : 16;
	uint32_t *page;
	int32_t *value;

	if (want <= s->cap)
		return 0;
	while (cap < want)
		cap *= 2;
	page = realloc(s->page, (size_t)cap * sizeof(*page));
	if (!page)
		return -1;
	s->page = page;
	/* a field-less snapshot keeps a one-byte buffer: no value per entry */
	value = realloc(s->value, s->nfields ? (size_t)cap * s->nfields * sizeof(*value) : 1);
	if (!value)
		return -1;
	s->value = value;
	s->cap = cap;
	return 0;
}

int pl_snapshot_copy(struct pl_snapshot *dst, const struct pl_snapshot *src)
{
	dst->nlists = src->nlists;
	dst->nfields = src->nfields;
	dst->nhands = src->nhands;
	dst->nvariables = src->nvariables;
	if (reserve(dst, src->total))
		return -1;
	memcpy(dst->len, src->len, sizeof(dst->len));
	memcpy(dst->hand, src->hand, sizeof(dst->hand));
	memcpy(dst->variable, src->variable, sizeof(dst->variable));
	dst->total = src->total;
	dst->failed = src->failed;
	if (src->total) {
		memcpy(dst->page, src->page, (size_t)src->total * sizeof(*dst->page));
		memcpy(dst->value, src->value,
		       (size_t)src->total * src->nfields * sizeof(*dst->value));
	}
	return 0;
}

bool pl_snapshot_equal(const struct pl_snapshot *a, const struct pl_snapshot *b)
{
	if (a->nlists != b->nlists || a->nfields != b->nfields || a->nhands != b->nhands ||
	    a->nvariables != b->nvariables || a->total != b->total || a->failed || b->failed)
		return false;
	if (memcmp(a->len, b->len, a->nlists * sizeof(a->len[0])) ||
	    memcmp(a->hand, b->hand, a->nhands * sizeof(a->hand[0])) ||
	    memcmp(a->variable, b->variable, a->nvariables * sizeof(a->variable[0])))
		return false;
	if (!a->total)
		return true;
	return !memcmp(a->page, b->page, (size_t)a->total * sizeof(*a->page)) &&
	       !memcmp(a->value, b->value, (size_t)a->total * a->nfields * sizeof(*a->value));
}

static uint32_t list_start(const struct pl_snapshot *s, unsigned list)
{
	uint32_t start = 0;

	for (unsigned i = 0; i < list; i++)
		start += s->len[i];
	return start;
}

/*
 * The index of `page` in pages[begin, end), or UINT32_MAX.  Eight entries
 * are compared at a time without a branch between them, which compilers
 * turn into vector compares: a replayed event looks a page up this way.
 */
static uint32_t find_page(const uint32_t *pages, uint32_t begin, uint32_t end, uint32_t page)
{
	uint32_t i = begin;

	for (; end - i >= 8; i += 8) {
		unsigned found = 0;

		for (unsigned k = 0; k < 8; k++)
			found |= (unsigned)(pages[i + k] == page) << k;
		if (found)
			return i + (uint32_t)__builtin_ctz(found);
	}
	for (; i < end; i++)
		if (pages[i] == page)
			return i;
	return UINT32_MAX;
}

/* The entry index of `page` in `list`, or UINT32_MAX. */
static uint32_t find_in_list(const struct pl_snapshot *s, unsigned list, uint32_t page)
{
	uint32_t start = list_start(s, list);

	return find_page(s->page, start, start + s->len[list], page);
}

static uint32_t find_anywhere(const struct pl_snapshot *s, uint32_t page)
{
	return find_page(s->page, 0, s->total, page);
}

static int32_t *values_of(const struct pl_snapshot *s, uint32_t entry)
{
	return s->value + (size_t)entry * s->nfields;
}

/* Opens a gap at entry index `at` and puts (page, values) there. */
static int insert_entry(struct pl_snapshot *s, uint32_t at, uint32_t page, const int32_t *values)
{
	if (reserve(s, s->total + 1))
		return -1;
	memmove(s->page + at + 1, s->page + at, (size_t)(s->total - at) * sizeof(*s->page));
	memmove(values_of(s, at + 1), values_of(s, at),
		(size_t)(s->total - at) * s->nfields * sizeof(*s->value));
	s->page[at] = page;
	if (values)
		memcpy(values_of(s, at), values, s->nfields * sizeof(*s->value));
	else
		memset(values_of(s, at), 0, s->nfields * sizeof(*s->value));
	s->total++;
	return 0;
}

static void remove_entry(struct pl_snapshot *s, uint32_t at)
{
	memmove(s->page + at, s->page + at + 1, (size_t)(s->total - at - 1) * sizeof(*s->page));
	memmove(values_of(s, at), values_of(s, at + 1),
		(size_t)(s->total - at - 1) * s->nfields * sizeof(*s->value));
	s->total--;
}

/* Do the lists after `list` hold nothing?  (Then `list` ends the array.) */
static bool later_lists_empty(const struct pl_snapshot *s, unsigned list)
{
	for (unsigned i = list + 1; i < s->nlists; i++)
		if (s->len[i])
			return false;
	return true;
}

/* A push that needs room, or breaks the order (a later list has entries). */
static __attribute__((noinline)) int push_with_checks(struct pl_snapshot *s, unsigned list,
						      uint32_t page, const int32_t *values)
{
	if (list >= s->nlists || !later_lists_empty(s, list) ||
	    (s->total == s->cap && reserve(s, s->total + 1))) {
		s->failed = true;
		return -1;
	}
	return pl_snapshot_push(s, list, page, values);
}

/*
 * Appends at the end, the one place a push may go: no gap to open, so
 * none of insert_entry()'s moves (a checkpoint is thousands of pushes).
 */
int pl_snapshot_push(struct pl_snapshot *s, unsigned list, uint32_t page, const int32_t *values)
{
	uint32_t at = s->total;
	int32_t *v;

	if (__builtin_expect(list >= s->nlists || at == s->cap || !later_lists_empty(s, list), 0))
		return push_with_checks(s, list, page, values);
	s->page[at] = page;
	v = values_of(s, at);
	for (uint32_t f = 0; f < s->nfields; f++)
		v[f] = values ? values[f] : 0;
	s->total = at + 1;
	s->len[list]++;
	return 0;
}

int pl_snapshot_reserve(struct pl_snapshot *s, uint32_t entries)
{
	return reserve(s, entries);
}

void pl_snapshot_set_hand(struct pl_snapshot *s, unsigned hand, int32_t pos)
{
	if (hand < s->nhands)
		s->hand[hand] = pos;
	else
		s->failed = true;
}

void pl_snapshot_set_variable(struct pl_snapshot *s, unsigned variable, int32_t value)
{
	if (variable < s->nvariables)
		s->variable[variable] = value;
	else
		s->failed = true;
}

static int apply_insert(struct pl_snapshot *s, unsigned list, uint32_t page, int32_t pos,
			const int32_t *values)
{
	if (list >= s->nlists || pos < 0 || (uint32_t)pos > s->len[list] ||
	    find_anywhere(s, page) != UINT32_MAX)
		return -1;
	if (insert_entry(s, list_start(s, list) + pos, page, values))
		return -1;
	s->len[list]++;
	return 0;
}

static int apply_remove(struct pl_snapshot *s, unsigned list, uint32_t page)
{
	uint32_t at;

	if (list >= s->nlists)
		return -1;
	at = find_in_list(s, list, page);
	if (at == UINT32_MAX)
		return -1;
	remove_entry(s, at);
	s->len[list]--;
	return 0;
}

/*
 * A move within one list (LRU's hit): the entries between the old and the
 * new place shift by one, not the whole array.
 */
static int rotate(struct pl_snapshot *s, uint32_t at, unsigned list, int32_t pos)
{
	int32_t values[PL_MAX_FIELDS];
	uint32_t page = s->page[at], dest;
	size_t width = s->nfields * sizeof(*values);

	if (pos < 0 || (uint32_t)pos >= s->len[list])
		return -1;
	dest = list_start(s, list) + (uint32_t)pos;
	memcpy(values, values_of(s, at), width);
	if (dest < at) {
		memmove(s->page + dest + 1, s->page + dest, (size_t)(at - dest) * sizeof(*s->page));
		memmove(values_of(s, dest + 1), values_of(s, dest), (at - dest) * width);
	} else {
		memmove(s->page + at, s->page + at + 1, (size_t)(dest - at) * sizeof(*s->page));
		memmove(values_of(s, at), values_of(s, at + 1), (dest - at) * width);
	}
	s->page[dest] = page;
	memcpy(values_of(s, dest), values, width);
	return 0;
}

static int apply_move(struct pl_snapshot *s, unsigned from, unsigned to, uint32_t page,
		      int32_t pos)
{
	int32_t values[PL_MAX_FIELDS];
	uint32_t at;

	if (from >= s->nlists || to >= s->nlists)
		return -1;
	at = find_in_list(s, from, page);
	if (at == UINT32_MAX)
		return -1;
	if (from == to)
		return rotate(s, at, from, pos);
	memcpy(values, values_of(s, at), s->nfields * sizeof(*values));
	remove_entry(s, at);
	s->len[from]--;
	return apply_insert(s, to, page, pos, values);
}

static int apply_set(struct pl_snapshot *s, unsigned field, uint32_t page, int32_t from,
		     int32_t to)
{
	uint32_t at = find_anywhere(s, page);

	if (field >= s->nfields || at == UINT32_MAX || values_of(s, at)[field] != from)
		return -1;
	values_of(s, at)[field] = to;
	return 0;
}

static int apply_hand(struct pl_snapshot *s, unsigned hand, int32_t from, int32_t to)
{
	if (hand >= s->nhands || s->hand[hand] != from)
		return -1;
	s->hand[hand] = to;
	return 0;
}

static int apply_variable(struct pl_snapshot *s, unsigned variable, int32_t from, int32_t to)
{
	if (variable >= s->nvariables || s->variable[variable] != from)
		return -1;
	s->variable[variable] = to;
	return 0;
}

int pl_snapshot_apply(struct pl_snapshot *s, const struct pl_event *ev)
{
	switch (ev->kind) {
	case PL_EV_HIT:
	case PL_EV_MISS:
	case PL_EV_VICTIM:
		return 0;
	case PL_EV_EVICT:
	case PL_EV_REMOVE:
		return apply_remove(s, ev->arg, ev->page);
	case PL_EV_INSERT:
		return apply_insert(s, ev->arg, ev->page, ev->b, NULL);
	case PL_EV_MOVE:
		if (ev->a < 0)
			return -1;
		return apply_move(s, (unsigned)ev->a, ev->arg, ev->page, ev->b);
	case PL_EV_SET:
		return apply_set(s, ev->arg, ev->page, ev->a, ev->b);
	case PL_EV_HAND:
		return apply_hand(s, ev->arg, ev->a, ev->b);
	case PL_EV_VARIABLE:
		return apply_variable(s, ev->arg, ev->a, ev->b);
	default:
		return -1;
	}
}
