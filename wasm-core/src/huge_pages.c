/* SPDX-License-Identifier: GPL-2.0 */
/*
 * huge_pages.c - zeroed arrays in transparent huge pages (huge_pages.h).
 *
 * A mapping HUGE_PAGE larger than the array is made and cut down to the
 * aligned part, so that every 2 MB of the array can be one huge page
 * (huge_map(), which the event log's stream uses too).
 */
#define _GNU_SOURCE		/* MAP_ANONYMOUS, MADV_HUGEPAGE, mremap() */
#include <stdint.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "huge_pages.h"

#if defined(__linux__) && defined(MADV_HUGEPAGE)
static size_t huge_round(size_t bytes)
{
	return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *huge_map(size_t bytes, size_t *mapped)
{
	size_t len = huge_round(bytes);
	char *map, *p;

	if (!bytes || bytes > SIZE_MAX - 2 * HUGE_PAGE)
		return NULL;
	map = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (p > map)
		munmap(map, (size_t)(p - map));
	munmap(p + len, HUGE_PAGE - (size_t)(p - map));
	madvise(p, len, MADV_HUGEPAGE);
	*mapped = len;
	return p;	/* zeroed, as calloc() would */
}

void *huge_remap(void *p, size_t *mapped, size_t bytes)
{
	size_t len = huge_round(bytes);

	if (bytes > SIZE_MAX - 2 * HUGE_PAGE ||
	    (p = mremap(p, *mapped, len, MREMAP_MAYMOVE)) == MAP_FAILED)
		return NULL;
	madvise(p, len, MADV_HUGEPAGE);
	*mapped = len;
	return p;
}
#endif

void *huge_alloc(struct huge_array *a, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	if (bytes >= HUGE_PAGE)
		return a->p = huge_map(bytes, &a->mapped);
#endif
	a->mapped = 0;
	return a->p = calloc(bytes ? bytes : 1, 1);
}

void huge_free(struct huge_array *a)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	if (a->mapped) {
		munmap(a->p, a->mapped);
		a->p = NULL;
		a->mapped = 0;
		return;
	}
#endif
	free(a->p);
	a->p = NULL;
}
