// SPDX-License-Identifier: GPL-2.0
/*
 * selftest: guest checks for the pagelab_selftest() system call (number 452).
 *
 * Reports selftest.exists, selftest.sum, selftest.efault and selftest.einval as signed
 * results, and selftest.sum/total as a value the Python test compares itself.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pltest.h"

#define NR_PAGELAB_SELFTEST 452

static long pagelab_selftest(const uint64_t *values, unsigned int count, uint64_t *sum)
{
	return syscall(NR_PAGELAB_SELFTEST, values, count, sum);
}

static int check_exists(void)
{
	uint64_t sum = 1;
	long ret = pagelab_selftest(NULL, 0, &sum);

	if (ret < 0 && errno == ENOSYS) {
		pl_result("selftest.exists", 0, "pagelab_selftest() returned -ENOSYS:"
			  " the system call is not implemented yet");
		return 0;
	}
	pl_result("selftest.exists", ret == 0, "pagelab_selftest(NULL, 0, &sum) returned %ld%s%s",
		  ret, ret < 0 ? ", errno " : "", ret < 0 ? strerror(errno) : "");
	return ret == 0;
}

static void check_sum(void)
{
	uint64_t values[1000], sum = 0, expected = 0;
	unsigned int i;
	long ret;

	for (i = 0; i < 1000; i++) {
		values[i] = (uint64_t)i * 1000003u;
		expected += values[i];
	}
	ret = pagelab_selftest(values, 1000, &sum);
	pl_result("selftest.sum", ret == 0 && sum == expected,
		  "sum of 1000 values: returned %ld, sum %llu, expected %llu", ret,
		  (unsigned long long)sum, (unsigned long long)expected);
	pl_value("selftest.sum", "total", (long long)sum);
}

static void check_errors(void)
{
	uint64_t values[2] = { 1, 2 }, sum;
	long ret;

	ret = pagelab_selftest((const uint64_t *)16, 2, &sum);
	pl_result("selftest.efault", ret == -1 && errno == EFAULT,
		  "a bad values pointer gave %ld (errno %s), expected -EFAULT", ret,
		  ret < 0 ? strerror(errno) : "none");
	ret = pagelab_selftest(values, 100000, &sum);
	pl_result("selftest.einval", ret == -1 && errno == EINVAL,
		  "count 100000 gave %ld (errno %s), expected -EINVAL", ret,
		  ret < 0 ? strerror(errno) : "none");
}

int main(void)
{
	if (check_exists()) {
		check_sum();
		check_errors();
	}
	return 0;
}
