"""grade-class on a small real class: refused, missing and real submissions built and
booted, a run killed while a kernel grade is in flight and resumed, and the summary read.
"""
import shutil
import signal
import tempfile
import time
from pathlib import Path

from class_checks import grade_class, gradebook
from harness import check, expect

SELFTEST = Path(__file__).resolve().parent.parent / "selftest"


def small_class(root):
	root.mkdir()
	(root / "a-refused" / "kernel").mkdir(parents=True)
	(root / "a-refused" / "kernel" / "pagelab_selftest.c").symlink_to("/etc/passwd")
	(root / "b-missing").mkdir()
	(root / "b-missing" / "README").write_text("I will hand it in tomorrow\n")
	shutil.copytree(SELFTEST / "cases" / "reference", root / "c-reference",
			ignore=shutil.ignore_patterns("expect.json"))
	shutil.copy(SELFTEST / "cases" / "patch" / "submission.patch", root / "d-patch.patch")
	return root


def wait_for(condition, seconds):
	deadline = time.monotonic() + seconds
	while not condition() and time.monotonic() < deadline:
		time.sleep(0.2)
	return condition()


@check("a real class is graded, survives a kill during a kernel grade, and its summary groups identical work")
def real_class():
	with tempfile.TemporaryDirectory(prefix="pagelab-class-") as scratch:
		submissions = small_class(Path(scratch) / "class")
		out = Path(scratch) / "out"
		run = grade_class("selftest", submissions, "--out", out, "--jobs", "1", wait=False)
		in_flight = out / "staff" / "c-reference" / "staff.log"
		started = wait_for(in_flight.exists, 900)
		time.sleep(3)	# into its build or boots: a real grade takes far longer
		run.send_signal(signal.SIGTERM)
		_, errors = run.communicate()
		expect(started and run.returncode == 130, (run.returncode, errors))
		done = sorted(path.parent.name for path in out.glob("staff/*/done.json"))
		expect(done == ["a-refused", "b-missing"], done)
		proc = grade_class("selftest", submissions, "--out", out, "--jobs", "1")
		expect(proc.returncode == 0 and "2 already graded, 2 to grade" in proc.stderr,
		       proc.stderr)
		rows = {row[0]: (row[1], row[2], row[-1]) for row in gradebook(out)[1:]}
		expect(rows == {"a-refused": ("0", "17", "refused"), "b-missing": ("0", "17", "missing"),
				"c-reference": ("17", "17", "ok"), "d-patch": ("17", "17", "ok")}, rows)
		summary = (out / "summary.md").read_text()
		expect("- c-reference, d-patch" in summary, summary)
