/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procs.c - the processes of a trace (procs.h): one pass over the pid
 * column, a sorted table of at most PL_MAX_PROCESSES pids (an insertion
 * costs O(processes), paid once per process), lookups by binary search
 * behind a one-entry cache, since a process's references come in runs.
 */
#include <stdlib.h>
#include <string.h>

#include "procs.h"

/* Where pid is in pid[0 .. n-1], or where it would go. */
static uint32_t position(const uint32_t *pid, uint32_t n, uint32_t key)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (pid[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(struct proc_table *pt, uint32_t at, uint32_t pid)
{
	if (pt->n == PL_MAX_PROCESSES)
		return -1;
	memmove(&pt->pid[at + 1], &pt->pid[at], (pt->n - at) * sizeof(*pt->pid));
	memmove(&pt->refs[at + 1], &pt->refs[at], (pt->n - at) * sizeof(*pt->refs));
	pt->pid[at] = pid;
	pt->refs[at] = 0;
	pt->n++;
	return 0;
}

int proc_table_init(struct proc_table *pt, const struct pl_trace *t)
{
	memset(pt, 0, sizeof(*pt));
	if (!t->pid)
		return 0;
	pt->pid = malloc(PL_MAX_PROCESSES * sizeof(*pt->pid));
	pt->refs = calloc(PL_MAX_PROCESSES, sizeof(*pt->refs));
	pt->misses = calloc(PL_MAX_PROCESSES, sizeof(*pt->misses));
	if (!pt->pid || !pt->refs || !pt->misses) {
		proc_table_free(pt);
		return -1;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t at = position(pt->pid, pt->n, t->pid[i]);

		if ((at == pt->n || pt->pid[at] != t->pid[i]) && insert(pt, at, t->pid[i])) {
			pt->n = 0;	/* too many to keep apart */
			return 0;
		}
		pt->refs[at]++;
	}
	pt->last_pid = pt->n ? pt->pid[0] : 0;
	return 0;
}

void proc_table_free(struct proc_table *pt)
{
	free(pt->pid);
	free(pt->refs);
	free(pt->misses);
	memset(pt, 0, sizeof(*pt));
}

uint32_t proc_table_find(struct proc_table *pt, uint32_t pid)
{
	if (pid != pt->last_pid) {
		pt->last_pid = pid;
		pt->last = position(pt->pid, pt->n, pid);
	}
	return pt->last;
}
