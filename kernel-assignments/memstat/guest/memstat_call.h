/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memstat_call.h: how a user program calls memstat(2) (system call 451).
 *
 * Interface:
 *   struct memstat           the user struct, field for field as in the base
 *                            patch's include/uapi/linux/memstat.h (tests.py
 *                            refuses to load if the two ever differ)
 *   memstat(&stat)           0 on success, else -1 with errno set (ENOSYS
 *                            while the system call is a stub, EFAULT for a
 *                            bad pointer)
 *   memstat_raw(pointer)     the same call with any pointer, for the tests
 *                            that hand the kernel bad addresses on purpose
 *
 * All figures are base pages; promoted, demoted and evicted are cumulative
 * since boot.
 */
#ifndef MEMSTAT_CALL_H
#define MEMSTAT_CALL_H

#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

#define MEMSTAT_SYSCALL_NR 451	/* arch/x86/entry/syscalls/syscall_64.tbl */

struct memstat {
	uint64_t active_anon;
	uint64_t inactive_anon;
	uint64_t active_file;
	uint64_t inactive_file;
	uint64_t referenced_active;
	uint64_t referenced_inactive;
	uint64_t promoted;
	uint64_t demoted;
	uint64_t evicted;
};

static inline long memstat_raw(void *pointer)
{
	return syscall(MEMSTAT_SYSCALL_NR, pointer);
}

static inline long memstat(struct memstat *stat)
{
	return memstat_raw(stat);
}

#endif
