/* SPDX-License-Identifier: GPL-2.0 */
/*
 * huge_pages.h - zeroed arrays in transparent huge pages, for the few
 * large arrays that are touched at random from their first use on and
 * then read again and again (the per-page records of lruk, lirs, clockpro
 * and the Linux models), and the recorded event stream.
 *
 *	struct huge_array a;
 *	uint32_t *p = huge_alloc(&a, bytes);	(zeroed, or NULL)
 *	...
 *	huge_free(&a);				(the array p, whatever holds it)
 *
 * On Linux, an array of at least HUGE_PAGE bytes gets a mapping of its own,
 * aligned to HUGE_PAGE, with madvise(MADV_HUGEPAGE): its first touches then
 * cost one fault (a zeroed 2 MB page) per 512 that 4 KB pages would (this
 * host: 4 MB touched at random in 2 ms as 4 KB pages, 0.3 ms as two huge
 * pages), and random reads over it no page walk.  Why not malloc():
 * glibc maps large blocks itself, unaligned, without the advice, and a heap
 * that has been used is already mapped in 4 KB pages.  Smaller arrays, and
 * every other system (WebAssembly included), get calloc().  The kernel may
 * still give 4 KB pages (THP off, no free huge page): the array is the
 * same, only slower.
 *
 * Weigh the first touch: on a virtual machine that hands free memory back
 * to its host in 2 MB blocks (virtio-balloon free page reporting, as on
 * the machines pagelab is tested on), a fresh huge page is most often such
 * a block, and its first touch waits while the host faults in all 512
 * pages.  That pays where the array is then read again and again (the
 * records: `pagelab run` of lruk, clockpro and linux, runs 2 s apart, was
 * faster with them), not where it is touched once while the user waits
 * (a streamed run's page map and columns: 10-25 ms before its first batch,
 * src/cli/input.c).  The event stream is written once; its gain was
 * measured in bench, whose runs reuse memory just freed.
 */
#ifndef PAGELAB_HUGE_PAGES_H
#define PAGELAB_HUGE_PAGES_H

#include <stddef.h>

#define HUGE_PAGE ((size_t)2 << 20)

struct huge_array {
	void *p;
	size_t mapped;	/* bytes of the mapping that holds p, 0: from calloc() */
};

void *huge_alloc(struct huge_array *a, size_t bytes);
#ifdef __linux__
/*
 * The mapping huge_alloc() gives an array of HUGE_PAGE bytes or more, for
 * any `bytes` (at least one):
 * HUGE_PAGE-aligned, its length (*mapped) rounded up to HUGE_PAGE, advised
 * into huge pages, zeroed, reserving no swap; for callers that grow it
 * with mremap() and free it with munmap().  NULL if none.
 */
void *huge_map(size_t bytes, size_t *mapped);
/*
 * Such a mapping p (*mapped bytes) grown to hold `bytes` (mremap(), which
 * moves page tables rather than bytes), advised again; *mapped updated.
 * NULL if it cannot be, p then unchanged.
 */
void *huge_remap(void *p, size_t *mapped, size_t bytes);
#endif
void huge_free(struct huge_array *a);

#endif
