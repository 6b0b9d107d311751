// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_pattern.c - `pagelab pattern`: the memory-access pattern, time
 * across and pages (ordered by page number) up, as seed 004 plotted its
 * Valgrind traces: loops show as bands, scans as diagonals, phases as
 * changes of band.  Text draws it in characters, darker for more
 * references; --svg draws a heat map.
 */
#include <math.h>

#include "cli.h"
#include "analysis.h"

static const struct cli_option pattern_options[] = {
	CLI_INPUT_OPTIONS, { "--time-bins", CLI_VALUE }, { "--page-bins", CLI_VALUE },
	CLI_ANALYSIS_OUTPUTS, { NULL },
};

static const char shades[] = " .:-=+*#%@";

static void print_text(const struct pl_trace *t, const uint32_t *counts, uint32_t cols,
		       uint32_t rows)
{
	uint64_t lowest = t->number[0], highest = t->number[0];
	uint32_t top = 1;

	for (size_t i = 0; i < (size_t)cols * rows; i++)
		top = counts[i] > top ? counts[i] : top;
	printf("memory-access pattern: %u references (time, across) to %u pages (by page "
	       "number, up)\n", t->n, t->npages);
	for (uint32_t row = rows; row-- > 0;) {
		putchar('|');
		for (uint32_t col = 0; col < cols; col++) {
			uint32_t v = counts[(size_t)col * rows + row];
			/* log scale, and any reference at all is visible */
			unsigned shade = v ? 1 + (unsigned)(log1p(v) / log1p(top) *
							    (sizeof(shades) - 3)) : 0;

			putchar(shades[shade]);
		}
		putchar('\n');
	}
	putchar('+');
	for (uint32_t col = 0; col < cols; col++)
		putchar('-');
	for (uint32_t p = 1; p < t->npages; p++) {
		lowest = t->number[p] < lowest ? t->number[p] : lowest;
		highest = t->number[p] > highest ? t->number[p] : highest;
	}
	printf("\n lowest page %llu at the bottom, highest %llu at the top\n",
	       (unsigned long long)lowest, (unsigned long long)highest);
}

static void print_json(const struct pl_trace *t, const uint32_t *counts, uint32_t cols,
		       uint32_t rows)
{
	printf("{\"references\":%u,\"pages\":%u,\"time_bins\":%u,\"page_bins\":%u,\"counts\":[",
	       t->n, t->npages, cols, rows);
	for (uint32_t col = 0; col < cols; col++) {
		printf("%s\n[", col ? "," : "");
		for (uint32_t row = 0; row < rows; row++)
			printf("%s%u", row ? "," : "", counts[(size_t)col * rows + row]);
		putchar(']');
	}
	printf("\n]}\n");
}

static void print_csv(const uint32_t *counts, uint32_t cols, uint32_t rows)
{
	printf("time_bin,page_bin,references\n");
	for (uint32_t col = 0; col < cols; col++)
		for (uint32_t row = 0; row < rows; row++)
			if (counts[(size_t)col * rows + row])
				printf("%u,%u,%u\n", col, row, counts[(size_t)col * rows + row]);
}

/* A short trace gets one bin per reference or page; 0 or an exit status. */
static int bins(uint64_t *cols, uint64_t *rows, uint64_t references, uint32_t pages,
		uint32_t **counts)
{
	*cols = *cols < references ? *cols : references;
	*rows = *rows < pages ? *rows : pages;
	*counts = malloc(*cols * *rows * sizeof(**counts));
	return *counts ? 0 : cli_fail("out of memory");
}

static int feed_pattern(void *ctx, const uint32_t *ids, uint32_t n)
{
	struct pl_error err;

	return pl_pattern_add(ctx, ids, n, &err) ? cli_fail("%s", err.msg) : 0;
}

/*
 * A trace file: parsed once (pages interned, ids spilled), the pages
 * ranked, then one replay counts the cells; `view` gets the trace's
 * length and pages (not its references) for the printers.
 */
static int count_streamed(const struct cli_args *a, uint64_t *cols, uint64_t *rows,
			  uint32_t **counts, struct pl_trace *view, struct cli_stream **st)
{
	struct pl_pattern *p;
	struct pl_error err;
	int ret;

	if ((ret = cli_stream_open(a, NULL, st)))
		return ret;
	view->n = (uint32_t)cli_stream_references(*st);
	view->npages = cli_stream_distinct(*st);
	view->number = (uint64_t *)cli_stream_numbers(*st);
	if ((ret = bins(cols, rows, view->n, view->npages, counts)))
		return ret;
	p = pl_pattern_create(view->number, view->npages, view->n, (uint32_t)*cols,
			      (uint32_t)*rows, *counts, &err);
	if (!p)
		return cli_fail("%s", err.msg);
	ret = cli_stream_each(*st, feed_pattern, p);
	if (!ret && pl_pattern_finish(p, &err))
		ret = cli_fail("%s", err.msg);
	pl_pattern_destroy(p);
	return ret;
}

static int pattern_main(const struct cli_args *a)
{
	const char *svg = cli_value(a, "--svg");
	struct svg_chart chart = {
		.title = "Memory-access pattern", .x_label = "time (references)",
		.y_label = "pages, by page number",
	};
	struct pl_trace trace, view = { .n = 0 };
	const struct pl_trace *shown;
	struct cli_stream *st = NULL;
	struct pl_error err;
	uint64_t cols, rows;
	uint32_t *counts = NULL;
	char format;
	int ret;

	if ((ret = cli_output_format(a, &format)) ||
	    (ret = cli_number(a, "--time-bins", 1, 4096, format || svg ? 200 : 72, &cols)) ||
	    (ret = cli_number(a, "--page-bins", 1, 4096, format || svg ? 100 : 20, &rows)))
		return ret;
	pl_trace_init(&trace);
	if (cli_value(a, "--trace")) {
		ret = count_streamed(a, &cols, &rows, &counts, &view, &st);
	} else if (!(ret = cli_load_trace(a, &trace)) &&
		   !(ret = bins(&cols, &rows, trace.n, trace.npages, &counts)) &&
		   pl_access_pattern(&trace, (uint32_t)cols, (uint32_t)rows, counts, &err)) {
		ret = cli_fail("%s", err.msg);
	}
	shown = st ? &view : &trace;
	if (!ret && format == 'j')
		print_json(shown, counts, (uint32_t)cols, (uint32_t)rows);
	else if (!ret && format == 'c')
		print_csv(counts, (uint32_t)cols, (uint32_t)rows);
	else if (!ret)
		print_text(shown, counts, (uint32_t)cols, (uint32_t)rows);
	if (!ret && svg)
		ret = svg_heat_map(svg, &chart, counts, (unsigned)cols, (unsigned)rows);
	free(counts);
	cli_stream_close(st);
	pl_trace_free(&trace);
	return ret;
}

const struct cli_command cli_command_pattern = {
	.name = "pattern",
	.summary = "the memory-access pattern: time against page, for a plot",
	.usage =
	"usage: pagelab pattern (--refs STRING | --trace FILE) [--time-bins N]\n"
	"                       [--page-bins N] [--json | --csv] [--svg FILE]\n"
	"\n"
	"References counted per cell of a time x page grid, pages ordered by\n"
	"their page number.  As text: a character picture, darker = more.\n"
	"\n"
	"  --time-bins N  columns (default 72 for text, 200 otherwise; at most the\n"
	"                 references)\n"
	"  --page-bins N  rows (default 20 for text, 100 otherwise; at most the pages)\n"
	"  --json         {\"references\", \"pages\", \"time_bins\", \"page_bins\",\n"
	"                 \"counts\": one array of page-bin counts per time bin}\n"
	"  --csv          the non-zero cells: time_bin,page_bin,references\n"
	"  --svg FILE     also draw a heat map into FILE\n",
	.example = "example: pagelab pattern --trace ls.trace.gz --svg pattern.svg\n",
	.reads_trace = true,
	.options = pattern_options,
	.run = pattern_main,
};
