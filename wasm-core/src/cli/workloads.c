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
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "zipf.h"
#include "workloads.h"

#define READ_MEMORY_MS 16000	/* reading a memory's worth of pages */

struct gen {
	struct pl_trace *trace;
	uint32_t memory;
	uint64_t rng;
	bool timed;
	uint64_t slept;		/* ms of sleeps so far, timed workloads */
	uint64_t refs;		/* references so far */
	struct workload_shape shape;	/* defaults filled in */
	uint32_t pid;		/* mix: the process referencing; 0 otherwise */
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
	/* a page read takes READ_MEMORY_MS / memory ms, without rounding per read */
	if (pl_trace_add(g->trace, page, write ? PL_REF_WRITE : 0) == PL_NONE ||
	    (g->timed && pl_trace_set_vtime(g->trace, g->slept + g->refs * READ_MEMORY_MS /
								 g->memory)) ||
	    (g->pid && pl_trace_set_pid(g->trace, g->pid)))
		g->failed = true;
	g->refs++;
}

static void read_range(struct gen *g, uint32_t from, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		ref(g, from + i, false);
}

static void sleep_seconds(struct gen *g, unsigned seconds)
{
	g->slept += 1000ull * seconds;
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

/* ------------------------------------------------------------ synthetic */

/*
 * Textbook shapes, each a knob a lab can turn (struct workload_shape; M is
 * the memory).  A write is drawn for each reference with probability
 * writes/100.
 *   loop     pages 0 .. P-1 in order, over and over (P default M + M/8:
 *            just too big, LRU's and FIFO's worst case);
 *   uniform  each reference a page drawn uniformly from P (default 2M);
 *   zipf     page k (0-based rank) with probability ~ 1/(k+1)^alpha over
 *            P pages (default 4M, alpha 0.9): a few hot pages, long tail;
 *   hotscan  a hot set H (default M/2) drawn uniformly, and every E
 *            references (default 4M) a scan of S never-seen pages
 *            (default M) - one-time data that should not flush the hot set;
 *   phases   K working sets (default 8) of P pages each (default M/2) at
 *            random places in 8P pages, one after another, with abrupt
 *            transitions, uniform within a phase (seed 004's observation);
 *   mix      N processes (default 4), process i (pid i+1) running a zipf
 *            over its own P pages (default M/N) numbered (pid << 32) | page,
 *            switched every 1000 references in turn, pids in the trace.
 * Length L defaults to 16M references.
 */
static uint64_t shape_default(uint64_t v, uint64_t def)
{
	return v ? v : (def ? def : 1);
}

static bool writes_now(struct gen *g)
{
	return g->shape.writes && below(g, 100) < g->shape.writes;
}

static void gen_loop(struct gen *g)
{
	uint32_t pages = (uint32_t)shape_default(g->shape.pages, g->memory + g->memory / 8);

	for (uint64_t i = 0; i < g->shape.length && !g->failed; i++)
		ref(g, i % pages, writes_now(g));
}

static void gen_uniform(struct gen *g)
{
	uint32_t pages = (uint32_t)shape_default(g->shape.pages, 2ull * g->memory);

	for (uint64_t i = 0; i < g->shape.length && !g->failed; i++)
		ref(g, below(g, pages), writes_now(g));
}

static void gen_zipf(struct gen *g)
{
	uint32_t pages = (uint32_t)shape_default(g->shape.pages, 4ull * g->memory);
	struct pl_zipf *z = pl_zipf_create(pages, g->shape.alpha);

	if (!z) {
		g->failed = true;
		return;
	}
	for (uint64_t i = 0; i < g->shape.length && !g->failed; i++)
		ref(g, pl_zipf_rank(z, &g->rng), writes_now(g));
	pl_zipf_destroy(z);
}

static void gen_hotscan(struct gen *g)
{
	uint32_t hot = (uint32_t)shape_default(g->shape.hot, g->memory / 2);
	uint32_t scan = (uint32_t)shape_default(g->shape.scan, g->memory);
	uint64_t every = shape_default(g->shape.every, 4ull * g->memory);
	uint64_t fresh = hot, i = 0;

	while (i < g->shape.length && !g->failed) {
		for (uint64_t k = 0; k < every && i < g->shape.length; k++, i++)
			ref(g, below(g, hot), writes_now(g));
		for (uint32_t k = 0; k < scan && i < g->shape.length; k++, i++)
			ref(g, fresh++, writes_now(g));
	}
}

static void gen_phases(struct gen *g)
{
	uint32_t size = (uint32_t)shape_default(g->shape.pages, g->memory / 2);
	uint32_t phases = (uint32_t)shape_default(g->shape.phases, 8);
	uint64_t space = 8ull * size, i = 0;

	for (uint32_t p = 0; p < phases && !g->failed; p++) {
		uint64_t base = splitmix64_next(&g->rng) % (space - size + 1);
		uint64_t end = g->shape.length * (p + 1) / phases;

		for (; i < end && !g->failed; i++)
			ref(g, base + below(g, size), writes_now(g));
	}
}

#define MIX_QUANTUM 1000	/* references a process makes before the next runs */

static void gen_mix(struct gen *g)
{
	uint32_t procs = (uint32_t)shape_default(g->shape.procs, 4);
	uint32_t pages = (uint32_t)shape_default(g->shape.pages, g->memory / procs);
	struct pl_zipf *z = pl_zipf_create(pages, g->shape.alpha);

	if (!z) {
		g->failed = true;
		return;
	}
	for (uint64_t i = 0; i < g->shape.length && !g->failed; i++) {
		g->pid = (uint32_t)(i / MIX_QUANTUM % procs) + 1;
		ref(g, (uint64_t)g->pid << 32 | pl_zipf_rank(z, &g->rng), writes_now(g));
	}
	pl_zipf_destroy(z);
}

/* ------------------------------------------------------------- the list */

const struct workload workloads[] = {
	{ "seed000-iterative", "8 passes over 3/4 of memory, each followed by a "
	  "one-time stream of memory/2 pages (seed 000's Spark jobs)", false, seed000_iterative, false },
	{ "seed000-skewed", "16 x memory references over 2 x memory pages, a few hot pages "
	  "and a long cold tail (seed 000)", false, seed000_skewed, false },
	{ "seed001-seq", "20 passes writing memory*9/4 regions in order (seed 001's Seq)",
	  false, seed001_seq, false },
	{ "seed001-halfseq", "the first half of the regions in order, twice a pass (Half Seq)",
	  false, seed001_halfseq, false },
	{ "seed001-rand", "random regions, as many as there are, per pass (Rand)", false,
	  seed001_rand, false },
	{ "seed001-halfrand", "random regions of the first half (Half Rand)", false,
	  seed001_halfrand, false },
	{ "seed002-lruk-wins", "seed 002's Test Program 1: nine steps of file reads and "
	  "sleeps where LRU-K beats LRU (timed, ms)", true, seed002_lruk_wins, false },
	{ "seed002-lru-wins", "seed 002's Test Program 2, where LRU beats LRU-K (timed, ms)",
	  true, seed002_lru_wins, false },
	{ "seed003-stress", "stress -m 3: three workers writing fresh 4 x memory blocks, "
	  "interleaved with a small system working set (seed 003)", false, seed003_stress, false },
	{ "seed004-phases", "24 phases of locality with disruptive transitions (seed 004's "
	  "programs)", false, seed004_phases, false },
	{ "loop", "pages 0 .. P-1 in order, over and over (--pages, default memory + 1/8)",
	  false, gen_loop, true },
	{ "uniform", "pages drawn uniformly from P (--pages, default 2 x memory)", false,
	  gen_uniform, true },
	{ "zipf", "zipf(--alpha, default 0.9) over P pages (--pages, default 4 x memory)",
	  false, gen_zipf, true },
	{ "hotscan", "a hot set (--hot) with a one-time scan of --scan new pages every --every "
	  "references", false, gen_hotscan, true },
	{ "phases", "--phases working sets of --pages pages, one after another, abrupt "
	  "transitions", false, gen_phases, true },
	{ "mix", "--procs processes (pids 1..N), each a zipf over its own --pages pages, "
	  "switched every 1000 references", false, gen_mix, true },
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
	return workload_generate_shaped(w, memory, seed, NULL, trace, err);
}

int workload_generate_shaped(const struct workload *w, uint32_t memory, uint64_t seed,
			     const struct workload_shape *shape, struct pl_trace *trace,
			     struct pl_error *err)
{
	struct gen g = {
		.trace = trace, .memory = memory, .rng = seed, .timed = w->timed,
	};

	if (shape)
		g.shape = *shape;
	g.shape.length = shape_default(g.shape.length, 16ull * memory);
	if (!g.shape.alpha)
		g.shape.alpha = 0.9;

	w->generate(&g);
	if (g.failed)
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory for the trace", w->name);
	return g.failed ? -1 : 0;
}
