/*===- report_merge.c - pasta-report merge --------------------------------===*
 *
 * Sums several profiles into one, reading one input at a time: functions by
 * (kind, mangled name, module) and lines by (file, line, function, kind),
 * through the runtime's model, which is finalized after each input; the
 * activity sections through report_activity_merge.c, the trace analyses
 * kept one per process (report_trace.c, spooled to a temporary file). The
 * inputs are files, the *.json files of directories, or glob patterns; the
 * output is written through output_file.h, never partially.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_activity.h"
#include "report_trace.h"

#include "profile/output_file.h"
#include "profile/profile_json.h"
#include "profile/vec.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    d->loads[i] = pasta__sat_add(d->loads[i], s->loads[i]);
    d->stores[i] = pasta__sat_add(d->stores[i], s->stores[i]);
    d->load_bytes[i] = pasta__sat_add(d->load_bytes[i], s->load_bytes[i]);
    d->store_bytes[i] = pasta__sat_add(d->store_bytes[i], s->store_bytes[i]);
    d->atomics[i] = pasta__sat_add(d->atomics[i], s->atomics[i]);
    d->atomic_bytes[i] = pasta__sat_add(d->atomic_bytes[i], s->atomic_bytes[i]);
  }
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    d->flops[i] = pasta__sat_add(d->flops[i], s->flops[i]);
  d->special = pasta__sat_add(d->special, s->special);
}

/* The inputs of merge: files, the *.json files of directories, and the
 * files that glob patterns match (for when the shell did not expand them,
 * or the expansion would be too long for one command line). */
struct inputs {
  char **paths; /* owned */
  size_t n, cap;
};

static int add_input_path(struct inputs *in, const char *path) {
  if (GROW(in->paths, in->cap, in->n))
    return -1;
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
    pasta__report_error("%s: %s", dir, strerror(errno));
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
    pasta__report_error("%s", strerror(ENOMEM));
    return 1;
  }
  if (in->n == first) {
    pasta__report_error(
        "%s: a directory without profiles (no *.json file in it)", dir);
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
    pasta__report_error("%s: no such file, and no file matches it as a pattern",
                        pattern);
    return 2;
  }
  if (grc != 0) {
    pasta__report_error("%s: %s", pattern,
                        grc == GLOB_NOSPACE ? strerror(ENOMEM)
                                            : "cannot read a directory");
    return grc == GLOB_NOSPACE ? 1 : 2;
  }
  int rc = 0;
  for (size_t i = 0; !rc && i < g.gl_pathc; ++i) {
    struct stat st;
    if (stat(g.gl_pathv[i], &st) == 0 && S_ISDIR(st.st_mode))
      continue; /* "rank*" may match directories too */
    if (!is_output(g.gl_pathv[i], out) && add_input_path(in, g.gl_pathv[i])) {
      pasta__report_error("%s", strerror(ENOMEM));
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
      rc = (pasta__report_error("%s", strerror(ENOMEM)), 1);
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
      sum.calls = pasta__sat_add(sum.calls, all[j]->calls);
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
  size_t num_programs, cap_programs;
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
  if (GROW(m->programs, m->cap_programs, m->num_programs))
    return -1;
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
  int rc = pasta__load_profile(path, NULL, &in, &root);
  if (rc)
    return rc;
  size_t first_process = m->processes;
  m->processes += in.num_merged_from ? in.num_merged_from : 1;
  if (first_process == 0 || in.created > m->created)
    m->created = in.created;
  if (add_program(m, in.program) || fold_counts(&m->counts, &in, path) ||
      pasta__report_merge_add(m->activity, root, first_process)) {
    pasta__report_error("%s", strerror(ENOMEM));
    rc = 1;
  } else if (pasta__report_merge_traces_add(m->traces, root, first_process,
                                            &m->num_traces)) {
    pasta__report_error("cannot write a temporary file: %s",
                        strerror(errno ? errno : EIO));
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
  return pasta__profile_write_json_members(f, &m->counts) ||
         pasta__report_merge_write(f, m->activity, &m->counts) ||
         copy_traces(f, m) ||
         pasta__report_merge_traces_end(f, m->num_traces) ||
         fputs("}\n", f) == EOF || ferror(f);
}

int pasta__cmd_merge(int argc, char **argv) {
  struct pasta__options o;
  int rc = pasta__parse_args(argc, argv, "force search-dir", &o);
  if (rc)
    return rc;
  if (o.num_positional < 2)
    return pasta__usage_error(
        "merge needs OUT.json and at least one input (files, "
        "directories or patterns)");
  const char *out_path = o.positional[0];
  struct stat st;
  if (!o.force && stat(out_path, &st) == 0) {
    pasta__report_error(
        "%s exists: merge would overwrite it (the output comes first: "
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
    m.activity = pasta__report_merge_new();
    m.traces = tmpfile();
    if (!m.activity || !m.traces) {
      pasta__report_error(m.activity ? "cannot create a temporary file: %s"
                                     : "%s",
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
    pasta__report_error("%s", strerror(ENOMEM));
    rc = 1;
  }
  free(program);
  if (!rc) {
    /* Through the runtime's writer (output_file.h): a unique temporary
     * next to the output, then renamed, so never a partial profile; only a
     * regular file is replaced, and only with --force. */
    char err[512], *written = NULL;
    if (pasta__output_write(
            out_path, o.force ? PASTA_OUTPUT_REPLACE : PASTA_OUTPUT_EXCLUSIVE,
            NULL, write_merged, &m, &written, err, sizeof err)) {
      pasta__report_error("cannot write the merged profile: %s", err);
      rc = 1;
    }
    free(written);
  }
  pasta_profile_free(&m.counts);
  for (size_t i = 0; i < m.num_programs; ++i)
    free(m.programs[i]);
  free(m.programs);
  pasta__report_merge_free(m.activity);
  if (m.traces)
    fclose(m.traces);
  inputs_free(&in);
  return rc;
}
