"""Grades one submission of one assignment: the engine behind the `grade` command.

Interface:
    grade(assignment, submission_path, public, logs_dir, log) -> Report
        (LOGS_DIR, the staff-only directory, receives each boot's serial log and results
        port text; LOG(message) goes to the staff log)
    Report: .entries [Entry] (informational entries first, then the tests in declaration
            order), .notes [str] for the top of the report, .score(), .max_score(),
            .status (ok, refused, missing, build-failed, timeout), .limit (the intake limit
            that refused it, or None), .fingerprint (see submission.fingerprint)

Order of work: inspect the submission (refusals need no kernel tree and never build),
refuse if no sandbox can be made (unless --no-sandbox), prepare the assignment's kernel
layers (once), apply a patch to the starting files, make this grade's own build directory,
overlay + build in the sandbox, then run the tests in order, booting each Boot lazily the
first time a selected test needs it.  checkpatch runs only on a submission that builds.
The build directory (and the boots' disks) are removed at the end.

Invariants: every declared test that is selected (all, or the public ones with --public)
gets exactly one entry with a score in [0, points]; a test that crashes scores zero with
its traceback marked as a grader error, and never stops the others.
"""
import difflib
import shutil
import traceback

import initramfs
import qemu
import results
import safetext
import sandbox
import submission as submissions
from gradelib import Fail, Run, TestsError, load_tests
from kbuild import AssignmentTree, SetupError, SubmissionBuild, run_checkpatch

CHECKPATCH_LINES_SHOWN = 40


class Entry:
	def __init__(self, title, points, score, output, hidden=False, functional=True):
		self.title = title
		self.points = points
		self.score = score
		self.output = output
		self.hidden = hidden
		self.functional = functional


class Report:
	def __init__(self, assignment, submission_path, public):
		self.assignment = assignment
		self.submission_path = submission_path
		self.public = public
		self.entries = []
		self.notes = []
		self.grader_errors = []
		self.status = "ok"
		self.limit = None
		self.fingerprint = None

	def score(self):
		return sum(entry.score for entry in self.entries)

	def max_score(self):
		return sum(entry.points for entry in self.entries)


def run_test(test, run):
	"""Score and output of one test function (None or a fraction means success)."""
	try:
		fraction = test.function(run)
	except (Fail, AssertionError) as failure:
		return 0, str(failure) or "assertion failed"
	except Exception:
		return 0, "GRADER ERROR: the test itself crashed:\n" + traceback.format_exc(limit=-2)
	if fraction is None:
		return test.points, ""
	if not isinstance(fraction, (int, float)) or not 0 <= fraction <= 1:
		return 0, f"GRADER ERROR: the test returned {fraction!r}, not a fraction in [0, 1]"
	return round(test.points * fraction, 2), f"partial credit: {fraction:.0%}"


def student_diff(tree, contents):
	"""The student's changes as a unified diff against the pristine + base tree."""
	parts = []
	for path, data in sorted(contents.items()):
		if data == tree.start_version(path):
			continue
		base = tree.base_version(path)
		old = base.decode(errors="replace").splitlines(keepends=True) if base else []
		new = data.decode(errors="replace").splitlines(keepends=True)
		if new and not new[-1].endswith("\n"):
			new[-1] += "\n\\ No newline at end of file\n"
		parts.append("".join(difflib.unified_diff(
			old, new, "/dev/null" if base is None else f"a/{path}", f"b/{path}")))
	return "".join(parts)


def checkpatch_score(tree, contents, points, log):
	diff = student_diff(tree, contents)
	if not diff:
		return 0, "no changes to check: the files are still the starting versions"
	clean, output = run_checkpatch(diff.encode("utf-8", "replace"), log)
	lines = safetext.decode(output).strip().splitlines()
	log("checkpatch said:\n" + "\n".join(lines))
	shown = "\n".join(lines[:CHECKPATCH_LINES_SHOWN])
	if len(lines) > CHECKPATCH_LINES_SHOWN:
		shown += f"\n... ({len(lines) - CHECKPATCH_LINES_SHOWN} more lines)"
	return (points if clean else 0), shown


class Boots:
	"""Boots each Boot once, on first use, and keeps its verified Run."""

	def __init__(self, assignment, built, workdir, logs_dir, log):
		self.assignment = assignment
		self.image = built.image
		self.modules = built.modules
		self.workdir = workdir
		self.logs_dir = logs_dir
		self.log = log
		self.runs = {}
		self.unreturned = {}
		self.base = None

	def note_unreturned(self, boot_name, title):
		"""The first test of a boot that got no result: the one that did not return."""
		self.unreturned.setdefault(boot_name, title)

	def run_for(self, boot):
		if boot.name not in self.runs:
			self.runs[boot.name] = self.start(boot)
		return self.runs[boot.name]

	def start(self, boot):
		if self.base is None:
			self.base = initramfs.base_initramfs(self.assignment, self.log)
		directory = self.workdir / boot.name
		directory.mkdir(parents=True)
		key = results.new_key()
		ramdisk = initramfs.run_initramfs(self.base, key, directory, self.modules)
		drives = []
		if boot.swap:
			drives.append(("swap", initramfs.swap_image(directory, boot.swap)))
		if boot.disk:
			drives.append(("disk", initramfs.ext2_image(directory, boot.disk)))
		self.log(f"booting '{boot.name}' (plan {boot.plan}, {boot.memory} memory,"
			 f" timeout {boot.timeout} s)")
		outcome = qemu.boot(self.image, ramdisk, boot.plan, boot.memory, boot.timeout,
				    directory, drives, log=self.log)
		self.log(f"boot '{boot.name}': {outcome.status} after {outcome.seconds:.1f} s"
			 f" ({outcome.accel.upper()})")
		for kept in directory.glob("*-*.*"):
			if kept.suffix in (".log", ".txt"):
				shutil.copy(kept, self.logs_dir / f"{boot.name}-{kept.name}")
		return Run(boot, outcome, results.verify(outcome.results, outcome.console, key))


def submission_entry(collected):
	if collected.problem:
		lines = [collected.problem] + collected.notes
	else:
		lines = [f"graded files: {', '.join(sorted(collected.contents))}"] + collected.notes
	return Entry("Submission", 0, 0, "\n".join(lines), functional=False)


def build_entry(built):
	if built.ok:
		output = f"the kernel built in {built.seconds:.0f} s" if built.seconds else \
			"unchanged since the last grade: the kernel built then is used"
		if built.warnings:
			output += "; compiler warnings in your files:\n" + "\n".join(built.warnings[:20])
		return Entry("Kernel build", 0, 0, output, functional=False)
	return Entry("Kernel build", 0, 0, "your kernel does not compile. The compiler said:\n"
		     + "\n".join(built.compiler_lines), functional=False)


def boot_notes(boots):
	"""One note per boot; what the kernel printed only ever follows its first line."""
	notes = []
	for name, run in boots.runs.items():
		outcome = run.outcome
		lines = [f"boot '{name}': {outcome.status} in {outcome.seconds:.1f} s"
			 f" ({outcome.accel.upper()})"]
		if outcome.status != "finished":
			lines.append(outcome.problem)
		if outcome.status == "hang" and name in boots.unreturned:
			lines.append(f"the test that did not return: '{boots.unreturned[name]}'")
		if run.suspicious:
			lines.append("SUSPICIOUS: " + results.unauthenticated_note(len(run.suspicious))
				     + " (forged, replayed or corrupted):\n" +
				     results.summarize_suspicious(run.suspicious))
		notes.append("\n".join(lines))
	return notes


def grade_tests(report, tests, tree, contents, boots, blocked, log):
	"""BLOCKED: why boot tests and checkpatch cannot run (build failed, nothing to grade),
	or None."""
	scores = {}
	for test in tests:
		parent = test.parent
		if test.kind == "checkpatch":
			score, output = (0, f"not run: {blocked}") if blocked else \
				checkpatch_score(tree, contents, test.points, log)
		elif test.boot is not None and blocked:
			score, output = 0, f"not run: {blocked}"
		elif parent is not None and id(parent) in scores and scores[id(parent)] < parent.points:
			score, output = 0, f"not run: it builds on '{parent.title}', which did not pass"
		else:
			score, output = run_test(test, boots.run_for(test.boot) if test.boot else None)
		if output.startswith("GRADER ERROR"):
			report.grader_errors.append(f"{test.title}: {output}")
		if test.boot is not None and boots is not None and output.startswith("no result"):
			boots.note_unreturned(test.boot.name, test.title)
		scores[id(test)] = score
		report.entries.append(Entry(test.title, test.points, score, output, test.hidden,
					    test.functional))


def check_plans(assignment, tests):
	for boot in {test.boot for test in tests if test.boot is not None}:
		plan = assignment.guest_dir / "plans" / boot.plan if assignment.guest_dir else None
		if plan is None or not plan.is_file():
			raise TestsError(f"{assignment.tests_path}: Boot({boot.name!r}) runs plan"
					 f" {boot.plan!r}, but there is no {plan or 'guest_dir/plans/' + boot.plan}")


def nothing_graded(report, tests, collected, log):
	report.entries.append(submission_entry(collected))
	report.status = "refused" if collected.refused or collected.contents else "missing"
	report.limit = collected.limit
	log(f"not graded ({report.status}): {collected.problem}")
	grade_tests(report, tests, None, {}, None, "nothing could be graded (see Submission)", log)
	return report


def grade(assignment, submission_path, public, logs_dir, log):
	report = Report(assignment, submission_path, public)
	tests = [t for t in load_tests(assignment.tests_path) if not (public and t.hidden)]
	check_plans(assignment, tests)
	if public:
		report.notes.append("public tests only: the grader also runs hidden tests")
	inspected = submissions.inspect(submission_path, assignment)
	if inspected.problem:
		return nothing_graded(report, tests, inspected, log)
	if not sandbox.is_disabled() and sandbox.available():
		raise SetupError(f"no sandbox can be made on this machine ({sandbox.available()}):"
				 " untrusted submissions are refused; for trusted input only, a TA"
				 " may pass --no-sandbox")
	tree = AssignmentTree(assignment, log)
	tree.prepare()
	collected = submissions.collect(inspected, assignment, tree.start_version)
	if collected.problem:
		return nothing_graded(report, tests, collected, log)
	report.entries.append(submission_entry(collected))
	report.fingerprint = submissions.fingerprint(collected, assignment, tree.start_version)
	with SubmissionBuild(tree, log) as build:
		build.overlay(collected.contents)
		log("building the kernel (incremental, in the sandbox)")
		built = build.build()
		if built.output:
			log("make said:\n" + built.output)
		report.entries.append(build_entry(built))
		if not built.ok:
			report.status = "build-failed"
		boots = Boots(assignment, built, build.directory / "boots", logs_dir, log)
		grade_tests(report, tests, tree, collected.contents, boots,
			    None if built.ok else "your kernel does not compile (see Kernel build)", log)
		report.notes += boot_notes(boots)
		if any(run.outcome.status == "hang" for run in boots.runs.values()):
			report.status = "timeout"
	return report
