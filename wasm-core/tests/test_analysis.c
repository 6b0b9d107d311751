/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_analysis.c - the analyses of include/analysis.h against brute force:
 * a miss-ratio curve equals a separate simulation at every size, the
 * one-pass working-set figures equal the ws policy's own, W(t, tau) equals
 * a direct window count, and hand-worked traces give hand-worked numbers.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "support.h"
#include "analysis.h"
#include "splitmix64.h"

#define MAX_REFS 4000

/* A random trace of n references over `pages` pages, skewed or not. */
static void random_trace(struct pl_trace *t, uint32_t *refs, uint32_t n, uint32_t pages,
			 uint64_t *rng)
{
	bool skewed = splitmix64_next(rng) & 1;

	pl_trace_init(t);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = splitmix64_below(splitmix64_next(rng), pages);

		if (skewed)	/* the low pages far more often: real curves bend */
			p = splitmix64_below(splitmix64_next(rng), p + 1);
		refs[i] = p;
		pl_trace_add(t, p, 0);
	}
}

/* n references over `pages` pages, low pages far more often than high ones. */
static void skewed_trace(struct pl_trace *t, uint32_t n, uint32_t pages, uint64_t rng)
{
	pl_trace_init(t);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = splitmix64_below(splitmix64_next(&rng), pages);

		pl_trace_add(t, splitmix64_below(splitmix64_next(&rng), p + 1), 0);
	}
}

static void parse(struct pl_trace *t, const char *refs)
{
	struct pl_error err;

	pl_trace_init(t);
	if (pl_trace_parse_refs(t, refs, "test", &err))
		test_abort("%s", err.msg);
}

static uint64_t simulated_misses(const char *policy, const struct pl_trace *t, uint32_t frames)
{
	struct pl_error err;
	uint64_t misses;

	if (pl_mrc_simulate(pl_policy_find(policy), NULL, t, frames, &misses, &err))
		test_abort("%s", err.msg);
	return misses;
}

/* ------------------------------------------------------ stack distances */

/*
 * "1 2 3 1 2 4 1": 1, 2, 3 are first references (distance 0); the second 1
 * has 2 and 3 since it (distance 3), the second 2 has 3 and 1 (3), 4 is new,
 * the last 1 has 2 and 4 (3).  LRU misses 7 at 2 frames and 4 at 3.
 */
TEST(stack_distances_of_a_hand_worked_trace_give_lru_misses_at_every_size)
{
	struct pl_error err;
	struct pl_locality *l = pl_locality_create(0, &err);
	struct pl_trace t;
	const uint64_t *hist;
	uint32_t len;

	parse(&t, "1 2 3 1 2 4 1");
	CHECK_EQ(pl_locality_add_trace(l, &t, NULL, NULL, &err), 0);
	hist = pl_locality_stack_histogram(l, &len);
	CHECK_EQ(len, 5);
	CHECK_EQ(hist[0], 4);
	CHECK_EQ(hist[1] + hist[2] + hist[4], 0);
	CHECK_EQ(hist[3], 3);
	CHECK_EQ(pl_locality_lru_misses(l, 2), 7);
	CHECK_EQ(pl_locality_lru_misses(l, 3), 4);
	CHECK_EQ(pl_locality_lru_misses(l, 100), 4);
	pl_locality_destroy(l);
	pl_trace_free(&t);
}

/*
 * pl_mrc() against one simulation per size on `runs` random traces of up to
 * max_refs references over up to max_pages pages; returns the mismatches
 * (the first one reported).
 */
static unsigned curve_mismatches(const char *policy, unsigned runs, uint32_t max_refs,
				 uint32_t max_pages, uint64_t rng)
{
	unsigned mismatches = 0;

	for (unsigned run = 0; run < runs; run++) {
		uint32_t n = 1 + splitmix64_below(splitmix64_next(&rng), max_refs);
		uint32_t pages = 1 + splitmix64_below(splitmix64_next(&rng), max_pages);
		uint32_t refs[MAX_REFS], frames[40];
		uint64_t misses[40];
		struct pl_trace t;
		struct pl_error err;
		unsigned nsizes = 0;

		random_trace(&t, refs, n, pages, &rng);
		for (uint32_t f = 1; f <= t.npages + 1 && nsizes < 40; f += 1 + f / 4)
			frames[nsizes++] = f;
		CHECK_EQ(pl_mrc(pl_policy_find(policy), NULL, &t, frames, nsizes, misses, &err), 0);
		for (unsigned i = 0; i < nsizes; i++) {
			if (misses[i] != simulated_misses(policy, &t, frames[i]) && !mismatches++)
				check_fail(__FILE__, __LINE__, "%s run %u, %u frames: %llu misses",
					   policy, run, frames[i], (unsigned long long)misses[i]);
		}
		pl_trace_free(&t);
	}
	return mismatches;
}

TEST(the_one_pass_lru_curve_equals_a_simulation_at_every_size_on_500_random_traces)
{
	CHECK_EQ(curve_mismatches("lru", 500, MAX_REFS, 1500, 0x12c), 0);
}

TEST(the_opt_stack_curve_equals_a_simulation_of_opt_at_every_size_on_300_random_traces)
{
	CHECK_EQ(curve_mismatches("opt", 300, 1500, 200, 0x0b7), 0);
}

/*
 * 200k references over 50k pages: the positions are compacted and doubled
 * many times and most reuses are far back, so the batch path's deferred
 * counts, prefetches and per-word tree meet every case.
 */
TEST(references_added_in_batches_give_the_histogram_of_one_at_a_time)
{
	struct pl_error err;
	struct pl_locality *one = pl_locality_create(0, &err);
	struct pl_locality *batched = pl_locality_create(0, &err);
	const uint64_t *a, *b;
	uint32_t len_a, len_b, differ = 0;
	struct pl_trace t;

	skewed_trace(&t, 200000, 50000, 0x5e);
	for (uint32_t i = 0; i < t.n; i++)
		CHECK_EQ(pl_locality_add(one, t.page[i], &err), 0);
	for (uint32_t done = 0, k; done < t.n; done += k) {
		k = t.n - done < 777 ? t.n - done : 777;	/* batches of odd sizes */
		CHECK_EQ(pl_locality_add_pages(batched, t.page + done, k, &err), 0);
	}
	a = pl_locality_stack_histogram(one, &len_a);
	b = pl_locality_stack_histogram(batched, &len_b);
	CHECK_EQ(len_a, len_b);
	for (uint32_t d = 0; d < len_a && len_a == len_b; d++)
		differ += a[d] != b[d];
	CHECK_EQ(differ, 0);
	CHECK_EQ(pl_locality_lru_misses(one, 1000), simulated_misses("lru", &t, 1000));
	pl_locality_destroy(one);
	pl_locality_destroy(batched);
	pl_trace_free(&t);
}

/* Belady 1969: FIFO faults 9 times with 3 frames and 10 times with 4. */
TEST(a_per_size_curve_shows_beladys_anomaly_for_fifo)
{
	uint32_t frames[] = { 3, 4 };
	uint64_t misses[2];
	struct pl_trace t;
	struct pl_error err;

	parse(&t, "1 2 3 4 1 2 5 1 2 3 4 5");
	CHECK_EQ(pl_mrc_method_of(pl_policy_find("fifo")), PL_MRC_PER_SIZE);
	CHECK_EQ(pl_mrc(pl_policy_find("fifo"), NULL, &t, frames, 2, misses, &err), 0);
	CHECK_EQ(misses[0], 9);
	CHECK_EQ(misses[1], 10);
	pl_trace_free(&t);
}

TEST(sizes_out_of_order_are_refused_with_a_message_naming_the_size)
{
	uint32_t frames[] = { 4, 4 };
	uint64_t misses[2];
	struct pl_trace t;
	struct pl_error err;

	parse(&t, "1 2 3");
	CHECK_EQ(pl_mrc(pl_policy_find("lru"), NULL, &t, frames, 2, misses, &err), -1);
	CHECK_STR_EQ(err.msg, "analysis: frame sizes must be >= 1 and ascending (size 2 is 4)");
	pl_trace_free(&t);
}

/* --------------------------------------------------------------- SHARDS */

TEST(shards_at_rate_1_is_the_exact_curve_with_no_error)
{
	uint64_t rng = 0x5a;
	uint32_t refs[MAX_REFS], frames[] = { 1, 5, 20, 80, 300 };
	uint64_t exact[5];
	double ratio[5];
	struct pl_shards info;
	struct pl_trace t;
	struct pl_error err;

	random_trace(&t, refs, MAX_REFS, 600, &rng);
	CHECK_EQ(pl_mrc(pl_policy_find("lru"), NULL, &t, frames, 5, exact, &err), 0);
	CHECK_EQ(pl_mrc_sampled(pl_policy_find("lru"), NULL, &t, 1.0, frames, 5, ratio, &info, &err), 0);
	CHECK_EQ(info.sampled, MAX_REFS);
	for (unsigned i = 0; i < 5; i++)
		CHECK(fabs(ratio[i] - (double)exact[i] / MAX_REFS) < 1e-12);
	CHECK(info.error_bound == 0);
	pl_trace_free(&t);
}

/* 200k references of a skewed trace over 20k pages, sampled at 10%. */
TEST(shards_at_rate_a_tenth_stays_within_two_points_of_the_exact_curve)
{
	enum { N = 200000 };
	uint64_t rng = 0x5b, exact[6];
	uint32_t frames[] = { 100, 500, 1000, 4000, 10000, 20000 };
	double ratio[6], worst = 0;
	struct pl_shards info;
	struct pl_trace t;
	struct pl_error err;

	skewed_trace(&t, N, 20000, rng);
	CHECK_EQ(pl_mrc(pl_policy_find("lru"), NULL, &t, frames, 6, exact, &err), 0);
	CHECK_EQ(pl_mrc_sampled(pl_policy_find("lru"), NULL, &t, 0.1, frames, 6, ratio, &info, &err), 0);
	for (unsigned i = 0; i < 6; i++)
		worst = fmax(worst, fabs(ratio[i] - (double)exact[i] / N));
	CHECK(worst < 0.02);
	CHECK(info.error_bound > 0 && info.error_bound < 0.1);
	CHECK(info.sampled > N / 20 && info.sampled < N / 5);
	pl_trace_free(&t);
}

/* Any policy: the same trace, fifo run on the sample with a tenth of the frames. */
TEST(a_miniature_simulation_of_fifo_at_a_tenth_stays_within_three_points_of_the_exact_curve)
{
	enum { N = 200000 };
	uint64_t rng = 0x5c, exact[5];
	uint32_t frames[] = { 200, 1000, 4000, 10000, 20000 };
	double ratio[5], worst = 0;
	struct pl_shards info;
	struct pl_trace t;
	struct pl_error err;

	skewed_trace(&t, N, 20000, rng);
	CHECK_EQ(pl_mrc(pl_policy_find("fifo"), NULL, &t, frames, 5, exact, &err), 0);
	CHECK_EQ(pl_mrc_sampled(pl_policy_find("fifo"), NULL, &t, 0.1, frames, 5, ratio, &info,
				&err), 0);
	for (unsigned i = 0; i < 5; i++)
		worst = fmax(worst, fabs(ratio[i] - (double)exact[i] / N));
	CHECK(worst < 0.03);
	CHECK(info.error_bound > 0 && info.error_bound < 0.1);
	pl_trace_free(&t);
}

TEST(a_sampling_rate_outside_0_to_1_is_refused)
{
	uint32_t frames[] = { 1 };
	double ratio[1];
	struct pl_shards info;
	struct pl_trace t;
	struct pl_error err;

	parse(&t, "1 2 3");
	CHECK_EQ(pl_mrc_sampled(pl_policy_find("lru"), NULL, &t, 1.5, frames, 1, ratio, &info, &err), -1);
	CHECK_STR_EQ(err.msg, "analysis: sampling rate 1.5 is not in (0, 1]");
	pl_trace_free(&t);
}

/* ----------------------------------------------------------- working set */

TEST(one_pass_ws_misses_and_mean_size_equal_the_ws_policy_at_every_tau)
{
	uint64_t rng = 0x3a;
	unsigned mismatches = 0;

	for (unsigned run = 0; run < 200; run++) {
		uint32_t n = 1 + splitmix64_below(splitmix64_next(&rng), 2000);
		uint32_t pages = 1 + splitmix64_below(splitmix64_next(&rng), 100);
		uint32_t refs[MAX_REFS];
		struct pl_trace t;
		struct pl_error err;
		struct pl_locality *l = pl_locality_create(64, &err);

		random_trace(&t, refs, n, pages, &rng);
		pl_locality_add_trace(l, &t, NULL, NULL, &err);
		for (uint32_t tau = 1; tau <= 64; tau += 7) {
			int64_t params[PL_MAX_PARAMS] = { tau };
			struct pl_sim *sim = pl_sim_create(pl_policy_find("ws"), PL_NONE - 1,
							   params, &t, 0, 0, &err);
			const struct pl_stats *s;

			pl_sim_run(sim, UINT32_MAX);
			s = pl_sim_stats(sim);
			if ((s->misses != pl_locality_ws_misses(l, tau) ||
			     fabs((double)s->resident_sum / n - pl_locality_ws_mean_size(l, tau)) >
				     1e-9) && !mismatches++)
				check_fail(__FILE__, __LINE__, "run %u, tau %u", run, tau);
			pl_sim_destroy(sim);
		}
		pl_locality_destroy(l);
		pl_trace_free(&t);
	}
	CHECK_EQ(mismatches, 0);
}

TEST(lru_mean_resident_equals_the_lru_policys_resident_sum)
{
	uint64_t rng = 0x3b;
	uint32_t refs[MAX_REFS];
	struct pl_trace t;
	struct pl_error err;
	struct pl_locality *l = pl_locality_create(0, &err);

	random_trace(&t, refs, 3000, 400, &rng);
	pl_locality_add_trace(l, &t, NULL, NULL, &err);
	for (uint32_t frames = 1; frames < 500; frames += 37) {
		struct pl_sim *sim = pl_sim_create(pl_policy_find("lru"), frames, NULL, &t, 0, 0,
						   &err);

		pl_sim_run(sim, UINT32_MAX);
		CHECK(fabs((double)pl_sim_stats(sim)->resident_sum / 3000 -
			   pl_locality_lru_mean_resident(l, frames)) < 1e-9);
		pl_sim_destroy(sim);
	}
	pl_locality_destroy(l);
	pl_trace_free(&t);
}

/* |W(t, tau)|: distinct pages among references t-tau+1 .. t, counted directly. */
static uint32_t window_size(const uint32_t *refs, uint32_t t, uint32_t tau)
{
	uint32_t from = t + 1 > tau ? t + 1 - tau : 0, size = 0;

	for (uint32_t i = from; i <= t; i++) {
		bool earlier = false;

		for (uint32_t j = from; j < i; j++)
			earlier |= refs[j] == refs[i];
		size += !earlier;
	}
	return size;
}

TEST(the_working_set_series_equals_a_direct_window_count_step_by_step)
{
	uint64_t rng = 0x3c;
	unsigned mismatches = 0;

	for (unsigned run = 0; run < 100; run++) {
		uint32_t n = 1 + splitmix64_below(splitmix64_next(&rng), 400);
		uint32_t tau = 1 + splitmix64_below(splitmix64_next(&rng), 50);
		uint32_t refs[MAX_REFS], max[400];
		uint64_t hist[51] = { 0 }, direct_hist[51] = { 0 };
		double mean[400];
		struct pl_trace t;
		struct pl_error err;

		random_trace(&t, refs, n, 30, &rng);
		CHECK_EQ(pl_wss_series(&t, tau, n, mean, max, hist, &err), 0);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t w = window_size(refs, i, tau);

			direct_hist[w]++;
			if ((mean[i] != w || max[i] != w) && !mismatches++)
				check_fail(__FILE__, __LINE__, "run %u step %u: %g vs %u", run, i,
					   mean[i], w);
		}
		for (uint32_t w = 0; w <= tau; w++)
			CHECK_EQ(hist[w], direct_hist[w]);
		pl_trace_free(&t);
	}
	CHECK_EQ(mismatches, 0);
}

/* "1 2 1 2 3 4 3 4", tau 2: sizes 1 2 2 2 2 2 2 2; two buckets of four steps. */
TEST(the_working_set_series_averages_buckets_of_steps)
{
	uint32_t max[2];
	uint64_t hist[3];
	double mean[2];
	struct pl_trace t;
	struct pl_error err;

	parse(&t, "1 2 1 2 3 4 3 4");
	CHECK_EQ(pl_wss_series(&t, 2, 2, mean, max, hist, &err), 0);
	CHECK(mean[0] == 1.75 && mean[1] == 2.0);
	CHECK_EQ(max[0], 2);
	CHECK_EQ(hist[1], 1);
	CHECK_EQ(hist[2], 7);
	pl_trace_free(&t);
}

/* ---------------------------------------------------------------- pattern */

/* Pages 30 10 20 rank 2 0 1: the first half of the time touches 30 and 10. */
TEST(the_access_pattern_counts_references_by_time_and_page_number_rank)
{
	uint32_t counts[2 * 3];
	struct pl_trace t;
	struct pl_error err;

	parse(&t, "30 10 20 20");
	CHECK_EQ(pl_access_pattern(&t, 2, 3, counts, &err), 0);
	CHECK_EQ(counts[0 * 3 + 0], 1);	/* 10 */
	CHECK_EQ(counts[0 * 3 + 2], 1);	/* 30 */
	CHECK_EQ(counts[1 * 3 + 1], 2);	/* 20, 20 */
	CHECK_EQ(counts[0 * 3 + 1] + counts[1 * 3 + 0] + counts[1 * 3 + 2], 0);
	pl_trace_free(&t);
}

int main(void)
{
	return run_tests();
}
