// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_reuse.c - `pagelab reuse`: the histogram of LRU stack (reuse)
 * distances in power-of-two buckets, first references apart.  A reference
 * at distance d hits in LRU with d frames or more, so the histogram is the
 * derivative of LRU's miss-ratio curve: a peak at d says "d frames capture
 * a loop".
 */
#include "cli.h"
#include "analysis.h"

static const struct cli_option reuse_options[] = {
	CLI_INPUT_OPTIONS, CLI_ANALYSIS_OUTPUTS, { NULL },
};

#define MAX_BUCKETS 33	/* 1, 2-3, 4-7, ..., up to 2^32 - 1 */

struct buckets {
	uint64_t references, first, count[MAX_BUCKETS];
	uint32_t distinct;
	unsigned n;	/* buckets up to the longest distance seen */
};

static unsigned bucket_of(uint32_t distance)
{
	unsigned b = 0;

	while (distance >>= 1)
		b++;
	return b;
}

/* Every reference of a trace file into l as it is read; 0 or -1 with err. */
static int locality_stream(const struct cli_args *a, struct pl_locality *l,
			   struct cli_progress *progress, struct pl_error *err)
{
	struct pl_reader *r;
	struct pl_refs b;
	int got, ret;

	if ((ret = cli_open_reader(a, &r)))
		return ret;
	while ((got = pl_reader_next(r, &b, err)) > 0) {
		if (pl_locality_add_numbers(l, b.number, b.n, err)) {
			got = -1;
			break;
		}
		cli_progress_update(progress, pl_locality_references(l));
	}
	if (!got && !pl_locality_references(l))
		got = -1, snprintf(err->msg, sizeof(err->msg), "%s: no references",
				   pl_reader_name(r));
	else if (!got)
		cli_report_reader(r);
	pl_reader_close(r);
	return got ? cli_fail("%s", err->msg) : 0;
}

static int locality_refs(const struct cli_args *a, struct pl_locality *l,
			 struct cli_progress *progress, struct pl_error *err)
{
	struct pl_trace t;
	int ret;

	pl_trace_init(&t);
	if (!(ret = cli_load_trace(a, &t)) &&
	    pl_locality_add_trace(l, &t, cli_progress_callback, progress, err))
		ret = cli_fail("%s", err->msg);
	pl_trace_free(&t);
	return ret;
}

int cli_locality(const struct cli_args *a, uint32_t max_window, const char *what,
		 struct pl_locality **out)
{
	struct cli_progress progress;
	struct pl_error err;
	int ret;

	if (!(*out = pl_locality_create(max_window, &err)))
		return cli_fail("%s", err.msg);
	cli_progress_start(&progress, what, "references", 0);
	ret = cli_value(a, "--trace") ? locality_stream(a, *out, &progress, &err) :
					locality_refs(a, *out, &progress, &err);
	cli_progress_end(&progress);
	if (ret) {
		pl_locality_destroy(*out);
		*out = NULL;
	}
	return ret;
}

static int gather(const struct cli_args *a, struct buckets *b)
{
	struct pl_locality *l;
	const uint64_t *hist;
	uint32_t len;
	int ret;

	if ((ret = cli_locality(a, 0, "reuse", &l)))
		return ret;
	hist = pl_locality_stack_histogram(l, &len);
	*b = (struct buckets){ .references = pl_locality_references(l), .first = hist[0],
			       .distinct = pl_locality_distinct(l) };
	for (uint32_t d = 1; d < len; d++) {
		if (!hist[d])
			continue;
		b->count[bucket_of(d)] += hist[d];
		if (bucket_of(d) + 1 > b->n)
			b->n = bucket_of(d) + 1;
	}
	pl_locality_destroy(l);
	return 0;
}

static uint64_t bucket_to(unsigned i)
{
	return (2ull << i) - 1;
}

static void print(const struct buckets *b, char format)
{
	if (format == 'j') {
		printf("{\"references\":%llu,\"distinct\":%u,\"first_references\":%llu,\"buckets\":[",
		       (unsigned long long)b->references, b->distinct, (unsigned long long)b->first);
		for (unsigned i = 0; i < b->n; i++)
			printf("%s\n{\"from\":%llu,\"to\":%llu,\"references\":%llu}", i ? "," : "",
			       1ull << i, (unsigned long long)bucket_to(i),
			       (unsigned long long)b->count[i]);
		printf("%s]}\n", b->n ? "\n" : "");
		return;
	}
	if (format == 'c') {
		printf("from,to,references\n");
		for (unsigned i = 0; i < b->n; i++)
			printf("%llu,%llu,%llu\n", 1ull << i, (unsigned long long)bucket_to(i),
			       (unsigned long long)b->count[i]);
		return;
	}
	printf("reuse distances of %llu references to %u distinct pages\n"
	       "(distance d: d-1 other pages used since the last use; LRU hits with >= d "
	       "frames)\n\n%24s %12s %8s\n", (unsigned long long)b->references, b->distinct,
	       "distance", "references", "share");
	printf("%24s %12llu %7.2f%%\n", "first use", (unsigned long long)b->first,
	       100.0 * (double)b->first / (double)b->references);
	for (unsigned i = 0; i < b->n; i++) {
		char range[32];

		snprintf(range, sizeof(range), "%llu .. %llu", 1ull << i,
			 (unsigned long long)bucket_to(i));
		printf("%24s %12llu %7.2f%%\n", i ? range : "1",
		       (unsigned long long)b->count[i],
		       100.0 * (double)b->count[i] / (double)b->references);
	}
}

static int plot(const struct buckets *b, const char *path)
{
	static char text[MAX_BUCKETS][24];
	const char *labels[MAX_BUCKETS];
	double values[MAX_BUCKETS];
	struct svg_chart chart = {
		.title = "Reuse distances", .x_label = "stack distance (from, power-of-two buckets)",
		.y_label = "references",
	};

	for (unsigned i = 0; i < b->n; i++) {
		snprintf(text[i], sizeof(text[i]), "%llu", 1ull << i);
		labels[i] = text[i];
		values[i] = (double)b->count[i];
	}
	return svg_bars(path, &chart, labels, values, b->n);
}

static int reuse_main(const struct cli_args *a)
{
	const char *svg = cli_value(a, "--svg");
	struct buckets b = { 0 };
	char format;
	int ret;

	if ((ret = cli_output_format(a, &format)))
		return ret;
	ret = gather(a, &b);
	if (!ret)
		print(&b, format);
	if (!ret && svg)
		ret = plot(&b, svg);
	return ret;
}

const struct cli_command cli_command_reuse = {
	.name = "reuse",
	.summary = "histogram of reuse (LRU stack) distances",
	.usage =
	"usage: pagelab reuse (--refs STRING | --trace FILE) [--json | --csv] [--svg FILE]\n"
	"\n"
	"How many references come back to a page after d distinct pages, in\n"
	"power-of-two buckets of d; first references apart.\n"
	"\n"
	"  --json      {\"references\", \"distinct\", \"first_references\", \"buckets\":\n"
	"              [{\"from\", \"to\", \"references\"}]}\n"
	"  --csv       the buckets as comma-separated values\n"
	"  --svg FILE  also draw the histogram into FILE\n",
	.example = "example: pagelab reuse --trace trace.txt\n",
	.reads_trace = true,
	.options = reuse_options,
	.run = reuse_main,
};
