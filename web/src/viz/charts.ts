/*
 * charts.ts - the math of every pagelab chart: sizes, scales, ticks, legend
 * layout and line paths.  d3 computes; components/charts/Chart.tsx renders
 * the result as SVG (and a canvas for dense point clouds).
 *
 * Interface
 *   ChartSpec        a chart as data: title, axis labels, series, markers.
 *                    A new analysis (miss-ratio curve, working-set size,
 *                    lifetime function, access scatter) is a new ChartSpec,
 *                    never new chart code.
 *   layoutChart      everything a renderer needs, in pixels, in one call
 *   chartWidth       how wide a chart is in the room its container has
 *   chartGeometry    pixel layout for 'normal' or 'lecture' size
 *   chartScales      x and y scales fitted to the spec's data
 *   axisTicks        tick positions and readable labels
 *   legendLayout     where each legend entry goes, wrapping into rows
 *   seriesPath       the SVG path of a line or step series
 *   seriesStyle      colour and dash of series i (colour-blind safe, and
 *                    told apart by dash too on a washed-out projector)
 *
 * Invariants
 *   - Every series has x.length === y.length (checked: a mismatch throws).
 *   - Scales map the data domain onto the plot rectangle, y upwards; an
 *     empty or one-valued domain is widened so nothing divides by zero.
 */

import {
	curveLinear,
	curveStepAfter,
	format,
	line,
	scaleLinear,
	scaleLog,
	type ScaleContinuousNumeric,
} from 'd3';

/**
 * How a series is drawn.  'line' joins points, 'step' holds each value until
 * the next x (cumulative counts), 'points' draws SVG dots, and
 * 'canvas-points' draws dots on a canvas under the SVG: for clouds of
 * hundreds of thousands of points (an access scatter) that SVG cannot hold.
 */
export type SeriesMark = 'line' | 'step' | 'points' | 'canvas-points';

export interface ChartSeries {
	id: string;
	label: string;
	x: ArrayLike<number>;
	y: ArrayLike<number>;
	mark: SeriesMark;
}

/** A vertical rule across the plot at x, e.g. the scenario's own frame count. */
export interface ChartGuide {
	x: number;
	label: string;
}

/** A point called out on the chart, e.g. where Belady's anomaly happens. */
export interface ChartMarker {
	seriesId: string;
	x: number;
	y: number;
	label: string;
}

export interface ChartSpec {
	/** Short name used in test ids and file names: "cumulative", "frames". */
	id: string;
	title: string;
	xLabel: string;
	yLabel: string;
	series: ChartSeries[];
	markers?: ChartMarker[];
	guides?: ChartGuide[];
	/**
	 * 'log' for an x axis spanning orders of magnitude (cache sizes of a
	 * miss-ratio curve); every x must then be positive.
	 */
	xScale?: 'linear' | 'log';
	/** Ticks only at whole numbers (steps, frames, faults). */
	xIntegers?: boolean;
	yIntegers?: boolean;
	/**
	 * The data-* attribute names under which each drawn point carries its
	 * series id, x and y (e.g. policy, frames, faults), for tests and tools.
	 */
	pointAttributes?: { series: string; x: string; y: string };
}

export type ChartSize = 'normal' | 'lecture';

export interface ChartGeometry {
	width: number;
	height: number;
	margin: { top: number; right: number; bottom: number; left: number };
	fontSize: number;
	titleSize: number;
	strokeWidth: number;
	pointRadius: number;
	legendRowHeight: number;
	legendSwatch: number;
	tickCount: { x: number; y: number };
}

const SIZES: Record<ChartSize, Omit<ChartGeometry, 'margin'>> = {
	normal: {
		width: 720,
		height: 400,
		fontSize: 13,
		titleSize: 16,
		strokeWidth: 2,
		pointRadius: 3.5,
		legendRowHeight: 20,
		legendSwatch: 26,
		tickCount: { x: 10, y: 6 },
	},
	/* Readable from the back of a lecture hall: big type, thick lines. */
	lecture: {
		width: 1120,
		height: 620,
		fontSize: 24,
		titleSize: 30,
		strokeWidth: 4.5,
		pointRadius: 7,
		legendRowHeight: 36,
		legendSwatch: 46,
		tickCount: { x: 8, y: 5 },
	},
};

/* Average glyph width relative to the font size, for sans-serif digits and letters. */
const GLYPH_WIDTH = 0.6;

/** Estimated width in pixels of `text` at `fontSize`, for layout before rendering. */
export function textWidth(text: string, fontSize: number): number {
	return text.length * fontSize * GLYPH_WIDTH;
}

export interface LegendEntry {
	label: string;
	x: number;
	row: number;
}

export interface LegendLayout {
	entries: LegendEntry[];
	rows: number;
}

/** Flows legend entries left to right within `width`, wrapping into rows. */
export function legendLayout(labels: string[], width: number, size: ChartSize): LegendLayout {
	const { fontSize, legendSwatch } = SIZES[size];
	const gap = fontSize * 1.5;
	const entries: LegendEntry[] = [];
	let x = 0;
	let row = 0;
	for (const label of labels) {
		const entryWidth = legendSwatch + fontSize * 0.4 + textWidth(label, fontSize);
		if (x > 0 && x + entryWidth > width) {
			row++;
			x = 0;
		}
		entries.push({ label, x, row });
		x += entryWidth + gap;
	}
	return { entries, rows: labels.length ? row + 1 : 0 };
}

/* The widths a chart may take, whatever room its container has. */
export const MIN_CHART_WIDTH = 320;
export const MAX_CHART_WIDTH = 1600;

/** The width a chart takes in a container `available` px wide (0: not measured yet). */
export function chartWidth(size: ChartSize, available: number): number {
	if (available <= 0)
		return SIZES[size].width;
	return Math.round(Math.min(MAX_CHART_WIDTH, Math.max(MIN_CHART_WIDTH, available)));
}

/* A plot area is never lower than this many lines of the chart's text, however little room it is given. */
const MIN_PLOT_LINES = 4;

/**
 * The pixel layout of a chart `width` px wide: as tall as the size's aspect
 * ratio makes it, or, given `height` (the room a projector screen leaves),
 * exactly that tall, text staying at its size (the plot area shrinks, to no
 * less than MIN_PLOT_LINES lines of text).  The top margin makes room for
 * the title and the legend rows, the left one for the widest y tick label.
 */
export function chartGeometry(
	size: ChartSize,
	legendRows: number,
	yTickChars: number,
	width = SIZES[size].width,
	height?: number,
): ChartGeometry {
	const base = SIZES[size];
	const top = base.titleSize * 2 + legendRows * base.legendRowHeight + base.fontSize * 0.5;
	const left = base.fontSize * 2.2 + textWidth('0'.repeat(Math.max(yTickChars, 1)), base.fontSize);
	const bottom = base.fontSize * 3.6;
	const lowest = Math.ceil(top + bottom + MIN_PLOT_LINES * base.fontSize);
	return {
		...base,
		width,
		height: height === undefined ? Math.round((width * base.height) / base.width) : Math.max(lowest, Math.floor(height)),
		margin: { top, right: base.fontSize * 2, bottom, left },
	};
}

function checkSeries(series: ChartSeries): void {
	if (series.x.length !== series.y.length)
		throw new Error(
			`charts: series '${series.id}' has ${series.x.length} x values and ${series.y.length} y values`,
		);
}

/** [min, max] over every series, or null when there are no values. */
function extent(series: ChartSeries[], axis: 'x' | 'y'): [number, number] | null {
	let lo = Infinity;
	let hi = -Infinity;
	for (const s of series) {
		checkSeries(s);
		const values = s[axis];
		for (let i = 0; i < values.length; i++) {
			if (values[i] < lo)
				lo = values[i];
			if (values[i] > hi)
				hi = values[i];
		}
	}
	return lo <= hi ? [lo, hi] : null;
}

/* A domain with some width: a single value gets one unit either side. */
function widen([lo, hi]: [number, number]): [number, number] {
	return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

export interface ChartScales {
	x: ScaleContinuousNumeric<number, number>;
	y: ScaleContinuousNumeric<number, number>;
}

/* A point cloud keeps this fraction of its span free at each edge, so no dot is cut in half. */
const POINT_PADDING = 0.02;

/* Widens [lo, hi] by `fraction` of its span at each end, except below a floor of zero. */
function pad([lo, hi]: [number, number], fraction: number): [number, number] {
	const room = (hi - lo) * fraction;
	return [lo === 0 ? 0 : lo - room, hi + room];
}

/**
 * x spans the data exactly (time and frame counts have no slack to show);
 * y starts at zero for counts (a fault axis that starts at 9 exaggerates a
 * difference of one) and ends on a round number.  Charts of bare points get
 * a little room at the edges instead.
 */
export function chartScales(spec: ChartSpec, geometry: ChartGeometry): ChartScales {
	const { width, height, margin } = geometry;
	const padding = spec.series.some((s) => s.mark === 'points' || s.mark === 'canvas-points') ? POINT_PADDING : 0;
	const xData = extent(spec.series, 'x') ?? [0, 1];
	const yData = extent(spec.series, 'y') ?? [0, 1];
	const yLow = Math.min(0, yData[0]);
	const plotWidth = width - margin.left - margin.right;
	let x: ScaleContinuousNumeric<number, number>;
	if (spec.xScale === 'log') {
		if (xData[0] <= 0)
			throw new Error(`charts: '${spec.id}' has a log x axis but an x of ${xData[0]} (must be positive)`);
		x = scaleLog().domain(widenLog(xData)).range([0, plotWidth]);
	} else {
		x = scaleLinear().domain(pad(widen(xData), padding)).range([0, plotWidth]);
	}
	return {
		x,
		y: scaleLinear()
			.domain(pad(widen([yLow, Math.max(yData[1], yLow + 1)]), padding))
			.nice(geometry.tickCount.y)
			.range([height - margin.top - margin.bottom, 0]),
	};
}

/* A one-valued log domain spans a factor of ten around its value. */
function widenLog([lo, hi]: [number, number]): [number, number] {
	return lo === hi ? [lo / Math.sqrt(10), hi * Math.sqrt(10)] : [lo, hi];
}

export interface Tick {
	value: number;
	position: number;
	label: string;
}

const plainInteger = format(',d');
const shortNumber = format('~s');
const plainNumber = format(',~r');

/** A tick label a student reads at a glance: 12, 1,500, 20k, 10M, 0.25. */
export function tickLabel(value: number): string {
	if (Math.abs(value) >= 10000)
		return shortNumber(value).replace('G', 'B');
	return Number.isInteger(value) ? plainInteger(value) : plainNumber(+value.toPrecision(6));
}

/* The leading digit of a positive number: 3 for 300, 1 for 0.1. */
function leadingDigit(value: number): number {
	return Math.round(value / 10 ** Math.floor(Math.log10(value) + 1e-9));
}

/**
 * A log axis offers a tick at every 1..9 of every decade; with too many,
 * keep 1, 2 and 5, and with still too many, the powers of ten.
 */
function thinLogTicks(values: number[], count: number): number[] {
	if (values.length <= count)
		return values;
	const fewer = values.filter((v) => [1, 2, 5].includes(leadingDigit(v)));
	return fewer.length <= count ? fewer : values.filter((v) => leadingDigit(v) === 1);
}

/** About `count` ticks on `scale`; only whole numbers when `integers`. */
export function axisTicks(
	scale: ScaleContinuousNumeric<number, number>,
	count: number,
	integers: boolean,
	log = false,
): Tick[] {
	let values = log ? thinLogTicks(scale.ticks(count), count) : scale.ticks(count);
	if (integers) {
		values = values.filter(Number.isInteger);
		if (values.length === 0)
			values = [Math.round(scale.domain()[0])];
	}
	return values.map((value) => ({ value, position: scale(value), label: tickLabel(value) }));
}

/** The SVG path of a 'line' or 'step' series in plot coordinates. */
export function seriesPath(series: ChartSeries, scales: ChartScales): string {
	checkSeries(series);
	const indexes = Array.from({ length: series.x.length }, (_, i) => i);
	const path = line<number>()
		.x((i) => scales.x(series.x[i]))
		.y((i) => scales.y(series.y[i]))
		.curve(series.mark === 'step' ? curveStepAfter : curveLinear);
	return path(indexes) ?? '';
}

/* Okabe and Ito's colour-blind-safe palette, darkest first (yellow left out: invisible on white). */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
const DASHES = ['', '10 5', '3 4', '12 4 3 4'];

export interface SeriesStyle {
	colour: string;
	/** stroke-dasharray, '' for solid; scaled with the line width. */
	dash: string;
}

export function seriesStyle(index: number, size: ChartSize): SeriesStyle {
	const scale = SIZES[size].strokeWidth / SIZES.normal.strokeWidth;
	const dash = DASHES[index % DASHES.length]
		.split(' ')
		.filter(Boolean)
		.map((n) => String(+n * scale))
		.join(' ');
	return { colour: COLOURS[index % COLOURS.length], dash };
}

/* A line series this short gets a dot on every point: each value can be read off. */
const MAX_DOTTED_POINTS = 100;

/** Whether the renderer draws a dot (an SVG element) for every point of the series. */
export function hasDots(series: ChartSeries): boolean {
	return series.mark === 'points' || (series.mark === 'line' && series.x.length <= MAX_DOTTED_POINTS);
}

export interface ChartLayout {
	geometry: ChartGeometry;
	scales: ChartScales;
	xTicks: Tick[];
	yTicks: Tick[];
	legend: LegendLayout;
	/** Plot-coordinate path per series ('' for point marks). */
	paths: string[];
	styles: SeriesStyle[];
}

/**
 * Lays a chart out `width` px wide (and `height` px tall if given, else at
 * the size's aspect ratio): the legend first (it sets the top margin), then
 * the y tick labels (their width sets the left margin), then the scales and
 * paths in the final plot rectangle.
 */
export function layoutChart(spec: ChartSpec, size: ChartSize, width = SIZES[size].width, height?: number): ChartLayout {
	const base = SIZES[size];
	const legend = legendLayout(
		spec.series.map((s) => s.label),
		width - base.fontSize * 4,
		size,
	);
	const draft = chartGeometry(size, legend.rows, 1, width, height);
	const draftTicks = axisTicks(chartScales(spec, draft).y, base.tickCount.y, !!spec.yIntegers);
	const geometry = chartGeometry(size, legend.rows, Math.max(...draftTicks.map((t) => t.label.length)), width, height);
	const scales = chartScales(spec, geometry);
	return {
		geometry,
		scales,
		xTicks: axisTicks(scales.x, base.tickCount.x, !!spec.xIntegers, spec.xScale === 'log'),
		yTicks: axisTicks(scales.y, base.tickCount.y, !!spec.yIntegers),
		legend,
		paths: spec.series.map((s) => (s.mark === 'line' || s.mark === 'step' ? seriesPath(s, scales) : '')),
		styles: spec.series.map((_, i) => seriesStyle(i, size)),
	};
}
