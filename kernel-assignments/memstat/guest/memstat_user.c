// SPDX-License-Identifier: GPL-2.0
/*
 * memstat_user: prints one memstat(2) snapshot, laid out like the report
 * this assignment comes from (seed 001), and how long the call took.
 *
 *   memstat_user         exit 0 after printing; exit 1 with the reason on
 *                        stderr when the call fails (e.g. not implemented)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "memstat_call.h"

static long long microseconds_between(const struct timespec *start,
				      const struct timespec *end)
{
	return (end->tv_sec - start->tv_sec) * 1000000LL +
	       (end->tv_nsec - start->tv_nsec) / 1000;
}

static void print_snapshot(const struct memstat *stat, long long microseconds)
{
	printf("Active File page      : %llu\n", (unsigned long long)stat->active_file);
	printf("Inactive File page    : %llu\n", (unsigned long long)stat->inactive_file);
	printf("Active Anon page      : %llu\n", (unsigned long long)stat->active_anon);
	printf("Inactive Anon page    : %llu\n", (unsigned long long)stat->inactive_anon);
	printf("\n");
	printf("Referenced Active page : %llu\n",
	       (unsigned long long)stat->referenced_active);
	printf("Referenced Inactive page : %llu\n",
	       (unsigned long long)stat->referenced_inactive);
	printf("\n");
	printf("Cumulated promoted page : %llu\n", (unsigned long long)stat->promoted);
	printf("Cumulated demoted page : %llu\n", (unsigned long long)stat->demoted);
	printf("\n");
	printf("Cumulated evicted page : %llu\n", (unsigned long long)stat->evicted);
	printf("Total time = %lld microseconds\n", microseconds);
}

int main(void)
{
	struct memstat stat;
	struct timespec start, end;
	long status;

	clock_gettime(CLOCK_MONOTONIC, &start);
	status = memstat(&stat);
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (status != 0) {
		fprintf(stderr, "memstat_user: system call %d failed: %s\n",
			MEMSTAT_SYSCALL_NR, strerror(errno));
		return 1;
	}
	print_snapshot(&stat, microseconds_between(&start, &end));
	return 0;
}
