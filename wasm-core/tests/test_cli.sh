#!/bin/sh
# test_cli.sh - the pagelab CLI as a user meets it: outputs, formats, help,
# and a clear message with a non-zero exit (never a crash) for bad input.
#
# Run by 'make test' with PAGELAB set to the CLI under test (the normal
# build and the ASan+UBSan one).  JSON output is checked by parsing it with
# node (required by the project anyway).  Ends with "N passed, N failed".
. "$(dirname "$0")/cli_harness.sh"
OSC="7,0,1,2,0,3,0,4,2,3,0,3,2,1,2,0,1,7,0,1"	# Silberschatz's string

# ----------------------------------------------------------------- outputs
test_case "run prints lru's 12 faults on Silberschatz's string with 3 frames"
pagelab run --policy lru --frames 3 --refs "$OSC"
expect_status 0
expect_out "policy         lru (Least Recently Used)"
expect_out "misses         12"
expect_out "hits           8"
expect_out "evictions      9"
expect_out "hit ratio      40.00%"
expect_out "mean resident  2.85"
done_

test_case "run without --frames gives ws an unbounded memory and reports its mean resident set"
pagelab run --policy ws --refs "1 2 3 1 2 4 5 1" --param tau=3 --json
expect_status 0
expect_json 'j.frames === null && j.misses === 6 && j.mean_resident === 2.625'
done_

test_case "run without --frames is refused for a fixed-space policy"
pagelab run --policy lru --refs "1 2 3"
expect_status 2
expect_err_has "pagelab: --frames is required"
done_

test_case "run --json prints one object with the summary keys"
pagelab run --policy fifo --frames 3 --refs "$OSC" --json
expect_status 0
expect_out_lines 1
expect_json 'j.policy === "fifo" && j.frames === 3 && j.references === 20 && j.hits === 5 &&
	j.misses === 15 && j.evictions === 12 && j.writebacks === 0'
done_

test_case "run counts a written page as written back when it is evicted"
pagelab run --policy fifo --frames 1 --refs "1w 2 1 2W 3" --json
expect_status 0
expect_json 'j.evictions === 4 && j.writebacks === 2'
done_

test_case "run --events streams one JSON line per event and ends with the summary"
pagelab run --policy lru --frames 3 --refs "$OSC" --events
expect_status 0
expect_json 'lines.filter((e) => e.kind === "miss").length === 12 &&
	lines.filter((e) => e.kind === "evict").length === 9 &&
	lines[lines.length - 1].policy === "lru" && lines[lines.length - 1].misses === 12'
done_

test_case "events name lists, say writeback and give pages as the input numbers"
pagelab run --policy fifo --frames 1 --refs "0x10w 32" --events
expect_status 0
expect_out '{"step":0,"kind":"insert","page":16,"list":"queue","pos":0}'
expect_out '{"step":1,"kind":"evict","page":16,"list":"queue","writeback":true}'
done_

test_case "compare prints one row per policy with fifo, lru and opt's textbook faults"
pagelab compare --policies fifo,lru,opt --frames 3 --refs "$OSC"
expect_status 0
expect_out_lines 4
[ "$(awk '$1 == "fifo" { print $5 }' "$tmp/out")" = 15 ] || problem "fifo misses not 15"
[ "$(awk '$1 == "lru" { print $5 }' "$tmp/out")" = 12 ] || problem "lru misses not 12"
[ "$(awk '$1 == "opt" { print $5 }' "$tmp/out")" = 9 ] || problem "opt misses not 9"
done_

test_case "compare --csv prints a header row and one row per policy"
pagelab compare --policies fifo,lru --frames 3 --refs "$OSC" --csv
expect_status 0
expect_out_lines 3
expect_out "policy,frames,references,hits,misses,evictions,writebacks,hit_ratio"
expect_out "fifo,3,20,5,15,12,0,0.250000"
expect_out "lru,3,20,8,12,9,0,0.400000"
done_

test_case "compare --json prints an array of summaries in the order asked"
pagelab compare --policies lru,fifo --frames 4 --refs "1 2 3 4 1 2 5 1 2 3 4 5" --json
expect_status 0
expect_json 'j.length === 2 && j[0].policy === "lru" && j[1].policy === "fifo" &&
	j[1].misses === 10 && j[0].misses === 8'
done_

test_case "compare --policies all covers every policy that list names"
"$PAGELAB" list --json >"$tmp/list.json" 2>/dev/null
pagelab compare --policies all --frames 3 --refs "$OSC" --json
expect_status 0
expect_json 'JSON.stringify(j.map((r) => r.policy)) === JSON.stringify(
	JSON.parse(require("fs").readFileSync("'"$tmp/list.json"'", "utf8")).map((p) => p.name))'
done_

test_case "compare applies a parameter to the policies that have it"
pagelab compare --policies lru,clock --frames 3 --refs "$OSC" --param ref_on_load=clear --json
expect_status 0
expect_json 'j[1].params.ref_on_load === "clear" && JSON.stringify(j[0].params) === "{}"'
done_

test_case "list names every policy with its parameters"
pagelab list
expect_status 0
expect_out "fifo"
expect_out "lru"
expect_out "--param ref_on_load=set"
done_

test_case "list --json describes lists, fields and parameter ranges"
pagelab list --json
expect_status 0
expect_json 'j.length >= 2 && j[0].name === "fifo" && j[0].lists[0] === "queue" &&
	j.every((p) => p.params.every((q) => q.min <= q.default && q.default <= q.max))'
done_

test_case "run takes parameters by choice name or by number"
pagelab run --policy clock --frames 3 --refs "$OSC" --param ref_on_load=clear --json
expect_status 0
expect_json 'j.params.ref_on_load === "clear"'
pagelab run --policy clock --frames 3 --refs "$OSC" --param ref_on_load=0 --json
expect_json 'j.params.ref_on_load === "clear"'
done_

test_case "a trace file gives the same result as the same references inline"
printf '# Silberschatz\n7\n0\n1\n2\r\n0\n3\n0\n4\n2\n3\n0\n3\n2\n1\n2\n0\n1\n7\n0\n1\n' >"$tmp/osc.txt"
pagelab run --policy lru --frames 3 --trace "$tmp/osc.txt" --json
expect_status 0
expect_json 'j.references === 20 && j.misses === 12'
done_

test_case "--trace - reads standard input"
"$PAGELAB" run --policy lru --frames 3 --trace - --json <"$tmp/osc.txt" >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status 0
expect_json 'j.misses === 12'
done_

test_case "--option=value works like --option value"
pagelab run --policy=lru --frames=3 --refs="$OSC" --json
expect_status 0
expect_json 'j.misses === 12'
done_

# -------------------------------------------------------------------- help
test_case "--help describes every command and exits 0"
for command in run compare list; do
	pagelab "$command" --help
	expect_status 0
	expect_out "usage: pagelab $command"
	pagelab help "$command"
	expect_status 0
	expect_out "usage: pagelab $command"
done
pagelab --help
expect_status 0
expect_out "usage: pagelab COMMAND"
done_

test_case "no arguments print the usage on stderr and exit 2"
pagelab
expect_status 2
expect_err_has "usage: pagelab COMMAND"
done_

# --------------------------------------------------------------- bad input
test_case "an unknown command is named"
pagelab frob
expect_status 2
expect_err "pagelab: 'frob' is not a command (run, compare, list, gen, experiment, mrc, wss, lifetime, spacetime, reuse, pattern, anomaly or convert)
(see 'pagelab --help')"
done_

test_case "an unknown option is named with its command"
pagelab run --policy lru --frames 3 --refs 1 --color
expect_status 2
expect_err "pagelab: '--color' is not an option of 'pagelab run'
(see 'pagelab run --help')"
pagelab list --csv
expect_status 2
expect_err_has "'--csv' is not an option of 'pagelab list'"
done_

test_case "an option without its value is named"
pagelab run --policy lru --refs 1 --frames
expect_status 2
expect_err_has "pagelab: --frames needs a value"
done_

test_case "a bad number of frames is refused with the range"
for frames in 0 abc -1 3x 4294967295 99999999999999999999; do
	pagelab run --policy lru --frames "$frames" --refs 1
	expect_status 2
	expect_err_has "pagelab: --frames: '$frames' is not a number of frames (1 .. 4294967294)"
done
done_

test_case "policy names are not case sensitive"
pagelab compare --policies LRU,Fifo --frames 3 --refs "$OSC" --csv
expect_status 0
expect_out "lru,3,20,8,12,9,0,0.400000"
expect_out "fifo,3,20,5,15,12,0,0.250000"
done_

test_case "an unknown policy is named with the known ones"
pagelab run --policy lrux --frames 3 --refs 1
expect_status 2
expect_err_has "pagelab: no policy named 'lrux' (known: fifo, lru"
pagelab compare --policies fifo,,nope --frames 3 --refs 1
expect_status 2
expect_err_has "no policy named 'nope'"
done_

test_case "a bad reference is named with its token and line"
pagelab run --policy lru --frames 3 --refs "1,2,x3,4"
expect_status 1
expect_err "pagelab: --refs:1: 'x3' is not a page number (decimal or 0x-hex, optional trailing w for a write)"
done_

test_case "a bad line in a trace file is named with the file and line"
printf '1\n2\n# comment\n3 r\n' >"$tmp/bad.txt"
pagelab run --policy lru --frames 3 --trace "$tmp/bad.txt"
expect_status 1
expect_err "pagelab: $tmp/bad.txt:4: 'r' is not a page number (decimal or 0x-hex, optional trailing w for a write)"
done_

test_case "a missing trace file is named with the reason"
pagelab compare --policies lru --frames 3 --trace "$tmp/nope.txt"
expect_status 1
expect_err "pagelab: cannot open trace '$tmp/nope.txt': No such file or directory"
done_

test_case "a directory given as a trace is refused, not read as empty"
pagelab run --policy lru --frames 3 --trace "$tmp"
expect_status 1
expect_err_has "pagelab: $tmp"
done_

test_case "references are required exactly once"
pagelab run --policy lru --frames 3
expect_status 2
expect_err_has "pagelab: give the references with --refs or --trace"
pagelab run --policy lru --frames 3 --refs 1 --trace "$tmp/osc.txt"
expect_status 2
expect_err_has "pagelab: give either --refs or --trace, not both"
pagelab run --policy lru --frames 3 --refs " , "
expect_status 1
expect_err "pagelab: --refs: no references"
printf '# nothing\n\n' >"$tmp/empty.txt"
pagelab run --policy lru --frames 3 --trace "$tmp/empty.txt"
expect_status 1
expect_err "pagelab: $tmp/empty.txt: no references"
done_

test_case "an option given twice is refused"
pagelab run --policy lru --policy fifo --frames 3 --refs 1
expect_status 2
expect_err_has "pagelab: --policy given twice"
done_

test_case "a bad parameter is named with what is valid"
pagelab run --policy lru --frames 3 --refs 1 --param k=2
expect_status 2
expect_err_has "pagelab: --param k=2: policy lru has no parameters (got 'k')"
pagelab run --policy clock --frames 3 --refs 1 --param ref_on_load=maybe
expect_status 2
expect_err_has "clock: 'maybe' is not a valid value for ref_on_load: expected one of clear, set"
pagelab run --policy random --frames 3 --refs 1 --param seed=-5
expect_status 2
expect_err_has "random: '-5' is not a valid value for seed: expected an integer from 0 to"
pagelab run --policy random --frames 3 --refs 1 --param seed
expect_status 2
expect_err_has "'seed' is not a parameter setting: expected name=value"
pagelab compare --policies fifo,lru --frames 3 --refs 1 --param seed=3
expect_status 2
expect_err_has "--param seed=3: none of the policies has that parameter"
done_

test_case "conflicting output formats are refused"
pagelab compare --policies lru --frames 3 --refs 1 --json --csv
expect_status 2
expect_err_has "choose one of --json and --csv"
pagelab run --policy lru --frames 3 --refs 1 --json --events
expect_status 2
done_

test_case "gen writes the same trace for the same name, memory and seed, and another for another seed"
pagelab gen seed001-rand --memory 32 --seed 7
expect_status 0
cp "$tmp/out" "$tmp/first"
pagelab gen seed001-rand --memory 32 --seed 7
cmp -s "$tmp/out" "$tmp/first" || problem "two runs with seed 7 differ"
pagelab gen seed001-rand --memory 32 --seed 8
cmp -s "$tmp/out" "$tmp/first" && problem "seeds 7 and 8 gave the same trace"
expect_out "# pagelab gen seed001-rand --memory 32 --seed 8"
done_

test_case "gen writes a trace that run reads, with the sleeps of a timed workload as times"
pagelab gen seed002-lru-wins --memory 16 -o "$tmp/t.trace"
expect_status 0
grep -q "^page time$" "$tmp/t.trace" || problem "no 'page time' header"
grep -q "^1 1000$" "$tmp/t.trace" || problem "the second read is not at t=1000 ms"
pagelab run --policy lru --frames 16 --trace "$tmp/t.trace" --json
expect_status 0
expect_json 'j.references === 84 && j.misses === 16'
done_

test_case "gen and experiment refuse an unknown name and say which exist"
pagelab gen seed042
expect_status 2
expect_err_has "'seed042' is not a workload (seed000-iterative, seed000-skewed,"
pagelab experiment
expect_status 2
expect_err_has "which experiment? (seed000, seed001, seed002, seed003 or seed004)"
pagelab gen seed001-seq --memory 0
expect_status 2
expect_err_has "--memory: '0' is not a number in 1 .. 1048576"
pagelab gen seed001-seq extra
expect_status 2
done_

test_case "experiment seed004 compares WS and LRU at the same mean memory and gives a verdict"
pagelab experiment seed004 --memory 64 --json
expect_status 0
expect_json 'j.runs.length === 13 && j.runs.every((r) => r.result) &&
	j.comparisons.length === 6 && typeof j.reproduced === "boolean" && j.why.length > 20'
done_

test_case "experiment seed002 reproduces both of the report's directions at 1024 pages"
pagelab experiment seed002 --json
expect_status 0
expect_json 'j.reproduced === true && j.comparisons.length === 2 &&
	j.runs.every((r) => r.result && r.result.params.anon_percent === 0)'
done_

test_case "experiment seed001 runs counter_clock beside linux and says why the report differs"
pagelab experiment seed001 --memory 64 --json
expect_status 0
expect_json 'j.runs.length === 16 && j.runs.every((r) => r.result) &&
	j.runs.filter((r) => r.policy === "counter_clock").every((r) => r.result.params.period === 64) &&
	j.comparisons.length === 8 && j.reproduced === false && j.why.includes("Rand")'
done_

test_case "experiment seed003 sets the report's seven figures beside pagelab's"
pagelab experiment seed003 --memory 64
expect_status 0
expect_out "refaults, Slim / FreeBSD"
expect_out "queued_for_flush, Slim / FreeBSD"
expect_out "report's conclusion: Slim Chance is worse in every category"
pagelab experiment seed003 --memory 64 --csv
expect_out_lines 3
done_

# ------------------------------------------------------------ processes
printf 'page pid\n1 1\n2 1\n100 2\n1 1\n101 2\n3 1\n100 2\n2 1\n' >"$tmp/procs.txt"

test_case "run --scope local gives each process its share of the frames and shows it per process"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --scope local
expect_status 0
expect_out "misses         7"
expect_out "local scope, per process:"
[ "$(awk '$1 == "1" && $2 == "2" { print $5 }' "$tmp/out")" = 4 ] ||
	problem "process 1 (2 frames) did not miss 4 times"
[ "$(awk '$1 == "2" && $2 == "1" { print $5 }' "$tmp/out")" = 3 ] ||
	problem "process 2 (1 frame) did not miss 3 times"
done_

test_case "run --scope local --param share splits the frames by weight, in JSON too"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --scope local --param share=1:1,2:2 --json
expect_status 0
expect_json 'j.scope === "local" && j.processes.length === 2 && j.processes[0].frames === 1 &&
	j.processes[1].frames === 2 && j.processes[0].misses === 5 && j.processes[1].misses === 2'
done_

test_case "run under global scope counts each process's misses when the trace has pids"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --json
expect_status 0
expect_json 'j.scope === "global" && j.processes[0].pid === 1 && j.processes[0].misses === 4 &&
	j.processes[1].misses === 3 && j.processes[0].frames === undefined'
done_

test_case "scope mistakes are usage errors that say what to do"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --scope nearby
expect_status 2
expect_err_has "pagelab: --scope: 'nearby' is not a scope (global or local)"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --param share=1:1,2:1
expect_status 2
expect_err_has "pagelab: --param share: shares are for --scope local"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --scope local --param share=1:x
expect_status 2
expect_err_has "'1:x' is not a list of PID:WEIGHT"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --scope local --events
expect_status 2
expect_err_has "pagelab: --events: with --scope local"
pagelab run --policy lru --frames 3 --trace "$tmp/procs.txt" --scope local --param share=1:1
expect_status 1
expect_err "pagelab: share: process 2 has no share (give one for every process, e.g. share=2:1,...)"
done_

test_case "compare runs ws and pff without --frames, unbounded, with their mean resident set"
pagelab compare --policies ws,pff --refs "1 2 3 1 2 4 5 1" --param tau=3 --csv
expect_status 0
expect_out "ws,,8,2,6,3,0,0.250000,2.625"
pagelab compare --policies ws,pff --refs "1 2 3 1 2 4 5 1" --param tau=3
expect_out "ws           unbounded"
done_

test_case "compare without --frames names the policy that needs them"
pagelab compare --policies ws,lru --refs "1 2 3"
expect_status 2
expect_err_has "pagelab: --frames is required for lru"
done_

test_case "garbage arguments never crash"
for args in "run --" "run -" "run --policy" "compare --policies , --frames 1 --refs 1" \
	"run --policy= --frames=1 --refs=1" "run --frames 1 --policy lru --refs 0xw" \
	"list extra" "compare --policies lru --frames 1 --refs 1 --events"; do
	# shellcheck disable=SC2086 # splitting is the point
	pagelab $args
	[ "$status" = 1 ] || [ "$status" = 2 ] || problem "'$args' exited $status"
	grep -q '^pagelab: ' "$tmp/err" || problem "'$args' gave no 'pagelab:' message"
done
done_

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
