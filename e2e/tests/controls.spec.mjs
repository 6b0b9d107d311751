/*
 * Controls a lecturer uses without the mouse, and the scenario in the URL:
 * the keyboard shortcuts (TESTIDS.md), lecture mode, and a link that restores
 * the scenario on another page.
 */
import { test, expect } from '../lib/fixtures.mjs';
import { PageLab } from '../lib/pagelab.mjs';

const SILBERSCHATZ = '7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1';
/* Longer than one play tick at any speed a lecturer would use. */
const LONGER_THAN_A_TICK_MS = 1500;
const SETTLE_AFTER_PAUSE_MS = 300;

async function pressOnPage(page, key) {
	await page.evaluate(() => document.activeElement?.blur());
	await page.keyboard.press(key);
}

/* The fastest speed, whether the control is a slider or a list of speeds. */
async function setToFastest(control) {
	if (await control.evaluate((node) => node.tagName === 'SELECT'))
		await control.selectOption({ index: await control.locator('option').count() - 1 });
	else
		await control.fill(await control.getAttribute('max'));
}

test.describe('the keyboard', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
	});

	test('arrow keys step forward and back, and Home goes back to the start', async ({ lab, page }) => {
		for (const step of [1, 2, 3]) {
			await pressOnPage(page, 'ArrowRight');
			await lab.waitForStep(step, 20);
		}
		await pressOnPage(page, 'ArrowLeft');
		await lab.waitForStep(2, 20);
		await pressOnPage(page, 'Home');
		await lab.waitForStep(0, 20);
	});

	test('space starts playback and space again stops it', async ({ lab, page }) => {
		await pressOnPage(page, ' ');
		await expect.poll(async () => (await lab.currentStep()).step).toBeGreaterThan(1);
		await pressOnPage(page, ' ');
		/* A step already on its way when space was pressed may still land. */
		await page.waitForTimeout(SETTLE_AFTER_PAUSE_MS);
		const stoppedAt = (await lab.currentStep()).step;
		await page.waitForTimeout(LONGER_THAN_A_TICK_MS);
		expect((await lab.currentStep()).step).toBe(stoppedAt);
	});

	test('typing a space or an arrow in the reference box edits the text and does not step', async ({ lab, page }) => {
		const refs = lab.byTestId('refs-input');
		await refs.fill('1 2');
		await refs.press('ArrowLeft');
		await refs.press(' ');
		await page.waitForTimeout(LONGER_THAN_A_TICK_MS);
		await expect(refs).toHaveValue('1  2');
		await lab.waitForStep(0, 20);
	});
});

test.describe('the step controls on LRU with the Silberschatz string', () => {
	test.beforeEach(async ({ lab }) => {
		await lab.setScenario({ policy: 'lru', frames: 3, refs: SILBERSCHATZ });
	});

	test('next fault skips the hits: from step 4 it goes to 6, then 8', async ({ lab }) => {
		await lab.goToStep(4);
		await lab.byTestId('next-fault').click();
		await lab.waitForStep(6, 20);
		await lab.byTestId('next-fault').click();
		await lab.waitForStep(8, 20);
	});

	test('next eviction goes to the first reference that evicts a page: 4, then 6', async ({ lab }) => {
		await lab.byTestId('next-eviction').click();
		await lab.waitForStep(4, 20);
		await lab.byTestId('next-eviction').click();
		await lab.waitForStep(6, 20);
	});

	test('the scrub slider jumps to any step and shows what stepping there shows', async ({ lab }) => {
		await lab.goToStep(13);
		const stepped = await lab.stepViewDigest();
		await lab.byTestId('reset').click();
		await lab.waitForStep(0, 20);
		await lab.byTestId('scrub').fill('13');
		await lab.waitForStep(13, 20);
		expect(await lab.stepViewDigest()).toEqual(stepped);
	});

	test('reset goes back to step 0 with no faults counted', async ({ lab }) => {
		await lab.goToStep(5);
		await lab.byTestId('reset').click();
		await lab.waitForStep(0, 20);
		expect(await lab.stats()).toEqual({ faults: 0, hits: 0, evictions: 0 });
	});

	test('play walks to the end of the trace and stops there', async ({ lab }) => {
		await setToFastest(lab.byTestId('speed'));
		await lab.byTestId('play-pause').click();
		await lab.waitForStep(20, 20);
		expect(await lab.stats()).toEqual({ faults: 12, hits: 8, evictions: 9 });
	});
});

test.describe('lecture mode', () => {
	test('makes the step view\'s type at least half again as large', async ({ lab, page }) => {
		await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
		await lab.goToStep(8);
		const fontSize = (id) => lab.byTestId(id).evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
		const before = { counter: await fontSize('step-counter'), narration: await fontSize('narration') };
		await lab.byTestId('lecture-mode').click();
		await expect.poll(() => fontSize('step-counter')).toBeGreaterThanOrEqual(before.counter * 1.5);
		await expect.poll(() => fontSize('narration')).toBeGreaterThanOrEqual(before.narration * 1.5);
		await lab.screenshot('lecture-mode');
	});

	test('makes the Linux page flags and the RRPV digits at least 16 px, and a legend names each flag', async ({ lab }) => {
		const smallestFont = (selector) => lab.byTestId('structure').locator(selector).evaluateAll((nodes) =>
			Math.min(...nodes.map((node) => parseFloat(getComputedStyle(node).fontSize))));
		await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 1' });
		await lab.goToStep(3);
		await lab.byTestId('lecture-mode').check();
		await expect.poll(() => smallestFont('[data-testid="page"] .pl-step-bit')).toBeGreaterThanOrEqual(16);
		for (const meaning of [/R referenced/, /act active/, /A accessed/])
			await expect(lab.byTestId('flag-legend')).toContainText(meaning);
		await lab.byTestId('lecture-mode').uncheck();
		await lab.setScenario({ policy: 'srrip', frames: 4, refs: '1 2 2 1' });
		await lab.goToStep(4);
		await lab.byTestId('lecture-mode').check();
		await expect.poll(() => smallestFont('.pl-step-meter .pl-step-cell')).toBeGreaterThanOrEqual(16);
	});
});

test.describe('the scenario form at 1440x900', () => {
	test("shows Linux's parameters left at their defaults as values, and Apply without scrolling", async ({ lab, page }) => {
		await lab.byTestId('policy-select').selectOption('linux');
		await expect(lab.byTestId('param-swappiness')).toHaveValue('60');
		const apply = lab.byTestId('apply-scenario');
		const box = await apply.boundingBox();
		expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize().height);
		const onTop = await apply.evaluate((button) => {
			const r = button.getBoundingClientRect();
			return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === button;
		});
		expect(onTop).toBe(true);
	});
});

test.describe('the URL', () => {
	test('holds the scenario, and opening it on another page restores the same scenario and steps', async ({ lab, page, context }) => {
		const refs = '1 2 3 4 1 2 5 1 2 3 4 5';
		await lab.setScenario({ policy: 'clock', frames: 4, refs, params: { ref_on_load: 'clear' } });
		await lab.goToStep(9);
		const original = await lab.stepViewDigest();
		const link = page.url();

		const restored = new PageLab(await context.newPage());
		await restored.page.goto(link);
		await expect(restored.byTestId('policy-select')).toHaveValue('clock');
		await expect(restored.byTestId('frames-input')).toHaveValue('4');
		await expect(restored.byTestId('refs-input')).toHaveValue(/^1[\s,]+2[\s,]+3[\s,]+4[\s,]+1[\s,]+2[\s,]+5[\s,]+1[\s,]+2[\s,]+3[\s,]+4[\s,]+5$/);
		await expect(restored.byTestId('param-ref_on_load').locator('option:checked')).toHaveText(/clear/);
		await expect(restored.byTestId('step-counter')).toHaveText(/ \/ 12/);
		await restored.goToStep(9);
		expect(await restored.stepViewDigest()).toEqual(original);
	});

	test("holds the compare view's policies and OPT ghost, and a link opens the same comparison", async ({ lab, page, context }) => {
		await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
		await lab.byTestId('tab-compare').click();
		await lab.byTestId('compare-policy-0').selectOption('clock');
		if (!(await lab.byTestId('compare-policy-2').isVisible()))
			await lab.byTestId('compare-add').click();
		await lab.byTestId('compare-policy-2').selectOption('opt');
		const before = page.url();
		await lab.byTestId('compare-ghost-opt').check();
		const chosen = [
			await lab.byTestId('compare-policy-0').inputValue(),
			await lab.byTestId('compare-policy-1').inputValue(),
			await lab.byTestId('compare-policy-2').inputValue(),
		];
		expect(chosen[0]).toBe('clock');
		await expect.poll(() => page.url()).not.toBe(before);
		expect(new URL(page.url()).hash).toMatch(/^#v1\./);

		const restored = new PageLab(await context.newPage());
		await restored.page.goto(page.url());
		for (let i = 0; i < chosen.length; i++)
			await expect(restored.byTestId(`compare-policy-${i}`)).toHaveValue(chosen[i]);
		await expect(restored.byTestId('compare-policy-3')).toBeHidden();
		await expect(restored.byTestId('compare-ghost-opt')).toBeChecked();
		await expect(restored.byTestId('compare-ghost-column')).toBeVisible();
	});
});
