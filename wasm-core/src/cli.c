/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.c - the pagelab command line: run one policy, compare several, list
 * them.  Every option and output format is documented in usage texts
 * below and in wasm-core/README.md.
 *
 *   pagelab run --policy NAME --frames N (--refs "7,0,1" | --trace FILE)
 *               [--param k=v]... [--json] [--events]
 *   pagelab compare --policies a,b,c --frames N (--refs ... | --trace FILE)
 *               [--param k=v]... [--json | --csv]
 *   pagelab list [--json]
 *
 * Exit status: 0 on success, 1 when the input or a simulation fails
 * (unreadable or malformed trace, a policy breaking an invariant), 2 on a
 * usage error.  Every message starts with "pagelab:" and names what was
 * wrong: the option, the token and its line.  The CLI only uses pagelab.h,
 * like any other client of the core.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pagelab.h"

#define EXIT_USAGE 2
#define MAX_PARAM_ARGS 64
#define MAX_COMPARE 64		/* policies in one compare */

enum command { CMD_RUN = 1 << 0, CMD_COMPARE = 1 << 1, CMD_LIST = 1 << 2 };

struct options {
	enum command command;
	const char *command_name;
	const char *policy;	/* run */
	const char *policies;	/* compare: "a,b,c" */
	const char *frames;
	const char *refs;
	const char *trace;
	const char *params[MAX_PARAM_ARGS];
	unsigned nparams;
	bool json, csv, events, help;
};

static const char usage_main[] =
	"usage: pagelab COMMAND [OPTIONS]\n"
	"\n"
	"Simulates page replacement policies over a reference trace.\n"
	"\n"
	"commands:\n"
	"  run       run one policy and print its statistics (or its event log)\n"
	"  compare   run several policies over the same trace, one row each\n"
	"  list      list the policies with their parameters\n"
	"\n"
	"'pagelab COMMAND --help' describes a command.  For example:\n"
	"  pagelab run --policy lru --frames 3 --refs \"7,0,1,2,0,3,0,4,2,3,0,3,2\"\n"
	"  pagelab compare --policies fifo,lru,opt --frames 3 --refs \"1 2 3 4 1 2 5 1 2 3 4 5\"\n"
	"  pagelab list\n";

static const char usage_input[] =
	"input (exactly one):\n"
	"  --refs STRING   a reference string: page numbers separated by commas\n"
	"                  and/or spaces, decimal or 0x-hex; a trailing w or W\n"
	"                  marks a write, e.g. \"7,0,1,2w,0,3\"\n"
	"  --trace FILE    a trace file ('-' for standard input): the same\n"
	"                  syntax, usually one reference per line; '#' starts\n"
	"                  a comment\n";

static const char usage_run[] =
	"usage: pagelab run --policy NAME --frames N (--refs STRING | --trace FILE)\n"
	"                   [--param NAME=VALUE]... [--json] [--events]\n"
	"\n"
	"Runs one policy and prints references, hits, misses, evictions,\n"
	"writebacks (dirty pages evicted), the hit ratio and the policy's own\n"
	"counters.\n"
	"\n"
	"  --policy NAME       a policy from 'pagelab list'\n"
	"  --frames N          page frames of memory (at least 1)\n"
	"  --param NAME=VALUE  set a policy parameter (repeatable); VALUE is an\n"
	"                      integer or one of the parameter's named choices\n"
	"  --json              print the summary as one JSON object\n"
	"  --events            print every event as a JSON line, then the\n"
	"                      summary as a last JSON line\n";

static const char example_run[] =
	"example: pagelab run --policy clock --frames 3 --refs \"1 2 3 1w 4\" --events\n";

static const char usage_compare[] =
	"usage: pagelab compare --policies A,B,... --frames N (--refs STRING | --trace FILE)\n"
	"                       [--param NAME=VALUE]... [--json | --csv]\n"
	"\n"
	"Runs each policy over the same trace and prints one row per policy.\n"
	"\n"
	"  --policies A,B,...  policies from 'pagelab list' ('all' for every one)\n"
	"  --frames N          page frames of memory (at least 1)\n"
	"  --param NAME=VALUE  set a parameter of every listed policy that has\n"
	"                      one called NAME (repeatable; an error if none has)\n"
	"  --json              print a JSON array of summaries\n"
	"  --csv               print comma-separated values with a header row\n";

static const char example_compare[] =
	"example: pagelab compare --policies all --frames 4 --trace trace.txt --csv\n";

static const char usage_list[] =
	"usage: pagelab list [--json]\n"
	"\n"
	"Lists the policies: name, title, description, parameters with their\n"
	"defaults and ranges, lists, per-page fields and counters.\n"
	"\n"
	"  --json   print the same as a JSON array\n";

/* ------------------------------------------------------------- messages */

static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fputs("pagelab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

static int __attribute__((format(printf, 2, 3)))
usage_error(const struct options *o, const char *fmt, ...)
{
	va_list ap;

	fputs("pagelab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'pagelab %s%s--help')\n", o->command_name ? o->command_name : "",
		o->command_name ? " " : "");
	return EXIT_USAGE;
}

/* ------------------------------------------------------ option parsing */

struct option_spec {
	const char *name;
	unsigned commands;	/* enum command bits that accept it */
	bool takes_value;
};

static const struct option_spec option_specs[] = {
	{ "--policy", CMD_RUN, true },
	{ "--policies", CMD_COMPARE, true },
	{ "--frames", CMD_RUN | CMD_COMPARE, true },
	{ "--refs", CMD_RUN | CMD_COMPARE, true },
	{ "--trace", CMD_RUN | CMD_COMPARE, true },
	{ "--param", CMD_RUN | CMD_COMPARE, true },
	{ "--json", CMD_RUN | CMD_COMPARE | CMD_LIST, false },
	{ "--csv", CMD_COMPARE, false },
	{ "--events", CMD_RUN, false },
	{ "--help", CMD_RUN | CMD_COMPARE | CMD_LIST, false },
	{ "-h", CMD_RUN | CMD_COMPARE | CMD_LIST, false },
};

static const struct option_spec *find_option(const char *arg, size_t len)
{
	for (size_t i = 0; i < sizeof(option_specs) / sizeof(option_specs[0]); i++)
		if (strlen(option_specs[i].name) == len && !strncmp(option_specs[i].name, arg, len))
			return &option_specs[i];
	return NULL;
}

/* Stores a value option; a repeated single-valued option is an error. */
static int store_value(struct options *o, const char *name, const char *value)
{
	const char **slot = NULL;

	if (!strcmp(name, "--param")) {
		if (o->nparams == MAX_PARAM_ARGS)
			return usage_error(o, "more than %d --param options", MAX_PARAM_ARGS);
		o->params[o->nparams++] = value;
		return 0;
	}
	if (!strcmp(name, "--policy"))
		slot = &o->policy;
	else if (!strcmp(name, "--policies"))
		slot = &o->policies;
	else if (!strcmp(name, "--frames"))
		slot = &o->frames;
	else if (!strcmp(name, "--refs"))
		slot = &o->refs;
	else
		slot = &o->trace;
	if (*slot)
		return usage_error(o, "%s given twice", name);
	*slot = value;
	return 0;
}

static void store_flag(struct options *o, const char *name)
{
	if (!strcmp(name, "--json"))
		o->json = true;
	else if (!strcmp(name, "--csv"))
		o->csv = true;
	else if (!strcmp(name, "--events"))
		o->events = true;
	else
		o->help = true;
}

/* Parses argv[i] (and maybe argv[i+1]); returns how many it used, or -exit. */
static int parse_option(struct options *o, int argc, char **argv, int i)
{
	const char *arg = argv[i], *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option_spec *spec = find_option(arg, len);
	int ret;

	if (!spec || !(spec->commands & o->command))
		return -usage_error(o, "'%s' is not an option of 'pagelab %s'", arg,
				    o->command_name);
	if (!spec->takes_value) {
		if (eq)
			return -usage_error(o, "%s takes no value (got '%s')", spec->name, arg);
		store_flag(o, spec->name);
		return 1;
	}
	if (!eq && i + 1 >= argc)
		return -usage_error(o, "%s needs a value", spec->name);
	ret = store_value(o, spec->name, eq ? eq + 1 : argv[i + 1]);
	if (ret)
		return -ret;
	return eq ? 1 : 2;
}

static int parse_command(struct options *o, const char *word)
{
	static const struct { const char *name; enum command command; } commands[] = {
		{ "run", CMD_RUN }, { "compare", CMD_COMPARE }, { "list", CMD_LIST },
	};

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(word, commands[i].name)) {
			o->command = commands[i].command;
			o->command_name = commands[i].name;
			return 0;
		}
	}
	return usage_error(o, "'%s' is not a command (run, compare or list)", word);
}

static int parse_args(struct options *o, int argc, char **argv)
{
	int i = 2, used;

	if (parse_command(o, argv[1]))
		return EXIT_USAGE;
	while (i < argc) {
		if (strncmp(argv[i], "-", 1) || !strcmp(argv[i], "-"))
			return usage_error(o, "unexpected argument '%s' (options are written --name value)",
					   argv[i]);
		used = parse_option(o, argc, argv, i);
		if (used < 0)
			return -used;
		i += used;
	}
	return 0;
}

/* -------------------------------------------------------------- checks */

static int parse_frames(const struct options *o, uint32_t *frames)
{
	unsigned long long v;
	char *end;

	if (!o->frames)
		return usage_error(o, "--frames is required");
	errno = 0;
	v = strtoull(o->frames, &end, 10);
	if (o->frames[0] < '0' || o->frames[0] > '9' || *end || errno || v == 0 ||
	    v >= PL_NONE)
		return usage_error(o, "--frames: '%s' is not a number of frames (1 .. %u)",
				   o->frames, PL_NONE - 1);
	*frames = (uint32_t)v;
	return 0;
}

static int known_policies(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; pl_policies[i] && used < size; i++)
		used += snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
				 pl_policy_name(pl_policies[i]));
	return 0;
}

/* Policy names are lower case; "LRU" is what a newcomer types for lru. */
static const struct pl_policy_ops *find_policy(const struct options *o, const char *name)
{
	const struct pl_policy_ops *ops;
	char lower[64], names[512];
	size_t i;

	for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	ops = name[i] ? NULL : pl_policy_find(lower);
	if (!ops) {
		known_policies(names, sizeof(names));
		usage_error(o, "no policy named '%s' (known: %s)", name, names);
	}
	return ops;
}

/* -------------------------------------------------------------- input */

static int read_trace_file(const char *path, struct pl_trace *trace)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *in = is_stdin ? stdin : fopen(path, "rb");
	struct pl_error err;
	int ret;

	if (!in)
		return fail("cannot open trace '%s': %s", path, strerror(errno));
	ret = pl_trace_read(trace, in, is_stdin ? "<stdin>" : path, &err);
	if (!is_stdin)
		fclose(in);
	if (ret)
		return fail("%s", err.msg);
	return 0;
}

static int load_trace(const struct options *o, struct pl_trace *trace)
{
	struct pl_error err;

	if (!o->refs && !o->trace)
		return usage_error(o, "give the references with --refs or --trace");
	if (o->refs && o->trace)
		return usage_error(o, "give either --refs or --trace, not both");
	if (o->trace) {
		if (read_trace_file(o->trace, trace))
			return EXIT_FAILURE;
	} else if (pl_trace_parse_refs(trace, o->refs, "--refs", &err)) {
		return fail("%s", err.msg);
	}
	if (!trace->n)
		return fail("%s: no references", o->trace ? o->trace : "--refs");
	return 0;
}

/* --------------------------------------------------------------- output */

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static double hit_ratio(const struct pl_stats *s)
{
	return s->references ? (double)s->hits / (double)s->references : 0.0;
}

/* A parameter's value as the user would write it: a choice name or a number. */
static void param_value(char *buf, size_t size, const struct pl_param *p, int64_t v)
{
	if (p->choices)
		snprintf(buf, size, "%s", p->choices[v]);
	else
		snprintf(buf, size, "%lld", (long long)v);
}

struct result {
	const struct pl_policy_ops *ops;
	uint32_t frames;
	int64_t params[PL_MAX_PARAMS];
	struct pl_stats stats;
	uint64_t counters[PL_MAX_COUNTERS];
};

static void print_json_params(FILE *out, const struct result *r)
{
	char value[64];

	fputs("\"params\":{", out);
	for (unsigned i = 0; i < pl_policy_nparams(r->ops); i++) {
		const struct pl_param *p = pl_policy_param(r->ops, i);

		fprintf(out, "%s", i ? "," : "");
		json_string(out, p->name);
		fputc(':', out);
		if (p->choices) {
			param_value(value, sizeof(value), p, r->params[i]);
			json_string(out, value);
		} else {
			fprintf(out, "%lld", (long long)r->params[i]);
		}
	}
	fputc('}', out);
}

static void print_json_summary(FILE *out, const struct result *r)
{
	const struct pl_stats *s = &r->stats;

	fputs("{\"policy\":", out);
	json_string(out, pl_policy_name(r->ops));
	fprintf(out, ",\"frames\":%u,\"references\":%llu,\"hits\":%llu,\"misses\":%llu,"
		"\"evictions\":%llu,\"writebacks\":%llu,\"hit_ratio\":%.6f,",
		r->frames, (unsigned long long)s->references, (unsigned long long)s->hits,
		(unsigned long long)s->misses, (unsigned long long)s->evictions,
		(unsigned long long)s->writebacks, hit_ratio(s));
	print_json_params(out, r);
	fputs(",\"counters\":{", out);
	for (unsigned i = 0; i < pl_policy_ncounters(r->ops); i++) {
		fprintf(out, "%s", i ? "," : "");
		json_string(out, pl_policy_counter_name(r->ops, i));
		fprintf(out, ":%llu", (unsigned long long)r->counters[i]);
	}
	fputs("}}", out);
}

/* The width of the label column: the longest label, at least "references". */
static int label_width(const struct pl_policy_ops *ops)
{
	size_t width = strlen("references");

	for (unsigned i = 0; i < pl_policy_ncounters(ops); i++)
		if (strlen(pl_policy_counter_name(ops, i)) > width)
			width = strlen(pl_policy_counter_name(ops, i));
	return (int)width + 2;
}

static void print_text_summary(FILE *out, const struct result *r)
{
	const struct pl_stats *s = &r->stats;
	int w = label_width(r->ops);
	char value[64];

	fprintf(out, "%-*s%s (%s)\n", w, "policy", pl_policy_name(r->ops), pl_policy_title(r->ops));
	for (unsigned i = 0; i < pl_policy_nparams(r->ops); i++) {
		const struct pl_param *p = pl_policy_param(r->ops, i);

		param_value(value, sizeof(value), p, r->params[i]);
		fprintf(out, "%-*s%s=%s\n", w, i ? "" : "params", p->name, value);
	}
	fprintf(out, "%-*s%u\n", w, "frames", r->frames);
	fprintf(out, "%-*s%llu\n", w, "references", (unsigned long long)s->references);
	fprintf(out, "%-*s%llu\n", w, "hits", (unsigned long long)s->hits);
	fprintf(out, "%-*s%llu\n", w, "misses", (unsigned long long)s->misses);
	fprintf(out, "%-*s%llu\n", w, "evictions", (unsigned long long)s->evictions);
	fprintf(out, "%-*s%llu\n", w, "writebacks", (unsigned long long)s->writebacks);
	fprintf(out, "%-*s%.2f%%\n", w, "hit ratio", 100.0 * hit_ratio(s));
	for (unsigned i = 0; i < pl_policy_ncounters(r->ops); i++)
		fprintf(out, "%-*s%llu\n", w, pl_policy_counter_name(r->ops, i),
			(unsigned long long)r->counters[i]);
}

/* One event as a JSON line; pages are the input page numbers. */
static void print_event(FILE *out, const struct pl_event *ev, const struct pl_policy_ops *ops,
			const struct pl_trace *t)
{
	fprintf(out, "{\"step\":%u,\"kind\":\"%s\"", ev->step,
		pl_event_kind_name((enum pl_event_kind)ev->kind));
	if (ev->page != PL_NONE)
		fprintf(out, ",\"page\":%llu", (unsigned long long)t->number[ev->page]);
	switch (ev->kind) {
	case PL_EV_EVICT:
		fprintf(out, ",\"list\":\"%s\",\"writeback\":%s", pl_policy_list_name(ops, ev->arg),
			ev->a ? "true" : "false");
		break;
	case PL_EV_INSERT:
		fprintf(out, ",\"list\":\"%s\",\"pos\":%d", pl_policy_list_name(ops, ev->arg), ev->b);
		break;
	case PL_EV_MOVE:
		fprintf(out, ",\"from\":\"%s\",\"to\":\"%s\",\"pos\":%d",
			pl_policy_list_name(ops, (unsigned)ev->a), pl_policy_list_name(ops, ev->arg),
			ev->b);
		break;
	case PL_EV_REMOVE:
		fprintf(out, ",\"list\":\"%s\"", pl_policy_list_name(ops, ev->arg));
		break;
	case PL_EV_SET:
		fprintf(out, ",\"field\":\"%s\",\"from\":%d,\"to\":%d",
			pl_policy_field_name(ops, ev->arg), ev->a, ev->b);
		break;
	case PL_EV_HAND:
		fprintf(out, ",\"hand\":\"%s\",\"from\":%d,\"to\":%d",
			pl_policy_hand_name(ops, ev->arg), ev->a, ev->b);
		break;
	}
	fputs("}\n", out);
}

/* ----------------------------------------------------------- simulation */

/* Prints the events of the steps taken since *printed, and advances it. */
static void stream_events(struct pl_sim *sim, const struct pl_policy_ops *ops,
			  const struct pl_trace *t, uint32_t *printed)
{
	const struct pl_event *events;
	uint32_t count;

	events = pl_sim_events(sim, &count);
	for (; *printed < count; (*printed)++)
		print_event(stdout, &events[*printed], ops, t);
}

static int simulate(struct result *r, const struct pl_trace *t, bool events)
{
	struct pl_error err;
	struct pl_sim *sim;
	uint32_t printed = 0;
	int ret = 0;

	/* one checkpoint (step 0) is all a stream needs: nothing seeks */
	sim = pl_sim_create(r->ops, r->frames, r->params, t, events ? PL_SIM_RECORD : 0,
			    t->n + 1, &err);
	if (!sim)
		return fail("%s", err.msg);
	if (events) {
		while (pl_sim_step(sim))
			stream_events(sim, r->ops, t, &printed);
		stream_events(sim, r->ops, t, &printed);
	} else {
		pl_sim_run(sim, UINT32_MAX);
	}
	if (pl_sim_error(sim))
		ret = fail("%s", pl_sim_error(sim));
	r->stats = *pl_sim_stats(sim);
	pl_sim_counters(sim, r->counters);
	pl_sim_destroy(sim);
	return ret;
}

/* ---------------------------------------------------------- parameters */

static int set_param(const struct options *o, struct result *r, const char *assignment)
{
	struct pl_error err;

	if (pl_params_set(r->ops, r->params, assignment, &err))
		return usage_error(o, "--param %s: %s", assignment, err.msg);
	return 0;
}

/* Does the policy have a parameter named like the left side of `assignment`? */
static bool has_param(const struct pl_policy_ops *ops, const char *assignment)
{
	size_t len = strcspn(assignment, "=");

	for (unsigned i = 0; i < pl_policy_nparams(ops); i++) {
		const char *name = pl_policy_param(ops, i)->name;

		if (strlen(name) == len && !strncmp(name, assignment, len))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------- commands */

static int check_run_options(const struct options *o)
{
	if (!o->policy)
		return usage_error(o, "--policy is required");
	if (o->events && o->json)
		return usage_error(o, "--events already prints JSON; drop --json");
	return 0;
}

static int cmd_run(const struct options *o)
{
	struct pl_trace trace;
	struct result r = { 0 };
	int ret;

	if ((ret = check_run_options(o)) || (ret = parse_frames(o, &r.frames)))
		return ret;
	r.ops = find_policy(o, o->policy);
	if (!r.ops)
		return EXIT_USAGE;
	pl_params_default(r.ops, r.params);
	for (unsigned i = 0; i < o->nparams; i++)
		if ((ret = set_param(o, &r, o->params[i])))
			return ret;
	pl_trace_init(&trace);
	ret = load_trace(o, &trace);
	if (!ret)
		ret = simulate(&r, &trace, o->events);
	if (!ret && (o->json || o->events)) {
		print_json_summary(stdout, &r);
		putchar('\n');
	} else if (!ret) {
		print_text_summary(stdout, &r);
	}
	pl_trace_free(&trace);
	return ret;
}

/* Splits --policies into ops; 'all' means every policy. */
static int compare_policies(const struct options *o, const struct pl_policy_ops **list,
			    unsigned *n)
{
	char copy[1024], *save, *name;

	*n = 0;
	if (!o->policies)
		return usage_error(o, "--policies is required");
	if (!strcmp(o->policies, "all")) {
		for (; pl_policies[*n]; (*n)++) {
			if (*n == MAX_COMPARE)
				return usage_error(o, "--policies all: more than %d policies",
						   MAX_COMPARE);
			list[*n] = pl_policies[*n];
		}
		return 0;
	}
	if (strlen(o->policies) >= sizeof(copy))
		return usage_error(o, "--policies: list too long");
	strcpy(copy, o->policies);
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_COMPARE)
			return usage_error(o, "--policies: more than %d policies", MAX_COMPARE);
		list[*n] = find_policy(o, name);
		if (!list[*n])
			return EXIT_USAGE;
		(*n)++;
	}
	if (!*n)
		return usage_error(o, "--policies: no policy named");
	return 0;
}

/* Applies each --param to every result whose policy has it. */
static int compare_params(const struct options *o, struct result *results, unsigned n)
{
	for (unsigned p = 0; p < o->nparams; p++) {
		bool used = false;

		for (unsigned i = 0; i < n; i++) {
			if (!has_param(results[i].ops, o->params[p]))
				continue;
			if (set_param(o, &results[i], o->params[p]))
				return EXIT_USAGE;
			used = true;
		}
		if (!used)
			return usage_error(o, "--param %s: none of the policies has that parameter",
					   o->params[p]);
	}
	return 0;
}

static void print_compare_table(const struct result *results, unsigned n)
{
	printf("%-12s %7s %12s %12s %12s %12s %12s %9s\n", "policy", "frames", "references",
	       "hits", "misses", "evictions", "writebacks", "hit ratio");
	for (unsigned i = 0; i < n; i++) {
		const struct pl_stats *s = &results[i].stats;

		printf("%-12s %7u %12llu %12llu %12llu %12llu %12llu %8.2f%%\n",
		       pl_policy_name(results[i].ops), results[i].frames,
		       (unsigned long long)s->references, (unsigned long long)s->hits,
		       (unsigned long long)s->misses, (unsigned long long)s->evictions,
		       (unsigned long long)s->writebacks, 100.0 * hit_ratio(s));
	}
}

static void print_compare_csv(const struct result *results, unsigned n)
{
	puts("policy,frames,references,hits,misses,evictions,writebacks,hit_ratio");
	for (unsigned i = 0; i < n; i++) {
		const struct pl_stats *s = &results[i].stats;

		printf("%s,%u,%llu,%llu,%llu,%llu,%llu,%.6f\n", pl_policy_name(results[i].ops),
		       results[i].frames, (unsigned long long)s->references,
		       (unsigned long long)s->hits, (unsigned long long)s->misses,
		       (unsigned long long)s->evictions, (unsigned long long)s->writebacks,
		       hit_ratio(s));
	}
}

static void print_compare_json(const struct result *results, unsigned n)
{
	putchar('[');
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? ",\n " : "", stdout);
		print_json_summary(stdout, &results[i]);
	}
	puts("]");
}

static int run_all(struct result *results, unsigned n, const struct pl_trace *trace)
{
	for (unsigned i = 0; i < n; i++)
		if (simulate(&results[i], trace, false))
			return EXIT_FAILURE;
	return 0;
}

static int cmd_compare(const struct options *o)
{
	const struct pl_policy_ops *ops[MAX_COMPARE];
	struct result results[MAX_COMPARE] = { { 0 } };
	struct pl_trace trace;
	uint32_t frames;
	unsigned n;
	int ret;

	if (o->json && o->csv)
		return usage_error(o, "choose one of --json and --csv");
	if ((ret = compare_policies(o, ops, &n)) || (ret = parse_frames(o, &frames)))
		return ret;
	for (unsigned i = 0; i < n; i++) {
		results[i].ops = ops[i];
		results[i].frames = frames;
		pl_params_default(ops[i], results[i].params);
	}
	if ((ret = compare_params(o, results, n)))
		return ret;
	pl_trace_init(&trace);
	ret = load_trace(o, &trace);
	if (!ret)
		ret = run_all(results, n, &trace);
	if (!ret && o->json)
		print_compare_json(results, n);
	else if (!ret && o->csv)
		print_compare_csv(results, n);
	else if (!ret)
		print_compare_table(results, n);
	pl_trace_free(&trace);
	return ret;
}

/* Prints text word-wrapped to 78 columns, each line indented by `indent`. */
static void print_wrapped(int indent, const char *text)
{
	int column = 0;

	while (*text) {
		size_t word = strcspn(text, " ");

		if (column && column + 1 + (int)word > 78) {
			putchar('\n');
			column = 0;
		}
		if (!column)
			column = printf("%*s", indent, "");
		else
			column += printf(" ");
		column += printf("%.*s", (int)word, text);
		text += word;
		text += strspn(text, " ");
	}
	putchar('\n');
}

static void print_param_text(const struct pl_param *p)
{
	char def[64];

	param_value(def, sizeof(def), p, p->def);
	printf("      --param %s=%s", p->name, def);
	if (p->choices) {
		printf("  (one of:");
		for (unsigned c = 0; p->choices[c]; c++)
			printf(" %s", p->choices[c]);
		printf(")");
	} else {
		printf("  (%lld .. %lld)", (long long)p->min, (long long)p->max);
	}
	printf("\n");
	print_wrapped(10, p->help);
}

static void print_names_text(const char *label, unsigned n,
			     const char *(*name)(const struct pl_policy_ops *, unsigned),
			     const struct pl_policy_ops *ops)
{
	if (!n)
		return;
	printf("    %s:", label);
	for (unsigned i = 0; i < n; i++)
		printf(" %s", name(ops, i));
	printf("\n");
}

static void list_text(void)
{
	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];

		printf("%s%-12s %s\n", i ? "\n" : "", pl_policy_name(ops), pl_policy_title(ops));
		print_wrapped(4, pl_policy_help(ops));
		for (unsigned p = 0; p < pl_policy_nparams(ops); p++)
			print_param_text(pl_policy_param(ops, p));
		print_names_text("lists", pl_policy_nlists(ops), pl_policy_list_name, ops);
		print_names_text("fields", pl_policy_nfields(ops), pl_policy_field_name, ops);
		print_names_text("hands", pl_policy_nhands(ops), pl_policy_hand_name, ops);
		print_names_text("counters", pl_policy_ncounters(ops), pl_policy_counter_name, ops);
	}
}

static void json_names(const char *key, unsigned n,
		       const char *(*name)(const struct pl_policy_ops *, unsigned),
		       const struct pl_policy_ops *ops)
{
	printf(",\"%s\":[", key);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? "," : "", stdout);
		json_string(stdout, name(ops, i));
	}
	putchar(']');
}

static void json_param(const struct pl_param *p)
{
	fputs("{\"name\":", stdout);
	json_string(stdout, p->name);
	fputs(",\"help\":", stdout);
	json_string(stdout, p->help);
	printf(",\"default\":%lld,\"min\":%lld,\"max\":%lld", (long long)p->def,
	       (long long)p->min, (long long)p->max);
	if (p->choices) {
		fputs(",\"choices\":[", stdout);
		for (unsigned c = 0; p->choices[c]; c++) {
			fputs(c ? "," : "", stdout);
			json_string(stdout, p->choices[c]);
		}
		putchar(']');
	}
	putchar('}');
}

static void list_json(void)
{
	putchar('[');
	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];

		fputs(i ? ",\n {\"name\":" : "{\"name\":", stdout);
		json_string(stdout, pl_policy_name(ops));
		fputs(",\"title\":", stdout);
		json_string(stdout, pl_policy_title(ops));
		fputs(",\"help\":", stdout);
		json_string(stdout, pl_policy_help(ops));
		fputs(",\"params\":[", stdout);
		for (unsigned p = 0; p < pl_policy_nparams(ops); p++) {
			fputs(p ? "," : "", stdout);
			json_param(pl_policy_param(ops, p));
		}
		putchar(']');
		json_names("lists", pl_policy_nlists(ops), pl_policy_list_name, ops);
		json_names("fields", pl_policy_nfields(ops), pl_policy_field_name, ops);
		json_names("hands", pl_policy_nhands(ops), pl_policy_hand_name, ops);
		json_names("counters", pl_policy_ncounters(ops), pl_policy_counter_name, ops);
		putchar('}');
	}
	puts("]");
}

static int cmd_list(const struct options *o)
{
	if (o->json)
		list_json();
	else
		list_text();
	return 0;
}

static const char *command_usage(enum command command)
{
	switch (command) {
	case CMD_RUN:
		return usage_run;
	case CMD_COMPARE:
		return usage_compare;
	default:
		return usage_list;
	}
}

static int print_help(const struct options *o)
{
	fputs(command_usage(o->command), stdout);
	if (o->command != CMD_LIST)
		printf("\n%s\n%s", usage_input,
		       o->command == CMD_RUN ? example_run : example_compare);
	return 0;
}

static bool asks_for_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "help");
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int ret;

	if (argc < 2 || asks_for_help(argv[1])) {
		if (argc >= 3)
			return parse_command(&o, argv[2]) ? EXIT_USAGE : print_help(&o);
		fputs(usage_main, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	ret = parse_args(&o, argc, argv);
	if (ret)
		return ret;
	if (o.help)
		return print_help(&o);
	if (o.command == CMD_RUN)
		ret = cmd_run(&o);
	else if (o.command == CMD_COMPARE)
		ret = cmd_compare(&o);
	else
		ret = cmd_list(&o);
	if (fflush(stdout) || ferror(stdout))
		return fail("cannot write the output: %s", strerror(errno));
	return ret;
}
