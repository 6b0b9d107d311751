/*
 * Bad input in the form is refused in the page, in the CLI's words (the
 * vitest suite checks the words against the native CLI), with the field
 * marked invalid and no browser popup; the scenario on screen stays.  A
 * reference string or file with no references is refused, never run as an
 * empty trace.
 */
import { test, expect } from '../lib/fixtures.mjs';

const SILBERSCHATZ = '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1';

test.describe('the scenario form refuses bad input', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 3, refs: SILBERSCHATZ });
		await lab.goToStep(4);
	});

	for (const frames of ['0', '-3', '2.5', 'many'])
		test(`frames '${frames}': the CLI's sentence, the field marked, the scenario kept`, async ({ lab, page }) => {
			let dialog = false;
			page.on('dialog', () => (dialog = true));
			await lab.byTestId('frames-input').fill(frames);
			await lab.byTestId('apply-scenario').click();
			await expect(lab.byTestId('scenario-error')).toHaveText(`frames: '${frames}' is not a number of frames (1 .. 4096)`);
			await expect(lab.byTestId('frames-input')).toHaveAttribute('aria-invalid', 'true');
			await lab.waitForStep(4, 20);
			expect(dialog).toBe(false);
			/* Editing the field clears the mark. */
			await lab.byTestId('frames-input').fill('4');
			await expect(lab.byTestId('frames-input')).toHaveAttribute('aria-invalid', 'false');
		});

	test('a parameter out of range is named with its range, as the CLI names it', async ({ lab }) => {
		await lab.byTestId('policy-select').selectOption('srrip');
		await lab.byTestId('param-rrpv_bits').fill('9');
		await lab.byTestId('apply-scenario').click();
		await expect(lab.byTestId('scenario-error')).toHaveText(/^srrip: '9' is not a valid value for rrpv_bits: expected an integer from 1 to \d+$/);
		await expect(lab.byTestId('param-rrpv_bits')).toHaveAttribute('aria-invalid', 'true');
		await lab.waitForStep(4, 20);
	});

	for (const [label, refs] of [['separators only', ',,,'], ['blank', '   \n ']])
		test(`a reference string of ${label} is refused: no references`, async ({ lab }) => {
			await lab.byTestId('refs-input').fill(refs);
			await lab.byTestId('apply-scenario').click();
			await expect(lab.byTestId('scenario-error')).toHaveText('reference string: no references');
			await lab.waitForStep(4, 20);
		});

	test('an empty file is refused, named', async ({ lab }) => {
		await lab.byTestId('trace-upload').setInputFiles({ name: 'empty.trace', mimeType: 'text/plain', buffer: Buffer.alloc(0) });
		await expect(lab.byTestId('scenario-error')).toHaveText('empty.trace: no references');
		await lab.waitForStep(4, 20);
	});
});

test('a paste too large to edit is held outside the box: typing stays in a small box, Apply runs all of it, Clear drops it', async ({ lab, page }) => {
	const pasted = Array.from({ length: 100_000 }, (_, i) => (i * 7) % 500).join(' ');
	await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
	await page.evaluate((text) => navigator.clipboard.writeText(text), pasted);
	const box = lab.byTestId('refs-input');
	await box.fill('');
	await box.focus();
	await page.keyboard.press('Control+V');
	await expect(lab.byTestId('refs-held')).toContainText('Holding 100,000 pasted references');
	await expect(box).toHaveValue('');
	await page.keyboard.type(' 1 2 3');
	await expect(box).toHaveValue(' 1 2 3');
	await lab.byTestId('apply-scenario').click();
	await expect(lab.byTestId('stat-whole')).toContainText('100,003 refs');
	/* Applied, it stays held (not put back into the box). */
	await expect(lab.byTestId('refs-held')).toContainText('100,003');
	await lab.byTestId('refs-held-clear').click();
	await expect(lab.byTestId('refs-held')).toHaveCount(0);
});
