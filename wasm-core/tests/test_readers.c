/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_readers.c - the streaming trace readers and writers: what each
 * format becomes, format detection, gzip, collapsing, round trips through
 * the writers, and a clear error (input, line or byte, token) for bad
 * input in every format - including truncated gzip and binary files,
 * which must never read as shorter traces.
 */
#include <zlib.h>

#include "check.h"
#include "support.h"

#define MAX_REFS 8192

/* Everything a reader produced, or its error. */
struct got {
	uint32_t n;
	uint64_t number[MAX_REFS];
	uint8_t flags[MAX_REFS];
	uint32_t pid[MAX_REFS];
	uint64_t time[MAX_REFS];
	bool has_pid, has_time, gzip;
	enum pl_format format;
	uint64_t collapsed;
	char error[256];
};

static struct got got;

/* Reads `len` bytes through a reader with `opts`; returns the error or "ok". */
static const char *read_with(const void *data, size_t len, const struct pl_read_options *opts)
{
	struct pl_error err;
	struct pl_reader *r;
	struct pl_refs b;
	int ret;

	memset(&got, 0, sizeof(got));
	r = pl_reader_open_buffer(data, len, "t", opts, &err);
	if (!r) {
		snprintf(got.error, sizeof(got.error), "%s", err.msg);
		return got.error;
	}
	while ((ret = pl_reader_next(r, &b, &err)) > 0)
		for (uint32_t i = 0; i < b.n && got.n < MAX_REFS; i++, got.n++) {
			got.number[got.n] = b.number[i];
			got.flags[got.n] = b.flags[i];
			got.pid[got.n] = b.pid ? b.pid[i] : 0;
			got.time[got.n] = b.time ? b.time[i] : 0;
		}
	got.has_pid = pl_reader_has_pid(r);
	got.has_time = pl_reader_has_time(r);
	got.gzip = pl_reader_gzip(r);
	got.format = pl_reader_format(r);
	got.collapsed = pl_reader_collapsed(r);
	pl_reader_close(r);
	if (ret < 0) {
		snprintf(got.error, sizeof(got.error), "%s", err.msg);
		return got.error;
	}
	return "ok";
}

static const char *read_text(const char *text, const struct pl_read_options *opts)
{
	return read_with(text, strlen(text), opts);
}

/* gzip of data into out (static); *len in: data length, out: gzip length. */
static unsigned char *gzip_of(const void *data, size_t *len)
{
	static unsigned char out[1 << 20];
	z_stream z = { 0 };

	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		test_abort("deflateInit2");
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)*len;
	z.next_out = out;
	z.avail_out = sizeof(out);
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		test_abort("deflate");
	*len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* Writes refs through a writer of `format` into a memory file; returns its bytes. */
static char *write_as(enum pl_format format, const struct pl_refs *refs, size_t *len)
{
	static char *buf;
	struct pl_error err;
	struct pl_writer *w;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, len);
	if (!f)
		test_abort("open_memstream");
	w = pl_writer_open(f, "out", format, refs->pid != NULL, refs->time != NULL, &err);
	if (!w || pl_writer_write(w, refs, &err) || pl_writer_close(w, &err))
		test_abort(err.msg);
	fclose(f);
	return buf;
}

static const struct pl_read_options lackey = { .format = PL_FORMAT_LACKEY };

/* ------------------------------------------------------------ detection */

TEST(the_format_is_detected_from_the_content)
{
	CHECK_STR_EQ(read_text("# a comment\n7\n8w\n", NULL), "ok");
	CHECK_EQ(got.format, PL_FORMAT_TEXT);
	CHECK_STR_EQ(read_text("page,time\n7,1\n", NULL), "ok");
	CHECK_EQ(got.format, PL_FORMAT_CSV);
	CHECK_STR_EQ(read_text("==1== Lackey\nI  0400,4\n", NULL), "ok");
	CHECK_EQ(got.format, PL_FORMAT_LACKEY);
	CHECK_STR_EQ(read_text(" L 1000,8\n", NULL), "ok");
	CHECK_EQ(got.format, PL_FORMAT_LACKEY);
	CHECK_STR_EQ(read_text("", NULL), "ok");
	CHECK_EQ(got.n, 0);
}

TEST(gzip_input_is_read_as_what_it_contains_whatever_the_format)
{
	const char *text = "==5== banner\nI  1000,4\n S 2ff8,16\n";
	size_t len = strlen(text);
	unsigned char *gz = gzip_of(text, &len);

	CHECK_STR_EQ(read_with(gz, len, NULL), "ok");
	CHECK(got.gzip);
	CHECK_EQ(got.format, PL_FORMAT_LACKEY);
	CHECK_EQ(got.n, 3);	/* the store spans pages 2 and 3 */
	CHECK_EQ(got.number[0], 1);
	CHECK_EQ(got.number[1], 2);
	CHECK_EQ(got.number[2], 3);
}

TEST(two_gzip_members_one_after_the_other_read_as_one_trace)
{
	static unsigned char both[4096];
	size_t a = 4, b = 4;
	unsigned char *gz = gzip_of("1\n2\n", &a);

	memcpy(both, gz, a);
	gz = gzip_of("3\n4\n", &b);
	memcpy(both + a, gz, b);
	CHECK_STR_EQ(read_with(both, a + b, NULL), "ok");
	CHECK_EQ(got.n, 4);
	CHECK_EQ(got.number[3], 4);
}

TEST(a_truncated_gzip_file_is_an_error_not_a_shorter_trace)
{
	static char text[40000];
	size_t len;
	unsigned char *gz;

	for (int i = 0; i < 5000; i++)
		snprintf(text + 7 * i, 8, "%06d\n", (i * 7919) % 100000);
	len = strlen(text);
	gz = gzip_of(text, &len);
	CHECK_STR_EQ(read_with(gz, len, NULL), "ok");
	CHECK_EQ(got.n, 5000);
	CHECK(strstr(read_with(gz, len - 9, NULL), "t: truncated gzip data") == got.error);
	CHECK(strstr(read_with(gz, len / 2, NULL), "t: truncated gzip data") == got.error);
	gz[len / 2] ^= 0xff;
	CHECK(strstr(read_with(gz, len, NULL), "t: corrupt gzip data") == got.error);
}

/* ---------------------------------------------------------------- lackey */

TEST(lackey_accesses_become_pages_of_the_page_size_with_instruction_counts_as_time)
{
	const char *trace = "==7== Lackey, an example Valgrind tool\n"
			    "--7-- a note\n"
			    "I  04000ba0,3\n"
			    " L 1ffefff000,8\n"
			    "I  04000ba3,2\n"
			    " M 0421f470,4\n"
			    "==7== \n";

	CHECK_STR_EQ(read_text(trace, NULL), "ok");
	CHECK_EQ(got.n, 4);
	CHECK_EQ(got.number[0], 0x04000);
	CHECK_EQ(got.number[1], 0x1ffefff);
	CHECK_EQ(got.flags[1], 0);
	CHECK_EQ(got.number[3], 0x0421f);
	CHECK_EQ(got.flags[3], PL_REF_WRITE);	/* M: load + store, one write */
	CHECK(got.has_time);
	CHECK_EQ(got.time[0], 0);
	CHECK_EQ(got.time[1], 0);	/* the load of instruction 0 */
	CHECK_EQ(got.time[2], 1);
	CHECK_EQ(got.time[3], 1);
}

TEST(a_lackey_access_spanning_two_pages_touches_both)
{
	CHECK_STR_EQ(read_text(" S 0ffc,8\n L 2000,4096\n L 3fff,1\n", &lackey), "ok");
	CHECK_EQ(got.n, 4);
	CHECK_EQ(got.number[0], 0);
	CHECK_EQ(got.number[1], 1);
	CHECK_EQ(got.flags[1], PL_REF_WRITE);
	CHECK_EQ(got.number[2], 2);	/* exactly one page: 0x2000 .. 0x2fff */
	CHECK_EQ(got.number[3], 3);
}

TEST(instruction_fetches_can_be_left_out_and_the_page_size_chosen)
{
	struct pl_read_options opts = lackey;

	opts.no_instructions = true;
	opts.page_size = 65536;
	CHECK_STR_EQ(read_text("I  10000,4\n L 20000,8\nI  10004,4\n S 3ffff,1\n", &opts), "ok");
	CHECK_EQ(got.n, 2);
	CHECK_EQ(got.number[0], 2);
	CHECK_EQ(got.number[1], 3);
	CHECK_EQ(got.time[1], 1);	/* fetches left out still count as time */
	opts.page_size = 3000;
	CHECK_STR_EQ(read_text("I  1,1\n", &opts), "page size 3000 is not a power of two");
}

TEST(consecutive_repeats_collapse_when_asked_and_a_dropped_write_is_kept)
{
	struct pl_read_options opts = { .collapse = true };

	CHECK_STR_EQ(read_text("1 1 1w 2 2 1\n", &opts), "ok");
	CHECK_EQ(got.n, 3);
	CHECK_EQ(got.number[0], 1);
	CHECK_EQ(got.flags[0], PL_REF_WRITE);
	CHECK_EQ(got.number[1], 2);
	CHECK_EQ(got.number[2], 1);
	CHECK_EQ(got.collapsed, 3);
	CHECK_STR_EQ(read_text("1 1 1w 2 2 1\n", NULL), "ok");
	CHECK_EQ(got.n, 6);
}

TEST(collapsing_works_across_batches)
{
	static char text[200000];
	struct pl_read_options opts = { .collapse = true };
	size_t used = 0;

	/* 40000 references, each page twice in a row: batch ends fall mid-pair */
	for (int i = 0; i < 20000; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%d %d\n", i % 4000,
					 i % 4000);
	CHECK_STR_EQ(read_text(text, &opts), "ok");
	CHECK_EQ(got.collapsed, 20000);
}

TEST(bad_lackey_lines_are_named_with_their_line)
{
	CHECK_STR_EQ(read_text("I  0400,4\n X 0400,4\n", NULL),
		     "t:2: ' X 0400,4' is not a Lackey line (I, L, S or M, then ADDRESS,SIZE; "
		     "or a ==PID== banner)");
	CHECK_STR_EQ(read_text("I  0400,4\n L 04g0,4\n", NULL),
		     "t:2: ' L 04g0,4' is not a Lackey line (I, L, S or M, then ADDRESS,SIZE; "
		     "or a ==PID== banner)");
	CHECK_STR_EQ(read_text("I  0400,4\nhello world\n", NULL),
		     "t:2: 'hello world' is not a Lackey line (I, L, S or M, then ADDRESS,SIZE; "
		     "or a ==PID== banner)");
	CHECK_STR_EQ(read_text(" L 0,100000\n", &lackey),
		     "t:1: ' L 0,100000': an access spanning more than 16 pages");
}

/* ------------------------------------------------------------------- csv */

TEST(csv_columns_are_mapped_by_number_or_by_header_name)
{
	struct pl_read_options opts = { .columns = "time=1,address=3,op=2,pid=4" };

	CHECK_STR_EQ(read_text("10,r,0x1000,7,extra\n20,w,8192,8,extra\n", &opts), "ok");
	CHECK_EQ(got.n, 2);
	CHECK_EQ(got.number[0], 1);
	CHECK_EQ(got.number[1], 2);
	CHECK_EQ(got.flags[1], PL_REF_WRITE);
	CHECK_EQ(got.pid[1], 8);
	CHECK_EQ(got.time[1], 20);
	opts.columns = "page=obj_id,time=ts";
	CHECK_STR_EQ(read_text("ts,obj_id,size\n1,500,4096\n2,501,4096\n", &opts), "ok");
	CHECK_EQ(got.number[1], 501);
	CHECK(!got.has_pid);
}

TEST(csv_empty_fields_count_as_columns)
{
	struct pl_read_options opts = { .columns = "page=3" };

	opts.columns = "page=size";
	CHECK_STR_EQ(read_text("ts,obj_id\n1,2\n", &opts),
		     "t:1: --columns: no column named 'size' in the header");
	opts.columns = "page=3";
	CHECK_STR_EQ(read_text("1,,5\n2,,6\n", &opts), "ok");
	CHECK_EQ(got.number[1], 6);
}

TEST(bad_csv_input_is_named_with_line_and_token)
{
	struct pl_read_options opts = { .columns = "page=1,op=2" };

	CHECK_STR_EQ(read_text("1,r\n2,x\n", &opts),
		     "t:2: 'x' is not an operation (r, w, read, write, get, set, load, store, "
		     "modify)");
	CHECK_STR_EQ(read_text("1,r\n2\n", &opts), "t:2: 1 column, --columns needs 2");
	opts.columns = "page=2,frob=1";
	CHECK_STR_EQ(read_text("1,2\n", &opts),
		     "--columns: 'frob' is not a role (page, address, time, op, pid)");
	opts.columns = "address=1";
	CHECK_STR_EQ(read_text("0x1z\n", &opts),
		     "t:1: '0x1z' is not an address (decimal or 0x-hex below 2^64)");
	opts = (struct pl_read_options){ .format = PL_FORMAT_CSV };
	CHECK_STR_EQ(read_text("1,2\n", &opts),
		     "t:1: a CSV trace needs a header line naming its columns (page, address, "
		     "time, op, pid) or --columns");
	CHECK_STR_EQ(read_text("page,address\n1,2\n", NULL),
		     "t:1: give a page column or an address column, not both");
}

/* ------------------------------------------------------------ libcachesim */

TEST(libcachesim_text_has_one_id_a_line_and_hashes_string_ids)
{
	struct pl_read_options opts = { .format = PL_FORMAT_LIBCACHESIM };

	CHECK_STR_EQ(read_text("42\n  43 \nobject-a\n\nobject-a\nobject-b\n", &opts), "ok");
	CHECK_EQ(got.n, 5);
	CHECK_EQ(got.number[0], 42);
	CHECK_EQ(got.number[1], 43);
	CHECK_EQ(got.number[2], got.number[3]);
	CHECK(got.number[2] != got.number[4]);
	CHECK_STR_EQ(read_text("1\n99999999999999999999\n", &opts),
		     "t:2: '99999999999999999999' does not fit in 64 bits");
}

TEST(a_string_id_in_a_plain_trace_is_an_error_not_a_guess)
{
	CHECK_STR_EQ(read_text("1\n2\nobject-a\n", &(struct pl_read_options){ 0 }),
		     "t:3: 'object-a' is not a page number (decimal or 0x-hex, optional trailing "
		     "w for a write)");
}

/* ---------------------------------------------------------------- binary */

static const uint64_t round_numbers[] = {
	7, 0, 0xffffffffffffffffull, 1, 0x8000000000000000ull, 5, 5, 4096,
};
static const uint8_t round_flags[] = { 0, 1, 0, 1, 1, 0, 0, 1 };
static const uint32_t round_pids[] = { 1, 2, 4294967294u, 0, 9, 9, 9, 3 };
static const uint64_t round_times[] = { 0, 0, 5, 1000, 1000, 0xffffffffffull, 1ull << 62,
					UINT64_MAX };

static const struct pl_refs round_refs = {
	.n = 8, .number = round_numbers, .flags = round_flags, .pid = round_pids,
	.time = round_times,
};

static void check_round_trip(void)
{
	CHECK_EQ(got.n, 8);
	for (unsigned i = 0; i < 8; i++) {
		CHECK_EQ(got.number[i], round_numbers[i]);
		CHECK_EQ(got.flags[i], round_flags[i]);
		CHECK_EQ(got.pid[i], round_pids[i]);
		CHECK_EQ(got.time[i], round_times[i]);
	}
}

TEST(every_reference_survives_a_round_trip_through_the_binary_format)
{
	size_t len;
	char *bin = write_as(PL_FORMAT_BINARY, &round_refs, &len);

	CHECK_STR_EQ(read_with(bin, len, NULL), "ok");
	CHECK_EQ(got.format, PL_FORMAT_BINARY);
	CHECK(got.has_pid && got.has_time);
	check_round_trip();
}

TEST(every_reference_survives_a_round_trip_through_text)
{
	size_t len;
	char *text = write_as(PL_FORMAT_TEXT, &round_refs, &len);

	CHECK_STR_EQ(read_with(text, len, NULL), "ok");
	CHECK_EQ(got.format, PL_FORMAT_CSV);
	check_round_trip();
}

TEST(a_long_trace_round_trips_through_binary_in_many_blocks)
{
	static uint64_t numbers[MAX_REFS];
	static uint8_t flags[MAX_REFS];
	struct pl_refs refs = { .n = MAX_REFS, .number = numbers, .flags = flags };
	size_t len;
	char *bin;

	for (unsigned i = 0; i < MAX_REFS; i++) {
		numbers[i] = (uint64_t)i * 2654435761u;
		flags[i] = i % 3 == 0;
	}
	bin = write_as(PL_FORMAT_BINARY, &refs, &len);
	CHECK_STR_EQ(read_with(bin, len, NULL), "ok");
	CHECK_EQ(got.n, MAX_REFS);
	CHECK(!got.has_pid && !got.has_time);
	CHECK_EQ(got.number[MAX_REFS - 1], numbers[MAX_REFS - 1]);
	CHECK_EQ(got.flags[MAX_REFS - 2], 1);
}

TEST(a_truncated_or_damaged_binary_file_is_an_error_naming_the_byte)
{
	size_t len;
	char *bin = write_as(PL_FORMAT_BINARY, &round_refs, &len);
	static char copy[4096];

	memcpy(copy, bin, len);
	CHECK_EQ(len, 110);	/* header 16, one block of 8 + 70, end block 16 */
	CHECK_STR_EQ(read_with(copy, len - 1, NULL),
		     "t: byte 94: truncated: the file ends inside this block");
	CHECK_STR_EQ(read_with(copy, 30, NULL),
		     "t: byte 16: truncated: the file ends inside this block");
	CHECK_STR_EQ(read_with(copy, 20, NULL),
		     "t: byte 16: truncated: the file ends before its end block");
	CHECK_STR_EQ(read_with(copy, 10, &(struct pl_read_options){ .format = PL_FORMAT_BINARY }),
		     "t: byte 0: truncated: the file ends inside the 16-byte header");
	CHECK_STR_EQ(read_with(copy, len - 16, NULL),
		     "t: byte 94: truncated: the file ends before its end block");
	copy[len] = 'x';
	CHECK_STR_EQ(read_with(copy, len + 1, NULL), "t: byte 110: data after the end block");
	copy[len - 8]++;
	CHECK_STR_EQ(read_with(copy, len, NULL),
		     "t: byte 94: the end block's total disagrees with the blocks");
	memcpy(copy, bin, len);
	copy[16] = 9;	/* the block claims 9 references */
	CHECK_STR_EQ(read_with(copy, len, NULL),
		     "t: byte 16: corrupt block: its bytes do not decode to its references");
	memcpy(copy, bin, len);
	copy[8] = 2;
	CHECK_STR_EQ(read_with(copy, len, NULL), "t: byte 8: unknown binary trace version");
}

/* ----------------------------------------------------------------- loading */

TEST(a_reader_can_be_rewound_for_a_second_pass)
{
	struct pl_error err;
	struct pl_reader *r = pl_reader_open_buffer("1 2 3\n", 6, "t", NULL, &err);
	struct pl_refs b;

	CHECK(r != NULL);
	CHECK_EQ(pl_reader_next(r, &b, &err), 3);
	CHECK_EQ(pl_reader_next(r, &b, &err), 0);
	CHECK_EQ(pl_reader_rewind(r, &err), 0);
	CHECK_EQ(pl_reader_next(r, &b, &err), 3);
	CHECK_EQ(b.number[2], 3);
	pl_reader_close(r);
}

TEST(a_loaded_lackey_trace_keeps_its_instruction_times)
{
	struct pl_trace t;
	struct pl_error err;
	const char *text = "I  1000,4\n L 5000,4\nI  1004,4\n";

	pl_trace_init(&t);
	CHECK_EQ(pl_trace_read_buffer(&t, text, strlen(text), "t", &err), 0);
	CHECK_EQ(t.n, 3);
	CHECK_EQ(t.npages, 2);
	CHECK(t.vtime != NULL);
	CHECK_EQ(t.vtime[2], 1);
	pl_trace_free(&t);
}

static int compare_numbers(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Dense numbers (kept in the page map's direct array once there are enough
 * pages) mixed with sparse ones (hashed), so the array grows several times
 * and takes over numbers first hashed; then all of them again.
 */
TEST(pages_get_ids_in_order_of_first_appearance_however_they_are_numbered)
{
	enum { N = 300000 };
	uint64_t *numbers = malloc(N * sizeof(*numbers)), *sorted = malloc(N * sizeof(*sorted));
	uint32_t *ids = malloc(N * sizeof(*ids)), distinct = 0, fresh = 0, wrong = 0;
	struct pl_trace batch, single;

	for (uint32_t i = 0; i < N / 2; i++)
		numbers[i] = numbers[N / 2 + i] =
			i % 3 == 0 ? (uint64_t)i * 7919 % 200000 :
			i % 3 == 1 ? 0x1ffeff0000ull + i % 5000 : (uint64_t)1 << 63 | i % 100;
	memcpy(sorted, numbers, N * sizeof(*sorted));
	qsort(sorted, N, sizeof(*sorted), compare_numbers);
	for (uint32_t i = 0; i < N; i++)
		distinct += !i || sorted[i] != sorted[i - 1];
	pl_trace_init(&batch);
	pl_trace_init(&single);
	CHECK_EQ(pl_trace_intern_batch(&batch, numbers, N, ids), 0);
	for (uint32_t i = 0; i < N; i++) {
		wrong += batch.number[ids[i]] != numbers[i] || ids[i] > fresh ||
			 pl_trace_intern(&single, numbers[i]) != ids[i];
		fresh += ids[i] == fresh;
	}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(batch.npages, distinct);
	CHECK_EQ(fresh, distinct);
	CHECK_EQ(pl_trace_intern(&batch, 0x1ffeff0000ull + 4999), ids[4999]);	/* i % 3 == 1 */
	pl_trace_free(&batch);
	pl_trace_free(&single);
	free(numbers);
	free(sorted);
	free(ids);
}

int main(void)
{
	return run_tests();
}
