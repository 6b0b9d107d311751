// SPDX-License-Identifier: GPL-2.0
/*
 * pagelab_selftest(values, count, sum): the autograder's own regression assignment.
 *
 * Adds COUNT (at most 1024) 64-bit numbers read from the user array VALUES and stores the
 * total at SUM.  Returns 0, -EINVAL when COUNT is too large, -EFAULT when a pointer is bad.
 */
#include <linux/syscalls.h>

SYSCALL_DEFINE3(pagelab_selftest, const u64 __user *, values, unsigned int, count,
		u64 __user *, sum)
{
	/* TODO: add up the values and store the total at sum */
	return -ENOSYS;
}
