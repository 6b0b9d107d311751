/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.c - the references a command reads: --refs, or --trace FILE with
 * the format options, either loaded whole (cli_load_trace) or streamed
 * through the simulations (cli_run_input).
 *
 * A text file whose policies all declare PL_POLICY_SPARSE streams in one
 * pass: its size bounds its distinct pages, the simulations are created
 * for that bound and run while a reader thread parses and interns the
 * rest (run_alongside() below says how), unless the trace must be loaded
 * (the end of this comment).  Otherwise:
 *
 * Streaming a --trace file parses it once: the first pass interns every
 * page number (the distinct pages: the simulator and every policy size
 * their tables by them, so no simulation can start before the pass ends)
 * and appends each reference's dense id, flags (and pid, time) to one
 * unlinked temporary file a column in $TMPDIR.  The second pass maps those
 * files as the trace's arrays (the simulator reads them by absolute step)
 * and lets every simulation run FEED_REFS references further at a time;
 * what they have passed is handed back (MADV_DONTNEED), so only about one
 * feed of the files is ever resident, and nothing is copied back out of
 * the page cache.  Memory is the page map, the policies' per-page state
 * and one feed: O(distinct pages + frames), not O(references); the
 * temporary files take 4 bytes a reference on disk (5 with writes, more
 * with pid and time).  While pass 1 interns a batch, a thread reads and
 * parses the next ones (struct parser).  A pipe streams too, since the
 * input itself is read only once.
 *
 * The whole trace is loaded instead when it must be: for --events (the
 * event stream names steps of a recording), for policies that look ahead
 * (OPT), and for traces with a pid column (per-process statistics and
 * local scope take the processes from the whole trace).
 */
/* madvise's MADV_DONTNEED, mmap's MAP_ANONYMOUS and MAP_NORESERVE, mremap() */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "analysis.h"
#include "page_map.h"

int cli_read_options(const struct cli_args *a, struct pl_read_options *opts)
{
	const char *format = cli_value(a, "--format");
	uint64_t page_size;
	int ret;

	*opts = (struct pl_read_options){ .format = PL_FORMAT_AUTO };
	if (format && pl_format_find(format, &opts->format))
		return cli_usage_error(a, "--format %s: no such format (auto, text, csv, lackey, "
				       "libcachesim, binary)", format);
	if ((ret = cli_number(a, "--page-size", 1, 1u << 30, 4096, &page_size)))
		return ret;
	if (page_size & (page_size - 1))
		return cli_usage_error(a, "--page-size %llu is not a power of two",
				       (unsigned long long)page_size);
	opts->page_size = (uint32_t)page_size;
	opts->no_instructions = cli_flag(a, "--no-instructions");
	opts->collapse = cli_flag(a, "--collapse");
	opts->columns = cli_value(a, "--columns");
	if (opts->columns && opts->format != PL_FORMAT_AUTO && opts->format != PL_FORMAT_CSV)
		return cli_usage_error(a, "--columns maps the columns of a CSV trace, not %s",
				       pl_format_name(opts->format));
	return 0;
}

int cli_open_reader(const struct cli_args *a, struct pl_reader **reader)
{
	const char *path = cli_value(a, "--trace");
	struct pl_read_options opts;
	struct pl_error err;
	int ret;

	if ((ret = cli_read_options(a, &opts)))
		return ret;
	*reader = pl_reader_open_file(path, &opts, &err);
	if (!*reader)
		return cli_fail("%s", err.msg);
	return 0;
}

/* Says how a trace file was read, unless it was pagelab's own text as is. */
void cli_report_reader(const struct pl_reader *r)
{
	char about[256];

	if (pl_reader_plain(r))
		return;
	pl_reader_describe(r, about, sizeof(about));
	fprintf(stderr, "pagelab: read %s as %s\n", pl_reader_name(r), about);
}

static int check_input(const struct cli_args *a)
{
	const char *refs = cli_value(a, "--refs"), *path = cli_value(a, "--trace");

	if (!refs && !path)
		return cli_usage_error(a, "give the references with --refs or --trace");
	if (refs && path)
		return cli_usage_error(a, "give either --refs or --trace, not both");
	return 0;
}

/* The whole of r into trace, reported; closes r; 0 or an exit status. */
static int load_reader(struct pl_trace *trace, struct pl_reader *r)
{
	struct pl_error err;
	int ret = 0;

	if (pl_trace_load(trace, r, &err))
		ret = cli_fail("%s", err.msg);
	else if (!trace->n)
		ret = cli_fail("%s: no references", pl_reader_name(r));
	else
		cli_report_reader(r);
	pl_reader_close(r);
	return ret;
}

int cli_load_trace(const struct cli_args *a, struct pl_trace *trace)
{
	const char *refs = cli_value(a, "--refs");
	struct pl_reader *r;
	struct pl_error err;
	int ret;

	if ((ret = check_input(a)))
		return ret;
	if (!refs)
		return (ret = cli_open_reader(a, &r)) ? ret : load_reader(trace, r);
	if (pl_trace_parse_refs(trace, refs, "--refs", &err))
		return cli_fail("%s", err.msg);
	if (!trace->n)
		return cli_fail("--refs: no references");
	return 0;
}

/* ------------------------------------------------------------ streaming */

/* References handed to the simulations at a time in pass 2. */
#define FEED_REFS (1u << 18)

/* The spilled columns of a trace: one temporary file each. */
enum column { COL_PAGE, COL_FLAGS, COL_PID, COL_TIME, NR_COLUMNS };

static const size_t column_size[NR_COLUMNS] = {
	sizeof(uint32_t), sizeof(uint8_t), sizeof(uint32_t), sizeof(uint64_t),
};

/* One column's spill file and, during a replay, its mapping. */
struct spill {
	FILE *f;		/* NULL: the trace has no such column */
	void *map;
	size_t bytes, released;	/* mapped; handed back from the start */
};

struct cli_stream {
	struct pl_reader *r;
	struct spill col[NR_COLUMNS];
	uint32_t *ids;		/* one reader batch's ids, ids_cap long */
	uint32_t ids_cap;
	struct pl_trace t;	/* pages from pass 1; during a replay its arrays are the mappings */
	uint64_t total;		/* references read in pass 1 */
};

/* An unlinked file in $TMPDIR (or /tmp): on disk, not in this process's memory. */
static FILE *spill_create(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/pagelab-spill-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return NULL;
	unlink(path);
	if (!(f = fdopen(fd, "w+b")))
		close(fd);
	return f;
}

/* Appends n elements to a column, creating its file at the first; 0 or -1 (errno set). */
static int spill_write(struct spill *c, const void *data, uint32_t n, size_t size)
{
	if (!c->f && !(c->f = spill_create()))
		return -1;
	return fwrite(data, size, n, c->f) == n ? 0 : -1;
}

static bool all_zero(const uint8_t *bytes, uint32_t n)
{
	uint8_t any = 0;

	for (uint32_t i = 0; i < n; i++)
		any |= bytes[i];
	return !any;
}

/*
 * The flags column is only written from the first reference with a flag
 * on (a write), zeros for those before: most traces have no writes, and
 * their flags are then an anonymous mapping of zeros in pass 2, a fifth
 * less to write to disk.
 */
static int spill_flags(struct cli_stream *s, const struct pl_refs *b)
{
	static const uint8_t zeros[1 << 16];
	struct spill *c = &s->col[COL_FLAGS];

	if (!c->f) {
		if (all_zero(b->flags, b->n))
			return 0;
		for (uint64_t left = s->total, k; left; left -= k) {
			k = left < sizeof(zeros) ? left : sizeof(zeros);
			if (spill_write(c, zeros, (uint32_t)k, 1))
				return -1;
		}
	}
	return spill_write(c, b->flags, b->n, sizeof(*b->flags));
}

static int spill_batch(struct cli_stream *s, const struct pl_refs *b)
{
	return spill_write(&s->col[COL_PAGE], s->ids, b->n, sizeof(*s->ids)) ||
	       spill_flags(s, b) ||
	       (b->pid && spill_write(&s->col[COL_PID], b->pid, b->n, sizeof(*b->pid))) ||
	       (b->time && spill_write(&s->col[COL_TIME], b->time, b->n, sizeof(*b->time)))
		       ? -1 : 0;
}
/* --------------------------------------------------- parsing ahead */

/* Reader batches parsed ahead of pass 1's interning, on a thread of their own. */
#define PARSE_AHEAD 4

/* A copy of one reader batch (the reader reuses its own arrays). */
struct parsed {
	uint64_t *number, *time;
	uint8_t *flags;
	uint32_t *pid;
	uint32_t n, cap;
	bool has_pid, has_time;
};

/*
 * The reader runs on its own thread, PARSE_AHEAD batches ahead at most:
 * batches are handed over in order through a ring, so the references and
 * their ids are exactly those of a parse in line.  Slot k % PARSE_AHEAD
 * holds batch k for filled > k >= taken; the parser only writes batch
 * `filled`, the consumer only reads batch `taken`.
 */
struct parser {
	struct pl_reader *r;
	pthread_t thread;
	bool threaded;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct parsed slot[PARSE_AHEAD];
	uint64_t filled, taken;
	bool ended, stop;	/* the reader returned got <= 0; the consumer gave up */
	bool holding;		/* the consumer has batch `taken` */
	int got;
	struct pl_error err;
};

static int copy_batch(struct parsed *to, const struct pl_refs *b)
{
	if (b->n > to->cap) {
		free(to->number);
		free(to->time);
		free(to->flags);
		free(to->pid);
		to->number = malloc(b->n * sizeof(*to->number));
		to->time = malloc(b->n * sizeof(*to->time));
		to->flags = malloc(b->n);
		to->pid = malloc(b->n * sizeof(*to->pid));
		to->cap = to->number && to->time && to->flags && to->pid ? b->n : 0;
		if (!to->cap)
			return -1;
	}
	to->n = b->n;
	to->has_pid = b->pid;
	to->has_time = b->time;
	memcpy(to->number, b->number, b->n * sizeof(*b->number));
	memcpy(to->flags, b->flags, b->n);
	if (b->pid)
		memcpy(to->pid, b->pid, b->n * sizeof(*b->pid));
	if (b->time)
		memcpy(to->time, b->time, b->n * sizeof(*b->time));
	return 0;
}

static void *parse_ahead(void *arg)
{
	struct parser *p = arg;
	struct pl_refs b;
	bool stop;
	int got;

	do {
		pthread_mutex_lock(&p->lock);
		while (p->filled - p->taken == PARSE_AHEAD && !p->stop)
			pthread_cond_wait(&p->changed, &p->lock);
		stop = p->stop;
		pthread_mutex_unlock(&p->lock);
		if (stop)
			return NULL;
		got = pl_reader_next(p->r, &b, &p->err);
		if (got > 0 && copy_batch(&p->slot[p->filled % PARSE_AHEAD], &b)) {
			snprintf(p->err.msg, sizeof(p->err.msg), "%s: out of memory",
				 pl_reader_name(p->r));
			got = -1;
		}
		pthread_mutex_lock(&p->lock);
		if (got > 0)
			p->filled++;
		else
			p->ended = true, p->got = got;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	} while (got > 0);
	return NULL;
}

/* Starts parsing ahead; without a thread, parser_next() parses in line. */
static void parser_start(struct parser *p, struct pl_reader *r)
{
	*p = (struct parser){ .r = r };
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	p->threaded = !pthread_create(&p->thread, NULL, parse_ahead, p);
}

/* The next batch into *b, as pl_reader_next(); the previous one is then given back. */
static int parser_next(struct parser *p, struct pl_refs *b, struct pl_error *err)
{
	struct parsed *got;
	bool none;

	if (!p->threaded)
		return pl_reader_next(p->r, b, err);
	pthread_mutex_lock(&p->lock);
	if (p->holding) {
		p->taken++;
		p->holding = false;
		pthread_cond_broadcast(&p->changed);
	}
	while (p->taken == p->filled && !p->ended)
		pthread_cond_wait(&p->changed, &p->lock);
	none = p->taken == p->filled;
	p->holding = !none;
	pthread_mutex_unlock(&p->lock);
	if (none) {
		*err = p->err;
		return p->got;
	}
	got = &p->slot[p->taken % PARSE_AHEAD];
	*b = (struct pl_refs){
		.n = got->n, .number = got->number, .flags = got->flags,
		.pid = got->has_pid ? got->pid : NULL,
		.time = got->has_time ? got->time : NULL,
	};
	return 1;
}

/* Stops the parser thread (at the end of its current batch) and frees the ring. */
static void parser_stop(struct parser *p)
{
	if (p->threaded) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
	}
	for (unsigned i = 0; i < PARSE_AHEAD; i++) {
		free(p->slot[i].number);
		free(p->slot[i].time);
		free(p->slot[i].flags);
		free(p->slot[i].pid);
	}
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
}

/* ------------------------------------------------------------ pass 1 */

/* One parsed batch: its pages interned, fed to `also`, spilled. */
static int learn_batch(struct cli_stream *s, const struct pl_refs *b, struct pl_locality *also,
		       struct pl_error *err)
{
	if (b->n > s->ids_cap) {
		uint32_t *ids = realloc(s->ids, b->n * sizeof(*ids));

		if (!ids)
			return snprintf(err->msg, sizeof(err->msg), "%s: out of memory",
					pl_reader_name(s->r)), -1;
		s->ids = ids;
		s->ids_cap = b->n;
	}
	if (pl_trace_intern_batch(&s->t, b->number, b->n, s->ids))
		return snprintf(err->msg, sizeof(err->msg), "%s: out of memory after %u pages",
				pl_reader_name(s->r), s->t.npages), -1;
	if (also && pl_locality_add_pages(also, s->ids, b->n, err))
		return -1;
	if (spill_batch(s, b))
		return snprintf(err->msg, sizeof(err->msg), "%s: cannot write a temporary file "
				"(TMPDIR): %s", pl_reader_name(s->r), strerror(errno)), -1;
	s->total += b->n;
	if (s->total >= PL_NONE - 1)
		return snprintf(err->msg, sizeof(err->msg), "%s: more than %u references, the most "
				"a trace can hold", pl_reader_name(s->r), PL_NONE - 2), -1;
	return 0;
}

/*
 * Pass 1, the only parse: every page number interned once (the distinct
 * pages, which the simulator sizes its tables by) and every reference
 * written to the spill files as its dense id, while the parser thread
 * reads and parses the batches after it.
 */
static int learn_pages(struct cli_stream *s, struct pl_locality *also, struct pl_error *err)
{
	struct pl_refs b = { 0 };
	struct parser p;
	int got;

	parser_start(&p, s->r);
	while ((got = parser_next(&p, &b, err)) > 0 && !(got = learn_batch(s, &b, also, err)))
		;
	parser_stop(&p);
	if (!got && !s->total)
		return snprintf(err->msg, sizeof(err->msg), "%s: no references",
				pl_reader_name(s->r)), -1;
	return got;
}

void cli_stream_close(struct cli_stream *s)
{
	if (!s)
		return;
	pl_trace_free(&s->t);
	free(s->ids);
	for (unsigned c = 0; c < NR_COLUMNS; c++)
		if (s->col[c].f)
			fclose(s->col[c].f);
	pl_reader_close(s->r);
	free(s);
}

static int stream_open(struct pl_reader *r, struct pl_locality *also, struct cli_stream **out)
{
	struct cli_stream *s = calloc(1, sizeof(*s));
	struct pl_error err;

	*out = NULL;
	if (!s) {
		pl_reader_close(r);
		return cli_fail("%s: out of memory", pl_reader_name(r));
	}
	s->r = r;
	pl_trace_init(&s->t);
	if (!learn_pages(s, also, &err)) {
		cli_report_reader(r);
		*out = s;
		return 0;
	}
	cli_fail("%s", err.msg);
	cli_stream_close(s);
	return EXIT_FAILURE;
}

int cli_stream_open(const struct cli_args *a, struct pl_locality *also, struct cli_stream **out)
{
	struct pl_reader *r;
	int ret;

	return (ret = cli_open_reader(a, &r)) ? ret : stream_open(r, also, out);
}

uint64_t cli_stream_references(const struct cli_stream *s)
{
	return s->total;
}

uint32_t cli_stream_distinct(const struct cli_stream *s)
{
	return s->t.npages;
}

const uint64_t *cli_stream_numbers(const struct cli_stream *s)
{
	return s->t.number;
}

/* Maps every spilled column read-only-in-effect (private) as the trace's arrays. */
static int map_columns(struct cli_stream *s)
{
	void **array[NR_COLUMNS] = {
		(void **)&s->t.page, (void **)&s->t.flags, (void **)&s->t.pid, (void **)&s->t.vtime,
	};

	for (unsigned i = 0; i < NR_COLUMNS; i++) {
		struct spill *c = &s->col[i];

		if (!c->f && i != COL_FLAGS)
			continue;
		if (c->f && fflush(c->f))
			return -1;
		c->bytes = s->total * column_size[i];
		c->released = 0;
		c->map = c->f ? mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fileno(c->f), 0)
			      : mmap(NULL, c->bytes, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (c->map == MAP_FAILED) {
			c->map = NULL;
			return -1;
		}
		*array[i] = c->map;
	}
	s->t.n = 0;
	return 0;
}

/*
 * Hands back the whole pages of a column before reference `done`: a
 * private mapping of a file drops them (the page cache keeps the file).
 */
static void column_release(struct spill *c, size_t elem, uint32_t done, size_t page)
{
	size_t upto = (size_t)done * elem / page * page;

	if (c->map && upto > c->released) {
		madvise((char *)c->map + c->released, upto - c->released, MADV_DONTNEED);
		c->released = upto;
	}
}

static void unmap_columns(struct cli_stream *s)
{
	for (unsigned i = 0; i < NR_COLUMNS; i++) {
		if (s->col[i].map)
			munmap(s->col[i].map, s->col[i].bytes);
		s->col[i].map = NULL;
	}
	s->t.page = s->t.pid = NULL;
	s->t.flags = NULL;
	s->t.vtime = NULL;
	s->t.n = 0;
}

/* Simulations run side by side over each fed batch, thread k taking sim k, k + threads, ... */
struct replay {
	struct pl_sim **sim;
	unsigned n, threads;
};

struct replay_part {
	struct replay *r;
	unsigned first;
};

static void *run_part(void *arg)
{
	struct replay_part *p = arg;

	for (unsigned i = p->first; i < p->r->n; i += p->r->threads)
		if (!pl_sim_error(p->r->sim[i]))
			pl_sim_run(p->r->sim[i], UINT32_MAX);
	return NULL;
}

static void run_all(struct replay *r)
{
	struct replay_part part[CLI_MAX_JOBS];
	pthread_t thread[CLI_MAX_JOBS];
	unsigned started = 1;

	for (unsigned k = 0; k < r->threads; k++)
		part[k] = (struct replay_part){ r, k };
	while (started < r->threads && !pthread_create(&thread[started], NULL, run_part,
						       &part[started]))
		started++;
	for (unsigned k = started; k < r->threads; k++)
		run_part(&part[k]);	/* a thread that could not start: its share here */
	run_part(&part[0]);
	for (unsigned k = 1; k < started; k++)
		pthread_join(thread[k], NULL);
}

/* Pass 2, from the mapped spill: FEED_REFS references through every simulation, then handed back. */
static int feed(struct cli_stream *s, struct replay *r, struct pl_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	while (s->t.n < s->total) {
		s->t.n = s->total - s->t.n < FEED_REFS ? (uint32_t)s->total : s->t.n + FEED_REFS;
		run_all(r);
		for (unsigned i = 0; i < r->n; i++)
			if (pl_sim_error(r->sim[i]))
				return snprintf(err->msg, sizeof(err->msg), "%s",
						pl_sim_error(r->sim[i])), -1;
		for (unsigned i = 0; i < NR_COLUMNS; i++)
			column_release(&s->col[i], column_size[i], s->t.n, page);
	}
	return 0;
}

/*
 * Creates a simulation of each result over t into r->sim (allocated,
 * zeroed); 0 or -1 with err set.
 */
static int replay_create(struct replay *r, struct cli_result *results, const struct pl_trace *t,
			 struct pl_error *err)
{
	for (unsigned i = 0; i < r->n; i++) {
		struct cli_result *res = &results[i];

		r->sim[i] = pl_sim_create(res->ops, res->frames == CLI_UNBOUNDED ? PL_NONE - 1 :
					  res->frames, res->params, t, 0, 0, err);
		if (!r->sim[i])
			return -1;
	}
	return 0;
}

/* Each result from its finished simulation; 0 or -1 (cli_collect() said what went wrong). */
static int replay_collect(struct replay *r, struct cli_result *results)
{
	for (unsigned i = 0; i < r->n; i++)
		if (cli_collect(&results[i], r->sim[i]))
			return -1;
	return 0;
}

/* Destroys r's simulations, however far replay_create() got. */
static void replay_destroy(struct replay *r)
{
	for (unsigned i = 0; r->sim && i < r->n; i++)
		pl_sim_destroy(r->sim[i]);
	free(r->sim);
}

int cli_stream_simulate(struct cli_stream *s, struct cli_result *results, unsigned n,
			unsigned jobs)
{
	struct replay r = { .n = n, .threads = jobs < n ? jobs : n };
	struct pl_error err = { .msg = "" };
	int ret = -1;

	if (!r.threads)
		r.threads = 1;
	if (!(r.sim = calloc(n, sizeof(*r.sim)))) {
		snprintf(err.msg, sizeof(err.msg), "out of memory");
		goto out;
	}
	if (map_columns(s)) {
		snprintf(err.msg, sizeof(err.msg), "%s: cannot map %llu references: %s",
			 pl_reader_name(s->r), (unsigned long long)s->total, strerror(errno));
		goto out;
	}
	if (replay_create(&r, results, &s->t, &err) || feed(s, &r, &err))
		goto out;
	ret = replay_collect(&r, results);
	err.msg[0] = '\0';	/* cli_collect() said what went wrong */
out:
	if (ret && err.msg[0])
		cli_fail("%s", err.msg);
	replay_destroy(&r);
	unmap_columns(s);
	return ret ? EXIT_FAILURE : 0;
}

int cli_stream_each(struct cli_stream *s, int (*each)(void *ctx, const uint32_t *ids, uint32_t n),
		    void *ctx)
{
	FILE *f = s->col[COL_PAGE].f;
	size_t n;

	if (fflush(f) || fseek(f, 0, SEEK_SET))
		return cli_fail("%s: cannot read back a temporary file: %s", pl_reader_name(s->r),
				strerror(errno));
	while ((n = fread(s->ids, sizeof(*s->ids), s->ids_cap, f)) > 0)
		if (each(ctx, s->ids, (uint32_t)n))
			return EXIT_FAILURE;
	return ferror(f) ? cli_fail("%s: cannot read back a temporary file: %s",
				    pl_reader_name(s->r), strerror(errno)) : 0;
}

static int run_streaming(struct cli_result *results, unsigned n, struct pl_reader *r)
{
	struct cli_stream *s;
	int ret;

	if ((ret = stream_open(r, NULL, &s)))
		return ret;
	ret = cli_stream_simulate(s, results, n, 1);
	cli_stream_close(s);
	return ret;
}

/* ------------------------------------------------- simulating while reading */

/*
 * Streaming in one pass, for a file whose size bounds its references and
 * policies that declare PL_POLICY_SPARSE: the simulations are created for
 * that bound as their number of pages (pl_reader_max_references()), and
 * run on the main thread while a reader thread parses and interns the
 * rest of the file.  Dense ids are handed out in first-seen order, so the
 * pages seen so far are always ids 0 .. distinct - 1, the only per-page
 * entries a sparse policy (and the simulator's residency bytes) touches:
 * memory still grows with the distinct pages, not with the bound.
 *
 * The columns (ids, flags) and number[] are reserved for the bound at
 * the start and never move, so a simulation reads them by absolute step
 * while the reader appends; the reader publishes how many references are
 * complete (`published`, a sequentially consistent store after their ids,
 * flags and the numbers of their new pages).  The references, their ids
 * and so every result are exactly those of the two-pass stream.
 *
 * The columns' memory is recycled: they are cut in laps of LAP_REFS
 * references, and only LAPS_HELD laps have memory at a time.  When the
 * simulations have passed a lap, its pages move (mremap) to the lap
 * LAPS_HELD further on, where the reader writes next:
 *
 *   lap:      0      1      2      3      4      5   ...
 *           passed  [ sims | reader | fresh ]  reserved, no memory
 *             |______________________________^
 *                the pages of lap 0 move to lap 3
 *
 * so the reader stays within LAPS_HELD laps of the simulations, and
 * writes into pages that are already there.  The reader moves them
 * itself, before it writes past the laps it holds: the simulations only
 * say how far they are (`passed`), so the main thread, which the wall time
 * waits for, makes no system call for it.  Fresh pages for every lap
 * would cost the reader a page fault and a page of zeros every 1024
 * references (a third of its time, in the kernel), and held back the
 * reader, whose lead is what keeps the simulations from waiting.
 *
 * The columns, number[] and the page map are in 4 KB pages, not
 * transparent huge ones, although a huge page is one fault where 4 KB
 * pages are 512: on a virtual machine that hands free memory back to its
 * host in 2 MB blocks (virtio-balloon free page reporting, as on the
 * machines pagelab is tested on), a fresh huge page is most often such a
 * block, and its first touch waits while the host faults in all 512 of its
 * pages again.  In huge pages, the first batch came 10-25 ms after the
 * start in most runs (the whole simulation takes 80), where 4 KB pages,
 * mostly memory the guest used moments before, take 2-3 ms.
 *
 * Handing over: each side waits for the other's counter by spinning a
 * while (the other runs on the other core, and a batch of 16K references
 * takes the reader about a tenth of a millisecond), then asleep on the
 * condition variable; a side that moves its counter only takes the lock
 * to wake the other if it sleeps.  `sleepers` is raised under the lock
 * before the sleeper checks the counter a last time, and the waker reads
 * it after its store, both sequentially consistent, so either the sleeper
 * sees the store or the waker sees the sleeper (and, taking the lock,
 * wakes it in its wait).
 */
#define LAP_REFS (1u << 19)
#define LAPS_HELD 3
/* Larger bounds stream in two passes: their reservations would be tens of GB. */
#define MAX_BOUND (1u << 28)
/*
 * Checks of the other thread's counter before going to sleep, a pause
 * each: about 0.2 ms here, twice what the reader takes for a batch.
 */
#define SPINS 8192

struct alongside {
	struct pl_reader *r;
	struct pl_trace t;	/* the reader's: the page map, number[] reserved for the bound */
	struct pl_trace view;	/* the simulations': the columns, n = references passed to them */
	void *col[2];		/* the ids and flags reserved for the bound (COL_PAGE, COL_FLAGS) */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	uint32_t bound, written;	/* written: the reader's own count */
	uint32_t laps, want;	/* laps reserved; references the reader waits to append */
	uint32_t recycled;	/* the reader's: laps passed and moved on */
	atomic_uint published, passed, sleepers;	/* passed: whole laps the simulations are through */
	atomic_bool ended, stop;	/* the reader is done (got, err); the simulations gave up */
	int got;
	struct pl_error err;
};

/* Whether results can run alongside r's reading; the bound into *bound. */
static bool can_run_alongside(const struct cli_result *results, unsigned n,
			      const struct pl_reader *r, uint32_t *bound)
{
	uint64_t most = pl_reader_max_references(r);

	if (!most || most > MAX_BOUND || pl_reader_has_time(r))
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!pl_policy_sparse(results[i].ops))
			return false;
	*bound = (uint32_t)most;
	return true;
}

/* Room for bytes, untouched until used; NULL if none. */
static void *reserve(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static size_t column_bytes(const struct alongside *a, unsigned column)
{
	return (size_t)a->laps * LAP_REFS * column_size[column];
}

/*
 * The pages of lap `lap`, which the simulations have passed, moved to the
 * lap LAPS_HELD further on, if there is one: the lap left behind stays
 * mapped, empty (MREMAP_DONTUNMAP, Linux 5.13 on), so nothing else can be
 * mapped inside the columns.  Where that cannot be done, the pages are
 * handed back and the reader will fault in fresh ones.
 */
static void recycle_lap(struct alongside *a, uint32_t lap)
{
	for (unsigned i = COL_PAGE; i <= COL_FLAGS; i++) {
		size_t bytes = (size_t)LAP_REFS * column_size[i];
		char *from = (char *)a->col[i] + lap * bytes;

		if (lap + LAPS_HELD >= a->laps ||
		    mremap(from, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP,
			   from + LAPS_HELD * bytes) == MAP_FAILED)
			madvise(from, bytes, MADV_DONTNEED);
	}
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Waits until ready(a): spinning SPINS checks, then asleep until woken. */
static void wait_until(struct alongside *a, bool (*ready)(struct alongside *a))
{
	for (unsigned i = 0; i < SPINS; i++) {
		if (ready(a))
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&a->lock);
	atomic_fetch_add(&a->sleepers, 1);
	while (!ready(a))
		pthread_cond_wait(&a->changed, &a->lock);
	atomic_fetch_sub(&a->sleepers, 1);
	pthread_mutex_unlock(&a->lock);
}

/* After moving a counter: wakes the other thread if it sleeps. */
static void wake(struct alongside *a)
{
	if (!atomic_load(&a->sleepers))
		return;
	pthread_mutex_lock(&a->lock);
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
}

/* Whether the laps held have room for a->want more references. */
static bool room_or_stop(struct alongside *a)
{
	return a->written + (uint64_t)a->want <=
	       (uint64_t)(atomic_load(&a->passed) + LAPS_HELD) * LAP_REFS ||
	       atomic_load(&a->stop);
}

/* The laps the simulations have passed since the last call, recycled. */
static void recycle_passed(struct alongside *a)
{
	for (uint32_t passed = atomic_load(&a->passed); a->recycled < passed; a->recycled++)
		recycle_lap(a, a->recycled);
}

/* One batch's ids and flags appended to the columns, when there is room; 0 or -1 with a->err. */
static int append_batch(struct alongside *a, const struct pl_refs *b)
{
	if (b->n > a->bound - a->written)
		return snprintf(a->err.msg, sizeof(a->err.msg), "%s: more references than its "
				"size allows (did it grow while read?)", pl_reader_name(a->r)), -1;
	a->want = b->n;
	wait_until(a, room_or_stop);
	if (atomic_load(&a->stop))
		return 0;
	recycle_passed(a);
	if (pl_trace_intern_batch(&a->t, b->number, b->n, a->view.page + a->written))
		return snprintf(a->err.msg, sizeof(a->err.msg), "%s: out of memory after %u pages",
				pl_reader_name(a->r), a->t.npages), -1;
	memcpy(a->view.flags + a->written, b->flags, b->n);	/* a recycled lap holds old ones */
	a->written += b->n;
	return 0;
}

static void *read_alongside(void *arg)
{
	struct alongside *a = arg;
	struct pl_refs b;
	int got = 0;

	while (!atomic_load(&a->stop) && (got = pl_reader_next(a->r, &b, &a->err)) > 0) {
		if (append_batch(a, &b)) {
			got = -1;
			break;
		}
		atomic_store(&a->published, a->written);
		wake(a);
	}
	a->got = atomic_load(&a->stop) ? 0 : got;
	/* Interning is over: freed here, beside the simulations, not after them. */
	pl_page_map_destroy(a->t.map);
	a->t.map = NULL;
	atomic_store(&a->published, a->written);
	atomic_store(&a->ended, true);
	wake(a);
	return NULL;
}

static bool references_or_end(struct alongside *a)
{
	return atomic_load(&a->published) != a->view.n || atomic_load(&a->ended);
}

/* The simulations have passed a->view.n: the reader told of the laps they are through. */
static void passed(struct alongside *a)
{
	uint32_t laps = a->view.n / LAP_REFS;

	if (laps == atomic_load(&a->passed))
		return;		/* no lap done: the reader's room is as it was */
	atomic_store(&a->passed, laps);
	wake(a);
}

/* Every published batch through every simulation, until the reader is done. */
static int simulate_alongside(struct alongside *a, struct replay *rp, struct pl_error *err)
{
	for (;;) {
		bool ended;
		uint32_t upto;

		wait_until(a, references_or_end);
		ended = atomic_load(&a->ended);	/* before published: it is final then */
		upto = atomic_load(&a->published);
		if (upto == a->view.n && ended)
			break;
		/* a lap at most: the reader waits for the laps passed */
		a->view.n = upto - a->view.n > LAP_REFS ? a->view.n + LAP_REFS : upto;
		run_all(rp);
		for (unsigned i = 0; i < rp->n; i++)
			if (pl_sim_error(rp->sim[i]))
				return snprintf(err->msg, sizeof(err->msg), "%s",
						pl_sim_error(rp->sim[i])), -1;
		passed(a);
	}
	if (a->got < 0)
		return *err = a->err, -1;
	if (!a->view.n)
		return snprintf(err->msg, sizeof(err->msg), "%s: no references",
				pl_reader_name(a->r)), -1;
	return 0;
}

static int alongside_start(struct alongside *a)
{
	a->laps = (a->bound + LAP_REFS - 1) / LAP_REFS;
	for (unsigned i = COL_PAGE; i <= COL_FLAGS; i++)
		if (!(a->col[i] = reserve(column_bytes(a, i))))
			return -1;
	if (!(a->t.number = calloc(a->bound, sizeof(*a->t.number))))	/* untouched until used */
		return -1;
	a->t.page_cap = a->bound;
	a->view = (struct pl_trace){
		.npages = a->bound, .page = a->col[COL_PAGE],
		.flags = a->col[COL_FLAGS], .number = a->t.number,
	};
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->changed, NULL);
	if (pthread_create(&a->thread, NULL, read_alongside, a)) {
		pthread_cond_destroy(&a->changed);
		pthread_mutex_destroy(&a->lock);
		return -1;
	}
	return 0;
}

/* Stops the reader thread if it still runs, and frees everything but the reader. */
static void alongside_end(struct alongside *a, bool started)
{
	if (started) {
		atomic_store(&a->stop, true);
		wake(a);
		pthread_join(a->thread, NULL);
		pthread_cond_destroy(&a->changed);
		pthread_mutex_destroy(&a->lock);
	}
	for (unsigned i = COL_PAGE; i <= COL_FLAGS; i++)
		if (a->col[i])
			munmap(a->col[i], column_bytes(a, i));
	pl_trace_free(&a->t);
}

static int run_alongside(struct cli_result *results, unsigned n, struct pl_reader *r,
			 uint32_t bound)
{
	struct alongside a = { .r = r, .bound = bound };
	struct replay rp = { .n = n, .threads = 1 };
	struct pl_error err = { .msg = "" };
	bool started = false;
	int ret = -1;

	pl_trace_init(&a.t);
	if (!(rp.sim = calloc(n, sizeof(*rp.sim))) || alongside_start(&a)) {
		snprintf(err.msg, sizeof(err.msg), "%s: cannot reserve room for %u references: %s",
			 pl_reader_name(r), bound, strerror(errno));
		goto out;
	}
	started = true;
	if (replay_create(&rp, results, &a.view, &err) || simulate_alongside(&a, &rp, &err))
		goto out;
	cli_report_reader(r);
	ret = replay_collect(&rp, results);
	err.msg[0] = '\0';	/* cli_collect() said what went wrong */
out:
	if (ret && err.msg[0])
		cli_fail("%s", err.msg);
	replay_destroy(&rp);
	alongside_end(&a, started);
	pl_reader_close(r);
	return ret ? EXIT_FAILURE : 0;
}

/*
 * Whether the whole trace must be in memory: for events, a policy that looks
 * ahead, local scope (one policy instance per process) and per-process
 * statistics (the simulator takes a trace's pids from the whole trace).
 */
static bool must_load(const struct cli_result *results, unsigned n, bool events,
		      const struct pl_reader *r)
{
	if (events || pl_reader_has_pid(r))
		return true;
	for (unsigned i = 0; i < n; i++)
		if (pl_policy_needs_future(results[i].ops) ||
		    (results[i].scope && results[i].scope->local))
			return true;
	return false;
}

/* Runs every result's policy over a trace in memory; 0 or an exit status. */
static int simulate_all(struct cli_result *results, unsigned n, struct pl_trace *trace,
			bool events)
{
	int ret = 0;

	for (unsigned i = 0; !ret && i < n; i++)
		ret = cli_simulate(&results[i], trace, events);
	pl_trace_free(trace);
	return ret;
}

int cli_run_input(const struct cli_args *a, struct cli_result *results, unsigned n,
		  bool events)
{
	struct pl_trace trace;
	struct pl_reader *r;
	uint32_t bound;
	int ret;

	if ((ret = check_input(a)))
		return ret;
	pl_trace_init(&trace);
	if (cli_value(a, "--trace")) {
		if ((ret = cli_open_reader(a, &r)))
			return ret;
		if (!must_load(results, n, events, r))
			return can_run_alongside(results, n, r, &bound) ?
			       run_alongside(results, n, r, bound) : run_streaming(results, n, r);
		ret = load_reader(&trace, r);
	} else {
		ret = cli_load_trace(a, &trace);
	}
	if (ret) {
		pl_trace_free(&trace);
		return ret;
	}
	return simulate_all(results, n, &trace, events);
}
