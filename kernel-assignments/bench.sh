#!/usr/bin/env bash
# The kernel benchmark (npm run bench:kernel).  Prints measured figures:
#   cold setup      extract + configure + full build + first grade, in an empty cache
#                   (no ccache either), i.e. a fresh machine;  goal <= 480 s
#   warm re-grade   grading a changed submission in the normal, warm cache;  goal <= 90 s
#   boot-to-result  each boot of that re-grade, from QEMU start to power-off
# Uses the self-test assignment; --warm-only skips the cold setup (it takes minutes).
set -euo pipefail
cd "$(dirname "$0")"
bash ../scripts/setup.sh kernel
grade=autograder/grade
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

seconds_since() { echo "$(date +%s.%N) - $1" | bc | xargs printf '%.1f'; }

if [ "${1:-}" != --warm-only ]; then
	start=$(date +%s.%N)
	PAGELAB_CACHE=$scratch/cold-cache "$grade" selftest autograder/selftest/cases/reference \
		--out "$scratch/cold.json" >/dev/null 2>"$scratch/cold.log"
	cold=$(seconds_since "$start")
	printf 'cold setup (extract + full build + grade, empty cache): %s s (goal <= 480 s)\n' "$cold"
	rm -rf "$scratch/cold-cache"
fi

# Warm: grade the reference once so the tree holds it, then a changed copy of it.
"$grade" selftest autograder/selftest/cases/reference --out "$scratch/warm0.json" \
	>/dev/null 2>&1
mkdir -p "$scratch/changed/kernel"
sed 's/^#define SELFTEST_MAX_VALUES 1024$/#define SELFTEST_MAX_VALUES 1024	\/* changed *\//' \
	autograder/selftest/cases/reference/kernel/pagelab_selftest.c \
	>"$scratch/changed/kernel/pagelab_selftest.c"
start=$(date +%s.%N)
"$grade" selftest "$scratch/changed" --out "$scratch/warm.json" >/dev/null 2>"$scratch/warm.log"
warm=$(seconds_since "$start")
printf 'warm re-grade of a changed submission: %s s (goal <= 90 s)\n' "$warm"
grep -o "the kernel built in [0-9]* s" "$scratch/warm.json" | sed 's/^/  of which: /'
grep -E "boot '[a-z]+': [a-z]+ after" "$scratch/warm.log" |
	sed -E "s/^grade: boot '([a-z]+)': ([a-z]+) after ([0-9.]+) s \((.*)\)/boot-to-result '\1': \3 s (\2, \4)/"
