// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_wss.c - `pagelab wss`: the working-set size |W(t, tau)| over time for
 * several windows tau, and its distribution: seed 004's plots of how a
 * program's working set grows, holds and jumps between phases.  Time is
 * cut into buckets of consecutive references, each shown by its mean and
 * its largest size: 20 rows for a terminal, 200 points for --json, --csv
 * and the plot.  --svg beside the text table plots its own 200 points,
 * computed in the same pass as the 20 rows (--points sets both).
 */
#include "cli.h"
#include "analysis.h"

static const struct cli_option wss_options[] = {
	CLI_INPUT_OPTIONS, { "--tau", CLI_VALUE }, { "--points", CLI_VALUE },
	CLI_ANALYSIS_OUTPUTS, { NULL },
};

#define MAX_WINDOWS 16

struct window {
	uint32_t tau;
	double *mean;	/* [points] */
	uint32_t *max;	/* [points] */
	uint64_t *hist;	/* [tau + 1] steps by size */
};

struct series {
	struct window w[MAX_WINDOWS];
	unsigned n;
	uint64_t wanted;	/* buckets asked for */
	uint32_t points, references;	/* buckets made: at most the references */
};

/* Buckets for a terminal, and for --json, --csv and the plot. */
#define TEXT_POINTS 20
#define PLOT_POINTS 200

static void free_series(struct series *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		free(s->w[i].mean);
		free(s->w[i].max);
		free(s->w[i].hist);
	}
}

/* Room for every window's series over `references`; 0 or an exit status. */
static int allocate(struct series *s, const struct cli_sizes *taus, uint32_t references)
{
	s->references = references;
	s->points = s->wanted < references ? (uint32_t)s->wanted : references;
	for (s->n = 0; s->n < taus->n; s->n++) {
		struct window *w = &s->w[s->n];

		w->tau = taus->size[s->n];
		w->mean = malloc(s->points * sizeof(*w->mean));
		w->max = malloc(s->points * sizeof(*w->max));
		w->hist = malloc(((size_t)w->tau + 1) * sizeof(*w->hist));
		if (!w->mean || !w->max || !w->hist) {
			s->n++;
			return cli_fail("out of memory");
		}
	}
	return 0;
}

/* Each of the nsets series over a trace in memory; 0 or an exit status. */
static int compute(struct series **sets, unsigned nsets, const struct cli_sizes *taus,
		   const struct pl_trace *t)
{
	struct pl_error err;
	int ret;

	for (unsigned k = 0; k < nsets; k++) {
		struct series *s = sets[k];

		if ((ret = allocate(s, taus, t->n)))
			return ret;
		for (unsigned i = 0; i < s->n; i++) {
			struct window *w = &s->w[i];

			if (pl_wss_series(t, w->tau, s->points, w->mean, w->max, w->hist, &err))
				return cli_fail("%s", err.msg);
		}
	}
	return 0;
}

/* Every window of every series fed together from a parsed trace file's spill. */
struct feeding {
	struct pl_wss *w[2 * MAX_WINDOWS];
	unsigned n;
	struct pl_error err;
};

static int feed_windows(void *ctx, const uint32_t *ids, uint32_t n)
{
	struct feeding *f = ctx;

	for (unsigned i = 0; i < f->n; i++)
		if (pl_wss_add(f->w[i], ids, n, &f->err))
			return cli_fail("%s", f->err.msg);
	return 0;
}

/*
 * A trace file: parsed once (pages interned, ids spilled), then every
 * window's series of each of the nsets series from one replay, in
 * O(distinct pages + tau) memory.
 */
static int compute_streamed(const struct cli_args *a, struct series **sets, unsigned nsets,
			    const struct cli_sizes *taus)
{
	struct feeding f = { .n = 0 };
	struct cli_stream *st;
	uint32_t references;
	int ret;

	if ((ret = cli_stream_open(a, NULL, &st)))
		return ret;
	references = (uint32_t)cli_stream_references(st);
	for (unsigned k = 0; !ret && k < nsets; k++) {
		struct series *s = sets[k];

		ret = allocate(s, taus, references);
		for (unsigned i = 0; !ret && i < s->n; i++, f.n++) {
			struct window *w = &s->w[i];

			f.w[f.n] = pl_wss_create(cli_stream_distinct(st), references, w->tau,
						 s->points, w->mean, w->max, w->hist, &f.err);
			if (!f.w[f.n])
				ret = cli_fail("%s", f.err.msg);
		}
	}
	if (!ret)
		ret = cli_stream_each(st, feed_windows, &f);
	for (unsigned i = 0; !ret && i < f.n; i++)
		if (pl_wss_finish(f.w[i], &f.err))
			ret = cli_fail("%s", f.err.msg);
	for (unsigned i = 0; i < f.n; i++)
		pl_wss_destroy(f.w[i]);
	cli_stream_close(st);
	return ret;
}

/* The first step of bucket b (as pl_wss_series() splits the steps). */
static uint32_t bucket_start(const struct series *s, uint32_t b)
{
	return (uint32_t)(((uint64_t)b * s->references + s->points - 1) / s->points);
}

/* The smallest size w with at least `share` of the steps at sizes <= w. */
static uint32_t percentile(const struct window *w, uint32_t references, double share)
{
	uint64_t seen = 0;

	for (uint32_t size = 0; size <= w->tau; size++) {
		seen += w->hist[size];
		if ((double)seen >= share * references)
			return size;
	}
	return w->tau;
}

static double overall_mean(const struct window *w)
{
	double sum = 0, steps = 0;

	for (uint32_t size = 0; size <= w->tau; size++) {
		sum += (double)size * (double)w->hist[size];
		steps += (double)w->hist[size];
	}
	return steps ? sum / steps : 0;
}

static void print_text(const struct series *s)
{
	printf("working-set size |W(t, tau)|: distinct pages among the last tau of %u "
	       "references\n\n%23s", s->references, "steps");
	for (unsigned i = 0; i < s->n; i++)
		printf(" %9s%-3u", "tau=", s->w[i].tau);
	putchar('\n');
	for (uint32_t b = 0; b < s->points; b++) {
		char range[32];

		snprintf(range, sizeof(range), "%u .. %u", bucket_start(s, b),
			 bucket_start(s, b + 1) - 1);
		printf("%23s", range);
		for (unsigned i = 0; i < s->n; i++)
			printf(" %12.1f", s->w[i].mean[b]);
		putchar('\n');
	}
	printf("\n%23s", "mean");
	for (unsigned i = 0; i < s->n; i++)
		printf(" %12.1f", overall_mean(&s->w[i]));
	printf("\n%23s", "median");
	for (unsigned i = 0; i < s->n; i++)
		printf(" %12u", percentile(&s->w[i], s->references, 0.5));
	printf("\n%23s", "90th percentile");
	for (unsigned i = 0; i < s->n; i++)
		printf(" %12u", percentile(&s->w[i], s->references, 0.9));
	printf("\n%23s", "largest");
	for (unsigned i = 0; i < s->n; i++)
		printf(" %12u", percentile(&s->w[i], s->references, 1.0));
	printf("\n(each row: the mean size over its steps)\n");
}

static void print_json(const struct series *s)
{
	printf("{\"references\":%u,\"series\":[", s->references);
	for (unsigned i = 0; i < s->n; i++) {
		const struct window *w = &s->w[i];
		bool first = true;

		printf("%s\n{\"tau\":%u,\"mean\":%.4f,\"points\":[", i ? "," : "", w->tau,
		       overall_mean(w));
		for (uint32_t b = 0; b < s->points; b++)
			printf("%s{\"from\":%u,\"to\":%u,\"mean\":%.4f,\"max\":%u}", b ? "," : "",
			       bucket_start(s, b), bucket_start(s, b + 1) - 1, w->mean[b], w->max[b]);
		printf("],\"histogram\":[");
		for (uint32_t size = 0; size <= w->tau; size++) {
			if (!w->hist[size])
				continue;
			printf("%s{\"size\":%u,\"steps\":%llu}", first ? "" : ",", size,
			       (unsigned long long)w->hist[size]);
			first = false;
		}
		printf("]}");
	}
	printf("\n]}\n");
}

static void print_csv(const struct series *s)
{
	printf("tau,from,to,mean,max\n");
	for (unsigned i = 0; i < s->n; i++)
		for (uint32_t b = 0; b < s->points; b++)
			printf("%u,%u,%u,%.4f,%u\n", s->w[i].tau, bucket_start(s, b),
			       bucket_start(s, b + 1) - 1, s->w[i].mean[b], s->w[i].max[b]);
}

static int plot(const struct series *s, const char *path)
{
	static char names[MAX_WINDOWS][32];
	struct svg_series lines[MAX_WINDOWS];
	struct svg_chart chart = {
		.title = "Working-set size over time", .x_label = "time (references)",
		.y_label = "|W(t, tau)|, pages",
	};
	double *x = malloc(s->points * sizeof(*x));
	int ret;

	if (!x)
		return cli_fail("out of memory");
	for (uint32_t b = 0; b < s->points; b++)
		x[b] = (bucket_start(s, b) + bucket_start(s, b + 1) - 1) / 2.0;
	for (unsigned i = 0; i < s->n; i++) {
		snprintf(names[i], sizeof(names[i]), "tau = %u", s->w[i].tau);
		lines[i] = (struct svg_series){ names[i], x, s->w[i].mean, s->points };
	}
	ret = svg_lines(path, &chart, lines, s->n);
	free(x);
	return ret;
}

static int wss_main(const struct cli_args *a)
{
	static struct cli_sizes taus;
	static struct series printed, drawn;
	const char *svg = cli_value(a, "--svg");
	struct series *sets[2] = { &printed, &drawn };
	unsigned nsets = 1;
	struct pl_trace trace;
	char format;
	int ret;

	if ((ret = cli_output_format(a, &format)) ||
	    (ret = cli_sizes(a, "--tau", "10,100,1000", &taus)) ||
	    (ret = cli_number(a, "--points", 1, 100000, format ? PLOT_POINTS : TEXT_POINTS,
			      &printed.wanted)))
		return ret;
	if (taus.n > MAX_WINDOWS)
		return cli_usage_error(a, "--tau: at most %d windows", MAX_WINDOWS);
	if (svg && !format && !cli_value(a, "--points")) {
		drawn.wanted = PLOT_POINTS;
		nsets = 2;
	}
	pl_trace_init(&trace);
	if (cli_value(a, "--trace"))
		ret = compute_streamed(a, sets, nsets, &taus);
	else if (!(ret = cli_load_trace(a, &trace)))
		ret = compute(sets, nsets, &taus, &trace);
	if (!ret && format == 'j')
		print_json(&printed);
	else if (!ret && format == 'c')
		print_csv(&printed);
	else if (!ret)
		print_text(&printed);
	if (!ret && svg)
		ret = plot(sets[nsets - 1], svg);
	free_series(&printed);
	free_series(&drawn);
	pl_trace_free(&trace);
	return ret;
}

const struct cli_command cli_command_wss = {
	.name = "wss",
	.summary = "working-set size over time for several windows, and its distribution",
	.usage =
	"usage: pagelab wss (--refs STRING | --trace FILE) [--tau SIZES] [--points N]\n"
	"                   [--json | --csv] [--svg FILE]\n"
	"\n"
	"|W(t, tau)|, the distinct pages among the last tau references, over\n"
	"time (in buckets of consecutive references: mean and largest size) and\n"
	"its distribution over all steps.\n"
	"\n"
	"  --tau SIZES  windows, in references: 1000, a list 10,100,1000 (the\n"
	"               default) or a range FROM:TO[:STEP]; at most 16\n"
	"  --points N   time buckets (default 20 for text, 200 otherwise, and 200\n"
	"               for the plot beside text; at most the references)\n"
	"  --json       {\"references\", \"series\": [{\"tau\", \"mean\", \"points\":\n"
	"               [{\"from\", \"to\", \"mean\", \"max\"}], \"histogram\":\n"
	"               [{\"size\", \"steps\"}]}]}\n"
	"  --csv        the points: tau,from,to,mean,max\n"
	"  --svg FILE   also draw the sizes over time into FILE\n",
	.example = "example: pagelab wss --trace ls.trace.gz --tau 100,1000,10000 --svg wss.svg\n",
	.reads_trace = true,
	.options = wss_options,
	.run = wss_main,
};
