#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# callgrind.sh - instructions per reference of every policy, counted by
# callgrind: the same figure whatever else the machine is doing, unlike a
# time.  Run through `make bench-callgrind [MILLIONS=m] [POLICIES=a,b]`.
#
#   bench/callgrind.sh BENCH MILLIONS [POLICIES]
#
# Runs `BENCH --windows MILLIONS POLICIES` under callgrind, counting only
# inside pl_sim_run() and the yardstick's minimal_lru_run() and dumping the
# count after every call; the bench makes one call per million references
# and says on stdout which call is which ("window NAME K"), so dump file K
# of the run holds the instructions of the K-th announced window.  Prints,
# per policy, the instructions per reference of the millions 1, 2, 4, 8, 16
# (those within MILLIONS; a flat row means amortized O(1)) and the ratio of
# the last to that of the minimal LRU.  The first million starts with empty
# memory, so it misses less than a full memory would.  A benchmark: it
# prints figures and fails only if it cannot run.
set -eu

bench=$1
millions=$2
policies=${3:-}

command -v valgrind >/dev/null ||
	{ echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

valgrind --tool=callgrind --toggle-collect=pl_sim_run --toggle-collect=minimal_lru_run \
	--dump-after=pl_sim_run --dump-after=minimal_lru_run \
	--callgrind-out-file="$dir/out" "$bench" --windows "$millions" $policies \
	>"$dir/windows" 2>"$dir/valgrind.log" ||
	{ cat "$dir/valgrind.log" >&2; exit 1; }

# One "NAME K INSTRUCTIONS" line per window, in call order.
k=0
while read -r _ name window; do
	k=$((k + 1))
	[ -f "$dir/out.$k" ] ||
		{ echo "callgrind.sh: no dump for window $name $window (call $k)" >&2; exit 1; }
	echo "$name $window $(sed -n 's/^totals: //p' "$dir/out.$k")"
done <"$dir/windows" >"$dir/counts"

echo "Instructions per reference (callgrind), zipf(0.9) over 1M pages, 65536 frames,"
echo "in the million references ending at:"
awk -v millions="$millions" '
	{ ir[$1, $2] = $3 / 1e6; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	END {
		printf "  %-12s", "policy"
		for (m = 1; m <= millions; m *= 2)
			printf " %7sM", m
		printf "   x minimal at %dM\n", last(millions)
		for (i = 0; i < n; i++) {
			printf "  %-12s", order[i]
			for (m = 1; m <= millions; m *= 2)
				printf " %8.1f", ir[order[i], m]
			printf "   %6.2f\n", ir[order[i], last(millions)] / ir["minimal", last(millions)]
		}
	}
	function last(millions,   m) { for (m = 1; m * 2 <= millions; m *= 2); return m }
' "$dir/counts"
