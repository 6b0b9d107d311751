"""Grades a whole class: every submission in a directory, in parallel, resumably.

Interface:
    find_submissions(directory) -> [Student]     one folder or patch per student, or
        Gradescope's export (submission_metadata.yml + one folder per submission)
    shard(students, k, n) -> [Student]           every N-th from the K-th (0 <= K < N)
    default_jobs() -> int                        min(cores, available memory / 2 GiB)
    ClassRun(assignment, out_dir, jobs, force, grade_options, timeout, log).run(students)
        -> exit status; grades each student with the grade command (GRADE_OPTIONS passed
        on: --public, --no-sandbox)
    write_class_reports(out_dirs, target_dir, assignment_name)   gradebook.csv, summary.md
    Student: .key (unique, safe as a file name), .shown (escaped), .path (None: no
        submission), .name, .email, .sid (Gradescope's metadata, else "")

Layout of OUT_DIR:
    results/<key>/results.json    what the student may see (Gradescope's format)
    staff/<key>/                  staff.log, outcome.json, serial logs (grade --logs), and
                                  done.json: the gradebook row, written last
    gradebook.csv, summary.md     the class, rewritten after every run

Invariants: a student counts as finished exactly when staff/<key>/done.json holds valid JSON;
it is written atomically after grade exited with 0 or 4 (graded, refused, or an internal error),
so a killed run loses only the grades in flight and a rerun continues; --force regrades.
Every text from a submission or its metadata reaches the reports escaped (safetext), and
a CSV cell never starts with = + - @ (spreadsheet formulas).
"""
import collections
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import safetext

GRADE = Path(__file__).resolve().parent / "grade"
METADATA = "submission_metadata.yml"
FINISHED_EXITS = {0: None, 4: "internal-error"}
TESTED = ("ok", "timeout")	# statuses whose tests ran: the ones "most often failed" counts
MEMORY_PER_JOB = 2 << 30
HISTOGRAM_BINS = 10
SHOWN_FAILED_TESTS = 10


class Student:
	def __init__(self, label, path, name="", email="", sid=""):
		self.shown = safetext.name(label)
		self.key = safe_key(label)
		self.path = path
		self.name = name
		self.email = email
		self.sid = sid


def safe_key(label):
	"""A file name for LABEL: itself when plain, else a cleaned form plus a short digest."""
	raw = os.fsencode(label) if isinstance(label, str) else label
	plain = re.sub(rb"[^A-Za-z0-9._@+-]", b"_", raw).decode()[:80].lstrip(".") or "_"
	if plain.encode() == raw:
		return plain
	return f"{plain}-{hashlib.sha256(raw).hexdigest()[:8]}"


def unquoted(value):
	value = value.strip()
	if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
		value = value[1:-1]
	return value


def read_gradescope_metadata(path):
	"""{folder: [submitter {name, email, sid}]} from Gradescope's submission_metadata.yml.

	Only the part of YAML that file uses: a top-level key per submission folder, and
	under its ':submitters:' list one mapping per student with ':name:', ':email:' and
	':sid:'.  Other keys (':created_at:', ':score:', ':history:') are skipped."""
	folders = {}
	folder = None
	in_submitters = False
	for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
		if not line.strip() or line.lstrip().startswith("#"):
			continue
		indent = len(line) - len(line.lstrip(" "))
		text = line.strip()
		if indent == 0 and text.endswith(":"):
			folder = unquoted(text[:-1])
			folders[folder] = []
			in_submitters = False
			continue
		if folder is None:
			continue
		if indent <= 2 and not text.startswith("- "):
			in_submitters = text.startswith(":submitters:")
			continue
		if not in_submitters:
			continue
		if text.startswith("- "):
			folders[folder].append({})
			text = text[2:].strip()
		match = re.match(r":(name|email|sid): ?(.*)", text)
		if match and folders[folder]:
			folders[folder][-1][match.group(1)] = unquoted(match.group(2))
	return folders


def gradescope_students(directory):
	students = []
	for folder, submitters in read_gradescope_metadata(directory / METADATA).items():
		def joined(field):
			return "; ".join(s.get(field, "") for s in submitters if s.get(field))
		path = directory / folder
		if "/" in folder or folder in ("", ".", "..") or not os.path.lexists(path):
			path = None
		students.append(Student(folder, path, joined("name"), joined("email"), joined("sid")))
	listed = {student.shown for student in students}
	for entry in sorted(os.listdir(directory)):
		if entry != METADATA and not entry.startswith(".") and safetext.name(entry) not in listed:
			students.append(Student(entry, directory / entry))
	return students


def find_submissions(directory):
	directory = Path(directory)
	if (directory / METADATA).is_file():
		students = gradescope_students(directory)
	else:
		students = [Student(re.sub(r"\.(patch|diff)$", "", entry), directory / entry)
			    for entry in sorted(os.listdir(directory)) if not entry.startswith(".")]
	keys = collections.Counter(student.key for student in students)
	clashes = [key for key, count in keys.items() if count > 1]
	if clashes:
		raise ValueError(f"{directory}: several submissions would be stored as"
				 f" {', '.join(clashes)} (one student handed in both a folder and"
				 " a patch?); keep one of each")
	return sorted(students, key=lambda student: student.key)


def shard(students, k, n):
	return [student for index, student in enumerate(students) if index % n == k]


def available_memory():
	try:
		with open("/proc/meminfo") as meminfo:
			for line in meminfo:
				if line.startswith("MemAvailable:"):
					return int(line.split()[1]) << 10
	except OSError:
		pass
	return MEMORY_PER_JOB


def default_jobs():
	return max(1, min(os.cpu_count() or 1, available_memory() // MEMORY_PER_JOB))


def atomic_write(path, text):
	path.parent.mkdir(parents=True, exist_ok=True)
	temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
	temporary.write_text(text, encoding="utf-8")
	os.replace(temporary, path)


def row_for(student, outcome, exit_status, seconds):
	return {"student": student.shown, "key": student.key, "name": student.name,
		"email": student.email, "sid": student.sid,
		"status": FINISHED_EXITS.get(exit_status) or outcome.get("status", "internal-error"),
		"score": outcome.get("score", 0), "max_score": outcome.get("max_score", 0),
		"tests": outcome.get("tests", {}), "max_scores": outcome.get("max_scores", {}),
		"limit": outcome.get("limit"), "fingerprint": outcome.get("fingerprint"),
		"seconds": round(seconds, 1)}


class Progress:
	"""One redrawn line on a terminal (done/total, problems, ETA); else a line per grade."""

	def __init__(self, total, skipped, stream=sys.stderr):
		self.total = total
		self.done = skipped
		self.problems = 0
		self.started = time.monotonic()
		self.graded = 0
		self.stream = stream
		self.live = stream.isatty()
		self.lock = threading.Lock()
		if self.live:
			self.draw()

	def finished(self, row):
		with self.lock:
			self.done += 1
			self.graded += 1
			self.problems += row["status"] not in ("ok",)
			if self.live:
				self.draw()
			else:
				print(f"[{self.done}/{self.total}] {row['student']}: {row['score']:g}/"
				      f"{row['max_score']:g} {row['status']} ({row['seconds']:.0f} s)",
				      file=self.stream, flush=True)

	def eta(self):
		left = self.total - self.done
		if not self.graded or not left:
			return "--"
		seconds = (time.monotonic() - self.started) / self.graded * left
		return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"

	def draw(self):
		width = 30
		filled = width * self.done // max(1, self.total)
		self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
				  f"  not ok: {self.problems}  ETA {self.eta()}   ")
		self.stream.flush()

	def close(self):
		if self.live:
			self.stream.write("\n")


class ClassRun:
	def __init__(self, assignment, out_dir, jobs, force=False, grade_options=(), timeout=3600,
		     log=print):
		self.assignment = assignment
		self.out_dir = Path(out_dir)
		self.jobs = jobs
		self.force = force
		self.grade_options = list(grade_options)
		self.timeout = timeout
		self.log = log
		self.children = set()
		self.stopping = threading.Event()
		self.broken = None	# (grade's exit status, why) when grading cannot go on

	def done_path(self, student):
		return self.out_dir / "staff" / student.key / "done.json"

	def finish(self, student, row):
		atomic_write(self.done_path(student), json.dumps(row, indent=1, ensure_ascii=False) + "\n")

	def grade(self, student):
		"""Grades STUDENT with the grade command; returns the row, or None if unfinished."""
		staff = self.out_dir / "staff" / student.key
		out = self.out_dir / "results" / student.key / "results.json"
		started = time.monotonic()
		env = dict(os.environ, PAGELAB_BUILD_JOBS=str(max(1, (os.cpu_count() or 1) // self.jobs)))
		command = [sys.executable, str(GRADE), str(self.assignment), str(student.path),
			   "--out", str(out), "--logs", str(staff)] + self.grade_options
		child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
					 env=env)
		self.children.add(child)
		try:
			_, errors = child.communicate(timeout=self.timeout)
			outcome = read_json(staff / "outcome.json") or {}
		except subprocess.TimeoutExpired:
			child.terminate()
			_, errors = child.communicate()
			outcome = {"status": "timeout"}
		finally:
			self.children.discard(child)
		status = child.returncode
		if self.stopping.is_set():
			return None
		if status in (2, 3):
			said = safetext.decode(errors[-1500:]).strip()
			self.broken = (status, f"grade exited {status} on {student.shown} (2: a broken"
				       " assignment or option, 3: the kernel could not be prepared):\n"
				       + said)
			self.stopping.set()
			return None
		if status not in FINISHED_EXITS and outcome.get("status") != "timeout":
			return None
		row = row_for(student, outcome, status, time.monotonic() - started)
		self.finish(student, row)
		return row

	def no_submission(self, student):
		row = row_for(student, {"status": "missing", "score": 0}, 0, 0)
		atomic_write(self.out_dir / "results" / student.key / "results.json", json.dumps(
			{"score": 0, "tests": [], "output": "no submission"}, indent=2) + "\n")
		self.finish(student, row)
		return row

	def stop(self, number, frame):
		self.stopping.set()
		for child in list(self.children):
			child.terminate()

	def run(self, students):
		if self.force:
			for student in students:
				self.done_path(student).unlink(missing_ok=True)
		todo = [student for student in students if read_json(self.done_path(student)) is None]
		self.log(f"{len(students)} submissions: {len(students) - len(todo)} already graded,"
			 f" {len(todo)} to grade with {self.jobs} job(s)")
		progress = Progress(len(students), len(students) - len(todo))
		previous = [signal.signal(signal.SIGTERM, self.stop), signal.signal(signal.SIGINT, self.stop)]
		try:
			with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
				futures = [pool.submit(self.one, student) for student in todo]
				for future in concurrent.futures.as_completed(futures):
					row = future.result()
					if row:
						progress.finished(row)
		finally:
			signal.signal(signal.SIGTERM, previous[0])
			signal.signal(signal.SIGINT, previous[1])
			progress.close()
		write_class_reports([self.out_dir], self.out_dir, Path(self.assignment).name)
		if self.broken:
			self.log(f"stopped: {self.broken[1]}")
			return self.broken[0]
		if self.stopping.is_set():
			self.log("interrupted: rerun the same command to grade the rest")
			return 130
		unfinished = [s.shown for s in todo if read_json(self.done_path(s)) is None]
		if unfinished:
			self.log(f"{len(unfinished)} could not be graded ({', '.join(unfinished[:10])}):"
				 " see their staff/<student>/staff.log; rerun to try them again")
			return 1
		return 0

	def one(self, student):
		if self.stopping.is_set():
			return None
		if student.path is None:
			return self.no_submission(student)
		return self.grade(student)


def read_json(path):
	try:
		return json.loads(path.read_text(encoding="utf-8"))
	except (OSError, ValueError):
		return None


def finished_rows(out_dirs):
	"""The done.json rows of OUT_DIRS by student key; a student in two of them is an error."""
	rows = {}
	for out_dir in out_dirs:
		for done in sorted(Path(out_dir).glob("staff/*/done.json")):
			row = read_json(done)
			if row is None:
				continue
			if row["key"] in rows:
				raise ValueError(f"{row['student']} is in more than one of"
						 f" {', '.join(map(str, out_dirs))}: were the shards overlapping?")
			rows[row["key"]] = row
	return [rows[key] for key in sorted(rows)]


def spreadsheet_safe(value):
	text = safetext.name(str(value)) if not isinstance(value, (int, float)) else f"{value:g}"
	return "'" + text if text[:1] in ("=", "+", "-", "@") and not re.fullmatch(
		r"-?[0-9.]+", text) else text


def test_names(rows):
	names = []
	for row in rows:
		names += [name for name in row["max_scores"] if name not in names]
	return names


def class_max(rows):
	return max((row["max_score"] for row in rows), default=0)


def write_gradebook(rows, path):
	tests = test_names(rows)
	maximum = class_max(rows)
	with_metadata = any(row["name"] or row["email"] or row["sid"] for row in rows)
	header = ["student"] + (["name", "email", "sid"] if with_metadata else []) + \
		["score", "max"] + tests + ["status", "seconds"]
	temporary = path.with_name(f".{path.name}.tmp")
	with open(temporary, "w", newline="", encoding="utf-8") as handle:
		writer = csv.writer(handle)
		writer.writerow([spreadsheet_safe(cell) for cell in header])
		for row in rows:
			cells = [row["student"]] + ([row["name"], row["email"], row["sid"]]
						    if with_metadata else [])
			cells += [row["score"], row["max_score"] or maximum]
			cells += [row["tests"].get(test, "") for test in tests]
			cells += [row["status"], row["seconds"]]
			writer.writerow([spreadsheet_safe(cell) for cell in cells])
	os.replace(temporary, path)


def histogram(rows, maximum):
	counts = [0] * HISTOGRAM_BINS
	for row in rows:
		fraction = row["score"] / maximum if maximum else 0
		counts[min(HISTOGRAM_BINS - 1, int(fraction * HISTOGRAM_BINS))] += 1
	widest = max(counts) or 1
	lines = ["| score | submissions | |", "| --- | ---: | --- |"]
	for index, count in enumerate(counts):
		low = maximum * index / HISTOGRAM_BINS
		high = maximum * (index + 1) / HISTOGRAM_BINS
		bracket = "]" if index == HISTOGRAM_BINS - 1 else ")"
		lines.append(f"| [{low:g}, {high:g}{bracket} | {count} | {'█' * (20 * count // widest)} |")
	return lines


def most_failed(rows):
	failed = collections.Counter()
	graded = [row for row in rows if row["status"] in TESTED]
	for row in graded:
		for test, maximum in row["max_scores"].items():
			if row["tests"].get(test, 0) < maximum:
				failed[test] += 1
	return [f"| {md(test)} | {count} of {len(graded)} |"
		for test, count in failed.most_common(SHOWN_FAILED_TESTS)]


def md(text):
	"""Text for a Markdown table cell: escaped, and no | or markup to break the table."""
	return re.sub(r"([|\\`*_<>\[\]#])", r"\\\1", safetext.name(str(text)))


def summary(rows, assignment_name):
	maximum = class_max(rows)
	statuses = collections.Counter(row["status"] for row in rows)
	lines = [f"# {md(assignment_name)}: {len(rows)} submissions", "",
		 ", ".join(f"{count} {status}" for status, count in sorted(statuses.items())), "",
		 f"## Scores (out of {maximum:g})", ""] + histogram(rows, maximum)
	lines += ["", "## Tests most often failed", "", "| test | failed |", "| --- | ---: |"]
	lines += most_failed(rows) or ["| (none) | |"]
	limited = [row for row in rows if row.get("limit")]
	lines += ["", "## Submissions that hit a limit", ""]
	lines += [f"- {md(row['student'])}: {md(row['limit'])}" for row in limited] or ["none"]
	groups = collections.defaultdict(list)
	for row in rows:
		if row.get("fingerprint"):
			groups[row["fingerprint"]].append(row["student"])
	same = [members for members in groups.values() if len(members) > 1]
	lines += ["", "## Identical submissions (after removing comments and whitespace)", ""]
	lines += [f"- {', '.join(md(member) for member in sorted(members))}" for members in same] \
		or ["none"]
	trouble = [row for row in rows if row["status"] in ("internal-error", "timeout")]
	lines += ["", "## Need a look from staff", ""]
	lines += [f"- {md(row['student'])}: {row['status']} (staff/{row['key']}/staff.log)"
		  for row in trouble] or ["none"]
	return "\n".join(lines) + "\n"


def write_class_reports(out_dirs, target_dir, assignment_name):
	rows = finished_rows(out_dirs)
	target_dir = Path(target_dir)
	target_dir.mkdir(parents=True, exist_ok=True)
	write_gradebook(rows, target_dir / "gradebook.csv")
	atomic_write(target_dir / "summary.md", summary(rows, assignment_name))
	return rows
