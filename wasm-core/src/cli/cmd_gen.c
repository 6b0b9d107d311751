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
	{ "--memory", CLI_VALUE }, { "--seed", CLI_VALUE }, { "-o", CLI_VALUE }, { NULL },
};

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

static void write_trace(FILE *out, const struct workload *w, uint64_t memory, uint64_t seed,
			const struct pl_trace *t)
{
	fprintf(out, "# pagelab gen %s --memory %llu --seed %llu: %s\n", w->name,
		(unsigned long long)memory, (unsigned long long)seed, w->help);
	fprintf(out, "# %u references to %u pages%s\n", t->n, t->npages,
		w->timed ? "; time in ms" : "");
	if (t->vtime)
		fputs("page time\n", out);
	for (uint32_t i = 0; i < t->n; i++) {
		fprintf(out, "%llu%s", (unsigned long long)t->number[t->page[i]],
			t->flags[i] & PL_REF_WRITE ? "w" : "");
		if (t->vtime)
			fprintf(out, " %llu", (unsigned long long)t->vtime[i]);
		fputc('\n', out);
	}
}

static int gen_main(const struct cli_args *a)
{
	const struct workload *w;
	const char *path = cli_value(a, "-o");
	uint64_t memory, seed;
	struct pl_trace trace;
	struct pl_error err;
	FILE *out = stdout;
	int ret;

	if ((ret = cli_workload(a, &w)) ||
	    (ret = cli_number(a, "--memory", 1, WORKLOAD_MAX_MEMORY, DEFAULT_MEMORY, &memory)) ||
	    (ret = cli_number(a, "--seed", 0, UINT64_MAX, 1, &seed)))
		return ret;
	pl_trace_init(&trace);
	if (workload_generate(w, (uint32_t)memory, seed, &trace, &err)) {
		pl_trace_free(&trace);
		return cli_fail("%s", err.msg);
	}
	if (path && strcmp(path, "-") && !(out = fopen(path, "w"))) {
		pl_trace_free(&trace);
		return cli_fail("%s: %s", path, strerror(errno));
	}
	write_trace(out, w, memory, seed, &trace);
	ret = ferror(out) ? cli_fail("%s: write failed", path ? path : "standard output") : 0;
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
	"usage: pagelab gen NAME [--memory PAGES] [--seed S] [-o FILE]\n"
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
	"\n"
	"workloads:\n"
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
