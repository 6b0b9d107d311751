/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads.c - the seeds' workloads as reference traces, scaled to a
 * memory of `memory` pages: what `pagelab gen` writes and `pagelab
 * experiment` runs.  Deterministic for a given name, memory and seed
 * (splitmix64).  Interface: workloads.h.
 *
 * Each generator states which program of which report it stands for and
 * how its sizes follow the report's; where the report leaves something
 * open (how fast a file is read, how processes interleave) the choice is
 * said here.  Sizes are fractions of the memory, at least one page.
 *
 * Time: the seed 002 workloads are timed, one time unit a millisecond:
 * reading a page takes 16000 / memory ms (the whole memory in 16 s) and
 * the scripts' sleeps are gaps in time with no reference.  The others
 * carry no time (time is then the reference's index).
 */
#include <string.h>

#include "splitmix64.h"
#include "workloads.h"

#define READ_MEMORY_MS 16000	/* reading a memory's worth of pages */

struct gen {
	struct pl_trace *trace;
	uint32_t memory;
	uint64_t rng;
	bool timed;
	uint64_t now;		/* ms, timed workloads */
	uint64_t ms_per_ref;
	bool failed;
};

static uint32_t part(const struct gen *g, uint32_t num, uint32_t den)
{
	uint64_t pages = (uint64_t)g->memory * num / den;

	return pages ? (uint32_t)pages : 1;
}

static uint32_t below(struct gen *g, uint32_t n)
{
	return splitmix64_below(splitmix64_next(&g->rng), n);
}

static void ref(struct gen *g, uint64_t page, bool write)
{
	if (g->failed)
		return;
	if (pl_trace_add(g->trace, page, write ? PL_REF_WRITE : 0) == PL_NONE ||
	    (g->timed && pl_trace_set_vtime(g->trace, g->now)))
		g->failed = true;
	g->now += g->ms_per_ref;
}

static void read_range(struct gen *g, uint32_t from, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		ref(g, from + i, false);
}

static void sleep_seconds(struct gen *g, unsigned seconds)
{
	g->now += 1000ull * seconds;
}

/* ------------------------------------------------------------- seed 000 */

/*
 * Seed 000 ran SparkBench (graph and machine-learning jobs) under Linux
 * 4.4 with and without RRIP on the active list; no trace survives.  Two
 * stand-ins for what those jobs do to the page cache:
 * iterative: 8 passes over a data set of 3/4 of memory, each followed by
 *   a one-time stream of memory/2 new pages (input read once, shuffle
 *   spill), the pattern RRIP is meant to resist;
 * skewed: 16 x memory references over 2 x memory pages, page = 2m * u^3
 *   for uniform u (a few hot pages, a long cold tail).
 */
static void seed000_iterative(struct gen *g)
{
	uint32_t data = part(g, 3, 4), stream = part(g, 1, 2);
	uint64_t next_new = data;

	for (unsigned pass = 0; pass < 8; pass++) {
		read_range(g, 0, data);
		for (uint32_t i = 0; i < stream; i++)
			ref(g, next_new++, false);
	}
}

static void seed000_skewed(struct gen *g)
{
	uint32_t pages = part(g, 2, 1);

	for (uint64_t i = 0; i < 16ull * g->memory; i++) {
		double u = (double)below(g, 1u << 30) / (double)(1u << 30);

		ref(g, (uint64_t)(pages * u * u * u), false);
	}
}

/* ------------------------------------------------------------- seed 001 */

/*
 * Seed 001's test program malloc()s 70000 regions of 1 MB, more than the
 * VM's memory, and writes the first int of each region, 999 times over;
 * only a region's first page is touched, so a region is one page here.
 * Regions: 2 x memory + memory/4, so that even half of them is a little
 * more than fits (the report's evictions are alike for all four variants);
 * passes: 20 (999 in the report; the pattern repeats identically).
 *   seq       each pass writes the regions in order
 *   halfseq   each pass writes the first half in order, twice
 *   rand      each pass writes `regions` random regions
 *   halfrand  each pass writes `regions` random regions of the first half
 */
#define SEED001_PASSES 20

static uint32_t seed001_regions(const struct gen *g)
{
	return 2 * g->memory + part(g, 1, 4);
}

static void seed001_seq(struct gen *g)
{
	uint32_t regions = seed001_regions(g);

	for (unsigned pass = 0; pass < SEED001_PASSES; pass++)
		for (uint32_t r = 0; r < regions; r++)
			ref(g, r, true);
}

static void seed001_halfseq(struct gen *g)
{
	uint32_t half = seed001_regions(g) / 2;

	for (unsigned pass = 0; pass < 2 * SEED001_PASSES; pass++)
		for (uint32_t r = 0; r < half; r++)
			ref(g, r, true);
}

static void seed001_random(struct gen *g, uint32_t over)
{
	uint32_t regions = seed001_regions(g);

	for (unsigned pass = 0; pass < SEED001_PASSES; pass++)
		for (uint32_t i = 0; i < regions; i++)
			ref(g, below(g, over), true);
}

static void seed001_rand(struct gen *g)
{
	seed001_random(g, seed001_regions(g));
}

static void seed001_halfrand(struct gen *g)
{
	seed001_random(g, seed001_regions(g) / 2);
}

/* ------------------------------------------------------------- seed 002 */

/*
 * Seed 002's two scripts read parts of a 3 GB file through the page cache
 * of a 2 GB machine, with sleeps between; page p is the file's p-th page,
 * so "from 1 GB to 1.5 GB" is memory/2 .. 3*memory/4.  The nine steps, as
 * the report lists them (its LRU-K threshold: 10 s):
 */
static void seed002_lruk_wins(struct gen *g)
{
	uint32_t half = part(g, 1, 2), quarter = part(g, 1, 4), b = part(g, 3, 8);

	read_range(g, half, quarter);		/* 1. 512 MB at 1 GB */
	sleep_seconds(g, 10);			/* 2. */
	read_range(g, half, quarter);		/* 3. again */
	sleep_seconds(g, 10);			/* 4. */
	read_range(g, 0, b);			/* 5. 750 MB at 0 */
	for (int i = 0; i < 3; i++)		/* 6. three more times */
		read_range(g, 0, b);
	read_range(g, half, quarter);		/* 7. the 512 MB again */
	for (int i = 0; i < 2; i++)		/* 8. the first 2 GB, twice */
		read_range(g, 0, g->memory);
	read_range(g, 0, half);			/* 9. the first 1 GB */
}

static void seed002_lru_wins(struct gen *g)
{
	uint32_t half = part(g, 1, 2), quarter = part(g, 1, 4);

	read_range(g, 0, half);			/* 1. 1 GB at 0 */
	sleep_seconds(g, 15);			/* 2. */
	read_range(g, 0, half);			/* 3. again */
	sleep_seconds(g, 15);			/* 4. */
	read_range(g, half, quarter);		/* 5. 512 MB at 1 GB */
	for (int i = 0; i < 4; i++)		/* 6. four more times */
		read_range(g, half, quarter);
	read_range(g, 0, half);			/* 7. the 1 GB again */
	for (int i = 0; i < 2; i++)		/* 8. the first 2 GB, twice */
		read_range(g, 0, g->memory);
	read_range(g, 0, half);			/* 9. the 1 GB again */
}

/* ------------------------------------------------------------- seed 003 */

/*
 * Seed 003 ran `stress -m 3 --vm-bytes 512M` on a 128 MB FreeBSD VM: three
 * workers, each allocating 512 MB (4 x memory), writing every page once,
 * freeing it and starting over.  A freed block's pages are never used
 * again, so each round touches new pages (page = worker << 32 | index).
 * The workers run interleaved, 32 references at a time; after each round
 * of turns the rest of the system (shell, daemons, the stress parent:
 * memory/16 pages, read cyclically, 16 per round) runs too: those are the
 * pages whose loss shows as page faults (refaults), since every worker
 * page is new (its first touch is a zero-fill fault, no I/O).  2 rounds.
 */
static void seed003_stress(struct gen *g)
{
	uint32_t block = part(g, 4, 1), system = part(g, 1, 16), next_system = 0;
	uint64_t done[3] = { 0 };

	for (uint64_t total = 0; total < 2ull * block;) {
		for (uint64_t w = 0; w < 3; w++)
			for (int i = 0; i < 32 && done[w] < 2ull * block; i++)
				ref(g, (w + 1) << 32 | done[w]++, true);
		for (int i = 0; i < 16; i++)
			ref(g, next_system++ % system, false);
		total += 32;
	}
}

/* ------------------------------------------------------------- seed 004 */

/*
 * Seed 004 measured working sets of real programs (Valgrind traces of
 * xterm, Firefox, gcc, MySQL) and found phases of locality with frequent,
 * disruptive transitions.  A program of that shape: 24 phases, each over a
 * locality of memory/16 .. memory/2 pages drawn from 4 x memory, lasting
 * 2 .. 6 x memory references; within a phase a page of the locality is
 * chosen with a skew (u^2) and one reference in 16 goes anywhere.
 */
static void seed004_phases(struct gen *g)
{
	uint32_t space = part(g, 4, 1);

	for (int phase = 0; phase < 24; phase++) {
		uint32_t size = part(g, 1, 16) + below(g, part(g, 7, 16));
		uint32_t base = below(g, space - size + 1);
		uint64_t length = (uint64_t)g->memory * (2 + below(g, 5));

		for (uint64_t i = 0; i < length; i++) {
			double u = (double)below(g, 1u << 30) / (double)(1u << 30);

			if (below(g, 16) == 0)
				ref(g, below(g, space), false);
			else
				ref(g, base + (uint32_t)(size * u * u), false);
		}
	}
}

/* ------------------------------------------------------------- the list */

const struct workload workloads[] = {
	{ "seed000-iterative", "8 passes over 3/4 of memory, each followed by a "
	  "one-time stream of memory/2 pages (seed 000's Spark jobs)", false, seed000_iterative },
	{ "seed000-skewed", "16 x memory references over 2 x memory pages, a few hot pages "
	  "and a long cold tail (seed 000)", false, seed000_skewed },
	{ "seed001-seq", "20 passes writing memory*9/4 regions in order (seed 001's Seq)",
	  false, seed001_seq },
	{ "seed001-halfseq", "the first half of the regions in order, twice a pass (Half Seq)",
	  false, seed001_halfseq },
	{ "seed001-rand", "random regions, as many as there are, per pass (Rand)", false,
	  seed001_rand },
	{ "seed001-halfrand", "random regions of the first half (Half Rand)", false,
	  seed001_halfrand },
	{ "seed002-lruk-wins", "seed 002's Test Program 1: nine steps of file reads and "
	  "sleeps where LRU-K beats LRU (timed, ms)", true, seed002_lruk_wins },
	{ "seed002-lru-wins", "seed 002's Test Program 2, where LRU beats LRU-K (timed, ms)",
	  true, seed002_lru_wins },
	{ "seed003-stress", "stress -m 3: three workers writing fresh 4 x memory blocks, "
	  "interleaved with a small system working set (seed 003)", false, seed003_stress },
	{ "seed004-phases", "24 phases of locality with disruptive transitions (seed 004's "
	  "programs)", false, seed004_phases },
	{ NULL },
};

const struct workload *workload_find(const char *name)
{
	for (const struct workload *w = workloads; w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

int workload_generate(const struct workload *w, uint32_t memory, uint64_t seed,
		      struct pl_trace *trace, struct pl_error *err)
{
	struct gen g = {
		.trace = trace, .memory = memory, .rng = seed, .timed = w->timed,
		.ms_per_ref = w->timed ? (READ_MEMORY_MS / memory ? READ_MEMORY_MS / memory : 1) : 0,
	};

	w->generate(&g);
	if (g.failed)
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory for the trace", w->name);
	return g.failed ? -1 : 0;
}
