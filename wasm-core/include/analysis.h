/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - analyses of a reference trace: miss-ratio curves, reuse
 * distances, working-set sizes, lifetime functions, the space-time product,
 * memory-access patterns and Belady's anomaly (seed 004, Denning 1968 and
 * 1980; Mattson et al. 1970 for stack algorithms; Waldspurger et al.,
 * "Efficient MRC construction with SHARDS", FAST 2015, for sampling).
 *
 * Everything here uses only pagelab.h and is compiled into the same
 * library as the simulator, so the CLI and the web page's worker (through
 * src/wasm/abi.c) run the same code.  Pages are the trace's dense ids.
 *
 * Definitions (time is virtual: one unit per reference, steps 0 .. N-1)
 *   stack distance  of the reference at step i to page p: 1 + the number of
 *                   distinct pages referenced since p's previous reference
 *                   (1: p was the most recently used page); 0 marks a first
 *                   reference (a cold miss).  LRU with c frames misses
 *                   exactly the references whose distance is 0 or > c, so
 *                   one pass gives LRU's misses at every size.
 *   interval        of the reference at step i to page p: i minus the step
 *                   of p's previous reference (the backward distance).
 *   W(t, tau)       the working set after step t: the pages referenced in
 *                   steps t-tau+1 .. t.  The ws policy keeps exactly it, so
 *                   its misses are the references whose interval is
 *                   0 (first) or > tau, and its resident_sum is the sum
 *                   over t of |W(t, tau)|.
 *   lifetime g(x)   mean references between faults (N / faults) against
 *                   the mean resident set x: for WS as tau varies, for LRU
 *                   as the frames vary (x = mean over t of min(frames,
 *                   distinct pages seen by t)).
 *   space-time      Denning's approximation ST = x * (N + D * faults): the
 *                   resident set x held while running N references and
 *                   while waiting D reference-times for each fault.
 *
 * One pass: struct pl_locality
 *   Feeding every reference once to pl_locality_add() gathers what LRU's
 *   curve, WS's and LRU's lifetime functions and the reuse histogram need,
 *   in O(log D) time per reference and O(D + max_window) memory, D the
 *   distinct pages: it never holds the trace, so it works on a stream.
 *   Stack distances come from a Fenwick tree over the time of each page's
 *   last reference (one mark per page seen); when the tree's time axis is
 *   full the marks are renumbered in order, which keeps it O(D) in size.
 *
 *     time:   1 . . 4 . 6 . . 9 10 [11 = now]     marks at each page's last
 *     marks:  a     b   c     d  e               reference; p = c (last at 6):
 *     distance of a reference to c now = 1 + marks after 6 = 1 + 3 = 4
 *
 * Miss-ratio curves: pl_mrc()
 *   lru  one pass (pl_locality), every size at once, O(N log D);
 *   opt  Mattson's OPT stack, truncated at the largest size asked for:
 *        O(N * max frames) time, needs the trace in memory (next uses);
 *   any other policy: one simulation per size (the CLI runs sizes in
 *        parallel threads).
 *   pl_mrc_sampled(): from a spatially hashed sample of the pages at `rate`
 *   (SHARDS with its adjustment for lru, miniature simulations for the
 *   others), and an estimated error: twice the standard error of the curve
 *   across 8 disjoint sub-samples of the sample, at each size, maximised.
 *
 * Errors: functions that can fail return 0 or -1 with `err` filled (out of
 * memory, a window too large, a size list out of order, a policy that
 * stops on an invariant).  None of them reads files: the callers load or
 * stream traces with pagelab.h's readers.
 */
#ifndef PAGELAB_ANALYSIS_H
#define PAGELAB_ANALYSIS_H

#include "pagelab.h"

/* ------------------------------------------------------------ one pass */

struct pl_locality;

/*
 * Interval histograms are exact up to max_window (the largest tau asked
 * about later); longer intervals are only counted.  0: no WS analyses.
 */
struct pl_locality *pl_locality_create(uint32_t max_window, struct pl_error *err);
void pl_locality_destroy(struct pl_locality *l);
/* One reference to dense page id `page`; -1 (err filled) when out of memory. */
int pl_locality_add(struct pl_locality *l, uint32_t page, struct pl_error *err);
/* n references, as n calls of pl_locality_add() but faster. */
int pl_locality_add_pages(struct pl_locality *l, const uint32_t *page, uint32_t n,
			  struct pl_error *err);
/*
 * n references given by their input page numbers (a pl_reader's batch):
 * each number gets a dense id in order of first appearance, as
 * pl_trace_load() would give it, so a trace file is analysed as it is read.
 * Do not mix with pl_locality_add() on the same pl_locality.
 */
int pl_locality_add_numbers(struct pl_locality *l, const uint64_t *number, uint32_t n,
			    struct pl_error *err);
/* Every reference of a trace in order; calls progress every 2^20 references. */
int pl_locality_add_trace(struct pl_locality *l, const struct pl_trace *t,
			  void (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx,
			  struct pl_error *err);

uint64_t pl_locality_references(const struct pl_locality *l);
uint32_t pl_locality_distinct(const struct pl_locality *l);
/*
 * hist[d] references at stack distance d, d = 0 (first references) ..
 * *len - 1; valid until the next pl_locality_add().
 */
const uint64_t *pl_locality_stack_histogram(const struct pl_locality *l, uint32_t *len);

/*
 * The queries cache prefix sums of the histograms (rebuilt after more
 * references are added), hence the non-const handle.
 *
 * LRU with `frames` frames: misses, and mean resident pages.
 */
uint64_t pl_locality_lru_misses(struct pl_locality *l, uint32_t frames);
double pl_locality_lru_mean_resident(struct pl_locality *l, uint32_t frames);
/* WS with window tau (1 .. max_window): misses, and mean |W(t, tau)|. */
uint64_t pl_locality_ws_misses(struct pl_locality *l, uint32_t tau);
double pl_locality_ws_mean_size(struct pl_locality *l, uint32_t tau);

/* ---------------------------------------------------- miss-ratio curves */

enum pl_mrc_method {
	PL_MRC_ONE_PASS,	/* lru: stack distances */
	PL_MRC_OPT_STACK,	/* opt: Mattson's stack, one pass */
	PL_MRC_PER_SIZE,	/* one simulation per size */
};

/* How pl_mrc() computes the curve of `ops`. */
enum pl_mrc_method pl_mrc_method_of(const struct pl_policy_ops *ops);

/*
 * misses[i] for frames[i], i < n (frames ascending, >= 1).  params: NULL
 * for the defaults (only per-size policies have any that matter).
 */
int pl_mrc(const struct pl_policy_ops *ops, const int64_t *params, const struct pl_trace *t,
	   const uint32_t *frames, unsigned n, uint64_t *misses, struct pl_error *err);
/* One size by simulation (what PL_MRC_PER_SIZE does per size). */
int pl_mrc_simulate(const struct pl_policy_ops *ops, const int64_t *params,
		    const struct pl_trace *t, uint32_t frames, uint64_t *misses,
		    struct pl_error *err);
/* OPT's misses at every size by the stack method (frames ascending). */
int pl_mrc_opt(const struct pl_trace *t, const uint32_t *frames, unsigned n, uint64_t *misses,
	       struct pl_error *err);

struct pl_shards {
	double rate;		/* sampling rate used, 0 < rate <= 1 */
	uint64_t sampled;	/* references in the sample */
	double error_bound;	/* estimated max absolute error of the miss ratio */
};

/*
 * Miss ratios estimated from a spatial sample at `rate`: SHARDS for lru,
 * and for any other policy a miniature simulation (Waldspurger et al.,
 * USENIX ATC 2017): the policy run on the sampled references with
 * round(frames * rate) frames (at least 1).
 */
int pl_mrc_sampled(const struct pl_policy_ops *ops, const int64_t *params,
		   const struct pl_trace *t, double rate, const uint32_t *frames, unsigned n,
		   double *miss_ratio, struct pl_shards *info, struct pl_error *err);

/*
 * The same sample built as a trace is read (a pl_reader's batches): memory
 * is the sample's, O(rate * references) for a miniature simulation and
 * O(rate * distinct pages) for lru, never the whole trace.  Feed every
 * reference with pl_mrc_sample_add() (page numbers and flags), then ask
 * for the curve; the miss ratios are over all references added.
 */
struct pl_mrc_sample;

struct pl_mrc_sample *pl_mrc_sample_create(const struct pl_policy_ops *ops,
					   const int64_t *params, double rate,
					   struct pl_error *err);
int pl_mrc_sample_add(struct pl_mrc_sample *s, const uint64_t *number, const uint8_t *flags,
		      uint32_t n, struct pl_error *err);
int pl_mrc_sample_curve(struct pl_mrc_sample *s, const uint32_t *frames, unsigned n,
			double *miss_ratio, struct pl_shards *info, struct pl_error *err);
void pl_mrc_sample_destroy(struct pl_mrc_sample *s);

/* -------------------------------------------------------- working sets */

/*
 * |W(t, tau)| over time, in `points` buckets of consecutive steps: mean[b]
 * and max[b] of bucket b (points <= N; the last bucket may be shorter),
 * and hist[w] the number of steps with |W| = w, w = 0 .. tau.
 */
int pl_wss_series(const struct pl_trace *t, uint32_t tau, uint32_t points, double *mean,
		  uint32_t *max, uint64_t *hist, struct pl_error *err);

/*
 * The same series built a batch of dense ids at a time (a trace streamed:
 * memory O(npages + tau + points), not the trace): create it for n steps
 * over npages pages, add exactly n references, then finish (it divides
 * the means); mean, max and hist are the caller's, filled as above.
 */
struct pl_wss;

struct pl_wss *pl_wss_create(uint32_t npages, uint64_t n, uint32_t tau, uint32_t points,
			     double *mean, uint32_t *max, uint64_t *hist, struct pl_error *err);
int pl_wss_add(struct pl_wss *w, const uint32_t *page, uint32_t count, struct pl_error *err);
int pl_wss_finish(struct pl_wss *w, struct pl_error *err);
void pl_wss_destroy(struct pl_wss *w);

/* ------------------------------------------------------------- pattern */

/*
 * The memory-access pattern for a plot: counts[tb * page_bins + pb]
 * references in time bucket tb (steps evenly split) and page bucket pb
 * (pages ordered by their page number, evenly split by rank).
 */
int pl_access_pattern(const struct pl_trace *t, uint32_t time_bins, uint32_t page_bins,
		      uint32_t *counts, struct pl_error *err);

/*
 * The same counts built a batch of dense ids at a time (a trace streamed):
 * create with the pages' numbers (number[id], npages of them) and the
 * length n, add exactly n references, then finish.
 */
struct pl_pattern;

struct pl_pattern *pl_pattern_create(const uint64_t *number, uint32_t npages, uint64_t n,
				     uint32_t time_bins, uint32_t page_bins, uint32_t *counts,
				     struct pl_error *err);
int pl_pattern_add(struct pl_pattern *p, const uint32_t *page, uint32_t count,
		   struct pl_error *err);
int pl_pattern_finish(struct pl_pattern *p, struct pl_error *err);
void pl_pattern_destroy(struct pl_pattern *p);

#endif /* PAGELAB_ANALYSIS_H */
