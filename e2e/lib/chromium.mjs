/*
 * chromium.mjs - how every pagelab browser test and benchmark launches a browser.
 *
 * Interface:
 *   CHROMIUM_PATH       Debian's Chromium, installed by `scripts/setup.sh browser`.
 *   CHROMIUM_ARGS       the flags it runs with: headless, no sandbox (we run as root),
 *                       no GPU, and nothing that talks to the network on its own.
 *   launchOptions()     the options object for playwright's chromium.launch().
 *   launchChromium()    launches it (for scripts outside the test runner, the benchmark).
 *
 * Invariant: Playwright never downloads a browser.  We always pass executablePath,
 * and fail with a message naming the setup command when the binary is missing,
 * rather than letting Playwright suggest `npx playwright install`, which cannot work
 * on machines that reach only package registries.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const CHROMIUM_PATH = process.env.PAGELAB_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export function launchOptions() {
	if (!existsSync(CHROMIUM_PATH))
		throw new Error(`${CHROMIUM_PATH} is missing: run 'bash scripts/setup.sh browser'`);
	return { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };
}

export function launchChromium() {
	return chromium.launch(launchOptions());
}
