// SPDX-License-Identifier: GPL-2.0
/*
 * ranges.c - size lists for the analysis commands: "--frames 1:512" (every
 * size from 1 to 512), "1:512:8" (a step of 8: 1, 9, 17, ..., and the end
 * 512 always included), "4,8,16" (a list), "64" (one size).  The sizes come
 * back ascending with duplicates removed, so "16,4,4" means 4 and 16.
 * Interface: cli.h.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"

/* A decimal number 1 .. PL_NONE - 1 from s; the end of the number, or NULL. */
static const char *size_at(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !v || v >= PL_NONE)
		return NULL;
	*out = (uint32_t)v;
	return end;
}

static int ascending(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* "A:B[:STEP]" into *sizes; false if it is not one. */
static bool parse_range(const char *text, struct cli_sizes *s)
{
	uint32_t from, to, step = 1;
	const char *p = size_at(text, &from);

	if (!p || *p != ':' || !(p = size_at(p + 1, &to)) || to < from)
		return false;
	if (*p == ':' && !(p = size_at(p + 1, &step)))
		return false;
	if (*p || (uint64_t)(to - from) / step + 2 > CLI_MAX_SIZES)
		return false;
	for (uint64_t v = from; v <= to; v += step)
		s->size[s->n++] = (uint32_t)v;
	if (s->size[s->n - 1] != to)
		s->size[s->n++] = to;
	return true;
}

/* "A,B,C" or "A" into *sizes; false if it is not one. */
static bool parse_list(const char *text, struct cli_sizes *s)
{
	const char *p = text;

	for (;;) {
		if (s->n == CLI_MAX_SIZES || !(p = size_at(p, &s->size[s->n])))
			return false;
		s->n++;
		if (!*p)
			break;
		if (*p++ != ',')
			return false;
	}
	qsort(s->size, s->n, sizeof(s->size[0]), ascending);
	for (unsigned i = 1, kept = 1; i <= s->n; i++) {
		if (i == s->n) {
			s->n = kept;
			break;
		}
		if (s->size[i] != s->size[kept - 1])
			s->size[kept++] = s->size[i];
	}
	return true;
}

int cli_sizes(const struct cli_args *a, const char *name, const char *def, struct cli_sizes *s)
{
	const char *text = cli_value(a, name);

	s->n = 0;
	if (!text)
		text = def;
	if (!text)
		return cli_usage_error(a, "%s is required", name);
	if (strchr(text, ':') ? parse_range(text, s) : parse_list(text, s))
		return 0;
	return cli_usage_error(a, "%s: '%s' is not a size, a list 'A,B,C' or a range "
			       "'FROM:TO[:STEP]' of sizes 1 .. %u (at most %d sizes)",
			       name, text, PL_NONE - 1, CLI_MAX_SIZES);
}
