/*
 * playwright.config.mjs - the e2e suite: Playwright's runner driving Debian's
 * Chromium (never a downloaded browser) against the built static site.
 *
 * Workers: one per core, at most four (PAGELAB_E2E_WORKERS overrides).  Each
 * worker runs one spec file at a time with its own Chromium and its own server
 * of web/dist (a worker-scoped fixture on a free port), so specs never share a
 * page; no test measures time, so a busy core slows a test without failing it.
 * On two cores, a fresh clone's suite: 450 s with one worker (session 13),
 * 305 s and 361 s with two (session 14; the second beside a kernel build).  No
 * retries: a test that passes only sometimes is a failure to investigate, not
 * to hide.  The summary reporter comes last so that its "playwright: N passed,
 * N failed" line ends the output (scripts/test.sh reads it).
 */
import { cpus } from 'node:os';
import { defineConfig } from '@playwright/test';
import { launchOptions } from './lib/chromium.mjs';

function workers() {
	const configured = process.env.PAGELAB_E2E_WORKERS;
	if (configured === undefined || configured === '') return Math.max(1, Math.min(cpus().length, 4));
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
