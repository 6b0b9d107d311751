/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_trace.c - reference strings, trace files and the page map: what is
 * accepted, what each reference becomes, and the message for each kind of
 * bad input (it must name the source, the line and the token).
 */
#include "check.h"
#include "support.h"

/* Parses a reference string; returns the error message or "ok". */
static const char *parse_refs(struct pl_trace *t, const char *refs)
{
	static struct pl_error err;

	pl_trace_init(t);
	if (pl_trace_parse_refs(t, refs, "--refs", &err))
		return err.msg;
	return "ok";
}

static const char *refs_error(const char *refs)
{
	struct pl_trace t;
	const char *msg = parse_refs(&t, refs);

	pl_trace_free(&t);
	return msg;
}

/* Reads a trace file with the given content through a real FILE. */
static const char *read_file(struct pl_trace *t, const char *content, size_t len)
{
	static struct pl_error err;
	FILE *f = tmpfile();

	if (!f || fwrite(content, 1, len, f) != len)
		test_abort("cannot write a temporary file");
	rewind(f);
	pl_trace_init(t);
	if (pl_trace_read(t, f, "trace.txt", &err)) {
		fclose(f);
		return err.msg;
	}
	fclose(f);
	return "ok";
}

static const char *file_error(const char *content)
{
	struct pl_trace t;
	const char *msg = read_file(&t, content, strlen(content));

	pl_trace_free(&t);
	return msg;
}

TEST(commas_and_spaces_both_separate_references)
{
	struct pl_trace t;

	CHECK_STR_EQ(parse_refs(&t, " 7,0, 1 ,,2\t3 "), "ok");
	CHECK_EQ(t.n, 5);
	CHECK_EQ(t.number[t.page[0]], 7);
	CHECK_EQ(t.number[t.page[4]], 3);
	pl_trace_free(&t);
}

TEST(dense_ids_follow_first_appearance_and_map_back_to_the_input_numbers)
{
	struct pl_trace t;

	CHECK_STR_EQ(parse_refs(&t, "500 0x10 500 16 9"), "ok");
	CHECK_EQ(t.npages, 3);
	CHECK_EQ(t.page[0], 0);
	CHECK_EQ(t.page[1], 1);
	CHECK_EQ(t.page[2], 0);
	CHECK_EQ(t.page[3], 1);	/* 16 is 0x10 */
	CHECK_EQ(t.page[4], 2);
	CHECK_EQ(t.number[2], 9);
	pl_trace_free(&t);
}

TEST(a_trailing_w_in_either_case_marks_a_write)
{
	struct pl_trace t;

	CHECK_STR_EQ(parse_refs(&t, "1 2w 3W 0x4w 5"), "ok");
	CHECK_EQ(t.flags[0], 0);
	CHECK_EQ(t.flags[1], PL_REF_WRITE);
	CHECK_EQ(t.flags[2], PL_REF_WRITE);
	CHECK_EQ(t.flags[3], PL_REF_WRITE);
	CHECK_EQ(t.number[t.page[3]], 4);
	CHECK_EQ(t.flags[4], 0);
	pl_trace_free(&t);
}

TEST(the_largest_64_bit_numbers_are_accepted_in_decimal_and_hex)
{
	struct pl_trace t;

	CHECK_STR_EQ(parse_refs(&t, "18446744073709551615 0xFFFFFFFFFFFFFFFF 0x0000000000000000001"),
		     "ok");
	CHECK_EQ(t.npages, 2);
	CHECK(t.number[0] == UINT64_MAX);
	CHECK_EQ(t.number[1], 1);
	pl_trace_free(&t);
}

TEST(an_empty_reference_string_gives_an_empty_trace)
{
	struct pl_trace t;

	CHECK_STR_EQ(parse_refs(&t, " , "), "ok");
	CHECK_EQ(t.n, 0);
	pl_trace_free(&t);
}

TEST(a_bad_token_is_named_with_its_line)
{
	const char *tail = " is not a page number (decimal or 0x-hex, optional trailing w for a write)";
	char expected[200];

	snprintf(expected, sizeof(expected), "--refs:1: 'x17'%s", tail);
	CHECK_STR_EQ(refs_error("1 2 x17 3"), expected);
	snprintf(expected, sizeof(expected), "--refs:2: '4r'%s", tail);
	CHECK_STR_EQ(refs_error("1 2\n3 4r"), expected);
	snprintf(expected, sizeof(expected), "--refs:1: '-1'%s", tail);
	CHECK_STR_EQ(refs_error("-1"), expected);
	snprintf(expected, sizeof(expected), "--refs:1: '0x'%s", tail);
	CHECK_STR_EQ(refs_error("0x"), expected);
	snprintf(expected, sizeof(expected), "--refs:1: 'w'%s", tail);
	CHECK_STR_EQ(refs_error("1 w"), expected);
	snprintf(expected, sizeof(expected), "--refs:1: '12ww'%s", tail);
	CHECK_STR_EQ(refs_error("12ww"), expected);
	snprintf(expected, sizeof(expected), "--refs:1: '0xg'%s", tail);
	CHECK_STR_EQ(refs_error("0xg"), expected);
	snprintf(expected, sizeof(expected), "--refs:1: '1.5'%s", tail);
	CHECK_STR_EQ(refs_error("1.5"), expected);
}

TEST(a_number_beyond_64_bits_is_refused_not_wrapped)
{
	CHECK_STR_EQ(refs_error("18446744073709551616"),
		     "--refs:1: '18446744073709551616' does not fit in 64 bits");
	CHECK_STR_EQ(refs_error("0x10000000000000000"),
		     "--refs:1: '0x10000000000000000' does not fit in 64 bits");
	CHECK_STR_EQ(refs_error("99999999999999999999999w"),
		     "--refs:1: '99999999999999999999999w' does not fit in 64 bits");
}

TEST(a_comment_sign_is_a_bad_token_in_a_reference_string)
{
	CHECK_STR_EQ(refs_error("1 # 2"),
		     "--refs:1: '#' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
}

TEST(long_and_unprintable_tokens_are_quoted_short_and_safe)
{
	char long_token[200];

	memset(long_token, 'z', sizeof(long_token) - 1);
	long_token[sizeof(long_token) - 1] = '\0';
	CHECK_STR_EQ(refs_error(long_token),
		     "--refs:1: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...' is not a page number "
		     "(decimal or 0x-hex, optional trailing w for a write)");
	CHECK_STR_EQ(refs_error("1 2\x01\x7f"),
		     "--refs:1: '2\\x01\\x7f' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
}

TEST(a_trace_file_takes_comments_blank_lines_and_crlf)
{
	const char content[] = "# a comment\r\n7\r\n\r\n0x10w # trailing comment\n  3,4\n#\n5";
	struct pl_trace t;

	CHECK_STR_EQ(read_file(&t, content, sizeof(content) - 1), "ok");
	CHECK_EQ(t.n, 5);
	CHECK_EQ(t.number[t.page[1]], 16);
	CHECK_EQ(t.flags[1], PL_REF_WRITE);
	CHECK_EQ(t.number[t.page[4]], 5);
	pl_trace_free(&t);
}

TEST(a_bad_line_in_a_trace_file_is_named_by_file_and_line)
{
	CHECK_STR_EQ(file_error("1\n2\n# fine\nthree\n4\n"),
		     "trace.txt:4: 'three' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
	CHECK_STR_EQ(file_error("1\r\n2\r\n0x1z\r\n"),
		     "trace.txt:3: '0x1z' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
}

TEST(a_binary_file_is_refused_at_its_first_bad_byte)
{
	const char content[] = "12\n\0\0\x89PNG";
	struct pl_trace t;

	CHECK_STR_EQ(read_file(&t, content, sizeof(content) - 1),
		     "trace.txt:2: '\\x00\\x00\\x89PNG' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
	pl_trace_free(&t);
}

TEST(a_bad_line_deep_in_a_long_file_is_named_by_its_own_number)
{
	char content[8000];
	size_t used = 0;

	for (int line = 1; line <= 1000; line++)
		used += (size_t)snprintf(content + used, sizeof(content) - used, "%s\n",
					 line == 700 ? "7O0" : "42");
	CHECK_STR_EQ(file_error(content),
		     "trace.txt:700: '7O0' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
}

TEST(a_file_without_a_final_newline_keeps_its_last_reference)
{
	struct pl_trace t;

	CHECK_STR_EQ(read_file(&t, "1\n2\n3", 5), "ok");
	CHECK_EQ(t.n, 3);
	pl_trace_free(&t);
}

TEST(an_empty_file_gives_an_empty_trace)
{
	struct pl_trace t;

	CHECK_STR_EQ(read_file(&t, "", 0), "ok");
	CHECK_EQ(t.n, 0);
	pl_trace_free(&t);
}

TEST(a_large_file_reads_across_buffer_boundaries)
{
	size_t cap = 2000000, used = 0;
	char *content = malloc(cap);
	struct pl_trace t;
	uint32_t i;

	for (i = 0; used + 32 < cap; i++)
		used += (size_t)snprintf(content + used, cap - used, "%u%s\n", i % 50000,
					 i % 3 ? "" : "w");
	CHECK_STR_EQ(read_file(&t, content, used), "ok");
	CHECK_EQ(t.n, i);
	CHECK_EQ(t.npages, 50000);
	CHECK_EQ(t.number[t.page[i - 1]], (i - 1) % 50000);
	CHECK_EQ(t.flags[i - 1], (i - 1) % 3 ? 0 : PL_REF_WRITE);
	pl_trace_free(&t);
	free(content);
}

TEST(numbers_of_every_length_read_exactly_between_blank_lines_comments_and_writes)
{
	static const char *const extra[] = { "", "# note", "5w", "6 7", "8\r" };
	static uint64_t want[4000];
	char content[80000];
	size_t used = 0;
	uint32_t n = 0;
	struct pl_trace t;
	uint64_t v = 0;

	/* runs of short lines (read 64 bytes at a time) broken by every other kind of line */
	for (unsigned line = 0; line < 2000; line++) {
		v = v * 10 + line % 10;
		if (v >= 10000000000000000000ull)
			v = line % 7;
		used += (size_t)snprintf(content + used, sizeof(content) - used, "%llu\n",
					 (unsigned long long)v);
		want[n++] = v;
		if (line % 37 == 0) {
			const char *e = extra[line / 37 % 5];

			used += (size_t)snprintf(content + used, sizeof(content) - used, "%s\n", e);
			if (e[0] >= '0' && e[0] <= '9')
				want[n++] = (uint64_t)(e[0] - '0');
			if (e[0] == '6')
				want[n++] = 7;
		}
	}
	CHECK_STR_EQ(read_file(&t, content, used), "ok");
	CHECK_EQ(t.n, n);
	for (uint32_t i = 0; i < n && i < t.n; i++)
		if (t.number[t.page[i]] != want[i]) {
			CHECK_EQ(t.number[t.page[i]], want[i]);
			break;
		}
	pl_trace_free(&t);
}

TEST(the_page_map_keeps_a_million_distinct_numbers_apart)
{
	struct pl_trace t;
	bool ok = true;

	pl_trace_init(&t);
	/* aligned addresses: multiples of 2^32 and of 4096 collide under a plain mask */
	for (uint64_t i = 0; i < 500000; i++) {
		ok &= pl_trace_add(&t, i << 32, 0) == 2 * i;
		ok &= pl_trace_add(&t, i * 4096 + 1, 0) == 2 * i + 1;
	}
	for (uint64_t i = 0; i < 500000; i += 997)
		ok &= pl_trace_add(&t, i << 32, 0) == 2 * i;
	CHECK(ok);
	CHECK_EQ(t.npages, 1000000);
	CHECK(t.number[2 * 123456] == (uint64_t)123456 << 32);
	pl_trace_free(&t);
}

TEST(numbers_hashed_before_the_direct_array_covers_them_keep_their_ids)
{
	/* above the 4 MB the direct array may always have, 4 apart: hashed
	 * until 2^17 pages make the array dense enough to cover 2^21, all
	 * moved into it then (one rehash) */
	const uint64_t base = (uint64_t)1 << 20, pages = (uint64_t)1 << 19;
	struct pl_trace t;
	bool ok = true;

	pl_trace_init(&t);
	for (uint64_t i = 0; i < pages; i++)
		ok &= pl_trace_add(&t, base + 4 * i, 0) == i;
	for (uint64_t i = 0; i < pages; i += 7)
		ok &= pl_trace_add(&t, base + 4 * i, 0) == i;
	for (uint64_t i = 0; i < pages; i += 1001)
		ok &= t.number[i] == base + 4 * i;
	CHECK(ok);
	CHECK_EQ(t.npages, pages);
	pl_trace_free(&t);
}

TEST(process_ids_and_timestamps_are_kept_only_once_given)
{
	struct pl_trace t;

	pl_trace_init(&t);
	CHECK(pl_trace_set_pid(&t, 1) != 0);	/* no reference yet */
	pl_trace_add(&t, 5, 0);
	CHECK(t.pid == NULL && t.vtime == NULL);
	pl_trace_add(&t, 6, 0);
	CHECK_EQ(pl_trace_set_pid(&t, 42), 0);
	CHECK_EQ(pl_trace_set_vtime(&t, 1000), 0);
	for (int i = 0; i < 3000; i++)
		pl_trace_add(&t, 7, 0);
	CHECK_EQ(t.pid[0], 0);
	CHECK_EQ(t.pid[1], 42);
	CHECK_EQ(t.vtime[1], 1000);
	CHECK_EQ(t.pid[3001], 0);
	pl_trace_free(&t);
}

/* ---------------------------------------------------------------- columns */

TEST(a_header_line_makes_a_trace_file_a_table_of_page_time_and_pid)
{
	struct pl_trace t;

	const char *file = "# comment first\npage time pid\n7 0 1\n8w 10 2  # x\n\n7 10 1\n";

	CHECK_STR_EQ(read_file(&t, file, strlen(file)), "ok");
	CHECK_EQ(t.n, 3);
	CHECK_EQ(t.number[t.page[1]], 8);
	CHECK_EQ(t.flags[1], PL_REF_WRITE);
	CHECK(t.vtime && t.pid);
	CHECK_EQ(t.vtime[0], 0);
	CHECK_EQ(t.vtime[1], 10);
	CHECK_EQ(t.vtime[2], 10);
	CHECK_EQ(t.pid[1], 2);
	pl_trace_free(&t);
}

TEST(a_csv_table_takes_its_columns_in_any_order)
{
	struct pl_trace t;

	const char *file = "pid,PAGE\n3,0x10\n4,17\n";

	CHECK_STR_EQ(read_file(&t, file, strlen(file)), "ok");
	CHECK_EQ(t.n, 2);
	CHECK(t.vtime == NULL);
	CHECK_EQ(t.pid[0], 3);
	CHECK_EQ(t.number[t.page[0]], 16);
	pl_trace_free(&t);
}

TEST(a_table_whose_time_goes_backwards_is_refused_at_that_line)
{
	CHECK_STR_EQ(file_error("page time\n1 5\n2 5\n3 4\n"),
		     "trace.txt:4: time 4 is before the previous reference's: time must not go backwards");
}

TEST(garbage_in_a_pid_or_time_column_is_named_with_its_line)
{
	CHECK_STR_EQ(file_error("page pid\n1 1\n2 x7\n"),
		     "trace.txt:3: 'x7' is not a process id (a decimal below 4294967295)");
	CHECK_STR_EQ(file_error("page pid\n1 4294967295\n"),
		     "trace.txt:2: '4294967295' is not a process id (a decimal below 4294967295)");
	CHECK_STR_EQ(file_error("page,time\n1,-3\n"),
		     "trace.txt:2: '-3' is not a time (a decimal below 2^64)");
	CHECK_STR_EQ(file_error("page time\n1 2\nx 3\n"),
		     "trace.txt:3: 'x' is not a page number (decimal or 0x-hex, optional trailing w for a write)");
}

TEST(a_table_row_needs_exactly_the_header_s_columns)
{
	CHECK_STR_EQ(file_error("page time\n1\n"),
		     "trace.txt:2: 1 column, the header names 2 (page, time)");
	CHECK_STR_EQ(file_error("page time\n1 2 3\n"),
		     "trace.txt:2: 3 columns, the header names 2 (page, time)");
}

TEST(a_header_must_name_known_columns_once_and_page_among_them)
{
	CHECK_STR_EQ(file_error("page cpu\n"), "trace.txt:1: 'cpu' is not a column (page, address, time, op, pid; "
		     "--columns maps other names)");
	CHECK_STR_EQ(file_error("page time page\n"), "trace.txt:1: column 'page' named twice");
	CHECK_STR_EQ(file_error("time\n3\n"), "trace.txt:1: the header has no 'page' or 'address' column");
}

int main(void)
{
	return run_tests();
}
