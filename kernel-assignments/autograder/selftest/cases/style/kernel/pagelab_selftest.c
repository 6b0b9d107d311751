// SPDX-License-Identifier: GPL-2.0
/*
 * pagelab_selftest(values, count, sum): the autograder's own regression assignment.
 *
 * Adds COUNT (at most 1024) 64-bit numbers read from the user array VALUES and stores the
 * total at SUM.  Returns 0, -EINVAL when COUNT is too large, -EFAULT when a pointer is bad.
 */
#include <linux/syscalls.h>

#define SELFTEST_MAX_VALUES 1024

SYSCALL_DEFINE3(pagelab_selftest, const u64 __user *, values, unsigned int, count,
		u64 __user *, sum)
{
        u64 total = 0, value;
	unsigned int i;

	if (count > SELFTEST_MAX_VALUES)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		if (get_user(value, values + i))
			return -EFAULT;
		total += value;
	}
	return put_user(total, sum) ? -EFAULT : 0;
}
