/*===- report_csv.c - CSV blocks of the activity and trace sections -------===*
 *
 * Each block is a list of JSON objects (the section's rows) and a list of
 * columns, each a dotted path into a row ("gpu_time_ns.total"). A cell is
 * the value at that path: integers in full (big ones too), reals with the
 * fewest digits that read back the same, strings quoted as RFC 4180 needs,
 * true/false as such, and null or a missing field as the empty cell. Rows
 * that belong to one process of a merged profile (working-set launches and
 * the trace tables) start with a "process" column, 0 in a profile of one
 * process. The function and line tables, which come first, are
 * pasta__csv_funcs and pasta__csv_lines.
 *===----------------------------------------------------------------------===*/
#include "report_csv.h"
#include "report_csv_cell.h"
#include "report_ranks.h"

#include "pasta/profile.h"
#include "profile/activity.h"
#include "profile/bandwidth.h"
#include "profile/json_read.h"
#include "profile/text_table.h"
#include "profile/trace_analysis.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct columns {
  const char *const *names;
  size_t n;
  int process; /* a leading "process" column */
};

static void header(FILE *out, const char *block, const struct columns *c) {
  fprintf(out, "\n# %s\n%s", block, c->process ? "process" : "");
  for (size_t i = 0; i < c->n; ++i)
    fprintf(out, "%s%s", i || c->process ? "," : "", c->names[i]);
  fputc('\n', out);
}

static void row(FILE *out, json_t *o, const struct columns *c,
                uint64_t process) {
  if (c->process)
    fprintf(out, "%" PRIu64, process);
  for (size_t i = 0; i < c->n; ++i) {
    if (i || c->process)
      fputc(',', out);
    pasta__csv_cell(out, pasta__csv_at(o, c->names[i]));
  }
  fputc('\n', out);
}

#define COLUMNS(array, process) {array, sizeof array / sizeof *array, process}

/* A block whose rows are the elements of `rows` (an array). */
static void array_block(FILE *out, const char *name, json_t *rows,
                        const struct columns *c) {
  size_t i;
  json_t *r;
  header(out, name, c);
  json_array_foreach(rows, i, r) {
    row(out, r, c, pasta__json_u64(r, "process"));
  }
}

/* A copy's figure as the columns resources.plain.KEY,
 * resources.counting.KEY and resources.capped.KEY (empty unless the
 * register-capped copy ran), when it has columns (PASTA_COPY_RESOURCES). */
#define COPY_COLUMNS_1(key)                                                    \
  "resources.plain." key, "resources.counting." key, "resources.capped." key,
#define COPY_COLUMNS_0(key)
#define COPY_COLUMNS(type, member, key, most, csv) COPY_COLUMNS_##csv(key)
#define NAME_COLUMN(name, merge) #name,
#define DIV_REASON_COLUMN(name, key) "divergence.not_measured." key,
#define NAME(name) #name,

static const char *const launch_columns[] = {
    "name",
    "mangled",
    PASTA_ACTIVITY_KERNEL_COUNTS(NAME_COLUMN) "gpu_time_ns.total",
    "gpu_time_ns.min",
    "gpu_time_ns.max",
    "gpu_time_ns.mean",
    PASTA_ACTIVITY_KERNEL_WS(NAME_COLUMN) "resources.block_threads",
    PASTA_COPY_RESOURCES(COPY_COLUMNS)
        COPY_COLUMNS_1("occupancy") "divergence.launches_measured",
    "divergence.launches_not_measured",
    PASTA_ACTIVITY_DIV_REASONS(DIV_REASON_COLUMN) "divergence.block_threads"};

#define WS_COLUMN(type, name) #name,
static const char *const ws_columns[] = {"id", "kernel",
                                         PASTA_ACTIVITY_WS_LAUNCH(WS_COLUMN)};

#define BW_COLUMN(name, timed, unknown) #name,
#define FLOPS_COLUMN(id, name) "flops." name,
static const char *const bw_columns[] = {
    "name",
    "mangled",
    PASTA_BW_ROW_COUNTS(NAME) "time_source",
    "time_ns",
    "time_total_ns",
    PASTA_BW_ROW_AMOUNTS(BW_COLUMN) PASTA_PRECISIONS(FLOPS_COLUMN)
        PASTA_BW_ROW_RATES(BW_COLUMN) "bound"};

/* "memory": one row, every count and byte total. */
enum { MEMORY_COLUMNS = 48, MEMORY_COLUMN = 40 };

/* The columns KEY.<name of k>.count and .bytes of n kinds. */
static size_t kind_columns(char (*names)[MEMORY_COLUMN], const char *key,
                           unsigned n, const char *(*name)(unsigned)) {
  for (unsigned k = 0; k < n; ++k) {
    snprintf(names[2 * k], MEMORY_COLUMN, "%s.%s.count", key, name(k));
    snprintf(names[2 * k + 1], MEMORY_COLUMN, "%s.%s.bytes", key, name(k));
  }
  return 2 * (size_t)n;
}

static void memory_block(FILE *out, json_t *m) {
  char names[MEMORY_COLUMNS][MEMORY_COLUMN];
  const char *cols[MEMORY_COLUMNS];
  size_t n = kind_columns(names, "allocations", PASTA_NUM_ALLOC_KINDS,
                          pasta__alloc_kind_name);
#define PASTA_X(member, path, merge) path,
  static const char *const middle[] = {PASTA_ACTIVITY_MEMORY_TOTALS(PASTA_X)};
  for (size_t i = 0; i < sizeof middle / sizeof *middle; ++i)
    snprintf(names[n++], sizeof names[0], "%s", middle[i]);
  n += kind_columns(names + n, "copies", PASTA_NUM_COPY_KINDS,
                    pasta__copy_kind_name);
  static const char *const last[] = {
      PASTA_ACTIVITY_MEMORY_AFTER_COPIES(PASTA_X)};
#undef PASTA_X
  for (size_t i = 0; i < sizeof last / sizeof *last; ++i)
    snprintf(names[n++], sizeof names[0], "%s", last[i]);
  for (size_t i = 0; i < n; ++i)
    cols[i] = names[i];
  struct columns c = {cols, n, 0};
  header(out, "memory", &c);
  row(out, m, &c, 0);
}

/*===-- Trace analyses ----------------------------------------------------===*/

/* A figure of a PASTA_TRACE_* list (trace_analysis.h) as a column. */
#define TRACE_COLUMN(kind, member, key) key,
#define FOOTPRINT_COLUMN(kind, member, key) "footprint." key,

static const char *const footprint_columns[] = {
    "end_ns", PASTA_TRACE_FOOTPRINT(FOOTPRINT_COLUMN) "reuse.saving_bytes"};

static const char *const buffer_columns[] = {"id",
                                             "name",
                                             "kind",
                                             "size",
                                             "freed",
                                             "alloc_lifetime_ns",
                                             "use_lifetime_ns",
                                             "use_ratio",
                                             "file",
                                             "line"};

static const char *const loop_columns[] = {
    PASTA_TRACE_LOOP_ALLOCS(TRACE_COLUMN)};

static const char *const reuse_columns[] = {
    PASTA_TRACE_REUSE_GROUP(TRACE_COLUMN)};

/* Each trace table is one block, with the rows of every process. Returns
 * 0, or -1 when out of memory. */
static int trace_blocks(FILE *out, json_t *root) {
  json_t *one = json_object_get(root, "trace");
  json_t *list = json_object_get(root, "traces");
  json_t *entries = json_array();
  if (!entries || (json_is_object(one) && json_array_append(entries, one)) ||
      (!json_is_object(one) && json_is_array(list) &&
       json_array_extend(entries, list))) {
    json_decref(entries);
    return -1;
  }
  if (!json_array_size(entries)) {
    json_decref(entries);
    return 0;
  }

  static const char *const scope_keys[] = {"id", "scope_type",
                                           PASTA_TRACE_SCOPE(TRACE_COLUMN)};
  static const char *const scope_tail[] = {
      PASTA_TRACE_SCOPE_FOOTPRINT(TRACE_COLUMN)};
  enum {
    NUM_KEYS = sizeof scope_keys / sizeof *scope_keys,
    NUM_TAIL = sizeof scope_tail / sizeof *scope_tail,
    NUM_SCOPE_COLUMNS = NUM_KEYS + 2 * PASTA_TRACE_NUM_CLASSES + NUM_TAIL
  };
  char scope_names[NUM_SCOPE_COLUMNS][40];
  const char *scope_cols[NUM_SCOPE_COLUMNS];
  size_t ns = 0;
  for (size_t i = 0; i < NUM_KEYS; ++i)
    snprintf(scope_names[ns++], sizeof scope_names[0], "%s", scope_keys[i]);
  for (unsigned k = 0; k < PASTA_TRACE_NUM_CLASSES; ++k)
    snprintf(scope_names[ns++], sizeof scope_names[0], "accesses.static.%s",
             pasta__cats_access_class(k));
  for (unsigned k = 0; k < PASTA_TRACE_NUM_CLASSES; ++k)
    snprintf(scope_names[ns++], sizeof scope_names[0], "accesses.dynamic.%s",
             pasta__cats_access_class(k));
  for (size_t i = 0; i < NUM_TAIL; ++i)
    snprintf(scope_names[ns++], sizeof scope_names[0], "%s", scope_tail[i]);
  for (size_t i = 0; i < ns; ++i)
    scope_cols[i] = scope_names[i];

  const struct {
    const char *name;
    const char *member; /* NULL: the entry itself is the row */
    struct columns c;
  } blocks[] = {
      {"trace.footprint", NULL, COLUMNS(footprint_columns, 1)},
      {"trace.buffers", "buffers", COLUMNS(buffer_columns, 1)},
      {"trace.loop_allocations", "loop_allocations", COLUMNS(loop_columns, 1)},
      {"trace.reuse", "reuse.groups", COLUMNS(reuse_columns, 1)},
      {"trace.scopes", "scopes", {scope_cols, ns, 1}},
  };
  for (size_t b = 0; b < sizeof blocks / sizeof *blocks; ++b) {
    header(out, blocks[b].name, &blocks[b].c);
    size_t i, j;
    json_t *e, *r;
    json_array_foreach(entries, i, e) {
      uint64_t process = pasta__json_u64(e, "process");
      if (!blocks[b].member) {
        row(out, e, &blocks[b].c, process);
        continue;
      }
      json_array_foreach(pasta__csv_at(e, blocks[b].member), j, r) {
        row(out, r, &blocks[b].c, process);
      }
    }
  }
  json_decref(entries);
  return 0;
}

int pasta__report_sections_csv(FILE *out, json_t *root) {
  json_t *launches = json_object_get(root, "launches");
  json_t *memory = json_object_get(root, "memory");
  json_t *ws = json_object_get(root, "working_set");
  json_t *bw = json_object_get(root, "bandwidth");
  if (json_is_object(launches)) {
    struct columns c = COLUMNS(launch_columns, 0);
    array_block(out, "launches", json_object_get(launches, "kernels"), &c);
  }
  if (json_is_object(memory))
    memory_block(out, memory);
  if (json_is_object(ws)) {
    struct columns c = COLUMNS(ws_columns, 1);
    array_block(out, "working_set", json_object_get(ws, "per_launch"), &c);
  }
  if (json_is_object(bw)) {
    struct columns c = COLUMNS(bw_columns, 0);
    array_block(out, "bandwidth", json_object_get(bw, "kernels"), &c);
  }
  return trace_blocks(out, root) || ferror(out) ? -1 : 0;
}

/*===-- The function and line tables --------------------------------------===*/

/* The header cells group.<name of i> of a group of n figures. */
static void csv_group_header(FILE *out, const char *group, unsigned n,
                             const char *(*name)(unsigned)) {
  for (unsigned i = 0; i < n; ++i)
    fprintf(out, ",%s.%s", group, name(i));
}

/* The cells of a group of n figures. */
static void csv_group(FILE *out, const uint64_t *a, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    fprintf(out, ",%" PRIu64, a[i]);
}

/* Whether the profile holds divergence figures: then the function and line
 * tables end with divergence.<figure> columns (other profiles' CSV stays as
 * it was). */
static int csv_has_divergence(const pasta_profile *p) {
  for (size_t i = 0; i < p->num_kernels; ++i)
    if (pasta_div_any(p->kernels[i].div))
      return 1;
  for (size_t i = 0; i < p->num_device_functions; ++i)
    if (pasta_div_any(p->device_functions[i].div))
      return 1;
  return 0;
}

/* The count columns after a table's own (the function table's, or with
 * `lines` the line table's): the space groups it has, FLOPs, special
 * (and compute_intensity for functions), the ranks of a merged profile,
 * and the divergence figures when `div`; then the line's end. */
static void counts_header(FILE *out, const pasta_profile *p, int lines,
                          int div) {
#define PASTA_X(name, on_lines)                                                \
  if (!lines || on_lines)                                                      \
    csv_group_header(out, #name, PASTA_NUM_SPACES, pasta_space_name);
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  csv_group_header(out, "flops", PASTA_NUM_PRECISIONS, pasta_precision_name);
  fputs(lines ? ",special" : ",special,compute_intensity", out);
  if (p->num_merged_from)
    pasta__csv_ranks_header(out, lines ? "executions" : "calls");
  if (div)
    csv_group_header(out, "divergence", PASTA_DIV_NUM, pasta_div_name);
  putc('\n', out);
}

/* The cells of counts_header's columns for one entry: its counts, its
 * ranks and work (launches, calls or executions), its divergence figures. */
static void counts_cells(FILE *out, const pasta_profile *p, int lines, int div,
                         const pasta_counts *c, const pasta_rank_stats *ranks,
                         uint64_t work, const uint64_t *figures) {
#define PASTA_X(name, on_lines)                                                \
  if (!lines || on_lines)                                                      \
    csv_group(out, c->name, PASTA_NUM_SPACES);
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  csv_group(out, c->flops, PASTA_NUM_PRECISIONS);
  fprintf(out, ",%" PRIu64, c->special);
  double ci;
  if (!lines) {
    putc(',', out);
    if (pasta_counts_intensity(c, &ci))
      fprintf(out, "%.9g", ci);
  }
  if (p->num_merged_from)
    pasta__csv_ranks(out, p, ranks, work, c);
  if (div)
    csv_group(out, figures, PASTA_DIV_NUM);
  putc('\n', out);
}

void pasta__csv_funcs(FILE *out, const pasta_profile *p) {
  int div = csv_has_divergence(p);
  fputs("kind,name,mangled,module,file,line,calls", out);
  counts_header(out, p, 0, div);
  const pasta_profile_func *arrays[] = {p->kernels, p->device_functions,
                                        p->host_functions};
  size_t counts[] = {p->num_kernels, p->num_device_functions,
                     p->num_host_functions};
  for (unsigned a = 0; a < 3; ++a)
    for (size_t i = 0; i < counts[a]; ++i) {
      const pasta_profile_func *f = &arrays[a][i];
      fprintf(out, "%s,", pasta_kind_name(f->kind));
      pasta__csv_string(out, f->name);
      putc(',', out);
      pasta__csv_string(out, f->mangled);
      putc(',', out);
      pasta__csv_string(out, f->module);
      putc(',', out);
      pasta__csv_string(out, f->file);
      fprintf(out, ",%" PRIu32 ",%" PRIu64, f->line, f->calls);
      counts_cells(out, p, 0, div, &f->counts, f->ranks, f->calls, f->div);
    }
}

void pasta__csv_lines(FILE *out, const pasta_profile *p, size_t top) {
  int div = csv_has_divergence(p);
  fputs("file,line,function,kind,executions", out);
  counts_header(out, p, 1, div);
  for (size_t i = 0; i < p->num_lines && i < top; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    pasta__csv_string(out, l->file);
    fprintf(out, ",%" PRIu32 ",", l->line);
    pasta__csv_string(out, l->function);
    fprintf(out, ",%s,%" PRIu64, pasta_kind_name(l->kind), l->executions);
    counts_cells(out, p, 1, div, &l->counts, l->ranks, l->executions, l->div);
  }
}
