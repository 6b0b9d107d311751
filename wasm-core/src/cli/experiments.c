/* SPDX-License-Identifier: GPL-2.0 */
/*
 * experiments.c - the five seed reports' experiments (experiments.h).
 *
 * For each: the runs (workloads from workloads.c, frames as the report's
 * memory relates to its workload), the counters the report measured, and
 * a verdict.  A verdict compares like with like: the report's machines and
 * programs are not simulated, so absolute counts cannot match, but the
 * ratio between the two policies it compared, or the direction of each
 * difference, can.  Every published figure quoted here is from the report
 * named in `source`.
 */
#include <math.h>
#include <string.h>

#include "experiments.h"

/* A run with fixed parameters and frames = memory * num / den. */
#define RUN(workload, policy, params, num, den) \
	{ workload, policy, params, num, den, NULL, 0, 0 }

/* The run of a policy on a workload with exactly these parameters. */
static const struct exp_result *find_with(const struct exp_result *res, unsigned n,
					  const char *workload, const char *policy,
					  const char *params)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(res[i].run->workload, workload) && !strcmp(res[i].run->policy, policy) &&
		    !strcmp(res[i].run->params ? res[i].run->params : "", params))
			return &res[i];
	return NULL;
}

/* The first run of a policy on a workload. */
static const struct exp_result *find(const struct exp_result *res, unsigned n,
				     const char *workload, const char *policy)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(res[i].run->workload, workload) && !strcmp(res[i].run->policy, policy))
			return &res[i];
	return NULL;
}

static struct exp_comparison *compare(struct exp_verdict *v, const char *label)
{
	struct exp_comparison *c = &v->comparisons[v->ncomparisons];

	if (v->ncomparisons == EXP_MAX_COMPARISONS)
		return &v->comparisons[EXP_MAX_COMPARISONS - 1];
	v->ncomparisons++;
	snprintf(c->label, sizeof(c->label), "%s", label);
	return c;
}

/* b / a of one counter, or NAN when a run is missing or a is 0. */
static double ratio(const struct exp_result *a, const struct exp_result *b, const char *counter)
{
	double x = a ? exp_counter(a, counter) : -1, y = b ? exp_counter(b, counter) : -1;

	return x > 0 && y >= 0 ? y / x : NAN;
}

static void format_ratio(char *buf, size_t size, double r)
{
	if (isnan(r))
		snprintf(buf, size, "not run");
	else
		snprintf(buf, size, "x %.3f", r);
}

/* Why a missing run stops the verdict, or NULL if every run ran. */
static const char *missing(const struct exp_result *res, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!res[i].ok)
			return res[i].error;
	return NULL;
}

static bool not_run(const struct exp_result *res, unsigned n, struct exp_verdict *v)
{
	const char *why = missing(res, n);

	if (why)
		snprintf(v->why, sizeof(v->why), "not every run could be made (%s), so the "
			 "comparison is incomplete", why);
	return why != NULL;
}

/* ------------------------------------------------------------- seed 000 */

static const char *const seed000_counters[] = { "pgactivate", "pgdeactivate", NULL };

static const struct exp_run seed000_runs[] = {
	RUN("seed000-iterative", "linux", NULL, 1, 1),
	RUN("seed000-iterative", "linux_rrip", NULL, 1, 1),
	RUN("seed000-skewed", "linux", NULL, 1, 1),
	RUN("seed000-skewed", "linux_rrip", NULL, 1, 1),
	{ NULL },
};

/* The report: minor faults of RRIP against classic, geometric mean over
 * 15 SparkBench jobs: -0.70% (Table 2, Figure 11); no job beyond 7.3%. */
static void seed000_verdict(const struct exp_result *res, unsigned n, struct exp_verdict *v)
{
	static const char *const loads[] = { "seed000-iterative", "seed000-skewed" };
	double log_sum = 0;
	struct exp_comparison *c;

	for (unsigned i = 0; i < 2; i++) {
		double r = ratio(find(res, n, loads[i], "linux"), find(res, n, loads[i], "linux_rrip"),
				 "faults");
		char label[64];

		snprintf(label, sizeof(label), "faults, RRIP / classic, %s", loads[i] + 8);
		c = compare(v, label);
		snprintf(c->report, sizeof(c->report), "x 0.93..1.07");
		format_ratio(c->pagelab, sizeof(c->pagelab), r);
		c->agrees = fabs(r - 1) <= 0.075;
		log_sum += log(r);
	}
	c = compare(v, "faults, RRIP / classic, geometric mean");
	snprintf(c->report, sizeof(c->report), "x 1.007");
	format_ratio(c->pagelab, sizeof(c->pagelab), exp(log_sum / 2));
	c->agrees = fabs(exp(log_sum / 2) - 1) <= 0.05;
	if (not_run(res, n, v))
		return;
	v->reproduced = c->agrees;
	snprintf(v->why, sizeof(v->why), v->reproduced ?
		 "RRIP on the active list faults within 5%% of the classic kernel on both "
		 "stand-in workloads (the report's SparkBench jobs are not available; these two "
		 "only imitate an iterative job and a skewed one)." :
		 "on the stand-in workloads RRIP differs from the classic kernel by more than "
		 "5%% (geometric mean x %.3f): the iterative workload's one-time streams are "
		 "exactly what RRIP's distant insertion resists, and the report's SparkBench jobs, "
		 "which may stream less, are not available to run.", exp(log_sum / 2));
}

/* ------------------------------------------------------------- seed 001 */

static const char *const seed001_counters[] = { "promoted", "demoted", "evicted", NULL };

/*
 * Each workload twice: with the model's default reclaim batch (frames/64
 * pages freed per fault that reclaims: 16 at 1024 frames, 32 from 2048),
 * where the counters choose one page per list per round, as
 * try_to_free_pages() did in the report; and with batch=1, every freed
 * page its own round, the most the counters can do.  The tick: every
 * `memory` references (period = M), about once per pass over half the
 * regions, so that pages referenced once a pass and pages not referenced
 * get different counters at every memory size.  (The report's 1-second
 * timer came about every 25 passes of its program: every region was
 * written between two ticks and all counters rose alike.)
 */
#define COUNTER_RUN(load, params) { load, "counter_clock", params, 1, 1, "period", 1, 1 }
#define SEED001_RUNS(load)						\
	RUN(load, "linux", NULL, 1, 1), COUNTER_RUN(load, NULL),		\
	RUN(load, "linux", "batch=1", 1, 1), COUNTER_RUN(load, "batch=1")

static const struct exp_run seed001_runs[] = {
	SEED001_RUNS("seed001-seq"),
	SEED001_RUNS("seed001-halfseq"),
	SEED001_RUNS("seed001-rand"),
	SEED001_RUNS("seed001-halfrand"),
	{ NULL },
};

/* The report's table: evictions, LRU against counter-based clock. */
static const struct {
	const char *workload;
	unsigned lru, counter;
} seed001_evictions[] = {
	{ "seed001-seq", 8415, 3451 },
	{ "seed001-halfseq", 7042, 3667 },
	{ "seed001-rand", 8005, 639 },
	{ "seed001-halfrand", 8041, 506 },
};

/* Compares counter_clock with linux on each workload with `params`;
 * returns on how many the counters evicted fewer pages. */
static unsigned seed001_compare(const struct exp_result *res, unsigned n, struct exp_verdict *v,
				const char *params, const char *label_suffix, double ratio_out[4])
{
	unsigned fewer = 0;

	for (unsigned i = 0; i < 4; i++) {
		const char *load = seed001_evictions[i].workload;
		double r = ratio(find_with(res, n, load, "linux", params),
				 find_with(res, n, load, "counter_clock", params), "evictions");
		struct exp_comparison *c;
		char label[64];

		snprintf(label, sizeof(label), "evictions, counter / LRU, %s%s", load + 8,
			 label_suffix);
		c = compare(v, label);
		format_ratio(c->report, sizeof(c->report),
			     (double)seed001_evictions[i].counter / seed001_evictions[i].lru);
		format_ratio(c->pagelab, sizeof(c->pagelab), r);
		c->agrees = r < 0.99;
		fewer += c->agrees;
		ratio_out[i] = r;
	}
	return fewer;
}

static void seed001_verdict(const struct exp_result *res, unsigned n, struct exp_verdict *v)
{
	double r[4], r1[4];
	unsigned fewer = seed001_compare(res, n, v, "", "", r);
	unsigned fewer1 = seed001_compare(res, n, v, "batch=1", ", batch=1", r1);

	if (not_run(res, n, v))
		return;
	v->reproduced = fewer == 4;
	snprintf(v->why, sizeof(v->why), v->reproduced ?
		 "the counter-based clock evicts fewer pages than Linux's two lists on all four "
		 "workloads." :
		 "the counters evict fewer pages (by 1%% or more) on %u of the 4 workloads "
		 "(%u of 4 when every freed page is its own reclaim round).  Half Seq, a cycle a "
		 "little larger than memory, is where they help (x %.2f, x %.2f with batch=1): "
		 "counters of pages kept through a tick rise and break Linux's cyclic misses.  "
		 "Rand and Half Rand cannot be helped: every region is equally likely, so no "
		 "count of past references predicts the next one, and the report's x 0.08 and "
		 "x 0.06 cannot come from which pages were chosen.  Seq, a cycle of 9/4 of "
		 "memory, defeats any recency order; the counters change one page per list "
		 "and round (x %.2f; x %.2f with batch=1).  At the report's own rate (a tick "
		 "every ~25 passes, longer than these 20-pass workloads) no tick comes, every "
		 "counter stays 0, and the counter-based clock frees exactly what Linux frees.  "
		 "The report "
		 "counted evictions in a kernel whose reclaim also freed other processes' "
		 "pages (its 999 passes of 70000 writes took ~40 s, so its regions did not "
		 "thrash); the simulator counts only this program's.",
		 fewer, fewer1, r[1], r1[1], r[0], r1[0]);
}

/* ------------------------------------------------------------- seed 002 */

/*
 * Frames: 3/4 of the memory.  Of the report's 2 GB, the kernel, the test
 * programs and other caches take a share; the report's step 8 says the
 * first 2 GB of the file cannot all stay cached, which is true only if
 * the page cache is smaller than the memory.
 * Every page is a file page (anon_percent=0): the programs read a file,
 * whose pages live in the page cache, on the file lists.  (Until this
 * session the runs used the model's default of half anonymous pages,
 * which put half the file on lists where references only set the
 * accessed bit, and a page read took a whole number of ms, 3 instead of
 * 3.9 at --memory 4096; Test Program 2's direction then came out
 * reversed.)
 */
static const struct exp_run seed002_runs[] = {
	RUN("seed002-lruk-wins", "linux", "anon_percent=0", 3, 4),
	RUN("seed002-lruk-wins", "linux_lruk", "anon_percent=0 threshold=10000", 3, 4),
	RUN("seed002-lru-wins", "linux", "anon_percent=0", 3, 4),
	RUN("seed002-lru-wins", "linux_lruk", "anon_percent=0 threshold=10000", 3, 4),
	{ NULL },
};

static const char *const no_counters[] = { NULL };

/* The report: faults LRU ~912866, LRU-K ~771965 (Test Program 1); LRU
 * ~721447, LRU-K ~926011 (Test Program 2). */
static void seed002_verdict(const struct exp_result *res, unsigned n, struct exp_verdict *v)
{
	static const struct {
		const char *workload;
		double report;
		bool lruk_fewer;
	} cases[] = {
		{ "seed002-lruk-wins", 771965.0 / 912866.0, true },
		{ "seed002-lru-wins", 926011.0 / 721447.0, false },
	};
	unsigned agree = 0;

	for (unsigned i = 0; i < 2; i++) {
		double r = ratio(find(res, n, cases[i].workload, "linux"),
				 find(res, n, cases[i].workload, "linux_lruk"), "faults");
		struct exp_comparison *c;
		char label[64];

		snprintf(label, sizeof(label), "faults, LRU-K / LRU, %s", cases[i].workload + 8);
		c = compare(v, label);
		format_ratio(c->report, sizeof(c->report), cases[i].report);
		format_ratio(c->pagelab, sizeof(c->pagelab), r);
		c->agrees = cases[i].lruk_fewer ? r < 1 : r > 1;
		agree += c->agrees;
	}
	if (not_run(res, n, v))
		return;
	v->reproduced = agree == 2;
	snprintf(v->why, sizeof(v->why), v->reproduced ?
		 "LRU-K (promotion only within 10 s of the previous reference) faults less than "
		 "Linux's LRU on Test Program 1 and more on Test Program 2, as in the report.  "
		 "The sizes differ (the report's faults include the minor faults of every "
		 "first touch by each program, equal under both policies; here only pages "
		 "read from disk count); both directions hold at --memory 512 to 8192." :
		 "only %u of the two directions match at this memory size.  The workloads are "
		 "the report's nine steps scaled to memory; both directions hold at --memory 512 "
		 "to 8192, but at 256 Test Program 2 comes out even (x 0.99): with 192 frames a "
		 "reclaim batch of 3 pages is a large share of each array.",
		 agree);
}

/* ------------------------------------------------------------- seed 003 */

static const char *const seed003_counters[] = {
	"refaults", "reclaims", "pages_scanned", "active_to_inactive", "inactive_to_cache",
	"inactive_to_free", "queued_for_flush", NULL,
};

static const struct exp_run seed003_runs[] = {
	RUN("seed003-stress", "freebsd", NULL, 1, 1),
	RUN("seed003-stress", "freebsd_slim", NULL, 1, 1),
	{ NULL },
};

/* The report's averages over 30 runs each, Original and Alternate. */
static const struct {
	const char *counter;
	double original, alternate;
} seed003_figures[] = {
	{ "refaults", 34.76666667, 5548.666667 },
	{ "reclaims", 72973.56667, 235876.4333 },
	{ "pages_scanned", 3364.186396, 2416.937052 },
	{ "active_to_inactive", 243.3797578, 321.0096215 },
	{ "inactive_to_cache", 255.0912825, 325.5853317 },
	{ "inactive_to_free", 0, 0.355075346 },
	{ "queued_for_flush", 16.03340689, 22.06517778 },
};

static int direction(double from, double to)
{
	return to > from * 1.01 ? 1 : to < from * 0.99 ? -1 : 0;
}

static void seed003_verdict(const struct exp_result *res, unsigned n, struct exp_verdict *v)
{
	const struct exp_result *orig = find(res, n, "seed003-stress", "freebsd");
	const struct exp_result *slim = find(res, n, "seed003-stress", "freebsd_slim");
	char differ[256] = "";
	size_t used = 0;
	unsigned agree = 0;
	bool faults_agree = false;

	for (unsigned i = 0; i < sizeof(seed003_figures) / sizeof(seed003_figures[0]); i++) {
		const char *name = seed003_figures[i].counter;
		double o = orig ? exp_counter(orig, name) : -1, s = slim ? exp_counter(slim, name) : -1;
		struct exp_comparison *c;
		char label[64];

		snprintf(label, sizeof(label), "%s, Slim / FreeBSD", name);
		c = compare(v, label);
		if (seed003_figures[i].original > 0)
			format_ratio(c->report, sizeof(c->report),
				     seed003_figures[i].alternate / seed003_figures[i].original);
		else
			snprintf(c->report, sizeof(c->report), "0 -> %.2f",
				 seed003_figures[i].alternate);
		if (o > 0)
			format_ratio(c->pagelab, sizeof(c->pagelab), s / o);
		else
			snprintf(c->pagelab, sizeof(c->pagelab), "%.0f -> %.0f", o, s);
		c->agrees = o >= 0 && s >= 0 &&
			    direction(seed003_figures[i].original, seed003_figures[i].alternate) ==
			    direction(o, s);
		agree += c->agrees;
		if (!i)
			faults_agree = c->agrees;
		else if (!c->agrees && used < sizeof(differ))
			used += snprintf(differ + used, sizeof(differ) - used, "%s%s",
					 used ? ", " : "", name);
	}
	if (not_run(res, n, v))
		return;
	v->reproduced = faults_agree;
	snprintf(v->why, sizeof(v->why),
		 "%s; %u of the report's %zu figures move the same way%s%s%s",
		 faults_agree ? "Slim Chance faults more than FreeBSD's scan, as the report found"
			      : "Slim Chance does not fault more than FreeBSD's scan here: the "
				"refaults come from the small system working set of the workload, "
				"whose survival depends on when the daemon wakes, and so on the memory "
				"size (reproduced at --memory 1024 and 4096, not at 256)",
		 agree, sizeof(seed003_figures) / sizeof(seed003_figures[0]),
		 used ? " (not: " : ".", differ,
		 used ? "). The report's counters were logged per pagedaemon run on a real "
			"kernel under a whole system's load; here they are totals over one "
			"synthetic run, and the simulated daemon runs only when a fault needs it."
		      : "");
}

/* ------------------------------------------------------------- seed 004 */

static const char *const seed004_counters[] = { NULL };

#define WS_RUN(num, den) { "seed004-phases", "ws", NULL, 0, 1, "tau", num, den }
#define LRU_RUN(num, den) RUN("seed004-phases", "lru", NULL, num, den)

static const struct exp_run seed004_runs[] = {
	WS_RUN(1, 8), WS_RUN(1, 4), WS_RUN(1, 2), WS_RUN(1, 1), WS_RUN(2, 1), WS_RUN(4, 1),
	LRU_RUN(1, 16), LRU_RUN(1, 8), LRU_RUN(1, 4), LRU_RUN(3, 8), LRU_RUN(1, 2),
	LRU_RUN(3, 4), LRU_RUN(1, 1),
	{ NULL },
};

/* LRU's faults with x frames, by linear interpolation between its runs;
 * NAN outside them. */
static double lru_faults_at(const struct exp_result *res, unsigned n, double x)
{
	const struct exp_result *below = NULL, *above = NULL;

	for (unsigned i = 0; i < n; i++) {
		if (strcmp(res[i].run->policy, "lru") || !res[i].ok)
			continue;
		if (res[i].r.frames <= x && (!below || res[i].r.frames > below->r.frames))
			below = &res[i];
		if (res[i].r.frames >= x && (!above || res[i].r.frames < above->r.frames))
			above = &res[i];
	}
	if (!below || !above)
		return NAN;
	if (above->r.frames == below->r.frames)
		return (double)below->r.stats.misses;
	return (double)below->r.stats.misses +
	       ((double)above->r.stats.misses - (double)below->r.stats.misses) *
	       (x - below->r.frames) / (above->r.frames - below->r.frames);
}

/* The report (4.1, Fig. 4.2): WS's lifetime curve (references per fault
 * against mean memory) lies above LRU's for the four programs measured. */
static void seed004_verdict(const struct exp_result *res, unsigned n, struct exp_verdict *v)
{
	unsigned better = 0, compared = 0;

	for (unsigned i = 0; i < n; i++) {
		double mean, lru;
		struct exp_comparison *c;
		char label[64];

		if (strcmp(res[i].run->policy, "ws") || !res[i].ok)
			continue;
		mean = out_mean_resident(&res[i].r.stats);
		lru = lru_faults_at(res, n, mean);
		snprintf(label, sizeof(label), "faults, WS %s / LRU at %.0f frames", res[i].params,
			 mean);
		c = compare(v, label);
		snprintf(c->report, sizeof(c->report), "below 1");
		format_ratio(c->pagelab, sizeof(c->pagelab),
			     isnan(lru) ? NAN : (double)res[i].r.stats.misses / lru);
		c->agrees = !isnan(lru) && res[i].r.stats.misses < lru;
		if (isnan(lru))
			continue;
		compared++;
		better += c->agrees;
	}
	if (not_run(res, n, v))
		return;
	v->reproduced = compared && 2 * better > compared;
	snprintf(v->why, sizeof(v->why), v->reproduced ?
		 "for the same mean memory, WS faults less than LRU at %u of %u values of tau: "
		 "its lifetime curve lies above LRU's, as the report's Figure 4.2 shows (the "
		 "report's kernel experiments, which found no gain, measured run time, which "
		 "this does not model)." :
		 "WS faults less than LRU with the same mean memory at only %u of %u values of "
		 "tau on this synthetic trace: the advantage the report saw on real programs' "
		 "traces depends on how abrupt and how frequent their phase changes are.",
		 better, compared);
}

/* ------------------------------------------------------------- the list */

const struct experiment experiments[] = {
	{
		"seed000", "RRIP on Linux's active list against the classic two lists",
		"seed 000: RRIP in the Linux 4.4 page cache, SparkBench, minor faults "
		"(Table 2)",
		"RRIP performs at least on par with the classic kernel (minor faults -0.70% "
		"geometric mean)",
		seed000_counters, seed000_runs, seed000_verdict,
	},
	{
		"seed001", "Counter-based clock against Linux's second-chance LRU lists",
		"seed 001: Linux 5.15 with a counter-based clock, promotions/demotions/"
		"evictions of Seq, Half Seq, Rand, Half Rand (section 4)",
		"the counter-based clock evicts far fewer pages than Linux's LRU approximation",
		seed001_counters, seed001_runs, seed001_verdict,
	},
	{
		"seed002", "LRU-K (seed 002's Linux variant) against Linux's LRU",
		"seed 002: Test Programs 1 and 2, page faults averaged over ~30 runs",
		"LRU-K faults ~15% less than LRU on Test Program 1 and ~28% more on Test "
		"Program 2",
		no_counters, seed002_runs, seed002_verdict,
	},
	{
		"seed003", "FreeBSD's pagedaemon against seed 003's Slim Chance",
		"seed 003: stress -m 3 --vm-bytes 512M on a 128 MB VM, averages of 30 runs "
		"(Original against Alternate)",
		"Slim Chance is worse in every category: more faults, reclaims and queue "
		"movement (the report's own table has fewer pages scanned)",
		seed003_counters, seed003_runs, seed003_verdict,
	},
	{
		"seed004", "Working set against LRU: faults and mean memory over tau and frames",
		"seed 004: lifetime functions of WS and LRU on Valgrind traces (section 4, "
		"Figure 4.2)",
		"the working set gives more references per fault than LRU for the same mean "
		"memory (a lower space-time product)",
		seed004_counters, seed004_runs, seed004_verdict,
	},
	{ NULL },
};

const struct experiment *experiment_find(const char *name)
{
	for (const struct experiment *e = experiments; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
