#!/bin/sh
# run.sh - runs test suites and sums their results, in two steps so that make -j can run
# the suites side by side (and beside what it is still building):
#
#   run.sh --one SUITE OUT    runs one SUITE; its output goes to OUT, its exit status to
#                             OUT.exit (both written whole, when the suite has finished)
#   run.sh --report OUT...    prints each OUT in the order given and sums the results
#
# A SUITE is a test executable, or "script.sh:CLI" (a shell test run with
# PAGELAB=CLI).  Each suite prints one line per test and ends with
# "N passed, N failed".  A suite that exits non-zero without reporting a
# failure, or prints no summary, counts one failure: nothing passes by
# crashing early.  The last line is "core: N passed, N failed".
run_one() {
	suite=$1
	out=$2
	case "$suite" in
	*.sh:*)
		echo "== ${suite%%:*} (CLI ${suite#*:})"
		PAGELAB=${suite#*:} sh "${suite%%:*}"
		;;
	*)
		echo "== $suite"
		"$suite"
		;;
	esac >"$out.partial" 2>&1
	echo $? >"$out.exit"
	mv "$out.partial" "$out"
}

report() {
	passed=0
	failed=0
	for out in "$@"; do
		cat "$out"
		suite=$(head -n 1 "$out" | cut -c4-)	# the "== SUITE" line run_one wrote
		status=$(cat "$out.exit")
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
}

case "$1" in
--one)
	mkdir -p "$(dirname "$3")"
	run_one "$2" "$3"
	;;
--report)
	shift
	report "$@"
	;;
*)
	echo "usage: run.sh --one SUITE OUT | run.sh --report OUT..." >&2
	exit 2
	;;
esac
