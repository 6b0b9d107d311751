/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_read.c - streaming trace readers: every input format, gzip undone
 * on the fly, references handed out a batch at a time.
 *
 * Interface: pl_reader_*, pl_format_* in pagelab.h.
 *
 * Layers, bottom up:
 *   input    a FILE (read in large chunks) or a caller's buffer;
 *   bytes    the decoded stream in r->buf: the input itself, or what
 *            zlib inflates from it when it starts with gzip's magic
 *            (concatenated members are read on; an input that ends inside
 *            a member is an error, never a shorter trace);
 *   parse    one parser per format consumes complete lines (binary: whole
 *            blocks) from r->buf and emits references into the batch.
 * r->buf keeps only what has not been parsed yet, plus a NUL sentinel
 * after it, so the text scanner's digit loop needs no bounds test.  A
 * line longer than the buffer grows it; nothing else does, so memory is
 * a read buffer, a raw buffer for gzip and one batch however long the
 * trace.
 *
 * Invariants: r->buf[r->len] == '\0'; r->pos <= r->len; r->line is the
 * line of r->buf[r->pos] (binary: r->consumed + r->pos is its offset);
 * the batch holds r->n < BATCH_CAP references.  With options.collapse the
 * last reference of a batch is held back (r->pending) until the next
 * one is known, so a repeat across two batches collapses too.
 *
 * Formats (README "Trace formats" for users):
 *   text        tokens separated by commas, spaces, tabs or line breaks: a
 *               decimal or 0x-hex number below 2^64, optional trailing w
 *               (a write); '#' comments.  A hand-tuned scanner takes the
 *               common "digits then separator" path; anything else goes
 *               through the general tokenizer.
 *   csv         a header line naming the columns (page, address, time,
 *               op, pid) or --columns mapping roles to column numbers or
 *               header names; commas (empty fields count) or runs of
 *               blanks separate fields.
 *   lackey      "I  ADDR,SIZE" and " L|S|M ADDR,SIZE" (hex address,
 *               decimal size); "==PID==" / "--PID--" lines skipped.  An
 *               access touches every page from ADDR to ADDR+SIZE-1; M is
 *               one write; time is the number of instructions before it.
 *   libcachesim one object id per line: decimal, or any other string,
 *               hashed to 64 bits (FNV-1a) as libCacheSim does for string
 *               ids.
 *   binary      trace_binary.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifndef __EMSCRIPTEN__
#define HAVE_ZLIB 1
#include <zlib.h>
#endif

#include "pagelab.h"
#include "trace_binary.h"

/*
 * Bytes read from the input at a time.  The buffer (two chunks) stays in
 * the reading core's L2 cache: with 1 MB chunks, each read went through the
 * shared L3 and pushed out the lines of a simulation running beside the
 * reader (src/cli/input.c), which then spent 10-20% more CPU than alone.
 */
#define READ_CHUNK (1u << 17)
#define SCAN_SLACK 8		/* bytes allocated after r->buf's capacity (scan_digits) */
#define BATCH_CAP (BINARY_BLOCK_REFS + 1)	/* a block, plus a held-back reference */
#define MAX_SPAN 16		/* pages one Lackey access may touch */
#define BATCH_FULL (BATCH_CAP - MAX_SPAN)	/* parsers stop here */
#define MAX_COLUMNS 64
#define DEFAULT_PAGE_SIZE 4096

enum role { ROLE_PAGE, ROLE_ADDRESS, ROLE_TIME, ROLE_OP, ROLE_PID, NR_ROLES };

static const char *const role_names[NR_ROLES] = { "page", "address", "time", "op", "pid" };

struct csv {
	int column_of[NR_ROLES];	/* 0-based column of each role, -1 if absent */
	unsigned ncolumns;		/* columns a row must have (exactly, unless mapped) */
	bool mapped;			/* --columns: extra columns are ignored */
	bool commas;			/* comma-separated: empty fields count */
};

struct pl_reader {
	char name[256];
	struct pl_read_options opts;
	enum pl_format format;
	unsigned page_shift;

	/* input */
	FILE *file;
	bool own_file, rewindable;
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	bool input_done;

	/* gzip */
	bool gzip;
#ifdef HAVE_ZLIB
	z_stream z;
	bool z_ready;
#endif
	unsigned char *raw;	/* input bytes not yet inflated: raw[raw_pos .. raw_len) */
	size_t raw_pos, raw_len;
	bool member_open;	/* inside a gzip member (its end not yet seen) */

	/* decoded bytes */
	char *buf;
	size_t cap, pos, len;
	bool eof;		/* no decoded bytes will follow buf[len] */
	uint64_t consumed;	/* decoded bytes before buf[0] */
	unsigned long line;

	/* batch */
	uint64_t *number, *time;
	uint8_t *flags;
	uint32_t *pid;
	uint32_t n;
	bool has_pid, has_time, done, pending;
	uint64_t collapsed;

	/* per format */
	struct csv csv;
	uint64_t instructions;	/* lackey */
	uint64_t last_time;	/* csv */
	bool header_done;	/* csv header / binary header consumed */
	bool ended;		/* binary end block seen */
	uint64_t prev_page, prev_bin_time, total;	/* binary */
	int (*parse)(struct pl_reader *r, const char *lim, struct pl_error *err);
};

static const char *const format_names[PL_FORMAT_COUNT] = {
	"auto", "text", "csv", "lackey", "libcachesim", "binary",
};

const char *pl_format_name(enum pl_format format)
{
	return format < PL_FORMAT_COUNT ? format_names[format] : "?";
}

int pl_format_find(const char *name, enum pl_format *format)
{
	for (unsigned i = 0; i < PL_FORMAT_COUNT; i++)
		if (!strcasecmp(name, format_names[i])) {
			*format = (enum pl_format)i;
			return 0;
		}
	return -1;
}

static int fail(struct pl_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct pl_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Quotes at most 40 bytes of a token for a message, unprintable bytes as
 * \xNN (a binary file shows what it is), "..." when cut short.
 */
static void quote(char *out, size_t size, const char *s, const char *end)
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

/* "NAME:LINE: " + fmt with the quoted token as its one %s. */
static int token_fail(const struct pl_reader *r, struct pl_error *err, const char *fmt,
		      const char *tok, const char *end)
{
	char quoted[176], what[224];

	quote(quoted, sizeof(quoted), tok, end);
	snprintf(what, sizeof(what), fmt, quoted);
	return fail(err, "%s:%lu: %s", r->name, r->line, what);
}

/* ------------------------------------------------------------ input */

static size_t read_input(struct pl_reader *r, void *dst, size_t max, struct pl_error *err)
{
	size_t got;

	if (r->input_done)
		return 0;
	if (r->mem) {
		got = r->mem_len - r->mem_pos < max ? r->mem_len - r->mem_pos : max;
		memcpy(dst, r->mem + r->mem_pos, got);
		r->mem_pos += got;
	} else {
		errno = 0;
		got = fread(dst, 1, max, r->file);
		if (got < max && ferror(r->file)) {
			fail(err, "%s: read error: %s", r->name, errno ? strerror(errno) : "unknown");
			return (size_t)-1;
		}
	}
	if (got < max)
		r->input_done = true;
	return got;
}

/* Makes room for at least READ_CHUNK more bytes after the unparsed ones. */
static int make_room(struct pl_reader *r, struct pl_error *err)
{
	size_t keep = r->len - r->pos;

	memmove(r->buf, r->buf + r->pos, keep);
	r->consumed += r->pos;
	r->pos = 0;
	r->len = keep;
	if (r->cap - 1 - r->len < READ_CHUNK / 2) {
		size_t cap = r->cap * 2;
		char *p = realloc(r->buf, cap + SCAN_SLACK);

		if (!p)
			return fail(err, "%s:%lu: out of memory for a line of %zu bytes", r->name,
				    r->line, keep);
		memset(p + r->cap + SCAN_SLACK, 0, cap - r->cap);
		r->buf = p;
		r->cap = cap;
	}
	return 0;
}

#ifdef HAVE_ZLIB
/* Tops up raw[] (gzip's input); -1 on a read error. */
static int fill_raw(struct pl_reader *r, struct pl_error *err)
{
	size_t got;

	if (r->raw_pos < r->raw_len || r->input_done)
		return 0;
	got = read_input(r, r->raw, READ_CHUNK, err);
	if (got == (size_t)-1)
		return -1;
	r->raw_pos = 0;
	r->raw_len = got;
	return 0;
}

static int inflate_more(struct pl_reader *r, struct pl_error *err)
{
	size_t room = r->cap - 1 - r->len;
	int ret;

	if (fill_raw(r, err))
		return -1;
	if (r->raw_pos == r->raw_len) {
		if (r->member_open)
			return fail(err, "%s: truncated gzip data: the input ends inside a "
				    "compressed stream (at %llu uncompressed bytes)", r->name,
				    (unsigned long long)(r->consumed + r->len));
		r->eof = true;
		return 0;
	}
	if (!r->member_open) {
		if (inflateReset(&r->z) != Z_OK)
			return fail(err, "%s: gzip: cannot restart the decoder", r->name);
		r->member_open = true;
	}
	r->z.next_in = r->raw + r->raw_pos;
	r->z.avail_in = (uInt)(r->raw_len - r->raw_pos);
	r->z.next_out = (Bytef *)r->buf + r->len;
	r->z.avail_out = (uInt)room;
	ret = inflate(&r->z, Z_NO_FLUSH);
	r->raw_pos = r->raw_len - r->z.avail_in;
	r->len += room - r->z.avail_out;
	if (ret == Z_STREAM_END)
		r->member_open = false;
	else if (ret != Z_OK && ret != Z_BUF_ERROR)
		return fail(err, "%s: corrupt gzip data after %llu uncompressed bytes: %s",
			    r->name, (unsigned long long)(r->consumed + r->len),
			    r->z.msg ? r->z.msg : "inflate failed");
	return 0;
}
#endif

/* Reads more decoded bytes after buf[len]; sets eof at the end; -1 on error. */
static int fill(struct pl_reader *r, struct pl_error *err)
{
	size_t len0;

	if (r->eof)
		return 0;
	if (make_room(r, err))
		return -1;
	len0 = r->len;
	while (r->len == len0 && !r->eof) {
		if (r->gzip) {
#ifdef HAVE_ZLIB
			if (inflate_more(r, err))
				return -1;
#endif
		} else if (r->raw_pos < r->raw_len) {
			/* the bytes read to detect gzip */
			size_t n = r->raw_len - r->raw_pos, room = r->cap - 1 - r->len;

			n = n < room ? n : room;
			memcpy(r->buf + r->len, r->raw + r->raw_pos, n);
			r->raw_pos += n;
			r->len += n;
		} else {
			size_t got = read_input(r, r->buf + r->len, r->cap - 1 - r->len, err);

			if (got == (size_t)-1)
				return -1;
			r->len += got;
			if (!got)
				r->eof = true;
		}
	}
	r->buf[r->len] = '\0';
	return 0;
}

/* Fills until buf[pos..] holds `want` bytes or a whole line (eof counts). */
static int want_bytes(struct pl_reader *r, size_t want, bool line, struct pl_error *err)
{
	while (!r->eof && r->len - r->pos < want &&
	       !(line && memchr(r->buf + r->pos, '\n', r->len - r->pos)))
		if (fill(r, err))
			return -1;
	return 0;
}

/* ------------------------------------------------------------ batch */

static inline void emit(struct pl_reader *r, uint64_t number, unsigned flags, uint32_t pid,
			uint64_t time)
{
	uint32_t n = r->n;

	if (r->opts.collapse && n && r->number[n - 1] == number &&
	    (!r->has_pid || r->pid[n - 1] == pid)) {
		r->flags[n - 1] |= (uint8_t)flags;
		r->collapsed++;
		return;
	}
	r->number[n] = number;
	r->flags[n] = (uint8_t)flags;
	if (r->has_pid)
		r->pid[n] = pid;
	if (r->has_time)
		r->time[n] = time;
	r->n = n + 1;
}

/* The end of the complete lines in buf[pos..len) (all of it at eof). */
static const char *complete_end(const struct pl_reader *r)
{
	const char *start = r->buf + r->pos, *p = r->buf + r->len;

	if (r->eof)
		return p;
	while (p > start && p[-1] != '\n')
		p--;
	return p;
}

/* --------------------------------------------------------- tokens */

enum char_class {
	CC_TOKEN,	/* part of a token */
	CC_BLANK,	/* separator within a line: space, tab, CR, comma */
	CC_NEWLINE,
	CC_COMMENT,	/* '#' */
};

static const unsigned char char_class[256] = {
	[' '] = CC_BLANK, ['\t'] = CC_BLANK, ['\r'] = CC_BLANK, [','] = CC_BLANK,
	['\v'] = CC_BLANK, ['\f'] = CC_BLANK, ['\n'] = CC_NEWLINE, ['#'] = CC_COMMENT,
};

enum verdict { TOKEN_OK, TOKEN_BAD, TOKEN_TOO_LARGE };

static int hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static enum verdict parse_hex(const char *s, const char *end, uint64_t *out)
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

static enum verdict parse_decimal(const char *s, const char *end, uint64_t *out)
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

static enum verdict parse_number(const char *s, const char *end, uint64_t *out)
{
	if (end - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		return parse_hex(s + 2, end, out);
	return parse_decimal(s, end, out);
}

/* A page token: a number with an optional trailing w/W (a write). */
static enum verdict parse_page(const char *s, const char *end, uint64_t *number,
			       unsigned *flags)
{
	*flags = 0;
	if (end > s && (end[-1] | 0x20) == 'w') {
		*flags = PL_REF_WRITE;
		end--;
	}
	return parse_number(s, end, number);
}

static int page_fail(const struct pl_reader *r, const char *tok, const char *end,
		     enum verdict verdict, struct pl_error *err)
{
	if (verdict == TOKEN_TOO_LARGE)
		return token_fail(r, err, "'%s' does not fit in 64 bits", tok, end);
	return token_fail(r, err, "'%s' is not a page number (decimal or 0x-hex, optional "
			  "trailing w for a write)", tok, end);
}

static const char *token_end(const char *p, const char *lim)
{
	while (p < lim && char_class[(unsigned char)*p] == CC_TOKEN)
		p++;
	return p;
}

static const char *line_end(const char *p, const char *lim)
{
	const char *nl = memchr(p, '\n', (size_t)(lim - p));

	return nl ? nl : lim;
}

/* ------------------------------------------------------------ text */

/* One token (or separator, or comment) at p, the slow general way. */
static const char *text_slow(struct pl_reader *r, const char *p, const char *lim,
			     struct pl_error *err)
{
	const char *end;
	enum verdict verdict;
	uint64_t number;
	unsigned flags;

	switch (char_class[(unsigned char)*p]) {
	case CC_NEWLINE:
		r->line++;
		return p + 1;
	case CC_BLANK:
		return p + 1;
	case CC_COMMENT:
		if (!r->opts.no_comments)
			return line_end(p, lim);
		break;
	}
	/* a '#' where comments are not allowed is read as a (bad) token */
	end = token_end(p + 1, lim);
	verdict = parse_page(p, end, &number, &flags);
	if (verdict != TOKEN_OK) {
		page_fail(r, p, end, verdict, err);
		return NULL;
	}
	emit(r, number, flags, 0, 0);
	return end;
}

/*
 * The decimal value of the len (1 to 8) digit characters at the bottom
 * (the first in memory) of w, in three multiplies: the digits moved to
 * the top, most significant first, zeros before them, then pairs, fours
 * and eights of them combined.
 */
static inline uint64_t digits_value(uint64_t w, unsigned len)
{
	if (len < 8)
		w <<= 64 - 8 * len;
	w &= 0x0f0f0f0f0f0f0f0full;
	w = w * 2561 >> 8 & 0x00ff00ff00ff00ffull;
	w = w * 6553601 >> 16 & 0x0000ffff0000ffffull;
	return w * 42949672960001ull >> 32;
}

/*
 * The decimal number of the (up to 8) digits at p, in a few multiplies
 * rather than a loop whose exit the branch predictor cannot guess; their
 * count in *len (0 if p is no digit; at 8 more may follow, for the caller
 * to add).  Reads the 8 bytes at p, which r->buf's SCAN_SLACK and
 * its NUL sentinel make safe (the bytes after the first non-digit do not
 * matter).  Digits are the bytes whose high nibble is 3 both as they are
 * and plus 6 (0x30..0x39); a carry out of the "plus 6" only reaches bytes
 * after a non-digit.
 */
static inline uint64_t scan_digits(const char *p, unsigned *len)
{
	const uint64_t high = 0xf0f0f0f0f0f0f0f0ull, ones = 0x0101010101010101ull;
	uint64_t w, other;

	memcpy(&w, p, sizeof(w));
	other = ((w & high) | ((w + 6 * ones) & high) >> 4) ^ 0x33 * ones;
	*len = other ? (unsigned)__builtin_ctzll(other) / 8 : 8;
	return *len ? digits_value(w, *len) : 0;
}

#ifdef __SSE2__
/* Lines a text window may hold: 64 bytes, two at least a line. */
#define WINDOW_LINES 32

/* Bit i of the result: p[i] is '\n'; of *digit: p[i] is a decimal digit (i < 64). */
static inline uint64_t window_masks(const char *p, uint64_t *digit)
{
	const __m128i newline = _mm_set1_epi8('\n'), zero = _mm_set1_epi8('0');
	const __m128i nine = _mm_set1_epi8(9);
	uint64_t nl = 0, dg = 0;

	for (unsigned k = 0; k < 4; k++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(p + 16 * k));
		__m128i d = _mm_sub_epi8(x, zero);	/* 0..9 for a digit, unsigned */

		nl |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, newline)) << 16 * k;
		dg |= (uint64_t)(uint16_t)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_min_epu8(d, nine), d)) << 16 * k;
	}
	*digit = dg;
	return nl;
}

/*
 * The lines of 1 to 8 digits in the 64 bytes at p, up to the first that
 * is not one, into the batch; returns where they end (p if none).  The
 * line ends come from one mask of the window, so each line's number is
 * converted independently of the others', where the scanner below must
 * find one line's end before it can start on the next.  The caller makes
 * sure the window lies before lim and the batch has WINDOW_LINES free.
 */
static const char *text_window(struct pl_reader *r, const char *p)
{
	uint64_t digit, nl = window_masks(p, &digit), bad = ~(digit | nl);
	uint32_t n = r->n;
	unsigned start = 0;

	if (bad)	/* only lines ending before the first other byte */
		nl &= (1ull << __builtin_ctzll(bad)) - 1;
	for (; nl; nl &= nl - 1) {
		unsigned end = (unsigned)__builtin_ctzll(nl), len = end - start;
		uint64_t w;

		if (len - 1 >= 8)	/* an empty line, or more than 8 digits */
			break;
		memcpy(&w, p + start, sizeof(w));
		r->number[n] = digits_value(w, len);
		r->flags[n++] = 0;
		start = end + 1;
	}
	r->line += n - r->n;
	r->n = n;
	return p + start;
}
#endif

/*
 * The common case - up to 19 decimal digits followed by a separator - in
 * a tight loop: the digits stop at the newline that ends every complete
 * line, or at the NUL sentinel after the last one.  With SSE2, runs of
 * lines of up to 8 digits go 64 bytes at a time (text_window()).
 */
static int parse_text(struct pl_reader *r, const char *lim, struct pl_error *err)
{
	const char *p = r->buf + r->pos;
	bool collapse = r->opts.collapse;

	while (p < lim) {
		const char *q;
		uint64_t v;
		unsigned d, len;

		if (r->n >= BATCH_FULL) {
			r->pos = (size_t)(p - r->buf);
			return 1;
		}
#ifdef __SSE2__
		if (!collapse && lim - p >= 64 && r->n + WINDOW_LINES <= BATCH_FULL &&
		    (q = text_window(r, p)) != p) {
			p = q;
			continue;
		}
#endif
		v = scan_digits(p, &len);
		if (len) {
			q = p + len;
			while (len == 8 && (d = (unsigned char)*q - '0') <= 9 && q - p < 19) {
				v = v * 10 + d;
				q++;
			}
			if (q == lim || *q == '\n' || char_class[(unsigned char)*q] == CC_BLANK) {
				if (collapse) {
					emit(r, v, 0, 0, 0);
				} else {
					r->number[r->n] = v;
					r->flags[r->n++] = 0;
				}
				if (q < lim && *q == '\n')
					r->line++;
				p = q < lim ? q + 1 : q;
				continue;
			}
		}
		p = text_slow(r, p, lim, err);
		if (!p)
			return -1;
	}
	r->pos = (size_t)(p - r->buf);
	return 0;
}

/* ------------------------------------------------------------- csv */

/* Splits one line into fields; returns how many (up to MAX_COLUMNS + 1). */
static unsigned split_fields(const struct csv *c, const char *p, const char *end,
			     const char *field[], const char *field_end[])
{
	unsigned n = 0;

	if (c->commas) {
		for (;;) {
			const char *comma = memchr(p, ',', (size_t)(end - p));
			const char *fe = comma ? comma : end, *fs = p;

			while (fs < fe && (*fs == ' ' || *fs == '\t'))
				fs++;
			while (fe > fs && (fe[-1] == ' ' || fe[-1] == '\t' || fe[-1] == '\r'))
				fe--;
			if (n <= MAX_COLUMNS) {
				field[n] = fs;
				field_end[n] = fe;
			}
			n++;
			if (!comma)
				return n;
			p = comma + 1;
		}
	}
	while (p < end) {
		const char *fe;

		if (char_class[(unsigned char)*p] == CC_BLANK) {
			p++;
			continue;
		}
		fe = p;
		while (fe < end && char_class[(unsigned char)*fe] != CC_BLANK)
			fe++;
		if (n <= MAX_COLUMNS) {
			field[n] = p;
			field_end[n] = fe;
		}
		n++;
		p = fe;
	}
	return n;
}

/* The line at p without its comment and trailing blanks; NULL end if empty. */
static const char *content_end(const char *p, const char *nl, bool comments)
{
	const char *hash = comments ? memchr(p, '#', (size_t)(nl - p)) : NULL;
	const char *e = hash ? hash : nl;

	while (e > p && char_class[(unsigned char)e[-1]] == CC_BLANK && e[-1] != ',')
		e--;
	return e;
}

static bool blank_line(const char *p, const char *e)
{
	for (; p < e; p++)
		if (char_class[(unsigned char)*p] != CC_BLANK)
			return false;
	return true;
}

static int role_of(const char *name, const char *end)
{
	for (int i = 0; i < NR_ROLES; i++)
		if ((size_t)(end - name) == strlen(role_names[i]) &&
		    !strncasecmp(name, role_names[i], (size_t)(end - name)))
			return i;
	return -1;
}

static int role_list_fail(const struct pl_reader *r, struct pl_error *err)
{
	return fail(err, "%s:%lu: the %s has no 'page' or 'address' column", r->name, r->line,
		    r->csv.mapped ? "--columns mapping" : "header");
}

/* The header (a line naming the roles), without --columns. */
static int header_roles(struct pl_reader *r, const char **field, const char **field_end,
			unsigned n, struct pl_error *err)
{
	struct csv *c = &r->csv;

	if (n > MAX_COLUMNS)
		return fail(err, "%s:%lu: more than %d columns", r->name, r->line, MAX_COLUMNS);
	for (unsigned i = 0; i < n; i++) {
		int role = role_of(field[i], field_end[i]);

		if (role < 0)
			return token_fail(r, err, "'%s' is not a column (page, address, time, op, "
					  "pid; --columns maps other names)", field[i], field_end[i]);
		if (c->column_of[role] >= 0)
			return token_fail(r, err, "column '%s' named twice", field[i], field_end[i]);
		c->column_of[role] = (int)i;
	}
	c->ncolumns = n;
	return 0;
}

/* --columns "page=2,time=1" or "page=obj_id": numbers, or names in the header. */
static int map_columns(struct pl_reader *r, const char **field, const char **field_end,
		       unsigned n, struct pl_error *err)
{
	struct csv *c = &r->csv;
	const char *s = r->opts.columns;

	while (*s) {
		const char *eq = strchr(s, '='), *item_end = s + strcspn(s, ","), *v;
		int role;
		uint64_t col;

		if (!eq || eq > item_end)
			return fail(err, "--columns: '%.*s' is not ROLE=COLUMN (roles: page, address, "
				    "time, op, pid)", (int)(item_end - s), s);
		role = role_of(s, eq);
		if (role < 0)
			return fail(err, "--columns: '%.*s' is not a role (page, address, time, op, "
				    "pid)", (int)(eq - s), s);
		if (c->column_of[role] >= 0)
			return fail(err, "--columns: '%s' mapped twice", role_names[role]);
		v = eq + 1;
		if (parse_decimal(v, item_end, &col) == TOKEN_OK) {
			if (col < 1 || col > MAX_COLUMNS)
				return fail(err, "--columns: column %.*s is not within 1 .. %d",
					    (int)(item_end - v), v, MAX_COLUMNS);
			c->column_of[role] = (int)col - 1;
		} else {
			unsigned i;

			for (i = 0; i < n && i < MAX_COLUMNS; i++)
				if ((size_t)(field_end[i] - field[i]) == (size_t)(item_end - v) &&
				    !strncasecmp(field[i], v, (size_t)(item_end - v)))
					break;
			if (!field || i == n || i == MAX_COLUMNS)
				return fail(err, "%s:%lu: --columns: no column named '%.*s' in the "
					    "header", r->name, r->line, (int)(item_end - v), v);
			c->column_of[role] = (int)i;
		}
		if ((unsigned)c->column_of[role] + 1 > c->ncolumns)
			c->ncolumns = (unsigned)c->column_of[role] + 1;
		s = *item_end ? item_end + 1 : item_end;
	}
	c->mapped = true;
	return 0;
}

/*
 * Reads the header, if any: the first line that is not blank or a comment,
 * when it starts with a letter.  Sets the roles and the has_ columns.
 */
static int csv_start(struct pl_reader *r, struct pl_error *err)
{
	const char *field[MAX_COLUMNS + 1], *field_end[MAX_COLUMNS + 1];
	struct csv *c = &r->csv;
	unsigned n = 0;
	bool header = false;
	size_t header_end = 0;

	for (int i = 0; i < NR_ROLES; i++)
		c->column_of[i] = -1;
	for (;;) {
		const char *p, *nl, *e;

		if (want_bytes(r, 1, true, err))
			return -1;
		p = r->buf + r->pos;
		if (p == r->buf + r->len)
			break;
		nl = line_end(p, r->buf + r->len);
		e = content_end(p, nl, true);
		if (blank_line(p, e)) {
			r->pos = (size_t)(nl - r->buf) + (nl < r->buf + r->len);
			r->line += nl < r->buf + r->len;
			continue;
		}
		while (char_class[(unsigned char)*p] == CC_BLANK)
			p++;
		header = ((unsigned char)*p | 0x20) >= 'a' && ((unsigned char)*p | 0x20) <= 'z';
		c->commas = memchr(p, ',', (size_t)(e - p)) != NULL;
		if (header) {
			n = split_fields(c, p, e, field, field_end);
			if (r->opts.columns ? map_columns(r, field, field_end, n, err) :
					      header_roles(r, field, field_end, n, err))
				return -1;
			header_end = (size_t)(nl - r->buf) + (nl < r->buf + r->len);
		}
		break;
	}
	if (!header && !r->opts.columns)
		return fail(err, "%s:%lu: a CSV trace needs a header line naming its columns "
			    "(page, address, time, op, pid) or --columns", r->name, r->line);
	if (!header && map_columns(r, NULL, NULL, 0, err))
		return -1;
	if (c->column_of[ROLE_PAGE] < 0 && c->column_of[ROLE_ADDRESS] < 0)
		return role_list_fail(r, err);
	if (c->column_of[ROLE_PAGE] >= 0 && c->column_of[ROLE_ADDRESS] >= 0)
		return fail(err, "%s:%lu: give a page column or an address column, not both",
			    r->name, r->line);
	r->has_pid = c->column_of[ROLE_PID] >= 0;
	r->has_time = c->column_of[ROLE_TIME] >= 0;
	if (header) {
		r->pos = header_end;
		r->line++;
	}
	return 0;
}

static int op_flags(const char *s, const char *end, unsigned *flags)
{
	static const char *const reads[] = { "r", "read", "get", "l", "load", NULL };
	static const char *const writes[] = { "w", "write", "set", "s", "store", "m", "modify",
					      NULL };
	size_t len = (size_t)(end - s);

	for (unsigned i = 0; reads[i]; i++)
		if (len == strlen(reads[i]) && !strncasecmp(s, reads[i], len)) {
			*flags = 0;
			return 0;
		}
	for (unsigned i = 0; writes[i]; i++)
		if (len == strlen(writes[i]) && !strncasecmp(s, writes[i], len)) {
			*flags = PL_REF_WRITE;
			return 0;
		}
	return -1;
}

static int column_count_fail(const struct pl_reader *r, unsigned found, struct pl_error *err)
{
	const struct csv *c = &r->csv;
	char names[96] = "";
	size_t used = 0;

	if (c->mapped)
		return fail(err, "%s:%lu: %u column%s, --columns needs %u", r->name, r->line,
			    found, found == 1 ? "" : "s", c->ncolumns);
	for (unsigned i = 0; i < c->ncolumns; i++)
		for (int role = 0; role < NR_ROLES; role++)
			if (c->column_of[role] == (int)i)
				used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
							 i ? ", " : "", role_names[role]);
	return fail(err, "%s:%lu: %u column%s, the header names %u (%s)", r->name, r->line, found,
		    found == 1 ? "" : "s", c->ncolumns, names);
}

static int csv_row(struct pl_reader *r, const char *p, const char *e, struct pl_error *err)
{
	const char *field[MAX_COLUMNS + 1], *field_end[MAX_COLUMNS + 1];
	const struct csv *c = &r->csv;
	unsigned n = split_fields(c, p, e, field, field_end), flags = 0, op = 0;
	uint64_t number, time = 0, pid = 0;
	enum verdict verdict;
	int col;

	if (c->mapped ? n < c->ncolumns : n != c->ncolumns)
		return column_count_fail(r, n, err);
	if ((col = c->column_of[ROLE_PAGE]) >= 0) {
		verdict = parse_page(field[col], field_end[col], &number, &flags);
		if (verdict != TOKEN_OK)
			return page_fail(r, field[col], field_end[col], verdict, err);
	} else {
		col = c->column_of[ROLE_ADDRESS];
		if (parse_number(field[col], field_end[col], &number) != TOKEN_OK)
			return token_fail(r, err, "'%s' is not an address (decimal or 0x-hex below "
					  "2^64)", field[col], field_end[col]);
		number >>= r->page_shift;
	}
	if ((col = c->column_of[ROLE_TIME]) >= 0) {
		if (parse_decimal(field[col], field_end[col], &time) != TOKEN_OK)
			return token_fail(r, err, "'%s' is not a time (a decimal below 2^64)",
					  field[col], field_end[col]);
		if (time < r->last_time)
			return token_fail(r, err, "time %s is before the previous reference's: time "
					  "must not go backwards", field[col], field_end[col]);
		r->last_time = time;
	}
	if ((col = c->column_of[ROLE_PID]) >= 0 &&
	    (parse_decimal(field[col], field_end[col], &pid) != TOKEN_OK || pid >= UINT32_MAX))
		return token_fail(r, err, "'%s' is not a process id (a decimal below 4294967295)",
				  field[col], field_end[col]);
	if ((col = c->column_of[ROLE_OP]) >= 0) {
		if (op_flags(field[col], field_end[col], &op))
			return token_fail(r, err, "'%s' is not an operation (r, w, read, write, get, "
					  "set, load, store, modify)", field[col], field_end[col]);
		flags |= op;
	}
	emit(r, number, flags, (uint32_t)pid, time);
	return 0;
}

static int parse_csv(struct pl_reader *r, const char *lim, struct pl_error *err)
{
	const char *p = r->buf + r->pos;

	while (p < lim) {
		const char *nl = line_end(p, lim), *e = content_end(p, nl, true);

		if (r->n >= BATCH_FULL)
			break;
		if (!blank_line(p, e) && csv_row(r, p, e, err))
			return -1;
		p = nl < lim ? nl + 1 : nl;
		r->line += nl < lim;
	}
	r->pos = (size_t)(p - r->buf);
	return p < lim;
}

/* ---------------------------------------------------------- lackey */

/* "==123==" or "--123--" at the start of a line: Valgrind's own output. */
static bool lackey_banner(const char *p, const char *e)
{
	char mark = *p;
	const char *q = p + 2;

	if (e - p < 5 || (mark != '=' && mark != '-') || p[1] != mark)
		return false;
	while (q < e && *q >= '0' && *q <= '9')
		q++;
	return q > p + 2 && q + 1 < e && q[0] == mark && q[1] == mark;
}

enum lackey_kind { LACKEY_BAD, LACKEY_BANNER, LACKEY_ACCESS };

/* Parses one line (no newline); for an access fills type, address, size. */
static enum lackey_kind lackey_line(const char *p, const char *e, char *type, uint64_t *addr,
				    uint64_t *size)
{
	const char *comma, *hex;

	if (e > p && e[-1] == '\r')
		e--;
	if (lackey_banner(p, e))
		return LACKEY_BANNER;
	if (p < e && *p == ' ')
		p++;
	if (p >= e || (*p != 'I' && *p != 'L' && *p != 'S' && *p != 'M'))
		return LACKEY_BAD;
	*type = *p++;
	if (p >= e || *p != ' ')
		return LACKEY_BAD;
	while (p < e && *p == ' ')
		p++;
	hex = p;
	comma = memchr(p, ',', (size_t)(e - p));
	if (!comma || parse_hex(hex, comma, addr) != TOKEN_OK)
		return LACKEY_BAD;
	p = comma + 1;
	while (e > p && e[-1] == ' ')
		e--;
	return parse_decimal(p, e, size) == TOKEN_OK ? LACKEY_ACCESS : LACKEY_BAD;
}

/* 1 + the value of a hex digit, 0 for anything else (the NUL sentinel too). */
static const unsigned char hex_plus_one[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7,
	['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
	['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
	['F'] = 16,
};

/*
 * The exact shape Lackey writes - "I  hex,size" or " X hex,size", a newline
 * right after - read in one go; NULL for anything else (banners, CR LF,
 * other spacing), which lackey_line() then reads the careful way.  The
 * digit loops stop at the newline ending every complete line, or at the
 * NUL sentinel after the last one.
 */
static const char *lackey_fast(const char *p, const char *lim, char *type, uint64_t *addr,
			       uint64_t *size)
{
	const char *h;
	uint64_t v = 0;
	unsigned d;

	if (p[0] == 'I' && p[1] == ' ' && p[2] == ' ')
		*type = 'I';
	else if (p[0] == ' ' && (p[1] == 'L' || p[1] == 'S' || p[1] == 'M') && p[2] == ' ')
		*type = p[1];
	else
		return NULL;
	h = p += 3;
	while ((d = hex_plus_one[(unsigned char)*p])) {
		v = v << 4 | (d - 1);
		p++;
	}
	if (*p != ',' || p == h || p - h > 16)
		return NULL;
	*addr = v;
	h = ++p;
	v = 0;
	while ((d = (unsigned char)*p - '0') <= 9 && p - h < 19) {
		v = v * 10 + d;
		p++;
	}
	if (p == h || (p < lim ? *p != '\n' : p != lim))
		return NULL;
	*size = v;
	return p;
}

static int parse_lackey(struct pl_reader *r, const char *lim, struct pl_error *err)
{
	const char *p = r->buf + r->pos;
	unsigned shift = r->page_shift;

	while (p < lim) {
		uint64_t addr, size, first, last, time;
		enum lackey_kind kind = LACKEY_ACCESS;
		const char *nl;
		char type;

		if (r->n >= BATCH_FULL)
			break;
		nl = lackey_fast(p, lim, &type, &addr, &size);
		if (!nl) {
			nl = line_end(p, lim);
			kind = nl == p ? LACKEY_BANNER : lackey_line(p, nl, &type, &addr, &size);
		}
		switch (kind) {
		case LACKEY_BAD:
			if (blank_line(p, nl))
				break;
			return token_fail(r, err, "'%s' is not a Lackey line (I, L, S or M, then "
					  "ADDRESS,SIZE; or a ==PID== banner)", p, nl);
		case LACKEY_BANNER:
			break;
		case LACKEY_ACCESS:
			time = type == 'I' ? r->instructions++ :
					     (r->instructions ? r->instructions - 1 : 0);
			if (type == 'I' && r->opts.no_instructions)
				break;
			first = addr >> shift;
			last = (size && addr + (size - 1) >= addr ? addr + (size - 1) : addr) >> shift;
			if (last - first >= MAX_SPAN)
				return token_fail(r, err, "'%s': an access spanning more than 16 pages",
						  p, nl);
			for (uint64_t page = first;; page++) {
				emit(r, page, type == 'S' || type == 'M' ? PL_REF_WRITE : 0, 0, time);
				if (page == last)
					break;
			}
			break;
		}
		p = nl < lim ? nl + 1 : nl;
		r->line += nl < lim;
	}
	r->pos = (size_t)(p - r->buf);
	return p < lim;
}

/* ----------------------------------------------------- libcachesim */

static uint64_t fnv1a(const char *s, const char *end)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; s < end; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static int parse_libcachesim(struct pl_reader *r, const char *lim, struct pl_error *err)
{
	const char *p = r->buf + r->pos;

	while (p < lim) {
		const char *nl = line_end(p, lim), *s = p, *e = nl;
		uint64_t id;

		if (r->n >= BATCH_FULL)
			break;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (s < e) {
			enum verdict v = parse_decimal(s, e, &id);

			if (v == TOKEN_TOO_LARGE)
				return token_fail(r, err, "'%s' does not fit in 64 bits", s, e);
			emit(r, v == TOKEN_OK ? id : fnv1a(s, e), 0, 0, 0);
		}
		p = nl < lim ? nl + 1 : nl;
		r->line += nl < lim;
	}
	r->pos = (size_t)(p - r->buf);
	return p < lim;
}

/* ----------------------------------------------------------- binary */

static uint64_t offset_of(const struct pl_reader *r, const unsigned char *p)
{
	return r->consumed + (uint64_t)((const char *)p - r->buf);
}

static int binary_fail(const struct pl_reader *r, const unsigned char *at, struct pl_error *err,
		       const char *what)
{
	return fail(err, "%s: byte %llu: %s", r->name, (unsigned long long)offset_of(r, at), what);
}

static int binary_header(struct pl_reader *r, struct pl_error *err)
{
	const unsigned char *h;

	if (want_bytes(r, BINARY_HEADER_BYTES, false, err))
		return -1;
	h = (const unsigned char *)r->buf + r->pos;
	if (r->len - r->pos < BINARY_HEADER_BYTES)
		return binary_fail(r, h, err, "truncated: the file ends inside the 16-byte header");
	if (memcmp(h, BINARY_MAGIC, 8))
		return binary_fail(r, h, err, "not a pagelab binary trace (no PLTRACE magic)");
	if (h[8] != BINARY_VERSION)
		return binary_fail(r, h + 8, err, "unknown binary trace version");
	if (h[9] & ~(BINARY_HAS_PID | BINARY_HAS_TIME))
		return binary_fail(r, h + 9, err, "unknown columns in the header");
	r->has_pid = h[9] & BINARY_HAS_PID;
	r->has_time = h[9] & BINARY_HAS_TIME;
	r->pos += BINARY_HEADER_BYTES;
	return 0;
}

/*
 * One varint of up to 65 bits: *low gets bits 0..63, *high bit 64; NULL if
 * bad.  A varint of up to 8 bytes with 8 bytes to read is decoded without
 * a loop: the first byte with its high bit clear ends it, and three
 * shift-and-merge steps pack the 7-bit groups of the bytes before.
 */
static const unsigned char *get_varint(const unsigned char *p, const unsigned char *end,
				       uint64_t *low, unsigned *high)
{
	uint64_t v = 0, w, stops;

	*high = 0;
	if (end - p >= 8) {
		memcpy(&w, p, sizeof(w));
		stops = ~w & 0x8080808080808080ull;
		if (stops) {
			unsigned len = (unsigned)__builtin_ctzll(stops) / 8 + 1;

			if (len < 8)
				w &= ((uint64_t)1 << 8 * len) - 1;
			w &= 0x7f7f7f7f7f7f7f7full;
			w = (w & 0x007f007f007f007full) | (w & 0x7f007f007f007f00ull) >> 1;
			w = (w & 0x00003fff00003fffull) | (w & 0x3fff00003fff0000ull) >> 2;
			*low = (w & 0x000000000fffffffull) | (w & 0x0fffffff00000000ull) >> 4;
			return p + len;
		}
	}
	for (unsigned shift = 0; p < end; shift += 7) {
		unsigned char b = *p++;

		if (shift == 63) {
			if (b > 3)
				return NULL;
			v |= (uint64_t)(b & 1) << 63;
			*high = b >> 1;
			*low = v;
			return p;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*low = v;
			return p;
		}
	}
	return NULL;
}

static int binary_block(struct pl_reader *r, const unsigned char *p, const unsigned char *end,
			uint32_t refs, struct pl_error *err)
{
	const unsigned char *start = p;

	for (uint32_t i = 0; i < refs; i++) {
		uint64_t low, pid = 0, dt = 0, key;
		unsigned high, h2;

		p = get_varint(p, end, &low, &high);
		if (p && r->has_pid)
			p = get_varint(p, end, &pid, &h2);
		if (p && r->has_pid && (h2 || pid >= UINT32_MAX))
			p = NULL;
		if (p && r->has_time)
			p = get_varint(p, end, &dt, &h2);
		if (p && r->has_time && (h2 || r->prev_bin_time + dt < r->prev_bin_time))
			p = NULL;
		if (!p)
			return binary_fail(r, start - BINARY_BLOCK_HEADER_BYTES, err,
					   "corrupt block: its bytes do not decode to its references");
		key = low >> 1 | (uint64_t)high << 63;
		r->prev_page += unzigzag(key);
		r->prev_bin_time += dt;
		emit(r, r->prev_page, low & 1 ? PL_REF_WRITE : 0, (uint32_t)pid, r->prev_bin_time);
	}
	if (p != end)
		return binary_fail(r, start - BINARY_BLOCK_HEADER_BYTES, err,
				   "corrupt block: bytes left over after its references");
	r->total += refs;
	return 0;
}

static int parse_binary(struct pl_reader *r, const char *lim, struct pl_error *err)
{
	const unsigned char *p = (const unsigned char *)r->buf + r->pos;
	uint32_t refs, bytes;

	(void)lim;
	if (r->ended) {
		if (r->pos < r->len)
			return binary_fail(r, p, err, "data after the end block");
		return 0;
	}
	if (r->len - r->pos < BINARY_BLOCK_HEADER_BYTES) {
		if (r->eof)
			return binary_fail(r, p, err, "truncated: the file ends before its end block");
		return 0;
	}
	refs = get_u32(p);
	bytes = get_u32(p + 4);
	if ((refs == 0 && bytes != 8) || refs > BINARY_BLOCK_REFS || bytes > BINARY_BLOCK_BYTES)
		return binary_fail(r, p, err, "corrupt block header");
	if (r->len - r->pos < BINARY_BLOCK_HEADER_BYTES + (size_t)bytes) {
		if (r->eof)
			return binary_fail(r, p, err, "truncated: the file ends inside this block");
		return 0;
	}
	if (refs == 0) {
		if (get_u64(p + 8) != r->total)
			return binary_fail(r, p, err, "the end block's total disagrees with the blocks");
		r->ended = true;
	} else {
		if (r->n + refs > BATCH_CAP)
			return 1;
		if (binary_block(r, p + BINARY_BLOCK_HEADER_BYTES,
				 p + BINARY_BLOCK_HEADER_BYTES + bytes, refs, err))
			return -1;
	}
	r->pos += BINARY_BLOCK_HEADER_BYTES + bytes;
	return 0;
}

/* ------------------------------------------------------- detection */

static bool is_letter(unsigned char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* Guesses the format from the first line that is not blank or a comment. */
static enum pl_format detect(const struct pl_reader *r)
{
	const char *p = r->buf + r->pos, *end = r->buf + r->len;
	uint64_t addr, size;
	char type;

	if ((size_t)(end - p) >= 8 && !memcmp(p, BINARY_MAGIC, 8))
		return PL_FORMAT_BINARY;
	while (p < end) {
		const char *nl = line_end(p, end), *e = content_end(p, nl, false), *s = p;

		if (lackey_line(p, nl, &type, &addr, &size) != LACKEY_BAD)
			return PL_FORMAT_LACKEY;
		while (s < e && char_class[(unsigned char)*s] == CC_BLANK)
			s++;
		if (s < e && *s != '#')
			return is_letter((unsigned char)*s) ? PL_FORMAT_CSV : PL_FORMAT_TEXT;
		p = nl < end ? nl + 1 : nl;
	}
	return PL_FORMAT_TEXT;
}

/* ------------------------------------------------------------ open */

static struct pl_reader *reader_new(const char *name, const struct pl_read_options *opts,
				    struct pl_error *err)
{
	struct pl_reader *r = calloc(1, sizeof(*r));
	uint32_t page_size;

	if (!r) {
		fail(err, "%s: out of memory", name);
		return NULL;
	}
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (opts)
		r->opts = *opts;
	page_size = r->opts.page_size ? r->opts.page_size : DEFAULT_PAGE_SIZE;
	if (page_size & (page_size - 1)) {
		fail(err, "page size %u is not a power of two", page_size);
		free(r);
		return NULL;
	}
	r->opts.page_size = page_size;
	r->page_shift = (unsigned)__builtin_ctz(page_size);
	r->cap = 2 * READ_CHUNK;
	r->buf = calloc(r->cap + SCAN_SLACK, 1);
	r->raw = malloc(READ_CHUNK);
	r->number = malloc(BATCH_CAP * sizeof(*r->number));
	r->time = malloc(BATCH_CAP * sizeof(*r->time));
	r->flags = malloc(BATCH_CAP * sizeof(*r->flags));
	r->pid = malloc(BATCH_CAP * sizeof(*r->pid));
	if (!r->buf || !r->raw || !r->number || !r->time || !r->flags || !r->pid) {
		fail(err, "%s: out of memory", name);
		pl_reader_close(r);
		return NULL;
	}
	r->buf[0] = '\0';
	r->line = 1;
	return r;
}

static int start_gzip(struct pl_reader *r, struct pl_error *err)
{
#ifdef HAVE_ZLIB
	if (!r->z_ready) {
		if (inflateInit2(&r->z, 16 + MAX_WBITS) != Z_OK)
			return fail(err, "%s: gzip: cannot start the decoder", r->name);
		r->z_ready = true;
	}
	r->gzip = true;
	r->member_open = false;
	return 0;
#else
	return fail(err, "%s: gzip-compressed input is not supported in this build; "
		    "decompress it first", r->name);
#endif
}

static int (*const parsers[PL_FORMAT_COUNT])(struct pl_reader *, const char *,
					    struct pl_error *) = {
	[PL_FORMAT_TEXT] = parse_text, [PL_FORMAT_CSV] = parse_csv,
	[PL_FORMAT_LACKEY] = parse_lackey, [PL_FORMAT_LIBCACHESIM] = parse_libcachesim,
	[PL_FORMAT_BINARY] = parse_binary,
};

/* Reads the first bytes, undoes gzip, picks the format, reads any header. */
static int start(struct pl_reader *r, struct pl_error *err)
{
	size_t got = read_input(r, r->raw, READ_CHUNK, err);

	if (got == (size_t)-1)
		return -1;
	r->raw_pos = 0;
	r->raw_len = got;
	if (got >= 2 && r->raw[0] == 0x1f && r->raw[1] == 0x8b && start_gzip(r, err))
		return -1;
	if (fill(r, err))
		return -1;
	if (!r->format)
		r->format = r->opts.columns ? PL_FORMAT_CSV : detect(r);
	r->parse = parsers[r->format];
	if (r->format == PL_FORMAT_LACKEY)
		r->has_time = true;
	if (r->format == PL_FORMAT_CSV)
		return csv_start(r, err);
	if (r->format == PL_FORMAT_BINARY)
		return binary_header(r, err);
	return 0;
}

static struct pl_reader *opened(struct pl_reader *r, struct pl_error *err)
{
	if (r->opts.format >= PL_FORMAT_COUNT) {
		fail(err, "%s: unknown format", r->name);
		pl_reader_close(r);
		return NULL;
	}
	r->format = r->opts.format;
	if (start(r, err)) {
		pl_reader_close(r);
		return NULL;
	}
	return r;
}

/* Only a regular file can be read twice (not a pipe, a FIFO, a terminal). */
static bool is_regular(FILE *f)
{
	struct stat st;

	return !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
}

struct pl_reader *pl_reader_open_file(const char *path, const struct pl_read_options *opts,
				      struct pl_error *err)
{
	bool is_stdin = !strcmp(path, "-");
	struct pl_reader *r = reader_new(is_stdin ? "<stdin>" : path, opts, err);

	if (!r)
		return NULL;
	r->file = is_stdin ? stdin : fopen(path, "rb");
	if (!r->file) {
		fail(err, "cannot open trace '%s': %s", path, strerror(errno));
		pl_reader_close(r);
		return NULL;
	}
	r->own_file = !is_stdin;
	r->rewindable = is_regular(r->file);
	return opened(r, err);
}

struct pl_reader *pl_reader_open_stream(FILE *in, const char *name,
					const struct pl_read_options *opts, struct pl_error *err)
{
	struct pl_reader *r = reader_new(name, opts, err);

	if (!r)
		return NULL;
	r->file = in;
	return opened(r, err);
}

struct pl_reader *pl_reader_open_buffer(const void *buf, size_t len, const char *name,
					const struct pl_read_options *opts, struct pl_error *err)
{
	struct pl_reader *r = reader_new(name, opts, err);

	if (!r)
		return NULL;
	r->mem = buf;
	r->mem_len = len;
	r->rewindable = true;
	return opened(r, err);
}

void pl_reader_close(struct pl_reader *r)
{
	if (!r)
		return;
	if (r->own_file)
		fclose(r->file);
#ifdef HAVE_ZLIB
	if (r->z_ready)
		inflateEnd(&r->z);
#endif
	free(r->buf);
	free(r->raw);
	free(r->number);
	free(r->time);
	free(r->flags);
	free(r->pid);
	free(r);
}

bool pl_reader_can_rewind(const struct pl_reader *r)
{
	return r->rewindable;
}

int pl_reader_rewind(struct pl_reader *r, struct pl_error *err)
{
	if (!r->rewindable)
		return fail(err, "%s: not a regular file, cannot be read twice", r->name);
	if (r->file && fseek(r->file, 0, SEEK_SET))
		return fail(err, "%s: cannot rewind: %s", r->name, strerror(errno));
	r->mem_pos = 0;
	r->input_done = false;
	r->gzip = false;
	r->raw_pos = r->raw_len = 0;
	r->pos = r->len = 0;
	r->eof = false;
	r->consumed = 0;
	r->line = 1;
	r->n = 0;
	r->done = r->pending = false;
	r->collapsed = 0;
	r->instructions = r->last_time = 0;
	r->ended = false;
	r->prev_page = r->prev_bin_time = r->total = 0;
	return start(r, err);
}

/* ------------------------------------------------------------ next */

static void hold_back_last(struct pl_reader *r)
{
	uint32_t last = r->n - 1;

	r->number[BATCH_CAP - 1] = r->number[last];
	r->flags[BATCH_CAP - 1] = r->flags[last];
	r->pid[BATCH_CAP - 1] = r->pid[last];
	r->time[BATCH_CAP - 1] = r->time[last];
	r->pending = true;
	r->n = last;
}

static void take_pending(struct pl_reader *r)
{
	r->number[0] = r->number[BATCH_CAP - 1];
	r->flags[0] = r->flags[BATCH_CAP - 1];
	r->pid[0] = r->pid[BATCH_CAP - 1];
	r->time[0] = r->time[BATCH_CAP - 1];
	r->pending = false;
	r->n = 1;
}

int pl_reader_next(struct pl_reader *r, struct pl_refs *out, struct pl_error *err)
{
	int ret = 0;

	r->n = 0;
	if (r->pending)
		take_pending(r);
	while (!r->done && ret == 0) {
		size_t before = r->pos;

		ret = r->parse(r, complete_end(r), err);
		if (ret < 0)
			return -1;
		if (ret == 0 && r->pos == before) {
			/* no complete line (or block) left in the buffer */
			if (r->eof) {
				r->done = true;
				break;
			}
			if (fill(r, err))
				return -1;
		}
	}
	/* the last slot holds the held-back reference: never fill it */
	if (r->opts.collapse && !r->done && r->n > 1)
		hold_back_last(r);
	out->n = r->n;
	out->number = r->number;
	out->flags = r->flags;
	out->pid = r->has_pid ? r->pid : NULL;
	out->time = r->has_time ? r->time : NULL;
	return (int)r->n;
}

/* ------------------------------------------------------------ about */

enum pl_format pl_reader_format(const struct pl_reader *r)
{
	return r->format;
}

const char *pl_reader_name(const struct pl_reader *r)
{
	return r->name;
}

bool pl_reader_gzip(const struct pl_reader *r)
{
	return r->gzip;
}

bool pl_reader_has_pid(const struct pl_reader *r)
{
	return r->has_pid;
}

bool pl_reader_has_time(const struct pl_reader *r)
{
	return r->has_time;
}

bool pl_reader_plain(const struct pl_reader *r)
{
	bool table = r->format == PL_FORMAT_CSV && !r->csv.mapped &&
		     r->csv.column_of[ROLE_ADDRESS] < 0;

	return (r->format == PL_FORMAT_TEXT || table) && !r->gzip && !r->opts.collapse;
}

/*
 * Text in a regular file, as read: every reference is at least one digit
 * and, but for the last, one separator after it, so a file of B bytes
 * holds at most (B + 1) / 2 of them.  Nothing is known of a pipe (no
 * size), of gzip (any ratio) or of the other formats here.
 */
uint64_t pl_reader_max_references(const struct pl_reader *r)
{
	struct stat st;

	if (r->format != PL_FORMAT_TEXT || r->gzip || !r->file ||
	    fstat(fileno(r->file), &st) || !S_ISREG(st.st_mode))
		return 0;
	return ((uint64_t)st.st_size + 1) / 2;
}

uint64_t pl_reader_collapsed(const struct pl_reader *r)
{
	return r->collapsed;
}

void pl_reader_describe(const struct pl_reader *r, char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "%s%s", pl_format_name(r->format),
				       r->gzip ? ", gzip" : "");

	if (used < size && (r->format == PL_FORMAT_LACKEY ||
			    (r->format == PL_FORMAT_CSV && r->csv.column_of[ROLE_ADDRESS] >= 0)))
		used += (size_t)snprintf(buf + used, size - used, ", page size %u",
					 r->opts.page_size);
	if (used < size && r->format == PL_FORMAT_LACKEY)
		used += (size_t)snprintf(buf + used, size - used, ", instruction fetches %s",
					 r->opts.no_instructions ? "left out" : "included");
	if (used < size && r->opts.collapse)
		snprintf(buf + used, size - used, ", %llu consecutive repeats collapsed",
			 (unsigned long long)r->collapsed);
}
