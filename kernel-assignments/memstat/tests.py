"""Graded tests of the memstat assignment (read by kernel-assignments/autograder/grade).

Two boots: "pressure" (96 MiB RAM, 64 MiB swap, an ext2 disk) runs guest/plans/pressure,
"faults" (64 MiB) runs guest/plans/faults, so that a kernel oopsing on a bad pointer
loses only the pointer tests.  The guest program memstat_check reports signed numbers;
the tolerances are applied here, and each is explained in handout.md:

  list sizes      |memstat - /proc/meminfo| <= 32 pages + 2 % + what meminfo itself moved
                  while the call ran (per-CPU vmstat deltas are folded in lazily, and up
                  to 15 pages per CPU wait in per-CPU batches, on no list yet)
  counters        promoted == pgactivate, demoted == pgdeactivate,
                  evicted == pgsteal_anon + pgsteal_file, exactly, over the workload
                  (both read while reclaim is idle)
  referenced      at least 80 % of a freshly read file's pages (the rest may still sit
                  in a per-CPU batch or be read ahead but not yet copied)

Points: 100, of which 42 hidden (run only by the grader, not with --public).
"""
import re
from pathlib import Path

from gradelib import Boot, Fail, checkpatch, test

HERE = Path(__file__).resolve().parent

pressure = Boot("pressure", plan="pressure", memory="96M", swap="64M", disk=True,
		timeout=300)
faults = Boot("faults", plan="faults", memory="64M", timeout=90)

LIST_SLACK_PAGES = 32
LIST_SLACK_FRACTION = 0.02
REFERENCED_FRACTION = 0.8
LISTS = (("active_anon", "Active(anon)"), ("inactive_anon", "Inactive(anon)"),
	 ("active_file", "Active(file)"), ("inactive_file", "Inactive(file)"))
COUNTERS = (("promoted", "pgactivate", "pgactivate"),
	    ("demoted", "pgdeactivate", "pgdeactivate"),
	    ("evicted", "pgsteal", "pgsteal_anon + pgsteal_file"))


def struct_fields(text, what):
	match = re.search(r"struct memstat \{(.*?)\};", text, re.S)
	if not match:
		raise RuntimeError(f"{what}: no struct memstat")
	return re.findall(r"(\w+);", match.group(1))


def check_struct_mirror():
	"""The guest's copy of struct memstat must match the base patch's uapi header."""
	uapi = struct_fields((HERE / "base.patch").read_text(), "base.patch")
	guest = struct_fields((HERE / "guest/memstat_call.h").read_text(),
			      "guest/memstat_call.h")
	if uapi != guest:
		raise RuntimeError(f"struct memstat differs: base.patch {uapi},"
				   f" guest/memstat_call.h {guest}")


check_struct_mirror()


def list_agrees(run, tag, name, meminfo_name):
	ident = f"memstat.lists.{tag}"
	run.expect_pass(ident)
	mine = run.value(ident, name)
	theirs = run.value(ident, "meminfo_" + name)
	drift = run.value(ident, "meminfo_drift_" + name)
	slack = max(LIST_SLACK_PAGES, LIST_SLACK_FRACTION * theirs) + drift
	if abs(mine - theirs) > slack:
		raise Fail(f"{name} = {mine} pages, but /proc/meminfo's {meminfo_name} says"
			   f" {theirs} pages; they may differ by at most {slack:.0f}")


def counter_grew(run, name):
	run.expect_pass("memstat.pressure")
	grown = run.value("memstat.pressure", name)
	if grown <= 0:
		raise Fail(f"{name} grew by {grown} pages during a workload that made the"
			   " kernel move pages (see the next tests); it must grow")


def counter_matches(run, name, vmstat_key, vmstat_name):
	run.expect_pass("memstat.pressure")
	grown = run.value("memstat.pressure", name)
	expected = run.value("memstat.pressure", vmstat_key)
	if grown != expected:
		raise Fail(f"over the workload {name} grew by {grown} pages but /proc/vmstat's"
			   f" {vmstat_name} grew by {expected}: count at the place the kernel"
			   f" counts {vmstat_name}")


def expect_efault(run, case):
	run.expect_pass(f"memstat.efault.{case}")


@test(10, "memstat() exists, returns 0 and fills in the four lists", boot=pressure)
def test_exists(run):
	run.expect_pass("memstat.exists")


def declare_list_tests(tag, when, points, hidden):
	for name, meminfo_name in LISTS:
		test(points, f"{name} agrees with /proc/meminfo's {meminfo_name} {when}",
		     boot=pressure, parent=test_exists, hidden=hidden)(
			lambda run, name=name, meminfo_name=meminfo_name:
			list_agrees(run, tag, name, meminfo_name))


declare_list_tests("idle", "on an idle system", 3, hidden=False)


@test(10, "a file read once shows up as inactive, referenced file pages",
      boot=pressure, parent=test_exists)
def test_referenced_once(run):
	ident = "memstat.referenced"
	run.expect_pass(ident)
	pages = run.value(ident, "file_pages")
	needed = REFERENCED_FRACTION * pages
	for key, what in (("inactive_file_gain", "inactive_file"),
			  ("referenced_inactive_gain", "referenced_inactive")):
		gain = run.value(ident, key)
		if gain < needed:
			raise Fail(f"reading a {pages}-page file once raised {what} by only {gain}"
				   f" pages; expected at least {needed:.0f}")


@test(5, "reading that file again promotes its pages (promoted, active_file grow;"
      " referenced_inactive drops)", boot=pressure, parent=test_exists, hidden=True)
def test_referenced_twice(run):
	ident = "memstat.referenced"
	run.expect_pass(ident)
	pages = run.value(ident, "file_pages")
	needed = REFERENCED_FRACTION * pages
	for key, what in (("promoted_gain", "promoted grew"),
			  ("active_file_gain", "active_file grew"),
			  ("referenced_inactive_loss", "referenced_inactive dropped")):
		change = run.value(ident, key)
		if change < needed:
			raise Fail(f"reading a {pages}-page file a second time: {what} by only"
				   f" {change} pages; expected at least {needed:.0f}")


for name, vmstat_key, vmstat_name in COUNTERS:
	test(5, f"{name} grows under memory pressure", boot=pressure, parent=test_exists)(
		lambda run, name=name: counter_grew(run, name))

for name, vmstat_key, vmstat_name in COUNTERS:
	test(5, f"{name} grows exactly as /proc/vmstat's {vmstat_name}", boot=pressure,
	     parent=test_exists, hidden=True)(
		lambda run, name=name, key=vmstat_key, label=vmstat_name:
		counter_matches(run, name, key, label))
declare_list_tests("after_pressure", "after swapping", 2, hidden=True)


@test(10, "four concurrent callers during reclaim all get consistent snapshots",
      boot=pressure, parent=test_exists, hidden=True)
def test_concurrent(run):
	run.expect_pass("memstat.concurrent")


EFAULT_CASES = (("null", "NULL", False), ("unmapped", "an unmapped page", False),
		("read_only", "a read-only page", False),
		("straddling", "a struct running off the end of a mapping", True),
		("kernel", "a kernel address", True))

for case, what, hidden in EFAULT_CASES:
	test(2, f"memstat({what}) returns -EFAULT", boot=faults, hidden=hidden)(
		lambda run, case=case: expect_efault(run, case))

checkpatch(5)
