/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_counter_clock.c - seed 001's counter-based clock on hand-worked
 * traces: the tick's +1/-1 with the clamp, ticks in a pause of a timed
 * trace, the lowest-counter page moved to the tail when reclaim begins
 * (the nearest the tail on a tie), and linux unchanged when no tick comes.
 *
 * All pages are anonymous (anon_percent=100): a reference only sets the
 * accessed bit, which reclaim turns into PG_referenced (kept) and, seen a
 * second time, into an activation.  batch=1: one page freed per fault.
 */
#include <string.h>

#include "check.h"
#include "support.h"
#include "splitmix64.h"

#define ANON "anon_percent=100 batch=1"

/*
 * "1 2 3 4 1 2 5 1 2 3 4 5", 4 frames, period 3: ticks before steps 3, 6
 * and 9.  Lists head first; c = counter.
 *   t0-2  1 2 3 fault: inactive [3 2 1], each recent.
 *   tick  1 2 3 recent: c = 1 each.
 *   t3    4 fault: [4 3 2 1].  t4, t5: 1 and 2 hit (recent).
 *   tick  4 +1 -> 1, 3 -1 -> 0, 2 and 1 +1 -> 2.
 *   t6    5 faults, reclaim begins: the lowest counter is 3 (c=0): moved
 *         to the tail, [4 2 1 3].  The walk finds every page accessed:
 *         each is kept (referenced, to the head) in the order 3 1 2 4, so
 *         the first kept, 3, is freed.  [5 4 2 1].  (Stock linux frees 1,
 *         the tail: the page referenced most.)
 *   t7, t8: 1 and 2 hit.
 *   tick  5 -> 1, 4 -> 0, 2 and 1 -> 3.
 *   t9    3 faults: lowest is 4 (c=0), moved to the tail, [5 2 1 4]; 4
 *         is not accessed since the last walk: freed.  [3 5 2 1].
 *   t10   4 faults: lowest is 3 (c=0, new), moved from the head to the
 *         tail, [5 2 1 3].  3 accessed: kept; 1 and 2 accessed and
 *         referenced: activated; 5 kept.  First kept: 3, freed.
 *   t11   5 hits.
 * 7 faults, 3 evictions (3, 4, 3); stock linux: 10 faults, 6 evictions.
 */
#define BELADY "1 2 3 4 1 2 5 1 2 3 4 5"

TEST(counters_rise_for_referenced_pages_and_fall_for_the_others_at_each_tick)
{
	struct run r;

	run_start(&r, "counter_clock", 4, BELADY, ANON " period=3", 0);
	for (int i = 0; i < 6; i++)
		run_step(&r);
	CHECK_STR_EQ(run_describe(&r),
		     "inactive_anon: 4(accessed=1,recent=1) 3(accessed=1,counter=1) "
		     "2(accessed=1,counter=1,recent=1) 1(accessed=1,counter=1,recent=1); "
		     "active_anon:; inactive_file:; active_file:; shadow:");
	run_step(&r);	/* the tick before step 6, then the fault on 5 */
	CHECK_STR_EQ(run_list(&r, "inactive_anon"), "5 4 2 1");
	CHECK_STR_EQ(run_describe(&r),
		     "inactive_anon: 5(accessed=1,recent=1) 4(referenced=1,counter=1) "
		     "2(referenced=1,counter=2) 1(referenced=1,counter=2); active_anon:; "
		     "inactive_file:; active_file:; shadow: 3");
	run_free(&r);
}

TEST(reclaim_first_moves_the_lowest_counter_page_to_the_tail_and_frees_the_pages_used_least)
{
	struct run r;
	const struct pl_event *ev;
	uint32_t n, victims[8], nvictims = 0;

	run_start(&r, "counter_clock", 4, BELADY, ANON " period=3", PL_SIM_RECORD);
	run_to_end(&r);
	ev = pl_sim_events(r.sim, 0, r.trace.n, &n);
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].kind == PL_EV_VICTIM && nvictims < 8)
			victims[nvictims++] = (uint32_t)r.trace.number[ev[i].page];
	CHECK_EQ(nvictims, 3);
	CHECK_EQ(victims[0], 3);
	CHECK_EQ(victims[1], 4);
	CHECK_EQ(victims[2], 3);
	/* the move of step 6: page 3 to the tail (position 3) of inactive_anon */
	for (uint32_t i = 0; i < n; i++)
		if (ev[i].step == 6 && ev[i].kind == PL_EV_MOVE) {
			CHECK_EQ(r.trace.number[ev[i].page], 3);
			CHECK_EQ(ev[i].b, 3);
			break;
		}
	CHECK_EQ(pl_sim_stats(r.sim)->misses, 7);
	run_free(&r);
	CHECK_EQ(simulate("linux", 4, BELADY, ANON).misses, 10);
	CHECK_EQ(simulate("linux", 4, BELADY, ANON).evictions, 6);
}

/*
 * A timed trace, period 2, limit 2: page 1 at times 0 and 2, page 2 at 1,
 * page 3 at 10.  Ticks are due at 2, 4, 6, 8, 10.
 *   time 2:  the tick at 2: 1 and 2 were referenced: c = 1 each.  1 hits.
 *   time 10: the ticks at 4, 6, 8, 10 at once: the first sees 1 referenced
 *            (+1 -> 2) and 2 not (-1 -> 0); the three in the pause lower
 *            both by 3: 1 -> -1, 2 -> -3, clamped to -limit = -2.
 */
TEST(ticks_that_fall_in_a_pause_lower_every_counter_down_to_the_limit)
{
	static const char table[] = "page time\n1 0\n2 1\n1 2\n3 10\n";
	struct pl_error err;
	int64_t values[PL_MAX_PARAMS];
	struct run r;

	r.ops = pl_policy_find("counter_clock");
	pl_params_default(r.ops, values);
	CHECK_EQ(pl_params_set(r.ops, values, "anon_percent=100", &err), 0);
	CHECK_EQ(pl_params_set(r.ops, values, "period=2", &err), 0);
	CHECK_EQ(pl_params_set(r.ops, values, "limit=2", &err), 0);
	pl_trace_init(&r.trace);
	if (pl_trace_read_buffer(&r.trace, table, strlen(table), "t", &err))
		test_abort("%s", err.msg);
	r.sim = pl_sim_create(r.ops, 4, values, &r.trace, 0, 0, &err);
	if (!r.sim)
		test_abort("%s", err.msg);
	run_to_end(&r);
	CHECK_STR_EQ(run_describe(&r),
		     "inactive_anon: 3(accessed=1,recent=1) 2(accessed=1,counter=-2) "
		     "1(accessed=1,counter=-1); active_anon:; inactive_file:; active_file:; "
		     "shadow:");
	run_free(&r);
}

/*
 * Until the first tick every counter is 0, a tie everywhere, and the tie
 * goes to the page nearest the tail: the tail itself, which reclaim takes
 * first anyway.  So with a period longer than the trace counter_clock
 * frees exactly the pages linux frees, on any trace.
 */
TEST(with_every_counter_tied_the_page_nearest_the_tail_is_chosen_so_it_frees_what_linux_frees)
{
	uint64_t rng = 3;

	for (int k = 0; k < 200; k++) {
		char refs[2048];
		size_t used = 0;
		uint32_t frames = 2 + (uint32_t)(splitmix64_next(&rng) % 8);
		const char *params = k % 2 ? "anon_percent=0" : "anon_percent=60 batch=2";
		char cc_params[64];
		struct run a, b;

		for (int i = 0; i < 150; i++)
			used += snprintf(refs + used, sizeof(refs) - used, "%u ",
					 (unsigned)(splitmix64_next(&rng) % 14));
		snprintf(cc_params, sizeof(cc_params), "%s period=100000", params);
		run_start(&a, "linux", frames, refs, params, PL_SIM_RECORD);
		run_start(&b, "counter_clock", frames, refs, cc_params, PL_SIM_RECORD);
		run_to_end(&a);
		run_to_end(&b);
		CHECK_EQ(pl_sim_stats(a.sim)->misses, pl_sim_stats(b.sim)->misses);
		CHECK_STR_EQ(run_list(&a, "inactive_file"), run_list(&b, "inactive_file"));
		CHECK_STR_EQ(run_list(&a, "active_anon"), run_list(&b, "active_anon"));
		run_free(&a);
		run_free(&b);
	}
}

/* The field index of `name` in the policy's pages. */
static unsigned field_named(const struct pl_policy_ops *ops, const char *name)
{
	unsigned f = 0;

	while (strcmp(pl_policy_field_name(ops, f), name))
		f++;
	return f;
}

/*
 * Counters are kept lazily (a tick touches only the pages referenced since
 * the last one), so check them against the rule applied to every resident
 * page at every tick: a recount kept by the test from the trace and from
 * which pages the snapshot says are resident.  Returns how many counters
 * differ from it over one random run.
 */
static unsigned counters_differing_from_a_recount(uint64_t *rng, unsigned trace)
{
	unsigned flags = trace % 2 ? PL_SIM_RECORD : 0;	/* every other run recorded */
	uint32_t frames = 1 + splitmix64_below(splitmix64_next(rng), 10);
	uint32_t period = 1 + splitmix64_below(splitmix64_next(rng), 8);
	int32_t limit = 1 + (int32_t)splitmix64_below(splitmix64_next(rng), 5);
	int32_t counter[24] = { 0 };
	bool recent[24] = { false };
	char refs[1024], params[96];
	uint32_t resident = 0;	/* the snapshot's first entries: the four lists, not the shadow */
	struct pl_snapshot s;
	unsigned bad = 0, field;
	size_t used = 0;
	struct run r;

	for (int i = 0; i < 200; i++)
		used += snprintf(refs + used, sizeof(refs) - used, "%u ",
				 (unsigned)splitmix64_below(splitmix64_next(rng), 24));
	snprintf(params, sizeof(params), "anon_percent=%u batch=%u period=%u limit=%d",
		 (unsigned)splitmix64_below(splitmix64_next(rng), 101),
		 (unsigned)splitmix64_below(splitmix64_next(rng), 3), period, limit);
	run_start(&r, "counter_clock", frames, refs, params, flags);
	field = field_named(r.ops, "counter");
	pl_snapshot_init(&s, r.ops);
	for (uint32_t k = 0; k < r.trace.n; k++) {
		uint32_t page = r.trace.page[k];
		uint64_t misses = pl_sim_stats(r.sim)->misses;

		if (k && k % period == 0) {	/* a tick: every resident page */
			for (uint32_t i = 0; i < resident; i++) {
				int32_t *c = &counter[s.page[i]];

				*c += recent[s.page[i]] ? 1 : -1;
				*c = *c > limit ? limit : *c < -limit ? -limit : *c;
			}
			memset(recent, 0, sizeof(recent));
		}
		run_step(&r);
		recent[page] = true;
		if (pl_sim_stats(r.sim)->misses > misses)
			counter[page] = 0;	/* a new page */
		pl_snapshot_clear(&s);
		CHECK_EQ(pl_sim_snapshot(r.sim, &s), 0);
		resident = s.total - s.len[s.nlists - 1];
		for (uint32_t i = 0; i < resident; i++)
			bad += s.value[i * s.nfields + field] != counter[s.page[i]];
	}
	if (bad)
		printf("    %u frames, \"%s\", refs \"%s\": %u counters differ\n", frames,
		       params, refs, bad);
	pl_snapshot_free(&s);
	run_free(&r);
	return bad;
}

TEST(the_lazy_counters_equal_a_recount_of_every_resident_page_at_every_tick_on_300_random_traces)
{
	CHECK_EQ(random_traces_failing(300, 11, counters_differing_from_a_recount), 0);
}

int main(void)
{
	return run_tests();
}
