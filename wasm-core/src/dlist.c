/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlist.c - allocation of the link arrays behind dlist.h's lists.
 */
#include <stdlib.h>

#include "dlist.h"

int pl_links_init(struct pl_links *links, uint32_t npages)
{
	/* one spare entry so that a trace without pages still gets buffers */
	links->next = malloc(((size_t)npages + 1) * sizeof(*links->next));
	links->prev = malloc(((size_t)npages + 1) * sizeof(*links->prev));
	if (links->next && links->prev)
		return 0;
	pl_links_free(links);
	return -1;
}

void pl_links_free(struct pl_links *links)
{
	free(links->next);
	free(links->prev);
	links->next = links->prev = NULL;
}
