#!/bin/sh
# scan-resistance.sh [PAGELAB] - which policies keep a hot set through a
# one-time scan?  Prints the Markdown table in README.md ("Scan resistance").
#
# Trace: a hot set of 32 pages referenced round-robin 20 times (640
# references), then a scan of 1000 pages never seen before or after, then
# the hot set 20 times again; 64 frames, every policy with its defaults.
# A policy that kept the hot set faults 0 times in the last phase; one that
# let the scan flush it faults at least 32 times (each hot page once).
# The last phase's faults are (faults on the whole trace) - (faults on the
# trace without it): the policies are deterministic.
PAGELAB=${PAGELAB:-build/pagelab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hot() { i=0; while [ $i -lt 20 ]; do seq 1 32; i=$((i + 1)); done; }
{ hot; seq 100001 101000; } >"$tmp/before"
{ cat "$tmp/before"; hot; } >"$tmp/all"
run() { "$PAGELAB" compare --policies all --frames 64 --trace "$1" --csv | tail -n +2; }
run "$tmp/before" | cut -d, -f1,5 >"$tmp/m1"
run "$tmp/all" | cut -d, -f1,5 >"$tmp/m2"
echo "| policy | faults after the scan (of 640 hot references) | hot set kept |"
echo "| --- | ---: | --- |"
paste -d, "$tmp/m1" "$tmp/m2" | while IFS=, read -r name before name2 all; do
	[ "$name" = "$name2" ] || { echo "scan-resistance.sh: rows differ: $name $name2" >&2; exit 1; }
	after=$((all - before))
	if [ "$after" -eq 0 ]; then kept=yes; elif [ "$after" -lt 32 ]; then kept=partly; else kept=no; fi
	echo "| $name | $after | $kept |"
done
