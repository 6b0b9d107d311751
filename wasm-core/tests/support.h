/* SPDX-License-Identifier: GPL-2.0 */
/*
 * support.h - helpers that let a test say what it means in one line.
 *
 * Every helper that cannot do its job (unknown policy, bad reference string,
 * bad parameter, a simulation that stops on a broken invariant) prints why
 * and ends the test as failed: a test never goes on with a half-built run.
 *
 * Strings returned (page lists, descriptions) live in a ring of static
 * buffers: each stays valid until 16 more have been returned, plenty for
 * the CHECK_STR_EQ that compares it.  Pages are shown as the input page
 * numbers, in decimal.
 *
 * Description format (run_describe):
 *   "<list>: <page> <page>...; <list>: ..." for every list in the policy's
 *   order, a page's non-zero fields in parentheses, "7(referenced=1,age=3)",
 *   then "; <hand>=<position>" for every hand.
 *   Example (CLOCK):  "frames: 1(ref=1) 2 3; hand=1"
 */
#ifndef PAGELAB_TEST_SUPPORT_H
#define PAGELAB_TEST_SUPPORT_H

#include "pagelab.h"

/* One simulation over a reference string: the trace and the sim together. */
struct run {
	const struct pl_policy_ops *ops;
	struct pl_trace trace;
	struct pl_sim *sim;
};

/*
 * Sets up `policy` with `frames` frames over the reference string `refs`
 * (pagelab.h syntax), parameters "k=v k=v" (or NULL), PL_SIM_* flags.
 */
void run_start(struct run *r, const char *policy, uint32_t frames, const char *refs,
	       const char *params, unsigned flags);
/* Takes one step (fails the test if the simulation stops on an error). */
void run_step(struct run *r);
/* Takes the remaining steps. */
void run_to_end(struct run *r);
void run_free(struct run *r);

/* The live structure, in the format above. */
const char *run_describe(const struct run *r);
/* The pages of one list of the live structure, head first: "3 2 1". */
const char *run_list(const struct run *r, const char *list);
/* A policy counter by name. */
uint64_t run_counter(const struct run *r, const char *counter);
/* A snapshot in the description format (for replayed / sought snapshots). */
const char *describe_snapshot(const struct pl_policy_ops *ops, const struct pl_trace *t,
			      const struct pl_snapshot *s);

/* One-liners: run to the end and report. */
struct pl_stats simulate(const char *policy, uint32_t frames, const char *refs,
			 const char *params);
const char *final_list(const char *policy, uint32_t frames, const char *refs,
		       const char *params, const char *list);
const char *final_describe(const char *policy, uint32_t frames, const char *refs,
			   const char *params);
uint64_t final_counter(const char *policy, uint32_t frames, const char *refs,
		       const char *params, const char *counter);

/*
 * How many of `traces` random traces (from `seed`) `differences` finds
 * wrong (it returns the mismatches on one trace and prints them), stopping
 * after 3 such traces: enough to show the failure, not a flood.
 */
unsigned random_traces_failing(unsigned traces, uint64_t seed,
			       unsigned (*differences)(uint64_t *rng, unsigned trace));

/* Ends the current test as failed, with a message. */
void test_abort(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif /* PAGELAB_TEST_SUPPORT_H */
