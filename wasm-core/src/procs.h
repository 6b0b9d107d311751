/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procs.h - the processes of a trace with a pid column, for the
 * statistics per process (sim.c) and local scope (local.c).
 *
 * Invariant: pid[] is ascending and holds every pid of the trace once;
 * refs[i] counts the trace's references by pid[i].  A trace without a pid
 * column, or with more than PL_MAX_PROCESSES pids, has n == 0.
 */
#ifndef PAGELAB_PROCS_H
#define PAGELAB_PROCS_H

#include "pagelab.h"

struct proc_table {
	uint32_t n;
	uint32_t *pid;		/* [n] ascending */
	uint64_t *refs;		/* [n] references by each */
	uint64_t *misses;	/* [n] counted by the driver (global scope) */
	uint32_t last_pid, last;	/* the latest lookup, for runs of one pid */
};

/* -1 when out of memory. */
int proc_table_init(struct proc_table *pt, const struct pl_trace *t);
void proc_table_free(struct proc_table *pt);
/* The index of a pid of the trace. */
uint32_t proc_table_find(struct proc_table *pt, uint32_t pid);

#endif /* PAGELAB_PROCS_H */
