/*
 * A lecturer's session: lecture mode on a projector at four sizes (the
 * structure, the current reference and the counters on screen, nothing
 * outside the viewport, text at least 24 px; at least 14 px outside it), a
 * clicker's keys with the focus in every control, the blank screen, hide
 * answers and predict mode, the step log, links that survive (20k
 * references in a link, a million in a scenario file, a cut link named in
 * lecture mode too), the keyboard in the grid, axe on every view and hit
 * and fault told apart under a deuteranopia simulation.
 */
import LZString from 'lz-string';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from '../lib/fixtures.mjs';
import { PageLab } from '../lib/pagelab.mjs';
import { PROJECTORS, textBoxes } from '../lib/screen.mjs';

const SILBERSCHATZ = '7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1';

function link(state, trace) {
	const pack = (value) => LZString.compressToEncodedURIComponent(JSON.stringify(value));
	return `#v1.${pack(state)}.${pack(trace)}`;
}

function refsOf(n, pages) {
	let x = 1;
	return Array.from({ length: n }, () => {
		x = (x * 1103515245 + 12345) % 2147483648;
		return x % pages;
	}).join(' ');
}

for (const [width, height] of PROJECTORS) {
	test.describe(`lecture mode at ${width}x${height}`, () => {
		test.use({ viewport: { width, height } });

		test('shows the structure, the current reference and the counters, nothing outside the viewport, text at least 24 px', async ({ lab }) => {
			await lab.open(`?policy=clock&frames=4&refs=${SILBERSCHATZ.split(' ').join(',')}&view=step&lecture=1&step=9`);
			await expect(lab.byTestId('structure')).toHaveAttribute('data-step', '9');
			await lab.page.waitForTimeout(900); /* transitions and the fit settle */
			for (const id of ['structure', 'frame-grid', 'stat-faults', 'stat-hits', 'stat-evictions', 'narration', 'step-counter', 'grid-result-9']) {
				const box = await lab.byTestId(id).boundingBox();
				expect(box, id).not.toBeNull();
				expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1, `${id} at ${JSON.stringify(box)}`).toBe(true);
			}
			const texts = await lab.page.evaluate(textBoxes);
			const outside = texts.filter((t) => t.right > width + 1 || t.bottom > height + 1 || t.left < -1 || t.top < -1);
			expect(outside, 'text outside the viewport').toEqual([]);
			const small = texts.filter((t) => t.size < 23.5);
			expect(small, 'text under 24 px').toEqual([]);
			await lab.page.screenshot({ path: `e2e/screenshots/lecture-${width}x${height}.png` });
		});
	});
}

test('outside lecture mode no text on any view is under 14 px', async ({ lab, page }) => {
	await page.setViewportSize({ width: 1280, height: 720 });
	await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 3 1 4 5 1 6' });
	await lab.goToStep(6);
	for (const view of ['step', 'compare', 'charts']) {
		await lab.byTestId(`tab-${view}`).click();
		await page.waitForTimeout(1500);
		const small = (await page.evaluate(textBoxes)).filter((t) => t.size < 13.5);
		expect(small, `${view}: text under 14 px`).toEqual([]);
	}
});

test('lecture mode tells Linux short, folding clauses that differ only in their page, and a screen reader still hears every clause in full', async ({ lab }) => {
	await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 3 1 4 5 1 6' });
	await lab.goToStep(8);
	const kept = 'at the tail of inactive_anon, accessed but not referenced → kept';
	await expect(lab.byTestId('narration')).toContainText(`page 1 ${kept}`);
	await expect(lab.byTestId('narration-folded')).toHaveCount(0);
	await lab.byTestId('lecture-mode').check();
	const folded = lab.byTestId('narration-folded');
	await expect(folded).toContainText('2 pages (1, 2) kept on inactive_anon: accessed, not referenced');
	await expect(folded).toHaveAttribute('aria-hidden', 'true');
	await expect(lab.byTestId('narration').locator('.pl-visually-hidden')).toContainText(`page 1 ${kept}: referenced set, back to the head (folio_check_references: keep); page 2 ${kept}`);
});

test('a clicker steps with the focus in any control, and Space does not press the focused button', async ({ lab, page }) => {
	await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
	const counter = lab.byTestId('step-counter');
	await lab.stepForward();
	for (const id of ['step-forward', 'step-back', 'reset', 'play-pause', 'speed', 'scrub', 'lecture-mode', 'tab-step', 'hide-answers']) {
		const before = (await lab.currentStep()).step;
		await lab.byTestId(id).focus();
		await page.keyboard.press('PageDown');
		await expect(counter, `PageDown with ${id} focused`).toHaveText(`step ${before + 1} / 20`);
		await page.keyboard.press('PageUp');
		await expect(counter, `PageUp with ${id} focused`).toHaveText(`step ${before} / 20`);
		await page.keyboard.press('ArrowRight');
		await expect(counter, `ArrowRight with ${id} focused`).toHaveText(`step ${before + 1} / 20`);
	}
	await expect(lab.byTestId('speed')).toHaveValue('1');
	await lab.byTestId('speed').focus();
	await page.keyboard.press('End');
	await expect(counter).toHaveText('step 20 / 20');
	await page.keyboard.press('Home');
	await expect(counter).toHaveText('step 0 / 20');
	await lab.byTestId('step-forward').focus();
	await page.keyboard.press(' ');
	await expect(lab.byTestId('play-pause')).toHaveAccessibleName('pause');
	await page.keyboard.press(' ');
	await expect(lab.byTestId('play-pause')).toHaveAccessibleName('play');
	/* Typing a trace never steps. */
	const now = await counter.textContent();
	await lab.byTestId('refs-input').focus();
	await page.keyboard.press('PageDown');
	await page.keyboard.press('ArrowRight');
	await expect(counter).toHaveText(now);
});

test('B blanks the screen and any key brings it back', async ({ lab, page }) => {
	await page.keyboard.press('b');
	await expect(lab.byTestId('blank-screen')).toBeVisible();
	await page.keyboard.press('PageDown');
	await expect(lab.byTestId('blank-screen')).toBeHidden();
	await expect(lab.byTestId('step-counter')).toHaveText(/^step 0 /);
});

test('hide answers hides the totals and the jumps; predict mode asks, reveals and scores', async ({ lab, page }) => {
	await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
	await lab.byTestId('hide-answers').check();
	await expect(lab.byTestId('stat-whole')).toBeHidden();
	await expect(lab.byTestId('next-fault')).toBeHidden();
	await lab.byTestId('hide-answers').uncheck();
	await expect(lab.byTestId('stat-whole')).toBeVisible();
	await lab.goToStep(3);
	await lab.byTestId('predict-mode').check();
	await expect(lab.byTestId('predict-panel')).toContainText('Next: page 2');
	await lab.byTestId('predict-victim-7').click();
	await page.keyboard.press('PageDown');
	await expect(lab.byTestId('predict-verdict')).toContainText('✓ right: reference 4 (page 2) was a fault, evicted 7');
	await expect(lab.byTestId('predict-score')).toHaveText('score: 1 / 1');
	await page.keyboard.press('f'); /* page 0 hits */
	await page.keyboard.press('PageDown');
	await expect(lab.byTestId('predict-verdict')).toContainText('✗ not quite: reference 5 (page 0) was a hit');
	await expect(lab.byTestId('predict-score')).toHaveText('score: 1 / 2');
	const download = page.waitForEvent('download');
	await lab.byTestId('export-log').click();
	const csv = await (await download).createReadStream().then((s) => s.toArray()).then((chunks) => Buffer.concat(chunks).toString());
	const lines = csv.trim().split('\n');
	expect(lines[0]).toBe('step,page,result,evicted,narration,prediction,correct');
	expect(lines).toHaveLength(6);
	expect(lines[4]).toMatch(/^4,2,fault,7,.*,"fault, evicts 7",yes$/);
	expect(lines[5]).toMatch(/^5,0,hit,,.*,fault,no$/);
});

test('the grid is a keyboard-navigable ARIA grid whose cells say what they hold', async ({ lab, page }) => {
	await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
	await lab.goToStep(4);
	const grid = page.getByRole('grid');
	await expect(grid).toHaveAccessibleName(/frames over time/);
	await page.getByRole('rowheader', { name: 'reference 4: page 2, fault' }).focus();
	await page.keyboard.press('ArrowDown');
	await expect(page.locator(':focus')).toHaveAccessibleName('step 4, frame 0: page 2, arrived now');
	await page.keyboard.press('ArrowLeft');
	await expect(page.locator(':focus')).toHaveAccessibleName('step 3, frame 0: page 7');
	await page.keyboard.press('Enter');
	await expect(lab.byTestId('step-counter')).toHaveText('step 3 / 20');
});

test('a link with 20 000 references opens the same scenario', async ({ lab, context }) => {
	const refs = refsOf(20_000, 5000);
	await lab.setScenario({ policy: 'lru', frames: 64, refs });
	await expect.poll(() => lab.page.url()).toMatch(/#v1\./);
	const url = lab.page.url();
	expect(url.length).toBeLessThan(64_000);
	const whole = await lab.byTestId('stat-whole').textContent();
	const again = new PageLab(await context.newPage());
	await again.page.goto(url);
	await expect(again.byTestId('stat-whole')).toHaveText(whole, { timeout: 30_000 });
	await expect(again.byTestId('step-counter')).toHaveText('step 0 / 20000');
});

test('a million references: the link refuses the trace and says so, the scenario file carries it', async ({ lab, page, context }) => {
	test.setTimeout(120_000);
	const file = JSON.stringify({ pagelab: 'scenario', version: 1, policy: 'clock', frames: 100, params: {}, trace: { refs: refsOf(1_000_000, 2000) }, view: 'step' });
	await lab.byTestId('open-scenario-file').setInputFiles({ name: 'million.json', mimeType: 'application/json', buffer: Buffer.from(file) });
	await expect(lab.byTestId('link-too-large')).toContainText('1,000,000 references) is too large for a link', { timeout: 60_000 });
	const whole = await lab.byTestId('stat-whole').textContent();
	expect(whole).toContain('1,000,000 refs');
	/* The link still opens the policy and says what is missing. */
	const fromLink = new PageLab(await context.newPage());
	await fromLink.page.goto(page.url());
	await expect(fromLink.byTestId('link-problem')).toContainText('too large for a link: open the scenario file', { timeout: 30_000 });
	/* The downloaded file opens the same run. */
	const download = page.waitForEvent('download');
	await lab.byTestId('download-scenario').click();
	const path = await (await download).path();
	await fromLink.byTestId('open-scenario-file').setInputFiles(path);
	await expect(fromLink.byTestId('stat-whole')).toHaveText(whole, { timeout: 60_000 });
});

test('a cut link says it is cut, in lecture mode too', async ({ page, baseURL }) => {
	const full = link({ policy: 'fifo', frames: 3, params: {}, view: 'step', lecture: true }, { refs: SILBERSCHATZ });
	await page.goto(`${baseURL}${full.slice(0, -6)}`);
	const banner = page.getByTestId('link-problem');
	await expect(banner).toContainText('its trace is truncated or damaged', { timeout: 30_000 });
	await expect(page.locator('html')).toHaveClass(/lecture/);
	const box = await banner.boundingBox();
	expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize().height);
	await page.goto(`${baseURL}#v1.not-a-link`);
	await page.reload();
	await expect(page.getByTestId('link-problem')).toContainText('truncated or damaged');
});

test('axe finds nothing on any view, in lecture mode or not', async ({ lab, page }) => {
	test.setTimeout(240_000);
	await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 3 1 4 5 1 6' });
	await lab.goToStep(5);
	for (const lecture of [false, true]) {
		if (lecture) await lab.byTestId('lecture-mode').check();
		for (const view of ['step', 'compare', 'charts']) {
			await lab.byTestId(`tab-${view}`).click();
			await page.waitForTimeout(1200);
			const result = await new AxeBuilder({ page }).analyze();
			expect(result.violations.map((v) => `${v.id}: ${v.nodes.length} (${v.help})`), `${view}${lecture ? ', lecture' : ''}`).toEqual([]);
		}
	}
});

/*
 * Deuteranopia (Machado et al. 2009, severity 1.0) as an SVG colour matrix
 * over the whole page: under it the grid's H and F marks are compared pixel
 * by pixel: they must still differ in shape (a circle outline for a hit, a
 * filled square for a fault), not only in the letters.
 */
test('hit and fault stay distinguishable under a deuteranopia simulation', async ({ lab, page }) => {
	await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ });
	await lab.goToStep(5);
	await page.evaluate(() => {
		const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
		svg.setAttribute('width', '0');
		svg.setAttribute('height', '0');
		svg.innerHTML =
			'<filter id="deuteranopia"><feColorMatrix type="matrix" values="0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0"/></filter>';
		document.body.append(svg);
		document.documentElement.style.filter = 'url(#deuteranopia)';
	});
	const mark = async (k) => page.screenshot({ clip: await lab.byTestId(`grid-mark-${k}`).boundingBox() });
	const inkOf = async (png) =>
		page.evaluate(async (bytes) => {
			const image = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
			const canvas = new OffscreenCanvas(image.width, image.height);
			const context = canvas.getContext('2d');
			context.drawImage(image, 0, 0);
			const data = context.getImageData(0, 0, image.width, image.height).data;
			const dark = (i) => data[i] + data[i + 1] + data[i + 2] < 600;
			let ink = 0;
			for (let i = 0; i < data.length; i += 4) if (dark(i)) ink++;
			const centre = 4 * (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2));
			return { ink, centreInked: dark(centre) };
		}, [...png]);
	const fault = await inkOf(await mark(1));
	const hit = await inkOf(await mark(5));
	/* Both marks show; the fault's is filled (inked at its centre), the hit's a ring (blank at its centre). */
	expect(fault.ink).toBeGreaterThan(0);
	expect(hit.ink).toBeGreaterThan(0);
	expect(fault.centreInked).toBe(true);
	expect(hit.centreInked).toBe(false);
});
