#!/usr/bin/env bash
# labs/traces/make-traces.sh - records page-level traces of real programs with
# Valgrind's Lackey tool (valgrind --tool=lackey --trace-mem=yes), as seed 004
# did, and writes them here, gzip-compressed:
#
#   NAME.pltrace.gz    pagelab binary trace (gzip-compressed): one reference
#                      per page touched (4096-byte pages; an access spanning
#                      two pages touches both), a write for a store or modify,
#                      time = instructions executed before it, consecutive
#                      repeats of the same page collapsed (pagelab convert
#                      --collapse); 'pagelab convert --trace NAME.pltrace.gz'
#                      prints it as text
#   ls.lackey.gz       one raw Lackey log, as valgrind wrote it (for the
#                      Lackey reader's tests and for students to look at)
#
# The programs: ls -lR of a small directory, sort of 2000 lines, gcc's
# compiler proper (cc1) compiling a small C file, and a Python one-liner (the
# last two without instruction fetches, to keep them to a few MB).
# Addresses depend on the machine (library versions, address-space layout), so
# a rerun gives similar but not identical traces; README.md records where the
# shipped ones came from.  Installs valgrind first (scripts/setup.sh traces).
#
#   labs/traces/make-traces.sh           all of them
#   labs/traces/make-traces.sh sort cc1  only those named
set -euo pipefail
# the same collation and messages for every program (and no exec of env:
# valgrind follows no exec, so 'env LC_ALL=C sort' would trace env alone)
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bash "$root/scripts/setup.sh" traces
make -s -C "$root/wasm-core" build/pagelab
pagelab=$root/wasm-core/build/pagelab
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The inputs, made here so that every run sees the same ones.
awk 'BEGIN { srand(12); for (i = 0; i < 2000; i++) printf "%08d line %d\n", int(rand() * 1e8), i }' \
	>"$work/lines.txt"
# no #include: cc1 run on its own lacks the driver's include paths
cat >"$work/small.c" <<'C'
int printf(const char *format, ...);

static void sort(int *a, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
			int t = a[j];

			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

int main(void)
{
	int a[100];

	for (int i = 0; i < 100; i++)
		a[i] = (i * 7919) % 100;
	sort(a, 100);
	printf("%d %d\n", a[0], a[99]);
	return 0;
}
C

# [no_fetches=1] record NAME DESCRIPTION COMMAND...: Lackey's log goes through a FIFO into
# pagelab convert (nothing the size of the raw log is ever stored); the
# binary trace is then gzip-compressed (page and time deltas compress well:
# ~1 bit a reference, against ~3 bytes for the same trace as gzipped text).
record() {
	local name=$1 what=$2 fifo=$work/$1.fifo
	shift 2
	mkfifo "$fifo"
	valgrind --tool=lackey --trace-mem=yes --log-file="$fifo" "$@" >/dev/null 2>"$work/$name.err" &
	local vg=$!
	"$pagelab" convert --trace "$fifo" --format lackey --collapse ${no_fetches:+--no-instructions} --to binary \
		-o "$work/$name.pltrace" 2>"$work/$name.convert"
	wait "$vg" || { cat "$work/$name.err" >&2; echo "make-traces: valgrind failed on $name" >&2; exit 1; }
	gzip -9 <"$work/$name.pltrace" >"$here/$name.pltrace.gz"
	printf '%s\t%s\t%s\t%s\n' "$name.pltrace.gz" "$what" \
		"$(sed 's/^pagelab: //' "$work/$name.convert")" "$(wc -c <"$here/$name.pltrace.gz") bytes"
}

want() {
	[ ${#selected[@]} -eq 0 ] && return 0
	for w in "${selected[@]}"; do [ "$w" = "$1" ] && return 0; done
	return 1
}
selected=("$@")

if want ls-lR; then
	record ls-lR "ls -lR /usr/include/linux/netfilter" \
		ls -lR /usr/include/linux/netfilter
fi
if want sort; then
	record sort "sort of 2000 lines of random numbers" \
		sort "$work/lines.txt"
fi
if want cc1; then
	cc1=$(gcc -print-prog-name=cc1)
	# -O0 and data accesses only: with -O2 and its fetches cc1 makes 69M
	# references even collapsed (15 MB compressed)
	no_fetches=1 record cc1 "gcc's compiler proper (cc1 -O0) compiling a 24-line C file, data accesses only" \
		"$cc1" -quiet -O0 "$work/small.c" -o "$work/small.s"
fi
if want python; then
	# Debian's python3 itself, not a wrapper (pyenv's shim is a shell script);
	# data accesses only: with its fetches the interpreter's start makes 25M
	# references even collapsed (4.6 MB compressed)
	no_fetches=1 record python "python3 -S -c 'print(sum(i * i for i in range(2000)))', data accesses only" \
		/usr/bin/python3 -S -c 'print(sum(i * i for i in range(2000)))'
fi
if want ls.lackey; then
	valgrind --tool=lackey --trace-mem=yes --log-file="$work/ls.lackey" ls / >/dev/null
	gzip -9 <"$work/ls.lackey" >"$here/ls.lackey.gz"
	printf '%s\t%s\t%s lines\t%s bytes\n' ls.lackey.gz "raw Lackey log of ls /" \
		"$(wc -l <"$work/ls.lackey")" "$(wc -c <"$here/ls.lackey.gz")"
fi
