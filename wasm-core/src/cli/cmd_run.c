/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_run.c - `pagelab run`: one policy over one trace, printing its
 * statistics as text or JSON, or every event as a JSON line followed by the
 * JSON summary.
 */
#include "cli.h"

static const struct cli_option run_options[] = {
	{ "--policy", CLI_VALUE }, CLI_TRACE_OPTIONS,
	{ "--json", CLI_FLAG }, { "--events", CLI_FLAG }, { NULL },
};

static int apply_params(const struct cli_args *a, struct cli_result *r)
{
	const char *params[CLI_MAX_ARGS];
	unsigned n = cli_values(a, "--param", params, CLI_MAX_ARGS);
	int ret;

	pl_params_default(r->ops, r->params);
	for (unsigned i = 0; i < n; i++)
		if (!cli_is_scope_param(params[i]) && (ret = cli_set_param(a, r, params[i])))
			return ret;
	return 0;
}

static int run_main(const struct cli_args *a)
{
	const char *policy = cli_value(a, "--policy");
	bool json = cli_flag(a, "--json"), events = cli_flag(a, "--events");
	struct cli_result r = { 0 };
	static struct cli_scope scope;
	int ret;

	if (!policy)
		return cli_usage_error(a, "--policy is required");
	if (events && json)
		return cli_usage_error(a, "--events already prints JSON; drop --json");
	if ((ret = cli_scope(a, &scope)))
		return ret;
	if (events && scope.local)
		return cli_usage_error(a, "--events: with --scope local each process has its own "
				       "instance of the policy, whose events are not one "
				       "policy's; use --scope global");
	r.scope = &scope;
	r.ops = cli_policy(a, policy);
	if (!r.ops)
		return CLI_EXIT_USAGE;
	ret = pl_policy_variable_space(r.ops) ? cli_frames_or_unbounded(a, &r.frames) :
						cli_frames(a, &r.frames);
	if (ret)
		return ret;
	if ((ret = apply_params(a, &r)))
		return ret;
	ret = cli_run_input(a, &r, 1, events);
	if (!ret && (json || events)) {
		out_summary_json(stdout, &r);
		putchar('\n');
	} else if (!ret) {
		out_summary_text(stdout, &r);
	}
	cli_result_free(&r);
	return ret;
}

const struct cli_command cli_command_run = {
	.name = "run",
	.summary = "run one policy and print its statistics (or its event log)",
	.usage =
	"usage: pagelab run --policy NAME --frames N (--refs STRING | --trace FILE)\n"
	"                   [--param NAME=VALUE]... [--scope global|local] [--json] [--events]\n"
	"\n"
	"Runs one policy and prints references, hits, misses, evictions,\n"
	"writebacks (dirty pages evicted), the hit ratio and the policy's own\n"
	"counters.\n"
	"\n"
	"  --policy NAME       a policy from 'pagelab list'\n"
	"  --frames N          page frames of memory (at least 1); optional for\n"
	"                      the variable-space policies (ws, pff), which size\n"
	"                      their own resident set: see 'mean resident'\n"
	"  --param NAME=VALUE  set a policy parameter (repeatable); VALUE is an\n"
	"                      integer or one of the parameter's named choices\n"
	"  --scope global      (default) replace over all frames, whichever process\n"
	"                      a page belongs to\n"
	"  --scope local       give each process of the trace's pid column its own\n"
	"                      share of the frames and replace within it; equal\n"
	"                      shares, or --param share=PID:WEIGHT,... (share=1:3,2:1:\n"
	"                      process 1 gets 3/4); statistics per process follow\n"
	"  --json              print the summary as one JSON object\n"
	"  --events            print every event as a JSON line, then the\n"
	"                      summary as a last JSON line\n",
	.example = "example: pagelab run --policy clock --frames 3 --refs \"1 2 3 1w 4\" --events\n",
	.reads_trace = true,
	.options = run_options,
	.run = run_main,
};
