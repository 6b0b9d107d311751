/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pagelab.h - the public interface of the pagelab simulation core.
 *
 * The core runs one page replacement policy over one reference trace, one
 * reference at a time, and records every state change as an event, so that a
 * visualizer, a lab handout or a CLI can show exactly what the policy did and
 * why.  Everything outside the core (CLI, WebAssembly ABI, tests) uses only
 * this header; policies additionally use policy.h.
 *
 * Vocabulary
 *   page      a dense page id, 0 .. trace->npages-1.  The trace maps the
 *             64-bit page numbers of the input to dense ids on load, so every
 *             per-page table in the core is a plain array.
 *   step      the index of a reference in the trace.  "The state at step k"
 *             is the state after references 0 .. k-1 were processed: step 0
 *             is the empty start, step trace->n is the end.
 *   list      a named, ordered sequence of pages that a policy keeps (LRU's
 *             recency list, CLOCK's ring of frames, Linux's four LRU lists,
 *             ARC's ghosts).  Position 0 is the head.  Each resident page is
 *             in exactly one non-ghost list; ghost lists hold non-resident
 *             history only.
 *   field     a named per-page integer a policy keeps (reference bit, RRPV,
 *             counter, age).  A page entering memory has every field 0.
 *   hand      a named position in a list (CLOCK's hand).
 *
 * Events
 *   The driver and the policy report each change as a struct pl_event.  The
 *   structural events (INSERT, MOVE, REMOVE, EVICT, SET, HAND) are complete:
 *   applying them in order to the empty snapshot yields the policy's own
 *   snapshot at every step (pl_snapshot_apply(), checked by the tests).
 *
 * Invariants
 *   The driver checks on every step, in every build, that resident pages
 *   <= frames, a victim is resident and evict() removes exactly the victim
 *   (a violation stops the simulation: pl_sim_error()); hits + misses ==
 *   references holds by construction; the tests check replay == snapshot
 *   for every policy.
 */
#ifndef PAGELAB_H
#define PAGELAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PL_NONE UINT32_MAX	/* "no page", "never used again" */
#define PL_MAX_LISTS 8
#define PL_MAX_FIELDS 8
#define PL_MAX_HANDS 3
#define PL_MAX_PARAMS 12
#define PL_MAX_COUNTERS 24
#define PL_MAX_VARIABLES 4

/* ---------------------------------------------------------------- errors */

/*
 * Every function that can fail on user input fills a pl_error with one line
 * that names the input, the line and the offending token, e.g.
 *   "trace.txt:12: 'x17' is not a page number (decimal or 0x-hex)".
 */
struct pl_error {
	char msg[256];
};

/* ----------------------------------------------------------------- trace */

enum pl_ref_flags {
	PL_REF_WRITE = 1 << 0,	/* the reference writes the page (dirties it) */
};

/*
 * A trace: n references, structure of arrays so that the hot loop touches
 * only what it needs.  pid and vtime are NULL unless the input had them.
 */
struct pl_trace {
	uint32_t n;		/* references */
	uint32_t npages;	/* distinct pages (dense ids 0 .. npages-1) */
	uint32_t *page;		/* [n] dense page id of each reference */
	uint8_t *flags;		/* [n] enum pl_ref_flags */
	uint32_t *pid;		/* [n] process id, or NULL */
	uint64_t *vtime;	/* [n] virtual timestamp, or NULL */
	uint64_t *number;	/* [npages] input page number of each dense id */
	uint32_t cap, page_cap;	/* allocated lengths of the arrays above */
	struct pl_page_map *map;	/* page number -> dense id while loading */
};

void pl_trace_init(struct pl_trace *t);
void pl_trace_free(struct pl_trace *t);
/* Appends one reference; returns its dense page id, or PL_NONE when out of memory. */
uint32_t pl_trace_add(struct pl_trace *t, uint64_t number, unsigned flags);
/*
 * The dense id of a page number, giving it the next id if it is new, without
 * adding a reference (a streaming run learns the pages first); PL_NONE when
 * out of memory.
 */
uint32_t pl_trace_intern(struct pl_trace *t, uint64_t number);
/*
 * pl_trace_intern() of a batch: ids[i] = the id of numbers[i] (ids may be
 * NULL).  Faster than one at a time (the page map's cache misses overlap);
 * -1 when out of memory.
 */
int pl_trace_intern_batch(struct pl_trace *t, const uint64_t *numbers, uint32_t n,
			  uint32_t *ids);
/* Adds the process id / timestamp of the last reference added (allocates lazily). */
int pl_trace_set_pid(struct pl_trace *t, uint32_t pid);
int pl_trace_set_vtime(struct pl_trace *t, uint64_t vtime);

/*
 * Reference-string syntax (CLI --refs, the web page's text box):
 *   pages separated by commas and/or white space; decimal or 0x-hex;
 *   a trailing 'w' or 'W' marks a write ("7,0w,1 2W").
 * Returns 0, or -1 with err naming `source` (e.g. "--refs") and the token.
 */
int pl_trace_parse_refs(struct pl_trace *t, const char *text, const char *source,
			struct pl_error *err);
/*
 * Trace files.  The reader picks the format from the content; the plain
 * format is one reference per line in the reference-string syntax, with '#'
 * comments and blank lines allowed.  `name` is used in error messages.
 */
int pl_trace_read(struct pl_trace *t, FILE *in, const char *name, struct pl_error *err);
int pl_trace_read_buffer(struct pl_trace *t, const char *buf, size_t len, const char *name,
			 struct pl_error *err);

/* --------------------------------------------------------- trace readers */

/*
 * Trace formats (docs: wasm-core/README.md, "Trace formats").  AUTO picks
 * one from the content: gzip is recognised by its magic bytes and undone
 * first, whatever is inside; then pagelab's binary format by its magic,
 * Lackey by a "==PID==" banner or an I/L/S/M line, a table (CSV) by a
 * header line starting with a letter, and anything else is TEXT.
 * LIBCACHESIM is never guessed: for numeric ids it reads like TEXT.
 */
enum pl_format {
	PL_FORMAT_AUTO,
	PL_FORMAT_TEXT,		/* reference strings, page per line; optional table header */
	PL_FORMAT_CSV,		/* columns mapped by a header or by --columns */
	PL_FORMAT_LACKEY,	/* valgrind --tool=lackey --trace-mem=yes */
	PL_FORMAT_LIBCACHESIM,	/* libCacheSim's plain text: one object id per line */
	PL_FORMAT_BINARY,	/* pagelab's own (trace_binary.h) */
	PL_FORMAT_COUNT
};

const char *pl_format_name(enum pl_format format);
/* "text", "csv", ... (and "auto"); -1 if there is no such format. */
int pl_format_find(const char *name, enum pl_format *format);

struct pl_read_options {
	enum pl_format format;	/* PL_FORMAT_AUTO to detect */
	uint32_t page_size;	/* bytes per page for addresses (Lackey, CSV
				 * address column); a power of two; 0: 4096 */
	bool no_instructions;	/* Lackey: leave out instruction fetches (I) */
	bool collapse;		/* drop a reference to the same page (and pid)
				 * as the one just before; a dropped write makes
				 * the kept reference a write */
	bool no_comments;	/* '#' is not a comment (--refs strings) */
	const char *columns;	/* CSV: "page=2,time=1,op=3,pid=4" by column
				 * number (1-based) or header name; roles are
				 * page, address, time, op, pid; NULL: the
				 * header names the roles itself */
};

/*
 * One batch of references as the input spelled them: 64-bit page numbers
 * (addresses already divided by the page size), not dense ids.  The arrays
 * belong to the reader and stay valid until its next call.  pid and time
 * are NULL unless the input has them (pl_reader_has_pid/has_time, fixed
 * once the first batch is read); time never decreases.
 */
struct pl_refs {
	uint32_t n;
	const uint64_t *number;
	const uint8_t *flags;	/* enum pl_ref_flags */
	const uint32_t *pid;
	const uint64_t *time;
};

/*
 * A streaming reader: constant memory (a read buffer and one batch)
 * however long the trace, so an analysis that keeps O(distinct pages)
 * state reads any trace in that much memory:
 *
 *	struct pl_reader *r = pl_reader_open_file(path, &opts, &err);
 *	struct pl_refs b;
 *	int got;
 *
 *	while ((got = pl_reader_next(r, &b, &err)) > 0)
 *		for (uint32_t i = 0; i < b.n; i++)
 *			use(b.number[i], b.flags[i]);
 *	pl_reader_close(r);
 *	if (got < 0)
 *		fail(err.msg);	   "FILE:LINE: 'TOKEN' ..." or "FILE: truncated ..."
 *
 * Every malformed line, truncated gzip stream or binary file is an error
 * naming the input, the line (binary: the byte offset) and the token;
 * nothing is skipped silently (only Lackey's "==PID==" and "--PID--"
 * banner lines are, by design).  A second pass over the same input:
 * pl_reader_rewind() (files and buffers, not pipes).
 */
struct pl_reader;

/* path "-" reads standard input (not rewindable). NULL with err on failure. */
struct pl_reader *pl_reader_open_file(const char *path, const struct pl_read_options *opts,
				      struct pl_error *err);
/* An open stream (not closed by the reader); `name` is used in messages. */
struct pl_reader *pl_reader_open_stream(FILE *in, const char *name,
					const struct pl_read_options *opts, struct pl_error *err);
/* A buffer that outlives the reader (not copied). */
struct pl_reader *pl_reader_open_buffer(const void *buf, size_t len, const char *name,
					const struct pl_read_options *opts, struct pl_error *err);
/* The next batch: returns its size (> 0), 0 at the end, -1 with err. */
int pl_reader_next(struct pl_reader *r, struct pl_refs *out, struct pl_error *err);
/* Back to the first reference; -1 with err if the input cannot be reread. */
int pl_reader_rewind(struct pl_reader *r, struct pl_error *err);
bool pl_reader_can_rewind(const struct pl_reader *r);
void pl_reader_close(struct pl_reader *r);

/* What was read.  The format is known after open (detected if AUTO). */
enum pl_format pl_reader_format(const struct pl_reader *r);
const char *pl_reader_name(const struct pl_reader *r);
bool pl_reader_gzip(const struct pl_reader *r);
bool pl_reader_has_pid(const struct pl_reader *r);
bool pl_reader_has_time(const struct pl_reader *r);
/*
 * The text pagelab itself writes, uncompressed and as is: a page per line,
 * or a table whose header names its columns (no --columns, no addresses).
 * Commands report how they read anything else.
 */
bool pl_reader_plain(const struct pl_reader *r);
/*
 * An upper bound on the references (so on the distinct pages) of the
 * whole input, known before it is read; 0 when none is (a pipe, gzip,
 * any format but text).  input.c streams with it.
 */
uint64_t pl_reader_max_references(const struct pl_reader *r);
/* References dropped by options.collapse so far (this pass). */
uint64_t pl_reader_collapsed(const struct pl_reader *r);
/*
 * One line for a user: "lackey, gzip, page size 4096, instruction fetches
 * included, 1234 consecutive repeats collapsed".
 */
void pl_reader_describe(const struct pl_reader *r, char *buf, size_t size);

/* Reads every reference of r into t (dense ids, pid and time columns). */
int pl_trace_load(struct pl_trace *t, struct pl_reader *r, struct pl_error *err);

/*
 * Writers (pagelab convert): TEXT writes one page number per line (a
 * header "page time pid" table when the references carry those columns),
 * BINARY pagelab's binary format.  Writes go to `out` as they come;
 * pl_writer_close() finishes the file (the binary end block) and says
 * whether every write reached it.
 */
struct pl_writer;

struct pl_writer *pl_writer_open(FILE *out, const char *name, enum pl_format format,
				 bool pid, bool time, struct pl_error *err);
int pl_writer_write(struct pl_writer *w, const struct pl_refs *refs, struct pl_error *err);
int pl_writer_close(struct pl_writer *w, struct pl_error *err);

/* ---------------------------------------------------------------- events */

enum pl_event_kind {
	PL_EV_HIT,	/* page was resident.                                */
	PL_EV_MISS,	/* page fault: page was not resident.                */
	PL_EV_VICTIM,	/* the policy chose page to evict (peek, no change). */
	PL_EV_EVICT,	/* page left memory from list `arg`; a = 1 if dirty
			 * (written back).                                   */
	PL_EV_INSERT,	/* page entered list `arg` at position b.            */
	PL_EV_MOVE,	/* page moved from list a to list `arg`, position b. */
	PL_EV_REMOVE,	/* page dropped from list `arg` (a ghost forgotten). */
	PL_EV_SET,	/* page's field `arg` changed from a to b.           */
	PL_EV_HAND,	/* hand `arg` moved from position a to position b.   */
	PL_EV_VARIABLE,	/* policy variable `arg` changed from a to b.        */
	PL_EV_KINDS
};

/*
 * One event as pl_sim_events() hands it out: 20 bytes, five 32-bit words
 * (JS reads them as an Int32Array view).  The log itself keeps events
 * encoded in a few bytes each (eventlog.h).
 */
struct pl_event {
	uint32_t step;	/* reference index this event belongs to */
	uint16_t kind;	/* enum pl_event_kind */
	uint16_t arg;	/* list id, field id or hand id, by kind */
	uint32_t page;	/* dense page id (PL_NONE for HAND) */
	int32_t a;
	int32_t b;
};

const char *pl_event_kind_name(enum pl_event_kind kind);

/* -------------------------------------------------------------- policies */

struct pl_policy_ops;	/* defined in policy.h; opaque to users of the core */

/*
 * A policy parameter: an integer with a default and a range.  A parameter
 * with `choices` takes one of the named values (stored as the index), so
 * "--param insertion=bimodal" and "--param insertion=1" mean the same.
 */
struct pl_param {
	const char *name;
	const char *help;
	int64_t def, min, max;
	const char *const *choices;	/* NULL-terminated, or NULL */
};

/* All policies compiled in, in a stable order; NULL-terminated. */
extern const struct pl_policy_ops *const pl_policies[];
const struct pl_policy_ops *pl_policy_find(const char *name);

/* Reflection, so a CLI or a UI can describe any policy without knowing it. */
const char *pl_policy_name(const struct pl_policy_ops *ops);
const char *pl_policy_title(const struct pl_policy_ops *ops);
const char *pl_policy_help(const struct pl_policy_ops *ops);
/* Sizes its own resident set (WS, PFF): frames is only an optional bound. */
bool pl_policy_variable_space(const struct pl_policy_ops *ops);
/* Looks ahead in the trace (OPT): needs the whole trace in memory. */
bool pl_policy_needs_future(const struct pl_policy_ops *ops);
/* Touches the state of referenced pages only (PL_POLICY_SPARSE, policy.h). */
bool pl_policy_sparse(const struct pl_policy_ops *ops);
unsigned pl_policy_nparams(const struct pl_policy_ops *ops);
const struct pl_param *pl_policy_param(const struct pl_policy_ops *ops, unsigned i);
unsigned pl_policy_nlists(const struct pl_policy_ops *ops);
const char *pl_policy_list_name(const struct pl_policy_ops *ops, unsigned i);
bool pl_policy_list_is_ghost(const struct pl_policy_ops *ops, unsigned i);
unsigned pl_policy_nfields(const struct pl_policy_ops *ops);
const char *pl_policy_field_name(const struct pl_policy_ops *ops, unsigned i);
unsigned pl_policy_nhands(const struct pl_policy_ops *ops);
const char *pl_policy_hand_name(const struct pl_policy_ops *ops, unsigned i);
unsigned pl_policy_hand_list(const struct pl_policy_ops *ops, unsigned i);
unsigned pl_policy_ncounters(const struct pl_policy_ops *ops);
const char *pl_policy_counter_name(const struct pl_policy_ops *ops, unsigned i);
/* Variables: numbers of the policy as a whole that its decisions depend on
 * (LeCaR's weights), in the snapshot and changed by VARIABLE events. */
unsigned pl_policy_nvariables(const struct pl_policy_ops *ops);
const char *pl_policy_variable_name(const struct pl_policy_ops *ops, unsigned i);

/*
 * Parameter values: start from the defaults, then apply "name=value" strings
 * (value: integer or one of the parameter's choices).  Errors name the
 * parameter and list the valid names/range.
 */
void pl_params_default(const struct pl_policy_ops *ops, int64_t values[PL_MAX_PARAMS]);
int pl_params_set(const struct pl_policy_ops *ops, int64_t values[PL_MAX_PARAMS],
		  const char *assignment, struct pl_error *err);

/* -------------------------------------------------------------- snapshot */

/*
 * A policy's structure at one step, as plain data: each list's pages in
 * order with every field of every page, and each hand's position.  Entries
 * are stored list after list: list i occupies entries
 * [start(i), start(i) + len[i]).
 */
struct pl_snapshot {
	uint32_t nlists, nfields, nhands;
	uint32_t len[PL_MAX_LISTS];
	int32_t hand[PL_MAX_HANDS];
	uint32_t total;		/* sum of len[] */
	uint32_t cap;		/* allocated entries */
	uint32_t *page;		/* [total] */
	int32_t *value;		/* [total * nfields], entry-major */
	bool failed;		/* a push ran out of memory or broke the list order */
	/* last, so that the words before keep their places for JS (engine.ts) */
	uint32_t nvariables;
	int32_t variable[PL_MAX_VARIABLES];	/* the policy's variables */
};

void pl_snapshot_init(struct pl_snapshot *s, const struct pl_policy_ops *ops);
void pl_snapshot_free(struct pl_snapshot *s);
void pl_snapshot_clear(struct pl_snapshot *s);
/* Room for `entries` entries without growing; -1 when out of memory. */
int pl_snapshot_reserve(struct pl_snapshot *s, uint32_t entries);
int pl_snapshot_copy(struct pl_snapshot *dst, const struct pl_snapshot *src);
bool pl_snapshot_equal(const struct pl_snapshot *a, const struct pl_snapshot *b);
/*
 * Applies one structural event (HIT/MISS/VICTIM are no-ops); -1 if it does
 * not fit (a page not where the event says).  EVICT, MOVE and REMOVE find
 * the page by id in their source list, so the policy need not know where it
 * sits in a list it keeps as a linked list; INSERT and MOVE carry the
 * destination position because order is what a list is.  A MOVE's position
 * counts in the destination list after the page has left its source (so
 * moving a page to the tail of its own list has position len - 1).  SET
 * checks the old value; HAND checks the old position.  Every hand of the
 * empty snapshot is at position 0.
 */
int pl_snapshot_apply(struct pl_snapshot *s, const struct pl_event *ev);

/* ------------------------------------------------------------- simulator */

struct pl_stats {
	uint64_t references, hits, misses, evictions, writebacks;
	/* Resident pages after each step, summed: resident_sum / references is
	 * the mean resident set size, the space side of a variable-space
	 * policy's trade-off (WS, PFF). */
	uint64_t resident_sum;
};

enum pl_sim_flags {
	PL_SIM_RECORD = 1 << 0,	/* keep the event log and checkpoints */
};

struct pl_sim;

/*
 * Creates a simulation of `ops` with `frames` page frames over `trace`
 * (which must outlive the simulation).  params: NULL for the defaults.
 * With PL_SIM_RECORD every event is kept and snapshot checkpoints are taken,
 * so that any step can be restored cheaply (pl_sim_seek): every
 * `checkpoint_every` steps, or with 0 (what a viewer wants) spaced by size:
 * a checkpoint once the events since the previous one take as much memory
 * as it did, so checkpoints cost at most what the events do whatever the
 * number of frames.
 */
struct pl_sim *pl_sim_create(const struct pl_policy_ops *ops, uint32_t frames,
			     const int64_t *params, const struct pl_trace *trace,
			     unsigned flags, uint32_t checkpoint_every, struct pl_error *err);
void pl_sim_destroy(struct pl_sim *sim);

/*
 * Processes the next reference; returns false once the trace is exhausted
 * or the simulation has failed (see pl_sim_error).
 */
bool pl_sim_step(struct pl_sim *sim);
/* Processes up to `steps` references (UINT32_MAX: all); returns how many. */
uint32_t pl_sim_run(struct pl_sim *sim, uint32_t steps);
uint32_t pl_sim_position(const struct pl_sim *sim);	/* steps done */
/*
 * NULL while all is well.  When a policy breaks an invariant (a victim that
 * is not resident, evict() removing another page, memory over-full, running
 * out of memory), the simulation stops and this names the policy, the step
 * and what went wrong; no further step is taken.
 */
const char *pl_sim_error(const struct pl_sim *sim);

const struct pl_stats *pl_sim_stats(const struct pl_sim *sim);
/* Fills out[0 .. ncounters-1] with the policy's own counters. */
void pl_sim_counters(const struct pl_sim *sim, uint64_t *out);
uint32_t pl_sim_resident(const struct pl_sim *sim);

/* The live structure after the steps done so far. */
int pl_sim_snapshot(const struct pl_sim *sim, struct pl_snapshot *out);

/*
 * Event log (PL_SIM_RECORD).
 * The events of steps [from, to), decoded (with a failed step's events when
 * `to` passes it), in a buffer the simulation owns and reuses at the next
 * call; *count of them.  NULL with *count 0 when out of memory.  Events are
 * numbered from 0 over the whole run; pl_sim_step_events() gives a finished
 * step's numbers.
 */
const struct pl_event *pl_sim_events(struct pl_sim *sim, uint32_t from, uint32_t to,
				     uint32_t *count);
void pl_sim_step_events(const struct pl_sim *sim, uint32_t step, uint32_t *begin,
			uint32_t *end);

/*
 * Memory the recording holds (PL_SIM_RECORD; 0 without): the event log and
 * the step index as allocated, and every checkpoint's arrays.  The
 * benchmark prints it per reference.
 */
size_t pl_sim_recording_bytes(const struct pl_sim *sim);

/*
 * The structure at step k (0 <= k <= steps done), rebuilt from the nearest
 * checkpoint at or before k plus the events between, without re-running the
 * policy: O(S + E) time, where S is the checkpoint's size and E the events
 * between (a few checkpoints' worth of bytes, or checkpoint_every steps),
 * each replayed in O(1) (src/replay.h).
 * Needs PL_SIM_RECORD.
 */
int pl_sim_seek(const struct pl_sim *sim, uint32_t k, struct pl_snapshot *out);

/* ------------------------------------------------------------- processes */

/*
 * A trace with a pid column is a multiprogrammed trace.  Under global
 * scope (pl_sim) the policy replaces over all frames; the statistics per
 * process are its references, hits and misses (evictions, writebacks and
 * resident_sum stay 0: a global policy's evictions belong to no process).
 * pl_sim_nprocs() is 0 for a trace without pids or with more than
 * PL_MAX_PROCESSES of them.
 */
#define PL_MAX_PROCESSES 4096
uint32_t pl_sim_nprocs(const struct pl_sim *sim);
/* Process i (ascending pid): its pid and statistics so far. */
void pl_sim_proc(const struct pl_sim *sim, uint32_t i, uint32_t *pid, struct pl_stats *stats);

/*
 * Local scope (local.c): each process gets its own share of the frames
 * and its own instance of the policy, and replaces only among its pages.
 * shares: weights per pid (every process of the trace needs one), or
 * nshares 0 for equal shares.  A trace without pids is one process (pid
 * 0), the same simulation as global scope.  No recording.  Errors: a page
 * referenced by two processes, a share of less than one frame, a share
 * naming a process the trace lacks or missing one it has.
 */
struct pl_share {
	uint32_t pid;
	uint32_t weight;
};

struct pl_local;
struct pl_local *pl_local_create(const struct pl_policy_ops *ops, uint32_t frames,
				 const int64_t *params, const struct pl_trace *trace,
				 const struct pl_share *shares, unsigned nshares,
				 struct pl_error *err);
void pl_local_destroy(struct pl_local *l);
/* Processes up to `steps` references of the trace, in trace order. */
uint32_t pl_local_run(struct pl_local *l, uint32_t steps);
const char *pl_local_error(const struct pl_local *l);
/* Totals: resident_sum sums all processes' resident pages after each reference. */
void pl_local_stats(const struct pl_local *l, struct pl_stats *total);
/* Each counter summed over the processes. */
void pl_local_counters(const struct pl_local *l, uint64_t *out);
uint32_t pl_local_nprocs(const struct pl_local *l);
/* Process i (ascending pid): pid, frames and statistics over its references. */
void pl_local_proc(const struct pl_local *l, uint32_t i, uint32_t *pid, uint32_t *frames,
		   struct pl_stats *stats);

#endif /* PAGELAB_H */
