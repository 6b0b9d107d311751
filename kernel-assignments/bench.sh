#!/usr/bin/env bash
# The kernel benchmark (npm run bench:kernel).  Prints measured figures, all from this run:
#   cold setup        extract + shared base build + selftest layer + first grade, in an
#                     empty cache and an empty ccache (a fresh machine); goal <= 480 s
#   warm re-grade     grading a changed submission once the layers exist, for the self-test,
#                     the RRIP and the counter-clock assignments; goal <= 90 s each
#   boot-to-result    each boot of those re-grades, from QEMU start to power-off
#   sandbox overhead  the cost of starting one sandboxed command (unshare + bwrap) against
#                     the same command unsandboxed, and the ratio
#   class throughput  a 10-submission class (reference, skeleton, broken) graded by the
#                     class command at its default --jobs, in submissions per hour
#   experiment        experiments/run: hotscan on the stock kernel and the RRIP reference,
#                     3 runs each (6 boots), its kernels' preparation and the boots
# Uses the self-test assignment; --warm-only skips the cold setup (it takes many minutes).
# The machine's load average is printed next to each figure: this machine is shared.
set -euo pipefail
cd "$(dirname "$0")"
bash ../scripts/setup.sh kernel
grade=autograder/grade
cases=autograder/selftest/cases
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

now() { date +%s.%N; }
seconds_since() { echo "$(now) - $1" | bc | xargs printf '%.1f'; }
load() { cut -d' ' -f1 /proc/loadavg; }

if [ "${1:-}" != --warm-only ]; then
	start=$(now)
	PAGELAB_CACHE=$scratch/cold-cache "$grade" selftest "$cases/reference" \
		--out "$scratch/cold.json" >/dev/null 2>"$scratch/cold.log"
	printf 'cold setup (extract + base build + layer + grade, empty cache and ccache): %s s (goal <= 480 s; load %s)\n' \
		"$(seconds_since "$start")" "$(load)"
	rm -rf "$scratch/cold-cache"
fi

# warm_regrade NAME ORIGINAL CHANGED: grades ORIGINAL once (NAME's layers exist afterwards),
# then times the grade of CHANGED (one comment differs): a student's next submission, built
# in an empty build directory like every grade.
warm_regrade() {
	"$grade" "$1" "$2" --out "$scratch/$1-warm0.json" >/dev/null 2>&1
	cmp -s "$2" "$3" 2>/dev/null && { echo "bench: $3 does not differ from $2" >&2; exit 1; }
	start=$(now)
	"$grade" "$1" "$3" --out "$scratch/$1-warm.json" >/dev/null 2>"$scratch/$1-warm.log"
	printf '%s: warm re-grade of a changed submission: %s s (goal <= 90 s; load %s)\n' \
		"$1" "$(seconds_since "$start")" "$(load)"
	grep -o "the kernel built in [0-9]* s" "$scratch/$1-warm.json" | sed 's/^/  of which: /'
	grep -E "boot '[a-z]+': [a-z]+ after" "$scratch/$1-warm.log" |
		sed -E "s/^.*boot '([a-z]+)': ([a-z]+) after ([0-9.]+) s \((.*)\)/  boot-to-result '\1': \3 s (\2, \4)/"
}

mkdir -p "$scratch/changed/kernel"
sed 's/^#define SELFTEST_MAX_VALUES 1024$/#define SELFTEST_MAX_VALUES 1024	\/* changed *\//' \
	"$cases/reference/kernel/pagelab_selftest.c" >"$scratch/changed/kernel/pagelab_selftest.c"
warm_regrade selftest "$cases/reference" "$scratch/changed"
# RRIP: a comment of the reference's mm/swap.c changed; both student files differ from
# their starting versions, so both are compiled, then one boot.
rrip_reference=instructor/rrip/reference/submission.patch
sed 's|predicts re-use soon \*/|predicts re-use soon (changed) */|' "$rrip_reference" \
	>"$scratch/rrip-changed.patch"
warm_regrade rrip "$rrip_reference" "$scratch/rrip-changed.patch"
# Counter-clock: a comment of the reference's module changed; both student files differ
# from their starting versions, so mm/vmscan.c and the module are compiled, then two boots.
clock_reference=instructor/counter-clock/reference/submission.patch
sed 's/^+ \* One counter per page frame of node 0, in/+ * One counter (changed) per page frame of node 0, in/' \
	"$clock_reference" >"$scratch/clock-changed.patch"
warm_regrade counter-clock "$clock_reference" "$scratch/clock-changed.patch"

# Sandbox overhead, per sandboxed command (a grade runs a handful: patch, make, checkpatch,
# one QEMU per boot).  A whole grade with --no-sandbox is no fair comparison: its build
# runs at a host path instead of /build, so make rebuilds the whole kernel.
python3 - "$scratch" <<'PY'
import os, subprocess, sys, time
sys.path.insert(0, "autograder")
import sandbox
RUNS = 20
def timed(run):
	start = time.monotonic()
	for _ in range(RUNS):
		run()
	return (time.monotonic() - start) / RUNS
inside = timed(lambda: sandbox.run(["true"], sandbox.CHECK_LIMITS, cwd="/"))
outside = timed(lambda: subprocess.run(["prlimit", "--", "true"]))
print(f"sandbox overhead: {inside * 1000:.0f} ms per sandboxed command vs {outside * 1000:.0f} ms"
      f" unsandboxed = {inside / outside:.1f}x per command (mean of {RUNS}; load"
      f" {os.getloadavg()[0]:.1f}); a grade runs about 5 of them")
PY

# Class throughput, through the class command (autograder/grade-class) when it exists.
if [ -x autograder/grade-class ]; then
	class=$scratch/class
	mkdir -p "$class"
	for n in 1 2 3 4; do cp -r "$cases/reference" "$class/student-ref$n"; done
	for n in 1 2; do cp -r autograder/selftest/skeleton "$class/student-skel$n"; done
	for case in compile-error oops hang style; do
		mkdir -p "$class/student-$case/kernel"
		cp "$cases/reference/kernel/pagelab_selftest.c" "$class/student-$case/kernel/"
		patch -s -p1 -d "$class/student-$case" <"$cases/$case/break.patch"
	done
	start=$(now)
	autograder/grade-class selftest "$class" --out "$scratch/class-out" >/dev/null 2>"$scratch/class.log"
	took=$(seconds_since "$start")
	printf 'class throughput: 10 submissions in %s s = %s submissions/hour at the default --jobs (load %s)\n' \
		"$took" "$(echo "scale=0; 36000 / $took" | bc)" "$(load)"
else
	echo "class throughput: not measured (autograder/grade-class, the class command, is not on this branch)"
fi

# One experiment (experiments/run): 2 kernels x 3 runs x one workload.
start=$(now)
python3 experiments/run rrip --workload hotscan --runs 3 --out "$scratch/experiment" \
	>"$scratch/experiment.md" 2>"$scratch/experiment.log"
printf 'experiment (hotscan, stock vs the rrip reference, 3 boots each): %s s (load %s)\n' \
	"$(seconds_since "$start")" "$(load)"
grep -o "kernels ready ([0-9]* s)" "$scratch/experiment.log" | sed 's/^/  of which: /'
grep -E "^\| (wall time|pages read from disk)" "$scratch/experiment.md" | sed 's/^/  /'
