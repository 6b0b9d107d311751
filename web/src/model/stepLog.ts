/*
 * stepLog.ts - the steps of a run up to the current one as CSV, for a
 * lecture's notes or a lab report: one row per reference with its page,
 * hit or fault, the pages it evicted, the narration and, in predict mode,
 * the class's prediction and whether it was right.
 *
 * Fields are quoted as RFC 4180 says (quotes doubled), and a field a
 * spreadsheet would run as a formula (=, +, -, @ first) is prefixed with
 * an apostrophe.
 */
import type { PageNumber } from '../wasm/protocol';
import { narrate } from './narration';
import type { Run } from './run';

export interface LoggedPrediction {
	step: number;
	prediction: { hit: boolean; victim: PageNumber | null };
	correct: boolean;
}

function field(value: string | number): string {
	let text = String(value);
	if (/^[=+\-@]/.test(text)) text = `'${text}`;
	return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function stepLogCsv(run: Run, upTo: number, predictions: LoggedPrediction[]): string {
	const { timeline } = run;
	const byStep = new Map(predictions.map((p) => [p.step, p]));
	const rows = [['step', 'page', 'result', 'evicted', 'narration', 'prediction', 'correct']];
	for (let k = 1; k <= Math.min(upTo, timeline.steps); k++) {
		const events = timeline.log.eventsOfStep(k);
		const evicted = events.filter((e) => e.kind === 'evict').map((e) => e.page);
		const resident = timeline.column(k - 1).rows.filter((p) => p !== null).length;
		const said = narrate(run.policy, events, {
			resident,
			write: run.result.trace.writes[k - 1] === 1,
			fieldMax: run.fieldMax,
			nextUse: (page) => timeline.nextUse(page, k),
		});
		const guess = byStep.get(k);
		const prediction = guess ? (guess.prediction.hit ? 'hit' : `fault${guess.prediction.victim !== null ? `, evicts ${guess.prediction.victim}` : ''}`) : '';
		rows.push([
			String(k),
			String(timeline.reference(k)),
			timeline.outcome[k - 1] ? 'hit' : 'fault',
			evicted.join(' '),
			said,
			prediction,
			guess ? (guess.correct ? 'yes' : 'no') : '',
		]);
	}
	return rows.map((row) => row.map(field).join(',')).join('\n') + '\n';
}
