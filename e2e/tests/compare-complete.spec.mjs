/*
 * The compare view, complete: one policy against itself at two frame counts
 * (FIFO on Belady's string faults 9 times with 3 frames and 10 with 4), or
 * with two parameter sets; every run's parameters shown and editable, bad
 * values refused in the CLI's words; the runs in the link; and the
 * comparison exported as CSV, JSON, SVG and PNG whose numbers are the runs'.
 */
import { readFile } from 'node:fs/promises';
import { test, expect } from '../lib/fixtures.mjs';

const BELADY = '1 2 3 4 1 2 5 1 2 3 4 5';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function setFrames(lab, index, frames) {
	const field = lab.byTestId(`compare-frames-${index}`);
	await field.fill(String(frames));
	await field.press('Enter');
}

async function download(lab, id) {
	const [file] = await Promise.all([lab.page.waitForEvent('download'), lab.byTestId(id).click()]);
	return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

test.describe('FIFO against itself on Belady\'s string', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'fifo', frames: 3, refs: BELADY });
		await lab.byTestId('tab-compare').click();
		await lab.byTestId('compare-policy-1').selectOption('fifo');
		await setFrames(lab, 1, 4);
		await expect(lab.byTestId('compare-strip-0').locator('..')).toContainText('FIFO 4 frames');
	});

	test('at 3 and 4 frames: 9 and 10 faults (Belady\'s anomaly), each run labelled by its frames', async ({ lab, page }) => {
		await lab.byTestId('compare-scrub').fill('12');
		await expect(lab.byTestId('compare-faults-0')).toHaveText('9 faults');
		await expect(lab.byTestId('compare-faults-1')).toHaveText('10 faults');
		await expect(lab.byTestId('compare-strip-0').locator('..')).toContainText('FIFO 3 frames');
		await expect(lab.byTestId('compare-column-1').locator('[data-testid="compare-page"]')).toHaveCount(4);
		await expect(lab.byTestId('compare-column-0').locator('[data-testid="compare-page"]')).toHaveCount(3);
		/* The link keeps both runs: reopened, it compares the same two. */
		await expect.poll(() => page.evaluate(() => window.location.hash)).toContain('#');
		const link = page.url();
		const reopened = await page.context().newPage();
		await reopened.goto(link);
		await expect(reopened.getByTestId('compare-frames-1')).toHaveValue('4', { timeout: 30_000 });
		await expect(reopened.getByTestId('compare-policy-1')).toHaveValue('fifo');
		await reopened.close();
	});

	test('exports as CSV and JSON with the runs\' own numbers, and as SVG and PNG figures', async ({ lab }) => {
		const csv = await download(lab, 'compare-export-csv');
		expect(csv.name).toMatch(/\.csv$/);
		const rows = csv.bytes.toString('utf8').trim().split('\n');
		expect(rows[0]).toBe('step,page,FIFO 3 frames result,FIFO 3 frames faults,FIFO 4 frames result,FIFO 4 frames faults');
		expect(rows).toHaveLength(13);
		expect(rows[12]).toBe('12,5,H,9,F,10');

		const json = JSON.parse((await download(lab, 'compare-export-json')).bytes.toString('utf8'));
		expect(json.runs.map((r) => [r.frames, r.faults])).toEqual([[3, 9], [4, 10]]);

		const svg = await download(lab, 'compare-export-svg');
		expect(svg.name).toMatch(/\.svg$/);
		expect(svg.bytes.toString('utf8')).toContain('<svg');
		expect(svg.bytes.toString('utf8')).toContain('FIFO 4 frames');

		const png = await download(lab, 'compare-export-png');
		expect(png.name).toMatch(/\.png$/);
		expect(png.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
	});
});

test('every run shows all its parameters; SRRIP with 1 and 3 RRPV bits; a bad value is refused in the CLI\'s words', async ({ lab }) => {
	await lab.setScenario({ policy: 'srrip', frames: 4, refs: '1 2 2 1 11 12 13 14 1 2 11 12 1 2' });
	await lab.byTestId('tab-compare').click();
	await lab.byTestId('compare-policy-1').selectOption('srrip');
	await expect(lab.byTestId('compare-param-0-rrpv_bits')).toHaveValue(/\d/);
	await lab.byTestId('compare-param-0-rrpv_bits').fill('1');
	await lab.byTestId('compare-param-0-rrpv_bits').press('Enter');
	await lab.byTestId('compare-param-1-rrpv_bits').fill('3');
	await lab.byTestId('compare-param-1-rrpv_bits').press('Enter');
	await expect(lab.byTestId('compare-strip-0').locator('..')).toContainText('SRRIP rrpv_bits=1');
	await expect(lab.byTestId('compare-strip-0').locator('..')).toContainText('SRRIP rrpv_bits=3');

	await lab.byTestId('compare-param-1-rrpv_bits').fill('99');
	await lab.byTestId('compare-param-1-rrpv_bits').press('Enter');
	await expect(lab.byTestId('compare-error')).toHaveText(/^srrip: '99' is not a valid value for rrpv_bits: expected an integer from 1 to \d+$/);
	await expect(lab.byTestId('compare-param-1-rrpv_bits')).toHaveAttribute('aria-invalid', 'true');
	/* The run keeps its last good value. */
	await expect(lab.byTestId('compare-strip-0').locator('..')).toContainText('SRRIP rrpv_bits=3');

	/* A policy with a choice parameter shows it too (no silent default). */
	await lab.byTestId('compare-policy-1').selectOption('clock');
	await expect(lab.byTestId('compare-param-1-ref_on_load')).toBeVisible();
});
