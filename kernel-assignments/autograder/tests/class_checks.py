"""Checks of grade-class that need no kernel: refused and missing submissions grade in a
second, so discovery, resuming after a kill, shards, merge and the reports are checked on
real runs of the command.  (cases.py grades a class with real builds too.)
"""
import csv
import json
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import classgrade
from harness import check, expect

AUTOGRADER = Path(__file__).resolve().parent.parent
GRADE_CLASS = AUTOGRADER / "grade-class"
CREATED_TWICE = (b"diff --git a/kernel/pagelab_selftest.c b/kernel/pagelab_selftest.c\n"
		 b"new file mode 100644\n--- /dev/null\n+++ b/kernel/pagelab_selftest.c\n"
		 b"@@ -0,0 +1 @@\n+int x;\n") * 2
METADATA = """---
submission_101:
  :submitters:
  - :name: Ada Lovelace
    :sid: '0001'
    :email: ada@example.edu
  :created_at: 2026-11-20 10:00:00.000000000 -08:00
  :score: 0.0
  :history:
  - :name: not a submitter
submission_102:
  :submitters:
  - :name: "=HYPERLINK(\\"x\\")"
    :sid: '0002'
    :email: eve@example.edu
  - :name: Bob Partner
    :sid: '0003'
    :email: bob@example.edu
submission_103:
  :submitters:
  - :name: Never Uploaded
    :sid: '0004'
"""


def hostile_class(root, size=6):
	"""SIZE students whose submissions are all refused or missing (no kernel needed)."""
	root.mkdir()
	for index in range(size):
		student = root / f"student{index:02d}"
		if index % 3 == 0:
			student.with_suffix(".patch").write_bytes(CREATED_TWICE)
		elif index % 3 == 1:
			(student / "kernel").mkdir(parents=True)
			(student / "kernel" / "pagelab_selftest.c").symlink_to("/etc/passwd")
		else:
			student.mkdir()
			(student / "README").write_text("forgot the code\n")
	return root


def grade_class(*args, wait=True):
	command = [str(GRADE_CLASS), *map(str, args)]
	if not wait:
		return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
					text=True)
	return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def gradebook(out_dir, keep_seconds=False):
	with open(out_dir / "gradebook.csv", newline="") as handle:
		rows = list(csv.reader(handle))
	if keep_seconds:
		return rows
	seconds = rows[0].index("seconds")
	return [row[:seconds] + row[seconds + 1:] for row in rows]


@check("grade-class finds one submission per folder or patch, and Gradescope's export with its metadata")
def class_discovery():
	with tempfile.TemporaryDirectory() as scratch:
		plain = hostile_class(Path(scratch) / "plain", 3)
		found = classgrade.find_submissions(plain)
		expect([s.key for s in found] == ["student00", "student01", "student02"],
		       [s.key for s in found])
		export = Path(scratch) / "export"
		export.mkdir()
		(export / "submission_metadata.yml").write_text(METADATA)
		for folder in ("submission_101", "submission_102", "submission_999"):
			(export / folder).mkdir()
		found = {s.key: s for s in classgrade.find_submissions(export)}
		expect(sorted(found) == ["submission_101", "submission_102", "submission_103",
					 "submission_999"], sorted(found))
		expect(found["submission_101"].name == "Ada Lovelace" and
		       found["submission_101"].sid == "0001", vars(found["submission_101"]))
		expect(found["submission_102"].email == "eve@example.edu; bob@example.edu",
		       vars(found["submission_102"]))
		expect(found["submission_103"].path is None, "a student without a folder has a path")


@check("grade-class writes results, staff logs, a gradebook and a summary; a formula name is defused")
def class_reports():
	with tempfile.TemporaryDirectory() as scratch:
		export = Path(scratch) / "export"
		export.mkdir()
		(export / "submission_metadata.yml").write_text(METADATA)
		hostile_class(export / "submission_101", 0)
		(export / "submission_102.patch").write_bytes(CREATED_TWICE)
		os.rename(export / "submission_102.patch", export / "submission_102")
		out = Path(scratch) / "out"
		proc = grade_class("selftest", export, "--out", out, "--jobs", "2")
		expect(proc.returncode == 0, proc.stderr)
		rows = {row[0]: row for row in gradebook(out)}
		header = gradebook(out)[0]
		expect(header[:6] == ["student", "name", "email", "sid", "score", "max"], header)
		expect(rows["submission_101"][-1] == "missing" and rows["submission_102"][-1] ==
		       "refused" and rows["submission_103"][-1] == "missing", rows)
		expect(rows["submission_102"][1].startswith("'=HYPERLINK"), rows["submission_102"])
		for key in ("submission_101", "submission_102", "submission_103"):
			results = json.loads((out / "results" / key / "results.json").read_text())
			expect(results["score"] == 0, results)
		expect((out / "staff" / "submission_102" / "staff.log").exists(), "no staff.log")
		text = (out / "summary.md").read_text()
		expect("# selftest: 3 submissions" in text and "2 missing, 1 refused" in text, text)


@check("a killed grade-class run keeps what finished; rerunning grades only the rest")
def class_resumes():
	with tempfile.TemporaryDirectory() as scratch:
		submissions = hostile_class(Path(scratch) / "class", 6)
		out = Path(scratch) / "out"
		run = grade_class("selftest", submissions, "--out", out, "--jobs", "1", wait=False)
		deadline = time.monotonic() + 120
		while len(list(out.glob("staff/*/done.json"))) < 2 and time.monotonic() < deadline:
			time.sleep(0.05)
		run.send_signal(signal.SIGTERM)
		_, errors = run.communicate()
		finished = {done: done.stat().st_mtime_ns for done in out.glob("staff/*/done.json")}
		expect(run.returncode == 130 and 2 <= len(finished) < 6, (run.returncode, errors))
		proc = grade_class("selftest", submissions, "--out", out, "--jobs", "2")
		expect(proc.returncode == 0 and f"{len(finished)} already graded" in proc.stderr,
		       proc.stderr)
		expect(all(done.stat().st_mtime_ns == mtime for done, mtime in finished.items()),
		       "a finished submission was graded again")
		expect(len(gradebook(out)) == 7, gradebook(out))
		proc = grade_class("selftest", submissions, "--out", out, "--force")
		expect("0 already graded, 6 to grade" in proc.stderr, proc.stderr)


@check("grading a class in shards and merging them gives the gradebook of one run")
def class_shards_merge():
	with tempfile.TemporaryDirectory() as scratch:
		scratch = Path(scratch)
		submissions = hostile_class(scratch / "class", 5)
		proc = grade_class("selftest", submissions, "--out", scratch / "whole")
		expect(proc.returncode == 0, proc.stderr)
		for k in range(3):
			proc = grade_class("selftest", submissions, "--out", scratch / f"shard{k}",
					   "--shard", f"{k}/3")
			expect(proc.returncode == 0, proc.stderr)
		expect(len(gradebook(scratch / "shard0")) == 3, gradebook(scratch / "shard0"))
		proc = grade_class("merge", scratch / "shard0", scratch / "shard1", scratch / "shard2",
				   "--out", scratch / "merged")
		expect(proc.returncode == 0, proc.stderr)
		expect(gradebook(scratch / "merged") == gradebook(scratch / "whole"),
		       (gradebook(scratch / "merged"), gradebook(scratch / "whole")))
		proc = grade_class("merge", scratch / "shard0", scratch / "whole", "--out",
				   scratch / "twice")
		expect(proc.returncode == 2 and "more than one" in proc.stderr, proc.stderr)
		proc = grade_class("selftest", submissions, "--out", scratch / "x", "--shard", "3/3")
		expect(proc.returncode == 2 and "0 <= K < N" in proc.stderr, proc.stderr)
