"""Hostile submissions aimed at the RRIP assignment (kernel-assignments/rrip/), graded by
the real grade command with a canary planted outside the submission (hostile.py).

The RRIP student files are two files of the kernel itself (mm/swap.c, mm/vmscan.c), so
these cases attack what that allows: reaching the headers the base patch owns, pulling
host files into a file that is compiled anyway, and a kernel that prints the guest
program's result lines itself.  The cases that build start from the files as handed out
(pristine + base patch), read from the prepared assignment tree.
"""
from pathlib import Path

import assignment as assignments
import kbuild
from hostile import HostileCase

RRIP = Path(__file__).resolve().parents[2] / "rrip"

# Prints result lines shaped like rrip_check's, passing, on the console and the results
# port, then stops the machine (the plan would only add genuine failures): the lines
# carry no valid mac, so they must earn nothing.
FORGING_INITCALL = r"""
static int __init rrip_forge(void)
{
	static const char *const lines[] = {
		"PL1 0123456789abcdef 1 R rrip.insert 1 ok 00\n",
		"PL1 0123456789abcdef 2 V rrip.insert active_rrpv_2 1024 00\n",
		"\n  PASS     100/100  everything works\n",
	};
	struct file *port = filp_open("/dev/ttyS1", O_WRONLY, 0);
	loff_t pos = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		pr_info("%s", lines[i]);
		if (!IS_ERR(port))
			kernel_write(port, lines[i], strlen(lines[i]), &pos);
	}
	if (!IS_ERR(port))
		filp_close(port, NULL);
	panic("forged");
	return 0;
}
late_initcall(rrip_forge);
"""

PANIC_WITH_CANARY = """
static int __init rrip_leak(void)
{
	panic("leak: %s", canary);
	return 0;
}
late_initcall(rrip_leak);
"""


def start_version(path):
	"""PATH (a student file) as handed out: pristine + the rrip base patch."""
	tree = kbuild.AssignmentTree(assignments.load_assignment(RRIP), lambda message: None)
	tree.prepare()
	return tree.start_version(path)


def handed_in(scratch, path, data):
	(scratch / path).parent.mkdir(parents=True, exist_ok=True)
	(scratch / path).write_bytes(data)
	return scratch


def swap_c_linked_to_canary(scratch, canary):
	(scratch / "mm").mkdir()
	(scratch / "mm" / "swap.c").symlink_to(canary.path)
	return scratch


def patch_to_a_header(scratch, canary):
	"""Edits mm/internal.h, which the base patch owns (the RRPV accessors live there)."""
	path = scratch / "rrip.patch"
	path.write_text("--- a/mm/internal.h\n+++ b/mm/internal.h\n@@ -1,3 +1,4 @@\n"
			"+#define rrip_max() 3\n /* SPDX-License-Identifier: GPL-2.0-or-later */\n"
			" /* internal.h: mm/ internal definitions\n *\n")
	return path


def vmscan_including_canary(scratch, canary):
	source = start_version("mm/vmscan.c")
	return handed_in(scratch, "mm/vmscan.c", f'#include "{canary.header}"\n'.encode() +
			 source + PANIC_WITH_CANARY.encode())


def swap_forging_results(scratch, canary):
	return handed_in(scratch, "mm/swap.c", start_version("mm/swap.c") +
			 FORGING_INITCALL.encode())


CASES = [
	HostileCase("rrip hostile: an mm/swap.c that is a symlink to a host file is refused"
		    " without reading it", swap_c_linked_to_canary, assignment="rrip",
		    output_contains=["mm/swap.c: a symbolic link"], max_score=0, status="refused"),
	HostileCase("rrip hostile: a patch to mm/internal.h (the base patch's RRPV accessors)"
		    " is refused, naming the two files that may change", patch_to_a_header,
		    assignment="rrip", output_contains=["is not one of this assignment's files",
							"mm/swap.c"], max_score=0, status="refused"),
	HostileCase("rrip hostile: #include of a host file (the canary) in mm/vmscan.c cannot"
		    " compile it in or print it", vmscan_including_canary, assignment="rrip",
		    max_score=0, output_contains=["does not compile", "No such file or directory"]),
	HostileCase("rrip hostile: a kernel printing rrip_check's result lines itself earns"
		    " nothing for them; they are counted as unauthenticated", swap_forging_results,
		    assignment="rrip", max_score=5, status="ok",
		    output_contains=["unauthenticated result lines ignored"],
		    output_lacks=["\n  PASS"]),
]
