/*
 * Long traces are simulated in the worker: the page shows `progress` while it
 * works, and then the whole trace is there.  Whether the progress line is seen
 * must not depend on how fast this machine is, so a MutationObserver installed
 * before the upload records whether it was ever in the DOM, instead of polling
 * for it.  (How long the main thread stalls meanwhile is a figure for the
 * benchmark, e2e/bench/browser-bench.mjs, not a timed assertion here.)
 * Likewise, what is typed "while a run simulates" must be typed before that
 * run lands however fast the worker is: gateRunsThatReportProgress() keeps a
 * run's final reply from the page until the test releases it.
 */
import { writeFile } from 'node:fs/promises';
import { test, expect } from '../lib/fixtures.mjs';
import { PageLab } from '../lib/pagelab.mjs';

const REFERENCES = 1_000_000;

function loopTrace(references, pages) {
	const lines = new Array(references);
	for (let i = 0; i < references; i++)
		lines[i] = String(i % pages);
	return lines.join('\n') + '\n';
}

function watchForProgress() {
	window.__progressSeen = false;
	const seen = () => document.querySelector('[data-testid="progress"]') !== null;
	new MutationObserver(() => {
		window.__progressSeen ||= seen();
	}).observe(document.body, { subtree: true, childList: true });
}

/*
 * Installed before the page loads.  After window.__holdRuns(), the page's
 * worker still delivers progress as it comes, but the final reply of a call
 * that has reported progress waits until window.__releaseRuns() delivers it,
 * so the page stays mid-run until then.
 */
function gateRunsThatReportProgress() {
	const PageWorker = window.Worker;
	const held = [];
	let holding = false;
	window.__holdRuns = () => {
		holding = true;
	};
	window.__releaseRuns = () => {
		holding = false;
		for (const deliver of held.splice(0))
			deliver();
	};
	window.Worker = class extends PageWorker {
		addEventListener(type, listener, options) {
			if (type !== 'message')
				return super.addEventListener(type, listener, options);
			const progressed = new Set();
			return super.addEventListener(type, (event) => {
				const reply = event.data;
				if ('progress' in reply)
					progressed.add(reply.id);
				else if (holding && progressed.has(reply.id))
					return held.push(() => listener.call(this, event));
				listener.call(this, event);
			}, options);
		}
	};
}

test('a 1M-reference file shows progress while the worker simulates, then statistics over the whole trace', async ({ lab, page }, testInfo) => {
	test.setTimeout(240_000);
	await lab.setScenario({ policy: 'lru', frames: 100, refs: '1 2 3' });
	await page.evaluate(watchForProgress);
	/* From disk: a buffer this size would be decoded by a script in the page first. */
	const file = testInfo.outputPath('loop-1m.txt');
	await writeFile(file, loopTrace(REFERENCES, 101));
	await lab.byTestId('trace-upload').setInputFiles(file);
	await expect(lab.byTestId('step-counter')).not.toHaveText(/ \/ 3$/, { timeout: 120_000 });
	await expect(lab.byTestId('progress')).toBeHidden({ timeout: 120_000 });
	expect(await page.evaluate(() => window.__progressSeen), 'progress appeared during the run').toBe(true);
	/* A loop one page larger than memory makes LRU fault on every reference. */
	await expect(lab.byTestId('stat-whole')).toHaveText(/1[ ,.]?000[ ,.]?000 faults \/ 1[ ,.]?000[ ,.]?000 refs/);
	await lab.stepForward();
	expect((await lab.gridColumn(1, 1)).result).toBe('F');
});

test('what is typed while a long trace simulates is still there when its run lands', async ({ page }, testInfo) => {
	test.setTimeout(120_000);
	await page.addInitScript(gateRunsThatReportProgress);
	const lab = new PageLab(page);
	await lab.open();
	await lab.setScenario({ policy: 'lru', frames: 100, refs: '1 2 3' });
	const file = testInfo.outputPath('loop-300k.txt');
	await writeFile(file, loopTrace(300_000, 101));
	await page.evaluate(() => window.__holdRuns());
	await lab.byTestId('trace-upload').setInputFiles(file);
	await expect(lab.byTestId('progress')).toBeVisible({ timeout: 100_000 });
	await lab.byTestId('refs-input').fill('5 6 7');
	await lab.byTestId('frames-input').fill('4');
	await expect(lab.byTestId('stat-whole'), 'the run has not landed before the edits').not.toHaveText(/ \/ 300[ ,.]?000 refs/);
	await page.evaluate(() => window.__releaseRuns());
	await expect(lab.byTestId('stat-whole')).toHaveText(/ \/ 300[ ,.]?000 refs/, { timeout: 100_000 });
	await expect(lab.byTestId('refs-input')).toHaveValue('5 6 7');
	await expect(lab.byTestId('frames-input')).toHaveValue('4');
});
