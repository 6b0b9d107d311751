/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_variable.c - the variable-space policies of seed 004: the working
 * set (ws), WSClock and page-fault frequency (pff).  Golden results on
 * small traces worked by hand in the comments, and ws against a direct
 * count over the window on thousands of random traces.
 *
 * Sources
 *   [OSC]  Silberschatz, Galvin, Gagne, Operating System Concepts 10e,
 *          10.6.2, Fig. 10.23: with Delta = 10 the working set is
 *          {1, 2, 5, 6, 7} at t1 (after the 10th reference) and {3, 4} at
 *          t2 (after the 26th).
 *   Everything else is worked below.
 */
#include <stdlib.h>

#include "check.h"
#include "support.h"
#include "splitmix64.h"

#define OSC_WS_STRING "2 6 1 5 7 7 7 7 5 1 6 2 3 4 1 2 3 4 4 4 3 4 3 4 4 4 1 3 2 3 4 4 4 3 4 4 4"
/* Without a bound, --frames is only an upper limit: more than any trace here. */
#define UNBOUNDED 1000000

/* ---------------------------------------------------------------- ws */

TEST(ws_with_tau_10_holds_silberschatz_working_sets_at_t1_and_t2)
{
	struct run r;

	run_start(&r, "ws", UNBOUNDED, OSC_WS_STRING, "tau=10", 0);
	for (int i = 0; i < 10; i++)
		run_step(&r);
	/* Most recent first: 1 (step 9), 5 (8), 7 (7), 6 (1), 2 (0). */
	CHECK_STR_EQ(run_list(&r, "working_set"), "1 5 7 6 2");
	for (int i = 10; i < 26; i++)
		run_step(&r);
	CHECK_STR_EQ(run_list(&r, "working_set"), "4 3");
	run_free(&r);
}

/*
 * tau = 3, "1 2 3 1 2 4 5 1".  Before reference t the working set is
 * references t-3 .. t-1; after it, t-2 .. t.
 *   t0 1 miss {1}      t1 2 miss {1 2}    t2 3 miss {1 2 3}
 *   t3 1 hit  {2 3 1}  t4 2 hit  {3 1 2}
 *   t5 4: window 3 1 2, miss; 3 (last at t2) leaves: {1 2 4}
 *   t6 5: miss; 1 (t3) leaves: {2 4 5}
 *   t7 1: window 2 4 5, miss; 2 (t4) leaves: {4 5 1}
 * 6 faults, 3 evictions; sizes 1 2 3 3 3 3 3 3, sum 21.
 */
TEST(ws_with_tau_3_faults_6_times_and_holds_21_page_steps_on_a_hand_worked_trace)
{
	struct pl_stats s = simulate("ws", UNBOUNDED, "1 2 3 1 2 4 5 1", "tau=3");

	CHECK_EQ(s.misses, 6);
	CHECK_EQ(s.evictions, 3);
	CHECK_EQ(s.resident_sum, 21);
	CHECK_STR_EQ(final_describe("ws", UNBOUNDED, "1 2 3 1 2 4 5 1", "tau=3"),
		     "working_set: 1(last_ref=7) 5(last_ref=6) 4(last_ref=5)");
}

/* With 2 frames the set {1 2 3} of t2 cannot form: LRU within the window. */
TEST(ws_with_a_frames_bound_evicts_the_least_recently_used_page_when_full)
{
	/* t2 3: full, 1 (LRU) out; t3 1 misses, 2 out; t4 2 misses, 3 out ... */
	CHECK_EQ(simulate("ws", 2, "1 2 3 1 2 4 5 1", "tau=3").misses, 8);
}

/* The definition, counted directly: a window over the trace. */
static void count_window(const uint32_t *refs, uint32_t n, uint32_t tau, uint64_t *faults,
			 uint64_t *size_sum)
{
	*faults = *size_sum = 0;
	for (uint32_t t = 0; t < n; t++) {
		bool seen = false;
		uint32_t from = t >= tau ? t - tau : 0;

		for (uint32_t i = from; i < t; i++)
			seen |= refs[i] == refs[t];
		*faults += !seen;
		/* |W(t, tau)|: distinct pages among references t-tau+1 .. t */
		for (uint32_t i = t + 1 > tau ? t + 1 - tau : 0; i <= t; i++) {
			bool earlier = false;

			for (uint32_t j = t + 1 > tau ? t + 1 - tau : 0; j < i; j++)
				earlier |= refs[j] == refs[i];
			*size_sum += !earlier;
		}
	}
}

TEST(ws_faults_and_mean_size_equal_a_direct_window_count_on_3000_random_traces)
{
	uint64_t rng = 0x3005;
	unsigned mismatches = 0;

	for (unsigned run = 0; run < 3000; run++) {
		uint32_t n = 1 + splitmix64_below(splitmix64_next(&rng), 300);
		uint32_t pages = 1 + splitmix64_below(splitmix64_next(&rng), 24);
		uint32_t tau = 1 + splitmix64_below(splitmix64_next(&rng), 40);
		uint32_t refs[300];
		struct pl_trace trace;
		struct pl_error err;
		int64_t params[PL_MAX_PARAMS] = { tau };
		struct pl_sim *sim;
		uint64_t faults, size_sum;

		pl_trace_init(&trace);
		for (uint32_t i = 0; i < n; i++) {
			refs[i] = splitmix64_below(splitmix64_next(&rng), pages);
			pl_trace_add(&trace, refs[i], 0);
		}
		sim = pl_sim_create(pl_policy_find("ws"), UNBOUNDED, params, &trace, 0, 0, &err);
		CHECK(sim != NULL);
		if (!sim) {
			pl_trace_free(&trace);
			break;
		}
		pl_sim_run(sim, UINT32_MAX);
		count_window(refs, n, tau, &faults, &size_sum);
		if (pl_sim_stats(sim)->misses != faults ||
		    pl_sim_stats(sim)->resident_sum != size_sum) {
			if (!mismatches++)
				check_fail(__FILE__, __LINE__,
					   "run %u (n=%u, tau=%u): faults %llu vs %llu, size sum "
					   "%llu vs %llu", run, n, tau,
					   (unsigned long long)pl_sim_stats(sim)->misses,
					   (unsigned long long)faults,
					   (unsigned long long)pl_sim_stats(sim)->resident_sum,
					   (unsigned long long)size_sum);
		}
		pl_sim_destroy(sim);
		pl_trace_free(&trace);
	}
	CHECK_EQ(mismatches, 0);
}

/* ----------------------------------------------------------------- pff */

/*
 * threshold = 2, "1 2 1 3 4 4 4 5"; interval = references since the last
 * fault, this one included.  List most recent first, (r) = use bit set.
 *   t0 1 miss (first)        1(r)
 *   t1 2 miss, interval 1    bits cleared, 2 added: 2(r) 1
 *   t2 1 hit                 1(r) 2(r)
 *   t3 3 miss, interval 2    not above 2: 3 added: 3(r) 1 2
 *   t4 4 miss, interval 1    4(r) 3 1 2
 *   t5, t6 4 hits
 *   t7 5 miss, interval 3 > 2: the pages unused since t4 (3 1 2) leave,
 *      tail first; 5 added: 5(r) 4
 * 5 faults, 3 evictions, 1 late fault; sizes 1 2 2 3 4 4 4 2, sum 22.
 */
TEST(pff_with_threshold_2_drops_the_pages_unused_since_the_last_fault_at_a_late_fault)
{
	const char *refs = "1 2 1 3 4 4 4 5";
	struct pl_stats s = simulate("pff", UNBOUNDED, refs, "threshold=2");

	CHECK_EQ(s.misses, 5);
	CHECK_EQ(s.evictions, 3);
	CHECK_EQ(s.resident_sum, 22);
	CHECK_EQ(final_counter("pff", UNBOUNDED, refs, "threshold=2", "late_faults"), 1);
	CHECK_STR_EQ(final_describe("pff", UNBOUNDED, refs, "threshold=2"),
		     "resident: 5(referenced=1) 4");
}

TEST(pff_never_shrinks_below_the_pages_in_use_when_faults_come_quickly)
{
	/* Every interval is 1: the set only grows. */
	struct pl_stats s = simulate("pff", UNBOUNDED, "1 2 3 4 5 6", "threshold=1");

	CHECK_EQ(s.evictions, 0);
	CHECK_EQ(s.resident_sum, 1 + 2 + 3 + 4 + 5 + 6);
}

/* ------------------------------------------------------------- wsclock */

/*
 * tau = 2, 3 frames, "1w 2 3 4 3 3 3 5".  Slots 0 1 2; r = referenced,
 * t = last_use, d = dirty; now = the reference's index.
 *   t0-t2  1(r t0 d) 2(r t1) 3(r t2), hand on slot 0
 *   t3 4 miss, now 3: first turn clears every bit (t := 3), nothing is
 *      old (3 + 2 < 3 fails), no write scheduled; second turn takes the
 *      first clean page: 1 is dirty, 2 is clean: victim 2 (slot 1).
 *      4 fills slot 1, hand to slot 2:  1(t3 d) 4(r t3) 3(t3)
 *   t4-t6  3 hits: 3(r)
 *   t7 5 miss, now 7, from slot 2: 3 referenced: cleared, t := 7;
 *      1: unreferenced, old (3 + 2 < 7), dirty: write scheduled, d := 0;
 *      4 referenced: cleared, t := 7; second turn: 3 young, 1 old and
 *      clean: victim 1 (slot 0).  5 fills slot 0, hand to slot 1.
 * 5 faults, 1 write scheduled; the driver writes page 1 back on eviction.
 */
TEST(wsclock_with_tau_2_replaces_an_old_page_after_scheduling_its_write)
{
	const char *refs = "1w 2 3 4 3 3 3 5";
	struct pl_stats s = simulate("wsclock", 3, refs, "tau=2");

	CHECK_EQ(s.misses, 5);
	CHECK_EQ(s.writebacks, 1);
	CHECK_EQ(final_counter("wsclock", 3, refs, "tau=2", "writes_scheduled"), 1);
	CHECK_STR_EQ(final_describe("wsclock", 3, refs, "tau=2"),
		     "frames: 5(referenced=1,last_use=7) 4(last_use=7) 3(last_use=7); hand=1");
}

int main(void)
{
	return run_tests();
}
