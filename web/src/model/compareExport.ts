/*
 * compareExport.ts - a comparison as files: CSV (one row per step), JSON
 * (the runs, their settings, totals and every step's result) and an SVG
 * figure of the strips around a step (which the page rasterises for PNG).
 * Pure TypeScript: strings in, strings out, nothing drawn on the page.
 *
 * Interface
 *   ExportedRun                      { label, policy, frames, params, outcome }
 *   csvChunks(pages, runs, rows)     the CSV in pieces of `rows` steps, so a
 *                                    1M-step export can yield to the page between pieces
 *   comparisonJson(pages, runs, at)  the JSON document (a string)
 *   stripsSvg(pages, runs, window, current, divergence)
 *                                    { markup, width, height }
 *
 * Invariants
 *   - Step k (1-based) is reference k-1; "faults" columns count faults in
 *     steps 1..k, so the last row's equal each run's total.
 *   - Text in SVG is escaped; labels come from policy names and numbers only,
 *     but a figure must stay well-formed whatever a label holds.
 */
import { pageAt, type PageSequence, type ParamValues } from '../wasm/protocol';
import type { StripWindow } from './compare';

export interface ExportedRun {
	label: string;
	policy: string;
	frames: number;
	params: ParamValues;
	/** outcome[i] = 1: reference i hit. */
	outcome: Uint8Array;
}

const csvField = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** The CSV: step, page, then per run its result (H/F) and faults so far. */
export function* csvChunks(pages: PageSequence, runs: ExportedRun[], rows = 65_536): Generator<string> {
	yield ['step', 'page', ...runs.flatMap((r) => [`${r.label} result`, `${r.label} faults`])].map(csvField).join(',') + '\n';
	const faults = runs.map(() => 0);
	const references = pages.ids.length;
	for (let first = 0; first < references; first += rows) {
		const lines: string[] = [];
		for (let i = first; i < Math.min(references, first + rows); i++) {
			let line = `${i + 1},${pageAt(pages, i)}`;
			runs.forEach((run, r) => {
				const hit = run.outcome[i] === 1;
				if (!hit) faults[r]++;
				line += `,${hit ? 'H' : 'F'},${faults[r]}`;
			});
			lines.push(line);
		}
		yield lines.join('\n') + '\n';
	}
}

function faultsOf(outcome: Uint8Array): number {
	let faults = 0;
	for (let i = 0; i < outcome.length; i++) if (!outcome[i]) faults++;
	return faults;
}

function resultString(outcome: Uint8Array): string {
	const chunks: string[] = [];
	for (let first = 0; first < outcome.length; first += 65_536)
		chunks.push(String.fromCharCode(...Array.from(outcome.subarray(first, first + 65_536), (o) => (o ? 72 : 70))));
	return chunks.join('');
}

/** The comparison as a JSON document: settings, totals and each run's results as a string of H and F. */
export function comparisonJson(pages: PageSequence, runs: ExportedRun[], step: number, firstDivergence: number | null): string {
	return JSON.stringify(
		{
			pagelab: 'compare',
			references: pages.ids.length,
			step,
			firstDivergence,
			runs: runs.map((run) => {
				const faults = faultsOf(run.outcome);
				return {
					label: run.label,
					policy: run.policy,
					frames: run.frames,
					params: run.params,
					faults,
					hits: run.outcome.length - faults,
					faultRate: run.outcome.length ? faults / run.outcome.length : 0,
					results: resultString(run.outcome),
				};
			}),
		},
		null,
		1,
	);
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

const FONT = 14;
const ROW = 26;
const PAD = 12;
const CHAR = 0.62 * FONT;
const COLOURS = { H: '#e3f5e8', F: '#fde8e6', Hink: '#1b7f3b', Fink: '#c0392b', line: '#9aa3b2', ink: '#1d2330', current: '#2457c5' };

/**
 * The strips of `window` as an SVG figure: the references, then one row of
 * H/F cells per run with its faults so far and in all; the current step
 * outlined, the first divergence marked with ▼.
 */
export function stripsSvg(
	pages: PageSequence,
	runs: ExportedRun[],
	window: StripWindow,
	current: number,
	divergence: number | null,
): { markup: string; width: number; height: number } {
	const faultsUpTo = (outcome: Uint8Array, step: number) => faultsOf(outcome.subarray(0, step));
	const labels = ['reference', ...runs.map((r) => `${r.label}  ${faultsUpTo(r.outcome, current)} / ${faultsOf(r.outcome)} faults`)];
	const labelWidth = Math.ceil(Math.max(...labels.map((l) => l.length)) * CHAR) + PAD;
	let widest = 1;
	for (let s = window.first; s <= window.last; s++) widest = Math.max(widest, String(pageAt(pages, s - 1)).length);
	const cell = Math.max(ROW, Math.ceil(widest * CHAR) + 8);
	const cells = window.last - window.first + 1;
	const width = PAD * 2 + labelWidth + cells * cell;
	const top = PAD + FONT + 10;
	const height = top + ROW * (runs.length + 1) + PAD + FONT;
	const parts: string[] = [];
	const text = (x: number, y: number, content: string, attrs = '', fill = COLOURS.ink) =>
		parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Sans, sans-serif" font-size="${FONT}" fill="${fill}"${attrs}>${escapeXml(content)}</text>`);
	text(PAD, PAD + FONT, `steps ${window.first}–${window.last} of ${pages.ids.length}, at step ${current}`);
	labels.forEach((label, row) => text(PAD, top + row * ROW + ROW * 0.65, label, row === 0 ? '' : ' font-weight="bold"'));
	for (let s = window.first; s <= window.last; s++) {
		const x = PAD + labelWidth + (s - window.first) * cell;
		const centre = x + cell / 2;
		parts.push(`<rect x="${x}" y="${top}" width="${cell}" height="${ROW}" fill="#ffffff" stroke="${COLOURS.line}"/>`);
		text(centre, top + ROW * 0.68, String(pageAt(pages, s - 1)), ' text-anchor="middle"');
		runs.forEach((run, r) => {
			const result = run.outcome[s - 1] ? 'H' : 'F';
			const y = top + (r + 1) * ROW;
			parts.push(`<rect x="${x}" y="${y}" width="${cell}" height="${ROW}" fill="${COLOURS[result]}" stroke="${COLOURS.line}"/>`);
			text(centre, y + ROW * 0.68, result, ' text-anchor="middle" font-weight="bold"', COLOURS[`${result}ink`]);
		});
		if (s === current)
			parts.push(`<rect x="${x}" y="${top}" width="${cell}" height="${ROW * (runs.length + 1)}" fill="none" stroke="${COLOURS.current}" stroke-width="3"/>`);
		if (s === divergence) text(centre, top - 2, '▼', ' text-anchor="middle"', COLOURS.Fink);
	}
	text(PAD, height - PAD / 2, 'H hit   F fault   ▼ first divergence   outlined: the current step');
	const markup =
		'<?xml version="1.0" encoding="UTF-8"?>\n' +
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
		`<rect width="${width}" height="${height}" fill="#ffffff"/>${parts.join('')}</svg>`;
	return { markup, width, height };
}
