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
 *
 * Before it, one line per failed test: "FAIL file:line › title: first line of
 * the error", which scripts/test.sh repeats at the very end of npm test, where
 * a CI log cut to its last screen still shows it.
 */
export default class SummaryReporter {
	constructor() {
		this.passed = 0;
		this.failed = 0;
		this.errorsOutsideTests = 0;
		this.failures = [];
	}

	printsToStdio() {
		return true;
	}

	onTestEnd(test, result) {
		if (test.outcome() === 'expected') {
			this.passed++;
			return;
		}
		this.failed++;
		const where = `${test.location.file.replace(/^.*\/tests\//, '')}:${test.location.line}`;
		const why = (result.error?.message ?? result.status).replace(/\x1b\[[0-9;]*m/g, '').split('\n')[0];
		this.failures.push(`FAIL ${where} › ${test.title}: ${why}`);
	}

	onError() {
		this.errorsOutsideTests++;
	}

	onEnd(result) {
		let failed = this.failed + this.errorsOutsideTests;
		if (result.status !== 'passed' && failed === 0)
			failed = 1;
		for (const line of this.failures)
			process.stdout.write(`${line}\n`);
		process.stdout.write(`playwright: ${this.passed} passed, ${failed} failed\n`);
	}
}
