/* SPDX-License-Identifier: GPL-2.0 */
/*
 * local.c - local replacement (`--scope local`): every process of a trace
 * gets its own share of the frames and its own instance of the policy,
 * and replaces only among its own pages.  Interface: pl_local_* in
 * pagelab.h.
 *
 *   trace (pid column)      1:7 2:40 1:8 1:7 2:41 ...
 *                            |            |
 *   process 1, frames f1:   7 8 7 ...      one pl_sim over the
 *   process 2, frames f2:   40 41 ...      references of its process
 *
 * With local replacement the processes cannot take frames from each
 * other, so each one's run depends only on its own references: a process
 * is simulated as a pl_sim over the sub-trace of its references, which
 * keeps the trace's times (its time column, or else each reference's
 * index in the whole trace, so that time-based policies see the same
 * clock as under global scope).  Reference-counted parameters (WS's tau,
 * PFF's threshold, tick periods) count the process's own references: its
 * virtual time, as Denning's working set defines it.  The processes are
 * advanced in trace order, a run of one process's references at a time,
 * so pl_local_run(l, k) has done exactly the first k references.
 *
 * Shares: equal by default; with weights, process i gets
 * floor(frames * w_i / W) frames and the frames left over go one each to
 * the largest remainders (the lower pid on a tie).  Every process needs at
 * least one frame.  An unbounded memory (a variable-space policy without
 * --frames) stays unbounded for every process.
 *
 * Pages: a page number names one page of memory.  Under local scope a
 * page belongs to the one process that references it; a number referenced
 * by two processes is refused (private pages of different processes must
 * be numbered apart, e.g. pid << 32 | page, as `pagelab gen` does).
 *
 * A trace without a pid column is one process, pid 0: local scope then
 * runs the same simulation as global scope (tested).
 *
 * Cost: one pass to split the trace (4 + 1 + 8 bytes per reference for
 * the sub-traces), then each process's own simulation; no recording (a
 * snapshot of several policy instances is not one policy's structure).
 */
#include <stdlib.h>
#include <string.h>

#include "procs.h"

struct local_proc {
	uint32_t pid;
	uint32_t frames;
	struct pl_trace trace;	/* its references */
	struct pl_sim *sim;
};

struct pl_local {
	const struct pl_policy_ops *ops;
	const struct pl_trace *trace;
	uint32_t nprocs;
	struct local_proc *proc;	/* [nprocs], ascending pid */
	uint32_t *proc_of_page;		/* [npages] index into proc, or PL_NONE */
	uint32_t pos;			/* references done */
	uint32_t resident;		/* pages resident, all processes */
	uint64_t resident_sum;		/* resident after each reference, summed */
	char error[320];
	bool failed;
};

static uint32_t pid_at(const struct pl_trace *t, uint32_t i)
{
	return t->pid ? t->pid[i] : 0;
}

static int fail_create(struct pl_error *err, const char *msg)
{
	snprintf(err->msg, sizeof(err->msg), "%s", msg);
	return -1;
}

/* The index of a pid in proc[], or nprocs if the trace has no such process. */
static uint32_t find_proc(const struct pl_local *l, uint32_t pid)
{
	for (uint32_t lo = 0, hi = l->nprocs; lo < hi;) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->proc[mid].pid == pid)
			return mid;
		if (l->proc[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return l->nprocs;
}

/* The processes of the trace, ascending, and each page's one owner. */
static int find_processes(struct pl_local *l, struct pl_error *err)
{
	const struct pl_trace *t = l->trace;
	struct proc_table pt;

	if (proc_table_init(&pt, t))
		return fail_create(err, "out of memory for local scope");
	l->nprocs = t->pid ? pt.n : 1;
	l->proc = calloc(l->nprocs ? l->nprocs : 1, sizeof(*l->proc));
	l->proc_of_page = malloc(((size_t)t->npages + 1) * sizeof(*l->proc_of_page));
	for (uint32_t i = 0; l->proc && i < l->nprocs; i++)
		l->proc[i].pid = t->pid ? pt.pid[i] : 0;
	proc_table_free(&pt);
	if (!l->proc || !l->proc_of_page)
		return fail_create(err, "out of memory for local scope");
	if (!l->nprocs && t->n)
		return fail_create(err, "--scope local: the trace has more than 4096 processes");
	for (uint32_t p = 0; p < t->npages; p++)
		l->proc_of_page[p] = PL_NONE;
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t page = t->page[i], proc = find_proc(l, pid_at(t, i));

		if (l->proc_of_page[page] == PL_NONE) {
			l->proc_of_page[page] = proc;
		} else if (l->proc_of_page[page] != proc) {
			snprintf(err->msg, sizeof(err->msg), "--scope local: page %llu is referenced "
				 "by processes %u and %u; under local scope a page belongs to one "
				 "process (number private pages apart, e.g. pid << 32 | page)",
				 (unsigned long long)t->number[page],
				 l->proc[l->proc_of_page[page]].pid, pid_at(t, i));
			return -1;
		}
	}
	return 0;
}

/* Frames per process by weight (largest remainders); -1 if one gets none. */
static int split_frames(struct pl_local *l, uint32_t frames, const uint64_t *weight,
			struct pl_error *err)
{
	uint64_t total = 0, given = 0;
	uint64_t *rest = calloc(l->nprocs, sizeof(*rest));

	if (!rest)
		return fail_create(err, "out of memory for local scope");
	for (uint32_t i = 0; i < l->nprocs; i++)
		total += weight[i];
	for (uint32_t i = 0; i < l->nprocs; i++) {
		uint64_t share = (uint64_t)frames * weight[i];	/* < 2^64: both < 2^32 */

		l->proc[i].frames = (uint32_t)(share / total);
		rest[i] = (uint64_t)(share % total);
		given += l->proc[i].frames;
	}
	for (; given < frames; given++) {
		uint32_t best = 0;

		for (uint32_t i = 1; i < l->nprocs; i++)
			if (rest[i] > rest[best])
				best = i;
		l->proc[best].frames++;
		rest[best] = 0;
	}
	free(rest);
	for (uint32_t i = 0; i < l->nprocs; i++) {
		if (!l->proc[i].frames) {
			snprintf(err->msg, sizeof(err->msg), "--scope local: process %u's share of "
				 "%u frames is less than one frame (%u processes)", l->proc[i].pid,
				 frames, l->nprocs);
			return -1;
		}
	}
	return 0;
}

/* Each process's weight: 1, or its entry in shares (every process needs one). */
static int weights(const struct pl_local *l, const struct pl_share *shares, unsigned nshares,
		   uint64_t *weight, struct pl_error *err)
{
	for (uint32_t i = 0; i < l->nprocs; i++)
		weight[i] = nshares ? 0 : 1;
	for (unsigned s = 0; s < nshares; s++) {
		uint32_t at = find_proc(l, shares[s].pid);

		if (at == l->nprocs) {
			snprintf(err->msg, sizeof(err->msg), "share: the trace has no process %u",
				 shares[s].pid);
			return -1;
		}
		if (weight[at] || !shares[s].weight) {
			snprintf(err->msg, sizeof(err->msg), "share: process %u %s", shares[s].pid,
				 weight[at] ? "is given twice" : "needs a share above 0");
			return -1;
		}
		weight[at] = shares[s].weight;
	}
	for (uint32_t i = 0; i < l->nprocs; i++) {
		if (!weight[i]) {
			snprintf(err->msg, sizeof(err->msg), "share: process %u has no share (give "
				 "one for every process, e.g. share=%u:1,...)", l->proc[i].pid,
				 l->proc[i].pid);
			return -1;
		}
	}
	return 0;
}

/* Each process's sub-trace: its references with the trace's times. */
static int split_trace(struct pl_local *l)
{
	const struct pl_trace *t = l->trace;

	for (uint32_t i = 0; i < l->nprocs; i++)
		pl_trace_init(&l->proc[i].trace);
	for (uint32_t i = 0; i < t->n; i++) {
		struct pl_trace *sub = &l->proc[l->proc_of_page[t->page[i]]].trace;

		if (pl_trace_add(sub, t->number[t->page[i]], t->flags[i]) == PL_NONE ||
		    pl_trace_set_vtime(sub, t->vtime ? t->vtime[i] : i))
			return -1;
	}
	return 0;
}

struct pl_local *pl_local_create(const struct pl_policy_ops *ops, uint32_t frames,
				 const int64_t *params, const struct pl_trace *trace,
				 const struct pl_share *shares, unsigned nshares,
				 struct pl_error *err)
{
	struct pl_local *l = calloc(1, sizeof(*l));
	uint64_t *weight = NULL;
	bool unbounded = pl_policy_variable_space(ops) && frames >= trace->npages;

	if (!l) {
		fail_create(err, "out of memory for local scope");
		return NULL;
	}
	l->ops = ops;
	l->trace = trace;
	if (find_processes(l, err))
		goto fail;
	weight = malloc(l->nprocs * sizeof(*weight));
	if (!weight) {
		fail_create(err, "out of memory for local scope");
		goto fail;
	}
	if (weights(l, shares, nshares, weight, err))
		goto fail;
	if (unbounded) {
		for (uint32_t i = 0; i < l->nprocs; i++)
			l->proc[i].frames = frames;
	} else if (split_frames(l, frames, weight, err)) {
		goto fail;
	}
	if (split_trace(l)) {
		fail_create(err, "out of memory for the processes' traces");
		goto fail;
	}
	for (uint32_t i = 0; i < l->nprocs; i++) {
		l->proc[i].sim = pl_sim_create(ops, l->proc[i].frames, params, &l->proc[i].trace,
					       0, 0, err);
		if (!l->proc[i].sim)
			goto fail;
	}
	free(weight);
	return l;
fail:
	free(weight);
	pl_local_destroy(l);
	return NULL;
}

void pl_local_destroy(struct pl_local *l)
{
	if (!l)
		return;
	for (uint32_t i = 0; l->proc && i < l->nprocs; i++) {
		pl_sim_destroy(l->proc[i].sim);
		pl_trace_free(&l->proc[i].trace);
	}
	free(l->proc);
	free(l->proc_of_page);
	free(l);
}

uint32_t pl_local_run(struct pl_local *l, uint32_t steps)
{
	const struct pl_trace *t = l->trace;
	uint32_t start = l->pos;
	uint32_t stop = steps < t->n - start ? start + steps : t->n;

	while (l->pos < stop && !l->failed) {
		uint32_t owner = l->proc_of_page[t->page[l->pos]], run = 1;
		struct pl_sim *sim = l->proc[owner].sim;
		uint64_t before = pl_sim_stats(sim)->resident_sum;
		uint32_t others = l->resident - pl_sim_resident(sim);

		while (l->pos + run < stop && l->proc_of_page[t->page[l->pos + run]] == owner)
			run++;
		if (pl_sim_run(sim, run) != run || pl_sim_error(sim)) {
			l->failed = true;
			snprintf(l->error, sizeof(l->error), "process %u: %s", l->proc[owner].pid,
				 pl_sim_error(sim) ? pl_sim_error(sim) : "stopped early");
			break;
		}
		/* the others' pages stay put while this process runs */
		l->resident_sum += pl_sim_stats(sim)->resident_sum - before + (uint64_t)run * others;
		l->resident = others + pl_sim_resident(sim);
		l->pos += run;
	}
	return l->pos - start;
}

const char *pl_local_error(const struct pl_local *l)
{
	return l->failed ? l->error : NULL;
}

uint32_t pl_local_nprocs(const struct pl_local *l)
{
	return l->nprocs;
}

void pl_local_proc(const struct pl_local *l, uint32_t i, uint32_t *pid, uint32_t *frames,
		   struct pl_stats *stats)
{
	*pid = l->proc[i].pid;
	*frames = l->proc[i].frames;
	*stats = *pl_sim_stats(l->proc[i].sim);
}

void pl_local_stats(const struct pl_local *l, struct pl_stats *total)
{
	memset(total, 0, sizeof(*total));
	for (uint32_t i = 0; i < l->nprocs; i++) {
		const struct pl_stats *s = pl_sim_stats(l->proc[i].sim);

		total->references += s->references;
		total->hits += s->hits;
		total->misses += s->misses;
		total->evictions += s->evictions;
		total->writebacks += s->writebacks;
	}
	total->resident_sum = l->resident_sum;
}

void pl_local_counters(const struct pl_local *l, uint64_t *out)
{
	uint64_t mine[PL_MAX_COUNTERS];
	unsigned n = pl_policy_ncounters(l->ops);

	memset(out, 0, n * sizeof(*out));
	for (uint32_t i = 0; i < l->nprocs; i++) {
		pl_sim_counters(l->proc[i].sim, mine);
		for (unsigned c = 0; c < n; c++)
			out[c] += mine[c];
	}
}
