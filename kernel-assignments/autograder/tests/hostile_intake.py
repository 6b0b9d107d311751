"""Hostile submissions that attack intake and the report, graded by the real grade command
(hostile.py runs each with a canary planted outside the submission).

All but the last are refused before any kernel work, so they cost a second each; the last
builds and boots, to show bytes that are not UTF-8 travelling through the whole grade.
"""
import os
import socket
from pathlib import Path

import kbuild
from hostile import HostileCase

SELFTEST = Path(__file__).resolve().parent.parent / "selftest"
STUDENT_FILE = "kernel/pagelab_selftest.c"
REFERENCE = (SELFTEST / "cases/reference" / STUDENT_FILE).read_bytes()
REFUSED = dict(max_score=0, status="refused", output_contains=["refused: "])


def student_dir(scratch, data=REFERENCE, name="student"):
	root = scratch / name
	(root / "kernel").mkdir(parents=True)
	(root / STUDENT_FILE).write_bytes(data)
	return root


def patch_file(scratch, text):
	path = scratch / "submission.patch"
	path.write_bytes(text)
	return path


def symlinked_dir_to_other_student(scratch, canary):
	other = student_dir(scratch, b"/* " + canary.text.encode() + b" */\n" + REFERENCE, "other")
	mine = scratch / "mine"
	mine.mkdir()
	(mine / "kernel").symlink_to(other / "kernel")
	return mine


def symlink_to_canary(scratch, canary):
	root = scratch / "student"
	(root / "kernel").mkdir(parents=True)
	(root / STUDENT_FILE).symlink_to(canary.path)
	return root


def symlink_to_cached_tree(scratch, canary):
	root = scratch / "student"
	root.mkdir()
	(root / "kernel").symlink_to(kbuild.cache_dir() / "trees" / "selftest" / "kernel")
	return root


def hard_link_to_canary(scratch, canary):
	root = student_dir(scratch)
	os.link(canary.path, root / "kernel" / "notes.txt")
	return root


def fifo_beside_the_file(scratch, canary):
	root = student_dir(scratch)
	os.mkfifo(root / "kernel" / "pipe")
	return root


def socket_beside_the_file(scratch, canary):
	root = student_dir(scratch)
	listener = socket.socket(socket.AF_UNIX)
	listener.bind(str(root / "sock"))
	listener.close()
	return root


def new_file(path, body, mode=b"100644"):
	return (b"diff --git a/" + path + b" b/" + path + b"\nnew file mode " + mode +
		b"\n--- /dev/null\n+++ b/" + path + b"\n@@ -0,0 +1 @@\n+" + body + b"\n")


def patch_creating_symlink(scratch, canary):
	return patch_file(scratch, new_file(STUDENT_FILE.encode(), str(canary.path).encode(),
					    b"120000") + b"\\ No newline at end of file\n")


def patch_creating_submodule(scratch, canary):
	return patch_file(scratch, b"diff --git a/kernel/pagelab_selftest.c b/kernel/pagelab_selftest.c\n"
			  b"new file mode 160000\nindex 0000000..1234567\n--- /dev/null\n"
			  b"+++ b/kernel/pagelab_selftest.c\n@@ -0,0 +1 @@\n"
			  b"+Subproject commit 1234567890123456789012345678901234567890\n")


def binary_patch(scratch, canary):
	return patch_file(scratch, b"diff --git a/kernel/pagelab_selftest.c b/kernel/pagelab_selftest.c\n"
			  b"index 1111111..2222222 100644\nGIT binary patch\nliteral 5\n"
			  b"Mc${NkU|?W_000310RR91\n\n")


def patch_with_absolute_path(scratch, canary):
	name = str(canary.path).encode()
	return patch_file(scratch, b"--- " + name + b"\n+++ " + name + b"\n@@ -1 +1 @@\n-x\n+y\n")


def patch_climbing_out(scratch, canary):
	return patch_file(scratch, b"--- a/../../../../../../tmp/x.c\n+++ b/../../../../../../tmp/x.c\n"
			  b"@@ -0,0 +1 @@\n+int x;\n")


def patch_creating_twice(scratch, canary):
	section = new_file(STUDENT_FILE.encode(), b"int x;")
	return patch_file(scratch, section + section)


def name_faking_a_pass_line(scratch, canary):
	root = student_dir(scratch)
	# U+2215 DIVISION SLASH: a name cannot hold "/", but this looks the same
	(root / "notes\n  PASS    17\u221517  everything (hidden)\n").write_text("x")
	return root


def name_not_utf8(scratch, canary):
	root = student_dir(scratch)
	with open(os.path.join(os.fsencode(root), b"caf\xe9\x1b[2J.c"), "wb") as handle:
		handle.write(b"x")
	return root


def oversized_file(scratch, canary):
	return student_dir(scratch, REFERENCE + b"/*" + b" " * (1 << 20) + b"*/\n")


def too_many_files(scratch, canary):
	root = student_dir(scratch)
	for index in range(300):
		(root / f"f{index:03d}.txt").write_text("x")
	return root


def reference_with_bad_bytes(scratch, canary):
	"""The reference with a comment holding invalid UTF-8 and an ESC, handed in as a patch:
	it builds and boots, and checkpatch quotes the bytes back."""
	marked = REFERENCE.replace(b"#include <linux/syscalls.h>",
				   b"#include <linux/syscalls.h>\n/* caf\xe9 \x1b[2J \xff */", 1)
	root = student_dir(scratch, marked)
	return root


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
	return student_dir(scratch, FORGING_KERNEL)


CASES = [
	HostileCase("a kernel directory that is a symlink to another student's is refused,"
		    " not graded as theirs", symlinked_dir_to_other_student,
		    output_contains=["refused: kernel: a symbolic link"], max_score=0, status="refused"),
	HostileCase("a student file that is a symlink to a host file is refused without"
		    " reading it", symlink_to_canary,
		    output_contains=["kernel/pagelab_selftest.c: a symbolic link"], max_score=0, status="refused"),
	HostileCase("a symlink to the grader's cached kernel tree is refused",
		    symlink_to_cached_tree, **REFUSED),
	HostileCase("a hard link to a host file is refused without reading it",
		    hard_link_to_canary, output_contains=["a hard link"], max_score=0, status="refused"),
	HostileCase("a FIFO in a submission is refused and does not hang the grader",
		    fifo_beside_the_file, output_contains=["pipe: a FIFO"], max_score=0, status="refused"),
	HostileCase("a socket in a submission is refused", socket_beside_the_file,
		    output_contains=["sock: a socket"], max_score=0, status="refused"),
	HostileCase("a patch creating a symlink (mode 120000) is refused and never applied",
		    patch_creating_symlink, output_contains=["a symbolic link (mode 120000)"],
		    max_score=0, status="refused"),
	HostileCase("a patch adding a git submodule is refused", patch_creating_submodule,
		    output_contains=["a git submodule"], max_score=0, status="refused"),
	HostileCase("a binary patch is refused", binary_patch,
		    output_contains=["a binary patch"], max_score=0, status="refused"),
	HostileCase("a patch naming an absolute host path is refused", patch_with_absolute_path,
		    output_contains=["an absolute path"], max_score=0, status="refused"),
	HostileCase("a patch climbing out with '..' is refused", patch_climbing_out,
		    output_contains=["a path with '..'"], max_score=0, status="refused"),
	HostileCase("a patch creating the same file twice is refused, not a crash",
		    patch_creating_twice, output_contains=["a file may be created only once"],
		    max_score=0, status="refused"),
	HostileCase("a file name with a newline cannot print a fake PASS line",
		    name_faking_a_pass_line, output_contains=["notes\\x0a  PASS"],
		    output_lacks=["\n  PASS"], max_score=0, status="refused"),
	HostileCase("a file name that is not UTF-8 and holds ESC is refused, escaped",
		    name_not_utf8, output_contains=["caf\\xe9\\x1b[2J.c"], max_score=0, status="refused"),
	HostileCase("a file over max_file_bytes is refused, not truncated", oversized_file,
		    output_contains=["max_file_bytes"], max_score=0, status="refused"),
	HostileCase("a submission of more than max_files files is refused", too_many_files,
		    output_contains=["max_files"], max_score=0, status="refused"),
	HostileCase("result lines with a non-ASCII mac, bytes that are not UTF-8, ESC or a fake"
		    " report line are ignored and counted, not a crash", forging_kernel,
		    max_score=3, status="ok", output_contains=["unauthenticated result lines ignored"],
		    output_lacks=["\n  PASS", "\x1b"]),
	HostileCase("bytes that are not UTF-8 and an ESC in a source file go through build,"
		    " boots and checkpatch into a printable report", reference_with_bad_bytes,
		    min_score=16, status="ok", output_lacks=["\x1b"]),
]
