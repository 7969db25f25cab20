/*===- profile_read.c - The core of a JSON profile, read back -------------===*
 *
 * Every member that profile_json.c writes, checked and read back; the first
 * error is kept, with where it is ("kernels[3].loads: missing \"global\"").
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "profile_read.h"
#include "demangle.h"
#include "json_read.h"
#include "profile_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reading state: the first error is kept, later ones are ignored. */
struct reader {
  int failed;
  char message[512];
};

static void fail(struct reader *r, const char *fmt, ...) {
  if (r->failed)
    return;
  r->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->message, sizeof r->message, fmt, ap);
  va_end(ap);
}

/*===-- Members -----------------------------------------------------------===*/

static uint64_t get_u64(struct reader *r, json_t *obj, const char *key,
                        const char *where) {
  json_t *v = json_object_get(obj, key);
  if (!v) {
    fail(r, "%s: missing \"%s\"", where, key);
    return 0;
  }
  if (json_is_integer(v) && json_integer_value(v) >= 0)
    return (uint64_t)json_integer_value(v);
  const char *digits = pasta__json_big_digits(v);
  if (digits) {
    errno = 0;
    char *end;
    unsigned long long x = strtoull(digits, &end, 10);
    if (!*end && errno != ERANGE)
      return (uint64_t)x;
    fail(r, "%s: \"%s\" is %s, above 2^64 - 1", where, key, digits);
    return 0;
  }
  fail(r, "%s: \"%s\" is not an unsigned integer", where, key);
  return 0;
}

/* A string, or NULL for JSON null when `nullable`. */
static const char *get_string(struct reader *r, json_t *obj, const char *key,
                              const char *where, int nullable) {
  json_t *v = json_object_get(obj, key);
  if (v && json_is_string(v))
    return json_string_value(v);
  if (v && nullable && json_is_null(v))
    return NULL;
  fail(r, "%s: %s \"%s\"", where, v ? "not a string:" : "missing", key);
  return NULL;
}

/* The object `key` of obj, its members name(0) .. name(n - 1) read into
 * out; a missing object is an error when `required`, else out is left as
 * it is. */
static void get_u64_members(struct reader *r, json_t *obj, const char *key,
                            const char *where, int required, unsigned n,
                            const char *(*name)(unsigned), uint64_t *out) {
  json_t *v = json_object_get(obj, key);
  if (!v && !required)
    return;
  if (!json_is_object(v)) {
    fail(r, "%s: %s \"%s\"", where, v ? "not an object:" : "missing", key);
    return;
  }
  char sub[160];
  snprintf(sub, sizeof sub, "%s.%s", where, key);
  for (unsigned i = 0; i < n; ++i)
    out[i] = get_u64(r, v, name(i), sub);
}

static void get_spaces(struct reader *r, json_t *obj, const char *key,
                       const char *where, uint64_t *out) {
  get_u64_members(r, obj, key, where, 1, PASTA_NUM_SPACES, pasta_space_name,
                  out);
}

static void get_flops(struct reader *r, json_t *obj, const char *where,
                      uint64_t *out) {
  get_u64_members(r, obj, "flops", where, 1, PASTA_NUM_PRECISIONS,
                  pasta_precision_name, out);
}

/* The optional "divergence" object (version 4): every figure, or none. */
static void get_divergence(struct reader *r, json_t *obj, const char *where,
                           uint64_t *out) {
  get_u64_members(r, obj, "divergence", where, 0, PASTA_DIV_NUM, pasta_div_name,
                  out);
}

/* An optional list of divergence figures' names (a line's
 * "divergence_proven", "divergence_measured"), as bits. */
static uint32_t get_figure_list(struct reader *r, json_t *obj, const char *key,
                                const char *where) {
  json_t *v = json_object_get(obj, key);
  if (!v)
    return 0;
  if (!json_is_array(v)) {
    fail(r, "%s: not an array: \"%s\"", where, key);
    return 0;
  }
  uint32_t bits = 0;
  for (size_t i = 0; i < json_array_size(v); ++i) {
    const char *name = json_string_value(json_array_get(v, i));
    unsigned f = 0;
    while (f < PASTA_DIV_NUM && name && strcmp(name, pasta_div_name(f)) != 0)
      ++f;
    if (f == PASTA_DIV_NUM) {
      fail(r,
           "%s: \"%s\" holds something that is no divergence figure's "
           "name",
           where, key);
      return 0;
    }
    bits |= 1u << f;
  }
  return bits;
}

/* A "line" member: an unsigned integer of 32 bits. */
static uint32_t get_line_number(struct reader *r, json_t *obj,
                                const char *where) {
  uint64_t line = get_u64(r, obj, "line", where);
  if (line > UINT32_MAX)
    fail(r, "%s: \"line\" is out of range", where);
  return (uint32_t)line;
}

static int parse_kind(const char *s, uint32_t *kind) {
  for (uint32_t k = PASTA_FUNC_KERNEL; k <= PASTA_FUNC_HOST; ++k)
    if (s && strcmp(s, pasta_kind_name(k)) == 0) {
      *kind = k;
      return 1;
    }
  return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

/* "YYYY-MM-DDTHH:MM:SSZ" to seconds since the epoch. */
static int parse_time(const char *s, int64_t *out) {
  int y, mo, d, h, mi, se, n = 0;
  if (!s || strlen(s) != 20 ||
      sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &se, &n) !=
          6 ||
      n != 20 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
      se > 60)
    return 0;
  *out = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 +
         mi * 60 + se;
  return 1;
}

/* A "created" member, which must be there. */
static int64_t get_created(struct reader *r, json_t *obj, const char *where) {
  const char *text = get_string(r, obj, "created", where, 0);
  int64_t created = 0;
  if (text && !parse_time(text, &created))
    fail(r, "%s: \"created\" is not YYYY-MM-DDTHH:MM:SSZ", where);
  return created;
}

/* A rank, size or local rank: a number, or null (-1). */
static int64_t get_job_number(struct reader *r, json_t *obj, const char *key,
                              const char *where) {
  json_t *v = json_object_get(obj, key);
  if (json_is_null(v))
    return -1;
  if (!json_is_integer(v) || json_integer_value(v) < 0) {
    fail(r, "%s: \"%s\" is not a number or null", where, key);
    return -1;
  }
  return json_integer_value(v);
}

/* A "job" member (optional: profiles before version 3 and merged profiles
 * have none). `gpus` gets room for the GPUs (freed by the caller). */
static void get_job(struct reader *r, json_t *obj, const char *where,
                    pasta_profile_job *job, pasta_profile_gpu **gpus) {
  memset(job, 0, sizeof *job);
  job->rank = job->size = job->local_rank = -1;
  *gpus = NULL;
  json_t *v = json_object_get(obj, "job");
  if (!v || json_is_null(v))
    return;
  char sub[96];
  snprintf(sub, sizeof sub, "%s.job", where);
  if (!json_is_object(v)) {
    fail(r, "%s: not an object", sub);
    return;
  }
  job->rank = get_job_number(r, v, "rank", sub);
  job->size = get_job_number(r, v, "size", sub);
  job->local_rank = get_job_number(r, v, "local_rank", sub);
  job->launcher = get_string(r, v, "launcher", sub, 1);
  job->host = get_string(r, v, "host", sub, 1);
  json_t *list = json_object_get(v, "gpus");
  if (!json_is_array(list)) {
    fail(r, "%s: %s \"gpus\"", sub, list ? "not an array:" : "missing");
    return;
  }
  size_t n = json_array_size(list);
  *gpus = calloc(n ? n : 1, sizeof **gpus);
  if (!*gpus) {
    fail(r, "%s", strerror(ENOMEM));
    return;
  }
  for (size_t i = 0; i < n && !r->failed; ++i) {
    char at[128];
    snprintf(at, sizeof at, "%s.gpus[%zu]", sub, i);
    json_t *g = json_array_get(list, i);
    uint64_t index = get_u64(r, g, "index", at);
    if (index > INT32_MAX)
      fail(r, "%s: \"index\" is out of range", at);
    (*gpus)[i] =
        (pasta_profile_gpu){(int)index, get_string(r, g, "uuid", at, 1)};
  }
  job->gpus = *gpus;
  job->num_gpus = n;
}

/* A "ranks" member of an entry of a merged profile (optional). Each count's
 * spread must be possible: min <= max <= the entry's total, and the process
 * holding the max one of the profile's. `mean`, `imbalance` and `max_rank`
 * follow from these and are not read. Returns `stats`, or NULL without. */
static const pasta_rank_stats *
get_ranks(struct reader *r, json_t *e, const char *where, const char *work_key,
          uint64_t work, const pasta_counts *c, size_t processes,
          pasta_rank_stats *stats) {
  json_t *v = json_object_get(e, "ranks");
  if (!v)
    return NULL;
  char sub[128];
  snprintf(sub, sizeof sub, "%s.ranks", where);
  if (!json_is_object(v) || !processes) {
    fail(r, "%s: %s", sub,
         processes ? "not an object" : "in a profile that is not merged");
    return NULL;
  }
  const char *keys[PASTA_NUM_RANK_METRICS] = {work_key, "bytes", "flops"};
  for (unsigned m = 0; m < PASTA_NUM_RANK_METRICS && !r->failed; ++m) {
    json_t *o = json_object_get(v, keys[m]);
    char at[160];
    snprintf(at, sizeof at, "%s.%s", sub, keys[m]);
    if (!json_is_object(o)) {
      fail(r, "%s: %s", at, o ? "not an object" : "missing");
      break;
    }
    pasta_rank_spread *s = &stats->metric[m];
    s->min = get_u64(r, o, "min", at);
    s->max = get_u64(r, o, "max", at);
    s->max_process = get_u64(r, o, "max_process", at);
    uint64_t total = pasta_rank_metric_value(m, work, c);
    if (!r->failed && (s->min > s->max || s->max > total))
      fail(r,
           "%s: min %" PRIu64 " and max %" PRIu64
           " do not fit the total %" PRIu64,
           at, s->min, s->max, total);
    if (!r->failed && s->max_process >= processes)
      fail(r,
           "%s: \"max_process\" %" PRIu64 " is not one of the %zu "
           "processes of merged_from",
           at, s->max_process, processes);
  }
  return r->failed ? NULL : stats;
}

/*===-- Entries -----------------------------------------------------------===*/

static void get_func(struct reader *r, json_t *e, uint32_t kind,
                     const char *where, size_t processes,
                     pasta_rank_stats *ranks, pasta_profile_func *f) {
  memset(f, 0, sizeof *f);
  if (!json_is_object(e)) {
    fail(r, "%s: not an object", where);
    return;
  }
  f->kind = kind;
  f->name = get_string(r, e, "name", where, 0);
  f->mangled = get_string(r, e, "mangled", where, 0);
  f->module = get_string(r, e, "module", where, 1);
  f->file = get_string(r, e, "file", where, 1);
  f->line = get_line_number(r, e, where);
  f->calls =
      get_u64(r, e, kind == PASTA_FUNC_KERNEL ? "launches" : "calls", where);
  pasta_counts *c = &f->counts;
#define PASTA_X(name, on_lines) get_spaces(r, e, #name, where, c->name);
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  get_flops(r, e, where, c->flops);
  c->special = get_u64(r, e, "special", where);
  get_divergence(r, e, where, f->div);
  if (!r->failed)
    f->ranks =
        get_ranks(r, e, where, kind == PASTA_FUNC_KERNEL ? "launches" : "calls",
                  f->calls, c, processes, ranks);
}

static void get_line(struct reader *r, json_t *e, const char *where,
                     size_t processes, pasta_rank_stats *ranks,
                     pasta_profile_line *l) {
  memset(l, 0, sizeof *l);
  if (!json_is_object(e)) {
    fail(r, "%s: not an object", where);
    return;
  }
  l->file = get_string(r, e, "file", where, 1);
  l->line = get_line_number(r, e, where);
  l->function = get_string(r, e, "function", where, 0);
  const char *kind = get_string(r, e, "kind", where, 0);
  if (kind && !parse_kind(kind, &l->kind))
    fail(r, "%s: unknown \"kind\" \"%s\"", where, kind);
  l->executions = get_u64(r, e, "executions", where);
#define PASTA_X(name, on_lines)                                                \
  if (on_lines)                                                                \
    get_spaces(r, e, #name, where, l->counts.name);
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  get_flops(r, e, where, l->counts.flops);
  l->counts.special = get_u64(r, e, "special", where);
  get_divergence(r, e, where, l->div);
  l->div_proven = get_figure_list(r, e, "divergence_proven", where);
  l->div_measured = get_figure_list(r, e, "divergence_measured", where);
  if (!r->failed)
    l->ranks = get_ranks(r, e, where, "executions", l->executions, &l->counts,
                         processes, ranks);
}

static int add_status(struct reader *r, int status, const char *where) {
  if (status != PASTA_PROFILE_OK)
    fail(r, "%s: %s", where, pasta_profile_strerror(status));
  return !r->failed;
}

/*===-- The document ------------------------------------------------------===*/

static void check_schema(struct reader *r, json_t *root) {
  json_t *schema = json_object_get(root, "schema");
  json_t *version = json_object_get(root, "version");
  if (!json_is_object(root) || !json_is_string(schema) ||
      strcmp(json_string_value(schema), PASTA_PROFILE_SCHEMA) != 0) {
    fail(r, "not a PASTA profile (\"schema\" is not \"%s\")",
         PASTA_PROFILE_SCHEMA);
  } else if (!json_is_integer(version) ||
             json_integer_value(version) < PASTA_PROFILE_VERSION_OLDEST ||
             json_integer_value(version) > PASTA_PROFILE_VERSION) {
    char got[32] = "not an integer";
    if (json_is_integer(version))
      snprintf(got, sizeof got, "%" JSON_INTEGER_FORMAT,
               json_integer_value(version));
    fail(r,
         "unsupported profile version (%s): this pasta-report reads "
         "versions %d to %d",
         got, PASTA_PROFILE_VERSION_OLDEST, PASTA_PROFILE_VERSION);
  }
}

static void read_header(struct reader *r, json_t *root, pasta_profile *p) {
  const char *program = get_string(r, root, "program", "profile", 0);
  uint64_t pid = get_u64(r, root, "pid", "profile");
  int64_t created = get_created(r, root, "profile");
  if (!r->failed && pasta_profile_set_info(p, program, pid, created))
    fail(r, "%s", strerror(ENOMEM));
  pasta_profile_job job;
  pasta_profile_gpu *gpus;
  get_job(r, root, "profile", &job, &gpus);
  if (!r->failed && pasta_profile_set_job(p, &job))
    fail(r, "%s", strerror(ENOMEM));
  free(gpus);
}

static void read_funcs(struct reader *r, json_t *root,
                       const pasta_profile_keep *keep, pasta_profile *p) {
  static const struct {
    const char *key;
    uint32_t kind;
  } sections[] = {{"kernels", PASTA_FUNC_KERNEL},
                  {"device_functions", PASTA_FUNC_DEVICE},
                  {"host_functions", PASTA_FUNC_HOST}};
  for (unsigned s = 0; s < 3 && !r->failed; ++s) {
    json_t *array = json_object_get(root, sections[s].key);
    if (!json_is_array(array)) {
      fail(r, "profile: %s \"%s\"", array ? "not an array:" : "missing",
           sections[s].key);
      break;
    }
    for (size_t i = 0; i < json_array_size(array) && !r->failed; ++i) {
      char where[96];
      snprintf(where, sizeof where, "%s[%zu]", sections[s].key, i);
      pasta_profile_func f;
      pasta_rank_stats ranks;
      get_func(r, json_array_get(array, i), sections[s].kind, where,
               p->num_merged_from, &ranks, &f);
      if (!r->failed && (!keep || !keep->func || keep->func(&f, keep->arg)))
        add_status(r, pasta_profile_add_func(p, &f), where);
    }
  }
}

static void read_lines(struct reader *r, json_t *root,
                       const pasta_profile_keep *keep, pasta_profile *p) {
  json_t *lines = json_object_get(root, "lines");
  if (!r->failed && !json_is_array(lines))
    fail(r, "profile: %s \"lines\"", lines ? "not an array:" : "missing");
  for (size_t i = 0; !r->failed && i < json_array_size(lines); ++i) {
    char where[96];
    snprintf(where, sizeof where, "lines[%zu]", i);
    pasta_profile_line l;
    pasta_rank_stats ranks;
    get_line(r, json_array_get(lines, i), where, p->num_merged_from, &ranks,
             &l);
    if (!r->failed && (!keep || !keep->line || keep->line(p, &l, keep->arg)))
      add_status(r, pasta_profile_add_line(p, &l), where);
  }
}

/* "merged_from": the processes of a merged profile (optional). */
static void read_sources(struct reader *r, json_t *root, pasta_profile *p) {
  json_t *from = json_object_get(root, "merged_from");
  if (!r->failed && from && !json_is_array(from))
    fail(r, "profile: \"merged_from\" is not an array");
  for (size_t i = 0; !r->failed && i < json_array_size(from); ++i) {
    char where[96];
    snprintf(where, sizeof where, "merged_from[%zu]", i);
    json_t *e = json_array_get(from, i);
    pasta_profile_source src;
    memset(&src, 0, sizeof src);
    if (!json_is_object(e)) {
      fail(r, "%s: not an object", where);
      break;
    }
    src.file = get_string(r, e, "file", where, 1);
    src.program = get_string(r, e, "program", where, 1);
    src.pid = get_u64(r, e, "pid", where);
    src.created = get_created(r, e, where);
    pasta_profile_gpu *gpus;
    get_job(r, e, where, &src.job, &gpus);
    if (!r->failed)
      add_status(r, pasta_profile_add_source(p, &src), where);
    free(gpus);
  }
}

/* "omitted": how many entries did not run and are not listed (version 5;
 * optional, all 0 without it). */
static void read_omitted(struct reader *r, json_t *root, pasta_profile *p) {
  json_t *o = json_object_get(root, "omitted");
  if (r->failed || !o)
    return;
  if (!json_is_object(o)) {
    fail(r, "profile: \"omitted\" is not an object");
    return;
  }
  p->omitted.device_functions =
      get_u64(r, o, "device_functions", "profile: omitted");
  p->omitted.host_functions =
      get_u64(r, o, "host_functions", "profile: omitted");
  p->omitted.lines = get_u64(r, o, "lines", "profile: omitted");
}

/* "uncounted": what the counts miss (optional); a merged profile keeps
 * every input's lines, each once. */
static void read_uncounted(struct reader *r, json_t *root, pasta_profile *p) {
  json_t *notes = json_object_get(root, "uncounted");
  if (!r->failed && notes && !json_is_array(notes))
    fail(r, "profile: \"uncounted\" is not an array");
  for (size_t i = 0; !r->failed && i < json_array_size(notes); ++i) {
    json_t *note = json_array_get(notes, i);
    if (!json_is_string(note)) {
      fail(r, "profile: uncounted[%zu] is not a string", i);
      break;
    }
    add_status(r, pasta_profile_add_uncounted(p, json_string_value(note)),
               "profile: uncounted");
  }
}

int pasta__profile_read_json(json_t *root, const pasta_profile_keep *keep,
                             pasta_profile *p, char *err, size_t size) {
  struct reader r = {0, ""};
  check_schema(&r, root);
  read_header(&r, root, p);
  read_sources(&r, root, p); /* first: the entries' "ranks" refer to them */
  read_omitted(&r, root, p);
  read_uncounted(&r, root, p);
  read_funcs(&r, root, keep, p);
  read_lines(&r, root, keep, p);
  if (!r.failed)
    add_status(&r, pasta_profile_finalize(p), "profile");
  if (!r.failed)
    return 0;
  snprintf(err, size, "%s", r.message);
  pasta_profile_free(p);
  return -1;
}

/*===-- Names -------------------------------------------------------------===*/

/* Replaces string `member` by its demangled form when it has one. */
static void demangle_string(json_t *member) {
  char *plain = pasta_demangle(json_string_value(member));
  if (plain)
    json_string_set(member, plain);
  free(plain);
}

void pasta__profile_json_demangle(json_t *v) {
  static const char *const keys[] = {"name", "function", "kernel", "funcname"};
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); ++i)
      pasta__profile_json_demangle(json_array_get(v, i));
    return;
  }
  const char *key;
  json_t *member;
  json_object_foreach(v, key, member) {
    if (!json_is_string(member)) {
      pasta__profile_json_demangle(member);
      continue;
    }
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
      if (strcmp(key, keys[k]) == 0)
        demangle_string(member);
  }
}
