/*===- test_trace_writers.c - .cats, Chrome trace and analyses, by hand ---===*
 *
 * A hand-made trace of this program (times in ns):
 *
 *   main() {                               main.c:10, scope 1, t 0..1000
 *     data = alloc(1024);                  main.c:11, buffer 3, t 5, never
 *freed unused = alloc(512);                 main.c:11, buffer 4, t 6, freed t
 *900 fill(data);                          scope 7 (main.c:30), reads data t 8
 *     for (i = 0; i < 2; ++i) {            main.c:12, scope 2, 2 iterations
 *       tmp = alloc(256); copy(tmp); free(tmp);   buffers 1 (t 100..200, used
 *     }                                    t 150) and 2 (t 300..400, used t
 *350) kern<<<...>>>(data);                 kern.cu:20, scope 3 (parallel), 4
 *warps for (...)                          kern.cu:22, scope 4: 4 entries for
 *(...)                        kern.cu:23, scope 5: 40 entries data[8*i];
 *data[idx[i]];       stride-k and indirect, 1600 each data[tid] = ...;
 *stride-1, 4 if (...) fill(data);                 main.c:40, scope 6; fill
 *reads t 860
 *   }
 *
 * Every expected number below is derived in the comments from this trace.
 * With an argument PREFIX it also writes PREFIX.cats and PREFIX.json (for
 * tests/check_trace.py).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "cats_file.h"
#include "chrome_trace.h"
#include "profile/json_write.h"
#include "profile/trace_read.h"
#include "trace_analyses.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

/* Has quotes, a newline, a control byte, a lone 0xFF, an overlong '/'
 * (C0 AF) and a truncated 3-byte sequence (E2 82). */
#define BAD_NAME "un\"used\n\xff\x01\xc0\xaf\xe2\x82"
/* What a JSON parser reads back: each invalid byte as U+00XX. */
#define BAD_NAME_PARSED "un\"used\n\xc3\xbf\x01\xc3\x80\xc2\xaf\xc3\xa2\xc2\x82"

#define SCOPE(type_, kind_, id_, file_, func_, line_, t_, count_)              \
  {.type = (type_),                                                            \
   .scope_kind = (kind_),                                                      \
   .id = (id_),                                                                \
   .filename = (file_),                                                        \
   .funcname = (func_),                                                        \
   .line = (line_),                                                            \
   .col = 1,                                                                   \
   .time_ns = (t_),                                                            \
   .count = (count_),                                                          \
   .buffer_name = ""}
#define ENTRY(kind, id, file, func, line, t, count)                            \
  SCOPE(PASTA_CATS_SCOPE_ENTRY, kind, id, file, func, line, t, count)
#define EXIT(id, file, func, line, t)                                          \
  SCOPE(PASTA_CATS_SCOPE_EXIT, 0, id, file, func, line, t, 1)
#define MEM(type_, buf, name, size_, line_, t_)                                \
  {.type = (type_),                                                            \
   .filename = "main.c",                                                       \
   .funcname = "main",                                                         \
   .line = (line_),                                                            \
   .col = 3,                                                                   \
   .time_ns = (t_),                                                            \
   .count = 1,                                                                 \
   .buffer_id = (buf),                                                         \
   .buffer_name = (name),                                                      \
   .size = (size_)}
#define HOST_ACCESS(mode_, buf, name, bytes_, func, line_, t_)                 \
  {.type = PASTA_CATS_ACCESS,                                                  \
   .filename = "main.c",                                                       \
   .funcname = (func),                                                         \
   .line = (line_),                                                            \
   .col = 5,                                                                   \
   .time_ns = (t_),                                                            \
   .count = 1,                                                                 \
   .buffer_id = (buf),                                                         \
   .buffer_name = (name),                                                      \
   .mode = (mode_),                                                            \
   .bytes = (bytes_)}
#define DEV_ACCESS(mode_, expr, klass, stride_, line_, t_, count_)             \
  {.type = PASTA_CATS_ACCESS,                                                  \
   .filename = "kern.cu",                                                      \
   .funcname = "kern",                                                         \
   .line = (line_),                                                            \
   .col = 7,                                                                   \
   .time_ns = (t_),                                                            \
   .count = (count_),                                                          \
   .on_device = 1,                                                             \
   .buffer_id = 3,                                                             \
   .buffer_name = "data",                                                      \
   .mode = (mode_),                                                            \
   .offset_expr = (expr),                                                      \
   .bytes = 4,                                                                 \
   .access_class = (klass),                                                    \
   .stride = (stride_)}

enum { NUM_EVENTS = 30 };

static const struct pasta_cats_event events[NUM_EVENTS] = {
    ENTRY(PASTA_SCOPE_FUNC, 1, "main.c", "main", 10, 0, 1),
    MEM(PASTA_CATS_ALLOCATION, 3, "data", 1024, 11, 5),
    MEM(PASTA_CATS_ALLOCATION, 4, BAD_NAME, 512, 11, 6),
    ENTRY(PASTA_SCOPE_FUNC, 7, "main.c", "fill", 30, 7, 1),
    HOST_ACCESS('r', 3, "data", 1024, "fill", 31, 8),
    EXIT(7, "main.c", "fill", 30, 9),
    /* 6 */
    {.type = PASTA_CATS_SCOPE_ENTRY,
     .scope_kind = PASTA_SCOPE_LOOP,
     .id = 2,
     .filename = "main.c",
     .funcname = "main",
     .line = 12,
     .col = 3,
     .time_ns = 10,
     .count = 1,
     .iterations = 2,
     .trips_known = 1,
     .buffer_name = ""},
    MEM(PASTA_CATS_ALLOCATION, 1, "tmp", 256, 13, 100),
    HOST_ACCESS('w', 1, "tmp", 256, "main", 14, 150),
    MEM(PASTA_CATS_DEALLOCATION, 1, "tmp", 0, 15, 200),
    MEM(PASTA_CATS_ALLOCATION, 2, "tmp", 256, 13, 300),
    HOST_ACCESS('w', 2, "tmp", 256, "main", 14, 350),
    MEM(PASTA_CATS_DEALLOCATION, 2, "tmp", 0, 15, 400),
    EXIT(2, "main.c", "main", 12, 500),
    /* 14 */
    {.type = PASTA_CATS_SCOPE_ENTRY,
     .scope_kind = PASTA_SCOPE_PARALLEL,
     .id = 3,
     .filename = "kern.cu",
     .funcname = "kern",
     .line = 20,
     .col = 1,
     .time_ns = 600,
     .count = 4,
     .on_device = 1,
     .buffer_name = ""},
    {.type = PASTA_CATS_SCOPE_ENTRY,
     .scope_kind = PASTA_SCOPE_LOOP,
     .id = 4,
     .filename = "kern.cu",
     .funcname = "kern",
     .line = 22,
     .col = 3,
     .time_ns = 610,
     .count = 4,
     .iterations = 40,
     .trips_known = 1,
     .on_device = 1,
     .buffer_name = ""},
    {.type = PASTA_CATS_SCOPE_ENTRY,
     .scope_kind = PASTA_SCOPE_LOOP,
     .id = 5,
     .filename = "kern.cu",
     .funcname = "kern",
     .line = 23,
     .col = 5,
     .time_ns = 615,
     .count = 40,
     .iterations = 400,
     .trips_known = 1,
     .on_device = 1,
     .buffer_name = ""},
    /* 17 */ DEV_ACCESS('r', "8*i", PASTA_ACCESS_STRIDEK, 8, 24, 620, 1600),
    DEV_ACCESS('r', "idx[i]", PASTA_ACCESS_INDIRECT, 0, 25, 630, 1600),
    EXIT(5, "kern.cu", "kern", 23, 690),
    EXIT(4, "kern.cu", "kern", 22, 700),
    DEV_ACCESS('w', "tid", PASTA_ACCESS_STRIDE1, 1, 27, 710, 4),
    EXIT(3, "kern.cu", "kern", 20, 800),
    /* 23 */ ENTRY(PASTA_SCOPE_CONDITIONAL, 6, "main.c", "main", 40, 840, 1),
    ENTRY(PASTA_SCOPE_FUNC, 7, "main.c", "fill", 30, 850, 1),
    HOST_ACCESS('r', 3, "data", 1024, "fill", 31, 860),
    EXIT(7, "main.c", "fill", 30, 870),
    EXIT(6, "main.c", "main", 40, 880),
    MEM(PASTA_CATS_DEALLOCATION, 4, BAD_NAME, 0, 41, 900),
    EXIT(1, "main.c", "main", 10, 1000),
};

#define NONE PASTA_TIME_NONE
static const struct pasta_trace_buffer buffers[] = {
    {1, "tmp", "device", 256, 100, 200, 150, 150, 1, "main.c", 13, 1, 2,
     "main.c", 12},
    {2, "tmp", "device", 256, 300, 400, 350, 350, 1, "main.c", 13, 1, 2,
     "main.c", 12},
    {3, "data", "device", 1024, 5, NONE, 8, 860, 2, "main.c", 11, 0, 0, "", 0},
    {4, BAD_NAME, "device", 512, 6, 900, NONE, NONE, 0, "main.c", 11, 0, 0, "",
     0},
};

/* Out of order on purpose: the writer sorts each track by time. */
static const struct pasta_trace_span spans[] = {
    {PASTA_TRACK_HOST_THREAD, 0, 0, 0, "main", "func", 0, 1000, 0, ""},
    {PASTA_TRACK_HOST_THREAD, 0, 0, 0, "cudaLaunchKernel", "api", 590, 20, 8,
     ""},
    {PASTA_TRACK_HOST_THREAD, 0, 0, 0, "cudaMemcpy", "api", 140, 20, 0,
     "256 B h2d"},
    {PASTA_TRACK_HOST_THREAD, 0, 0, 1, "worker", "func", 50, 0, 0, ""},
    {PASTA_TRACK_STREAM, 0, 0, 0, "kern", "kernel", 600, 200, 8,
     "grid \"4\"x1x1"},
    {PASTA_TRACK_STREAM, 1, 0, 3, "copy", "copy", 150, 10, 0, ""},
    {PASTA_TRACK_WARP, 0, 7, 0, "loop kern.cu:22", "loop", 610, 90, 0, ""},
    {PASTA_TRACK_WARP, 0, 7, 0, "kern", "func", 605, 190, 0, ""},
    {PASTA_TRACK_WARP, 0, 7, 1, "kern", "func", 606, 180, 0, ""},
};
enum { NUM_SPANS = sizeof spans / sizeof spans[0] };

static const struct pasta_clock_pair pairs[] = {{7, 590, 820, 1000, 1190}};

static struct pasta_trace make_trace(void) {
  struct pasta_trace t = {0};
  t.program = "prog-\xc3\xa9"; /* "prog-é": valid UTF-8, passed through */
  t.start_ns = 123456789;
  t.events = events;
  t.num_events = NUM_EVENTS;
  t.buffers = buffers;
  t.num_buffers = sizeof buffers / sizeof buffers[0];
  t.spans = spans;
  t.num_spans = NUM_SPANS;
  t.clock_pairs = pairs;
  t.num_clock_pairs = 1;
  t.clock_offset_ns = -405.5;
  t.clock_drift = 1e-6;
  t.events_seen = 3300;
  t.traced_launches = 1;
  return t;
}

/* Runs a writer into memory; returns the text (to free) or NULL. */
static char *write_to_string(int (*writer)(FILE *, const struct pasta_trace *),
                             const struct pasta_trace *t, int *rc) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return NULL;
  *rc = writer(f, t);
  fclose(f);
  return text;
}

static char *escaped(const char *s) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return NULL;
  pasta__trace_write_string(f, s);
  fclose(f);
  return text;
}

static void check_escape(const char *in, const char *expected) {
  char *got = escaped(in);
  CHECK_EQ_STR(got, expected);
  if (got && strcmp(got, expected) != 0)
    fprintf(stderr, "  got %s, expected %s\n", got, expected);
  free(got);
}

static void test_escaping(void) {
  check_escape("a\"b\\c\n\t\x01\x1f", "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f\"");
  check_escape("\xc3\xa9\xf0\x9f\x98\x80", "\"\xc3\xa9\xf0\x9f\x98\x80\"");
  check_escape("\xff", "\"\\u00ff\"");
  /* A UTF-16 surrogate (ED A0 80) and an overlong NUL (C0 80). */
  check_escape("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");
  check_escape("\xc0\x80x", "\"\\u00c0\\u0080x\"");
  check_escape("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");
  check_escape(NULL, "\"\"");
}

/*===-- .cats -------------------------------------------------------------===*/

static int is_one_of(const char *s, const char *const *set) {
  for (; s && *set; ++set)
    if (strcmp(s, *set) == 0)
      return 1;
  return 0;
}

static int has(json_t *e, const char *key, int (*is)(const json_t *)) {
  json_t *v = json_object_get(e, key);
  return v && is(v);
}
static int is_int(const json_t *v) { return json_is_integer(v); }
static int is_str(const json_t *v) { return json_is_string(v); }

static const char *get_str(json_t *e, const char *key) {
  return json_string_value(json_object_get(e, key));
}
static long long get_int(json_t *e, const char *key) {
  return json_integer_value(json_object_get(e, key));
}

/* The fields every event and each type must have, typed as documented. */
static int event_ok(json_t *e) {
  static const char *const types[] = {"scope_entry", "scope_exit",   "access",
                                      "allocation",  "deallocation", NULL};
  static const char *const scope_types[] = {"func", "loop", "conditional",
                                            "parallel", NULL};
  static const char *const classes[] = {"unknown",  "constant", "stride-1",
                                        "stride-k", "indirect", NULL};
  const char *type = get_str(e, "type");
  int ok = is_one_of(type, types) && has(e, "filename", is_str) &&
           has(e, "funcname", is_str) && has(e, "line", is_int) &&
           has(e, "col", is_int) && has(e, "time_ns", is_int) &&
           has(e, "count", is_int);
  if (!ok)
    return 0;
  if (!strcmp(type, "scope_entry"))
    return has(e, "id", is_int) &&
           is_one_of(get_str(e, "scope_type"), scope_types);
  if (!strcmp(type, "scope_exit"))
    return has(e, "id", is_int);
  if (!strcmp(type, "access")) {
    json_t *off = json_object_get(e, "offset");
    return is_one_of(get_str(e, "mode"),
                     (const char *const[]){"r", "w", NULL}) &&
           has(e, "buffer_id", is_int) && has(e, "buffer_name", is_str) &&
           (json_is_integer(off) || json_is_string(off)) &&
           has(e, "bytes", is_int) && is_one_of(get_str(e, "class"), classes);
  }
  return has(e, "buffer_id", is_int) && has(e, "buffer_name", is_str) &&
         (strcmp(type, "allocation") || has(e, "size", is_int));
}

/* Entries and exits balanced with matching ids. */
static int balanced(json_t *evs) {
  long long stack[64];
  size_t depth = 0;
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    const char *type = get_str(e, "type");
    if (!strcmp(type, "scope_entry")) {
      if (depth == 64)
        return 0;
      stack[depth++] = get_int(e, "id");
    } else if (!strcmp(type, "scope_exit")) {
      if (!depth || stack[--depth] != get_int(e, "id"))
        return 0;
    }
  }
  return depth == 0;
}

static void check_cats_events(json_t *evs) {
  size_t bad = 0;
  for (size_t i = 0; i < json_array_size(evs); ++i)
    bad += !event_ok(json_array_get(evs, i));
  CHECK_EQ_U64(bad, 0);
  CHECK(balanced(evs));
  /* Entries in order: main, fill, loop, parallel, loop, loop, conditional,
   * fill. */
  const char *order[] = {"func", "func", "loop",        "parallel",
                         "loop", "loop", "conditional", "func"};
  size_t n = 0, mismatched = 0;
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    if (strcmp(get_str(e, "type"), "scope_entry"))
      continue;
    mismatched += n >= 8 || strcmp(get_str(e, "scope_type"), order[n]);
    ++n;
  }
  CHECK_EQ_U64(n, 8);
  CHECK_EQ_U64(mismatched, 0);
}

static void check_cats_fields(json_t *evs) {
  json_t *loop = json_array_get(evs, 6), *kern = json_array_get(evs, 14);
  json_t *inner = json_array_get(evs, 16), *sk = json_array_get(evs, 17);
  json_t *ind = json_array_get(evs, 18), *copy = json_array_get(evs, 8);
  json_t *alloc = json_array_get(evs, 2), *dealloc = json_array_get(evs, 28);
  CHECK_EQ_U64(get_int(loop, "iterations"), 2);
  CHECK_EQ_PTR(json_object_get(kern, "iterations"), NULL); /* not a loop */
  CHECK(json_is_true(json_object_get(kern, "device")));
  CHECK_EQ_U64(get_int(kern, "count"), 4);
  CHECK_EQ_U64(get_int(inner, "iterations"), 400);
  CHECK(get_str(sk, "offset") && !strcmp(get_str(sk, "offset"), "8*i"));
  CHECK(!strcmp(get_str(sk, "class"), "stride-k"));
  CHECK_EQ_U64(get_int(sk, "stride"), 8);
  CHECK_EQ_U64(get_int(sk, "count"), 1600);
  CHECK(!strcmp(get_str(ind, "class"), "indirect"));
  CHECK_EQ_PTR(json_object_get(ind, "stride"), NULL);
  CHECK(json_is_integer(json_object_get(copy, "offset")));
  CHECK(!strcmp(get_str(copy, "mode"), "w"));
  CHECK(!strcmp(get_str(copy, "class"), "unknown"));
  CHECK_EQ_PTR(json_object_get(copy, "device"), NULL);
  CHECK_EQ_U64(get_int(copy, "buffer_id"), 1);
  CHECK_EQ_U64(get_int(alloc, "size"), 512);
  CHECK(!strcmp(get_str(alloc, "buffer_name"), BAD_NAME_PARSED));
  CHECK(!strcmp(get_str(dealloc, "buffer_name"), BAD_NAME_PARSED));
  CHECK_EQ_PTR(json_object_get(dealloc, "size"), NULL);
}

static void test_cats(const struct pasta_trace *t, const char *prefix) {
  int rc = -1;
  char *text = write_to_string(pasta__cats_write, t, &rc);
  CHECK(text && rc == 0);
  if (!text)
    return;
  /* Escapes as written, and the valid UTF-8 program name as is. */
  CHECK_HAS_STR(text, "\"un\\\"used\\n\\u00ff\\u0001\\u00c0\\u00af"
                      "\\u00e2\\u0082\"");
  CHECK_HAS_STR(text, "\"program\":\"prog-\xc3\xa9\"");
  json_error_t err;
  json_t *root = json_loads(text, 0, &err);
  CHECK(root != NULL);
  if (!root)
    fprintf(stderr, "  %s (line %d)\n", err.text, err.line);
  json_t *evs = json_object_get(root, "events");
  CHECK(json_is_array(evs) && json_array_size(evs) == NUM_EVENTS);
  CHECK(!strcmp(get_str(root, "format") ? get_str(root, "format") : "",
                "pasta-cats"));
  CHECK_EQ_U64(get_int(root, "version"), PASTA_TRACE_FORMAT_VERSION);
  CHECK_EQ_U64(get_int(root, "events_seen"), 3300);
  json_t *clock = json_object_get(root, "clock");
  CHECK(json_is_number(json_object_get(clock, "offset_ns")) &&
        json_number_value(json_object_get(clock, "offset_ns")) == -405.5);
  CHECK_EQ_INT(json_array_size(json_object_get(clock, "pairs")), 1);
  if (json_array_size(evs) == NUM_EVENTS) {
    check_cats_events(evs);
    check_cats_fields(evs);
  }
  json_decref(root);
  if (prefix) {
    char path[4096];
    snprintf(path, sizeof path, "%s.cats", prefix);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
  }
  free(text);
}

/* An unknown scope kind is refused before anything is written. */
static void test_cats_invalid(void) {
  struct pasta_cats_event e = events[0];
  e.scope_kind = 9;
  struct pasta_trace t = {0};
  t.program = "";
  t.events = &e;
  t.num_events = 1;
  int rc = 0;
  char *text = write_to_string(pasta__cats_write, &t, &rc);
  CHECK(rc == -1 && text && !*text);
  free(text);
}

/*===-- Chrome trace ------------------------------------------------------===*/

/* The pid of the process named `name`, or -1. */
static long long pid_named(json_t *evs, const char *name) {
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    const char *n = get_str(json_object_get(e, "args"), "name");
    if (!strcmp(get_str(e, "name"), "process_name") && n && !strcmp(n, name))
      return get_int(e, "pid");
  }
  return -1;
}

static int has_thread(json_t *evs, long long pid, long long tid,
                      const char *name) {
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    const char *n = get_str(json_object_get(e, "args"), "name");
    if (!strcmp(get_str(e, "name"), "thread_name") &&
        get_int(e, "pid") == pid && get_int(e, "tid") == tid && n &&
        !strcmp(n, name))
      return 1;
  }
  return 0;
}

static json_t *find_x(json_t *evs, long long pid, long long tid,
                      const char *name) {
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    if (!strcmp(get_str(e, "ph"), "X") && get_int(e, "pid") == pid &&
        get_int(e, "tid") == tid && !strcmp(get_str(e, "name"), name))
      return e;
  }
  return NULL;
}

static double num(json_t *e, const char *key) {
  return json_number_value(json_object_get(e, key));
}

/* Every event typed as the format wants; X events sorted per track. */
static void check_chrome_events(json_t *evs) {
  size_t bad = 0, unsorted = 0, x = 0;
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    const char *ph = get_str(e, "ph");
    bad += !has(e, "name", is_str) || !ph || !has(e, "pid", is_int) ||
           !has(e, "tid", is_int);
    if (!ph || strcmp(ph, "X"))
      continue;
    ++x;
    bad += !json_is_number(json_object_get(e, "ts")) ||
           !json_is_number(json_object_get(e, "dur")) || num(e, "dur") < 0;
    json_t *prev = i ? json_array_get(evs, i - 1) : NULL;
    if (prev && !strcmp(get_str(prev, "ph"), "X") &&
        get_int(prev, "pid") == get_int(e, "pid") &&
        get_int(prev, "tid") == get_int(e, "tid"))
      unsorted += num(prev, "ts") > num(e, "ts");
  }
  CHECK_EQ_U64(bad, 0);
  CHECK_EQ_U64(unsorted, 0);
  CHECK_EQ_U64(x, NUM_SPANS);
}

static void check_chrome_flow(json_t *evs, long long host, long long gpu0) {
  json_t *s = NULL, *f = NULL;
  size_t flows = 0;
  for (size_t i = 0; i < json_array_size(evs); ++i) {
    json_t *e = json_array_get(evs, i);
    const char *ph = get_str(e, "ph");
    if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
      ++flows;
      *(!strcmp(ph, "s") ? &s : &f) = e;
    }
  }
  /* One launch: cudaLaunchKernel (host thread 0, 590 ns) -> kern (GPU 0,
   * stream 0, 600 ns), both correlation 8. */
  CHECK_EQ_U64(flows, 2);
  CHECK(s && f && get_int(s, "id") == 8 && get_int(f, "id") == 8);
  CHECK(s && get_int(s, "pid") == host && get_int(s, "tid") == 0 &&
        num(s, "ts") == 0.59);
  CHECK(f && get_int(f, "pid") == gpu0 && get_int(f, "tid") == 0 &&
        num(f, "ts") == 0.6);
  CHECK(f && !strcmp(get_str(f, "bp"), "e") &&
        !strcmp(get_str(f, "cat"), "launch"));
}

static void check_chrome_tracks(json_t *evs) {
  long long host = pid_named(evs, "Host"), gpu0 = pid_named(evs, "GPU 0");
  long long gpu1 = pid_named(evs, "GPU 1");
  long long warps = pid_named(evs, "kern launch 7 (sampled warps)");
  CHECK(host >= 0 && gpu0 >= 0 && gpu1 >= 0 && warps >= 0);
  CHECK(host != gpu0 && gpu0 != gpu1 && gpu1 != warps && host != warps);
  CHECK(has_thread(evs, host, 0, "thread 0"));
  CHECK(has_thread(evs, host, 1, "thread 1"));
  CHECK(has_thread(evs, gpu1, 3, "stream 3"));
  CHECK(has_thread(evs, warps, 0, "warp 0") &&
        has_thread(evs, warps, 1, "warp 1"));
  json_t *worker = find_x(evs, host, 1, "worker");
  CHECK(worker && json_object_get(worker, "dur") && num(worker, "dur") == 0);
  json_t *kern = find_x(evs, gpu0, 0, "kern");
  const char *detail = get_str(json_object_get(kern, "args"), "detail");
  CHECK(detail && !strcmp(detail, "grid \"4\"x1x1"));
  CHECK(kern && num(kern, "ts") == 0.6 && num(kern, "dur") == 0.2);
  CHECK(worker && json_object_get(worker, "args") == NULL);
  /* Warp 0: kern [0.605, 0.795] encloses the loop [0.610, 0.700]. */
  json_t *outer = find_x(evs, warps, 0, "kern");
  json_t *inner = find_x(evs, warps, 0, "loop kern.cu:22");
  CHECK(outer && inner && num(outer, "ts") <= num(inner, "ts") &&
        num(inner, "ts") + num(inner, "dur") <=
            num(outer, "ts") + num(outer, "dur"));
  check_chrome_flow(evs, host, gpu0);
}

static void test_chrome(const struct pasta_trace *t, const char *prefix) {
  int rc = -1;
  char *text = write_to_string(pasta__chrome_trace_write, t, &rc);
  CHECK(text && rc == 0);
  if (!text)
    return;
  json_error_t err;
  json_t *root = json_loads(text, 0, &err);
  CHECK(root != NULL);
  if (!root)
    fprintf(stderr, "  %s (line %d)\n", err.text, err.line);
  json_t *evs = json_object_get(root, "traceEvents");
  CHECK(json_is_array(evs));
  CHECK(get_str(root, "displayTimeUnit") &&
        !strcmp(get_str(root, "displayTimeUnit"), "ns"));
  CHECK(json_is_object(json_object_get(root, "otherData")));
  if (json_is_array(evs)) {
    check_chrome_events(evs);
    check_chrome_tracks(evs);
  }
  json_decref(root);
  if (prefix) {
    char path[4096];
    snprintf(path, sizeof path, "%s.json", prefix);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
  }
  free(text);
}

/*===-- Analyses ----------------------------------------------------------===*/

static const struct pasta_trace_scope_summary *
scope(const struct pasta_trace_analysis *a, uint64_t id) {
  for (size_t i = 0; i < a->num_scopes; ++i)
    if (a->scopes[i].id == id)
      return &a->scopes[i];
  return NULL;
}

static void check_footprint(const struct pasta_trace_analysis *a) {
  /* Live bytes: t5 +1024 = 1024, t6 +512 = 1536, t100 +256 = 1792 (3
   * buffers), t200 1536, t300 1792 again (not a new peak), t400 1536, t900
   * 1024: peak 1792 first at 100 ns with 3 buffers; data (1024) is never
   * freed. The trace ends at 1000 ns (main's exit and span). */
  CHECK_EQ_U64(a->end_ns, 1000);
  CHECK_EQ_U64(a->peak_bytes, 1792);
  CHECK_EQ_U64(a->peak_time_ns, 100);
  CHECK_EQ_U64(a->peak_buffers, 3);
  CHECK_EQ_U64(a->final_bytes, 1024);
  CHECK_EQ_U64(a->final_buffers, 1);
}

static void check_lives(const struct pasta_trace_analysis *a) {
  /* By size: data (1024): allocated 1000 - 5 = 995, used 860 - 8 = 852;
   * the bad name (512): 900 - 6 = 894, never used; tmp 1 and 2 (256, by
   * id): 100 each, used at one time only: 0. */
  CHECK_EQ_U64(a->num_lives, 4);
  if (a->num_lives != 4)
    return;
  CHECK_EQ_U64(a->lives[0].buffer->id, 3);
  CHECK_EQ_U64(a->lives[0].alloc_ns, 995);
  CHECK_EQ_U64(a->lives[0].use_ns, 852);
  CHECK(a->lives[0].used && !a->lives[0].freed);
  CHECK_EQ_U64(a->lives[1].buffer->id, 4);
  CHECK_EQ_U64(a->lives[1].alloc_ns, 894);
  CHECK(!a->lives[1].used && a->lives[1].freed);
  CHECK_EQ_U64(a->lives[2].buffer->id, 1);
  CHECK_EQ_U64(a->lives[3].buffer->id, 2);
  CHECK_EQ_U64(a->lives[2].alloc_ns, 100);
  CHECK(a->lives[2].used && a->lives[2].use_ns == 0);
}

static void check_loops_and_reuse(const struct pasta_trace_analysis *a) {
  /* tmp is allocated twice at main.c:13 inside loop 2 (main.c:12): 512 B. */
  CHECK_EQ_U64(a->num_loop_allocs, 1);
  if (a->num_loop_allocs == 1) {
    CHECK_EQ_U64(a->loop_allocs[0].allocations, 2);
    CHECK_EQ_U64(a->loop_allocs[0].bytes, 512);
    CHECK_EQ_U64(a->loop_allocs[0].loop_id, 2);
    CHECK_EQ_U64(a->loop_allocs[0].alloc_line, 13);
    CHECK_EQ_U64(a->loop_allocs[0].loop_line, 12);
  }
  /* tmp 1 [100, 200) and tmp 2 [300, 400): one 256 B allocation serves
   * both, saving 256 * (2 - 1) = 256 B. */
  CHECK_EQ_U64(a->num_reuse, 1);
  if (a->num_reuse == 1) {
    CHECK_EQ_U64(a->reuse[0].size, 256);
    CHECK_EQ_U64(a->reuse[0].buffers, 2);
    CHECK_EQ_U64(a->reuse[0].max_live, 1);
    CHECK_EQ_U64(a->reuse[0].saving_bytes, 256);
  }
  CHECK_EQ_U64(a->reuse_saving_bytes, 256);
}

static void check_scope_order(const struct pasta_trace_analysis *a) {
  /* Functions and kernels first: kern and main both have 1600 + 1600
   * stride-k + indirect executions, kern runs 4 times, main once; fill has
   * none. Then the loops 5 (3200, 40 entries) and 4 (3200, 4), then loop 2
   * and conditional 6 (0 each, 1 entry each: first appearance). */
  static const uint64_t order[] = {3, 1, 7, 5, 4, 2, 6};
  CHECK_EQ_U64(a->num_scopes, 7);
  size_t wrong = 0;
  for (size_t i = 0; i < a->num_scopes && i < 7; ++i)
    wrong += a->scopes[i].id != order[i];
  CHECK_EQ_U64(wrong, 0);
}

static void check_scopes(const struct pasta_trace_analysis *a) {
  const struct pasta_trace_scope_summary *m = scope(a, 1), *k = scope(a, 3);
  const struct pasta_trace_scope_summary *fill = scope(a, 7);
  const struct pasta_trace_scope_summary *l4 = scope(a, 4), *l5 = scope(a, 5);
  const struct pasta_trace_scope_summary *l2 = scope(a, 2);
  CHECK(m && k && fill && l4 && l5 && l2);
  if (!m || !k || !fill || !l4 || !l5 || !l2)
    return;
  /* main holds loops 2, 4 and 5; the deepest nest is 4 > 5: 2. */
  CHECK_EQ_U64(m->max_loop_nest, 2);
  CHECK_EQ_U64(m->loops, 3);
  /* main: sites fill.31 (r), main.14 (w): 2 unknown, executed 1 + 1 + 1 +
   * 1 = 4; one site of each device class. Buffers data, tmp 1 and tmp 2:
   * 1024 + 256 + 256 = 1536 B. */
  CHECK_EQ_U64(m->static_accesses[PASTA_ACCESS_UNKNOWN], 2);
  CHECK_EQ_U64(m->dynamic_accesses[PASTA_ACCESS_UNKNOWN], 4);
  CHECK_EQ_U64(m->static_accesses[PASTA_ACCESS_STRIDEK], 1);
  CHECK_EQ_U64(m->dynamic_accesses[PASTA_ACCESS_STRIDEK], 1600);
  CHECK_EQ_U64(m->dynamic_accesses[PASTA_ACCESS_INDIRECT], 1600);
  CHECK_EQ_U64(m->dynamic_accesses[PASTA_ACCESS_STRIDE1], 4);
  CHECK_EQ_U64(m->footprint_bytes, 1536);
  CHECK_EQ_U64(m->footprint_buffers, 3);
  CHECK_EQ_U64(m->executions, 1);
  /* The kernel: loops 4 and 5, nest 2, only data: 1024 B. */
  CHECK_EQ_U64(k->executions, 4);
  CHECK_EQ_U64(k->max_loop_nest, 2);
  CHECK_EQ_U64(k->loops, 2);
  CHECK_EQ_U64(k->footprint_bytes, 1024);
  CHECK_EQ_U64(k->static_accesses[PASTA_ACCESS_INDIRECT], 1);
  /* fill, in two places: 1 + 1 executions, one site (main.c:31) read
   * twice, data only. */
  CHECK_EQ_U64(fill->executions, 2);
  CHECK_EQ_U64(fill->static_accesses[PASTA_ACCESS_UNKNOWN], 1);
  CHECK_EQ_U64(fill->dynamic_accesses[PASTA_ACCESS_UNKNOWN], 2);
  CHECK_EQ_U64(fill->footprint_bytes, 1024);
  CHECK_EQ_U64(fill->max_loop_nest, 0);
  /* Loop 4 counts itself and 5: nest 2, one loop inside; 5 alone: 1. */
  CHECK_EQ_U64(l4->max_loop_nest, 2);
  CHECK_EQ_U64(l4->loops, 1);
  CHECK_EQ_U64(l5->max_loop_nest, 1);
  CHECK_EQ_U64(l5->loops, 0);
  CHECK_EQ_U64(l5->executions, 40);
  /* Loop 2: tmp 1 and tmp 2, 512 B; one site written twice. */
  CHECK_EQ_U64(l2->footprint_bytes, 512);
  CHECK_EQ_U64(l2->static_accesses[PASTA_ACCESS_UNKNOWN], 1);
  CHECK_EQ_U64(l2->dynamic_accesses[PASTA_ACCESS_UNKNOWN], 2);
}

static void check_analysis_output(const struct pasta_trace_analysis *a) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return;
  pasta__trace_analysis_print(f, a, 20);
  fputs("\n---\n", f);
  pasta__trace_analysis_json(f, a);
  fclose(f);
  CHECK(text && strstr(text, "peak 1.75 KiB at 100 ns (3 buffers live)"));
  CHECK(text && strstr(text, "never used"));
  CHECK(text && strstr(text, "reuse would save 256 B"));
  char *json = text ? strstr(text, "\n---\n") : NULL;
  json_t *root = json ? json_loads(json + 5, 0, NULL) : NULL;
  CHECK(root != NULL);
  json_t *fp = json_object_get(root, "footprint");
  CHECK_EQ_U64(get_int(fp, "peak_bytes"), 1792);
  CHECK_EQ_U64(get_int(json_object_get(root, "reuse"), "saving_bytes"), 256);
  json_t *s0 = json_array_get(json_object_get(root, "scopes"), 0);
  CHECK(get_str(s0, "scope_type") &&
        !strcmp(get_str(s0, "scope_type"), "parallel"));
  json_t *b1 = json_array_get(json_object_get(root, "buffers"), 1);
  CHECK(b1 && json_is_null(json_object_get(b1, "use_ratio")));
  json_decref(root);
  free(text);
}

/* `a` as JSON, and that JSON parsed (NULL on failure). */
static json_t *analysis_json(const struct pasta_trace_analysis *a) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return NULL;
  pasta__trace_analysis_json(f, a);
  fclose(f);
  json_t *root = json_loads(text, 0, NULL);
  free(text);
  return root;
}

static char *analysis_tables(const struct pasta_trace_analysis *a) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    return NULL;
  pasta__trace_analysis_print(f, a, 20);
  fclose(f);
  return text;
}

/* The analyses written as JSON and read back (trace_json.c, what
 * pasta-report show does) give the same JSON and print the same tables.
 * For the tables BAD_NAME is renamed first: its invalid bytes come back
 * from JSON as U+00XX, which the table shows instead of '?'. */
static void check_read_back(const struct pasta_trace_analysis *a) {
  struct pasta_trace_buffer bufs[8];
  struct pasta_trace_buffer_life lives[8];
  struct pasta_trace_analysis plain = *a;
  CHECK(a->num_lives <= 8);
  for (size_t i = 0; i < a->num_lives && i < 8; ++i) {
    bufs[i] = *a->lives[i].buffer;
    if (!strcmp(bufs[i].name, BAD_NAME))
      bufs[i].name = "unused";
    lives[i] = a->lives[i];
    lives[i].buffer = &bufs[i];
  }
  plain.lives = lives;
  const struct pasta_trace_analysis *both[] = {a, &plain};
  for (int k = 0; k < 2; ++k) {
    json_t *root = analysis_json(both[k]);
    pasta_trace_read r;
    CHECK(root && pasta__trace_analysis_read(root, &r) == 0);
    if (!root)
      continue;
    CHECK_EQ_U64(r.analysis.num_lives, a->num_lives);
    CHECK_EQ_U64(r.analysis.num_scopes, a->num_scopes);
    json_t *again = analysis_json(&r.analysis);
    CHECK(again && json_equal(root, again));
    json_decref(again);
    if (k == 1) {
      char *tables = analysis_tables(&plain);
      char *tables_again = analysis_tables(&r.analysis);
      CHECK(tables && tables_again && strstr(tables, "allocated at") &&
            !strcmp(tables, tables_again));
      free(tables);
      free(tables_again);
    }
    pasta__trace_read_free(&r);
    json_decref(root);
  }
}

static void test_analysis(const struct pasta_trace *t) {
  struct pasta_trace_analysis a;
  CHECK_EQ_INT(pasta__trace_analyze(t, &a), 0);
  check_footprint(&a);
  check_lives(&a);
  check_loops_and_reuse(&a);
  check_scope_order(&a);
  check_scopes(&a);
  check_analysis_output(&a);
  check_read_back(&a);
  pasta__trace_analysis_free(&a);
}

/* Reuse with overlaps, a tie and another kind. 64 B each:
 *   A [0, 50)  B [10, 60)  E [50, 65)  C [70, never)   device
 *   D [80, 90)                                          pinned host
 * At 50 A is freed as E is allocated: frees first, so at most A+B (or B+E)
 * live: max live 2 of 4 device buffers, saving 64 * (4 - 2) = 128 B; D is
 * alone in its kind. Footprint: 128 B first at t 10 (A+B; at 50 it stays
 * 128, at 80 C+D is 128 again); C (64 B) is left. */
static void test_reuse_groups(void) {
  static const struct pasta_trace_buffer b[] = {
      {1, "A", "device", 64, 0, 50, NONE, NONE, 0, "", 0, 0, 0, "", 0},
      {2, "B", "device", 64, 10, 60, NONE, NONE, 0, "", 0, 0, 0, "", 0},
      {3, "C", "device", 64, 70, NONE, NONE, NONE, 0, "", 0, 0, 0, "", 0},
      {4, "D", "pinned host", 64, 80, 90, NONE, NONE, 0, "", 0, 0, 0, "", 0},
      {5, "E", "device", 64, 50, 65, NONE, NONE, 0, "", 0, 0, 0, "", 0},
  };
  struct pasta_trace t = {0};
  t.program = "";
  t.buffers = b;
  t.num_buffers = 5;
  struct pasta_trace_analysis a;
  CHECK_EQ_INT(pasta__trace_analyze(&t, &a), 0);
  CHECK_EQ_U64(a.num_reuse, 1);
  if (a.num_reuse == 1) {
    CHECK_EQ_U64(a.reuse[0].buffers, 4);
    CHECK_EQ_U64(a.reuse[0].max_live, 2);
    CHECK_EQ_U64(a.reuse[0].saving_bytes, 128);
    CHECK(!strcmp(a.reuse[0].kind, "device"));
  }
  CHECK_EQ_U64(a.peak_bytes, 128);
  CHECK_EQ_U64(a.peak_time_ns, 10);
  CHECK_EQ_U64(a.peak_buffers, 2);
  CHECK_EQ_U64(a.final_bytes, 64);
  CHECK_EQ_U64(a.end_ns, 90);
  CHECK_EQ_U64(a.num_scopes, 0);
  CHECK_EQ_U64(a.num_loop_allocs, 0);
  pasta__trace_analysis_free(&a);
}

/* An empty trace: valid, empty documents. */
static void test_empty(void) {
  struct pasta_trace t = {0};
  t.program = "";
  int rc = -1;
  char *text = write_to_string(pasta__cats_write, &t, &rc);
  json_t *root = text ? json_loads(text, 0, NULL) : NULL;
  CHECK(rc == 0 && root &&
        json_array_size(json_object_get(root, "events")) == 0);
  json_decref(root);
  free(text);
  text = write_to_string(pasta__chrome_trace_write, &t, &rc);
  root = text ? json_loads(text, 0, NULL) : NULL;
  CHECK(rc == 0 && root && json_is_array(json_object_get(root, "traceEvents")));
  json_decref(root);
  free(text);
  struct pasta_trace_analysis a;
  CHECK(pasta__trace_analyze(&t, &a) == 0 && a.peak_bytes == 0);
  pasta__trace_analysis_free(&a);
}

int main(int argc, char **argv) {
  struct pasta_trace t = make_trace();
  test_escaping();
  test_cats(&t, argc > 1 ? argv[1] : NULL);
  test_cats_invalid();
  test_chrome(&t, argc > 1 ? argv[1] : NULL);
  test_analysis(&t);
  test_reuse_groups();
  test_empty();
  return check_summary("trace_writers");
}
