/*
 * `npm run build` promises a static site that works offline from any web
 * server: the page fetches nothing from outside the server it came from, and
 * it runs when a department server puts it under a sub-path instead of "/".
 */
import { test, expect } from '../lib/fixtures.mjs';
import { startStaticServer } from '../lib/static-server.mjs';
import { PageLab } from '../lib/pagelab.mjs';

async function useEveryView(lab) {
	await lab.setScenario({ policy: 'clock', frames: 3, refs: '1 2 3 1 4 1 5' });
	await lab.goToStep(5);
	await lab.byTestId('tab-compare').click();
	await expect(lab.byTestId('compare-strip-1').locator('[data-result]')).toHaveCount(7);
	await lab.byTestId('tab-charts').click();
	await expect(lab.byTestId('chart-cumulative').locator('svg path').first()).toBeVisible();
}

test('the page requests nothing from outside its own server', async ({ page, site }) => {
	const outside = [];
	page.on('request', (request) => {
		const url = request.url();
		if (!url.startsWith(site.url) && !url.startsWith('data:') && !url.startsWith('blob:'))
			outside.push(url);
	});
	const lab = new PageLab(page);
	await lab.open();
	await useEveryView(lab);
	expect(outside).toEqual([]);
});

test('the site works under a sub-path of its web server', async ({ browser }) => {
	const site = await startStaticServer(undefined, { prefix: '/course/pagelab/' });
	const context = await browser.newContext({ baseURL: site.url });
	try {
		const page = await context.newPage();
		const failed = [];
		page.on('pageerror', (error) => failed.push(`uncaught: ${error.message}`));
		page.on('response', (response) => {
			if (response.status() >= 400)
				failed.push(`${response.status()} ${response.url()}`);
		});
		const lab = new PageLab(page);
		await lab.open();
		await useEveryView(lab);
		expect(failed).toEqual([]);
	} finally {
		await context.close();
		await site.close();
	}
});
