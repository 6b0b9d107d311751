/*
 * The charts: cumulative faults over time, and faults against the number of
 * frames, where Belady's anomaly shows: FIFO on 1 2 3 4 1 2 5 1 2 3 4 5 faults
 * 9 times with 3 frames and 10 times with 4.  Each chart exports as SVG and PNG.
 */
import { readFile } from 'node:fs/promises';
import { test, expect } from '../lib/fixtures.mjs';

const BELADY = '1 2 3 4 1 2 5 1 2 3 4 5';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function framePoint(lab, frames) {
	const point = lab.byTestId('chart-frames').locator(`[data-testid="chart-point"][data-policy="fifo"][data-frames="${frames}"]`);
	await expect(point).toHaveCount(1);
	return Number(await point.getAttribute('data-faults'));
}

async function download(lab, buttonId) {
	const [file] = await Promise.all([
		lab.page.waitForEvent('download'),
		lab.byTestId(buttonId).click(),
	]);
	return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

test.describe('charts of FIFO on Belady\'s string', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'fifo', frames: 3, refs: BELADY });
		await lab.byTestId('tab-charts').click();
		await expect(lab.byTestId('chart-cumulative').locator('svg path').first()).toBeVisible();
	});

	test('faults against frames shows Belady\'s anomaly: 9 faults with 3 frames, 10 with 4', async ({ lab }) => {
		expect(await framePoint(lab, 3)).toBe(9);
		expect(await framePoint(lab, 4)).toBe(10);
		await lab.screenshot('charts');
	});

	for (const chart of ['cumulative', 'frames']) {
		test(`the ${chart} chart exports as an SVG document with its drawing`, async ({ lab }) => {
			const { name, bytes } = await download(lab, `export-svg-${chart}`);
			expect(name).toMatch(/\.svg$/);
			const svg = bytes.toString('utf8');
			expect(svg).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s>]/);
			expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
			expect(svg).toMatch(/<path[^>]+d="M/);
		});

		test(`the ${chart} chart exports as a PNG image`, async ({ lab }) => {
			const { name, bytes } = await download(lab, `export-png-${chart}`);
			expect(name).toMatch(/\.png$/);
			expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
			expect(bytes.length).toBeGreaterThan(1000);
		});
	}
});
