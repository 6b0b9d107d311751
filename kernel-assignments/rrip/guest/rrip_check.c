// SPDX-License-Identifier: GPL-2.0
/*
 * rrip_check: the guest side of the RRIP assignment's graded tests.
 *
 *   rrip_check insert DIR     a file read twice: its pages are promoted
 *   rrip_check batch DIR      a small file read twice at once: its pages are
 *                             promoted while still in the per-CPU batch
 *   rrip_check hit DIR        the insert file, its pages set to the maximum,
 *                             read once more: hits on active pages
 *   rrip_check max DIR        with /proc/rrip/max at 2, a file read twice
 *   rrip_check scan DIR MIB   a file read twice and set to RRPV 0, then a child
 *                             sweeps MIB MiB of anonymous memory (more than RAM)
 *                             while this process watches the file's pages
 *
 * Every page is looked at through /proc/rrip/pages (base patch, mm/rrip.c):
 * its list (active, inactive, ...) and its RRPV.  The program reports counts
 * with pl_value (e.g. "rrip.insert active_rrpv_2 1019") and whether the step
 * itself ran with pl_result; tests.py applies the rules and tolerances, so the
 * numbers stay in the report for a student to read.
 *
 * Files are created on DIR (the ext2 disk: the page cache of a real file
 * system), written, synced and dropped from the cache with
 * POSIX_FADV_DONTNEED, so the first read finds no page cached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pltest.h"

#define PAGE_SIZE 4096
#define ARRAY_SIZE(array) (sizeof(array) / sizeof((array)[0]))
#define RRPV_VALUES 4		/* 0 ... RRPV_LIMIT of the base patch */
#define INSERT_PAGES 1024	/* 4 MiB: large, but far from filling memory */
#define BATCH_PAGES 8		/* fits in one per-CPU batch (15 folios) */
#define SCANNED_PAGES 2048	/* 8 MiB of a 96 MiB machine */
#define MAX_PAGES 256
#define SWEEP_STEP (2 << 20)	/* the watcher looks after every 2 MiB swept */

enum where { ABSENT, ACTIVE, INACTIVE, ISOLATED, UNEVICTABLE, WHERE_KINDS };

static const char *const where_names[WHERE_KINDS] = {
	"absent", "active", "inactive", "isolated", "unevictable",
};

/* How many pages of a file are where, with which RRPV. */
struct census {
	long pages;
	long count[WHERE_KINDS][RRPV_VALUES];
};

/* One page as /proc/rrip/pages showed it. */
struct page_look {
	unsigned char where;
	unsigned char rrpv;
};

static long where_total(const struct census *census, enum where where)
{
	long total = 0;
	int rrpv;

	for (rrpv = 0; rrpv < RRPV_VALUES; rrpv++)
		total += census->count[where][rrpv];
	return total;
}

static int where_from_name(const char *name)
{
	int where;

	for (where = 0; where < WHERE_KINDS; where++)
		if (strcmp(name, where_names[where]) == 0)
			return where;
	return -1;
}

/*
 * Asks /proc/rrip/pages about the file open as FD; with SET >= 0 first sets
 * every cached page of it to RRPV SET.  Fills CENSUS and, when LOOKS is not
 * NULL, LOOKS[INDEX] for each page INDEX below NLOOKS.
 * Returns 0 or -1 with errno set (EPROTO: a line that does not parse).
 */
static int rrip_census(int fd, int set, struct census *census, struct page_look *looks,
		       long nlooks)
{
	char command[32], line[128], name[16];
	unsigned long index;
	unsigned int rrpv;
	int referenced, where, query;
	FILE *listing;

	memset(census, 0, sizeof(*census));
	query = open("/proc/rrip/pages", O_RDWR);
	if (query < 0)
		return -1;
	if (set >= 0)
		snprintf(command, sizeof(command), "%d %d\n", fd, set);
	else
		snprintf(command, sizeof(command), "%d\n", fd);
	if (write(query, command, strlen(command)) < 0) {
		close(query);
		return -1;
	}
	listing = fdopen(query, "r");
	if (!listing) {
		close(query);
		return -1;
	}
	while (fgets(line, sizeof(line), listing)) {
		where = -1;
		if (sscanf(line, "%lu %15s %u %d", &index, name, &rrpv, &referenced) == 4)
			where = where_from_name(name);
		if (where < 0 || rrpv >= RRPV_VALUES) {
			fclose(listing);
			errno = EPROTO;
			return -1;
		}
		census->count[where][rrpv]++;
		census->pages++;
		if (looks && index < (unsigned long)nlooks) {
			looks[index].where = where;
			looks[index].rrpv = rrpv;
		}
	}
	fclose(listing);
	return 0;
}

/* Reports every non-zero count of CENSUS as ID where_rrpv_N, plus the totals. */
static void report_census(const char *id, const struct census *census)
{
	char key[32];
	int where, rrpv;

	pl_value(id, "pages", census->pages);
	for (where = 0; where < WHERE_KINDS; where++) {
		snprintf(key, sizeof(key), "%s", where_names[where]);
		pl_value(id, key, where_total(census, where));
		if (where == ABSENT)
			continue;
		for (rrpv = 0; rrpv < RRPV_VALUES; rrpv++) {
			snprintf(key, sizeof(key), "%s_rrpv_%d", where_names[where], rrpv);
			pl_value(id, key, census->count[where][rrpv]);
		}
	}
}

static int census_or_fail(const char *id, int fd, int set, struct census *census)
{
	if (rrip_census(fd, set, census, NULL, 0) == 0)
		return 0;
	pl_result(id, 0, "/proc/rrip/pages could not be read: %s", strerror(errno));
	return -1;
}

/* Reads every page of FD once, 64 KiB at a time: one folio_mark_accessed() per page. */
static int read_whole(int fd)
{
	static char chunk[64 * 1024];
	off_t offset = 0;
	ssize_t got;

	while ((got = pread(fd, chunk, sizeof(chunk), offset)) > 0)
		offset += got;
	return got < 0 ? -1 : 0;
}

/* Creates DIR/NAME with PAGES pages, not cached; returns an O_RDONLY fd or -1. */
static int fresh_file(const char *id, const char *directory, const char *name, long pages)
{
	static char chunk[PAGE_SIZE];
	char path[256];
	long page;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", directory, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		goto fail;
	memset(chunk, 'r', sizeof(chunk));
	for (page = 0; page < pages; page++)
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			goto fail;
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		goto fail;
	return fd;
fail:
	pl_result(id, 0, "the test could not make %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

static int open_existing(const char *id, const char *directory, const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", directory, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		pl_result(id, 0, "the test could not open %s: %s", path, strerror(errno));
	return fd;
}

/* A fresh file of PAGES pages read twice; reports where its pages are. */
static int promote_and_report(const char *id, const char *directory, const char *name,
			      long pages)
{
	struct census census;
	int fd = fresh_file(id, directory, name, pages);

	if (fd < 0)
		return -1;
	if (read_whole(fd) || read_whole(fd)) {
		pl_result(id, 0, "reading %s failed: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	if (census_or_fail(id, fd, -1, &census)) {
		close(fd);
		return -1;
	}
	close(fd);
	report_census(id, &census);
	pl_result(id, 1, "%s (%ld pages) read twice", name, pages);
	return 0;
}

static int check_insert(const char *directory)
{
	return promote_and_report("rrip.insert", directory, "insert.dat", INSERT_PAGES);
}

/*
 * Both reads on one CPU, right after /proc/rrip/pages drained the per-CPU
 * batches: the first read queues the new folios in this CPU's batch, the
 * second marks them active there (__lru_cache_activate_folio), and they reach
 * the LRU through lru_add_fn() already active.
 */
static int check_batch(const char *directory)
{
	const char *id = "rrip.batch";
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		pl_result(id, 0, "the test could not stay on CPU 0: %s", strerror(errno));
		return -1;
	}
	return promote_and_report(id, directory, "batch.dat", BATCH_PAGES);
}

/* The insert file's pages set to the maximum, then every page read once more. */
static int check_hit(const char *directory)
{
	const char *id = "rrip.hit";
	struct census census;
	int fd = open_existing(id, directory, "insert.dat");

	if (fd < 0)
		return -1;
	if (census_or_fail(id, fd, RRPV_VALUES - 1, &census) || read_whole(fd) ||
	    census_or_fail(id, fd, -1, &census)) {
		close(fd);
		return -1;
	}
	close(fd);
	report_census(id, &census);
	pl_result(id, 1, "insert.dat set to RRPV %d, then read once", RRPV_VALUES - 1);
	return 0;
}

/* Writes each page of [start, start + bytes): a store makes it dirty and young. */
static void touch_pages(char *start, size_t bytes)
{
	size_t offset;

	for (offset = 0; offset < bytes; offset += PAGE_SIZE)
		start[offset] = (char)(offset / PAGE_SIZE + 1);
}

/*
 * One sweep over BYTES of anonymous memory, SWEEP_STEP bytes at a time: after
 * each step it writes a byte to DONE and waits for one on GO, so the watcher
 * looks at the file after every step however loaded the machine is.  Exits 0,
 * or 2 if it cannot map the memory.
 */
static void sweep_memory(size_t bytes, int done, int go)
{
	char *region = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t offset;
	char token = 0;

	if (region == MAP_FAILED)
		_exit(2);
	for (offset = 0; offset < bytes; offset += SWEEP_STEP) {
		touch_pages(region + offset, bytes - offset < SWEEP_STEP ?
			    bytes - offset : SWEEP_STEP);
		if (write(done, &token, 1) != 1 || read(go, &token, 1) != 1)
			_exit(3);
	}
	_exit(0);
}

/* What the watcher saw of each page that was active at RRPV 0 when the workload began. */
struct scan_watch {
	struct page_look start[SCANNED_PAGES];
	unsigned char aged[SCANNED_PAGES];	/* seen with an RRPV above 0 */
	unsigned char demoted[SCANNED_PAGES];	/* seen on the inactive list */
	unsigned char early[SCANNED_PAGES];	/* seen there below the maximum */
	long early_at[RRPV_VALUES];		/* pages seen there first at each value */
	long looks;
};

static int watched(const struct scan_watch *watch, long index)
{
	return watch->start[index].where == ACTIVE && watch->start[index].rrpv == 0;
}

static void note_look(struct scan_watch *watch, const struct page_look *now)
{
	long index;

	watch->looks++;
	for (index = 0; index < SCANNED_PAGES; index++) {
		if (!watched(watch, index))
			continue;
		if (now[index].where != ABSENT && now[index].rrpv > 0)
			watch->aged[index] = 1;
		if (now[index].where != INACTIVE)
			continue;
		watch->demoted[index] = 1;
		if (now[index].rrpv < RRPV_VALUES - 1 && !watch->early[index]) {
			watch->early[index] = 1;
			watch->early_at[now[index].rrpv]++;
		}
	}
}

static long marked(const unsigned char *flags)
{
	long index, total = 0;

	for (index = 0; index < SCANNED_PAGES; index++)
		total += flags[index];
	return total;
}

static void report_scan(const char *id, const struct scan_watch *watch)
{
	char key[32];
	long index, start_active = 0;
	int rrpv;

	for (index = 0; index < SCANNED_PAGES; index++)
		start_active += watched(watch, index);
	pl_value(id, "pages", SCANNED_PAGES);
	pl_value(id, "watched", start_active);
	pl_value(id, "looks", watch->looks);
	pl_value(id, "aged", marked(watch->aged));
	pl_value(id, "demoted", marked(watch->demoted));
	pl_value(id, "early", marked(watch->early));
	for (rrpv = 0; rrpv < RRPV_VALUES - 1; rrpv++) {
		snprintf(key, sizeof(key), "early_rrpv_%d", rrpv);
		pl_value(id, key, watch->early_at[rrpv]);
	}
}

static void report_survival(long mib, int status)
{
	const char *id = "rrip.pressure";

	if (WIFSIGNALED(status))
		pl_result(id, 0, "the workload sweeping %ld MiB was killed by signal %d%s", mib,
			  WTERMSIG(status), WTERMSIG(status) == SIGKILL ?
			  " (the OOM killer: reclaim found nothing to free)" : "");
	else if (WEXITSTATUS(status) == 2)
		pl_result(id, 0, "the workload could not map %ld MiB", mib);
	else if (WEXITSTATUS(status) != 0)
		pl_result(id, 0, "the workload lost its watcher (exit %d)", WEXITSTATUS(status));
	else
		pl_result(id, 1, "%ld MiB of anonymous memory swept", mib);
}

/*
 * A file read twice and set to RRPV 0, never read again: only the active
 * list's scan can raise its values, and only reclaim can move it.  While a
 * child sweeps more anonymous memory than the machine has, this process looks
 * at the file's pages after every step of the sweep (pages are evicted soon
 * after they are demoted, so one look at the end would find few), and once
 * more at the end.
 */
static int check_scan(const char *directory, long mib)
{
	const char *id = "rrip.scan";
	static struct scan_watch watch;
	static struct page_look now[SCANNED_PAGES];
	struct census census;
	int fd, status, done[2], go[2];
	char token = 0;
	pid_t child;

	fd = fresh_file(id, directory, "scanned.dat", SCANNED_PAGES);
	if (fd < 0)
		return -1;
	if (read_whole(fd) || read_whole(fd) || census_or_fail(id, fd, 0, &census) ||
	    rrip_census(fd, -1, &census, watch.start, SCANNED_PAGES)) {
		pl_result(id, 0, "the file could not be prepared: %s", strerror(errno));
		close(fd);
		return -1;
	}
	/* a child killed between two steps must not take the watcher with it */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(done) || pipe(go)) {
		pl_result(id, 0, "the test could not make pipes: %s", strerror(errno));
		close(fd);
		return -1;
	}
	child = fork();
	if (child < 0) {
		pl_result(id, 0, "the test could not fork: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (child == 0) {
		close(done[0]);
		close(go[1]);
		sweep_memory((size_t)mib << 20, done[1], go[0]);
	}
	close(done[1]);
	close(go[0]);
	/* until the child exits or dies, which closes its end of DONE */
	while (read(done[0], &token, 1) == 1) {
		if (rrip_census(fd, -1, &census, now, SCANNED_PAGES) == 0)
			note_look(&watch, now);
		if (write(go[1], &token, 1) != 1)
			break;
	}
	close(done[0]);
	close(go[1]);
	if (rrip_census(fd, -1, &census, now, SCANNED_PAGES) == 0)
		note_look(&watch, now);
	close(fd);
	if (waitpid(child, &status, 0) != child)
		pl_result("rrip.pressure", 0, "waiting for the workload failed: %s",
			  strerror(errno));
	else
		report_survival(mib, status);
	report_scan(id, &watch);
	pl_result(id, 1, "scanned.dat looked at %ld times during the workload", watch.looks);
	return 0;
}

static int write_max(const char *value)
{
	int fd = open("/proc/rrip/max", O_WRONLY);
	ssize_t done;

	if (fd < 0)
		return -1;
	done = write(fd, value, strlen(value));
	close(fd);
	return done < 0 ? -1 : 0;
}

static int check_max(const char *directory)
{
	const char *id = "rrip.max";
	int failed;

	if (write_max("2\n")) {
		pl_result(id, 0, "/proc/rrip/max did not take 2: %s", strerror(errno));
		return -1;
	}
	failed = promote_and_report(id, directory, "max.dat", MAX_PAGES);
	write_max("3\n");
	return failed;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const char *directory);
	} commands[] = {
		{ "insert", check_insert }, { "batch", check_batch },
		{ "hit", check_hit }, { "max", check_max },
	};
	size_t i;

	for (i = 0; argc == 3 && i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argv[2]) ? 1 : 0;
	if (argc == 4 && strcmp(argv[1], "scan") == 0)
		return check_scan(argv[2], strtol(argv[3], NULL, 10)) ? 1 : 0;
	fprintf(stderr, "usage: rrip_check insert|batch|hit|max DIR | scan DIR MIB\n");
	return 2;
}
