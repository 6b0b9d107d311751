/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventlog.h - the driver's record of a simulation (PL_SIM_RECORD): every
 * event in order, where each step's events begin, and a snapshot of the
 * policy every `checkpoint_every` steps, so that any earlier step can be
 * rebuilt without running the policy again.  Used by sim.c only; the
 * public calls (pl_sim_events, pl_sim_step_events, pl_sim_seek) are thin
 * wrappers around it.
 *
 * Invariants
 *   events[step_begin[k] .. step_begin[k + 1]) are the events of step k for
 *   every finished step k; checkpoints[i] is the policy's snapshot at step
 *   i * checkpoint_every (checkpoint 0 is the empty start).
 *
 * Cost: an append is amortized O(1) (the array doubles); memory is 20
 * bytes per event, 4 per step and n / checkpoint_every snapshots.  A seek
 * is O(S + E * L): S the checkpoint's size, E the events replayed (at most
 * checkpoint_every steps' worth), L the length of the lists they touch.
 */
#ifndef PAGELAB_EVENTLOG_H
#define PAGELAB_EVENTLOG_H

#include "pagelab.h"

#define EVENTLOG_DEFAULT_CHECKPOINT_EVERY 256

struct eventlog {
	struct pl_event *events;
	uint32_t nevents, events_cap;
	uint32_t *step_begin;	/* [n + 1] */
	uint32_t checkpoint_every;
	struct pl_snapshot *checkpoints;	/* [n / checkpoint_every + 1] */
	uint32_t ncheckpoints;	/* taken so far */
};

/* Allocates for a trace of n steps (checkpoint_every 0: the default); -1 when out of memory. */
int eventlog_init(struct eventlog *log, uint32_t n, uint32_t checkpoint_every);
void eventlog_free(struct eventlog *log);

/* Memory held for a trace of n steps: the event array and step index as
 * allocated, and every checkpoint's arrays. */
size_t eventlog_bytes(const struct eventlog *log, uint32_t n);

/* Doubles the event array; -1 when out of memory or at its limit. */
int eventlog_grow(struct eventlog *log);

/* Appends one event; -1 when out of memory. */
static inline int eventlog_append(struct eventlog *log, const struct pl_event *ev)
{
	if (log->nevents == log->events_cap && eventlog_grow(log))
		return -1;
	log->events[log->nevents++] = *ev;
	return 0;
}

/*
 * Step `pos` begins here (so step pos - 1 ends): called at the start and
 * after every step.  When `pos` is a checkpoint step, returns the snapshot
 * the caller must fill (initialised for ops), else NULL.
 */
struct pl_snapshot *eventlog_begin_step(struct eventlog *log, uint32_t pos,
					const struct pl_policy_ops *ops);

/* The events of finished step `step` (< pos): [*begin, *end). */
void eventlog_step_range(const struct eventlog *log, uint32_t step, uint32_t *begin,
			 uint32_t *end);
/* The structure at step k <= pos, from the checkpoint at or before it; -1 if it cannot. */
int eventlog_seek(const struct eventlog *log, uint32_t k, struct pl_snapshot *out);

#endif /* PAGELAB_EVENTLOG_H */
