/*
 * summary-reporter.mjs - ends the e2e run with the line scripts/test.sh reads:
 *   "playwright: N passed, N failed"
 * (scripts/test.sh takes a prefix of letters, ':' and '-' only, so not "e2e:").
 *
 * Counting: a test passes only if its outcome is "expected" (the config turns
 * retries off, so each test ends once and there is no flaky middle ground).
 * Every other outcome counts as failed: unexpected, timed out, interrupted, and
 * skipped too, since a test that did not run has shown nothing.  A run that
 * failed outside any test (a missing build, a fixture that throws) adds at
 * least one failure, so it can never end with "0 failed".  Configured as the
 * last reporter, this line is the last one printed.
 */
export default class SummaryReporter {
	constructor() {
		this.passed = 0;
		this.failed = 0;
		this.errorsOutsideTests = 0;
	}

	printsToStdio() {
		return true;
	}

	onTestEnd(test) {
		if (test.outcome() === 'expected')
			this.passed++;
		else
			this.failed++;
	}

	onError() {
		this.errorsOutsideTests++;
	}

	onEnd(result) {
		let failed = this.failed + this.errorsOutsideTests;
		if (result.status !== 'passed' && failed === 0)
			failed = 1;
		process.stdout.write(`playwright: ${this.passed} passed, ${failed} failed\n`);
	}
}
