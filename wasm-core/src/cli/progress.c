// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - a progress bar on standard error for long analyses, shown
 * only when standard error is a terminal (never in a pipe, a log or a
 * test), redrawn at most ten times a second:
 *
 *   mrc: [##########..........] 45/100 sizes, 12 s left
 *   mrc: 3145728 references          (a stream of unknown length)
 *
 * Interface: cli.h.  The bar is erased when the work ends, so what follows
 * on the terminal is the command's own output.
 */
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_start(struct cli_progress *p, const char *what, const char *unit,
			uint64_t total)
{
	*p = (struct cli_progress){
		.shown = isatty(STDERR_FILENO), .what = what, .unit = unit, .total = total,
		.start = seconds_now(),
	};
}

void cli_progress_update(struct cli_progress *p, uint64_t done)
{
	enum { WIDTH = 20 };
	double now = seconds_now(), elapsed = now - p->start;
	unsigned filled;

	if (!p->shown || now - p->drawn < 0.1)
		return;
	p->drawn = now;
	if (!p->total) {	/* a stream of unknown length: the count so far */
		fprintf(stderr, "\r%s: %llu %s ", p->what, (unsigned long long)done, p->unit);
		fflush(stderr);
		return;
	}
	filled = (unsigned)(done * WIDTH / p->total);
	fprintf(stderr, "\r%s: [", p->what);
	for (unsigned i = 0; i < WIDTH; i++)
		fputc(i < filled ? '#' : '.', stderr);
	fprintf(stderr, "] %llu/%llu %s", (unsigned long long)done,
		(unsigned long long)p->total, p->unit);
	if (done && done < p->total)
		fprintf(stderr, ", %.0f s left ", elapsed * (double)(p->total - done) / (double)done);
	fflush(stderr);
}

void cli_progress_callback(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ctx;

	p->total = total;
	cli_progress_update(p, done);
}

void cli_progress_end(struct cli_progress *p)
{
	if (p->shown && p->drawn)
		fputs("\r\033[K", stderr);
}
