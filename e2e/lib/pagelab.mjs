/*
 * pagelab.mjs - the page as the tests see it: a small page object over the
 * test-id contract in e2e/TESTIDS.md.  Tests say what a user does ("set the
 * scenario", "step forward", "read grid column 7") and this file says how.
 *
 * Interface (class PageLab, one per Playwright page):
 *   open(query)                 loads the site at baseURL (optionally with a URL query/hash)
 *                               and waits until the page can take a scenario.
 *   setScenario({policy, frames, refs, params})
 *                               fills the scenario form and applies it; waits for
 *                               "step 0 / N" with N = the number of references.
 *   stepForward(), stepBack()   one step by the buttons; wait until the step view
 *                               shows the new step.
 *   goToStep(k)                 steps forward or back from the current step to k.
 *   currentStep()               {step, total} read from `step-counter`.
 *   gridColumn(k, frames)       {pages: [text of each row], result: 'F'|'H'}.
 *   structurePages()            every [data-testid=page] in the structure view, in
 *                               DOM (list) order, as {list, page, fields: {...}}.
 *   listPages(list)             the page numbers in one list, head first.
 *   stepViewDigest()            the grid and structure as plain data (test ids,
 *                               text, data-* attributes; no styles, which
 *                               transitions change), for comparing two moments.
 *   stats()                     {faults, hits, evictions} as numbers.
 *   screenshot(name)            writes e2e/screenshots/<name>.png once the page has
 *                               settled (see settle()).
 *
 * Invariant: every read waits for the step view to show the step the counter
 * shows (`data-step` on frame-grid and structure, see TESTIDS.md), so a read
 * never sees a half-updated page while the worker answers.
 */
import { expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';

const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

/* Longer than the page's longest transition, so screenshots show the end state. */
const SETTLE_MS = 800;
/* The first load compiles the WebAssembly module; on a loaded 2-core machine that takes seconds. */
const FIRST_LOAD_TIMEOUT_MS = 30_000;

function countReferences(refs) {
	return refs.split(/[\s,]+/).filter(Boolean).length;
}

export class PageLab {
	constructor(page) {
		this.page = page;
	}

	byTestId(id) {
		return this.page.getByTestId(id, { exact: true });
	}

	async open(query = '') {
		/* Relative to baseURL, which may be a sub-path of its server. */
		await this.page.goto(`./${query}`);
		await expect(this.byTestId('policy-select')).toBeEnabled({ timeout: FIRST_LOAD_TIMEOUT_MS });
		await expect(this.byTestId('step-counter')).toHaveText(/step \d+ \/ \d+/, { timeout: FIRST_LOAD_TIMEOUT_MS });
	}

	async setScenario({ policy, frames, refs, params = {} }) {
		if (policy !== undefined)
			await this.byTestId('policy-select').selectOption(policy);
		if (frames !== undefined)
			await this.byTestId('frames-input').fill(String(frames));
		for (const [name, value] of Object.entries(params))
			await this.setParam(name, value);
		if (refs !== undefined)
			await this.byTestId('refs-input').fill(refs);
		await this.byTestId('apply-scenario').click();
		if (refs !== undefined)
			await this.waitForStep(0, countReferences(refs));
	}

	async setParam(name, value) {
		const field = this.byTestId(`param-${name}`);
		const tag = await field.evaluate((element) => element.tagName);
		if (tag === 'SELECT')
			await field.selectOption(String(value));
		else
			await field.fill(String(value));
	}

	async currentStep() {
		const text = await this.byTestId('step-counter').textContent();
		const match = /step (\d+) \/ (\d+)/.exec(text);
		if (!match)
			throw new Error(`step-counter reads '${text}', not 'step K / N'`);
		return { step: Number(match[1]), total: Number(match[2]) };
	}

	/* Waits until the counter and the step view both show step k (of total). */
	async waitForStep(step, total) {
		const counter = total === undefined ? `step ${step} / ` : `step ${step} / ${total}`;
		await expect(this.byTestId('step-counter')).toHaveText(new RegExp(`^\\s*${counter}`));
		await expect(this.byTestId('frame-grid')).toHaveAttribute('data-step', String(step));
		await expect(this.byTestId('structure')).toHaveAttribute('data-step', String(step));
	}

	async stepForward() {
		const { step, total } = await this.currentStep();
		await this.byTestId('step-forward').click();
		await this.waitForStep(step + 1, total);
	}

	async stepBack() {
		const { step, total } = await this.currentStep();
		await this.byTestId('step-back').click();
		await this.waitForStep(step - 1, total);
	}

	async goToStep(target) {
		let { step } = await this.currentStep();
		for (; step < target; step++)
			await this.stepForward();
		for (; step > target; step--)
			await this.stepBack();
	}

	async gridColumn(step, frames) {
		const pages = [];
		for (let row = 0; row < frames; row++)
			pages.push((await this.byTestId(`grid-cell-${step}-${row}`).textContent()).trim());
		const result = (await this.byTestId(`grid-result-${step}`).textContent()).trim();
		return { pages, result };
	}

	async structurePages() {
		return this.byTestId('structure').locator('[data-testid="page"]').evaluateAll((nodes) =>
			nodes.map((node) => {
				const fields = {};
				for (const [key, value] of Object.entries(node.dataset))
					if (!['testid', 'page', 'list'].includes(key))
						fields[key] = value;
				return { list: node.dataset.list, page: node.dataset.page, fields };
			}));
	}

	/* The pages of one list, in order: ['7', '0', ...]. */
	async listPages(list) {
		return this.byTestId(`list-${list}`).locator('[data-testid="page"]').evaluateAll((nodes) =>
			nodes.map((node) => node.dataset.page));
	}

	async stepViewDigest() {
		const describe = (root) =>
			[...root.querySelectorAll('[data-testid]')].map((node) => {
				const data = Object.entries(node.dataset).sort().map(([k, v]) => `${k}=${v}`);
				return `${data.join(' ')} ${node.textContent.replace(/\s+/g, ' ').trim()}`;
			});
		return {
			grid: await this.byTestId('frame-grid').evaluate(describe),
			structure: await this.byTestId('structure').evaluate(describe),
		};
	}

	async stats() {
		const read = async (id) => Number((await this.byTestId(id).textContent()).trim());
		return {
			faults: await read('stat-faults'),
			hits: await read('stat-hits'),
			evictions: await read('stat-evictions'),
		};
	}

	async settle() {
		await this.page.waitForTimeout(SETTLE_MS);
		await this.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
	}

	async screenshot(name) {
		await this.settle();
		await this.page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
	}
}
