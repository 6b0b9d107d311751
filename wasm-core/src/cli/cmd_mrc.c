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
 * Memory: over a trace file, O(distinct pages), never the trace: lru is
 * computed as the file is read; --sample keeps only the sample; per-size
 * policies parse the file once into a temporary file of dense ids
 * (input.c's cli_stream) and replay it once per --jobs sizes.  opt loads
 * the trace (5 bytes a reference) and its next uses (4 more): OPT's stack
 * decides by the next use of every page, i.e. by the whole future, which
 * no bounded window of a stream knows.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "analysis.h"

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

	ret = cli_number(a, "--jobs", 1, CLI_MAX_JOBS, online > 0 ? (uint64_t)online : 1, &n);
	*jobs = n < CLI_MAX_JOBS ? (unsigned)n : CLI_MAX_JOBS;
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
	pthread_t threads[CLI_MAX_JOBS];
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

/* One sample per policy, built as the references are read. */
struct samples {
	struct pl_mrc_sample *of[CLI_MAX_POLICIES];
	unsigned n;
};

static int samples_add(struct samples *s, const uint64_t *number, const uint8_t *flags,
		       uint32_t n, struct pl_error *err)
{
	for (unsigned p = 0; p < s->n; p++)
		if (pl_mrc_sample_add(s->of[p], number, flags, n, err))
			return -1;
	return 0;
}

/* The references into every sample: a trace file as it is read, --refs loaded. */
static int samples_fill(const struct cli_args *a, struct samples *s, struct curves *c,
			struct pl_error *err)
{
	struct pl_trace t;
	struct pl_reader *r;
	struct pl_refs b;
	int got, ret;

	pl_trace_init(&t);
	if (!cli_value(a, "--trace")) {
		if (!(ret = cli_load_trace(a, &t))) {
			c->references = t.n;
			c->distinct = t.npages;
			for (uint32_t i = 0; i < t.n && !ret; i++)
				if (samples_add(s, &t.number[t.page[i]], &t.flags[i], 1, err))
					ret = cli_fail("%s", err->msg);
		}
		pl_trace_free(&t);
		return ret;
	}
	if ((ret = cli_open_reader(a, &r)))
		return ret;
	/* t holds only the page map, for the count of distinct pages */
	while ((got = pl_reader_next(r, &b, err)) > 0) {
		c->references += b.n;
		if (samples_add(s, b.number, b.flags, b.n, err)) {
			got = -1;
			break;
		}
		if (pl_trace_intern_batch(&t, b.number, b.n, NULL)) {
			got = -1;
			snprintf(err->msg, sizeof(err->msg), "%s: out of memory", pl_reader_name(r));
			break;
		}
	}
	c->distinct = t.npages;
	if (!got && !c->references)
		got = -1, snprintf(err->msg, sizeof(err->msg), "%s: no references",
				   pl_reader_name(r));
	else if (!got)
		cli_report_reader(r);
	pl_trace_free(&t);
	pl_reader_close(r);
	return got ? cli_fail("%s", err->msg) : 0;
}

/*
 * --sample RATE: each policy's curve from a spatial sample, made as the
 * trace file is read (memory: the samples and the distinct pages' map).
 */
static int sampled_curves(const struct cli_args *a, struct curves *c, double rate)
{
	struct samples s = { .n = 0 };
	struct pl_error err;
	int ret = 0;

	for (unsigned p = 0; p < c->npolicies && !ret; p++, s.n++)
		if (!(s.of[p] = pl_mrc_sample_create(c->policy[p].ops, c->policy[p].params, rate,
						     &err)))
			ret = cli_fail("%s", err.msg);
	if (!ret)
		ret = samples_fill(a, &s, c, &err);
	for (unsigned p = 0; p < c->npolicies && !ret; p++) {
		struct pl_shards info;

		if (pl_mrc_sample_curve(s.of[p], c->sizes.size, c->sizes.n, ratio_of(c, p), &info,
					&err))
			ret = cli_fail("%s", err.msg);
		/* one sample for all: the same pages, so the same figures */
		c->sample.rate = info.rate;
		c->sample.sampled = info.sampled;
		c->sample.error_bound = fmax(c->sample.error_bound, info.error_bound);
	}
	for (unsigned p = 0; p < s.n; p++)
		pl_mrc_sample_destroy(s.of[p]);
	return ret;
}

/* lru's curve from a pl_locality fed every reference. */
static void lru_ratios(struct curves *c, unsigned p, struct pl_locality *l)
{
	for (unsigned i = 0; i < c->sizes.n; i++)
		ratio_of(c, p)[i] = (double)pl_locality_lru_misses(l, c->sizes.size[i]) /
				    (double)c->references;
}

/*
 * lru alone: one pass (a trace file as it is read, in O(distinct pages)
 * memory whatever its length).
 */
static int one_pass_lru(const struct cli_args *a, struct curves *c)
{
	struct pl_locality *l;
	int ret;

	if ((ret = cli_locality(a, 0, "mrc", &l)))
		return ret;
	c->references = pl_locality_references(l);
	c->distinct = pl_locality_distinct(l);
	for (unsigned p = 0; p < c->npolicies; p++)
		lru_ratios(c, p, l);
	pl_locality_destroy(l);
	return 0;
}

/*
 * One per-size policy's curve over a parsed trace file: the spill replayed
 * once per `jobs` sizes, their simulations side by side on `jobs` threads.
 */
static int replayed_curve(struct curves *c, unsigned p, struct cli_stream *s, unsigned jobs,
			  struct cli_progress *progress)
{
	struct cli_result group[CLI_MAX_JOBS];
	int ret = 0;

	for (unsigned from = 0; from < c->sizes.n && !ret; from += jobs) {
		unsigned n = c->sizes.n - from < jobs ? c->sizes.n - from : jobs;

		for (unsigned i = 0; i < n; i++) {
			group[i] = c->policy[p];
			group[i].frames = c->sizes.size[from + i];
		}
		ret = cli_stream_simulate(s, group, n, jobs);
		for (unsigned i = 0; i < n; i++) {
			if (!ret)
				ratio_of(c, p)[from + i] = (double)group[i].stats.misses /
							   (double)c->references;
			cli_result_free(&group[i]);
		}
		cli_progress_update(progress, from + n);
	}
	return ret;
}

/*
 * lru and per-size policies over a trace file: parsed once (lru's stack
 * distances gathered on the way), then replayed from the spill for the
 * others.  Memory: the pages, and `jobs` simulations at a time.
 */
static int streamed_curves(const struct cli_args *a, struct curves *c, unsigned jobs)
{
	struct cli_progress progress;
	struct cli_stream *s;
	struct pl_locality *l;
	struct pl_error err;
	int ret;

	if (!(l = pl_locality_create(0, &err)))
		return cli_fail("%s", err.msg);
	if ((ret = cli_stream_open(a, l, &s))) {
		pl_locality_destroy(l);
		return ret;
	}
	c->references = cli_stream_references(s);
	c->distinct = cli_stream_distinct(s);
	for (unsigned p = 0; p < c->npolicies && !ret; p++) {
		if (pl_mrc_method_of(c->policy[p].ops) == PL_MRC_ONE_PASS) {
			lru_ratios(c, p, l);
			continue;
		}
		cli_progress_start(&progress, pl_policy_name(c->policy[p].ops), "sizes",
				   c->sizes.n);
		ret = replayed_curve(c, p, s, jobs, &progress);
		cli_progress_end(&progress);
	}
	cli_stream_close(s);
	pl_locality_destroy(l);
	return ret;
}

/* Which of the ways above makes these curves. */
static enum { BY_SAMPLE, BY_ONE_PASS, BY_STREAM, BY_LOADING } way_of(const struct cli_args *a,
									 const struct curves *c,
									 double rate)
{
	bool lru = true;

	if (rate)
		return BY_SAMPLE;
	for (unsigned p = 0; p < c->npolicies; p++) {
		enum pl_mrc_method m = pl_mrc_method_of(c->policy[p].ops);

		if (m == PL_MRC_OPT_STACK)
			return BY_LOADING;	/* OPT's stack needs every next use */
		lru = lru && m == PL_MRC_ONE_PASS;
	}
	return lru ? BY_ONE_PASS : cli_value(a, "--trace") ? BY_STREAM : BY_LOADING;
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

static int compute(const struct cli_args *a, struct curves *c, double rate, unsigned jobs)
{
	struct pl_trace trace;
	int ret;

	switch (way_of(a, c, rate)) {
	case BY_SAMPLE:
		return sampled_curves(a, c, rate);
	case BY_ONE_PASS:
		return one_pass_lru(a, c);
	case BY_STREAM:
		return streamed_curves(a, c, jobs);
	case BY_LOADING:
		break;
	}
	pl_trace_init(&trace);
	if (!(ret = cli_load_trace(a, &trace))) {
		c->references = trace.n;
		c->distinct = trace.npages;
		ret = exact_curves(c, &trace, jobs);
	}
	pl_trace_free(&trace);
	return ret;
}

static int mrc_main(const struct cli_args *a)
{
	static struct curves c;
	const struct pl_policy_ops *ops[CLI_MAX_POLICIES];
	const char *svg = cli_value(a, "--svg");
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
	ret = compute(a, &c, rate, jobs);
	if (!ret && format == 'j')
		print_json(&c);
	else if (!ret && format == 'c')
		print_csv(&c);
	else if (!ret)
		print_text(&c, jobs);
	if (!ret && svg)
		ret = plot(&c, svg);
	free(c.ratio);
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
