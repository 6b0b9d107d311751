/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_engine.c - the driver: statistics, dirty pages and writeback, the
 * event log, checkpoints and seeking, tick and next-use delivery, and the
 * invariant checks that stop a misbehaving policy with a clear error.
 *
 * Misbehaving and probing policies are defined here, with one list and the
 * smallest code that shows the behaviour under test.
 */
#include "check.h"
#include "policy.h"
#include "replay.h"
#include "splitmix64.h"
#include "support.h"

TEST(hits_and_misses_add_up_to_the_references)
{
	struct pl_stats s = simulate("lru", 3, "7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1", NULL);

	CHECK_EQ(s.references, 20);
	CHECK_EQ(s.hits + s.misses, 20);
	CHECK_EQ(s.misses, 12);
	CHECK_EQ(s.evictions, 12 - 3);
}

TEST(lru_keeps_the_most_recently_used_page_at_the_head)
{
	CHECK_STR_EQ(final_list("lru", 3, "1 2 3 1", NULL, "recency"), "1 3 2");
	CHECK_STR_EQ(final_list("lru", 3, "1 2 3 1 4", NULL, "recency"), "4 1 3");
}

TEST(fifo_keeps_pages_in_arrival_order_whatever_the_hits)
{
	CHECK_STR_EQ(final_list("fifo", 3, "1 2 3 1 1 4", NULL, "queue"), "2 3 4");
}

TEST(a_page_written_before_eviction_is_written_back_once)
{
	struct pl_stats s = simulate("fifo", 1, "1w 2 1 2", NULL);

	CHECK_EQ(s.evictions, 3);
	CHECK_EQ(s.writebacks, 1);
}

TEST(a_write_hit_dirties_a_clean_page)
{
	CHECK_EQ(simulate("lru", 1, "1 1W 2", NULL).writebacks, 1);
	CHECK_EQ(simulate("lru", 1, "1 1 2", NULL).writebacks, 0);
}

TEST(page_numbers_are_kept_as_given_in_hex_and_decimal)
{
	CHECK_STR_EQ(final_list("fifo", 4, "0x10 16 0xffffffffffffffff 7", NULL, "queue"),
		     "16 18446744073709551615 7");
}

/* The kinds of events[begin, end) as "miss insert ..." */
static const char *kinds(const struct pl_event *events, uint32_t begin, uint32_t end)
{
	static char buf[256];

	buf[0] = '\0';
	for (uint32_t e = begin; e < end; e++) {
		if (e > begin)
			strcat(buf, " ");
		strcat(buf, pl_event_kind_name(events[e].kind));
	}
	return buf;
}

TEST(each_step_owns_the_events_it_caused_in_order)
{
	const struct pl_event *events;
	uint32_t count, begin, end;
	struct run r;

	run_start(&r, "lru", 2, "1 2 1 3", NULL, PL_SIM_RECORD);
	run_to_end(&r);
	events = pl_sim_events(r.sim, 0, r.trace.n, &count);
	pl_sim_step_events(r.sim, 0, &begin, &end);
	CHECK_STR_EQ(kinds(events, begin, end), "miss insert");
	pl_sim_step_events(r.sim, 2, &begin, &end);
	CHECK_STR_EQ(kinds(events, begin, end), "hit move");
	pl_sim_step_events(r.sim, 3, &begin, &end);
	CHECK_STR_EQ(kinds(events, begin, end), "miss victim evict insert");
	CHECK_EQ(events[begin + 1].page, 1);	/* dense id of page 2 */
	CHECK_EQ(events[begin].step, 3);
	CHECK_EQ(end, count);
	run_free(&r);
}

TEST(an_evict_event_says_whether_the_page_was_written_back)
{
	const struct pl_event *events;
	uint32_t count, begin, end;
	struct run r;

	run_start(&r, "fifo", 1, "1w 2 3", NULL, PL_SIM_RECORD);
	run_to_end(&r);
	events = pl_sim_events(r.sim, 0, r.trace.n, &count);
	pl_sim_step_events(r.sim, 1, &begin, &end);
	CHECK_EQ(events[begin + 2].kind, PL_EV_EVICT);
	CHECK_EQ(events[begin + 2].a, 1);
	pl_sim_step_events(r.sim, 2, &begin, &end);
	CHECK_EQ(events[begin + 2].a, 0);
	run_free(&r);
}

TEST(seeking_to_any_step_gives_what_stepping_showed)
{
	const char *refs = "1 2 3 4 1 2 5 1 2 3 4 5 3 3 1 6 7 2";
	char seen[32][128];
	struct pl_snapshot s;
	struct pl_error err;
	struct run r;

	run_start(&r, "lru", 3, refs, NULL, 0);
	pl_sim_destroy(r.sim);
	/* a checkpoint every 4 steps, so seeks replay 0 to 3 steps of events */
	r.sim = pl_sim_create(r.ops, 3, NULL, &r.trace, PL_SIM_RECORD, 4, &err);
	CHECK(r.sim != NULL);
	for (uint32_t k = 0; k <= r.trace.n; k++) {
		snprintf(seen[k], sizeof(seen[k]), "%s", run_describe(&r));
		run_step(&r);
	}
	pl_snapshot_init(&s, r.ops);
	for (uint32_t k = r.trace.n + 1; k-- > 0;) {
		CHECK_EQ(pl_sim_seek(r.sim, k, &s), 0);
		CHECK_STR_EQ(describe_snapshot(r.ops, &r.trace, &s), seen[k]);
	}
	CHECK(pl_sim_seek(r.sim, r.trace.n + 1, &s) != 0);
	pl_snapshot_free(&s);
	run_free(&r);
}

/*
 * Seeks over a long run with checkpoints spaced by size (the web page's
 * mode): many steps of events between two checkpoints, across the event
 * log's step blocks; `policy` must give back every step's structure.
 */
static unsigned long seeks_that_differ(const char *policy, uint32_t frames)
{
	enum { STEPS = 3000 };
	static char refs[STEPS * 8];
	static struct pl_snapshot seen[STEPS + 1];
	struct pl_snapshot sought;
	struct pl_error err;
	struct run r;
	unsigned long differ = 0;
	size_t used = 0;
	uint64_t rng = 42;

	for (uint32_t i = 0; i < STEPS; i++)
		used += (size_t)snprintf(refs + used, sizeof(refs) - used, "%llu%s ",
					 (unsigned long long)(splitmix64_next(&rng) % (3 * frames)),
					 i % 5 ? "" : "w");
	run_start(&r, policy, frames, refs, NULL, 0);
	pl_sim_destroy(r.sim);
	r.sim = pl_sim_create(r.ops, frames, NULL, &r.trace, PL_SIM_RECORD, 0, &err);
	CHECK(r.sim != NULL);
	for (uint32_t k = 0; k <= STEPS; k++) {
		pl_snapshot_init(&seen[k], r.ops);
		CHECK_EQ(pl_sim_snapshot(r.sim, &seen[k]), 0);
		if (k < STEPS)
			run_step(&r);
	}
	pl_snapshot_init(&sought, r.ops);
	for (uint32_t k = STEPS + 1; k-- > 0;) {
		differ += pl_sim_seek(r.sim, k, &sought) || !pl_snapshot_equal(&sought, &seen[k]);
		pl_snapshot_free(&seen[k]);
	}
	pl_snapshot_free(&sought);
	run_free(&r);
	return differ;
}

TEST(seeking_with_checkpoints_spaced_by_size_gives_what_stepping_showed)
{
	CHECK_EQ(seeks_that_differ("lru", 50), 0);
	CHECK_EQ(seeks_that_differ("clock", 50), 0);
	CHECK_EQ(seeks_that_differ("linux", 50), 0);
	CHECK_EQ(seeks_that_differ("arc", 7), 0);
}

/*
 * A random event for replay_matches_snapshot_apply(): mostly ones that fit
 * (a page where the event says, a position within the list), many that do
 * not, over two lists, two fields, a hand and a variable; none that either leaves
 * half done.
 */
static struct pl_event random_event(const struct pl_snapshot *s, uint64_t *rng)
{
	uint64_t x = splitmix64_next(rng);
	unsigned list = x & 1, other = x >> 1 & 1;
	uint32_t len = s->len[list] + 2;
	struct pl_event ev = {
		.page = (uint32_t)(x >> 8) % 400,
		.arg = (uint16_t)list,
	};

	switch (x >> 2 & 7) {
	case 0:
	case 1:
	case 2:
		ev.kind = PL_EV_INSERT;
		ev.b = (int32_t)((x >> 32) % len);	/* sometimes past the end */
		break;
	case 3:
		ev.kind = PL_EV_REMOVE;
		break;
	case 4:
	case 5:
		/* to another list: always a position that exists, since
		 * pl_snapshot_apply() takes the page out before it finds
		 * the position wrong (a refused move would be half done) */
		ev.kind = PL_EV_MOVE;
		ev.a = (int32_t)other;
		ev.b = (int32_t)((x >> 32) % (other == list ? len : s->len[list] + 1));
		break;
	case 6:
		ev.kind = PL_EV_SET;
		ev.arg = (uint16_t)(x >> 40 & 1);
		ev.a = (int32_t)(x >> 41 & 1);	/* the old value, right half the time */
		ev.b = (int32_t)(x >> 42 & 7);
		break;
	default:
		ev.kind = x >> 45 & 1 ? PL_EV_HAND : PL_EV_VARIABLE;
		ev.arg = 0;
		ev.a = (ev.kind == PL_EV_HAND ? s->hand[0] : s->variable[0]) + (int32_t)(x >> 40 & 1);
		ev.b = (int32_t)(x >> 41 & 15);
		break;
	}
	return ev;
}

/*
 * Seeking replays through replay.h's linked lists; pl_snapshot_apply() is
 * the definition: both take and refuse the same events and end equal.
 */
TEST(replay_takes_and_refuses_the_events_snapshot_apply_does)
{
	static const char *const lists[] = { "a", "b" }, *const fields[] = { "x", "y" };
	static const char *const hands[] = { "h" };
	static const char *const variables[] = { "v" };
	static const unsigned hand_lists[] = { 0 };
	const struct pl_policy_ops ops = {
		.name = "two_lists", .lists = lists, .nlists = 2, .fields = fields,
		.nfields = 2, .hands = hands, .hand_lists = hand_lists, .nhands = 1,
		.variables = variables, .nvariables = 1,
	};
	struct pl_snapshot flat, replayed;
	struct replay r;
	uint64_t rng = 7;
	unsigned taken = 0, differ = 0;

	pl_snapshot_init(&flat, &ops);
	pl_snapshot_init(&replayed, &ops);
	for (unsigned round = 0; round < 4; round++) {
		CHECK_EQ(replay_open(&r, &flat), 0);
		for (unsigned i = 0; i < 3000; i++) {
			struct pl_event ev = random_event(&flat, &rng);
			int want = pl_snapshot_apply(&flat, &ev);

			differ += replay_apply(&r, &ev) != want;
			taken += want == 0;
		}
		CHECK_EQ(replay_close(&r, &replayed), 0);
		CHECK(pl_snapshot_equal(&replayed, &flat));
		CHECK_EQ(pl_snapshot_copy(&flat, &replayed), 0);
	}
	CHECK_EQ(differ, 0);
	CHECK(taken > 100);
	CHECK(flat.total > 64);	/* past the replay's first allocation */
	pl_snapshot_free(&flat);
	pl_snapshot_free(&replayed);
}

TEST(seeking_needs_recording)
{
	struct pl_snapshot s;
	struct run r;

	run_start(&r, "lru", 3, "1 2 3", NULL, 0);
	run_to_end(&r);
	pl_snapshot_init(&s, r.ops);
	CHECK(pl_sim_seek(r.sim, 1, &s) != 0);
	pl_snapshot_free(&s);
	run_free(&r);
}

TEST(stepping_stops_at_the_end_of_the_trace)
{
	struct run r;

	run_start(&r, "fifo", 2, "1 2", NULL, 0);
	CHECK(pl_sim_step(r.sim));
	CHECK(pl_sim_step(r.sim));
	CHECK(!pl_sim_step(r.sim));
	CHECK_EQ(pl_sim_position(r.sim), 2);
	CHECK(pl_sim_error(r.sim) == NULL);
	CHECK_EQ(pl_sim_run(r.sim, UINT32_MAX), 0);
	run_free(&r);
}

TEST(zero_frames_is_refused_with_a_message)
{
	struct pl_trace t;
	struct pl_error err;

	pl_trace_init(&t);
	pl_trace_add(&t, 1, 0);
	CHECK(pl_sim_create(pl_policy_find("lru"), 0, NULL, &t, 0, 0, &err) == NULL);
	CHECK_STR_EQ(err.msg, "frames must be at least 1");
	pl_trace_free(&t);
}

/* ---------------------------------------- a probe and misbehaving policies */

/*
 * "probe" keeps resident pages in one unordered list, evicts the most
 * recently inserted page, and remembers what the driver told it.  The
 * `fault` parameter makes it break one rule of policy.h on purpose.
 */
enum probe_fault {
	FAULT_NONE,
	FAULT_VICTIM_NOT_RESIDENT,	/* victim() names a page not in memory */
	FAULT_EVICT_NOTHING,		/* evict() leaves the victim resident */
	FAULT_EVICT_ANOTHER,		/* evict() removes a page other than the victim */
	FAULT_NO_RECLAIM,		/* reclaim_goal() is always 0 */
	FAULT_INSERT_NOTHING,		/* insert() forgets to emit */
	FAULT_BAD_LIST,			/* insert() names a list the policy lacks */
};

struct probe {
	struct pl_ctx *ctx;
	enum probe_fault fault;
	uint32_t pages[64], n;
	uint32_t next_use[64], ticks[64], nticks;
};

/* The probe most recently created, for tests to read before destroying it. */
static struct probe *last_probe;

static void *probe_create(struct pl_ctx *ctx, struct pl_error *err)
{
	struct probe *p = calloc(1, sizeof(*p));

	last_probe = p;

	p->ctx = ctx;
	p->fault = (enum probe_fault)ctx->params[0];
	ctx->tick_period = (uint32_t)ctx->params[1];
	return p;
}

static void probe_destroy(void *state)
{
	free(state);
}

static void probe_hit(void *state, const struct pl_ref *ref)
{
	struct probe *p = state;

	p->next_use[ref->step] = ref->next_use;
}

static void probe_insert(void *state, const struct pl_ref *ref)
{
	struct probe *p = state;

	p->next_use[ref->step] = ref->next_use;
	if (p->fault == FAULT_INSERT_NOTHING)
		return;
	pl_emit_insert(p->ctx, ref->page, p->fault == FAULT_BAD_LIST ? 5 : 0, p->n);
	p->pages[p->n++] = ref->page;
}

static uint32_t probe_victim(const void *state)
{
	const struct probe *p = state;

	if (p->fault == FAULT_VICTIM_NOT_RESIDENT)
		return p->ctx->npages - 1;
	return p->pages[p->n - 1];
}

static void probe_evict(void *state, uint32_t victim)
{
	struct probe *p = state;

	if (p->fault == FAULT_EVICT_NOTHING)
		return;
	if (p->fault == FAULT_EVICT_ANOTHER)
		victim = p->pages[0];
	pl_emit_evict(p->ctx, victim, 0);
	p->n--;
}

static uint32_t probe_reclaim_goal(const void *state, uint32_t resident)
{
	const struct probe *p = state;

	if (p->fault == FAULT_NO_RECLAIM)
		return 0;
	return resident >= p->ctx->frames;
}

static void probe_tick(void *state, uint32_t step)
{
	struct probe *p = state;

	p->ticks[p->nticks++] = step;
}

static void probe_snapshot(const void *state, struct pl_snapshot *out)
{
	const struct probe *p = state;

	for (uint32_t i = 0; i < p->n; i++)
		pl_snapshot_push(out, 0, p->pages[i], NULL);
}

static const char *const probe_lists[] = { "pages" };
static const struct pl_param probe_params[] = {
	{ "fault", "which rule to break", 0, 0, FAULT_BAD_LIST, NULL },
	{ "tick", "tick period", 0, 0, 100, NULL },
};

static const struct pl_policy_ops probe_ops = {
	.name = "probe", .title = "Probe", .help = "test policy",
	.params = probe_params, .nparams = 2,
	.lists = probe_lists, .nlists = 1,
	.create = probe_create, .destroy = probe_destroy, .hit = probe_hit,
	.insert = probe_insert, .victim = probe_victim, .evict = probe_evict,
	.reclaim_goal = probe_reclaim_goal, .tick = probe_tick, .snapshot = probe_snapshot,
};

struct probe_run {
	struct pl_trace trace;
	struct pl_sim *sim;
};

static void probe_run(struct probe_run *r, const struct pl_policy_ops *ops, int64_t fault,
		      int64_t tick, const char *refs)
{
	int64_t params[PL_MAX_PARAMS] = { fault, tick };
	struct pl_error err;

	pl_trace_init(&r->trace);
	if (pl_trace_parse_refs(&r->trace, refs, "refs", &err))
		test_abort("%s", err.msg);
	r->sim = pl_sim_create(ops, 2, params, &r->trace, 0, 0, &err);
	if (!r->sim)
		test_abort("%s", err.msg);
	pl_sim_run(r->sim, UINT32_MAX);
}

static void probe_free(struct probe_run *r)
{
	pl_sim_destroy(r->sim);
	pl_trace_free(&r->trace);
}

static const char *probe_error(int64_t fault)
{
	static char msg[256];
	struct probe_run r;

	probe_run(&r, &probe_ops, fault, 0, "1 2 3 4");
	snprintf(msg, sizeof(msg), "%s", pl_sim_error(r.sim) ? pl_sim_error(r.sim) : "(none)");
	probe_free(&r);
	return msg;
}

TEST(a_well_behaved_probe_runs_without_error)
{
	CHECK_STR_EQ(probe_error(FAULT_NONE), "(none)");
}

TEST(a_victim_that_is_not_resident_stops_the_simulation)
{
	CHECK_STR_EQ(probe_error(FAULT_VICTIM_NOT_RESIDENT),
		     "policy probe, step 2: victim() chose page 4, which is not resident");
}

TEST(an_evict_that_leaves_the_victim_resident_stops_the_simulation)
{
	CHECK_STR_EQ(probe_error(FAULT_EVICT_NOTHING),
		     "policy probe, step 2: evict() left the victim, page 2, resident");
}

TEST(an_evict_that_removes_another_page_stops_the_simulation)
{
	CHECK_STR_EQ(probe_error(FAULT_EVICT_ANOTHER),
		     "policy probe, step 2: page 1 evicted, but the victim being evicted is another page");
}

TEST(inserting_into_full_memory_stops_the_simulation)
{
	CHECK_STR_EQ(probe_error(FAULT_NO_RECLAIM),
		     "policy probe, step 2: page 3 inserted into full memory (2 frames): reclaim evicted too little");
}

TEST(an_insert_that_brings_nothing_in_stops_the_simulation)
{
	CHECK_STR_EQ(probe_error(FAULT_INSERT_NOTHING),
		     "policy probe, step 0: insert() did not bring page 1 in");
}

TEST(an_undeclared_list_stops_the_simulation)
{
	CHECK_STR_EQ(probe_error(FAULT_BAD_LIST),
		     "policy probe, step 0: list 5 does not exist (the policy declares 1)");
}

TEST(a_failed_simulation_takes_no_further_step)
{
	struct probe_run r;

	probe_run(&r, &probe_ops, FAULT_EVICT_NOTHING, 0, "1 2 3 4");
	CHECK_EQ(pl_sim_position(r.sim), 2);
	CHECK(!pl_sim_step(r.sim));
	CHECK_EQ(pl_sim_stats(r.sim)->references, 2);
	probe_free(&r);
}

TEST(tick_runs_before_every_reference_whose_index_is_a_multiple_of_the_period)
{
	struct probe_run r;

	probe_run(&r, &probe_ops, FAULT_NONE, 2, "1 2 1 2 1");
	CHECK_EQ(last_probe->nticks, 2);
	CHECK_EQ(last_probe->ticks[0], 2);
	CHECK_EQ(last_probe->ticks[1], 4);
	probe_free(&r);
}

TEST(next_use_is_computed_only_for_policies_that_need_the_future)
{
	struct pl_policy_ops future_ops = probe_ops;
	struct probe_run r;

	probe_run(&r, &probe_ops, FAULT_NONE, 0, "1 2 1 2 1");
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ(last_probe->next_use[i], PL_NONE);
	probe_free(&r);

	future_ops.flags = PL_POLICY_FUTURE;
	probe_run(&r, &future_ops, FAULT_NONE, 0, "1 2 1 2 1");
	CHECK_EQ(last_probe->next_use[0], 2);
	CHECK_EQ(last_probe->next_use[1], 3);
	CHECK_EQ(last_probe->next_use[2], 4);
	CHECK_EQ(last_probe->next_use[3], PL_NONE);
	CHECK_EQ(last_probe->next_use[4], PL_NONE);
	probe_free(&r);
}

int main(void)
{
	return run_tests();
}
