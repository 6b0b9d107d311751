/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_modern.c - the adaptive and scan-resistant policies: ARC, 2Q, SLRU,
 * SIEVE, S3-FIFO, LIRS, CAR, CLOCK-Pro, W-TinyLFU, LeCaR.
 *
 * Golden tests: small traces worked by hand from each paper's rules (the
 * expected structures are written out in the comments, step by step).
 *
 * Differential tests: ARC, 2Q, CAR and CLOCK-Pro (absent from libCacheSim or, for CLOCK-Pro, not usable there) against straightforward transcriptions of
 * their papers' pseudocode kept here -- lists as arrays searched linearly,
 * O(c) per reference, sharing nothing with the policies but the trace -- on
 * thousands of random traces, comparing every hit and miss and the final
 * lists (ghosts and ARC's p included).  libCacheSim's own versions are the
 * other reference (tests/libcachesim_diff.py).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "support.h"
#include "policy.h"
#include "splitmix64.h"

/* ------------------------------------------------------------- golden */

TEST(arc_adapts_p_step_by_step_on_a_hand_worked_trace)
{
	struct run r;

	/* c = 2.  1 1: 1 seen twice, in t2.  2: t1.  3: full, |T1| + |B1| = 1
	 * < c, so REPLACE: |T1| = 1 > p = 0, T1's tail 2 goes to b1. */
	run_start(&r, "arc", 2, "1 1 2 3 1 2 1 3", NULL, 0);
	for (int i = 0; i < 4; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1: 3; t2: 1; b1: 2; b2:; p=0");
	run_step(&r);	/* 1: a hit at t2's head, nothing moves */
	CHECK_STR_EQ(run_describe(&r), "t1: 3; t2: 1; b1: 2; b2:; p=0");
	/* 2 is in b1: T1 was too small, p := 0 + max(|B2|/|B1|, 1) = 1.
	 * REPLACE: |T1| = 1 is not > p, so T2's tail 1 goes to b2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1: 3; t2: 2; b1:; b2: 1; p=1");
	CHECK_EQ(run_counter(&r, "p_thousandths"), 1000);
	/* 1 is in b2: p := 1 - max(|B1|/|B2|, 1) = 0; |T1| = 1 > 0: 3 to b1. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1:; t2: 1 2; b1: 3; b2:; p=0");
	/* 3 is in b1: p := 1; T1 is empty, so T2's tail 2 goes to b2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1:; t2: 3 1; b1:; b2: 2; p=1");
	CHECK_EQ(run_counter(&r, "b1_hits"), 2);
	CHECK_EQ(run_counter(&r, "b2_hits"), 1);
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 6);
	run_free(&r);
}

TEST(arc_sends_new_pages_through_t1_to_b1_while_a_hot_t2_holds)
{
	/* c = 4.  1 2 3 4 twice: all in t2.  5: T1 is empty, so REPLACE takes
	 * T2's tail 1 to b2.  6 7 8: now |T1| = 1 > p = 0, each evicts T1's
	 * tail to b1 (5, 6, 7).  5 again: in b1, p := 0 + max(1/3, 1) = 1;
	 * |T1| = 1 is not > p, so T2's tail 2 goes to b2; 5 enters t2. */
	const char *refs = "1 2 3 4 1 2 3 4 5 6 7 8 5";

	CHECK_STR_EQ(final_describe("arc", 4, refs, NULL),
		     "t1: 8; t2: 5 4 3; b1: 7 6; b2: 2 1; p=1");
	CHECK_EQ(simulate("arc", 4, refs, NULL).misses, 9);
}

TEST(twoq_keeps_correlated_references_in_a1in_and_admits_a1out_ghosts_to_am)
{
	/* c = 4: Kin = 1, Kout = 2.  1 2 3 4 fill a1in; the second 1 is a
	 * correlated reference: nothing moves.  5: |A1in| = 4 > Kin, 1 goes
	 * to a1out.  1 again: found in a1out, so it enters am (2 goes to
	 * a1out).  6: 3 to a1out.  7: 4 to a1out, which forgets 2. */
	struct pl_stats s = simulate("twoq", 4, "1 2 3 4 1 5 1 6 7", NULL);

	CHECK_STR_EQ(final_describe("twoq", 4, "1 2 3 4 1 5 1 6 7", NULL),
		     "a1in: 7 6 5; am: 1; a1out: 4 3");
	CHECK_EQ(s.misses, 8);
	CHECK_EQ(final_counter("twoq", 4, "1 2 3 4 1 5 1 6 7", NULL, "a1out_hits"), 1);
}

TEST(slru_promotes_a_hit_one_segment_and_cools_that_segments_tail)
{
	/* 2 segments of 2.  1 2 fill seg0, 3 4 then seg1.  Hit 1: to seg1's
	 * head, whose tail 3 cools to seg0's head.  5: seg0's tail 2 evicted. */
	CHECK_STR_EQ(final_describe("slru", 4, "1 2 3 4 1 5", "segments=2"),
		     "seg0: 5 3; seg1: 1 4; seg2:; seg3:");
	/* One segment is LRU. */
	CHECK_EQ(simulate("slru", 3, "7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1",
			  "segments=1").misses, 12);
}

TEST(sieve_clears_visited_bits_from_the_tail_and_survivors_keep_their_place)
{
	struct run r;

	run_start(&r, "sieve", 3, "1 2 3 1 4 5", NULL, 0);
	for (int i = 0; i < 4; i++)
		run_step(&r);
	/* the unset hand shows on the tail, where the first sweep starts */
	CHECK_STR_EQ(run_describe(&r), "queue: 3 2 1(visited=1); hand=2");
	/* 4: 1 is visited (cleared, kept in place), 2 is evicted; the hand
	 * stays on 2's neighbour towards the head, 3. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "queue: 4 3 1; hand=1");
	/* 5: the hand is on 3, unvisited: evicted; the hand moves on to 4. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "queue: 5 4 1; hand=1");
	run_free(&r);
}

TEST(s3fifo_promotes_a_page_hit_twice_in_small_and_admits_a_ghost_to_main)
{
	struct run r;

	/* c = 4, small_percent=50: S = 2, M = 2, G = 3.  1 2 fill small;
	 * 1 is hit twice (freq 2).  While memory first fills and small is
	 * full, 3 and 4 go to main. */
	run_start(&r, "s3fifo", 4, "1 2 1 1 3 4 5 2", "small_percent=50", 0);
	for (int i = 0; i < 6; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "small: 2 1(freq=2); main: 4 3; ghost:");
	/* 5: small's tail 1 has freq 2 >= 2: it moves to main (freq 0); the
	 * next tail 2 has freq 0: evicted, remembered in ghost. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "small: 5; main: 1 4 3; ghost: 2");
	CHECK_EQ(run_counter(&r, "moved_to_main"), 1);
	/* 2 is a ghost: main holds 3 > M pages, so main's tail 3 (freq 0) is
	 * evicted, and 2 enters main directly. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "small: 5; main: 2 1 4; ghost:");
	CHECK_EQ(run_counter(&r, "ghost_hits"), 1);
	run_free(&r);
}

TEST(s3fifo_main_reinserts_a_hit_page_with_one_less_frequency)
{
	/* c = 4, S = 2: 3 4 go to main during the first fill; 3 is hit, so
	 * the first eviction from main (small's tails 1 and 2 are hit, so
	 * they move and main overflows) reinserts 3 with freq 0 and evicts 4. */
	CHECK_STR_EQ(final_describe("s3fifo", 4, "1 2 3 4 3 1 1 2 2 5", "small_percent=50"),
		     "small: 5; main: 3 2 1; ghost:");
}

TEST(lirs_prunes_hir_entries_from_the_stack_bottom_and_promotes_a_ghost_to_lir)
{
	struct run r;

	/* c = 3: Llirs = 2, Lhirs = 1 (the paper's example sizes).  1 2 become
	 * LIR, 3 resident HIR.  Hit 1 (S's bottom): S = 1 3 2, 2 is LIR at
	 * the bottom, nothing to prune. */
	run_start(&r, "lirs", 3, "1 2 3 1 2 4 5 4", NULL, 0);
	for (int i = 0; i < 4; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "lir: 1(in_s=1,last_ref=4) 2(in_s=1,last_ref=2); "
		     "hir: 3(in_s=1,last_ref=3); nonresident:");
	/* Hit 2, S's bottom: S = 2 1 3, and pruning removes the HIR entry 3
	 * from the bottom (3 stays resident, in Q). */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "lir: 2(in_s=1,last_ref=5) 1(in_s=1,last_ref=4); "
		     "hir: 3(last_ref=3); nonresident:");
	/* 4: Q's front 3 is evicted (not in S: forgotten); 4 enters as HIR.
	 * 5: 4 is evicted but stays in S as a non-resident HIR page. */
	run_step(&r);
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "lir: 2(in_s=1,last_ref=5) 1(in_s=1,last_ref=4); "
		     "hir: 5(in_s=1,last_ref=7); nonresident: 4(in_s=1,last_ref=6)");
	/* 4 again: its IRR is low (it is in S), so Q's front 5 is evicted
	 * (to the ghosts), 4 becomes LIR, and S's bottom LIR page 1 becomes
	 * HIR in Q, leaving S: S = 4 5 2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "lir: 4(in_s=1,last_ref=8) 2(in_s=1,last_ref=5); "
		     "hir: 1(last_ref=4); nonresident: 5(in_s=1,last_ref=7)");
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 6);
	CHECK_EQ(run_counter(&r, "pruned"), 1);
	run_free(&r);
}

TEST(car_gives_a_referenced_page_a_place_on_t2_and_adapts_p_like_arc)
{
	struct run r;

	/* c = 2.  1 2 enter t1; 1 is hit (bit set).  3: REPLACE looks at t1
	 * (|T1| = 2 >= max(1, p = 0)): 1 is referenced, so it moves to t2's
	 * tail with its bit cleared; 2 is not: evicted to b1. */
	run_start(&r, "car", 2, "1 2 1 3 4 3 5", NULL, 0);
	for (int i = 0; i < 4; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1: 3; t2: 1; b1: 2; b2:; p=0");
	/* 4: 3 is evicted to b1; now |T1| + |B1| = c, so b1 forgets 2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1: 4; t2: 1; b1: 3; b2:; p=0");
	/* 3 is in b1: 4 goes to b1, p := 0 + max(1, 0/2) = 1, 3 to t2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1:; t2: 1 3; b1: 4; b2:; p=1");
	/* 5: |T1| = 0 < max(1, p): t2's hand evicts 1 to b2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "t1: 5; t2: 3; b1: 4; b2: 1; p=1");
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 6);
	run_free(&r);
}

TEST(clockpro_turns_a_cold_page_hot_when_it_is_reused_during_its_test_period)
{
	struct run r;

	/* c = 4: the cold target mc starts at 1 (at most 3), so at most 3
	 * pages are hot.  1 2 3 4 enter cold, each starting a test period,
	 * in clock order 1 2 3 4 (order = the place in the clock); HAND_hot
	 * is at 1 (always position 0), HAND_cold and HAND_test at 1 too.
	 * 1 is hit: only its reference bit is set. */
	run_start(&r, "clockpro", 4, "1 2 3 4 1 5 6 2", NULL, 0);
	for (int i = 0; i < 5; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "clock: 1(test=1,referenced=1,order=1) 2(test=1,order=2) "
		     "3(test=1,order=3) 4(test=1,order=4); test:; hand_hot=0; hand_cold=0; "
		     "hand_test=0");
	/* 5 faults, memory is full: HAND_cold finds 1 referenced during its
	 * test period, so 1 turns hot (bit cleared) and mc := 2; the hand
	 * goes on to 2, unreferenced: 2 is evicted but, in its test period,
	 * stays in the clock as a non-resident cold page.  5 enters at the
	 * head (behind HAND_hot): the clock is 1 2 3 4 5, HAND_cold on 3. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "clock: 1(hot=1,order=1) 3(test=1,order=3) "
		     "4(test=1,order=4) 5(test=1,order=5); test: 2(test=1,order=2); hand_hot=0; "
		     "hand_cold=2; hand_test=0");
	CHECK_EQ(run_counter(&r, "cold_target"), 2);
	/* 6: HAND_cold evicts 3 the same way (it keeps its test period). */
	run_step(&r);
	CHECK_STR_EQ(run_list(&r, "test"), "2 3");
	/* 2 again, while its test period runs: HAND_cold first evicts 4;
	 * then 2 leaves its place and enters at the head as a HOT page
	 * (its reuse distance is smaller than the clock), mc := 3.  Now 2 hot
	 * pages > 4 - 3, so HAND_hot runs: 1 is hot and unreferenced, it
	 * turns cold (no test period) and HAND_hot passes it: 1 goes after
	 * 2 at the head.  The clock: 3 4 (non-resident) 5 6 2 1, HAND_cold on
	 * 5 (position 2), HAND_test still on 1 (position 5). */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "clock: 5(test=1,order=5) 6(test=1,order=6) "
		     "2(hot=1,order=7) 1(order=8); test: 3(test=1,order=3) 4(test=1,order=4); "
		     "hand_hot=0; hand_cold=2; hand_test=5");
	CHECK_EQ(run_counter(&r, "promotions"), 2);
	CHECK_EQ(run_counter(&r, "cold_target"), 3);
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 7);
	run_free(&r);
}

TEST(wtinylfu_admits_a_window_page_to_main_only_if_it_is_more_frequent)
{
	struct run r;

	/* c = 4, window_percent=25: W = 1, main 3 (probation 1, protected 2).
	 * As in libCacheSim the window holds all of memory until the first
	 * eviction.  1 is hit in the window (window hits are not counted). */
	run_start(&r, "wtinylfu", 4, "1 2 3 4 1 5 1 6", "window_percent=25", 0);
	for (int i = 0; i < 5; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "window: 1(estimate=1) 4(estimate=1) 3(estimate=1) "
		     "2(estimate=1); probation:; protected:");
	/* 5: main fills from the window's LRU end (2 to probation, 3 and 4 to
	 * protected, each counted once more: 2 each); the candidate 1
	 * (count 1) does not beat main's victim 2 (count 2): 1 is evicted
	 * (and counted: 2). */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "window: 5(estimate=1); probation: 2(estimate=2); "
		     "protected: 4(estimate=2) 3(estimate=2)");
	/* 1 again (count 3 now): the candidate 5 (1, then 2) loses to 2. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "window: 1(estimate=3); probation: 2(estimate=2); "
		     "protected: 4(estimate=2) 3(estimate=2)");
	CHECK_EQ(run_counter(&r, "rejected"), 2);
	/* 6: the candidate 1 (3) beats 2 (2): 2 is evicted and 1 enters
	 * probation (counted: 4).  One eviction per fault, as in
	 * libCacheSim 0.3.5. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "window: 6(estimate=1); probation: 1(estimate=4); "
		     "protected: 4(estimate=2) 3(estimate=2)");
	CHECK_EQ(run_counter(&r, "admitted"), 1);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 3);
	run_free(&r);
}

/*
 * With minimal increment (conservative=1) only a page's counters at its
 * minimum grow, so the peek at the first eviction -- victim() counts the
 * pages the window spills into main, reads the contest, and takes the
 * counts back -- must take back exactly the counters that grew: else an
 * estimate falls (it fell from 1 to 0, a counter below its true count).
 * Until a reset halves the sketch (after 32 x main hits: at 14 frames and
 * more, main holds 11 pages or more, so none within 300 references) no
 * shown estimate may fall.
 */
static unsigned estimates_falling(uint64_t *rng, unsigned trace)
{
	uint32_t len = 20 + splitmix64_below(splitmix64_next(rng), 280);
	uint32_t frames = 14 + splitmix64_below(splitmix64_next(rng), 20);
	uint32_t distinct = 3 + splitmix64_below(splitmix64_next(rng), 60);
	const struct pl_event *ev;
	char refs[2048];
	size_t at = 0;
	unsigned bad = 0;
	uint32_t count;
	struct run r;

	for (uint32_t i = 0; i < len; i++)
		at += snprintf(refs + at, sizeof(refs) - at, "%u ",
			       (uint32_t)splitmix64_below(splitmix64_next(rng), distinct));
	run_start(&r, "wtinylfu", frames, refs, "conservative=1 window_percent=25",
		  PL_SIM_RECORD);
	run_to_end(&r);
	ev = pl_sim_events(r.sim, 0, len, &count);
	for (uint32_t e = 0; e < count; e++)
		bad += ev[e].kind == PL_EV_SET && ev[e].b < ev[e].a;
	bad += run_counter(&r, "resets") != 0;
	if (bad)
		printf("    %u frames, refs \"%s\": %u estimates fell\n", frames, refs, bad);
	run_free(&r);
	return bad;
}

TEST(wtinylfu_minimal_increment_peek_at_the_first_eviction_takes_back_what_it_counted)
{
	CHECK_EQ(random_traces_failing(300, 14, estimates_falling), 0);
}

TEST(mglru_ages_into_new_generations_and_evicts_from_the_oldest)
{
	struct run r;

	/* access=mapped, 3 frames.  Faults enter gen(max_seq) with the
	 * accessed bit set; min_seq 0, max_seq 1 at the start. */
	run_start(&r, "mglru", 3, "1 2 3 1 4 5 1 2 6 1", NULL, 0);
	for (int i = 0; i < 2; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0:; gen1: 2(seq=1,young=1) 1(seq=1,young=1); "
		     "gen2:; gen3:; shadow:");
	/* 3 fills memory: with 2 generations the aging runs (the walk clears
	 * the accessed bits; max_seq 2), and again as the oldest generation
	 * holds under 1/4 of the pages (max_seq 3); then min_seq passes the
	 * empty generation 0. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0:; gen1: 3(seq=1) 2(seq=1) 1(seq=1); gen2:; gen3:; "
		     "shadow:");
	CHECK_EQ(run_counter(&r, "agings"), 2);
	CHECK_EQ(run_counter(&r, "min_seq"), 1);
	CHECK_EQ(run_counter(&r, "max_seq"), 3);
	/* A hit on 1, the next victim: young again, so the look-around
	 * promotes it to the youngest generation at once. */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0:; gen1: 3(seq=1) 2(seq=1); gen2:; gen3: 1(seq=3); "
		     "shadow:");
	CHECK_EQ(run_counter(&r, "activated"), 1);
	/* 4 evicts 2 (the oldest generation's tail; its shadow keeps min_seq
	 * 1) and enters gen3, which now holds 2 of 3 pages: the aging runs
	 * (4's bit cleared; max_seq 4 opens gen0). */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0:; gen1: 3(seq=1); gen2:; gen3: 4(seq=3) 1(seq=3); "
		     "shadow: 2(seq=1)");
	CHECK_EQ(run_counter(&r, "max_seq"), 4);
	/* 5 evicts 3 and enters gen0 (seq 4); min_seq moves to 3 (only 2
	 * generations left, so the aging runs: max_seq 5). */
	run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0: 5(seq=4); gen1:; gen2:; gen3: 4(seq=3) 1(seq=3); "
		     "shadow: 3(seq=1) 2(seq=1)");
	CHECK_EQ(run_counter(&r, "min_seq"), 3);
	/* 1 is the next victim and is used: promoted to gen(5); 2's fault
	 * evicts 4 and is no refault (min_seq moved since 2 left); 6 evicts
	 * 5; the last use of 1 promotes it again. */
	run_to_end(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0:; gen1: 2(seq=5); gen2: 6(seq=6); gen3: 1(seq=7); "
		     "shadow: 5(seq=4) 4(seq=3) 3(seq=1)");
	CHECK_EQ(run_counter(&r, "refaults"), 0);
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 7);
	run_free(&r);
}

TEST(mglru_protects_a_tier_once_its_refaults_exceed_tier_0s)
{
	const char *refs = "1 1 1 2 3 1 4 1 5 6 7 7 7 8 9";
	struct run r;

	/* access=fd, 2 frames, min_batch=1 so that one refault counts.  Faults
	 * enter the oldest generation; each access through a file descriptor
	 * raises referenced, then refs.  1 is used 3 times (refs 2: tier 2)
	 * but every tier still has fewer than min_batch refaults, so tier_idx
	 * is 3 and nothing is protected: 3's fault evicts 1. */
	run_start(&r, "mglru", 2, refs, "access=fd min_batch=1", 0);
	for (int i = 0; i < 5; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0: 3(referenced=1) 2(referenced=1); gen1:; gen2:; "
		     "gen3:; shadow: 1(refs=2)");
	CHECK_EQ(run_counter(&r, "tier_idx"), 3);
	/* 1 comes back while min_seq is still 0: a refault in tier 2.  By
	 * 5's fault tier 0 has 2 evictions and no refault, tier 2 one of each:
	 * 1 x (2 + 1) x 1 > (0 + 1) x 1 x 2, so tier_idx drops to 1. */
	for (int i = 0; i < 5; i++)
		run_step(&r);
	CHECK_EQ(run_counter(&r, "refaults"), 1);
	CHECK_EQ(run_counter(&r, "tier_idx"), 1);
	/* 7 used 3 times reaches tier 2 > tier_idx: at 8's fault it is
	 * protected to the next generation (refs cleared), 8 is evicted next. */
	run_to_end(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0: 9(referenced=1); gen1: 7(seq=1); gen2:; gen3:; "
		     "shadow: 8 6");
	CHECK_EQ(run_counter(&r, "protected"), 1);
	run_free(&r);
	/* With Linux's MIN_LRU_BATCH (64) one refault proves nothing: 7 goes
	 * (the shadow list keeps the latest `frames` entries). */
	run_start(&r, "mglru", 2, refs, "access=fd", 0);
	run_to_end(&r);
	CHECK_STR_EQ(run_describe(&r), "gen0: 9(referenced=1) 8(referenced=1); gen1:; gen2:; "
		     "gen3:; shadow: 7(refs=2) 6");
	CHECK_EQ(run_counter(&r, "protected"), 0);
	run_free(&r);
}

/*
 * A reference string of n references for a clock of m frames, by shape:
 * 0, a hot loop over m - 8 pages with a new page after every 4th
 * reference (few test pages, far apart: the case a walking HAND_test is
 * feared for); 1, a stream of new pages each used again about 1.5 m
 * references later (non-resident pages hit during their test period);
 * 2, uniform over 3 m pages.
 */
static const char *clockpro_shape(unsigned shape, uint32_t m, uint32_t n, uint64_t *rng)
{
	static char refs[20000 * 8];
	size_t at = 0;
	uint32_t fresh = 1000000;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t page;

		if (shape == 0)
			page = i % 5 == 4 ? fresh++ : 1 + i % (m - 8);
		else if (shape == 1)
			page = i % 2 ? fresh++ : fresh - (uint32_t)(3 * m / 4);
		else
			page = 1 + (uint32_t)(splitmix64_next(rng) % (3 * m));
		at += (size_t)snprintf(refs + at, sizeof(refs) - at, "%u ", page);
	}
	return refs;
}

TEST(clockpro_test_hand_takes_amortized_constant_steps_per_fault)
{
	uint64_t rng = 14;
	uint64_t steps_seen = 0;

	/* A lap of HAND_test passes at most 2m + 1 entries (and those inserted
	 * meanwhile) and retires more than m non-resident pages, so its steps
	 * are at most 3 x faults + 2m + 1 (clockpro.c's header). */
	for (unsigned shape = 0; shape < 3; shape++) {
		for (uint32_t m = 16; m <= 256; m *= 4) {
			struct run r;
			uint64_t steps, faults;

			run_start(&r, "clockpro", m, clockpro_shape(shape, m, 20000, &rng), NULL, 0);
			run_to_end(&r);
			steps = run_counter(&r, "test_hand_steps");
			faults = pl_sim_stats(r.sim)->misses;
			CHECK(steps <= 3 * faults + 2 * m + 1);
			steps_seen += steps;
			run_free(&r);
		}
	}
	CHECK(steps_seen > 0);	/* HAND_test did run */
}

TEST(lecar_lowers_the_weight_of_the_expert_whose_victim_faults_again)
{
	struct run r1, r2;
	const char *by_lru = "cache: 3(freq=1) 2(freq=1); h_lru: 1; h_lfu:; w_lru=500; w_lfu=500";
	const char *by_lfu = "cache: 3(freq=1) 1(freq=2); h_lru:; h_lfu: 2; w_lru=500; w_lfu=500";
	bool lru_chose;

	/* c = 2.  1 is used twice, 2 once: at the fault on 3 LRU proposes 1
	 * (least recent), LFU proposes 2 (least frequent); a draw against
	 * w_lru = 0.5 picks one, remembered in that expert's history. */
	run_start(&r1, "lecar", 2, "1 1 2 3", NULL, 0);
	run_to_end(&r1);
	lru_chose = !strcmp(run_describe(&r1), by_lru);
	CHECK(lru_chose || !strcmp(run_describe(&r1), by_lfu));
	/* The victim faults one reference later (t = 1): its expert's weight
	 * becomes 0.5 exp(-0.45 x 0.005^(1/2)) / (that + 0.5) = 0.492. */
	run_start(&r2, "lecar", 2, lru_chose ? "1 1 2 3 1" : "1 1 2 3 2", NULL, 0);
	run_to_end(&r2);
	CHECK_EQ(run_counter(&r2, lru_chose ? "w_lru_permille" : "w_lfu_permille"), 492);
	CHECK_EQ(run_counter(&r2, lru_chose ? "w_lfu_permille" : "w_lru_permille"), 508);
	CHECK_EQ(run_counter(&r2, lru_chose ? "lru_regrets" : "lfu_regrets"), 1);
	/* The snapshot shows the weights as variables, in thousandths. */
	CHECK(strstr(run_describe(&r2), lru_chose ? "w_lru=492; w_lfu=508" :
						    "w_lru=508; w_lfu=492") != NULL);
	run_free(&r1);
	run_free(&r2);
}

/* ------------------------------------------------- naive references */

#define TRACES 3000
#define MAX_C 10
#define MAX_LIST (4 * MAX_C + 4)
#define MAX_REFS 300

/* A list as an array, most recent first. */
struct alist {
	uint32_t n;
	uint32_t page[MAX_LIST];
};

static int find(const struct alist *l, uint32_t page)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->page[i] == page)
			return (int)i;
	return -1;
}

static void drop_at(struct alist *l, int i)
{
	memmove(&l->page[i], &l->page[i + 1], (l->n - (uint32_t)i - 1) * sizeof(l->page[0]));
	l->n--;
}

static void add_mru(struct alist *l, uint32_t page)
{
	memmove(&l->page[1], &l->page[0], l->n * sizeof(l->page[0]));
	l->page[0] = page;
	l->n++;
}

static uint32_t take_lru(struct alist *l)
{
	return l->page[--l->n];
}

static void describe_list(char *out, size_t size, const char *name, const struct alist *l,
			  const struct pl_trace *t, bool last)
{
	size_t len = strlen(out);

	snprintf(out + len, size - len, "%s:", name);
	for (uint32_t i = 0; i < l->n; i++) {
		len = strlen(out);
		snprintf(out + len, size - len, " %llu", (unsigned long long)t->number[l->page[i]]);
	}
	if (!last) {
		len = strlen(out);
		snprintf(out + len, size - len, "; ");
	}
}

/* ARC as in Megiddo and Modha's Fig. 4, for a cache of c pages. */
struct naive_arc {
	uint32_t c;
	double p;
	struct alist t1, t2, b1, b2;
};

static void naive_arc_replace(struct naive_arc *a, bool x_in_b2)
{
	/* The paper's REPLACE; T2 cannot be empty when T1's tail is not the
	 * choice unless p = c, which the paper leaves open: take T1 then. */
	if ((a->t1.n >= 1 && ((x_in_b2 && a->t1.n == a->p) || a->t1.n > a->p)) || a->t2.n == 0)
		add_mru(&a->b1, take_lru(&a->t1));
	else
		add_mru(&a->b2, take_lru(&a->t2));
}

/* Returns whether x hit. */
static bool naive_arc_ref(struct naive_arc *a, uint32_t x)
{
	int i;
	double d;

	if ((i = find(&a->t1, x)) >= 0 || (i = find(&a->t2, x)) >= 0) {	/* Case I */
		drop_at(find(&a->t1, x) >= 0 ? &a->t1 : &a->t2, i);
		add_mru(&a->t2, x);
		return true;
	}
	if ((i = find(&a->b1, x)) >= 0) {					/* Case II */
		d = a->b1.n >= a->b2.n ? 1 : (double)a->b2.n / a->b1.n;
		a->p = a->p + d < a->c ? a->p + d : a->c;
		if (a->t1.n + a->t2.n == a->c)
			naive_arc_replace(a, false);
		drop_at(&a->b1, find(&a->b1, x));
		add_mru(&a->t2, x);
		return false;
	}
	if ((i = find(&a->b2, x)) >= 0) {					/* Case III */
		d = a->b2.n >= a->b1.n ? 1 : (double)a->b1.n / a->b2.n;
		a->p = a->p - d > 0 ? a->p - d : 0;
		if (a->t1.n + a->t2.n == a->c)
			naive_arc_replace(a, true);
		drop_at(&a->b2, find(&a->b2, x));
		add_mru(&a->t2, x);
		return false;
	}
	/* Case IV: evictions only with the cache full (demand paging). */
	if (a->t1.n + a->t2.n == a->c) {
		if (a->t1.n + a->b1.n == a->c) {
			if (a->t1.n < a->c) {
				take_lru(&a->b1);
				naive_arc_replace(a, false);
			} else {
				take_lru(&a->t1);
			}
		} else {
			if (a->t1.n + a->t2.n + a->b1.n + a->b2.n >= 2 * a->c && a->b2.n)
				take_lru(&a->b2);
			naive_arc_replace(a, false);
		}
	}
	add_mru(&a->t1, x);
	return false;
}

/* 2Q as in Johnson and Shasha's Section 2.1 (the full version). */
struct naive_twoq {
	uint32_t kin, kout;
	uint32_t c;
	struct alist a1in, am, a1out;
};

static bool naive_twoq_ref(struct naive_twoq *q, uint32_t x)
{
	int i;
	bool ghost;

	if ((i = find(&q->am, x)) >= 0) {
		drop_at(&q->am, i);
		add_mru(&q->am, x);
		return true;
	}
	if (find(&q->a1in, x) >= 0)
		return true;
	ghost = (i = find(&q->a1out, x)) >= 0;
	if (ghost)
		drop_at(&q->a1out, i);
	if (q->a1in.n + q->am.n == q->c) {	/* reclaimfor(x) */
		if (q->a1in.n > q->kin || q->am.n == 0) {
			uint32_t y = take_lru(&q->a1in);

			if (q->kout) {
				if (q->a1out.n == q->kout)
					take_lru(&q->a1out);
				add_mru(&q->a1out, y);
			}
		} else {
			take_lru(&q->am);
		}
	}
	add_mru(ghost ? &q->am : &q->a1in, x);
	return false;
}

/* CAR as in Bansal and Modha's Fig. 2.  t1 and t2 hold clocks from the
 * hand (index 0, the head) to the tail; b1 and b2 most recent first. */
struct naive_car {
	uint32_t c;
	double p;
	struct alist t1, t2, b1, b2;
	bool ref[64 * MAX_C];
};

static void add_tail(struct alist *l, uint32_t page)
{
	l->page[l->n++] = page;
}

static uint32_t take_head(struct alist *l)
{
	uint32_t page = l->page[0];

	drop_at(l, 0);
	return page;
}

static void naive_car_replace(struct naive_car *a)
{
	for (;;) {
		if (a->t1.n >= (a->p > 1 ? a->p : 1)) {
			uint32_t head = take_head(&a->t1);

			if (!a->ref[head]) {
				add_mru(&a->b1, head);
				return;
			}
			a->ref[head] = false;
			add_tail(&a->t2, head);
		} else {
			uint32_t head = take_head(&a->t2);

			if (!a->ref[head]) {
				add_mru(&a->b2, head);
				return;
			}
			a->ref[head] = false;
			add_tail(&a->t2, head);
		}
	}
}

static bool naive_car_ref(struct naive_car *a, uint32_t x)
{
	bool in_b1 = find(&a->b1, x) >= 0, in_b2 = find(&a->b2, x) >= 0;

	if (find(&a->t1, x) >= 0 || find(&a->t2, x) >= 0) {
		a->ref[x] = true;
		return true;
	}
	if (a->t1.n + a->t2.n == a->c) {
		naive_car_replace(a);
		if (!in_b1 && !in_b2 && a->t1.n + a->b1.n == a->c)
			take_lru(&a->b1);
		else if (a->t1.n + a->t2.n + a->b1.n + a->b2.n == 2 * a->c && !in_b1 && !in_b2)
			take_lru(&a->b2);
	}
	if (!in_b1 && !in_b2) {
		add_tail(&a->t1, x);
	} else if (in_b1) {
		double d = a->b2.n > a->b1.n ? (double)a->b2.n / a->b1.n : 1;

		a->p = a->p + d < a->c ? a->p + d : a->c;
		drop_at(&a->b1, find(&a->b1, x));
		add_tail(&a->t2, x);
	} else {
		double d = a->b1.n > a->b2.n ? (double)a->b1.n / a->b2.n : 1;

		a->p = a->p - d > 0 ? a->p - d : 0;
		drop_at(&a->b2, find(&a->b2, x));
		add_tail(&a->t2, x);
	}
	a->ref[x] = false;
	return false;
}

/*
 * CLOCK-Pro as in Jiang, Chen and Zhang's Section 3, with the choices
 * clockpro.c's header names: the clock as an array from HAND_hot (index
 * 0) to the head (where pages enter); HAND_hot passing a page moves it to
 * the end; the other hands are indices, and a hand on an entry that leaves
 * moves to the next one.
 */
struct naive_clockpro {
	uint32_t c, mc, mc_max, stamp, n, cold_hand, test_hand;
	struct cp_entry {
		uint32_t page, order;
		bool hot, test, ref, resident;
	} e[MAX_LIST];
};

static uint32_t cp_count(const struct naive_clockpro *a, bool resident, bool hot)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < a->n; i++)
		k += a->e[i].resident == resident && (!resident || a->e[i].hot == hot);
	return k;
}

static void cp_hand_after_removal(uint32_t *hand, uint32_t i, uint32_t n)
{
	if (*hand > i)
		(*hand)--;
	if (*hand >= n)
		*hand = 0;
}

static void cp_remove(struct naive_clockpro *a, uint32_t i)
{
	memmove(&a->e[i], &a->e[i + 1], (a->n - i - 1) * sizeof(a->e[0]));
	a->n--;
	cp_hand_after_removal(&a->cold_hand, i, a->n);
	cp_hand_after_removal(&a->test_hand, i, a->n);
}

static void cp_add_at_head(struct naive_clockpro *a, uint32_t page, bool hot)
{
	a->e[a->n++] = (struct cp_entry){ .page = page, .order = ++a->stamp, .hot = hot,
					  .test = !hot, .resident = true };
}

static void cp_pass_hot_hand(struct naive_clockpro *a)
{
	struct cp_entry first = a->e[0];

	memmove(&a->e[0], &a->e[1], (a->n - 1) * sizeof(a->e[0]));
	first.order = ++a->stamp;
	a->e[a->n - 1] = first;
	a->cold_hand = a->cold_hand ? a->cold_hand - 1 : a->n - 1;
	a->test_hand = a->test_hand ? a->test_hand - 1 : a->n - 1;
}

/* A test period ends without a reuse; returns whether the entry left. */
static bool cp_end_test(struct naive_clockpro *a, uint32_t i)
{
	a->e[i].test = false;
	if (a->mc > 1)
		a->mc--;
	if (a->e[i].resident)
		return false;
	cp_remove(a, i);
	return true;
}

static void cp_run_hot_hand(struct naive_clockpro *a)
{
	for (;;) {
		struct cp_entry *e = &a->e[0];

		if (e->hot && !e->ref) {
			e->hot = false;
			cp_pass_hot_hand(a);
			return;
		}
		if (e->hot)
			e->ref = false;
		else if (e->test && cp_end_test(a, 0))
			continue;
		cp_pass_hot_hand(a);
	}
}

static void cp_promote(struct naive_clockpro *a)
{
	if (a->mc < a->mc_max)
		a->mc++;
}

static int cp_find(const struct naive_clockpro *a, uint32_t page)
{
	for (uint32_t i = 0; i < a->n; i++)
		if (a->e[i].page == page)
			return (int)i;
	return -1;
}

static void cp_replace(struct naive_clockpro *a)
{
	uint32_t i;

	for (;;) {
		struct cp_entry *e = &a->e[a->cold_hand];

		if (!e->resident || e->hot) {
			a->cold_hand = (a->cold_hand + 1) % a->n;
			continue;
		}
		if (!e->ref)
			break;
		e->ref = false;
		a->cold_hand = (a->cold_hand + 1) % a->n;
		if (!e->test) {
			e->test = true;
			continue;
		}
		e->hot = true;
		e->test = false;
		cp_promote(a);
		if (cp_count(a, true, false) == 0)
			cp_run_hot_hand(a);
	}
	i = a->cold_hand;
	a->e[i].resident = false;
	if (a->e[i].test)
		a->cold_hand = (i + 1) % a->n;
	else
		cp_remove(a, i);
}

static bool naive_clockpro_ref(struct naive_clockpro *a, uint32_t x)
{
	int i = cp_find(a, x);

	if (i >= 0 && a->e[i].resident) {
		a->e[i].ref = true;
		return true;
	}
	if (cp_count(a, true, true) + cp_count(a, true, false) == a->c)
		cp_replace(a);
	i = cp_find(a, x);
	if (i >= 0) {
		cp_remove(a, (uint32_t)i);
		cp_add_at_head(a, x, true);
		cp_promote(a);
	} else {
		cp_add_at_head(a, x, false);
	}
	while (cp_count(a, true, true) > a->c - a->mc)
		cp_run_hot_hand(a);
	while (cp_count(a, false, false) > a->c) {
		uint32_t t = a->test_hand;

		a->test_hand = (t + 1) % a->n;
		if (!a->e[t].hot && a->e[t].test)
			cp_end_test(a, t);
	}
	return false;
}

static void random_trace(uint64_t *rng, struct pl_trace *t, uint32_t c)
{
	uint32_t n = 20 + (uint32_t)(splitmix64_next(rng) % (MAX_REFS - 20));
	uint32_t pages = c + 2 + (uint32_t)(splitmix64_next(rng) % (3 * c + 2));
	uint32_t hot = 1 + (uint32_t)(splitmix64_next(rng) % c);

	pl_trace_init(t);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t r = splitmix64_next(rng);
		uint32_t page = r % 2 ? (uint32_t)(r >> 8) % hot : (uint32_t)(r >> 8) % pages;

		if (pl_trace_add(t, page, 0) == PL_NONE)
			test_abort("out of memory");
	}
}

static const char *trace_text(const struct pl_trace *t)
{
	static char text[MAX_REFS * 4];
	size_t len = 0;

	text[0] = 0;
	for (uint32_t i = 0; i < t->n && len + 8 < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%llu", i ? " " : "",
					(unsigned long long)t->number[t->page[i]]);
	return text;
}

/*
 * Runs `policy` and the reference `ref(model, page)` over random traces:
 * every hit and miss must agree, and at the end the policy's structure
 * must read as `describe(model)`.
 */
static void compare_with_reference(const char *policy, size_t model_size,
				   void (*init)(void *model, uint32_t c),
				   bool (*ref)(void *model, uint32_t page),
				   void (*describe)(const void *model, const struct pl_trace *t,
						    char *out, size_t size))
{
	const struct pl_policy_ops *ops = pl_policy_find(policy);
	uint64_t rng = 14;
	unsigned reported = 0;
	static union {
		struct naive_arc arc;
		struct naive_twoq twoq;
		struct naive_car car;
		struct naive_clockpro clockpro;
	} model;

	CHECK(model_size <= sizeof(model));
	for (int k = 0; k < TRACES && reported < 3; k++) {
		uint32_t c = 1 + (uint32_t)(splitmix64_next(&rng) % MAX_C);
		struct pl_trace t;
		struct pl_error err;
		struct pl_snapshot snap;
		struct pl_sim *sim;
		char want[2048] = "";

		random_trace(&rng, &t, c);
		memset(&model, 0, sizeof(model));
		init(&model, c);
		sim = pl_sim_create(ops, c, NULL, &t, 0, 0, &err);
		if (!sim)
			test_abort("%s: %s", policy, err.msg);
		for (uint32_t i = 0; i < t.n; i++) {
			uint64_t hits = pl_sim_stats(sim)->hits;
			bool model_hit = ref(&model, t.page[i]);

			if (!pl_sim_step(sim))
				test_abort("%s: %s", policy, pl_sim_error(sim));
			if ((pl_sim_stats(sim)->hits > hits) != model_hit) {
				printf("    %s, %u frames, step %u (page %llu): %s, the paper's "
				       "rules say %s\n      trace: %s\n", policy, c, i,
				       (unsigned long long)t.number[t.page[i]],
				       model_hit ? "miss" : "hit", model_hit ? "hit" : "miss",
				       trace_text(&t));
				reported++;
				break;
			}
		}
		describe(&model, &t, want, sizeof(want));
		pl_snapshot_init(&snap, ops);
		if (pl_sim_snapshot(sim, &snap))
			test_abort("snapshot failed");
		if (!reported && strcmp(describe_snapshot(ops, &t, &snap), want)) {
			printf("    %s, %u frames: ends as '%s', the paper's rules give '%s'\n"
			       "      trace: %s\n", policy, c, describe_snapshot(ops, &t, &snap),
			       want, trace_text(&t));
			reported++;
		}
		pl_snapshot_free(&snap);
		pl_sim_destroy(sim);
		pl_trace_free(&t);
	}
	CHECK_EQ(reported, 0);
}

static void arc_init(void *model, uint32_t c)
{
	((struct naive_arc *)model)->c = c;
}

static bool arc_ref(void *model, uint32_t page)
{
	return naive_arc_ref(model, page);
}

static void arc_describe(const void *model, const struct pl_trace *t, char *out, size_t size)
{
	const struct naive_arc *a = model;
	size_t len;

	describe_list(out, size, "t1", &a->t1, t, false);
	describe_list(out, size, "t2", &a->t2, t, false);
	describe_list(out, size, "b1", &a->b1, t, false);
	describe_list(out, size, "b2", &a->b2, t, false);
	len = strlen(out);
	snprintf(out + len, size - len, "p=%d", (int)a->p);
}

static void twoq_init(void *model, uint32_t c)
{
	struct naive_twoq *q = model;

	q->c = c;
	q->kin = c / 4;		/* the paper's Kin = 25% and Kout = 50% of the buffer */
	q->kout = c / 2;
}

static bool twoq_ref(void *model, uint32_t page)
{
	return naive_twoq_ref(model, page);
}

static void twoq_describe(const void *model, const struct pl_trace *t, char *out, size_t size)
{
	const struct naive_twoq *q = model;

	describe_list(out, size, "a1in", &q->a1in, t, false);
	describe_list(out, size, "am", &q->am, t, false);
	describe_list(out, size, "a1out", &q->a1out, t, true);
}

static void car_init(void *model, uint32_t c)
{
	((struct naive_car *)model)->c = c;
}

static bool car_ref(void *model, uint32_t page)
{
	return naive_car_ref(model, page);
}

static void describe_clock(char *out, size_t size, const char *name, const struct alist *l,
			   const bool *ref, const struct pl_trace *t)
{
	size_t len = strlen(out);

	snprintf(out + len, size - len, "%s:", name);
	for (uint32_t i = 0; i < l->n; i++) {
		len = strlen(out);
		snprintf(out + len, size - len, " %llu%s", (unsigned long long)t->number[l->page[i]],
			 ref[l->page[i]] ? "(referenced=1)" : "");
	}
	len = strlen(out);
	snprintf(out + len, size - len, "; ");
}

static void car_describe(const void *model, const struct pl_trace *t, char *out, size_t size)
{
	const struct naive_car *a = model;
	size_t len;

	describe_clock(out, size, "t1", &a->t1, a->ref, t);
	describe_clock(out, size, "t2", &a->t2, a->ref, t);
	describe_list(out, size, "b1", &a->b1, t, false);
	describe_list(out, size, "b2", &a->b2, t, false);
	len = strlen(out);
	snprintf(out + len, size - len, "p=%d", (int)a->p);
}

TEST(car_follows_the_papers_pseudocode_on_3000_random_traces)
{
	compare_with_reference("car", sizeof(struct naive_car), car_init, car_ref, car_describe);
}

static void clockpro_init(void *model, uint32_t c)
{
	struct naive_clockpro *a = model;

	a->c = c;
	a->mc_max = c > 1 ? c - 1 : 1;
	a->mc = c / 100 > 1 ? c / 100 : 1;
}

static bool clockpro_ref(void *model, uint32_t page)
{
	return naive_clockpro_ref(model, page);
}

static void describe_entries(char *out, size_t size, const struct naive_clockpro *a,
			     bool resident, const struct pl_trace *t)
{
	size_t len = strlen(out);

	snprintf(out + len, size - len, "%s:", resident ? "clock" : "test");
	for (uint32_t i = 0; i < a->n; i++) {
		const struct cp_entry *e = &a->e[i];

		if (e->resident != resident)
			continue;
		len = strlen(out);
		snprintf(out + len, size - len, " %llu(%s%s%sorder=%u)",
			 (unsigned long long)t->number[e->page], e->hot ? "hot=1," : "",
			 e->test ? "test=1," : "", e->ref ? "referenced=1," : "", e->order);
	}
	len = strlen(out);
	snprintf(out + len, size - len, "; ");
}

static void clockpro_describe(const void *model, const struct pl_trace *t, char *out,
			      size_t size)
{
	const struct naive_clockpro *a = model;
	size_t len;

	describe_entries(out, size, a, true, t);
	describe_entries(out, size, a, false, t);
	len = strlen(out);
	snprintf(out + len, size - len, "hand_hot=0; hand_cold=%u; hand_test=%u",
		 a->n ? a->cold_hand : 0, a->n ? a->test_hand : 0);
}

TEST(clockpro_follows_the_papers_rules_on_3000_random_traces)
{
	compare_with_reference("clockpro", sizeof(struct naive_clockpro), clockpro_init,
			       clockpro_ref, clockpro_describe);
}

TEST(arc_follows_the_papers_pseudocode_on_3000_random_traces)
{
	compare_with_reference("arc", sizeof(struct naive_arc), arc_init, arc_ref, arc_describe);
}

TEST(twoq_follows_the_papers_pseudocode_on_3000_random_traces)
{
	compare_with_reference("twoq", sizeof(struct naive_twoq), twoq_init, twoq_ref,
			       twoq_describe);
}

int main(void)
{
	return run_tests();
}
