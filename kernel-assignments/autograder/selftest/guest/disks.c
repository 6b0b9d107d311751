// SPDX-License-Identifier: GPL-2.0
/*
 * disks: checks the machinery's guest environment rather than the student's code —
 * swap is on, the ext2 disk takes file pages, and several processes can report at once.
 *
 * Reports disks.swap, disks.ext2 and disks.child<N> (one per forked child).
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pltest.h"

#define CHILDREN 4

static long long meminfo_kib(const char *field)
{
	char line[256];
	long long value = -1;
	FILE *meminfo = fopen("/proc/meminfo", "r");

	while (meminfo && fgets(line, sizeof(line), meminfo))
		if (!strncmp(line, field, strlen(field)) && line[strlen(field)] == ':')
			sscanf(line + strlen(field) + 1, "%lld", &value);
	if (meminfo)
		fclose(meminfo);
	return value;
}

static void check_swap(void)
{
	long long swap = meminfo_kib("SwapTotal");

	pl_result("disks.swap", swap > 0, "SwapTotal is %lld kB", swap);
	pl_value("disks.swap", "kib", swap);
}

static void check_ext2(void)
{
	static char block[1 << 16];
	long long before = meminfo_kib("Inactive(file)"), after;
	FILE *file = fopen("/mnt/disk/pages", "w");
	int i;

	memset(block, 'p', sizeof(block));
	for (i = 0; file && i < 64; i++)
		fwrite(block, 1, sizeof(block), file);
	if (file)
		fclose(file);
	after = meminfo_kib("Inactive(file)");
	pl_result("disks.ext2", file && after > before,
		  "writing 4 MiB to /mnt/disk moved Inactive(file) from %lld to %lld kB",
		  before, after);
}

static void check_concurrent_reporting(void)
{
	int i;

	for (i = 0; i < CHILDREN; i++) {
		if (fork() == 0) {
			char id[32];

			snprintf(id, sizeof(id), "disks.child%d", i);
			pl_result(id, 1, "child %d reports on its own stream", i);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
}

int main(void)
{
	check_swap();
	check_ext2();
	check_concurrent_reporting();
	return 0;
}
