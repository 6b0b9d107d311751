// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_lifetime.c - `pagelab lifetime` and `pagelab spacetime`: Denning's
 * lifetime function and space-time product for the working set (as tau
 * varies) and LRU (as the frames vary) on the same trace, from one pass
 * (include/analysis.h): seed 004's Figure 4.2.
 *
 *   lifetime   g(x) = references / faults against the mean resident set x:
 *              where the curve has its knee, more memory stops paying.
 *   spacetime  ST = x * (references + D * faults), D the fault delay in
 *              reference-times; the size with the least ST is the best
 *              use of memory when a fault costs D.
 */
#include "cli.h"
#include "analysis.h"

#define DEFAULT_POINTS 30
#define MAX_DEFAULT_TAU 1000000	/* the interval histogram is O(largest tau) */

static const struct cli_option lifetime_options[] = {
	CLI_INPUT_OPTIONS, { "--tau", CLI_VALUE }, { "--frames", CLI_VALUE },
	CLI_ANALYSIS_OUTPUTS, { NULL },
};

static const struct cli_option spacetime_options[] = {
	CLI_INPUT_OPTIONS, { "--tau", CLI_VALUE }, { "--frames", CLI_VALUE },
	{ "--delay", CLI_VALUE }, CLI_ANALYSIS_OUTPUTS, { NULL },
};

struct point {
	bool ws;		/* else lru */
	uint32_t size;		/* tau or frames */
	double resident;	/* mean resident set */
	uint64_t faults;
};

struct lifetime {
	struct cli_sizes taus, frames;
	struct point *p;	/* taus.n ws points, then frames.n lru points */
	unsigned n;
	uint64_t references, delay;
	bool space_time;
};

static double lifetime_of(const struct lifetime *l, const struct point *p)
{
	return p->faults ? (double)l->references / (double)p->faults : (double)l->references;
}

static double space_time_of(const struct lifetime *l, const struct point *p)
{
	return p->resident * ((double)l->references + (double)l->delay * (double)p->faults);
}

/* --tau and --frames given; false: log-spaced defaults once the trace is read. */
static int given_sizes(const struct cli_args *a, struct lifetime *l, bool *given)
{
	int ret;

	*given = cli_value(a, "--tau") || cli_value(a, "--frames");
	l->taus.n = l->frames.n = 0;
	if (cli_value(a, "--tau") && (ret = cli_sizes(a, "--tau", NULL, &l->taus)))
		return ret;
	if (cli_value(a, "--frames") && (ret = cli_sizes(a, "--frames", NULL, &l->frames)))
		return ret;
	return 0;
}

/*
 * One pass over the references (streamed from a trace file), then every
 * point from it.  Without --tau and --frames the windows go up to
 * MAX_DEFAULT_TAU (or the trace's length) and the frames up to its pages.
 */
static int compute(const struct cli_args *a, struct lifetime *l)
{
	struct pl_locality *loc;
	uint32_t max_window;
	uint64_t n;
	bool given;
	int ret;

	if ((ret = given_sizes(a, l, &given)))
		return ret;
	max_window = !given ? MAX_DEFAULT_TAU : l->taus.n ? l->taus.size[l->taus.n - 1] : 0;
	if ((ret = cli_locality(a, max_window, "lifetime", &loc)))
		return ret;
	l->references = n = pl_locality_references(loc);
	if (!given) {
		cli_log_sizes(&l->taus, n < MAX_DEFAULT_TAU ? (uint32_t)n : MAX_DEFAULT_TAU,
			      DEFAULT_POINTS);
		cli_log_sizes(&l->frames, pl_locality_distinct(loc), DEFAULT_POINTS);
	}
	l->n = l->taus.n + l->frames.n;
	if (!(l->p = malloc(l->n * sizeof(*l->p)))) {
		pl_locality_destroy(loc);
		return cli_fail("out of memory");
	}
	for (unsigned i = 0; i < l->taus.n; i++)
		l->p[i] = (struct point){ true, l->taus.size[i],
					  pl_locality_ws_mean_size(loc, l->taus.size[i]),
					  pl_locality_ws_misses(loc, l->taus.size[i]) };
	for (unsigned i = 0; i < l->frames.n; i++)
		l->p[l->taus.n + i] = (struct point){
			false, l->frames.size[i], pl_locality_lru_mean_resident(loc, l->frames.size[i]),
			pl_locality_lru_misses(loc, l->frames.size[i]) };
	pl_locality_destroy(loc);
	return 0;
}

/* The point of a policy with the least space-time, or NULL if it has none. */
static const struct point *least_space_time(const struct lifetime *l, bool ws)
{
	const struct point *best = NULL;

	for (unsigned i = 0; i < l->n; i++)
		if (l->p[i].ws == ws && (!best || space_time_of(l, &l->p[i]) < space_time_of(l, best)))
			best = &l->p[i];
	return best;
}

static void print_text(const struct lifetime *l)
{
	printf("%s over %llu references: WS as tau varies, LRU as the frames vary\n",
	       l->space_time ? "space-time product" : "lifetime function g(x)",
	       (unsigned long long)l->references);
	if (l->space_time)
		printf("ST = x * (references + D * faults), fault delay D = %llu references\n",
		       (unsigned long long)l->delay);
	printf("\n%-7s %14s %16s %12s %14s%s\n", "policy", "tau / frames", "mean resident x",
	       "faults", "lifetime g(x)", l->space_time ? "      space-time" : "");
	for (unsigned i = 0; i < l->n; i++) {
		const struct point *p = &l->p[i];

		printf("%-7s %14u %16.2f %12llu %14.2f", p->ws ? "ws" : "lru", p->size,
		       p->resident, (unsigned long long)p->faults, lifetime_of(l, p));
		if (l->space_time)
			printf(" %15.4g", space_time_of(l, p));
		putchar('\n');
	}
	if (!l->space_time)
		return;
	for (int ws = 1; ws >= 0; ws--) {
		const struct point *best = least_space_time(l, ws);

		if (best)
			printf("least space-time for %s: %s = %u (mean resident %.2f, %llu faults)\n",
			       ws ? "ws" : "lru", ws ? "tau" : "frames", best->size, best->resident,
			       (unsigned long long)best->faults);
	}
}

static void print_json(const struct lifetime *l)
{
	putchar('[');
	for (unsigned i = 0; i < l->n; i++) {
		const struct point *p = &l->p[i];

		printf("%s\n{\"policy\":\"%s\",\"%s\":%u,\"mean_resident\":%.4f,\"faults\":%llu,"
		       "\"lifetime\":%.4f", i ? "," : "", p->ws ? "ws" : "lru",
		       p->ws ? "tau" : "frames", p->size, p->resident,
		       (unsigned long long)p->faults, lifetime_of(l, p));
		if (l->space_time)
			printf(",\"delay\":%llu,\"space_time\":%.6g", (unsigned long long)l->delay,
			       space_time_of(l, p));
		putchar('}');
	}
	printf("%s]\n", l->n ? "\n" : "");
}

static void print_csv(const struct lifetime *l)
{
	printf("policy,tau,frames,mean_resident,faults,lifetime%s\n",
	       l->space_time ? ",space_time" : "");
	for (unsigned i = 0; i < l->n; i++) {
		const struct point *p = &l->p[i];

		printf("%s,", p->ws ? "ws" : "lru");
		printf(p->ws ? "%u," : ",%u", p->size);
		printf("%s%.4f,%llu,%.4f", p->ws ? "," : ",", p->resident,
		       (unsigned long long)p->faults, lifetime_of(l, p));
		if (l->space_time)
			printf(",%.6g", space_time_of(l, p));
		putchar('\n');
	}
}

static int plot(const struct lifetime *l, const char *path)
{
	struct svg_chart chart = {
		.title = l->space_time ? "Space-time product" : "Lifetime functions",
		.x_label = "mean resident set x (pages)",
		.y_label = l->space_time ? "space-time (page-references)" :
					   "references between faults g(x)",
	};
	double *x = malloc(l->n * sizeof(*x)), *y = malloc(l->n * sizeof(*y));
	struct svg_series s[2] = {
		{ "ws (tau varies)", x, y, l->taus.n },
		{ "lru (frames vary)", x + l->taus.n, y + l->taus.n, l->frames.n },
	};
	int ret;

	if (!x || !y) {
		free(x);
		free(y);
		return cli_fail("out of memory");
	}
	for (unsigned i = 0; i < l->n; i++) {
		x[i] = l->p[i].resident;
		y[i] = l->space_time ? space_time_of(l, &l->p[i]) : lifetime_of(l, &l->p[i]);
	}
	ret = svg_lines(path, &chart, s, 2);
	free(x);
	free(y);
	return ret;
}

static int run(const struct cli_args *a, bool space_time)
{
	static struct lifetime l;
	const char *svg = cli_value(a, "--svg");
	char format;
	int ret;

	l.space_time = space_time;
	if ((ret = cli_output_format(a, &format)) ||
	    (space_time && (ret = cli_number(a, "--delay", 0, UINT32_MAX, 10000, &l.delay))))
		return ret;
	ret = compute(a, &l);
	if (!ret && format == 'j')
		print_json(&l);
	else if (!ret && format == 'c')
		print_csv(&l);
	else if (!ret)
		print_text(&l);
	if (!ret && svg)
		ret = plot(&l, svg);
	free(l.p);
	return ret;
}

static int lifetime_main(const struct cli_args *a)
{
	return run(a, false);
}

static int spacetime_main(const struct cli_args *a)
{
	return run(a, true);
}

#define SIZES_HELP							\
	"  --tau SIZES     working-set windows (default: 30 log-spaced values\n" \
	"                  from 1 to the trace's length, at most 1000000)\n" \
	"  --frames SIZES  LRU sizes (default: 30 log-spaced values from 1 to\n" \
	"                  the distinct pages); with either option given, only\n" \
	"                  the policies named are computed.  SIZES: 64, a list\n" \
	"                  4,8,16 or a range FROM:TO[:STEP]\n"

const struct cli_command cli_command_lifetime = {
	.name = "lifetime",
	.summary = "lifetime functions of WS and LRU: references between faults vs memory",
	.usage =
	"usage: pagelab lifetime (--refs STRING | --trace FILE) [--tau SIZES]\n"
	"                        [--frames SIZES] [--json | --csv] [--svg FILE]\n"
	"\n"
	"g(x), the mean references between faults, against x, the mean resident\n"
	"set: for the working set as tau varies and for LRU as the frames vary.\n"
	"\n"
	SIZES_HELP
	"  --json          an array of {\"policy\", \"tau\" or \"frames\",\n"
	"                  \"mean_resident\", \"faults\", \"lifetime\"}\n"
	"  --csv           the same as comma-separated values\n"
	"  --svg FILE      also draw g(x) for both policies into FILE\n",
	.example = "example: pagelab lifetime --trace ls.trace.gz --svg lifetime.svg\n",
	.reads_trace = true,
	.options = lifetime_options,
	.run = lifetime_main,
};

const struct cli_command cli_command_spacetime = {
	.name = "spacetime",
	.summary = "Denning's space-time product of WS and LRU with a fault delay",
	.usage =
	"usage: pagelab spacetime (--refs STRING | --trace FILE) [--delay D]\n"
	"                         [--tau SIZES] [--frames SIZES] [--json | --csv]\n"
	"                         [--svg FILE]\n"
	"\n"
	"ST = x * (references + D * faults): the memory x held while running and\n"
	"while waiting D reference-times for each fault, for WS and LRU, and the\n"
	"size where each uses least.\n"
	"\n"
	"  --delay D       fault delay in references (default 10000)\n"
	SIZES_HELP
	"  --json          an array of {\"policy\", \"tau\" or \"frames\",\n"
	"                  \"mean_resident\", \"faults\", \"lifetime\", \"delay\",\n"
	"                  \"space_time\"}\n"
	"  --csv           the same as comma-separated values\n"
	"  --svg FILE      also draw ST against x into FILE\n",
	.example = "example: pagelab spacetime --trace ls.trace.gz --delay 5000\n",
	.reads_trace = true,
	.options = spacetime_options,
	.run = spacetime_main,
};
