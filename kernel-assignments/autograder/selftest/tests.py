"""Graded tests of the autograder's self-test assignment (pagelab_selftest, syscall 452).

Two boots: 'basic' runs the system-call checks; 'disks' checks the machinery's guest
environment (swap, the ext2 disk, several processes reporting at once) and so scores
the same for every submission that boots.
"""
from gradelib import Boot, Fail, checkpatch, test

basic = Boot("basic", plan="basic", memory="128M", timeout=45)
disks = Boot("disks", plan="disks", memory="96M", swap="32M", disk=True, timeout=90)

EXPECTED_TOTAL = sum(i * 1000003 for i in range(1000))


@test(4, "pagelab_selftest() exists and returns 0", boot=basic)
def test_exists(run):
	run.expect_pass("selftest.exists")


@test(4, "it adds up 1000 values", boot=basic, parent=test_exists)
def test_sum(run):
	run.expect_pass("selftest.sum")


@test(2, "the guest's reported total is the one Python computes", boot=basic, parent=test_sum)
def test_total_checked_by_python(run):
	total = run.value("selftest.sum", "total")
	if total != EXPECTED_TOTAL:
		raise Fail(f"total {total}, expected {EXPECTED_TOTAL}")


@test(2, "a bad pointer gives -EFAULT", boot=basic, parent=test_exists)
def test_efault(run):
	run.expect_pass("selftest.efault")


@test(2, "too many values give -EINVAL", boot=basic, parent=test_exists, hidden=True)
def test_einval(run):
	run.expect_pass("selftest.einval")


@test(1, "the guest has swap and an ext2 disk", boot=disks, functional=False)
def test_disks(run):
	run.expect_pass("disks.swap")
	run.expect_pass("disks.ext2")


@test(1, "four processes report at once, each on its own signed stream", boot=disks,
      functional=False)
def test_concurrent_streams(run):
	for child in range(4):
		run.expect_pass(f"disks.child{child}")


checkpatch(1)
