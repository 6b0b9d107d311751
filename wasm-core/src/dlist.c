/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlist.c - allocation of the link array behind dlist.h's lists.
 */
#include <stdlib.h>

#include "dlist.h"

int pl_links_init(struct pl_links *links, uint32_t npages)
{
	/* one spare entry so that a trace without pages still gets buffers */
	links->link = malloc(((size_t)npages + 1) * sizeof(*links->link));
	return links->link ? 0 : -1;
}

void pl_links_free(struct pl_links *links)
{
	free(links->link);
	links->link = NULL;
}
