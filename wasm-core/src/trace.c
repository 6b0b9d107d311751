/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.c - reference traces: building them, and reading reference strings
 * and trace files.
 *
 * Interface: pl_trace_* in pagelab.h.
 *
 * Invariants of a struct pl_trace: page[0 .. n-1] < npages; number[id] is
 * the input page number that dense id `id` stands for, and the page map
 * holds exactly the pairs (number[id], id); pid and vtime, once allocated,
 * have an entry for every reference (0 for those added before).  n stays
 * below PL_NONE, so a step always fits in 32 bits with PL_NONE to spare.
 *
 * Text syntax (one grammar for --refs strings and plain trace files):
 *   tokens separated by commas, spaces, tabs or line breaks (CR LF is
 *   fine); a token is a decimal or 0x-hex number below 2^64 with an
 *   optional trailing 'w' or 'W' marking a write.  Trace files also allow
 *   '#' comments to the end of the line.  Errors name the source, the line
 *   and the token.
 *
 * Columns (trace files only): a file whose first line that is not blank
 * or a comment starts with a letter is a table.  That line names the
 * columns -- `page` (required), `time`, `pid`, in any order, separated
 * like tokens (commas make it CSV) -- and every further line that is not
 * blank or a comment has one token per column: the page as above, the
 * time as a decimal below 2^64 that never decreases from one reference to
 * the next (a pause is a gap in time), the process id as a decimal below
 * 2^32 - 1.  Without a time column a reference's time is its index.
 *
 * Speed: the parser is a single pass over the buffer with a character class
 * table and its own integer conversion (no strtoull, no per-line copies).
 * Parsed references are interned in batches: the page map slot of the
 * reference BATCH_AHEAD places later is prefetched, so the cache misses of
 * a large page map overlap instead of queueing one after another.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pagelab.h"
#include "page_map.h"

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

/* Makes room for one more reference in every per-reference array. */
static int reserve_reference(struct pl_trace *t)
{
	uint32_t cap;
	void *p;

	if (t->n < t->cap)
		return 0;
	if (t->cap >= PL_NONE / 2)
		cap = PL_NONE - 1;
	else
		cap = t->cap ? t->cap * 2 : 1024;
	if (cap <= t->n)
		return -1;
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

static int remember_number(struct pl_trace *t, uint32_t id, uint64_t number)
{
	if (id >= t->page_cap) {
		uint32_t cap = t->page_cap ? t->page_cap * 2 : 1024;
		uint64_t *p = grow_array(t->number, cap, sizeof(*t->number));

		if (!p)
			return -1;
		t->number = p;
		t->page_cap = cap;
	}
	t->number[id] = number;
	t->npages = id + 1;
	return 0;
}

uint32_t pl_trace_add(struct pl_trace *t, uint64_t number, unsigned flags)
{
	uint32_t id;
	int added;

	if (reserve_reference(t))
		return PL_NONE;
	if (!t->map && !(t->map = pl_page_map_create()))
		return PL_NONE;
	id = pl_page_map_intern(t->map, number, &added);
	if (id == PL_NONE || (added && remember_number(t, id, number)))
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

/* ------------------------------------------------------------- parsing */

enum char_class {
	CC_TOKEN,	/* part of a token */
	CC_BLANK,	/* separator within a line: space, tab, CR, comma */
	CC_NEWLINE,
	CC_COMMENT,	/* '#': a comment where comments are allowed */
};

static const unsigned char char_class[256] = {
	[' '] = CC_BLANK, ['\t'] = CC_BLANK, ['\r'] = CC_BLANK, [','] = CC_BLANK,
	['\v'] = CC_BLANK, ['\f'] = CC_BLANK, ['\n'] = CC_NEWLINE, ['#'] = CC_COMMENT,
};

struct text {
	const char *p, *end;
	const char *source;	/* for messages: "--refs", a file name */
	unsigned long line;
	bool comments;
};

enum token_verdict { TOKEN_OK, TOKEN_BAD, TOKEN_TOO_LARGE };

static int hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static enum token_verdict parse_hex(const char *s, const char *end, uint64_t *out)
{
	uint64_t value = 0;

	if (s == end)
		return TOKEN_BAD;
	for (; s < end; s++) {
		int d = hex_digit((unsigned char)*s);

		if (d < 0)
			return TOKEN_BAD;
		if (value >> 60)
			return TOKEN_TOO_LARGE;
		value = value << 4 | (uint64_t)d;
	}
	*out = value;
	return TOKEN_OK;
}

static enum token_verdict parse_decimal(const char *s, const char *end, uint64_t *out)
{
	uint64_t value = 0;
	bool too_large = false;

	if (s == end)
		return TOKEN_BAD;
	for (; s < end; s++) {
		unsigned d = (unsigned char)*s - '0';

		if (d > 9)
			return TOKEN_BAD;
		if (value > (UINT64_MAX - d) / 10)
			too_large = true;
		value = value * 10 + d;
	}
	*out = value;
	return too_large ? TOKEN_TOO_LARGE : TOKEN_OK;
}

static enum token_verdict parse_token(const char *s, const char *end, uint64_t *number,
				      unsigned *flags)
{
	*flags = 0;
	if ((end[-1] | 0x20) == 'w') {
		*flags = PL_REF_WRITE;
		end--;
	}
	if (end - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		return parse_hex(s + 2, end, number);
	return parse_decimal(s, end, number);
}

/*
 * Quotes at most 40 bytes of the token for a message, unprintable bytes as
 * \xNN (a binary file shows what it is), "..." when cut short.
 */
static void quote_token(char *out, size_t size, const char *s, const char *end)
{
	size_t n = (size_t)(end - s) < 40 ? (size_t)(end - s) : 40;
	size_t used = 0;

	for (size_t i = 0; i < n && used + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f)
			out[used++] = (char)c;
		else
			used += (size_t)snprintf(out + used, size - used, "\\x%02x", c);
	}
	out[used] = '\0';
	if ((size_t)(end - s) > n && used + 4 <= size)
		strcpy(out + used, "...");
}

static int token_error(const struct text *x, const char *tok, const char *end,
		       enum token_verdict verdict, struct pl_error *err)
{
	char quoted[176];

	quote_token(quoted, sizeof(quoted), tok, end);
	if (verdict == TOKEN_TOO_LARGE)
		snprintf(err->msg, sizeof(err->msg),
			 "%s:%lu: '%s' does not fit in 64 bits", x->source, x->line, quoted);
	else
		snprintf(err->msg, sizeof(err->msg),
			 "%s:%lu: '%s' is not a page number (decimal or 0x-hex, "
			 "optional trailing w for a write)", x->source, x->line, quoted);
	return -1;
}

#define BATCH 256
#define BATCH_AHEAD 16

/* References parsed but not yet added to the trace. */
struct batch {
	uint64_t number[BATCH];
	unsigned long line[BATCH];
	uint8_t flags[BATCH];
	unsigned n;
};

static int add_error(const struct pl_trace *t, const struct text *x, unsigned long line,
		     struct pl_error *err)
{
	if (t->n >= PL_NONE - 1)
		snprintf(err->msg, sizeof(err->msg),
			 "%s:%lu: more than %u references, the most a trace can hold",
			 x->source, line, PL_NONE - 2);
	else
		snprintf(err->msg, sizeof(err->msg), "%s:%lu: out of memory after %u references",
			 x->source, line, t->n);
	return -1;
}

static int flush_batch(struct pl_trace *t, struct batch *b, const struct text *x,
		       struct pl_error *err)
{
	unsigned n = b->n;

	b->n = 0;
	if (!n)
		return 0;
	if (!t->map && !(t->map = pl_page_map_create()))
		return add_error(t, x, b->line[0], err);
	for (unsigned i = 0; i < n; i++) {
		if (i + BATCH_AHEAD < n)
			pl_page_map_prefetch(t->map, b->number[i + BATCH_AHEAD]);
		if (pl_trace_add(t, b->number[i], b->flags[i]) == PL_NONE)
			return add_error(t, x, b->line[i], err);
	}
	return 0;
}

static const char *skip_comment(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

static const char *token_end(const struct text *x, const char *p)
{
	while (p < x->end && char_class[(unsigned char)*p] == CC_TOKEN)
		p++;
	return p;
}

static int parse_text(struct pl_trace *t, struct text *x, struct batch *b,
		      struct pl_error *err)
{
	while (x->p < x->end) {
		const char *tok, *end;
		enum token_verdict verdict;
		uint64_t number;
		unsigned flags;

		switch (char_class[(unsigned char)*x->p]) {
		case CC_NEWLINE:
			x->line++;
			/* fall through */
		case CC_BLANK:
			x->p++;
			continue;
		case CC_COMMENT:
			if (x->comments) {
				x->p = skip_comment(x->p, x->end);
				continue;
			}
			break;
		}
		tok = x->p;
		/* a '#' where comments are not allowed is read as a (bad) token */
		end = token_end(x, tok + 1);
		verdict = parse_token(tok, end, &number, &flags);
		if (verdict != TOKEN_OK)
			return token_error(x, tok, end, verdict, err);
		b->number[b->n] = number;
		b->line[b->n] = x->line;
		b->flags[b->n++] = (uint8_t)flags;
		if (b->n == BATCH && flush_batch(t, b, x, err))
			return -1;
		x->p = end;
	}
	return flush_batch(t, b, x, err);
}

static int parse_all(struct pl_trace *t, struct text *x, struct pl_error *err)
{
	struct batch *b = malloc(sizeof(*b));
	int ret;

	if (!b) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", x->source);
		return -1;
	}
	b->n = 0;
	ret = parse_text(t, x, b, err);
	free(b);
	return ret;
}

int pl_trace_parse_refs(struct pl_trace *t, const char *text, const char *source,
			struct pl_error *err)
{
	struct text x = {
		.p = text, .end = text + strlen(text), .source = source, .line = 1,
		.comments = false,
	};

	return parse_all(t, &x, err);
}

/* ---------------------------------------------------------------- columns */

enum column { COL_PAGE, COL_TIME, COL_PID, NR_COLUMNS };

static const char *const column_names[NR_COLUMNS] = { "page", "time", "pid" };

struct table {
	enum column column[NR_COLUMNS];	/* the file's columns, in order */
	unsigned ncolumns;
	bool has[NR_COLUMNS];
	uint64_t last_time;
};

/* Skips blanks (not line breaks) and a comment; returns the next token or line end. */
static const char *skip_blanks(const struct text *x, const char *p)
{
	while (p < x->end && char_class[(unsigned char)*p] == CC_BLANK)
		p++;
	if (p < x->end && char_class[(unsigned char)*p] == CC_COMMENT)
		p = skip_comment(p, x->end);
	return p;
}

static bool at_line_end(const struct text *x, const char *p)
{
	return p == x->end || *p == '\n';
}

/* Moves x to the start of the first line with a token; false at the end. */
static bool next_content_line(struct text *x)
{
	for (;;) {
		x->p = skip_blanks(x, x->p);
		if (x->p == x->end)
			return false;
		if (*x->p != '\n')
			return true;
		x->p++;
		x->line++;
	}
}

static int column_error(const struct text *x, struct pl_error *err, const char *fmt,
			const char *tok, const char *end)
{
	char quoted[176], what[200];

	quote_token(quoted, sizeof(quoted), tok, end);
	snprintf(what, sizeof(what), fmt, quoted);
	snprintf(err->msg, sizeof(err->msg), "%s:%lu: %s", x->source, x->line, what);
	return -1;
}

static int parse_header(struct text *x, struct table *tab, struct pl_error *err)
{
	const char *p = x->p;

	while (!at_line_end(x, p)) {
		const char *end = token_end(x, p);
		unsigned c;

		for (c = 0; c < NR_COLUMNS; c++)
			if ((size_t)(end - p) == strlen(column_names[c]) &&
			    !strncasecmp(p, column_names[c], (size_t)(end - p)))
				break;
		if (c == NR_COLUMNS)
			return column_error(x, err, "'%s' is not a column (page, time, pid)", p, end);
		if (tab->has[c])
			return column_error(x, err, "column '%s' named twice", p, end);
		tab->has[c] = true;
		tab->column[tab->ncolumns++] = (enum column)c;
		p = skip_blanks(x, end);
	}
	if (!tab->has[COL_PAGE]) {
		snprintf(err->msg, sizeof(err->msg), "%s:%lu: the header has no 'page' column",
			 x->source, x->line);
		return -1;
	}
	x->p = p;
	return 0;
}

static int column_count_error(const struct text *x, const struct table *tab, unsigned found,
			      struct pl_error *err)
{
	char names[64] = "";
	size_t used = 0;

	for (unsigned i = 0; i < tab->ncolumns; i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
				 column_names[tab->column[i]]);
	snprintf(err->msg, sizeof(err->msg), "%s:%lu: %u column%s, the header names %u (%s)",
		 x->source, x->line, found, found == 1 ? "" : "s", tab->ncolumns, names);
	return -1;
}

/* One field of a data line into value[]; -1 with err filled if it is malformed. */
static int parse_field(const struct text *x, struct table *tab, enum column c, const char *tok,
		       const char *end, uint64_t value[NR_COLUMNS], unsigned *flags,
		       struct pl_error *err)
{
	enum token_verdict verdict;

	if (c == COL_PAGE) {
		verdict = parse_token(tok, end, &value[c], flags);
		return verdict == TOKEN_OK ? 0 : token_error(x, tok, end, verdict, err);
	}
	verdict = parse_decimal(tok, end, &value[c]);
	if (c == COL_PID && (verdict != TOKEN_OK || value[c] >= UINT32_MAX))
		return column_error(x, err, "'%s' is not a process id (a decimal below "
				    "4294967295)", tok, end);
	if (c == COL_PID)
		return 0;
	if (verdict != TOKEN_OK)
		return column_error(x, err, "'%s' is not a time (a decimal below 2^64)", tok, end);
	if (value[c] < tab->last_time)
		return column_error(x, err, "time %s is before the previous reference's: time "
				    "must not go backwards", tok, end);
	tab->last_time = value[c];
	return 0;
}

static int add_row(struct pl_trace *t, const struct text *x, const struct table *tab,
		   const uint64_t value[NR_COLUMNS], unsigned flags, struct pl_error *err)
{
	if (!t->map && !(t->map = pl_page_map_create()))
		return add_error(t, x, x->line, err);
	if (pl_trace_add(t, value[COL_PAGE], flags) == PL_NONE ||
	    (tab->has[COL_TIME] && pl_trace_set_vtime(t, value[COL_TIME])) ||
	    (tab->has[COL_PID] && pl_trace_set_pid(t, (uint32_t)value[COL_PID])))
		return add_error(t, x, x->line, err);
	return 0;
}

static int parse_row(struct pl_trace *t, struct text *x, struct table *tab,
		     struct pl_error *err)
{
	uint64_t value[NR_COLUMNS] = { 0 };
	unsigned flags = 0, found = 0;
	const char *p = x->p;

	while (!at_line_end(x, p)) {
		const char *end = token_end(x, p);

		if (found < tab->ncolumns &&
		    parse_field(x, tab, tab->column[found], p, end, value, &flags, err))
			return -1;
		found++;
		p = skip_blanks(x, end);
	}
	if (found != tab->ncolumns)
		return column_count_error(x, tab, found, err);
	x->p = p;
	return add_row(t, x, tab, value, flags, err);
}

static int parse_table(struct pl_trace *t, struct text *x, struct pl_error *err)
{
	struct table tab = { .ncolumns = 0 };

	if (parse_header(x, &tab, err))
		return -1;
	while (next_content_line(x))
		if (parse_row(t, x, &tab, err))
			return -1;
	return 0;
}

/* Is the first token of the file (after blanks and comments) a column name? */
static bool is_table(struct text *x)
{
	struct text peek = *x;

	if (!next_content_line(&peek))
		return false;
	*x = peek;
	return ((unsigned char)*peek.p | 0x20) >= 'a' && ((unsigned char)*peek.p | 0x20) <= 'z';
}

int pl_trace_read_buffer(struct pl_trace *t, const char *buf, size_t len, const char *name,
			 struct pl_error *err)
{
	struct text x = {
		.p = buf, .end = buf + len, .source = name, .line = 1, .comments = true,
	};

	if (is_table(&x))
		return parse_table(t, &x, err);
	return parse_all(t, &x, err);
}

/* Reads the whole stream into one buffer (a pipe has no size to ask for). */
static char *slurp(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *bigger;

	while (buf) {
		n += fread(buf + n, 1, cap - n, in);
		if (n < cap)
			break;
		bigger = realloc(buf, cap * 2);
		if (!bigger)
			free(buf);
		buf = bigger;
		cap *= 2;
	}
	*len = n;
	return buf;
}

int pl_trace_read(struct pl_trace *t, FILE *in, const char *name, struct pl_error *err)
{
	size_t len;
	char *buf;
	int ret;

	errno = 0;
	buf = slurp(in, &len);
	if (!buf) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory reading the trace", name);
		return -1;
	}
	if (ferror(in)) {
		snprintf(err->msg, sizeof(err->msg), "%s: read error: %s", name,
			 errno ? strerror(errno) : "unknown");
		free(buf);
		return -1;
	}
	ret = pl_trace_read_buffer(t, buf, len, name, err);
	free(buf);
	return ret;
}
