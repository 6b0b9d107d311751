/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_linux_lruk.c - seed 002's linux_lruk: promotion only when the
 * previous reference lies within `threshold`, on hand-worked traces, in
 * references (no time column) and in trace time (a time column with a
 * pause), beside stock linux on the same trace.
 *
 * All pages are file pages read with read() (anon_percent=0, the default
 * file_access=syscall), so every reference goes through
 * folio_mark_accessed(): a fault leaves the page inactive and referenced,
 * the next reference would promote it.
 */
#include <string.h>

#include "check.h"
#include "support.h"

#define FILE_PAGES "anon_percent=0 batch=1"

/*
 * References 1 1 2 3 2 (time = index), threshold 1, 4 frames.
 *   step 1: 1 again, 1 - 0 = 1 <= 1: close, promoted to active_file.
 *   step 4: 2 again, 4 - 2 = 2 > 1: not close, stays inactive (referenced,
 *           last_ref 4).  Stock linux promotes it.
 */
TEST(an_inactive_page_is_promoted_only_when_its_previous_reference_is_close)
{
	const char *refs = "1 1 2 3 2";

	CHECK_STR_EQ(final_describe("linux_lruk", 4, refs, FILE_PAGES " threshold=1"),
		     "inactive_anon:; active_anon:; inactive_file: 3(referenced=1,last_ref=3) "
		     "2(referenced=1,last_ref=4); active_file: 1(active=1,last_ref=1,close=1); "
		     "shadow:");
	CHECK_STR_EQ(final_list("linux", 4, refs, FILE_PAGES, "active_file"), "2 1");
	CHECK_EQ(final_counter("linux_lruk", 4, refs, FILE_PAGES " threshold=1", "promoted"), 1);
	CHECK_EQ(final_counter("linux", 4, refs, FILE_PAGES, "promoted"), 2);
}

TEST(with_a_threshold_beyond_the_trace_linux_lruk_is_linux)
{
	const char *refs = "1 2 3 1 4 2 5 1 2 3 4 5 1 1 6 7 2 2 8 1";

	CHECK_EQ(simulate("linux_lruk", 4, refs, FILE_PAGES " threshold=1000").misses,
		 simulate("linux", 4, refs, FILE_PAGES).misses);
	CHECK_STR_EQ(final_list("linux_lruk", 4, refs, FILE_PAGES " threshold=1000", "active_file"),
		     final_list("linux", 4, refs, FILE_PAGES, "active_file"));
}

/*
 * A time column, the default threshold of 10000 (10 s in milliseconds):
 * page 1 read at 0 and 5 (close: promoted), page 2 at 20 and, after a
 * pause, at 10021 (10001 apart: not close, stays inactive), page 3 at
 * 10030 and 20030 (10000 apart: close, promoted).
 */
static uint64_t counter_named(const struct pl_policy_ops *ops, const uint64_t *counters,
			      const char *name)
{
	for (unsigned i = 0; i < pl_policy_ncounters(ops); i++)
		if (!strcmp(pl_policy_counter_name(ops, i), name))
			return counters[i];
	test_abort("no counter %s", name);
}

TEST(the_threshold_is_in_trace_time_when_the_trace_has_a_time_column)
{
	static const uint64_t page[] = { 1, 1, 2, 2, 3, 3 };
	static const uint64_t time[] = { 0, 5, 20, 10021, 10030, 20030 };
	const struct pl_policy_ops *ops = pl_policy_find("linux_lruk");
	int64_t params[PL_MAX_PARAMS];
	struct pl_error err;
	struct pl_trace t;
	struct pl_sim *sim;
	uint64_t counters[PL_MAX_COUNTERS];

	pl_trace_init(&t);
	for (unsigned i = 0; i < 6; i++) {
		CHECK(pl_trace_add(&t, page[i], 0) != PL_NONE);
		CHECK_EQ(pl_trace_set_vtime(&t, time[i]), 0);
	}
	pl_params_default(ops, params);
	CHECK_EQ(pl_params_set(ops, params, "anon_percent=0", &err), 0);
	sim = pl_sim_create(ops, 8, params, &t, 0, 0, &err);
	CHECK(sim != NULL);
	pl_sim_run(sim, UINT32_MAX);
	pl_sim_counters(sim, counters);
	CHECK_EQ(counter_named(ops, counters, "promoted"), 2);
	CHECK_EQ(counter_named(ops, counters, "nr_active_file"), 2);
	CHECK_EQ(counter_named(ops, counters, "nr_inactive_file"), 1);
	pl_sim_destroy(sim);
	pl_trace_free(&t);
}

int main(void)
{
	return run_tests();
}
