"""Graded tests of the RRIP assignment (read by kernel-assignments/autograder/grade).

One boot, "rrip" (96 MiB RAM, 64 MiB swap, an ext2 disk), runs guest/plans/rrip.  The
guest program rrip_check reads /proc/rrip/pages (base patch) and reports, for a file it
made, how many of its pages sit on which list with which RRPV; the rules are checked
here, each by the test that names it, with the tolerances below (handout.md says why):

  insertion    a file read twice: >= 80 % of its pages active, and >= 95 % of the
               active ones at rrip_max() - 1 (a few may still wait in a batch)
  hit          the same file, set to the maximum through /proc/rrip/pages, read once
               more: >= 80 % active, >= 95 % of the active ones at 0
  aging        a file read twice and set to 0, looked at after every 2 MiB a child
               sweeps through more memory than the machine has: >= 10 % of its pages
               were seen at a value above 0 (only the active list's scan raises an
               RRPV that no hit resets)
  demotion     during that workload, every page of that file seen on the inactive list
               was at the maximum (a page keeps its RRPV when it is deactivated), and
               at least 16 were seen there
  survival     the workload itself completes: nothing killed, no oops, no hang; counted
               only when aging passed (the stock kernel survives it too)

Points: 100, of which 15 hidden (run only by the grader, not with --public).
"""
from gradelib import Boot, Fail, checkpatch, test

# Measured at load 20 on 2 cores: the whole boot 65 s, of which the scan step 35 s.
rrip = Boot("rrip", plan="rrip", memory="96M", swap="64M", disk=True, timeout=240)

RRPV_MAX = 3
ACTIVE_FRACTION = 0.8
RULE_FRACTION = 0.95
AGED_FRACTION = 0.1
DEMOTED_MINIMUM = 16


def where(run, ident, place):
	return [run.value(ident, f"{place}_rrpv_{value}") for value in range(RRPV_MAX + 1)]


def active_pages_at(run, ident, wanted, what, rule, max_rrpv=RRPV_MAX):
	"""Checks that most of the file's pages are active and that the active ones hold
	WANTED; WHAT describes how the file was used, RULE the rule being checked."""
	run.expect_pass(ident)
	pages = run.value(ident, "pages")
	active = where(run, ident, "active")[:max_rrpv + 1]
	total = sum(active)
	if total < ACTIVE_FRACTION * pages:
		raise Fail(f"{what}: only {total} of its {pages} pages are on the active list"
			   f" (expected at least {ACTIVE_FRACTION:.0%}); pages that are read twice"
			   " must still be promoted")
	if active[wanted] < RULE_FRACTION * total:
		shown = ", ".join(f"{count} at {value}" for value, count in enumerate(active) if count)
		raise Fail(f"{what}: of its {total} active pages {shown};"
			   f" {rule} puts them at {wanted}")


@test(20, "insertion: a page promoted to the active list gets RRPV max-1 (2)", boot=rrip)
def test_insertion(run):
	active_pages_at(run, "rrip.insert", RRPV_MAX - 1, "a 1024-page file read twice",
			"promotion (folio_activate_fn, reclaim's activate_locked)")


@test(10, "insertion: a page promoted before it reached a list (still in the per-CPU"
      " batch) gets RRPV max-1 when lru_add_fn adds it", boot=rrip, hidden=True)
def test_insertion_from_batch(run):
	active_pages_at(run, "rrip.batch", RRPV_MAX - 1,
			"an 8-page file read twice at once on one CPU",
			"a folio that lru_add_fn() adds already active is promoted too, so it")


@test(20, "hit: a hit on an active page (folio_mark_accessed) resets its RRPV to 0",
      boot=rrip)
def test_hit(run):
	active_pages_at(run, "rrip.hit", 0,
			"a 1024-page active file set to RRPV 3, then read once more",
			"a hit while active (folio_mark_accessed)")


@test(5, "insertion follows /proc/rrip/max: with max 2, promoted pages get RRPV 1",
      boot=rrip, hidden=True)
def test_max_parameter(run):
	active_pages_at(run, "rrip.max", 1, "with /proc/rrip/max at 2, a 256-page file"
			" read twice", "rrip_max() - 1, read when the rule runs,", max_rrpv=2)


def scan_values(run):
	ident = "rrip.scan"
	run.expect_pass(ident)
	watched = run.value(ident, "watched")
	if watched < ACTIVE_FRACTION * run.value(ident, "pages"):
		raise Fail(f"a 2048-page file read twice and set to RRPV 0 had only {watched}"
			   " active pages at 0 when the workload began: the test cannot start")
	return watched


@test(15, "aging: the active list's scan raises the RRPV of a page it keeps", boot=rrip)
def test_aging(run):
	watched = scan_values(run)
	aged = run.value("rrip.scan", "aged")
	if aged < AGED_FRACTION * watched:
		raise Fail(f"{watched} active pages of a file, set to RRPV 0 and never read again,"
			   f" watched during a workload larger than memory: only {aged} were ever"
			   f" seen with an RRPV above 0 (expected at least {AGED_FRACTION:.0%}):"
			   " scanning an active page whose RRPV is below the maximum must increment"
			   " it and keep it active")


@test(15, "demotion: only a page at the maximum RRPV (3) leaves the active list",
      boot=rrip)
def test_demotion(run):
	watched = scan_values(run)
	demoted = run.value("rrip.scan", "demoted")
	if demoted < DEMOTED_MINIMUM:
		raise Fail(f"{watched} active pages of a file watched during a workload larger"
			   f" than memory: only {demoted} were ever seen on the inactive list (need"
			   f" {DEMOTED_MINIMUM} to check the rule): the active list's scan must"
			   " deactivate pages at the maximum")
	early = run.value("rrip.scan", "early")
	if early:
		shown = ", ".join(f"{run.value('rrip.scan', f'early_rrpv_{value}')} at {value}"
				  for value in range(RRPV_MAX)
				  if run.value("rrip.scan", f"early_rrpv_{value}"))
		raise Fail(f"of {demoted} pages of a file seen on the inactive list during a"
			   f" workload, {early} were there below RRPV {RRPV_MAX} ({shown}): they"
			   f" left the active list before reaching RRPV {RRPV_MAX}")


@test(10, "survival: with the RRIP scan, a workload larger than memory completes (no OOM"
      " kill, oops or hang)", boot=rrip, parent=test_aging)
def test_survival(run):
	run.expect_pass("rrip.pressure")


checkpatch(5)
