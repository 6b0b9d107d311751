/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.c - how fast the core is: `npm run bench` (make -C wasm-core bench).
 *
 * Prints measured figures, never pass/fail:
 *   1. parsing: a zipf(0.9) trace of 10M references over 1M pages written
 *      as a text file (one decimal page number per line), read back with
 *      pl_trace_read() (file I/O + parse + page map), and parsed again from
 *      memory with pl_trace_read_buffer();
 *   2. references/second of every registered policy on that trace and on a
 *      uniform one (10M over 1M pages), 64K frames, recording off, the
 *      trace already in memory; the setup time (create, OPT's next-use
 *      pass) is shown apart;
 *   3. the cost per reference of every policy at 1M, 2M, 4M, 8M and 16M
 *      references: one run over a 16M-reference zipf trace, timed a million
 *      references at a time, so every figure comes from the same data
 *      structures and page universe and only the position in the trace
 *      changes.  A flat row means amortized O(1) per reference: nothing
 *      grows with the length of the trace.  (OPT's heap is bounded by the
 *      frames, so its O(log n) per reference is also flat here.)
 * A policy whose run exceeds TIME_LIMIT seconds is stopped and reported
 * with the rate it reached, so one slow policy cannot hang the benchmark.
 *
 * Times are CPU time of the process (single-threaded), so that other work
 * on the shared machine does not masquerade as slowness; the load average
 * is printed so the reader can judge cache contention, and the total wall
 * time at the end.
 *
 * `build/bench lru,fifo` measures only the policies named (all by default).
 *
 * Traces are generated with SplitMix64 from fixed seeds: every run measures
 * the same references.  Page numbers are scrambled ranks (a bijective mix),
 * so hot pages are spread over the 64-bit space as in a real address trace.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pagelab.h"
#include "splitmix64.h"

#define MILLION 1000000u
#define PAGES MILLION
#define REFS (10 * MILLION)
#define FRAMES 65536u
#define ZIPF_EXPONENT 0.9
#define TIME_LIMIT 60.0
#define TRACE_FILE "build/bench-zipf.txt"

/*
 * CPU time of this process: other jobs sharing the machine's cores (a
 * kernel build next door) stretch wall time but hardly this.
 */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_load(const char *when)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = -1;

	if (f && fscanf(f, "%lf", &load) != 1)
		load = -1;
	if (f)
		fclose(f);
	if (load >= 0)
		printf("(load average %s: %.2f)\n", when, load);
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s\n", what);
	exit(1);
}

/* A page number for rank r: distinct for distinct ranks, below 2^40. */
static uint64_t page_number(uint32_t rank)
{
	return splitmix64_mix(rank) >> 24;
}

/* cdf[r] = P(rank <= r) for ranks 0 .. n-1 with P(r) ~ 1 / (r+1)^s. */
static double *zipf_cdf(uint32_t n, double s)
{
	double *cdf = malloc((size_t)n * sizeof(*cdf));
	double sum = 0;

	if (!cdf)
		die("out of memory");
	for (uint32_t r = 0; r < n; r++) {
		sum += 1.0 / pow((double)r + 1, s);
		cdf[r] = sum;
	}
	for (uint32_t r = 0; r < n; r++)
		cdf[r] /= sum;
	return cdf;
}

static uint32_t zipf_rank(const double *cdf, uint32_t n, uint64_t *rng)
{
	double u = (double)(splitmix64_next(rng) >> 11) * 0x1.0p-53;
	uint32_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Fills `ranks` with n zipf-distributed ranks (or uniform ones without cdf). */
static uint32_t *make_ranks(uint32_t n, const double *cdf, uint64_t seed)
{
	uint32_t *ranks = malloc((size_t)n * sizeof(*ranks));
	uint64_t rng = seed;

	if (!ranks)
		die("out of memory");
	for (uint32_t i = 0; i < n; i++)
		ranks[i] = cdf ? zipf_rank(cdf, PAGES, &rng) :
				 (uint32_t)(splitmix64_next(&rng) % PAGES);
	return ranks;
}

static void trace_from_ranks(struct pl_trace *t, const uint32_t *ranks, uint32_t n)
{
	pl_trace_init(t);
	for (uint32_t i = 0; i < n; i++)
		if (pl_trace_add(t, page_number(ranks[i]), 0) == PL_NONE)
			die("out of memory building a trace");
}

/* ------------------------------------------------------------- parsing */

static size_t format_decimal(char *out, uint64_t v)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = digits[n - 1 - i];
	return n;
}

static char *trace_text(const uint32_t *ranks, uint32_t n, size_t *len)
{
	char *text = malloc((size_t)n * 21);
	size_t used = 0;

	if (!text)
		die("out of memory");
	for (uint32_t i = 0; i < n; i++) {
		used += format_decimal(text + used, page_number(ranks[i]));
		text[used++] = '\n';
	}
	*len = used;
	return text;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		die("cannot write " TRACE_FILE);
}

static double time_read_file(const char *path, uint32_t expected)
{
	struct pl_error err;
	struct pl_trace t;
	double start = now(), elapsed;
	FILE *f = fopen(path, "rb");

	if (!f)
		die("cannot reopen " TRACE_FILE);
	pl_trace_init(&t);
	if (pl_trace_read(&t, f, path, &err))
		die(err.msg);
	elapsed = now() - start;
	fclose(f);
	if (t.n != expected)
		die("the text trace read back differs in length");
	pl_trace_free(&t);
	return elapsed;
}

static double time_parse_memory(const char *text, size_t len, uint32_t expected)
{
	struct pl_error err;
	struct pl_trace t;
	double start = now(), elapsed;

	pl_trace_init(&t);
	if (pl_trace_read_buffer(&t, text, len, "memory", &err))
		die(err.msg);
	elapsed = now() - start;
	if (t.n != expected)
		die("the text trace parsed back differs in length");
	pl_trace_free(&t);
	return elapsed;
}

static void bench_parsing(const uint32_t *ranks)
{
	size_t len;
	char *text = trace_text(ranks, REFS, &len);
	double file_s, memory_s;

	write_file(TRACE_FILE, text, len);
	file_s = time_read_file(TRACE_FILE, REFS);
	memory_s = time_parse_memory(text, len, REFS);
	remove(TRACE_FILE);
	free(text);
	printf("Reading the zipf trace as text (%.0f MB, one decimal page number per line):\n",
	       (double)len / 1e6);
	printf("  file -> trace (read + parse + page map)  %6.3f s   %6.1f M refs/s\n", file_s,
	       REFS / file_s / 1e6);
	printf("  memory -> trace (parse + page map)       %6.3f s   %6.1f M refs/s\n\n",
	       memory_s, REFS / memory_s / 1e6);
}

/* ------------------------------------------------------------ simulation */

/* The policies to measure: all, or those named on the command line. */
static const char *only;

static bool selected(const struct pl_policy_ops *ops)
{
	const char *name = pl_policy_name(ops), *at = only;
	size_t len = strlen(name);

	if (!only)
		return true;
	while ((at = strstr(at, name))) {
		if ((at == only || at[-1] == ',') && (at[len] == ',' || at[len] == '\0'))
			return true;
		at += len;
	}
	return false;
}

struct measurement {
	double setup_s, run_s;
	uint32_t done;		/* references simulated (fewer if stopped) */
	double miss_ratio;
	const char *error;
};

/* Runs ops over the first n references of t, in chunks, within TIME_LIMIT. */
static struct measurement measure(const struct pl_policy_ops *ops, const struct pl_trace *t)
{
	struct measurement m = { 0 };
	struct pl_error err;
	struct pl_sim *sim;
	double start = now();

	sim = pl_sim_create(ops, FRAMES, NULL, t, 0, 0, &err);
	if (!sim) {
		m.error = "cannot create";
		return m;
	}
	m.setup_s = now() - start;
	start = now();
	while (m.done < t->n && now() - start < TIME_LIMIT && !pl_sim_error(sim))
		m.done += pl_sim_run(sim, MILLION);
	m.run_s = now() - start;
	if (pl_sim_error(sim))
		m.error = "failed";
	m.miss_ratio = m.done ? (double)pl_sim_stats(sim)->misses / m.done : 0;
	pl_sim_destroy(sim);
	return m;
}

static void print_rate(const struct measurement *m, uint32_t n)
{
	if (m->error) {
		printf("  %14s", m->error);
		return;
	}
	printf("  %8.2f M/s %5.1f%%", m->done / m->run_s / 1e6, 100 * m->miss_ratio);
	if (m->done < n)
		printf(" (stopped at %uM)", m->done / MILLION);
}

static void bench_policy(const struct pl_policy_ops *ops, const struct pl_trace *zipf,
			 const struct pl_trace *uniform)
{
	struct measurement z = measure(ops, zipf);
	struct measurement u = measure(ops, uniform);

	printf("  %-12s", pl_policy_name(ops));
	print_rate(&z, zipf->n);
	print_rate(&u, uniform->n);
	printf("  %6.3f s\n", z.setup_s);
	fflush(stdout);
}

static void bench_policies(const struct pl_trace *zipf, const struct pl_trace *uniform)
{
	printf("Simulation, %u frames, trace in memory, recording off:\n", FRAMES);
	printf("  %-12s %21s %21s %10s\n", "policy", "zipf(0.9): refs/s miss",
	       "uniform: refs/s miss", "setup");
	for (unsigned i = 0; pl_policies[i]; i++)
		if (selected(pl_policies[i]))
			bench_policy(pl_policies[i], zipf, uniform);
	printf("\n");
}

/*
 * Runs ops over the 16M-reference trace a million references at a time and
 * fills ns[c] with the cost per reference of million c (1-based), or 0 for
 * the millions not reached within TIME_LIMIT.
 */
static void measure_windows(const struct pl_policy_ops *ops, const struct pl_trace *t,
			    double ns[17])
{
	struct pl_error err;
	struct pl_sim *sim = pl_sim_create(ops, FRAMES, NULL, t, 0, 0, &err);
	double total = 0;

	memset(ns, 0, 17 * sizeof(*ns));
	for (unsigned c = 1; sim && c <= 16 && total < TIME_LIMIT && !pl_sim_error(sim); c++) {
		double start = now();
		uint32_t done = pl_sim_run(sim, MILLION);

		ns[c] = done ? (now() - start) / done * 1e9 : 0;
		total += now() - start;
	}
	pl_sim_destroy(sim);
}

static void bench_scaling(const uint32_t *ranks)
{
	static const unsigned marks[] = { 1, 2, 4, 8, 16 };
	struct pl_trace trace;
	double ns[17];

	trace_from_ranks(&trace, ranks, 16 * MILLION);
	printf("Cost per reference (ns) of the million references ending at 1M .. 16M of one\n"
	       "zipf run, %u frames (flat = amortized O(1); the first million starts cold):\n",
	       FRAMES);
	printf("  %-12s", "policy");
	for (unsigned m = 0; m < 5; m++)
		printf(" %6uM", marks[m]);
	printf("   16M/2M\n");
	for (unsigned i = 0; pl_policies[i]; i++) {
		if (!selected(pl_policies[i]))
			continue;
		measure_windows(pl_policies[i], &trace, ns);
		printf("  %-12s", pl_policy_name(pl_policies[i]));
		for (unsigned m = 0; m < 5; m++)
			printf(" %7.1f", ns[marks[m]]);
		printf("   %6.2f\n", ns[2] > 0 ? ns[16] / ns[2] : 0);
		fflush(stdout);
	}
	pl_trace_free(&trace);
}

int main(int argc, char **argv)
{
	double start = now(), wall_start = wall();
	double *cdf = zipf_cdf(PAGES, ZIPF_EXPONENT);
	uint32_t *zipf_ranks = make_ranks(16 * MILLION, cdf, 0x2afe);
	uint32_t *uniform_ranks = make_ranks(REFS, NULL, 0x0f1a7);
	struct pl_trace zipf, uniform;

	only = argc > 1 ? argv[1] : NULL;
	trace_from_ranks(&zipf, zipf_ranks, REFS);
	trace_from_ranks(&uniform, uniform_ranks, REFS);
	printf("pagelab benchmark: zipf(%.1f) and uniform traces of %uM references over %uM pages "
	       "(zipf touches %u, uniform %u); generated in %.1f s\n\n", ZIPF_EXPONENT,
	       REFS / MILLION, PAGES / MILLION, zipf.npages, uniform.npages, now() - start);
	print_load("at the start");
	bench_parsing(zipf_ranks);
	bench_policies(&zipf, &uniform);
	pl_trace_free(&uniform);
	free(uniform_ranks);
	bench_scaling(zipf_ranks);
	print_load("at the end");
	printf("total: %.0f s CPU, %.0f s wall\n", now() - start, wall() - wall_start);
	pl_trace_free(&zipf);
	free(zipf_ranks);
	free(cdf);
	return 0;
}
