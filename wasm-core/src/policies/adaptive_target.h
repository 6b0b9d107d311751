/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adaptive_target.h - the target size p of T1 that ARC (arc.c) and CAR
 * (car.c) adapt by the same rule (ARC, FAST 2003, Fig. 4; CAR, FAST 2004,
 * Fig. 2): a fault on a page in ghost list B1 says T1 was too small,
 *
 *   p := min(p + max(1, |B2| / |B1|), c),
 *
 * and a fault on a page in B2 says T2 was,
 *
 *   p := max(p - max(1, |B1| / |B2|), 0).
 *
 * p is a real number, as in the papers (the ratios need not be whole); both
 * policies show it as a hand on t1 at floor(p), the target boundary of T1,
 * so a change of p emits a HAND event only when floor(p) changes.
 */
#ifndef PAGELAB_ADAPTIVE_TARGET_H
#define PAGELAB_ADAPTIVE_TARGET_H

#include "policy.h"

/* max(1, num / den), with den > 0 whenever num > den */
static inline double adaptive_step(uint32_t num, uint32_t den)
{
	return num > den ? (double)num / den : 1;
}

/* p after a fault on a page in B1 (T1 should grow). */
static inline double adaptive_target_grown(double p, uint32_t b1, uint32_t b2, uint32_t c)
{
	p += adaptive_step(b2, b1);
	return p < c ? p : c;
}

/* p after a fault on a page in B2 (T2 should grow). */
static inline double adaptive_target_shrunk(double p, uint32_t b1, uint32_t b2)
{
	p -= adaptive_step(b1, b2);
	return p > 0 ? p : 0;
}

/* Sets *p to `to`, moving hand `hand` when floor(p) changes. */
static inline void adaptive_target_set(struct pl_ctx *ctx, unsigned hand, double *p, double to)
{
	uint32_t from_slot = (uint32_t)*p, to_slot = (uint32_t)to;

	if (from_slot != to_slot)
		pl_emit_hand(ctx, hand, from_slot, to_slot);
	*p = to;
}

#endif /* PAGELAB_ADAPTIVE_TARGET_H */
