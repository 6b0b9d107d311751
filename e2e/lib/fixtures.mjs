/*
 * fixtures.mjs - the `test` every spec imports: Playwright's test with
 *   site      (worker-scoped) the built site served by startStaticServer(), once
 *             for the whole run; closed when the worker ends.
 *   baseURL   the site's address, so tests say page.goto('/?...').
 *   lab       a PageLab (pagelab.mjs) on a fresh page, already opened.
 *   pageErrors (automatic) fails any test during which the page threw an
 *             uncaught exception or logged console.error: a page that throws has
 *             a bug even when the assertions happen to pass.
 */
import { test as base, expect } from '@playwright/test';
import { startStaticServer } from './static-server.mjs';
import { PageLab } from './pagelab.mjs';

export { expect };

export const test = base.extend({
	site: [async ({}, use) => {
		const site = await startStaticServer();
		await use(site);
		await site.close();
	}, { scope: 'worker' }],

	baseURL: async ({ site }, use) => {
		await use(site.url);
	},

	pageErrors: [async ({ page }, use) => {
		const errors = [];
		page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
		page.on('console', (message) => {
			if (message.type() === 'error')
				errors.push(`console.error: ${message.text()}`);
		});
		await use(errors);
		expect(errors, 'the page reported errors').toEqual([]);
	}, { auto: true }],

	lab: async ({ page }, use) => {
		const lab = new PageLab(page);
		await lab.open();
		await use(lab);
	},
});
