"""Checks of the grader's parts that need no kernel: signing, parsing, submissions, reports.

Each check states one behaviour; they run from run.py before the kernel cases.
"""
import atexit
import json
import os
import subprocess
import sys
import tempfile
import types
import zipfile
from pathlib import Path
from unittest import mock

import assignment as assignments
import gradelib
import initramfs
import kbuild
import qemu
import results
import sandbox
import submission as submissions
from harness import check, expect
from report import gradescope_json, text_report

AUTOGRADER = Path(__file__).resolve().parent.parent
GUEST = AUTOGRADER.parent / "common" / "guest"
SELFTEST = AUTOGRADER / "selftest"
KEY = "5f" * 32


# One build per suite run: named by the suite's process (the checks' processes are forked
# from it), built under a name of the check's own and renamed, so two checks that build it
# at once never run a half-written binary.
NATIVE_PLTOOL = Path(tempfile.gettempdir()) / f"pagelab-pltool-{os.getpid()}"


def native_pltool():
	"""pltool built for the host, so its C code can be checked against Python."""
	if not NATIVE_PLTOOL.exists():
		building = NATIVE_PLTOOL.with_name(f"{NATIVE_PLTOOL.name}.{os.getpid()}")
		subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{GUEST}",
				str(GUEST / "pltool.c"), str(GUEST / "pltest.c"), "-o", str(building)],
			       check=True)
		building.rename(NATIVE_PLTOOL)
	return NATIVE_PLTOOL


# atexit runs in the suite's process only: the checks' forked processes end with os._exit
atexit.register(NATIVE_PLTOOL.unlink, missing_ok=True)


def pltool(*args, key=KEY, out=None):
	env = dict(os.environ, PL_KEY=key or "")
	if out:
		env["PL_OUT"] = str(out)
	return subprocess.run([str(native_pltool()), *args], env=env, text=True,
			      stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def signed_lines(*commands):
	with tempfile.NamedTemporaryFile("r", suffix=".txt") as port:
		for command in commands:
			pltool(*command, out=port.name)
		return Path(port.name).read_text()


@check("the guest's HMAC-SHA256 equals Python's for short, block-sized and long keys and messages")
def hmac_matches_python():
	for key in ("", "00", "6b6579", "ab" * 64, "cd" * 100):
		for length in (0, 1, 55, 56, 63, 64, 65, 200):
			message = "m" * length
			got = pltool("hmac", key, message).stdout.strip()
			expect(got == results.sign(key, message),
			       f"key {key[:8]}... message length {length}: C gave {got!r}")


@check("a line signed by the guest library is accepted with its message and value")
def signed_line_accepted():
	text = signed_lines(("result", "memstat.exists", "1", "returned", "0"),
			    ("value", "memstat.promoted", "delta", "1234"))
	verified = results.verify(text, "", KEY)
	expect(verified.results == {"memstat.exists": (True, "returned 0")}, verified.results)
	expect(verified.values == {("memstat.promoted", "delta"): 1234}, verified.values)
	expect(verified.suspicious == [], verified.suspicious)


@check("a line with a changed message, a wrong key or no key at all is rejected as suspicious")
def tampered_lines_rejected():
	text = signed_lines(("result", "a.b", "0", "failed"))
	forged = text.replace(" 0 failed ", " 1 failed ")
	verified = results.verify(forged, "", KEY)
	expect("a.b" not in verified.results and verified.suspicious, "a flipped result was accepted")
	verified = results.verify(text, "", "aa" * 32)
	expect(not verified.results and verified.suspicious, "a line under another key was accepted")
	with tempfile.NamedTemporaryFile("r") as port:
		pltool("result", "a.b", "1", "ok", key=None, out=port.name)
		verified = results.verify(Path(port.name).read_text(), "", KEY)
	expect(not verified.results and "unsigned" in verified.suspicious[0], verified.suspicious)


@check("a replayed line is rejected, so a kernel cannot repeat an earlier pass")
def replayed_line_rejected():
	text = signed_lines(("result", "a.first", "1", "ok"))
	verified = results.verify(text + text, "", KEY)
	expect(verified.results == {"a.first": (True, "ok")}, verified.results)
	expect(len(verified.suspicious) == 1 and "replayed" in verified.suspicious[0],
	       verified.suspicious)


@check("result lines printed on the console are ignored and reported")
def console_lines_reported():
	text = signed_lines(("result", "a.b", "1", "ok"))
	verified = results.verify("", "[  1.0] " + text, KEY)
	expect(not verified.results and "console" in verified.suspicious[0], verified.suspicious)


@check("a failure of an id wins over an earlier pass of the same id")
def failure_wins():
	text = signed_lines(("result", "a.b", "1", "ok"))
	text += signed_lines(("result", "a.b", "0", "broke later"))
	verified = results.verify(text, "", KEY)
	expect(verified.results["a.b"] == (False, "broke later"), verified.results)


@check("pltool refuses bad usage with status 2 and says why")
def pltool_usage():
	proc = pltool("result", "a.b", "maybe")
	expect(proc.returncode == 2 and "0 or 1" in proc.stderr, proc.stderr)
	proc = pltool("value", "a.b", "k", "12x")
	expect(proc.returncode == 2 and "not a number" in proc.stderr, proc.stderr)


@check("the initramfs writer makes archives cpio can list, device node included")
def newc_archive_lists():
	archive = initramfs.newc_archive([initramfs.directory("bin"),
					  ("dev/console", 0o20600, b"", (5, 1)),
					  initramfs.regular("bin/hello", b"#!/bin/sh\necho hi\n")])
	proc = subprocess.run(["cpio", "-t", "--quiet"], input=archive, stdout=subprocess.PIPE,
			      stderr=subprocess.PIPE)
	expect(proc.stdout.decode().split() == ["bin", "dev/console", "bin/hello"],
	       proc.stdout + proc.stderr)


@check("a boot's own archive holds its key and the build's modules in /lib/modules")
def run_archive_holds_modules():
	with tempfile.TemporaryDirectory() as scratch:
		scratch = Path(scratch)
		base = scratch / "base.cpio"
		base.write_bytes(initramfs.newc_archive([initramfs.directory("bin")]))
		module = scratch / "built.ko"
		module.write_bytes(b"\x7fELF module")
		archive = initramfs.run_initramfs(base, "ab" * 32, scratch, {"clock.ko": module})
		data, first = archive.read_bytes(), base.read_bytes()
	# the kernel reads the two archives one after the other; cpio stops at the first
	proc = subprocess.run(["cpio", "-t", "--quiet"], input=data[len(first):],
			      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
	expect(data.startswith(first), "the base archive does not come first")
	names = proc.stdout.decode().split()
	expect(names == ["etc", "etc/pl.key", "lib", "lib/modules", "lib/modules/clock.ko"], names)


@check("assignment.json modules must be relative kernel-tree paths of .ko files")
def modules_descriptor_checked():
	for modules in (["mm/foo.o"], ["/lib/modules/foo.ko"], ["../foo.ko"], [7]):
		with tempfile.TemporaryDirectory() as scratch:
			descriptor = Path(scratch) / "assignment.json"
			descriptor.write_text(json.dumps({"name": "x", "student_files": ["mm/x.c"],
							  "tests": "assignment.json",
							  "modules": modules}))
			try:
				assignments.load_assignment(scratch)
			except assignments.DescriptorError as error:
				expect("\"modules\"" in str(error), str(error))
			else:
				expect(False, f"accepted {modules}")


@check("the counter-clock Gradescope bundle holds the shared base patch, the assignment"
       " and its guest programs, never the instructor's reference")
def counter_clock_bundle():
	with tempfile.TemporaryDirectory() as scratch:
		bundle = Path(scratch) / "bundle.zip"
		proc = subprocess.run([str(AUTOGRADER / "make-bundle"), "counter-clock", str(bundle)],
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
		expect(proc.returncode == 0, proc.stdout)
		with zipfile.ZipFile(bundle) as archive:
			names = archive.namelist()
	for needed in ("setup.sh", "run_autograder", "kernel-assignments/common/base.patch",
		       "kernel-assignments/counter-clock/base.patch",
		       "kernel-assignments/counter-clock/guest/cclock_check.c",
		       "kernel-assignments/counter-clock/skeleton/mm/counter_clock_aging.c"):
		expect(needed in names, f"{needed} is not in the bundle")
	expect(not [name for name in names if "instructor" in name], "instructor files bundled")


HARNESS_SAMPLE = """
import os, signal, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from harness import check, expect, run_checks
started = Path(sys.argv[2])


def wait_for_the_next_check():
	deadline = time.monotonic() + 20
	while not started.exists() and time.monotonic() < deadline:
		time.sleep(0.05)
	expect(started.exists(), "the next check never started beside this one")
	print("printed by the slow one")


def fail_after_saying_so():
	started.touch()
	expect(False, "the reason it gives")


check("a slow check that prints")(wait_for_the_next_check)
check("a quick check that fails")(fail_after_saying_so)
check("a check whose process exits")(lambda: os._exit(3))
check("a check run alone", alone=True)(lambda: None)
check("a check whose process is killed")(lambda: os.kill(os.getpid(), signal.SIGKILL))
check("a check that raises")(lambda: [][1])
sys.exit(run_checks("sample"))
"""


@check("the harness runs checks side by side yet reports them in order, with each check's"
       " output beside it, and fails a check that raises or whose process dies")
def harness_reports_in_order():
	with tempfile.TemporaryDirectory() as scratch:
		proc = subprocess.run([sys.executable, "-c", HARNESS_SAMPLE,
				       str(Path(__file__).parent), str(Path(scratch) / "started")],
				      env=dict(os.environ, PAGELAB_KERNEL_JOBS="2"), text=True,
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
	lines = [line for line in proc.stdout.splitlines() if not line.startswith("      ")]
	expect(lines == ["printed by the slow one",
			 "ok   a slow check that prints",
			 "FAIL a quick check that fails",
			 "     the reason it gives",
			 "FAIL a check whose process exits",
			 "     the check's process ended without a result (exit 3)",
			 "ok   a check run alone",
			 "FAIL a check whose process is killed",
			 "     the check's process ended without a result (killed by signal 9)",
			 "FAIL a check that raises",
			 "     Traceback (most recent call last):",
			 "     IndexError: list index out of range",
			 "sample: 2 passed, 4 failed"], proc.stdout)
	expect(proc.returncode == 1, f"exit {proc.returncode}")


@check("sizes like 64M parse and nonsense is refused with the text")
def sizes_parse():
	expect(initramfs.parse_size("64M") == 64 << 20, "64M")
	try:
		initramfs.parse_size("lots")
	except ValueError as error:
		expect("'lots'" in str(error), str(error))
	else:
		expect(False, "'lots' was accepted")


def write_descriptor(directory, text):
	(directory / "tests.py").write_text("")
	(directory / "assignment.json").write_text(text)
	return directory


def descriptor_error(text):
	with tempfile.TemporaryDirectory() as directory:
		try:
			assignments.load_assignment(write_descriptor(Path(directory), text))
		except assignments.DescriptorError as error:
			return str(error)
	return None


@check("a broken assignment descriptor is refused naming the file, the line or the field")
def descriptors_checked():
	expect(":3: not valid JSON" in (descriptor_error('{\n"name": "x",\n oops}') or ""),
	       descriptor_error('{\n"name": "x",\n oops}'))
	error = descriptor_error('{"name": "x", "tests": "tests.py"}')
	expect(error and '"student_files" is required' in error, error)
	error = descriptor_error('{"name": "x", "tests": "tests.py", "student_files": ["../etc/x"]}')
	expect(error and "not a relative kernel-tree path" in error, error)
	error = descriptor_error('{"name": "x", "tests": "../../tests.py", "student_files": ["a.c"]}')
	expect(error and "outside the assignment directory" in error, error)
	error = descriptor_error('{"name": "x", "tests": "tests.py", "student_files": ["a.c"],'
				 ' "colour": 1}')
	expect(error and "unknown field(s) colour" in error, error)


@check("config lines parse, and options that did not stick are named with what they became")
def config_checked():
	expect(kbuild.parse_config_line("CONFIG_SWAP=y", "x") == ("CONFIG_SWAP", "y"), "y")
	expect(kbuild.parse_config_line("# CONFIG_LRU_GEN is not set", "x") == ("CONFIG_LRU_GEN", "n"),
	       "not set")
	try:
		kbuild.parse_config_line("SWAP=y", "memstat/assignment.json: config")
	except kbuild.SetupError as error:
		expect("memstat/assignment.json: config" in str(error), str(error))
	else:
		expect(False, "SWAP=y was accepted")
	lost = kbuild.missing_options("CONFIG_SWAP=y\nCONFIG_LRU_GEN=y\n",
				      [("CONFIG_SWAP", "y"), ("CONFIG_LRU_GEN", "n"), ("CONFIG_SMP", "y")])
	expect(lost == ["CONFIG_LRU_GEN=n (got y)", "CONFIG_SMP=y (got n)"], lost)
	expect(len(kbuild.read_config_list(kbuild.MINIMAL_CONFIG)) > 25, "minimal.config")


@check("a failed build shows the compiler's lines, not make's progress lines")
def compiler_lines_filtered():
	output = ("  CC      kernel/fork.o\n  CC      kernel/pagelab_selftest.o\n"
		  "kernel/pagelab_selftest.c:15:9: error: expected ';' before 'unsigned'\n"
		  "   15 |  u64 total = 0, value\n"
		  "make[2]: *** [scripts/Makefile.build:250: kernel/pagelab_selftest.o] Error 1\n"
		  "make[1]: Entering directory '/x'\n")
	lines = kbuild.compiler_lines(output)
	expect(lines[0].startswith("kernel/pagelab_selftest.c:15:9: error"), lines)
	expect(not any(line.startswith("  CC") or "Entering" in line for line in lines), lines)


@check("a /dev/null replaced by a regular file stops the grader with how to restore it")
def broken_null_device_refused():
	expect(sandbox.null_device_problem() is None, sandbox.null_device_problem())
	with tempfile.NamedTemporaryFile() as regular:
		with mock.patch.object(sandbox, "NULL_DEVICE", regular.name):
			problem = sandbox.null_device_problem()
	expect(problem and "a regular file" in problem and "mknod" in problem, problem)


# a grade that makes its build directory, says where, and is killed before it can clean up
KILLED_GRADE = """
import os, signal, sys, types
import kbuild
tree = types.SimpleNamespace(assignment=types.SimpleNamespace(name="killed"))
build = kbuild.SubmissionBuild(tree, None).__enter__()
(build.directory / "upper").mkdir()
print(build.directory, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@check("a build directory left by a killed grade is removed when the next grade starts;"
       " a running grade's is kept")
def killed_grade_cleaned_up():
	with tempfile.TemporaryDirectory() as cache:
		environment = dict(os.environ, PAGELAB_CACHE=cache)
		killed = subprocess.run(["python3", "-c", KILLED_GRADE], cwd=AUTOGRADER, env=environment,
					text=True, stdout=subprocess.PIPE)
		left = Path(killed.stdout.strip())
		expect(killed.returncode == -9 and left.is_dir(),
		       f"the killed grade left no directory: {killed.returncode} {killed.stdout!r}")
		tree = types.SimpleNamespace(assignment=types.SimpleNamespace(name="next"))
		with mock.patch.dict(os.environ, PAGELAB_CACHE=cache):
			with kbuild.SubmissionBuild(tree, None) as running:
				expect(not left.exists(), f"{left} is still there after the next grade started")
				with kbuild.SubmissionBuild(tree, None) as concurrent:
					expect(running.directory.is_dir(),
					       "a second grade removed the build directory of a running one")
				expect(not concurrent.directory.exists(), "a finished grade left its directory")


def selftest():
	return assignments.load_assignment(SELFTEST)


def start_version(path):
	return (SELFTEST / "skeleton" / path).read_bytes()


@check("a submission directory is read by kernel path, else by unique file name; others are ignored")
def directory_submissions():
	with tempfile.TemporaryDirectory() as directory:
		root = Path(directory)
		(root / "deep").mkdir()
		(root / "deep" / "pagelab_selftest.c").write_text("by name")
		(root / "Makefile").write_text("x")
		collected = submissions.collect(root, selftest(), start_version)
		expect(collected.contents == {"kernel/pagelab_selftest.c": b"by name"}, collected.contents)
		expect(any("ignored" in note and "Makefile" in note for note in collected.notes),
		       collected.notes)
		(root / "kernel").mkdir()
		(root / "kernel" / "pagelab_selftest.c").write_text("by path")
		collected = submissions.collect(root, selftest(), start_version)
		expect(collected.contents == {"kernel/pagelab_selftest.c": b"by path"}, collected.contents)


@check("two files with the student file's name leave it missing with a note; a symlink refuses it all")
def ambiguous_submissions():
	with tempfile.TemporaryDirectory() as directory:
		root = Path(directory)
		for sub in ("a", "b"):
			(root / sub).mkdir()
			(root / sub / "pagelab_selftest.c").write_text(sub)
		collected = submissions.collect(root, selftest(), start_version)
		expect(collected.problem and "none of the assignment's files" in collected.problem,
		       collected.problem)
		expect(any("several candidates" in note for note in collected.notes), collected.notes)
	with tempfile.TemporaryDirectory() as directory:
		root = Path(directory)
		(root / "pagelab_selftest.c").symlink_to("/etc/passwd")
		collected = submissions.collect(root, selftest(), start_version)
		expect(collected.refused and "pagelab_selftest.c: a symbolic link" in collected.problem,
		       collected.problem)


@check("a patch is applied to the starting files; a part touching another file refuses it all")
def patch_submissions():
	patch = (SELFTEST / "cases" / "patch" / "submission.patch").read_text()
	other = ("diff --git a/mm/vmscan.c b/mm/vmscan.c\n--- a/mm/vmscan.c\n+++ b/mm/vmscan.c\n"
		 "@@ -1 +1 @@\n-a\n+b\n")
	reference = (SELFTEST / "cases/reference/kernel/pagelab_selftest.c").read_bytes()
	with tempfile.NamedTemporaryFile("w", suffix=".patch") as handed_in:
		handed_in.write(patch)
		handed_in.flush()
		collected = submissions.collect(handed_in.name, selftest(), start_version)
		expect(collected.problem is None, collected.problem)
		expect(collected.contents == {"kernel/pagelab_selftest.c": reference}, "wrong contents")
		handed_in.write(other)
		handed_in.flush()
		collected = submissions.collect(handed_in.name, selftest(), start_version)
	expect(collected.refused and "mm/vmscan.c is not one of this assignment's files" in
	       collected.problem, collected.problem)


@check("a patch that does not apply is a problem quoting patch's own words")
def failing_patch():
	collected = submissions.collect(SELFTEST / "cases/patch-fails/submission.patch", selftest(),
					start_version)
	expect(collected.problem and "does not apply" in collected.problem and "FAILED" in
	       collected.problem, collected.problem)


def declare(source):
	with tempfile.NamedTemporaryFile("w", suffix=".py") as tests:
		tests.write(source)
		tests.flush()
		return gradelib.load_tests(tests.name)


@check("tests.py mistakes are reported with the file and the cause")
def tests_file_errors():
	for source, words in (("from gradelib import test\n@test(-1, 'x')\ndef t(run): pass\n",
			       "points must be a number"),
			      ("from gradelib import Boot\nBoot('b', 'p', memory='lots')\n", "memory"),
			      ("x = = 1\n", "could not be loaded"),
			      ("", "declares no tests")):
		try:
			declare(source)
		except gradelib.TestsError as error:
			expect(words in str(error), f"{words!r} not in {error}")
		else:
			expect(False, f"accepted: {source!r}")


class FakeOutcome:
	def __init__(self, status, console="", problem=""):
		self.status = status
		self.console = console
		self.problem = problem
		self.results = ""
		self.seconds = 1.0
		self.accel = "tcg"


def fake_run(status="finished", lines=(), console="pl-init: running plan p\n", problem=""):
	text = signed_lines(*lines) if lines else ""
	boot = gradelib.Boot("b", "p", timeout=30)
	return gradelib.Run(boot, FakeOutcome(status, console, problem), results.verify(text, "", KEY))


def failure_of(call, *args):
	"""The message of the gradelib.Fail that call(*args) raises; a check fails if none."""
	try:
		call(*args)
	except gradelib.Fail as failure:
		return str(failure)
	expect(False, f"{call.__name__}{args} raised no Fail")


@check("a missing result after an oops explains the oops with the kernel's lines")
def missing_result_explained():
	run = fake_run("oops", problem="BUG: kernel NULL pointer dereference, address: 0")
	message = failure_of(run.expect_pass, "x.y")
	expect("oopsed" in message and "during the test" in message and "NULL pointer" in message,
	       message)
	run = fake_run("hang", console="booting\n")
	message = failure_of(run.value, "x.y", "k")
	expect("hung" in message and "30 s" in message and "before any test" in message, message)


@check("a missing result names the program the kernel killed (OOM killer, segfault), else"
       " shows the console's last lines")
def missing_result_names_killed_program():
	console = ("pl-init: running plan p\npl-step: pressure 120\n"
		   "[   41.2] memstat_check invoked oom-killer: gfp_mask=0x140dca\n"
		   "[   41.3] Out of memory: Killed process 97 (memstat_check) total-vm:109000kB\n"
		   "Cumulated evicted page : 25046\npl-init: plan p exited with status 0\n")
	message = failure_of(fake_run(console=console).expect_pass, "memstat.pressure")
	expect("the kernel stopped a program" in message and
	       "Killed process 97 (memstat_check)" in message and "exited with status 0" in message,
	       message)
	console = "pl-init: running plan p\n[ 3.1] cclock_check[80]: segfault at 0 ip 401000\n"
	message = failure_of(fake_run(console=console).value, "x.y", "k")
	expect("segfault at 0" in message, message)
	message = failure_of(fake_run(console="pl-init: running plan p\nquiet\n").expect_pass, "x.y")
	expect("may have crashed" in message and "stopped a program" not in message and
	       "quiet" in message, message)


@check("tests score full, a fraction, or zero; a crashing test is a grader error, not a crash")
def test_scoring():
	from grader import run_test
	tests = declare("from gradelib import test, Fail\n"
			"@test(4, 'full')\ndef a(run): pass\n"
			"@test(4, 'half')\ndef b(run): return 0.5\n"
			"@test(4, 'fails')\ndef c(run): raise Fail('because')\n"
			"@test(4, 'crashes')\ndef d(run): return 1 / 0\n")
	scores = [run_test(t, None) for t in tests]
	expect([s for s, _ in scores] == [4, 2, 0, 0], scores)
	expect(scores[2][1] == "because" and scores[3][1].startswith("GRADER ERROR"), scores)


@check("the console is classified as oops, panic, hang, flood or finished, in that precedence")
def boot_classification():
	oops = "ok\nBUG: kernel NULL pointer dereference\nKernel panic - not syncing: Fatal exception\n"
	expect(qemu.classify(oops, False, False, 0, "")[0] == "oops", "oops")
	expect(qemu.classify(oops, False, False, 0, "")[1].startswith("BUG:"), "oops lines")
	expect(qemu.classify("Kernel panic - not syncing: x\n", False, False, 0, "")[0] == "panic",
	       "panic")
	expect(qemu.classify("rcu: INFO: rcu_sched self-detected stall\n", False, True, 0, "") ==
	       ("hang", "rcu: INFO: rcu_sched self-detected stall"), "hang")
	expect(qemu.classify(oops, True, False, 0, "")[0] == "flood", "flood")
	expect(qemu.classify("pl-init: powering off\n", False, False, 1, "")[0] == "finished", "done")
	expect(qemu.classify("", False, False, 0, "qemu: boom")[0] == "crashed", "crashed")


@check("results.json and the text report show the same scores, hidden tests after publishing")
def report_views():
	from grader import Entry, Report
	report = Report(selftest(), "sub/", False)
	report.entries = [Entry("Submission", 0, 0, "graded files: x", functional=False),
			  Entry("works", 4, 4, ""), Entry("secret", 2, 0, "nope", hidden=True)]
	data = gradescope_json(report)
	expect(data["score"] == 4 and [t["visibility"] for t in data["tests"]] ==
	       ["visible", "visible", "after_published"], data)
	json.dumps(data)
	text = text_report(report)
	expect(text.startswith("selftest: 4/6 points (4/6 functional)"), text)
	expect("FAIL     0/2  secret (hidden)" in text and "nope" in text, text)
