/* SPDX-License-Identifier: GPL-2.0 */
/*
 * support.c - see support.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

#define RING 16
#define RING_SIZE 16384

void test_abort(const char *fmt, ...)
{
	va_list ap;

	printf("    abort: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	/* _exit: the test failed already, a leak report would only add noise */
	_exit(1);
}

/* The next buffer of the ring, emptied. */
static char *ring_buffer(void)
{
	static char ring[RING][RING_SIZE];
	static unsigned next;
	char *buf = ring[next++ % RING];

	buf[0] = '\0';
	return buf;
}

/* Appends formatted text, aborting the test rather than truncating. */
static void __attribute__((format(printf, 2, 3))) append(char *buf, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + used, RING_SIZE - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= RING_SIZE - used)
		test_abort("support.c: description longer than %d bytes", RING_SIZE);
}

static void apply_params(const struct pl_policy_ops *ops, const char *params,
			 int64_t values[PL_MAX_PARAMS])
{
	char copy[512], *save, *word;
	struct pl_error err;

	pl_params_default(ops, values);
	if (!params)
		return;
	if (strlen(params) >= sizeof(copy))
		test_abort("parameters too long: %s", params);
	strcpy(copy, params);
	for (word = strtok_r(copy, " ", &save); word; word = strtok_r(NULL, " ", &save))
		if (pl_params_set(ops, values, word, &err))
			test_abort("%s", err.msg);
}

void run_start(struct run *r, const char *policy, uint32_t frames, const char *refs,
	       const char *params, unsigned flags)
{
	int64_t values[PL_MAX_PARAMS];
	struct pl_error err;

	r->ops = pl_policy_find(policy);
	if (!r->ops)
		test_abort("no policy named '%s'", policy);
	apply_params(r->ops, params, values);
	pl_trace_init(&r->trace);
	if (pl_trace_parse_refs(&r->trace, refs, "refs", &err))
		test_abort("%s", err.msg);
	r->sim = pl_sim_create(r->ops, frames, values, &r->trace, flags, 0, &err);
	if (!r->sim)
		test_abort("%s", err.msg);
}

static void check_sim(const struct run *r)
{
	if (pl_sim_error(r->sim))
		test_abort("%s", pl_sim_error(r->sim));
}

void run_step(struct run *r)
{
	if (!pl_sim_step(r->sim))
		check_sim(r);
}

void run_to_end(struct run *r)
{
	pl_sim_run(r->sim, UINT32_MAX);
	check_sim(r);
}

void run_free(struct run *r)
{
	pl_sim_destroy(r->sim);
	pl_trace_free(&r->trace);
	r->sim = NULL;
}

static unsigned list_start(const struct pl_snapshot *s, unsigned list)
{
	unsigned start = 0;

	for (unsigned i = 0; i < list; i++)
		start += s->len[i];
	return start;
}

static void describe_entry(char *buf, const struct pl_policy_ops *ops, const struct pl_trace *t,
			   const struct pl_snapshot *s, unsigned entry)
{
	const int32_t *values = s->value + (size_t)entry * s->nfields;
	bool first = true;

	append(buf, "%llu", (unsigned long long)t->number[s->page[entry]]);
	for (unsigned f = 0; f < s->nfields; f++) {
		if (!values[f])
			continue;
		append(buf, "%s%s=%d", first ? "(" : ",", pl_policy_field_name(ops, f),
		       values[f]);
		first = false;
	}
	if (!first)
		append(buf, ")");
}

const char *describe_snapshot(const struct pl_policy_ops *ops, const struct pl_trace *t,
			      const struct pl_snapshot *s)
{
	char *buf = ring_buffer();

	for (unsigned l = 0; l < s->nlists; l++) {
		unsigned start = list_start(s, l);

		append(buf, "%s%s:", l ? "; " : "", pl_policy_list_name(ops, l));
		for (unsigned e = start; e < start + s->len[l]; e++) {
			append(buf, " ");
			describe_entry(buf, ops, t, s, e);
		}
	}
	for (unsigned h = 0; h < s->nhands; h++)
		append(buf, "; %s=%d", pl_policy_hand_name(ops, h), s->hand[h]);
	for (unsigned v = 0; v < s->nvariables; v++)
		append(buf, "; %s=%d", pl_policy_variable_name(ops, v), s->variable[v]);
	return buf;
}

/* Calls fn with the live snapshot, freeing it afterwards. */
static const char *with_snapshot(const struct run *r, const char *list,
				 const char *(*fn)(const struct run *, const struct pl_snapshot *,
						   const char *))
{
	struct pl_snapshot s;
	const char *text;

	pl_snapshot_init(&s, r->ops);
	if (pl_sim_snapshot(r->sim, &s))
		test_abort("%s: snapshot() failed", pl_policy_name(r->ops));
	text = fn(r, &s, list);
	pl_snapshot_free(&s);
	return text;
}

static const char *describe_all(const struct run *r, const struct pl_snapshot *s,
				const char *unused)
{
	return describe_snapshot(r->ops, &r->trace, s);
}

static const char *describe_list(const struct run *r, const struct pl_snapshot *s,
				 const char *list)
{
	char *buf = ring_buffer();

	for (unsigned l = 0; l < s->nlists; l++) {
		unsigned start = list_start(s, l);

		if (strcmp(pl_policy_list_name(r->ops, l), list))
			continue;
		for (unsigned e = start; e < start + s->len[l]; e++)
			append(buf, "%s%llu", e > start ? " " : "",
			       (unsigned long long)r->trace.number[s->page[e]]);
		return buf;
	}
	test_abort("%s has no list named '%s'", pl_policy_name(r->ops), list);
}

const char *run_describe(const struct run *r)
{
	return with_snapshot(r, NULL, describe_all);
}

const char *run_list(const struct run *r, const char *list)
{
	return with_snapshot(r, list, describe_list);
}

uint64_t run_counter(const struct run *r, const char *counter)
{
	uint64_t values[PL_MAX_COUNTERS];

	pl_sim_counters(r->sim, values);
	for (unsigned i = 0; i < pl_policy_ncounters(r->ops); i++)
		if (!strcmp(pl_policy_counter_name(r->ops, i), counter))
			return values[i];
	test_abort("%s has no counter named '%s'", pl_policy_name(r->ops), counter);
}

struct pl_stats simulate(const char *policy, uint32_t frames, const char *refs,
			 const char *params)
{
	struct pl_stats stats;
	struct run r;

	run_start(&r, policy, frames, refs, params, 0);
	run_to_end(&r);
	stats = *pl_sim_stats(r.sim);
	run_free(&r);
	return stats;
}

const char *final_list(const char *policy, uint32_t frames, const char *refs,
		       const char *params, const char *list)
{
	const char *text;
	struct run r;

	run_start(&r, policy, frames, refs, params, 0);
	run_to_end(&r);
	text = run_list(&r, list);
	run_free(&r);
	return text;
}

const char *final_describe(const char *policy, uint32_t frames, const char *refs,
			   const char *params)
{
	const char *text;
	struct run r;

	run_start(&r, policy, frames, refs, params, 0);
	run_to_end(&r);
	text = run_describe(&r);
	run_free(&r);
	return text;
}

uint64_t final_counter(const char *policy, uint32_t frames, const char *refs,
		       const char *params, const char *counter)
{
	uint64_t value;
	struct run r;

	run_start(&r, policy, frames, refs, params, 0);
	run_to_end(&r);
	value = run_counter(&r, counter);
	run_free(&r);
	return value;
}

unsigned random_traces_failing(unsigned traces, uint64_t seed,
			       unsigned (*differences)(uint64_t *rng, unsigned trace))
{
	unsigned failed = 0;

	for (unsigned i = 0; i < traces && failed < 3; i++)
		failed += differences(&seed, i) != 0;
	return failed;
}
