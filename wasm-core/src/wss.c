// SPDX-License-Identifier: GPL-2.0
/*
 * wss.c - the working-set size over time and the memory-access pattern,
 * sampled down for plotting (interface: include/analysis.h).
 *
 * pl_wss_series() slides a window of tau references along the trace with a
 * count per page: a page enters W when its count becomes 1 and leaves when
 * it falls to 0, so |W(t, tau)| is kept exactly in O(1) per step (O(N)
 * time, O(pages) memory).  Step t falls in bucket t * points / N.
 *
 * pl_access_pattern() ranks the pages by their page number, so that a
 * program's regions (code, heap, stack) stay apart on the page axis as in
 * seed 004's plots, and counts references per (time, page) cell.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_fail.h"

/* The bucket of step i when n steps are split evenly into `buckets`. */
static uint32_t bucket_of(uint64_t i, uint64_t n, uint32_t buckets)
{
	return (uint32_t)(i * buckets / n);
}

int pl_wss_series(const struct pl_trace *t, uint32_t tau, uint32_t points, double *mean,
		  uint32_t *max, uint64_t *hist, struct pl_error *err)
{
	uint32_t *count, size = 0, *steps;

	if (!tau || !points || points > t->n)
		return pl_analysis_fail(err, "the window and the points must be >= 1, "
					"points <= references");
	count = calloc((size_t)t->npages + 1, sizeof(*count));
	steps = calloc(points, sizeof(*steps));
	if (!count || !steps) {
		free(count);
		free(steps);
		return pl_analysis_fail(err, "out of memory");
	}
	memset(mean, 0, points * sizeof(*mean));
	memset(max, 0, points * sizeof(*max));
	memset(hist, 0, ((size_t)tau + 1) * sizeof(*hist));
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t b = bucket_of(i, t->n, points);

		size += !count[t->page[i]]++;
		if (i >= tau)
			size -= !--count[t->page[i - tau]];
		mean[b] += size;
		steps[b]++;
		if (size > max[b])
			max[b] = size;
		hist[size]++;
	}
	for (uint32_t b = 0; b < points; b++)
		mean[b] /= steps[b];
	free(count);
	free(steps);
	return 0;
}

struct ranked_page {
	uint64_t number;
	uint32_t page;
};

static int by_page_number(const void *a, const void *b)
{
	uint64_t x = ((const struct ranked_page *)a)->number;
	uint64_t y = ((const struct ranked_page *)b)->number;

	return (x > y) - (x < y);
}

int pl_access_pattern(const struct pl_trace *t, uint32_t time_bins, uint32_t page_bins,
		      uint32_t *counts, struct pl_error *err)
{
	struct ranked_page *order;
	uint32_t *rank;

	if (!time_bins || !page_bins || time_bins > t->n || page_bins > t->npages)
		return pl_analysis_fail(err, "the bins must be >= 1 and at most the "
					"references and pages");
	order = malloc((size_t)t->npages * sizeof(*order));
	rank = malloc((size_t)t->npages * sizeof(*rank));
	if (!order || !rank) {
		free(order);
		free(rank);
		return pl_analysis_fail(err, "out of memory");
	}
	for (uint32_t p = 0; p < t->npages; p++)
		order[p] = (struct ranked_page){ t->number[p], p };
	qsort(order, t->npages, sizeof(*order), by_page_number);
	for (uint32_t r = 0; r < t->npages; r++)
		rank[order[r].page] = r;
	memset(counts, 0, (size_t)time_bins * page_bins * sizeof(*counts));
	for (uint32_t i = 0; i < t->n; i++)
		counts[(size_t)bucket_of(i, t->n, time_bins) * page_bins +
		       bucket_of(rank[t->page[i]], t->npages, page_bins)]++;
	free(order);
	free(rank);
	return 0;
}
