"""The hostile-submission suite's runner: each case is a submission made to attack the
grader, graded with the real grade command, with a canary planted outside it.

Interface:
    HostileCase(sentence, build, assignment="selftest", status=None, min_score=None,
                max_score=None, output_contains=(), output_lacks=(), options=())
        BUILD(scratch: Path, canary) -> the submission's path (made inside SCRATCH)
        STATUS: the staff outcome.json's "status" (ok, refused, build-failed, timeout...)
    register(cases)             one harness check per case, in order
    run_grade(assignment, submission, *options)
        -> (process, results.json text or None, the staff outcome.json dict or None)
    strict_json(text) -> dict   parses results.json as strict JSON (no NaN, no lone
                                surrogates, no control characters outside \\n and \\t)

Every case asserts, besides its own expectation: grade exits 0; results.json exists and
is strict; and no student-visible output (results.json and the printed report) shows the
canary's token or a host path (canary.leaked).  Cases live in hostile_*.py files, each a
list CASES; run.py registers them.
"""
import functools
import json
import re
import subprocess
import tempfile
from pathlib import Path

import canary as canaries
from harness import check, expect

GRADE = Path(__file__).resolve().parent.parent / "grade"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


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
	"""The grade command on SUBMISSION; (process, results.json text or None, the staff
	outcome.json as a dict or None)."""
	with tempfile.TemporaryDirectory(prefix="pagelab-case-") as scratch:
		out = Path(scratch) / "results.json"
		logs = Path(scratch) / "logs"
		proc = subprocess.run([str(GRADE), str(assignment), str(submission), "--out", str(out),
				       "--logs", str(logs), *options],
				      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
		raw = out.read_bytes() if out.exists() else None
		outcome = json.loads((logs / "outcome.json").read_text()) \
			if (logs / "outcome.json").exists() else None
	proc.stdout = proc.stdout.decode("utf-8", "replace")
	proc.stderr = proc.stderr.decode("utf-8", "replace")
	return proc, None if raw is None else raw.decode("utf-8"), outcome


def reject_constant(name):
	raise ValueError(f"not strict JSON: {name}")


def strict_json(text):
	data = json.loads(text, parse_constant=reject_constant)
	for value in strings(data):
		value.encode("utf-8")  # a lone surrogate raises here
		expect(not CONTROL.search(value),
		       f"results.json holds a control character: {value[:120]!r}")
	return data


def strings(value):
	if isinstance(value, str):
		yield value
	elif isinstance(value, dict):
		for key, item in value.items():
			yield key
			yield from strings(item)
	elif isinstance(value, list):
		for item in value:
			yield from strings(item)


def all_output(data):
	return "\n".join([data.get("output", "")] + [t.get("output", "") for t in data["tests"]])


def run_case(case):
	canary = canaries.plant()
	try:
		with tempfile.TemporaryDirectory(prefix="pagelab-hostile-") as scratch:
			submission = case.build(Path(scratch), canary)
			proc, raw, outcome = run_grade(case.assignment, submission, *case.options)
		expect(proc.returncode == 0, f"grade exited {proc.returncode}:\n{proc.stderr[-3000:]}")
		expect(raw is not None, "no results.json written")
		data = strict_json(raw)
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
