"""Intake: turns what a student handed in into the contents of the assignment's student files,
refusing anything that is not plainly a set of text files the assignment asks for.

Interface:
    inspect(path, assignment) -> Submission
        PATH: a directory (a folder, Gradescope's upload folder) or a patch file (unified
        diff, -p1).  Everything is checked here, before any kernel tree is touched: a
        refused submission never builds.
    collect(inspected, assignment, start_version) -> Submission
        the student files' contents: a directory's as read; a patch applied to the
        starting versions (START_VERSION(path) -> bytes) by apply_patch.  INSPECTED may
        also be a path: it is inspected first.
    apply_patch(directory, patch) -> (ok, output)   GNU patch -p1 in DIRECTORY, bytes in
    limits(assignment) -> {name: int}               DEFAULT_LIMITS, then assignment.json's
                                                    "limits"
    fingerprint(submission, assignment, start_version) -> str | None
        a digest of the student files with comments and whitespace removed (None when
        every file is still its starting version), to find identical submissions
    Submission: .contents {path: bytes}, .missing [path], .notes [str], .problem (str|None),
        .refused (bool: intake refused it), .limit (the limit's name when one was hit)

How a directory is read: with file descriptors, one directory at a time (openat with
O_NOFOLLOW|O_DIRECTORY, lstat, O_NOFOLLOW|O_NONBLOCK for files, fstat after open), so no
symlink is followed at any depth and nothing can be swapped in between the check and the
read.  A student file is found at its kernel path, else by its unique file name; other
regular files are listed as ignored.  .git, .svn and __MACOSX are not entered.

Refused, naming the entry (escaped): symlinks, hard links (a file with more than one name
may be a link to a file outside the submission), device files, FIFOs, sockets, names with
control characters, bidirectional overrides or invalid UTF-8, paths longer than PATH_MAX,
entries that cannot be read; in a patch also git submodules (mode 160000), symlinks (mode
120000), binary patches, renames and copies, absolute paths, '..', paths that are not the
assignment's student files, a file created twice, hunks that do not match their header.
Over a limit: refused, never truncated.  A refused submission has .refused and .problem.

The patch given to GNU patch is rebuilt from the checked hunks with plain ---/+++ headers:
none of the original header lines (modes, index, Index:, rename) ever reach it.
"""
import errno
import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path

import safetext
import sandbox

DEFAULT_LIMITS = {
	"max_files": 200,		# files and directories in a submission directory
	"max_file_bytes": 1 << 20,	# one file (mm/vmscan.c of Linux 6.1 is 0.2 MiB)
	"max_total_bytes": 8 << 20,	# all files of a submission directory together
	"max_patch_bytes": 4 << 20,	# a patch file
	"max_hunks": 2000,		# hunks in a patch
}
PATH_MAX = 4096
MAX_DEPTH = 32
SKIPPED_DIRS = {".git", "__MACOSX", ".svn"}
MAX_NAMES_LISTED = 8
PLAIN_FILE_MODES = {b"100644", b"100755", b"100664"}
HUNK = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
UNREFUSED_HEADERS = (b"index ", b"new file mode ", b"deleted file mode ", b"old mode ",
		     b"new mode ")
REFUSED_HEADERS = {b"rename from": "a rename", b"rename to": "a rename",
		   b"copy from": "a copy", b"copy to": "a copy",
		   b"similarity index": "a rename or copy", b"dissimilarity index": "a rewrite",
		   b"GIT binary patch": "a binary patch", b"Binary files ": "a binary file"}


class Submission:
	def __init__(self, kind="directory"):
		self.kind = kind
		self.contents = {}
		self.missing = []
		self.notes = []
		self.problem = None
		self.refused = False
		self.limit = None
		self.sections = []


class Refused(Exception):
	def __init__(self, message, limit=None):
		super().__init__(message)
		self.limit = limit


def limits(assignment):
	chosen = dict(DEFAULT_LIMITS)
	chosen.update(assignment.fields.get("limits", {}))
	return chosen


def over_limit(what, limit, value, chosen):
	return Refused(f"{what} ({value}) is over the limit of {chosen[limit]} ({limit} in"
		       " the assignment's assignment.json); nothing was graded", limit)


def listed(names):
	names = sorted(names)
	more = len(names) - MAX_NAMES_LISTED
	return ", ".join(names[:MAX_NAMES_LISTED]) + (f" and {more} more" if more > 0 else "")


def check_name(raw, shown):
	"""RAW: one path component or a whole path, bytes."""
	try:
		text = raw.decode("utf-8")
	except UnicodeDecodeError:
		raise Refused(f"{shown}: the name is not valid UTF-8")
	if safetext.UNPRINTABLE_IN_NAME.search(text):
		raise Refused(f"{shown}: the name holds a control or direction-changing character")
	return text


FILE_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
	      (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
	      (stat.S_ISBLK, "a block device"))


def refuse_special(mode, shown):
	for test, kind in FILE_KINDS:
		if test(mode):
			raise Refused(f"{shown}: {kind}; a submission holds only regular files and"
				      " directories")


def read_regular(dir_fd, name, facts, shown, chosen):
	if facts.st_nlink > 1:
		raise Refused(f"{shown}: a hard link ({facts.st_nlink} names for one file); hand in"
			      " a copy of the file")
	if facts.st_size > chosen["max_file_bytes"]:
		raise over_limit(f"{shown}: the file's size", "max_file_bytes", facts.st_size, chosen)
	fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
		     dir_fd=dir_fd)
	with os.fdopen(fd, "rb") as handle:
		opened = os.fstat(handle.fileno())
		if (opened.st_dev, opened.st_ino) != (facts.st_dev, facts.st_ino) or \
		   not stat.S_ISREG(opened.st_mode):
			raise Refused(f"{shown}: changed while it was being read")
		data = handle.read(chosen["max_file_bytes"] + 1)
	if len(data) > chosen["max_file_bytes"]:
		raise over_limit(f"{shown}: the file's size", "max_file_bytes", len(data), chosen)
	return data


class TreeReader:
	"""Reads every regular file under a directory into .files {relative path: bytes}."""

	def __init__(self, chosen):
		self.chosen = chosen
		self.files = {}
		self.entries = 0
		self.total = 0
		self.skipped = []

	def read(self, dir_fd, parts):
		with os.scandir(dir_fd) as listing:
			names = sorted(entry.name for entry in listing)
		for name in names:
			self.entry(dir_fd, parts + [name])

	def entry(self, dir_fd, parts):
		raw = os.fsencode("/".join(parts))
		shown = safetext.name(raw)
		check_name(raw, shown)
		if len(raw) >= PATH_MAX:
			raise Refused(f"{shown[:200]}...: the path is longer than PATH_MAX ({PATH_MAX})")
		self.entries += 1
		if self.entries > self.chosen["max_files"]:
			raise over_limit("the number of files and directories", "max_files",
					 f"more than {self.chosen['max_files']}", self.chosen)
		try:
			facts = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False)
			refuse_special(facts.st_mode, shown)
			if stat.S_ISDIR(facts.st_mode):
				self.directory(dir_fd, parts, shown)
				return
			self.total += facts.st_size
			if self.total > self.chosen["max_total_bytes"]:
				raise over_limit("the submission's total size", "max_total_bytes",
						 f"at least {self.total}", self.chosen)
			self.files[raw.decode()] = read_regular(dir_fd, parts[-1], facts, shown,
								self.chosen)
		except OSError as error:
			raise Refused(f"{shown}: cannot be read ({error.strerror})")

	def directory(self, dir_fd, parts, shown):
		if parts[-1] in SKIPPED_DIRS:
			self.skipped.append(shown)
			return
		if len(parts) > MAX_DEPTH:
			raise Refused(f"{shown[:200]}: directories nested more than {MAX_DEPTH} deep")
		fd = os.open(parts[-1], os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
			     dir_fd=dir_fd)
		try:
			self.read(fd, parts)
		finally:
			os.close(fd)


def find_file(files, wanted):
	"""The relative paths that may be student file WANTED: its kernel path, else its name."""
	if wanted in files:
		return [wanted]
	return [path for path in files if Path(path).name == Path(wanted).name]


def inspect_directory(root_fd, assignment, chosen):
	submission = Submission("directory")
	reader = TreeReader(chosen)
	reader.read(root_fd, [])
	used = set()
	for wanted in assignment.student_files:
		found = find_file(reader.files, wanted)
		if len(found) > 1:
			submission.notes.append(f"{wanted}: found several candidates"
						f" ({listed(safetext.name(p) for p in found)});"
						f" put it at {wanted} to say which one")
			submission.missing.append(wanted)
		elif found:
			submission.contents[wanted] = reader.files[found[0]]
			used.add(found[0])
		else:
			submission.missing.append(wanted)
	ignored = [safetext.name(path) for path in reader.files if path not in used]
	if ignored:
		submission.notes.append("ignored (not files this assignment grades): " + listed(ignored))
	if reader.skipped:
		submission.notes.append("not read: " + listed(reader.skipped))
	return submission


class Section:
	"""One file's part of a patch: its path (-p1 stripped), what it does, its hunks."""

	def __init__(self, start):
		self.start = start
		self.old = self.new = None
		self.hunks = []

	def path(self):
		return self.new if self.new != "/dev/null" else self.old

	def creates(self):
		return self.old == "/dev/null"

	def deletes(self):
		return self.new == "/dev/null"


C_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34,
	     b"\\": 92}


def unquote(field):
	"""A file name from a ---/+++ line: git's C-style quoted form, or up to a tab."""
	field = field.rstrip(b"\r\n")
	if not field.startswith(b'"'):
		return field.split(b"\t")[0].rstrip(b" ")
	out = bytearray()
	index = 1
	while index < len(field) and field[index:index + 1] != b'"':
		char = field[index:index + 1]
		if char == b"\\" and re.match(rb"[0-7]{3}", field[index + 1:index + 4]):
			out.append(int(field[index + 1:index + 4], 8) & 0xff)
			index += 4
		elif char == b"\\":
			out.append(C_ESCAPES.get(field[index + 1:index + 2], ord("?")))
			index += 2
		else:
			out.append(field[index])
			index += 1
	return bytes(out)


def patch_path(raw, assignment, line_number):
	"""The -p1 stripped path of a ---/+++ name, or "/dev/null"; refuses what is not a
	student file."""
	shown = f"line {line_number}: {safetext.name(raw)}"
	if raw == b"/dev/null":
		return "/dev/null"
	name = check_name(raw, shown)
	if name.startswith("/"):
		raise Refused(f"{shown}: an absolute path; make the patch with 'git diff'")
	parts = name.split("/")
	if ".." in parts:
		raise Refused(f"{shown}: a path with '..'")
	path = "/".join(parts[1:])
	if path not in assignment.student_files:
		raise Refused(f"{shown}: {safetext.name(path) or 'no file name'} is not one of this"
			      f" assignment's files ({listed(assignment.student_files)}); hand in a"
			      " patch that changes only those")
	return path


def header_problem(line):
	for start, what in REFUSED_HEADERS.items():
		if line.startswith(start):
			return what
	if line.startswith(UNREFUSED_HEADERS):
		mode = line.split()[-1]
		if line.startswith(b"index ") and b" " not in line[6:].strip():
			return None
		if mode == b"120000":
			return "a symbolic link (mode 120000)"
		if mode == b"160000":
			return "a git submodule (mode 160000)"
		if mode not in PLAIN_FILE_MODES:
			return f"file mode {safetext.name(mode)}"
	return None


def read_hunk(lines, index, line_number):
	"""The hunk starting at LINES[INDEX] (an @@ line) as bytes, and the index after it."""
	match = HUNK.match(lines[index])
	if not match:
		raise Refused(f"line {line_number}: a malformed hunk header"
			      f" {safetext.name(lines[index][:80].rstrip())}")
	old = int(match.group(2) if match.group(2) is not None else 1)
	new = int(match.group(4) if match.group(4) is not None else 1)
	end = index + 1
	while old > 0 or new > 0:
		if end >= len(lines):
			raise Refused(f"line {line_number}: the hunk ends before the"
				      f" {old + new} more lines its header promises")
		kind = lines[end][:1]
		if kind in (b" ", b"\n", b"\r"):
			old, new = old - 1, new - 1
		elif kind == b"-":
			old -= 1
		elif kind == b"+":
			new -= 1
		elif kind != b"\\":
			raise Refused(f"line {end + 1}: not a line of the hunk starting at line"
				      f" {line_number} ({old + new} more lines expected)")
		end += 1
		if old < 0 or new < 0:
			raise Refused(f"line {line_number}: the hunk has more lines than its header says")
	if end < len(lines) and lines[end].startswith(b"\\"):
		end += 1
	return b"".join(lines[index:end]), end


def parse_patch(data, assignment, chosen):
	"""Checked Sections of a unified diff (bytes); refuses what intake does not allow."""
	lines = data.splitlines(keepends=True)
	sections = []
	current = None
	index = 0
	hunks = 0
	while index < len(lines):
		line = lines[index]
		if line.startswith(b"diff "):
			current = Section(index + 1)
			sections.append(current)
		elif line.startswith(b"--- ") and index + 1 < len(lines) and \
		     lines[index + 1].startswith(b"+++ "):
			if current is None or current.hunks or current.old is not None:
				current = Section(index + 1)
				sections.append(current)
			current.old = patch_path(unquote(line[4:]), assignment, index + 1)
			current.new = patch_path(unquote(lines[index + 1][4:]), assignment, index + 2)
			index += 2
			continue
		elif line.startswith(b"@@"):
			if current is None or current.old is None:
				raise Refused(f"line {index + 1}: a hunk with no ---/+++ file names before it")
			hunk, index = read_hunk(lines, index, index + 1)
			current.hunks.append(hunk)
			hunks += 1
			if hunks > chosen["max_hunks"]:
				raise over_limit("the patch's number of hunks", "max_hunks",
						 f"more than {chosen['max_hunks']}", chosen)
			continue
		elif current is not None and not current.hunks and header_problem(line):
			raise Refused(f"line {index + 1}: {header_problem(line)}; hand in plain"
				      " text changes to the assignment's files")
		elif line.startswith((b"GIT binary patch", b"Binary files ")):
			raise Refused(f"line {index + 1}: a binary patch; hand in text changes only")
		index += 1
	return sections


def check_sections(sections):
	"""Refuses sections with no file names, renames, and a file created twice."""
	existing = {}
	for section in sections:
		if section.old is None:
			raise Refused(f"line {section.start}: a file header without ---/+++ names"
				      " (a mode-only change or an empty file)")
		if "/dev/null" not in (section.old, section.new) and section.old != section.new:
			raise Refused(f"line {section.start}: --- names {section.old} but +++ names"
				      f" {section.new}; a patch may not rename files")
		path = section.path()
		if section.creates() and existing.get(path):
			raise Refused(f"line {section.start}: creates {path}, which an earlier section"
				      " already created or changed; a file may be created only once")
		existing[path] = not section.deletes()


def open_checked(path, flags):
	"""Opens the handed-in PATH itself without following a symlink; OSError names it."""
	return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)


def inspect_patch(fd, shown, assignment, chosen):
	submission = Submission("patch")
	facts = os.fstat(fd)
	if facts.st_nlink > 1:
		raise Refused(f"{shown}: a hard link ({facts.st_nlink} names for one file)")
	if facts.st_size > chosen["max_patch_bytes"]:
		raise over_limit(f"{shown}: the patch's size", "max_patch_bytes", facts.st_size, chosen)
	with os.fdopen(os.dup(fd), "rb") as handle:
		data = handle.read(chosen["max_patch_bytes"] + 1)
	if len(data) > chosen["max_patch_bytes"]:
		raise over_limit(f"{shown}: the patch's size", "max_patch_bytes", len(data), chosen)
	sections = parse_patch(data, assignment, chosen)
	if not sections:
		raise Refused(f"{shown}: not a unified diff (no ---/+++ file headers found)")
	check_sections(sections)
	submission.sections = sections
	return submission


def refused(message, limit=None):
	submission = Submission()
	submission.problem = "refused: " + message
	submission.refused = True
	submission.limit = limit
	return submission


def inspect(path, assignment):
	chosen = limits(assignment)
	raw = os.fsencode(path)
	shown = safetext.name(raw if len(raw) < 300 else raw[:300] + b"...")
	fd = None
	try:
		if len(raw) >= PATH_MAX:
			raise Refused(f"{shown}: the path is longer than PATH_MAX ({PATH_MAX})")
		refuse_special(os.lstat(path).st_mode, shown)
		fd = open_checked(path, os.O_RDONLY)
		mode = os.fstat(fd).st_mode
		if stat.S_ISDIR(mode):
			submission = inspect_directory(fd, assignment, chosen)
		elif stat.S_ISREG(mode):
			submission = inspect_patch(fd, shown, assignment, chosen)
		else:
			refuse_special(mode, shown)
			raise Refused(f"{shown}: neither a directory nor a patch file")
	except Refused as refusal:
		return refused(str(refusal), refusal.limit)
	except FileNotFoundError:
		submission = Submission()
		submission.problem = f"{shown}: no such file or directory"
		return submission
	except OSError as error:
		what = "a symbolic link" if error.errno == errno.ELOOP else error.strerror
		return refused(f"{shown}: cannot be read ({what})")
	finally:
		if fd is not None:
			os.close(fd)
	return finish(submission, assignment)


def finish(submission, assignment):
	if submission.kind == "directory" and not submission.contents:
		submission.problem = ("none of the assignment's files were found in the submission;"
				      " expected " + listed(assignment.student_files) +
				      " (at that path or by file name)")
	elif submission.kind == "directory" and submission.missing:
		submission.notes.append("missing: " + listed(submission.missing) +
					" (graded as the unchanged starting version)")
	return submission


def apply_patch(directory, patch):
	"""Applies PATCH (bytes, -p1, only plain ---/+++ headers) in DIRECTORY, in the sandbox
	(GNU patch parses the student's bytes; DIRECTORY is all it can see or write)."""
	done = sandbox.run(["patch", "-p1", "--batch", "--forward", "--no-backup-if-mismatch",
			    "-r", "-"], sandbox.CHECK_LIMITS, build=directory, stdin=patch)
	return done.status == 0 and not done.timed_out, safetext.decode(done.output).strip()


def rebuilt_patch(sections):
	"""The sections' hunks under plain headers: nothing else of the student's patch."""
	parts = []
	for section in sections:
		old = "/dev/null" if section.creates() else f"a/{section.old}"
		new = "/dev/null" if section.deletes() else f"b/{section.new}"
		parts.append(f"--- {old}\n+++ {new}\n".encode() + b"".join(section.hunks))
	return b"".join(parts)


def read_result(directory, path):
	"""A patched file, read without following links (patch never makes one here)."""
	try:
		fd = os.open(directory / path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
	except FileNotFoundError:
		return None
	with os.fdopen(fd, "rb") as handle:
		return handle.read()


def collect_patch(inspected, assignment, start_version):
	submission = Submission("patch")
	changed = {section.path() for section in inspected.sections}
	with tempfile.TemporaryDirectory(prefix="pagelab-patch-") as scratch:
		scratch = Path(scratch)
		for path in assignment.student_files:
			(scratch / path).parent.mkdir(parents=True, exist_ok=True)
			created = any(s.creates() and s.path() == path for s in inspected.sections)
			if not created:
				(scratch / path).write_bytes(start_version(path))
		applied, output = apply_patch(scratch, rebuilt_patch(inspected.sections))
		if not applied:
			submission.problem = ("the patch does not apply to the starting files (make it"
					      " with 'git diff' in a tree that has the base patch and"
					      f" skeleton applied):\n{output}")
			return submission
		for path in assignment.student_files:
			data = read_result(scratch, path)
			if data is None:
				submission.missing.append(path)
			else:
				submission.contents[path] = data
	untouched = [path for path in assignment.student_files if path not in changed]
	if untouched:
		submission.notes.append("the patch does not change " + listed(untouched) +
					" (graded as the starting version)")
	if submission.missing:
		submission.notes.append("the patch deletes " + listed(submission.missing) +
					" (graded as the starting version)")
	return submission


def collect(inspected, assignment, start_version):
	if not isinstance(inspected, Submission):
		inspected = inspect(inspected, assignment)
	if inspected.problem or inspected.kind != "patch":
		return inspected
	return collect_patch(inspected, assignment, start_version)


COMMENTS = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)


def normalised(data):
	return b" ".join(COMMENTS.sub(b" ", data).split())


def fingerprint(submission, assignment, start_version):
	digest = hashlib.sha256()
	changed = False
	for path in assignment.student_files:
		data = submission.contents.get(path)
		start = start_version(path)
		changed = changed or (data is not None and data != start)
		digest.update(path.encode() + b"\0" + normalised(start if data is None else data) + b"\0")
	return digest.hexdigest()[:16] if changed else None
