#!/bin/sh
# test_traces.sh - trace files as a user meets them: every format read,
# detected and reported, streamed runs equal to runs in memory, convert's
# round trips, gen's synthetic workloads, the shipped Valgrind traces, and
# a clear error (file, line, token) for bad input in every format.
#
# Run by 'make test' with PAGELAB set to the CLI under test (the normal
# build and the ASan+UBSan one); the harness is tests/cli_harness.sh.
. "$(dirname "$0")/cli_harness.sh"

# misses N: the misses line of the last run's text output
misses() {
	sed -n 's/^misses *//p' "$tmp/out"
}

# field NAME: NAME's value in the last run's JSON line
field() {
	tail -n 1 "$tmp/out" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"
}

test_case "a trace file and stdin are streamed and give the counts of the trace loaded whole"
pagelab gen zipf --memory 256 --length 50000 --writes 10 -o "$tmp/z.txt"
pagelab run --policy clock --frames 200 --trace "$tmp/z.txt" --events
expect_status 0
loaded="$(field misses) $(field writebacks) $(field hits)"
[ "$loaded" != "  " ] || problem "no counts in the --events summary"
pagelab run --policy clock --frames 200 --trace "$tmp/z.txt" --json
streamed="$(field misses) $(field writebacks) $(field hits)"
[ "$streamed" = "$loaded" ] || problem "the file streamed gave $streamed, loaded whole $loaded"
"$PAGELAB" run --policy clock --frames 200 --trace - --json <"$tmp/z.txt" >"$tmp/out" 2>"$tmp/err"
piped="$(field misses) $(field writebacks) $(field hits)"
[ "$piped" = "$loaded" ] || problem "stdin streamed gave $piped, loaded whole $loaded"
done_

test_case "a trace whose first write comes after batches of reads streams the writebacks it has loaded"
pagelab gen zipf --memory 256 --length 40000 -o "$tmp/reads.txt"
pagelab gen zipf --memory 256 --length 10000 --writes 50 --seed 2 -o "$tmp/writes.txt"
cat "$tmp/reads.txt" "$tmp/writes.txt" >"$tmp/late.txt"
pagelab run --policy lru --frames 100 --trace "$tmp/late.txt" --events
loaded="$(field misses) $(field writebacks)"
[ "$(field writebacks)" -gt 0 ] || problem "the late writes made no writeback: $loaded"
pagelab run --policy lru --frames 100 --trace "$tmp/late.txt" --json
streamed="$(field misses) $(field writebacks)"
[ "$streamed" = "$loaded" ] || problem "the file streamed gave $streamed, loaded whole $loaded"
done_

test_case "a text file read while simulated, past where the reader must wait, counts as the pipe read twice"
# lru and fifo are PL_POLICY_SPARSE: a file of theirs is simulated while a
# thread reads it, into three laps of 2^19 references whose memory moves on
# as the simulations pass them; a pipe takes two passes
pagelab gen zipf --memory 100000 --length 2500000 --writes 5 -o "$tmp/long.txt"
pagelab compare --policies lru,fifo --frames 5000 --trace "$tmp/long.txt" --csv
expect_status 0
cp "$tmp/out" "$tmp/one-pass"
# (through cat: a redirected file is a file, which streams in one pass too)
cat "$tmp/long.txt" | "$PAGELAB" compare --policies lru,fifo --frames 5000 --trace - --csv >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/one-pass" "$tmp/out" || problem "read while simulated: $(cat "$tmp/one-pass"); piped: $(cat "$tmp/out")"
done_

test_case "a file read while simulated writes no write of an earlier lap into a later one"
# the first 2^19 references write, the next 2^21 only read: the laps they
# land in held the writes' flags before
pagelab gen zipf --memory 1000 --length 524288 --writes 50 -o "$tmp/early.txt"
pagelab gen zipf --memory 100000 --length 2097152 --seed 2 -o "$tmp/reads.txt"
cat "$tmp/early.txt" "$tmp/reads.txt" >"$tmp/early-writes.txt"
pagelab run --policy lru --frames 500 --trace "$tmp/early-writes.txt" --json
expect_status 0
streamed="$(field misses) $(field writebacks)"
cat "$tmp/early-writes.txt" | "$PAGELAB" run --policy lru --frames 500 --trace - --json >"$tmp/out" 2>"$tmp/err"
piped="$(field misses) $(field writebacks)"
[ "$streamed" = "$piped" ] || problem "read while simulated: $streamed; piped: $piped"
done_

test_case "compare streams every policy over one read of the file, and agrees with run"
pagelab gen phases --memory 64 --length 20000 -o "$tmp/p.txt"
pagelab run --policy arc --frames 50 --trace "$tmp/p.txt"
arc=$(misses)
pagelab compare --policies lru,arc,opt --frames 50 --trace "$tmp/p.txt" --csv
expect_status 0
expect_out "arc,50,20000,"
grep "^arc," "$tmp/out" | cut -d, -f5 | grep -qx "$arc" || problem "compare's arc row differs from run's $arc misses"
done_

test_case "convert round-trips a trace through binary and back to the same text"
pagelab gen mix --memory 64 --length 5000 --writes 30 -o "$tmp/m.txt"
pagelab convert --trace "$tmp/m.txt" --to binary -o "$tmp/m.bin"
expect_status 0
expect_err "pagelab: 5000 references from $tmp/m.txt (csv) written as binary"
pagelab convert --trace "$tmp/m.bin" -o "$tmp/m2.txt"
expect_status 0
grep -v '^#' "$tmp/m.txt" >"$tmp/m1.txt"
cmp -s "$tmp/m1.txt" "$tmp/m2.txt" || problem "text -> binary -> text changed the trace"
head -n 1 "$tmp/m2.txt" | grep -qx "page pid" || problem "the mix trace lost its pid column"
pagelab run --policy lru --frames 40 --trace "$tmp/m.bin"
binary=$(misses)
pagelab run --policy lru --frames 40 --trace "$tmp/m.txt"
[ "$(misses)" = "$binary" ] || problem "binary gave $binary misses, text $(misses)"
done_

test_case "convert writes into a FIFO or device in place, never replacing it with a file"
pagelab gen uniform --memory 16 --length 300 -o "$tmp/f.txt"
mkfifo "$tmp/fifo"
timeout 10 cat "$tmp/fifo" >"$tmp/through-fifo.txt" &
reader=$!
pagelab convert --trace "$tmp/f.txt" -o "$tmp/fifo"
expect_status 0
wait "$reader"
[ -p "$tmp/fifo" ] || problem "the FIFO was replaced by a file"
[ ! -e "$tmp/fifo.partial" ] || problem "a partial file was left beside the FIFO"
grep -v '^#' "$tmp/f.txt" | cmp -s - "$tmp/through-fifo.txt" || problem "the reader of the FIFO did not get the trace"
done_

test_case "a gzip-compressed Lackey trace is detected, reported and read page by page"
printf '==9== Lackey\nI  04000ba0,3\n S 1fff000ffc,8\nI  04000ba3,2\n L 04000ba8,4\n' | gzip >"$tmp/l.gz"
pagelab run --policy lru --frames 2 --trace "$tmp/l.gz" --json
expect_status 0
expect_json 'j.references === 5 && j.misses === 4'
expect_err "pagelab: read $tmp/l.gz as lackey, gzip, page size 4096, instruction fetches included"
pagelab run --policy lru --frames 2 --trace "$tmp/l.gz" --no-instructions --collapse --json
expect_json 'j.references === 3'
expect_err "pagelab: read $tmp/l.gz as lackey, gzip, page size 4096, instruction fetches left out, 0 consecutive repeats collapsed"
done_

test_case "a truncated gzip trace stops the run and convert leaves no output behind"
pagelab gen uniform --memory 256 --length 20000 -o "$tmp/u.txt"
gzip -c "$tmp/u.txt" | head -c 20000 >"$tmp/u.gz"
pagelab run --policy lru --frames 8 --trace "$tmp/u.gz"
expect_status 1
expect_err_has "pagelab: $tmp/u.gz: truncated gzip data"
pagelab convert --trace "$tmp/u.gz" --to binary -o "$tmp/u.bin"
expect_status 1
[ ! -e "$tmp/u.bin" ] && [ ! -e "$tmp/u.bin.partial" ] || problem "a partial output was left"
done_

test_case "a truncated binary trace is an error naming the byte, never a shorter trace"
pagelab convert --trace "$tmp/u.txt" --to binary -o "$tmp/u.bin"
size=$(wc -c <"$tmp/u.bin")
head -c $((size - 3)) "$tmp/u.bin" >"$tmp/short.bin"
pagelab run --policy lru --frames 8 --trace "$tmp/short.bin"
expect_status 1
expect_err_has "truncated: the file ends inside this block"
done_

test_case "bad input in each format names the file, the line and the token"
printf 'I  0400,4\n Q 0400,4\n' >"$tmp/bad.lackey"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.lackey"
expect_status 1
expect_err "pagelab: $tmp/bad.lackey:2: ' Q 0400,4' is not a Lackey line (I, L, S or M, then ADDRESS,SIZE; or a ==PID== banner)"
printf 'ts,addr,kind\n1,0x1000,r\n2,0x2000,q\n' >"$tmp/bad.csv"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.csv" --columns time=ts,address=addr,op=kind
expect_status 1
expect_err_has "pagelab: $tmp/bad.csv:3: 'q' is not an operation"
printf '1\n2\nthree\n' >"$tmp/bad.txt"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.txt"
expect_err "pagelab: $tmp/bad.txt:3: 'three' is not a page number (decimal or 0x-hex, optional trailing w for a write)"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.txt" --format libcachesim --json
expect_status 0
expect_json 'j.references === 3'
done_

test_case "format options are checked before anything is read"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.txt" --format xml
expect_status 2
expect_err_has "--format xml: no such format (auto, text, csv, lackey, libcachesim, binary)"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.txt" --page-size 3000
expect_status 2
expect_err_has "--page-size 3000 is not a power of two"
pagelab run --policy lru --frames 2 --trace "$tmp/bad.txt" --format lackey --columns page=1
expect_status 2
expect_err_has "--columns maps the columns of a CSV trace, not lackey"
done_

test_case "gen's synthetic workloads are deterministic for a seed and take their shapes"
pagelab gen hotscan --memory 64 --length 3000 --hot 10 --scan 50 --every 100 --seed 3
expect_status 0
cp "$tmp/out" "$tmp/first"
pagelab gen hotscan --memory 64 --length 3000 --hot 10 --scan 50 --every 100 --seed 3
cmp -s "$tmp/out" "$tmp/first" || problem "two runs with seed 3 differ"
[ "$(grep -vc '^#' "$tmp/out")" = 3000 ] || problem "not 3000 references"
# 3000 = 20 rounds of 100 hot + 50 scan: 20 x 50 one-time pages plus the 10 hot
pagelab run --policy lru --frames 1 --trace "$tmp/first" --json
expect_json 'j.references === 3000'
pagelab gen loop --memory 8 --length 10 --pages 3
expect_out "# 10 references to 3 pages"
pagelab gen seed001-rand --pages 10
expect_status 2
expect_err_has "--pages shapes the synthetic workloads (loop, uniform, zipf, hotscan, phases, mix), not seed001-rand"
pagelab gen zipf --alpha 0
expect_status 2
expect_err_has "--alpha: '0' is not a number above 0 and at most 10"
done_

test_case "the lru loop workload just too big for memory misses on every reference"
pagelab gen loop --memory 100 --length 5000 -o "$tmp/loop.txt"
pagelab run --policy lru --frames 100 --trace "$tmp/loop.txt" --json
expect_json 'j.misses === 5000'
done_

test_case "the shipped Valgrind traces read, simulate and round-trip through binary"
for t in ../labs/traces/*.lackey.gz; do
	[ -e "$t" ] || { problem "no raw Lackey log in labs/traces"; break; }
	pagelab run --policy lru --frames 64 --trace "$t" --no-instructions --json
	expect_status 0
	expect_err_has "as lackey, gzip, page size 4096"
	expect_json 'j.references > 10000 && j.misses > 0 && j.misses < j.references'
	cp "$tmp/out" "$tmp/lackey.json"
	pagelab convert --trace "$t" --no-instructions --to binary -o "$tmp/real.bin"
	pagelab run --policy lru --frames 64 --trace "$tmp/real.bin" --json
	cmp -s "$tmp/out" "$tmp/lackey.json" || problem "$t: binary copy simulates differently"
done
for t in ../labs/traces/*.pltrace.gz; do
	[ -e "$t" ] || { problem "no page-level traces in labs/traces"; break; }
	pagelab compare --policies lru,clock --frames 32 --trace "$t" --json
	expect_status 0
	expect_err_has "as binary, gzip"
	expect_json 'j.length === 2 && j[0].references > 100000 && j.every((r) => r.evictions > 0 && r.misses < r.references)'
done
done_

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
