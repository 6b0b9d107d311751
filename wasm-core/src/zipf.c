// SPDX-License-Identifier: GPL-2.0
/*
 * zipf.c - see zipf.h.
 */
#include <math.h>
#include <stdlib.h>

#include "zipf.h"
#include "splitmix64.h"

#define GUIDE_SLOTS 65536u

struct pl_zipf {
	double *cdf;	/* [n] P(rank <= r) */
	uint32_t n;
	uint32_t guide[GUIDE_SLOTS + 1];
};

struct pl_zipf *pl_zipf_create(uint32_t n, double s)
{
	struct pl_zipf *z = malloc(sizeof(*z));
	double sum = 0;
	uint32_t r = 0;

	if (!z || !n || !(z->cdf = malloc((size_t)n * sizeof(*z->cdf)))) {
		free(z);
		return NULL;
	}
	z->n = n;
	for (uint32_t i = 0; i < n; i++) {
		sum += 1.0 / pow((double)i + 1, s);
		z->cdf[i] = sum;
	}
	for (uint32_t i = 0; i < n; i++)
		z->cdf[i] /= sum;
	for (uint32_t g = 0; g < GUIDE_SLOTS; g++) {
		while (r < n - 1 && z->cdf[r] < (double)g / GUIDE_SLOTS)
			r++;
		z->guide[g] = r;
	}
	z->guide[GUIDE_SLOTS] = n - 1;
	return z;
}

void pl_zipf_destroy(struct pl_zipf *z)
{
	if (z)
		free(z->cdf);
	free(z);
}

uint32_t pl_zipf_rank(const struct pl_zipf *z, uint64_t *rng)
{
	double u = (double)(splitmix64_next(rng) >> 11) * 0x1.0p-53;
	uint32_t g = (uint32_t)(u * GUIDE_SLOTS);
	uint32_t lo = z->guide[g], hi = z->guide[g + 1];

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
