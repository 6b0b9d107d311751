"""The hostile-submission suite's runner: each case is a submission made to attack the
grader, graded with the real grade command, with a canary planted outside it.

Interface:
    HostileCase(sentence, build, assignment="selftest", status=None, min_score=None,
                max_score=None, output_contains=(), output_lacks=(), options=())
        BUILD(scratch: Path, canary) -> the submission's path (made inside SCRATCH)
        STATUS: the staff outcome.json's "status" (ok, refused, build-failed, timeout...)
    register(cases)             one harness check per case, in order
    run_grade(assignment, submission, *options) -> (process, results.json as a dict
        (checked strict and printable by intake_checks.strictly_valid) or None, its text,
        the staff outcome.json as a dict or None)

Every case asserts, besides its own expectation: grade exits 0; results.json exists and
is strict; and no student-visible output (results.json and the printed report) shows the
canary's token or a host path (canary.leaked).  Cases live in hostile_*.py files, each a
list CASES; run.py registers them.
"""
import functools
import json
import subprocess
import tempfile
from pathlib import Path

import canary as canaries
from harness import check, expect
from intake_checks import strictly_valid

GRADE = Path(__file__).resolve().parent.parent / "grade"


class HostileCase:
	def __init__(self, sentence, build, assignment="selftest", status=None, min_score=None,
		     max_score=None, output_contains=(), output_lacks=(), options=()):
		self.sentence = sentence
		self.build = build
		self.assignment = assignment
		self.status = status
		self.min_score = min_score
		self.max_score = max_score
		self.output_contains = list(output_contains)
		self.output_lacks = list(output_lacks)
		self.options = list(options)


def run_grade(assignment, submission, *options):
	"""The grade command on SUBMISSION; (process, results.json as a dict after checking it
	is strict, printable UTF-8 JSON, or None; its text; the staff outcome.json or None)."""
	with tempfile.TemporaryDirectory(prefix="pagelab-case-") as scratch:
		out = Path(scratch) / "results.json"
		logs = Path(scratch) / "logs"
		proc = subprocess.run([str(GRADE), str(assignment), str(submission), "--out", str(out),
				       "--logs", str(logs), *options],
				      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
		data = strictly_valid(out) if out.exists() else None
		raw = out.read_text() if out.exists() else ""
		outcome = json.loads((logs / "outcome.json").read_text()) \
			if (logs / "outcome.json").exists() else None
	proc.stdout = proc.stdout.decode("utf-8", "replace")
	proc.stderr = proc.stderr.decode("utf-8", "replace")
	return proc, data, raw, outcome


def all_output(data):
	return "\n".join([data.get("output", "")] + [t.get("output", "") for t in data["tests"]])


def run_case(case):
	canary = canaries.plant()
	try:
		with tempfile.TemporaryDirectory(prefix="pagelab-hostile-") as scratch:
			submission = case.build(Path(scratch), canary)
			proc, data, raw, outcome = run_grade(case.assignment, submission, *case.options)
		expect(proc.returncode == 0, f"grade exited {proc.returncode}:\n{proc.stderr[-3000:]}")
		expect(data is not None, "no results.json written")
		leak = canaries.leaked(canary, raw + proc.stdout)
		expect(leak is None, f"student-visible output shows {leak}:\n{proc.stdout[-3000:]}")
		score = data["score"]
		low = case.min_score if case.min_score is not None else float("-inf")
		high = case.max_score if case.max_score is not None else float("inf")
		expect(low <= score <= high, f"score {score} outside [{low}, {high}]\n{proc.stdout}")
		if case.status is not None:
			status = (outcome or {}).get("status")
			expect(status == case.status, f"status {status!r}, expected {case.status!r}")
		text = all_output(data)
		for words in case.output_contains:
			expect(words in text, f"{words!r} not in the output:\n{proc.stdout}")
		for words in case.output_lacks:
			expect(words not in text, f"{words!r} is in the output:\n{proc.stdout}")
	finally:
		canary.remove()


def register(cases):
	for case in cases:
		check(case.sentence)(functools.partial(run_case, case))
