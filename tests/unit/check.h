/*===- check.h - The unit tests' checks, counter and summary --------------===*
 *
 * One harness for every C unit-test binary (#include "tests/unit/check.h";
 * the repository root is on every target's include path). Header only:
 * each test binary is one translation unit that includes it.
 *
 *   CHECK(cond)                     cond is true
 *   CHECK_MSG(cond, fmt, ...)       the same, with a printf-style note
 *   CHECK_EQ_INT(actual, expected)  as long long
 *   CHECK_EQ_U64(actual, expected)  as unsigned long long (sizes, counts)
 *   CHECK_EQ_PTR(actual, expected)  as pointers
 *   CHECK_EQ_DBL(actual, expected, tol)  |actual - expected| <= tol
 *   CHECK_EQ_STR(actual, expected)  strcmp; a NULL on either side fails
 *   CHECK_HAS_STR(text, needle)     strstr; a NULL text fails
 *   check_at(file, line, ok, what, fmt, ...)  the same, for a helper that
 *                                   checks on behalf of its caller's line
 *
 * Every check counts one pass or one failure, goes on after a failure and
 * is an expression: 1 when it passed, 0 when it failed, so a test that
 * cannot go on writes `if (!CHECK_EQ_INT(rc, 0)) return;`. A failure
 * prints "FAIL file:line: what" and, for the typed checks, both values:
 * "FAIL file:line: n == 2: got 3, want 2" (the first argument is the
 * actual value, the second the expected one).
 *
 * Test cases (optional): CHECK_RUN(fn) runs fn() and prints "ok   fn" or
 * "FAIL fn"; check_case_end("name") does the same for the checks since
 * the previous case ended. check_failures() is the number of failed
 * checks so far.
 *
 * main ends with `return check_summary("name");`: it prints
 * "name: N checks passed, M failed" on stdout and returns the exit status,
 * 1 when a check failed, else 0 (ctest reads only the status).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TESTS_UNIT_CHECK_H
#define PASTA_TESTS_UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int check_passed_, check_failed_, check_case_failed_;

/* Counts one check; prints a failure: "FAIL file:line: what[: note]". */
static inline int check_report_(const char *file, int line, int ok,
                                const char *what, const char *fmt,
                                va_list *ap) {
  if (ok) {
    ++check_passed_;
    return 1;
  }
  ++check_failed_;
  fflush(stdout); /* keep the order of stdout and stderr */
  fprintf(stderr, "FAIL %s:%d: %s", file, line, what);
  if (fmt) {
    fputs(": ", stderr);
    vfprintf(stderr, fmt, *ap);
  }
  fputc('\n', stderr);
  return 0;
}

static inline int check_(const char *file, int line, int ok, const char *what) {
  return check_report_(file, line, ok, what, NULL, NULL);
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static inline int check_at(const char *file, int line, int ok, const char *what,
                           const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = check_report_(file, line, ok, what, fmt, &ap);
  va_end(ap);
  return r;
}

static inline int check_eq_int_(const char *file, int line, const char *what,
                                long long a, long long e) {
  return check_at(file, line, a == e, what, "got %lld, want %lld", a, e);
}

static inline int check_eq_u64_(const char *file, int line, const char *what,
                                unsigned long long a, unsigned long long e) {
  return check_at(file, line, a == e, what, "got %llu, want %llu", a, e);
}

static inline int check_eq_ptr_(const char *file, int line, const char *what,
                                const void *a, const void *e) {
  return check_at(file, line, a == e, what, "got %p, want %p", a, e);
}

static inline int check_eq_dbl_(const char *file, int line, const char *what,
                                double a, double e, double tol) {
  double d = a > e ? a - e : e - a;
  return check_at(file, line, a == e || d <= tol, what,
                  "got %.17g, want %.17g (tolerance %g)", a, e, tol);
}

static inline int check_eq_str_(const char *file, int line, const char *what,
                                const char *a, const char *e) {
  return check_at(file, line, a && e && strcmp(a, e) == 0, what,
                  "got \"%s\", want \"%s\"", a ? a : "(null)",
                  e ? e : "(null)");
}

static inline int check_has_str_(const char *file, int line, const char *what,
                                 const char *text, const char *needle) {
  return check_at(file, line, text && needle && strstr(text, needle), what,
                  "\"%s\" lacks \"%s\"", text ? text : "(null)",
                  needle ? needle : "(null)");
}

#define CHECK(cond) check_(__FILE__, __LINE__, !!(cond), #cond)
#define CHECK_MSG(cond, ...)                                                   \
  check_at(__FILE__, __LINE__, !!(cond), #cond, __VA_ARGS__)
#define CHECK_EQ_INT(a, e)                                                     \
  check_eq_int_(__FILE__, __LINE__, #a " == " #e, (long long)(a),              \
                (long long)(e))
#define CHECK_EQ_U64(a, e)                                                     \
  check_eq_u64_(__FILE__, __LINE__, #a " == " #e, (unsigned long long)(a),     \
                (unsigned long long)(e))
#define CHECK_EQ_PTR(a, e)                                                     \
  check_eq_ptr_(__FILE__, __LINE__, #a " == " #e, (const void *)(a),           \
                (const void *)(e))
#define CHECK_EQ_DBL(a, e, tol)                                                \
  check_eq_dbl_(__FILE__, __LINE__, #a " == " #e, (double)(a), (double)(e),    \
                (double)(tol))
#define CHECK_EQ_STR(a, e) check_eq_str_(__FILE__, __LINE__, #a " == " #e, a, e)
#define CHECK_HAS_STR(text, needle)                                            \
  check_has_str_(__FILE__, __LINE__, #text " has " #needle, text, needle)

/* Ends a test case: "ok   name" or "FAIL name" on stdout. */
static inline int check_case_end(const char *name) {
  int ok = check_failed_ == check_case_failed_;
  check_case_failed_ = check_failed_;
  printf("%s %s\n", ok ? "ok  " : "FAIL", name);
  fflush(stdout);
  return ok;
}
#define CHECK_RUN(fn) (fn(), check_case_end(#fn))

/* The failures so far. */
static inline int check_failures(void) { return check_failed_; }

/* The summary line; the exit status. */
static inline int check_summary(const char *name) {
  printf("%s: %d checks passed, %d failed\n", name, check_passed_,
         check_failed_);
  fflush(stdout);
  return check_failed_ ? 1 : 0;
}

#endif
