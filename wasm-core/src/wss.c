// SPDX-License-Identifier: GPL-2.0
/*
 * wss.c - the working-set size over time and the memory-access pattern,
 * sampled down for plotting (interface: include/analysis.h).
 *
 * pl_wss_series() slides a window of tau references along the trace with a
 * count per page: a page enters W when its count becomes 1 and leaves when
 * it falls to 0, so |W(t, tau)| is kept exactly in O(1) per step (O(N)
 * time, O(pages + tau) memory: a ring of the window's last tau pages
 * says which page leaves, so a trace can be fed a batch at a time).  Step
 * t falls in bucket t * points / N.
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

struct pl_wss {
	uint32_t tau, points;
	uint64_t n, added;	/* steps in all; steps added so far */
	uint32_t size;		/* |W| after the last step added */
	uint32_t *count;	/* [npages] references of each page inside the window */
	uint32_t *ring;		/* [tau] the window's pages: step i's at i % tau */
	uint32_t *steps;	/* [points] steps in each bucket */
	uint32_t npages;
	double *mean;
	uint32_t *max;
	uint64_t *hist;
};

void pl_wss_destroy(struct pl_wss *w)
{
	if (!w)
		return;
	free(w->count);
	free(w->ring);
	free(w->steps);
	free(w);
}

struct pl_wss *pl_wss_create(uint32_t npages, uint64_t n, uint32_t tau, uint32_t points,
			     double *mean, uint32_t *max, uint64_t *hist, struct pl_error *err)
{
	struct pl_wss *w;

	if (!tau || !points || points > n) {
		pl_analysis_fail(err, "the window and the points must be >= 1, "
				 "points <= references");
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (w) {
		*w = (struct pl_wss){ .tau = tau, .points = points, .n = n, .npages = npages,
				      .mean = mean, .max = max, .hist = hist };
		w->count = calloc((size_t)npages + 1, sizeof(*w->count));
		w->ring = malloc((size_t)tau * sizeof(*w->ring));
		w->steps = calloc(points, sizeof(*w->steps));
	}
	if (!w || !w->count || !w->ring || !w->steps) {
		pl_wss_destroy(w);
		pl_analysis_fail(err, "out of memory");
		return NULL;
	}
	memset(mean, 0, points * sizeof(*mean));
	memset(max, 0, points * sizeof(*max));
	memset(hist, 0, ((size_t)tau + 1) * sizeof(*hist));
	return w;
}

int pl_wss_add(struct pl_wss *w, const uint32_t *page, uint32_t count, struct pl_error *err)
{
	if (count > w->n - w->added)
		return pl_analysis_fail(err, "more references than the series was made for");
	for (uint32_t k = 0; k < count; k++, w->added++) {
		uint32_t b = bucket_of(w->added, w->n, w->points);
		uint32_t *slot = &w->ring[w->added % w->tau];

		if (page[k] >= w->npages)
			return pl_analysis_fail(err, "a page id beyond the pages given");
		if (w->added >= w->tau)
			w->size -= !--w->count[*slot];
		*slot = page[k];
		w->size += !w->count[page[k]]++;
		w->mean[b] += w->size;
		w->steps[b]++;
		if (w->size > w->max[b])
			w->max[b] = w->size;
		w->hist[w->size]++;
	}
	return 0;
}

int pl_wss_finish(struct pl_wss *w, struct pl_error *err)
{
	if (w->added != w->n)
		return pl_analysis_fail(err, "fewer references than the series was made for");
	for (uint32_t b = 0; b < w->points; b++)
		w->mean[b] /= w->steps[b];
	return 0;
}

int pl_wss_series(const struct pl_trace *t, uint32_t tau, uint32_t points, double *mean,
		  uint32_t *max, uint64_t *hist, struct pl_error *err)
{
	struct pl_wss *w = pl_wss_create(t->npages, t->n, tau, points, mean, max, hist, err);
	int ret;

	if (!w)
		return -1;
	ret = pl_wss_add(w, t->page, t->n, err) || pl_wss_finish(w, err) ? -1 : 0;
	pl_wss_destroy(w);
	return ret;
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

struct pl_pattern {
	uint32_t time_bins, page_bins, npages;
	uint64_t n, added;
	uint32_t *rank;		/* [npages] each page's rank by page number */
	uint32_t *counts;
};

void pl_pattern_destroy(struct pl_pattern *p)
{
	if (p)
		free(p->rank);
	free(p);
}

struct pl_pattern *pl_pattern_create(const uint64_t *number, uint32_t npages, uint64_t n,
				     uint32_t time_bins, uint32_t page_bins, uint32_t *counts,
				     struct pl_error *err)
{
	struct ranked_page *order;
	struct pl_pattern *p;

	if (!time_bins || !page_bins || time_bins > n || page_bins > npages) {
		pl_analysis_fail(err, "the bins must be >= 1 and at most the references and pages");
		return NULL;
	}
	order = malloc((size_t)npages * sizeof(*order));
	p = calloc(1, sizeof(*p));
	if (p) {
		*p = (struct pl_pattern){ .time_bins = time_bins, .page_bins = page_bins,
					  .npages = npages, .n = n, .counts = counts };
		p->rank = malloc((size_t)npages * sizeof(*p->rank));
	}
	if (!order || !p || !p->rank) {
		free(order);
		pl_pattern_destroy(p);
		pl_analysis_fail(err, "out of memory");
		return NULL;
	}
	for (uint32_t i = 0; i < npages; i++)
		order[i] = (struct ranked_page){ number[i], i };
	qsort(order, npages, sizeof(*order), by_page_number);
	for (uint32_t r = 0; r < npages; r++)
		p->rank[order[r].page] = r;
	free(order);
	memset(counts, 0, (size_t)time_bins * page_bins * sizeof(*counts));
	return p;
}

int pl_pattern_add(struct pl_pattern *p, const uint32_t *page, uint32_t count,
		   struct pl_error *err)
{
	if (count > p->n - p->added)
		return pl_analysis_fail(err, "more references than the pattern was made for");
	for (uint32_t k = 0; k < count; k++, p->added++) {
		if (page[k] >= p->npages)
			return pl_analysis_fail(err, "a page id beyond the pages given");
		p->counts[(size_t)bucket_of(p->added, p->n, p->time_bins) * p->page_bins +
			  bucket_of(p->rank[page[k]], p->npages, p->page_bins)]++;
	}
	return 0;
}

int pl_pattern_finish(struct pl_pattern *p, struct pl_error *err)
{
	return p->added == p->n ? 0 :
	       pl_analysis_fail(err, "fewer references than the pattern was made for");
}

int pl_access_pattern(const struct pl_trace *t, uint32_t time_bins, uint32_t page_bins,
		      uint32_t *counts, struct pl_error *err)
{
	struct pl_pattern *p = pl_pattern_create(t->number, t->npages, t->n, time_bins,
						 page_bins, counts, err);
	int ret;

	if (!p)
		return -1;
	ret = pl_pattern_add(p, t->page, t->n, err) || pl_pattern_finish(p, err) ? -1 : 0;
	pl_pattern_destroy(p);
	return ret;
}
