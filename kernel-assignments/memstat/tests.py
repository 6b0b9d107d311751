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
  not reclaim     madvise(MADV_COLD) on an active 2048-page file mapping with memory to
                  spare: pgdeactivate must grow by at least half the pages (else the
                  kernel broke deactivation) and demoted by less than half of that
                  (it counts reclaim's demotions only; a copy of pgdeactivate fails)

Points: 100, of which 42 hidden (run only by the grader, not with --public).
"""
import re
from pathlib import Path

from gradelib import Boot, Fail, checkpatch, test

HERE = Path(__file__).resolve().parent

# Whole-boot limits; each step of a plan has its own, much shorter one (pl-step lines).
# Measured at load 15: pressure 51 s, faults 7 s.
pressure = Boot("pressure", plan="pressure", memory="96M", swap="64M", disk=True,
		timeout=180)
faults = Boot("faults", plan="faults", memory="64M", timeout=60)

LIST_SLACK_PAGES = 32
LIST_SLACK_FRACTION = 0.02
REFERENCED_FRACTION = 0.8
COLD_DEACTIVATED_FRACTION = 0.5


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


@test(3, "active_anon agrees with /proc/meminfo's Active(anon) on an idle system",
      boot=pressure, parent=test_exists)
def test_idle_active_anon(run):
	list_agrees(run, "idle", "active_anon", "Active(anon)")


@test(3, "inactive_anon agrees with /proc/meminfo's Inactive(anon) on an idle system",
      boot=pressure, parent=test_exists)
def test_idle_inactive_anon(run):
	list_agrees(run, "idle", "inactive_anon", "Inactive(anon)")


@test(3, "active_file agrees with /proc/meminfo's Active(file) on an idle system",
      boot=pressure, parent=test_exists)
def test_idle_active_file(run):
	list_agrees(run, "idle", "active_file", "Active(file)")


@test(3, "inactive_file agrees with /proc/meminfo's Inactive(file) on an idle system",
      boot=pressure, parent=test_exists)
def test_idle_inactive_file(run):
	list_agrees(run, "idle", "inactive_file", "Inactive(file)")


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


@test(5, "promoted grows under memory pressure", boot=pressure, parent=test_exists)
def test_promoted_grows(run):
	counter_grew(run, "promoted")


@test(5, "demoted grows under memory pressure", boot=pressure, parent=test_exists)
def test_demoted_grows(run):
	counter_grew(run, "demoted")


@test(5, "evicted grows under memory pressure", boot=pressure, parent=test_exists)
def test_evicted_grows(run):
	counter_grew(run, "evicted")

@test(5, "promoted grows exactly as /proc/vmstat's pgactivate", boot=pressure,
      parent=test_exists, hidden=True)
def test_promoted_matches_vmstat(run):
	counter_matches(run, "promoted", "pgactivate", "pgactivate")


@test(5, "demoted grows exactly as /proc/vmstat's pgdeactivate", boot=pressure,
      parent=test_exists, hidden=True)
def test_demoted_matches_vmstat(run):
	counter_matches(run, "demoted", "pgdeactivate", "pgdeactivate")


@test(5, "evicted grows exactly as /proc/vmstat's pgsteal_anon + pgsteal_file", boot=pressure,
      parent=test_exists, hidden=True)
def test_evicted_matches_vmstat(run):
	counter_matches(run, "evicted", "pgsteal", "pgsteal_anon + pgsteal_file")


@test(2, "active_anon agrees with /proc/meminfo's Active(anon) after swapping",
      boot=pressure, parent=test_exists, hidden=True)
def test_after_pressure_active_anon(run):
	list_agrees(run, "after_pressure", "active_anon", "Active(anon)")


@test(2, "inactive_anon agrees with /proc/meminfo's Inactive(anon) after swapping",
      boot=pressure, parent=test_exists, hidden=True)
def test_after_pressure_inactive_anon(run):
	list_agrees(run, "after_pressure", "inactive_anon", "Inactive(anon)")


@test(2, "active_file agrees with /proc/meminfo's Active(file) after swapping",
      boot=pressure, parent=test_exists, hidden=True)
def test_after_pressure_active_file(run):
	list_agrees(run, "after_pressure", "active_file", "Active(file)")


@test(2, "inactive_file agrees with /proc/meminfo's Inactive(file) after swapping",
      boot=pressure, parent=test_exists, hidden=True)
def test_after_pressure_inactive_file(run):
	list_agrees(run, "after_pressure", "inactive_file", "Inactive(file)")


@test(5, "demoted counts reclaim only: it does not grow when madvise(MADV_COLD) deactivates"
      " pages (/proc/vmstat's pgdeactivate does)", boot=pressure, parent=test_exists,
      hidden=True)
def test_cold_is_not_demotion(run):
	ident = "memstat.cold"
	run.expect_pass(ident)
	pages = run.value(ident, "file_pages")
	deactivated = run.value(ident, "pgdeactivate")
	demoted = run.value(ident, "demoted")
	if deactivated < pages * COLD_DEACTIVATED_FRACTION:
		raise Fail(f"madvise(MADV_COLD) on {pages} active file pages deactivated only"
			   f" {deactivated} of them (/proc/vmstat's pgdeactivate): your kernel no"
			   " longer deactivates pages outside reclaim")
	if demoted >= deactivated / 2:
		raise Fail(f"demoted grew by {demoted} pages while madvise(MADV_COLD) deactivated"
			   f" {deactivated} pages and no reclaim ran: demoted must count only the"
			   " pages reclaim demotes (shrink_active_list), not every deactivation")


@test(5, "four concurrent callers during reclaim all get consistent snapshots",
      boot=pressure, parent=test_exists, hidden=True)
def test_concurrent(run):
	run.expect_pass("memstat.concurrent")


@test(2, "memstat(NULL) returns -EFAULT", boot=faults)
def test_efault_null(run):
	expect_efault(run, "null")


@test(2, "memstat(an unmapped page) returns -EFAULT", boot=faults)
def test_efault_unmapped(run):
	expect_efault(run, "unmapped")


@test(2, "memstat(a read-only page) returns -EFAULT", boot=faults)
def test_efault_read_only(run):
	expect_efault(run, "read_only")


@test(2, "memstat(a struct running off the end of a mapping) returns -EFAULT", boot=faults,
      hidden=True)
def test_efault_straddling(run):
	expect_efault(run, "straddling")


@test(2, "memstat(a kernel address) returns -EFAULT", boot=faults, hidden=True)
def test_efault_kernel(run):
	expect_efault(run, "kernel")


checkpatch(5)
