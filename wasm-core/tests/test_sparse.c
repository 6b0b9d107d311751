/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_sparse.c - PL_POLICY_SPARSE (policy.h) held to its word: a policy
 * that declares it runs with npages a bound far above the pages there
 * are, as a text file streamed before its pages are counted does
 * (input.c), in memory that grows with the pages referenced, and with
 * the same results as with the exact count.
 *
 * The bound is BOUND pages; touching even one byte a page of it would add
 * BOUND bytes to the resident set, eight times the SLACK allowed.  The
 * trace references DISTINCT pages, BOUND / DISTINCT times fewer.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "policy.h"
#include "support.h"
#include "splitmix64.h"

#define BOUND (1u << 25)
#define DISTINCT 5000u
#define REFS 200000u
#define FRAMES 1000u
#define SLACK (BOUND / 8)

/* Resident bytes of this process (/proc/self/statm), 0 if unknown. */
static uint64_t resident_bytes(void)
{
	unsigned long size, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * A trace of REFS references over DISTINCT pages (ids in first-seen order,
 * as every loaded trace has them): a new page every fourth reference
 * until there are DISTINCT, else one of those seen, a fifth of them
 * writes.  Its number[] has room for `npages` pages and says it has
 * that many.
 */
static void sparse_trace(struct pl_trace *t, uint32_t npages)
{
	uint64_t rng = 12;
	uint32_t seen = 0;

	*t = (struct pl_trace){ .n = REFS, .npages = npages };
	t->page = malloc(REFS * sizeof(*t->page));
	t->flags = calloc(REFS, 1);
	t->number = calloc(npages, sizeof(*t->number));
	if (!t->page || !t->flags || !t->number)
		test_abort("out of memory");
	for (uint32_t i = 0; i < REFS; i++) {
		uint64_t r = splitmix64_next(&rng);
		bool fresh = seen < DISTINCT && (!seen || r % 4 == 0);
		uint32_t page = fresh ? seen : (uint32_t)((r >> 8) % seen);

		if (fresh) {
			t->number[seen] = 1000 + 7 * (uint64_t)seen;
			seen++;
		}
		t->page[i] = page;
		t->flags[i] = (r >> 40) % 5 == 0 ? PL_REF_WRITE : 0;
	}
}

static void free_trace(struct pl_trace *t)
{
	free(t->page);
	free(t->flags);
	free(t->number);
}

/* Runs ops over t; *grew = the resident bytes the run added, before it is freed. */
static struct pl_stats run_over(const struct pl_policy_ops *ops, const struct pl_trace *t,
				uint64_t *grew)
{
	uint64_t before = resident_bytes(), after;
	struct pl_error err;
	struct pl_stats stats;
	struct pl_sim *sim = pl_sim_create(ops, FRAMES, NULL, t, 0, 0, &err);

	if (!sim)
		test_abort("%s: %s", ops->name, err.msg);
	pl_sim_run(sim, UINT32_MAX);
	if (pl_sim_error(sim))
		test_abort("%s: %s", ops->name, pl_sim_error(sim));
	after = resident_bytes();
	*grew = after > before ? after - before : 0;	/* an allocator may hand some back */
	stats = *pl_sim_stats(sim);
	pl_sim_destroy(sim);
	return stats;
}

/*
 * mglru's create() ages every page, wtinylfu's hashes every page number,
 * and lruk sizes its history log by npages, so that it compacts when
 * twice the pages' worth of evictions are logged: with a bound, memory
 * would grow with the evictions.
 */
TEST(lru_declares_itself_sparse_and_policies_whose_memory_follows_npages_do_not)
{
	CHECK(pl_policy_sparse(pl_policy_find("lru")));
	CHECK(pl_policy_sparse(pl_policy_find("fifo")));
	CHECK(!pl_policy_sparse(pl_policy_find("mglru")));
	CHECK(!pl_policy_sparse(pl_policy_find("wtinylfu")));
	CHECK(!pl_policy_sparse(pl_policy_find("lruk")));
}

TEST(a_sparse_policy_under_a_bound_of_32m_pages_gives_the_exact_results_in_little_memory)
{
	struct pl_trace exact, bounded;
	uint64_t grew, unused;

	sparse_trace(&exact, DISTINCT);
	sparse_trace(&bounded, BOUND);
	CHECK(resident_bytes() > 0);
	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];
		struct pl_stats want, got;

		if (!(ops->flags & PL_POLICY_SPARSE))
			continue;
		want = run_over(ops, &exact, &unused);
		got = run_over(ops, &bounded, &grew);
		if (grew >= SLACK || memcmp(&want, &got, sizeof(want)))
			printf("    %s: %llu KB more resident, misses %llu (exact %llu)\n",
			       ops->name, (unsigned long long)grew >> 10,
			       (unsigned long long)got.misses, (unsigned long long)want.misses);
		CHECK(grew < SLACK);
		CHECK(!memcmp(&want, &got, sizeof(want)));
	}
	free_trace(&exact);
	free_trace(&bounded);
}

int main(void)
{
	return run_tests();
}
