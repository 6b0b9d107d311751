/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_experiment.c - `pagelab experiment NAME`: re-runs a seed report's
 * experiment end to end.  Each experiment (experiments.c) is a list of runs
 * (workload, policy, parameters, frames as a fraction of the memory), the
 * counters the report measured, and a verdict function that sets the
 * report's published figures beside pagelab's (as ratios where absolute
 * counts cannot match) and says whether the report's conclusion is
 * reproduced, and why not when it is not.  Output: a table and the
 * comparisons as text, or --json, or the runs as --csv.
 */
#include <string.h>

#include "cli.h"
#include "experiments.h"
#include "workloads.h"

#define DEFAULT_MEMORY 1024
#define MAX_EXPERIMENT_MEMORY 65536	/* a few seconds per experiment at most */

static const struct cli_option experiment_options[] = {
	{ "--memory", CLI_VALUE }, { "--seed", CLI_VALUE }, { "--json", CLI_FLAG },
	{ "--csv", CLI_FLAG }, { NULL },
};

/* Sets the run's parameters ("a=1 b=2"); false with why in res->error. */
static bool set_params(struct exp_result *res, uint32_t memory)
{
	const struct exp_run *run = res->run;
	char buf[sizeof(res->params)];
	struct pl_error err;
	int used;

	used = snprintf(res->params, sizeof(res->params), "%s", run->params ? run->params : "");
	if (run->scaled_param)
		snprintf(res->params + used, sizeof(res->params) - used, "%s%s=%llu",
			 used ? " " : "", run->scaled_param,
			 (unsigned long long)memory * run->scaled_num / run->scaled_den);
	pl_params_default(res->r.ops, res->r.params);
	snprintf(buf, sizeof(buf), "%s", res->params);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
		if (pl_params_set(res->r.ops, res->r.params, tok, &err)) {
			snprintf(res->error, sizeof(res->error), "%s", err.msg);
			return false;
		}
	return true;
}

static void run_one(const struct exp_run *run, uint32_t memory, uint64_t seed,
		    struct exp_result *res)
{
	const struct workload *w = workload_find(run->workload);
	struct pl_trace trace;
	struct pl_error err;
	struct pl_sim *sim;

	res->run = run;
	res->r.ops = pl_policy_find(run->policy);
	res->r.frames = run->frames_num ?
			(uint32_t)((uint64_t)memory * run->frames_num / run->frames_den) : CLI_UNBOUNDED;
	if (run->frames_num && !res->r.frames)
		res->r.frames = 1;
	if (!res->r.ops) {
		snprintf(res->error, sizeof(res->error), "policy %s is not in this build",
			 run->policy);
		return;
	}
	if (!w || !set_params(res, memory))
		return;
	pl_trace_init(&trace);
	if (workload_generate(w, memory, seed, &trace, &err)) {
		snprintf(res->error, sizeof(res->error), "%s", err.msg);
	} else if ((res->pages = trace.npages), !(sim = pl_sim_create(res->r.ops, res->r.frames == CLI_UNBOUNDED ?
					 PL_NONE - 1 : res->r.frames, res->r.params, &trace,
					 0, 0, &err))) {
		snprintf(res->error, sizeof(res->error), "%s", err.msg);
	} else {
		pl_sim_run(sim, UINT32_MAX);
		if (pl_sim_error(sim))
			snprintf(res->error, sizeof(res->error), "%s", pl_sim_error(sim));
		res->r.stats = *pl_sim_stats(sim);
		pl_sim_counters(sim, res->r.counters);
		res->ok = !pl_sim_error(sim);
		pl_sim_destroy(sim);
	}
	pl_trace_free(&trace);
}

/* A counter of a run by name; -1 when the policy has no such counter. */
double exp_counter(const struct exp_result *res, const char *name)
{
	if (!res->ok)
		return -1;
	if (!strcmp(name, "faults"))
		return (double)res->r.stats.misses;
	if (!strcmp(name, "refaults"))
		return (double)(res->r.stats.misses - res->pages);
	if (!strcmp(name, "evictions"))
		return (double)res->r.stats.evictions;
	if (!strcmp(name, "mean_resident"))
		return out_mean_resident(&res->r.stats);
	for (unsigned i = 0; i < pl_policy_ncounters(res->r.ops); i++)
		if (!strcmp(pl_policy_counter_name(res->r.ops, i), name))
			return (double)res->r.counters[i];
	return -1;
}

/* ---------------------------------------------------------------- output */

static void print_text(const struct experiment *e, const struct exp_result *res, unsigned n,
		       const struct exp_verdict *v, uint32_t memory)
{
	printf("%s\n%s\nmemory: %u pages\n\n", e->title, e->source, memory);
	printf("%-18s %-13s %-16s %7s %9s %9s %9s", "workload", "policy", "params", "frames",
	       "faults", "evictions", "mean_res");
	for (unsigned c = 0; e->counters[c]; c++)
		printf(" %*s", (int)(strlen(e->counters[c]) > 9 ? strlen(e->counters[c]) : 9),
		       e->counters[c]);
	printf("\n");
	for (unsigned i = 0; i < n; i++) {
		const struct exp_run *run = res[i].run;

		printf("%-18s %-13s %-16s", run->workload, run->policy, res[i].params);
		if (res[i].r.frames == CLI_UNBOUNDED)
			printf(" %7s", "-");
		else
			printf(" %7u", res[i].r.frames);
		if (!res[i].ok) {
			printf("  not run: %s\n", res[i].error);
			continue;
		}
		printf(" %9llu %9llu %9.1f", (unsigned long long)res[i].r.stats.misses,
		       (unsigned long long)res[i].r.stats.evictions,
		       out_mean_resident(&res[i].r.stats));
		for (unsigned c = 0; e->counters[c]; c++) {
			double value = exp_counter(&res[i], e->counters[c]);
			int width = strlen(e->counters[c]) > 9 ? (int)strlen(e->counters[c]) : 9;

			if (value < 0)
				printf(" %*s", width, "-");
			else
				printf(" %*.0f", width, value);
		}
		printf("\n");
	}
	printf("\n%-44s %14s %14s\n", "the report against pagelab", "report", "pagelab");
	for (unsigned i = 0; i < v->ncomparisons; i++) {
		const struct exp_comparison *c = &v->comparisons[i];

		printf("%-44s %14s %14s  %s\n", c->label, c->report, c->pagelab,
		       c->agrees ? "agrees" : "differs");
	}
	printf("\nreport's conclusion: %s\n", e->claim);
	printf("%s: %s\n", v->reproduced ? "reproduced" : "NOT reproduced", v->why);
}

static void print_run_json(const struct exp_result *res)
{
	fputs("{\"workload\":", stdout);
	out_json_string(stdout, res->run->workload);
	fputs(",\"policy\":", stdout);
	out_json_string(stdout, res->run->policy);
	if (!res->ok) {
		fputs(",\"error\":", stdout);
		out_json_string(stdout, res->error);
		fputs("}", stdout);
		return;
	}
	fputs(",\"result\":", stdout);
	out_summary_json(stdout, &res->r);
	fputs("}", stdout);
}

static void print_json(const struct experiment *e, const struct exp_result *res, unsigned n,
		       const struct exp_verdict *v, uint32_t memory)
{
	fputs("{\"experiment\":", stdout);
	out_json_string(stdout, e->name);
	fputs(",\"title\":", stdout);
	out_json_string(stdout, e->title);
	fputs(",\"source\":", stdout);
	out_json_string(stdout, e->source);
	printf(",\"memory\":%u,\"runs\":[", memory);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? ",\n " : "", stdout);
		print_run_json(&res[i]);
	}
	fputs("],\"comparisons\":[", stdout);
	for (unsigned i = 0; i < v->ncomparisons; i++) {
		fputs(i ? "," : "", stdout);
		fputs("{\"label\":", stdout);
		out_json_string(stdout, v->comparisons[i].label);
		fputs(",\"report\":", stdout);
		out_json_string(stdout, v->comparisons[i].report);
		fputs(",\"pagelab\":", stdout);
		out_json_string(stdout, v->comparisons[i].pagelab);
		printf(",\"agrees\":%s}", v->comparisons[i].agrees ? "true" : "false");
	}
	fputs("],\"claim\":", stdout);
	out_json_string(stdout, e->claim);
	printf(",\"reproduced\":%s,\"why\":", v->reproduced ? "true" : "false");
	out_json_string(stdout, v->why);
	fputs("}\n", stdout);
}

static void print_csv(const struct experiment *e, const struct exp_result *res, unsigned n)
{
	printf("experiment,workload,policy,params,frames,references,faults,evictions,writebacks,"
	       "mean_resident");
	for (unsigned c = 0; e->counters[c]; c++)
		printf(",%s", e->counters[c]);
	printf(",error\n");
	for (unsigned i = 0; i < n; i++) {
		const struct pl_stats *s = &res[i].r.stats;

		printf("%s,%s,%s,%s,", e->name, res[i].run->workload, res[i].run->policy,
		       res[i].params);
		if (res[i].r.frames != CLI_UNBOUNDED)
			printf("%u", res[i].r.frames);
		printf(",%llu,%llu,%llu,%llu,%.3f", (unsigned long long)s->references,
		       (unsigned long long)s->misses, (unsigned long long)s->evictions,
		       (unsigned long long)s->writebacks, out_mean_resident(s));
		for (unsigned c = 0; e->counters[c]; c++) {
			double value = exp_counter(&res[i], e->counters[c]);

			if (value < 0)
				printf(",");
			else
				printf(",%.0f", value);
		}
		printf(",%s\n", res[i].ok ? "" : res[i].error);
	}
}

/* ------------------------------------------------------------------ main */

static int experiment_main(const struct cli_args *a)
{
	const struct experiment *e = a->operand ? experiment_find(a->operand) : NULL;
	bool json = cli_flag(a, "--json"), csv = cli_flag(a, "--csv");
	struct exp_result res[EXP_MAX_RUNS];
	struct exp_verdict verdict = { 0 };
	uint64_t memory, seed;
	unsigned n = 0;
	int ret;

	if (!e)
		return cli_usage_error(a, a->operand ? "'%s' is not an experiment (%s)" :
				       "which experiment?%s (%s)", a->operand ? a->operand : "",
				       EXPERIMENT_NAMES);
	if (json && csv)
		return cli_usage_error(a, "--json and --csv are exclusive");
	if ((ret = cli_number(a, "--memory", 8, MAX_EXPERIMENT_MEMORY, DEFAULT_MEMORY, &memory)) ||
	    (ret = cli_number(a, "--seed", 0, UINT64_MAX, 1, &seed)))
		return ret;
	memset(res, 0, sizeof(res));
	for (; e->runs[n].workload && n < EXP_MAX_RUNS; n++)
		run_one(&e->runs[n], (uint32_t)memory, seed, &res[n]);
	e->verdict(res, n, &verdict);
	if (json)
		print_json(e, res, n, &verdict, (uint32_t)memory);
	else if (csv)
		print_csv(e, res, n);
	else
		print_text(e, res, n, &verdict, (uint32_t)memory);
	return 0;
}

const struct cli_command cli_command_experiment = {
	.name = "experiment",
	.summary = "re-run a seed report's experiment and compare with its published figures",
	.operand = "NAME",
	.usage =
	"usage: pagelab experiment NAME [--memory PAGES] [--seed S] [--json | --csv]\n"
	"\n"
	"Runs a seed report's experiment end to end on its workloads (see\n"
	"'pagelab gen --help'): the policies it compared, the metrics and counters\n"
	"it measured, the report's own figures beside pagelab's (as ratios where\n"
	"absolute counts cannot match), and whether the report's conclusion is\n"
	"reproduced, and why not when it is not.\n"
	"\n"
	"  NAME            seed000 (RRIP vs Linux), seed001 (counter-based clock),\n"
	"                  seed002 (LRU-K vs Linux's LRU), seed003 (FreeBSD vs Slim\n"
	"                  Chance), seed004 (working set vs LRU over tau and frames)\n"
	"  --memory PAGES  memory the workloads are sized for (default 1024, 8 ..\n"
	"                  65536); frames are set from it as the report's were\n"
	"  --seed S        seed of the workloads' random choices (default 1)\n"
	"  --json          one JSON object: runs, comparisons, verdict\n"
	"  --csv           one CSV row per run\n",
	.example = "example: pagelab experiment seed003\n",
	.options = experiment_options,
	.run = experiment_main,
};
