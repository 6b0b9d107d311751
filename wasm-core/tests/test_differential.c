/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_differential.c - every classic policy against a deliberately naive
 * reference written here, on thousands of random traces, comparing the
 * fault count and the whole sequence of victims.
 *
 * The references share nothing with the policies but the trace and the
 * parameter parser.  They keep plain per-page arrays (load time, last use,
 * counts, bits) and find each victim by scanning the frames, or for OPT by
 * scanning the rest of the trace, so that each is obviously the textbook
 * rule, at O(frames) or O(trace) per fault:
 *   FIFO   the page loaded earliest
 *   LRU    the page used least recently (a timestamp per page)
 *   OPT    the page whose next use, found by reading ahead, is furthest;
 *          never-used-again pages tie, the least recently used goes first
 *   CLOCK  a literal circular array and a hand that clears bits as it goes
 *   Random the slot SplitMix64 names, generator advanced once per eviction
 *   LFU    the smallest use count since loading, then the least recent use
 *   NRU    the lowest class 2R+M, then the page whose class changed first
 *          (a clearing tick changes classes in the order they were joined)
 *   Aging  the smallest counter, then the page loaded earliest
 * The model ticks exactly as the driver documents: before the references
 * at steps p, 2p, 3p ... for a tick period p.
 *
 * At a random step of each run the policy's snapshot must also equal the
 * model's structure: the frames in slot order (FIFO's queue by load time,
 * LRU's recency list by last use), every field (reference bits, counts,
 * counters, next uses) and CLOCK's hand.
 *
 * Traces: 20 to 300 references over 2 to 3 x frames + 4 pages, half of
 * them drawn from a small hot set so that hits, ties and every class
 * occur, a quarter of them writes; 1 to 12 frames.  All from a fixed seed:
 * a failure names the trace and is reproducible.
 */
#include "check.h"
#include "support.h"
#include "policy.h"
#include "splitmix64.h"

#define TRACES 2000		/* per parameter setting */
#define MAX_FRAMES 12
#define MAX_VICTIMS 400

/* ------------------------------------------------------ the naive model */

struct model {
	const struct pl_trace *trace;
	uint32_t frames, used, hand, tick_period;
	uint32_t frame[MAX_FRAMES];	/* resident pages by slot */
	uint32_t *slot_of;		/* [npages] slot, PL_NONE if not resident */
	uint64_t *loaded_at, *last_use, *count, *changed_at;
	uint8_t *referenced, *modified;
	uint32_t *counter;
	uint64_t clock;			/* NRU's order of class changes */
	uint64_t rng;
	int64_t ref_on_load, bits;
};

struct naive_policy {
	const char *name;
	void (*hit)(struct model *m, uint32_t page, uint32_t step);
	void (*load)(struct model *m, uint32_t page, uint32_t step);
	/* The slot of the page to evict at `step`; may move a hand. */
	uint32_t (*victim_slot)(struct model *m, uint32_t step);
	void (*tick)(struct model *m);
	/* The resident pages in the order of the policy's one list. */
	void (*order)(const struct model *m, uint32_t *pages);
	/* A resident page's fields, in the policy's field order. */
	void (*fields)(const struct model *m, uint32_t page, int32_t *values);
};

static void nothing_on_hit(struct model *m, uint32_t page, uint32_t step)
{
}

static void nothing_on_load(struct model *m, uint32_t page, uint32_t step)
{
}

/* The slot whose page has the smallest key(m, page); the first such slot. */
static uint32_t argmin_slot(struct model *m, uint64_t (*key)(const struct model *, uint32_t))
{
	uint32_t best = 0;

	for (uint32_t s = 1; s < m->used; s++) {
		if (key(m, m->frame[s]) < key(m, m->frame[best]))
			best = s;
	}
	return best;
}

static uint64_t load_time(const struct model *m, uint32_t page)
{
	return m->loaded_at[page];
}

static uint32_t fifo_victim(struct model *m, uint32_t step)
{
	return argmin_slot(m, load_time);
}

static uint64_t last_use(const struct model *m, uint32_t page)
{
	return m->last_use[page];
}

static uint32_t lru_victim(struct model *m, uint32_t step)
{
	return argmin_slot(m, last_use);
}

/* Reads the trace ahead for the next reference to page after step. */
static uint64_t next_use_by_reading_ahead(const struct model *m, uint32_t page, uint32_t step)
{
	for (uint32_t i = step + 1; i < m->trace->n; i++) {
		if (m->trace->page[i] == page)
			return i;
	}
	return UINT64_MAX;
}

static uint32_t opt_victim(struct model *m, uint32_t step)
{
	uint32_t best = 0;
	uint64_t best_next = next_use_by_reading_ahead(m, m->frame[0], step);

	for (uint32_t s = 1; s < m->used; s++) {
		uint32_t page = m->frame[s];
		uint64_t next = next_use_by_reading_ahead(m, page, step);
		bool both_dead = next == UINT64_MAX && best_next == UINT64_MAX;

		if (both_dead ? m->last_use[page] < m->last_use[m->frame[best]] :
				next > best_next) {
			best = s;
			best_next = next;
		}
	}
	return best;
}

static void set_referenced_on_hit(struct model *m, uint32_t page, uint32_t step)
{
	m->referenced[page] = 1;
}

static void clock_load(struct model *m, uint32_t page, uint32_t step)
{
	m->referenced[page] = (uint8_t)m->ref_on_load;
}

static uint32_t clock_victim(struct model *m, uint32_t step)
{
	uint32_t slot;

	while (m->referenced[m->frame[m->hand]]) {
		m->referenced[m->frame[m->hand]] = 0;
		m->hand = (m->hand + 1) % m->frames;
	}
	slot = m->hand;
	m->hand = (m->hand + 1) % m->frames;	/* past the page about to go in */
	return slot;
}

static uint32_t random_victim(struct model *m, uint32_t step)
{
	return splitmix64_below(splitmix64_next(&m->rng), m->frames);
}

static void lfu_hit(struct model *m, uint32_t page, uint32_t step)
{
	m->count[page]++;
}

static void lfu_load(struct model *m, uint32_t page, uint32_t step)
{
	m->count[page] = 1;
}

static uint64_t count_then_last_use(const struct model *m, uint32_t page)
{
	return m->count[page] << 32 | m->last_use[page];
}

static uint32_t lfu_victim(struct model *m, uint32_t step)
{
	return argmin_slot(m, count_then_last_use);
}

static unsigned nru_class(const struct model *m, uint32_t page)
{
	return 2u * m->referenced[page] + m->modified[page];
}

static void nru_reference(struct model *m, uint32_t page, uint32_t step, bool loading)
{
	unsigned before = loading ? 4 : nru_class(m, page);

	m->referenced[page] = 1;
	if (m->trace->flags[step] & PL_REF_WRITE)
		m->modified[page] = 1;
	if (nru_class(m, page) != before)
		m->changed_at[page] = ++m->clock;
}

static void nru_hit(struct model *m, uint32_t page, uint32_t step)
{
	nru_reference(m, page, step, false);
}

static void nru_load(struct model *m, uint32_t page, uint32_t step)
{
	m->modified[page] = 0;
	nru_reference(m, page, step, true);
}

static uint64_t class_then_change(const struct model *m, uint32_t page)
{
	return (uint64_t)nru_class(m, page) << 48 | m->changed_at[page];
}

static uint32_t nru_victim(struct model *m, uint32_t step)
{
	return argmin_slot(m, class_then_change);
}

static uint64_t change_time(const struct model *m, uint32_t page)
{
	return m->changed_at[page];
}

/* Clears every R bit; the pages whose class changes rejoin in their old order. */
static void nru_tick(struct model *m)
{
	bool done[MAX_FRAMES] = { false };

	for (uint32_t round = 0; round < m->used; round++) {
		uint32_t first = PL_NONE;

		for (uint32_t s = 0; s < m->used; s++) {
			if (done[s])
				continue;
			if (first == PL_NONE ||
			    change_time(m, m->frame[s]) < change_time(m, m->frame[first]))
				first = s;
		}
		done[first] = true;
		if (m->referenced[m->frame[first]]) {
			m->referenced[m->frame[first]] = 0;
			m->changed_at[m->frame[first]] = ++m->clock;
		}
	}
}

static void aging_load(struct model *m, uint32_t page, uint32_t step)
{
	m->counter[page] = 0;
	m->referenced[page] = 1;
}

static uint64_t counter_then_load(const struct model *m, uint32_t page)
{
	return (uint64_t)m->counter[page] << 32 | m->loaded_at[page];
}

static uint32_t aging_victim(struct model *m, uint32_t step)
{
	return argmin_slot(m, counter_then_load);
}

static void aging_tick(struct model *m)
{
	for (uint32_t s = 0; s < m->used; s++) {
		uint32_t page = m->frame[s];

		m->counter[page] = m->counter[page] >> 1 |
				   (uint32_t)m->referenced[page] << (m->bits - 1);
		m->referenced[page] = 0;
	}
}

/* ------------------------------------------- the model's structure */

static void slot_order(const struct model *m, uint32_t *pages)
{
	memcpy(pages, m->frame, m->used * sizeof(*pages));
}

/* Selection sort of the resident pages by key, ascending or descending. */
static void order_by(const struct model *m, uint32_t *pages, bool descending,
		     uint64_t (*key)(const struct model *, uint32_t))
{
	slot_order(m, pages);
	for (uint32_t i = 0; i < m->used; i++) {
		for (uint32_t j = i + 1; j < m->used; j++) {
			uint64_t a = key(m, pages[i]), b = key(m, pages[j]);

			if (descending ? b > a : b < a) {
				uint32_t swap = pages[i];

				pages[i] = pages[j];
				pages[j] = swap;
			}
		}
	}
}

static void load_order(const struct model *m, uint32_t *pages)
{
	order_by(m, pages, false, load_time);
}

static void most_recent_first(const struct model *m, uint32_t *pages)
{
	order_by(m, pages, true, last_use);
}

static void no_fields(const struct model *m, uint32_t page, int32_t *values)
{
}

static void referenced_field(const struct model *m, uint32_t page, int32_t *values)
{
	values[0] = m->referenced[page];
}

/* The next reference after the page's last one: what OPT shows. */
static void next_use_field(const struct model *m, uint32_t page, int32_t *values)
{
	uint64_t next = next_use_by_reading_ahead(m, page, (uint32_t)m->last_use[page]);

	values[0] = next == UINT64_MAX ? -1 : (int32_t)next;
}

static void count_field(const struct model *m, uint32_t page, int32_t *values)
{
	values[0] = (int32_t)m->count[page];
}

static void nru_fields(const struct model *m, uint32_t page, int32_t *values)
{
	values[0] = m->referenced[page];
	values[1] = m->modified[page];
}

static void aging_fields(const struct model *m, uint32_t page, int32_t *values)
{
	values[0] = m->referenced[page];
	values[1] = (int32_t)m->counter[page];
}

static const struct naive_policy naive_policies[] = {
	{ "fifo", nothing_on_hit, nothing_on_load, fifo_victim, NULL, load_order, no_fields },
	{ "lru", nothing_on_hit, nothing_on_load, lru_victim, NULL, most_recent_first,
	  no_fields },
	{ "opt", nothing_on_hit, nothing_on_load, opt_victim, NULL, slot_order, next_use_field },
	{ "clock", set_referenced_on_hit, clock_load, clock_victim, NULL, slot_order,
	  referenced_field },
	{ "random", nothing_on_hit, nothing_on_load, random_victim, NULL, slot_order, no_fields },
	{ "lfu", lfu_hit, lfu_load, lfu_victim, NULL, slot_order, count_field },
	{ "nru", nru_hit, nru_load, nru_victim, nru_tick, slot_order, nru_fields },
	{ "aging", set_referenced_on_hit, aging_load, aging_victim, aging_tick, slot_order,
	  aging_fields },
};

static const struct naive_policy *naive_find(const char *name)
{
	for (size_t i = 0; i < sizeof(naive_policies) / sizeof(naive_policies[0]); i++) {
		if (!strcmp(naive_policies[i].name, name))
			return &naive_policies[i];
	}
	test_abort("no naive model of %s", name);
}

struct outcome {
	uint64_t misses;
	uint32_t nvictims;
	uint32_t victim[MAX_VICTIMS];
	uint32_t victim_step[MAX_VICTIMS];
};

static void record_victim(struct outcome *out, uint32_t page, uint32_t step)
{
	if (out->nvictims < MAX_VICTIMS) {
		out->victim[out->nvictims] = page;
		out->victim_step[out->nvictims] = step;
	}
	out->nvictims++;
}

static int64_t param(const struct pl_policy_ops *ops, const int64_t *values, const char *name)
{
	for (unsigned i = 0; i < pl_policy_nparams(ops); i++) {
		if (!strcmp(pl_policy_param(ops, i)->name, name))
			return values[i];
	}
	return 0;
}

static void *zeroed(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		test_abort("out of memory");
	return p;
}

static void model_init(struct model *m, const struct pl_trace *t, uint32_t frames,
		       const struct pl_policy_ops *ops, const int64_t *values)
{
	memset(m, 0, sizeof(*m));
	m->trace = t;
	m->frames = frames;
	m->slot_of = zeroed(t->npages, sizeof(*m->slot_of));
	for (uint32_t p = 0; p < t->npages; p++)
		m->slot_of[p] = PL_NONE;
	m->loaded_at = zeroed(t->npages, sizeof(*m->loaded_at));
	m->last_use = zeroed(t->npages, sizeof(*m->last_use));
	m->count = zeroed(t->npages, sizeof(*m->count));
	m->changed_at = zeroed(t->npages, sizeof(*m->changed_at));
	m->referenced = zeroed(t->npages, sizeof(*m->referenced));
	m->modified = zeroed(t->npages, sizeof(*m->modified));
	m->counter = zeroed(t->npages, sizeof(*m->counter));
	m->rng = (uint64_t)param(ops, values, "seed");
	m->ref_on_load = param(ops, values, "ref_on_load");
	m->bits = param(ops, values, "bits");
	m->tick_period = (uint32_t)param(ops, values, "tick_period");
	if (!m->tick_period)
		m->tick_period = frames;	/* the policies' documented default */
}

static void model_free(struct model *m)
{
	free(m->slot_of);
	free(m->loaded_at);
	free(m->last_use);
	free(m->count);
	free(m->changed_at);
	free(m->referenced);
	free(m->modified);
	free(m->counter);
}

/* Processes the references at steps from .. to-1. */
static void model_run(const struct naive_policy *np, struct model *m, struct outcome *out,
		      uint32_t from, uint32_t to)
{
	for (uint32_t step = from; step < to; step++) {
		uint32_t page = m->trace->page[step];
		uint32_t slot;

		if (np->tick && step && step % m->tick_period == 0)
			np->tick(m);
		if (m->slot_of[page] != PL_NONE) {
			np->hit(m, page, step);
		} else {
			out->misses++;
			if (m->used == m->frames) {
				slot = np->victim_slot(m, step);
				record_victim(out, m->frame[slot], step);
				m->slot_of[m->frame[slot]] = PL_NONE;
			} else {
				slot = m->used++;
			}
			m->frame[slot] = page;
			m->slot_of[page] = slot;
			m->loaded_at[page] = step;
			np->load(m, page, step);
		}
		m->last_use[page] = step;
	}
}

/* ------------------------------------------------------ the real policy */

/* Runs the whole trace; `middle` gets the snapshot after `midpoint` steps. */
static void real_run(const struct pl_policy_ops *ops, const int64_t *values,
		     const struct pl_trace *t, uint32_t frames, struct outcome *out,
		     uint32_t midpoint, struct pl_snapshot *middle)
{
	struct pl_error err;
	struct pl_sim *sim = pl_sim_create(ops, frames, values, t, PL_SIM_RECORD, 0, &err);
	const struct pl_event *ev;
	uint32_t count;

	if (!sim)
		test_abort("%s: %s", pl_policy_name(ops), err.msg);
	if (pl_sim_run(sim, midpoint) != midpoint || pl_sim_snapshot(sim, middle) ||
	    pl_sim_run(sim, UINT32_MAX) != t->n - midpoint)
		test_abort("%s stopped before the end of the trace", pl_policy_name(ops));
	out->misses = pl_sim_stats(sim)->misses;
	ev = pl_sim_events(sim, 0, t->n, &count);
	for (uint32_t i = 0; i < count; i++) {
		if (ev[i].kind == PL_EV_VICTIM)
			record_victim(out, ev[i].page, ev[i].step);
	}
	pl_sim_destroy(sim);
}

/* ------------------------------------------------------------ the traces */

static void random_trace(struct pl_trace *t, uint64_t *rng, uint32_t frames)
{
	uint32_t length = 20 + splitmix64_below(splitmix64_next(rng), 281);
	uint32_t pages = 2 + splitmix64_below(splitmix64_next(rng), 3 * frames + 3);
	uint32_t hot = 1 + pages / 4;

	pl_trace_init(t);
	for (uint32_t i = 0; i < length; i++) {
		uint64_t x = splitmix64_next(rng);
		uint32_t page = x & 1 ? splitmix64_below(x, hot) : splitmix64_below(x, pages);
		unsigned flags = (x >> 8 & 3) == 0 ? PL_REF_WRITE : 0;

		/* spread page numbers over 64 bits: the dense mapping is tested too */
		if (pl_trace_add(t, (uint64_t)page * 0x9e3779b97f4a7c15ull, flags) == PL_NONE)
			test_abort("out of memory for a trace");
	}
}

static void describe_difference(const struct outcome *real, const struct outcome *naive)
{
	uint32_t n = real->nvictims < naive->nvictims ? real->nvictims : naive->nvictims;

	for (uint32_t i = 0; i < n && i < MAX_VICTIMS; i++) {
		if (real->victim[i] != naive->victim[i] ||
		    real->victim_step[i] != naive->victim_step[i]) {
			printf("    first difference: victim %u at step %u is page id %u, "
			       "the naive model evicts page id %u at step %u\n", i,
			       real->victim_step[i], real->victim[i], naive->victim[i],
			       naive->victim_step[i]);
			return;
		}
	}
	printf("    victims: %u, the naive model %u\n", real->nvictims, naive->nvictims);
}

static void print_fields(const int32_t *values, uint32_t nfields)
{
	for (uint32_t f = 0; f < nfields; f++)
		printf("%s%d%s", f ? "," : " (", values[f], f + 1 == nfields ? ")" : "");
}

/* Does the snapshot show the model's structure?  Describes the first difference. */
static bool same_structure(const struct naive_policy *np, const struct model *m,
			   const struct pl_snapshot *s, bool describe)
{
	uint32_t pages[MAX_FRAMES];
	int32_t values[PL_MAX_FIELDS];

	if (s->len[0] != m->used) {
		if (describe)
			printf("    %u pages in the snapshot, %u in the model\n", s->len[0],
			       m->used);
		return false;
	}
	np->order(m, pages);
	for (uint32_t i = 0; i < m->used; i++) {
		np->fields(m, pages[i], values);
		if (s->page[i] != pages[i] ||
		    memcmp(&s->value[i * s->nfields], values, s->nfields * sizeof(*values))) {
			if (describe) {
				printf("    position %u: page id %u", i, s->page[i]);
				print_fields(&s->value[i * s->nfields], s->nfields);
				printf(", the model: page id %u", pages[i]);
				print_fields(values, s->nfields);
				printf("\n");
			}
			return false;
		}
	}
	if (s->nhands && s->hand[0] != (int32_t)m->hand) {
		if (describe)
			printf("    the hand is at %d, in the model at %u\n", s->hand[0], m->hand);
		return false;
	}
	return true;
}

static bool same_outcome(const struct outcome *a, const struct outcome *b)
{
	uint32_t n = a->nvictims < MAX_VICTIMS ? a->nvictims : MAX_VICTIMS;

	return a->misses == b->misses && a->nvictims == b->nvictims &&
	       !memcmp(a->victim, b->victim, n * sizeof(a->victim[0])) &&
	       !memcmp(a->victim_step, b->victim_step, n * sizeof(a->victim_step[0]));
}

/* Runs the model again up to `step` to describe how it differs from `s`. */
static void describe_structure_at(const struct naive_policy *np, const struct pl_trace *t,
				  uint32_t frames, const struct pl_policy_ops *ops,
				  const int64_t *values, uint32_t step,
				  const struct pl_snapshot *s)
{
	struct outcome ignored = { 0 };
	struct model m;

	model_init(&m, t, frames, ops, values);
	model_run(np, &m, &ignored, 0, step);
	same_structure(np, &m, s, true);
	model_free(&m);
}

/*
 * Runs `policy` with `params` and its naive model on TRACES random traces;
 * returns how many agreed (the first disagreement is described).
 */
static uint32_t agreeing_traces(const char *policy, const char *params, uint64_t seed)
{
	const struct pl_policy_ops *ops = pl_policy_find(policy);
	const struct naive_policy *np = naive_find(policy);
	int64_t values[PL_MAX_PARAMS];
	uint64_t rng = seed;
	uint32_t agreed = 0;
	bool described = false;
	struct pl_snapshot middle;
	struct pl_error err;
	char copy[256], *save, *word;

	if (!ops)
		test_abort("policy %s is not registered", policy);
	pl_params_default(ops, values);
	snprintf(copy, sizeof(copy), "%s", params ? params : "");
	for (word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
		if (pl_params_set(ops, values, word, &err))
			test_abort("%s", err.msg);
	}
	pl_snapshot_init(&middle, ops);
	for (uint32_t i = 0; i < TRACES; i++) {
		uint32_t frames = 1 + splitmix64_below(splitmix64_next(&rng), MAX_FRAMES);
		struct outcome real = { 0 }, naive = { 0 };
		struct pl_trace t;
		struct model m;
		uint32_t midpoint;
		bool structure;

		random_trace(&t, &rng, frames);
		midpoint = splitmix64_below(splitmix64_next(&rng), t.n + 1);
		real_run(ops, values, &t, frames, &real, midpoint, &middle);
		model_init(&m, &t, frames, ops, values);
		model_run(np, &m, &naive, 0, midpoint);
		structure = same_structure(np, &m, &middle, false);
		model_run(np, &m, &naive, midpoint, t.n);
		if (structure && same_outcome(&real, &naive)) {
			agreed++;
		} else if (!described) {
			printf("    %s %s, trace %u (seed %llu), %u frames, %u references: "
			       "%llu faults, the naive model %llu\n", policy, params ? params : "",
			       i, (unsigned long long)seed, frames, t.n,
			       (unsigned long long)real.misses, (unsigned long long)naive.misses);
			if (structure) {
				describe_difference(&real, &naive);
			} else {
				printf("    after step %u:\n", midpoint);
				describe_structure_at(np, &t, frames, ops, values, midpoint,
						      &middle);
			}
			described = true;
		}
		model_free(&m);
		pl_trace_free(&t);
	}
	pl_snapshot_free(&middle);
	return agreed;
}

TEST(fifo_evicts_what_a_scan_for_the_earliest_load_evicts)
{
	CHECK_EQ(agreeing_traces("fifo", NULL, 1), TRACES);
}

TEST(lru_evicts_what_a_scan_for_the_oldest_timestamp_evicts)
{
	CHECK_EQ(agreeing_traces("lru", NULL, 2), TRACES);
}

TEST(opt_evicts_what_reading_the_trace_ahead_by_brute_force_evicts)
{
	CHECK_EQ(agreeing_traces("opt", NULL, 3), TRACES);
}

TEST(clock_evicts_what_a_literal_circular_array_with_a_hand_evicts)
{
	CHECK_EQ(agreeing_traces("clock", "ref_on_load=set", 4), TRACES);
	CHECK_EQ(agreeing_traces("clock", "ref_on_load=clear", 5), TRACES);
}

TEST(random_evicts_the_slot_splitmix64_names_for_each_seed)
{
	CHECK_EQ(agreeing_traces("random", NULL, 6), TRACES);
	CHECK_EQ(agreeing_traces("random", "seed=0", 7), TRACES);
	CHECK_EQ(agreeing_traces("random", "seed=987654321987", 8), TRACES);
}

TEST(lfu_evicts_what_a_scan_for_the_fewest_uses_then_the_oldest_use_evicts)
{
	CHECK_EQ(agreeing_traces("lfu", NULL, 9), TRACES);
}

TEST(nru_evicts_what_a_scan_for_the_lowest_class_then_the_oldest_change_evicts)
{
	CHECK_EQ(agreeing_traces("nru", NULL, 10), TRACES);
	CHECK_EQ(agreeing_traces("nru", "tick_period=1", 11), TRACES);
	CHECK_EQ(agreeing_traces("nru", "tick_period=3", 12), TRACES);
	CHECK_EQ(agreeing_traces("nru", "tick_period=20", 13), TRACES);
}

/* M is the policy's own bit; writebacks are the driver's dirty bits. */
TEST(nru_evicts_a_modified_page_exactly_as_often_as_the_driver_writes_one_back)
{
	const struct pl_policy_ops *ops = pl_policy_find("nru");
	uint64_t rng = 19;

	for (uint32_t i = 0; i < TRACES; i++) {
		uint32_t frames = 1 + splitmix64_below(splitmix64_next(&rng), MAX_FRAMES);
		uint64_t victims_by_class[4];
		struct pl_error err;
		struct pl_trace t;
		struct pl_sim *sim;

		random_trace(&t, &rng, frames);
		sim = pl_sim_create(ops, frames, NULL, &t, 0, 0, &err);
		if (!sim)
			test_abort("nru: %s", err.msg);
		pl_sim_run(sim, UINT32_MAX);
		pl_sim_counters(sim, victims_by_class);
		CHECK_EQ(victims_by_class[1] + victims_by_class[3], pl_sim_stats(sim)->writebacks);
		CHECK_EQ(victims_by_class[0] + victims_by_class[1] + victims_by_class[2] +
			 victims_by_class[3], pl_sim_stats(sim)->evictions);
		pl_sim_destroy(sim);
		pl_trace_free(&t);
	}
}

TEST(aging_evicts_what_a_scan_for_the_smallest_counter_then_the_oldest_load_evicts)
{
	CHECK_EQ(agreeing_traces("aging", NULL, 14), TRACES);
	CHECK_EQ(agreeing_traces("aging", "bits=1 tick_period=1", 15), TRACES);
	CHECK_EQ(agreeing_traces("aging", "bits=3 tick_period=2", 16), TRACES);
	CHECK_EQ(agreeing_traces("aging", "bits=16 tick_period=5", 17), TRACES);
	CHECK_EQ(agreeing_traces("aging", "bits=31 tick_period=9", 18), TRACES);
}

int main(void)
{
	return run_tests();
}
