/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dlist.h - doubly linked lists of dense page ids, for policies.
 *
 * The links live in one array of {next, prev} pairs indexed by page id
 * (struct pl_links), and a list is just its head, tail and length (struct
 * pl_dlist).  A page's two links share 8 bytes, so unlinking a page that is
 * not in the cache costs one cache miss rather than two: with a large trace
 * most pages touched are not, and those misses are most of a reference's
 * cost.  Several lists
 * may share one pl_links as long as a page is in at most one of them at a
 * time (Linux's four LRU lists, ARC's T1/T2/B1/B2): moving a page between
 * them is remove + push, O(1), without allocation.
 *
 * Invariants: head/tail are PL_NONE exactly when len == 0; next[tail] and
 * prev[head] are PL_NONE; a page not in any list has undefined links (the
 * caller knows membership; these helpers do not check it).
 *
 * Iterate: for (p = list->head; p != PL_NONE; p = links->link[p].next).
 */
#ifndef PAGELAB_DLIST_H
#define PAGELAB_DLIST_H

#include "pagelab.h"
#include "policy.h"

struct pl_link {
	uint32_t next;	/* towards the tail */
	uint32_t prev;	/* towards the head */
};

struct pl_links {
	struct pl_link *link;	/* [npages] */
};

struct pl_dlist {
	uint32_t head, tail, len;
};

/*
 * Links kept in a policy's own per-page record instead of an array of
 * their own: a policy that keeps several things per page (LIRS: its place
 * in the stack S and in the queue Q, its state and last reference) then
 * touches one cache line per page, not one per array.  With a large trace
 * most pages touched are not in the cache, so that is most of the cost.
 * PL_RECORD_LINKS(records, member) names the link `member` of every record
 * of the array `records`; the pl_rdlist_*() helpers below work on such
 * links as the pl_dlist_*() ones on a struct pl_links (which are the same
 * helpers over records that are just a link).  Passed by value, with the
 * record's size a constant, they compile to the same code as an array.
 */
struct pl_record_links {
	char *first;	/* the link of page 0 */
	size_t size;	/* bytes from one page's link to the next's */
};

#define PL_RECORD_LINKS(records, member) \
	((struct pl_record_links){ (char *)&(records)[0].member, sizeof((records)[0]) })

static inline struct pl_link *pl_record_link(struct pl_record_links links, uint32_t page)
{
	return (struct pl_link *)(links.first + (size_t)page * links.size);
}

/* Allocates links for pages 0 .. npages-1; -1 when out of memory. */
int pl_links_init(struct pl_links *links, uint32_t npages);
void pl_links_free(struct pl_links *links);

static inline void pl_dlist_init(struct pl_dlist *list)
{
	list->head = list->tail = PL_NONE;
	list->len = 0;
}

static inline void pl_rdlist_push_head(struct pl_record_links links, struct pl_dlist *list,
				       uint32_t page)
{
	*pl_record_link(links, page) = (struct pl_link){ .next = list->head, .prev = PL_NONE };
	if (list->head != PL_NONE)
		pl_record_link(links, list->head)->prev = page;
	else
		list->tail = page;
	list->head = page;
	list->len++;
}

static inline void pl_rdlist_push_tail(struct pl_record_links links, struct pl_dlist *list,
				       uint32_t page)
{
	*pl_record_link(links, page) = (struct pl_link){ .next = PL_NONE, .prev = list->tail };
	if (list->tail != PL_NONE)
		pl_record_link(links, list->tail)->next = page;
	else
		list->head = page;
	list->tail = page;
	list->len++;
}

/* Unlinks `page`, which must be in `list`. */
static inline void pl_rdlist_remove(struct pl_record_links links, struct pl_dlist *list,
				    uint32_t page)
{
	struct pl_link at = *pl_record_link(links, page);

	if (at.prev != PL_NONE)
		pl_record_link(links, at.prev)->next = at.next;
	else
		list->head = at.next;
	if (at.next != PL_NONE)
		pl_record_link(links, at.next)->prev = at.prev;
	else
		list->tail = at.prev;
	list->len--;
}

/*
 * Moves `page`, which must be in `list` but not at its head, to the head:
 * remove + push_head in one, with the branches the precondition rules out
 * left out (LRU's hit).
 */
static inline void pl_rdlist_move_to_head(struct pl_record_links links, struct pl_dlist *list,
					  uint32_t page)
{
	struct pl_link at = *pl_record_link(links, page);

	pl_record_link(links, at.prev)->next = at.next;
	if (at.next != PL_NONE)
		pl_record_link(links, at.next)->prev = at.prev;
	else
		list->tail = at.prev;
	*pl_record_link(links, page) = (struct pl_link){ .next = list->head, .prev = PL_NONE };
	pl_record_link(links, list->head)->prev = page;
	list->head = page;
}

/*
 * For a list whose pages leave at its tail, when one has just left:
 * requests what taking the next will touch that no recent reference did --
 * the link of the neighbour that becomes the tail then (the tail's own was
 * requested this way the time before) and, for a list of resident pages
 * (ctx not NULL), the tail's residency byte, which the driver reads as it
 * evicts the page.  Each fault thus keeps the next one's lines coming; a
 * hit on a tail breaks the chain for one fault.
 */
static inline void pl_rdlist_request_tail(struct pl_record_links links,
					  const struct pl_dlist *list, const struct pl_ctx *ctx)
{
	uint32_t tail = list->tail;

	if (tail == PL_NONE)
		return;
	pl_request_line(pl_record_link(links, pl_page_or(pl_record_link(links, tail)->prev, tail)),
			1);
	if (ctx)
		pl_prefetch_state(ctx, tail);
}

/* The helpers over a struct pl_links: records that are just a link. */
static inline struct pl_record_links pl_links_as_records(const struct pl_links *links)
{
	return PL_RECORD_LINKS(links->link, next);
}

static inline void pl_dlist_push_head(struct pl_links *links, struct pl_dlist *list,
				      uint32_t page)
{
	pl_rdlist_push_head(pl_links_as_records(links), list, page);
}

static inline void pl_dlist_push_tail(struct pl_links *links, struct pl_dlist *list,
				      uint32_t page)
{
	pl_rdlist_push_tail(pl_links_as_records(links), list, page);
}

static inline void pl_dlist_remove(struct pl_links *links, struct pl_dlist *list,
				   uint32_t page)
{
	pl_rdlist_remove(pl_links_as_records(links), list, page);
}

static inline void pl_dlist_move_to_head(struct pl_links *links, struct pl_dlist *list,
					 uint32_t page)
{
	pl_rdlist_move_to_head(pl_links_as_records(links), list, page);
}

#endif /* PAGELAB_DLIST_H */
