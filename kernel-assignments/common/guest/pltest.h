/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pltest: signed result lines from guest test programs to the pagelab autograder.
 *
 * Interface:
 *   pl_result(id, passed, fmt, ...)  one pass/fail fact with a readable message
 *   pl_value(id, key, value)         one number the grader's Python test checks itself
 *
 * Each call writes one line to the results port ($PL_OUT, normally /dev/ttyS1):
 *   PL1 <stream> <seq> R <id> <0|1> <message> <mac>
 *   PL1 <stream> <seq> V <id> <key> <value> <mac>
 * where <mac> is HMAC-SHA256, keyed by the per-run secret $PL_KEY (hex), over everything
 * before the last space.  <stream> is random per process and <seq> counts 1, 2, 3... within
 * it, so the grader can reject replayed, reordered or dropped-in lines.  A readable copy
 * ("[pass] id: message") goes to stdout for the serial log.
 *
 * Invariants: ids and keys are single words of [A-Za-z0-9._-] (others are replaced by '_');
 * messages are one line of at most PL_MESSAGE_MAX bytes.  Without $PL_KEY the program
 * still runs and prints, but its lines carry the mac "unsigned" and earn nothing.
 */
#ifndef PLTEST_H
#define PLTEST_H

#include <stddef.h>
#include <stdint.h>

#define PL_MESSAGE_MAX 300

void pl_result(const char *id, int passed, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void pl_value(const char *id, const char *key, long long value);

/* Exposed for pltool and the grader's known-answer test of the implementation. */
void pl_hmac_sha256(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t msg_len,
		    uint8_t mac[32]);

#endif
