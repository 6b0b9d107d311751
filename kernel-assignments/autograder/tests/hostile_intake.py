"""Hostile submissions that attack intake and the report, graded by the real grade command
(hostile.py runs each with a canary planted outside the submission).

Intake is the same code for every assignment, but each reads its own student_files and
limits: the refused cases (a second each, no kernel work) run against every assignment
with an assignment.json, aimed at its first student file.  The last two build and boot
the self-test, to show bytes that are not UTF-8 travelling through the whole grade.

Interface: CASES (hostile.py registers them); intake_cases(target) -> [HostileCase] the
refused cases against one Target(assignment, student_file, body, limits).
"""
import functools
import os
import socket
from collections import namedtuple
from pathlib import Path

import assignment as assignments
import kbuild
import submission as submissions
from hostile import HostileCase

ASSIGNMENTS = Path(__file__).resolve().parent.parent.parent
SELFTEST = ASSIGNMENTS / "autograder" / "selftest"
STUDENT_FILE = "kernel/pagelab_selftest.c"
REFERENCE = (SELFTEST / "cases/reference" / STUDENT_FILE).read_bytes()
# the body of the student file beside a refused entry: intake refuses before reading it
PLACEHOLDER = b"// SPDX-License-Identifier: GPL-2.0\n/* handed in beside the attack */\n"

Target = namedtuple("Target", "assignment student_file body limits")


def target_of(name, body=PLACEHOLDER):
	assignment = assignments.load_assignment(name)
	return Target(name, assignment.student_files[0], body, submissions.limits(assignment))


def student_dir(target, scratch, data=None, name="student"):
	root = scratch / name
	(root / target.student_file).parent.mkdir(parents=True)
	(root / target.student_file).write_bytes(target.body if data is None else data)
	return root


def top_dir(target):
	return target.student_file.split("/")[0]


def patch_file(scratch, text):
	path = scratch / "submission.patch"
	path.write_bytes(text)
	return path


def symlinked_dir_to_other_student(target, scratch, canary):
	other = student_dir(target, scratch,
			    b"/* " + canary.text.encode() + b" */\n" + target.body, "other")
	mine = scratch / "mine"
	mine.mkdir()
	(mine / top_dir(target)).symlink_to(other / top_dir(target))
	return mine


def symlink_to_canary(target, scratch, canary):
	root = scratch / "student"
	(root / target.student_file).parent.mkdir(parents=True)
	(root / target.student_file).symlink_to(canary.path)
	return root


def symlink_to_cached_trees(target, scratch, canary):
	"""The student's directory a link into the cache, where every assignment's kernel
	layers (with earlier grades' objects) live."""
	root = scratch / "student"
	root.mkdir()
	(root / top_dir(target)).symlink_to(kbuild.cache_dir() / "layers")
	return root


def hard_link_to_canary(target, scratch, canary):
	root = student_dir(target, scratch)
	os.link(canary.path, root / top_dir(target) / "notes.txt")
	return root


def fifo_beside_the_file(target, scratch, canary):
	root = student_dir(target, scratch)
	os.mkfifo(root / top_dir(target) / "pipe")
	return root


def socket_beside_the_file(target, scratch, canary):
	root = student_dir(target, scratch)
	listener = socket.socket(socket.AF_UNIX)
	listener.bind(str(root / "sock"))
	listener.close()
	return root


def new_file(path, body, mode=b"100644"):
	return (b"diff --git a/" + path + b" b/" + path + b"\nnew file mode " + mode +
		b"\n--- /dev/null\n+++ b/" + path + b"\n@@ -0,0 +1 @@\n+" + body + b"\n")


def patch_creating_symlink(target, scratch, canary):
	return patch_file(scratch, new_file(target.student_file.encode(),
					    str(canary.path).encode(), b"120000") +
			  b"\\ No newline at end of file\n")


def git_header(target):
	path = target.student_file.encode()
	return b"diff --git a/" + path + b" b/" + path + b"\n"


def patch_creating_submodule(target, scratch, canary):
	path = target.student_file.encode()
	return patch_file(scratch, git_header(target) +
			  b"new file mode 160000\nindex 0000000..1234567\n--- /dev/null\n"
			  b"+++ b/" + path + b"\n@@ -0,0 +1 @@\n"
			  b"+Subproject commit 1234567890123456789012345678901234567890\n")


def binary_patch(target, scratch, canary):
	return patch_file(scratch, git_header(target) +
			  b"index 1111111..2222222 100644\nGIT binary patch\nliteral 5\n"
			  b"Mc${NkU|?W_000310RR91\n\n")


def patch_with_absolute_path(target, scratch, canary):
	name = str(canary.path).encode()
	return patch_file(scratch, b"--- " + name + b"\n+++ " + name + b"\n@@ -1 +1 @@\n-x\n+y\n")


def patch_climbing_out(target, scratch, canary):
	return patch_file(scratch, b"--- a/../../../../../../tmp/x.c\n+++ b/../../../../../../tmp/x.c\n"
			  b"@@ -0,0 +1 @@\n+int x;\n")


def patch_creating_twice(target, scratch, canary):
	section = new_file(target.student_file.encode(), b"int x;")
	return patch_file(scratch, section + section)


def name_faking_a_pass_line(target, scratch, canary):
	root = student_dir(target, scratch)
	# U+2215 DIVISION SLASH: a name cannot hold "/", but this looks the same
	(root / "notes\n  PASS    17\u221517  everything (hidden)\n").write_text("x")
	return root


def name_not_utf8(target, scratch, canary):
	root = student_dir(target, scratch)
	with open(os.path.join(os.fsencode(root), b"caf\xe9\x1b[2J.c"), "wb") as handle:
		handle.write(b"x")
	return root


def oversized_file(target, scratch, canary):
	return student_dir(target, scratch, target.body + b"/*" +
			   b" " * target.limits["max_file_bytes"] + b"*/\n")


def too_many_files(target, scratch, canary):
	root = student_dir(target, scratch)
	for index in range(target.limits["max_files"]):
		(root / f"f{index:03d}.txt").write_text("x")
	return root


def intake_cases(target):
	"""The refused cases against TARGET; the self-test's sentences carry no prefix."""
	prefix = "" if target.assignment == "selftest" else f"hostile intake ({target.assignment}): "
	named = target.student_file.split("/")[0]

	def case(sentence, build, *contains, **options):
		return HostileCase(prefix + sentence, functools.partial(build, target),
				   assignment=target.assignment, output_contains=contains or ["refused: "],
				   max_score=0, status="refused", **options)
	return [
		case("a kernel directory that is a symlink to another student's is refused,"
		     " not graded as theirs", symlinked_dir_to_other_student,
		     f"refused: {named}: a symbolic link"),
		case("a student file that is a symlink to a host file is refused without"
		     " reading it", symlink_to_canary, f"{target.student_file}: a symbolic link"),
		case("a symlink to the grader's cached kernel trees is refused",
		     symlink_to_cached_trees, f"refused: {named}: a symbolic link"),
		case("a hard link to a host file is refused without reading it",
		     hard_link_to_canary, "a hard link"),
		case("a FIFO in a submission is refused and does not hang the grader",
		     fifo_beside_the_file, "pipe: a FIFO"),
		case("a socket in a submission is refused", socket_beside_the_file, "sock: a socket"),
		case("a patch creating a symlink (mode 120000) is refused and never applied",
		     patch_creating_symlink, "a symbolic link (mode 120000)"),
		case("a patch adding a git submodule is refused", patch_creating_submodule,
		     "a git submodule"),
		case("a binary patch is refused", binary_patch, "a binary patch"),
		case("a patch naming an absolute host path is refused", patch_with_absolute_path,
		     "an absolute path"),
		case("a patch climbing out with '..' is refused", patch_climbing_out,
		     "a path with '..'"),
		case("a patch creating the same file twice is refused, not a crash",
		     patch_creating_twice, "a file may be created only once"),
		case("a file name with a newline cannot print a fake PASS line",
		     name_faking_a_pass_line, "notes\\x0a  PASS", output_lacks=["\n  PASS"]),
		case("a file name that is not UTF-8 and holds ESC is refused, escaped",
		     name_not_utf8, "caf\\xe9\\x1b[2J.c"),
		case("a file over max_file_bytes is refused, not truncated", oversized_file,
		     "max_file_bytes"),
		case("a submission of more than max_files files is refused", too_many_files,
		     "max_files"),
	]


def reference_with_bad_bytes(scratch, canary):
	"""The reference with a comment holding invalid UTF-8 and an ESC, handed in as a patch:
	it builds and boots, and checkpatch quotes the bytes back."""
	marked = REFERENCE.replace(b"#include <linux/syscalls.h>",
				   b"#include <linux/syscalls.h>\n/* caf\xe9 \x1b[2J \xff */", 1)
	return student_dir(SELFTEST_TARGET, scratch, marked)


FORGING_KERNEL = rb"""// SPDX-License-Identifier: GPL-2.0
/* Writes result lines that are not UTF-8, hold ESC, carry a non-ASCII mac or fake a
 * line of the report, on the console and on the results port. */
#include <linux/fs.h>
#include <linux/syscalls.h>

static void forge(const char *line)
{
	struct file *port = filp_open("/dev/ttyS1", O_WRONLY, 0);
	loff_t pos = 0;

	pr_info("%s", line);
	if (!IS_ERR(port)) {
		kernel_write(port, line, strlen(line), &pos);
		filp_close(port, NULL);
	}
}

SYSCALL_DEFINE3(pagelab_selftest, const u64 __user *, values, unsigned int, count,
		u64 __user *, sum)
{
	forge("PL1 0123456789abcdef 1 R selftest.exists 1 ok "
	      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\n");
	forge("PL1 0123456789abcdef 2 R selftest.sum 1 ok \xff\x1b[2J\xed\xa0\x80 ff\n");
	forge("\n  PASS     17/17  everything works\n");
	return -ENOSYS;
}
"""


def forging_kernel(scratch, canary):
	return student_dir(SELFTEST_TARGET, scratch, FORGING_KERNEL)


SELFTEST_TARGET = target_of("selftest", REFERENCE)
OTHER_ASSIGNMENTS = sorted(path.parent.name for path in ASSIGNMENTS.glob("*/assignment.json"))

CASES = intake_cases(SELFTEST_TARGET) + [
	HostileCase("result lines with a non-ASCII mac, bytes that are not UTF-8, ESC or a fake"
		    " report line are ignored and counted, not a crash", forging_kernel,
		    max_score=3, status="ok", output_contains=["unauthenticated result lines ignored"],
		    output_lacks=["\n  PASS", "\x1b"]),
	HostileCase("bytes that are not UTF-8 and an ESC in a source file go through build,"
		    " boots and checkpatch into a printable report", reference_with_bad_bytes,
		    min_score=16, status="ok", output_lacks=["\x1b"]),
]
for other in OTHER_ASSIGNMENTS:
	CASES += intake_cases(target_of(other))
