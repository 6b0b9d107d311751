/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_write.c - trace writers, for `pagelab convert`: page-per-line text
 * (a "page time pid" table when the references carry those columns) and
 * pagelab's binary format (trace_binary.h).
 *
 * Interface: pl_writer_* in pagelab.h.  A writer keeps one block (binary)
 * or one line buffer (text) and nothing else, so converting streams.
 * Every write error is reported, by pl_writer_write() or at the latest by
 * pl_writer_close(), with the output's name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pagelab.h"
#include "trace_binary.h"

#define TEXT_FLUSH (1u << 16)	/* bytes of text gathered before a write */

struct pl_writer {
	FILE *out;
	char name[200];
	enum pl_format format;
	bool pid, time;
	unsigned char *buf;
	size_t used, cap;
	uint32_t block_refs;
	uint64_t prev_page, prev_time, total;
	bool failed;
};

static int write_failed(struct pl_writer *w, struct pl_error *err)
{
	w->failed = true;
	snprintf(err->msg, sizeof(err->msg), "%s: cannot write: %s", w->name,
		 errno ? strerror(errno) : "write error");
	return -1;
}

static int put(struct pl_writer *w, const void *p, size_t n, struct pl_error *err)
{
	errno = 0;
	if (fwrite(p, 1, n, w->out) != n)
		return write_failed(w, err);
	return 0;
}

struct pl_writer *pl_writer_open(FILE *out, const char *name, enum pl_format format,
				 bool pid, bool time, struct pl_error *err)
{
	struct pl_writer *w;

	if (format != PL_FORMAT_TEXT && format != PL_FORMAT_BINARY) {
		snprintf(err->msg, sizeof(err->msg),
			 "%s: pagelab writes text or binary traces, not %s", name,
			 pl_format_name(format));
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w || !(w->buf = malloc(BINARY_BLOCK_BYTES + TEXT_FLUSH))) {
		free(w);
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", name);
		return NULL;
	}
	w->out = out;
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->format = format;
	w->pid = pid;
	w->time = time;
	w->cap = BINARY_BLOCK_BYTES + TEXT_FLUSH;
	if (format == PL_FORMAT_BINARY) {
		unsigned char h[BINARY_HEADER_BYTES] = BINARY_MAGIC;

		h[8] = BINARY_VERSION;
		h[9] = (unsigned char)((pid ? BINARY_HAS_PID : 0) | (time ? BINARY_HAS_TIME : 0));
		if (!put(w, h, sizeof(h), err))
			return w;
	} else {
		static const char *const headers[4] = { "", "page pid\n", "page time\n",
							"page time pid\n" };
		const char *h = headers[(pid ? 1 : 0) | (time ? 2 : 0)];

		if (!put(w, h, strlen(h), err))
			return w;
	}
	free(w->buf);
	free(w);
	return NULL;
}

/* ------------------------------------------------------------- text */

static size_t put_decimal(unsigned char *out, uint64_t v)
{
	unsigned char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (unsigned char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

static int write_text(struct pl_writer *w, const struct pl_refs *b, struct pl_error *err)
{
	for (uint32_t i = 0; i < b->n; i++) {
		unsigned char *p = w->buf + w->used;

		p += put_decimal(p, b->number[i]);
		if (b->flags[i] & PL_REF_WRITE)
			*p++ = 'w';
		if (w->time) {
			*p++ = ' ';
			p += put_decimal(p, b->time ? b->time[i] : 0);
		}
		if (w->pid) {
			*p++ = ' ';
			p += put_decimal(p, b->pid ? b->pid[i] : 0);
		}
		*p++ = '\n';
		w->used = (size_t)(p - w->buf);
		if (w->used >= TEXT_FLUSH) {
			if (put(w, w->buf, w->used, err))
				return -1;
			w->used = 0;
		}
	}
	return 0;
}

/* ----------------------------------------------------------- binary */

/* A 65-bit value: bits 0..63 in low, bit 64 in high. */
static size_t put_varint(unsigned char *out, uint64_t low, unsigned high)
{
	size_t n = 0;

	for (unsigned i = 0; i < 9; i++) {
		unsigned char b = low & 0x7f;

		low >>= 7;
		if (!low && !high) {
			out[n++] = b;
			return n;
		}
		out[n++] = b | 0x80;
	}
	out[n++] = (unsigned char)(low | (uint64_t)high << 1);
	return n;
}

static int flush_block(struct pl_writer *w, struct pl_error *err)
{
	unsigned char h[BINARY_BLOCK_HEADER_BYTES];

	if (!w->block_refs)
		return 0;
	put_u32(h, w->block_refs);
	put_u32(h + 4, (uint32_t)w->used);
	if (put(w, h, sizeof(h), err) || put(w, w->buf, w->used, err))
		return -1;
	w->total += w->block_refs;
	w->block_refs = 0;
	w->used = 0;
	return 0;
}

static int write_binary(struct pl_writer *w, const struct pl_refs *b, struct pl_error *err)
{
	for (uint32_t i = 0; i < b->n; i++) {
		unsigned char *p = w->buf + w->used;
		uint64_t key = zigzag(b->number[i] - w->prev_page);

		p += put_varint(p, key << 1 | (b->flags[i] & PL_REF_WRITE ? 1 : 0),
				(unsigned)(key >> 63));
		w->prev_page = b->number[i];
		if (w->pid)
			p += put_varint(p, b->pid ? b->pid[i] : 0, 0);
		if (w->time) {
			uint64_t t = b->time ? b->time[i] : w->prev_time;

			p += put_varint(p, t - w->prev_time, 0);
			w->prev_time = t;
		}
		w->used = (size_t)(p - w->buf);
		if (++w->block_refs == BINARY_BLOCK_REFS && flush_block(w, err))
			return -1;
	}
	return 0;
}

int pl_writer_write(struct pl_writer *w, const struct pl_refs *refs, struct pl_error *err)
{
	if (w->failed)
		return write_failed(w, err);
	return w->format == PL_FORMAT_BINARY ? write_binary(w, refs, err) :
					       write_text(w, refs, err);
}

int pl_writer_close(struct pl_writer *w, struct pl_error *err)
{
	int ret = w->failed ? write_failed(w, err) : 0;

	if (!ret && w->format == PL_FORMAT_BINARY) {
		unsigned char end[BINARY_BLOCK_HEADER_BYTES + 8];

		ret = flush_block(w, err);
		put_u32(end, 0);
		put_u32(end + 4, 8);
		put_u64(end + 8, w->total);
		if (!ret)
			ret = put(w, end, sizeof(end), err);
	} else if (!ret && w->used) {
		ret = put(w, w->buf, w->used, err);
	}
	errno = 0;
	if (!ret && fflush(w->out))
		ret = write_failed(w, err);
	free(w->buf);
	free(w);
	return ret;
}
