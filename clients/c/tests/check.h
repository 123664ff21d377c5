/*
 * A test harness small enough to read at a glance. A test is a function;
 * CHECK records a failure and goes on, REQUIRE records one and leaves the
 * test (what follows would only crash). run_test() prints one line per test.
 */
#ifndef FW_TEST_CHECK_H
#define FW_TEST_CHECK_H

#include <stdio.h>

static int test_failed;
static int tests_passed;
static int tests_failed;

#define CHECK_AT(cond, ...)                                                                                  \
    ((cond) ? 1                                                                                              \
          : (test_failed = 1, fprintf(stderr, "    %s:%d: %s: ", __FILE__, __LINE__, #cond),                   \
             fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), 0))

/* CHECK(cond, "printf format", args...) */
#define CHECK(cond, ...) ((void)CHECK_AT((cond), __VA_ARGS__))
#define REQUIRE(cond, ...)                                                                                   \
    do {                                                                                                     \
        if (!CHECK_AT((cond), __VA_ARGS__))                                                                  \
            return;                                                                                          \
    } while (0)

static void run_test(const char *name, void (*test)(void))
{
    test_failed = 0;
    test();
    if (test_failed)
        tests_failed++;
    else
        tests_passed++;
    printf("%s %s\n", test_failed ? "FAIL" : "ok  ", name);
    fflush(stdout);
}

#define RUN(test) run_test(#test, test)

#endif
