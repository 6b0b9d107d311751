/*
 * Never a white page.
 *
 *   - The compare crash of issue 10: the 1M-reference zipf preset, the compare
 *     view's slider past step 50,000 (the step view records the first
 *     50,000 references), then "Step by step".  The step view used to compute
 *     its frame grid at a step it never recorded ("undefined is not
 *     iterable"); now it shows its last recorded step and says why.
 *   - A view that throws while rendering is replaced by a panel that says
 *     what failed, links the state it failed in and offers ways back; the
 *     other views and the form keep working.  The failure is planted from
 *     the test (Number.prototype.toLocaleString throws while a flag is
 *     set), so the page carries no test hook.
 *   - Random seeks, steps, policy and view switches on a long trace, in every
 *     view, from a fixed seed and for a bounded number of actions: no
 *     uncaught error, no console error (the fixture checks), no error panel.
 */
import { test, expect } from '../lib/fixtures.mjs';
/* The generator's PRNG (mulberry32): the same seed, the same actions. */
import { random } from '../../web/src/wasm/generator.ts';

const ZIPF_1M = 'zipf-big';

test('compare view past step 50,000 of the 1M zipf preset, then step by step: the last recorded step, no crash', async ({ lab }) => {
	test.setTimeout(240_000);
	await lab.byTestId('preset-select').selectOption(ZIPF_1M);
	await expect(lab.byTestId('stat-whole')).toHaveText(/1,000,000 refs/, { timeout: 120_000 });
	await lab.byTestId('tab-compare').click();
	await expect(lab.byTestId('compare-step-counter')).toHaveText(/ \/ 1000000$/, { timeout: 120_000 });
	await lab.byTestId('compare-scrub').fill('60000');
	await expect(lab.byTestId('compare-step-counter')).toHaveText('step 60000 / 1000000');
	await lab.byTestId('tab-step').click();
	await lab.waitForStep(50_000, 50_000);
	await expect(lab.byTestId('step-recorded-note')).toContainText('were at step 60,000');
	await expect(lab.byTestId('view-error')).toHaveCount(0);
	/* Back in the compare view the shared step is where the step view left it. */
	await lab.byTestId('tab-compare').click();
	await expect(lab.byTestId('compare-step-counter')).toHaveText('step 60000 / 1000000', { timeout: 60_000 });
});

function plantRenderFailure() {
	const original = Number.prototype.toLocaleString;
	window.__failRenders = false;
	Number.prototype.toLocaleString = function (...args) {
		if (window.__failRenders)
			throw new Error('planted render failure');
		return original.apply(this, args);
	};
}

test('a view that throws shows what failed, a link to its state and ways back; the page stays usable', async ({ lab, page, pageErrors }) => {
	await page.evaluate(plantRenderFailure);
	await lab.setScenario({ policy: 'lru', frames: 3, refs: '7 0 1 2 0 3 0 4' });
	await lab.goToStep(5);
	await lab.byTestId('tab-compare').click();
	await expect(lab.byTestId('compare-step-counter')).toHaveText('step 5 / 8');
	/* Armed and clicked in one task: a render of the view the page schedules on
	 * its own (a resize observer's, under load) must not fail before the click. */
	await page.evaluate(() => {
		window.__failRenders = true;
		document.querySelector('[data-testid="compare-step-forward"]').click();
	});

	const panel = lab.byTestId('view-error');
	await expect(panel).toBeVisible();
	await expect(panel).toHaveAttribute('data-view', 'compare policies view');
	await expect(panel).toContainText('planted render failure');
	/* The link is the state that failed: compare view, step 6. */
	const href = await lab.byTestId('view-error-link').getAttribute('href');
	expect(href).toContain('#');
	await expect(lab.byTestId('view-error-report')).toContainText(`link: ${href}`);
	await expect(lab.byTestId('tab-step')).toBeVisible();
	await expect(lab.byTestId('apply-scenario')).toBeEnabled();
	await page.screenshot({ path: 'e2e/screenshots/view-error.png' });

	/* The link opens the failing state (once the failure is gone). */
	const reopened = await page.context().newPage();
	await reopened.goto(href);
	await expect(reopened.getByTestId('compare-step-counter')).toHaveText('step 6 / 8', { timeout: 30_000 });
	await reopened.close();

	/* A way back: the step-by-step view, at the same step. */
	await page.evaluate(() => (window.__failRenders = false));
	await lab.byTestId('view-error-step-view').click();
	await expect(panel).toHaveCount(0);
	await lab.waitForStep(6, 8);

	/* Try again re-renders the view once the cause is gone. */
	await page.evaluate(() => (window.__failRenders = true));
	await lab.byTestId('step-forward').click();
	await expect(panel).toHaveAttribute('data-view', 'step by step view');
	await page.evaluate(() => (window.__failRenders = false));
	await lab.byTestId('view-error-retry').click();
	await lab.waitForStep(7, 8);

	/* React reports each caught error on the console; those were planted. */
	const planted = pageErrors.filter((e) => e.includes('planted render failure'));
	expect(planted.length).toBeGreaterThan(0);
	pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !planted.includes(e)));
});

const SEED = Number(process.env.PAGELAB_FUZZ_SEED ?? 20261123);
const ACTIONS = 36;
const LONG = '?policy=lru&frames=64&gen=zipf&len=120000&pages=3000&exp=0.9&seed=5&view=step';

test(`random seeks, steps, policy and view switches on a 120,000-reference trace (seed ${SEED}, ${ACTIONS} actions)`, async ({ lab, page }) => {
	test.setTimeout(240_000);
	await lab.open(LONG);
	await expect(lab.byTestId('stat-whole')).toHaveText(/120,000 refs/, { timeout: 60_000 });
	const pick = random(SEED);
	const any = (list) => list[Math.floor(pick() * list.length)];
	const done = [];
	const settled = async () => {
		await expect(lab.byTestId('progress')).toHaveCount(0, { timeout: 60_000 });
		await expect(lab.byTestId('view-error'), `after: ${done.join(' → ')}`).toHaveCount(0);
	};
	const view = async () => (await lab.byTestId('tab-step').getAttribute('aria-selected')) === 'true' ? 'step'
		: (await lab.byTestId('tab-compare').getAttribute('aria-selected')) === 'true' ? 'compare' : 'charts';
	const actions = {
		step: [
			['seek', async () => lab.byTestId('scrub').fill(String(Math.floor(pick() * 50_001)))],
			['keys', async () => page.keyboard.press(any(['ArrowRight', 'ArrowLeft', 'End', 'Home', 'PageDown']))],
			['forward', async () => lab.byTestId('step-forward').click({ force: true })],
		],
		compare: [
			['seek', async () => lab.byTestId('compare-scrub').fill(String(Math.floor(pick() * 120_001)))],
			['keys', async () => page.keyboard.press(any(['ArrowRight', 'ArrowLeft', 'd', 'Home']))],
			['policy', async () => lab.byTestId('compare-policy-1').selectOption(any(['fifo', 'clock', 'lfu', 'random', 'linux', 'srrip']))],
		],
		charts: [
			['policy', async () => lab.byTestId(`chart-policy-${any(['clock', 'lfu', 'nru'])}`).click({ force: true })],
		],
	};
	const everywhere = [
		['view', async () => lab.byTestId(`tab-${any(['step', 'compare', 'charts'])}`).click()],
		['scenario', async () => {
			await lab.byTestId('policy-select').selectOption(any(['fifo', 'clock', 'linux', 'opt', 'srrip']));
			await lab.byTestId('apply-scenario').click();
		}],
	];
	for (let i = 0; i < ACTIONS; i++) {
		const here = await view();
		const [name, act] = pick() < 0.3 ? any(everywhere) : any(actions[here]);
		done.push(`${here}:${name}`);
		await act();
		await settled();
	}
	for (const tab of ['step', 'compare', 'charts']) {
		await lab.byTestId(`tab-${tab}`).click();
		await settled();
	}
});
