/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.c - the pagelab command line: the table of commands, the top-level
 * help and dispatch.  Each command lives in its own cmd_*.c; how to add
 * one, and how the parts fit, is in cli.h.  Every option and output format
 * is documented in the usage texts and in wasm-core/README.md.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"

extern const struct cli_command cli_command_run, cli_command_compare, cli_command_list,
	cli_command_gen, cli_command_experiment, cli_command_mrc, cli_command_wss,
	cli_command_lifetime, cli_command_spacetime, cli_command_reuse, cli_command_pattern,
	cli_command_anomaly, cli_command_convert;

/* In the order 'pagelab --help' lists them. */
const struct cli_command *const cli_commands[] = {
	&cli_command_run,
	&cli_command_compare,
	&cli_command_list,
	&cli_command_gen,
	&cli_command_experiment,
	&cli_command_mrc,
	&cli_command_wss,
	&cli_command_lifetime,
	&cli_command_spacetime,
	&cli_command_reuse,
	&cli_command_pattern,
	&cli_command_anomaly,
	&cli_command_convert,
	NULL,
};

static const char usage_input[] =
	"input (exactly one):\n"
	"  --refs STRING   a reference string: page numbers separated by commas\n"
	"                  and/or spaces, decimal or 0x-hex; a trailing w or W\n"
	"                  marks a write, e.g. \"7,0,1,2w,0,3\"\n"
	"  --trace FILE    a trace file ('-' for standard input): the same\n"
	"                  syntax, usually one reference per line; '#' starts\n"
	"                  a comment; gzip-compressed files are read as they are\n";

static const char usage_trace_file[] =
	"trace files (the format is detected and, unless plain, reported):\n"
	"  --format F      text, csv, lackey, libcachesim or binary (default:\n"
	"                  auto); lackey is valgrind --tool=lackey --trace-mem=yes\n"
	"  --page-size B   bytes per page for addresses (Lackey, a CSV address\n"
	"                  column); a power of two, default 4096\n"
	"  --no-instructions  Lackey: leave out instruction fetches (I lines)\n"
	"  --collapse      drop a reference to the same page as the one before\n"
	"                  (a dropped write makes the kept one a write)\n"
	"  --columns MAP   CSV: ROLE=COLUMN,... with roles page, address, time,\n"
	"                  op, pid and columns by number (from 1) or header name\n";

static const char usage_examples[] =
	"'pagelab COMMAND --help' describes a command.  For example:\n"
	"  pagelab run --policy lru --frames 3 --refs \"7,0,1,2,0,3,0,4,2,3,0,3,2\"\n"
	"  pagelab compare --policies fifo,lru,opt --frames 3 --refs \"1 2 3 4 1 2 5 1 2 3 4 5\"\n"
	"  pagelab list\n"
	"  pagelab experiment seed004\n";

static void print_usage(FILE *out)
{
	fputs("usage: pagelab COMMAND [OPTIONS]\n"
	      "\n"
	      "Simulates page replacement policies over a reference trace.\n"
	      "\n"
	      "commands:\n", out);
	for (unsigned i = 0; cli_commands[i]; i++)
		fprintf(out, "  %-11s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
	fprintf(out, "\n%s", usage_examples);
}

static bool takes_refs(const struct cli_command *c)
{
	for (const struct cli_option *o = c->options; o->name; o++)
		if (!strcmp(o->name, "--refs"))
			return true;
	return false;
}

static int print_help(const struct cli_command *c)
{
	fputs(c->usage, stdout);
	if (c->reads_trace && takes_refs(c))
		printf("\n%s", usage_input);
	if (c->reads_trace)
		printf("\n%s", usage_trace_file);
	if (c->example)
		printf("\n%s", c->example);
	return 0;
}

static bool asks_for_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h") || !strcmp(arg, "help");
}

/* 'pagelab', 'pagelab --help', 'pagelab help COMMAND' */
static int top_level_help(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		print_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (argc < 3) {
		print_usage(stdout);
		return 0;
	}
	c = cli_find_command(argv[2]);
	return c ? print_help(c) : cli_unknown_command(argv[2]);
}

int main(int argc, char **argv)
{
	struct cli_args a = { 0 };
	int ret;

	if (argc < 2 || asks_for_help(argv[1]))
		return top_level_help(argc, argv);
	ret = cli_parse(&a, argc, argv);
	if (ret)
		return ret;
	if (a.help)
		return print_help(a.command);
	ret = a.command->run(&a);
	if (fflush(stdout) || ferror(stdout))
		return cli_fail("cannot write the output: %s", strerror(errno));
	return ret;
}
