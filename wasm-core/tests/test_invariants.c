/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_invariants.c - every registered policy (pl_policies[], so a new
 * policy is covered the day its file lands) on hundreds of random traces.
 *
 * Each run mixes reads and writes, uses one of several frame counts and
 * either the policy's defaults or one parameter set to its minimum, its
 * maximum or its default plus one.  After every step it checks, against
 * a model kept by this test from the events alone:
 *   - resident pages <= frames, and the non-ghost pages of the policy's
 *     snapshot are exactly the pages the driver holds resident;
 *   - a HIT is a resident page, a MISS is not; a VICTIM is resident and
 *     the EVICT that follows removes that very page;
 *   - hits + misses == references == steps; evictions and writebacks equal
 *     the EVICT events and the dirty ones among them, and a page is written
 *     back exactly when it was written since it was loaded;
 *   - replaying the step's events onto the previous snapshot gives the
 *     policy's snapshot;
 * and, after the run, that pl_sim_seek(k) gives the snapshot seen at step
 * k, for every k, with checkpoints every 1 to 8 steps or spaced by size
 * (checkpoint_every 0, what the web page uses).
 *
 * Failures name the policy, its parameters, the frames, the step and the
 * trace, so any of them can be replayed with the CLI.
 */
#include "check.h"
#include "policy.h"
#include "splitmix64.h"
#include "support.h"

#define RUNS_PER_POLICY 240
#define MAX_REFS 240
#define MAX_PAGES 96

struct setting {
	int64_t params[PL_MAX_PARAMS];
	char text[160];		/* "name=value ..." for messages */
};

struct model {
	bool resident[MAX_PAGES];
	bool dirty[MAX_PAGES];
	uint32_t nresident;
	uint64_t evictions, writebacks;
};

struct checker {
	const struct pl_policy_ops *ops;
	const struct setting *setting;
	uint32_t frames;
	struct pl_trace trace;
	struct pl_sim *sim;
	struct model model;
	struct pl_snapshot replay, live;
	struct pl_snapshot seen[MAX_REFS + 1];
	char refs[MAX_REFS * 8];
	unsigned failures;
};

static uint64_t rng_below(uint64_t *rng, uint64_t n)
{
	return splitmix64_next(rng) % n;
}

/* A trace over a few pages, with some locality and about a third writes. */
static void random_refs(uint64_t *rng, char *out, size_t size, uint32_t *npages)
{
	uint32_t n = 1 + (uint32_t)rng_below(rng, MAX_REFS);
	uint32_t universe = 1 + (uint32_t)rng_below(rng, MAX_PAGES);
	uint32_t page = 0;
	size_t used = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (rng_below(rng, 4))
			page = (uint32_t)rng_below(rng, universe);
		else
			page = (page + 1) % universe;
		used += snprintf(out + used, size - used, "%s%u%s", i ? " " : "", page * 7 + 3,
				 rng_below(rng, 3) ? "" : "w");
	}
	*npages = universe;
}

static void describe_setting(const struct pl_policy_ops *ops, struct setting *s)
{
	size_t used = 0;

	snprintf(s->text, sizeof(s->text), "no parameters");
	for (unsigned i = 0; i < pl_policy_nparams(ops); i++)
		used += snprintf(s->text + used, sizeof(s->text) - used, "%s%s=%lld",
				 i ? " " : "", pl_policy_param(ops, i)->name,
				 (long long)s->params[i]);
}

/* Defaults, or one parameter at its min, max or default + 1. */
static void random_setting(uint64_t *rng, const struct pl_policy_ops *ops, struct setting *s)
{
	unsigned nparams = pl_policy_nparams(ops);

	pl_params_default(ops, s->params);
	if (nparams && rng_below(rng, 3)) {
		unsigned i = (unsigned)rng_below(rng, nparams);
		const struct pl_param *p = pl_policy_param(ops, i);

		switch (rng_below(rng, 3)) {
		case 0:
			s->params[i] = p->min;
			break;
		case 1:
			s->params[i] = p->max;
			break;
		default:
			s->params[i] = p->def < p->max ? p->def + 1 : p->def;
		}
	}
	describe_setting(ops, s);
}

static void __attribute__((format(printf, 2, 3))) violation(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	if (c->failures++)
		return;		/* the first violation of a run says it all */
	printf("    %s [%s] frames=%u step=%u: ", pl_policy_name(c->ops), c->setting->text,
	       c->frames, pl_sim_position(c->sim));
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n      refs: %s\n", c->refs);
}

static const char *describe_live(const struct checker *c)
{
	return describe_snapshot(c->ops, &c->trace, &c->replay);
}

static uint32_t snapshot_resident(struct checker *c, const struct pl_snapshot *s)
{
	uint32_t count = 0, start = 0;

	for (unsigned l = 0; l < s->nlists; l++) {
		for (uint32_t e = start; e < start + s->len[l]; e++) {
			if (pl_policy_list_is_ghost(c->ops, l))
				continue;
			count++;
			if (!c->model.resident[s->page[e]])
				violation(c, "snapshot lists page %llu, which is not resident",
					  (unsigned long long)c->trace.number[s->page[e]]);
		}
		start += s->len[l];
	}
	return count;
}

/* Follows one event in the model, checking it against what came before. */
static void follow_event(struct checker *c, const struct pl_event *ev, uint32_t *victim)
{
	struct model *m = &c->model;
	bool to_ghost = pl_policy_list_is_ghost(c->ops, ev->arg);

	switch (ev->kind) {
	case PL_EV_HIT:
		if (!m->resident[ev->page])
			violation(c, "HIT on a page that is not resident");
		break;
	case PL_EV_MISS:
		if (m->resident[ev->page])
			violation(c, "MISS on a resident page");
		break;
	case PL_EV_VICTIM:
		if (!m->resident[ev->page])
			violation(c, "VICTIM is not resident");
		*victim = ev->page;
		break;
	case PL_EV_EVICT:
		if (ev->page != *victim)
			violation(c, "EVICT of a page that is not the victim");
		if (ev->a != m->dirty[ev->page])
			violation(c, "EVICT says writeback=%d, page dirty=%d", ev->a,
				  m->dirty[ev->page]);
		m->evictions++;
		m->writebacks += m->dirty[ev->page];
		m->resident[ev->page] = m->dirty[ev->page] = false;
		m->nresident--;
		*victim = PL_NONE;
		break;
	case PL_EV_INSERT:
	case PL_EV_MOVE:
		if (!to_ghost && !m->resident[ev->page] &&
		    (ev->kind == PL_EV_INSERT || pl_policy_list_is_ghost(c->ops, (unsigned)ev->a))) {
			m->resident[ev->page] = true;
			m->nresident++;
		}
		break;
	}
}

static void check_stats(struct checker *c, uint32_t steps)
{
	const struct pl_stats *s = pl_sim_stats(c->sim);

	if (s->references != steps || s->hits + s->misses != s->references)
		violation(c, "stats: references=%llu hits=%llu misses=%llu after %u steps",
			  (unsigned long long)s->references, (unsigned long long)s->hits,
			  (unsigned long long)s->misses, steps);
	if (s->evictions != c->model.evictions || s->writebacks != c->model.writebacks)
		violation(c, "stats: evictions=%llu writebacks=%llu, events say %llu and %llu",
			  (unsigned long long)s->evictions, (unsigned long long)s->writebacks,
			  (unsigned long long)c->model.evictions,
			  (unsigned long long)c->model.writebacks);
	if (pl_sim_resident(c->sim) != c->model.nresident || c->model.nresident > c->frames)
		violation(c, "resident: driver %u, events %u, frames %u", pl_sim_resident(c->sim),
			  c->model.nresident, c->frames);
}

static void check_step(struct checker *c, uint32_t step)
{
	const struct pl_event *events;
	uint32_t count, begin, end, victim = PL_NONE;

	events = pl_sim_events(c->sim, step, step + 1, &count);
	pl_sim_step_events(c->sim, step, &begin, &end);
	if (end - begin != count)
		violation(c, "step %u has events %u .. %u, but %u decode", step, begin, end, count);
	for (uint32_t e = 0; e < count; e++) {
		if (events[e].step != step)
			violation(c, "event %u of step %u is stamped step %u", begin + e, step,
				  events[e].step);
		follow_event(c, &events[e], &victim);
		if (pl_snapshot_apply(&c->replay, &events[e]))
			violation(c, "event %u (%s) does not fit the replayed snapshot: %s", begin + e,
				  pl_event_kind_name(events[e].kind), describe_live(c));
	}
	if (c->trace.flags[step] & PL_REF_WRITE)
		c->model.dirty[c->trace.page[step]] = true;
	if (pl_sim_snapshot(c->sim, &c->live))
		violation(c, "snapshot() failed");
	if (!pl_snapshot_equal(&c->replay, &c->live))
		violation(c, "replay != snapshot");
	if (snapshot_resident(c, &c->live) != c->model.nresident)
		violation(c, "snapshot holds %u resident pages, events say %u",
			  snapshot_resident(c, &c->live), c->model.nresident);
	check_stats(c, step + 1);
}

/* After the run: every step can be sought back, from any later position. */
static void check_seeks(struct checker *c)
{
	struct pl_snapshot sought;

	pl_snapshot_init(&sought, c->ops);
	for (uint32_t k = c->trace.n + 1; k-- > 0;) {
		if (pl_sim_seek(c->sim, k, &sought))
			violation(c, "pl_sim_seek(%u) failed", k);
		else if (!pl_snapshot_equal(&sought, &c->seen[k]))
			violation(c, "pl_sim_seek(%u) gives %s, stepping showed %s", k,
				  describe_snapshot(c->ops, &c->trace, &sought),
				  describe_snapshot(c->ops, &c->trace, &c->seen[k]));
	}
	pl_snapshot_free(&sought);
}

static void keep_seen(struct checker *c, uint32_t k)
{
	pl_snapshot_init(&c->seen[k], c->ops);
	if (pl_snapshot_copy(&c->seen[k], &c->live))
		test_abort("out of memory");
}

static void start(struct checker *c, uint64_t *rng)
{
	static const uint32_t frame_choices[] = { 1, 2, 3, 4, 5, 8, 16, 40, 64 };
	struct pl_error err;
	uint32_t npages;

	random_refs(rng, c->refs, sizeof(c->refs), &npages);
	c->frames = frame_choices[rng_below(rng, sizeof(frame_choices) / sizeof(frame_choices[0]))];
	pl_trace_init(&c->trace);
	if (pl_trace_parse_refs(&c->trace, c->refs, "refs", &err))
		test_abort("%s", err.msg);
	c->sim = pl_sim_create(c->ops, c->frames, c->setting->params, &c->trace, PL_SIM_RECORD,
			       (uint32_t)rng_below(rng, 9), &err);
	if (!c->sim)
		test_abort("%s [%s]: %s", pl_policy_name(c->ops), c->setting->text, err.msg);
	memset(&c->model, 0, sizeof(c->model));
	pl_snapshot_init(&c->replay, c->ops);
	pl_snapshot_init(&c->live, c->ops);
}

static void finish(struct checker *c)
{
	for (uint32_t k = 0; k <= c->trace.n; k++)
		pl_snapshot_free(&c->seen[k]);
	pl_snapshot_free(&c->replay);
	pl_snapshot_free(&c->live);
	pl_sim_destroy(c->sim);
	pl_trace_free(&c->trace);
}

/* One random run of one policy; returns the number of violations. */
static unsigned check_run(const struct pl_policy_ops *ops, uint64_t *rng)
{
	static struct checker c;	/* large: keep it off the stack */
	struct setting setting;

	random_setting(rng, ops, &setting);
	c.ops = ops;
	c.setting = &setting;
	c.failures = 0;
	start(&c, rng);
	if (pl_sim_snapshot(c.sim, &c.live) || !pl_snapshot_equal(&c.replay, &c.live))
		violation(&c, "the snapshot at step 0 is not empty: %s",
			  describe_snapshot(ops, &c.trace, &c.live));
	keep_seen(&c, 0);
	for (uint32_t step = 0; step < c.trace.n && !c.failures; step++) {
		if (!pl_sim_step(c.sim)) {
			violation(&c, "%s", pl_sim_error(c.sim) ? pl_sim_error(c.sim) :
					    "pl_sim_step() stopped early");
			break;
		}
		check_step(&c, step);
		keep_seen(&c, step + 1);
	}
	if (!c.failures)
		check_seeks(&c);
	finish(&c);
	return c.failures;
}

TEST(every_policy_keeps_every_invariant_and_replays_and_seeks_on_random_traces)
{
	unsigned policies = 0;

	for (unsigned i = 0; pl_policies[i]; i++) {
		uint64_t rng = 0x5eed0000u + i;
		unsigned failed_runs = 0;

		for (unsigned run = 0; run < RUNS_PER_POLICY; run++)
			failed_runs += check_run(pl_policies[i], &rng) != 0;
		if (failed_runs)
			check_fail(__FILE__, __LINE__, "%s: %u of %u random runs broke an invariant",
				   pl_policy_name(pl_policies[i]), failed_runs, RUNS_PER_POLICY);
		policies++;
	}
	CHECK(policies >= 2);
}

TEST(every_policy_declares_names_for_its_lists_fields_hands_and_counters)
{
	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];

		CHECK(pl_policy_name(ops) && pl_policy_title(ops) && pl_policy_help(ops));
		CHECK(pl_policy_nlists(ops) >= 1 && pl_policy_nlists(ops) <= PL_MAX_LISTS);
		CHECK(pl_policy_nfields(ops) <= PL_MAX_FIELDS);
		CHECK(pl_policy_nhands(ops) <= PL_MAX_HANDS);
		CHECK(pl_policy_nparams(ops) <= PL_MAX_PARAMS);
		CHECK(pl_policy_ncounters(ops) <= PL_MAX_COUNTERS);
		CHECK(pl_policy_nvariables(ops) <= PL_MAX_VARIABLES);
		for (unsigned l = 0; l < pl_policy_nlists(ops); l++)
			CHECK(pl_policy_list_name(ops, l) != NULL);
		for (unsigned f = 0; f < pl_policy_nfields(ops); f++)
			CHECK(pl_policy_field_name(ops, f) != NULL);
		for (unsigned h = 0; h < pl_policy_nhands(ops); h++)
			CHECK(pl_policy_hand_name(ops, h) &&
			      pl_policy_hand_list(ops, h) < pl_policy_nlists(ops));
		for (unsigned c = 0; c < pl_policy_ncounters(ops); c++)
			CHECK(pl_policy_counter_name(ops, c) != NULL);
		for (unsigned v = 0; v < pl_policy_nvariables(ops); v++)
			CHECK(pl_policy_variable_name(ops, v) != NULL);
		for (unsigned p = 0; p < pl_policy_nparams(ops); p++) {
			const struct pl_param *param = pl_policy_param(ops, p);

			CHECK(param->min <= param->def && param->def <= param->max);
		}
	}
}

TEST(every_policy_is_found_by_its_name)
{
	for (unsigned i = 0; pl_policies[i]; i++)
		CHECK(pl_policy_find(pl_policy_name(pl_policies[i])) == pl_policies[i]);
	CHECK(pl_policy_find("no-such-policy") == NULL);
}

/*
 * Recording may change how a policy does its work (a hand that sweeps a
 * word of reference bits at a time when nothing animates it) but never
 * what it does: run unrecorded, every policy reaches the snapshot, the
 * counts and its own counters that its recorded run reaches, at a random
 * step and at the end.  Traces are longer and memories larger here than
 * above, so that tables span several 64-slot words.
 */
#define UNRECORDED_RUNS 12
#define UNRECORDED_REFS 3000

static void random_trace(uint64_t *rng, struct pl_trace *t)
{
	uint32_t universe = 2 + (uint32_t)rng_below(rng, 700);
	uint32_t hot = 1 + universe / 8;

	pl_trace_init(t);
	for (uint32_t i = 0; i < UNRECORDED_REFS; i++) {
		uint64_t x = splitmix64_next(rng);
		uint32_t page = (uint32_t)(x >> 8) % (x & 1 ? hot : universe);

		if (pl_trace_add(t, page * 7 + 3, (x >> 40) % 3 ? 0 : PL_REF_WRITE) == PL_NONE)
			test_abort("out of memory for a trace");
	}
}

/* The snapshot, stats and counters after `step` and at the end. */
struct run_end {
	struct pl_snapshot at[2];
	struct pl_stats stats[2];
	uint64_t counters[2][PL_MAX_COUNTERS];
};

static void run_to(const struct pl_policy_ops *ops, const struct setting *setting,
		   const struct pl_trace *t, uint32_t frames, unsigned flags, uint32_t step,
		   struct run_end *out)
{
	struct pl_error err;
	struct pl_sim *sim = pl_sim_create(ops, frames, setting->params, t, flags, 0, &err);

	if (!sim)
		test_abort("%s [%s]: %s", pl_policy_name(ops), setting->text, err.msg);
	for (int k = 0; k < 2; k++) {
		pl_snapshot_init(&out->at[k], ops);
		pl_sim_run(sim, k ? UINT32_MAX : step);
		if (pl_sim_error(sim) || pl_sim_snapshot(sim, &out->at[k]))
			test_abort("%s [%s], %u frames: %s", pl_policy_name(ops), setting->text,
				   frames, pl_sim_error(sim) ? pl_sim_error(sim) : "no snapshot");
		out->stats[k] = *pl_sim_stats(sim);
		memset(out->counters[k], 0, sizeof(out->counters[k]));
		pl_sim_counters(sim, out->counters[k]);
	}
	pl_sim_destroy(sim);
}

static bool same_run(const struct run_end *a, const struct run_end *b)
{
	for (int k = 0; k < 2; k++) {
		if (!pl_snapshot_equal(&a->at[k], &b->at[k]) ||
		    memcmp(&a->stats[k], &b->stats[k], sizeof(a->stats[k])) ||
		    memcmp(a->counters[k], b->counters[k], sizeof(a->counters[k])))
			return false;
	}
	return true;
}

TEST(every_policy_reaches_unrecorded_the_snapshots_and_counts_it_reaches_recorded)
{
	static const uint32_t frame_choices[] = { 1, 2, 7, 63, 64, 65, 100, 129, 200, 500 };

	for (unsigned i = 0; pl_policies[i]; i++) {
		const struct pl_policy_ops *ops = pl_policies[i];
		uint64_t rng = 0x0ff00000u + i;

		for (unsigned run = 0; run < UNRECORDED_RUNS; run++) {
			uint32_t frames = frame_choices[rng_below(&rng, sizeof(frame_choices) /
								   sizeof(frame_choices[0]))];
			uint32_t step = (uint32_t)rng_below(&rng, UNRECORDED_REFS + 1);
			struct run_end recorded, unrecorded;
			struct setting setting;
			struct pl_trace t;

			random_setting(&rng, ops, &setting);
			random_trace(&rng, &t);
			run_to(ops, &setting, &t, frames, PL_SIM_RECORD, step, &recorded);
			run_to(ops, &setting, &t, frames, 0, step, &unrecorded);
			if (!same_run(&recorded, &unrecorded))
				check_fail(__FILE__, __LINE__,
					   "%s [%s], %u frames, run %u: unrecorded, step %u or the "
					   "end differs from the recorded run", pl_policy_name(ops),
					   setting.text, frames, run, step);
			for (int k = 0; k < 2; k++) {
				pl_snapshot_free(&recorded.at[k]);
				pl_snapshot_free(&unrecorded.at[k]);
			}
			pl_trace_free(&t);
		}
	}
}

int main(void)
{
	return run_tests();
}
