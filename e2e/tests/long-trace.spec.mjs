/*
 * Long traces are simulated in the worker: the page shows `progress` while it
 * works, and then the whole trace is there.  Whether the progress line is seen
 * must not depend on how fast this machine is, so a MutationObserver installed
 * before the upload records whether it was ever in the DOM, instead of polling
 * for it.  (How long the main thread stalls meanwhile is a figure for the
 * benchmark, e2e/bench/browser-bench.mjs, not a timed assertion here.)
 */
import { writeFile } from 'node:fs/promises';
import { test, expect } from '../lib/fixtures.mjs';

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

test('what is typed while a long trace simulates is still there when its run lands', async ({ lab, page }, testInfo) => {
	test.setTimeout(120_000);
	await lab.setScenario({ policy: 'lru', frames: 100, refs: '1 2 3' });
	const file = testInfo.outputPath('loop-300k.txt');
	await writeFile(file, loopTrace(300_000, 101));
	await lab.byTestId('trace-upload').setInputFiles(file);
	await expect(lab.byTestId('progress')).toBeVisible();
	await lab.byTestId('refs-input').fill('5 6 7');
	await lab.byTestId('frames-input').fill('4');
	await expect(lab.byTestId('stat-whole')).toHaveText(/ \/ 300[ ,.]?000 refs/, { timeout: 100_000 });
	await expect(lab.byTestId('refs-input')).toHaveValue('5 6 7');
	await expect(lab.byTestId('frames-input')).toHaveValue('4');
});
