/*
 * playwright.config.mjs - the e2e suite: Playwright's runner driving Debian's
 * Chromium (never a downloaded browser) against the built static site.
 *
 * Workers: two (one on a one-core machine) unless PAGELAB_E2E_WORKERS says
 * otherwise.  Each worker runs one spec file at a time with its own Chromium
 * and its own server of web/dist (a worker-scoped fixture on a free port), so
 * specs never share a page.  Two workers on two cores took a fresh clone's
 * suite from 450 s to 305-361 s.  Tests must not depend on how fast the page
 * gets through work when two Chromiums share the cores: in one run of four,
 * a test that polled for a transient `progress` line failed because the run
 * landed first; it now holds the run's reply until it has done its edits
 * (long-trace.spec.mjs).  No retries: a test that passes only sometimes is a
 * failure to investigate, not to hide.  The summary reporter comes last so
 * that its "playwright: N passed, N failed" line ends the output
 * (scripts/test.sh reads it).
 */
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { launchOptions } from './lib/chromium.mjs';

function workers() {
	const configured = process.env.PAGELAB_E2E_WORKERS;
	if (configured === undefined || configured === '') return Math.min(2, availableParallelism());
	if (!/^[1-9][0-9]*$/.test(configured)) throw new Error(`PAGELAB_E2E_WORKERS=${configured}: not a positive whole number`);
	return Number(configured);
}

export default defineConfig({
	testDir: './tests',
	outputDir: './test-results',
	workers: workers(),
	retries: 0,
	forbidOnly: true,
	timeout: 60_000,
	expect: { timeout: 10_000 },
	reporter: [['list'], ['./lib/summary-reporter.mjs']],
	use: {
		browserName: 'chromium',
		launchOptions: launchOptions(),
		viewport: { width: 1440, height: 900 },
		acceptDownloads: true,
		screenshot: 'only-on-failure',
	},
});
