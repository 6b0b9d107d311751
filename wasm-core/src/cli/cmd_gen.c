/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_gen.c - `pagelab gen NAME`: writes one of the seeds' workloads as a
 * trace file (one reference per line, "PAGE[w]"; a timed workload is a
 * table with the header "page time" and lines "PAGE[w] TIME", time in ms),
 * scaled to a memory size, deterministic for a seed.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "workloads.h"

#define DEFAULT_MEMORY 1024

static const struct cli_option gen_options[] = {
	{ "--memory", CLI_VALUE }, { "--seed", CLI_VALUE }, { "-o", CLI_VALUE },
	{ "--format", CLI_VALUE }, { "--length", CLI_VALUE }, { "--pages", CLI_VALUE },
	{ "--alpha", CLI_VALUE }, { "--hot", CLI_VALUE }, { "--scan", CLI_VALUE },
	{ "--every", CLI_VALUE }, { "--phases", CLI_VALUE }, { "--procs", CLI_VALUE },
	{ "--writes", CLI_VALUE }, { NULL },
};

/* The options that shape a synthetic workload, and where each goes. */
static const char *const shape_options[] = {
	"--length", "--pages", "--alpha", "--hot", "--scan", "--every", "--phases", "--procs",
	"--writes", NULL,
};

static int read_alpha(const struct cli_args *a, double *alpha)
{
	const char *text = cli_value(a, "--alpha");
	char *end;

	*alpha = 0;
	if (!text)
		return 0;
	errno = 0;
	*alpha = strtod(text, &end);
	if (end == text || *end || errno || !(*alpha > 0 && *alpha <= 10))
		return cli_usage_error(a, "--alpha: '%s' is not a number above 0 and at most 10",
				       text);
	return 0;
}

static int read_shape(const struct cli_args *a, const struct workload *w,
		      struct workload_shape *shape)
{
	uint64_t v[8];
	int ret;

	for (unsigned i = 0; shape_options[i]; i++)
		if (!w->shaped && cli_value(a, shape_options[i]))
			return cli_usage_error(a, "%s shapes the synthetic workloads (loop, uniform, "
					       "zipf, hotscan, phases, mix), not %s",
					       shape_options[i], w->name);
	if ((ret = cli_number(a, "--length", 1, PL_NONE - 2, 0, &shape->length)) ||
	    (ret = cli_number(a, "--pages", 1, 1u << 28, 0, &v[0])) ||
	    (ret = cli_number(a, "--hot", 1, 1u << 28, 0, &v[1])) ||
	    (ret = cli_number(a, "--scan", 1, 1u << 28, 0, &v[2])) ||
	    (ret = cli_number(a, "--every", 1, 1u << 31, 0, &v[3])) ||
	    (ret = cli_number(a, "--phases", 1, 1u << 16, 0, &v[4])) ||
	    (ret = cli_number(a, "--procs", 1, 1u << 16, 0, &v[5])) ||
	    (ret = cli_number(a, "--writes", 0, 100, 0, &v[6])) ||
	    (ret = read_alpha(a, &shape->alpha)))
		return ret;
	shape->pages = (uint32_t)v[0];
	shape->hot = (uint32_t)v[1];
	shape->scan = (uint32_t)v[2];
	shape->every = (uint32_t)v[3];
	shape->phases = (uint32_t)v[4];
	shape->procs = (uint32_t)v[5];
	shape->writes = (uint32_t)v[6];
	return 0;
}

/* A decimal option within 0 .. max (min 1 if positive); def when absent. */
int cli_number(const struct cli_args *a, const char *name, uint64_t min, uint64_t max,
	       uint64_t def, uint64_t *out)
{
	const char *text = cli_value(a, name);
	unsigned long long v;
	char *end;

	if (!text) {
		*out = def;
		return 0;
	}
	errno = 0;
	v = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end || errno || v < min || v > max)
		return cli_usage_error(a, "%s: '%s' is not a number in %llu .. %llu", name, text,
				       (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int cli_workload(const struct cli_args *a, const struct workload **w)
{
	char names[512];
	size_t used = 0;

	if (a->operand && (*w = workload_find(a->operand)))
		return 0;
	names[0] = '\0';
	for (const struct workload *x = workloads; x->name && used < sizeof(names); x++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 x == workloads ? "" : ", ", x->name);
	if (!a->operand)
		return cli_usage_error(a, "which workload? (%s)", names);
	return cli_usage_error(a, "'%s' is not a workload (%s)", a->operand, names);
}

#define WRITE_BATCH 4096

/* The trace through a pagelab writer, WRITE_BATCH references at a time. */
static int write_refs(struct pl_writer *wr, const struct pl_trace *t, struct pl_error *err)
{
	static uint64_t number[WRITE_BATCH];

	for (uint32_t at = 0; at < t->n; at += WRITE_BATCH) {
		struct pl_refs b = {
			.n = t->n - at < WRITE_BATCH ? t->n - at : WRITE_BATCH, .number = number,
			.flags = t->flags + at, .pid = t->pid ? t->pid + at : NULL,
			.time = t->vtime ? t->vtime + at : NULL,
		};

		for (uint32_t i = 0; i < b.n; i++)
			number[i] = t->number[t->page[at + i]];
		if (pl_writer_write(wr, &b, err))
			return -1;
	}
	return 0;
}

static int write_trace(FILE *out, const char *name, enum pl_format format,
		       const struct workload *w, uint64_t memory, uint64_t seed,
		       const struct pl_trace *t)
{
	struct pl_writer *wr;
	struct pl_error err;

	if (format == PL_FORMAT_TEXT) {
		fprintf(out, "# pagelab gen %s --memory %llu --seed %llu: %s\n", w->name,
			(unsigned long long)memory, (unsigned long long)seed, w->help);
		fprintf(out, "# %u references to %u pages%s\n", t->n, t->npages,
			w->timed ? "; time in ms" : "");
	}
	wr = pl_writer_open(out, name, format, t->pid != NULL, t->vtime != NULL, &err);
	if (!wr)
		return cli_fail("%s", err.msg);
	if (write_refs(wr, t, &err)) {
		pl_writer_close(wr, &err);
		return cli_fail("%s", err.msg);
	}
	return pl_writer_close(wr, &err) ? cli_fail("%s", err.msg) : 0;
}

/* --format text (default) or binary: what `gen` and `convert` write. */
int cli_trace_format_written(const struct cli_args *a, enum pl_format *format)
{
	const char *name = cli_value(a, "--format");

	*format = PL_FORMAT_TEXT;
	if (name && (pl_format_find(name, format) ||
		     (*format != PL_FORMAT_TEXT && *format != PL_FORMAT_BINARY)))
		return cli_usage_error(a, "--format %s: traces are written as text or binary",
				       name);
	return 0;
}

static int gen_main(const struct cli_args *a)
{
	const struct workload *w;
	const char *path = cli_value(a, "-o");
	uint64_t memory, seed;
	struct workload_shape shape = { 0 };
	enum pl_format format;
	struct pl_trace trace;
	struct pl_error err;
	FILE *out = stdout;
	int ret;

	if ((ret = cli_workload(a, &w)) ||
	    (ret = cli_number(a, "--memory", 1, WORKLOAD_MAX_MEMORY, DEFAULT_MEMORY, &memory)) ||
	    (ret = cli_number(a, "--seed", 0, UINT64_MAX, 1, &seed)) ||
	    (ret = read_shape(a, w, &shape)) || (ret = cli_trace_format_written(a, &format)))
		return ret;
	pl_trace_init(&trace);
	if (workload_generate_shaped(w, (uint32_t)memory, seed, &shape, &trace, &err)) {
		pl_trace_free(&trace);
		return cli_fail("%s", err.msg);
	}
	if (path && strcmp(path, "-") && !(out = fopen(path, "w"))) {
		pl_trace_free(&trace);
		return cli_fail("%s: %s", path, strerror(errno));
	}
	ret = write_trace(out, path && strcmp(path, "-") ? path : "standard output", format, w,
			  memory, seed, &trace);
	if (out != stdout && fclose(out) && !ret)
		ret = cli_fail("%s: %s", path, strerror(errno));
	pl_trace_free(&trace);
	return ret;
}

const struct cli_command cli_command_gen = {
	.name = "gen",
	.summary = "write one of the seed reports' workloads as a trace file",
	.operand = "NAME",
	.usage =
	"usage: pagelab gen NAME [--memory PAGES] [--seed S] [-o FILE] [--format text|binary]\n"
	"                        [--length N] [--pages N] [--alpha A] [--hot N] [--scan N]\n"
	"                        [--every N] [--phases N] [--procs N] [--writes PERCENT]\n"
	"\n"
	"Writes a seed report's workload as a trace, one reference per line\n"
	"('PAGE', 'PAGEw' for a write; a timed workload is a table headed\n"
	"'page time', each line 'PAGE TIME' with the time in ms), with sizes\n"
	"scaled to a memory of PAGES pages.  The same NAME, PAGES and S always\n"
	"give the same trace.\n"
	"\n"
	"  --memory PAGES  the memory the workload is sized for (default 1024,\n"
	"                  at most 1048576); simulate it with --frames PAGES\n"
	"  --seed S        seed of the random choices (default 1)\n"
	"  -o FILE         write to FILE instead of standard output\n"
	"  --format F      text (default) or binary (pagelab's compact format)\n"
	"\n"
	"synthetic workloads (M = --memory; every size has a default from M):\n"
	"  loop     pages 0..P-1 in order, over and over (--pages P, default M+M/8)\n"
	"  uniform  pages drawn uniformly from P (default 2M)\n"
	"  zipf     rank k with probability ~ 1/(k+1)^A (--alpha A, default 0.9)\n"
	"           over P pages (default 4M)\n"
	"  hotscan  a hot set of --hot pages (default M/2), and every --every\n"
	"           references (default 4M) a one-time scan of --scan new pages (M)\n"
	"  phases   --phases working sets (default 8) of P pages (default M/2),\n"
	"           one after another with abrupt transitions\n"
	"  mix      --procs processes (default 4, pids 1..N), each a zipf over its\n"
	"           own P pages (default M/N, page numbers pid << 32 | page),\n"
	"           switched every 1000 references; the trace has a pid column\n"
	"  --length N      references (default 16M); --writes PERCENT of them\n"
	"                  write (default 0)\n"
	"\n"
	"the seeds' workloads:\n"
	"  seed000-iterative seed000-skewed  seed 000 (RRIP in Linux's active list)\n"
	"  seed001-seq seed001-halfseq seed001-rand seed001-halfrand\n"
	"                                    seed 001 (counter-based clock)\n"
	"  seed002-lruk-wins seed002-lru-wins  seed 002 (LRU-K; timed)\n"
	"  seed003-stress                    seed 003 (FreeBSD, stress -m 3)\n"
	"  seed004-phases                    seed 004 (working set; phases)\n"
	"wasm-core/README.md says what each stands for and how it is scaled.\n",
	.example = "example: pagelab gen seed002-lruk-wins --memory 512 -o lruk.trace\n"
		   "         pagelab run --policy linux --frames 512 --trace lruk.trace\n",
	.options = gen_options,
	.run = gen_main,
};
