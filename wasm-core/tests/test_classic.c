/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_classic.c - golden results for the classic policies: fault counts
 * from the textbooks where the book gives them, and otherwise hand-checked
 * traces whose frames are written out step by step in the comments, so a
 * reader can redo them with pencil and paper.
 *
 * Sources
 *   [OSC]  Silberschatz, Galvin, Gagne, Operating System Concepts, 10th ed.
 *          (2018), 10.4: the reference string
 *          7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1 with 3 frames gives
 *          FIFO 15 faults (Fig. 10.12), OPT 9 (Fig. 10.14), LRU 12
 *          (Fig. 10.15); Belady's anomaly string 1 2 3 4 1 2 5 1 2 3 4 5
 *          gives FIFO 9 faults with 3 frames and 10 with 4 (Fig. 10.13).
 *   [MOS]  Tanenbaum and Bos, Modern Operating Systems, 4th ed. (2015),
 *          3.4: Fig. 3-17 (aging, six pages over five clock ticks) and the
 *          chapter 3 problem giving four pages' R and M bits for NRU.
 *   Everything else (4 frames on [OSC]'s string, CLOCK, LFU, OPT on
 *   Belady's string) is worked by hand below.
 *
 * Final frames: "frames: a b c" lists the frame table in slot order; FIFO's
 * queue is oldest first; LRU's recency list most recent first.
 */
#include "check.h"
#include "support.h"
#include "splitmix64.h"

#define OSC_STRING "7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1"
#define BELADY_STRING "1 2 3 4 1 2 5 1 2 3 4 5"

/* ------------------------------------------------------------ all of them */

TEST(every_classic_policy_runs_with_far_more_frames_than_pages_without_allocating_them)
{
	static const char *const policies[] = {
		"fifo", "lru", "clock", "opt", "random", "lfu", "nru", "aging",
	};

	for (unsigned i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		CHECK_EQ(simulate(policies[i], 4294967294u, "1 2 3 1 2 3", NULL).misses, 3);
}

/* ------------------------------------------------------ FIFO, from [OSC] */

TEST(fifo_faults_15_times_on_the_silberschatz_string_with_3_frames)
{
	CHECK_EQ(simulate("fifo", 3, OSC_STRING, NULL).misses, 15);
	CHECK_STR_EQ(final_list("fifo", 3, OSC_STRING, NULL, "queue"), "7 0 1");
}

/*
 * By hand, queue oldest first:  7 | 7 0 | 7 0 1 | 7 0 1 2 | 0 hit |
 * 3: 0 1 2 3 | 0 hit | 4: 1 2 3 4 | 2, 3 hit | 0: 2 3 4 0 | 3, 2 hit |
 * 1: 3 4 0 1 | 2: 4 0 1 2 | 0, 1 hit | 7: 0 1 2 7 | 0, 1 hit: 10 faults.
 */
TEST(fifo_faults_10_times_on_the_silberschatz_string_with_4_frames)
{
	CHECK_EQ(simulate("fifo", 4, OSC_STRING, NULL).misses, 10);
	CHECK_STR_EQ(final_list("fifo", 4, OSC_STRING, NULL, "queue"), "0 1 2 7");
}

TEST(fifo_shows_beladys_anomaly_9_faults_with_3_frames_and_10_with_4)
{
	CHECK_EQ(simulate("fifo", 3, BELADY_STRING, NULL).misses, 9);
	CHECK_EQ(simulate("fifo", 4, BELADY_STRING, NULL).misses, 10);
	CHECK_STR_EQ(final_list("fifo", 3, BELADY_STRING, NULL, "queue"), "5 3 4");
	CHECK_STR_EQ(final_list("fifo", 4, BELADY_STRING, NULL, "queue"), "2 3 4 5");
}

/* ------------------------------------------------------- LRU, from [OSC] */

TEST(lru_faults_12_times_on_the_silberschatz_string_with_3_frames)
{
	CHECK_EQ(simulate("lru", 3, OSC_STRING, NULL).misses, 12);
	CHECK_STR_EQ(final_list("lru", 3, OSC_STRING, NULL, "recency"), "1 0 7");
}

/*
 * By hand, least recent first: 7 0 1 2 (4 faults) | 0: 7 1 2 0 |
 * 3 evicts 7: 1 2 0 3 | 0: 1 2 3 0 | 4 evicts 1: 2 3 0 4 | 2 3 0 3 2 hit:
 * 4 0 3 2 | 1 evicts 4: 0 3 2 1 | 2 0 1 hit: 3 2 0 1 | 7 evicts 3 |
 * 0 1 hit: 8 faults, most recent first 1 0 7 2.
 */
TEST(lru_faults_8_times_on_the_silberschatz_string_with_4_frames)
{
	CHECK_EQ(simulate("lru", 4, OSC_STRING, NULL).misses, 8);
	CHECK_STR_EQ(final_list("lru", 4, OSC_STRING, NULL, "recency"), "1 0 7 2");
}

/* A stack algorithm: 10 faults with 3 frames, 8 with 4 (hand-checked). */
TEST(lru_shows_no_anomaly_on_beladys_string)
{
	CHECK_EQ(simulate("lru", 3, BELADY_STRING, NULL).misses, 10);
	CHECK_EQ(simulate("lru", 4, BELADY_STRING, NULL).misses, 8);
}

/* ------------------------------------------------------- OPT, from [OSC] */

/*
 * Frames by slot: 7 0 1 | 2 evicts 7 (next used last): 2 0 1 | 3 evicts 1 |
 * 4 evicts 0: 2 4 3 | 0 evicts 4 (never again): 2 0 3 | 1 evicts 3 |
 * 7 evicts 2 (never again): 7 0 1.  9 faults.
 */
TEST(opt_faults_9_times_on_the_silberschatz_string_with_3_frames)
{
	CHECK_EQ(simulate("opt", 3, OSC_STRING, NULL).misses, 9);
	CHECK_STR_EQ(final_list("opt", 3, OSC_STRING, NULL, "frames"), "7 0 1");
}

/*
 * Frames by slot: 7 0 1 2 | 3 evicts 7 (next at step 17): 3 0 1 2 |
 * 4 evicts 1 (step 13): 3 0 4 2 | 1 at step 13: 3 and 4 are never used
 * again, 4's last use (step 7) is older than 3's (step 11): 3 0 1 2 |
 * 7 at step 17: 3 and 2 never again, 3 last used first: 7 0 1 2.  8 faults.
 */
TEST(opt_faults_8_times_on_the_silberschatz_string_with_4_frames)
{
	CHECK_EQ(simulate("opt", 4, OSC_STRING, NULL).misses, 8);
	CHECK_STR_EQ(final_list("opt", 4, OSC_STRING, NULL, "frames"), "7 0 1 2");
}

/*
 * 3 frames: 1 2 3 | 4 evicts 3: 1 2 4 | 5 evicts 4: 1 2 5 | 3: 1 and 2
 * never again, 1 used longer ago: 3 2 5 | 4: 3 and 2 never again, 2 used
 * longer ago: 3 4 5.  7 faults.
 * 4 frames: 1 2 3 4 | 5 evicts 4: 1 2 3 5 | 4: 1 2 3 never again, 1 used
 * longest ago: 4 2 3 5.  6 faults.
 */
TEST(opt_faults_7_and_6_times_on_beladys_string_and_breaks_ties_by_oldest_use)
{
	CHECK_EQ(simulate("opt", 3, BELADY_STRING, NULL).misses, 7);
	CHECK_EQ(simulate("opt", 4, BELADY_STRING, NULL).misses, 6);
	CHECK_STR_EQ(final_list("opt", 3, BELADY_STRING, NULL, "frames"), "3 4 5");
	CHECK_STR_EQ(final_list("opt", 4, BELADY_STRING, NULL, "frames"), "4 2 3 5");
}

TEST(opt_shows_each_pages_next_use_and_minus_one_for_never)
{
	CHECK_STR_EQ(final_describe("opt", 3, "1 2 1 3", NULL),
		     "frames: 1(next_use=-1) 2(next_use=-1) 3(next_use=-1)");
	CHECK_STR_EQ(final_describe("opt", 2, "1 2 1 2 1", NULL),
		     "frames: 1(next_use=-1) 2(next_use=-1)");
}

/* ------------------------------------------------------------------ CLOCK */

/*
 * ref_on_load=set, frames by slot with R bits, ^ the hand:
 *  7 0 1 loaded:    ^7(1) 0(1) 1(1)
 *  2: all set, the hand clears a turn and evicts 7:  2(1) ^0(0) 1(0)
 *  0 hit:           2(1) ^0(1) 1(0)
 *  3: clears 0, evicts 1:                           ^2(1) 0(0) 3(1)
 *  0 hit; 4: all set, a turn, evicts 2:              4(1) ^0(0) 3(0)
 *  2 evicts 0:      4(1) 2(1) ^3(0)
 *  3 hit; 0: all set, evicts 3:                     ^4(0) 2(0) 0(1)
 *  3 evicts 4:      3(1) ^2(0) 0(1)
 *  2 hit; 1: all set, evicts 2:                      3(0) 1(1) ^0(0)
 *  2 evicts 0:     ^3(0) 1(1) 2(1)
 *  0 evicts 3:      0(1) ^1(1) 2(1)
 *  1 hit; 7: all set, evicts 1:                      0(0) 7(1) ^2(0)
 *  0 hit; 1 evicts 2:                               ^0(1) 7(1) 1(1)
 * 14 faults.
 */
TEST(clock_faults_14_times_on_the_silberschatz_string_when_loading_sets_the_bit)
{
	CHECK_EQ(simulate("clock", 3, OSC_STRING, NULL).misses, 14);
	CHECK_STR_EQ(final_describe("clock", 3, OSC_STRING, NULL),
		     "frames: 0(referenced=1) 7(referenced=1) 1(referenced=1); hand=0");
}

/*
 * ref_on_load=clear:
 *  7 0 1 loaded:   ^7 0 1, all 0
 *  2 evicts 7:      2 ^0 1 | 0 hit: 0(1)
 *  3: clears 0, evicts 1:  ^2 0 3 | 0 hit: 0(1)
 *  4 evicts 2:      4 ^0(1) 3 | 2: clears 0, evicts 3: ^4 0 2
 *  3 evicts 4:      3 ^0 2 | 0 3 2 hit: all set
 *  1: a turn, evicts 0:  3 1 ^2 | 2 hit: 2(1)
 *  0: clears 2, evicts 3:  0 ^1 2 | 1 hit: 1(1)
 *  7: clears 1, evicts 2: ^0 1 7 | 0 1 hit
 * 11 faults: the convention alone moves the count from 14 to 11.
 */
TEST(clock_faults_11_times_on_the_silberschatz_string_when_loading_clears_the_bit)
{
	CHECK_EQ(simulate("clock", 3, OSC_STRING, "ref_on_load=clear").misses, 11);
	CHECK_STR_EQ(final_describe("clock", 3, OSC_STRING, "ref_on_load=clear"),
		     "frames: 0(referenced=1) 1(referenced=1) 7; hand=0");
	CHECK_EQ(simulate("clock", 3, OSC_STRING, "ref_on_load=0").misses, 11);
}

TEST(clock_degenerates_to_fifo_when_every_page_is_referenced)
{
	/* Every fault finds all bits set, so the hand always evicts the oldest. */
	CHECK_EQ(simulate("clock", 3, BELADY_STRING, NULL).misses,
		 simulate("fifo", 3, BELADY_STRING, NULL).misses);
	CHECK_EQ(final_counter("clock", 3, "1 2 3 4", NULL, "second_chances"), 3);
}

TEST(clock_gives_a_referenced_page_a_second_chance)
{
	/* 1 is referenced again; 4 then passes over it and evicts 2. */
	CHECK_STR_EQ(final_describe("clock", 3, "1 2 3 1 4", "ref_on_load=clear"),
		     "frames: 1 4 3; hand=2");
	CHECK_EQ(final_counter("clock", 3, "1 2 3 1 4", "ref_on_load=clear",
			       "second_chances"), 1);
}

/* -------------------------------------------------------------------- LFU */

/*
 * Frames by slot with counts; ties go to the least recently used:
 *  7 0 1 | 2: all 1, 7 least recent: 2 0 1 | 0 hit: 0=2
 *  3: 2 and 1 at 1, 1 older: 2 0 3 | 0 hit: 0=3
 *  4 evicts 2: 4 0 3 | 2 evicts 3: 4 0 2 | 3 evicts 4: 3 0 2
 *  0 3 2 hit: 3=2 0=4 2=2 | 1: 3 and 2 at 2, 3 older: 1 0 2
 *  2 0 1 hit: 1=2 0=5 2=3 | 7 evicts 1: 7 0 2 | 0 hit: 0=6
 *  1 evicts 7: 1 0 2.  11 faults.
 */
TEST(lfu_faults_11_times_on_the_silberschatz_string_with_3_frames)
{
	CHECK_EQ(simulate("lfu", 3, OSC_STRING, NULL).misses, 11);
	CHECK_STR_EQ(final_describe("lfu", 3, OSC_STRING, NULL),
		     "frames: 1(count=1) 0(count=6) 2(count=3)");
}

TEST(lfu_forgets_a_pages_count_when_it_is_evicted)
{
	/*
	 * 1 (count 3) and 2 (count 4); 3 evicts 1 and climbs to 4; 2 and 3
	 * tie, 2 is less recent, so 1 returns in 2's slot counting 1 again.
	 */
	CHECK_STR_EQ(final_describe("lfu", 2, "1 1 1 2 2 2 2 3 3 3 3 1", NULL),
		     "frames: 3(count=4) 1(count=1)");
}

/* ----------------------------------------------------------------- Random */

TEST(splitmix64_gives_the_published_sequence_for_seed_1234567)
{
	/* Rosetta Code, "Pseudo-random numbers/Splitmix64". */
	uint64_t state = 1234567;

	CHECK(splitmix64_peek(state) == 6457827717110365317ull);
	CHECK(splitmix64_next(&state) == 6457827717110365317ull);
	CHECK(splitmix64_next(&state) == 3203168211198807973ull);
	CHECK(splitmix64_next(&state) == 9817491932198370423ull);
	CHECK(splitmix64_next(&state) == 4593380528125082431ull);
	CHECK(splitmix64_next(&state) == 16408922859458223821ull);
}

/* The victims of a run, as input page numbers: "7 0 1 ...". */
static void victims_of(char *out, size_t size, const char *policy, uint32_t frames,
		       const char *refs, const char *params)
{
	struct run r;
	const struct pl_event *ev;
	uint32_t count;
	size_t used = 0;

	out[0] = '\0';
	run_start(&r, policy, frames, refs, params, PL_SIM_RECORD);
	run_to_end(&r);
	ev = pl_sim_events(r.sim, 0, r.trace.n, &count);
	for (uint32_t i = 0; i < count && used < size; i++) {
		if (ev[i].kind == PL_EV_VICTIM)
			used += (size_t)snprintf(out + used, size - used, "%s%llu", used ? " " : "",
						 (unsigned long long)r.trace.number[ev[i].page]);
	}
	run_free(&r);
}

TEST(random_repeats_a_run_exactly_for_the_same_seed_and_differs_for_another)
{
	char first[512], again[512], other[512];
	const char *refs = OSC_STRING " " OSC_STRING " " OSC_STRING;

	victims_of(first, sizeof(first), "random", 3, refs, "seed=7");
	victims_of(again, sizeof(again), "random", 3, refs, "seed=7");
	victims_of(other, sizeof(other), "random", 3, refs, "seed=8");
	CHECK(first[0] != '\0');
	CHECK_STR_EQ(again, first);
	CHECK(strcmp(first, other) != 0);
}

/* ------------------------------------------------------------- NRU, [MOS] */

/*
 * tick_period=4, so R is cleared before steps 4 and 8.
 *  3w 0 2 1w: classes 3:{3,1}  2:{0,2}
 *  tick:      classes 1:{3,1}  0:{0,2}
 *  0 3w:      0 -> class 2, 3 -> class 3.  Now, as in [MOS]'s problem,
 *             0 is R=1 M=0, 1 is R=0 M=1, 2 is R=0 M=0, 3 is R=1 M=1,
 *             and NRU replaces page 2 (class 0): 4 takes its slot.
 *  5:         class 0 empty, class 1 {1}: 5 replaces 1.
 *  tick:      class 0 {0,4,5} (in the order they joined class 2), 1 {3}
 *  6:         replaces 0, the page longest in class 0.
 */
TEST(nru_evicts_from_the_lowest_class_the_page_longest_in_it)
{
	const char *refs = "3w 0 2 1w 0 3w 4 5 6";

	CHECK_EQ(simulate("nru", 4, "3w 0 2 1w 0 3w 4", "tick_period=4").misses, 5);
	CHECK_STR_EQ(final_list("nru", 4, "3w 0 2 1w 0 3w 4", "tick_period=4", "frames"),
		     "3 0 4 1");
	CHECK_EQ(simulate("nru", 4, refs, "tick_period=4").misses, 7);
	CHECK_STR_EQ(final_describe("nru", 4, refs, "tick_period=4"),
		     "frames: 3(modified=1) 6(referenced=1) 4 5");
	CHECK_EQ(final_counter("nru", 4, refs, "tick_period=4", "victims_class0"), 2);
	CHECK_EQ(final_counter("nru", 4, refs, "tick_period=4", "victims_class1"), 1);
	CHECK_EQ(final_counter("nru", 4, refs, "tick_period=4", "victims_class2"), 0);
}

TEST(nru_prefers_a_clean_page_among_unreferenced_ones)
{
	/* After the tick 1 (written) and 2 (read) are both R=0; 3 evicts 2. */
	CHECK_STR_EQ(final_list("nru", 2, "1w 2 3", "tick_period=2", "frames"), "1 3");
}

/*
 * 2 frames, so by default R is cleared before step 2: 1 and 2 drop to
 * class 0 in that order, 1 is referenced again, and 3 evicts 2.  Without
 * the tick both stay in class 2 and 3 evicts 1, longest there.
 */
TEST(nru_clears_the_reference_bits_once_per_frames_references_by_default)
{
	CHECK_STR_EQ(final_list("nru", 2, "1 2 1 3", NULL, "frames"), "1 3");
	CHECK_STR_EQ(final_list("nru", 2, "1 2 1 3", "tick_period=100", "frames"), "3 2");
}

/* ----------------------------------------------------------- Aging, [MOS] */

/*
 * [MOS] Fig. 3-17: six pages; the R bits at ticks 0..4 are, for pages 0..5,
 * 101011, 110010, 110101, 100010, 011000.  Four references per tick
 * interval (repeats pad the shorter ones; pages 1 and 3 first appear when
 * first referenced, which leaves their counters as in the figure).  After
 * the fifth tick the counters are, by hand, the figure's column (e):
 *   0: 01111000 = 120   1: 10110000 = 176   2: 10001000 = 136
 *   3: 00100000 =  32   4: 01011000 =  88   5: 00101000 =  40
 * Step 20 (a hit on 0) only triggers that tick; page 6 then replaces page 3,
 * the smallest counter.
 */
#define AGING_FIGURE "0 2 4 5  0 1 4 0  0 1 3 5  0 4 0 4  1 2 1 2  0"

TEST(aging_reproduces_tanenbaums_figure_of_six_counters_over_five_ticks)
{
	CHECK_STR_EQ(final_describe("aging", 6, AGING_FIGURE, "bits=8 tick_period=4"),
		     "frames: 0(referenced=1,counter=120) 2(counter=136) 4(counter=88) "
		     "5(counter=40) 1(counter=176) 3(counter=32)");
	CHECK_STR_EQ(final_list("aging", 6, AGING_FIGURE " 6", "bits=8 tick_period=4", "frames"),
		     "0 2 4 5 1 6");
}

/*
 * 2 frames, so by default a tick before steps 2 and 4: 1 and 2 reach 128;
 * 1 is referenced twice, so the next tick gives 1 192 and 2 64; 3 evicts 2.
 * Without ticks every counter stays 0 and 3 evicts 1, loaded first.
 */
TEST(aging_ticks_once_per_frames_references_by_default)
{
	CHECK_STR_EQ(final_describe("aging", 2, "1 2 1 1 2 3", NULL),
		     "frames: 1(counter=192) 3(referenced=1)");
	CHECK_STR_EQ(final_list("aging", 2, "1 2 1 1 2 3", "tick_period=100", "frames"), "3 2");
}

TEST(aging_keeps_only_n_bits_of_history)
{
	/* With 2 bits, 1's reference three ticks ago has shifted out. */
	CHECK_STR_EQ(final_describe("aging", 2, "1 2 2 2 2", "bits=2 tick_period=1"),
		     "frames: 1 2(referenced=1,counter=3)");
}

TEST(aging_evicts_a_page_loaded_since_the_tick_before_an_older_page_with_history)
{
	/*
	 * tick_period=3: after the tick before step 3, 1 2 3 have counter 128.
	 * 4 evicts 1 (ties: loaded first) and comes in with counter 0, so 5
	 * evicts 4, not 2 or 3: the weakness of loading with counter 0.
	 */
	CHECK_STR_EQ(final_list("aging", 3, "1 2 3 4 5", "tick_period=3", "frames"), "5 2 3");
}

int main(void)
{
	return run_tests();
}
