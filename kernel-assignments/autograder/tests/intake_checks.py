"""Checks of intake, bytes-safety and "a results.json, always" that need no kernel.

Every refusal happens before a kernel tree is touched, so these run in seconds: each
builds a hostile submission in a scratch directory and inspects it, or runs the real
grade command on it, or calls grade's main() with a fault injected.
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import signal
import socket
import stat
import subprocess
import tempfile
from pathlib import Path

import assignment as assignments
import grader
import kbuild
import results
import safetext
import submission as submissions
from harness import check, expect
from report import gradescope_json, text_report

AUTOGRADER = Path(__file__).resolve().parent.parent
SELFTEST = AUTOGRADER / "selftest"
GRADE = AUTOGRADER / "grade"
STUDENT_FILE = "kernel/pagelab_selftest.c"
SKELETON = (SELFTEST / "skeleton" / STUDENT_FILE).read_bytes()
REFERENCE = (SELFTEST / "cases/reference" / STUDENT_FILE).read_bytes()
PATCH = (SELFTEST / "cases/patch/submission.patch").read_bytes()


def selftest(limits=None):
	"""The self-test assignment, or a copy of its descriptor with LIMITS."""
	if limits is None:
		return assignments.load_assignment(SELFTEST)
	fields = json.loads((SELFTEST / "assignment.json").read_text())
	fields = {"name": "selftest", "student_files": fields["student_files"],
		  "tests": "tests.py", "limits": limits}
	with tempfile.TemporaryDirectory(prefix="pagelab-limits-") as name:
		directory = Path(name)
		(directory / "tests.py").write_text("")
		(directory / "assignment.json").write_text(json.dumps(fields))
		return assignments.load_assignment(directory)


def start_version(path):
	return (SELFTEST / "skeleton" / path).read_bytes()


@contextlib.contextmanager
def scratch():
	with tempfile.TemporaryDirectory(prefix="pagelab-intake-") as directory:
		yield Path(directory)


def inspect(path, assignment=None):
	return submissions.collect(path, assignment or selftest(), start_version)


def expect_refused(collected, *words):
	expect(collected.refused and collected.problem, f"not refused: {collected.problem}"
	       f" {collected.contents.keys()}")
	for word in words:
		expect(word in collected.problem, f"{word!r} not in: {collected.problem}")
	expect(safetext.printable(collected.problem) == collected.problem,
	       f"the refusal is not printable: {collected.problem!r}")
	return collected


def with_student_file(root, data=REFERENCE):
	(root / "kernel").mkdir(parents=True, exist_ok=True)
	(root / STUDENT_FILE).write_bytes(data)
	return root


@check("intake refuses a symlink at any depth, naming it, even beside a good file")
def symlinks_refused():
	with scratch() as root:
		with_student_file(root)
		(root / "a" / "b").mkdir(parents=True)
		(root / "a" / "b" / "notes.txt").symlink_to("/etc/passwd")
		expect_refused(inspect(root), "a/b/notes.txt: a symbolic link")
	with scratch() as root:
		(root / "elsewhere" / "kernel").mkdir(parents=True)
		(root / "elsewhere" / STUDENT_FILE).write_bytes(REFERENCE)
		(root / "sub").mkdir()
		(root / "sub" / "kernel").symlink_to(root / "elsewhere" / "kernel")
		expect_refused(inspect(root / "sub"), "kernel: a symbolic link")
		(root / "link").symlink_to(root / "elsewhere")
		expect_refused(inspect(root / "link"), "a symbolic link")


@check("intake refuses a hard link, a FIFO, a socket and a device, without hanging on the FIFO")
def special_files_refused():
	with scratch() as root:
		outside = root / "outside.c"
		outside.write_bytes(REFERENCE)
		submission = with_student_file(root / "sub")
		os.link(outside, submission / "kernel" / "other.c")
		expect_refused(inspect(submission), "kernel/other.c: a hard link (2 names")
	with scratch() as root:
		os.mkfifo(with_student_file(root) / "pipe")
		expect_refused(inspect(root), "pipe: a FIFO")
	with scratch() as root:
		with socket.socket(socket.AF_UNIX) as listener:
			listener.bind(str(with_student_file(root) / "sock"))
			expect_refused(inspect(root), "sock: a socket")
	expect_refused(inspect("/dev/null"), "a character device")


@check("intake refuses names with a newline, an ESC, a direction override or invalid UTF-8, escaped")
def bad_names_refused():
	for name, shown in ((b"fake\n  PASS  17 of 17  all.c", b"fake\\x0a  PASS"),
			    (b"colour\x1b[31m.c", b"colour\\x1b[31m.c"),
			    ("evil\u202egnp.c".encode(), b"evil\\u202egnp.c"),
			    (b"latin1-\xe9.c", b"latin1-\\xe9.c")):
		with scratch() as root:
			with_student_file(root)
			with open(os.path.join(os.fsencode(root), name), "wb") as handle:
				handle.write(b"x")
			collected = expect_refused(inspect(root), shown.decode())
			expect("\n" not in collected.problem and "\x1b" not in collected.problem,
			       repr(collected.problem))


@check("intake refuses a path longer than PATH_MAX, deep or given, and an unreadable entry, cleanly")
def long_and_unreadable_paths_refused():
	with scratch() as root:
		with_student_file(root)
		fd = os.open(root, os.O_RDONLY)
		for _ in range(17):
			os.mkdir("d" * 250, dir_fd=fd)
			deeper = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
			os.close(fd)
			fd = deeper
		os.close(fd)
		expect_refused(inspect(root), "longer than PATH_MAX")
	expect_refused(inspect("/tmp/" + "x" * 5000), "longer than PATH_MAX")
	with scratch() as root:
		os.chmod(root, 0o755)
		with_student_file(root / "sub")
		os.chmod(root / "sub" / "kernel", 0)
		program = ("import sys, submission as s, assignment as a; c = s.inspect(sys.argv[1],"
			   " a.load_assignment(sys.argv[2])); print(c.problem)")
		as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] \
			if os.geteuid() == 0 else []
		proc = subprocess.run(as_nobody + ["python3", "-c", program, str(root / "sub"),
						   str(SELFTEST)], cwd=AUTOGRADER, text=True,
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
		expect(proc.returncode == 0 and "refused: kernel: cannot be read (Permission denied)"
		       in proc.stdout, proc.stdout)


def write_patch(root, *sections):
	path = root / "submission.patch"
	path.write_bytes(b"".join(sections))
	return path


NEW_FILE = (b"diff --git a/kernel/pagelab_selftest.c b/kernel/pagelab_selftest.c\n"
	    b"new file mode 100644\n--- /dev/null\n+++ b/kernel/pagelab_selftest.c\n"
	    b"@@ -0,0 +1 @@\n+int x;\n")


def git_section(path, headers, body=b""):
	return (b"diff --git a/" + path + b" b/" + path + b"\n" + headers + body)


@check("a patch creating a file twice, a symlink, a submodule or a binary file is refused by line")
def patch_modes_refused():
	with scratch() as root:
		expect_refused(inspect(write_patch(root, NEW_FILE, NEW_FILE)),
			       "line 7: creates kernel/pagelab_selftest.c, which an earlier section")
		link = git_section(b"kernel/pagelab_selftest.c", b"new file mode 120000\n",
				   b"--- /dev/null\n+++ b/kernel/pagelab_selftest.c\n@@ -0,0 +1 @@\n"
				   b"+/etc/shadow\n\\ No newline at end of file\n")
		expect_refused(inspect(write_patch(root, link)), "line 2: a symbolic link (mode 120000)")
		module = git_section(b"kernel/pagelab_selftest.c", b"index 0000000..e69de29 160000\n")
		expect_refused(inspect(write_patch(root, module)), "line 2: a git submodule")
		binary = git_section(b"kernel/pagelab_selftest.c",
				     b"index 1111111..2222222 100644\nGIT binary patch\nliteral 4\n")
		expect_refused(inspect(write_patch(root, binary)), "line 3: a binary patch")
		binary = git_section(b"kernel/pagelab_selftest.c", b"index 1111111..2222222\n"
				     b"Binary files a/kernel/pagelab_selftest.c and"
				     b" b/kernel/pagelab_selftest.c differ\n")
		expect_refused(inspect(write_patch(root, binary)), "line 3: a binary file")
		rename = git_section(b"kernel/pagelab_selftest.c", b"similarity index 100%\n"
				     b"rename from ../../etc/passwd\nrename to kernel/pagelab_selftest.c\n")
		expect_refused(inspect(write_patch(root, rename)), "line 2: a rename or copy")


@check("a patch naming an absolute path, '..', another file or a bad name is refused, escaped")
def patch_paths_refused():
	hunk = b"@@ -1 +1 @@\n-a\n+b\n"
	with scratch() as root:
		for old, new, words in (
				(b"/etc/passwd", b"/etc/passwd", "line 1: /etc/passwd: an absolute path"),
				(b"a/../../etc/passwd", b"b/../../etc/passwd", "a path with '..'"),
				(b"a/mm/vmscan.c", b"b/mm/vmscan.c", "mm/vmscan.c is not one of this"),
				(b'"a/kernel/x\\nPASS.c"', b'"b/kernel/x\\nPASS.c"', "x\\x0aPASS.c"),
				(b"a/kernel/\xff.c", b"b/kernel/\xff.c", "not valid UTF-8"),
				(b"a/kernel/pagelab_selftest.c", b"b/kernel/other.c", "not one of")):
			collected = expect_refused(inspect(write_patch(root, b"--- " + old + b"\n+++ " +
									new + b"\n" + hunk)), words)
			expect("\n" not in collected.problem, repr(collected.problem))
		expect_refused(inspect(write_patch(root, b"--- a/kernel/pagelab_selftest.c\n+++ b/kernel"
						      b"/pagelab_selftest.c\n@@ -1,3 +1,3 @@\n-a\n")),
			       "the hunk ends before")
		expect_refused(inspect(write_patch(root, b"hello\n")), "not a unified diff")


@check("a patch's own headers never reach GNU patch: only its checked hunks, bytes exact")
def patch_rebuilt_from_hunks():
	latin1 = PATCH.replace(b"#define SELFTEST_MAX_VALUES 1024",
			       b"#define SELFTEST_MAX_VALUES 1024 /* caf\xe9 */")
	with scratch() as root:
		collected = inspect(write_patch(root, b"From: student\nIndex: /etc/passwd\n", latin1,
						b"-- \n2.39.2\n"))
		expect(collected.problem is None, collected.problem)
		expect(b"caf\xe9 */" in collected.contents[STUDENT_FILE], "the byte was not kept")
		expect(collected.contents[STUDENT_FILE] == REFERENCE.replace(
			b"VALUES 1024\n", b"VALUES 1024 /* caf\xe9 */\n"), "wrong contents")


def with_limits(**chosen):
	return selftest(chosen)


@check("every intake limit refuses one byte or one file over it, never truncating, and accepts it at the limit")
def limits_refuse_not_truncate():
	with scratch() as root:
		with_student_file(root, b"x" * 100)
		expect(inspect(root, with_limits(max_file_bytes=100)).contents[STUDENT_FILE] ==
		       b"x" * 100, "a file at the limit was not read whole")
		expect_refused(inspect(root, with_limits(max_file_bytes=99)), "max_file_bytes",
			       "(100) is over the limit of 99")
		(root / "notes.txt").write_bytes(b"y" * 50)
		expect_refused(inspect(root, with_limits(max_total_bytes=149)), "max_total_bytes")
		expect_refused(inspect(root, with_limits(max_files=2)), "max_files")
		expect(inspect(root, with_limits(max_files=3)).problem is None, "3 entries refused")
		expect(inspect(root, with_limits(max_files=2)).limit == "max_files", "no limit named")
		patch = write_patch(root, PATCH)
		expect_refused(inspect(patch, with_limits(max_patch_bytes=len(PATCH) - 1)),
			       "max_patch_bytes")
		expect(inspect(patch, with_limits(max_patch_bytes=len(PATCH))).problem is None, "")
		hunks = PATCH.count(b"\n@@ ")
		twice = write_patch(root, PATCH, PATCH)
		expect_refused(inspect(twice, with_limits(max_hunks=2 * hunks - 1)), "max_hunks")
		expect(inspect(twice, with_limits(max_hunks=2 * hunks)).limit is None, "")


@check("assignment.json limits are checked: unknown names and non-positive values are refused")
def limits_descriptor_checked():
	for limits, words in (({"max_file": 1}, "unknown limit 'max_file'"),
			      ({"max_hunks": 0}, "max_hunks must be a positive whole number"),
			      ({"max_hunks": True}, "max_hunks must be")):
		try:
			selftest(limits)
		except assignments.DescriptorError as error:
			expect(words in str(error), str(error))
		else:
			expect(False, f"accepted {limits}")


@check("a result line with a non-ASCII or non-hex mac is ignored and counted, not a crash")
def odd_macs_ignored():
	key = "5f" * 32
	body = "PL1 0000000000000001 1 R a.b 1 ok"
	for mac in ("é" * 64, "Z" * 64, "\ud800" * 64, results.sign(key, body).upper()):
		verified = results.verify(f"{body} {mac}\n", "", key)
		expect(not verified.results and len(verified.suspicious) == 1, verified.suspicious)
		expect(safetext.printable(verified.suspicious[0]) == verified.suspicious[0],
		       verified.suspicious)
	verified = results.verify(f"{body} {results.sign(key, body)}\n", "", key)
	expect(verified.results == {"a.b": (True, "ok")}, "the real line was not accepted")
	expect(results.unauthenticated_note(3) == "3 unauthenticated result lines ignored", "note")


class FakeTree:
	"""An assignment tree whose student file starts as the skeleton."""

	def start_version(self, path):
		return SKELETON

	def base_version(self, path):
		return SKELETON


def non_utf8_checkpatch(diff, log):
	"""checkpatch.pl as a hostile diff could make it talk: bytes not UTF-8, with an ESC."""
	return False, b"WARNING: caf\xe9 \x1b[2J\xff\n"


@check("checkpatch output that is not UTF-8 and holds ESC is shown replaced and escaped")
def checkpatch_bytes_safe():
	original = grader.run_checkpatch
	grader.run_checkpatch = non_utf8_checkpatch
	try:
		score, output = grader.checkpatch_score(FakeTree(), {STUDENT_FILE: REFERENCE}, 1,
							lambda message: None)
	finally:
		grader.run_checkpatch = original
	expect(score == 0 and output == "WARNING: caf\ufffd \\x1b[2J\ufffd", repr(output))


def hostile_report():
	report = grader.Report(selftest(), "sub\n  PASS  17/17  fake/", False)
	report.entries = [
		grader.Entry("Submission", 0, 0, "graded files: x\n  PASS  17/17  fake", functional=False),
		grader.Entry("works", 4, 0, "kernel said:\n  PASS   4/4  works\x1b[1A\ud800\x00")]
	report.notes = ["boot 'basic': panic in 1.0 s\n  PASS  17/17  fake\n  PASS  4/4 fake"]
	return report


@check("nothing a submission prints or names can make a line of the text report that looks like the report's own")
def report_structure_safe():
	report = hostile_report()
	text = text_report(report)
	lines = text.splitlines()
	own = [line for line in lines if line.lstrip().startswith(("PASS", "PART", "FAIL"))]
	expect(own == ["  FAIL     0/4  works"], own)
	expect("\x1b" not in text and "\x00" not in text and "\\x1b[1A" in text, repr(text))
	data = json.loads(json.dumps(gradescope_json(report), ensure_ascii=False, allow_nan=False))
	expect("\\ud800" in data["tests"][1]["output"], data["tests"][1]["output"])


def load_grade_command():
	loader = importlib.machinery.SourceFileLoader("grade_command", str(GRADE))
	module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
	loader.exec_module(module)
	return module


def strictly_valid(path):
	"""results.json as a dict, after checking it is strict, printable UTF-8 JSON."""
	raw = path.read_bytes()
	text = raw.decode("utf-8")
	data = json.loads(text, parse_constant=lambda name: expect(False, f"{name} in {path}"))
	for string in strings_in(data):
		expect(safetext.printable(string) == string, f"unprintable string {string!r}")
	expect(isinstance(data.get("score"), (int, float)) and isinstance(data.get("tests"), list),
	       data)
	return data


def strings_in(value):
	if isinstance(value, str):
		yield value
	elif isinstance(value, dict):
		for key, item in value.items():
			yield key
			yield from strings_in(item)
	elif isinstance(value, list):
		for item in value:
			yield from strings_in(item)


def run_main_with(fault, submission=SELFTEST / "skeleton"):
	"""Calls grade's main() in this process with grader.grade replaced by FAULT."""
	command = load_grade_command()
	original = grader.grade
	handlers = [signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)]
	grader.grade = fault
	with scratch() as root, contextlib.redirect_stdout(io.StringIO()), \
	     contextlib.redirect_stderr(io.StringIO()):
		try:
			status = command.main([str(SELFTEST), str(submission), "--out",
					       str(root / "results.json"), "--logs", str(root / "staff")])
		finally:
			grader.grade = original
			signal.signal(signal.SIGTERM, handlers[0])
			signal.signal(signal.SIGINT, handlers[1])
		data = strictly_valid(root / "results.json")
		staff = (root / "staff" / "staff.log").read_text()
		outcome = json.loads((root / "staff" / "outcome.json").read_text())
	return status, data, staff, outcome


def crashing_grade(*args):
	raise RuntimeError("injected fault /secret/host/path")


def nan_grade(assignment, submission, public, logs, log):
	report = hostile_report()
	report.entries.append(grader.Entry("nan", 1, float("nan"), "x"))
	return report


def hostile_text_grade(assignment, submission, public, logs, log):
	return hostile_report()


@check("an internal grader error gives exit 4, score 0, the staff message, and the traceback only in staff.log")
def internal_error_results():
	status, data, staff, outcome = run_main_with(crashing_grade)
	expect(status == 4 and data["score"] == 0, (status, data))
	expect("internal grader error — contact course staff" in data["output"], data)
	expect("/secret/host/path" not in json.dumps(data) and "Traceback" not in json.dumps(data),
	       data)
	expect("Traceback" in staff and "injected fault /secret/host/path" in staff, staff)
	expect(outcome["status"] == "internal-error", outcome)


@check("a NaN score or text with ESC, NUL and lone surrogates still gives a strict, printable results.json")
def unserialisable_results():
	status, data, staff, outcome = run_main_with(nan_grade)
	expect(data["score"] == 0 and "internal grader error" in data["output"], data)
	expect(outcome["status"] == "internal-error" and "JSON compliant" in outcome["error"],
	       outcome)
	status, data, staff, outcome = run_main_with(hostile_text_grade)
	expect(status == 0 and "\\x1b[1A" in data["tests"][1]["output"], data)


@check("SIGTERM while grading still leaves a results.json saying it was interrupted, exit 130")
def interrupted_results():
	def interrupted_grade(*args):
		os.kill(os.getpid(), 15)
	status, data, staff, outcome = run_main_with(interrupted_grade)
	expect(status == 130 and "interrupted" in data["output"], (status, data))
	expect(outcome["status"] == "interrupted", outcome)


def grade_command(submission, *options):
	with scratch() as root:
		proc = subprocess.run([str(GRADE), str(SELFTEST), str(submission), "--out",
				       str(root / "results.json"), "--logs", str(root / "staff"),
				       *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
		data = strictly_valid(root / "results.json")
		outcome = json.loads((root / "staff" / "outcome.json").read_text())
	return proc, data, outcome


@check("the grade command refuses a hostile submission before any kernel work: exit 0, score 0, status refused")
def grade_command_refuses():
	with scratch() as root:
		with_student_file(root)
		(root / "kernel" / "mm").symlink_to("/root")
		proc, data, outcome = grade_command(root)
	expect(proc.returncode == 0 and data["score"] == 0, proc.stderr)
	expect("refused: kernel/mm: a symbolic link" in json.dumps(data), data)
	expect(outcome["status"] == "refused" and b"work tree" not in proc.stderr and
	       b"building" not in proc.stderr, proc.stderr)
	with scratch() as root:
		proc, data, outcome = grade_command(write_patch(root, NEW_FILE, NEW_FILE))
	expect(outcome["status"] == "refused" and "created" in data["tests"][0]["output"], data)


@check("a staff directory that cannot be made is an internal error that still writes results.json")
def unusable_staff_directory():
	with scratch() as root:
		(root / "file").write_text("")
		proc = subprocess.run([str(GRADE), str(SELFTEST), str(SELFTEST / "skeleton"), "--out",
				       str(root / "results.json"), "--logs", str(root / "file" / "staff")],
				      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
		data = strictly_valid(root / "results.json")
	expect(proc.returncode == 4 and "internal grader error" in data["output"], proc.stderr)


class StartingTree:
	"""An assignment tree that is already prepared (no kernel needed)."""

	def __init__(self, assignment, log):
		self.assignment = assignment

	def prepare(self):
		pass

	def start_version(self, path):
		return SKELETON

	def base_version(self, path):
		return SKELETON


class FailingBuild:
	"""A grade's build whose compile fails, for the path a compile error takes through grade()."""

	def __init__(self, tree, log):
		self.directory = Path("/nonexistent-build")  # never booted: the build fails

	def __enter__(self):
		return self

	def __exit__(self, *exc):
		return False

	def overlay(self, contents):
		pass

	def build(self):
		return kbuild.BuildResult(False, 1.0, compiler_lines=["kernel/x.c:1:1: error: \x1b[2J"])


@check("a submission that does not build gets no style point: checkpatch is not run")
def no_style_points_without_a_build():
	originals = grader.AssignmentTree, grader.SubmissionBuild
	grader.AssignmentTree, grader.SubmissionBuild = StartingTree, FailingBuild
	try:
		with scratch() as root:
			report = grader.grade(selftest(), with_student_file(root), False, root,
					      lambda message: None)
	finally:
		grader.AssignmentTree, grader.SubmissionBuild = originals
	style = [entry for entry in report.entries if entry.title.startswith("checkpatch")]
	expect(len(style) == 1 and style[0].score == 0 and style[0].output.startswith(
		"not run: your kernel does not compile"), [vars(entry) for entry in style])
	expect(report.status == "build-failed" and report.score() == 0, report.status)
