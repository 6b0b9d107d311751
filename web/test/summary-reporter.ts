/*
 * summary-reporter.ts - ends Vitest's output with the line scripts/test.sh
 * reads: "web: N passed, N failed".  A test file that fails to load counts as
 * one failure, so a suite cannot pass by not running.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
	onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
		let passed = 0;
		let failed = errors.length;
		for (const module of modules) {
			if (module.state() === 'failed' && module.children.size === 0) failed++;
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') passed++;
				else if (state === 'failed') failed++;
			}
		}
		process.stdout.write(`web: ${passed} passed, ${failed} failed\n`);
	}
}
