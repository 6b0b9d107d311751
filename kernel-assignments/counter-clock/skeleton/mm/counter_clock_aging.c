// SPDX-License-Identifier: GPL-2.0
/*
 * The aging half of the counter-based clock (pagelab's
 * counter-clock assignment).  Built as the loadable module counter_clock_aging.ko.
 *
 * Keep one counter per page frame of node 0 in this module's own table (struct
 * counter_clock_table, include/linux/counter_clock.h), from -COUNTER_CLOCK_MAX
 * to COUNTER_CLOCK_MAX, starting at 0, and attach the table so reclaim can read it.
 * Once a second, walk the four evictable lists of node 0 under lruvec->lru_lock:
 *
 *   PG_referenced was set  -> clear it, counter + 1 (at most  COUNTER_CLOCK_MAX)
 *   PG_referenced was clear ->          counter - 1 (at least -COUNTER_CLOCK_MAX)
 *
 * then report the walk with counter_clock_walked().  The walk holds a spinlock with
 * interrupts off: do it from a workqueue, not in the timer's callback.
 * Unloading must leave nothing behind that can still run or still be read.
 */
#include <linux/counter_clock.h>
#include <linux/module.h>

static int __init aging_init(void)
{
	/* TODO: allocate and attach the table, start the one-second timer */
	return 0;
}

static void __exit aging_exit(void)
{
	/* TODO: stop everything, detach the table, free it */
}

module_init(aging_init);
module_exit(aging_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("counter-based clock: per-page reference counters aged every second");
