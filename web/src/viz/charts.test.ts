import { describe, expect, it } from 'vitest';
import {
	axisTicks,
	chartGeometry,
	chartScales,
	chartWidth,
	hasDots,
	layoutChart,
	legendLayout,
	seriesPath,
	seriesStyle,
	tickLabel,
	type ChartSeries,
	type ChartSpec,
} from './charts';

const series = (id: string, x: number[], y: number[], mark: ChartSeries['mark'] = 'line'): ChartSeries => ({
	id,
	label: id.toUpperCase(),
	x,
	y,
	mark,
});

const spec = (...s: ChartSeries[]): ChartSpec => ({
	id: 'test',
	title: 'Test',
	xLabel: 'x',
	yLabel: 'y',
	series: s,
	xIntegers: true,
	yIntegers: true,
});

const geometry = chartGeometry('normal', 1, 2);
const plotWidth = geometry.width - geometry.margin.left - geometry.margin.right;
const plotHeight = geometry.height - geometry.margin.top - geometry.margin.bottom;

describe('chart scales', () => {
	it('span the x data exactly from the left to the right edge of the plot', () => {
		const { x } = chartScales(spec(series('fifo', [1, 6], [12, 5])), geometry);
		expect(x(1)).toBe(0);
		expect(x(6)).toBeCloseTo(plotWidth);
	});

	it('start the y axis at zero faults at the bottom of the plot, upwards', () => {
		const { y } = chartScales(spec(series('fifo', [1, 6], [12, 9])), geometry);
		expect(y(0)).toBeCloseTo(plotHeight);
		expect(y(12)).toBeLessThan(y(9));
	});

	it('end the y axis on a labelled tick at or above the largest value', () => {
		const { y } = chartScales(spec(series('lru', [0, 20], [0, 12]), series('fifo', [0, 20], [0, 15])), geometry);
		const top = y.domain()[1];
		expect(top).toBeGreaterThanOrEqual(15);
		expect(axisTicks(y, geometry.tickCount.y, true).at(-1)?.value).toBe(top);
	});

	it('give a single point room instead of dividing by zero', () => {
		const { x, y } = chartScales(spec(series('one', [3], [0])), geometry);
		expect(Number.isFinite(x(3))).toBe(true);
		expect(Number.isFinite(y(0))).toBe(true);
		expect(x.domain()).toEqual([2, 4]);
	});

	it('have a usable domain for a chart with no data yet', () => {
		const { x, y } = chartScales(spec(), geometry);
		expect(x.domain()).toEqual([0, 1]);
		expect(y.domain()).toEqual([0, 1]);
	});

	it('leave room at the edges of a point cloud so no dot is cut in half', () => {
		const { x, y } = chartScales(spec(series('trace', [1, 12], [0, 5], 'canvas-points')), geometry);
		expect(x.domain()[0]).toBeLessThan(1);
		expect(x.domain()[1]).toBeGreaterThan(12);
		expect(y.domain()[1]).toBeGreaterThan(5);
	});

	it('keep a zero floor under a point cloud: page 0 is the lowest page there is', () => {
		const { y } = chartScales(spec(series('trace', [1, 12], [0, 2000], 'canvas-points')), geometry);
		expect(y.domain()[0]).toBe(0);
	});

	it('refuse a series whose x and y lengths differ', () => {
		expect(() => chartScales(spec(series('bad', [1, 2, 3], [1, 2])), geometry)).toThrow(
			/series 'bad' has 3 x values and 2 y values/,
		);
	});
});

describe('axis ticks', () => {
	it('fall only on whole frame counts on an integer axis', () => {
		const { x } = chartScales(spec(series('fifo', [1, 3], [12, 9])), geometry);
		const ticks = axisTicks(x, 10, true);
		expect(ticks.map((t) => t.value)).toEqual([1, 2, 3]);
		expect(ticks.map((t) => t.label)).toEqual(['1', '2', '3']);
	});

	it('sit where the scale puts their value', () => {
		const { x } = chartScales(spec(series('fifo', [0, 100], [0, 1])), geometry);
		for (const tick of axisTicks(x, 5, true))
			expect(tick.position).toBeCloseTo(x(tick.value));
	});

	it('are labelled briefly on a 10M-reference axis', () => {
		expect(tickLabel(10_000_000)).toBe('10M');
		expect(tickLabel(20_000)).toBe('20k');
		expect(tickLabel(1500)).toBe('1,500');
		expect(tickLabel(0.25)).toBe('0.25');
	});
});

describe('series paths', () => {
	it('join the points of a line series', () => {
		const s = series('fifo', [1, 2], [0, 10]);
		const scales = chartScales(spec(s), geometry);
		expect(seriesPath(s, scales)).toBe(`M0,${scales.y(0)}L${plotWidth},${scales.y(10)}`);
	});

	it('hold each value until the next x for a step series', () => {
		const s = series('faults', [0, 1, 2], [0, 1, 1], 'step');
		const scales = chartScales(spec(s), geometry);
		const path = seriesPath(s, scales);
		/* from (0,0) across to x=1 still at 0 faults, then up to 1 fault: across before up. */
		const [x1, y0, y1] = [scales.x(1), scales.y(0), scales.y(1)];
		expect(path.startsWith(`M0,${y0}L${x1},${y0}L${x1},${y1}`)).toBe(true);
	});
});

describe('the legend', () => {
	it('puts entries side by side while they fit', () => {
		const layout = legendLayout(['FIFO', 'LRU'], 600, 'normal');
		expect(layout.rows).toBe(1);
		expect(layout.entries[0].x).toBe(0);
		expect(layout.entries[1].x).toBeGreaterThan(0);
	});

	it('wraps into another row when the next entry would run off the chart', () => {
		const layout = legendLayout(['a long policy name', 'another long policy name'], 300, 'normal');
		expect(layout.rows).toBe(2);
		expect(layout.entries[1]).toEqual({ label: 'another long policy name', x: 0, row: 1 });
	});

	it('takes no rows when there is nothing to list', () => {
		expect(legendLayout([], 600, 'normal').rows).toBe(0);
	});
});

describe('lecture size', () => {
	it('is larger in every dimension a hall needs: canvas, type and lines', () => {
		const normal = chartGeometry('normal', 1, 2);
		const lecture = chartGeometry('lecture', 1, 2);
		expect(lecture.width).toBeGreaterThan(normal.width);
		expect(lecture.fontSize).toBeGreaterThanOrEqual(24);
		expect(lecture.strokeWidth).toBeGreaterThan(normal.strokeWidth);
	});

	it('makes room in the top margin for every legend row', () => {
		expect(chartGeometry('normal', 3, 2).margin.top).toBeGreaterThan(chartGeometry('normal', 1, 2).margin.top);
	});

	it('scales the dashes with the line so the pattern stays visible', () => {
		expect(seriesStyle(1, 'normal').dash).toBe('10 5');
		expect(seriesStyle(1, 'lecture').dash).toBe('22.5 11.25');
	});

	it('gives neighbouring series different colours and dashes', () => {
		const first = seriesStyle(0, 'normal');
		const second = seriesStyle(1, 'normal');
		expect(first.colour).not.toBe(second.colour);
		expect(first.dash).not.toBe(second.dash);
	});
});

describe('a whole chart layout', () => {
	const frames = series('fifo', [1, 2, 3, 4, 5, 6], [12, 12, 9, 10, 5, 5]);
	const layout = layoutChart(spec(frames, series('lru', [1, 2, 3, 4, 5, 6], [12, 12, 10, 8, 5, 5])), 'normal');

	it('has one path and one style per series', () => {
		expect(layout.paths).toHaveLength(2);
		expect(layout.paths[0].startsWith('M0,')).toBe(true);
		expect(layout.styles[0].colour).not.toBe(layout.styles[1].colour);
	});

	it('ticks every frame count on a short frames axis', () => {
		expect(layout.xTicks.map((t) => t.value)).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it('leaves room on the left for the widest y tick label', () => {
		const wide = layoutChart(spec(series('big', [0, 1], [0, 10_000_000])), 'normal');
		expect(wide.geometry.margin.left).toBeGreaterThan(layout.geometry.margin.left);
	});

	it('dots a short line so each value can be read, but not a long one or a step series', () => {
		expect(hasDots(frames)).toBe(true);
		expect(hasDots(series('long', Array.from({ length: 500 }, (_, i) => i), new Array(500).fill(0)))).toBe(false);
		expect(hasDots(series('faults', [0, 1], [0, 1], 'step'))).toBe(false);
	});
});

describe('a log x axis, for analyses over cache sizes spanning decades', () => {
	const mrc: ChartSpec = { ...spec(series('lru', [1, 10, 100, 1000, 10000], [1, 0.8, 0.5, 0.2, 0.05])), xScale: 'log' };

	it('puts each decade an equal distance apart', () => {
		const { x } = chartScales(mrc, geometry);
		expect(x(100) - x(10)).toBeCloseTo(x(10) - x(1));
	});

	it('labels only a few ticks per decade, never all nine', () => {
		const layout = layoutChart(mrc, 'normal');
		expect(layout.xTicks.length).toBeLessThanOrEqual(10);
		expect(layout.xTicks.map((t) => t.value)).toContain(1000);
	});

	it('refuses an x of zero, which a log axis cannot place', () => {
		expect(() => chartScales({ ...mrc, series: [series('bad', [0, 10], [1, 0.5])] }, geometry)).toThrow(
			/log x axis but an x of 0/,
		);
	});
});

describe('the width of a chart', () => {
	it('is the size\'s natural width until the container has been measured', () => {
		expect(chartWidth('lecture', 0)).toBe(1120);
	});

	it('fills the container it is in, so a lecture chart never runs off the screen', () => {
		expect(chartWidth('lecture', 990)).toBe(990);
	});

	it('stays readable in a narrow container and within reason on a wide one', () => {
		expect(chartWidth('normal', 100)).toBe(320);
		expect(chartWidth('normal', 5000)).toBe(1600);
	});

	it('keeps the size\'s proportions and type size at any width', () => {
		const narrow = chartGeometry('lecture', 1, 2, 990);
		expect(narrow.height / narrow.width).toBeCloseTo(620 / 1120, 2);
		expect(narrow.fontSize).toBe(chartGeometry('lecture', 1, 2).fontSize);
	});

	it('takes the height a projector screen leaves, keeping its type size, and never squeezes the plot under four lines', () => {
		const fitted = chartGeometry('lecture', 1, 2, 1200, 430);
		expect(fitted.height).toBe(430);
		expect(fitted.fontSize).toBe(24);
		const squeezed = chartGeometry('lecture', 1, 2, 1200, 50);
		const plot = squeezed.height - squeezed.margin.top - squeezed.margin.bottom;
		expect(plot).toBeGreaterThanOrEqual(4 * 24);
		expect(plot).toBeLessThan(4 * 24 + 1);
	});

	it('lays out a fitted chart inside the height it was given', () => {
		const layout = layoutChart(spec(series('fifo', [1, 2, 3, 4], [1, 2, 2, 3])), 'lecture', 1000, 400);
		expect(layout.geometry.height).toBe(400);
		const [bottom, top] = layout.scales.y.range();
		expect(bottom).toBe(400 - layout.geometry.margin.top - layout.geometry.margin.bottom);
		expect(top).toBe(0);
	});
});
