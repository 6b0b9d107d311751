/* SPDX-License-Identifier: GPL-2.0 */
/*
 * args.c - the pagelab command line's argument parsing, its messages, and
 * the checks and steps every simulating command shares (--frames, policy
 * names, --param, loading the trace, running a policy).  Interface: cli.h.
 *
 * Syntax: `pagelab COMMAND [OPERAND] [--option [VALUE]]...`; a value may also
 * be written `--option=VALUE`; only a command declaring an operand (gen's
 * and experiment's NAME) takes one word that is not an option.  Every option of a command is declared in its
 * struct cli_command; --help and -h are accepted by all.  Parsing stores
 * each option given, in order, with its value; the command reads them by
 * name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"

/* ------------------------------------------------------------- messages */

int cli_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("pagelab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

int cli_usage_error(const struct cli_args *a, const char *fmt, ...)
{
	const char *command = a && a->command ? a->command->name : NULL;
	va_list ap;

	fputs("pagelab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'pagelab %s%s--help')\n", command ? command : "",
		command ? " " : "");
	return CLI_EXIT_USAGE;
}

/* -------------------------------------------------------------- parsing */

const struct cli_command *cli_find_command(const char *name)
{
	for (unsigned i = 0; cli_commands[i]; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return cli_commands[i];
	return NULL;
}

int cli_unknown_command(const char *name)
{
	char names[256];
	size_t used = 0;

	names[0] = '\0';
	for (unsigned i = 0; cli_commands[i] && used < sizeof(names); i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 !i ? "" : cli_commands[i + 1] ? ", " : " or ",
				 cli_commands[i]->name);
	return cli_usage_error(NULL, "'%s' is not a command (%s)", name, names);
}

static const struct cli_option help_options[] = {
	{ "--help", CLI_FLAG }, { "-h", CLI_FLAG }, { NULL },
};

static const struct cli_option *find_in(const struct cli_option *options, const char *arg,
					size_t len)
{
	for (; options->name; options++)
		if (strlen(options->name) == len && !strncmp(options->name, arg, len))
			return options;
	return NULL;
}

static const struct cli_option *find_option(const struct cli_command *c, const char *arg,
					    size_t len)
{
	const struct cli_option *option = find_in(c->options, arg, len);

	return option ? option : find_in(help_options, arg, len);
}

static int store(struct cli_args *a, const struct cli_option *option, const char *value)
{
	if (option->kind == CLI_VALUE && cli_value(a, option->name))
		return cli_usage_error(a, "%s given twice", option->name);
	if (a->ngiven == CLI_MAX_ARGS)
		return cli_usage_error(a, "more than %d options", CLI_MAX_ARGS);
	a->given[a->ngiven++] = (struct cli_arg){ .option = option, .value = value };
	return 0;
}

/* Parses argv[i] (and maybe argv[i+1]); returns how many it used, or -exit. */
static int parse_option(struct cli_args *a, int argc, char **argv, int i)
{
	const char *arg = argv[i], *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct cli_option *option = find_option(a->command, arg, len);
	int ret;

	if (!option)
		return -cli_usage_error(a, "'%s' is not an option of 'pagelab %s'", arg,
					a->command->name);
	if (option->kind == CLI_FLAG) {
		if (eq)
			return -cli_usage_error(a, "%s takes no value (got '%s')", option->name,
						arg);
		if (find_in(help_options, arg, len))
			a->help = true;
		else if ((ret = store(a, option, NULL)))
			return -ret;
		return 1;
	}
	if (!eq && i + 1 >= argc)
		return -cli_usage_error(a, "%s needs a value", option->name);
	ret = store(a, option, eq ? eq + 1 : argv[i + 1]);
	if (ret)
		return -ret;
	return eq ? 1 : 2;
}

int cli_parse(struct cli_args *a, int argc, char **argv)
{
	int i = 2, used;

	a->command = cli_find_command(argv[1]);
	if (!a->command)
		return cli_unknown_command(argv[1]);
	while (i < argc) {
		if ((strncmp(argv[i], "-", 1) || !strcmp(argv[i], "-")) && a->command->operand &&
		    !a->operand) {
			a->operand = argv[i++];
			continue;
		}
		if (strncmp(argv[i], "-", 1) || !strcmp(argv[i], "-"))
			return cli_usage_error(a, "unexpected argument '%s' (options are written "
					       "--name value)", argv[i]);
		used = parse_option(a, argc, argv, i);
		if (used < 0)
			return -used;
		i += used;
	}
	return 0;
}

const char *cli_value(const struct cli_args *a, const char *name)
{
	for (unsigned i = 0; i < a->ngiven; i++)
		if (!strcmp(a->given[i].option->name, name))
			return a->given[i].value;
	return NULL;
}

bool cli_flag(const struct cli_args *a, const char *name)
{
	for (unsigned i = 0; i < a->ngiven; i++)
		if (!strcmp(a->given[i].option->name, name))
			return true;
	return false;
}

unsigned cli_values(const struct cli_args *a, const char *name, const char **out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < a->ngiven && n < max; i++)
		if (!strcmp(a->given[i].option->name, name))
			out[n++] = a->given[i].value;
	return n;
}

/* ------------------------------------------------------- shared checks */

int cli_frames(const struct cli_args *a, uint32_t *frames)
{
	const char *text = cli_value(a, "--frames");
	unsigned long long v;
	char *end;

	if (!text)
		return cli_usage_error(a, "--frames is required");
	errno = 0;
	v = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end || errno || v == 0 || v >= PL_NONE)
		return cli_usage_error(a, "--frames: '%s' is not a number of frames (1 .. %u)",
				       text, PL_NONE - 1);
	*frames = (uint32_t)v;
	return 0;
}

int cli_frames_or_unbounded(const struct cli_args *a, uint32_t *frames)
{
	if (!cli_value(a, "--frames")) {
		*frames = CLI_UNBOUNDED;
		return 0;
	}
	return cli_frames(a, frames);
}

static void known_policies(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; pl_policies[i] && used < size; i++)
		used += snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
				 pl_policy_name(pl_policies[i]));
}

/* Policy names are lower case; "LRU" is what a newcomer types for lru. */
const struct pl_policy_ops *cli_policy(const struct cli_args *a, const char *name)
{
	const struct pl_policy_ops *ops;
	char lower[64], names[1024];
	size_t i;

	for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	ops = name[i] ? NULL : pl_policy_find(lower);
	if (!ops) {
		known_policies(names, sizeof(names));
		cli_usage_error(a, "no policy named '%s' (known: %s)", name, names);
	}
	return ops;
}

int cli_set_param(const struct cli_args *a, struct cli_result *r, const char *assignment)
{
	struct pl_error err;

	if (pl_params_set(r->ops, r->params, assignment, &err))
		return cli_usage_error(a, "--param %s: %s", assignment, err.msg);
	return 0;
}

bool cli_has_param(const struct pl_policy_ops *ops, const char *assignment)
{
	size_t len = strcspn(assignment, "=");

	for (unsigned i = 0; i < pl_policy_nparams(ops); i++) {
		const char *name = pl_policy_param(ops, i)->name;

		if (strlen(name) == len && !strncmp(name, assignment, len))
			return true;
	}
	return false;
}

/* ----------------------------------------------------------------- scope */

bool cli_is_scope_param(const char *assignment)
{
	return !strncmp(assignment, "share=", 6);
}

/* "PID:WEIGHT" at *text, advancing it; false if malformed. */
static bool parse_share(const char **text, struct pl_share *share)
{
	unsigned long long pid, weight;
	char *end;

	if (**text < '0' || **text > '9')
		return false;
	errno = 0;
	pid = strtoull(*text, &end, 10);
	if (*end != ':' || errno || pid >= UINT32_MAX || end[1] < '0' || end[1] > '9')
		return false;
	weight = strtoull(end + 1, &end, 10);
	if (errno || !weight || weight >= UINT32_MAX || (*end && *end != ','))
		return false;
	*share = (struct pl_share){ .pid = (uint32_t)pid, .weight = (uint32_t)weight };
	*text = *end ? end + 1 : end;
	return true;
}

int cli_scope(const struct cli_args *a, struct cli_scope *scope)
{
	const char *name = cli_value(a, "--scope"), *params[CLI_MAX_ARGS], *share = NULL, *given;
	unsigned n = cli_values(a, "--param", params, CLI_MAX_ARGS);

	memset(scope, 0, sizeof(*scope));
	if (name && strcmp(name, "global") && strcmp(name, "local"))
		return cli_usage_error(a, "--scope: '%s' is not a scope (global or local)", name);
	scope->local = name && !strcmp(name, "local");
	for (unsigned i = 0; i < n; i++) {
		if (!cli_is_scope_param(params[i]))
			continue;
		if (share)
			return cli_usage_error(a, "--param share given twice");
		share = params[i] + 6;
	}
	if (share && !scope->local)
		return cli_usage_error(a, "--param share: shares are for --scope local");
	given = share;
	while (share && *share) {
		if (scope->nshares == CLI_MAX_SHARES)
			return cli_usage_error(a, "--param share: more than %d processes",
					       CLI_MAX_SHARES);
		if (!parse_share(&share, &scope->shares[scope->nshares++]))
			return cli_usage_error(a, "--param share: '%s' is not a list of PID:WEIGHT "
					       "(e.g. share=1:3,2:1: process 1 gets 3/4 of the "
					       "frames)", given);
	}
	return 0;
}

/* ------------------------------------------------------------ simulation */

/*
 * Prints the events of the steps taken since step *printed (and those a
 * failed step recorded), and advances it.
 */
static void stream_events(struct pl_sim *sim, const struct pl_policy_ops *ops,
			  const struct pl_trace *t, uint32_t *printed)
{
	uint32_t pos = pl_sim_position(sim), count;
	const struct pl_event *events = pl_sim_events(sim, *printed, pos + 1, &count);

	for (uint32_t i = 0; i < count; i++)
		out_event_json(stdout, &events[i], ops, t);
	*printed = pos;
}

void cli_result_free(struct cli_result *r)
{
	free(r->procs);
	r->procs = NULL;
	r->nprocs = 0;
}

static int alloc_procs(struct cli_result *r, uint32_t n)
{
	r->nprocs = n;
	r->procs = n ? calloc(n, sizeof(*r->procs)) : NULL;
	return n && !r->procs ? cli_fail("out of memory") : 0;
}

/* Each process with its own frames and policy instance (local.c). */
static int simulate_local(struct cli_result *r, const struct pl_trace *t)
{
	struct pl_error err;
	struct pl_local *l;
	int ret = 0;

	l = pl_local_create(r->ops, r->frames == CLI_UNBOUNDED ? PL_NONE - 1 : r->frames,
			    r->params, t, r->scope->shares, r->scope->nshares, &err);
	if (!l)
		return cli_fail("%s", err.msg);
	pl_local_run(l, UINT32_MAX);
	if (pl_local_error(l))
		ret = cli_fail("%s", pl_local_error(l));
	pl_local_stats(l, &r->stats);
	pl_local_counters(l, r->counters);
	if (!ret && !(ret = alloc_procs(r, pl_local_nprocs(l))))
		for (uint32_t i = 0; i < r->nprocs; i++)
			pl_local_proc(l, i, &r->procs[i].pid, &r->procs[i].frames,
				      &r->procs[i].stats);
	pl_local_destroy(l);
	return ret;
}

int cli_collect(struct cli_result *r, const struct pl_sim *sim)
{
	int ret = 0;

	if (pl_sim_error(sim))
		ret = cli_fail("%s", pl_sim_error(sim));
	r->stats = *pl_sim_stats(sim);
	pl_sim_counters(sim, r->counters);
	if (!ret && !(ret = alloc_procs(r, pl_sim_nprocs(sim))))
		for (uint32_t i = 0; i < r->nprocs; i++)
			pl_sim_proc(sim, i, &r->procs[i].pid, &r->procs[i].stats);
	return ret;
}

int cli_simulate(struct cli_result *r, const struct pl_trace *t, bool events)
{
	struct pl_error err;
	struct pl_sim *sim;
	uint32_t printed = 0;
	int ret = 0;

	if (r->scope && r->scope->local)
		return simulate_local(r, t);	/* no events: the callers refuse them */

	/* one checkpoint (step 0) is all a stream needs: nothing seeks */
	sim = pl_sim_create(r->ops, r->frames == CLI_UNBOUNDED ? PL_NONE - 1 : r->frames,
			    r->params, t, events ? PL_SIM_RECORD : 0, t->n + 1, &err);
	if (!sim)
		return cli_fail("%s", err.msg);
	if (events) {
		while (pl_sim_step(sim))
			stream_events(sim, r->ops, t, &printed);
		stream_events(sim, r->ops, t, &printed);
	} else {
		pl_sim_run(sim, UINT32_MAX);
	}
	ret = cli_collect(r, sim);
	pl_sim_destroy(sim);
	return ret;
}
