// SPDX-License-Identifier: GPL-2.0
/*
 * pagelab_selftest(values, count, sum): the autograder's own regression assignment.
 *
 * Adds COUNT (at most 1024) 64-bit numbers read from the user array VALUES and stores the
 * total at SUM.  Returns 0, -EINVAL when COUNT is too large, -EFAULT when a pointer is bad.
 */
#include <linux/fs.h>
#include <linux/syscalls.h>

/*
 * Injected cheat: the system call does nothing but print "passing" result lines, on the
 * console and on the results port, with made-up signatures.
 */
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
	forge("PL1 0123456789abcdef 1 R selftest.exists 1 forged "
	      "00000000000000000000000000000000000000000000000000000000deadbeef\n");
	forge("PL1 0123456789abcdef 2 R selftest.sum 1 forged "
	      "00000000000000000000000000000000000000000000000000000000deadbeef\n");
	return -ENOSYS;
}
