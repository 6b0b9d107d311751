/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_linux.c - the Linux two-list model ("linux") and seed 000's hybrid
 * ("linux_rrip"): hand-worked traces with every list written out after
 * each reference, the folio_mark_accessed table, the counters, the
 * watermarks, refault detection, and random traces over a grid of
 * parameters checked against a naive model of the same rules, the
 * driver's invariants (a victim must be what evict() removes) and the
 * event replay.
 *
 * Lists are written head first, empty lists left out, each page as its
 * number followed by "r" if PG_referenced is set, "a" if its accessed bit
 * is set, and for linux_rrip "=N", its RRPV, on the active lists:
 *   "inactive_file: 8r 2; active_file: 6 5"
 * A page whose PG_active flag disagrees with its list is marked "!".
 */
#include "check.h"
#include "splitmix64.h"
#include "support.h"

/* linux_rrip's rrpv is field 3, before the two shadow fields both variants end with. */
static bool has_rrpv(const struct pl_snapshot *s)
{
	return s->nfields > 5;
}

static void append_page(char *buf, size_t size, const struct run *r,
			const struct pl_snapshot *s, unsigned entry, bool active_list)
{
	const int32_t *v = s->value + (size_t)entry * s->nfields;
	size_t len = strlen(buf);

	len += snprintf(buf + len, size - len, " %llu%s%s%s",
			(unsigned long long)r->trace.number[s->page[entry]],
			v[0] ? "r" : "", v[2] ? "a" : "", v[1] != active_list ? "!" : "");
	if (has_rrpv(s) && (active_list || v[3]))
		snprintf(buf + len, size - len, "=%d", v[3]);
}

/* The lists in the notation above. */
static const char *lists(const struct run *r)
{
	static char buf[1024];
	struct pl_snapshot s;
	unsigned entry = 0;

	pl_snapshot_init(&s, r->ops);
	if (pl_sim_snapshot(r->sim, &s))
		test_abort("no snapshot");
	buf[0] = 0;
	for (unsigned list = 0; list < 4; list++) {	/* the resident lists */
		if (!s.len[list])
			continue;
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s:", buf[0] ? "; " : "",
			 pl_policy_list_name(r->ops, list));
		for (unsigned i = 0; i < s.len[list]; i++, entry++)
			append_page(buf, sizeof(buf), r, &s, entry, list % 2);
	}
	pl_snapshot_free(&s);
	return buf;
}

/* Steps through refs, checking the lists after every reference. */
static void check_steps(const char *policy, uint32_t frames, const char *refs,
			const char *params, const char *const *expected, unsigned n,
			struct run *r)
{
	run_start(r, policy, frames, refs, params, 0);
	for (unsigned i = 0; i < n; i++) {
		run_step(r);
		CHECK_STR_EQ(lists(r), expected[i]);
	}
	CHECK_EQ(pl_sim_position(r->sim), r->trace.n);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------ hand-worked traces */

/*
 * File pages read with read() (mark_page_accessed), 4 frames, deactivation
 * one page at a time (batch=1) so every step shows one rule.
 */
TEST(read_file_pages_climb_by_mark_page_accessed_and_leave_by_the_inactive_tail)
{
	static const char *const expected[] = {
		/* 1: fault, inactive head, referenced by the read   */ "inactive_file: 1r",
		/* 2                                                  */ "inactive_file: 2r 1r",
		/* 3                                                  */ "inactive_file: 3r 2r 1r",
		/* 1: inactive,referenced -> active,unreferenced      */
		"inactive_file: 3r 2r; active_file: 1",
		/* 2: promoted too                                    */
		"inactive_file: 3r; active_file: 2 1",
		/* 4: a free frame is left, no reclaim                */
		"inactive_file: 4r 3r; active_file: 2 1",
		/* 5: full; inactive (2) is not low against active (2):
		 *    the inactive tail 3 has no PTE reference: evicted */
		"inactive_file: 5r 4r; active_file: 2 1",
		/* 5: promoted                                        */
		"inactive_file: 4r; active_file: 5 2 1",
		/* 1: active,unreferenced -> active,referenced        */
		"inactive_file: 4r; active_file: 5 2 1r",
		/* 6: inactive (1) is low against active (3): the active tail 1
		 *    is deactivated, keeping PG_referenced; tail 4 is evicted */
		"inactive_file: 6r 1r; active_file: 5 2",
		/* 7: 1 is evicted although referenced: without a PTE reference
		 *    folio_check_references() reclaims it (RECLAIM_CLEAN)   */
		"inactive_file: 7r 6r; active_file: 5 2",
		/* 6: promoted                                        */
		"inactive_file: 7r; active_file: 6 5 2",
		/* 8: low again: 2 deactivated; tail 7 evicted         */
		"inactive_file: 8r 2; active_file: 6 5",
	};
	struct run r;

	check_steps("linux", 4, "1 2 3 1 2 4 5 5 1 6 7 6 8", "anon_percent=0 batch=1",
		    expected, COUNT(expected), &r);
	CHECK_EQ(run_counter(&r, "pgactivate"), 4);
	CHECK_EQ(run_counter(&r, "promoted"), 4);
	CHECK_EQ(run_counter(&r, "pgdeactivate"), 2);
	CHECK_EQ(run_counter(&r, "demoted"), 2);
	CHECK_EQ(run_counter(&r, "pgrefill"), 2);
	CHECK_EQ(run_counter(&r, "pgscan_file"), 4);
	CHECK_EQ(run_counter(&r, "pgsteal_file"), 4);
	CHECK_EQ(run_counter(&r, "evicted"), 4);
	CHECK_EQ(run_counter(&r, "pgrotated"), 0);
	CHECK_EQ(run_counter(&r, "nr_inactive_file"), 2);
	CHECK_EQ(run_counter(&r, "nr_active_file"), 2);
	CHECK_EQ(run_counter(&r, "referenced_inactive"), 1);
	CHECK_EQ(run_counter(&r, "referenced_active"), 0);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 4);
	run_free(&r);
}

/*
 * Anonymous pages (mapped: references set the accessed bit only), 3
 * frames.  Reclaim sees references only through folio_referenced().
 */
TEST(mapped_anon_pages_need_two_looks_at_reclaim_before_activation)
{
	static const char *const expected[] = {
		/* 1: fault sets the accessed bit                      */ "inactive_anon: 1a",
		/* 2                                                   */ "inactive_anon: 2a 1a",
		/* 3                                                   */ "inactive_anon: 3a 2a 1a",
		/* 4: every page was accessed once: each is kept (bit
		 *    cleared, PG_referenced set, to the head), then the
		 *    second look finds 1 unaccessed and evicts it        */
		"inactive_anon: 4a 3r 2r",
		/* 2: a hit only sets the accessed bit                 */
		"inactive_anon: 4a 3r 2ra",
		/* 5: 2 is accessed and referenced: activated; 3 evicted */
		"inactive_anon: 5a 4a; active_anon: 2r",
		/* 6: 4 and 5 kept, then 4 evicted on the second look  */
		"inactive_anon: 6a 5r; active_anon: 2r",
		/* 2: the accessed bit of an active page                */
		"inactive_anon: 6a 5r; active_anon: 2ra",
		/* 7: 5 evicted                                        */
		"inactive_anon: 7a 6a; active_anon: 2ra",
	};
	struct run r;

	check_steps("linux", 3, "1 2 3 4 2 5 6 2 7", "anon_percent=100 batch=1", expected,
		    COUNT(expected), &r);
	CHECK_EQ(run_counter(&r, "pgactivate"), 1);
	CHECK_EQ(run_counter(&r, "promoted"), 0);
	CHECK_EQ(run_counter(&r, "pgrotated"), 5);
	CHECK_EQ(run_counter(&r, "pgscan_anon"), 10);
	CHECK_EQ(run_counter(&r, "pgsteal_anon"), 4);
	CHECK_EQ(run_counter(&r, "pgscan_file"), 0);
	run_free(&r);
}

/*
 * Seed 000's hybrid, 2-bit RRPVs, 4 frames, batch=1: promotion at max - 1
 * = 2, a read of an active page sets 0, isolation ages the active list
 * until the tail is at max = 3.
 */
TEST(the_hybrid_promotes_at_two_zeroes_on_an_active_hit_and_ages_at_isolation)
{
	static const char *const expected[] = {
		/* 1                                                   */ "inactive_file: 1r",
		/* 2                                                   */ "inactive_file: 2r 1r",
		/* 1: promoted at RRPV max - 1                         */
		"inactive_file: 2r; active_file: 1=2",
		/* 2: promoted                                         */
		"active_file: 2=2 1=2",
		/* 3                                                   */
		"inactive_file: 3r; active_file: 2=2 1=2",
		/* 4                                                   */
		"inactive_file: 4r 3r; active_file: 2=2 1=2",
		/* 1: a hit while active: RRPV 0 (and PG_referenced)    */
		"inactive_file: 4r 3r; active_file: 2=2 1r=0",
		/* 5: not low (2 against 2): 3 evicted                  */
		"inactive_file: 5r 4r; active_file: 2=2 1r=0",
		/* 6: 4 evicted                                        */
		"inactive_file: 6r 5r; active_file: 2=2 1r=0",
		/* 6: promoted                                         */
		"inactive_file: 5r; active_file: 6=2 2=2 1r=0",
		/* 7: low (1 against 3): isolation takes the tail and rotates
		 *    it with RRPV + 1 (1, 2, 6, 1) until 2 reaches 3 and is
		 *    deactivated; then the inactive tail 5 is evicted      */
		"inactive_file: 7r 2; active_file: 1r=2 6=3",
		/* 8: not low: 2 evicted                               */
		"inactive_file: 8r 7r; active_file: 1r=2 6=3",
	};
	struct run r;

	check_steps("linux_rrip", 4, "1 2 1 2 3 4 1 5 6 6 7 8", "anon_percent=0 batch=1",
		    expected, COUNT(expected), &r);
	CHECK_EQ(run_counter(&r, "pgrefill"), 5);
	CHECK_EQ(run_counter(&r, "pgdeactivate"), 1);
	run_free(&r);
}

TEST(shrink_active_list_deactivates_a_whole_batch_when_the_inactive_list_is_low)
{
	struct run r;

	run_start(&r, "linux", 6, "1 1 2 2 3 3 4 5 6 7", "anon_percent=0 batch=2", 0);
	pl_sim_run(r.sim, 9);
	CHECK_STR_EQ(lists(&r), "inactive_file: 6r 5r 4r; active_file: 3 2 1");
	/*
	 * 7 finds memory full: reclaim frees a batch of 2.  First pass:
	 * inactive (3) is not low against active (3), tail 4 goes.  Second
	 * pass: 2 against 3 is low, so 2 active pages are deactivated, tail
	 * first (1, then 2), and tail 5 goes.
	 */
	run_step(&r);
	CHECK_STR_EQ(lists(&r), "inactive_file: 7r 2 1 6r; active_file: 3");
	CHECK_EQ(run_counter(&r, "pgrefill"), 2);
	CHECK_EQ(run_counter(&r, "pgdeactivate"), 2);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 2);
	run_free(&r);
}

/*
 * Fills memory with `active` pages read twice (active) and active / 2 pages
 * read once (inactive), then faults once more; returns pgdeactivate.
 */
static uint64_t deactivations_after_one_more_fault(uint32_t active)
{
	uint32_t inactive = active / 2, frames = active + inactive;
	size_t size = (size_t)(2 * active + inactive + 1) * 8, len = 0;
	char *refs = malloc(size);
	uint64_t deactivated;
	struct run r;

	if (!refs)
		test_abort("out of memory for %zu bytes of references", size);
	for (uint32_t page = 0; page < active; page++)
		len += snprintf(refs + len, size - len, "%u %u ", page, page);
	for (uint32_t page = active; page <= frames; page++)
		len += snprintf(refs + len, size - len, "%u ", page);
	run_start(&r, "linux", frames, refs, "anon_percent=0 batch=1", 0);
	run_to_end(&r);
	deactivated = run_counter(&r, "pgdeactivate");
	run_free(&r);
	free(refs);
	return deactivated;
}

TEST(inactive_is_low_wants_one_inactive_page_per_active_one_below_1_gb)
{
	/* 3000 frames: ratio 1, and 1000 inactive < 2000 active is low */
	CHECK_EQ(deactivations_after_one_more_fault(2000), 1);
}

TEST(inactive_is_low_accepts_three_active_pages_per_inactive_one_from_1_gb)
{
	/* 300000 4 KiB frames (1.1 GB): ratio int_sqrt(10) = 3, 100000 * 3 >= 200000 */
	CHECK_EQ(deactivations_after_one_more_fault(200000), 0);
}

/*
 * Refault detection: 1 and 2 are active; 3 is evicted, and refaults after
 * one more eviction: its refault distance (2 ticks of nonresident_age: the
 * eviction of 3 and of 4) fits in the working set (2 active pages), so it
 * comes back straight to the active list.
 */
TEST(a_page_refaulting_within_the_working_set_comes_back_active)
{
	const char *refs = "1 1 2 2 3 4 5 3";
	const char *on = "anon_percent=0 batch=1", *off = "anon_percent=0 batch=1 workingset=0";

	CHECK_STR_EQ(final_list("linux", 4, refs, on, "active_file"), "3 2 1");
	CHECK_STR_EQ(final_list("linux", 4, refs, on, "inactive_file"), "5");
	CHECK_EQ(final_counter("linux", 4, refs, on, "workingset_refault"), 1);
	CHECK_EQ(final_counter("linux", 4, refs, on, "workingset_activate"), 1);
	CHECK_STR_EQ(final_list("linux", 4, refs, off, "inactive_file"), "3 5");
	CHECK_EQ(final_counter("linux", 4, refs, off, "workingset_refault"), 0);
}

TEST(a_page_refaulting_after_more_evictions_than_the_working_set_comes_back_inactive)
{
	/* after 3's eviction 4 5 6 7 are evicted too: distance 5 > 2 active pages */
	const char *refs = "1 1 2 2 3 4 5 6 7 8 3", *params = "anon_percent=0 batch=1";

	CHECK_STR_EQ(final_list("linux", 4, refs, params, "inactive_file"), "3 8");
	CHECK_EQ(final_counter("linux", 4, refs, params, "workingset_refault"), 1);
	CHECK_EQ(final_counter("linux", 4, refs, params, "workingset_activate"), 0);
}

/* ------------------------------------------------------- single rules */

TEST(a_file_page_read_four_times_walks_the_folio_mark_accessed_table)
{
	static const char *const expected[] = {
		"inactive_file: 1r",	/* inactive,referenced */
		"active_file: 1",	/* active,unreferenced */
		"active_file: 1r",	/* active,referenced */
		"active_file: 1r",	/* stays */
	};
	struct run r;

	check_steps("linux", 8, "1 1 1 1", "anon_percent=0", expected, COUNT(expected), &r);
	run_free(&r);
}

TEST(mapped_file_pages_only_set_the_accessed_bit)
{
	CHECK_STR_EQ(final_describe("linux", 8, "1 1 1", "anon_percent=0 file_access=mapped"),
		     "inactive_anon:; active_anon:; inactive_file: 1(accessed=1); active_file:; shadow:");
}

/* The SET of field `field` on `page` among the events of `step`, or -1. */
static int32_t value_set_in_step(const struct run *r, uint32_t step, uint32_t page, unsigned field)
{
	uint32_t count;
	const struct pl_event *ev = pl_sim_events(r->sim, step, step + 1, &count);

	for (uint32_t i = 0; i < count; i++)
		if (ev[i].kind == PL_EV_SET && ev[i].page == page && ev[i].arg == field)
			return ev[i].b;
	return -1;
}

TEST(an_evicted_page_leaves_a_shadow_entry_that_its_refault_consumes)
{
	struct run r;

	/* File pages read by syscall arrive referenced, not accessed: reclaimed in order. */
	run_start(&r, "linux", 2, "1 2 3 1", "anon_percent=0 batch=1", PL_SIM_RECORD);
	run_step(&r);
	run_step(&r);
	run_step(&r);	/* 3 evicts 1 at age 0 */
	CHECK_STR_EQ(run_list(&r, "shadow"), "1");
	CHECK_STR_EQ(run_describe(&r), "inactive_anon:; active_anon:; inactive_file: 3(referenced=1) "
		     "2(referenced=1); active_file:; shadow: 1");
	run_step(&r);	/* 1 evicts 2 at age 1, then refaults: distance 2 - 0 */
	CHECK_STR_EQ(run_list(&r, "shadow"), "2");
	/* dense ids: page 1 is 0, page 2 is 1 */
	CHECK_EQ(value_set_in_step(&r, 3, 0, 4), 2);	/* refault_distance */
	CHECK_EQ(value_set_in_step(&r, 3, 1, 3), 1);	/* eviction */
	CHECK_EQ(run_counter(&r, "workingset_refault"), 1);
	run_free(&r);
}

TEST(the_shadow_list_keeps_only_entries_that_could_still_activate)
{
	CHECK_STR_EQ(final_list("linux", 2, "1 2 3 4 5 6", "anon_percent=0 batch=1", "shadow"),
		     "4 3");
	CHECK_STR_EQ(final_list("linux", 2, "1 2 3 4 5 6", "anon_percent=0 batch=1 workingset=0",
				"shadow"), "");
}

TEST(a_fault_on_full_memory_reclaims_a_whole_batch)
{
	struct run r;

	run_start(&r, "linux", 8, "1 2 3 4 5 6 7 8 9 10 11 12 13", "batch=4", 0);
	pl_sim_run(r.sim, 8);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 0);
	/* 9: memory full, 4 frames freed; 10, 11, 12 find free frames */
	pl_sim_run(r.sim, 4);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 4);
	CHECK_EQ(pl_sim_resident(r.sim), 8);
	run_step(&r);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 8);
	CHECK_EQ(pl_sim_resident(r.sim), 5);
	run_free(&r);
}

TEST(reclaim_never_frees_more_than_is_resident)
{
	/* a batch of 32 in a 3-frame memory empties it */
	CHECK_EQ(simulate("linux", 3, "1 2 3 4", "batch=32").evictions, 3);
	CHECK_EQ(simulate("linux", 3, "1 2 3 4", "batch=1").evictions, 1);
}

TEST(the_default_batch_frees_one_page_in_a_small_memory_and_32_in_a_large_one)
{
	char refs[16384];
	int len = 0;

	for (int page = 1; page <= 2049; page++)
		len += snprintf(refs + len, sizeof(refs) - len, "%d ", page);
	CHECK_EQ(simulate("linux", 3, "1 2 3 4", NULL).evictions, 1);
	/* 2049 distinct pages: memory fills at 2048, frames/64 = 32 */
	CHECK_EQ(simulate("linux", 2048, refs, NULL).evictions, 32);
}

TEST(reclaim_starts_at_the_low_watermark_and_frees_up_to_the_high_one)
{
	struct run r;

	run_start(&r, "linux", 8, "1 2 3 4 5 6 7 8 9", "wmark_low=1 wmark_high=2 batch=1", 0);
	pl_sim_run(r.sim, 7);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 0);
	/* the 8th fault finds 1 frame free: reclaim leaves 2 free after it */
	run_step(&r);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 2);
	CHECK_EQ(pl_sim_resident(r.sim), 6);
	/* the 9th finds 2 free: above the low watermark, no reclaim */
	run_step(&r);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 2);
	run_free(&r);
	/* in batches of 3, the 8th fault frees 3 frames instead of 2 */
	run_start(&r, "linux", 8, "1 2 3 4 5 6 7 8", "wmark_low=1 wmark_high=2 batch=3", 0);
	run_to_end(&r);
	CHECK_EQ(pl_sim_stats(r.sim)->evictions, 3);
	run_free(&r);
}

TEST(anon_percent_splits_pages_between_the_anon_and_file_lists)
{
	char refs[1000 * 5] = "";
	size_t len = 0;

	for (int page = 0; page < 1000; page++)
		len += snprintf(refs + len, sizeof(refs) - len, "%d ", page);
	CHECK_EQ(final_counter("linux", 1000, refs, "anon_percent=0", "nr_inactive_anon"), 0);
	CHECK_EQ(final_counter("linux", 1000, refs, "anon_percent=100", "nr_inactive_file"), 0);
	uint64_t anon = final_counter("linux", 1000, refs, NULL, "nr_inactive_anon");

	CHECK(anon > 420 && anon < 580);
}

TEST(with_swappiness_0_reclaim_takes_an_anon_page_only_when_no_file_page_is_left)
{
	struct run r;
	uint64_t rng = 7;
	char refs[20000];
	size_t len = 0;
	unsigned anon_steals_with_file_pages = 0;

	for (int i = 0; i < 3000; i++)
		len += snprintf(refs + len, sizeof(refs) - len, "%u ",
				splitmix64_below(splitmix64_next(&rng), 200));
	run_start(&r, "linux", 32, refs, "swappiness=0 batch=1", 0);
	while (pl_sim_position(r.sim) < r.trace.n) {
		uint64_t file_pages = run_counter(&r, "nr_inactive_file") +
				      run_counter(&r, "nr_active_file");
		uint64_t anon_steals = run_counter(&r, "pgsteal_anon");

		run_step(&r);
		if (run_counter(&r, "pgsteal_anon") > anon_steals && file_pages)
			anon_steals_with_file_pages++;
	}
	CHECK(run_counter(&r, "pgsteal_file") > 100);
	CHECK(run_counter(&r, "pgsteal_anon") > 100);
	CHECK_EQ(anon_steals_with_file_pages, 0);
	run_free(&r);
}

/* ---------------------------------------- random traces, parameter grid */

/* Runs one trace recording; returns the steps where replay != snapshot. */
static unsigned replay_mismatches(const char *policy, uint32_t frames, const char *refs,
				  const char *params)
{
	struct pl_snapshot live, replayed;
	unsigned bad = 0;
	struct run r;

	run_start(&r, policy, frames, refs, params, PL_SIM_RECORD);
	pl_snapshot_init(&live, r.ops);
	pl_snapshot_init(&replayed, r.ops);
	for (uint32_t step = 0; step < r.trace.n; step++) {
		uint32_t count;
		const struct pl_event *ev;

		run_step(&r);
		ev = pl_sim_events(r.sim, step, step + 1, &count);
		for (uint32_t i = 0; i < count; i++)
			bad += pl_snapshot_apply(&replayed, &ev[i]) != 0;
		pl_sim_snapshot(r.sim, &live);
		bad += !pl_snapshot_equal(&live, &replayed);
	}
	if (bad)
		printf("    %s, %u frames, \"%s\", refs \"%s\": %u bad steps\n", policy, frames,
		       params, refs, bad);
	pl_snapshot_free(&live);
	pl_snapshot_free(&replayed);
	run_free(&r);
	return bad;
}

/*
 * A deliberately naive Linux model, written from lru_lists.c's header and
 * not from its code: lists are arrays (index 0 = head) shifted with
 * memmove, every rule a few plain lines.  Only the anon/file split is taken
 * from the simulator (it is an input, a hash, not a rule).
 */
#define NAIVE_PAGES 64

struct naive_params {
	uint32_t frames, batch, swappiness, wmark_low, wmark_high;
	int anon_percent, rrpv_max;	/* rrpv_max 0: stock linux */
	bool mapped, workingset;
};

struct naive_linux {
	struct naive_params p;
	uint32_t list[5][NAIVE_PAGES], len[5];	/* 4: shadow, newest first */
	int where[NAIVE_PAGES];		/* list, or -1 */
	int ref[NAIVE_PAGES], accessed[NAIVE_PAGES], rrpv[NAIVE_PAGES];
	bool file[NAIVE_PAGES];
	uint64_t shadow[NAIVE_PAGES], age, scanned;
	int64_t credit[2];
};

static void naive_unlink(struct naive_linux *n, uint32_t page)
{
	int l = n->where[page];

	for (uint32_t i = 0; i < n->len[l]; i++) {
		if (n->list[l][i] == page) {
			memmove(&n->list[l][i], &n->list[l][i + 1],
				(n->len[l] - i - 1) * sizeof(uint32_t));
			n->len[l]--;
			break;
		}
	}
	n->where[page] = -1;
}

static void naive_push_head(struct naive_linux *n, uint32_t page, int l)
{
	if (n->where[page] >= 0)
		naive_unlink(n, page);
	memmove(&n->list[l][1], &n->list[l][0], n->len[l] * sizeof(uint32_t));
	n->list[l][0] = page;
	n->len[l]++;
	n->where[page] = l;
}

static int naive_inactive(const struct naive_linux *n, uint32_t page)
{
	return n->file[page] ? 2 : 0;
}

static void naive_activate(struct naive_linux *n, uint32_t page)
{
	naive_push_head(n, page, naive_inactive(n, page) + 1);
	n->age++;
	if (n->p.rrpv_max)
		n->rrpv[page] = n->p.rrpv_max - 1;
}

static void naive_touch(struct naive_linux *n, uint32_t page)
{
	bool was_active = n->where[page] % 2;

	if (!n->file[page] || n->p.mapped) {
		n->accessed[page] = 1;
		return;
	}
	if (!n->ref[page]) {
		n->ref[page] = 1;
	} else if (!was_active) {
		naive_activate(n, page);
		n->ref[page] = 0;
	}
	if (was_active && n->p.rrpv_max)
		n->rrpv[page] = 0;
}

static void naive_deactivate_some(struct naive_linux *n, int inactive)
{
	uint32_t nr = n->len[inactive + 1] < n->p.batch ? n->len[inactive + 1] : n->p.batch;

	while (nr) {
		uint32_t page = n->list[inactive + 1][n->len[inactive + 1] - 1];

		if (n->p.rrpv_max && n->rrpv[page] < n->p.rrpv_max) {
			n->rrpv[page]++;
			naive_push_head(n, page, inactive + 1);
			continue;
		}
		n->accessed[page] = 0;
		n->rrpv[page] = 0;
		naive_push_head(n, page, inactive);
		nr--;
	}
}

static uint32_t naive_pages(const struct naive_linux *n, int inactive)
{
	return n->len[inactive] + n->len[inactive + 1];
}

static int naive_pick_type(struct naive_linux *n)
{
	int64_t w_anon = (int64_t)naive_pages(n, 0) * n->p.swappiness;
	int64_t w_file = (int64_t)naive_pages(n, 2) * (200 - n->p.swappiness);
	int inactive;

	if (!naive_pages(n, 0))
		return 2;
	if (!naive_pages(n, 2))
		return 0;
	inactive = n->credit[0] + w_anon > n->credit[1] + w_file ? 0 : 2;
	n->credit[0] += w_anon;
	n->credit[1] += w_file;
	n->credit[inactive / 2] -= w_anon + w_file;
	return inactive;
}

static bool naive_inactive_is_low(const struct naive_linux *n, int inactive)
{
	return n->len[inactive] < n->len[inactive + 1];	/* ratio 1 below 1 GB */
}

/* The shadow list: an eviction's entry at the head, the oldest beyond `frames` dropped. */
static void naive_shadow_push(struct naive_linux *n, uint32_t page)
{
	memmove(&n->list[4][1], &n->list[4][0], n->len[4] * sizeof(uint32_t));
	n->list[4][0] = page;
	if (++n->len[4] > n->p.frames)
		n->len[4]--;
}

static void naive_shadow_remove(struct naive_linux *n, uint32_t page)
{
	for (uint32_t i = 0; i < n->len[4]; i++) {
		if (n->list[4][i] == page) {
			memmove(&n->list[4][i], &n->list[4][i + 1],
				(n->len[4] - i - 1) * sizeof(uint32_t));
			n->len[4]--;
			return;
		}
	}
}

static void naive_evict_one(struct naive_linux *n)
{
	int inactive = naive_pick_type(n);

	if (naive_inactive_is_low(n, inactive))
		naive_deactivate_some(n, inactive);
	for (;;) {
		uint32_t page;

		if (!n->len[inactive])
			naive_deactivate_some(n, inactive);
		page = n->list[inactive][n->len[inactive] - 1];
		if (!n->accessed[page]) {
			naive_unlink(n, page);
			n->ref[page] = n->accessed[page] = n->rrpv[page] = 0;
			n->shadow[page] = ++n->age;
			if (n->p.workingset)
				naive_shadow_push(n, page);
			return;
		}
		n->accessed[page] = 0;
		if (n->ref[page]) {
			naive_activate(n, page);
		} else {
			n->ref[page] = 1;
			naive_push_head(n, page, inactive);
		}
	}
}

static uint32_t naive_resident(const struct naive_linux *n)
{
	return n->len[0] + n->len[1] + n->len[2] + n->len[3];
}

static void naive_fault(struct naive_linux *n, uint32_t page)
{
	uint32_t resident = naive_resident(n), free_frames = n->p.frames - resident;
	uint32_t high = n->p.wmark_high > n->p.wmark_low ? n->p.wmark_high : n->p.wmark_low;

	if (free_frames <= n->p.wmark_low) {
		uint64_t goal = high + 1 - free_frames;

		goal = (goal + n->p.batch - 1) / n->p.batch * n->p.batch;
		for (uint64_t i = 0; i < goal && i < resident; i++)
			naive_evict_one(n);
	}
	if (n->p.workingset && n->shadow[page]) {
		uint64_t distance = n->age - (n->shadow[page] - 1);
		uint32_t size = n->len[1] + n->len[3] + n->len[n->file[page] ? 0 : 2];

		n->shadow[page] = 0;
		naive_shadow_remove(n, page);
		if (distance <= size) {
			naive_push_head(n, page, naive_inactive(n, page) + 1);
			n->age++;
			if (n->p.rrpv_max)
				n->rrpv[page] = n->p.rrpv_max - 1;
			naive_touch(n, page);
			return;
		}
	}
	naive_push_head(n, page, naive_inactive(n, page));
	naive_touch(n, page);
}

/* The simulator's lists and memstat gauges against the naive ones; returns the mismatches. */
static unsigned naive_compare(const struct run *r, const struct naive_linux *n)
{
	uint64_t referenced[2] = { 0, 0 };	/* inactive, active */
	struct pl_snapshot s;
	unsigned bad = 0, entry = 0;

	for (int l = 0; l < 4; l++)
		for (uint32_t i = 0; i < n->len[l]; i++)
			referenced[l % 2] += n->ref[n->list[l][i]];
	bad += run_counter(r, "referenced_inactive") != referenced[0];
	bad += run_counter(r, "referenced_active") != referenced[1];

	pl_snapshot_init(&s, r->ops);
	pl_sim_snapshot(r->sim, &s);
	for (int l = 0; l < 4; l++) {
		bad += s.len[l] != n->len[l];
		for (uint32_t i = 0; i < s.len[l] && i < n->len[l]; i++, entry++) {
			const int32_t *v = s.value + (size_t)(entry) * s.nfields;
			uint32_t page = n->list[l][i];

			bad += r->trace.number[s.page[entry]] != page;
			bad += v[0] != n->ref[page] || v[1] != l % 2 || v[2] != n->accessed[page];
			bad += has_rrpv(&s) && v[3] != n->rrpv[page];
		}
		entry += s.len[l] > n->len[l] ? s.len[l] - n->len[l] : 0;
	}
	bad += s.len[4] != n->len[4];
	for (uint32_t i = 0; i < s.len[4] && i < n->len[4]; i++, entry++) {
		uint32_t page = n->list[4][i];

		bad += r->trace.number[s.page[entry]] != page;
		bad += s.value[(size_t)entry * s.nfields + s.nfields - 2] !=
		       (int32_t)(n->shadow[page] - 1);
	}
	pl_snapshot_free(&s);
	return bad;
}

/* Where the simulator put a page it just faulted in tells its type. */
static bool sim_says_file(const struct run *r, uint32_t number)
{
	struct pl_snapshot s;
	unsigned entry = 0;
	bool file = false;

	pl_snapshot_init(&s, r->ops);
	pl_sim_snapshot(r->sim, &s);
	for (unsigned l = 0; l < s.nlists; l++)
		for (uint32_t i = 0; i < s.len[l]; i++, entry++)
			if (r->trace.number[s.page[entry]] == number && l < 4)
				file = l >= 2;
	pl_snapshot_free(&s);
	return file;
}

static unsigned naive_mismatches(const char *policy, const struct naive_params *p,
				 const uint32_t *pages, uint32_t len, const char *refs,
				 const char *params)
{
	struct naive_linux n = { .p = *p };
	bool seen[NAIVE_PAGES] = { false };
	unsigned bad = 0;
	struct run r;

	memset(n.where, -1, sizeof(n.where));
	run_start(&r, policy, p->frames, refs, params, 0);
	for (uint32_t i = 0; i < len; i++) {
		uint32_t page = pages[i];
		uint64_t hits = pl_sim_stats(r.sim)->hits;
		bool naive_hit = n.where[page] >= 0;

		run_step(&r);
		if (!seen[page])
			n.file[page] = sim_says_file(&r, page);
		seen[page] = true;
		if (naive_hit)
			naive_touch(&n, page);
		else
			naive_fault(&n, page);
		bad += naive_hit != (pl_sim_stats(r.sim)->hits > hits);
		bad += naive_compare(&r, &n);
	}
	if (bad)
		printf("    naive %s, %u frames, \"%s\", refs \"%s\": %u mismatches\n", policy,
		       p->frames, params, refs, bad);
	run_free(&r);
	return bad;
}

/* One random trace with the parameters of combination `combo` of the grid. */
static unsigned grid_trace(const char *policy, int rrpv_bits, unsigned combo, unsigned t,
			   uint64_t *rng)
{
	static const uint32_t batch[] = { 1, 2, 32 };
	static const uint32_t swappiness[] = { 0, 60, 200 };
	static const int anon[] = { 0, 50, 100 };
	static const uint32_t wmarks[][2] = { { 0, 0 }, { 1, 3 } };
	static const uint32_t frames[] = { 1, 2, 3, 5, 8 };
	struct naive_params p = {
		.frames = frames[(combo * 8 + t) % COUNT(frames)],
		.batch = batch[combo % 3],
		.swappiness = swappiness[combo / 3 % 3],
		.mapped = combo / 9 % 2,
		.anon_percent = anon[combo / 18 % 3],
		.wmark_low = wmarks[combo / 54 % 2][0],
		.wmark_high = wmarks[combo / 54 % 2][1],
		.rrpv_max = rrpv_bits ? (1 << rrpv_bits) - 1 : 0,
		.workingset = t % 2,
	};
	char params[256], refs[4096];
	uint32_t pages[150];
	size_t at = 0;

	snprintf(params, sizeof(params), "batch=%u swappiness=%u file_access=%s "
		 "anon_percent=%d wmark_low=%u wmark_high=%u workingset=%d", p.batch,
		 p.swappiness, p.mapped ? "mapped" : "syscall", p.anon_percent, p.wmark_low,
		 p.wmark_high, p.workingset);
	if (rrpv_bits)
		snprintf(params + strlen(params), sizeof(params) - strlen(params),
			 " rrpv_bits=%d", rrpv_bits);
	for (unsigned i = 0; i < COUNT(pages); i++) {
		pages[i] = splitmix64_below(splitmix64_next(rng), 4 + t * 3);
		at += snprintf(refs + at, sizeof(refs) - at, "%u%s ", pages[i],
			       splitmix64_below(splitmix64_next(rng), 4) ? "" : "w");
	}
	return replay_mismatches(policy, p.frames, refs, params) +
	       naive_mismatches(policy, &p, pages, COUNT(pages), refs, params);
}

/*
 * 108 combinations (batch x swappiness x file_access x anon_percent x
 * watermarks), 8 traces each, over 4 to 25 distinct pages and 1 to 8
 * frames, workingset alternating; returns the traces that went wrong.
 */
static unsigned grid(const char *policy, int rrpv_bits)
{
	uint64_t rng = 42;
	unsigned failures = 0;

	for (unsigned combo = 0; combo < 108 && failures < 3; combo++)
		for (unsigned t = 0; t < 8; t++)
			failures += grid_trace(policy, rrpv_bits, combo, t, &rng) != 0;
	return failures;
}

TEST(linux_matches_a_naive_model_and_its_own_replay_over_a_parameter_grid)
{
	CHECK_EQ(grid("linux", 0), 0);
}

/*
 * Page 0 is evicted once and never comes back, so its entry stays the
 * oldest while pages 1-4 take turns in 3 frames, each refault consuming
 * the entry the eviction before left: over 100 evictions pass over an
 * entry that stays, and the list is right at every step, recorded or not.
 */
TEST(the_shadow_list_keeps_an_old_entry_while_many_newer_ones_refault)
{
	struct naive_params p = { .frames = 3, .batch = 1, .swappiness = 60,
				  .anon_percent = 100, .workingset = true };
	const char *params = "batch=1 anon_percent=100 workingset=1";
	uint32_t pages[121] = { 0 };
	char refs[512];
	size_t at = snprintf(refs, sizeof(refs), "0 ");

	for (unsigned i = 1; i < COUNT(pages); i++) {
		pages[i] = 1 + (i - 1) % 4;
		at += snprintf(refs + at, sizeof(refs) - at, "%u ", pages[i]);
	}
	CHECK_EQ(naive_mismatches("linux", &p, pages, COUNT(pages), refs, params), 0);
	CHECK_EQ(replay_mismatches("linux", p.frames, refs, params), 0);
}

TEST(the_hybrid_matches_a_naive_model_and_its_own_replay_over_a_parameter_grid)
{
	CHECK_EQ(grid("linux_rrip", 1), 0);
	CHECK_EQ(grid("linux_rrip", 2), 0);
	CHECK_EQ(grid("linux_rrip", 3), 0);
}

int main(void)
{
	return run_tests();
}
