// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - ready-made plots for `--svg FILE`: lines (miss-ratio curves,
 * working-set sizes over time, lifetime functions), bars (histograms) and
 * a heat map (the memory-access pattern).  Plain SVG 1.1 that opens in a
 * browser and pastes into a report; colours are Okabe and Ito's palette,
 * told apart under colour blindness, and each line also has its own dash
 * pattern.  Interface: cli.h.
 *
 *   +--------------------------------------------+
 *   | title                                      |
 *   |  y ticks |  plot area (PLOT_W x PLOT_H)    |  legend
 *   |          +-------------------------------  |
 *   |             x ticks, x label               |
 *   +--------------------------------------------+
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "cli.h"

#define WIDTH 880
#define HEIGHT 520
#define LEFT 80
#define TOP 50
#define PLOT_W 600
#define PLOT_H 380

static const char *const colours[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
};
static const char *const dashes[] = { "", "8 4", "2 3", "8 3 2 3", "12 4", "4 4", "1 2", "6 2" };

static void text_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static void label(FILE *out, double x, double y, const char *anchor, const char *extra,
		  const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
	text_escaped(out, text);
	fputs("</text>\n", out);
}

static FILE *open_plot(const char *path, const struct svg_chart *c)
{
	FILE *out = fopen(path, "w");

	if (!out)
		return NULL;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"14\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		WIDTH, HEIGHT, WIDTH, HEIGHT);
	label(out, LEFT + PLOT_W / 2.0, 28, "middle", " font-size=\"17\"", c->title);
	label(out, LEFT + PLOT_W / 2.0, TOP + PLOT_H + 45, "middle", "", c->x_label);
	fprintf(out, "<g transform=\"translate(20 %d) rotate(-90)\">", TOP + PLOT_H / 2);
	label(out, 0, 0, "middle", "", c->y_label);
	fputs("</g>\n", out);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#444\"/>\n", LEFT, TOP, PLOT_W, PLOT_H);
	return out;
}

static int close_plot(FILE *out, const char *path)
{
	fputs("</svg>\n", out);
	if (ferror(out) | fclose(out))
		return cli_fail("cannot write the plot '%s': %s", path, strerror(errno));
	return 0;
}

/* A round step giving about five ticks over span. */
static double tick_step(double span)
{
	double step = pow(10, floor(log10(span > 0 ? span : 1)));

	if (span / step < 2)
		step /= 5;
	else if (span / step < 5)
		step /= 2;
	return step;
}

struct axis {
	double lo, hi;
	bool log;
};

static double position(const struct axis *ax, double v, double length)
{
	if (ax->log) {
		double lo = log10(ax->lo), hi = log10(ax->hi);

		return hi > lo ? (log10(v) - lo) / (hi - lo) * length : 0;
	}
	return ax->hi > ax->lo ? (v - ax->lo) / (ax->hi - ax->lo) * length : 0;
}

static void tick_label(char *buf, size_t size, double v)
{
	if (fabs(v) >= 1e6 || (fabs(v) < 1e-3 && v))
		snprintf(buf, size, "%.3g", v);
	else
		snprintf(buf, size, "%g", v);
}

static void x_ticks(FILE *out, const struct axis *ax)
{
	double step = ax->log ? 10 : tick_step(ax->hi - ax->lo);
	double v = ax->log ? pow(10, ceil(log10(ax->lo))) : ceil(ax->lo / step) * step;
	char buf[32];

	for (; v <= ax->hi * (1 + 1e-9); v = ax->log ? v * step : v + step) {
		double x = LEFT + position(ax, v, PLOT_W);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n",
			x, TOP + PLOT_H, x, TOP + PLOT_H + 5);
		tick_label(buf, sizeof(buf), v);
		label(out, x, TOP + PLOT_H + 22, "middle", "", buf);
	}
}

static void y_ticks(FILE *out, const struct axis *ax)
{
	double step = tick_step(ax->hi - ax->lo);
	char buf[32];

	for (double v = ceil(ax->lo / step) * step; v <= ax->hi * (1 + 1e-9) + 1e-12; v += step) {
		double y = TOP + PLOT_H - position(ax, v, PLOT_H);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			LEFT, y, LEFT + PLOT_W, y);
		tick_label(buf, sizeof(buf), v);
		label(out, LEFT - 8, y + 5, "end", "", buf);
	}
}

/* The range of the data, widened to include 0 for a linear axis. */
static void data_range(struct axis *ax, const struct svg_series *s, unsigned n, bool x)
{
	ax->lo = ax->log ? INFINITY : 0;
	ax->hi = -INFINITY;
	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = 0; j < s[i].n; j++) {
			double v = x ? s[i].x[j] : s[i].y[j];

			if (ax->log && v <= 0)
				continue;
			ax->lo = fmin(ax->lo, v);
			ax->hi = fmax(ax->hi, v);
		}
	}
	if (!(ax->hi > ax->lo)) {
		ax->lo = ax->log ? 1 : 0;
		ax->hi = ax->lo + 1;
	}
}

/* The dash attribute of line style i, empty for a solid line. */
static void dash_attribute(FILE *out, unsigned i)
{
	if (*dashes[i % 8])
		fprintf(out, " stroke-dasharray=\"%s\"", dashes[i % 8]);
}

static void draw_line(FILE *out, const struct axis *x, const struct axis *y,
		      const struct svg_series *s, unsigned i)
{
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", colours[i % 8]);
	dash_attribute(out, i);
	fputs(" points=\"", out);
	for (unsigned j = 0; j < s->n; j++) {
		if (x->log && s->x[j] <= 0)
			continue;
		fprintf(out, "%.1f,%.1f ", LEFT + position(x, s->x[j], PLOT_W),
			TOP + PLOT_H - position(y, s->y[j], PLOT_H));
	}
	fputs("\"/>\n", out);
}

/* A ring around each point: marks stand out from the lines whatever the colour. */
static void ring(FILE *out, double cx, double cy, unsigned i)
{
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2.5\"/>\n", cx, cy, colours[i % 8]);
}

static void draw_marks(FILE *out, const struct axis *x, const struct axis *y,
		       const struct svg_series *s, unsigned i)
{
	for (unsigned j = 0; j < s->n; j++)
		if (!x->log || s->x[j] > 0)
			ring(out, LEFT + position(x, s->x[j], PLOT_W),
			     TOP + PLOT_H - position(y, s->y[j], PLOT_H), i);
}

static void legend_entry(FILE *out, const struct svg_series *s, unsigned i, bool marks)
{
	int y = TOP + 10 + 22 * (int)i;

	if (marks) {
		ring(out, LEFT + PLOT_W + 30, y, i);
	} else {
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2\"", LEFT + PLOT_W + 15, y, LEFT + PLOT_W + 45, y,
			colours[i % 8]);
		dash_attribute(out, i);
		fputs("/>\n", out);
	}
	label(out, LEFT + PLOT_W + 52, y + 5, "start", "", s->name);
}

int svg_lines_marked(const char *path, const struct svg_chart *c, const struct svg_series *s,
		     unsigned n, const struct svg_series *marks)
{
	struct axis x = { .log = c->log_x }, y = { 0 };
	FILE *out = open_plot(path, c);

	if (!out)
		return cli_fail("cannot write the plot '%s': %s", path, strerror(errno));
	/* the marks lie on the lines, so the lines' range holds them */
	data_range(&x, s, n, true);
	data_range(&y, s, n, false);
	x_ticks(out, &x);
	y_ticks(out, &y);
	for (unsigned i = 0; i < n; i++) {
		draw_line(out, &x, &y, &s[i], i);
		legend_entry(out, &s[i], i, false);
	}
	if (marks) {
		draw_marks(out, &x, &y, marks, n);
		legend_entry(out, marks, n, true);
	}
	return close_plot(out, path);
}

int svg_lines(const char *path, const struct svg_chart *c, const struct svg_series *s,
	      unsigned n)
{
	return svg_lines_marked(path, c, s, n, NULL);
}

int svg_bars(const char *path, const struct svg_chart *c, const char *const *labels,
	     const double *values, unsigned n)
{
	struct svg_series one = { "", values, values, n };
	struct axis y = { 0 };
	double width = (double)PLOT_W / (n ? n : 1);
	FILE *out = open_plot(path, c);

	if (!out)
		return cli_fail("cannot write the plot '%s': %s", path, strerror(errno));
	data_range(&y, &one, 1, false);
	y_ticks(out, &y);
	for (unsigned i = 0; i < n; i++) {
		double h = position(&y, values[i], PLOT_H);

		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\"/>\n", LEFT + i * width + 1, TOP + PLOT_H - h, width - 2, h,
			colours[0]);
		if (n <= 24 || !(i % (n / 12)))
			label(out, LEFT + (i + 0.5) * width, TOP + PLOT_H + 22, "middle",
			      " font-size=\"11\"", labels[i]);
	}
	return close_plot(out, path);
}

int svg_heat_map(const char *path, const struct svg_chart *c, const uint32_t *counts,
		 unsigned cols, unsigned rows)
{
	double w = (double)PLOT_W / cols, h = (double)PLOT_H / rows, top = 0;
	FILE *out = open_plot(path, c);

	if (!out)
		return cli_fail("cannot write the plot '%s': %s", path, strerror(errno));
	for (size_t i = 0; i < (size_t)cols * rows; i++)
		top = fmax(top, counts[i]);
	/* darker = more references, on a log scale so rare touches still show */
	for (unsigned col = 0; col < cols; col++) {
		for (unsigned row = 0; row < rows; row++) {
			uint32_t v = counts[(size_t)col * rows + row];

			if (!v)
				continue;
			fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
				"fill=\"%s\" fill-opacity=\"%.3f\"/>\n", LEFT + col * w,
				TOP + PLOT_H - (row + 1) * h, w, h, colours[0],
				0.15 + 0.85 * log1p(v) / log1p(top));
		}
	}
	return close_plot(out, path);
}
