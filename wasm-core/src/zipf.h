/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zipf.h - zipf-distributed ranks for generated workloads (the benchmark's
 * traces, `pagelab gen zipf`): rank r in 0 .. n-1 with probability
 * proportional to 1 / (r + 1)^s, drawn with pagelab's own SplitMix64 so a
 * seed gives the same ranks on every platform.
 *
 * A draw is a binary search of the cumulative distribution, narrowed by a
 * guide table: guide[g] is the first rank whose cdf reaches g / slots, so
 * a draw u searches only between guide[g] and guide[g + 1] for
 * g = floor(u * slots) -- a few steps, and the same rank a search over all
 * ranks would find.  Memory: 8 bytes per rank plus the table.
 */
#ifndef PAGELAB_ZIPF_H
#define PAGELAB_ZIPF_H

#include <stdint.h>

struct pl_zipf;

/* n >= 1 ranks, exponent s >= 0 (0: uniform); NULL when out of memory. */
struct pl_zipf *pl_zipf_create(uint32_t n, double s);
void pl_zipf_destroy(struct pl_zipf *z);
/* The next rank, advancing the SplitMix64 state *rng. */
uint32_t pl_zipf_rank(const struct pl_zipf *z, uint64_t *rng);

#endif /* PAGELAB_ZIPF_H */
