/*
 * exportChart.ts - a rendered chart as a standalone SVG file or a PNG image.
 *
 * Interface
 *   chartSvgMarkup(svg, canvas)  the chart as an SVG document (string)
 *   downloadSvg(svg, canvas, fileBase)
 *   downloadPng(svg, canvas, fileBase, pixelRatio)
 *   download(blob, fileName)      saves any blob (the compare view's exports too)
 *   downloadSvgAsPng(markup, width, height, fileName, pixelRatio)
 *                                 an SVG document rasterised over white and saved as PNG
 *
 * Invariants
 *   - The chart draws with presentation attributes only (no CSS classes),
 *     so the serialized SVG looks the same in a slide, an editor or a
 *     browser as it does on the page.
 *   - A chart's canvas layer (dense point clouds) is embedded in the SVG as
 *     an <image> at the place marked by the element with
 *     data-canvas-slot, so the export holds everything the page shows.
 *   - Test ids and other data-* attributes are stripped from the export.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

function stripDataAttributes(root: Element): void {
	for (const element of [root, ...root.querySelectorAll('*')])
		for (const name of element.getAttributeNames())
			if (name.startsWith('data-'))
				element.removeAttribute(name);
}

/** The chart as a complete SVG document. */
export function chartSvgMarkup(svg: SVGSVGElement, canvas: HTMLCanvasElement | null): string {
	const copy = svg.cloneNode(true) as SVGSVGElement;
	copy.setAttribute('xmlns', SVG_NS);
	copy.setAttribute('xmlns:xlink', XLINK_NS);
	const slot = copy.querySelector('[data-canvas-slot]');
	if (slot && canvas) {
		const image = document.createElementNS(SVG_NS, 'image');
		for (const name of ['x', 'y', 'width', 'height'])
			image.setAttribute(name, slot.getAttribute(name) ?? '0');
		image.setAttribute('href', canvas.toDataURL('image/png'));
		slot.replaceWith(image);
	}
	stripDataAttributes(copy);
	return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
}

export function download(blob: Blob, fileName: string): void {
	const url = URL.createObjectURL(blob);
	const link = document.createElement('a');
	link.href = url;
	link.download = fileName;
	document.body.append(link);
	link.click();
	link.remove();
	/* The browser has taken the blob once the click is handled. */
	setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadSvg(svg: SVGSVGElement, canvas: HTMLCanvasElement | null, fileBase: string): void {
	const markup = chartSvgMarkup(svg, canvas);
	download(new Blob([markup], { type: 'image/svg+xml' }), `${fileBase}.svg`);
}

function loadImage(url: string): Promise<HTMLImageElement> {
	return new Promise((resolve, reject) => {
		const image = new Image();
		image.onload = () => resolve(image);
		image.onerror = () => reject(new Error('export: the browser could not draw the chart as an image'));
		image.src = url;
	});
}

/** The chart as a PNG, `pixelRatio` times its size on the page. */
export async function downloadPng(
	svg: SVGSVGElement,
	canvas: HTMLCanvasElement | null,
	fileBase: string,
	pixelRatio = 2,
): Promise<void> {
	const width = Number(svg.getAttribute('width'));
	const height = Number(svg.getAttribute('height'));
	await downloadSvgAsPng(chartSvgMarkup(svg, canvas), width, height, `${fileBase}.png`, pixelRatio);
}

/**
 * Draws an SVG document onto a canvas `pixelRatio` times its size (sharp on a
 * projector or a slide) over white, and saves it as PNG.
 */
export async function downloadSvgAsPng(markup: string, width: number, height: number, fileName: string, pixelRatio = 2): Promise<void> {
	const image = await loadImage('data:image/svg+xml;charset=utf-8,' + encodeURIComponent(markup));
	const raster = document.createElement('canvas');
	raster.width = Math.round(width * pixelRatio);
	raster.height = Math.round(height * pixelRatio);
	const context = raster.getContext('2d');
	if (!context)
		throw new Error('export: this browser gives no 2D canvas to draw the PNG on');
	context.fillStyle = '#ffffff';
	context.fillRect(0, 0, raster.width, raster.height);
	context.drawImage(image, 0, 0, raster.width, raster.height);
	const blob = await new Promise<Blob | null>((resolve) => raster.toBlob(resolve, 'image/png'));
	if (!blob)
		throw new Error('export: the browser could not encode the PNG');
	download(blob, fileName);
}
