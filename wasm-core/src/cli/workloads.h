/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads.h - the seeds' workloads, generated as traces scaled to a
 * memory size (workloads.c says what each stands for).  Used by `pagelab
 * gen` and `pagelab experiment`.
 */
#ifndef PAGELAB_WORKLOADS_H
#define PAGELAB_WORKLOADS_H

#include "pagelab.h"

#define WORKLOAD_MAX_MEMORY (1u << 20)	/* pages; the longest trace is ~25 x memory */

struct gen;

struct workload {
	const char *name;	/* "seed002-lruk-wins" */
	const char *help;	/* one line */
	bool timed;		/* carries a time per reference (ms) */
	void (*generate)(struct gen *g);
};

extern const struct workload workloads[];	/* ended by { NULL } */

const struct workload *workload_find(const char *name);
/* Appends the workload to `trace` (1 <= memory <= WORKLOAD_MAX_MEMORY); 0 or -1 with err. */
int workload_generate(const struct workload *w, uint32_t memory, uint64_t seed,
		      struct pl_trace *trace, struct pl_error *err);

#endif /* PAGELAB_WORKLOADS_H */
