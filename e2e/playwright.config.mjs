/*
 * playwright.config.mjs - the e2e suite: Playwright's runner driving Debian's
 * Chromium (never a downloaded browser) against the built static site.
 *
 * One worker: the machine has two cores shared with other engineers, and the
 * suite's worker-scoped fixture serves web/dist once for all tests.  No
 * retries: a test that passes only sometimes is a failure to investigate, not
 * to hide.  The summary reporter comes last so that its "playwright: N passed,
 * N failed" line ends the output (scripts/test.sh reads it).
 */
import { defineConfig } from '@playwright/test';
import { launchOptions } from './lib/chromium.mjs';

export default defineConfig({
	testDir: './tests',
	outputDir: './test-results',
	workers: 1,
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
