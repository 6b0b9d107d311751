/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the test harness: one executable per tests/test_*.c.
 *
 *   TEST(lru_keeps_the_most_recent_pages) { CHECK_EQ(..., ...); }
 *   int main(void) { return run_tests(); }
 *
 * TEST() registers a test (by a constructor, in file order).  run_tests()
 * runs each test in a child process, so a crash, a sanitizer report, a
 * leak or a hang (killed after CHECK_TIMEOUT seconds) fails that test alone
 * and the others still run.  It prints one line per test, the name with
 * underscores as spaces, the failed checks under it, and finally
 * "N passed, N failed"; it returns 1 if any test failed.
 *
 * CHECK(cond), CHECK_EQ(a, b) (integers, both values shown) and
 * CHECK_STR_EQ(a, b) report the file and line of a failure and let the
 * test go on, so one run shows every difference.
 *
 * Include this header from exactly one file per executable: it defines
 * the harness's (static) state.
 */
#ifndef PAGELAB_CHECK_H
#define PAGELAB_CHECK_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK_MAX_TESTS 512
#define CHECK_TIMEOUT 300

struct check_test {
	const char *name;
	void (*fn)(void);
};

static struct check_test check_tests[CHECK_MAX_TESTS];
static unsigned check_ntests;
static unsigned check_failures;	/* in the child running one test */

static void __attribute__((unused)) check_register(const char *name, void (*fn)(void))
{
	if (check_ntests == CHECK_MAX_TESTS) {
		fprintf(stderr, "check.h: more than %d tests in one file\n", CHECK_MAX_TESTS);
		exit(2);
	}
	check_tests[check_ntests++] = (struct check_test){ name, fn };
}

#define TEST(name)							\
	static void test_##name(void);					\
	static void __attribute__((constructor)) register_##name(void)	\
	{								\
		check_register(#name, test_##name);			\
	}								\
	static void test_##name(void)

static void __attribute__((unused, format(printf, 3, 4)))
check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	check_failures++;
	printf("    %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			check_fail(__FILE__, __LINE__, "CHECK(%s) failed", #cond); \
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long check_a_ = (long long)(a);			\
		long long check_b_ = (long long)(b);			\
		if (check_a_ != check_b_)				\
			check_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", \
				   #a, #b, check_a_, check_b_);		\
	} while (0)

#define CHECK_STR_EQ(a, b)						\
	do {								\
		const char *check_a_ = (a);				\
		const char *check_b_ = (b);				\
		if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_)) \
			check_fail(__FILE__, __LINE__, "%s == %s:\n      got      \"%s\"\n      expected \"%s\"", \
				   #a, #b, check_a_ ? check_a_ : "(null)",	\
				   check_b_ ? check_b_ : "(null)");	\
	} while (0)

static void check_print_name(const char *verdict, const char *name)
{
	printf("%s ", verdict);
	for (; *name; name++)
		putchar(*name == '_' ? ' ' : *name);
}

/* Copies what the child wrote (failed checks, sanitizer reports) to stdout. */
static void check_replay_output(FILE *captured)
{
	char buf[4096];
	size_t n;

	rewind(captured);
	while ((n = fread(buf, 1, sizeof(buf), captured)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(captured);
}

static void check_run_child(unsigned i, FILE *captured)
{
	dup2(fileno(captured), STDOUT_FILENO);
	dup2(fileno(captured), STDERR_FILENO);
	alarm(CHECK_TIMEOUT);
	check_tests[i].fn();
	fflush(stdout);
	exit(check_failures ? 1 : 0);
}

/* Runs test i in a child; prints its verdict, then its output; returns whether it passed. */
static int check_run_one(unsigned i)
{
	FILE *captured = tmpfile();
	int status, passed;
	pid_t pid;

	fflush(stdout);
	pid = captured ? fork() : -1;
	if (pid == 0)
		check_run_child(i, captured);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("check.h: cannot run a test");
		status = -1;
	}
	passed = status == 0;
	check_print_name(passed ? "ok  " : "FAIL", check_tests[i].name);
	if (pid > 0 && WIFSIGNALED(status))
		printf("  (%s)", WTERMSIG(status) == SIGALRM ? "timed out" :
				 strsignal(WTERMSIG(status)));
	printf("\n");
	if (captured)
		check_replay_output(captured);
	return passed;
}

static int __attribute__((unused)) run_tests(void)
{
	unsigned passed = 0;

	for (unsigned i = 0; i < check_ntests; i++)
		passed += check_run_one(i);
	printf("%u passed, %u failed\n", passed, check_ntests - passed);
	return passed == check_ntests ? 0 : 1;
}

#endif /* PAGELAB_CHECK_H */
