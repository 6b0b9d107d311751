/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_rrip.c - RRIP (srrip, srrip_fp, brrip, drrip): seed 000's Figure 2
 * as a golden trace, each static variant against a deliberately naive
 * reference implementation on thousands of random traces, drrip's set
 * dueling on a hand-worked trace, and drrip with PSEL pinned against srrip
 * and brrip.
 *
 * Frames are written the way the figure draws them, left to right, each
 * page with its RRPV after an underscore ("a1_2"), and an empty frame as
 * the figure's invalid block "I_3" (an empty frame counts as distant).
 */
#include <string.h>

#include "check.h"
#include "splitmix64.h"
#include "support.h"

/* ------------------------------------------------------------ Figure 2 */

/*
 * Seed 000 (Singer 2017), Figure 2, taken from Figure 3 of Jaleel et al.,
 * ISCA 2010: 2-bit SRRIP with hit promotion, 4 blocks.  Blocks a1 a2 are
 * pages 1 2; b1 .. b4 are pages 11 .. 14.
 */
static const char *figure_name(uint64_t number)
{
	switch (number) {
	case 1: return "a1";
	case 2: return "a2";
	case 11: return "b1";
	case 12: return "b2";
	case 13: return "b3";
	case 14: return "b4";
	}
	return "?";
}

/* The frames row as the figure draws it: "a1_2 a2_0 I_3 I_3". */
static const char *figure_row(const struct run *r, uint32_t frames)
{
	static char row[256];
	struct pl_snapshot s;
	size_t len = 0;

	pl_snapshot_init(&s, r->ops);
	if (pl_sim_snapshot(r->sim, &s))
		test_abort("no snapshot");
	row[0] = 0;
	for (uint32_t i = 0; i < frames; i++) {
		if (i < s.total)
			len += snprintf(row + len, sizeof(row) - len, "%s%s_%d", i ? " " : "",
					figure_name(r->trace.number[s.page[i]]), s.value[i]);
		else
			len += snprintf(row + len, sizeof(row) - len, "%sI_3", i ? " " : "");
	}
	pl_snapshot_free(&s);
	return row;
}

TEST(srrip_reproduces_seed_000_figure_2_reference_by_reference)
{
	static const struct {
		const char *outcome;
		const char *row;
	} figure[] = {
		/* a1 */ { "miss", "a1_2 I_3 I_3 I_3" },
		/* a2 */ { "miss", "a1_2 a2_2 I_3 I_3" },
		/* a2 */ { "hit", "a1_2 a2_0 I_3 I_3" },
		/* a1 */ { "hit", "a1_0 a2_0 I_3 I_3" },
		/* b1 */ { "miss", "a1_0 a2_0 b1_2 I_3" },
		/* b2 */ { "miss", "a1_0 a2_0 b1_2 b2_2" },
		/* b3 */ { "miss", "a1_1 a2_1 b3_2 b2_3" },
		/* b4 */ { "miss", "a1_1 a2_1 b3_2 b4_2" },
		/* a1 */ { "hit", "a1_0 a2_1 b3_2 b4_2" },
		/* a2 */ { "hit", "a1_0 a2_0 b3_2 b4_2" },
	};
	struct run r;
	uint64_t hits = 0;

	run_start(&r, "srrip", 4, "1 2 2 1 11 12 13 14 1 2", "rrpv_bits=2", 0);
	for (unsigned i = 0; i < sizeof(figure) / sizeof(figure[0]); i++) {
		run_step(&r);
		bool hit = pl_sim_stats(r.sim)->hits > hits;

		hits = pl_sim_stats(r.sim)->hits;
		CHECK_STR_EQ(hit ? "hit" : "miss", figure[i].outcome);
		CHECK_STR_EQ(figure_row(&r, 4), figure[i].row);
	}
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 6);
	CHECK_EQ(run_counter(&r, "aging_rounds"), 1);
	run_free(&r);
}

/* ------------------------------------------------- the other variants */

TEST(srrip_fp_steps_the_rrpv_down_one_hit_at_a_time)
{
	CHECK_STR_EQ(final_describe("srrip_fp", 4, "1 2 2 2 1", NULL),
		     "frames: 1(rrpv=1) 2");
	CHECK_STR_EQ(final_describe("srrip", 4, "1 2 2 2 1", NULL), "frames: 1 2");
}

TEST(brrip_inserts_every_32nd_page_long_and_the_rest_distant)
{
	char refs[64 * 4] = "";
	size_t len = 0;

	for (int page = 1; page <= 64; page++)
		len += snprintf(refs + len, sizeof(refs) - len, "%d ", page);
	CHECK_EQ(final_counter("brrip", 4, refs, NULL, "long_insertions"), 2);
	CHECK_EQ(final_counter("brrip", 4, refs, NULL, "distant_insertions"), 62);
	CHECK_STR_EQ(final_describe("brrip", 2, "1 2 3", "long_every=2"),
		     "frames: 3(rrpv=3) 2(rrpv=2)");
}

TEST(brrip_keeps_a_reused_working_set_through_a_scan_that_washes_out_srrip)
{
	/* pages 1-3 reused, then a scan of 8 new pages, then 1-3 again */
	const char *refs = "1 2 3 1 2 3 101 102 103 104 105 106 107 108 1 2 3";

	CHECK_EQ(simulate("brrip", 4, refs, NULL).hits, 6);
	CHECK_EQ(simulate("srrip", 4, refs, NULL).hits, 3);
	CHECK_EQ(simulate("lru", 4, refs, NULL).hits, 3);
}

TEST(with_a_one_bit_rrpv_srrip_inserts_at_zero_and_ages_every_page_on_a_miss)
{
	CHECK_STR_EQ(final_describe("srrip", 3, "1 2 3 1 4", "rrpv_bits=1"),
		     "frames: 4 2(rrpv=1) 3(rrpv=1)");
}

/* ------------------------------------------- naive reference and diff */

/*
 * RRIP exactly as the figure's caption states it, with no cleverness: the
 * frames are an array; on a miss, search for the first max from the left,
 * and if there is none, increment all RRPVs and search again.
 */
#define NAIVE_FRAMES 5000

struct naive_rrip {
	uint32_t frames, used, insertions;
	int max, long_every;
	const char *variant;
	uint64_t page[NAIVE_FRAMES];
	int rrpv[NAIVE_FRAMES];
};

static int naive_find(const struct naive_rrip *n, uint64_t page)
{
	for (uint32_t i = 0; i < n->used; i++)
		if (n->page[i] == page)
			return i;
	return -1;
}

static uint32_t naive_victim_slot(struct naive_rrip *n)
{
	for (;;) {
		for (uint32_t i = 0; i < n->frames; i++)
			if (n->rrpv[i] == n->max)
				return i;
		for (uint32_t i = 0; i < n->frames; i++)
			n->rrpv[i]++;
	}
}

/* Returns whether the reference hit. */
static bool naive_reference(struct naive_rrip *n, uint64_t page)
{
	int at = naive_find(n, page);
	uint32_t slot;

	if (at >= 0) {
		if (!strcmp(n->variant, "srrip_fp"))
			n->rrpv[at] = n->rrpv[at] ? n->rrpv[at] - 1 : 0;
		else
			n->rrpv[at] = 0;
		return true;
	}
	slot = n->used < n->frames ? n->used++ : naive_victim_slot(n);
	n->page[slot] = page;
	n->insertions++;
	if (!strcmp(n->variant, "brrip") && n->insertions % n->long_every)
		n->rrpv[slot] = n->max;
	else
		n->rrpv[slot] = n->max - 1;
	return false;
}

/* Compares the simulator's frames with the naive ones; returns the mismatches. */
static unsigned compare_frames(const struct run *r, const struct naive_rrip *n)
{
	struct pl_snapshot s;
	unsigned mismatches = 0;

	pl_snapshot_init(&s, r->ops);
	pl_sim_snapshot(r->sim, &s);
	if (s.total != n->used)
		mismatches++;
	for (uint32_t i = 0; i < s.total && i < n->used; i++)
		if (r->trace.number[s.page[i]] != n->page[i] || s.value[i] != n->rrpv[i])
			mismatches++;
	pl_snapshot_free(&s);
	return mismatches;
}

/* One random trace; returns 0 when every step agreed. */
static unsigned diff_one_trace(const char *variant, uint64_t *rng)
{
	struct naive_rrip n = { .variant = variant };
	char refs[4096], params[64];
	uint64_t pages[400];
	uint32_t len = 20 + splitmix64_below(splitmix64_next(rng), 300);
	uint32_t distinct = 2 + splitmix64_below(splitmix64_next(rng), 20);
	size_t at = 0;
	unsigned bad = 0;
	uint64_t hits = 0;
	struct run r;

	n.frames = 1 + splitmix64_below(splitmix64_next(rng), 8);
	n.max = (1 << (1 + splitmix64_below(splitmix64_next(rng), 3))) - 1;
	n.long_every = 1 + splitmix64_below(splitmix64_next(rng), 5);
	for (uint32_t i = 0; i < len; i++) {
		pages[i] = splitmix64_below(splitmix64_next(rng), distinct);
		at += snprintf(refs + at, sizeof(refs) - at, "%llu ",
			       (unsigned long long)pages[i]);
	}
	if (!strcmp(variant, "brrip"))
		snprintf(params, sizeof(params), "rrpv_bits=%d long_every=%d",
			 __builtin_popcount(n.max), n.long_every);
	else
		snprintf(params, sizeof(params), "rrpv_bits=%d", __builtin_popcount(n.max));
	run_start(&r, variant, n.frames, refs, params, 0);
	for (uint32_t i = 0; i < len; i++) {
		bool naive_hit = naive_reference(&n, pages[i]);

		run_step(&r);
		bad += naive_hit != (pl_sim_stats(r.sim)->hits > hits);
		hits = pl_sim_stats(r.sim)->hits;
		bad += compare_frames(&r, &n);
	}
	if (bad)
		printf("    %s, %u frames, params \"%s\", refs \"%s\": %u mismatches\n", variant,
		       n.frames, params, refs, bad);
	run_free(&r);
	return bad;
}

static unsigned diff_many(const char *variant, unsigned traces, uint64_t seed)
{
	unsigned failed_traces = 0;

	for (unsigned i = 0; i < traces && failed_traces < 3; i++)
		failed_traces += diff_one_trace(variant, &seed) != 0;
	return failed_traces;
}

TEST(srrip_matches_the_naive_figure_2_algorithm_on_2000_random_traces)
{
	CHECK_EQ(diff_many("srrip", 2000, 1), 0);
}

TEST(srrip_fp_matches_its_naive_reference_on_2000_random_traces)
{
	CHECK_EQ(diff_many("srrip_fp", 2000, 2), 0);
}

TEST(brrip_matches_its_naive_reference_on_2000_random_traces)
{
	CHECK_EQ(diff_many("brrip", 2000, 3), 0);
}

/*
 * Thousands of frames, so the slot bitmaps have three levels (5000 slots:
 * 79 words, then 2, then 1): hit or miss at every step, all frames every
 * 500 steps and at the end.
 */
TEST(srrip_and_brrip_match_the_naive_algorithm_with_5000_frames)
{
	static const char *const variants[] = { "srrip", "brrip" };
	const uint32_t len = 40000;
	size_t size = (size_t)len * 8, at = 0;
	char *refs = malloc(size);
	uint64_t *pages = malloc(len * sizeof(*pages)), rng = 5;

	if (!refs || !pages)
		test_abort("out of memory for %u references", len);
	for (uint32_t i = 0; i < len; i++) {
		/* a skewed mix so that pages both stay and leave */
		uint32_t x = splitmix64_below(splitmix64_next(&rng), 30000);

		pages[i] = i % 3 ? x % 3000 : x;
		at += snprintf(refs + at, size - at, "%llu ", (unsigned long long)pages[i]);
	}
	for (unsigned v = 0; v < 2; v++) {
		static struct naive_rrip n;
		unsigned bad = 0;
		uint64_t hits = 0;
		struct run r;

		n = (struct naive_rrip){ .variant = variants[v], .frames = NAIVE_FRAMES,
					 .max = 3, .long_every = 32 };
		run_start(&r, variants[v], NAIVE_FRAMES, refs, NULL, 0);
		for (uint32_t i = 0; i < len; i++) {
			bool naive_hit = naive_reference(&n, pages[i]);

			run_step(&r);
			bad += naive_hit != (pl_sim_stats(r.sim)->hits > hits);
			hits = pl_sim_stats(r.sim)->hits;
			if (i % 500 == 0 || i == len - 1)
				bad += compare_frames(&r, &n);
		}
		CHECK(n.insertions > 2 * NAIVE_FRAMES);	/* memory turned over */
		CHECK_EQ(bad, 0);
		run_free(&r);
	}
	free(refs);
	free(pages);
}

/* ------------------------------------------------------------- DRRIP */

/*
 * 1 frame, leader_every = 3, psel_bits = 2 (PSEL 0 .. 3, starting at 1; followers
 * use BRRIP while PSEL > 1), 2-bit RRPVs.  Pages 10, 11, 12 are ids 0, 1,
 * 2: an SRRIP leader, a BRRIP leader and a follower.
 *   step 0  10 faults (SRRIP leader): PSEL 2; inserted at max-1 = 2.
 *   step 1  11 faults (BRRIP leader): PSEL 1; 10 evicted (aged to 3);
 *           BRRIP's first insertion is distant: 3.
 *   step 2  12 faults (follower, PSEL 1: SRRIP): 11 evicted; at 2.
 *   step 3  10 faults (SRRIP leader): PSEL 2; 12 evicted (aged); at 2.
 *   step 4  10 hits: RRPV 0.
 *   step 5  12 faults (follower, PSEL 2: BRRIP): 10 evicted (aged by 3);
 *           BRRIP's second insertion, distant: 3.
 * PSEL is in the snapshot (variable psel) after every step: 2 1 1 2 2 2.
 */
TEST(drrip_followers_switch_to_brrip_when_srrip_leaders_miss_more)
{
	const char *refs = "10 11 12 10 10 12", *params = "leader_every=3 psel_bits=2";

	CHECK_STR_EQ(final_describe("drrip", 1, refs, params), "frames: 12(rrpv=3); psel=2");
	CHECK_EQ(final_counter("drrip", 1, refs, params, "psel"), 2);
	CHECK_EQ(final_counter("drrip", 1, refs, params, "srrip_leader_misses"), 2);
	CHECK_EQ(final_counter("drrip", 1, refs, params, "brrip_leader_misses"), 1);
	CHECK_EQ(final_counter("drrip", 1, refs, params, "long_insertions"), 3);
	CHECK_EQ(final_counter("drrip", 1, refs, params, "distant_insertions"), 2);
	CHECK_EQ(final_counter("drrip", 1, refs, params, "aging_rounds"), 3);
	CHECK_STR_EQ(final_describe("drrip", 2, "10 11 12", params),
		     "frames: 10(rrpv=2,leader=1) 12(rrpv=2); psel=1");
}

/* The same trace, recorded: PSEL after each step, from the snapshot and from the events. */
TEST(drrip_shows_psel_in_the_snapshot_and_its_changes_as_events_at_every_step)
{
	static const int32_t psel[] = { 2, 1, 1, 2, 2, 2 };
	const char *params = "leader_every=3 psel_bits=2";
	struct run r;
	struct pl_snapshot replayed;
	char want[32];

	run_start(&r, "drrip", 1, "10 11 12 10 10 12", params, PL_SIM_RECORD);
	pl_snapshot_init(&replayed, pl_policy_find("drrip"));
	for (unsigned k = 0; k < 6; k++) {
		uint32_t nevents;
		const struct pl_event *ev;

		run_step(&r);
		ev = pl_sim_events(r.sim, k, k + 1, &nevents);
		for (uint32_t i = 0; i < nevents; i++)
			CHECK_EQ(pl_snapshot_apply(&replayed, &ev[i]), 0);
		snprintf(want, sizeof(want), "; psel=%d", psel[k]);
		CHECK(strstr(run_describe(&r), want) != NULL);
		CHECK_EQ(replayed.variable[0], psel[k]);
	}
	pl_snapshot_free(&replayed);
	run_free(&r);
}

/* Runs both over one random trace; returns the steps where they differ. */
static unsigned pinned_differences(const char *twin, const char *pin, uint64_t *rng)
{
	uint32_t len = 20 + splitmix64_below(splitmix64_next(rng), 300);
	uint32_t distinct = 2 + splitmix64_below(splitmix64_next(rng), 30);
	uint32_t frames = 1 + splitmix64_below(splitmix64_next(rng), 10);
	char refs[2048], drrip_params[96], twin_params[64], a[4096];
	unsigned bits = 1 + splitmix64_below(splitmix64_next(rng), 3);
	unsigned long_every = 1 + splitmix64_below(splitmix64_next(rng), 5);
	unsigned bad = 0;
	size_t at = 0;
	struct run d, t;

	for (uint32_t i = 0; i < len; i++)
		at += snprintf(refs + at, sizeof(refs) - at, "%u ",
			       (unsigned)splitmix64_below(splitmix64_next(rng), distinct));
	if (!strcmp(twin, "brrip"))
		snprintf(twin_params, sizeof(twin_params), "rrpv_bits=%u long_every=%u", bits,
			 long_every);
	else
		snprintf(twin_params, sizeof(twin_params), "rrpv_bits=%u", bits);
	snprintf(drrip_params, sizeof(drrip_params), "rrpv_bits=%u long_every=%u leader_every=4 pin=%s",
		 bits, long_every, pin);
	run_start(&d, "drrip", frames, refs, drrip_params, 0);
	run_start(&t, twin, frames, refs, twin_params, 0);
	for (uint32_t i = 0; i < len; i++) {
		run_step(&d);
		run_step(&t);
		/* the twin's structure, and drrip's PSEL held where pinned */
		snprintf(a, sizeof(a), "%s; psel=%u", run_describe(&t),
			 !strcmp(pin, "brrip") ? (1u << 10) - 1 : 0);
		bad += strcmp(a, run_describe(&d)) != 0;
	}
	if (bad)
		printf("    %u frames, drrip \"%s\" vs %s \"%s\", refs \"%s\": %u steps differ\n",
		       frames, drrip_params, twin, twin_params, refs, bad);
	run_free(&d);
	run_free(&t);
	return bad;
}

static unsigned pinned_runs_differing(const char *twin, const char *pin, unsigned traces,
				      uint64_t seed)
{
	unsigned failed = 0;

	for (unsigned i = 0; i < traces && failed < 3; i++)
		failed += pinned_differences(twin, pin, &seed) != 0;
	return failed;
}

TEST(drrip_with_psel_pinned_to_srrip_is_srrip_step_by_step_on_1000_random_traces)
{
	CHECK_EQ(pinned_runs_differing("srrip", "srrip", 1000, 21), 0);
}

TEST(drrip_with_psel_pinned_to_brrip_is_brrip_step_by_step_on_1000_random_traces)
{
	CHECK_EQ(pinned_runs_differing("brrip", "brrip", 1000, 22), 0);
}

int main(void)
{
	return run_tests();
}
