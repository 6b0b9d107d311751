#!/bin/sh
# test_analyses.sh - the analysis commands as a user meets them: mrc,
# anomaly, reuse, wss, lifetime, spacetime and pattern give the textbook
# and hand-worked numbers in every format, draw plots, and refuse bad
# input with a message.  Numbers are worked in the comments; the core's
# own checks against brute force are in test_analysis.c.
. "$(dirname "$0")/cli_harness.sh"
BELADY="1 2 3 4 1 2 5 1 2 3 4 5"

# Belady's string: LRU 10/8 misses at 3/4 frames, FIFO 9/10, OPT 7/6.
test_case "mrc gives the textbook misses of lru, fifo and opt on Belady's string"
pagelab mrc --policies lru,fifo,opt --frames 3:4 --refs "$BELADY" --json
expect_status 0
expect_json 'j.length === 6 && JSON.stringify(j.map((r) => [r.policy, r.frames, r.misses])) ===
	JSON.stringify([["lru",3,10],["lru",4,8],["fifo",3,9],["fifo",4,10],["opt",3,7],["opt",4,6]]) &&
	j[0].miss_ratio === 0.833333'
done_

test_case "mrc says how each curve was made and prints a row per size"
pagelab mrc --policies lru,fifo,opt --frames 1:5 --refs "$BELADY" --jobs 2
expect_status 0
expect_out "lru        one pass (stack distances)"
expect_out "fifo       one simulation per size, 2 threads"
expect_out "opt        one pass (OPT stack)"
expect_out "         4     0.6667     0.8333     0.5000"
done_

test_case "mrc --csv prints a header and one line per policy and size"
pagelab mrc --policies lru,clock --frames 1,2,4,8 --refs "$BELADY" --csv
expect_status 0
expect_out_lines 9
expect_out "policy,frames,misses,miss_ratio"
expect_out "lru,4,8,0.666667"
done_

test_case "mrc --svg draws one line per policy into the file"
pagelab mrc --policies lru,fifo --frames 1:5 --refs "$BELADY" --svg "$tmp/mrc.svg"
expect_status 0
[ "$(grep -c '<polyline' "$tmp/mrc.svg")" = 2 ] || problem "not two polylines in the plot"
grep -q '</svg>' "$tmp/mrc.svg" || problem "the plot is not a whole SVG document"
done_

test_case "mrc --sample reports the rate and an estimated error with each point"
pagelab mrc --policies lru,fifo --frames 1:3 --refs "$BELADY" --sample 1 --json
expect_status 0
expect_json 'j.every((r) => r.sample_rate === 1 && r.error_bound === 0) && j[2].misses === 10'
done_

test_case "mrc refuses sizes that are not sizes, naming the option and the value"
pagelab mrc --policies lru --frames 8:2 --refs "$BELADY"
expect_status 2
expect_err_has "pagelab: --frames: '8:2' is not a size, a list 'A,B,C' or a range 'FROM:TO[:STEP]'"
pagelab mrc --policies lru --frames 1:4 --refs "$BELADY" --sample 0
expect_status 2
expect_err_has "pagelab: --sample: '0' is not a sampling rate in (0, 1]"
done_

test_case "anomaly finds fifo's extra fault at 3 frames on Belady's string and none for lru"
pagelab anomaly --policy fifo --frames 1:10 --refs "$BELADY" --json
expect_status 0
expect_json 'JSON.stringify(j) === JSON.stringify([{frames: 3, misses: 9, next_misses: 10}])'
pagelab anomaly --policy lru --frames 1:10 --refs "$BELADY"
expect_status 0
expect_out "lru: 0 sizes of 10 where one more frame gives more misses"
done_

# fifo on Belady's string, 1..11 frames: 12 12 9 10 5 5 5 5 5 5 5; the anomaly at 3 frames.
test_case "anomaly --svg draws fifo's misses at every size run and rings the one anomaly"
pagelab anomaly --policy fifo --frames 1:10 --refs "$BELADY" --svg "$tmp/anomaly.svg"
expect_status 0
expect_out "3 frames: 9 misses; 4 frames: 10 misses (+1)"
[ "$(grep -c '<polyline' "$tmp/anomaly.svg")" = 1 ] || problem "not one line in the plot"
points=$(sed -n 's/^<polyline.* points="\([^"]*\)".*/\1/p' "$tmp/anomaly.svg")
# shellcheck disable=SC2086 # one argument a point
set -- $points
[ "$#" = 11 ] || problem "the line has $# points, not 11 (1 to 11 frames)"
# one ring on the line at 3 frames (the third point), one in the legend
grep -q "<circle cx=\"${3%,*}\" cy=\"${3#*,}\"" "$tmp/anomaly.svg" ||
	problem "no ring on the point of 3 frames ($3)"
[ "$(grep -c '<circle' "$tmp/anomaly.svg")" = 2 ] || problem "not one ring on the line and one in the legend"
grep -q ">Belady's anomaly: fifo, misses against frames<" "$tmp/anomaly.svg" ||
	problem "the title does not name the policy"
grep -q '</svg>' "$tmp/anomaly.svg" || problem "the plot is not a whole SVG document"
pagelab anomaly --policy lru --frames 1:10 --refs "$BELADY" --svg "$tmp/lru.svg" --json
expect_status 0
expect_json 'j.length === 0'
[ "$(grep -c '<circle' "$tmp/lru.svg")" = 1 ] || problem "lru's plot rings a point (the legend's ring only expected)"
done_

# "1 2 3 1 2 4 1": four first uses; three reuses at distance 3 (bucket 2 .. 3).
test_case "reuse buckets the stack distances of a hand-worked trace"
pagelab reuse --refs "1 2 3 1 2 4 1" --json
expect_status 0
expect_json 'j.references === 7 && j.distinct === 4 && j.first_references === 4 &&
	j.buckets[1].from === 2 && j.buckets[1].to === 3 && j.buckets[1].references === 3'
done_

# tau 2 over "1 2 1 2 3 4 3 4": sizes 1 2 2 2 2 2 2 2.
test_case "wss gives the working-set size per bucket and its histogram"
pagelab wss --refs "1 2 1 2 3 4 3 4" --tau 2 --points 2 --json
expect_status 0
expect_json 'j.series[0].tau === 2 && j.series[0].points[0].mean === 1.75 &&
	j.series[0].points[1].max === 2 && j.series[0].histogram[1].steps === 7'
done_

# ws tau 3 on "1 2 3 1 2 4 5 1": 6 faults, sizes summing to 21 (test_variable.c).
test_case "lifetime gives ws's faults and mean resident set and lru's beside them"
pagelab lifetime --refs "1 2 3 1 2 4 5 1" --tau 3 --frames 3 --json
expect_status 0
expect_json 'j[0].policy === "ws" && j[0].tau === 3 && j[0].faults === 6 &&
	j[0].mean_resident === 2.625 && j[0].lifetime === 1.3333 &&
	j[1].policy === "lru" && j[1].frames === 3 && j[1].faults === 6'
done_

# ST = 2.625 * (8 + 10 * 6) = 178.5
test_case "spacetime multiplies the mean resident set by run and fault time"
pagelab spacetime --refs "1 2 3 1 2 4 5 1" --tau 3 --delay 10 --json
expect_status 0
expect_json 'j.length === 1 && j[0].space_time === 178.5 && j[0].delay === 10'
pagelab spacetime --refs "1 2 3 1 2 4 5 1" --delay 10
expect_out "least space-time for ws: tau = "
expect_out "least space-time for lru: frames = "
done_

test_case "pattern counts every reference once in its time and page cell"
pagelab pattern --refs "30 10 20 20" --time-bins 2 --page-bins 3 --json
expect_status 0
expect_json 'JSON.stringify(j.counts) === JSON.stringify([[1,0,1],[0,2,0]])'
pagelab pattern --refs "30 10 20 20" --svg "$tmp/p.svg"
expect_status 0
expect_out "lowest page 10 at the bottom, highest 30 at the top"
[ "$(grep -c '<rect x=' "$tmp/p.svg")" -ge 3 ] || problem "fewer than 3 cells drawn"
done_

test_case "pattern --svg leaves the text picture 72 columns wide and plots on the finer grid of --json"
refs=$(seq 0 299 | awk '{ printf "%d ", $1 % 37 }')
pagelab pattern --refs "$refs" --json --svg "$tmp/json.svg"
expect_status 0
expect_json 'j.time_bins === 200 && j.page_bins === 37'
pagelab pattern --refs "$refs" --svg "$tmp/text.svg"
expect_status 0
expect_out_lines 23
[ "$(grep '^|' "$tmp/out" | awk '{ print length }' | sort -u)" = 73 ] ||
	problem "the picture's rows are not '|' and 72 columns"
cmp -s "$tmp/text.svg" "$tmp/json.svg" || problem "the plot beside the text is not the 200-column one"
pagelab pattern --refs "$refs" --time-bins 30 --page-bins 8 --svg "$tmp/text.svg"
expect_out_lines 11
[ "$(grep '^|' "$tmp/out" | awk '{ print length }' | sort -u)" = 31 ] ||
	problem "--time-bins 30 did not give 30 columns"
[ "$(grep -c 'width="20.00" height="47.50"' "$tmp/text.svg")" -ge 1 ] ||
	problem "--time-bins 30 --page-bins 8 did not make the plot 30 x 8 cells"
done_

test_case "wss --svg leaves the text table 20 rows long and plots the 200 points of --json"
refs=$(seq 0 999 | awk '{ printf "%d ", $1 % 53 }')
pagelab wss --refs "$refs" --json --svg "$tmp/json.svg"
expect_status 0
expect_json 'j.series[0].points.length === 200'
pagelab wss --refs "$refs" --svg "$tmp/text.svg"
expect_status 0
expect_out_lines 29
cmp -s "$tmp/text.svg" "$tmp/json.svg" || problem "the plot beside the text is not the 200-point one"
pagelab wss --refs "$refs" --points 30 --json --svg "$tmp/json.svg"
pagelab wss --refs "$refs" --points 30 --svg "$tmp/text.svg"
expect_out_lines 39
cmp -s "$tmp/text.svg" "$tmp/json.svg" || problem "--points 30 did not set the plot's points too"
done_

# ------------------------------------------------- real programs' traces
TRACES="$(dirname "$0")/../../labs/traces"

# misses of `pagelab run` for policy $1 at $2 frames over trace $3
run_misses() {
	"$PAGELAB" run --policy "$1" --frames "$2" --trace "$3" --json 2>/dev/null |
		node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0)).misses))'
}

test_case "mrc over sort's Valgrind trace equals a run at every size for lru, fifo and opt"
pagelab mrc --policies lru,fifo,opt --frames 8,16,64,256 --trace "$TRACES/sort.pltrace.gz" --csv
expect_status 0
expect_err_has "read $TRACES/sort.pltrace.gz as binary, gzip"
for policy in lru fifo opt; do
	for frames in 8 16 64 256; do
		want=$(run_misses "$policy" "$frames" "$TRACES/sort.pltrace.gz")
		grep -q "^$policy,$frames,$want," "$tmp/out" ||
			problem "$policy at $frames frames: mrc differs from run ($want misses)"
	done
done
done_

test_case "mrc streams lru over ls -lR's trace and gives a run's misses"
pagelab mrc --policies lru --frames 32,128 --trace "$TRACES/ls-lR.pltrace.gz" --json
expect_status 0
want32=$(run_misses lru 32 "$TRACES/ls-lR.pltrace.gz")
want128=$(run_misses lru 128 "$TRACES/ls-lR.pltrace.gz")
expect_json "j[0].misses === $want32 && j[1].misses === $want128"
done_

test_case "mrc streams per-size policies from a file and from stdin on 2 threads and equals a run at every size"
pagelab mrc --policies fifo,clock,lru --frames 8,32,128 --trace "$TRACES/ls-lR.pltrace.gz" --csv --jobs 2
expect_status 0
cp "$tmp/out" "$tmp/file.csv"
for policy in fifo clock lru; do
	for frames in 8 32 128; do
		want=$(run_misses "$policy" "$frames" "$TRACES/ls-lR.pltrace.gz")
		grep -q "^$policy,$frames,$want," "$tmp/file.csv" ||
			problem "$policy at $frames frames: streamed mrc differs from run ($want misses)"
	done
done
"$PAGELAB" mrc --policies fifo,clock,lru --frames 8,32,128 --trace - --csv --jobs 2 \
	<"$TRACES/ls-lR.pltrace.gz" >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/out" "$tmp/file.csv" || problem "stdin gave another curve than the file"
done_

test_case "mrc --sample gives the same estimate from a file, from stdin and from --refs"
gunzip -c "$TRACES/ls-lR.pltrace.gz" >"$tmp/ls.bin"
"$PAGELAB" convert --trace "$tmp/ls.bin" --to text -o "$tmp/ls.txt" 2>/dev/null
pagelab mrc --policies lru,fifo --frames 16,64 --trace "$tmp/ls.txt" --sample 0.3 --csv
expect_status 0
expect_out_lines 5
cp "$tmp/out" "$tmp/file.csv"
"$PAGELAB" mrc --policies lru,fifo --frames 16,64 --trace - --sample 0.3 --csv \
	<"$tmp/ls.txt" >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/out" "$tmp/file.csv" || problem "stdin gave another estimate than the file"
sed 1d "$tmp/ls.txt" | head -n 3000 | cut -d' ' -f1 >"$tmp/part.txt"	# pages only
refs=$(tr '\n' ' ' <"$tmp/part.txt")
"$PAGELAB" mrc --policies lru,fifo --frames 16,64 --trace "$tmp/part.txt" --sample 0.3 --csv \
	>"$tmp/file.csv" 2>/dev/null
pagelab mrc --policies lru,fifo --frames 16,64 --refs "$refs" --sample 0.3 --csv
cmp -s "$tmp/out" "$tmp/file.csv" || problem "--refs gave another estimate than the same file"
done_

test_case "wss streams a trace file and stdin and gives what the same references give loaded from --refs"
pagelab gen phases --memory 64 --length 3000 -o "$tmp/ph.txt"
grep -v '^#' "$tmp/ph.txt" >"$tmp/ph-pages.txt"
pagelab wss --tau 10,100 --points 30 --trace "$tmp/ph-pages.txt" --csv
expect_status 0
expect_out_lines 61
cp "$tmp/out" "$tmp/file.csv"
"$PAGELAB" wss --tau 10,100 --points 30 --trace - --csv <"$tmp/ph-pages.txt" >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/out" "$tmp/file.csv" || problem "stdin gave another series than the file"
pagelab wss --tau 10,100 --points 30 --refs "$(tr '\n' ' ' <"$tmp/ph-pages.txt")" --csv
cmp -s "$tmp/out" "$tmp/file.csv" || problem "--refs (loaded) gave another series than the file (streamed)"
done_

test_case "pattern streams a trace file and stdin and counts what the same references give loaded from --refs"
pagelab gen phases --memory 64 --length 3000 --seed 5 -o "$tmp/ph5.txt"
grep -v '^#' "$tmp/ph5.txt" >"$tmp/ph5-pages.txt"
pagelab pattern --time-bins 30 --page-bins 8 --trace "$tmp/ph5-pages.txt" --json
expect_status 0
expect_json "j.references === 3000 && j.counts.length === 30 && j.counts.flat().reduce((a, b) => a + b) === 3000"
cp "$tmp/out" "$tmp/file.json"
"$PAGELAB" pattern --time-bins 30 --page-bins 8 --trace - --json <"$tmp/ph5-pages.txt" >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/out" "$tmp/file.json" || problem "stdin gave other counts than the file"
pagelab pattern --time-bins 30 --page-bins 8 --refs "$(tr '\n' ' ' <"$tmp/ph5-pages.txt")" --json
cmp -s "$tmp/out" "$tmp/file.json" || problem "--refs (loaded) gave other counts than the file (streamed)"
done_

test_case "lifetime over ls -lR's trace gives the ws policy's faults and mean resident set"
pagelab lifetime --trace "$TRACES/ls-lR.pltrace.gz" --tau 100,1000 --json
expect_status 0
for tau in 100 1000; do
	"$PAGELAB" run --policy ws --param tau=$tau --trace "$TRACES/ls-lR.pltrace.gz" --json \
		>"$tmp/ws.json" 2>/dev/null
	node -e '
		const [life, ws] = [process.argv[1], process.argv[2]].map((f) =>
			JSON.parse(require("fs").readFileSync(f, "utf8")));
		const p = life.find((r) => r.tau === Number(process.argv[3]));
		process.exit(p.faults === ws.misses &&
			Math.abs(p.mean_resident - ws.mean_resident) < 0.001 ? 0 : 1);' \
		"$tmp/out" "$tmp/ws.json" "$tau" || problem "tau $tau differs from the ws policy"
done
done_

test_case "wss, reuse, pattern and spacetime read a raw Lackey log"
for command in "wss --tau 100,1000" reuse pattern "spacetime --delay 1000"; do
	# shellcheck disable=SC2086 # splitting is the point
	pagelab $command --trace "$TRACES/ls.lackey.gz" --json
	[ "$status" = 0 ] || problem "'$command' exited $status"
	grep -q "as lackey, gzip" "$tmp/err" || problem "'$command' did not say it read Lackey"
done
done_

test_case "the analyses refuse a bad trace file naming the file and the line"
printf '1\n2\nbanana\n' >"$tmp/bad.txt"
for command in "mrc --policies lru --frames 1:2" "wss" "lifetime" "spacetime" "reuse" \
	"pattern" "anomaly --policy fifo --frames 1:2"; do
	# shellcheck disable=SC2086 # splitting is the point
	pagelab $command --trace "$tmp/bad.txt"
	[ "$status" = 1 ] || problem "'$command' exited $status"
	grep -q "bad.txt:3" "$tmp/err" || problem "'$command' did not name bad.txt:3"
done
done_

test_case "every analysis command has help"
for command in mrc wss lifetime spacetime reuse pattern anomaly; do
	pagelab "$command" --help
	[ "$status" = 0 ] || problem "'$command --help' exited $status"
	grep -q "^usage: pagelab $command" "$tmp/out" || problem "'$command --help' has no usage"
done
done_

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
