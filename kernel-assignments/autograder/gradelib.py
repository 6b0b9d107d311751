"""Declarations for graded kernel tests (tests.py), in the spirit of xv6's gradelib.

Interface for tests.py (see CONTRACT.md):
    Boot(name, plan, memory="128M", swap=None, disk=False, timeout=120)
    @test(points, title, boot=None, parent=None, hidden=False, functional=True)
    checkpatch(points, title=..., hidden=False)      the built-in checkpatch test
    Fail(message)                                    a readable failure
    run.expect_pass(id) / run.passed(id) / run.value(id, key) / run.message(id)

Interface for the grader:
    load_tests(path) -> [Test]    executes tests.py; raises TestsError naming the line
    Run(boot, outcome, verified)  what a test function receives

Invariants: tests keep their declaration order; a test's parent is declared before it;
every explanation a Run raises names the result id and, when the boot went wrong, why
(panic, oops, hang, flood), with the kernel's own lines.
"""
import re
import runpy
import traceback

from initramfs import parse_size


class Fail(Exception):
	"""A test failed; the message is shown to the student."""


class TestsError(Exception):
	"""tests.py itself is wrong (the instructor's input)."""


class Boot:
	def __init__(self, name, plan, memory="128M", swap=None, disk=False, timeout=120):
		for label, size in (("memory", memory), ("swap", swap),
				    ("disk", disk if isinstance(disk, str) else None)):
			if size is not None:
				try:
					parse_size(size)
				except ValueError as error:
					raise TestsError(f"Boot({name!r}): {label}: {error}")
		if not isinstance(timeout, (int, float)) or timeout <= 0:
			raise TestsError(f"Boot({name!r}): timeout must be a positive number of seconds")
		self.name = name
		self.plan = plan
		self.memory = memory
		self.swap = swap
		self.disk = "64M" if disk is True else (disk or None)
		self.timeout = timeout


class Test:
	def __init__(self, function, points, title, boot, parent, hidden, functional, kind):
		self.function = function
		self.points = points
		self.title = title
		self.boot = boot
		self.parent = parent
		self.hidden = hidden
		self.functional = functional
		self.kind = kind


_declared = []


def declare(function, points, title, boot=None, parent=None, hidden=False,
	    functional=True, kind="function"):
	if not isinstance(points, (int, float)) or points < 0:
		raise TestsError(f"test {title!r}: points must be a number >= 0")
	if boot is not None and not isinstance(boot, Boot):
		raise TestsError(f"test {title!r}: boot= must be a Boot(...)")
	parent_test = None
	if parent is not None:
		parent_test = next((t for t in _declared if t.function is parent), None)
		if parent_test is None:
			raise TestsError(f"test {title!r}: its parent must be a test declared before it")
	declared = Test(function, points, title, boot, parent_test, hidden, functional, kind)
	_declared.append(declared)
	return declared


def test(points, title, boot=None, parent=None, hidden=False, functional=True):
	def register(function):
		declare(function, points, title, boot, parent, hidden, functional)
		return function
	return register


def checkpatch(points, title="checkpatch.pl --no-tree is clean on your changes", hidden=False):
	declare(None, points, title, hidden=hidden, functional=False, kind="checkpatch")


def load_tests(path):
	_declared.clear()
	try:
		runpy.run_path(str(path))
	except TestsError as error:
		raise TestsError(f"{path}: {error}")
	except Exception:
		raise TestsError(f"{path}: could not be loaded:\n" +
				 traceback.format_exc(limit=-3))
	if not _declared:
		raise TestsError(f"{path}: declares no tests")
	return list(_declared)


BOOT_TROUBLE = {
	"panic": "the kernel panicked",
	"oops": "the kernel oopsed (a kernel bug; the machine stopped there)",
	"hang": "the test run hung and was stopped at a time limit (a step's, or the boot's"
		" {timeout} s)",
	"flood": "the guest flooded its output (the run was stopped at the size cap)",
	"crashed": "QEMU stopped unexpectedly",
}


KEY_LINE = re.compile(r"BUG:|Oops|RIP:|Kernel panic|general protection|stall|WARNING:|"
		      r"^step '.*' did not finish|"
		      r"^\s*\??\s*[\w.]+\+0x[0-9a-f]+/0x[0-9a-f]+")
KEY_LINES_SHOWN = 10
# The kernel's word on a user program it stopped: the OOM killer, a fault it did not handle.
PROGRAM_KILLED_LINE = re.compile(r"Out of memory: Killed process|\]: segfault at|traps: ")


def key_lines(problem):
	"""The lines of a kernel report a student reads first: what, where, and the calls."""
	lines = problem.splitlines()
	key = [line for line in lines if KEY_LINE.search(line)] or lines[-KEY_LINES_SHOWN:]
	return "\n".join(key[:KEY_LINES_SHOWN])


class Run:
	def __init__(self, boot, outcome, verified):
		self.boot = boot
		self.outcome = outcome
		self.results = verified.results
		self.values = verified.values
		self.suspicious = verified.suspicious
		self.console = outcome.console

	def why_missing(self, what):
		status = self.outcome.status
		if status in BOOT_TROUBLE:
			trouble = BOOT_TROUBLE[status].format(timeout=self.boot.timeout)
			when = "during the test" if "pl-init: running plan" in self.console \
				else "while booting, before any test ran"
			return (f"no result for {what}: {trouble} {when}:\n"
				f"{key_lines(self.outcome.problem)}\n(the whole kernel report is"
				f" in the boot notes and the serial log)")
		lines = self.console.splitlines()
		killed = [line for line in lines if PROGRAM_KILLED_LINE.search(line)]
		why = (", and the kernel stopped a program during the run:\n" +
		       "\n".join(killed[:KEY_LINES_SHOWN]) + "\n") if killed else \
			" (it may have crashed, or an earlier step failed). "
		tail = "\n".join(lines[-12:])
		return (f"no result for {what}: the test program did not report it{why}"
			f"Last console lines:\n{tail}")

	def message(self, ident):
		if ident not in self.results:
			raise Fail(self.why_missing(ident))
		return self.results[ident][1]

	def passed(self, ident):
		return ident in self.results and self.results[ident][0]

	def expect_pass(self, ident):
		message = self.message(ident)
		if not self.results[ident][0]:
			raise Fail(f"{ident} failed: {message}")
		return message

	def value(self, ident, key):
		if (ident, key) not in self.values:
			raise Fail(self.why_missing(f"{ident} {key}"))
		return self.values[(ident, key)]
