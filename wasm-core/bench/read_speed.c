/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_speed.c - how fast a trace file is read, for bench/traces.py.
 *
 *   build/read-speed FILE [FORMAT]
 *
 * Reads FILE through a pl_reader (FORMAT: a pl_format name, default auto)
 * to the end without simulating anything, and prints one line
 * "SECONDS BYTES REFERENCES": SECONDS is the CPU time of the whole read
 * (decompressing, parsing, handing out batches), BYTES the size of the
 * file as stored (compressed if it is), so BYTES / SECONDS is the rate a
 * trace of that kind reaches the simulator at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "pagelab.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct pl_read_options opts = { .format = PL_FORMAT_AUTO };
	unsigned long long refs = 0;
	struct pl_error err;
	struct pl_reader *r;
	struct pl_refs b;
	struct stat st;
	double start;
	int got;

	if (argc < 2 || (argc > 2 && pl_format_find(argv[2], &opts.format)) || stat(argv[1], &st)) {
		fprintf(stderr, "usage: read-speed FILE [FORMAT]\n");
		return 2;
	}
	start = cpu_now();
	r = pl_reader_open_file(argv[1], &opts, &err);
	if (!r) {
		fprintf(stderr, "read-speed: %s\n", err.msg);
		return 1;
	}
	while ((got = pl_reader_next(r, &b, &err)) > 0)
		refs += b.n;
	pl_reader_close(r);
	if (got < 0) {
		fprintf(stderr, "read-speed: %s\n", err.msg);
		return 1;
	}
	printf("%.6f %lld %llu\n", cpu_now() - start, (long long)st.st_size, refs);
	return 0;
}
