/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the parts of the pagelab command line, and how a command plugs in.
 *
 *   main.c      the command table, `pagelab --help`, dispatch
 *   args.c      argument parsing and the checks every command shares:
 *               --frames, policy names, --param, loading --refs/--trace
 *   output.c    output formats: JSON strings, a run's summary as text or
 *               JSON, an event as a JSON line, rows as a table, CSV or JSON
 *   cmd_*.c     one file per command
 *
 * Adding a command
 *   Write src/cli/cmd_NAME.c defining `const struct cli_command
 *   cli_command_NAME` (its name, one-line summary, usage text, example,
 *   the options it accepts and its run function), and add
 *   &cli_command_NAME to cli_commands[] in main.c.  Parsing, --help, and
 *   the usage errors ("'--x' is not an option of 'pagelab NAME'", "--frames
 *   given twice", ...) come with it.  Options are stored by name; the
 *   command reads them with cli_value(), cli_flag() and cli_values().
 *
 * Exit status: 0 on success, EXIT_FAILURE (1) when the input or a
 * simulation fails, CLI_EXIT_USAGE (2) on a usage error.  Every message
 * starts with "pagelab:".  The CLI only uses pagelab.h, like any other
 * client of the core.
 */
#ifndef PAGELAB_CLI_H
#define PAGELAB_CLI_H

#include <stdlib.h>

#include "pagelab.h"

#define CLI_EXIT_USAGE 2
#define CLI_MAX_ARGS 128	/* options given on one command line */
#define CLI_MAX_POLICIES 64	/* policies in one compare */

enum cli_option_kind {
	CLI_FLAG,	/* --json */
	CLI_VALUE,	/* --frames N, at most once */
	CLI_REPEATED,	/* --param NAME=VALUE, any number of times */
};

struct cli_option {
	const char *name;	/* "--frames" */
	enum cli_option_kind kind;
};

/* The options of every command that reads a trace (cli_load_trace()). */
#define CLI_INPUT_OPTIONS { "--refs", CLI_VALUE }, CLI_READ_OPTIONS

/* How a trace file is read (input.c); convert takes these without --refs. */
#define CLI_READ_OPTIONS					\
	{ "--trace", CLI_VALUE }, { "--format", CLI_VALUE },	\
	{ "--page-size", CLI_VALUE }, { "--no-instructions", CLI_FLAG }, \
	{ "--collapse", CLI_FLAG }, { "--columns", CLI_VALUE }

/* The options of every command that simulates a trace (run, compare). */
#define CLI_TRACE_OPTIONS					\
	{ "--frames", CLI_VALUE }, CLI_INPUT_OPTIONS, { "--param", CLI_REPEATED },	\
	{ "--scope", CLI_VALUE }

/* The analysis commands' outputs: text, or one of JSON and CSV; a plot too. */
#define CLI_ANALYSIS_OUTPUTS						\
	{ "--json", CLI_FLAG }, { "--csv", CLI_FLAG }, { "--svg", CLI_VALUE }

struct cli_args;

struct cli_command {
	const char *name;	/* "run" */
	const char *summary;	/* one line for 'pagelab --help' */
	const char *usage;	/* 'pagelab NAME --help' */
	const char *example;	/* printed after the usage, or NULL */
	bool reads_trace;	/* the usage is followed by the input help */
	const char *operand;	/* its one word that is not an option ("NAME"), or NULL */
	const struct cli_option *options;	/* ended by { NULL } (--help is implied) */
	int (*run)(const struct cli_args *args);
};

struct cli_arg {
	const struct cli_option *option;
	const char *value;	/* NULL for a flag */
};

struct cli_args {
	const struct cli_command *command;
	const char *operand;	/* the command's operand if given, else NULL */
	struct cli_arg given[CLI_MAX_ARGS];
	unsigned ngiven;
	bool help;
};

extern const struct cli_command *const cli_commands[];	/* NULL-terminated */

/* args.c: parsing */
const struct cli_command *cli_find_command(const char *name);
/* "'x' is not a command (run, compare or list)" as a usage error. */
int cli_unknown_command(const char *name);
/* Parses argv[2..] for the command in argv[1]; 0 or an exit status. */
int cli_parse(struct cli_args *a, int argc, char **argv);
/* The value of a CLI_VALUE option, or NULL if not given. */
const char *cli_value(const struct cli_args *a, const char *name);
bool cli_flag(const struct cli_args *a, const char *name);
/* The values of a CLI_REPEATED option in order; returns how many. */
unsigned cli_values(const struct cli_args *a, const char *name, const char **out,
		    unsigned max);

/* args.c: messages */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_usage_error(const struct cli_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* args.c: what the simulating commands share */
int cli_frames(const struct cli_args *a, uint32_t *frames);
/* The same for a variable-space policy: CLI_UNBOUNDED when not given. */
int cli_frames_or_unbounded(const struct cli_args *a, uint32_t *frames);
#define CLI_UNBOUNDED 0
/* Policy names are not case sensitive; NULL after a usage error. */
const struct pl_policy_ops *cli_policy(const struct cli_args *a, const char *name);
/* input.c: --refs, or --trace FILE read with CLI_READ_OPTIONS */
/* The read options given (--format, --page-size, ...); 0 or a usage error. */
int cli_read_options(const struct cli_args *a, struct pl_read_options *opts);
/* Opens --trace with those options; 0 or an exit status. */
int cli_open_reader(const struct cli_args *a, struct pl_reader **reader);
/* "pagelab: read FILE as lackey, gzip, ..." on stderr, unless pagelab's text. */
void cli_report_reader(const struct pl_reader *r);
/* Loads --refs or --trace whole; 0 or an exit status. */
int cli_load_trace(const struct cli_args *a, struct pl_trace *trace);
struct cli_result;
/*
 * Runs each result's policy over --refs or --trace, streaming a trace file
 * in O(distinct pages) memory where it can (input.c says when it cannot);
 * events: print every event (one result only); 0 or an exit status.
 */
int cli_run_input(const struct cli_args *a, struct cli_result *results, unsigned n,
		  bool events);

/*
 * A trace file parsed once for several replays (input.c): cli_stream_open()
 * reads it (interning its pages, spilling its references to a temporary
 * file as dense ids; `also`, if not NULL, is fed every reference on the
 * way); each cli_stream_simulate() replays the spill through n fresh
 * simulations, run side by side on up to `jobs` threads, and collects
 * them into results.  Memory: the pages and the simulations' state, never
 * the trace.  Both return 0 or an exit status after a message.
 */
struct cli_stream;
struct pl_locality;
#define CLI_MAX_JOBS 64
int cli_stream_open(const struct cli_args *a, struct pl_locality *also, struct cli_stream **s);
uint64_t cli_stream_references(const struct cli_stream *s);
uint32_t cli_stream_distinct(const struct cli_stream *s);
/* The input page number of each dense id (cli_stream_distinct() of them). */
const uint64_t *cli_stream_numbers(const struct cli_stream *s);
int cli_stream_simulate(struct cli_stream *s, struct cli_result *results, unsigned n,
			unsigned jobs);
/* Hands every spilled batch of dense ids to each(ctx, ids, n) in order; 0 or an exit status. */
int cli_stream_each(struct cli_stream *s, int (*each)(void *ctx, const uint32_t *ids, uint32_t n),
		    void *ctx);
void cli_stream_close(struct cli_stream *s);

/*
 * --scope global|local and, for local, --param share=PID:WEIGHT,... (a
 * parameter of the replacement scope rather than of a policy).
 */
#define CLI_MAX_SHARES 256
struct cli_scope {
	bool local;
	struct pl_share shares[CLI_MAX_SHARES];
	unsigned nshares;	/* 0: equal shares */
};

/* One process's part of a run (a trace with pids, or local scope). */
struct cli_process {
	uint32_t pid;
	uint32_t frames;	/* its share (local scope); 0 under global scope */
	struct pl_stats stats;	/* global scope: references, hits, misses only */
};

/* One policy's run: what it was asked to do and what came out. */
struct cli_result {
	const struct pl_policy_ops *ops;
	uint32_t frames;	/* CLI_UNBOUNDED: as many as the trace has pages */
	int64_t params[PL_MAX_PARAMS];
	struct pl_stats stats;
	uint64_t counters[PL_MAX_COUNTERS];
	const struct cli_scope *scope;	/* NULL: global */
	uint32_t nprocs;
	struct cli_process *procs;	/* [nprocs]: free with cli_result_free() */
};

/* Reads --scope and share; 0 or a usage error's exit status. */
int cli_scope(const struct cli_args *a, struct cli_scope *scope);
/* Is `assignment` (NAME=VALUE) the scope's parameter rather than a policy's? */
bool cli_is_scope_param(const char *assignment);
void cli_result_free(struct cli_result *r);

/* Applies "NAME=VALUE" to r->params; 0 or a usage error's exit status. */
int cli_set_param(const struct cli_args *a, struct cli_result *r, const char *assignment);
/* Does the policy have a parameter named like the left side of `assignment`? */
bool cli_has_param(const struct pl_policy_ops *ops, const char *assignment);
/* Runs r->ops over the trace into r (streaming events to stdout if asked;
 * not with local scope); 0 or 1. */
int cli_simulate(struct cli_result *r, const struct pl_trace *t, bool events);
/* A finished simulation's statistics, counters and processes into r; 0 or 1. */
int cli_collect(struct cli_result *r, const struct pl_sim *sim);

/* cmd_gen.c: shared with experiment */
struct workload;
/* A decimal option in min .. max, or def when absent; 0 or a usage error. */
int cli_number(const struct cli_args *a, const char *name, uint64_t min, uint64_t max,
	       uint64_t def, uint64_t *out);
/* --format text (default) or binary for a trace written; 0 or a usage error. */
int cli_trace_format_written(const struct cli_args *a, enum pl_format *format);
/* The workload named by the operand; 0 or a usage error listing them. */
int cli_workload(const struct cli_args *a, const struct workload **w);

/* cmd_compare.c: shared with mrc */
/* Splits --policies into ops ('all': every policy); 0 or a usage error. */
int compare_policies(const struct cli_args *a, const struct pl_policy_ops **list, unsigned *n);
/* Applies each --param to every result whose policy has it. */
int compare_params(const struct cli_args *a, struct cli_result *results, unsigned n);

/* ranges.c: sizes written "64", "4,8,16" or "FROM:TO[:STEP]" */
#define CLI_MAX_SIZES 10000
struct cli_sizes {
	unsigned n;
	uint32_t size[CLI_MAX_SIZES];	/* ascending, distinct */
};
/* The sizes of option `name`, or of `def` when absent (NULL: required). */
int cli_sizes(const struct cli_args *a, const char *name, const char *def, struct cli_sizes *s);

/* progress.c: a bar on standard error when it is a terminal */
struct cli_progress {
	bool shown;
	const char *what, *unit;	/* "mrc", "sizes" */
	uint64_t total;
	double start, drawn;
};
void cli_progress_start(struct cli_progress *p, const char *what, const char *unit,
			uint64_t total);
void cli_progress_update(struct cli_progress *p, uint64_t done);
/* The core's progress callbacks (ctx: a struct cli_progress). */
void cli_progress_callback(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(struct cli_progress *p);

/* cmd_mrc.c: shared with anomaly */
/*
 * misses[i] of `r` (policy and parameters) at sizes->size[i]: one pass for
 * stack algorithms, else one simulation per size on `jobs` threads.
 */
int cli_curve(const struct cli_result *r, const struct pl_trace *t, const struct cli_sizes *sizes,
	      unsigned jobs, uint64_t *misses);
/* --jobs N, by default the processors online. */
int cli_jobs(const struct cli_args *a, unsigned *jobs);
/* Checks --json/--csv; *format: 0 text, 'j' JSON, 'c' CSV. */
int cli_output_format(const struct cli_args *a, char *format);
/* Steps of a default log-spaced size list, 1 .. max, about `count` sizes. */
void cli_log_sizes(struct cli_sizes *s, uint32_t max, unsigned count);

/* cmd_reuse.c: shared with lifetime and spacetime */
struct pl_locality;
/*
 * One pass of analysis.h's pl_locality over the command's references (WS
 * windows up to max_window), with a progress bar named `what`: a --trace
 * file is fed as it is read (O(distinct pages) memory), --refs loaded;
 * 0 or an exit status.
 */
int cli_locality(const struct cli_args *a, uint32_t max_window, const char *what,
		 struct pl_locality **out);

/* svg.c: plots for --svg FILE; 0 or an exit status after a message */
struct svg_chart {
	const char *title, *x_label, *y_label;
	bool log_x;
};
struct svg_series {
	const char *name;
	const double *x, *y;
	unsigned n;
};
int svg_lines(const char *path, const struct svg_chart *c, const struct svg_series *s,
	      unsigned n);
/*
 * The same lines and a ring at each point of marks (points on the lines:
 * the axes are the lines'), named in the legend too.
 */
int svg_lines_marked(const char *path, const struct svg_chart *c, const struct svg_series *s,
		     unsigned n, const struct svg_series *marks);
int svg_bars(const char *path, const struct svg_chart *c, const char *const *labels,
	     const double *values, unsigned n);
/* counts[col * rows + row]; row 0 at the bottom. */
int svg_heat_map(const char *path, const struct svg_chart *c, const uint32_t *counts,
		 unsigned cols, unsigned rows);

/* output.c */
/* Resident pages after each reference, averaged (the space a policy used). */
double out_mean_resident(const struct pl_stats *s);
void out_json_string(FILE *out, const char *s);
/* A parameter's value as the user would write it: a choice name or a number. */
void out_param_value(char *buf, size_t size, const struct pl_param *p, int64_t v);
void out_summary_json(FILE *out, const struct cli_result *r);
void out_summary_text(FILE *out, const struct cli_result *r);
void out_event_json(FILE *out, const struct pl_event *ev, const struct pl_policy_ops *ops,
		    const struct pl_trace *t);
void out_rows_table(FILE *out, const struct cli_result *results, unsigned n);
void out_rows_csv(FILE *out, const struct cli_result *results, unsigned n);
void out_rows_json(FILE *out, const struct cli_result *results, unsigned n);
/* Text word-wrapped to 78 columns, each line indented by `indent`. */
void out_wrapped(FILE *out, int indent, const char *text);

#endif /* PAGELAB_CLI_H */
