/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_lruk.c - LRU-K: hand-worked traces (K-distance ranking, the tie among
 * pages seen fewer than K times, retained history, the correlated reference
 * period), and lruk against a straightforward reference implementation --
 * scan every resident page for the largest backward K-distance -- on
 * thousands of random traces, correlated periods included.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "splitmix64.h"
#include "support.h"

/*
 * 3 frames, k = 2, references 1 2 3 1 4 2 5 1 (steps 0 .. 7).
 *   steps 0-2  1, 2, 3 fault into empty frames.
 *   step 3     1 hits: HIST(1) = (3, 0), its second reference.
 *   step 4     4 faults.  Backward 2-distances: 1: 4 - 0 = 4; 2 and 3:
 *              infinite (one reference each).  The infinite ones tie; 2's
 *              last reference (1) is older than 3's (2): 2 is evicted.
 *   step 5     2 faults.  Its history is retained: HIST(2) = (5, 1).
 *              1: distance 5, 3 and 4: infinite; 3 (last 2) is older than
 *              4 (last 4): 3 is evicted.
 *   step 6     5 faults.  1: HIST2 = 0, 2: HIST2 = 1, 4: infinite: 4 goes,
 *              although it was used more recently than 1 (LRU evicts 1).
 *   step 7     1 hits (LRU faults).
 * LRU-K: 6 faults, LRU: 7.  The ghost list "history" holds the evicted
 * pages' retained histories, newest first: 2 joined it at step 4 and left
 * at its refault (step 5); 3 (evicted at step 5) and 4 (step 6) remain.
 */
#define HAND_WORKED "1 2 3 1 4 2 5 1"

TEST(lruk_evicts_by_backward_k_distance_with_the_tie_broken_by_last_reference)
{
	CHECK_EQ(simulate("lruk", 3, HAND_WORKED, NULL).misses, 6);
	CHECK_EQ(simulate("lru", 3, HAND_WORKED, NULL).misses, 7);
	CHECK_STR_EQ(final_describe("lruk", 3, HAND_WORKED, NULL),
		     "frames: 1(hist1=7,hist2=3,hist3=-1,hist4=-1,last=7) "
		     "5(hist1=6,hist2=-1,hist3=-1,hist4=-1,last=6) "
		     "2(hist1=5,hist2=1,hist3=-1,hist4=-1,last=5); "
		     "history: 4(hist1=4,hist2=-1,hist3=-1,hist4=-1,last=4) "
		     "3(hist1=2,hist2=-1,hist3=-1,hist4=-1,last=2)");
	CHECK_EQ(final_counter("lruk", 3, HAND_WORKED, NULL, "retained_refaults"), 1);
}

TEST(lruk_with_rip_0_forgets_an_evicted_page_at_once)
{
	/* step 5: 2's history (step 1) is 4 references old, beyond rip = 3 */
	CHECK_EQ(final_counter("lruk", 3, HAND_WORKED, "rip=3", "forgotten"), 1);
	CHECK_EQ(final_counter("lruk", 3, HAND_WORKED, "rip=4", "forgotten"), 0);
	CHECK_EQ(final_counter("lruk", 3, HAND_WORKED, "rip=0", "retained_refaults"), 0);
	CHECK_STR_EQ(final_list("lruk", 3, HAND_WORKED, "rip=0", "frames"), "1 5 2");
	CHECK_STR_EQ(final_list("lruk", 3, HAND_WORKED, "rip=0", "history"), "");
	/* rip = 3: entries stay listed until their page faults again */
	CHECK_STR_EQ(final_list("lruk", 3, HAND_WORKED, "rip=3", "history"), "4 3");
}

/*
 * 3 frames, k = 2, references 1 1 2 3 4 2.
 *   crp = 0: step 1 is 1's second reference, HIST(1) = (1, 0); at step 4
 *   only 2 and 3 have infinite distance and 2 is older: 2 goes, and
 *   faults again at step 5 (5 faults).
 *   crp = 2: step 1 lies within 2 references of 1's last one: correlated,
 *   1 still has one reference.  At step 4 (time 4) only 1 is outside its
 *   correlated period (4 - 1 > 2; 2: 4 - 2 = 2, 3: 1): 1 goes, and 2 hits
 *   at step 5 (4 faults).
 */
TEST(lruk_does_not_count_a_correlated_reference_and_never_evicts_within_its_period)
{
	CHECK_EQ(simulate("lruk", 3, "1 1 2 3 4 2", "crp=0").misses, 5);
	CHECK_EQ(simulate("lruk", 3, "1 1 2 3 4 2", "crp=2").misses, 4);
	CHECK_EQ(final_counter("lruk", 3, "1 1 2 3 4 2", "crp=2", "correlated_hits"), 1);
	CHECK_STR_EQ(final_list("lruk", 3, "1 1 2 3 4 2", "crp=2", "frames"), "4 2 3");
}

TEST(lruk_evicts_the_oldest_page_when_every_page_is_within_its_correlated_period)
{
	CHECK_STR_EQ(final_list("lruk", 2, "1 2 3", "crp=10", "frames"), "3 2");
}

/*
 * 2 frames, k = 2: 1 1 (1's HIST(2) is step 0), a scan of 200 new pages
 * (each with one reference: evicted first, so 1 stays), 1 (a hit), then
 * 300 300 (its HIST(2) is recent) and 301, which evicts 1, the older
 * HIST(2).  1's HIST(2) outlives the queue's ring (64 references at 2
 * frames): 1 moves to the heap, and is ranked against the queue from there.
 * Faults: 1, the 200 new pages, 300 and 301.
 */
TEST(lruk_ranks_a_page_whose_k_th_reference_the_time_queue_no_longer_holds)
{
	static char refs[2048];
	size_t n = 0;

	n += (size_t)snprintf(refs + n, sizeof(refs) - n, "1 1");
	for (int page = 2; page <= 201; page++)
		n += (size_t)snprintf(refs + n, sizeof(refs) - n, " %d", page);
	snprintf(refs + n, sizeof(refs) - n, " 1 300 300 301");
	CHECK_EQ(simulate("lruk", 2, refs, NULL).misses, 203);
	CHECK_STR_EQ(final_list("lruk", 2, refs, NULL, "frames"), "301 300");
}

TEST(lruk_with_k_1_is_lru)
{
	const char *refs = "7 0 1 2 0 3 0 4 2 3 0 3 2 1 2 0 1 7 0 1";

	CHECK_EQ(simulate("lruk", 3, refs, "k=1").misses, 12);
}

/* ------------------------------------------------- reference implementation */

#define REF_PAGES 32
#define REF_K 4

/* LRU-K as the paper states it, every decision by a full scan. */
struct reference_lruk {
	uint32_t k, frames, resident;
	int64_t crp, rip;
	bool in[REF_PAGES];
	int64_t hist[REF_PAGES][REF_K];	/* reference times, -1: none */
	int64_t last[REF_PAGES];	/* -1: never referenced or forgotten */
};

/*
 * At time t: among the pages outside their correlated period, the largest
 * backward K-distance, ties by the least recent LAST; if every page is
 * inside its period, the least recent LAST.
 */
static uint32_t reference_victim(const struct reference_lruk *m, int64_t t)
{
	uint32_t best = PL_NONE, oldest = PL_NONE;

	for (uint32_t p = 0; p < REF_PAGES; p++) {
		if (!m->in[p])
			continue;
		if (oldest == PL_NONE || m->last[p] < m->last[oldest])
			oldest = p;
		if (t - m->last[p] <= m->crp)
			continue;
		/* a smaller HIST(K) is a larger distance; none (-1) is infinite */
		if (best == PL_NONE || m->hist[p][m->k - 1] < m->hist[best][m->k - 1] ||
		    (m->hist[p][m->k - 1] == m->hist[best][m->k - 1] &&
		     m->last[p] < m->last[best]))
			best = p;
	}
	return best != PL_NONE ? best : oldest;
}

/* Returns whether the reference hit, and the page evicted (PL_NONE if none). */
static bool reference_access(struct reference_lruk *m, uint32_t p, int64_t t, uint32_t *evicted)
{
	bool hit = m->in[p];

	*evicted = PL_NONE;
	if (hit && t - m->last[p] <= m->crp) {
		m->last[p] = t;		/* correlated: not a new reference */
		return hit;
	}
	if (!hit) {
		if (m->resident == m->frames) {
			*evicted = reference_victim(m, t);
			m->in[*evicted] = false;
			m->resident--;
		}
		if (m->last[p] >= 0 && m->rip >= 0 && t - m->last[p] > m->rip) {
			for (uint32_t i = 0; i < m->k; i++)
				m->hist[p][i] = -1;
		}
		m->in[p] = true;
		m->resident++;
	}
	/* a hit shifts the history by the correlated period that ended; a miss does not */
	for (uint32_t i = m->k - 1; i > 0; i--)
		m->hist[p][i] = m->hist[p][i - 1] < 0 ? -1 :
				m->hist[p][i - 1] + (hit ? m->last[p] - m->hist[p][0] : 0);
	m->hist[p][0] = t;
	m->last[p] = t;
	return hit;
}

static unsigned compare_one_trace(uint64_t *rng, unsigned trace)
{
	struct reference_lruk m = { 0 };
	uint32_t len = 20 + splitmix64_below(splitmix64_next(rng), 300);
	uint32_t distinct = 2 + splitmix64_below(splitmix64_next(rng), REF_PAGES - 2);
	uint32_t pages[400];
	char refs[2048], params[64];
	size_t at = 0;
	unsigned bad = 0;
	uint64_t hits = 0;
	struct run r;

	m.k = 1 + splitmix64_below(splitmix64_next(rng), REF_K);
	m.frames = 1 + splitmix64_below(splitmix64_next(rng), 8);
	m.crp = splitmix64_below(splitmix64_next(rng), 2) ? 0 :
		(int64_t)splitmix64_below(splitmix64_next(rng), 6);
	m.rip = (int64_t)splitmix64_below(splitmix64_next(rng), 40) - 1;
	memset(m.hist, 0xff, sizeof(m.hist));
	memset(m.last, 0xff, sizeof(m.last));
	for (uint32_t i = 0; i < len; i++) {
		/* a skewed mix: some pages come back often, some rarely */
		uint32_t x = splitmix64_below(splitmix64_next(rng), distinct);

		pages[i] = i % 2 ? x : x % 4;
		at += snprintf(refs + at, sizeof(refs) - at, "%u ", pages[i]);
	}
	snprintf(params, sizeof(params), "k=%u crp=%lld rip=%lld", m.k, (long long)m.crp,
		 (long long)m.rip);
	run_start(&r, "lruk", m.frames, refs, params, PL_SIM_RECORD);
	for (uint32_t i = 0; i < len; i++) {
		uint32_t evicted, count;
		const struct pl_event *ev;
		bool hit = reference_access(&m, pages[i], i, &evicted);

		run_step(&r);
		bad += hit != (pl_sim_stats(r.sim)->hits > hits);
		hits = pl_sim_stats(r.sim)->hits;
		ev = pl_sim_events(r.sim, i, i + 1, &count);
		for (uint32_t e = 0; e < count; e++)
			if (ev[e].kind == PL_EV_EVICT)
				bad += r.trace.number[ev[e].page] != evicted;
	}
	if (bad)
		printf("    %u frames, params \"%s\", refs \"%s\": %u mismatches\n", m.frames,
		       params, refs, bad);
	run_free(&r);
	return bad;
}

TEST(lruk_matches_a_full_scan_reference_with_and_without_correlated_periods_on_3000_random_traces)
{
	CHECK_EQ(random_traces_failing(3000, 11, compare_one_trace), 0);
}

int main(void)
{
	return run_tests();
}
