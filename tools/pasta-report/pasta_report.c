/*===- pasta_report.c - Offline tool over PASTA JSON profiles -------------===*
 *
 *   pasta-report show PROFILE [--kernel REGEX] [--file SUBSTR] [--top N]
 *                             [--format table|csv|json] [--lines]
 *   pasta-report merge OUT.json INPUT... [--force]   (profiles, directories
 *                                                     of them, patterns)
 *   pasta-report diff BEFORE.json AFTER.json [--top N]
 *
 * Reads profiles (docs/profile-format.md, versions 1 and 2) with jansson into
 *the runtime's own model (profile.h, through pasta_profile_add_func/_line), so
 * `show` prints the same tables as an instrumented program and `--format
 * json` and `merge` write through the same JSON writer. The launch, memory,
 * working-set and bandwidth sections are merged and diffed by
 * report_activity.c, the trace analyses by report_trace.c, on the parsed
 * documents; `show` renders them with the runtime's table writers, writes
 * them back as they were read (--format json) or as CSV blocks
 * (report_csv.c), with its filters applied to their per-kernel rows and
 * scopes. Exit status: 0, 2 for a bad command line or an input that cannot
 * be read, 1 when the output cannot be written. Every error is one line:
 * "pasta-report: error: ...".
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "analyzers/bandwidth/bandwidth_report.h"
#include "analyzers/kernels/kernel_tables.h"
#include "analyzers/tables/tables.h"
#include "analyzers/working_set/ws_tables.h"
#include "host_rt/symbolize.h"
#include "pasta/profile.h"
#include "profile/activity_read.h"
#include "profile/demangle.h"
#include "profile/json_write.h"
#include "profile/output_file.h"
#include "profile/profile_json.h"
#include "profile/text_table.h"
#include "profile/ws_stats.h"
#include "report_activity.h"
#include "report_csv.h"
#include "report_trace.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <jansson.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage_text[] =
    "usage: pasta-report show PROFILE [--kernel REGEX] [--file SUBSTR] "
    "[--top N]\n"
    "                         [--format table|csv|json] [--lines]\n"
    "       pasta-report merge OUT.json INPUT... [--force]\n"
    "       pasta-report diff BEFORE.json AFTER.json [--top N]\n"
    "       (each also takes --search-dir DIR, repeatable)\n"
    "       pasta-report --help\n";

static const char help_text[] =
    "\n"
    "show   re-renders a profile: the tables an instrumented program prints "
    "(table,\n"
    "       the default), one CSV table of kernels, device and host "
    "functions\n"
    "       (csv; with --lines the line table instead) followed by one CSV "
    "block\n"
    "       per section (launches, memory, working_set, bandwidth, "
    "trace.*), or\n"
    "       the profile itself with all its sections (json).\n"
    "       --kernel REGEX  functions whose name or mangled name matches "
    "(POSIX ERE),\n"
    "                       the lines of those functions, their launch, "
    "working-set\n"
    "                       and bandwidth rows, and the trace scopes of "
    "matching\n"
    "                       functions\n"
    "       --file SUBSTR   the same for functions, lines and scopes whose "
    "file\n"
    "                       contains SUBSTR\n"
    "       --top N         lines shown (table: default 20; csv, json: all)\n"
    "merge  sums several profiles (one per process, rank or GPU) into "
    "OUT.json:\n"
    "       functions by (kind, mangled name, module), lines by (file, "
    "line,\n"
    "       function, kind); launches, GPU times, memory and working sets "
    "too\n"
    "       (bandwidth is recomputed from the sums; docs/profile-format.md "
    "has\n"
    "       the rules); trace analyses stay one per process (\"traces\"); "
    "the\n"
    "       inputs are listed under \"merged_from\".\n"
    "       An INPUT is a profile, a directory (its *.json files, by name) "
    "or a\n"
    "       quoted pattern ('ranks/*.json'), so any number of inputs fit; "
    "they are\n"
    "       read one at a time. OUT.json must not exist unless --force is "
    "given\n"
    "       (and is never an input).\n"
    "diff   compares two profiles function by function: kernels "
    "(launches, global\n"
    "       bytes, FLOPs, special), device functions (calls, global bytes, "
    "...) and\n"
    "       host functions (calls, bytes, ...), matched by mangled name; "
    "lists the N\n"
    "       lines (--top, default 10) whose bytes + FLOPs\n"
    "       changed most, then compares launches, GPU time, bandwidth and\n"
    "       working sets per kernel, the memory totals, and the trace "
    "analyses'\n"
    "       peak footprint and per-scope stride-k and indirect accesses.\n"
    "\n"
    "Call paths: frames the program could not resolve where it ran (no\n"
    "libdwarf there) are resolved here from their recorded module, build id\n"
    "and address, reading the module's symbols and DWARF: from its recorded\n"
    "path, else from a file of the same name and build id, else of the same\n"
    "build id, under a --search-dir DIR (three levels deep).\n";

static void error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pasta-report: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* A command-line error: one line naming the problem, then the usage. */
static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pasta-report: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fputs(usage_text, stderr);
  return 2;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

/*===-- Reading profiles --------------------------------------------------===*/

/* Integers above INT64_MAX are valid in a profile (counts are unsigned
 * 64-bit), but jansson rejects them. Before parsing, such tokens outside
 * strings become strings with PASTA_JSON_BIG_PREFIX (activity_json.h),
 * which get_u64 and the activity readers accept. */
#define BIG_PREFIX PASTA_JSON_BIG_PREFIX
#define BIG_PREFIX_JSON "\\u0001u64:"

static char *quote_big_integers(const char *text, size_t len, size_t *out_len) {
  size_t cap = 2 * len + 1;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  size_t o = 0;
  int in_string = 0;
  for (size_t i = 0; i < len;) {
    char c = text[i];
    if (in_string) {
      out[o++] = c;
      ++i;
      if (c == '\\' && i < len)
        out[o++] = text[i++];
      else if (c == '"')
        in_string = 0;
      continue;
    }
    if (c == '"') {
      in_string = 1;
      out[o++] = text[i++];
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      out[o++] = text[i++];
      continue;
    }
    size_t start = i;
    int digits = 1;
    for (; i < len && text[i] && strchr("-+.eE0123456789", text[i]); ++i)
      digits &= text[i] >= '0' && text[i] <= '9';
    size_t n = i - start;
    int big = digits &&
              (n > 19 || (n == 19 &&
                          memcmp(text + start, "9223372036854775807", 19) > 0));
    if (big) {
      o += (size_t)sprintf(out + o, "\"%s", BIG_PREFIX_JSON);
      memcpy(out + o, text + start, n);
      o += n;
      out[o++] = '"';
    } else {
      memcpy(out + o, text + start, n);
      o += n;
    }
  }
  out[o] = '\0';
  *out_len = o;
  return out;
}

/* The whole file, NUL-terminated; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n - 1, f);
    if (ferror(f)) {
      int e = errno ? errno : EIO;
      free(buf);
      fclose(f);
      errno = e;
      return NULL;
    }
    if (feof(f))
      break;
    char *bigger = cap > (size_t)-1 / 2 ? NULL : realloc(buf, cap * 2);
    if (!bigger) {
      free(buf);
      buf = NULL;
      errno = ENOMEM;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  fclose(f);
  if (buf) {
    buf[n] = '\0';
    *len = n;
  }
  return buf;
}

/* Reading state: the first error is kept, later ones are ignored. */
struct reader {
  const char *path;
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

static uint64_t get_u64(struct reader *r, json_t *obj, const char *key,
                        const char *where) {
  json_t *v = json_object_get(obj, key);
  if (!v) {
    fail(r, "%s: missing \"%s\"", where, key);
    return 0;
  }
  if (json_is_integer(v) && json_integer_value(v) >= 0)
    return (uint64_t)json_integer_value(v);
  const char *s = json_string_value(v);
  size_t plen = strlen(BIG_PREFIX);
  if (s && strncmp(s, BIG_PREFIX, plen) == 0) {
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s + plen, &end, 10);
    if (!*end && errno != ERANGE)
      return (uint64_t)x;
    fail(r, "%s: \"%s\" is %s, above 2^64 - 1", where, key, s + plen);
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

static void get_spaces(struct reader *r, json_t *obj, const char *key,
                       const char *where, uint64_t *out) {
  json_t *v = json_object_get(obj, key);
  if (!json_is_object(v)) {
    fail(r, "%s: %s \"%s\"", where, v ? "not an object:" : "missing", key);
    return;
  }
  char sub[160];
  snprintf(sub, sizeof sub, "%s.%s", where, key);
  for (unsigned s = 0; s < PASTA_NUM_SPACES; ++s)
    out[s] = get_u64(r, v, pasta_space_name(s), sub);
}

static void get_flops(struct reader *r, json_t *obj, const char *where,
                      uint64_t *out) {
  json_t *v = json_object_get(obj, "flops");
  if (!json_is_object(v)) {
    fail(r, "%s: %s \"flops\"", where, v ? "not an object:" : "missing");
    return;
  }
  char sub[160];
  snprintf(sub, sizeof sub, "%s.flops", where);
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    out[i] = get_u64(r, v, pasta_precision_name(i), sub);
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

static void get_func(struct reader *r, json_t *e, uint32_t kind,
                     const char *where, pasta_profile_func *f) {
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
  uint64_t line = get_u64(r, e, "line", where);
  if (line > UINT32_MAX)
    fail(r, "%s: \"line\" is out of range", where);
  f->line = (uint32_t)line;
  f->calls =
      get_u64(r, e, kind == PASTA_FUNC_KERNEL ? "launches" : "calls", where);
  pasta_counts *c = &f->counts;
  get_spaces(r, e, "loads", where, c->loads);
  get_spaces(r, e, "stores", where, c->stores);
  get_spaces(r, e, "load_bytes", where, c->load_bytes);
  get_spaces(r, e, "store_bytes", where, c->store_bytes);
  get_spaces(r, e, "atomics", where, c->atomics);
  get_spaces(r, e, "atomic_bytes", where, c->atomic_bytes);
  get_flops(r, e, where, c->flops);
  c->special = get_u64(r, e, "special", where);
}

static void get_line(struct reader *r, json_t *e, const char *where,
                     pasta_profile_line *l) {
  memset(l, 0, sizeof *l);
  if (!json_is_object(e)) {
    fail(r, "%s: not an object", where);
    return;
  }
  l->file = get_string(r, e, "file", where, 1);
  uint64_t line = get_u64(r, e, "line", where);
  if (line > UINT32_MAX)
    fail(r, "%s: \"line\" is out of range", where);
  l->line = (uint32_t)line;
  l->function = get_string(r, e, "function", where, 0);
  const char *kind = get_string(r, e, "kind", where, 0);
  if (kind && !parse_kind(kind, &l->kind))
    fail(r, "%s: unknown \"kind\" \"%s\"", where, kind);
  l->executions = get_u64(r, e, "executions", where);
  get_spaces(r, e, "load_bytes", where, l->counts.load_bytes);
  get_spaces(r, e, "store_bytes", where, l->counts.store_bytes);
  get_spaces(r, e, "atomic_bytes", where, l->counts.atomic_bytes);
  get_flops(r, e, where, l->counts.flops);
  l->counts.special = get_u64(r, e, "special", where);
}

/* What `show` keeps. */
struct filter {
  regex_t *regex;   /* over display and mangled names, or NULL */
  const char *file; /* substring of the file (or module), or NULL */
};

static int matches(const regex_t *re, const char *s) {
  return s && regexec(re, s, 0, NULL, 0) == 0;
}

/* Any of the strings may be NULL (then it matches nothing). */
static int keep_names(const struct filter *flt, const char *name,
                      const char *mangled, const char *file,
                      const char *module) {
  if (flt->regex && !matches(flt->regex, name) && !matches(flt->regex, mangled))
    return 0;
  if (flt->file && !(file && strstr(file, flt->file)) &&
      !(module && strstr(module, flt->file)))
    return 0;
  return 1;
}

static int keep_func(const struct filter *flt, const pasta_profile_func *f) {
  return keep_names(flt, f->name, f->mangled, f->file, f->module);
}

/* Lines carry display names only: a line is kept when its function's name
 * matches, or is the name of a function that was kept (so a regex over
 * mangled names selects lines too). */
static int keep_line(const struct filter *flt, const pasta_profile *p,
                     const pasta_profile_line *l) {
  if (flt->file && !(l->file && strstr(l->file, flt->file)))
    return 0;
  if (!flt->regex || matches(flt->regex, l->function))
    return 1;
  const pasta_profile_func *arrays[] = {p->kernels, p->device_functions,
                                        p->host_functions};
  size_t counts[] = {p->num_kernels, p->num_device_functions,
                     p->num_host_functions};
  for (unsigned a = 0; a < 3; ++a)
    for (size_t i = 0; i < counts[a]; ++i)
      if (strcmp(arrays[a][i].name, l->function) == 0)
        return 1;
  return 0;
}

static int add_status(struct reader *r, int status, const char *where) {
  if (status != PASTA_PROFILE_OK)
    fail(r, "%s: %s", where, pasta_profile_strerror(status));
  return !r->failed;
}

/* Width of names in the diff tables (demangle.h shortens longer ones). */
enum { REPORT_NAME_WIDTH = 48 };

/* Names a profile shows to people ("name", "function", "kernel",
 * "funcname" members) are demangled by the runtime when the program had a
 * C++ runtime; otherwise they are still the symbols. This tool always has
 * one (demangle.c), so every such string that demangles is replaced, in
 * place: the same symbol gives the same name everywhere, so the sections
 * that refer to each other by name still agree. "mangled" is left alone. */
static void demangle_names(json_t *v) {
  static const char *const keys[] = {"name", "function", "kernel", "funcname"};
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); ++i)
      demangle_names(json_array_get(v, i));
    return;
  }
  const char *key;
  json_t *member;
  json_object_foreach(v, key, member) {
    if (!json_is_string(member)) {
      demangle_names(member);
      continue;
    }
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
      if (strcmp(key, keys[k]) != 0)
        continue;
      char *plain = pasta_demangle(json_string_value(member));
      if (plain)
        json_string_set(member, plain);
      free(plain);
    }
  }
}

/* --search-dir values, for the call-path symbolizer. */
static const char *search_dirs[17];
static size_t num_search_dirs;

/* The symbolizer for call paths, opened on first use (see symbolize.h). */
static pasta_symbolizer *frames_symbolizer;
static int frames_symbolizer_failed;

static void close_frames_symbolizer(void) {
  pasta_symbolizer_close(frames_symbolizer);
  frames_symbolizer = NULL;
}

static pasta_symbolizer *symbolizer(void) {
  if (!frames_symbolizer && !frames_symbolizer_failed) {
    frames_symbolizer = pasta_symbolizer_open();
    if (!frames_symbolizer ||
        pasta_symbolizer_set_search_dirs(frames_symbolizer, search_dirs)) {
      close_frames_symbolizer();
      frames_symbolizer_failed = 1;
    } else {
      atexit(close_frames_symbolizer);
    }
  }
  return frames_symbolizer;
}

static const char *member_str(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* Resolves, in place, the call-path frames (any "frames" array) that the
 * program left without file or function but with the module, build id and
 * address to find them by (profile version 2). Frames the runtime resolved
 * stay as they are. */
static void symbolize_frames(json_t *v) {
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); ++i)
      symbolize_frames(json_array_get(v, i));
    return;
  }
  const char *key;
  json_t *member;
  json_object_foreach(v, key, member) {
    if (strcmp(key, "frames") != 0 || !json_is_array(member)) {
      if (json_is_object(member) || json_is_array(member))
        symbolize_frames(member);
      continue;
    }
    for (size_t i = 0; i < json_array_size(member); ++i) {
      json_t *f = json_array_get(member, i);
      json_t *vaddr = json_object_get(f, "vaddr");
      if (!json_is_integer(vaddr) || json_integer_value(vaddr) <= 0 ||
          !member_str(f, "object") ||
          (member_str(f, "file") && member_str(f, "function")) || !symbolizer())
        continue;
      pasta_frame_loc loc = {member_str(f, "object"), member_str(f, "build_id"),
                             0, (uint64_t)json_integer_value(vaddr)};
      json_t *offset = json_object_get(f, "offset");
      if (json_is_integer(offset))
        loc.offset = (uint64_t)json_integer_value(offset);
      pasta_symbol s;
      if (pasta_symbolize_loc(frames_symbolizer, &loc, &s) != 0)
        continue;
      if (s.function && !member_str(f, "function"))
        json_object_set_new(f, "function", json_string(s.function));
      if (s.file && s.line) {
        json_object_set_new(f, "file", json_string(s.file));
        json_object_set_new(f, "line", json_integer(s.line));
      }
    }
  }
}

/* Reads `path` into `p` (initialised here, finalized on success), keeping
 * what `flt` (may be NULL) selects. With `parsed`, the parsed document (big
 * integers quoted, see above) is left there for the caller to read the
 * launch, memory, working-set and bandwidth sections from (json_decref
 * it). Returns 0, or 2 after printing one error line. */
static int load_profile(const char *path, const struct filter *flt,
                        pasta_profile *p, json_t **parsed) {
  pasta_profile_init(p);
  size_t len = 0, qlen = 0;
  char *text = read_file(path, &len);
  if (!text) {
    error("%s: %s", path, strerror(errno));
    return 2;
  }
  char *quoted = quote_big_integers(text, len, &qlen);
  free(text);
  if (!quoted) {
    error("%s: %s", path, strerror(ENOMEM));
    return 2;
  }
  json_error_t jerr;
  json_t *root = json_loadb(quoted, qlen, JSON_REJECT_DUPLICATES, &jerr);
  free(quoted);
  if (!root) {
    error("%s: not valid JSON (line %d, column %d: %s)", path, jerr.line,
          jerr.column, jerr.text);
    return 2;
  }
  struct reader r = {path, 0, ""};
  symbolize_frames(root);
  demangle_names(root);
  json_t *schema = json_object_get(root, "schema");
  json_t *version = json_object_get(root, "version");
  if (!json_is_object(root) || !json_is_string(schema) ||
      strcmp(json_string_value(schema), PASTA_PROFILE_SCHEMA) != 0) {
    fail(&r, "not a PASTA profile (\"schema\" is not \"%s\")",
         PASTA_PROFILE_SCHEMA);
  } else if (!json_is_integer(version) ||
             json_integer_value(version) < PASTA_PROFILE_VERSION_OLDEST ||
             json_integer_value(version) > PASTA_PROFILE_VERSION) {
    char got[32] = "not an integer";
    if (json_is_integer(version))
      snprintf(got, sizeof got, "%" JSON_INTEGER_FORMAT,
               json_integer_value(version));
    fail(&r,
         "unsupported profile version (%s): this pasta-report reads "
         "versions %d to %d",
         got, PASTA_PROFILE_VERSION_OLDEST, PASTA_PROFILE_VERSION);
  }

  const char *program = get_string(&r, root, "program", "profile", 0);
  uint64_t pid = get_u64(&r, root, "pid", "profile");
  const char *created_text = get_string(&r, root, "created", "profile", 0);
  int64_t created = 0;
  if (created_text && !parse_time(created_text, &created))
    fail(&r, "profile: \"created\" is not YYYY-MM-DDTHH:MM:SSZ");
  if (!r.failed && pasta_profile_set_info(p, program, pid, created))
    fail(&r, "%s", strerror(ENOMEM));

  static const struct {
    const char *key;
    uint32_t kind;
  } sections[] = {{"kernels", PASTA_FUNC_KERNEL},
                  {"device_functions", PASTA_FUNC_DEVICE},
                  {"host_functions", PASTA_FUNC_HOST}};
  for (unsigned s = 0; s < 3 && !r.failed; ++s) {
    json_t *array = json_object_get(root, sections[s].key);
    if (!json_is_array(array)) {
      fail(&r, "profile: %s \"%s\"", array ? "not an array:" : "missing",
           sections[s].key);
      break;
    }
    for (size_t i = 0; i < json_array_size(array) && !r.failed; ++i) {
      char where[96];
      snprintf(where, sizeof where, "%s[%zu]", sections[s].key, i);
      pasta_profile_func f;
      get_func(&r, json_array_get(array, i), sections[s].kind, where, &f);
      if (!r.failed && (!flt || keep_func(flt, &f)))
        add_status(&r, pasta_profile_add_func(p, &f), where);
    }
  }
  json_t *lines = json_object_get(root, "lines");
  if (!r.failed && !json_is_array(lines))
    fail(&r, "profile: %s \"lines\"", lines ? "not an array:" : "missing");
  for (size_t i = 0; !r.failed && i < json_array_size(lines); ++i) {
    char where[96];
    snprintf(where, sizeof where, "lines[%zu]", i);
    pasta_profile_line l;
    get_line(&r, json_array_get(lines, i), where, &l);
    if (!r.failed && (!flt || keep_line(flt, p, &l)))
      add_status(&r, pasta_profile_add_line(p, &l), where);
  }

  json_t *from = json_object_get(root, "merged_from");
  if (!r.failed && from && !json_is_array(from))
    fail(&r, "profile: \"merged_from\" is not an array");
  for (size_t i = 0; !r.failed && i < json_array_size(from); ++i) {
    char where[96];
    snprintf(where, sizeof where, "merged_from[%zu]", i);
    json_t *e = json_array_get(from, i);
    pasta_profile_source src = {NULL, NULL, 0, 0};
    if (!json_is_object(e)) {
      fail(&r, "%s: not an object", where);
      break;
    }
    src.file = get_string(&r, e, "file", where, 1);
    src.program = get_string(&r, e, "program", where, 1);
    src.pid = get_u64(&r, e, "pid", where);
    const char *t = get_string(&r, e, "created", where, 0);
    if (t && !parse_time(t, &src.created))
      fail(&r, "%s: \"created\" is not YYYY-MM-DDTHH:MM:SSZ", where);
    if (!r.failed)
      add_status(&r, pasta_profile_add_source(p, &src), where);
  }
  if (!r.failed)
    add_status(&r, pasta_profile_finalize(p), "profile");
  if (parsed && !r.failed)
    *parsed = root;
  else
    json_decref(root);
  if (r.failed) {
    error("%s: %s", path, r.message);
    pasta_profile_free(p);
    return 2;
  }
  return 0;
}

/*===-- Writing -----------------------------------------------------------===*/

static int finish_output(FILE *out, const char *what) {
  if (fflush(out) != 0 || ferror(out)) {
    error("cannot write %s: %s", what, strerror(errno ? errno : EIO));
    return 1;
  }
  return 0;
}

static void csv_spaces_header(FILE *out, const char *group) {
  for (unsigned s = 0; s < PASTA_NUM_SPACES; ++s)
    fprintf(out, ",%s.%s", group, pasta_space_name(s));
}

static void csv_spaces(FILE *out, const uint64_t *a) {
  for (unsigned s = 0; s < PASTA_NUM_SPACES; ++s)
    fprintf(out, ",%" PRIu64, a[s]);
}

static void csv_flops_header(FILE *out) {
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    fprintf(out, ",flops.%s", pasta_precision_name(i));
}

static void csv_flops(FILE *out, const uint64_t *flops) {
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    fprintf(out, ",%" PRIu64, flops[i]);
}

static void csv_funcs(FILE *out, const pasta_profile *p) {
  static const char *const groups[] = {"loads",      "stores",
                                       "load_bytes", "store_bytes",
                                       "atomics",    "atomic_bytes"};
  fputs("kind,name,mangled,module,file,line,calls", out);
  for (unsigned g = 0; g < 6; ++g)
    csv_spaces_header(out, groups[g]);
  csv_flops_header(out);
  fputs(",special,compute_intensity\n", out);
  const pasta_profile_func *arrays[] = {p->kernels, p->device_functions,
                                        p->host_functions};
  size_t counts[] = {p->num_kernels, p->num_device_functions,
                     p->num_host_functions};
  for (unsigned a = 0; a < 3; ++a)
    for (size_t i = 0; i < counts[a]; ++i) {
      const pasta_profile_func *f = &arrays[a][i];
      const pasta_counts *c = &f->counts;
      fprintf(out, "%s,", pasta_kind_name(f->kind));
      pasta_csv_string(out, f->name);
      putc(',', out);
      pasta_csv_string(out, f->mangled);
      putc(',', out);
      pasta_csv_string(out, f->module);
      putc(',', out);
      pasta_csv_string(out, f->file);
      fprintf(out, ",%" PRIu32 ",%" PRIu64, f->line, f->calls);
      csv_spaces(out, c->loads);
      csv_spaces(out, c->stores);
      csv_spaces(out, c->load_bytes);
      csv_spaces(out, c->store_bytes);
      csv_spaces(out, c->atomics);
      csv_spaces(out, c->atomic_bytes);
      csv_flops(out, c->flops);
      fprintf(out, ",%" PRIu64 ",", c->special);
      double ci;
      if (pasta_counts_intensity(c, &ci))
        fprintf(out, "%.9g", ci);
      putc('\n', out);
    }
}

static void csv_lines(FILE *out, const pasta_profile *p, size_t top) {
  fputs("file,line,function,kind,executions", out);
  csv_spaces_header(out, "load_bytes");
  csv_spaces_header(out, "store_bytes");
  csv_spaces_header(out, "atomic_bytes");
  csv_flops_header(out);
  fputs(",special\n", out);
  for (size_t i = 0; i < p->num_lines && i < top; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    pasta_csv_string(out, l->file);
    fprintf(out, ",%" PRIu32 ",", l->line);
    pasta_csv_string(out, l->function);
    fprintf(out, ",%s,%" PRIu64, pasta_kind_name(l->kind), l->executions);
    csv_spaces(out, l->counts.load_bytes);
    csv_spaces(out, l->counts.store_bytes);
    csv_spaces(out, l->counts.atomic_bytes);
    csv_flops(out, l->counts.flops);
    fprintf(out, ",%" PRIu64 "\n", l->counts.special);
  }
}

/*===-- Command line ------------------------------------------------------===*/

struct options {
  const char **positional; /* into argv; as many as there are */
  size_t num_positional;
  const char *kernel, *file, *format;
  size_t top;
  int have_top, lines, force;
};

/* Room for argc positional arguments (main allocates it): any number of
 * inputs, as many as the command line holds. */
static const char **positional_storage;

/* Options allowed per command, as a space-separated list. */
static int parse_args(int argc, char **argv, const char *allowed,
                      struct options *o) {
  memset(o, 0, sizeof *o);
  o->positional = positional_storage;
  for (int i = 2; i < argc; ++i) {
    const char *arg = argv[i];
    if (strncmp(arg, "--", 2) != 0 || !arg[2]) {
      if (arg[0] == '-' && arg[1] && strcmp(arg, "--") != 0)
        return usage_error("unknown option '%s'", arg);
      o->positional[o->num_positional++] = arg;
      continue;
    }
    char name[32];
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(n < 31 ? n : 31), arg);
    char needle[40];
    snprintf(needle, sizeof needle, " %s ", name + 2);
    char list[128];
    snprintf(list, sizeof list, " %s ", allowed);
    if (n >= 31 || !strstr(list, needle))
      return usage_error("unknown option '%.*s' for '%s'", (int)n, arg,
                         argv[1]);
    int flag = !strcmp(name, "--lines") || !strcmp(name, "--force");
    const char *value = NULL;
    if (flag) {
      if (eq)
        return usage_error("option '%s' takes no value", name);
    } else if (eq) {
      value = eq + 1;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return usage_error("option '%s' needs a value", name);
    }
    if (!strcmp(name, "--lines")) {
      o->lines = 1;
    } else if (!strcmp(name, "--force")) {
      o->force = 1;
    } else if (!strcmp(name, "--search-dir")) {
      if (num_search_dirs == sizeof search_dirs / sizeof *search_dirs - 1)
        return usage_error("too many --search-dir options (at most 16)");
      search_dirs[num_search_dirs++] = value;
    } else if (!strcmp(name, "--kernel")) {
      o->kernel = value;
    } else if (!strcmp(name, "--file")) {
      o->file = value;
    } else if (!strcmp(name, "--format")) {
      if (strcmp(value, "table") && strcmp(value, "csv") &&
          strcmp(value, "json"))
        return usage_error("unknown format '%s' (table, csv or json)", value);
      o->format = value;
    } else if (!strcmp(name, "--top")) {
      char *end;
      errno = 0;
      unsigned long long top = strtoull(value, &end, 10);
      if (!*value || *end || value[0] == '-' || errno)
        return usage_error("invalid --top value '%s'", value);
      o->top = top > SIZE_MAX ? SIZE_MAX : (size_t)top;
      o->have_top = 1;
    }
  }
  return 0;
}

/*===-- The sections after the function and line tables ------------------===*/

/* In the order the runtime writes them; "traces" is a merged profile's. */
static const char *const section_keys[] = {"launches",  "memory", "working_set",
                                           "bandwidth", "trace",  "traces"};
enum { NUM_SECTIONS = sizeof section_keys / sizeof *section_keys };

static json_t *json_u64(uint64_t v) {
  if (v <= INT64_MAX)
    return json_integer((json_int_t)v);
  char text[48];
  snprintf(text, sizeof text, "%s%" PRIu64, BIG_PREFIX, v);
  return json_string(text);
}

static const char *member_string(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* Whether `flt` keeps launches.kernels entry `k`. The kernel's file and
 * module are those of the profile's "kernels" entries with its mangled name
 * (any of them kept keeps it); a kernel no module registered has none. */
static int keep_launch_kernel(const struct filter *flt, json_t *root,
                              json_t *k) {
  const char *name = member_string(k, "name");
  const char *mangled = member_string(k, "mangled");
  int registered = 0;
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(root, "kernels"), i, e) {
    const char *m = member_string(e, "mangled");
    if (!mangled || !m || strcmp(m, mangled) != 0)
      continue;
    registered = 1;
    if (keep_names(flt, member_string(e, "name"), m, member_string(e, "file"),
                   member_string(e, "module")))
      return 1;
  }
  return !registered && keep_names(flt, name, mangled, NULL, NULL);
}

/* Removes the elements of `array` for which keep(element, arg) is 0. */
static void remove_unless(json_t *array, int (*keep)(json_t *, void *),
                          void *arg) {
  for (size_t i = json_array_size(array); i-- > 0;)
    if (!keep(json_array_get(array, i), arg))
      json_array_remove(array, i);
}

/* The kernels launches.kernels keeps, by display and mangled name. */
struct kept_kernels {
  json_t *names, *mangled; /* objects used as sets */
};

static int kept(json_t *set, const char *name) {
  return name && json_object_get(set, name) != NULL;
}

/* Working-set launches name their kernel by display name. */
static int keep_ws_row(json_t *row, void *arg) {
  const struct kept_kernels *kk = arg;
  return kept(kk->names, member_string(row, "kernel"));
}

/* Bandwidth rows: by mangled name in merged profiles, else display name. */
static int keep_bw_row(json_t *row, void *arg) {
  const struct kept_kernels *kk = arg;
  const char *mangled = member_string(row, "mangled");
  return mangled ? kept(kk->mangled, mangled)
                 : kept(kk->names, member_string(row, "name"));
}

static int keep_scope(json_t *scope, void *arg) {
  return keep_names(arg, member_string(scope, "funcname"), NULL,
                    member_string(scope, "filename"), NULL);
}

static int set_stats(json_t *ws, const char *key, const uint64_t *v, size_t n) {
  pasta_ws_stats st;
  if (pasta_ws_stats_compute(v, n, &st))
    return -1;
  json_t *o = json_object();
  /* One decimal, as the runtime writes it (a mean too large for that is
   * written as it is). */
  double m10 = st.mean * 10 + 0.5;
  double mean = m10 < 18446744073709551616.0
                    ? (double)pasta_u64_from_double(m10) / 10
                    : st.mean;
  return !o || json_object_set_new(o, "max", json_u64(st.max)) ||
         json_object_set_new(o, "min", json_u64(st.min)) ||
         json_object_set_new(o, "mean", json_real(mean)) ||
         json_object_set_new(o, "median", json_u64(st.median)) ||
         json_object_set_new(o, "p90", json_u64(st.p90)) ||
         json_object_set_new(ws, key, o);
}

/* The working-set statistics of the launches left in "per_launch". */
static int restat_working_set(json_t *ws) {
  json_t *per = json_object_get(ws, "per_launch");
  if (!json_is_true(json_object_get(ws, "enabled")) || !json_is_array(per))
    return 0;
  size_t n = json_array_size(per);
  uint64_t *t = malloc((n ? n : 1) * sizeof *t);
  uint64_t *f = malloc((n ? n : 1) * sizeof *f);
  int err = !t || !f;
  for (size_t i = 0; !err && i < n; ++i) {
    t[i] = pasta_activity_json_u64(json_array_get(per, i), "touched_bytes");
    f[i] = pasta_activity_json_u64(json_array_get(per, i), "footprint_bytes");
  }
  err = err || json_object_set_new(ws, "launches", json_u64(n)) ||
        set_stats(ws, "touched_bytes", t, n) ||
        set_stats(ws, "footprint_bytes", f, n);
  free(t);
  free(f);
  return err ? -1 : 0;
}

/* Applies `flt` to the per-kernel rows of the sections in `view` (deep
 * copies): launches.kernels, working_set.per_launch (and its statistics),
 * bandwidth.kernels, and the scopes of the trace analyses. Totals stay the
 * whole run's. */
static int filter_sections(json_t *view, json_t *root,
                           const struct filter *flt) {
  struct kept_kernels kk = {json_object(), json_object()};
  int err = !kk.names || !kk.mangled;
  json_t *kernels =
      json_object_get(json_object_get(view, "launches"), "kernels");
  for (size_t i = json_array_size(kernels); !err && i-- > 0;) {
    json_t *k = json_array_get(kernels, i);
    if (!keep_launch_kernel(flt, root, k)) {
      json_array_remove(kernels, i);
      continue;
    }
    const char *name = member_string(k, "name");
    const char *mangled = member_string(k, "mangled");
    if (name)
      err |= json_object_set_new(kk.names, name, json_true());
    if (mangled)
      err |= json_object_set_new(kk.mangled, mangled, json_true());
  }
  json_t *ws = json_object_get(view, "working_set");
  if (!err && ws) {
    remove_unless(json_object_get(ws, "per_launch"), keep_ws_row, &kk);
    err = restat_working_set(ws);
  }
  remove_unless(json_object_get(json_object_get(view, "bandwidth"), "kernels"),
                keep_bw_row, &kk);
  remove_unless(json_object_get(json_object_get(view, "trace"), "scopes"),
                keep_scope, (void *)flt);
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(view, "traces"), i, e) {
    remove_unless(json_object_get(e, "scopes"), keep_scope, (void *)flt);
  }
  json_decref(kk.names);
  json_decref(kk.mangled);
  return err ? -1 : 0;
}

/* The sections of `root` that show renders, as a new object (section_keys
 * order): the parsed members themselves, or filtered copies when `flt`
 * selects something. NULL when out of memory. */
static json_t *section_view(json_t *root, const struct filter *flt) {
  int filtering = flt->regex || flt->file;
  json_t *view = json_object();
  for (size_t i = 0; view && i < NUM_SECTIONS; ++i) {
    json_t *v = json_object_get(root, section_keys[i]);
    if (!v)
      continue;
    v = filtering ? json_deep_copy(v) : json_incref(v);
    if (!v || json_object_set_new(view, section_keys[i], v)) {
      json_decref(view);
      return NULL;
    }
  }
  if (view && filtering && filter_sections(view, root, flt)) {
    json_decref(view);
    return NULL;
  }
  return view;
}

/* The launch, memory, working-set and bandwidth tables of a profile that
 * has them (the runtime's own writers, on the sections read back). */
static int show_activity(FILE *out, const char *path, json_t *root,
                         unsigned top) {
  pasta_activity_read r;
  int rc = 0;
  if (pasta_activity_read_json(root, &r)) {
    error("%s: %s", path, strerror(ENOMEM));
    rc = 1;
  } else if (r.present) {
    rc |= pasta_activity_write_tables(out, &r.activity, top) != 0;
    if (r.activity.ws_enabled)
      rc |= pasta_activity_write_ws_tables(out, &r.activity, top) != 0;
    if (r.num_rows)
      rc |= pasta_bw_write_table(out, r.rows, r.num_rows, &r.activity) != 0;
  }
  pasta_activity_read_free(&r);
  return rc;
}

static int cmd_show(int argc, char **argv) {
  struct options o;
  int rc =
      parse_args(argc, argv, "kernel file top format lines search-dir", &o);
  if (rc)
    return rc;
  if (o.num_positional != 1)
    return usage_error("show takes one profile, got %zu arguments",
                       o.num_positional);
  const char *format = o.format ? o.format : "table";
  if (o.lines && strcmp(format, "csv") != 0)
    return usage_error("--lines goes with --format csv");
  regex_t re;
  struct filter flt = {NULL, o.file};
  if (o.kernel) {
    int err = regcomp(&re, o.kernel, REG_EXTENDED | REG_NOSUB);
    if (err) {
      char msg[128];
      regerror(err, &re, msg, sizeof msg);
      return usage_error("invalid --kernel regex '%s': %s", o.kernel, msg);
    }
    flt.regex = &re;
  }
  pasta_profile p;
  json_t *root = NULL;
  rc = load_profile(o.positional[0], &flt, &p, &root);
  json_t *view = rc ? NULL : section_view(root, &flt);
  if (flt.regex)
    regfree(&re);
  if (rc)
    return rc;
  if (!view) {
    error("%s: %s", o.positional[0], strerror(ENOMEM));
    rc = 1;
  } else if (!strcmp(format, "table")) {
    size_t top = o.have_top ? o.top : 20;
    unsigned utop = top > UINT32_MAX ? UINT32_MAX : (unsigned)top;
    if (pasta_tables_write(stdout, &p, utop) ||
        show_activity(stdout, o.positional[0], view, utop))
      rc = 1;
    if (pasta_report_show_traces(stdout, view,
                                 json_object_get(root, "merged_from"), utop)) {
      error("%s: %s", o.positional[0], strerror(ENOMEM));
      rc = 1;
    }
  } else if (!strcmp(format, "csv")) {
    if (o.lines)
      csv_lines(stdout, &p, o.have_top ? o.top : SIZE_MAX);
    else
      csv_funcs(stdout, &p);
    if (pasta_report_sections_csv(stdout, view) && !ferror(stdout)) {
      error("%s: %s", o.positional[0], strerror(ENOMEM));
      rc = 1;
    }
  } else {
    if (o.have_top && o.top < p.num_lines)
      p.num_lines = o.top; /* the most expensive ones: lines are sorted */
    /* The sections as they were read (filtered), after the counts. */
    pasta_profile_write_json_members(stdout, &p);
    for (size_t i = 0; i < NUM_SECTIONS; ++i) {
      json_t *v = json_object_get(view, section_keys[i]);
      if (!v)
        continue;
      fprintf(stdout, ",\n\"%s\":", section_keys[i]);
      pasta_json_dump(stdout, v);
    }
    fputs("}\n", stdout);
  }
  rc |= finish_output(stdout, "the output");
  pasta_profile_free(&p);
  json_decref(view);
  json_decref(root);
  return rc;
}

/* Function entries of all inputs, sorted by (kind, mangled, module). */
static int cmp_func_key(const void *pa, const void *pb) {
  const pasta_profile_func *a = *(const pasta_profile_func *const *)pa;
  const pasta_profile_func *b = *(const pasta_profile_func *const *)pb;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  int c = strcmp(a->mangled, b->mangled);
  if (c)
    return c;
  if (!a->module || !b->module)
    return (a->module != NULL) - (b->module != NULL);
  return strcmp(a->module, b->module);
}

static void counts_add(pasta_counts *d, const pasta_counts *s) {
  for (unsigned i = 0; i < PASTA_NUM_SPACES; ++i) {
    d->loads[i] = sat_add(d->loads[i], s->loads[i]);
    d->stores[i] = sat_add(d->stores[i], s->stores[i]);
    d->load_bytes[i] = sat_add(d->load_bytes[i], s->load_bytes[i]);
    d->store_bytes[i] = sat_add(d->store_bytes[i], s->store_bytes[i]);
    d->atomics[i] = sat_add(d->atomics[i], s->atomics[i]);
    d->atomic_bytes[i] = sat_add(d->atomic_bytes[i], s->atomic_bytes[i]);
  }
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    d->flops[i] = sat_add(d->flops[i], s->flops[i]);
  d->special = sat_add(d->special, s->special);
}

/* The inputs of merge: files, the *.json files of directories, and the
 * files that glob patterns match (for when the shell did not expand them,
 * or the expansion would be too long for one command line). */
struct inputs {
  char **paths; /* owned */
  size_t n, cap;
};

static int add_input_path(struct inputs *in, const char *path) {
  if (in->n == in->cap) {
    size_t cap = in->cap ? 2 * in->cap : 64;
    char **p = realloc(in->paths, cap * sizeof *p);
    if (!p)
      return -1;
    in->paths = p;
    in->cap = cap;
  }
  size_t len = strlen(path) + 1;
  char *copy = malloc(len);
  if (!copy)
    return -1;
  in->paths[in->n++] = memcpy(copy, path, len);
  return 0;
}

static void inputs_free(struct inputs *in) {
  for (size_t i = 0; i < in->n; ++i)
    free(in->paths[i]);
  free(in->paths);
}

static int cmp_string_ptr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether `path` is the output (which a directory or a pattern may hold
 * after an earlier merge). */
static int is_output(const char *path, const struct stat *out) {
  struct stat st;
  return out && stat(path, &st) == 0 && st.st_dev == out->st_dev &&
         st.st_ino == out->st_ino;
}

/* The regular files named *.json in `dir`, sorted by name. Returns 0, or 2
 * after printing one error line. */
static int add_directory(struct inputs *in, const char *dir,
                         const struct stat *out) {
  DIR *d = opendir(dir);
  if (!d) {
    error("%s: %s", dir, strerror(errno));
    return 2;
  }
  size_t first = in->n, len = strlen(dir);
  int slash = len && dir[len - 1] == '/', rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n <= 5 || strcmp(e->d_name + n - 5, ".json") != 0)
      continue;
    char *path = malloc(len + n + 2);
    if (!path) {
      rc = 1;
      break;
    }
    sprintf(path, "%s%s%s", dir, slash ? "" : "/", e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && !is_output(path, out))
      rc = add_input_path(in, path) ? 1 : 0;
    free(path);
  }
  closedir(d);
  if (rc) {
    error("%s", strerror(ENOMEM));
    return 1;
  }
  if (in->n == first) {
    error("%s: a directory without profiles (no *.json file in it)", dir);
    return 2;
  }
  qsort(in->paths + first, in->n - first, sizeof *in->paths, cmp_string_ptr);
  return 0;
}

static int add_pattern(struct inputs *in, const char *pattern,
                       const struct stat *out) {
  glob_t g;
  int grc = glob(pattern, 0, NULL, &g);
  if (grc == GLOB_NOMATCH) {
    error("%s: no such file, and no file matches it as a pattern", pattern);
    return 2;
  }
  if (grc != 0) {
    error("%s: %s", pattern,
          grc == GLOB_NOSPACE ? strerror(ENOMEM) : "cannot read a directory");
    return grc == GLOB_NOSPACE ? 1 : 2;
  }
  int rc = 0;
  for (size_t i = 0; !rc && i < g.gl_pathc; ++i) {
    struct stat st;
    if (stat(g.gl_pathv[i], &st) == 0 && S_ISDIR(st.st_mode))
      continue; /* "rank*" may match directories too */
    if (!is_output(g.gl_pathv[i], out) && add_input_path(in, g.gl_pathv[i])) {
      error("%s", strerror(ENOMEM));
      rc = 1;
    }
  }
  globfree(&g);
  return rc;
}

/* Expands merge's input arguments. Returns 0, or 1 or 2 after printing
 * one error line. */
static int expand_inputs(struct inputs *in, const char *const *args, size_t n,
                         const char *out_path) {
  struct stat out_st, st;
  const struct stat *out = stat(out_path, &out_st) == 0 ? &out_st : NULL;
  for (size_t i = 0; i < n; ++i) {
    int rc = 0, found = stat(args[i], &st) == 0;
    if (found && S_ISDIR(st.st_mode))
      rc = add_directory(in, args[i], out);
    else if (!found && errno == ENOENT && strpbrk(args[i], "*?["))
      rc = add_pattern(in, args[i], out);
    else if (add_input_path(in, args[i])) /* load_profile says what's wrong */
      rc = (error("%s", strerror(ENOMEM)), 1);
    if (rc)
      return rc;
  }
  return 0;
}

/* A function entry and its position, so that of equal keys the earlier
 * one sorts first. */
struct func_ref {
  const pasta_profile_func *f;
  size_t order;
};

static int cmp_func_ref(const void *pa, const void *pb) {
  const struct func_ref *a = pa, *b = pb;
  int c = cmp_func_key(&a->f, &b->f);
  return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The function entries of `a` (sorted and summed by (kind, mangled,
 * module)) and of `b`, summed by the same key; the first of a key (a's,
 * the earlier inputs') gives its name, file and line. */
static int add_summed_funcs(pasta_profile *out, const pasta_profile *a,
                            const pasta_profile *b) {
  size_t num = 0;
  const pasta_profile *both[2] = {a, b};
  for (unsigned s = 0; s < 2; ++s)
    num += both[s]->num_kernels + both[s]->num_device_functions +
           both[s]->num_host_functions;
  struct func_ref *ref = malloc((num ? num : 1) * sizeof *ref);
  const pasta_profile_func **all = malloc((num ? num : 1) * sizeof *all);
  if (!ref || !all) {
    free(ref);
    free(all);
    return -1;
  }
  size_t k = 0;
  for (unsigned s = 0; s < 2; ++s) {
    const pasta_profile *p = both[s];
    for (size_t j = 0; j < p->num_kernels; ++j, ++k)
      ref[k] = (struct func_ref){&p->kernels[j], k};
    for (size_t j = 0; j < p->num_device_functions; ++j, ++k)
      ref[k] = (struct func_ref){&p->device_functions[j], k};
    for (size_t j = 0; j < p->num_host_functions; ++j, ++k)
      ref[k] = (struct func_ref){&p->host_functions[j], k};
  }
  if (k)
    qsort(ref, k, sizeof *ref, cmp_func_ref);
  for (size_t i = 0; i < k; ++i)
    all[i] = ref[i].f;
  free(ref);
  int err = 0;
  for (size_t i = 0; i < k && !err;) {
    pasta_profile_func sum = *all[i];
    size_t j = i + 1;
    for (; j < k && cmp_func_key(&all[i], &all[j]) == 0; ++j) {
      sum.calls = sat_add(sum.calls, all[j]->calls);
      counts_add(&sum.counts, &all[j]->counts);
    }
    err = pasta_profile_add_func(out, &sum);
    i = j;
  }
  free(all);
  return err ? -1 : 0;
}

/* What merge accumulates, one input at a time. */
struct merged {
  pasta_profile counts; /* functions and lines summed, finalized */
  char **programs;      /* the distinct programs, in input order */
  size_t num_programs;
  int64_t created;  /* the latest input's */
  size_t processes; /* entries of merged_from so far */
  pasta_report_merge *activity;
  FILE *traces; /* the "traces" entries so far (a temporary file) */
  size_t num_traces;
};

/* `acc` plus input `in` (read from `path`), as a new finalized profile
 * that replaces acc. */
static int fold_counts(pasta_profile *acc, const pasta_profile *in,
                       const char *path) {
  pasta_profile next;
  pasta_profile_init(&next);
  int err = add_summed_funcs(&next, acc, in);
  for (size_t j = 0; j < acc->num_lines && !err; ++j)
    err = pasta_profile_add_line(&next, &acc->lines[j]);
  for (size_t j = 0; j < in->num_lines && !err; ++j)
    err = pasta_profile_add_line(&next, &in->lines[j]);
  /* The inputs, or the inputs of inputs that are merged profiles. */
  for (size_t j = 0; j < acc->num_merged_from && !err; ++j)
    err = pasta_profile_add_source(&next, &acc->merged_from[j]);
  if (in->num_merged_from) {
    for (size_t j = 0; j < in->num_merged_from && !err; ++j)
      err = pasta_profile_add_source(&next, &in->merged_from[j]);
  } else if (!err) {
    pasta_profile_source src = {path, in->program, in->pid, in->created};
    err = pasta_profile_add_source(&next, &src);
  }
  if (!err)
    err = pasta_profile_finalize(&next);
  if (err) {
    pasta_profile_free(&next);
    return -1;
  }
  pasta_profile_free(acc);
  *acc = next;
  return 0;
}

/* Adds `program` to the distinct programs unless it is there already. */
static int add_program(struct merged *m, const char *program) {
  for (size_t i = 0; i < m->num_programs; ++i)
    if (strcmp(m->programs[i], program) == 0)
      return 0;
  char **grown =
      realloc(m->programs, (m->num_programs + 1) * sizeof *m->programs);
  if (!grown)
    return -1;
  m->programs = grown;
  size_t len = strlen(program) + 1;
  char *copy = malloc(len);
  if (!copy)
    return -1;
  m->programs[m->num_programs++] = memcpy(copy, program, len);
  return 0;
}

/* "program": the inputs' program, or their distinct programs joined. */
static char *joined_programs(const struct merged *m) {
  size_t len = 1;
  for (size_t i = 0; i < m->num_programs; ++i)
    len += strlen(m->programs[i]) + 2;
  char *s = malloc(len);
  if (!s)
    return NULL;
  s[0] = '\0';
  for (size_t i = 0; i < m->num_programs; ++i) {
    if (i)
      strcat(s, ", ");
    strcat(s, m->programs[i]);
  }
  return s;
}

/* Reads input `path` and adds it to `m`. Returns 0, or 1 or 2 after
 * printing one error line. */
static int merge_one(struct merged *m, const char *path) {
  pasta_profile in;
  json_t *root = NULL;
  int rc = load_profile(path, NULL, &in, &root);
  if (rc)
    return rc;
  size_t first_process = m->processes;
  m->processes += in.num_merged_from ? in.num_merged_from : 1;
  if (first_process == 0 || in.created > m->created)
    m->created = in.created;
  if (add_program(m, in.program) || fold_counts(&m->counts, &in, path) ||
      pasta_report_merge_add(m->activity, root, first_process)) {
    error("%s", strerror(ENOMEM));
    rc = 1;
  } else if (pasta_report_merge_traces_add(m->traces, root, first_process,
                                           &m->num_traces)) {
    error("cannot write a temporary file: %s", strerror(errno ? errno : EIO));
    rc = 1;
  }
  pasta_profile_free(&in);
  json_decref(root);
  return rc;
}

/* Copies the spooled trace entries to `out`. */
static int copy_traces(FILE *out, struct merged *m) {
  if (!m->num_traces)
    return 0;
  char buf[1 << 16];
  size_t n;
  if (fflush(m->traces) != 0 || fseek(m->traces, 0, SEEK_SET) != 0)
    return -1;
  while ((n = fread(buf, 1, sizeof buf, m->traces)) > 0)
    if (fwrite(buf, 1, n, out) != n)
      return -1;
  return ferror(m->traces) ? -1 : 0;
}

/* The merged profile's JSON (an output_file.h writer). */
static int write_merged(FILE *f, const void *arg) {
  struct merged *m = (struct merged *)arg;
  return pasta_profile_write_json_members(f, &m->counts) ||
         pasta_report_merge_write(f, m->activity, &m->counts) ||
         copy_traces(f, m) || pasta_report_merge_traces_end(f, m->num_traces) ||
         fputs("}\n", f) == EOF || ferror(f);
}

static int cmd_merge(int argc, char **argv) {
  struct options o;
  int rc = parse_args(argc, argv, "force search-dir", &o);
  if (rc)
    return rc;
  if (o.num_positional < 2)
    return usage_error("merge needs OUT.json and at least one input (files, "
                       "directories or patterns)");
  const char *out_path = o.positional[0];
  struct stat st;
  if (!o.force && stat(out_path, &st) == 0) {
    error("%s exists: merge would overwrite it (the output comes first: "
          "merge OUT.json IN.json...; --force overwrites)",
          out_path);
    return 2;
  }
  struct inputs in = {NULL, 0, 0};
  rc = expand_inputs(&in, o.positional + 1, o.num_positional - 1, out_path);
  struct merged m;
  memset(&m, 0, sizeof m);
  pasta_profile_init(&m.counts);
  if (!rc) {
    m.activity = pasta_report_merge_new();
    m.traces = tmpfile();
    if (!m.activity || !m.traces) {
      error(m.activity ? "cannot create a temporary file: %s" : "%s",
            strerror(m.activity ? errno : ENOMEM));
      rc = 1;
    }
  }
  /* One input at a time: each is read, added and freed before the next. */
  for (size_t i = 0; !rc && i < in.n; ++i)
    rc = merge_one(&m, in.paths[i]);
  char *program = rc ? NULL : joined_programs(&m);
  if (!rc &&
      (!program || pasta_profile_set_info(&m.counts, program, 0, m.created))) {
    error("%s", strerror(ENOMEM));
    rc = 1;
  }
  free(program);
  if (!rc) {
    /* Through the runtime's writer (output_file.h): a unique temporary
     * next to the output, then renamed, so never a partial profile; only a
     * regular file is replaced, and only with --force. */
    char err[512], *written = NULL;
    if (pasta_output_write(
            out_path, o.force ? PASTA_OUTPUT_REPLACE : PASTA_OUTPUT_EXCLUSIVE,
            NULL, write_merged, &m, &written, err, sizeof err)) {
      error("cannot write the merged profile: %s", err);
      rc = 1;
    }
    free(written);
  }
  pasta_profile_free(&m.counts);
  for (size_t i = 0; i < m.num_programs; ++i)
    free(m.programs[i]);
  free(m.programs);
  pasta_report_merge_free(m.activity);
  if (m.traces)
    fclose(m.traces);
  inputs_free(&in);
  return rc;
}

/*===-- diff --------------------------------------------------------------===*/

struct kernel_sum {
  const char *name, *mangled;
  uint64_t v[4]; /* launches, global bytes, FLOPs, special */
};

/* What diff compares, per kind of function: kernels and device functions
 * by global bytes (their spaces are resolved), host functions by all their
 * bytes (every host access is "generic"). */
static const struct func_kind {
  const char *title, *metrics[4];
} func_kinds[3] = {
    {"Kernels (exact thread-level counts; change = after - before):",
     {"launches", "global bytes", "FLOPs", "special"}},
    {"Device functions shared by kernels (exact thread-level counts; change "
     "= after - before):",
     {"calls", "global bytes", "FLOPs", "special"}},
    {"Host functions (exact counts; change = after - before):",
     {"calls", "bytes", "FLOPs", "special"}}};

static int cmp_kernel_sum(const void *pa, const void *pb) {
  return strcmp(((const struct kernel_sum *)pa)->mangled,
                ((const struct kernel_sum *)pb)->mangled);
}

/* The functions of `p` of one kind (enum pasta_func_kind). */
static const pasta_profile_func *funcs_of(const pasta_profile *p, unsigned kind,
                                          size_t *n) {
  *n = kind == PASTA_FUNC_KERNEL   ? p->num_kernels
       : kind == PASTA_FUNC_DEVICE ? p->num_device_functions
                                   : p->num_host_functions;
  return kind == PASTA_FUNC_KERNEL   ? p->kernels
         : kind == PASTA_FUNC_DEVICE ? p->device_functions
                                     : p->host_functions;
}

/* The functions of `p` of one kind, summed by mangled name (one per name,
 * sorted). */
static struct kernel_sum *kernel_sums(const pasta_profile *p, unsigned kind,
                                      size_t *n) {
  size_t num;
  const pasta_profile_func *funcs = funcs_of(p, kind, &num);
  struct kernel_sum *s = malloc((num ? num : 1) * sizeof *s);
  if (!s)
    return NULL;
  for (size_t i = 0; i < num; ++i) {
    const pasta_profile_func *f = &funcs[i];
    const pasta_counts *c = &f->counts;
    s[i].name = f->name;
    s[i].mangled = f->mangled;
    s[i].v[0] = f->calls;
    s[i].v[1] = kind == PASTA_FUNC_HOST
                    ? pasta_counts_bytes(c)
                    : sat_add(sat_add(c->load_bytes[PASTA_SPACE_GLOBAL],
                                      c->store_bytes[PASTA_SPACE_GLOBAL]),
                              c->atomic_bytes[PASTA_SPACE_GLOBAL]);
    s[i].v[2] = pasta_counts_flops(c);
    s[i].v[3] = c->special;
  }
  if (num)
    qsort(s, num, sizeof *s, cmp_kernel_sum);
  size_t k = 0;
  for (size_t i = 0; i < num; ++i) {
    if (k && strcmp(s[k - 1].mangled, s[i].mangled) == 0) {
      for (unsigned m = 0; m < 4; ++m)
        s[k - 1].v[m] = sat_add(s[k - 1].v[m], s[i].v[m]);
    } else {
      s[k++] = s[i];
    }
  }
  *n = k;
  return s;
}

/* |after - before| */
static uint64_t abs_change(uint64_t before, uint64_t after) {
  return after > before ? after - before : before - after;
}

static void fmt_change(char *out, size_t size, uint64_t before,
                       uint64_t after) {
  if (after == before)
    snprintf(out, size, "0");
  else
    snprintf(out, size, "%c%" PRIu64, after > before ? '+' : '-',
             abs_change(before, after));
}

static void fmt_relative(char *out, size_t size, uint64_t before,
                         uint64_t after) {
  if (!before) {
    snprintf(out, size, "-");
    return;
  }
  double r = ((double)after - (double)before) / (double)before * 100.0;
  snprintf(out, size, "%+.1f%%", r);
}

struct kernel_pair {
  const struct kernel_sum *before, *after;
  uint64_t weight; /* |change| of global bytes + |change| of FLOPs */
};

static int cmp_pair(const void *pa, const void *pb) {
  const struct kernel_pair *a = pa, *b = pb;
  if (a->weight != b->weight)
    return a->weight > b->weight ? -1 : 1;
  const struct kernel_sum *ka = a->before ? a->before : a->after;
  const struct kernel_sum *kb = b->before ? b->before : b->after;
  int c = strcmp(ka->name, kb->name);
  return c ? c : strcmp(ka->mangled, kb->mangled);
}

struct line_cost {
  const pasta_profile_line *line;
  uint64_t cost; /* bytes + FLOPs */
};

static int cmp_line_key(const pasta_profile_line *a,
                        const pasta_profile_line *b) {
  int c;
  if (!a->file || !b->file)
    c = (a->file != NULL) - (b->file != NULL);
  else
    c = strcmp(a->file, b->file);
  if (!c && a->line != b->line)
    c = a->line < b->line ? -1 : 1;
  if (!c)
    c = strcmp(a->function, b->function);
  if (!c && a->kind != b->kind)
    c = a->kind < b->kind ? -1 : 1;
  return c;
}

static int cmp_line_cost_key(const void *pa, const void *pb) {
  return cmp_line_key(((const struct line_cost *)pa)->line,
                      ((const struct line_cost *)pb)->line);
}

static struct line_cost *line_costs(const pasta_profile *p) {
  struct line_cost *c = malloc((p->num_lines ? p->num_lines : 1) * sizeof *c);
  if (!c)
    return NULL;
  for (size_t i = 0; i < p->num_lines; ++i) {
    c[i].line = &p->lines[i];
    c[i].cost = sat_add(pasta_counts_bytes(&p->lines[i].counts),
                        pasta_counts_flops(&p->lines[i].counts));
  }
  if (p->num_lines)
    qsort(c, p->num_lines, sizeof *c, cmp_line_cost_key);
  return c;
}

struct line_change {
  const pasta_profile_line *line;
  uint64_t before, after;
};

static int cmp_line_change(const void *pa, const void *pb) {
  const struct line_change *a = pa, *b = pb;
  uint64_t ca = abs_change(a->before, a->after);
  uint64_t cb = abs_change(b->before, b->after);
  if (ca != cb)
    return ca > cb ? -1 : 1;
  return cmp_line_key(a->line, b->line);
}

/* Keeps the end of a location, where the file name and line are. */
static void fmt_location(char *out, size_t size, const pasta_profile_line *l) {
  char loc[1024];
  snprintf(loc, sizeof loc, "%s:%" PRIu32, l->file ? l->file : "?", l->line);
  size_t len = strlen(loc);
  if (len > 48)
    snprintf(out, size, "...%s", loc + len - 45);
  else
    snprintf(out, size, "%s", loc);
}

/* The table of one kind of function; nothing when neither profile has
 * one. */
static int diff_funcs(FILE *out, const pasta_profile *b, const pasta_profile *a,
                      unsigned kind) {
  const struct func_kind *fk = &func_kinds[kind];
  size_t nb = 0, na = 0;
  struct kernel_sum *sb = kernel_sums(b, kind, &nb),
                    *sa = kernel_sums(a, kind, &na);
  struct kernel_pair *pairs = malloc((nb + na + 1) * sizeof *pairs);
  if (!sb || !sa || !pairs) {
    free(sb);
    free(sa);
    free(pairs);
    return -1;
  }
  size_t np = 0, i = 0, j = 0;
  while (i < nb || j < na) {
    int c = i == nb ? 1 : j == na ? -1 : strcmp(sb[i].mangled, sa[j].mangled);
    struct kernel_pair *pr = &pairs[np++];
    pr->before = c <= 0 ? &sb[i++] : NULL;
    pr->after = c >= 0 ? &sa[j++] : NULL;
    pr->weight = 0;
    for (unsigned m = 1; m <= 2; ++m)
      pr->weight =
          sat_add(pr->weight, abs_change(pr->before ? pr->before->v[m] : 0,
                                         pr->after ? pr->after->v[m] : 0));
  }
  if (np)
    qsort(pairs, np, sizeof *pairs, cmp_pair);
  if (np) {
    static const int left[] = {1, 1, 1, 0, 0, 0, 0};
    struct text_table t = {7, left, NULL, 0, 0};
    const char **full = malloc(np * sizeof *full);
    for (size_t k = 0; full && k < np; ++k)
      full[k] = (pairs[k].before ? pairs[k].before : pairs[k].after)->name;
    char **names =
        full ? pasta_short_safe_names(full, np, REPORT_NAME_WIDTH) : NULL;
    free(full);
    int err = !names ||
              text_table_row(
                  &t, kind == PASTA_FUNC_KERNEL ? "kernel" : "function",
                  "status", "metric", "before", "after", "change", "relative");
    for (size_t k = 0; names && k < np; ++k) {
      const struct kernel_pair *pr = &pairs[k];
      int same = pr->before && pr->after;
      for (unsigned m = 0; m < 4 && same; ++m)
        same = pr->before->v[m] == pr->after->v[m];
      const char *status = !pr->before  ? "added"
                           : !pr->after ? "removed"
                           : same       ? "same"
                                        : "changed";
      for (unsigned m = 0; m < 4; ++m) {
        uint64_t vb = pr->before ? pr->before->v[m] : 0;
        uint64_t va = pr->after ? pr->after->v[m] : 0;
        char sbuf[32] = "-", sa_buf[32] = "-", ch[32], rel[32];
        if (pr->before)
          snprintf(sbuf, sizeof sbuf, "%" PRIu64, vb);
        if (pr->after)
          snprintf(sa_buf, sizeof sa_buf, "%" PRIu64, va);
        fmt_change(ch, sizeof ch, vb, va);
        fmt_relative(rel, sizeof rel, pr->before ? vb : 0, va);
        err |= text_table_row(&t, m ? "" : names[k], m ? "" : status,
                              fk->metrics[m], sbuf, sa_buf, ch, rel);
      }
    }
    free(names);
    fprintf(out, "%s\n", fk->title);
    text_table_print_free(out, &t);
    fputc('\n', out);
    if (err) {
      free(sb);
      free(sa);
      free(pairs);
      return -1;
    }
  }
  free(sb);
  free(sa);
  free(pairs);
  return 0;
}

static int diff_lines(FILE *out, const pasta_profile *b, const pasta_profile *a,
                      size_t top) {
  struct line_cost *cb = line_costs(b), *ca = line_costs(a);
  struct line_change *ch =
      malloc((b->num_lines + a->num_lines + 1) * sizeof *ch);
  if (!cb || !ca || !ch) {
    free(cb);
    free(ca);
    free(ch);
    return -1;
  }
  size_t n = 0, i = 0, j = 0;
  while (i < b->num_lines || j < a->num_lines) {
    int c = i == b->num_lines   ? 1
            : j == a->num_lines ? -1
                                : cmp_line_key(cb[i].line, ca[j].line);
    struct line_change *x = &ch[n];
    x->line = c <= 0 ? cb[i].line : ca[j].line;
    x->before = c <= 0 ? cb[i++].cost : 0;
    x->after = c >= 0 ? ca[j++].cost : 0;
    n += x->before != x->after;
  }
  if (n)
    qsort(ch, n, sizeof *ch, cmp_line_change);
  int err = 0;
  if (!n) {
    fprintf(out, "No line's bytes + FLOPs changed.\n");
  } else if (top) {
    size_t shown = n < top ? n : top;
    static const int left[] = {1, 1, 1, 0, 0, 0, 0};
    struct text_table t = {7, left, NULL, 0, 0};
    const char **full = malloc(shown * sizeof *full);
    for (size_t k = 0; full && k < shown; ++k)
      full[k] = ch[k].line->function;
    char **names =
        full ? pasta_short_safe_names(full, shown, REPORT_NAME_WIDTH) : NULL;
    free(full);
    err = !names || text_table_row(&t, "location", "function", "kind", "before",
                                   "after", "change", "relative");
    for (size_t k = 0; names && k < shown; ++k) {
      char loc[64], sb[32], sa[32], c[32], rel[32];
      fmt_location(loc, sizeof loc, ch[k].line);
      snprintf(sb, sizeof sb, "%" PRIu64, ch[k].before);
      snprintf(sa, sizeof sa, "%" PRIu64, ch[k].after);
      fmt_change(c, sizeof c, ch[k].before, ch[k].after);
      fmt_relative(rel, sizeof rel, ch[k].before, ch[k].after);
      err |= text_table_row(&t, loc, names[k],
                            pasta_kind_name(ch[k].line->kind), sb, sa, c, rel);
    }
    free(names);
    fprintf(out,
            "Top %zu of %zu changed lines, by |change| of bytes + FLOPs:\n",
            shown, n);
    text_table_print_free(out, &t);
  }
  free(cb);
  free(ca);
  free(ch);
  return err;
}

static int cmd_diff(int argc, char **argv) {
  struct options o;
  int rc = parse_args(argc, argv, "top search-dir", &o);
  if (rc)
    return rc;
  if (o.num_positional != 2)
    return usage_error("diff takes two profiles, got %zu arguments",
                       o.num_positional);
  pasta_profile before, after;
  json_t *root_before = NULL, *root_after = NULL;
  rc = load_profile(o.positional[0], NULL, &before, &root_before);
  if (rc)
    return rc;
  rc = load_profile(o.positional[1], NULL, &after, &root_after);
  if (rc) {
    pasta_profile_free(&before);
    json_decref(root_before);
    return rc;
  }
  printf("== PASTA diff: %s -> %s ==\n", o.positional[0], o.positional[1]);
  int funcs = 0, err = 0;
  for (unsigned kind = PASTA_FUNC_KERNEL; kind <= PASTA_FUNC_HOST; ++kind) {
    size_t nb, na;
    funcs_of(&before, kind, &nb);
    funcs_of(&after, kind, &na);
    funcs |= nb || na;
    err |= diff_funcs(stdout, &before, &after, kind);
  }
  if (!funcs)
    printf("No kernels, device functions or host functions in either "
           "profile: no instrumented function was registered.\n\n");
  if (err || diff_lines(stdout, &before, &after, o.have_top ? o.top : 10) ||
      fputc('\n', stdout) == EOF ||
      pasta_report_diff_activity(stdout, root_before, root_after) ||
      pasta_report_diff_traces(stdout, root_before, root_after)) {
    error("%s", strerror(ENOMEM));
    rc = 1;
  }
  rc |= finish_output(stdout, "the output");
  pasta_profile_free(&before);
  pasta_profile_free(&after);
  json_decref(root_before);
  json_decref(root_after);
  return rc;
}

static int run_command(int argc, char **argv) {
  const char *cmd = argv[1];
  if (!strcmp(cmd, "show"))
    return cmd_show(argc, argv);
  if (!strcmp(cmd, "merge"))
    return cmd_merge(argc, argv);
  if (!strcmp(cmd, "diff"))
    return cmd_diff(argc, argv);
  return usage_error("unknown command '%s'", cmd);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return usage_error("missing command");
  for (int i = 1; i < argc; ++i)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      fputs(help_text, stdout);
      return finish_output(stdout, "the output");
    }
  positional_storage = malloc((size_t)argc * sizeof *positional_storage);
  if (!positional_storage) {
    error("%s", strerror(ENOMEM));
    return 1;
  }
  int rc = run_command(argc, argv);
  free(positional_storage);
  positional_storage = NULL;
  return rc;
}
