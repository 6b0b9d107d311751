/* SPDX-License-Identifier: GPL-2.0 */
/*
 * peak.c - CPU time, wall time and peak memory of one command, for
 * bench/traces.py.
 *
 *   build/peak COMMAND [ARGS...]
 *
 * Runs COMMAND (stdin, stdout, stderr inherited) and then prints
 * "peak: CPU_SECONDS PEAK_KB WALL_SECONDS" on stderr: CPU is user + system
 * time of all its threads, wall from fork to exit.  A child's peak RSS counts the
 * memory of the process it was forked from as it was at exec, so a large
 * parent (Python with a trace in numpy arrays) would show through; this
 * small process forks instead, and its child's peak is the command's own.
 */
/* wait4() */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start = now();
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: peak COMMAND [ARGS...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("peak: fork");
		return 2;
	}
	if (!pid) {
		execvp(argv[1], argv + 1);
		perror("peak: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("peak: wait4");
		return 2;
	}
	fprintf(stderr, "peak: %.6f %ld %.6f\n",
		(double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
		(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6, ru.ru_maxrss,
		now() - start);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
