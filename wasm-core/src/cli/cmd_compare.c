/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_compare.c - `pagelab compare`: several policies over the same trace,
 * one row each, as a table, CSV or a JSON array.
 */
#include <string.h>

#include "cli.h"

static const struct cli_option compare_options[] = {
	{ "--policies", CLI_VALUE }, CLI_TRACE_OPTIONS,
	{ "--json", CLI_FLAG }, { "--csv", CLI_FLAG }, { NULL },
};

int compare_policies(const struct cli_args *a, const struct pl_policy_ops **list, unsigned *n)
{
	const char *policies = cli_value(a, "--policies");
	char copy[1024], *save, *name;

	*n = 0;
	if (!policies)
		return cli_usage_error(a, "--policies is required");
	if (!strcmp(policies, "all")) {
		for (; pl_policies[*n]; (*n)++) {
			if (*n == CLI_MAX_POLICIES)
				return cli_usage_error(a, "--policies all: more than %d policies",
						       CLI_MAX_POLICIES);
			list[*n] = pl_policies[*n];
		}
		return 0;
	}
	if (strlen(policies) >= sizeof(copy))
		return cli_usage_error(a, "--policies: list too long");
	strcpy(copy, policies);
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (*n == CLI_MAX_POLICIES)
			return cli_usage_error(a, "--policies: more than %d policies",
					       CLI_MAX_POLICIES);
		list[*n] = cli_policy(a, name);
		if (!list[*n])
			return CLI_EXIT_USAGE;
		(*n)++;
	}
	if (!*n)
		return cli_usage_error(a, "--policies: no policy named");
	return 0;
}

int compare_params(const struct cli_args *a, struct cli_result *results, unsigned n)
{
	const char *params[CLI_MAX_ARGS];
	unsigned nparams = cli_values(a, "--param", params, CLI_MAX_ARGS);

	for (unsigned p = 0; p < nparams; p++) {
		bool used = false;

		if (cli_is_scope_param(params[p]))
			continue;
		for (unsigned i = 0; i < n; i++) {
			if (!cli_has_param(results[i].ops, params[p]))
				continue;
			if (cli_set_param(a, &results[i], params[p]))
				return CLI_EXIT_USAGE;
			used = true;
		}
		if (!used)
			return cli_usage_error(a, "--param %s: none of the policies has that "
					       "parameter", params[p]);
	}
	return 0;
}

/*
 * --frames: required unless every policy sizes its own memory (ws, pff),
 * which then run unbounded.
 */
static int compare_frames(const struct cli_args *a, const struct pl_policy_ops **ops, unsigned n,
			  uint32_t *frames)
{
	if (cli_value(a, "--frames"))
		return cli_frames(a, frames);
	for (unsigned i = 0; i < n; i++)
		if (!pl_policy_variable_space(ops[i]))
			return cli_usage_error(a, "--frames is required for %s (only the "
					       "variable-space policies, such as ws and pff, size "
					       "their own memory)", pl_policy_name(ops[i]));
	*frames = CLI_UNBOUNDED;
	return 0;
}

static int compare_main(const struct cli_args *a)
{
	const struct pl_policy_ops *ops[CLI_MAX_POLICIES];
	static struct cli_result results[CLI_MAX_POLICIES];
	static struct cli_scope scope;
	bool json = cli_flag(a, "--json"), csv = cli_flag(a, "--csv");
	uint32_t frames;
	unsigned n;
	int ret;

	if (json && csv)
		return cli_usage_error(a, "choose one of --json and --csv");
	if ((ret = compare_policies(a, ops, &n)) || (ret = compare_frames(a, ops, n, &frames)) ||
	    (ret = cli_scope(a, &scope)))
		return ret;
	for (unsigned i = 0; i < n; i++) {
		results[i].ops = ops[i];
		results[i].scope = &scope;
		results[i].frames = frames;
		pl_params_default(ops[i], results[i].params);
	}
	if ((ret = compare_params(a, results, n)))
		return ret;
	ret = cli_run_input(a, results, n, false);
	if (!ret && json)
		out_rows_json(stdout, results, n);
	else if (!ret && csv)
		out_rows_csv(stdout, results, n);
	else if (!ret)
		out_rows_table(stdout, results, n);
	for (unsigned i = 0; i < n; i++)
		cli_result_free(&results[i]);
	return ret;
}

const struct cli_command cli_command_compare = {
	.name = "compare",
	.summary = "run several policies over the same trace, one row each",
	.usage =
	"usage: pagelab compare --policies A,B,... --frames N (--refs STRING | --trace FILE)\n"
	"                       [--param NAME=VALUE]... [--scope global|local] [--json | --csv]\n"
	"\n"
	"Runs each policy over the same trace and prints one row per policy.\n"
	"\n"
	"  --policies A,B,...  policies from 'pagelab list' ('all' for every one)\n"
	"  --frames N          page frames of memory (at least 1); optional when\n"
	"                      every policy is variable-space (ws, pff): they then\n"
	"                      run unbounded, see mean_resident\n"
	"  --param NAME=VALUE  set a parameter of every listed policy that has\n"
	"                      one called NAME (repeatable; an error if none has)\n"
	"  --scope global|local  as in 'pagelab run' (per-process figures: --json)\n"
	"  --json              print a JSON array of summaries\n"
	"  --csv               print comma-separated values with a header row\n",
	.example = "example: pagelab compare --policies all --frames 4 --trace trace.txt --csv\n",
	.reads_trace = true,
	.options = compare_options,
	.run = compare_main,
};
