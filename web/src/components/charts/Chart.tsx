/*
 * Chart.tsx - renders any ChartSpec (viz/charts.ts) as SVG, with a canvas
 * layer for dense point clouds, and its two export buttons.
 *
 * Props
 *   spec      the chart as data; its `id` names the test ids
 *             (chart-<id>, export-svg-<id>, export-png-<id>) and the files
 *   size      'normal' or 'lecture' (big type, thick lines)
 *   fileBase  exported file name without extension (default pagelab-<id>)
 *   caption   optional text under the chart (e.g. the anomaly in words)
 *   fill      true: the chart takes the width and the height of its box
 *             (lecture mode's one screen: the box is the room left under the
 *             controls), text staying at its size; otherwise it takes the
 *             box's width at the size's aspect ratio.
 *
 * Adding an analysis (miss-ratio curve, working-set size, lifetime
 * function, access scatter): compute its curve in model/ (pure, tested),
 * describe it as a ChartSpec - series with a mark ('line', 'step',
 * 'points', or 'canvas-points' for clouds too dense for SVG), axis labels,
 * optional markers, guides and a log x axis - and render <Chart spec size />.
 * Export, lecture sizes, legend and test ids come with it.
 *
 * Invariants
 *   - All drawing uses presentation attributes, so the export is the chart
 *     exactly as shown (exportChart.ts).
 *   - Dotted points carry data-testid="chart-point" and the attributes named
 *     by spec.pointAttributes.
 */

import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { chartWidth, hasDots, layoutChart, textWidth, type ChartLayout, type ChartSeries, type ChartSize, type ChartSpec } from '../../viz/charts';
import { downloadPng, downloadSvg } from './exportChart';
import { useElementWidth } from './useElementWidth';

const FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';
const INK = '#1a1a1a';
const GRID = '#d9d9d9';

export interface ChartProps {
	spec: ChartSpec;
	size: ChartSize;
	fileBase?: string;
	caption?: ReactNode;
	fill?: boolean;
}

function plotSize(layout: ChartLayout) {
	const { width, height, margin } = layout.geometry;
	return { width: width - margin.left - margin.right, height: height - margin.top - margin.bottom };
}

function Axes({ spec, layout }: { spec: ChartSpec; layout: ChartLayout }) {
	const { fontSize } = layout.geometry;
	const plot = plotSize(layout);
	const tickLength = fontSize * 0.4;
	return (
		<g fontFamily={FONT} fontSize={fontSize} fill={INK}>
			{layout.yTicks.map((tick) => (
				<g key={`y${tick.value}`} transform={`translate(0,${tick.position})`}>
					<line x1={0} x2={plot.width} stroke={GRID} strokeWidth={1} />
					<line x1={-tickLength} x2={0} stroke={INK} strokeWidth={1} />
					<text x={-tickLength * 1.8} dy="0.35em" textAnchor="end">
						{tick.label}
					</text>
				</g>
			))}
			{layout.xTicks.map((tick) => (
				<g key={`x${tick.value}`} transform={`translate(${tick.position},${plot.height})`}>
					<line y1={0} y2={tickLength} stroke={INK} strokeWidth={1} />
					<text y={tickLength + fontSize * 1.1} textAnchor="middle">
						{tick.label}
					</text>
				</g>
			))}
			<line x1={0} x2={plot.width} y1={plot.height} y2={plot.height} stroke={INK} strokeWidth={1.5} />
			<line x1={0} x2={0} y1={0} y2={plot.height} stroke={INK} strokeWidth={1.5} />
			<text x={plot.width / 2} y={plot.height + fontSize * 3} textAnchor="middle" fontWeight="bold">
				{spec.xLabel}
			</text>
			<text
				transform={`translate(${-layout.geometry.margin.left + fontSize * 1.1},${plot.height / 2}) rotate(-90)`}
				textAnchor="middle"
				fontWeight="bold"
			>
				{spec.yLabel}
			</text>
		</g>
	);
}

const markedByLine = (series: ChartSeries) => series.mark === 'line' || series.mark === 'step';

function Legend({ series, layout }: { series: ChartSeries[]; layout: ChartLayout }) {
	const { fontSize, titleSize, legendRowHeight, legendSwatch, strokeWidth, pointRadius, margin } = layout.geometry;
	return (
		<g transform={`translate(${margin.left},${titleSize * 2})`} fontFamily={FONT} fontSize={fontSize} fill={INK}>
			{layout.legend.entries.map((entry, i) => (
				<g key={entry.label + i} transform={`translate(${entry.x},${entry.row * legendRowHeight})`}>
					{markedByLine(series[i]) ? (
						<line
							x1={0}
							x2={legendSwatch}
							y1={0}
							y2={0}
							stroke={layout.styles[i].colour}
							strokeWidth={strokeWidth}
							strokeDasharray={layout.styles[i].dash || undefined}
						/>
					) : (
						<circle cx={legendSwatch / 2} cy={0} r={pointRadius} fill={layout.styles[i].colour} />
					)}
					<text x={legendSwatch + fontSize * 0.4} dy="0.35em">
						{entry.label}
					</text>
				</g>
			))}
		</g>
	);
}

function Dots({ spec, series, index, layout }: { spec: ChartSpec; series: ChartSeries; index: number; layout: ChartLayout }) {
	const names = spec.pointAttributes;
	return (
		<g fill={layout.styles[index].colour} stroke="#ffffff" strokeWidth={layout.geometry.strokeWidth / 2}>
			{Array.from({ length: series.x.length }, (_, i) => {
				const data = names
					? {
							[`data-${names.series}`]: series.id,
							[`data-${names.x}`]: series.x[i],
							[`data-${names.y}`]: series.y[i],
						}
					: {};
				return (
					<circle
						key={i}
						data-testid="chart-point"
						{...data}
						cx={layout.scales.x(series.x[i])}
						cy={layout.scales.y(series.y[i])}
						r={layout.geometry.pointRadius}
					>
						<title>{`${series.label}: ${spec.xLabel} ${series.x[i]}, ${spec.yLabel} ${series.y[i]}`}</title>
					</circle>
				);
			})}
		</g>
	);
}

function Guides({ spec, layout }: { spec: ChartSpec; layout: ChartLayout }) {
	const { fontSize, strokeWidth } = layout.geometry;
	const plot = plotSize(layout);
	const [lo, hi] = layout.scales.x.domain();
	return (
		<g fontFamily={FONT} fontSize={fontSize} fill="#444444">
			{(spec.guides ?? [])
				.filter((guide) => guide.x >= lo && guide.x <= hi)
				.map((guide, i) => {
					const x = layout.scales.x(guide.x);
					const leftward = x + textWidth(guide.label, fontSize) + fontSize > plot.width;
					return (
						<g key={i} data-testid="chart-guide" data-x={guide.x}>
							<line x1={x} x2={x} y1={0} y2={plot.height} stroke="#444444" strokeWidth={strokeWidth / 2} strokeDasharray={`${strokeWidth * 2} ${strokeWidth * 2}`} />
							<text x={x + (leftward ? -0.4 : 0.4) * fontSize} y={plot.height - fontSize * 0.5} textAnchor={leftward ? 'end' : 'start'}>
								{guide.label}
							</text>
						</g>
					);
				})}
		</g>
	);
}

function Markers({ spec, layout }: { spec: ChartSpec; layout: ChartLayout }) {
	const { fontSize, pointRadius, strokeWidth } = layout.geometry;
	const plot = plotSize(layout);
	return (
		<g fontFamily={FONT} fontSize={fontSize} fontWeight="bold">
			{(spec.markers ?? []).map((marker, i) => {
				const x = layout.scales.x(marker.x);
				const y = layout.scales.y(marker.y);
				/* Label to the right unless that runs off the plot. */
				const leftward = x + pointRadius * 3 + textWidth(marker.label, fontSize) > plot.width;
				return (
					<g key={i} data-testid="chart-marker" data-series={marker.seriesId}>
						<circle cx={x} cy={y} r={pointRadius * 2.2} fill="none" stroke="#b00020" strokeWidth={strokeWidth} />
						<text
							x={x + (leftward ? -1 : 1) * pointRadius * 3}
							y={y - pointRadius * 3}
							textAnchor={leftward ? 'end' : 'start'}
							fill="#b00020"
							stroke="#ffffff"
							strokeWidth={fontSize / 5}
							paintOrder="stroke"
						>
							{marker.label}
						</text>
					</g>
				);
			})}
		</g>
	);
}

/* '#rrggbb' as one opaque RGBA pixel in the byte order of ImageData on little-endian machines. */
function pixelOf(colour: string): number {
	const rgb = parseInt(colour.slice(1), 16);
	return (0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff)) >>> 0;
}

/* Points written between two animation frames: a few milliseconds. */
const POINTS_PER_FRAME = 10_000;

/*
 * Draws the canvas-points series onto the canvas over the plot area.  The
 * dots are written straight into the pixels: tens of thousands of fillRect
 * calls take half a second in a software-rendered browser, this a few ms.
 * A few points are drawn as big as dots; a cloud of them shrinks to two
 * pixels (times the device pixel ratio).  The cloud is drawn from the next
 * animation frame on, over several (POINTS_PER_FRAME each), so the page stays responsive;
 * the returned function stops a drawing that new data made stale.
 */
function drawCanvasPoints(canvas: HTMLCanvasElement, spec: ChartSpec, layout: ChartLayout): () => void {
	const plot = plotSize(layout);
	const ratio = window.devicePixelRatio || 1;
	const width = (canvas.width = Math.round(plot.width * ratio));
	const height = (canvas.height = Math.round(plot.height * ratio));
	const context = canvas.getContext('2d');
	if (!context || width === 0 || height === 0)
		return () => {};
	const image = context.createImageData(width, height);
	const pixels = new Uint32Array(image.data.buffer);
	const work = spec.series.flatMap((series, index) => {
		if (series.mark !== 'canvas-points')
			return [];
		const pixel = pixelOf(layout.styles[index].colour);
		const side = Math.round(ratio * Math.max(2, Math.min(layout.geometry.pointRadius * 1.5, plot.width / series.x.length)));
		return [{ series, pixel, side }];
	});
	let part = 0;
	let next = 0;
	let frame = 0;
	const drawSome = () => {
		for (let budget = POINTS_PER_FRAME; budget > 0 && part < work.length; ) {
			const { series, pixel, side } = work[part];
			const end = Math.min(series.x.length, next + budget);
			for (let i = next; i < end; i++) {
				const left = Math.round(layout.scales.x(series.x[i]) * ratio - side / 2);
				const top = Math.round(layout.scales.y(series.y[i]) * ratio - side / 2);
				for (let y = Math.max(0, top); y < Math.min(height, top + side); y++)
					pixels.fill(pixel, y * width + Math.max(0, left), y * width + Math.min(width, left + side));
			}
			budget -= end - next;
			next = end;
			if (next === series.x.length) {
				part++;
				next = 0;
			}
		}
		context.putImageData(image, 0, 0);
		if (part < work.length)
			frame = requestAnimationFrame(drawSome);
	};
	/* Not in the commit that placed the canvas: that task has the chart's SVG to lay out already. */
	frame = requestAnimationFrame(drawSome);
	return () => cancelAnimationFrame(frame);
}

function ChartDrawing({ spec, size, fileBase = `pagelab-${spec.id}`, caption, fill = false }: ChartProps) {
	const svgRef = useRef<SVGSVGElement>(null);
	const canvasRef = useRef<HTMLCanvasElement>(null);
	/* The room measured: the whole box, or when filling, the part of it the caption leaves. */
	const box = useRef<HTMLDivElement>(null);
	const room = useRef<HTMLDivElement>(null);
	const [exportError, setExportError] = useState<string | null>(null);
	const available = useElementWidth(fill ? room : box);
	const width = chartWidth(size, available.width);
	const fitHeight = fill && available.height > 0 ? available.height : undefined;
	const layout = useMemo(() => layoutChart(spec, size, width, fitHeight), [spec, size, width, fitHeight]);
	const { height, margin, titleSize, strokeWidth } = layout.geometry;
	const plot = plotSize(layout);
	const usesCanvas = spec.series.some((s) => s.mark === 'canvas-points');

	/* Redrawn only when the data or the size change: a cloud is the costliest thing here. */
	useEffect(() => {
		if (canvasRef.current)
			return drawCanvasPoints(canvasRef.current, spec, layout);
	}, [spec, layout]);

	const exportAs = (kind: 'svg' | 'png') => {
		const svg = svgRef.current;
		if (!svg)
			return;
		setExportError(null);
		const canvas = canvasRef.current;
		const done = kind === 'svg' ? Promise.resolve(downloadSvg(svg, canvas, fileBase)) : downloadPng(svg, canvas, fileBase);
		done.catch((error: Error) => setExportError(error.message));
	};

	return (
		<div ref={box} className={`pl-chart-box${fill ? ' pl-chart-fill' : ''}`}>
			<figure className="pl-chart" data-testid={`chart-${spec.id}`} style={fill ? undefined : { width }}>
				<div ref={room} className="pl-chart-room">
					<div className="pl-chart-drawing" style={{ position: 'relative', width, height }}>
						<svg
							ref={svgRef}
							xmlns="http://www.w3.org/2000/svg"
							width={width}
							height={height}
							viewBox={`0 0 ${width} ${height}`}
							role="img"
							aria-label={spec.title}
							style={{ position: 'relative', display: 'block' }}
						>
							<rect width={width} height={height} fill="#ffffff" />
							<text x={margin.left} y={titleSize * 1.2} fontFamily={FONT} fontSize={titleSize} fontWeight="bold" fill={INK}>
								{spec.title}
							</text>
							<Legend series={spec.series} layout={layout} />
							<g transform={`translate(${margin.left},${margin.top})`}>
								<Axes spec={spec} layout={layout} />
								<Guides spec={spec} layout={layout} />
								{usesCanvas && <rect data-canvas-slot x={0} y={0} width={plot.width} height={plot.height} fill="none" />}
								{spec.series.map((series, i) =>
									layout.paths[i] ? (
										<path
											key={series.id}
											fill="none"
											d={layout.paths[i]}
											stroke={layout.styles[i].colour}
											strokeWidth={strokeWidth}
											strokeDasharray={layout.styles[i].dash || undefined}
											strokeLinejoin="round"
										/>
									) : null,
								)}
								{spec.series.map((series, i) =>
									hasDots(series) ? <Dots key={series.id} spec={spec} series={series} index={i} layout={layout} /> : null,
								)}
								<Markers spec={spec} layout={layout} />
							</g>
						</svg>
						{/* Over the SVG's grid, under nothing: the points are the content. */}
						{usesCanvas && (
							<canvas
								ref={canvasRef}
								style={{
									position: 'absolute',
									left: margin.left,
									top: margin.top,
									width: plot.width,
									height: plot.height,
									pointerEvents: 'none',
								}}
							/>
						)}
					</div>
				</div>
				<figcaption className="pl-chart-caption">
					{caption}
					<span className="pl-chart-exports">
						<button type="button" data-testid={`export-svg-${spec.id}`} onClick={() => exportAs('svg')}>
							Export SVG
						</button>
						<button type="button" data-testid={`export-png-${spec.id}`} onClick={() => exportAs('png')}>
							Export PNG
						</button>
					</span>
					{exportError && <span role="alert">{exportError}</span>}
				</figcaption>
			</figure>
		</div>
	);
}

/* Progress reports re-render the views many times a second; a chart redraws only when its props change. */
export const Chart = memo(ChartDrawing);
