/* SPDX-License-Identifier: GPL-2.0 */
/*
 * time_policies.c - CPU time of pagelab policies over one trace file, for
 * bench/vs_libcachesim.py, which times libCacheSim on the same requests.
 *
 *   build/time-policies FILE FRAMES NAME[,NAME...]
 *
 * Reads FILE (any format pl_trace_read() accepts) once, then for each
 * policy prints one line "NAME SECONDS MISSES REFERENCES": SECONDS is the
 * CPU time of pl_sim_run() over the whole trace with recording off, the
 * trace already in memory (creating the simulation is not counted).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pagelab.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int time_policy(const char *name, const struct pl_trace *t, uint32_t frames)
{
	const struct pl_policy_ops *ops = pl_policy_find(name);
	struct pl_error err;
	struct pl_sim *sim;
	double start;

	if (!ops) {
		fprintf(stderr, "time-policies: unknown policy '%s'\n", name);
		return 1;
	}
	sim = pl_sim_create(ops, frames, NULL, t, 0, 0, &err);
	if (!sim) {
		fprintf(stderr, "time-policies: %s: %s\n", name, err.msg);
		return 1;
	}
	start = cpu_now();
	pl_sim_run(sim, UINT32_MAX);
	printf("%s %.6f %llu %llu\n", name, cpu_now() - start,
	       (unsigned long long)pl_sim_stats(sim)->misses,
	       (unsigned long long)pl_sim_stats(sim)->references);
	pl_sim_destroy(sim);
	return 0;
}

int main(int argc, char **argv)
{
	struct pl_trace t;
	struct pl_error err;
	FILE *in;
	int status = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: time-policies FILE FRAMES NAME[,NAME...]\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	pl_trace_init(&t);
	if (pl_trace_read(&t, in, argv[1], &err)) {
		fprintf(stderr, "time-policies: %s\n", err.msg);
		return 1;
	}
	fclose(in);
	for (char *name = strtok(argv[3], ","); name; name = strtok(NULL, ","))
		status |= time_policy(name, &t, (uint32_t)strtoul(argv[2], NULL, 10));
	pl_trace_free(&t);
	return status;
}
