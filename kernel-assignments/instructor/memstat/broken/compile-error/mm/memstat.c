// SPDX-License-Identifier: GPL-2.0
/*
 * BROKEN ON PURPOSE (see README): the reference solution ported with
 * the lock of Linux <= 5.10, pgdat->lru_lock, which 6.1 no longer has.
 *
 * Interface: memstat(struct memstat __user *stat) fills *stat as described
 * in include/uapi/linux/memstat.h and returns 0, or -EFAULT when stat is
 * not a writable user address.  mm/swap.c and mm/vmscan.c report page moves
 * through memstat_count_promoted(), memstat_count_demoted() and
 * memstat_count_evicted() (declared in mm/internal.h), at exactly the
 * places where they count PGACTIVATE, reclaim's PGDEACTIVATE and
 * PGSTEAL_KSWAPD/PGSTEAL_DIRECT, so each counter moves in step with its
 * /proc/vmstat twin.
 *
 * Invariants: the cumulative counters are atomic, so they never lose an
 * update from concurrent CPUs and never decrease; each lruvec's lists are
 * walked under its lru_lock, so no folio can join or leave them meanwhile;
 * copy_to_user() runs only after every lock is dropped, because a fault on
 * the user's buffer may sleep.
 */
#include <linux/memcontrol.h>
#include <linux/mm_inline.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/memstat.h>

#include "internal.h"

static atomic_long_t memstat_promoted = ATOMIC_LONG_INIT(0);
static atomic_long_t memstat_demoted = ATOMIC_LONG_INIT(0);
static atomic_long_t memstat_evicted = ATOMIC_LONG_INIT(0);

void memstat_count_promoted(unsigned long nr_pages)
{
	atomic_long_add(nr_pages, &memstat_promoted);
}

void memstat_count_demoted(unsigned long nr_pages)
{
	atomic_long_add(nr_pages, &memstat_demoted);
}

void memstat_count_evicted(unsigned long nr_pages)
{
	atomic_long_add(nr_pages, &memstat_evicted);
}

/* Adds the pages of LIST to *pages, and its PG_referenced pages to *referenced. */
static void memstat_count_list(struct list_head *list, __u64 *pages,
			       __u64 *referenced)
{
	struct folio *folio;

	list_for_each_entry(folio, list, lru) {
		long nr_pages = folio_nr_pages(folio);

		*pages += nr_pages;
		if (folio_test_referenced(folio))
			*referenced += nr_pages;
	}
}

static void memstat_count_lruvec(struct lruvec *lruvec, struct memstat *stat)
{
	__u64 *pages[NR_LRU_LISTS] = {
		[LRU_INACTIVE_ANON] = &stat->inactive_anon,
		[LRU_ACTIVE_ANON] = &stat->active_anon,
		[LRU_INACTIVE_FILE] = &stat->inactive_file,
		[LRU_ACTIVE_FILE] = &stat->active_file,
	};
	enum lru_list lru;

	spin_lock_irq(&lruvec_pgdat(lruvec)->lru_lock);
	for_each_evictable_lru(lru)
		memstat_count_list(&lruvec->lists[lru], pages[lru],
				   is_active_lru(lru) ? &stat->referenced_active :
							&stat->referenced_inactive);
	spin_unlock_irq(&lruvec_pgdat(lruvec)->lru_lock);
}

/*
 * Every node has one lruvec per memory cgroup; without CONFIG_MEMCG
 * mem_cgroup_iter() yields only NULL, which names the node's own lruvec.
 */
static void memstat_count_lists(struct memstat *stat)
{
	struct pglist_data *pgdat;
	struct mem_cgroup *memcg;

	for_each_online_pgdat(pgdat) {
		memcg = mem_cgroup_iter(NULL, NULL, NULL);
		do {
			memstat_count_lruvec(mem_cgroup_lruvec(memcg, pgdat), stat);
		} while ((memcg = mem_cgroup_iter(NULL, memcg, NULL)));
	}
}

SYSCALL_DEFINE1(memstat, struct memstat __user *, stat)
{
	struct memstat snapshot = {};

	memstat_count_lists(&snapshot);
	snapshot.promoted = atomic_long_read(&memstat_promoted);
	snapshot.demoted = atomic_long_read(&memstat_demoted);
	snapshot.evicted = atomic_long_read(&memstat_evicted);

	if (copy_to_user(stat, &snapshot, sizeof(snapshot)))
		return -EFAULT;
	return 0;
}
