"""Turns what a student handed in into the contents of the assignment's student files.

Interface:
    collect(path, assignment, start_version) -> Submission
        PATH: a directory (files found by kernel-tree path, else by unique basename) or a
        patch file (unified diff, -p1, against the starting versions of the files).
        START_VERSION(path) -> bytes gives a starting version (for patches).
    Submission: .contents {path: bytes}, .missing [path], .notes [str], .problem (str|None)

Invariants: only the assignment's student files are ever taken; everything else is listed
in .notes as ignored.  Symlinks, non-regular and oversized files are refused with a note.
.problem is set when nothing can be graded (nothing found, the patch does not apply); the
grader then gives zero with that message and never builds.
"""
import re
import subprocess
import tempfile
from pathlib import Path

MAX_FILE_BYTES = 2 << 20
SKIPPED_DIRS = {".git", "__MACOSX", ".svn"}
MAX_NAMES_LISTED = 8


class Submission:
	def __init__(self):
		self.contents = {}
		self.missing = []
		self.notes = []
		self.problem = None


def listed(names):
	names = sorted(names)
	more = len(names) - MAX_NAMES_LISTED
	return ", ".join(names[:MAX_NAMES_LISTED]) + (f" and {more} more" if more > 0 else "")


def all_files(root):
	for path in sorted(root.rglob("*")):
		if not any(part in SKIPPED_DIRS for part in path.relative_to(root).parts):
			if path.is_file() or path.is_symlink():
				yield path


def read_student_file(path, shown, submission):
	if path.is_symlink() or not path.is_file():
		submission.notes.append(f"{shown}: refused (a symbolic link or not a regular file)")
		return None
	if path.stat().st_size > MAX_FILE_BYTES:
		submission.notes.append(f"{shown}: refused (larger than {MAX_FILE_BYTES >> 20} MiB)")
		return None
	return path.read_bytes()


def find_in_directory(root, wanted, files):
	"""The file for student file WANTED: at its kernel path, else the one with its name."""
	if (root / wanted).exists() or (root / wanted).is_symlink():
		return [root / wanted]
	return [path for path in files if path.name == Path(wanted).name]


def collect_directory(root, assignment):
	submission = Submission()
	files = list(all_files(root))
	used = set()
	for wanted in assignment.student_files:
		found = find_in_directory(root, wanted, files)
		if len(found) > 1:
			submission.notes.append(f"{wanted}: found several candidates"
						f" ({listed(str(p.relative_to(root)) for p in found)});"
						f" put it at {wanted} to say which one")
			submission.missing.append(wanted)
			continue
		data = read_student_file(found[0], found[0].relative_to(root), submission) \
			if found else None
		used.update(found)
		if data is None:
			submission.missing.append(wanted)
		else:
			submission.contents[wanted] = data
	ignored = [str(path.relative_to(root)) for path in files if path not in used]
	if ignored:
		submission.notes.append("ignored (not files this assignment grades): " + listed(ignored))
	return submission


def patch_sections(text):
	"""Splits a unified diff into (path, section text) per file; path is -p1 stripped."""
	sections = []
	lines = text.splitlines(keepends=True)
	starts = [i for i, line in enumerate(lines)
		  if line.startswith("diff ") or (line.startswith("--- ") and i + 1 < len(lines)
			and lines[i + 1].startswith("+++ ") and not (i > 0 and lines[i - 1].startswith(
				("diff ", "index ", "new file", "deleted file", "similarity", "rename"))))]
	for begin, end in zip(starts, starts[1:] + [len(lines)]):
		section = "".join(lines[begin:end])
		names = re.findall(r"^(?:\+\+\+|---) (\S+)", section, re.M)
		names = [name for name in names if name != "/dev/null"]
		if names:
			path = names[-1].split("/", 1)[1] if "/" in names[-1] else names[-1]
			sections.append((path, section))
	return sections


def collect_patch(patch_path, assignment, start_version):
	submission = Submission()
	text = patch_path.read_text(errors="replace")
	sections = patch_sections(text)
	if not sections:
		submission.problem = f"{patch_path.name}: not a unified diff (no ---/+++ file headers found)"
		return submission
	kept = [(path, section) for path, section in sections if path in assignment.student_files]
	ignored = sorted({path for path, _ in sections if path not in assignment.student_files})
	if ignored:
		submission.notes.append("ignored parts of the patch (not files this assignment"
					" grades): " + listed(ignored))
	with tempfile.TemporaryDirectory(prefix="pagelab-patch-") as scratch:
		scratch = Path(scratch)
		for path in assignment.student_files:
			(scratch / path).parent.mkdir(parents=True, exist_ok=True)
			(scratch / path).write_bytes(start_version(path))
		for path, section in kept:
			if re.search(r"^--- /dev/null", section, re.M):
				(scratch / path).unlink()
		proc = subprocess.run(["patch", "-p1", "--batch", "--forward", "--no-backup-if-mismatch",
				       "-r", "-", "-d", str(scratch)],
				      input="".join(section for _, section in kept), text=True,
				      stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
		if proc.returncode != 0:
			submission.problem = (f"{patch_path.name}: the patch does not apply to the starting"
					      " files (make it with 'git diff' in a tree that has the"
					      f" base patch and skeleton applied):\n{proc.stdout.strip()}")
			return submission
		for path in assignment.student_files:
			if (scratch / path).exists():
				submission.contents[path] = (scratch / path).read_bytes()
			else:
				submission.missing.append(path)
	untouched = [path for path in assignment.student_files
		     if path not in {p for p, _ in kept}]
	if untouched:
		submission.notes.append("the patch does not change " + listed(untouched) +
					" (graded as the starting version)")
	return submission


def collect(path, assignment, start_version):
	path = Path(path)
	if path.is_dir():
		submission = collect_directory(path, assignment)
	elif path.is_file():
		submission = collect_patch(path, assignment, start_version)
	else:
		submission = Submission()
		submission.problem = f"{path}: no such file or directory"
		return submission
	if submission.problem is None and not submission.contents:
		submission.problem = ("none of the assignment's files were found in the submission;"
				      " expected " + listed(assignment.student_files) +
				      " (at that path or by file name)")
	elif submission.missing:
		submission.notes.append("missing: " + listed(submission.missing) +
					" (graded as the unchanged starting version)")
	return submission
