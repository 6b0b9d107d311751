/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.c - how fast and how small the analyses are (`npm run bench`,
 * after bench.c; issue "traces, workloads and analyses").  Prints measured
 * figures, never pass/fail, with the goals beside them:
 *
 *   1. LRU's miss-ratio curve at 100 sizes (10k, 20k, ..., 1M frames) on the
 *      zipf(0.9) trace of bench.c (10M references over 1M pages, same seed):
 *      one pass (stack distances) against one replay per size, as CPU time
 *      and their ratio (goal >= 20x); the two curves must be identical.
 *      The one pass takes seconds and the replays a minute or more, so on a
 *      shared machine a single one-pass timing would meet another load
 *      than the replays: it is timed ONE_PASS_ROUNDS times, before, among
 *      and after the replays, and the median compared.
 *   2. SHARDS at a 1% sample against the exact curve: CPU time, the ratio,
 *      the largest absolute error of the miss ratio over the 100 sizes and
 *      the error the sample itself estimated.
 *   3. Peak memory (the maximum resident set of a child process doing only
 *      that work): the one-pass curve fed from a stream (the references
 *      generated as they are consumed, never stored, as a trace file read
 *      in pieces would be; goal < 256 MB), SHARDS the same way, and one
 *      replay with the trace in memory.
 *
 * `build/bench-analysis --quick` replays 10 of the 100 sizes (every tenth)
 * and says so: the ratio is then per replayed size, scaled to 100.
 */
#define _DEFAULT_SOURCE	/* wait4() */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "splitmix64.h"
#include "zipf.h"

#define MILLION 1000000u
#define PAGES MILLION
#define REFS (10 * MILLION)
#define SIZES 100
#define ZIPF_SEED 0x2afe	/* bench.c's zipf trace */
#define SAMPLE_RATE 0.01
#define ONE_PASS_ROUNDS 5

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench-analysis: %s\n", what);
	exit(1);
}

/* bench.c's page numbers: ranks scrambled over 2^40. */
static uint64_t page_number(uint32_t rank)
{
	return splitmix64_mix(rank) >> 24;
}

static void make_trace(struct pl_trace *t, const struct pl_zipf *z)
{
	uint64_t rng = ZIPF_SEED;

	pl_trace_init(t);
	for (uint32_t i = 0; i < REFS; i++)
		if (pl_trace_add(t, page_number(pl_zipf_rank(z, &rng)), 0) == PL_NONE)
			die("out of memory building the trace");
}

/* ------------------------------------------------------- 1. and 2. speed */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* CPU seconds of one pass of LRU's curve into misses[]; one more differs: exits. */
static double time_one_pass(const struct pl_trace *t, const uint32_t *frames, uint64_t *misses,
			    bool first)
{
	uint64_t again[SIZES];
	struct pl_error err;
	double t0 = cpu_now(), spent;

	if (pl_mrc(pl_policy_find("lru"), NULL, t, frames, SIZES, first ? misses : again, &err))
		die(err.msg);
	spent = cpu_now() - t0;
	if (!first && memcmp(again, misses, sizeof(again)))
		die("two one-pass curves of the same trace differ");
	return spent;
}

static void bench_curves(const struct pl_trace *t, bool quick)
{
	uint32_t frames[SIZES];
	uint64_t one_pass[SIZES], replayed[SIZES];
	double ratio[SIZES], passes[ONE_PASS_ROUNDS], t0, one_pass_s, replay_s = 0, sample_s;
	double worst = 0;
	unsigned step = quick ? 10 : 1, replays = SIZES / step, slice, replayed_n = 0, differ = 0;
	struct pl_shards info;
	struct pl_error err;

	for (unsigned i = 0; i < SIZES; i++)
		frames[i] = (i + 1) * (PAGES / SIZES);
	slice = (replays + ONE_PASS_ROUNDS - 2) / (ONE_PASS_ROUNDS - 1);
	for (unsigned round = 0; round < ONE_PASS_ROUNDS; round++) {
		passes[round] = time_one_pass(t, frames, one_pass, round == 0);
		t0 = cpu_now();
		for (unsigned k = 0; k < slice && replayed_n < replays; k++, replayed_n++) {
			unsigned i = replayed_n * step + step - 1;

			if (pl_mrc_simulate(pl_policy_find("lru"), NULL, t, frames[i], &replayed[i],
					    &err))
				die(err.msg);
			differ += replayed[i] != one_pass[i];
		}
		replay_s += cpu_now() - t0;
	}
	replay_s *= (double)SIZES / replays;
	qsort(passes, ONE_PASS_ROUNDS, sizeof(*passes), by_value);
	one_pass_s = passes[ONE_PASS_ROUNDS / 2];

	t0 = cpu_now();
	if (pl_mrc_sampled(pl_policy_find("lru"), NULL, t, SAMPLE_RATE, frames, SIZES, ratio, &info,
			   &err))
		die(err.msg);
	sample_s = cpu_now() - t0;
	for (unsigned i = 0; i < SIZES; i++)
		worst = fmax(worst, fabs(ratio[i] - (double)one_pass[i] / REFS));

	printf("LRU miss-ratio curve, %u sizes (%u .. %u frames), zipf(0.9), %u M references "
	       "over %u M pages, CPU time:\n", SIZES, frames[0], frames[SIZES - 1],
	       REFS / MILLION, PAGES / MILLION);
	printf("  one pass (stack distances)   %8.2f s   (median of %d, %.2f .. %.2f s, timed "
	       "before, among and after the replays)\n", one_pass_s, ONE_PASS_ROUNDS, passes[0],
	       passes[ONE_PASS_ROUNDS - 1]);
	printf("  one replay per size          %8.2f s%s\n", replay_s,
	       quick ? "  (10 sizes replayed, x10)" : "");
	printf("  one pass vs replays          %8.1fx   (goal >= 20x)\n", replay_s / one_pass_s);
	printf("  curves identical at the %u replayed sizes: %s\n", replayed_n,
	       differ ? "NO" : "yes");
	printf("SHARDS at %.0f%% (%llu sampled references):\n", info.rate * 100,
	       (unsigned long long)info.sampled);
	printf("  time                         %8.2f s   (%.1fx faster than one pass, %.0fx than "
	       "replays)\n", sample_s, one_pass_s / sample_s, replay_s / sample_s);
	printf("  max absolute error           %8.4f   (estimated by the sample: %.4f)\n", worst,
	       info.error_bound);
}

/* ------------------------------------------------------------ 3. memory */

/* Runs work() in a child; returns its peak resident set in MB. */
static double peak_mb(void (*work)(const struct pl_zipf *), const struct pl_zipf *z)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("cannot fork");
	if (!pid) {
		work(z);
		_exit(0);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("a measuring child failed");
	return ru.ru_maxrss / 1024.0;
}

static void stream_one_pass(const struct pl_zipf *z)
{
	struct pl_error err;
	struct pl_locality *l = pl_locality_create(0, &err);
	uint64_t rng = ZIPF_SEED;

	if (!l)
		die(err.msg);
	/* zipf ranks are dense page ids already: no page map needed */
	for (uint32_t i = 0; i < REFS; i++)
		if (pl_locality_add(l, pl_zipf_rank(z, &rng), &err))
			die(err.msg);
	if (!pl_locality_lru_misses(l, PAGES / 2))
		die("no misses: the pass did not run");
	pl_locality_destroy(l);
}

static void stream_sample(const struct pl_zipf *z)
{
	struct pl_error err;
	struct pl_locality *l = pl_locality_create(0, &err);
	uint64_t rng = ZIPF_SEED, threshold = (uint64_t)(SAMPLE_RATE * (1u << 24));

	if (!l)
		die(err.msg);
	for (uint32_t i = 0; i < REFS; i++) {
		uint32_t rank = pl_zipf_rank(z, &rng);

		if ((splitmix64_mix(page_number(rank)) & ((1u << 24) - 1)) < threshold &&
		    pl_locality_add(l, rank, &err))
			die(err.msg);
	}
	pl_locality_destroy(l);
}

static void replay_in_memory(const struct pl_zipf *z)
{
	struct pl_trace t;
	struct pl_error err;
	uint64_t misses;

	make_trace(&t, z);
	if (pl_mrc_simulate(pl_policy_find("lru"), NULL, &t, PAGES / 2, &misses, &err))
		die(err.msg);
	pl_trace_free(&t);
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	struct pl_zipf *z = pl_zipf_create(PAGES, 0.9);
	struct pl_trace t;

	if (!z)
		die("out of memory");
	if (argc > 1 && !quick)
		die("usage: bench-analysis [--quick]");
	printf("== analyses\n");
	printf("peak memory (maximum resident set of a process doing only this):\n");
	printf("  one-pass LRU curve, streamed   %7.1f MB   (goal < 256 MB)\n",
	       peak_mb(stream_one_pass, z));
	printf("  SHARDS 1%%, streamed            %7.1f MB\n", peak_mb(stream_sample, z));
	printf("  one replay, trace in memory    %7.1f MB\n", peak_mb(replay_in_memory, z));
	make_trace(&t, z);
	bench_curves(&t, quick);
	pl_trace_free(&t);
	pl_zipf_destroy(z);
	return 0;
}
