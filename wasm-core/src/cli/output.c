/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.c - the pagelab command line's output formats: a run's summary as
 * aligned text or one JSON object, an event as one JSON line (pages as the
 * input's page numbers, lists, fields and hands by name), a set of runs as
 * a table, CSV or a JSON array, and word-wrapped help text.  Interface:
 * cli.h; every format is documented in wasm-core/README.md.
 */
#include <string.h>

#include "cli.h"

void out_json_string(FILE *out, const char *s)
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

double out_mean_resident(const struct pl_stats *s)
{
	return s->references ? (double)s->resident_sum / (double)s->references : 0.0;
}

void out_param_value(char *buf, size_t size, const struct pl_param *p, int64_t v)
{
	if (p->choices)
		snprintf(buf, size, "%s", p->choices[v]);
	else
		snprintf(buf, size, "%lld", (long long)v);
}

/* ------------------------------------------------------------- summaries */

static void json_params(FILE *out, const struct cli_result *r)
{
	char value[64];

	fputs("\"params\":{", out);
	for (unsigned i = 0; i < pl_policy_nparams(r->ops); i++) {
		const struct pl_param *p = pl_policy_param(r->ops, i);

		fprintf(out, "%s", i ? "," : "");
		out_json_string(out, p->name);
		fputc(':', out);
		if (p->choices) {
			out_param_value(value, sizeof(value), p, r->params[i]);
			out_json_string(out, value);
		} else {
			fprintf(out, "%lld", (long long)r->params[i]);
		}
	}
	fputc('}', out);
}

static bool local(const struct cli_result *r)
{
	return r->scope && r->scope->local;
}

/* "processes": under global scope only what a process's references saw. */
static void json_processes(FILE *out, const struct cli_result *r)
{
	fputs(",\"processes\":[", out);
	for (uint32_t i = 0; i < r->nprocs; i++) {
		const struct pl_stats *s = &r->procs[i].stats;

		fprintf(out, "%s{\"pid\":%u,\"references\":%llu,\"hits\":%llu,\"misses\":%llu,"
			"\"hit_ratio\":%.6f", i ? "," : "", r->procs[i].pid,
			(unsigned long long)s->references, (unsigned long long)s->hits,
			(unsigned long long)s->misses, hit_ratio(s));
		if (local(r) && r->frames == CLI_UNBOUNDED)
			fputs(",\"frames\":null", out);
		else if (local(r))
			fprintf(out, ",\"frames\":%u", r->procs[i].frames);
		if (local(r))
			fprintf(out, ",\"evictions\":%llu,\"writebacks\":%llu,\"mean_resident\":%.3f",
				(unsigned long long)s->evictions, (unsigned long long)s->writebacks,
				out_mean_resident(s));
		fputc('}', out);
	}
	fputc(']', out);
}

void out_summary_json(FILE *out, const struct cli_result *r)
{
	const struct pl_stats *s = &r->stats;

	fputs("{\"policy\":", out);
	out_json_string(out, pl_policy_name(r->ops));
	if (r->frames == CLI_UNBOUNDED)
		fputs(",\"frames\":null", out);
	else
		fprintf(out, ",\"frames\":%u", r->frames);
	fprintf(out, ",\"references\":%llu,\"hits\":%llu,\"misses\":%llu,"
		"\"evictions\":%llu,\"writebacks\":%llu,\"hit_ratio\":%.6f,"
		"\"mean_resident\":%.3f,",
		(unsigned long long)s->references, (unsigned long long)s->hits,
		(unsigned long long)s->misses, (unsigned long long)s->evictions,
		(unsigned long long)s->writebacks, hit_ratio(s), out_mean_resident(s));
	json_params(out, r);
	fputs(",\"counters\":{", out);
	for (unsigned i = 0; i < pl_policy_ncounters(r->ops); i++) {
		fprintf(out, "%s", i ? "," : "");
		out_json_string(out, pl_policy_counter_name(r->ops, i));
		fprintf(out, ":%llu", (unsigned long long)r->counters[i]);
	}
	fprintf(out, "},\"scope\":\"%s\"", local(r) ? "local" : "global");
	if (r->nprocs)
		json_processes(out, r);
	fputc('}', out);
}

/* The width of the label column: the longest label, at least "mean resident". */
static int label_width(const struct pl_policy_ops *ops)
{
	size_t width = strlen("mean resident");

	for (unsigned i = 0; i < pl_policy_ncounters(ops); i++)
		if (strlen(pl_policy_counter_name(ops, i)) > width)
			width = strlen(pl_policy_counter_name(ops, i));
	return (int)width + 2;
}

/* One row per process; the mean resident set (over its own references)
 * and its frames only under local scope, where a process has them. */
static void text_processes(FILE *out, const struct cli_result *r)
{
	fprintf(out, "\n%s scope, per process:\n", local(r) ? "local" : "global");
	fprintf(out, "%10s %10s %12s %12s %12s %9s", "pid", "frames", "references", "hits",
		"misses", "hit ratio");
	fprintf(out, local(r) ? " %12s %13s\n" : "\n", "evictions", "mean resident");
	for (uint32_t i = 0; i < r->nprocs; i++) {
		const struct pl_stats *s = &r->procs[i].stats;
		char frames[16] = "-";

		if (local(r) && r->frames != CLI_UNBOUNDED)
			snprintf(frames, sizeof(frames), "%u", r->procs[i].frames);
		else if (local(r))
			snprintf(frames, sizeof(frames), "unbounded");
		fprintf(out, "%10u %10s %12llu %12llu %12llu %8.2f%%", r->procs[i].pid, frames,
			(unsigned long long)s->references, (unsigned long long)s->hits,
			(unsigned long long)s->misses, 100.0 * hit_ratio(s));
		if (local(r))
			fprintf(out, " %12llu %13.2f", (unsigned long long)s->evictions,
				out_mean_resident(s));
		fputc('\n', out);
	}
}

void out_summary_text(FILE *out, const struct cli_result *r)
{
	const struct pl_stats *s = &r->stats;
	int w = label_width(r->ops);
	char value[64];

	fprintf(out, "%-*s%s (%s)\n", w, "policy", pl_policy_name(r->ops), pl_policy_title(r->ops));
	for (unsigned i = 0; i < pl_policy_nparams(r->ops); i++) {
		const struct pl_param *p = pl_policy_param(r->ops, i);

		out_param_value(value, sizeof(value), p, r->params[i]);
		fprintf(out, "%-*s%s=%s\n", w, i ? "" : "params", p->name, value);
	}
	if (r->frames == CLI_UNBOUNDED)
		fprintf(out, "%-*s%s\n", w, "frames", "unbounded");
	else
		fprintf(out, "%-*s%u\n", w, "frames", r->frames);
	fprintf(out, "%-*s%llu\n", w, "references", (unsigned long long)s->references);
	fprintf(out, "%-*s%llu\n", w, "hits", (unsigned long long)s->hits);
	fprintf(out, "%-*s%llu\n", w, "misses", (unsigned long long)s->misses);
	fprintf(out, "%-*s%llu\n", w, "evictions", (unsigned long long)s->evictions);
	fprintf(out, "%-*s%llu\n", w, "writebacks", (unsigned long long)s->writebacks);
	fprintf(out, "%-*s%.2f%%\n", w, "hit ratio", 100.0 * hit_ratio(s));
	fprintf(out, "%-*s%.2f\n", w, "mean resident", out_mean_resident(s));
	for (unsigned i = 0; i < pl_policy_ncounters(r->ops); i++)
		fprintf(out, "%-*s%llu\n", w, pl_policy_counter_name(r->ops, i),
			(unsigned long long)r->counters[i]);
	if (r->nprocs)
		text_processes(out, r);
}

/* ---------------------------------------------------------------- events */

void out_event_json(FILE *out, const struct pl_event *ev, const struct pl_policy_ops *ops,
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
	case PL_EV_VARIABLE:
		fprintf(out, ",\"variable\":\"%s\",\"from\":%d,\"to\":%d",
			pl_policy_variable_name(ops, ev->arg), ev->a, ev->b);
		break;
	}
	fputs("}\n", out);
}

/* ------------------------------------------------------------------ rows */

void out_rows_table(FILE *out, const struct cli_result *results, unsigned n)
{
	fprintf(out, "%-12s %9s %12s %12s %12s %12s %12s %9s %13s\n", "policy", "frames",
		"references", "hits", "misses", "evictions", "writebacks", "hit ratio",
		"mean resident");
	for (unsigned i = 0; i < n; i++) {
		const struct pl_stats *s = &results[i].stats;
		char frames[16] = "unbounded";

		if (results[i].frames != CLI_UNBOUNDED)
			snprintf(frames, sizeof(frames), "%u", results[i].frames);
		fprintf(out, "%-12s %9s %12llu %12llu %12llu %12llu %12llu %8.2f%% %13.2f\n",
			pl_policy_name(results[i].ops), frames,
			(unsigned long long)s->references, (unsigned long long)s->hits,
			(unsigned long long)s->misses, (unsigned long long)s->evictions,
			(unsigned long long)s->writebacks, 100.0 * hit_ratio(s), out_mean_resident(s));
	}
}

void out_rows_csv(FILE *out, const struct cli_result *results, unsigned n)
{
	fputs("policy,frames,references,hits,misses,evictions,writebacks,hit_ratio,"
	      "mean_resident\n", out);
	for (unsigned i = 0; i < n; i++) {
		const struct pl_stats *s = &results[i].stats;
		char frames[16] = "";	/* unbounded */

		if (results[i].frames != CLI_UNBOUNDED)
			snprintf(frames, sizeof(frames), "%u", results[i].frames);
		fprintf(out, "%s,%s,%llu,%llu,%llu,%llu,%llu,%.6f,%.3f\n",
			pl_policy_name(results[i].ops), frames,
			(unsigned long long)s->references, (unsigned long long)s->hits,
			(unsigned long long)s->misses, (unsigned long long)s->evictions,
			(unsigned long long)s->writebacks, hit_ratio(s), out_mean_resident(s));
	}
}

void out_rows_json(FILE *out, const struct cli_result *results, unsigned n)
{
	fputc('[', out);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? ",\n " : "", out);
		out_summary_json(out, &results[i]);
	}
	fputs("]\n", out);
}

/* ------------------------------------------------------------------ text */

void out_wrapped(FILE *out, int indent, const char *text)
{
	int column = 0;

	while (*text) {
		size_t word = strcspn(text, " ");

		if (column && column + 1 + (int)word > 78) {
			fputc('\n', out);
			column = 0;
		}
		if (!column)
			column = fprintf(out, "%*s", indent, "");
		else
			column += fprintf(out, " ");
		column += fprintf(out, "%.*s", (int)word, text);
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}
