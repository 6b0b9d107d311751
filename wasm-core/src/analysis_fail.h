/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis_fail.h - the one error helper of the analyses (locality.c,
 * mrc.c, wss.c): fills err with "analysis: MSG" and returns -1, so a
 * failure is reported and returned in one statement.
 */
#ifndef PAGELAB_ANALYSIS_FAIL_H
#define PAGELAB_ANALYSIS_FAIL_H

#include "pagelab.h"

int pl_analysis_fail(struct pl_error *err, const char *msg);

#endif /* PAGELAB_ANALYSIS_FAIL_H */
