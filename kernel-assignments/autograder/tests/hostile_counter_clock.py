"""Hostile cases against the counter-clock assignment, whose student code includes a
loadable module (built by `make modules` in the sandbox and loaded in the guest) and
whose given file mm/counter_clock.c judges the student's reclaim change.

CASES are graded with the real grade command by hostile.py, with a canary planted
outside the submission.
"""
from pathlib import Path

from hostile import HostileCase

MODULE_FILE = "mm/counter_clock_aging.c"

MODULE_PANICKING_WITH = """// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
{include}
static int __init leak(void)
{{
	panic("leak: %s", {what});
	return 0;
}}
module_init(leak);
MODULE_LICENSE("GPL");
"""

INCBIN = """asm(".pushsection .rodata\\n.globl canary\\ncanary:\\n"
    ".incbin \\"{path}\\"\\n.byte 0\\n.popsection");
extern const char canary[];"""

JUDGE_PATCH = """--- a/mm/counter_clock.c
+++ b/mm/counter_clock.c
@@ -1,3 +1,4 @@
 // SPDX-License-Identifier: GPL-2.0
+/* every verdict is "ok" from now on */
 /*
  * The given half of pagelab's counter-based clock assignment
"""


def module_submission(scratch, source):
	(scratch / "mm").mkdir()
	(scratch / MODULE_FILE).write_text(source)
	return scratch


def module_including_canary(scratch, canary):
	"""A module that #includes a host file and would panic with it once loaded."""
	return module_submission(scratch, MODULE_PANICKING_WITH.format(
		include=f'#include "{canary.header}"', what="canary"))


def module_incbin_canary(scratch, canary):
	"""A module that assembles a host file into itself and would panic with it."""
	return module_submission(scratch, MODULE_PANICKING_WITH.format(
		include=INCBIN.format(path=canary.path), what="canary"))


def patch_editing_the_judge(scratch, canary):
	"""A patch that rewrites the given file that judges the student's work."""
	patch = Path(scratch) / "submission.patch"
	patch.write_text(JUDGE_PATCH)
	return patch


CASES = [
	HostileCase("hostile (counter-clock): a module that #includes a host file (the canary)"
		    " cannot compile it in or print it", module_including_canary,
		    assignment="counter-clock", max_score=0, status="build-failed",
		    output_contains=["does not compile", "No such file or directory"]),
	HostileCase("hostile (counter-clock): a module that .incbins a host file (the canary)"
		    " cannot read it", module_incbin_canary, assignment="counter-clock",
		    max_score=0, status="build-failed", output_contains=["does not compile"]),
	HostileCase("hostile (counter-clock): a patch editing the given judge"
		    " mm/counter_clock.c is refused", patch_editing_the_judge,
		    assignment="counter-clock", max_score=0, status="refused",
		    output_contains=["mm/counter_clock.c"]),
]
