#!/usr/bin/env bash
# The kernel suite (npm run test:kernel): installs the kernel group, then runs the unit
# checks and grades every case with the real grade command (autograder/tests/run.py):
# the self-test failure matrix and, when kernel-assignments/instructor/<name>/ exists,
# that assignment's reference, skeleton and broken submissions.  The kernel is built once
# into ${PAGELAB_CACHE:-~/.cache/pagelab}; later runs are incremental.
# Ends with "kernel: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")"
if ! bash ../scripts/setup.sh kernel; then
	echo "kernel: 0 passed, 1 failed (scripts/setup.sh kernel failed)"
	exit 1
fi
# The cases assume the cache's work trees are theirs while they run (e.g. "a re-grade
# recompiles nothing"): two suites at once (two checkouts, npm test twice) take turns.
cache=${PAGELAB_CACHE:-$HOME/.cache/pagelab}
mkdir -p "$cache"
exec 9>"$cache/suite.lock"
if ! flock -n 9; then
	echo "test:kernel: waiting for another kernel suite using $cache"
	flock 9
fi
python3 autograder/tests/run.py "$@"
