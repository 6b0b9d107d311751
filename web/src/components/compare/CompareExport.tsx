/*
 * CompareExport.tsx - the comparison saved as files (model/compareExport.ts):
 * CSV (a row per step), JSON (settings, totals, every result), and the strips
 * around the current step as SVG or PNG.  A long CSV is built in pieces with
 * a pause for the page between them, so a 1M-step export never freezes it.
 *
 * Test ids: compare-export-csv, compare-export-json, compare-export-svg,
 * compare-export-png.
 */
import { useState } from 'react';
import { stripWindow } from '../../model/compare';
import { comparisonJson, csvChunks, stripsSvg, type ExportedRun } from '../../model/compareExport';
import { download, downloadSvgAsPng } from '../charts/exportChart';
import type { Comparison } from './comparison';

/* Cells in the exported figure: a slide's width of steps around the current one. */
const FIGURE_CELLS = 40;

interface Props {
	comparison: Comparison;
	step: number;
	divergence: number | null;
	onError: (message: string) => void;
}

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function CompareExport({ comparison, step, divergence, onError }: Props) {
	const [busy, setBusy] = useState(false);
	const runs: ExportedRun[] = comparison.runs.map((run) => ({
		label: run.label,
		policy: run.policy,
		frames: run.entry.frames,
		params: run.entry.params,
		outcome: run.outcome,
	}));
	const { pages } = comparison.trace;
	const base = `pagelab-compare-${comparison.runs.map((r) => r.policy).join('-')}`;
	const figure = () => stripsSvg(pages, runs, stripWindow(pages.ids.length, step, FIGURE_CELLS), step, divergence);
	const run = (what: () => Promise<void> | void) => async () => {
		setBusy(true);
		try {
			await what();
		} catch (e) {
			const message = (e as Error).message;
			onError(message.startsWith('export:') ? message : `export: ${message}`);
		} finally {
			setBusy(false);
		}
	};
	const csv = async () => {
		const parts: string[] = [];
		for (const chunk of csvChunks(pages, runs)) {
			parts.push(chunk);
			await yieldToPage();
		}
		download(new Blob(parts, { type: 'text/csv' }), `${base}.csv`);
	};
	return (
		<div className="pl-compare-export" role="group" aria-label="export the comparison">
			<span>Export</span>
			<button type="button" data-testid="compare-export-csv" disabled={busy} onClick={run(csv)} title="a row per step: each run's hit or fault and faults so far">
				CSV
			</button>
			<button
				type="button"
				data-testid="compare-export-json"
				disabled={busy}
				onClick={run(() => download(new Blob([comparisonJson(pages, runs, step, divergence)], { type: 'application/json' }), `${base}.json`))}
				title="each run's settings, totals and results"
			>
				JSON
			</button>
			<button
				type="button"
				data-testid="compare-export-svg"
				disabled={busy}
				onClick={run(() => download(new Blob([figure().markup], { type: 'image/svg+xml' }), `${base}-step${step}.svg`))}
				title="the strips around this step, as a figure"
			>
				SVG
			</button>
			<button
				type="button"
				data-testid="compare-export-png"
				disabled={busy}
				onClick={run(() => {
					const { markup, width, height } = figure();
					return downloadSvgAsPng(markup, width, height, `${base}-step${step}.png`);
				})}
				title="the strips around this step, as an image"
			>
				PNG
			</button>
		</div>
	);
}
