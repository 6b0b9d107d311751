#!/usr/bin/env bash
# Runs every test suite (npm test).  Each suite is an npm script that ends its output
# with a line "N passed, N failed"; this script shows each suite's output, reads that
# line, and ends with the sum over all suites.  A suite that exits non-zero, or whose
# summary line is missing, counts as failed: a suite cannot pass by printing nothing.
# The end of the run repeats every failing test's line from every suite (core and
# kernel print "FAIL", vitest "×" or "FAIL", Playwright "✘" and the summary
# reporter "FAIL" with the error's first line), so whoever reads only the last
# screen of a long CI log still sees which tests failed and why.  It also prints each
# suite's wall time and the whole run's, so the 30-minute budget for a CI run can be
# watched suite by suite.
#
# When the kernel suite is among the suites and another suite runs before it, the kernel's
# preparation (installing the kernel group, extracting Linux, building the shared base
# kernel and every assignment's layer: most of a fresh machine's kernel suite) starts at
# once in the background, niced, beside the other suites, which leave a core idle most of
# the time (kernel-assignments/autograder/prepare).  The kernel suite waits for it and
# shows its output; if it failed, the suite prepares what is missing itself and reports.
set -uo pipefail
cd "$(dirname "$0")/.."

suites=(${PAGELAB_SUITES:-test:core test:web test:e2e test:kernel})
total_passed=0
total_failed=0
broken=()
failures=()
timings=()
log=$(mktemp)

prepare_pid=
prepare_log=$(mktemp)
trap 'rm -f "$log" "$prepare_log"' EXIT
if [ "${#suites[@]}" -gt 1 ] && [[ " ${suites[*]} " == *" test:kernel "* ]]; then
	( bash scripts/setup.sh kernel && nice -n 10 kernel-assignments/autograder/prepare ) \
		>"$prepare_log" 2>&1 &
	prepare_pid=$!
fi

for suite in "${suites[@]}"; do
	if [ "$suite" = test:kernel ] && [ -n "$prepare_pid" ]; then
		printf '\n=== kernel preparation (started with the first suite)\n'
		wait "$prepare_pid"
		printf 'kernel preparation: exit %s\n' "$?"
		cat "$prepare_log"
	fi
	printf '\n=== npm run %s\n' "$suite"
	started=$SECONDS
	npm run --silent "$suite" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	timings+=("$suite $((SECONDS - started)) s")
	summary=$(grep -E '^([A-Za-z0-9_:-]+ )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	passed=$(sed -E 's/^([A-Za-z0-9_:-]+ )?([0-9]+) passed.*/\2/' <<<"$summary")
	failed=$(sed -E 's/^.* ([0-9]+) failed.*/\1/' <<<"$summary")
	if [ -z "$summary" ]; then
		broken+=("$suite (no summary line)")
		passed=0 failed=1
	elif [ "$status" != 0 ]; then
		broken+=("$suite (exit $status)")
		[ "$failed" -gt 0 ] || failed=1
	fi
	while IFS= read -r line; do
		failures+=("$suite: $line")
	done < <(grep -E '^[[:space:]]*(FAIL|✘|×)[[:space:]]' "$log" | head -n 40)
	total_passed=$((total_passed + passed))
	total_failed=$((total_failed + failed))
done

printf '\nwall time per suite: %s; whole run %d s\n' "$(IFS=,; echo "${timings[*]}" | sed 's/,/, /g')" "$SECONDS"
for f in "${failures[@]}"; do printf 'failing test in %s\n' "$f"; done
for b in "${broken[@]}"; do printf 'failed suite: %s\n' "$b"; done
printf 'total: %d passed, %d failed\n' "$total_passed" "$total_failed"
[ "$total_failed" = 0 ] && [ ${#broken[@]} = 0 ]
