/*===- report_merge.c - pasta-report merge --------------------------------===*
 *
 * Sums several profiles into one, reading one input at a time and freeing
 * it before the next: functions by (kind, mangled name, module) and lines
 * by (file, line, function, kind), with their spread over the ranks,
 * through report_merge_counts.c; the
 * activity sections through report_activity_merge.c, the trace analyses
 * kept one per process (report_trace.c, spooled to a temporary file). The
 * inputs are files, the *.json files of directories, or glob patterns; the
 * output is written through output_file.h, never partially.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strverscmp */

#include "report.h"
#include "report_activity.h"
#include "report_merge_counts.h"
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

/* Names in natural order, numbers by value: rank2.json before rank10.json,
 * so the processes of a job are merged in rank order. */
static int cmp_string_ptr(const void *a, const void *b) {
  return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Whether `path` is the output (which a directory or a pattern may hold
 * after an earlier merge). */
static int is_output(const char *path, const struct stat *out) {
  struct stat st;
  return out && stat(path, &st) == 0 && st.st_dev == out->st_dev &&
         st.st_ino == out->st_ino;
}

/* The regular files named *.json in `dir`, in natural order. Returns 0,
 * or 2 after printing one error line. */
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
  size_t first = in->n;
  for (size_t i = 0; !rc && i < g.gl_pathc; ++i) {
    /* "rank*" may match directories too; like a directory's *.json, only
     * regular files are merged (a fifo there would block for ever). */
    struct stat st;
    if (stat(g.gl_pathv[i], &st) == 0 && !S_ISREG(st.st_mode))
      continue;
    if (!is_output(g.gl_pathv[i], out) && add_input_path(in, g.gl_pathv[i])) {
      pasta__report_error("%s", strerror(ENOMEM));
      rc = 1;
    }
  }
  globfree(&g);
  if (!rc && in->n == first) {
    pasta__report_error("%s: matches no regular file (directories, fifos and "
                        "devices are left out)",
                        pattern);
    return 2;
  }
  qsort(in->paths + first, in->n - first, sizeof *in->paths, cmp_string_ptr);
  return rc;
}

/* An input's identity, for finding the same file named twice. */
struct identity {
  dev_t dev;
  ino_t ino;
  size_t index;
};

static int cmp_identity(const void *a, const void *b) {
  const struct identity *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  if (x->ino != y->ino)
    return x->ino < y->ino ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Drops every input that is a file named before it (by identity: device
 * and inode, whatever the name: a directory and a pattern of its files
 * name the same files), keeping the first; one line says how many were dropped.
 * Inputs that cannot be stat'ed stay (reading them says what is wrong). Returns
 * 0, or 1 without memory. */
static int drop_duplicates(struct inputs *in) {
  struct identity *ids = malloc((in->n ? in->n : 1) * sizeof *ids);
  unsigned char *dup = calloc(in->n ? in->n : 1, 1);
  if (!ids || !dup) {
    free(ids);
    free(dup);
    return 1;
  }
  size_t n = 0;
  for (size_t i = 0; i < in->n; ++i) {
    struct stat st;
    if (stat(in->paths[i], &st) == 0)
      ids[n++] = (struct identity){st.st_dev, st.st_ino, i};
  }
  qsort(ids, n, sizeof *ids, cmp_identity);
  size_t dropped = 0, first_dup = 0, first_of = 0;
  for (size_t i = 1, run = 0; i < n; ++i) {
    if (ids[i].dev != ids[run].dev || ids[i].ino != ids[run].ino) {
      run = i; /* a file not seen before */
      continue;
    }
    if (!dropped++ || ids[i].index < first_dup) {
      first_dup = ids[i].index;
      first_of = ids[run].index;
    }
    dup[ids[i].index] = 1;
  }
  if (dropped)
    pasta__report_warning(
        "%zu input%s named a file named before (%s is %s); each file is "
        "merged once",
        dropped, dropped == 1 ? "" : "s", in->paths[first_dup],
        in->paths[first_of]);
  size_t kept = 0;
  for (size_t i = 0; i < in->n; ++i) {
    if (dup[i])
      free(in->paths[i]);
    else
      in->paths[kept++] = in->paths[i];
  }
  in->n = kept;
  free(ids);
  free(dup);
  return 0;
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
    else if (found && is_output(args[i], out))
      rc = (pasta__report_error("the output %s is the input %s: merge would "
                                "replace its own input (name another output)",
                                out_path, args[i]),
            2);
    else if (add_input_path(in, args[i])) /* load_profile says what's wrong */
      rc = (pasta__report_error("%s", strerror(ENOMEM)), 1);
    if (rc)
      return rc;
  }
  if (drop_duplicates(in)) {
    pasta__report_error("%s", strerror(ENOMEM));
    return 1;
  }
  return 0;
}

/* What merge accumulates, one input at a time. */
struct merged {
  pasta_merge_counts *sums; /* functions and lines (report_merge_counts.h) */
  pasta_profile counts;     /* merged_from as it grows, then everything */
  char **programs;          /* the distinct programs, in input order */
  size_t num_programs, cap_programs;
  int64_t created;  /* the latest input's */
  size_t processes; /* entries of merged_from so far */
  pasta_report_merge *activity;
  FILE *traces; /* the "traces" entries so far (a temporary file) */
  size_t num_traces;
};

/* The processes of input `in` (read from `path`) join merged_from: the
 * input itself, or the processes of a merged input; its notes of what the
 * counts miss join the merged profile's. */
static int add_sources(pasta_profile *out, const pasta_profile *in,
                       const char *path) {
  int err = 0;
  for (size_t j = 0; j < in->num_merged_from && !err; ++j)
    err = pasta_profile_add_source(out, &in->merged_from[j]);
  if (!in->num_merged_from) {
    pasta_profile_source src = {path, in->program, in->pid, in->created,
                                in->job};
    err = pasta_profile_add_source(out, &src);
  }
  /* What the input's counts miss, the merged counts miss too. */
  for (size_t j = 0; j < in->num_uncounted && !err; ++j)
    err = pasta_profile_add_uncounted(out, in->uncounted[j]);
  return err ? -1 : 0;
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
  uint64_t processes = m->processes - first_process;
  if (add_program(m, in.program) || add_sources(&m->counts, &in, path) ||
      pasta__merge_counts_add(m->sums, &in, first_process, processes) ||
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
  struct pasta__report_args o;
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
    m.sums = pasta__merge_counts_new();
    m.activity = pasta__report_merge_new();
    m.traces = tmpfile();
    if (!m.sums || !m.activity || !m.traces) {
      int no_file = m.sums && m.activity;
      pasta__report_error(no_file ? "cannot create a temporary file: %s" : "%s",
                          strerror(no_file ? errno : ENOMEM));
      rc = 1;
    }
  }
  /* One input at a time: each is read, added and freed before the next. */
  for (size_t i = 0; !rc && i < in.n; ++i)
    rc = merge_one(&m, in.paths[i]);
  char *program = rc ? NULL : joined_programs(&m);
  if (!rc &&
      (!program || pasta_profile_set_info(&m.counts, program, 0, m.created) ||
       pasta__merge_counts_build(m.sums, m.processes, &m.counts) ||
       pasta_profile_finalize(&m.counts))) {
    pasta__report_error("%s", strerror(ENOMEM));
    rc = 1;
  }
  free(program);
  size_t unspread = rc ? 0 : pasta__merge_counts_without_spread(m.sums);
  if (unspread)
    fprintf(stderr,
            "pasta-report: warning: %zu functions and lines have no per-rank "
            "figures: a merged input older than version 3 had them without "
            "(merge its inputs again instead)\n",
            unspread);
  if (!rc) {
    /* Through the runtime's writer (output_file.h): a unique temporary
     * next to the output, then renamed, so never a partial profile; only a
     * regular file is replaced, and only with --force. */
    char err[512], *written = NULL;
    pasta_output_how how = {o.force ? PASTA_OUTPUT_REPLACE
                                    : PASTA_OUTPUT_EXCLUSIVE,
                            PASTA_FILE_ANY, NULL, NULL};
    if (pasta__output_write(out_path, &how, write_merged, &m, &written, err,
                            sizeof err)) {
      pasta__report_error("cannot write the merged profile: %s", err);
      rc = 1;
    }
    free(written);
  }
  pasta_profile_free(&m.counts);
  pasta__merge_counts_free(m.sums);
  for (size_t i = 0; i < m.num_programs; ++i)
    free(m.programs[i]);
  free(m.programs);
  pasta__report_merge_free(m.activity);
  if (m.traces)
    fclose(m.traces);
  inputs_free(&in);
  return rc;
}
