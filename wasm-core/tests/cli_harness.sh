#!/bin/sh
# cli_harness.sh - the harness of the CLI tests (tests/test_*.sh), sourced
# by each: PAGELAB (the CLI under test), a scratch directory $tmp, and
#   test_case NAME      starts a test
#   pagelab ARGS...     runs the CLI: $status, $tmp/out, $tmp/err
#   expect_status N, expect_out TEXT, expect_err TEXT, expect_err_has TEXT,
#   expect_out_lines N, expect_json JS   record a problem when not so
#   done_               ends the test: "ok NAME" or "FAIL NAME" with the problems
# A script ends with: echo "$passed passed, $failed failed"; [ "$failed" = 0 ]
PAGELAB=${PAGELAB:-build/pagelab}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------- the harness
# test_case NAME: starts a test; the expect_* below record failures; done ends it.
test_case() {
	name=$1
	problems=
}

pagelab() {
	"$PAGELAB" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
}

problem() {
	problems="$problems
    $1"
}

expect_status() {
	[ "$status" = "$1" ] || problem "exit status $status, expected $1"
	# a signal (crash, sanitizer abort) is never acceptable
	[ "$status" -lt 128 ] || problem "killed by signal $((status - 128))"
}

expect_out() {
	grep -qF -- "$1" "$tmp/out" || problem "stdout lacks: $1"
}

expect_err() {
	[ "$(cat "$tmp/err")" = "$1" ] || problem "stderr is not: $1"
}

expect_err_has() {
	grep -qF -- "$1" "$tmp/err" || problem "stderr lacks: $1"
}

expect_out_lines() {
	[ "$(wc -l <"$tmp/out")" = "$1" ] || problem "stdout has $(wc -l <"$tmp/out") lines, expected $1"
}

# expect_json JS: stdout parsed as JSON into `j` (or `lines` for JSON lines) makes JS true
expect_json() {
	node -e '
		const text = require("fs").readFileSync(process.argv[1], "utf8");
		let j, lines;
		try { j = JSON.parse(text); } catch (e) {
			lines = text.trim().split("\n").map((l) => JSON.parse(l));
		}
		process.exit(('"$1"') ? 0 : 1);' "$tmp/out" 2>>"$tmp/err" ||
		problem "JSON check failed: $1"
}

done_() {
	if [ -z "$problems" ]; then
		passed=$((passed + 1))
		echo "ok   $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name$problems"
		sed 's/^/    | out: /' "$tmp/out" | head -n 8
		sed 's/^/    | err: /' "$tmp/err" | head -n 8
	fi
}

