/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_freebsd.c - FreeBSD 10's pagedaemon (freebsd) and seed 003's Slim
 * Chance variant (freebsd_slim) on traces worked by hand below.
 *
 * With 4 frames every target is one page: free_min = free_target = 1 (5%
 * and 10% of 4, at least one page) and inactive_target = 1 (33%).  The
 * daemon wakes after a fault leaves free + cache = 0.  Constants: ACT_INIT
 * 5, a referenced page found by the scan gains ACT_ADVANCE + 1 = 4, an
 * unreferenced one loses ACT_DECLINE = 1 (Slim Chance: halved).
 */
#include "check.h"
#include "support.h"

/*
 * freebsd, 4 frames, "1 2 3 4 5".
 *   t0-t3  1 2 3 4 enter the active tail (act_count 5, referenced); after
 *          t3 no frame is free: the daemon runs.
 *     pass 0   inactive empty; active scan (short 1 inactive + 1 free):
 *              each page referenced: act_count 9, bit cleared, to the tail
 *     pass 1-8 nothing referenced: every act_count drops by 1, to 1
 *     pass 9   1 and 2 drop to 0: to the inactive queue (short 2, met)
 *     pass 10  inactive scan: 1 is clean and unreferenced: to the cache;
 *              free + cache = 1, the target: the daemon stops
 *     scanned 4 + 8 * 4 + 2 + 1 = 39
 *   t4  5: no free frame: the cache's head, 1, is reused; 5 enters active.
 *     pass 0   inactive scan: 2 to the cache (scanned 40); active scan,
 *              short 1 inactive: 3 drops from 1 to 0: inactive (41)
 */
TEST(freebsd_ages_act_count_through_the_passes_and_refills_the_cache_on_a_hand_worked_trace)
{
	const char *refs = "1 2 3 4 5";

	CHECK_EQ(simulate("freebsd", 4, refs, NULL).misses, 5);
	CHECK_STR_EQ(final_describe("freebsd", 4, refs, NULL),
		     "active: 4(act_count=1) 5(act_count=5,referenced=1); inactive: 3; cache: 2");
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "pages_scanned"), 41);
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "active_to_inactive"), 3);
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "inactive_to_cache"), 2);
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "daemon_runs"), 2);
}

/*
 * freebsd_slim, same trace.
 *   t3 daemon  pass 0: each referenced page, act_count 9, goes to the HEAD
 *              (order after: 4 3 2 1); passes 1-3 halve: 4, 2, 1 (each
 *              page unreferenced goes to the tail, so the order stays
 *              4 3 2 1); pass 4: 4 and 3 reach 0: inactive; pass 5: 4 to
 *              the cache.  Scanned 4 * 4 + 2 + 1 = 19.
 *   t4  5 reuses 4's frame; pass 0: 3 to the cache (20); 2 halves from 1
 *       to 0: inactive (21).
 */
TEST(freebsd_slim_halves_act_count_and_requeues_referenced_pages_at_the_head)
{
	const char *refs = "1 2 3 4 5";

	CHECK_EQ(simulate("freebsd_slim", 4, refs, NULL).misses, 5);
	CHECK_STR_EQ(final_describe("freebsd_slim", 4, refs, NULL),
		     "active: 1(act_count=1) 5(act_count=5,referenced=1); inactive: 2; cache: 3");
	CHECK_EQ(final_counter("freebsd_slim", 4, refs, NULL, "pages_scanned"), 21);
	CHECK_EQ(final_counter("freebsd_slim", 4, refs, NULL, "active_to_inactive"), 3);
}

/*
 * freebsd, 4 frames, "1w 2w 3w 4w 5": every page dirty.
 *   t3 daemon  passes 0-9 as above (1 and 2 inactive); pass 10 (not the
 *              first pass, so no extra trip round the queue): 1 laundered
 *              (dirty 0, flushing 1); pass 11: 1 busy, 2 laundered; pass
 *              12 changes nothing: the daemon gives up until time passes.
 *   t4  5: no free frame, no cache, no clean idle inactive page: the fault
 *       waits for the oldest write (1's) and frees 1 (inactive_to_free; the
 *       driver counts its writeback).  Daemon: 3 deactivated, laundered in
 *       pass 1.
 *   queued_for_flush 3; the writes (flush_delay 16) are still in flight.
 */
TEST(freebsd_launders_dirty_pages_before_freeing_them)
{
	const char *refs = "1w 2w 3w 4w 5";
	struct pl_stats s = simulate("freebsd", 4, refs, NULL);

	CHECK_EQ(s.misses, 5);
	CHECK_EQ(s.writebacks, 1);
	CHECK_STR_EQ(final_describe("freebsd", 4, refs, NULL),
		     "active: 4(act_count=1,dirty=1) 5(act_count=5,referenced=1); "
		     "inactive: 2(flushing=1) 3(flushing=1); cache:");
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "queued_for_flush"), 3);
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "inactive_to_free"), 1);
}

/*
 * freebsd, 4 frames, "1 2 3w 4 5 6".  Up to t4 as in the first test, but
 * the page deactivated at t4, 3, is dirty: active 4(1) 5(5, ref),
 * inactive 3(dirty), cache 2.
 *   t5  6 reuses 2's frame.  Daemon, pass 0: 3 is dirty and has not made
 *       its extra trip: cycled := 1, back to the inactive tail; active
 *       scan: 4 drops to 0, inactive.  Pass 1: 3 laundered (dirty 0,
 *       flushing 1).  Pass 2: 3 busy, 4 clean: to the cache.
 */
TEST(freebsd_gives_a_dirty_inactive_page_one_more_trip_before_laundering_it)
{
	const char *refs = "1 2 3w 4 5 6";

	CHECK_STR_EQ(final_describe("freebsd", 4, refs, NULL),
		     "active: 5(act_count=5,referenced=1) 6(act_count=5,referenced=1); "
		     "inactive: 3(cycled=1,flushing=1); cache: 4");
	CHECK_EQ(final_counter("freebsd", 4, refs, NULL, "queued_for_flush"), 1);
}

/* A reference to a cached page is a reclaim (a soft fault), not a fault. */
TEST(freebsd_reclaims_a_cached_page_into_the_active_queue_on_a_hit)
{
	/* After "1 2 3 4 5" page 2 is cached (first test); 2 again is a hit. */
	struct pl_stats s = simulate("freebsd", 4, "1 2 3 4 5 2", NULL);

	CHECK_EQ(s.misses, 5);
	CHECK_EQ(final_counter("freebsd", 4, "1 2 3 4 5 2", NULL, "reclaims"), 1);
	CHECK_STR_EQ(final_list("freebsd", 4, "1 2 3 4 5 2", NULL, "active"), "4 5 2");
}

int main(void)
{
	return run_tests();
}
