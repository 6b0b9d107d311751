/* SPDX-License-Identifier: GPL-2.0 */
/*
 * experiments.h - the seed reports' experiments as data: the runs, the
 * counters the report measured, the report's published figures and a
 * verdict that compares them with pagelab's (experiments.c).  Run by
 * `pagelab experiment` (cmd_experiment.c).
 */
#ifndef PAGELAB_EXPERIMENTS_H
#define PAGELAB_EXPERIMENTS_H

#include "cli.h"

#define EXP_MAX_RUNS 32
#define EXP_MAX_COMPARISONS 16
#define EXPERIMENT_NAMES "seed000, seed001, seed002, seed003 or seed004"

/* One simulation: sizes are fractions of the experiment's memory. */
struct exp_run {
	const char *workload;
	const char *policy;
	const char *params;		/* "name=value ...", or NULL */
	uint32_t frames_num, frames_den;	/* frames = memory * num / den; num 0: unbounded */
	const char *scaled_param;	/* a parameter set to memory * num / den, or NULL */
	uint32_t scaled_num, scaled_den;
};

struct exp_result {
	const struct exp_run *run;
	bool ok;
	char error[256];	/* why it did not run */
	char params[64];	/* the parameters as given, scaled one included */
	uint32_t pages;		/* distinct pages of the workload */
	struct cli_result r;
};

struct exp_comparison {
	char label[64];
	char report[24];	/* the report's figure (a ratio, a direction) */
	char pagelab[24];	/* pagelab's */
	bool agrees;
};

struct exp_verdict {
	struct exp_comparison comparisons[EXP_MAX_COMPARISONS];
	unsigned ncomparisons;
	bool reproduced;
	char why[1024];
};

struct experiment {
	const char *name;	/* "seed003" */
	const char *title;
	const char *source;	/* the report and its experiment */
	const char *claim;	/* the report's conclusion */
	const char *const *counters;	/* shown per run, NULL-terminated */
	const struct exp_run *runs;	/* ended by { NULL } */
	void (*verdict)(const struct exp_result *res, unsigned n, struct exp_verdict *v);
};

extern const struct experiment experiments[];
const struct experiment *experiment_find(const char *name);

/* "faults", "refaults" (faults on pages referenced before: faults minus
 * the trace's distinct pages), "evictions", "mean_resident" or a policy
 * counter; -1 if none. */
double exp_counter(const struct exp_result *res, const char *name);

#endif /* PAGELAB_EXPERIMENTS_H */
