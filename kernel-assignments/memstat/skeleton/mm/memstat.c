// SPDX-License-Identifier: GPL-2.0
/*
 * The memstat(2) system call (pagelab assignment).
 *
 * Interface: memstat(struct memstat __user *stat) fills *stat as described
 * in include/uapi/linux/memstat.h and returns 0, or -EFAULT when stat is
 * not a writable user address.  mm/swap.c and mm/vmscan.c report page moves
 * through memstat_count_promoted(), memstat_count_demoted() and
 * memstat_count_evicted() (declared in mm/internal.h).
 *
 * Invariants to keep: the cumulative counters never decrease and may be
 * bumped on several CPUs at once; an LRU list may be walked only under its
 * lruvec's lru_lock; copy_to_user() may fault and sleep, so it must never
 * run under that spinlock.
 *
 * The handout (kernel-assignments/memstat/handout.md) says where in
 * mm/swap.c and mm/vmscan.c the three counting functions must be called.
 */
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/memstat.h>

#include "internal.h"

void memstat_count_promoted(unsigned long nr_pages)
{
	/* TODO: add nr_pages to the cumulative promoted counter. */
}

void memstat_count_demoted(unsigned long nr_pages)
{
	/* TODO: add nr_pages to the cumulative demoted counter. */
}

void memstat_count_evicted(unsigned long nr_pages)
{
	/* TODO: add nr_pages to the cumulative evicted counter. */
}

/*
 * TODO: define the system call,
 *
 *	SYSCALL_DEFINE1(memstat, struct memstat __user *, stat)
 *
 * which walks the four evictable LRU lists of every lruvec under its
 * lru_lock, counting pages and PG_referenced pages; reads the three
 * counters; copies the result to user space; and returns 0 or -EFAULT.
 * Until it is defined, the base patch's entry in kernel/sys_ni.c makes
 * system call 451 answer "not implemented", like any system call this
 * kernel does not have.
 */
