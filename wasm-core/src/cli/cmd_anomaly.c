// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_anomaly.c - `pagelab anomaly`: Belady's anomaly finder.  Runs one
 * policy at every size of a range and at one frame more, and lists the
 * sizes where the extra frame gives more faults (Belady, Nelson, Shedler,
 * "An anomaly in space-time characteristics of certain programs running
 * in a paging machine", CACM 12(6), 1969).  A stack algorithm (lru, opt)
 * never shows one; FIFO does on Belady's string at 3 frames.  --svg draws
 * the misses against the frames, every size run, with a ring at each size
 * where one more frame gives more misses.
 */
#include "cli.h"

static const struct cli_option anomaly_options[] = {
	{ "--policy", CLI_VALUE }, { "--frames", CLI_VALUE }, CLI_INPUT_OPTIONS,
	{ "--param", CLI_REPEATED }, { "--jobs", CLI_VALUE }, CLI_ANALYSIS_OUTPUTS, { NULL },
};

/* The sizes asked for and each one plus one, ascending. */
static int with_next_sizes(const struct cli_args *a, const struct cli_sizes *asked,
			   struct cli_sizes *all)
{
	all->n = 0;
	for (unsigned i = 0; i < asked->n; i++) {
		uint32_t f = asked->size[i];

		if (!all->n || all->size[all->n - 1] < f)
			all->size[all->n++] = f;
		if (all->n == CLI_MAX_SIZES || f == PL_NONE - 1)
			return cli_usage_error(a, "--frames: too many sizes (at most %d)",
					       CLI_MAX_SIZES / 2);
		all->size[all->n++] = f + 1;
	}
	return 0;
}

static uint64_t misses_at(const struct cli_sizes *all, const uint64_t *misses, uint32_t f)
{
	unsigned lo = 0, hi = all->n - 1;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (all->size[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return misses[lo];
}

static void report(char format, const struct cli_result *r, const struct cli_sizes *asked,
		   const struct cli_sizes *all, const uint64_t *misses)
{
	unsigned found = 0;

	if (format == 'j')
		putchar('[');
	else if (format == 'c')
		printf("frames,misses,next_misses\n");
	for (unsigned i = 0; i < asked->n; i++) {
		uint32_t f = asked->size[i];
		uint64_t m = misses_at(all, misses, f), next = misses_at(all, misses, f + 1);

		if (next <= m)
			continue;
		if (format == 'j')
			printf("%s\n{\"frames\":%u,\"misses\":%llu,\"next_misses\":%llu}",
			       found ? "," : "", f, (unsigned long long)m, (unsigned long long)next);
		else if (format == 'c')
			printf("%u,%llu,%llu\n", f, (unsigned long long)m, (unsigned long long)next);
		else
			printf("  %u frames: %llu misses; %u frames: %llu misses (+%llu)\n", f,
			       (unsigned long long)m, f + 1, (unsigned long long)next,
			       (unsigned long long)(next - m));
		found++;
	}
	if (format == 'j')
		printf("%s]\n", found ? "\n" : "");
	else if (!format)
		printf("%s: %u size%s of %u where one more frame gives more misses%s\n",
		       pl_policy_name(r->ops), found, found == 1 ? "" : "s", asked->n,
		       found ? " (listed above)" : "");
}

/* Misses at every size run, and a ring at each size the extra frame makes worse. */
static int plot(const char *path, const struct cli_result *r, const struct cli_sizes *asked,
		const struct cli_sizes *all, const uint64_t *misses)
{
	char title[96];
	struct svg_chart chart = { .title = title, .x_label = "frames", .y_label = "misses" };
	double *x = malloc(2 * all->n * sizeof(*x)), *y = malloc(2 * all->n * sizeof(*y));
	struct svg_series line = { pl_policy_name(r->ops), x, y, all->n };
	struct svg_series marks = { "Belady's anomaly", x + all->n, y + all->n, 0 };
	int ret;

	if (!x || !y) {
		free(x);
		free(y);
		return cli_fail("out of memory");
	}
	snprintf(title, sizeof(title), "Belady's anomaly: %s, misses against frames",
		 pl_policy_name(r->ops));
	for (unsigned i = 0; i < all->n; i++) {
		x[i] = all->size[i];
		y[i] = (double)misses[i];
	}
	for (unsigned i = 0; i < asked->n; i++) {
		uint32_t f = asked->size[i];
		uint64_t m = misses_at(all, misses, f);

		if (misses_at(all, misses, f + 1) > m) {
			x[all->n + marks.n] = f;
			y[all->n + marks.n++] = (double)m;
		}
	}
	ret = svg_lines_marked(path, &chart, &line, 1, &marks);
	free(x);
	free(y);
	return ret;
}

static int anomaly_main(const struct cli_args *a)
{
	static struct cli_sizes asked, all;
	struct cli_result r = { 0 };
	const char *params[CLI_MAX_ARGS], *svg = cli_value(a, "--svg");
	unsigned nparams = cli_values(a, "--param", params, CLI_MAX_ARGS), jobs;
	struct pl_trace trace;
	uint64_t *misses = NULL;
	char format;
	int ret;

	if (!cli_value(a, "--policy"))
		return cli_usage_error(a, "--policy is required");
	if ((ret = cli_output_format(a, &format)) ||
	    !(r.ops = cli_policy(a, cli_value(a, "--policy"))) ||
	    (ret = cli_sizes(a, "--frames", NULL, &asked)) ||
	    (ret = with_next_sizes(a, &asked, &all)) || (ret = cli_jobs(a, &jobs)))
		return ret ? ret : CLI_EXIT_USAGE;
	pl_params_default(r.ops, r.params);
	for (unsigned p = 0; p < nparams; p++)
		if (cli_set_param(a, &r, params[p]))
			return CLI_EXIT_USAGE;
	pl_trace_init(&trace);
	ret = cli_load_trace(a, &trace);
	if (!ret && !(misses = malloc(all.n * sizeof(*misses))))
		ret = cli_fail("out of memory");
	if (!ret)
		ret = cli_curve(&r, &trace, &all, jobs, misses);
	if (!ret)
		report(format, &r, &asked, &all, misses);
	if (!ret && svg)
		ret = plot(svg, &r, &asked, &all, misses);
	free(misses);
	pl_trace_free(&trace);
	return ret;
}

const struct cli_command cli_command_anomaly = {
	.name = "anomaly",
	.summary = "find Belady's anomaly: sizes where one more frame gives more misses",
	.usage =
	"usage: pagelab anomaly --policy NAME --frames SIZES (--refs STRING | --trace FILE)\n"
	"                       [--param NAME=VALUE]... [--jobs N] [--json | --csv]\n"
	"                       [--svg FILE]\n"
	"\n"
	"Runs the policy at each size and at one frame more, and lists the sizes\n"
	"where the extra frame gives more misses.\n"
	"\n"
	"  --policy NAME       a policy from 'pagelab list'\n"
	"  --frames SIZES      64, a list 4,8,16, or a range FROM:TO[:STEP]\n"
	"  --param NAME=VALUE  a parameter of the policy (repeatable)\n"
	"  --jobs N            threads (default: the processors online)\n"
	"  --json              a JSON array of {\"frames\", \"misses\", \"next_misses\"}\n"
	"  --csv               the same as comma-separated values\n"
	"  --svg FILE          also draw the misses against the frames (every size\n"
	"                      run, one more included) into FILE, a ring at each\n"
	"                      size where one more frame gives more misses\n",
	.example = "example: pagelab anomaly --policy fifo --frames 1:10 "
		   "--refs \"1 2 3 4 1 2 5 1 2 3 4 5\"\n",
	.reads_trace = true,
	.options = anomaly_options,
	.run = anomaly_main,
};
