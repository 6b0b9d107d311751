/*
 * What a lecture hall adds to lecture mode's basics (lecture.spec.mjs): every
 * drawing fits a projector at the four sizes with 24 px text (Linux's lanes
 * with shadow entries and its counters, CLOCK-Pro's clock, RRIP, OPT, aging,
 * the clock face), the whole trace's total and the counters' rows are never cut, the clock hand
 * never covers a slot number, the kernel's counters move step by step,
 * CLOCK-Pro's three hands point at their entries, Linux at 8 and 64 frames
 * with its shadow entries keeps 24 px by giving its lists fewer rows (scroll
 * boxes following the referenced page), the compare view fits too
 * (its run editors folded behind "runs…"), so do the charts (one at a
 * time under tabs, the policy checkboxes behind "policies…"), a grid of
 * 64 frames is windowed around the frame each step touches with marks
 * naming the frames off screen, hide answers hides the
 * compare strips, the preset titles and the charts, the built site opened
 * from disk says how to serve it, the full-screen button works, and the
 * focus ring shows in every mode.
 * Each fit case writes e2e/screenshots/lecture-<case>-<w>x<h>.png.
 */
import { test, expect } from '../lib/fixtures.mjs';
import { DIST_DIR } from '../lib/static-server.mjs';
import { PROJECTORS, expectCountersWhole, expectLectureText, expectLocatorOnScreen, expectOnScreen } from '../lib/screen.mjs';

const SILBERSCHATZ = '7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1';
const BELADY = '1,2,3,4,1,2,5,1,2,3,4,5';
/* Anon and file pages, evictions with shadow entries, refaults: every part of Linux's drawing at once. */
const LINUX_BUSY = '1,2,3,1,4,5,1,6,2,7,3,8,1,9,2,10,1,4,5,6,11,12,1,2';
const CASES = {
	clock: `policy=clock&frames=4&refs=${SILBERSCHATZ}&step=9`,
	linux: `policy=linux&frames=4&refs=${LINUX_BUSY}&step=20`,
	clockpro: `policy=clockpro&frames=5&refs=${LINUX_BUSY}&step=18`,
	srrip: 'policy=srrip&frames=4&refs=1,2,2,1,11,12,13,14,1,2&step=7',
	opt: `policy=opt&frames=3&refs=${SILBERSCHATZ}&step=9`,
	aging: `policy=aging&frames=3&refs=${SILBERSCHATZ}&step=9`,
	/* Linux again with predict mode's question above the columns (switched on after loading). */
	'linux-predict': `policy=linux&frames=4&refs=${LINUX_BUSY}&step=20`,
};

/* 64 frames of a zipf trace: far more frames than a projector's grid has rows for. */
const MANY_FRAMES = 'policy=lru&frames=64&gen=zipf&len=400&pages=200&exp=0.9&seed=5&step=300';

async function openAt(lab, query, step) {
	await lab.open(`?${query}&view=step&lecture=1`);
	await expect(lab.byTestId('structure')).toHaveAttribute('data-step', String(step));
	await lab.page.waitForTimeout(900); /* transitions and the fit settle */
}

for (const [width, height] of PROJECTORS) {
	test.describe(`a lecture at ${width}x${height}`, () => {
		test.use({ viewport: { width, height } });

		for (const [name, query] of Object.entries(CASES)) {
			test(`${name}: structure, reference, counters and narration on screen, 24 px text, nothing cut`, async ({ lab }) => {
				const step = Number(/step=(\d+)/.exec(query)[1]);
				await openAt(lab, query, step);
				if (name.endsWith('-predict')) {
					await lab.byTestId('predict-mode').check();
					await lab.page.waitForTimeout(900);
				}
				const ids = ['structure', 'stat-faults', 'stat-hits', 'stat-evictions', 'stat-whole', 'narration', 'step-counter', `grid-result-${step}`];
				if (['linux', 'clockpro', 'clock'].includes(name)) ids.push('counters');
				if (name.endsWith('-predict')) ids.splice(ids.indexOf('stat-whole'), 1, 'predict-panel', 'counters');
				await expectOnScreen(lab, ids, { width, height });
				await expectLectureText(lab, { width, height });
				if (ids.includes('counters')) await expectCountersWhole(lab, name);
				/* A few frames fit whole: no window, no marks. */
				await expect(lab.byTestId('grid-rows-above')).toHaveCount(0);
				await expect(lab.byTestId('grid-rows-below')).toHaveCount(0);
				const scroll = await lab.page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
				expect(scroll).toEqual([width, height]);
				await lab.page.screenshot({ path: `e2e/screenshots/lecture-${name}-${width}x${height}.png` });
			});
		}

		test('compare: controls, divergence, strips and frame columns on screen at 24 px; the run editors behind "runs…"', async ({ lab }) => {
			/* lab.open() waits for the step view's counter; this link opens the compare view. */
			await lab.page.goto(`./?policy=fifo&frames=3&refs=${SILBERSCHATZ}&view=compare&lecture=1&step=9`);
			await expect(lab.byTestId('compare-column-1')).toHaveAttribute('data-step', '9', { timeout: 30_000 });
			await lab.page.waitForTimeout(900);
			await expectOnScreen(lab, ['compare-step-counter', 'first-divergence', 'compare-column-0', 'compare-column-1'], { width, height });
			/* A strip row is display: contents (no box of its own): its first and last cells are measured. */
			for (const strip of ['compare-strip-0', 'compare-strip-1'])
				for (const cell of [lab.byTestId(strip).locator('[data-result]').first(), lab.byTestId(strip).locator('[data-result]').last()])
					await expectLocatorOnScreen(cell, `${strip} cell`, { width, height });
			await expectLectureText(lab, { width, height });
			await lab.page.screenshot({ path: `e2e/screenshots/lecture-compare-${width}x${height}.png` });
			await expect(lab.byTestId('compare-policy-0')).toHaveCount(0);
			await lab.byTestId('compare-edit-runs').click();
			await expect(lab.byTestId('compare-policy-0')).toHaveValue('fifo');
		});

		for (const [runs, frames, ghost] of [['fifo,lru,clock,opt', 8, false], ['fifo,lru,opt', 64, false], ['fifo,lru,clock,opt', 8, true]])
			test(`compare: ${runs.split(',').length} runs at ${frames} frames${ghost ? " and OPT's ghost column" : ''} fit side by side, each column's boxes on screen with the referenced page, the rest counted`, async ({ lab, page }) => {
				await page.goto(`./?policy=fifo&frames=${frames}&gen=zipf&len=400&pages=200&exp=0.9&seed=5&view=compare&lecture=1&step=300&cmp=${runs}${ghost ? '&ghost=1' : ''}`);
				await expect(lab.byTestId('compare-column-1')).toHaveAttribute('data-step', '300', { timeout: 30_000 });
				await page.waitForTimeout(900);
				const ids = runs.split(',').map((_, i) => `compare-column-${i}`);
				if (ghost) {
					await expect(lab.byTestId('compare-ghost-column')).toHaveAttribute('data-step', '300', { timeout: 30_000 });
					ids.push('compare-ghost-column');
				}
				for (const i of ids) {
					const column = lab.byTestId(i);
					await expectLocatorOnScreen(column, i, { width, height });
					const boxes = column.getByTestId('compare-page');
					for (const box of await boxes.all()) await expectLocatorOnScreen(box, `${i} box`, { width, height });
					/* Every frame is a box or counted: the boxes, "+N more" and "N free" add up to the frames. */
					const off = (await column.getByTestId('compare-frames-off').textContent()) ?? '';
					const counted = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(off)?.[1] ?? 0);
					const empty = await column.locator('.pl-compare-empty').count();
					expect((await boxes.count()) + empty + counted('more') + counted('free'), `${i}: ${off}`).toBe(frames);
					await expect(column.locator('.pl-compare-referenced'), `${i} shows the referenced page`).toHaveAttribute('data-page', /\d+/);
				}
				await expectLectureText(lab, { width, height });
				expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([width, height]);
				await page.screenshot({ path: `e2e/screenshots/lecture-compare-${frames}-frames${ghost ? '-ghost' : ''}-${width}x${height}.png` });
			});

		for (const [frames, pages] of [[8, 40], [64, 200]])
			test(`Linux at ${frames} frames with shadow entries: every lane and the shadow list at 24 px, each list cut to the rows that fit and showing the referenced page, the grid's hit/fault row on screen, the statistics on one row`, async ({ lab, page }) => {
				await openAt(lab, `policy=linux&frames=${frames}&gen=zipf&len=400&pages=${pages}&exp=0.9&seed=5&step=300`, 300);
				const structure = lab.byTestId('structure');
				await expect(structure.getByTestId('list-shadow').getByTestId('page').first()).toBeVisible();
				await expectOnScreen(lab, ['structure', 'counters', 'narration', 'stat-whole', 'grid-result-300'], { width, height });
				/* Each list as shown: its lane or row, header and chips (a cut list's <ol> runs on inside its scroll box). */
				for (const list of ['active_anon', 'inactive_anon', 'active_file', 'inactive_file', 'shadow'])
					await expectLocatorOnScreen(lab.byTestId(`list-${list}`).locator('xpath=ancestor::*[contains(@class, "pl-step-lane ") or contains(@class, "pl-step-list-row")][1]'), list, { width, height });
				/* Lists give up rows, never size: the structure is drawn unscaled. */
				await expect(page.locator('.pl-step-fit-box')).toHaveAttribute('data-scale', '1.00');
				/* The page referenced at step 300 is in view in its list, whatever its list's scroll box shows. */
				const reference = (await lab.byTestId('step-stats').locator('.pl-step-value').first().textContent()).trim();
				const chip = structure.locator(`[data-testid="page"][data-page="${reference}"]:not([data-list="shadow"])`);
				await expectLocatorOnScreen(chip, `page ${reference}`, { width, height });
				expect(await chip.evaluate((element) => {
					const box = element.getBoundingClientRect();
					const scroller = element.closest('.pl-step-chip-scroller')?.getBoundingClientRect();
					return !scroller || (box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1);
				}), `page ${reference} inside its list's scroll box`).toBe(true);
				/* The statistics take one row, the whole trace's total beside the step's counts (shortened, never cut). */
				const middle = async (id) => {
					const box = await lab.byTestId(id).locator('xpath=..').boundingBox();
					return box.y + box.height / 2;
				};
				expect(Math.abs((await middle('stat-faults')) - (await middle('stat-whole'))), 'faults and whole trace on one row').toBeLessThan(8);
				await expectLectureText(lab, { width, height });
				expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([width, height]);
				await page.screenshot({ path: `e2e/screenshots/lecture-linux-${frames}-frames-${width}x${height}.png` });
			});

		test('a grid of more frames than fit shows a window holding the frame each step touches, its marks naming the frames off screen', async ({ lab, page }) => {
			await openAt(lab, MANY_FRAMES, 300);
			for (let step = 300; step <= 306; step++) {
				if (step > 300) await lab.stepForward();
				const shown = await page.evaluate((k) => {
					const grid = document.querySelector('[data-testid="frame-grid"]');
					const labels = [...grid.querySelectorAll('[role="columnheader"][aria-label^="frame "]')].map((l) => Number(l.getAttribute('aria-label').slice(6)));
					const column = grid.querySelector(`[data-column="${k}"]`);
					const page = column.querySelector('[data-row="0"]').textContent;
					const cells = [...column.querySelectorAll('[role="gridcell"][data-row]:not([data-row="result"])')].map((c) => c.textContent);
					const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
					return { labels, page, cells, above: text('grid-rows-above'), below: text('grid-rows-below') };
				}, step);
				/* The referenced page is in a frame on screen, whether it arrived or was hit. */
				expect(shown.cells, `step ${step}: page ${shown.page} on screen`).toContain(shown.page);
				/* The marks and the rows shown account for every frame exactly once. */
				const first = shown.labels[0];
				const last = shown.labels[shown.labels.length - 1];
				expect(shown.labels).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
				const range = (from, to) => (from === to ? `f${from}` : `f${from}–f${to}`);
				expect(shown.above).toBe(first > 0 ? `▲ ${range(0, first - 1)} above` : null);
				expect(shown.below).toBe(last < 63 ? `▼ ${range(last + 1, 63)} below` : null);
				expect(shown.labels.length, 'frames shown').toBeGreaterThanOrEqual(3);
			}
			await expectOnScreen(lab, ['frame-grid', 'grid-result-306'], { width, height });
			for (const mark of ['grid-rows-above', 'grid-rows-below'])
				if (await lab.byTestId(mark).count()) await expectOnScreen(lab, [mark], { width, height });
			/* The grid and the 64-page LRU list beside it (a scroll box in lecture mode, not a scaled-down drawing) at 24 px. */
			await expectLectureText(lab, { width, height });
			expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([width, height]);
			await page.screenshot({ path: `e2e/screenshots/lecture-grid-64-frames-${width}x${height}.png` });
		});

		test('charts: each chart fills the screen under its tab, the Belady note and the policy checkboxes included, at 24 px', async ({ lab, page }) => {
			/* Belady's string: FIFO's frames chart has an anomaly, so its note is on screen too. */
			await page.goto(`./?policy=fifo&frames=3&refs=${BELADY}&view=charts&lecture=1`);
			await expect(lab.byTestId('belady-note')).toHaveCount(0);
			for (const chart of ['cumulative', 'frames', 'access']) {
				await lab.byTestId(`charts-tab-${chart}`).click();
				await expect(lab.byTestId(`charts-tab-${chart}`)).toHaveAttribute('aria-selected', 'true');
				/* Lines are SVG paths, the access scatter's dots a canvas. */
				await expect(lab.byTestId(`chart-${chart}`).locator(chart === 'access' ? 'canvas' : 'svg path').first()).toBeVisible({ timeout: 30_000 });
				if (chart === 'frames') await expect(lab.byTestId('belady-note')).toContainText('FIFO faults 10 times with 4 frames');
				await expect(lab.byTestId('charts-progress')).toHaveCount(0, { timeout: 30_000 });
				await page.waitForTimeout(300); /* the chart takes its measured size */
				/* The chart uses the screen: at least half its height, its plot never below four lines of text. */
				const box = await lab.byTestId(`chart-${chart}`).locator('svg').boundingBox();
				expect(box.height, `${chart} chart height`).toBeGreaterThan(height / 2);
				await expectOnScreen(lab, [`chart-${chart}`, `export-png-${chart}`, 'charts-edit-policies'], { width, height });
				await expectLectureText(lab, { width, height });
				expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([width, height]);
				await page.screenshot({ path: `e2e/screenshots/lecture-charts-${chart}-${width}x${height}.png` });
			}
			/* The checkboxes unfold above the chart, which shrinks to the room left, and fold away again. */
			await expect(lab.byTestId('chart-policy-lru')).toHaveCount(0);
			await lab.byTestId('charts-edit-policies').click();
			await expect(lab.byTestId('charts-edit-policies')).toHaveAttribute('aria-expanded', 'true');
			await lab.byTestId('chart-policy-clock').check();
			await expect(lab.byTestId('chart-access').locator('svg')).toBeVisible();
			await expect(lab.byTestId('charts-progress')).toHaveCount(0, { timeout: 30_000 });
			await page.waitForTimeout(300);
			await expectOnScreen(lab, ['chart-policy-wtinylfu', 'chart-access'], { width, height });
			await expectLectureText(lab, { width, height });
			await page.screenshot({ path: `e2e/screenshots/lecture-charts-policies-${width}x${height}.png` });
			await lab.byTestId('charts-edit-policies').click();
			await expect(lab.byTestId('chart-policy-clock')).toHaveCount(0);
			await lab.byTestId('charts-tab-cumulative').click();
			await expect(lab.byTestId('chart-cumulative').locator('svg')).toContainText('CLOCK');
		});

		test('the clock hand stops short of the slot number it points at', async ({ lab, page }) => {
			for (const step of [1, 5, 9, 14]) {
				await openAt(lab, CASES.clock.replace('step=9', `step=${step}`), step);
				const overlap = await page.evaluate(() => {
					const hand = document.querySelector('[data-testid^="hand-"]');
					const line = hand.querySelector('line');
					const tip = new DOMPoint(0, Number(line.getAttribute('y2'))).matrixTransform(line.getScreenCTM());
					const slots = document.querySelectorAll('.pl-step-slot-number');
					const number = slots[Number(hand.getAttribute('data-position')) % slots.length].getBoundingClientRect();
					const margin = 2;
					return tip.x > number.left - margin && tip.x < number.right + margin && tip.y > number.top - margin && tip.y < number.bottom + margin;
				});
				expect(overlap, `step ${step}`).toBe(false);
			}
		});
	});
}

/*
 * What a screen reader reads where a projector shows a shortened label: the
 * full words ("reference", "whole trace", the whole trace's "19 faults / 24
 * refs (79.2%)", "evicted at 13", "Step by step", "lecture mode"), in lecture
 * mode on a narrow projector, where the labels are shortest.
 */
test('shortened labels keep their full words for a screen reader', async ({ lab, page }) => {
	await page.setViewportSize({ width: 1024, height: 768 });
	await openAt(lab, CASES.linux, 20);
	/* The projector shows the short forms... */
	const stats = lab.byTestId('step-stats');
	expect(await stats.locator('[aria-hidden="true"]').evaluateAll((shown) => shown.map((s) => s.innerText))).toEqual(['ref', 'whole', '19 / 24']);
	/* ...a screen reader the full ones. */
	const read = await stats.ariaSnapshot();
	expect(read).toMatch(/\breference\b/);
	expect(read).toMatch(/\bwhole trace\b/);
	expect(read).toMatch(/19 faults \/ 24 refs \(79\.2%\)/);
	expect(read).not.toMatch(/\bref\b|\bwhole\b(?! trace)|\/ 24(?! refs)/);
	const shadow = await lab.byTestId('structure').ariaSnapshot();
	expect(shadow).toMatch(/evicted at \d+/);
	await expect(page.getByRole('tab', { name: 'Step by step', exact: true })).toHaveCount(1);
	await expect(page.getByRole('tab', { name: 'Compare policies', exact: true })).toHaveCount(1);
	await expect(page.getByRole('checkbox', { name: 'lecture mode', exact: true })).toHaveCount(1);
	await expect(page.getByRole('checkbox', { name: 'hide answers', exact: true })).toHaveCount(1);
});

test("Linux's counters panel shows the kernel's names and what each step added", async ({ lab }) => {
	await lab.setScenario({ policy: 'linux', frames: 3, refs: '1 2 3 4 5 6 1 2 3 7 1 2' });
	const panel = lab.byTestId('counters');
	await expect(panel).toHaveAttribute('data-step', '0');
	for (const name of ['workingset_refault', 'pgactivate', 'pgscan_file', 'pgsteal_file'])
		await expect(panel.getByTestId(`counter-${name}`)).toHaveAttribute('data-value', '0');
	/* Page 4 finds memory full: reclaim scans and steals one page. */
	await lab.goToStep(4);
	await expect(panel).toHaveAttribute('data-step', '4');
	const stolen = async () =>
		Number(await panel.getByTestId('counter-pgsteal_file').getAttribute('data-delta')) +
		Number((await panel.getByTestId('counter-pgsteal_anon').getAttribute('data-delta').catch(() => '0')) ?? 0);
	expect(await stolen()).toBe(1);
	/* Page 1 comes back at step 7 after its eviction: a refault, counted at that step and not before. */
	await lab.goToStep(6);
	await expect(panel.getByTestId('counter-workingset_refault')).toHaveAttribute('data-delta', '0');
	await lab.goToStep(7);
	await expect(panel).toHaveAttribute('data-step', '7');
	await expect(panel.getByTestId('counter-workingset_refault')).toHaveAttribute('data-delta', '1');
	await expect(panel.getByTestId('counter-workingset_refault')).toContainText('+1');
	/* A counter that never moves on this trace is not listed but counted. */
	await expect(panel.getByTestId('counter-nr_active_file')).toHaveCount(0);
});

test("CLOCK-Pro draws one clock with its hot, cold and test hands pointing at their entries", async ({ lab, page }) => {
	await lab.setScenario({ policy: 'clockpro', frames: 5, refs: LINUX_BUSY.split(',').join(' ') });
	await lab.goToStep(18);
	await page.waitForTimeout(900); /* the hands' turn settles */
	const structure = lab.byTestId('structure');
	await expect(structure.getByTestId('list-clock').getByTestId('page')).toHaveCount(5);
	expect(await structure.getByTestId('list-test').getByTestId('page').count()).toBeGreaterThan(0);
	for (const hand of ['hand_hot', 'hand_cold', 'hand_test']) {
		const angles = await page.evaluate((name) => {
			const hand = document.querySelector(`[data-testid="hand-${name}"]`);
			const line = hand.querySelector('line');
			const centre = new DOMPoint(0, 0).matrixTransform(line.getScreenCTM());
			const tip = new DOMPoint(0, Number(line.getAttribute('y2'))).matrixTransform(line.getScreenCTM());
			const entries = [...document.querySelectorAll('[data-testid="structure"] [data-testid="page"]')].sort(
				(a, b) => Number(a.dataset.order) - Number(b.dataset.order),
			);
			/* The entry's own circle: its badges would pull the group's box off centre. */
			const target = entries[Number(hand.dataset.position)].querySelector('circle').getBoundingClientRect();
			const angle = (x, y) => (Math.atan2(x - centre.x, centre.y - y) * 180) / Math.PI;
			return [angle(tip.x, tip.y), angle(target.x + target.width / 2, target.y + target.height / 2)];
		}, hand);
		const apart = Math.abs(((angles[0] - angles[1] + 540) % 360) - 180);
		expect(apart, `${hand} points at its entry`).toBeLessThan(3);
	}
	await expect(structure.locator('[data-list="clock"][data-hot="1"]').first()).toBeVisible();
});

test('hide answers hides the compare strips past the step, the totals, the divergence, the jumps and export, the charts and the preset results', async ({ lab, page }) => {
	await expect(lab.byTestId('preset-select').locator('option[value="silberschatz-fifo"]')).toHaveText(/15 faults/);
	await lab.setScenario({ policy: 'fifo', frames: 3, refs: SILBERSCHATZ.split(',').join(' ') });
	await lab.goToStep(5);
	await lab.byTestId('hide-answers').check();
	await expect(lab.byTestId('preset-select').locator('option[value="silberschatz-fifo"]')).toHaveText('Silberschatz string, FIFO, 3 frames');
	for (const option of await lab.byTestId('preset-select').locator('option').allTextContents())
		expect(option).not.toMatch(/faults|anomaly|promoted|defeats/);
	await lab.byTestId('tab-compare').click();
	const strip = lab.byTestId('compare-strip-0');
	await expect(strip.locator('[data-result]')).toHaveCount(5);
	await expect(strip.locator('[data-hidden]')).toHaveCount(15);
	await expect(lab.byTestId('compare-answers-hidden')).toBeVisible();
	await expect(lab.byTestId('first-divergence')).toHaveCount(0);
	await expect(lab.byTestId('compare-next-difference')).toHaveCount(0);
	await expect(lab.byTestId('compare-export-csv')).toHaveCount(0);
	await expect(page.getByText('/ 15')).toHaveCount(0);
	/* Stepping reveals one more result per step. */
	await lab.byTestId('compare-step-forward').click();
	await expect(strip.locator('[data-result]')).toHaveCount(6);
	await lab.byTestId('tab-charts').click();
	await expect(lab.byTestId('charts-answers-hidden')).toBeVisible();
	await expect(lab.byTestId('chart-cumulative')).toHaveCount(0);
	await lab.byTestId('hide-answers').uncheck();
	await expect(lab.byTestId('chart-cumulative')).toBeVisible();
	await lab.byTestId('tab-compare').click();
	await expect(strip.locator('[data-result]')).toHaveCount(20);
	await expect(lab.byTestId('first-divergence')).toBeVisible();
});

test('the built site opened from disk says how to serve it instead of a blank page', async ({ browser }) => {
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		await page.goto(`file://${DIST_DIR}index.html`);
		const help = page.getByTestId('file-protocol-help');
		await expect(help).toBeVisible();
		await expect(help).toContainText('needs a web server');
		await expect(help).toContainText('python3 -m http.server 8000');
		await expect(help).toContainText('npm start');
	} finally {
		await context.close();
	}
});

test('served over http the page starts and shows no file:// help', async ({ lab }) => {
	await expect(lab.byTestId('file-protocol-help')).toHaveCount(0);
});

/*
 * The focus ring: every control reached by Tab, in each view, with and
 * without lecture mode and with predict mode on, shows an outline at least
 * 3 px wide that is not transparent.
 */
test('the focus ring shows on every control in every view and mode', async ({ lab, page }) => {
	test.setTimeout(180_000);
	await lab.setScenario({ policy: 'linux', frames: 4, refs: '1 2 3 1 4 5 1 6' });
	await lab.goToStep(5);
	for (const mode of ['plain', 'lecture', 'predict']) {
		if (mode === 'lecture') await lab.byTestId('lecture-mode').check();
		if (mode === 'predict') await lab.byTestId('predict-mode').check();
		for (const view of ['step', 'compare', 'charts']) {
			await lab.byTestId(`tab-${view}`).click();
			await page.waitForTimeout(800);
			await lab.byTestId(`tab-${view}`).focus();
			const faint = [];
			for (let i = 0; i < 40; i++) {
				await page.keyboard.press('Tab');
				const ring = await page.evaluate(() => {
					const element = document.activeElement;
					if (!element || element === document.body) return null;
					const style = getComputedStyle(element);
					const visible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 3 && !/rgba\(.*, 0\)$|transparent/.test(style.outlineColor);
					return { visible, what: `${element.tagName.toLowerCase()} ${element.getAttribute('data-testid') ?? element.textContent.trim().slice(0, 20)}` };
				});
				if (ring && !ring.visible) faint.push(ring.what);
			}
			expect(faint, `${view} view, ${mode}`).toEqual([]);
		}
	}
});

test('in lecture mode the full-screen button puts the page in full screen and takes it out again', async ({ lab, page }) => {
	await lab.byTestId('lecture-mode').check();
	const button = lab.byTestId('fullscreen');
	await expect(button).toHaveAttribute('aria-pressed', 'false');
	await button.click();
	await expect.poll(() => page.evaluate(() => document.fullscreenElement === document.documentElement)).toBe(true);
	await expect(button).toHaveAttribute('aria-pressed', 'true');
	await expect(button).toHaveAccessibleName('exit full screen');
	await button.click();
	await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
	await expect(button).toHaveAttribute('aria-pressed', 'false');
});
