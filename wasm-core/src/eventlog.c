/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventlog.c - the event log, step index and checkpoints of a recorded
 * simulation.  Interface, invariants and costs: eventlog.h.
 */
#include <stdlib.h>

#include "eventlog.h"

int eventlog_init(struct eventlog *log, uint32_t n, uint32_t checkpoint_every)
{
	log->checkpoint_every = checkpoint_every ? checkpoint_every :
				EVENTLOG_DEFAULT_CHECKPOINT_EVERY;
	log->step_begin = calloc((size_t)n + 1, sizeof(*log->step_begin));
	log->checkpoints = calloc((size_t)n / log->checkpoint_every + 1,
				  sizeof(*log->checkpoints));
	return log->step_begin && log->checkpoints ? 0 : -1;
}

void eventlog_free(struct eventlog *log)
{
	for (uint32_t i = 0; i < log->ncheckpoints; i++)
		pl_snapshot_free(&log->checkpoints[i]);
	free(log->checkpoints);
	free(log->step_begin);
	free(log->events);
}

size_t eventlog_bytes(const struct eventlog *log, uint32_t n)
{
	size_t bytes = (size_t)log->events_cap * sizeof(*log->events) +
		       ((size_t)n + 1) * sizeof(*log->step_begin);

	for (uint32_t i = 0; i < log->ncheckpoints; i++) {
		const struct pl_snapshot *cp = &log->checkpoints[i];

		bytes += sizeof(*cp) + (size_t)cp->cap * (sizeof(*cp->page) +
			 cp->nfields * sizeof(*cp->value));
	}
	return bytes;
}

int eventlog_grow(struct eventlog *log)
{
	uint32_t cap = log->events_cap ? log->events_cap * 2 : 4096;
	struct pl_event *events;

	if (log->events_cap >= UINT32_MAX / 2)
		return -1;
	events = realloc(log->events, (size_t)cap * sizeof(*events));
	if (!events)
		return -1;
	log->events = events;
	log->events_cap = cap;
	return 0;
}

struct pl_snapshot *eventlog_begin_step(struct eventlog *log, uint32_t pos,
					const struct pl_policy_ops *ops)
{
	struct pl_snapshot *cp;

	log->step_begin[pos] = log->nevents;
	if (pos % log->checkpoint_every)
		return NULL;
	cp = &log->checkpoints[log->ncheckpoints++];
	pl_snapshot_init(cp, ops);
	/* sized like the previous one (memory changes little in K steps), not
	 * grown by doubling: less copying and no unused half (a failure here
	 * shows again, and is reported, when the snapshot is pushed) */
	if (log->ncheckpoints > 1)
		pl_snapshot_reserve(cp, cp[-1].total);
	return cp;
}

void eventlog_step_range(const struct eventlog *log, uint32_t step, uint32_t *begin,
			 uint32_t *end)
{
	*begin = log->step_begin[step];
	*end = log->step_begin[step + 1];
}

int eventlog_seek(const struct eventlog *log, uint32_t k, struct pl_snapshot *out)
{
	uint32_t cp = k / log->checkpoint_every;

	if (cp >= log->ncheckpoints || pl_snapshot_copy(out, &log->checkpoints[cp]))
		return -1;
	for (uint32_t e = log->step_begin[cp * log->checkpoint_every]; e < log->step_begin[k]; e++)
		if (pl_snapshot_apply(out, &log->events[e]))
			return -1;
	return 0;
}
