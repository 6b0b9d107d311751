/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.c - the references a command reads: --refs, or --trace FILE with
 * the format options, either loaded whole (cli_load_trace) or streamed
 * through the simulations (cli_run_input).
 *
 * Streaming a --trace file parses it once: the first pass interns every
 * page number (the distinct pages: the simulator and every policy size
 * their tables by them) and writes each reference as its dense id (and
 * flags, pid, time) to an unlinked temporary file in $TMPDIR; the second
 * pass reads that file back, FEED_REFS references at a time, and runs
 * every simulation over them.  The simulator reads a trace's arrays by
 * absolute step, so the arrays are reserved as address space the length of
 * the whole trace (mmap, MAP_NORESERVE) and each batch is written at its
 * own steps; what the simulations have passed is handed back
 * (MADV_DONTNEED), so only one batch is ever resident.  Memory is the page
 * map, the policies' per-page state and one batch: O(distinct pages +
 * frames), not O(references); the temporary file takes 5 bytes a
 * reference on disk (more with pid and time).  A pipe streams too, since
 * the input itself is read only once.
 *
 * The whole trace is loaded instead when it must be: for --events (the
 * event stream names steps of a recording), for policies that look ahead
 * (OPT), and for traces with a pid column (per-process statistics and
 * local scope take the processes from the whole trace).
 */
/* mmap's MAP_ANONYMOUS and MAP_NORESERVE, madvise's MADV_DONTNEED */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "analysis.h"

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

/* A trace array the length of the whole trace, as address space only. */
struct window {
	void *base;
	size_t bytes, released;	/* mapped; handed back from the start */
	size_t elem;
};

static int window_map(struct window *w, uint32_t n, size_t elem)
{
	w->elem = elem;
	w->bytes = ((size_t)n + 1) * elem;
	w->released = 0;
	w->base = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return w->base == MAP_FAILED ? -1 : 0;
}

/* Hands back the whole pages before element `done`. */
static void window_release(struct window *w, uint32_t done)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t upto = (size_t)done * w->elem / page * page;

	if (w->base && upto > w->released) {
		madvise((char *)w->base + w->released, upto - w->released, MADV_DONTNEED);
		w->released = upto;
	}
}

static void window_unmap(struct window *w)
{
	if (w->base && w->base != MAP_FAILED)
		munmap(w->base, w->bytes);
	w->base = NULL;
}

struct cli_stream {
	struct pl_reader *r;
	FILE *spill;		/* pass 1's references as dense ids */
	uint32_t *ids;		/* one reader batch's ids, ids_cap long */
	uint32_t ids_cap;
	struct pl_trace t;	/* pages from pass 1; during a replay its arrays are the windows */
	uint64_t total;		/* references read in pass 1 */
	struct window page, flags, pid, vtime;
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

static int spill_batch(struct cli_stream *s, const struct pl_refs *b)
{
	uint32_t n = b->n;

	return fwrite(&n, sizeof(n), 1, s->spill) != 1 ||
	       fwrite(s->ids, sizeof(*s->ids), n, s->spill) != n ||
	       fwrite(b->flags, 1, n, s->spill) != n ||
	       (pl_reader_has_pid(s->r) && fwrite(b->pid, sizeof(*b->pid), n, s->spill) != n) ||
	       (pl_reader_has_time(s->r) && fwrite(b->time, sizeof(*b->time), n, s->spill) != n)
		       ? -1 : 0;
}

/*
 * Pass 1, the only parse: every page number interned once (the distinct
 * pages, which the simulator sizes its tables by) and every reference
 * written to the spill file as its dense id.
 */
static int learn_pages(struct cli_stream *s, struct pl_locality *also, struct pl_error *err)
{
	struct pl_refs b;
	int got;

	while ((got = pl_reader_next(s->r, &b, err)) > 0) {
		if (b.n > s->ids_cap) {
			uint32_t *ids = realloc(s->ids, b.n * sizeof(*ids));

			if (!ids)
				return snprintf(err->msg, sizeof(err->msg), "%s: out of memory",
						pl_reader_name(s->r)), -1;
			s->ids = ids;
			s->ids_cap = b.n;
		}
		if (pl_trace_intern_batch(&s->t, b.number, b.n, s->ids)) {
			snprintf(err->msg, sizeof(err->msg), "%s: out of memory after %u pages",
				 pl_reader_name(s->r), s->t.npages);
			return -1;
		}
		for (uint32_t i = 0; also && i < b.n; i++)
			if (pl_locality_add(also, s->ids[i], err))
				return -1;
		if (spill_batch(s, &b)) {
			snprintf(err->msg, sizeof(err->msg), "%s: cannot write a temporary file "
				 "(TMPDIR): %s", pl_reader_name(s->r), strerror(errno));
			return -1;
		}
		s->total += b.n;
		if (s->total >= PL_NONE - 1) {
			snprintf(err->msg, sizeof(err->msg), "%s: more than %u references, the most "
				 "a trace can hold", pl_reader_name(s->r), PL_NONE - 2);
			return -1;
		}
	}
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
	if (s->spill)
		fclose(s->spill);
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
	if (!(s->spill = spill_create())) {
		snprintf(err.msg, sizeof(err.msg), "%s: cannot create a temporary file (TMPDIR): %s",
			 pl_reader_name(r), strerror(errno));
	} else if (!learn_pages(s, also, &err)) {
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

static void unmap_windows(struct cli_stream *s)
{
	window_unmap(&s->page);
	window_unmap(&s->flags);
	window_unmap(&s->pid);
	window_unmap(&s->vtime);
	s->t.page = s->t.pid = NULL;
	s->t.flags = NULL;
	s->t.vtime = NULL;
	s->t.n = 0;
}

static int map_windows(struct cli_stream *s)
{
	uint32_t n = (uint32_t)s->total;

	if (window_map(&s->page, n, sizeof(uint32_t)) || window_map(&s->flags, n, 1) ||
	    (pl_reader_has_pid(s->r) && window_map(&s->pid, n, sizeof(uint32_t))) ||
	    (pl_reader_has_time(s->r) && window_map(&s->vtime, n, sizeof(uint64_t))))
		return -1;
	s->t.page = s->page.base;
	s->t.flags = s->flags.base;
	s->t.pid = s->pid.base;
	s->t.vtime = s->vtime.base;
	s->t.n = 0;
	return 0;
}

/* Reads one spilled batch into the windows at its steps; 0 at the end, -1 on error. */
static int unspill_batch(struct cli_stream *s)
{
	uint32_t n, at = s->t.n;

	if (fread(&n, sizeof(n), 1, s->spill) != 1)
		return ferror(s->spill) ? -1 : 0;
	if (n > s->total - at || fread(s->t.page + at, sizeof(*s->t.page), n, s->spill) != n ||
	    fread(s->t.flags + at, 1, n, s->spill) != n ||
	    (s->t.pid && fread(s->t.pid + at, sizeof(*s->t.pid), n, s->spill) != n) ||
	    (s->t.vtime && fread(s->t.vtime + at, sizeof(*s->t.vtime), n, s->spill) != n))
		return -1;
	s->t.n += n;
	return 1;
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

/* Pass 2, from the spill: FEED_REFS references through every simulation, then handed back. */
static int feed(struct cli_stream *s, struct replay *r, struct pl_error *err)
{
	int got = 1;

	while (got > 0) {
		uint32_t from = s->t.n;

		while (s->t.n - from < FEED_REFS && (got = unspill_batch(s)) > 0)
			;
		if (got < 0)
			return snprintf(err->msg, sizeof(err->msg), "%s: cannot read back a "
					"temporary file: %s", pl_reader_name(s->r),
					strerror(errno)), -1;
		run_all(r);
		for (unsigned i = 0; i < r->n; i++)
			if (pl_sim_error(r->sim[i]))
				return snprintf(err->msg, sizeof(err->msg), "%s",
						pl_sim_error(r->sim[i])), -1;
		window_release(&s->page, s->t.n);
		window_release(&s->flags, s->t.n);
		window_release(&s->pid, s->t.n);
		window_release(&s->vtime, s->t.n);
	}
	return 0;
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
	if (fflush(s->spill) || fseek(s->spill, 0, SEEK_SET) || map_windows(s)) {
		snprintf(err.msg, sizeof(err.msg), "%s: cannot map %llu references: %s",
			 pl_reader_name(s->r), (unsigned long long)s->total, strerror(errno));
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		struct cli_result *res = &results[i];

		r.sim[i] = pl_sim_create(res->ops, res->frames == CLI_UNBOUNDED ? PL_NONE - 1 :
					 res->frames, res->params, &s->t, 0, 0, &err);
		if (!r.sim[i])
			goto out;
	}
	if (feed(s, &r, &err))
		goto out;
	ret = 0;
	for (unsigned i = 0; i < n && !ret; i++)
		ret = cli_collect(&results[i], r.sim[i]) ? -1 : 0;
	err.msg[0] = '\0';	/* cli_collect() said what went wrong */
out:
	if (ret && err.msg[0])
		cli_fail("%s", err.msg);
	for (unsigned i = 0; r.sim && i < n; i++)
		pl_sim_destroy(r.sim[i]);
	free(r.sim);
	unmap_windows(s);
	return ret ? EXIT_FAILURE : 0;
}

int cli_stream_each(struct cli_stream *s, int (*each)(void *ctx, const uint32_t *ids, uint32_t n),
		    void *ctx)
{
	/* bytes after each id: its flags, pid and time */
	size_t rest = 1 + (pl_reader_has_pid(s->r) ? sizeof(uint32_t) : 0) +
		      (pl_reader_has_time(s->r) ? sizeof(uint64_t) : 0);
	uint32_t n;

	if (fflush(s->spill) || fseek(s->spill, 0, SEEK_SET))
		return cli_fail("%s: cannot read back a temporary file: %s", pl_reader_name(s->r),
				strerror(errno));
	while (fread(&n, sizeof(n), 1, s->spill) == 1) {
		if (n > s->ids_cap || fread(s->ids, sizeof(*s->ids), n, s->spill) != n ||
		    fseek(s->spill, (long)(rest * n), SEEK_CUR))
			return cli_fail("%s: cannot read back a temporary file", pl_reader_name(s->r));
		if (each(ctx, s->ids, n))
			return EXIT_FAILURE;
	}
	return ferror(s->spill) ? cli_fail("%s: cannot read back a temporary file: %s",
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
	int ret;

	if ((ret = check_input(a)))
		return ret;
	pl_trace_init(&trace);
	if (cli_value(a, "--trace")) {
		if ((ret = cli_open_reader(a, &r)))
			return ret;
		if (!must_load(results, n, events, r))
			return run_streaming(results, n, r);
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
