// SPDX-License-Identifier: GPL-2.0
/*
 * exp_workload: one workload of the experiment harness, measured in the guest, or
 * its page references written out on the host for pagelab's simulator.
 *
 *   exp_workload NAME PAGES PASSES SEED DIR     run it in the guest and report
 *   exp_workload --trace NAME PAGES PASSES SEED print its pages, one per line
 *
 * The same code chooses the pages in both modes (touch() either touches memory or
 * prints the number), so the simulator sees exactly the references the guest made.
 * A page number is an index into the workload's one region: anonymous memory
 * (every reference a write, printed "Nw") or one file on DIR (the ext2 disk), read a
 * page at a time with pread() under POSIX_FADV_RANDOM, so that a page read from the
 * disk is one page of pgpgin (no readahead brings its neighbours in) and each read is
 * a hit through mark_page_accessed, as RRIP's rules assume.
 *
 * Workloads (P = PAGES, R = PASSES):
 *   seq       R passes writing pages 0 .. P-1 in order         (seed 001, Seq)
 *   halfseq   2R passes writing pages 0 .. P/2-1 in order      (seed 001, Half Seq)
 *   rand      R passes of P writes to random pages of P        (seed 001, Rand)
 *   halfrand  R passes of P writes to random pages of P/2      (seed 001, Half Rand)
 *   hotscan   a file: a hot set of P/2 pages read at random, P reads between two
 *             one-time scans of P/3 new pages each, R scans (pagelab gen hotscan's
 *             shape): the hot set is larger than the active list can hold
 *   stress    seed 003's `stress -m 3`: three workers' fresh blocks of P/4 pages
 *             written 32 pages a turn in turn, each block dropped (munmap) when
 *             written and a fresh one mapped, R blocks per worker; between rounds
 *             16 pages of a small "system" set of P/16 pages are written.  One process
 *             stands for the three workers, so the interleaving is fixed.
 *
 * Measured (guest mode): the workload runs in a child; the parent reports with
 * pl_value under id "exp": wall_us, user_us, sys_us, majflt, minflt (the child's
 * rusage), avail_pages (MemAvailable before the workload, in pages) and for each
 * /proc/vmstat counter in VMSTAT_NAMES its change over the run ("vm.NAME").
 * Setup (making the file, dropping the page cache) happens before the first reading.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pltest.h"

#define PAGE_SIZE 4096
#define ARRAY_SIZE(array) (sizeof(array) / sizeof((array)[0]))
#define STRESS_WORKERS 3
#define STRESS_TURN 32
#define STRESS_SYSTEM_READS 16

static const char *const VMSTAT_NAMES[] = {
	"pgpgin", "pgfault", "pgmajfault", "pgactivate", "pgdeactivate", "pgrefill",
	"pgscan_kswapd", "pgscan_direct", "pgscan_anon", "pgscan_file",
	"pgsteal_kswapd", "pgsteal_direct", "pgsteal_anon", "pgsteal_file",
	"pswpin", "pswpout", "workingset_refault_anon", "workingset_refault_file",
};

struct run {
	int trace;			/* print page numbers instead of touching */
	uint64_t pages, passes;
	uint64_t random;		/* xorshift64 state */
	volatile char *region;		/* anonymous memory (guest mode) */
	int is_file, file_fd;
};

static void die(const char *what)
{
	fprintf(stderr, "exp_workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t below(struct run *run, uint64_t limit)
{
	run->random ^= run->random << 13;
	run->random ^= run->random >> 7;
	run->random ^= run->random << 17;
	return run->random % limit;
}

static void read_page(struct run *run, uint64_t page)
{
	char data[PAGE_SIZE];

	if (pread(run->file_fd, data, PAGE_SIZE, page * PAGE_SIZE) != PAGE_SIZE)
		die("pread (the workload's file)");
}

/* One reference: the only place where the two modes differ. */
static void touch(struct run *run, uint64_t page)
{
	if (run->trace)
		printf(run->is_file ? "%" PRIu64 "\n" : "%" PRIu64 "w\n", page);
	else if (run->is_file)
		read_page(run, page);
	else
		run->region[page * PAGE_SIZE] = (char)page;
}

static void seq(struct run *run)
{
	for (uint64_t pass = 0; pass < run->passes; pass++)
		for (uint64_t page = 0; page < run->pages; page++)
			touch(run, page);
}

static void halfseq(struct run *run)
{
	for (uint64_t pass = 0; pass < 2 * run->passes; pass++)
		for (uint64_t page = 0; page < run->pages / 2; page++)
			touch(run, page);
}

static void random_over(struct run *run, uint64_t over)
{
	for (uint64_t pass = 0; pass < run->passes; pass++)
		for (uint64_t i = 0; i < run->pages; i++)
			touch(run, below(run, over));
}

static void rand_all(struct run *run)
{
	random_over(run, run->pages);
}

static void halfrand(struct run *run)
{
	random_over(run, run->pages / 2);
}

/* The file holds the hot set first, then each scan's pages after the one before. */
static uint64_t hotscan_file_pages(uint64_t pages, uint64_t passes)
{
	return pages / 2 + passes * (pages / 3);
}

static void hotscan(struct run *run)
{
	uint64_t hot = run->pages / 2, scan = run->pages / 3, next = hot;

	for (uint64_t pass = 0; pass < run->passes; pass++) {
		for (uint64_t i = 0; i < run->pages; i++)
			touch(run, below(run, hot));
		for (uint64_t i = 0; i < scan; i++)
			touch(run, next++);
	}
}

/*
 * Region layout of stress: pages [0, P/16) are the system set; the rest holds
 * the workers' blocks, worker w's at [P/16 + w*B, P/16 + (w+1)*B) with B = P/4.
 * A dropped block's pages are fresh memory again: the trace numbers each block
 * anew (past the region) so that the simulator, too, sees new pages.
 */
static void stress_block_renew(struct run *run, uint64_t first, uint64_t block)
{
	if (run->trace)
		return;
	if (mmap((char *)run->region + first * PAGE_SIZE, block * PAGE_SIZE,
		 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED)
		die("mmap (a fresh stress block)");
}

static void stress(struct run *run)
{
	uint64_t system = run->pages / 16, block = run->pages / 4;
	uint64_t done[STRESS_WORKERS] = { 0 }, generation[STRESS_WORKERS] = { 0 };
	uint64_t next_system = 0;
	int working = 1;

	while (working) {
		working = 0;
		for (int w = 0; w < STRESS_WORKERS; w++) {
			uint64_t first = system + w * block;

			if (generation[w] == run->passes)
				continue;
			working = 1;
			for (int i = 0; i < STRESS_TURN && done[w] < block; i++, done[w]++) {
				uint64_t page = first + done[w];

				if (run->trace)	/* block g of worker w: its own page numbers */
					printf("%" PRIu64 "w\n", page + (generation[w] *
						STRESS_WORKERS + w + 1) * run->pages);
				else
					touch(run, page);
			}
			if (done[w] == block) {
				done[w] = 0;
				generation[w]++;
				stress_block_renew(run, first, block);
			}
		}
		for (int i = 0; i < STRESS_SYSTEM_READS; i++, next_system++)
			touch(run, next_system % system);
	}
}

static const struct workload {
	const char *name;
	int is_file;
	void (*run)(struct run *run);
} WORKLOADS[] = {
	{ "seq", 0, seq },
	{ "halfseq", 0, halfseq },
	{ "rand", 0, rand_all },
	{ "halfrand", 0, halfrand },
	{ "hotscan", 1, hotscan },
	{ "stress", 0, stress },
};

static const struct workload *find_workload(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(WORKLOADS); i++)
		if (!strcmp(WORKLOADS[i].name, name))
			return &WORKLOADS[i];
	return NULL;
}

/* The file region: PAGES pages of non-zero bytes, synced, then dropped from the cache. */
static int make_file(const char *dir, uint64_t pages)
{
	char path[512], page[PAGE_SIZE];
	int fd;

	snprintf(path, sizeof(path), "%s/exp_workload.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(path);
	memset(page, 'p', sizeof(page));
	for (uint64_t i = 0; i < pages; i++)
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			die("write (the workload's file)");
	if (fsync(fd))
		die("fsync");
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		die("posix_fadvise");
	return fd;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd < 0 || write(fd, "3", 1) != 1)
		die("/proc/sys/vm/drop_caches");
	close(fd);
}

static void map_anonymous(struct run *run)
{
	void *region = mmap(NULL, run->pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (region == MAP_FAILED)
		die("mmap (the workload's memory)");
	run->region = region;
}

static void read_vmstat(long long *values)
{
	char name[64];
	long long value;
	FILE *vmstat = fopen("/proc/vmstat", "r");

	if (!vmstat)
		die("/proc/vmstat");
	for (size_t i = 0; i < ARRAY_SIZE(VMSTAT_NAMES); i++)
		values[i] = -1;		/* absent from this kernel */
	while (fscanf(vmstat, "%63s %lld", name, &value) == 2)
		for (size_t i = 0; i < ARRAY_SIZE(VMSTAT_NAMES); i++)
			if (!strcmp(name, VMSTAT_NAMES[i]))
				values[i] = value;
	fclose(vmstat);
}

static long long available_pages(void)
{
	char line[128];
	long long kib = -1;
	FILE *meminfo = fopen("/proc/meminfo", "r");

	if (!meminfo)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), meminfo))
		if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
			break;
	fclose(meminfo);
	return kib < 0 ? -1 : kib * 1024 / PAGE_SIZE;
}

static long long microseconds(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static long long elapsed_us(struct timespec from, struct timespec to)
{
	return (long long)(to.tv_sec - from.tv_sec) * 1000000 +
		(to.tv_nsec - from.tv_nsec) / 1000;
}

static int measure(const struct workload *workload, struct run *run, const char *dir)
{
	long long before[ARRAY_SIZE(VMSTAT_NAMES)], after[ARRAY_SIZE(VMSTAT_NAMES)];
	struct timespec start, end;
	struct rusage usage;
	int status;
	pid_t child;
	char key[80];

	if (run->is_file) {
		run->file_fd = make_file(dir, hotscan_file_pages(run->pages, run->passes));
		if (posix_fadvise(run->file_fd, 0, 0, POSIX_FADV_RANDOM))
			die("posix_fadvise POSIX_FADV_RANDOM");
	}
	drop_caches();
	pl_value("exp", "avail_pages", available_pages());
	read_vmstat(before);
	clock_gettime(CLOCK_MONOTONIC, &start);
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		if (!run->is_file)
			map_anonymous(run);
		workload->run(run);
		_exit(0);
	}
	if (wait4(child, &status, 0, &usage) != child)
		die("wait4");
	clock_gettime(CLOCK_MONOTONIC, &end);
	read_vmstat(after);
	pl_result("exp.workload", WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "%s: the workload %s", workload->name,
		  WIFEXITED(status) ? "exited" : "was killed (out of memory?)");
	pl_value("exp", "wall_us", elapsed_us(start, end));
	pl_value("exp", "user_us", microseconds(usage.ru_utime));
	pl_value("exp", "sys_us", microseconds(usage.ru_stime));
	pl_value("exp", "majflt", usage.ru_majflt);
	pl_value("exp", "minflt", usage.ru_minflt);
	for (size_t i = 0; i < ARRAY_SIZE(VMSTAT_NAMES); i++) {
		if (before[i] < 0 || after[i] < 0)
			continue;
		snprintf(key, sizeof(key), "vm.%s", VMSTAT_NAMES[i]);
		pl_value("exp", key, after[i] - before[i]);
	}
	return 0;
}

static uint64_t number(const char *text, const char *what)
{
	char *end;
	unsigned long long value;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno || *end || end == text || value == 0) {
		fprintf(stderr, "exp_workload: %s: '%s' is not a positive number\n", what, text);
		exit(2);
	}
	return value;
}

int main(int argc, char **argv)
{
	struct run run = { 0 };
	const struct workload *workload;
	int trace = argc > 1 && !strcmp(argv[1], "--trace");
	char **args = argv + 1 + trace;

	if (argc != 6) {
		fprintf(stderr, "usage: exp_workload NAME PAGES PASSES SEED DIR\n"
			"       exp_workload --trace NAME PAGES PASSES SEED\n");
		return 2;
	}
	workload = find_workload(args[0]);
	if (!workload) {
		fprintf(stderr, "exp_workload: no workload '%s'\n", args[0]);
		return 2;
	}
	run.trace = trace;
	run.is_file = workload->is_file;
	run.pages = number(args[1], "PAGES");
	run.passes = number(args[2], "PASSES");
	run.random = number(args[3], "SEED");
	if (trace) {
		workload->run(&run);
		return fflush(stdout) ? 1 : 0;
	}
	return measure(workload, &run, args[4]);
}
