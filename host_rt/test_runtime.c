/*===- test_runtime.c - Tests of the PASTA host runtime -------------------===*
 *
 * Registers modules the way instrumented code does: a host module, and
 * "device" modules read through fake vendor calls (device memory is host
 * memory here) with PASTA_DEVICE_MIN_BANKS counter banks, one whose counters
 * cannot be copied, one from another ABI version, one whose device cannot
 * be synchronized, and a host module with a bad magic. Then it checks the
 * report: the JSON file (parsed back with jansson), the tables and warnings
 * on stderr, and, in child processes, the exit() path, PASTA_QUIET and an
 * unwritable output path.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* setenv, fork, dup, mkdtemp, program_invocation_name */

#include "output.h" /* pasta__stderr_remember */
#include "pasta/abi.h"
#include "readback.h" /* pasta__clear_unmeasured_divergence */
#include "report.h"   /* pasta__report: what the runtime's destructor runs */

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/check.h"

void __pasta_register_host_module(const struct pasta_module_desc *desc);
void __pasta_host_flush(uint64_t *counters, uint32_t first,
                        const uint64_t *values, uint32_t n);
void __pasta_host_flush_groups(uint64_t *counters, uint32_t first,
                               uint64_t *values, uint32_t n, uint64_t groups,
                               uint32_t group);
void __pasta_register_device_module(const void *desc_symbol,
                                    const struct pasta_vendor_ops *ops);
void __pasta_main_exit(void);
void __pasta_register_kernel(const void *, const char *, const void *,
                             const void *, const void *, int, uint64_t,
                             const void *);
void __pasta_before_device_reset(void);

/*===-- A host module -----------------------------------------------------===*/

static const char host_strings[] = "main\0m.c";
static const struct pasta_func host_funcs[] = {
    {0, PASTA_FUNC_HOST, 5, 1, 0, PASTA_NONE, PASTA_NONE}};
static struct pasta_site host_sites[1];
static uint64_t host_counters[2];
static struct pasta_module_desc host_desc = {PASTA_ABI_MAGIC,
                                             PASTA_ABI_VERSION,
                                             PASTA_TARGET_HOST,
                                             1,
                                             1,
                                             1,
                                             2,
                                             sizeof host_strings,
                                             0,
                                             0,
                                             0,
                                             0,
                                             5,
                                             0,
                                             0,
                                             0,
                                             0,
                                             0,
                                             0,
                                             0,
                                             0,
                                             0,
                                             0};
static struct pasta_module_desc bad_magic_desc = {0xdeadbeef,
                                                  PASTA_ABI_VERSION,
                                                  PASTA_TARGET_HOST,
                                                  1,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0};

/*===-- Fake device modules -----------------------------------------------===*/

/* Counter 1 (the site's block) is derived, as a function counting edges
 * has it: the device counts edges 10 and 11, and block 1 = c10 - c11. */
enum {
  DEV_COUNTERS = 2 + PASTA_DYN_NUM + 2,
  DEV_EDGE_IN = 2 + PASTA_DYN_NUM,
  DEV_EDGE_OUT,
  DEV_SHARED_LOADS = 16
};

struct fake_device_module {
  char strings[32];
  struct pasta_func funcs[1];
  struct pasta_site sites[1];
  uint64_t counters[PASTA_DEVICE_MIN_BANKS][DEV_COUNTERS];
  struct pasta_derived derived[2];
  struct pasta_module_desc desc; /* the "device symbol" */
};

static struct fake_device_module good, bad, old, unsynced;
/* One module on two GPUs: each GPU has its own copy of the counters. */
static struct fake_device_module multi[2];
static int multi_current = 1;          /* the program's current GPU */
static const uint64_t *failing_source; /* fake_memcpy fails on this */
static int sync_calls;

static void build_device(struct fake_device_module *m, const char *module) {
  /* strings: "_Z1kv\0<module>\0" */
  memcpy(m->strings, "_Z1kv", 6);
  size_t len = strlen(module) + 1;
  memcpy(m->strings + 6, module, len);
  m->funcs[0] = (struct pasta_func){0, PASTA_FUNC_KERNEL, 6,         5,
                                    0, PASTA_NONE,        PASTA_NONE};
  memset(m->sites, 0, sizeof m->sites);
  m->sites[0].func = 0;
  m->sites[0].file = 6;
  m->sites[0].line = 7;
  m->sites[0].counter = 1;
  m->sites[0].dyn_counter = 2;
  m->sites[0].bytes_counter = PASTA_NONE;
  m->sites[0].mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 1;
  m->sites[0].mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 4;
  m->sites[0].mix[PASTA_MIX_FLOPS + PASTA_PREC_F32] = 1;
  /* Launches: 2, all flushed into bank 0. Block executions: b + 1 in bank
   * b, derived from edges 3 (b + 1) and 2 (b + 1). Generic loads found
   * shared: 10 in bank 5, 6 in bank 200. */
  memset(m->counters, 0, sizeof m->counters);
  m->counters[0][0] = 2;
  for (uint32_t b = 0; b < PASTA_DEVICE_MIN_BANKS; ++b) {
    m->counters[b][DEV_EDGE_IN] = 3 * (b + 1);
    m->counters[b][DEV_EDGE_OUT] = 2 * (b + 1);
  }
  m->derived[0] = (struct pasta_derived){1, DEV_EDGE_IN, 1};
  m->derived[1] = (struct pasta_derived){1, DEV_EDGE_OUT, -1};
  m->counters[5][2 + PASTA_DYN_LD_SHARED] = 10;
  m->counters[200][2 + PASTA_DYN_LD_SHARED] = DEV_SHARED_LOADS - 10;
  m->counters[5][2 + PASTA_DYN_LD_SHARED_BYTES] = 4 * DEV_SHARED_LOADS;
  m->desc = (struct pasta_module_desc){PASTA_ABI_MAGIC,
                                       PASTA_ABI_VERSION,
                                       PASTA_TARGET_NVPTX,
                                       PASTA_DEVICE_MIN_BANKS,
                                       1,
                                       1,
                                       DEV_COUNTERS,
                                       (uint32_t)(6 + len),
                                       (uint64_t)(uintptr_t)m->funcs,
                                       (uint64_t)(uintptr_t)m->sites,
                                       (uint64_t)(uintptr_t)m->strings,
                                       (uint64_t)(uintptr_t)m->counters,
                                       6,
                                       0,
                                       0,
                                       0,
                                       0,
                                       2,
                                       0,
                                       (uint64_t)(uintptr_t)m->derived,
                                       0,
                                       0,
                                       0};
}

static int fake_memcpy_from_symbol(void *dst, const void *symbol,
                                   uint64_t count, uint64_t offset, int kind) {
  if (kind != PASTA_MEMCPY_DEVICE_TO_HOST)
    return 1;
  memcpy(dst, (const char *)symbol + offset, count);
  return 0;
}

static int fake_memcpy(void *dst, const void *src, uint64_t count, int kind) {
  if (kind != PASTA_MEMCPY_DEVICE_TO_HOST)
    return 1;
  if (src == failing_source)
    return 700;
  memcpy(dst, src, count);
  return 0;
}

static const char *fake_error_string(int err) {
  return err == 700 ? "fake illegal address" : "fake error";
}

static int fake_sync(void) {
  ++sync_calls;
  return 0;
}

static int failing_sync(void) { return 999; }

/* The descriptor read is the current GPU's copy (the tables and counters it
 * points to are that GPU's). */
static int multi_memcpy_from_symbol(void *dst, const void *symbol,
                                    uint64_t count, uint64_t offset, int kind) {
  (void)symbol;
  return fake_memcpy_from_symbol(dst, &multi[multi_current].desc, count, offset,
                                 kind);
}
static int multi_get_device_count(int *n) {
  *n = 2;
  return 0;
}
static int multi_get_device(int *d) {
  *d = multi_current;
  return 0;
}
static int multi_set_device(int d) {
  if (d < 0 || d > 1)
    return 101;
  multi_current = d;
  return 0;
}

static const struct pasta_vendor_ops fake_ops = {
    .memcpy_from_symbol = fake_memcpy_from_symbol,
    .memcpy = fake_memcpy,
    .get_error_string = fake_error_string,
    .device_synchronize = fake_sync};
static const struct pasta_vendor_ops multi_ops = {
    .memcpy_from_symbol = multi_memcpy_from_symbol,
    .memcpy = fake_memcpy,
    .get_error_string = fake_error_string,
    .device_synchronize = fake_sync,
    .get_device_count = multi_get_device_count,
    .get_device = multi_get_device,
    .set_device = multi_set_device};
static const struct pasta_vendor_ops unsynced_ops = {
    .memcpy_from_symbol = fake_memcpy_from_symbol,
    .memcpy = fake_memcpy,
    .get_error_string = fake_error_string,
    .device_synchronize = failing_sync};

/*===-- Helpers -----------------------------------------------------------===*/

static char dir[64];

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *buf = calloc((size_t)size + 1, 1);
  if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Runs `fn` with stderr going to `path`. */
static void with_stderr_to(const char *path, void (*fn)(void)) {
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
  pasta__stderr_remember(); /* the tables go there: it is "the" stderr */
  fn();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  pasta__stderr_remember();
}

/* main returns (the device stage, as no vendor call armed an exit
 * handler), then the runtime's destructor reports, once. */
static void report_twice(void) {
  __pasta_main_exit();
  __pasta_main_exit();
  pasta__report();
  pasta__report();
}

static uint64_t jint(json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  return json_is_integer(v) ? (uint64_t)json_integer_value(v) : UINT64_MAX;
}

/* A child that leaves through exit(), with its stderr in `err_path`. */
static pid_t child(const char *output, const char *quiet, const char *top,
                   const char *err_path) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
  pasta__stderr_remember();
  setenv("PASTA_OUTPUT", output, 1);
  if (quiet)
    setenv("PASTA_QUIET", quiet, 1);
  if (top)
    setenv("PASTA_TOP_LINES", top, 1);
  exit(0); /* the runtime's destructor reports */
}

static int wait_ok(pid_t pid) {
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

/* Read-back clears the divergence rows of a registered kernel that never
 * ran its divergence copy, and of a device function only it reaches; rows of
 * a kernel the program never registered, and of a device function several
 * kernels share, stay. (Which launches count as having run the copy is
 * test_intercept's.) */
static char never_ran_handle;
static int test_unmeasured_divergence(void) {
  __pasta_register_kernel(&never_ran_handle, "_Z5quietv", NULL, NULL, NULL, 0,
                          0, NULL);
  static const char strings[] = "_Z5quietv\0_Z5otherv\0_Z3devv\0_Z3comv";
  const struct pasta_func funcs[] = {
      {0, PASTA_FUNC_KERNEL, PASTA_NONE, 0, 0, PASTA_NONE, PASTA_NONE},
      {10, PASTA_FUNC_KERNEL, PASTA_NONE, 0, 0, PASTA_NONE, PASTA_NONE},
      {20, PASTA_FUNC_DEVICE, PASTA_NONE, 0, 0, 0, PASTA_NONE},
      {28, PASTA_FUNC_DEVICE, PASTA_NONE, 0, 0, PASTA_NONE, PASTA_NONE}};
  const struct pasta_div_row rows[] = {
      {0, PASTA_NONE, 1, 0, 0, 0},
      {1, PASTA_NONE, 2, PASTA_DIV_NUM, 0, 0},
      {2, PASTA_NONE, 3, 2 * PASTA_DIV_NUM, 0, 0},
      {3, PASTA_NONE, 4, 3 * PASTA_DIV_NUM, 0, 0}};
  uint64_t sum[4 * PASTA_DIV_NUM + 1];
  for (size_t i = 0; i < sizeof sum / sizeof sum[0]; ++i)
    sum[i] = i + 1;
  struct pasta__snapshot s = {0};
  s.desc.num_funcs = 4;
  s.desc.num_div_rows = 4;
  s.desc.num_counters = sizeof sum / sizeof sum[0];
  s.desc.strings_size = sizeof strings;
  s.funcs = (void *)funcs;
  s.div_rows = (void *)rows;
  s.strings = (char *)strings;
  s.sum = sum;
  pasta__clear_unmeasured_divergence(&s);
  int ok = 1;
  for (size_t i = 0; i < sizeof sum / sizeof sum[0]; ++i) {
    int cleared = i < PASTA_DIV_NUM || /* _Z5quietv's row */
                  (i >= 2 * PASTA_DIV_NUM && i < 3 * PASTA_DIV_NUM);
    ok &= sum[i] == (cleared ? 0 : i + 1);
  }
  return ok;
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/pasta-rt-test-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }

  /* What the global constructors of an instrumented program do. */
  host_sites[0] = (struct pasta_site){0, 5, 3, 1, PASTA_NONE, PASTA_NONE, {0}};
  host_sites[0].mix[PASTA_MIX_LOADS + PASTA_SPACE_GENERIC] = 1;
  host_sites[0].mix[PASTA_MIX_LOAD_BYTES + PASTA_SPACE_GENERIC] = 4;
  host_desc.funcs = (uint64_t)(uintptr_t)host_funcs;
  host_desc.sites = (uint64_t)(uintptr_t)host_sites;
  host_desc.strings = (uint64_t)(uintptr_t)host_strings;
  host_desc.counters = (uint64_t)(uintptr_t)host_counters;
  __pasta_register_host_module(&host_desc);
  __pasta_register_host_module(&bad_magic_desc);
  build_device(&good, "k.cu");
  build_device(&bad, "bad.cu");
  build_device(&old, "old.cu");
  build_device(&unsynced, "unsynced.cu");
  old.desc.version = 99;
  failing_source = &bad.counters[0][0];
  __pasta_register_device_module(&good.desc, &fake_ops);
  __pasta_register_device_module(&bad.desc, &fake_ops);
  __pasta_register_device_module(&old.desc, &fake_ops);
  __pasta_register_device_module(&unsynced.desc, &unsynced_ops);
  build_device(&multi[0], "multi.cu");
  build_device(&multi[1], "multi.cu");
  __pasta_register_device_module(&multi[0].desc, &multi_ops);

  /* What instrumented host code does: flush its local counts. */
  const uint64_t call[2] = {1, 0}, block[2] = {0, 5};
  __pasta_host_flush(host_counters, 0, call, 2);
  __pasta_host_flush(host_counters, 0, block, 2);
  __pasta_host_flush(host_counters, 1, block + 1, 1);
  CHECK(host_counters[0] == 1 && host_counters[1] == 10);
  check_case_end("host_flush");

  /* Group flushes: 10 elements in groups of 4 (the last one of 2), for
   * counters 3..12 of 14. Groups 0 and 2 are added and reset, zeros
   * included; group 1's elements stay where they are, unadded. */
  {
    uint64_t counters[14], values[10];
    for (int i = 0; i < 14; ++i)
      counters[i] = 100 + (uint64_t)i;
    for (int i = 0; i < 10; ++i)
      values[i] = i % 3 ? (uint64_t)i : 0;
    __pasta_host_flush_groups(counters, 3, values, 10, 0x5, 4);
    for (int i = 0; i < 14; ++i) {
      int element = i - 3, in_set = element >= 0 && element < 10 &&
                                    (element < 4 || element >= 8);
      uint64_t want = 100 + (uint64_t)i + (in_set && element % 3 ? element : 0);
      CHECK(counters[i] == want);
    }
    for (int i = 0; i < 10; ++i)
      CHECK(values[i] == (i >= 4 && i < 8 && i % 3 ? (uint64_t)i : 0));
    check_case_end("host_flush_groups");
  }

  /* Children first: the parent may report only once. */
  char out_a[128], err_a[128], out_b[128], err_b[128], file_b[160];
  snprintf(out_a, sizeof out_a, "%s/no-such-dir/p.json", dir);
  snprintf(err_a, sizeof err_a, "%s/a.err", dir);
  pid_t a = child(out_a, NULL, NULL, err_a);
  CHECK(wait_ok(a));
  char *text = slurp(err_a);
  char expected[256];
  snprintf(expected, sizeof expected,
           "pasta: error: cannot write the profile: cannot create a file in "
           "%s/no-such-dir: %s (PASTA_OUTPUT sets the profile's path)\n",
           dir, strerror(ENOENT));
  CHECK(text && strstr(text, expected));
  CHECK(text && strstr(text, "== PASTA: profile of")); /* exit() reports */
  CHECK(text && !strstr(text, "profile written"));
  free(text);
  check_case_end("exit_path_and_unwritable_output");

  snprintf(out_b, sizeof out_b, "%s/quiet-%%p.json", dir);
  snprintf(err_b, sizeof err_b, "%s/b.err", dir);
  pid_t b = child(out_b, "1", "many", err_b);
  CHECK(wait_ok(b));
  snprintf(file_b, sizeof file_b, "%s/quiet-%ld.json", dir, (long)b);
  CHECK(exists(file_b));
  text = slurp(err_b);
  CHECK(text && !strstr(text, "== PASTA"));
  CHECK(text && !strstr(text, "profile written"));
  CHECK(text &&
        strstr(text, "pasta: warning: ignoring PASTA_TOP_LINES='many'"));
  CHECK(text && strstr(text, "'bad.cu'")); /* warnings stay */
  free(text);
  remove(file_b);
  /* A leading blank or sign is no count (as for every numeric variable;
   * before: ' 5' and '+5' were taken as 5). */
  b = child(out_b, "1", " 5", err_b);
  CHECK(wait_ok(b));
  text = slurp(err_b);
  CHECK(text && strstr(text, "pasta: warning: ignoring PASTA_TOP_LINES=' 5'"));
  free(text);
  snprintf(file_b, sizeof file_b, "%s/quiet-%ld.json", dir, (long)b);
  remove(file_b);
  check_case_end("quiet");

  /* PASTA_QUIET=off (any case) is not quiet; a value that is no yes/no
   * warns once, naming what is accepted, and is not quiet either. */
  const char *not_quiet[] = {"off", "FALSE", "sometimes"};
  for (int i = 0; i < 3; ++i) {
    char err_q[128];
    snprintf(err_q, sizeof err_q, "%s/q%d.err", dir, i);
    pid_t q = child(out_b, not_quiet[i], NULL, err_q);
    CHECK(wait_ok(q));
    text = slurp(err_q);
    CHECK(text && strstr(text, "== PASTA: profile of"));
    CHECK(text && strstr(text, "profile written"));
    CHECK(text && (i < 2) == !strstr(text, "pasta: warning: ignoring "
                                           "PASTA_QUIET='sometimes' (not "
                                           "1/0, on/off, true/false or "
                                           "yes/no); using 0\n"));
    free(text);
    snprintf(file_b, sizeof file_b, "%s/quiet-%ld.json", dir, (long)q);
    remove(file_b);
  }
  check_case_end("quiet_values");

  /* PASTA_ANALYZERS: names separated by commas or semicolons, blanks and
   * letter case ignored; unknown names warn; a list naming no analyzer runs
   * them all (tables and profile) rather than none. */
  static const struct {
    const char *list;
    int tables, profile, unknown_warning, all_warning;
  } lists[] = {
      {"bogus", 1, 1, 1, 1},       {"JSON", 0, 1, 0, 0},
      {"tables;json", 1, 1, 0, 0}, {" json", 0, 1, 0, 0},
      {"json,bogus", 0, 1, 1, 0},  {" Tables , ", 1, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; ++i) {
    char err_a2[128], file_a2[160];
    snprintf(err_a2, sizeof err_a2, "%s/an%zu.err", dir, i);
    setenv("PASTA_ANALYZERS", lists[i].list, 1);
    pid_t q = child(out_b, NULL, NULL, err_a2);
    unsetenv("PASTA_ANALYZERS");
    CHECK(wait_ok(q));
    snprintf(file_a2, sizeof file_a2, "%s/quiet-%ld.json", dir, (long)q);
    text = slurp(err_a2);
    int ok = text != NULL;
    ok &= !!strstr(text ? text : "", "== PASTA: profile of") == lists[i].tables;
    ok &= exists(file_a2) == lists[i].profile;
    ok &= !!strstr(text ? text : "",
                   "pasta: warning: PASTA_ANALYZERS names "
                   "'bogus', which is no analyzer of this "
                   "program; ignored\n") == lists[i].unknown_warning;
    ok &=
        !!strstr(text ? text : "",
                 "selects none of this program's analyzers (tables, "
                 "kernels, working-set, bandwidth, trace, json, html); all of "
                 "them run\n") == lists[i].all_warning;
    CHECK(ok);
    if (!ok)
      printf("PASTA_ANALYZERS='%s':\n%s", lists[i].list, text ? text : "");
    free(text);
    remove(file_a2);
  }
  check_case_end("analyzer_lists");

  /* A cudaDeviceReset (what the pass puts before one): the counts so far
   * are carried over, the device copy starts again from zero, and what runs
   * after it comes on top. The final report must show both. */
  __pasta_before_device_reset();
  memset(good.counters, 0, sizeof good.counters);
  good.counters[0][0] = 3;            /* 3 more launches */
  good.counters[7][DEV_EDGE_IN] = 11; /* 11 more block executions, bank 7 */
  /* The reset hits the current GPU (1) only: its counts are carried, its
   * copy starts again from zero; GPU 0 keeps its own. */
  memset(multi[1].counters, 0, sizeof multi[1].counters);

  /* The parent: main returns. */
  char out[128], err[128], file[192], tmp[200];
  snprintf(out, sizeof out, "%s/prof-%%p.%%p.json", dir);
  snprintf(err, sizeof err, "%s/parent.err", dir);
  long pid = (long)getpid();
  snprintf(file, sizeof file, "%s/prof-%ld.%ld.json", dir, pid, pid);
  snprintf(tmp, sizeof tmp, "%s.tmp", file);
  setenv("PASTA_OUTPUT", out, 1);
  setenv("PASTA_TOP_LINES", "1", 1);
  unsetenv("PASTA_QUIET");
  with_stderr_to(err, report_twice);
  CHECK(sync_calls >= 3); /* before reading each synchronizable module */
  CHECK(exists(file) && !exists(tmp));
  text = slurp(err);
  CHECK(text != NULL);
  if (text) {
    const char *expect[] = {
        "pasta: warning: host module at ",
        "has no PASTA descriptor (magic 0xdeadbeef)",
        ("pasta: warning: cannot read device module 'bad.cu' (copying its "
         "counters): fake illegal address (error 700)"),
        "was built for PASTA ABI version 99, this runtime reads version",
        ("pasta: error: device counts are missing: synchronizing the GPU "
         "failed (fake error, error 999)"),
        "== PASTA: profile of ",
        "Top 1 of 3 executed lines", /* k.cu:7, multi.cu:7, m.c:3 */
        "pasta: profile written to ",
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; ++i) {
      CHECK(strstr(text, expect[i]) != NULL);
      if (!strstr(text, expect[i]))
        printf("missing: %s\n", expect[i]);
    }
    /* Reported once. */
    const char *first = strstr(text, "== PASTA");
    CHECK(first && !strstr(first + 1, "== PASTA"));
    if (getenv("PASTA_TEST_VERBOSE"))
      fputs(text, stdout);
  }
  free(text);
  check_case_end("stderr_report");

  text = slurp(file);
  json_error_t jerr;
  json_t *root = text ? json_loads(text, JSON_REJECT_DUPLICATES, &jerr) : NULL;
  CHECK(root != NULL);
  if (root) {
    CHECK(jint(root, "pid") == (uint64_t)pid);
    CHECK(strcmp(json_string_value(json_object_get(root, "program")),
                 program_invocation_name) == 0);
    json_t *kernels = json_object_get(root, "kernels");
    CHECK(json_array_size(kernels) == 2);
    json_t *k = json_array_get(kernels, 0), *mk = json_array_get(kernels, 1);
    if (k && strcmp(json_string_value(json_object_get(k, "module")), "k.cu"))
      k = json_array_get(kernels, 1), mk = json_array_get(kernels, 0);
    /* Both GPUs' counts (the reset GPU's carried): 2 + 2 launches, and the
     * block executions 1 + ... + 256 twice. */
    uint64_t per_gpu =
        (uint64_t)PASTA_DEVICE_MIN_BANKS * (PASTA_DEVICE_MIN_BANKS + 1) / 2;
    CHECK(mk && jint(mk, "launches") == 4);
    CHECK(mk && jint(json_object_get(mk, "flops"), "f32") == 2 * per_gpu);
    CHECK(multi_current == 1); /* the program's GPU is restored */
    /* Block executions summed over the banks: 1 + 2 + ... + 256 before the
     * reset, 11 after it. */
    uint64_t n =
        (uint64_t)PASTA_DEVICE_MIN_BANKS * (PASTA_DEVICE_MIN_BANKS + 1) / 2 +
        11;
    CHECK(strcmp(json_string_value(json_object_get(k, "name")), "k()") == 0);
    CHECK(strcmp(json_string_value(json_object_get(k, "module")), "k.cu") == 0);
    CHECK(jint(k, "launches") == 2 + 3);
    json_t *loads = json_object_get(k, "loads");
    CHECK(jint(loads, "global") == n - DEV_SHARED_LOADS);
    CHECK(jint(loads, "shared") == DEV_SHARED_LOADS);
    CHECK(jint(loads, "generic") == 0);
    json_t *lb = json_object_get(k, "load_bytes");
    CHECK(jint(lb, "global") == 4 * n - 4 * DEV_SHARED_LOADS);
    CHECK(jint(lb, "shared") == 4 * DEV_SHARED_LOADS);
    CHECK(jint(json_object_get(k, "flops"), "f32") == n);
    json_t *hosts = json_object_get(root, "host_functions");
    CHECK(json_array_size(hosts) == 1);
    json_t *h = json_array_get(hosts, 0);
    CHECK(jint(h, "calls") == 1);
    CHECK(jint(json_object_get(h, "loads"), "generic") == 10);
    CHECK(json_array_size(json_object_get(root, "lines")) == 3);
    CHECK(json_array_size(json_object_get(root, "device_functions")) == 0);
  }
  json_decref(root);
  free(text);
  check_case_end("json_profile");

  CHECK(test_unmeasured_divergence());
  check_case_end("unmeasured_divergence");

  remove(file);
  remove(err);
  remove(err_a);
  remove(err_b);
  rmdir(dir);
  return check_summary("host_rt");
}
