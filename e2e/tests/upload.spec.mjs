/*
 * Trace files chosen with `trace-upload`.  A bad file must never cost the
 * lecturer the scenario on screen: the page names the file, the line and the
 * offending token, and the previous scenario (form, step, grid, structure)
 * stays exactly as it was.  A good file replaces the scenario (the positive
 * control: without it, an upload that does nothing would pass the bad-file tests).
 */
import { test, expect } from '../lib/fixtures.mjs';

const SILBERSCHATZ = '7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1';

function textFile(name, text) {
	return { name, mimeType: 'text/plain', buffer: Buffer.from(text) };
}

test.describe('uploading a trace file', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 3, refs: SILBERSCHATZ });
		await lab.goToStep(5);
	});

	test('a well-formed file replaces the scenario with its references', async ({ lab }) => {
		await lab.byTestId('trace-upload').setInputFiles(textFile('good-trace.txt', '# four references\n1\n2\n\n3\n0x1\n'));
		await lab.waitForStep(0, 4);
		await expect(lab.byTestId('scenario-error')).toBeHidden();
		await lab.goToStep(4);
		expect(await lab.gridColumn(4, 3)).toEqual({ pages: ['1', '2', '3'], result: 'H' });
	});

	test('a file with a bad token on line 3 names the file, the line and the token, and the previous scenario survives', async ({ lab }) => {
		const before = await lab.stepViewDigest();
		await lab.byTestId('trace-upload').setInputFiles(textFile('bad-trace.txt', '1\n2\nx17\n4\n'));
		const error = lab.byTestId('scenario-error');
		await expect(error).toBeVisible();
		await expect(error).toContainText('bad-trace.txt');
		await expect(error).toContainText(/\b3\b/);
		await expect(error).toContainText('x17');
		await lab.waitForStep(5, 20);
		expect(await lab.stepViewDigest()).toEqual(before);
		await expect(lab.byTestId('policy-select')).toHaveValue('lru');
		await expect(lab.byTestId('refs-input')).toHaveValue(SILBERSCHATZ);
		await lab.stepForward();
		expect((await lab.gridColumn(6, 3)).result, 'LRU faults on reference 6 (page 3)').toBe('F');
	});

	test('a binary file gets a clear error and the previous scenario survives', async ({ lab }) => {
		const before = await lab.stepViewDigest();
		const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xff, 0xfe]);
		await lab.byTestId('trace-upload').setInputFiles({ name: 'picture.png', mimeType: 'image/png', buffer: binary });
		const error = lab.byTestId('scenario-error');
		await expect(error).toBeVisible();
		await expect(error).toContainText('picture.png');
		await lab.waitForStep(5, 20);
		expect(await lab.stepViewDigest()).toEqual(before);
	});

	test('after a bad file, the error goes away once a good scenario is applied', async ({ lab }) => {
		await lab.byTestId('trace-upload').setInputFiles(textFile('bad-trace.txt', '1\nnot-a-page\n'));
		await expect(lab.byTestId('scenario-error')).toBeVisible();
		await lab.setScenario({ refs: '1 2 3' });
		await expect(lab.byTestId('scenario-error')).toBeHidden();
	});
});

test.describe('typing a bad scenario', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 3, refs: SILBERSCHATZ });
		await lab.goToStep(5);
	});

	test('a bad token in the reference string is named, and the previous scenario survives', async ({ lab }) => {
		const before = await lab.stepViewDigest();
		await lab.byTestId('refs-input').fill('1 2 x3 4');
		await lab.byTestId('apply-scenario').click();
		await expect(lab.byTestId('scenario-error')).toContainText('x3');
		await lab.waitForStep(5, 20);
		expect(await lab.stepViewDigest()).toEqual(before);
	});

	test('a frame count beyond what the page simulates is refused with an error that names the frames, and the previous scenario survives', async ({ lab }) => {
		const before = await lab.stepViewDigest();
		await lab.byTestId('frames-input').fill('999999999999');
		await lab.byTestId('apply-scenario').click();
		await expect(lab.byTestId('scenario-error')).toContainText(/frames/i);
		await expect(lab.byTestId('scenario-error')).toContainText('999999999999');
		await lab.waitForStep(5, 20);
		expect(await lab.stepViewDigest()).toEqual(before);
	});

	test('zero frames cannot be applied: the page says why in the CLI\'s words (no browser popup), and the previous scenario survives', async ({ lab }) => {
		const before = await lab.stepViewDigest();
		await lab.byTestId('frames-input').fill('0');
		await lab.byTestId('apply-scenario').click();
		await expect(lab.byTestId('scenario-error')).toHaveText("frames: '0' is not a number of frames (1 .. 4096)");
		await expect(lab.byTestId('frames-input')).toHaveAttribute('aria-invalid', 'true');
		expect(await lab.byTestId('frames-input').evaluate((input) => input.validationMessage), 'no browser popup').toBe('');
		await lab.waitForStep(5, 20);
		expect(await lab.stepViewDigest()).toEqual(before);
	});
});
