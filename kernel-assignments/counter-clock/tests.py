"""Graded tests of the counter-clock assignment (read by kernel-assignments/autograder/grade).

One boot, "clock" (48 MiB, 64 MiB swap, an ext2 disk), runs guest/plans/clock.  First,
before any module is loaded, the rules: the given /proc/counter_clock attaches counters
drawn from seeds, calls the student's counter_clock_reorder() on each evictable list and
judges the list afterwards against the rule (mm/counter_clock.c, judge()).  Then the
aging module loaded, its walks, the counters of a page read every 200 ms and of one never
read, a clean unload, then the module again through swap pressure with reclaim's own
calls judged, and an unload while a workload swaps.  Each test names the rule it proves
(handout.md, "How you are graded").  The rules come first, so a module that oopses
costs only the module's tests.

Tolerances, each explained in handout.md:
  walks           over S seconds, 1 .. S + 1 walks, none outside process context: a
                  loaded host starves the emulated CPUs and delays the work item (a
                  tick that finds the work still queued adds no walk; 2 walks in 5 s
                  were seen with the reference at load 20), so only a period shorter
                  than a second is caught reliably
  counters        over W walks (6, or as many as 20 s allow): the page read every
                  200 ms gains W - 2 .. W + 1, the page left referenced once and never
                  read again loses W - 3 .. W + 1 (its first walk finds the bit set)

Memory: the reclaim change walks a whole list per batch of 32 folios, so a swap workload
of 1.125 x RAM costs about (pages reclaimed) x (list length) / 32, and both shrink with
RAM; 48 MiB instead of 64 MiB cut the module's part from 85.9 s to 42.7 s (the reference,
one run each at load 13-15 on 2 cores; its two pressure steps from 42.9 + 16.7 s to
9.7 + 8.4 s).  One boot instead of two (rules, then module) saves a kernel boot.

Points: 100, of which 8 hidden.
"""
from gradelib import Boot, Fail, checkpatch, test

# Whole-boot limits; each plan step has a shorter one (pl-step lines).
clock = Boot("clock", plan="clock", memory="48M", swap="64M", disk=True, timeout=480)

RULE_SEEDS_MIN_JUDGED = 4
# verdicts about which folio ends at the tail (the others have tests of their own)
TAIL_WRONG = ("not-lowest", "tie-not-nearest-tail", "nothing-moved", "too-long")


def verdicts(run, kind):
	"""The judged checks of one kind (ties, distinct, none): {verdict: count}, judged."""
	ident = f"cclock.rules.{kind}"
	run.expect_pass(ident)
	judged = run.value(ident, "judged")
	if judged < RULE_SEEDS_MIN_JUDGED:
		raise Fail(f"only {judged} lists of two pages or more could be judged"
			   f" ({kind}); the test needs {RULE_SEEDS_MIN_JUDGED}")
	names = ("ok", "not-lowest", "tie-not-nearest-tail", "nothing-moved", "others-moved",
		 "moved-without-table", "wrong-return", "too-long")
	return {name: run.value(ident, name) for name in names}, judged


def no_verdict(run, kinds, verdict, explanation):
	for kind in kinds:
		counts, judged = verdicts(run, kind)
		if counts[verdict]:
			raise Fail(f"{counts[verdict]} of {judged} judged calls ({kind} counters):"
				   f" {verdict}. {explanation}")


@test(12, "counter_clock_reorder() moves the lowest-counter folio of the list to its tail",
      boot=clock)
def test_lowest_to_tail(run):
	counts, judged = verdicts(run, "distinct")
	wrong = {name: count for name, count in counts.items() if count and name in TAIL_WRONG}
	if wrong:
		listed = ", ".join(f"{name} {count}" for name, count in wrong.items())
		raise Fail(f"with a different counter for every folio, {sum(wrong.values())} of"
			   f" {judged} calls left another folio at the tail: {listed}. After your"
			   " function the folio at the tail must be the one with the lowest counter")


@test(8, "ties: of several folios with the lowest counter, the one nearest the tail moves",
      boot=clock, parent=test_lowest_to_tail)
def test_ties_nearest_tail(run):
	no_verdict(run, ["ties"], "tie-not-nearest-tail",
		   "With counters in -2..2 many folios share the lowest value; the one nearest"
		   " the tail must be chosen (scan from the tail, replace only when strictly"
		   " lower)")
	no_verdict(run, ["ties"], "not-lowest", "The folio at the tail must have the lowest"
		   " counter")
	no_verdict(run, ["ties"], "nothing-moved", "The lowest-counter folio was not moved")


@test(4, "nothing else on the list changes place", boot=clock, parent=test_lowest_to_tail)
def test_others_stay(run):
	no_verdict(run, ["ties", "distinct"], "others-moved",
		   "Only the chosen folio may move; every other keeps its order")


@test(3, "counter_clock_reorder() returns the folio it moved", boot=clock,
      parent=test_lowest_to_tail)
def test_returns_moved(run):
	no_verdict(run, ["ties", "distinct"], "wrong-return",
		   "Return the folio you moved (NULL only when nothing moved)")


@test(3, "with no counters attached, nothing moves and it returns NULL", boot=clock,
      parent=test_lowest_to_tail)
def test_no_table(run):
	counts, judged = verdicts(run, "none")
	if counts["ok"] != judged:
		raise Fail(f"with no table attached, {judged - counts['ok']} of {judged} calls"
			   " changed the list or returned a folio; counter_clock_read() returns"
			   " false then, and the list must stay as it is")


@test(8, "the module loads and attaches a counter table covering node 0", boot=clock)
def test_loads(run):
	run.expect_pass("cclock.load.first")
	run.expect_pass("cclock.attached.first")
	pages = run.value("cclock.attached.first", "pages")
	node_pages = run.value("cclock.attached.first", "node_pages")
	if pages < node_pages:
		raise Fail(f"the table covers {pages} page frames but node 0 spans {node_pages}:"
			   " every frame needs a counter")


@test(5, "the module walks the lists once a second", boot=clock, parent=test_loads)
def test_walks_every_second(run):
	run.expect_pass("cclock.walks")
	seconds = run.value("cclock.walks", "seconds")
	walks = run.value("cclock.walks", "walks")
	if not 1 <= walks <= seconds + 1:
		raise Fail(f"{walks} walks were reported (counter_clock_walked) in {seconds} s;"
			   f" one a second means at most {seconds + 1} (and at least one)")
	if run.value("cclock.walks", "last_pages") <= 0:
		raise Fail("the last walk reported visiting no pages")


@test(5, "the walk runs from a workqueue, not in the timer's softirq", boot=clock,
      parent=test_walks_every_second)
def test_walks_in_process_context(run):
	in_interrupt = run.value("cclock.walks", "in_interrupt")
	if in_interrupt:
		raise Fail(f"{in_interrupt} walks reported from interrupt context: the timer"
			   " must only queue the work; the walk (a spinlock held with interrupts"
			   " off over thousands of pages) belongs in a work item")


def direction_walks(run):
	run.expect_pass("cclock.direction")
	walks = run.value("cclock.direction", "walks")
	if walks < 3:
		raise Fail(f"only {walks} walks happened while the counters were watched (20 s);"
			   " the test needs 3")
	return walks


@test(8, "a page read every 200 ms gains one per walk", boot=clock, parent=test_loads)
def test_touched_climbs(run):
	walks = direction_walks(run)
	change = run.value("cclock.direction", "touched_change")
	if not walks - 2 <= change <= walks + 1:
		raise Fail(f"the counter of the page read every 200 ms changed by {change} over"
			   f" {walks} walks; expected {walks - 2} to {walks + 1}: + 1 per walk"
			   " that finds PG_referenced set")


@test(8, "a page never read again loses one per walk (PG_referenced is cleared as it"
      " counts)", boot=clock, parent=test_loads)
def test_untouched_sinks(run):
	walks = direction_walks(run)
	change = run.value("cclock.direction", "untouched_change")
	if not -(walks + 1) <= change <= -(walks - 3):
		raise Fail(f"the counter of the page never read again changed by {change} over"
			   f" {walks} walks; expected {-(walks + 1)} to {-(walks - 3)}: its"
			   " PG_referenced was set once, so the first walk adds 1 and clears it,"
			   " and every later walk subtracts 1")


@test(6, "the module unloads cleanly: table detached, nothing left running",
      boot=clock, parent=test_loads)
def test_unloads(run):
	run.expect_pass("cclock.unload.clean")


@test(5, "reclaim calls counter_clock_scan() on inactive and active lists", boot=clock,
      parent=test_loads)
def test_reclaim_hooked(run):
	run.expect_pass("cclock.pressure")
	inactive = run.value("cclock.audit", "scans_inactive")
	active = run.value("cclock.audit", "scans_active")
	if inactive <= 0 or active <= 0:
		raise Fail(f"under swap pressure reclaim called counter_clock_scan() {inactive}"
			   f" times before isolating from an inactive list and {active} times from"
			   " an active list; call it in both shrink_inactive_list() and"
			   " shrink_active_list(), after taking lru_lock")


@test(8, "under swap pressure, every judged reclaim call moved the lowest-counter folio"
      " to the tail", boot=clock, parent=test_reclaim_hooked, hidden=True)
def test_reclaim_follows_rule(run):
	run.expect_pass("cclock.audit")
	judged = run.value("cclock.audit", "judged")
	ok = run.value("cclock.audit", "ok")
	if judged <= 0:
		raise Fail("no reclaim call was judged")
	if ok != judged:
		raise Fail(f"{judged - ok} of {judged} judged reclaim calls broke the rule"
			   f" ({run.message('cclock.audit')})")


@test(6, "the system survives swap pressure with the module loaded", boot=clock,
      parent=test_loads)
def test_survives_pressure(run):
	run.expect_pass("cclock.load.again")
	run.expect_pass("cclock.attached.again")
	run.expect_pass("cclock.pressure")
	if run.value("cclock.pressure", "swapped_out") <= 0:
		raise Fail("the workload did not swap: the test proved nothing")
	if run.value("cclock.pressure", "walks") <= 0:
		raise Fail("the module stopped walking: no walk during the workload or in the 3 s after it")


@test(6, "unloading the module while the system swaps is safe", boot=clock,
      parent=test_loads)
def test_unload_under_pressure(run):
	run.expect_pass("cclock.unload.pressure")


checkpatch(5)
