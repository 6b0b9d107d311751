// SPDX-License-Identifier: GPL-2.0
/*
 * cclock_check: the guest side of the counter-clock assignment's graded tests.
 *
 *   cclock_check rules              module not loaded: judge counter_clock_reorder()
 *                                   on each evictable list against the rule, with
 *                                   counters drawn from seeds (/proc/counter_clock)
 *   cclock_check load TAG           load counter_clock_aging.ko; its table attached?
 *   cclock_check walks SECONDS      the module's walks over SECONDS (count, context)
 *   cclock_check direction FILE SECONDS
 *                                   page 0 of FILE read every 200 ms, page 1 never
 *                                   (left referenced once): both frames' counters
 *                                   before and after 6 walks (at most SECONDS)
 *   cclock_check unload TAG         unload the module; its table detached?
 *   cclock_check pressure           anonymous memory past RAM into swap, with
 *                                   reclaim's calls judged (audit); the data must
 *                                   read back intact
 *   cclock_check unload-under-pressure
 *                                   the same workload in a child; the module is
 *                                   unloaded while it swaps
 *
 * Facts go out as signed lines (pltest.h) under ids "cclock.<check>"; numbers go
 * out with pl_value and tests.py judges them.  The program reads every figure back
 * from the kernel (the given /proc/counter_clock, /proc/self/pagemap); it never
 * computes one to match.  Exit status 0 when the checks ran, 2 on bad usage.
 */
#define _GNU_SOURCE		/* sched_setaffinity */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pltest.h"

#define PAGE_SIZE 4096L
#define MODULE_PATH "/lib/modules/counter_clock_aging.ko"
#define MODULE_NAME "counter_clock_aging"
#define PROC_FILE "/proc/counter_clock"
#define SEEDS 6
#define AUDITED_CALLS 200
#define DIRECTION_PAGES 34	/* page 0 touched, page 1 not, the rest filler */
#define DIRECTION_FILLER (DIRECTION_PAGES - 2)
#define DIRECTION_WALKS 6

/* ---------- /proc/counter_clock ---------- */

static int proc_command(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int proc_command(const char *fmt, ...)
{
	char line[64];
	va_list args;
	int fd, length, ok;

	va_start(args, fmt);
	length = vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	fd = open(PROC_FILE, O_WRONLY);
	if (fd < 0)
		return -errno;
	ok = write(fd, line, length) == length;
	length = ok ? 0 : -errno;
	close(fd);
	return length;
}

/* The line of /proc/counter_clock starting with WORD, copied into LINE; 0 or -1. */
static int proc_line(const char *word, char *line, size_t size)
{
	FILE *file = fopen(PROC_FILE, "r");
	size_t length = strlen(word);
	int found = -1;

	if (!file)
		return -1;
	while (found && fgets(line, size, file))
		if (strncmp(line, word, length) == 0 && line[length] == ' ')
			found = 0;
	fclose(file);
	return found;
}

static int table_attached(void)
{
	char line[160];

	return proc_line("table", line, sizeof(line)) == 0 &&
	       strncmp(line, "table attached", 14) == 0;
}

static long long walks(long long *in_interrupt, long long *last_pages)
{
	char line[160];
	long long count = -1;

	*in_interrupt = *last_pages = -1;
	if (proc_line("walks", line, sizeof(line)) == 0)
		sscanf(line, "walks %lld in_interrupt %lld last_pages %lld", &count,
		       in_interrupt, last_pages);
	return count;
}

/* The counter of frame PFN; 0 with *known = 0 when no table is attached. */
static int counter_of(uint64_t pfn, int *known)
{
	char line[160], word[16];
	unsigned long long shown;
	int counter = 0;

	*known = 0;
	if (proc_command("counter %llu", (unsigned long long)pfn) == 0 &&
	    proc_line("counter", line, sizeof(line)) == 0 &&
	    sscanf(line, "counter %llu %15s", &shown, word) == 2 && shown == pfn &&
	    strcmp(word, "none") != 0) {
		counter = atoi(word);
		*known = 1;
	}
	return counter;
}

/* ---------- the module ---------- */

static int load_module(void)
{
	int fd = open(MODULE_PATH, O_RDONLY);
	int status;

	if (fd < 0)
		return -errno;
	status = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return status;
}

static int unload_module(void)
{
	return syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK) ? -errno : 0;
}

static int check_load(const char *tag)
{
	char id[64], attached_id[64], line[160] = "";
	long long start = -1, pages = -1;
	int status = load_module();

	snprintf(id, sizeof(id), "cclock.load.%s", tag);
	snprintf(attached_id, sizeof(attached_id), "cclock.attached.%s", tag);
	if (status) {
		pl_result(id, 0, "loading %s failed: %s", MODULE_PATH, strerror(-status));
		return 0;
	}
	pl_result(id, 1, "finit_module(%s) returned 0", MODULE_PATH);
	if (proc_line("table", line, sizeof(line)) == 0)
		sscanf(line, "table attached start %lld pages %lld", &start, &pages);
	pl_result(attached_id, table_attached(),
		  "after loading, /proc/counter_clock says: %.100s", line);
	pl_value(attached_id, "pages", pages);
	if (proc_line("node0", line, sizeof(line)) == 0 &&
	    sscanf(line, "node0 start %lld pages %lld", &start, &pages) == 2)
		pl_value(attached_id, "node_pages", pages);
	return 0;
}

static int check_unload(const char *tag)
{
	char id[64];
	int was_attached = table_attached();
	int status = unload_module();

	snprintf(id, sizeof(id), "cclock.unload.%s", tag);
	if (!was_attached) {
		pl_result(id, 0, "the module's table was not attached before unloading"
			  " (delete_module said %s)", status ? strerror(-status) : "ok");
		return 0;
	}
	if (status) {
		pl_result(id, 0, "delete_module(%s) failed: %s", MODULE_NAME, strerror(-status));
		return 0;
	}
	/* a timer or work item left behind would run in freed module memory now */
	sleep(3);
	pl_result(id, !table_attached(), "after unloading, the table is %s and the"
		  " kernel ran 3 s more", table_attached() ? "still attached" : "detached");
	return 0;
}

static int check_walks(int seconds)
{
	const char *id = "cclock.walks";
	long long first, last, interrupt_first, interrupt_last, pages;

	first = walks(&interrupt_first, &pages);
	sleep(seconds);
	last = walks(&interrupt_last, &pages);
	pl_result(id, first >= 0 && last >= 0, "walks reported over %d s: %lld", seconds,
		  last - first);
	pl_value(id, "seconds", seconds);
	pl_value(id, "walks", last - first);
	pl_value(id, "in_interrupt", interrupt_last - interrupt_first);
	pl_value(id, "last_pages", pages);
	return 0;
}

/* ---------- counters of one touched and one untouched page ---------- */

static int read_page(const char *path, long page)
{
	char buffer[PAGE_SIZE];
	int fd = open(path, O_RDONLY);	/* a new file: read() marks the page accessed */
	ssize_t got;

	if (fd < 0)
		return -1;
	got = pread(fd, buffer, sizeof(buffer), page * PAGE_SIZE);
	close(fd);
	return got == PAGE_SIZE ? 0 : -1;
}

/* The frame holding page PAGE of PATH (mapped for a moment; read from pagemap). */
static uint64_t frame_of(const char *path, long page)
{
	int fd = open(path, O_RDONLY), map;
	volatile char *region;
	uint64_t entry = 0;

	if (fd < 0)
		return 0;
	region = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_SHARED, fd, page * PAGE_SIZE);
	close(fd);
	if (region == MAP_FAILED)
		return 0;
	(void)region[0];
	map = open("/proc/self/pagemap", O_RDONLY);
	if (map >= 0) {
		if (pread(map, &entry, sizeof(entry),
			  (uintptr_t)region / PAGE_SIZE * sizeof(entry)) != sizeof(entry))
			entry = 0;
		close(map);
	}
	munmap((void *)region, PAGE_SIZE);
	return entry >> 63 ? entry & ((1ULL << 55) - 1) : 0;
}

static int write_pages(const char *path, int pages)
{
	char buffer[PAGE_SIZE];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), i, ok = 1;

	if (fd < 0)
		return -1;
	for (i = 0; i < pages; i++) {
		memset(buffer, 'a' + i, sizeof(buffer));
		ok &= write(fd, buffer, sizeof(buffer)) == sizeof(buffer);
	}
	ok &= fsync(fd) == 0;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Leaves pages 0 and 1 of PATH on the active list with PG_referenced set, whatever
 * state writing them left: two reads queue a page for activation (on this CPU's
 * activation batch, which reading the FILLER pages twice fills and drains), and a
 * read of an active page sets the bit.  Both must be active before they are
 * watched: on the inactive list each read of a referenced page queues it again and
 * clears the bit, so the bit alternates read by read and a walk finds it set about
 * half the time until the batch drains.  A module that tests the bit without
 * clearing it counts page 1 up forever.
 */
static void activate_watched(const char *path, int filler)
{
	int page, round;

	for (round = 0; round < 2; round++) {
		read_page(path, 0);
		read_page(path, 1);
	}
	for (round = 0; round < 2; round++)
		for (page = 2; page < 2 + filler; page++)
			read_page(path, page);
	read_page(path, 0);
	read_page(path, 1);
}

static long long walks_now(void)
{
	long long ignored;

	return walks(&ignored, &ignored);
}

/*
 * Page 0 of PATH read every 200 ms, page 1 left alone, until the module has walked
 * WALKS_WANTED times (at most SECONDS): both frames' counters before and after, and
 * the walks in between.  Pinned to CPU 0, so the page-cache batches it fills are one
 * CPU's.
 */
static int check_direction(const char *path, int walks_wanted, int seconds)
{
	const char *id = "cclock.direction";
	uint64_t touched, untouched;
	int before_touched, before_untouched, after_touched, after_untouched, known[4];
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	long long first_walk, last_walk;
	cpu_set_t cpu0;
	int round;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	if (read_page(path, 0) || read_page(path, 1)) {
		pl_result(id, 0, "cannot read the two pages of %s", path);
		return 0;
	}
	activate_watched(path, DIRECTION_FILLER);
	touched = frame_of(path, 0);
	untouched = frame_of(path, 1);
	first_walk = walks_now();
	before_touched = counter_of(touched, &known[0]);
	before_untouched = counter_of(untouched, &known[1]);
	for (round = 0; round < seconds * 5; round++) {
		read_page(path, 0);
		nanosleep(&pause, NULL);
		if (walks_now() - first_walk >= walks_wanted)
			break;
	}
	after_touched = counter_of(touched, &known[2]);
	after_untouched = counter_of(untouched, &known[3]);
	last_walk = walks_now();
	if (!touched || !untouched || frame_of(path, 0) != touched ||
	    frame_of(path, 1) != untouched) {
		pl_result(id, 0, "the two pages' frames could not be read or changed"
			  " during the test");
		return 0;
	}
	pl_result(id, known[0] && known[1] && known[2] && known[3] && first_walk >= 0,
		  "counters: read every 200 ms %d -> %d, never read %d -> %d, over %lld walks",
		  before_touched, after_touched, before_untouched, after_untouched,
		  last_walk - first_walk);
	pl_value(id, "walks", last_walk - first_walk);
	pl_value(id, "touched_change", after_touched - before_touched);
	pl_value(id, "untouched_change", after_untouched - before_untouched);
	return 0;
}

/* ---------- the rule, on synthetic counters ---------- */

static const char *const VERDICTS[] = {
	"ok", "not-lowest", "tie-not-nearest-tail", "nothing-moved", "others-moved",
	"moved-without-table", "wrong-return", "too-long",
};
#define NR_VERDICTS (sizeof(VERDICTS) / sizeof(VERDICTS[0]))

/* Runs "KIND LRU SEED"; the verdict's index (or -1) and the list's length. */
static int judged(const char *kind, int lru, int seed, long *length)
{
	char line[160], verdict[32];
	int shown_lru, shown_seed;
	size_t i;

	*length = 0;
	if (proc_command("%s %d %d", kind, lru, seed) ||
	    proc_line("check", line, sizeof(line)) ||
	    sscanf(line, "check %d %d %31s length %ld", &shown_lru, &shown_seed, verdict,
		   length) != 4 || shown_lru != lru || shown_seed != seed)
		return -1;
	for (i = 0; i < NR_VERDICTS; i++)
		if (strcmp(verdict, VERDICTS[i]) == 0)
			return i;
	return -1;
}

static void judge_kind(const char *label, const char *kind, int first_seed, int seeds)
{
	long counts[NR_VERDICTS] = { 0 }, length, judged_lists = 0, unreadable = 0;
	char id[64], key[64];
	int lru, seed, verdict;
	size_t i;

	snprintf(id, sizeof(id), "cclock.rules.%s", label);
	for (lru = 0; lru < 4; lru++) {
		for (seed = first_seed; seed < first_seed + seeds; seed++) {
			verdict = judged(kind, lru, seed, &length);
			if (verdict < 0) {
				unreadable++;
				continue;
			}
			if (length > 1) {
				counts[verdict]++;
				judged_lists++;
			}
		}
	}
	pl_result(id, unreadable == 0, "%ld checks on lists of 2 pages or more,"
		  " %ld unreadable", judged_lists, unreadable);
	pl_value(id, "judged", judged_lists);
	for (i = 0; i < NR_VERDICTS; i++) {
		snprintf(key, sizeof(key), "%s", VERDICTS[i]);
		pl_value(id, key, counts[i]);
	}
}

static int check_rules(void)
{
	if (table_attached()) {
		pl_result("cclock.rules.ties", 0, "the module is loaded: rules need none");
		return 0;
	}
	judge_kind("ties", "check", 1, SEEDS);
	judge_kind("distinct", "distinct", 1, SEEDS);
	judge_kind("none", "check", 0, 1);
	return 0;
}

/* ---------- swap pressure ---------- */

static long long memory_total_bytes(void)
{
	return (long long)sysconf(_SC_PHYS_PAGES) * PAGE_SIZE;
}

/*
 * Anonymous memory of 1.125 x RAM, each page stamped with its index and the round,
 * swept ROUNDS times, then read back: 0 when every page held what was written.
 * (Reclaim with the counter-based clock walks a whole list per batch of 32 folios:
 * under emulation one sweep is what a test can afford.)
 */
static int swap_workload(int rounds)
{
	size_t bytes = memory_total_bytes() + memory_total_bytes() / 8;
	size_t pages = bytes / PAGE_SIZE, page;
	long *region = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int round, wrong = 0;

	if (region == MAP_FAILED)
		return -1;
	for (round = 0; round < rounds; round++)
		for (page = 0; page < pages; page++)
			region[page * (PAGE_SIZE / sizeof(long))] = (long)(page * 8 + round);
	for (page = 0; page < pages; page++)
		wrong += region[page * (PAGE_SIZE / sizeof(long))] != (long)(page * 8 + rounds - 1);
	munmap(region, bytes);
	return wrong ? -2 : 0;
}

static long long vmstat(const char *name)
{
	char line[128];
	size_t length = strlen(name);
	long long value = -1;
	FILE *file = fopen("/proc/vmstat", "r");

	if (!file)
		return -1;
	while (fgets(line, sizeof(line), file))
		if (strncmp(line, name, length) == 0 && line[length] == ' ')
			value = atoll(line + length + 1);
	fclose(file);
	return value;
}

/*
 * The walk count once it has passed WALKS_BEFORE, waiting SECONDS at most: on a fast
 * host the swap workload ends within the second between two walks, and a module whose
 * walker survived the pressure walks again within the next second.
 */
static long long wait_for_walk(long long walks_before, int seconds)
{
	long long ignored, count = walks(&ignored, &ignored);

	for (int tenths = 0; count == walks_before && tenths < 10 * seconds; tenths++) {
		usleep(100000);
		count = walks(&ignored, &ignored);
	}
	return count;
}

static int check_pressure(void)
{
	const char *id = "cclock.pressure";
	long long swapped = vmstat("pswpout"), walks_before, walks_after, ignored;
	long long judged_calls = -1, ok = -1, inactive = -1, active = -1;
	char line[160], wrong[100] = "none";
	int status;

	walks_before = walks(&ignored, &ignored);
	if (proc_command("audit %d", AUDITED_CALLS)) {
		pl_result(id, 0, "cannot start the audit through %s", PROC_FILE);
		return 0;
	}
	status = swap_workload(1);
	swapped = vmstat("pswpout") - swapped;
	walks_after = wait_for_walk(walks_before, 3);
	pl_result(id, status == 0 && table_attached(), "1.125 x RAM of anonymous memory"
		  " written and read back: %s; %lld pages swapped out; table %s",
		  status == 0 ? "every page read back intact" :
		  status == -1 ? "mmap failed" : "SOME PAGES READ BACK WRONG", swapped,
		  table_attached() ? "still attached" : "NOT attached");
	pl_value(id, "swapped_out", swapped);
	pl_value(id, "walks", walks_after - walks_before);
	if (proc_line("audit", line, sizeof(line)) == 0)
		sscanf(line, "audit left %*d judged %lld ok %lld first_wrong %99[^\n]",
		       &judged_calls, &ok, wrong);
	if (proc_line("scans", line, sizeof(line)) == 0)
		sscanf(line, "scans inactive %lld active %lld", &inactive, &active);
	pl_result("cclock.audit", judged_calls >= 0, "reclaim's calls judged: %lld,"
		  " following the rule: %lld, first that did not: %s", judged_calls, ok, wrong);
	pl_value("cclock.audit", "judged", judged_calls);
	pl_value("cclock.audit", "ok", ok);
	pl_value("cclock.audit", "scans_inactive", inactive);
	pl_value("cclock.audit", "scans_active", active);
	return 0;
}

static int check_unload_under_pressure(void)
{
	const char *id = "cclock.unload.pressure";
	long long swapped = vmstat("pswpout");
	int was_attached = table_attached(), status = -1, unloaded;
	pid_t child = fork();

	if (child == 0)
		_exit(swap_workload(1) == 0 ? 0 : 1);
	sleep(1);	/* the child is swapping by now */
	unloaded = unload_module();
	if (child > 0)
		waitpid(child, &status, 0);
	swapped = vmstat("pswpout") - swapped;
	sleep(3);
	pl_result(id, was_attached && unloaded == 0 && !table_attached() &&
		  WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "table %s before; delete_module: %s; the workload %s (%lld pages swapped out);"
		  " table %s after", was_attached ? "attached" : "NOT attached",
		  unloaded ? strerror(-unloaded) : "ok",
		  WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "finished intact" :
		  "FAILED", swapped, table_attached() ? "STILL attached" : "detached");
	pl_value(id, "swapped_out", swapped);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "rules") == 0)
		return check_rules();
	if (argc == 3 && strcmp(argv[1], "load") == 0)
		return check_load(argv[2]);
	if (argc == 3 && strcmp(argv[1], "walks") == 0)
		return check_walks(atoi(argv[2]));
	if (argc == 4 && strcmp(argv[1], "direction") == 0)
		return write_pages(argv[2], DIRECTION_PAGES) ? 1 :
			check_direction(argv[2], DIRECTION_WALKS, atoi(argv[3]));
	if (argc == 3 && strcmp(argv[1], "unload") == 0)
		return check_unload(argv[2]);
	if (argc == 2 && strcmp(argv[1], "pressure") == 0)
		return check_pressure();
	if (argc == 2 && strcmp(argv[1], "unload-under-pressure") == 0)
		return check_unload_under_pressure();
	fprintf(stderr, "usage: cclock_check rules | load TAG | walks SECONDS |"
		" direction FILE SECONDS | unload TAG | pressure | unload-under-pressure\n");
	return 2;
}
