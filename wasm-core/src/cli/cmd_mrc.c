// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_mrc.c - `pagelab mrc`: miss-ratio curves of several policies over one
 * trace, as a table (sizes down, policies across), a JSON array of
 * {"policy", "frames", "misses", "miss_ratio"}, CSV, and a plot.
 *
 * How each curve is made is printed with it (include/analysis.h): one pass
 * for lru, OPT's stack for opt, one simulation per size for the others,
 * run on --jobs threads that take the next size as they finish (sizes
 * differ a lot in cost).  --sample RATE estimates every curve from a
 * spatial sample instead and reports the estimated error.
 *
 * Memory: lru alone over a trace file is computed as the file is read, in
 * O(distinct pages); opt, per-size policies and sampling load the trace
 * (about 5 bytes per reference) so that every size can be run from it.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "analysis.h"

#define MAX_JOBS 64

static const struct cli_option mrc_options[] = {
	{ "--policies", CLI_VALUE }, { "--frames", CLI_VALUE }, CLI_INPUT_OPTIONS,
	{ "--param", CLI_REPEATED }, { "--sample", CLI_VALUE }, { "--jobs", CLI_VALUE },
	CLI_ANALYSIS_OUTPUTS, { NULL },
};

int cli_output_format(const struct cli_args *a, char *format)
{
	bool json = cli_flag(a, "--json"), csv = cli_flag(a, "--csv");

	if (json && csv)
		return cli_usage_error(a, "choose one of --json and --csv");
	*format = json ? 'j' : csv ? 'c' : 0;
	return 0;
}

int cli_jobs(const struct cli_args *a, unsigned *jobs)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t n;
	int ret;

	ret = cli_number(a, "--jobs", 1, MAX_JOBS, online > 0 ? (uint64_t)online : 1, &n);
	*jobs = n < MAX_JOBS ? (unsigned)n : MAX_JOBS;
	return ret;
}

void cli_log_sizes(struct cli_sizes *s, uint32_t max, unsigned count)
{
	s->n = 0;
	for (unsigned k = 0; k < count; k++) {
		uint32_t v = (uint32_t)llround(pow(max, count > 1 ? (double)k / (count - 1) : 1));

		if (!s->n || v > s->size[s->n - 1])
			s->size[s->n++] = v;
	}
}

/* ------------------------------------------------ sizes on many threads */

struct curve_jobs {
	const struct cli_result *r;
	const struct pl_trace *t;
	const struct cli_sizes *sizes;
	uint64_t *misses;
	pthread_mutex_t lock;
	unsigned next, done;	/* under lock */
	struct pl_error err;	/* the first failure, under lock */
	bool failed;
	struct cli_progress progress;
};

static void *curve_worker(void *arg)
{
	struct curve_jobs *j = arg;

	for (;;) {
		struct pl_error err;
		unsigned i;
		int ret;

		pthread_mutex_lock(&j->lock);
		i = j->failed ? j->sizes->n : j->next++;
		pthread_mutex_unlock(&j->lock);
		if (i >= j->sizes->n)
			return NULL;
		ret = pl_mrc_simulate(j->r->ops, j->r->params, j->t, j->sizes->size[i],
				      &j->misses[i], &err);
		pthread_mutex_lock(&j->lock);
		if (ret && !j->failed) {
			j->failed = true;
			j->err = err;
		}
		cli_progress_update(&j->progress, ++j->done);
		pthread_mutex_unlock(&j->lock);
	}
}

static int curve_in_parallel(struct curve_jobs *j, unsigned jobs)
{
	pthread_t threads[MAX_JOBS];
	unsigned started = 0;

	pthread_mutex_init(&j->lock, NULL);
	cli_progress_start(&j->progress, pl_policy_name(j->r->ops), "sizes", j->sizes->n);
	while (started < jobs && started < j->sizes->n &&
	       !pthread_create(&threads[started], NULL, curve_worker, j))
		started++;
	if (!started)
		curve_worker(j);	/* no thread could start: work on this one */
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	cli_progress_end(&j->progress);
	pthread_mutex_destroy(&j->lock);
	return j->failed ? cli_fail("%s", j->err.msg) : 0;
}

int cli_curve(const struct cli_result *r, const struct pl_trace *t, const struct cli_sizes *sizes,
	      unsigned jobs, uint64_t *misses)
{
	struct curve_jobs j = { .r = r, .t = t, .sizes = sizes, .misses = misses };
	struct pl_error err;

	if (pl_mrc_method_of(r->ops) == PL_MRC_PER_SIZE)
		return curve_in_parallel(&j, jobs);
	if (pl_mrc(r->ops, r->params, t, sizes->size, sizes->n, misses, &err))
		return cli_fail("%s", err.msg);
	return 0;
}

/* ---------------------------------------------------------------- output */

struct curves {
	struct cli_result policy[CLI_MAX_POLICIES];
	unsigned npolicies;
	struct cli_sizes sizes;
	double *ratio;		/* [policy * sizes.n + i] */
	uint64_t references;
	uint32_t distinct;
	struct pl_shards sample;	/* rate 0: exact */
};

static double *ratio_of(const struct curves *c, unsigned p)
{
	return &c->ratio[(size_t)p * c->sizes.n];
}

static const char *method_text(const struct curves *c, const struct pl_policy_ops *ops,
			       unsigned jobs)
{
	static char buf[64];

	if (c->sample.rate)
		return pl_mrc_method_of(ops) == PL_MRC_ONE_PASS ?
			       "SHARDS (stack distances of the sample)" :
			       "miniature simulations of the sample";
	switch (pl_mrc_method_of(ops)) {
	case PL_MRC_ONE_PASS:
		return "one pass (stack distances)";
	case PL_MRC_OPT_STACK:
		return "one pass (OPT stack)";
	case PL_MRC_PER_SIZE:
		break;
	}
	snprintf(buf, sizeof(buf), "one simulation per size, %u thread%s", jobs,
		 jobs == 1 ? "" : "s");
	return buf;
}

static void print_text(const struct curves *c, unsigned jobs)
{
	printf("miss-ratio curves over %llu references to %u distinct pages\n",
	       (unsigned long long)c->references, c->distinct);
	for (unsigned p = 0; p < c->npolicies; p++)
		printf("  %-10s %s\n", pl_policy_name(c->policy[p].ops),
		       method_text(c, c->policy[p].ops, jobs));
	if (c->sample.rate)
		printf("  sampled at rate %.4g: %llu references; estimated error +/- %.4f "
		       "(2 standard errors over 8 parts of the sample)\n", c->sample.rate,
		       (unsigned long long)c->sample.sampled, c->sample.error_bound);
	printf("\n%10s", "frames");
	for (unsigned p = 0; p < c->npolicies; p++)
		printf(" %10s", pl_policy_name(c->policy[p].ops));
	printf("   (miss ratio)\n");
	for (unsigned i = 0; i < c->sizes.n; i++) {
		printf("%10u", c->sizes.size[i]);
		for (unsigned p = 0; p < c->npolicies; p++)
			printf(" %10.4f", ratio_of(c, p)[i]);
		putchar('\n');
	}
}

static uint64_t misses_of(const struct curves *c, double ratio)
{
	return (uint64_t)llround(ratio * (double)c->references);
}

static void print_json(const struct curves *c)
{
	bool first = true;

	putchar('[');
	for (unsigned p = 0; p < c->npolicies; p++) {
		for (unsigned i = 0; i < c->sizes.n; i++, first = false) {
			printf("%s\n{\"policy\":", first ? "" : ",");
			out_json_string(stdout, pl_policy_name(c->policy[p].ops));
			printf(",\"frames\":%u,\"misses\":%llu,\"miss_ratio\":%.6f", c->sizes.size[i],
			       (unsigned long long)misses_of(c, ratio_of(c, p)[i]),
			       ratio_of(c, p)[i]);
			if (c->sample.rate)
				printf(",\"sample_rate\":%.6g,\"error_bound\":%.6f", c->sample.rate,
				       c->sample.error_bound);
			putchar('}');
		}
	}
	printf("\n]\n");
}

static void print_csv(const struct curves *c)
{
	printf("policy,frames,misses,miss_ratio\n");
	for (unsigned p = 0; p < c->npolicies; p++)
		for (unsigned i = 0; i < c->sizes.n; i++)
			printf("%s,%u,%llu,%.6f\n", pl_policy_name(c->policy[p].ops),
			       c->sizes.size[i],
			       (unsigned long long)misses_of(c, ratio_of(c, p)[i]),
			       ratio_of(c, p)[i]);
}

static int plot(const struct curves *c, const char *path)
{
	struct svg_series series[CLI_MAX_POLICIES];
	struct svg_chart chart = {
		.title = "Miss-ratio curves", .x_label = "frames", .y_label = "miss ratio",
		.log_x = c->sizes.size[c->sizes.n - 1] >= 100 * (uint64_t)c->sizes.size[0],
	};
	double *x = malloc(c->sizes.n * sizeof(*x));
	int ret;

	if (!x)
		return cli_fail("out of memory");
	for (unsigned i = 0; i < c->sizes.n; i++)
		x[i] = c->sizes.size[i];
	for (unsigned p = 0; p < c->npolicies; p++)
		series[p] = (struct svg_series){ pl_policy_name(c->policy[p].ops), x,
						 ratio_of(c, p), c->sizes.n };
	ret = svg_lines(path, &chart, series, c->npolicies);
	free(x);
	return ret;
}

/* ------------------------------------------------------------------ run */

static int exact_curves(struct curves *c, const struct pl_trace *t, unsigned jobs)
{
	uint64_t *misses = malloc(c->sizes.n * sizeof(*misses));
	int ret = 0;

	if (!misses)
		return cli_fail("out of memory");
	for (unsigned p = 0; p < c->npolicies && !ret; p++) {
		ret = cli_curve(&c->policy[p], t, &c->sizes, jobs, misses);
		for (unsigned i = 0; i < c->sizes.n && !ret; i++)
			ratio_of(c, p)[i] = (double)misses[i] / (double)t->n;
	}
	free(misses);
	return ret;
}

static int sampled_curves(struct curves *c, const struct pl_trace *t, double rate)
{
	struct pl_error err;

	for (unsigned p = 0; p < c->npolicies; p++) {
		struct pl_shards info;

		if (pl_mrc_sampled(c->policy[p].ops, c->policy[p].params, t, rate, c->sizes.size,
				   c->sizes.n, ratio_of(c, p), &info, &err))
			return cli_fail("%s", err.msg);
		/* one sample for all: the same pages, so the same figures */
		c->sample.rate = info.rate;
		c->sample.sampled = info.sampled;
		c->sample.error_bound = fmax(c->sample.error_bound, info.error_bound);
	}
	return 0;
}

/*
 * lru alone over a trace file: one pass as the file is read, in O(distinct
 * pages) memory whatever its length (the other methods need the trace).
 */
static int stream_lru(const struct cli_args *a, struct curves *c)
{
	struct cli_progress progress;
	struct pl_locality *l;
	struct pl_reader *r;
	struct pl_error err;
	struct pl_refs b;
	int got, ret;

	if ((ret = cli_open_reader(a, &r)))
		return ret;
	cli_report_reader(r);
	if (!(l = pl_locality_create(0, &err))) {
		pl_reader_close(r);
		return cli_fail("%s", err.msg);
	}
	cli_progress_start(&progress, "mrc", "references", 0);
	while ((got = pl_reader_next(r, &b, &err)) > 0) {
		if (pl_locality_add_numbers(l, b.number, b.n, &err)) {
			got = -1;
			break;
		}
		cli_progress_update(&progress, pl_locality_references(l));
	}
	cli_progress_end(&progress);
	pl_reader_close(r);
	c->references = pl_locality_references(l);
	c->distinct = pl_locality_distinct(l);
	if (got < 0)
		ret = cli_fail("%s", err.msg);
	else if (!c->references)
		ret = cli_fail("%s: no references", cli_value(a, "--trace"));
	for (unsigned p = 0; p < c->npolicies && !ret; p++)
		for (unsigned i = 0; i < c->sizes.n; i++)
			ratio_of(c, p)[i] = (double)pl_locality_lru_misses(l, c->sizes.size[i]) /
					    (double)c->references;
	pl_locality_destroy(l);
	return ret;
}

/* Can the curves be made while the trace file is read? */
static bool streams(const struct cli_args *a, const struct curves *c, double rate)
{
	if (!cli_value(a, "--trace") || !strcmp(cli_value(a, "--trace"), "-") || rate)
		return false;
	for (unsigned p = 0; p < c->npolicies; p++)
		if (pl_mrc_method_of(c->policy[p].ops) != PL_MRC_ONE_PASS)
			return false;
	return true;
}

static int sample_rate(const struct cli_args *a, double *rate)
{
	const char *text = cli_value(a, "--sample");
	char *end;

	*rate = 0;
	if (!text)
		return 0;
	*rate = strtod(text, &end);
	if (end == text || *end || !(*rate > 0 && *rate <= 1))
		return cli_usage_error(a, "--sample: '%s' is not a sampling rate in (0, 1], "
				       "e.g. 0.01", text);
	return 0;
}

static int compute(struct curves *c, const struct pl_trace *t, double rate, unsigned jobs)
{
	c->references = t->n;
	c->distinct = t->npages;
	return rate ? sampled_curves(c, t, rate) : exact_curves(c, t, jobs);
}

static int mrc_main(const struct cli_args *a)
{
	static struct curves c;
	const struct pl_policy_ops *ops[CLI_MAX_POLICIES];
	const char *svg = cli_value(a, "--svg");
	struct pl_trace trace;
	unsigned jobs;
	double rate;
	char format;
	int ret;

	if ((ret = cli_output_format(a, &format)) || (ret = compare_policies(a, ops, &c.npolicies)) ||
	    (ret = cli_sizes(a, "--frames", NULL, &c.sizes)) || (ret = sample_rate(a, &rate)) ||
	    (ret = cli_jobs(a, &jobs)))
		return ret;
	for (unsigned p = 0; p < c.npolicies; p++) {
		c.policy[p].ops = ops[p];
		pl_params_default(ops[p], c.policy[p].params);
	}
	if ((ret = compare_params(a, c.policy, c.npolicies)))
		return ret;
	c.ratio = malloc((size_t)c.npolicies * c.sizes.n * sizeof(*c.ratio));
	if (!c.ratio)
		return cli_fail("out of memory");
	pl_trace_init(&trace);
	if (streams(a, &c, rate)) {
		ret = stream_lru(a, &c);
	} else {
		ret = cli_load_trace(a, &trace);
		if (!ret)
			ret = compute(&c, &trace, rate, jobs);
	}
	if (!ret && format == 'j')
		print_json(&c);
	else if (!ret && format == 'c')
		print_csv(&c);
	else if (!ret)
		print_text(&c, jobs);
	if (!ret && svg)
		ret = plot(&c, svg);
	free(c.ratio);
	pl_trace_free(&trace);
	return ret;
}

const struct cli_command cli_command_mrc = {
	.name = "mrc",
	.summary = "miss-ratio curves: misses at many memory sizes, several policies",
	.usage =
	"usage: pagelab mrc --policies A,B,... --frames SIZES (--refs STRING | --trace FILE)\n"
	"                   [--param NAME=VALUE]... [--sample RATE] [--jobs N]\n"
	"                   [--json | --csv] [--svg FILE]\n"
	"\n"
	"Misses of each policy at each memory size.  lru is computed in one pass\n"
	"(stack distances), opt by OPT's stack, every other policy by one\n"
	"simulation per size on several threads.\n"
	"\n"
	"  --policies A,B,...  policies from 'pagelab list' ('all' for every one)\n"
	"  --frames SIZES      sizes in frames: 64, a list 4,8,16, or a range\n"
	"                      FROM:TO[:STEP] (1:512:8 is 1, 9, ..., 505, 512)\n"
	"  --param NAME=VALUE  set a parameter of every listed policy that has it\n"
	"  --sample RATE       estimate from a spatial sample of the pages at RATE\n"
	"                      (0.01 = 1%): SHARDS for lru, miniature simulations\n"
	"                      for the others; prints the estimated error\n"
	"  --jobs N            threads for per-size simulations (default: the\n"
	"                      processors online)\n"
	"  --json              a JSON array of {\"policy\", \"frames\", \"misses\",\n"
	"                      \"miss_ratio\"} (with --sample, misses are estimates)\n"
	"  --csv               the same as comma-separated values\n"
	"  --svg FILE          also draw the curves into FILE\n",
	.example = "example: pagelab mrc --policies lru,fifo,opt --frames 1:64 --trace trace.txt "
		   "--svg mrc.svg\n",
	.reads_trace = true,
	.options = mrc_options,
	.run = mrc_main,
};
