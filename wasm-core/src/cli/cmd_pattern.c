// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_pattern.c - `pagelab pattern`: the memory-access pattern, time
 * across and pages (ordered by page number) up, as seed 004 plotted its
 * Valgrind traces: loops show as bands, scans as diagonals, phases as
 * changes of band.  Text draws it in characters, darker for more
 * references, 72 columns for a terminal; --svg draws a heat map on its own
 * finer grid (200 x 100 unless --time-bins / --page-bins say), counted in
 * the same pass as the printed one.
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

/*
 * A grid of cells: the one printed and, when --svg asks for a plot beside
 * the text picture, the plot's own (finer) one, counted in the same pass.
 */
struct grid {
	uint64_t cols, rows;
	uint32_t *counts;
	struct pl_pattern *counter;	/* while a trace file streams */
};

#define MAX_GRIDS 2
#define TEXT_COLS 72	/* a terminal's width */
#define TEXT_ROWS 20
#define PLOT_COLS 200	/* the plot's, and JSON's and CSV's for plotting elsewhere */
#define PLOT_ROWS 100

/* The sizes of the grids: --time-bins / --page-bins, else each one's default. */
static int grid_sizes(const struct cli_args *a, char format, bool plot, struct grid *g,
		      unsigned *n)
{
	bool text = !format;
	int ret;

	*n = 1;
	if ((ret = cli_number(a, "--time-bins", 1, 4096, text ? TEXT_COLS : PLOT_COLS,
			      &g[0].cols)) ||
	    (ret = cli_number(a, "--page-bins", 1, 4096, text ? TEXT_ROWS : PLOT_ROWS,
			      &g[0].rows)))
		return ret;
	if (!text || !plot)
		return 0;
	if ((ret = cli_number(a, "--time-bins", 1, 4096, PLOT_COLS, &g[1].cols)) ||
	    (ret = cli_number(a, "--page-bins", 1, 4096, PLOT_ROWS, &g[1].rows)))
		return ret;
	if (g[1].cols != g[0].cols || g[1].rows != g[0].rows)
		*n = 2;
	return 0;
}

/* A short trace gets one bin per reference or page; 0 or an exit status. */
static int bins(struct grid *g, uint64_t references, uint32_t pages)
{
	g->cols = g->cols < references ? g->cols : references;
	g->rows = g->rows < pages ? g->rows : pages;
	g->counts = malloc(g->cols * g->rows * sizeof(*g->counts));
	return g->counts ? 0 : cli_fail("out of memory");
}

struct counters {
	struct grid *g;
	unsigned n;
};

static int feed_pattern(void *ctx, const uint32_t *ids, uint32_t n)
{
	const struct counters *c = ctx;
	struct pl_error err;

	for (unsigned i = 0; i < c->n; i++)
		if (pl_pattern_add(c->g[i].counter, ids, n, &err))
			return cli_fail("%s", err.msg);
	return 0;
}

/*
 * A trace file: parsed once (pages interned, ids spilled), the pages
 * ranked, then one replay counts the cells of every grid; `view` gets the
 * trace's length and pages (not its references) for the printers.
 */
static int count_streamed(const struct cli_args *a, struct grid *g, unsigned n,
			  struct pl_trace *view, struct cli_stream **st)
{
	struct counters c = { g, n };
	struct pl_error err;
	int ret;

	if ((ret = cli_stream_open(a, NULL, st)))
		return ret;
	view->n = (uint32_t)cli_stream_references(*st);
	view->npages = cli_stream_distinct(*st);
	view->number = (uint64_t *)cli_stream_numbers(*st);
	for (unsigned i = 0; !ret && i < n; i++)
		if (!(ret = bins(&g[i], view->n, view->npages)) &&
		    !(g[i].counter = pl_pattern_create(view->number, view->npages, view->n,
						       (uint32_t)g[i].cols, (uint32_t)g[i].rows,
						       g[i].counts, &err)))
			ret = cli_fail("%s", err.msg);
	if (!ret)
		ret = cli_stream_each(*st, feed_pattern, &c);
	for (unsigned i = 0; !ret && i < n; i++)
		if (pl_pattern_finish(g[i].counter, &err))
			ret = cli_fail("%s", err.msg);
	for (unsigned i = 0; i < n; i++)
		pl_pattern_destroy(g[i].counter);
	return ret;
}

static int count_loaded(const struct cli_args *a, struct grid *g, unsigned n,
			struct pl_trace *trace)
{
	struct pl_error err;
	int ret = cli_load_trace(a, trace);

	for (unsigned i = 0; !ret && i < n; i++)
		if (!(ret = bins(&g[i], trace->n, trace->npages)) &&
		    pl_access_pattern(trace, (uint32_t)g[i].cols, (uint32_t)g[i].rows,
				      g[i].counts, &err))
			ret = cli_fail("%s", err.msg);
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
	struct grid g[MAX_GRIDS] = { { 0 } };
	const struct grid *shown = &g[0], *plotted;
	struct cli_stream *st = NULL;
	unsigned ngrids;
	char format;
	int ret;

	if ((ret = cli_output_format(a, &format)) ||
	    (ret = grid_sizes(a, format, svg, g, &ngrids)))
		return ret;
	plotted = &g[ngrids - 1];
	pl_trace_init(&trace);
	if (cli_value(a, "--trace"))
		ret = count_streamed(a, g, ngrids, &view, &st);
	else
		ret = count_loaded(a, g, ngrids, &trace);
	if (!ret && format == 'j')
		print_json(st ? &view : &trace, shown->counts, (uint32_t)shown->cols,
			   (uint32_t)shown->rows);
	else if (!ret && format == 'c')
		print_csv(shown->counts, (uint32_t)shown->cols, (uint32_t)shown->rows);
	else if (!ret)
		print_text(st ? &view : &trace, shown->counts, (uint32_t)shown->cols,
			   (uint32_t)shown->rows);
	if (!ret && svg)
		ret = svg_heat_map(svg, &chart, plotted->counts, (unsigned)plotted->cols,
				   (unsigned)plotted->rows);
	for (unsigned i = 0; i < ngrids; i++)
		free(g[i].counts);
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
	"  --time-bins N  columns (default 72 for the text picture, 200 for JSON,\n"
	"                 CSV and the plot; at most the references)\n"
	"  --page-bins N  rows (default 20 for the text picture, 100 for JSON, CSV\n"
	"                 and the plot; at most the pages)\n"
	"  --json         {\"references\", \"pages\", \"time_bins\", \"page_bins\",\n"
	"                 \"counts\": one array of page-bin counts per time bin}\n"
	"  --csv          the non-zero cells: time_bin,page_bin,references\n"
	"  --svg FILE     also draw a heat map into FILE (the text picture keeps\n"
	"                 its terminal width)\n",
	.example = "example: pagelab pattern --trace ls.trace.gz --svg pattern.svg\n",
	.reads_trace = true,
	.options = pattern_options,
	.run = pattern_main,
};
