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

/*
 * The shape of a synthetic workload (loop, uniform, zipf, hotscan, phases,
 * mix); 0 in a field means its default, which follows the memory size
 * (workloads.c).  The seeds' workloads ignore it.
 */
struct workload_shape {
	uint64_t length;	/* references */
	uint32_t pages;		/* pages the workload draws from (per process for mix) */
	double alpha;		/* zipf exponent */
	uint32_t hot;		/* hotscan: the hot set */
	uint32_t scan;		/* hotscan: pages per one-time scan */
	uint32_t every;		/* hotscan: references between scans */
	uint32_t phases;	/* phases: how many working sets */
	uint32_t procs;		/* mix: processes */
	uint32_t writes;	/* percent of references that write */
};

struct workload {
	const char *name;	/* "seed002-lruk-wins" */
	const char *help;	/* one line */
	bool timed;		/* carries a time per reference (ms) */
	void (*generate)(struct gen *g);
	bool shaped;		/* a synthetic workload: takes a workload_shape */
};

extern const struct workload workloads[];	/* ended by { NULL } */

const struct workload *workload_find(const char *name);
/* Appends the workload to `trace` (1 <= memory <= WORKLOAD_MAX_MEMORY); 0 or -1 with err. */
int workload_generate(const struct workload *w, uint32_t memory, uint64_t seed,
		      struct pl_trace *trace, struct pl_error *err);
/* The same with a shape (NULL: every default). */
int workload_generate_shaped(const struct workload *w, uint32_t memory, uint64_t seed,
			     const struct workload_shape *shape, struct pl_trace *trace,
			     struct pl_error *err);

#endif /* PAGELAB_WORKLOADS_H */
