"""Graded kernel cases: the real `grade` command on real builds and boots.

The self-test assignment's cases (autograder/selftest/cases/<case>/ with expect.json) cover
the failure matrix; when kernel-assignments/instructor/<name>/ exists, that assignment's
reference, skeleton and broken submissions are graded the same way (CONTRACT.md).
Cases run in an order that keeps rebuilds few: identical submissions follow each other.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import assignment as assignments
import canary
import gradelib
import hostile
import kbuild
import submission as submissions
from harness import check, expect

AUTOGRADER = Path(__file__).resolve().parent.parent
ASSIGNMENTS = AUTOGRADER.parent
GRADE = AUTOGRADER / "grade"
SELFTEST = AUTOGRADER / "selftest"
INSTRUCTOR = ASSIGNMENTS / "instructor"

SELFTEST_CASES = [
	("reference", "the selftest reference solution gets full marks"),
	("patch", "the reference handed in as a patch gets full marks"),
	("extra-files", "files found by name are graded and unrelated files are ignored with a note"),
	("style", "checkpatch complaints cost the checkpatch point and are quoted"),
	("missing", "a submission without the assignment's files scores zero and says what was expected"),
	("patch-fails", "a patch that does not apply scores zero and quotes patch"),
	("compile-error", "a compile error scores zero and shows the compiler's line"),
	("boot-panic", "a panic while booting scores zero and shows the panic"),
	("oops", "an oops during a test fails the rest of that boot and shows the oops"),
	("hang", "a hang is stopped at its step's limit, graded as hung, naming the test that"
		 " did not return"),
	("flood", "an output flood is stopped at the size cap and graded as a flood"),
	("forged", "result lines forged by the kernel earn nothing and are reported as suspicious"),
]


def grade(assignment, submission, *options):
	"""Runs the grade command; returns (process, results.json as a dict or None)."""
	proc, data, _, _ = hostile.run_grade(assignment, submission, *options)
	return proc, data


def all_output(data):
	return "\n".join([data.get("output", "")] + [t.get("output", "") for t in data["tests"]])


def reference_files(assignment_dir, reference_dir):
	"""The reference submission as {kernel path: bytes}, every student file present."""
	assignment = assignments.load_assignment(assignment_dir)
	tree = kbuild.AssignmentTree(assignment, lambda message: None)
	tree.prepare()
	collected = submissions.collect(handed_in_plain(reference_dir), assignment,
					tree.start_version)
	return {path: collected.contents.get(path, tree.start_version(path))
		for path in assignment.student_files}


def broken_copy(assignment_dir, case_dir, reference_dir, scratch):
	"""The reference's files with CASE_DIR/break.patch applied (a deleted file: not handed in)."""
	copy = Path(scratch) / case_dir.name
	for path, data in reference_files(assignment_dir, reference_dir).items():
		(copy / path).parent.mkdir(parents=True, exist_ok=True)
		(copy / path).write_bytes(data)
	proc = subprocess.run(["patch", "-p1", "-E", "--batch", "--no-backup-if-mismatch", "-d",
			       str(copy), "-i", str(case_dir / "break.patch")],
			      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	expect(proc.returncode == 0, f"{case_dir}/break.patch does not apply to the reference:\n"
	       + proc.stdout)
	return copy


def handed_in_plain(case_dir):
	return case_dir / "submission.patch" if (case_dir / "submission.patch").exists() else case_dir


def handed_in(case_dir, scratch, assignment_dir=None, reference_dir=None):
	"""What a student would hand in for CASE_DIR: the reference broken by its break.patch,
	its submission.patch, or its files minus expect.json."""
	if (case_dir / "break.patch").exists():
		return broken_copy(assignment_dir, case_dir, reference_dir, scratch)
	if (case_dir / "submission.patch").exists():
		return case_dir / "submission.patch"
	copy = Path(scratch) / case_dir.name
	shutil.copytree(case_dir, copy, ignore=shutil.ignore_patterns("expect.json"))
	return copy


def expect_graded(proc, data):
	expect(proc.returncode == 0, f"grade exited {proc.returncode}:\n{proc.stderr[-3000:]}")
	expect(data is not None, "no results.json written")
	# the report's first line names the submission as the TA gave it: not the grader's
	report_body = proc.stdout.partition("\n")[2]
	shown = canary.host_path_shown(json.dumps(data, ensure_ascii=False) + report_body)
	expect(shown is None, f"student-visible output shows {shown}:\n{proc.stdout[-3000:]}")


def expect_case(assignment_dir, case_dir, reference_dir):
	expectation = json.loads((case_dir / "expect.json").read_text())
	expect(expectation, f"{case_dir}/expect.json states nothing")
	with tempfile.TemporaryDirectory() as scratch:
		proc, data = grade(assignment_dir, handed_in(case_dir, scratch, assignment_dir,
							     reference_dir))
	expect_graded(proc, data)
	score = data["score"]
	low, high = expectation.get("min_score", 0), expectation.get("max_score", float("inf"))
	expect(low <= score <= high, f"score {score} outside [{low}, {high}]\n{proc.stdout}")
	text = all_output(data)
	for words in expectation.get("output_contains", []):
		expect(words in text, f"{words!r} not in the output:\n{proc.stdout}")
	return data


def full_marks(assignment_dir, submission, *options):
	proc, data = grade(assignment_dir, submission, *options)
	expect_graded(proc, data)
	maximum = sum(t["max_score"] for t in data["tests"])
	expect(data["score"] == maximum, f"score {data['score']} of {maximum}:\n{proc.stdout}")
	return proc, data


def full_marks_handed_in(assignment_dir, case_dir):
	with tempfile.TemporaryDirectory() as scratch:
		full_marks(assignment_dir, handed_in(case_dir, scratch))


def expect_zero_functional(assignment_dir, submission):
	assignment = assignments.load_assignment(assignment_dir)
	functional = {t.title for t in gradelib.load_tests(assignment.tests_path) if t.functional}
	proc, data = grade(assignment_dir, submission)
	expect_graded(proc, data)
	earned = {t["name"]: t["score"] for t in data["tests"]
		  if t["name"] in functional and t["score"] > 0}
	expect(not earned, f"the skeleton earned functional points: {earned}\n{proc.stdout}")
	return data


def register_selftest_case(case, sentence):
	check(sentence)(lambda: expect_case(SELFTEST, SELFTEST / "cases" / case,
					    SELFTEST / "cases" / "reference"))


register_selftest_case(*SELFTEST_CASES[0])


@check("a grade compiles only the student's file, in a build directory of its own that is"
       " gone afterwards", alone=True)	# "gone": no other grade's directory may be there
def grade_compiles_only_student_files():
	with tempfile.TemporaryDirectory() as logs:
		full_marks(SELFTEST, SELFTEST / "cases" / "reference", "--logs", logs)
		build_log = (Path(logs) / "staff.log").read_text()
	compiled = re.findall(r"^\s+CC\s+(\S+)$", build_log, re.M)
	expect("kernel/pagelab_selftest.o" in compiled, build_log[-2000:])
	relinking = {"init/version-timestamp.o", "arch/x86/boot/version.o",
		     "arch/x86/boot/compressed/misc.o"}  # rebuilt by every link of a new vmlinux
	expect(set(compiled) <= {"kernel/pagelab_selftest.o"} | relinking,
	       f"compiled more than the student's file: {compiled}")
	expect(not list((kbuild.cache_dir() / "builds").glob("selftest-*")),
	       "a build directory was left behind")


@check("--public leaves the hidden tests out")
def public_run():
	proc, data = full_marks(SELFTEST, SELFTEST / "cases" / "reference", "--public")
	names = [t["name"] for t in data["tests"]]
	expect("too many values give -EINVAL" not in names, names)
	expect("public tests only" in proc.stdout, proc.stdout)


@check("two grades of one assignment at once build in separate directories and both get"
       " full marks")
def concurrent_grades():
	reference = SELFTEST / "cases" / "reference"
	with tempfile.TemporaryDirectory() as scratch:
		outs = [Path(scratch) / f"{n}.json" for n in (1, 2)]
		procs = [subprocess.Popen([str(GRADE), str(SELFTEST), str(reference), "--out", str(out),
					   "--logs", str(Path(scratch) / out.stem)],
					  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
			 for out in outs]
		errors = [proc.communicate()[1] for proc in procs]
		scores = [json.loads(out.read_text())["score"] for out in outs]
	expect([proc.returncode for proc in procs] == [0, 0], errors)
	expect(scores == [17, 17], scores)


for selftest_case in SELFTEST_CASES[1:]:
	register_selftest_case(*selftest_case)


@check("the untouched selftest skeleton scores zero functional points and names ENOSYS")
def selftest_skeleton():
	data = expect_zero_functional(SELFTEST, SELFTEST / "skeleton")
	expect("-ENOSYS" in all_output(data), all_output(data))


@check("the Gradescope bundle installs and grades in a directory laid out like /autograder")
def gradescope_bundle():
	with tempfile.TemporaryDirectory(prefix="pagelab-autograder-") as root:
		root = Path(root)
		bundle = root / "bundle.zip"
		subprocess.run([str(AUTOGRADER / "make-bundle"), "selftest", str(bundle)], check=True,
			       stdout=subprocess.PIPE)
		(root / "submission").mkdir()
		(root / "results").mkdir()
		shutil.copy(SELFTEST / "cases/reference/kernel/pagelab_selftest.c", root / "submission")
		with zipfile.ZipFile(bundle) as archive:
			archive.extractall(root / "source")
		env = dict(os.environ, AUTOGRADER_ROOT=str(root))
		for script in ("setup.sh", "run_autograder"):
			proc = subprocess.run(["bash", str(root / "source" / script)], env=env,
					      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
			expect(proc.returncode == 0, f"{script} failed:\n{proc.stdout[-3000:]}")
		data = json.loads((root / "results" / "results.json").read_text())
		expect(data["score"] == 17, data)
		expect(not list((root / "source").rglob("instructor")), "the bundle holds instructor files")


@check("a missing submission path is graded as a clear problem, not a crash")
def missing_submission_path():
	proc, data = grade(SELFTEST, "/nonexistent/submission")
	expect_graded(proc, data)
	expect(data["score"] == 0 and "no such file or directory" in all_output(data), data)


@check("an unknown assignment exits 2 naming it and still writes results.json")
def unknown_assignment():
	proc, data = grade("no-such-assignment", SELFTEST / "skeleton")
	expect(proc.returncode == 2 and "no-such-assignment" in proc.stderr, proc.stderr)
	expect(data and "could not grade" in data["output"], data)


def start_versions(assignment_dir, scratch):
	"""The student files as the assignment hands them out, written as a submission: what
	an assignment without a skeleton_dir starts from (its base patch's versions)."""
	assignment = assignments.load_assignment(assignment_dir)
	tree = kbuild.AssignmentTree(assignment, lambda message: None)
	tree.prepare()
	copy = Path(scratch) / "start"
	for path in assignment.student_files:
		(copy / path).parent.mkdir(parents=True, exist_ok=True)
		(copy / path).write_bytes(tree.start_version(path))
	return copy


def expect_zero_functional_from_start(assignment_dir):
	with tempfile.TemporaryDirectory() as scratch:
		expect_zero_functional(assignment_dir, start_versions(assignment_dir, scratch))


def bundle_setup_warms(name):
	"""The bundle of an assignment without a skeleton_dir: its setup.sh (laid out like
	/autograder) builds the kernel layers; no instructor file is inside."""
	with tempfile.TemporaryDirectory(prefix="pagelab-autograder-") as root:
		root = Path(root)
		bundle = root / "bundle.zip"
		subprocess.run([str(AUTOGRADER / "make-bundle"), name, str(bundle)], check=True,
			       stdout=subprocess.PIPE)
		with zipfile.ZipFile(bundle) as archive:
			expect(not [n for n in archive.namelist() if "instructor" in n],
			       "the bundle holds instructor files")
			archive.extractall(root / "source")
		proc = subprocess.run(["bash", str(root / "source" / "setup.sh")],
				      env=dict(os.environ, AUTOGRADER_ROOT=str(root)),
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	expect(proc.returncode == 0, f"setup.sh failed:\n{proc.stdout[-3000:]}")


def register_instructor_assignment(directory):
	name = directory.name
	assignment_dir = ASSIGNMENTS / name
	if (directory / "reference").is_dir():
		check(f"the {name} reference solution gets full marks")(
			lambda: full_marks_handed_in(assignment_dir, directory / "reference"))
	skeleton = assignments.load_assignment(assignment_dir).skeleton_dir()
	if skeleton:
		check(f"the untouched {name} skeleton scores zero functional points")(
			lambda: expect_zero_functional(assignment_dir, skeleton))
	else:
		check(f"the untouched {name} starting files (its base patch's versions) score zero"
		      " functional points")(lambda: expect_zero_functional_from_start(assignment_dir))
		check(f"the {name} Gradescope bundle (no skeleton to grade) warms the image by"
		      " building its kernel layers")(lambda: bundle_setup_warms(name))
	for case_dir in sorted((directory / "broken").glob("*/")):
		check(f"{name} broken submission '{case_dir.name}' is graded as its expect.json says")(
			lambda case_dir=case_dir: expect_case(assignment_dir, case_dir,
							      directory / "reference"))


for instructor_dir in sorted(INSTRUCTOR.glob("*/")) if INSTRUCTOR.is_dir() else []:
	if (ASSIGNMENTS / instructor_dir.name / "assignment.json").exists():
		register_instructor_assignment(instructor_dir)

