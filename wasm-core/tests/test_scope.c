/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_scope.c - processes in traces: local scope (each process its own
 * share of the frames and its own policy instance, local.c) against global
 * scope (pl_sim), statistics per process, and the errors a user can meet.
 */
#include <string.h>

#include "check.h"
#include "support.h"
#include "splitmix64.h"

/* A trace from "page:pid page:pid ..." (pid optional: then no pid column). */
static void trace_of(struct pl_trace *t, const char *text)
{
	char copy[4096], *save;

	pl_trace_init(t);
	snprintf(copy, sizeof(copy), "%s", text);
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(tok, ':');

		if (pl_trace_add(t, strtoull(tok, NULL, 10), 0) == PL_NONE ||
		    (colon && pl_trace_set_pid(t, (uint32_t)strtoul(colon + 1, NULL, 10))))
			test_abort("out of memory");
	}
}

/* Parameter values from "k=v k=v". */
static const int64_t *params_of(const char *policy, const char *text)
{
	static int64_t values[PL_MAX_PARAMS];
	const struct pl_policy_ops *ops = pl_policy_find(policy);
	char copy[256], *save;
	struct pl_error err;

	pl_params_default(ops, values);
	snprintf(copy, sizeof(copy), "%s", text);
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (pl_params_set(ops, values, tok, &err))
			test_abort("%s", err.msg);
	return values;
}

static struct pl_local *local_of(const char *policy, uint32_t frames, const struct pl_trace *t,
				 const struct pl_share *shares, unsigned nshares)
{
	struct pl_error err;
	struct pl_local *l = pl_local_create(pl_policy_find(policy), frames, NULL, t, shares,
					     nshares, &err);

	if (!l)
		test_abort("%s", err.msg);
	pl_local_run(l, UINT32_MAX);
	if (pl_local_error(l))
		test_abort("%s", pl_local_error(l));
	return l;
}

static const char *create_error(const char *policy, uint32_t frames, const struct pl_trace *t,
				const struct pl_share *shares, unsigned nshares)
{
	static struct pl_error err;
	struct pl_local *l = pl_local_create(pl_policy_find(policy), frames, NULL, t, shares,
					     nshares, &err);

	if (l) {
		pl_local_destroy(l);
		return "(no error)";
	}
	return err.msg;
}

/*
 * lru, 3 frames, equal shares of two processes: 3 = 1 + 1 and the frame
 * left over goes to the lower pid, so process 1 has 2 frames, process 2
 * has 1.
 *   process 1: 1 2 1 3 2 with 2 frames: 1 m, 2 m, 1 h, 3 m (evicts 2),
 *              2 m (evicts 1): 4 misses, 1 hit, 2 evictions
 *   process 2: 100 101 100 with 1 frame: 3 misses, 2 evictions
 * Resident pages after each reference of the trace (1 2 100 1 101 3 100
 * 2): 1 2 3 3 3 3 3 3, sum 21.
 */
#define TWO_PROCESSES "1:1 2:1 100:2 1:1 101:2 3:1 100:2 2:1"

TEST(local_scope_gives_two_processes_equal_shares_and_replaces_within_each)
{
	struct pl_trace t;
	struct pl_local *l;
	struct pl_stats total, s;
	uint32_t pid, frames;

	trace_of(&t, TWO_PROCESSES);
	l = local_of("lru", 3, &t, NULL, 0);
	CHECK_EQ(pl_local_nprocs(l), 2);
	pl_local_proc(l, 0, &pid, &frames, &s);
	CHECK_EQ(pid, 1);
	CHECK_EQ(frames, 2);
	CHECK_EQ(s.references, 5);
	CHECK_EQ(s.misses, 4);
	CHECK_EQ(s.evictions, 2);
	pl_local_proc(l, 1, &pid, &frames, &s);
	CHECK_EQ(pid, 2);
	CHECK_EQ(frames, 1);
	CHECK_EQ(s.misses, 3);
	CHECK_EQ(s.evictions, 2);
	pl_local_stats(l, &total);
	CHECK_EQ(total.references, 8);
	CHECK_EQ(total.misses, 7);
	CHECK_EQ(total.hits, 1);
	CHECK_EQ(total.resident_sum, 21);
	pl_local_destroy(l);
	pl_trace_free(&t);
}

/*
 * share=1:1,2:2 of 3 frames: process 1 gets 1, process 2 gets 2.
 *   process 1: 1 2 1 3 2 with 1 frame: all 5 miss
 *   process 2: 100 101 100 with 2 frames: 100 m, 101 m, 100 h
 */
TEST(local_scope_splits_the_frames_by_the_shares_given)
{
	static const struct pl_share shares[] = { { 1, 1 }, { 2, 2 } };
	struct pl_trace t;
	struct pl_local *l;
	struct pl_stats s;
	uint32_t pid, frames;

	trace_of(&t, TWO_PROCESSES);
	l = local_of("lru", 3, &t, shares, 2);
	pl_local_proc(l, 0, &pid, &frames, &s);
	CHECK_EQ(frames, 1);
	CHECK_EQ(s.misses, 5);
	pl_local_proc(l, 1, &pid, &frames, &s);
	CHECK_EQ(frames, 2);
	CHECK_EQ(s.misses, 2);
	CHECK_EQ(s.hits, 1);
	pl_local_destroy(l);
	pl_trace_free(&t);
}

/*
 * The same trace under global scope, lru with 3 frames: 1 m, 2 m, 100 m,
 * 1 h, 101 m (evicts 2), 3 m (evicts 100), 100 m (evicts 1), 2 m (evicts
 * 101).  Process 1 misses on 1 2 3 2, process 2 on all three.
 */
TEST(global_scope_counts_each_processes_references_and_misses_and_they_add_up)
{
	struct pl_trace t;
	struct pl_error err;
	struct pl_sim *sim;
	struct pl_stats s[2];
	uint32_t pid[2];

	trace_of(&t, TWO_PROCESSES);
	sim = pl_sim_create(pl_policy_find("lru"), 3, NULL, &t, 0, 0, &err);
	CHECK(sim != NULL);
	pl_sim_run(sim, UINT32_MAX);
	CHECK_EQ(pl_sim_nprocs(sim), 2);
	pl_sim_proc(sim, 0, &pid[0], &s[0]);
	pl_sim_proc(sim, 1, &pid[1], &s[1]);
	CHECK_EQ(pid[0], 1);
	CHECK_EQ(s[0].references, 5);
	CHECK_EQ(s[0].misses, 4);
	CHECK_EQ(pid[1], 2);
	CHECK_EQ(s[1].misses, 3);
	CHECK_EQ(s[0].misses + s[1].misses, pl_sim_stats(sim)->misses);
	CHECK_EQ(s[0].hits + s[1].hits, pl_sim_stats(sim)->hits);
	pl_sim_destroy(sim);
	pl_trace_free(&t);
}

/* Random references over `pages` pages, all by `pid` (or no pid column: pid < 0). */
static void random_trace(uint64_t *rng, struct pl_trace *t, uint32_t n, uint32_t pages, int pid)
{
	pl_trace_init(t);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t r = splitmix64_next(rng);

		if (pl_trace_add(t, r % pages, (r >> 40) % 4 == 0 ? PL_REF_WRITE : 0) == PL_NONE ||
		    (pid >= 0 && pl_trace_set_pid(t, (uint32_t)pid)))
			test_abort("out of memory");
	}
}

static bool same_stats(const struct pl_stats *a, const struct pl_stats *b)
{
	return a->references == b->references && a->hits == b->hits && a->misses == b->misses &&
	       a->evictions == b->evictions && a->writebacks == b->writebacks &&
	       a->resident_sum == b->resident_sum;
}

TEST(local_scope_with_one_process_equals_global_scope_for_every_policy)
{
	uint64_t rng = 11;

	for (unsigned p = 0; pl_policies[p]; p++) {
		const struct pl_policy_ops *ops = pl_policies[p];
		unsigned differ = 0;

		for (unsigned k = 0; k < 40; k++) {
			struct pl_trace t;
			struct pl_error err;
			uint32_t frames = 1 + (uint32_t)(splitmix64_next(&rng) % 12);
			struct pl_sim *sim;
			struct pl_local *l;
			struct pl_stats local;
			uint64_t c_global[PL_MAX_COUNTERS], c_local[PL_MAX_COUNTERS];

			/* half the traces without a pid column, half all by pid 7 */
			random_trace(&rng, &t, 300, 4 + (uint32_t)(splitmix64_next(&rng) % 30),
				     k % 2 ? 7 : -1);
			sim = pl_sim_create(ops, frames, NULL, &t, 0, 0, &err);
			l = pl_local_create(ops, frames, NULL, &t, NULL, 0, &err);
			if (!sim || !l)
				test_abort("%s: %s", pl_policy_name(ops), err.msg);
			pl_sim_run(sim, UINT32_MAX);
			pl_local_run(l, UINT32_MAX);
			pl_local_stats(l, &local);
			pl_sim_counters(sim, c_global);
			pl_local_counters(l, c_local);
			differ += !same_stats(pl_sim_stats(sim), &local) ||
				  memcmp(c_global, c_local,
					 pl_policy_ncounters(ops) * sizeof(uint64_t)) ||
				  pl_local_nprocs(l) != 1;
			pl_local_destroy(l);
			pl_sim_destroy(sim);
			pl_trace_free(&t);
		}
		if (differ)
			check_fail(__FILE__, __LINE__, "%s: local differs from global on %u of 40 "
				   "traces", pl_policy_name(ops), differ);
	}
}

/*
 * linux_lruk's threshold is in time, so a process's run must keep the
 * trace's time: process 1 under local scope (4 of 8 frames) runs exactly
 * as a global run of its own references, at their times, with 4 frames.
 */
TEST(local_scope_keeps_the_traces_time_so_a_process_runs_as_its_references_alone)
{
	const struct pl_policy_ops *ops = pl_policy_find("linux_lruk");
	const int64_t *params = params_of("linux_lruk", "threshold=3 batch=1");
	struct pl_trace both, alone;
	struct pl_local *l;
	struct pl_sim *sim;
	struct pl_error err;
	struct pl_stats s;
	uint32_t pid, frames;
	uint64_t rng = 5;

	pl_trace_init(&both);
	pl_trace_init(&alone);
	for (uint32_t i = 0; i < 2000; i++) {
		uint64_t r = splitmix64_next(&rng);
		uint32_t pid_i = 1 + (uint32_t)(r & 1), page = (uint32_t)(r >> 8) % 10;

		if (pl_trace_add(&both, page + (pid_i == 2 ? 100 : 0), 0) == PL_NONE ||
		    pl_trace_set_pid(&both, pid_i) || pl_trace_set_vtime(&both, 3 * i))
			test_abort("out of memory");
		if (pid_i == 1 && (pl_trace_add(&alone, page, 0) == PL_NONE ||
				   pl_trace_set_vtime(&alone, 3 * i)))
			test_abort("out of memory");
	}
	l = pl_local_create(ops, 8, params, &both, NULL, 0, &err);
	sim = pl_sim_create(ops, 4, params, &alone, 0, 0, &err);
	if (!l || !sim)
		test_abort("%s", err.msg);
	pl_local_run(l, UINT32_MAX);
	pl_sim_run(sim, UINT32_MAX);
	pl_local_proc(l, 0, &pid, &frames, &s);
	CHECK_EQ(frames, 4);
	CHECK(same_stats(&s, pl_sim_stats(sim)));
	CHECK(pl_sim_stats(sim)->misses > 10);	/* replacement happened */
	pl_sim_destroy(sim);
	pl_local_destroy(l);
	pl_trace_free(&both);
	pl_trace_free(&alone);
}

TEST(local_scope_refuses_a_page_of_two_processes_and_shares_that_do_not_fit)
{
	static const struct pl_share missing[] = { { 1, 1 } };
	static const struct pl_share stranger[] = { { 1, 1 }, { 2, 1 }, { 9, 1 } };
	struct pl_trace t, shared;

	trace_of(&t, TWO_PROCESSES);
	trace_of(&shared, "1:1 2:1 1:2");
	CHECK_STR_EQ(create_error("lru", 3, &shared, NULL, 0),
		     "--scope local: page 1 is referenced by processes 1 and 2; under local "
		     "scope a page belongs to one process (number private pages apart, e.g. "
		     "pid << 32 | page)");
	CHECK_STR_EQ(create_error("lru", 1, &t, NULL, 0),
		     "--scope local: process 2's share of 1 frames is less than one frame "
		     "(2 processes)");
	CHECK_STR_EQ(create_error("lru", 3, &t, missing, 1),
		     "share: process 2 has no share (give one for every process, e.g. "
		     "share=2:1,...)");
	CHECK_STR_EQ(create_error("lru", 3, &t, stranger, 3), "share: the trace has no process 9");
	pl_trace_free(&t);
	pl_trace_free(&shared);
}

int main(void)
{
	return run_tests();
}
