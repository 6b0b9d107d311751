// SPDX-License-Identifier: GPL-2.0
/*
 * memstat_check: the guest side of the memstat assignment's graded tests.
 *
 *   memstat_check exists              the call returns 0 and fills the struct
 *   memstat_check lists TAG           the four list sizes next to /proc/meminfo's
 *   memstat_check referenced FILE     read FILE (not yet cached) once, then again:
 *                                     PG_referenced pages, then promotions
 *   memstat_check pressure DIR        anon + file workload (file in DIR) that forces
 *                                     activation, deactivation and eviction; the
 *                                     counter deltas next to /proc/vmstat's
 *   memstat_check cold DIR            a file read twice (active), mapped, then
 *                                     madvise(MADV_COLD): deactivations that are
 *                                     not reclaim, next to /proc/vmstat's
 *   memstat_check concurrent          four callers at once under memory pressure
 *   memstat_check efault              bad user pointers must give EFAULT
 *
 * Every fact goes out as a signed line (pltest.h) under an id "memstat.<check>";
 * numbers go out with pl_value so that tests.py applies the tolerances itself.
 * A check whose call fails (e.g. ENOSYS) reports a failed result naming errno and
 * sends no numbers.  Exit status: 0 when the checks ran (whatever they found),
 * 2 on bad usage.
 *
 * Invariant: the program never trusts the kernel under test to stay sane; every
 * figure it reports was read back from the kernel, never computed to match.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "memstat_call.h"
#include "pltest.h"

#define PAGE_SIZE 4096L
#define STABLE_TRIES 100
#define CALLERS 4
#define CALLS_PER_CALLER 150
#define COLD_FILE_PAGES 2048

/* ---------- /proc readers ---------- */

/* The number after "NAME" (meminfo: "NAME:  123 kB", vmstat: "NAME 123"), or -1. */
static long long proc_field(const char *path, const char *name)
{
	char line[256];
	size_t length = strlen(name);
	long long value = -1;
	FILE *file = fopen(path, "r");

	if (!file)
		return -1;
	while (fgets(line, sizeof(line), file)) {
		if (strncmp(line, name, length) == 0 &&
		    (line[length] == ':' || line[length] == ' ')) {
			value = strtoll(line + length + 1, NULL, 10);
			break;
		}
	}
	fclose(file);
	return value;
}

static long long meminfo_pages(const char *name)
{
	long long kilobytes = proc_field("/proc/meminfo", name);

	return kilobytes < 0 ? -1 : kilobytes * 1024 / PAGE_SIZE;
}

/* The /proc/vmstat events each cumulative memstat counter must move with. */
struct vm_events {
	long long pgactivate;
	long long pgdeactivate;
	long long pgsteal;
};

static void read_vm_events(struct vm_events *events)
{
	events->pgactivate = proc_field("/proc/vmstat", "pgactivate");
	events->pgdeactivate = proc_field("/proc/vmstat", "pgdeactivate");
	events->pgsteal = proc_field("/proc/vmstat", "pgsteal_anon") +
			  proc_field("/proc/vmstat", "pgsteal_file");
}

/* ---------- calling memstat ---------- */

/* Calls memstat; on failure reports result ID as failed, naming errno. */
static int snapshot_or_fail(const char *id, struct memstat *stat)
{
	if (memstat(stat) == 0)
		return 0;
	pl_result(id, 0, "memstat() returned -1 with errno %d (%s)%s", errno, strerror(errno),
		  errno == ENOSYS ? ": system call 451 is not implemented" : "");
	return -1;
}

static int same_counters(const struct memstat *a, const struct memstat *b)
{
	return a->promoted == b->promoted && a->demoted == b->demoted &&
	       a->evicted == b->evicted;
}

static int same_events(const struct vm_events *a, const struct vm_events *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static void sleep_milliseconds(long milliseconds)
{
	struct timespec pause = { milliseconds / 1000, milliseconds % 1000 * 1000000 };

	nanosleep(&pause, NULL);
}

/*
 * A memstat snapshot and /proc/vmstat events taken while reclaim is idle:
 * both read twice in a row with nothing changing in between, so that the
 * two describe the same moment.  Returns 0, or -1 (reported) if the call
 * fails or the system never settles.
 */
static int settled_snapshot(const char *id, struct memstat *stat, struct vm_events *events)
{
	struct memstat again;
	struct vm_events events_again;
	int try;

	for (try = 0; try < STABLE_TRIES; try++) {
		if (snapshot_or_fail(id, stat))
			return -1;
		read_vm_events(events);
		if (snapshot_or_fail(id, &again))
			return -1;
		read_vm_events(&events_again);
		if (same_counters(stat, &again) && same_events(events, &events_again))
			return 0;
		sleep_milliseconds(100);
	}
	pl_result(id, 0, "reclaim never settled for %d tries: cannot compare", STABLE_TRIES);
	return -1;
}

/* ---------- workloads ---------- */

/* Writes each page of [start, start + bytes) once (a store makes it dirty and young). */
static void touch_pages(char *start, size_t bytes, int seed)
{
	size_t offset;

	for (offset = 0; offset < bytes; offset += PAGE_SIZE)
		start[offset] = (char)(offset / PAGE_SIZE + seed);
}

/*
 * Anonymous memory larger than RAM: a hot quarter touched over and over (so
 * reclaim finds it referenced and activates it) and the rest touched in full
 * sweeps (so it is swapped out).  Returns 0, or -1 if the mapping failed.
 */
static int anon_pressure(size_t bytes, int sweeps)
{
	size_t hot = bytes / 4;
	char *region = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int sweep;

	if (region == MAP_FAILED)
		return -1;
	for (sweep = 0; sweep < sweeps; sweep++) {
		touch_pages(region, bytes, sweep);
		touch_pages(region, hot, sweep);
		touch_pages(region, hot, sweep + 1);
	}
	munmap(region, bytes);
	return 0;
}

/* Reads PATH page by page: every read() marks the page it starts in accessed. */
static long read_by_pages(const char *path)
{
	char page[PAGE_SIZE];
	long pages = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (read(fd, page, sizeof(page)) > 0)
		pages++;
	close(fd);
	return pages;
}

static int write_file(const char *path, size_t bytes)
{
	static char chunk[64 * 1024];
	size_t written;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	memset(chunk, 'm', sizeof(chunk));
	for (written = 0; written < bytes; written += sizeof(chunk))
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			break;
	fsync(fd);
	close(fd);
	return written < bytes ? -1 : 0;
}

static size_t memory_total_bytes(void)
{
	return (size_t)meminfo_pages("MemTotal") * PAGE_SIZE;
}

/* ---------- the checks ---------- */

static int check_exists(void)
{
	struct memstat stat;
	uint64_t listed;

	memset(&stat, 0xff, sizeof(stat));
	if (snapshot_or_fail("memstat.exists", &stat))
		return 0;
	listed = stat.active_anon + stat.inactive_anon + stat.active_file + stat.inactive_file;
	pl_result("memstat.exists", listed > 0 && listed <= (uint64_t)meminfo_pages("MemTotal"),
		  "memstat() returned 0; the four lists hold %llu pages of %lld in RAM",
		  (unsigned long long)listed, meminfo_pages("MemTotal"));
	return 0;
}

static void report_list(const char *id, const char *name, uint64_t mine,
			long long before, long long after)
{
	char key[64];

	pl_value(id, name, (long long)mine);
	snprintf(key, sizeof(key), "meminfo_%s", name);
	pl_value(id, key, (before + after) / 2);
	snprintf(key, sizeof(key), "meminfo_drift_%s", name);
	pl_value(id, key, llabs(after - before));
}

/* /proc/meminfo read just before and just after the call bounds what it may say. */
static int check_lists(const char *tag)
{
	static const char * const fields[4] = {
		"Active(anon)", "Inactive(anon)", "Active(file)", "Inactive(file)" };
	static const char * const names[4] = {
		"active_anon", "inactive_anon", "active_file", "inactive_file" };
	long long before[4], after[4];
	struct memstat stat;
	uint64_t mine[4];
	char id[64];
	int i;

	snprintf(id, sizeof(id), "memstat.lists.%s", tag);
	sync();
	sleep_milliseconds(500);
	for (i = 0; i < 4; i++)
		before[i] = meminfo_pages(fields[i]);
	if (snapshot_or_fail(id, &stat))
		return 0;
	for (i = 0; i < 4; i++)
		after[i] = meminfo_pages(fields[i]);
	mine[0] = stat.active_anon;
	mine[1] = stat.inactive_anon;
	mine[2] = stat.active_file;
	mine[3] = stat.inactive_file;
	for (i = 0; i < 4; i++)
		report_list(id, names[i], mine[i], before[i], after[i]);
	pl_value(id, "referenced_active", (long long)stat.referenced_active);
	pl_value(id, "referenced_inactive", (long long)stat.referenced_inactive);
	pl_result(id, 1, "memstat() returned 0 next to /proc/meminfo");
	return 0;
}

/*
 * FILE is on disk but not in the page cache.  Reading it once leaves its
 * pages inactive with PG_referenced set; reading it again promotes them.
 */
static int check_referenced(const char *path)
{
	const char *id = "memstat.referenced";
	struct memstat start, once, twice;
	struct vm_events events_start, events_once, events_twice;
	long pages;

	if (settled_snapshot(id, &start, &events_start))
		return 0;
	pages = read_by_pages(path);
	if (pages <= 0) {
		pl_result(id, 0, "the test could not read %s: %s", path, strerror(errno));
		return 0;
	}
	if (settled_snapshot(id, &once, &events_once))
		return 0;
	read_by_pages(path);
	if (settled_snapshot(id, &twice, &events_twice))
		return 0;
	pl_value(id, "file_pages", pages);
	pl_value(id, "referenced_inactive_gain",
		 (long long)(once.referenced_inactive - start.referenced_inactive));
	pl_value(id, "inactive_file_gain",
		 (long long)(once.inactive_file - start.inactive_file));
	pl_value(id, "referenced_inactive_loss",
		 (long long)(once.referenced_inactive - twice.referenced_inactive));
	pl_value(id, "active_file_gain", (long long)(twice.active_file - once.active_file));
	pl_value(id, "promoted_gain", (long long)(twice.promoted - once.promoted));
	pl_value(id, "pgactivate_gain", events_twice.pgactivate - events_once.pgactivate);
	pl_result(id, 1, "read a %ld-page file twice", pages);
	return 0;
}

static void report_deltas(const char *id, const struct memstat *before,
			  const struct memstat *after, const struct vm_events *events_before,
			  const struct vm_events *events_after)
{
	pl_value(id, "promoted", (long long)(after->promoted - before->promoted));
	pl_value(id, "demoted", (long long)(after->demoted - before->demoted));
	pl_value(id, "evicted", (long long)(after->evicted - before->evicted));
	pl_value(id, "pgactivate", events_after->pgactivate - events_before->pgactivate);
	pl_value(id, "pgdeactivate", events_after->pgdeactivate - events_before->pgdeactivate);
	pl_value(id, "pgsteal", events_after->pgsteal - events_before->pgsteal);
}

/*
 * A file as large as half of RAM, written then read twice (the second read
 * promotes what is still cached), then anonymous memory 1.25 times RAM in
 * one sweep, then the file once more (what was evicted comes back).
 */
static int check_pressure(const char *directory)
{
	const char *id = "memstat.pressure";
	size_t ram = memory_total_bytes();
	struct memstat before, after;
	struct vm_events events_before, events_after;
	char path[256];

	snprintf(path, sizeof(path), "%s/pressure.dat", directory);
	if (settled_snapshot(id, &before, &events_before))
		return 0;
	if (write_file(path, ram / 2)) {
		pl_result(id, 0, "the test could not write %s: %s", path, strerror(errno));
		return 0;
	}
	read_by_pages(path);
	read_by_pages(path);
	if (anon_pressure(ram + ram / 4, 1)) {
		pl_result(id, 0, "the test could not map %zu bytes", ram + ram / 4);
		return 0;
	}
	read_by_pages(path);
	unlink(path);
	if (settled_snapshot(id, &after, &events_after))
		return 0;
	report_deltas(id, &before, &after, &events_before, &events_after);
	pl_result(id, 1, "workload done: %zu MiB file, %zu MiB anonymous",
		  ram / 2 >> 20, (ram + ram / 4) >> 20);
	return 0;
}

/*
 * Deactivations that are not reclaim.  A file read twice sits on the active
 * file list; mapped, then madvise(MADV_COLD) on the mapping, its
 * pages move to the inactive list through lru_deactivate_fn() in mm/swap.c,
 * which /proc/vmstat counts as pgdeactivate.  No reclaim runs (the machine has
 * plenty of free memory here), so memstat's demoted, which counts only what
 * reclaim demotes, must stay put while pgdeactivate grows by about the file's
 * size.  A kernel that copies the global counters cannot tell the two apart.
 */
static int check_cold(const char *directory)
{
	const char *id = "memstat.cold";
	size_t bytes = COLD_FILE_PAGES * PAGE_SIZE;
	struct memstat before, after;
	struct vm_events events_before, events_after;
	char path[256];
	char *map;
	int fd;

	snprintf(path, sizeof(path), "%s/cold.dat", directory);
	if (write_file(path, bytes) || read_by_pages(path) < 0 || read_by_pages(path) < 0) {
		pl_result(id, 0, "the test could not write and read %s: %s", path,
			  strerror(errno));
		return 0;
	}
	fd = open(path, O_RDONLY);
	/* MAP_POPULATE maps every page now: MADV_COLD acts on mapped pages only */
	map = fd < 0 ? MAP_FAILED : mmap(NULL, bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED) {
		pl_result(id, 0, "the test could not map %s: %s", path, strerror(errno));
		return 0;
	}
	if (settled_snapshot(id, &before, &events_before))
		return 0;
	if (madvise(map, bytes, MADV_COLD)) {
		pl_result(id, 0, "madvise(MADV_COLD) failed: %s", strerror(errno));
		return 0;
	}
	if (settled_snapshot(id, &after, &events_after))
		return 0;
	munmap(map, bytes);
	close(fd);
	unlink(path);
	report_deltas(id, &before, &after, &events_before, &events_after);
	pl_value(id, "file_pages", COLD_FILE_PAGES);
	pl_result(id, 1, "madvise(MADV_COLD) on a %d-page active file mapping",
		  COLD_FILE_PAGES);
	return 0;
}

/* ---------- concurrent callers ---------- */

struct caller_report {
	int failed;
	long calls;
	char why[160];
};

/* Returns NULL when SNAPSHOT (following PREVIOUS) is consistent, else the reason. */
static const char *inconsistency(const struct memstat *snapshot,
				 const struct memstat *previous, uint64_t ram_pages)
{
	uint64_t active = snapshot->active_anon + snapshot->active_file;
	uint64_t inactive = snapshot->inactive_anon + snapshot->inactive_file;

	if (snapshot->referenced_active > active)
		return "more referenced active pages than active pages";
	if (snapshot->referenced_inactive > inactive)
		return "more referenced inactive pages than inactive pages";
	if (active + inactive > ram_pages)
		return "the lists hold more pages than RAM has";
	if (snapshot->promoted < previous->promoted || snapshot->demoted < previous->demoted ||
	    snapshot->evicted < previous->evicted)
		return "a cumulative counter went down";
	return NULL;
}

static void caller(struct caller_report *report, uint64_t ram_pages)
{
	struct memstat previous = { 0 }, snapshot;
	const char *why;

	for (report->calls = 0; report->calls < CALLS_PER_CALLER; report->calls++) {
		if (memstat(&snapshot) != 0) {
			snprintf(report->why, sizeof(report->why), "call %ld returned -1 (%s)",
				 report->calls + 1, strerror(errno));
			report->failed = 1;
			return;
		}
		why = inconsistency(&snapshot, &previous, ram_pages);
		if (why) {
			snprintf(report->why, sizeof(report->why), "call %ld: %s",
				 report->calls + 1, why);
			report->failed = 1;
			return;
		}
		previous = snapshot;
	}
}

/* Starts the callers; returns how many started. */
static int start_callers(struct caller_report *reports, uint64_t ram_pages)
{
	int started;

	for (started = 0; started < CALLERS; started++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			caller(&reports[started], ram_pages);
			_exit(0);
		}
	}
	return started;
}

/* Waits for every child; returns how many ended by a signal (e.g. killed by an oops). */
static int reap_children(void)
{
	int status, killed = 0;

	while (wait(&status) > 0)
		if (WIFSIGNALED(status))
			killed++;
	return killed;
}

static int check_concurrent(void)
{
	const char *id = "memstat.concurrent";
	uint64_t ram_pages = meminfo_pages("MemTotal");
	struct caller_report *reports = mmap(NULL, CALLERS * sizeof(*reports),
					     PROT_READ | PROT_WRITE,
					     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int started, killed, i;

	if (reports == MAP_FAILED) {
		pl_result(id, 0, "the test could not map its report area");
		return 0;
	}
	memset(reports, 0, CALLERS * sizeof(*reports));
	started = start_callers(reports, ram_pages);
	anon_pressure(memory_total_bytes(), 1);
	killed = reap_children();
	for (i = 0; i < started; i++) {
		if (reports[i].failed) {
			pl_result(id, 0, "caller %d of %d: %s", i + 1, started, reports[i].why);
			return 0;
		}
	}
	pl_result(id, started == CALLERS && killed == 0,
		  "%d callers x %d calls during reclaim: %d started, %d killed, all consistent",
		  CALLERS, CALLS_PER_CALLER, started, killed);
	return 0;
}

/* ---------- bad pointers ---------- */

static void expect_efault(const char *id, const char *what, void *pointer)
{
	long status;

	errno = 0;
	status = memstat_raw(pointer);
	pl_result(id, status == -1 && errno == EFAULT,
		  "memstat(%s) returned %ld%s%s (expected -1 with EFAULT)", what, status,
		  status == -1 ? " with errno " : "", status == -1 ? strerror(errno) : "");
}

static int check_efault(void)
{
	char *pages = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *read_only = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (pages == MAP_FAILED || read_only == MAP_FAILED) {
		pl_result("memstat.efault.setup", 0, "the test could not map its pages");
		return 0;
	}
	munmap(pages + PAGE_SIZE, PAGE_SIZE);
	expect_efault("memstat.efault.null", "NULL", NULL);
	expect_efault("memstat.efault.read_only", "a read-only page", read_only);
	expect_efault("memstat.efault.straddling",
		      "a struct running off the end of the mapping", pages + PAGE_SIZE - 16);
	munmap(pages, PAGE_SIZE);
	expect_efault("memstat.efault.unmapped", "an unmapped page", pages);
	expect_efault("memstat.efault.kernel", "a kernel address",
		      (void *)0xffffffff81000000UL);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: memstat_check exists | lists TAG | referenced FILE"
		" | pressure DIR | cold DIR | concurrent | efault\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "exists") == 0)
		return check_exists();
	if (argc == 3 && strcmp(argv[1], "lists") == 0)
		return check_lists(argv[2]);
	if (argc == 3 && strcmp(argv[1], "referenced") == 0)
		return check_referenced(argv[2]);
	if (argc == 3 && strcmp(argv[1], "pressure") == 0)
		return check_pressure(argv[2]);
	if (argc == 3 && strcmp(argv[1], "cold") == 0)
		return check_cold(argv[2]);
	if (argc == 2 && strcmp(argv[1], "concurrent") == 0)
		return check_concurrent();
	if (argc == 2 && strcmp(argv[1], "efault") == 0)
		return check_efault();
	return usage();
}
