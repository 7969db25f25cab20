/*===- test_html.c - The HTML writer without a browser --------------------===*
 *
 * What the page is made of, checked on its text: escaping, number cells,
 * finding sources under a --source-root, the per-line sums, the page of a
 * hand-made profile (a missing file's note, a found file's lines, a hostile
 * name kept as text, only the page's own script) and the diff page's
 * changes. tests/html/ checks rendered pages in headless Chromium.
 *===----------------------------------------------------------------------===*/
#define _XOPEN_SOURCE 700 /* open_memstream, mkdtemp, realpath */

#include "analyzers/html/html_internal.h"
#include "tests/unit/check.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What write(f) wrote, malloc'd. */
static char *capture(void (*write)(FILE *, const void *), const void *arg) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return NULL;
  write(f, arg);
  fclose(f);
  return text;
}

static void write_text(FILE *f, const void *s) { pasta__markup_text(f, s); }
static void write_u64(FILE *f, const void *v) {
  pasta__html_u64(f, *(const uint64_t *)v);
}

static size_t count_of(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = text; p && (p = strstr(p, needle)); p += strlen(needle))
    ++n;
  return n;
}

static void test_escaping(void) {
  char *s = capture(write_text, "<a href='x'>&\"\x01\tz");
  CHECK_EQ_STR(s, "&lt;a href=&#39;x&#39;&gt;&amp;&quot;?\tz");
  free(s);
  /* One escaper for the pages and the SVG pictures (profile/markup.h):
   * DEL, bytes that are not UTF-8 and each byte of U+FFFE as '?', UTF-8 as
   * it is. */
  s = capture(write_text, "\x7f\xff\xc3\xa9\xc3(\xef\xbf\xbe\xe2\x82\xac");
  CHECK_EQ_STR(s, "??\xc3\xa9?(???\xe2\x82\xac");
  free(s);
  static const struct {
    uint64_t v;
    const char *text;
  } numbers[] = {{0, "0"},
                 {999, "999"},
                 {1000, "1,000"},
                 {1234567, "1,234,567"},
                 {UINT64_MAX, "18,446,744,073,709,551,615"}};
  for (size_t i = 0; i < sizeof numbers / sizeof *numbers; ++i) {
    s = capture(write_u64, &numbers[i].v);
    CHECK_EQ_STR(s, numbers[i].text);
    free(s);
  }
}

static void test_saturation(void) {
  pasta_counts c = {0};
  c.load_bytes[PASTA_SPACE_GLOBAL] = UINT64_MAX - 1;
  c.store_bytes[PASTA_SPACE_GLOBAL] = 5;
  c.atomic_bytes[PASTA_SPACE_GLOBAL] = 1;
  CHECK_EQ_U64(pasta__html_space_bytes(&c, PASTA_SPACE_GLOBAL), UINT64_MAX);
  c.load_bytes[PASTA_SPACE_GLOBAL] = 7;
  CHECK_EQ_U64(pasta__html_space_bytes(&c, PASTA_SPACE_GLOBAL), 13);
  c.flops[PASTA_PREC_F32] = UINT64_MAX;
  CHECK_EQ_U64(pasta__html_line_weight(&c), UINT64_MAX);
}

static char dir[64];

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* dir/a/b/k.cu holds "one\r\ntwo\n<three>" (CRLF and a last line without
 * a newline). */
static void make_tree(void) {
  char path[256];
  snprintf(path, sizeof path, "%s/a", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/a/b", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/a/b/k.cu", dir);
  write_file(path, "one\r\ntwo\n<three>");
}

static void test_sources(void) {
  char root[128], want[256];
  snprintf(root, sizeof root, "%s/a", dir);
  const char *roots[] = {"/nonexistent-root", root, NULL};
  pasta_html_source src;
  /* Recorded on another machine: found by its tail "b/k.cu" under root. */
  CHECK_EQ_INT(
      pasta__html_source_load("/home/ana/b/k.cu", roots, NULL, NULL, &src), 0);
  snprintf(want, sizeof want, "%s/a/b/k.cu", dir);
  CHECK_EQ_STR(src.path, want);
  if (CHECK_EQ_U64(src.num_lines, 3)) {
    CHECK_EQ_STR(src.line[0], "one");
    CHECK_EQ_STR(src.line[1], "two");
    CHECK_EQ_STR(src.line[2], "<three>");
  }
  pasta__html_source_free(&src);
  /* Found nowhere. */
  CHECK_EQ_INT(
      pasta__html_source_load("/home/ana/c/none.cu", roots, NULL, NULL, &src),
      0);
  CHECK(src.path == NULL && src.num_lines == 0);
  pasta__html_source_free(&src);
  /* Not a regular file: never read (it could block the writer). */
  CHECK_EQ_INT(pasta__html_source_load("/dev/stdin", NULL, NULL, NULL, &src),
               0);
  CHECK(src.path == NULL);
  pasta__html_source_free(&src);
  /* Allowed roots: a file under them is read; one outside them (directly,
   * through "..", or through a link) is not, and is marked refused. */
  char real_a[PATH_MAX], real_b[PATH_MAX], link[256], dots[256];
  snprintf(want, sizeof want, "%s/a/b", dir);
  if (!CHECK(realpath(want, real_b) != NULL))
    return;
  snprintf(want, sizeof want, "%s/a", dir);
  if (!CHECK(realpath(want, real_a) != NULL))
    return;
  const char *only_b[] = {real_b, NULL};
  snprintf(want, sizeof want, "%s/a/b/k.cu", dir);
  CHECK_EQ_INT(pasta__html_source_load(want, NULL, only_b, NULL, &src), 0);
  CHECK(src.path != NULL && src.num_lines == 3 && !src.refused);
  pasta__html_source_free(&src);
  CHECK_EQ_INT(pasta__html_source_load("/etc/passwd", NULL, only_b, NULL, &src),
               0);
  CHECK(src.path == NULL && src.num_lines == 0 && src.refused);
  pasta__html_source_free(&src);
  snprintf(dots, sizeof dots, "%s/a/b/../../a/b/../k.cu", dir);
  snprintf(want, sizeof want, "%s/a/k.cu", dir);
  write_file(want, "outside b");
  CHECK_EQ_INT(pasta__html_source_load(dots, NULL, only_b, NULL, &src), 0);
  CHECK(src.path == NULL && src.refused);
  pasta__html_source_free(&src);
  snprintf(link, sizeof link, "%s/a/b/link.cu", dir);
  CHECK_EQ_INT(symlink(want, link), 0);
  CHECK_EQ_INT(pasta__html_source_load(link, NULL, only_b, NULL, &src), 0);
  CHECK(src.path == NULL && src.refused);
  pasta__html_source_free(&src);
  /* Under a --source-root, "../" in the recorded path cannot climb out. */
  const char *root_b[] = {real_b, NULL};
  snprintf(want, sizeof want, "%s/a/x.cu", dir);
  write_file(want, "outside b");
  CHECK_EQ_INT(pasta__html_source_load("../x.cu", root_b, only_b, NULL, &src),
               0);
  CHECK(src.path == NULL && src.refused);
  pasta__html_source_free(&src);
  const char *both[] = {real_a, NULL};
  CHECK_EQ_INT(pasta__html_source_load(link, NULL, both, NULL, &src), 0);
  CHECK(src.path != NULL && !src.refused);
  pasta__html_source_free(&src);
  /* Under a root for source files only (the current directory, the
   * profile's): k.cu is read, a key or notes there are not. */
  const char *none[] = {NULL};
  snprintf(want, sizeof want, "%s/a/id_rsa", dir);
  write_file(want, "PRIVATE KEY");
  CHECK_EQ_INT(pasta__html_source_load(want, NULL, none, both, &src), 0);
  CHECK(src.path == NULL && src.refused);
  pasta__html_source_free(&src);
  snprintf(want, sizeof want, "%s/a/k.cu", dir);
  CHECK_EQ_INT(pasta__html_source_load(want, NULL, none, both, &src), 0);
  CHECK(src.path != NULL && !src.refused);
  pasta__html_source_free(&src);
  CHECK(pasta__html_named_like_source("/x/y.cuh") &&
        pasta__html_named_like_source("k.C") &&
        !pasta__html_named_like_source("/x/.cu") &&
        !pasta__html_named_like_source("/x/y.txt") &&
        !pasta__html_named_like_source("/home/u/.ssh/id_rsa"));
}

/* A profile: kernel "<b>k</b>" in /elsewhere/b/k.cu with lines 2 and 3
 * (line 2 from two functions), and a line in a file found nowhere. */
static void make_profile(pasta_profile *p, uint64_t scale) {
  pasta_profile_init(p);
  pasta_profile_func f = {.name = "<b>k</b>",
                          .mangled = "_Z1kv",
                          .file = "/elsewhere/b/k.cu",
                          .line = 1,
                          .kind = PASTA_FUNC_KERNEL,
                          .calls = 2 * scale};
  f.counts.load_bytes[PASTA_SPACE_GLOBAL] = 800 * scale;
  f.counts.flops[PASTA_PREC_F32] = 100 * scale;
  pasta_profile_add_func(p, &f);
  pasta_profile_line l = {.file = "/elsewhere/b/k.cu",
                          .line = 2,
                          .kind = PASTA_FUNC_KERNEL,
                          .function = "<b>k</b>",
                          .executions = 10 * scale};
  l.counts.load_bytes[PASTA_SPACE_GLOBAL] = 400 * scale;
  pasta_profile_add_line(p, &l);
  l.function = "helper";
  l.counts.load_bytes[PASTA_SPACE_GLOBAL] = 0;
  l.counts.load_bytes[PASTA_SPACE_SHARED] = 64 * scale;
  pasta_profile_add_line(p, &l);
  l = (pasta_profile_line){.file = "/elsewhere/b/k.cu",
                           .line = 3,
                           .kind = PASTA_FUNC_KERNEL,
                           .function = "<b>k</b>",
                           .executions = 5};
  l.counts.flops[PASTA_PREC_F32] = 100 * scale;
  pasta_profile_add_line(p, &l);
  l.file = "/gone/missing.cu";
  l.line = 7;
  pasta_profile_add_line(p, &l);
  pasta_profile_finalize(p);
}

static void test_line_sums(void) {
  pasta_profile p;
  make_profile(&p, 1);
  pasta_html_line *lines;
  size_t n;
  if (!CHECK_EQ_INT(pasta__html_lines(&p, &lines, &n), 0))
    return;
  if (CHECK_EQ_U64(n, 3)) {
    /* Sorted by file: /elsewhere/... line 2, line 3, then /gone/... */
    CHECK_EQ_U64(lines[0].line, 2);
    CHECK_EQ_U64(lines[0].executions, 20);
    CHECK_EQ_U64(lines[0].num_functions, 2);
    CHECK_EQ_U64(lines[0].counts.load_bytes[PASTA_SPACE_GLOBAL], 400);
    CHECK_EQ_U64(lines[0].counts.load_bytes[PASTA_SPACE_SHARED], 64);
    CHECK_EQ_STR(lines[2].file, "/gone/missing.cu");
  }
  free(lines);
  pasta_profile_free(&p);
}

static void write_report(FILE *f, const void *in) {
  pasta__html_write_report(f, in);
}

/* Two functions' entries on one line: their divergence figures add up and
 * their per-process spreads, which cannot, are dropped; a line of one
 * entry keeps its spread. */
static void test_line_sums_divergence(void) {
  pasta_profile p;
  pasta_profile_init(&p);
  pasta_rank_stats spread = {{{1, 9, 2}, {0, 0, 0}, {0, 0, 0}}};
  pasta_profile_line l = {.file = "k.cu",
                          .line = 4,
                          .kind = PASTA_FUNC_KERNEL,
                          .function = "a",
                          .executions = 12,
                          .ranks = &spread};
  l.div[PASTA_DIV_SECTORS] = 32;
  l.div[PASTA_DIV_IDEAL_SECTORS] = 4;
  l.div_proven = 1u << PASTA_DIV_SECTORS; /* a's sectors proven */
  pasta_profile_add_line(&p, &l);
  l.function = "b";
  l.div[PASTA_DIV_SECTORS] = 8;
  l.div_proven = 0;
  l.div_measured = 1u << PASTA_DIV_SECTORS; /* b's measured */
  pasta_profile_add_line(&p, &l);
  l.line = 5;
  l.div_proven = 1u << PASTA_DIV_BANK_CONFLICTS;
  l.div_measured = 0;
  pasta_profile_add_line(&p, &l);
  pasta_profile_finalize(&p);
  pasta_html_line *lines;
  size_t n;
  if (CHECK_EQ_INT(pasta__html_lines(&p, &lines, &n), 0) &&
      CHECK_EQ_U64(n, 2)) {
    CHECK_EQ_U64(lines[0].div[PASTA_DIV_SECTORS], 40);
    CHECK_EQ_U64(lines[0].div[PASTA_DIV_IDEAL_SECTORS], 8);
    CHECK_EQ_U64(pasta_div_excess_sectors(lines[0].div), 32);
    CHECK(lines[0].ranks == NULL);
    /* Line 4's sectors: proven at a's entry, measured at b's: not proven. */
    CHECK_EQ_U64(lines[0].div_proven & ~lines[0].div_measured, 0);
    CHECK_EQ_U64(lines[1].div_proven & ~lines[1].div_measured,
                 1u << PASTA_DIV_BANK_CONFLICTS);
    CHECK(lines[1].ranks != NULL &&
          lines[1].ranks->metric[PASTA_RANK_WORK].max == 9);
  }
  free(lines);
  pasta_profile_free(&p);
}

static void test_report_page(void) {
  pasta_profile p;
  make_profile(&p, 1);
  char root[128];
  snprintf(root, sizeof root, "%s/a", dir);
  const char *roots[] = {root, NULL};
  pasta_html_input in = {.profile = &p, .title = "t<1>", .source_roots = roots};
  char *page = capture(write_report, &in);
  CHECK_HAS_STR(page, "<title>t&lt;1&gt;</title>");
  CHECK_EQ_U64(count_of(page, "<script"), 1);
  CHECK_EQ_U64(count_of(page, "<b>"), 0);
  CHECK_HAS_STR(page, "&lt;b&gt;k&lt;/b&gt;");
  /* The kernel's row: launches and bytes as exact values. */
  CHECK_HAS_STR(page, "data-col=\"launches\" data-v=\"2\">2<");
  CHECK_HAS_STR(page, "data-col=\"bytes\" data-v=\"800\">800<");
  /* Line 2 of the found file: both functions' bytes, its text escaped. */
  CHECK_HAS_STR(page, "<tr id=\"L0-2\" class=\"hit\">");
  CHECK_HAS_STR(page, "data-col=\"global\" data-v=\"400\"");
  CHECK_HAS_STR(page, "data-col=\"shared\" data-v=\"64\"");
  CHECK_HAS_STR(page, "&lt;three&gt;</td>");
  /* No line used local, constant or generic memory: no such columns. */
  CHECK_EQ_U64(count_of(page, "local B"), 0);
  /* The other file: a note, and its counted line without text. */
  CHECK_HAS_STR(page,
                "<p class=\"missing\">Source not found: /gone/missing.cu");
  CHECK_HAS_STR(page, "<tr id=\"L1-7\" class=\"hit\">");
  /* The kernel links to its lines. */
  CHECK_HAS_STR(page, "<a href=\"#L0-2\">");
  free(page);
  pasta_profile_free(&p);
}

/* A line whose figures a proof gave at every site gets a mark in the
 * source view, its title saying what was proven; a line with a measured
 * figure, none. */
static void test_proven_mark(void) {
  pasta_profile p;
  pasta_profile_init(&p);
  pasta_profile_func f = {.name = "k",
                          .mangled = "_Z1kv",
                          .file = "/elsewhere/b/k.cu",
                          .line = 1,
                          .kind = PASTA_FUNC_KERNEL,
                          .calls = 1};
  f.div[PASTA_DIV_REQUESTS_SHARED] = 8;
  pasta_profile_add_func(&p, &f);
  pasta_profile_line l = {.file = "/elsewhere/b/k.cu",
                          .line = 2,
                          .kind = PASTA_FUNC_KERNEL,
                          .function = "k",
                          .executions = 4,
                          .div_proven = 1u << PASTA_DIV_BANK_CONFLICTS};
  l.div[PASTA_DIV_REQUESTS_SHARED] = 4;
  pasta_profile_add_line(&p, &l);
  l.line = 3;
  l.div_measured = l.div_proven;
  pasta_profile_add_line(&p, &l);
  pasta_profile_finalize(&p);
  char root[128];
  snprintf(root, sizeof root, "%s/a", dir);
  const char *roots[] = {root, NULL};
  pasta_html_input in = {.profile = &p, .title = "t", .source_roots = roots};
  char *page = capture(write_report, &in);
  CHECK_HAS_STR(page, "<a href=\"#L0-2\">2</a><span class=\"proven\" "
                      "title=\"proven 0.00 conflicts/request\">");
  CHECK_EQ_U64(count_of(page, "<span class=\"proven\""), 1);
  free(page);
  pasta_profile_free(&p);
}

/* Sampled timing (10 of 15 launches timed, 1 failed): the time shown is
 * the mean times the 14 that ran, marked "~"; all timed: the sum. */
static void test_sampled_time(void) {
  pasta_profile p;
  make_profile(&p, 1);
  pasta_activity_kernel k = {.name = "<b>k</b>",
                             .mangled = "_Z1kv",
                             .launches = 15,
                             .failed = 1,
                             .timed = 10,
                             .time_total_ns = 1000};
  pasta_activity a = {.kernels = &k, .num_kernels = 1};
  pasta_html_input in = {.profile = &p, .title = "t", .activity = &a};
  char *page = capture(write_report, &in);
  CHECK_HAS_STR(page, "data-col=\"time\" data-v=\"1400\" title=\"estimated "
                      "from 10 timed launches of 14\">~1.4 us<");
  free(page);
  k.timed = 14;
  page = capture(write_report, &in);
  CHECK_HAS_STR(page, "data-col=\"time\" data-v=\"1000\">1 us<");
  free(page);
  pasta_profile_free(&p);
}

struct pair {
  const pasta_html_input *before, *after;
};

static void write_diff(FILE *f, const void *arg) {
  const struct pair *pr = arg;
  pasta__html_write_diff(f, pr->before, pr->after);
}

static void test_diff_page(void) {
  pasta_profile a, b;
  make_profile(&a, 1);
  make_profile(&b, 3);
  pasta_html_input ia = {.profile = &a, .title = "a"};
  pasta_html_input ib = {.profile = &b, .title = "b"};
  struct pair pr = {&ia, &ib};
  char *page = capture(write_diff, &pr);
  CHECK_HAS_STR(page, "data-col=\"launches_before\" data-v=\"2\"");
  CHECK_HAS_STR(page, "data-col=\"launches_after\" data-v=\"6\"");
  CHECK_HAS_STR(page, "data-col=\"launches_change\" data-v=\"4\">+4<");
  CHECK_HAS_STR(page, "data-col=\"bytes_change\" data-v=\"1600\">+1,600<");
  pr = (struct pair){&ib, &ia};
  free(page);
  page = capture(write_diff, &pr);
  CHECK_HAS_STR(page, "data-col=\"launches_change\" data-v=\"-4\">&minus;4<");
  free(page);
  pasta_profile_free(&a);
  pasta_profile_free(&b);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/pasta-test-html-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  make_tree();
  CHECK_RUN(test_escaping);
  CHECK_RUN(test_saturation);
  CHECK_RUN(test_sources);
  CHECK_RUN(test_line_sums);
  CHECK_RUN(test_line_sums_divergence);
  CHECK_RUN(test_report_page);
  CHECK_RUN(test_proven_mark);
  CHECK_RUN(test_diff_page);
  CHECK_RUN(test_sampled_time);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return check_summary("html");
}
