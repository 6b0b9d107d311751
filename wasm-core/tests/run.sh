#!/bin/sh
# run.sh SUITE... - runs test suites and sums their results.
#
# A SUITE is a test executable, or "script.sh:CLI" (a shell test run with
# PAGELAB=CLI).  Each suite prints one line per test and ends with
# "N passed, N failed".  A suite that exits non-zero without reporting a
# failure, or prints no summary, counts one failure: nothing passes by
# crashing early.  The last line is "core: N passed, N failed".
passed=0
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for suite in "$@"; do
	case "$suite" in
	*.sh:*)
		script=${suite%%:*}
		cli=${suite#*:}
		echo "== $script (CLI $cli)"
		PAGELAB=$cli sh "$script" >"$out" 2>&1
		;;
	*)
		echo "== $suite"
		"$suite" >"$out" 2>&1
		;;
	esac
	status=$?
	cat "$out"
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
	if [ -z "$summary" ]; then
		echo "$suite: no summary line (exit $status): counted as 1 failure"
		failed=$((failed + 1))
		continue
	fi
	p=${summary%% passed*}
	f=${summary#*, }
	f=${f%% failed}
	if [ "$status" != 0 ] && [ "$f" = 0 ]; then
		echo "$suite: exit $status with no failed test: counted as 1 failure"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "core: $passed passed, $failed failed"
[ "$failed" = 0 ]
