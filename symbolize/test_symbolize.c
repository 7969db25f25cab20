/*===- test_symbolize.c - Tests of the host symbolizer --------------------===*
 *
 * Captures return addresses at known call lines (with __LINE__ at the call)
 * in this executable, in a static function only DWARF can name, in a
 * shared object, and in a header function of that shared object which
 * opens a line table sequence with DWARF 5's file 1; symbolizes them and checks
 *file, line and function. Then addresses that belong to nothing, the
 *per-address cache, a libc function found through dlsym, the fallback when
 *libdwarf cannot be loaded, and, given llvm-symbolizer's path as argv[1],
 *file:line across this executable's code against llvm-symbolizer's. Built with
 *-g -O0 and -rdynamic (so dladdr sees this file's functions), once as a PIE
 *(ET_DYN) and once not (ET_EXEC).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* RTLD_NOLOAD, dl_iterate_phdr */

#include "symbolize.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/check.h"

/* test_symbolize_lib.c */
uint64_t pasta_test_lib_site(unsigned *line);
uint64_t pasta_test_lib_other_site(unsigned *line);
uint64_t test_own_line(unsigned *line);

static int ends_with(const char *s, const char *suffix) {
  size_t n = s ? strlen(s) : 0, m = strlen(suffix);
  return s && n >= m && strcmp(s + n - m, suffix) == 0;
}

static int same_string(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static void print_symbol(const char *what, int rc, const pasta_symbol *sym) {
  printf("  %s: rc %d, %s+0x%llx, %s, %s:%u\n", what, rc,
         sym->object ? sym->object : "?", (unsigned long long)sym->offset,
         sym->function ? sym->function : "?", sym->file ? sym->file : "?",
         sym->line);
}

/*===-- Call sites --------------------------------------------------------===*/

/* Stores its own return address and the line its caller named. The call
 * statements below discard no result, so the instruction after each call
 * already belongs to the next line: a lookup of the return address itself,
 * not address-1, would find the wrong line. */
__attribute__((noinline)) static void caller_pc(uint64_t *pc, unsigned *line,
                                                unsigned at) {
  *line = at;
  *pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
}

/* Exported (with -rdynamic): dladdr and DWARF both know this name. */
__attribute__((noinline)) uint64_t test_own_line(unsigned *line) {
  uint64_t pc = 0;
  caller_pc(&pc, line, __LINE__);
  return pc;
}

/* Static: only DWARF knows this name. */
__attribute__((noinline)) static uint64_t static_site(unsigned *line) {
  uint64_t pc = 0;
  caller_pc(&pc, line, __LINE__);
  return pc;
}

/*===-- Tests -------------------------------------------------------------===*/

static void test_executable_line(void) {
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  CHECK(s != NULL);
  unsigned line = 0;
  uint64_t pc = test_own_line(&line);
  pasta_symbol sym;
  int rc = pasta__symbolize(s, pc, &sym);
  print_symbol("own line", rc, &sym);
  CHECK(rc == 0);
  CHECK(ends_with(sym.file, "/test_symbolize.c"));
  CHECK(line > 0 && sym.line == line);
  CHECK(same_string(sym.function, "test_own_line"));
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  CHECK(n > 0);
  exe[n > 0 ? n : 0] = '\0';
  CHECK(same_string(sym.object, exe));
  CHECK(sym.offset > 0 && sym.offset < pc);
  CHECK(pasta__symbolizer_note(s) == NULL);
  pasta__symbolizer_close(s);
  check_case_end("executable: file:line and function of a call");
}

static void test_static_function(void) {
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  unsigned line = 0;
  uint64_t pc = static_site(&line);
  pasta_symbol sym;
  int rc = pasta__symbolize(s, pc, &sym);
  print_symbol("static", rc, &sym);
  CHECK(rc == 0);
  CHECK(ends_with(sym.file, "/test_symbolize.c"));
  CHECK(line > 0 && sym.line == line);
  CHECK(same_string(sym.function, "static_site"));
  pasta__symbolizer_close(s);
  check_case_end("static function: named from DWARF");
}

static void test_other_file(void) {
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  unsigned line = 0;
  uint64_t pc = pasta_test_lib_other_site(&line);
  pasta_symbol sym;
  int rc = pasta__symbolize(s, pc, &sym);
  print_symbol("other file", rc, &sym);
  CHECK(rc == 0);
  CHECK(ends_with(sym.file, "/test_symbolize_other.h"));
  CHECK(line > 0 && sym.line == line);
  CHECK(same_string(sym.function, "other_file_site"));
  pasta__symbolizer_close(s);
  check_case_end(
      "a sequence opened in DWARF 5's file 1 (libdwarf's default 0)");
}

static void test_shared_object(void) {
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  unsigned line = 0;
  uint64_t pc = pasta_test_lib_site(&line);
  pasta_symbol sym;
  int rc = pasta__symbolize(s, pc, &sym);
  print_symbol("shared object", rc, &sym);
  CHECK(rc == 0);
  CHECK(ends_with(sym.object, "/libpasta_test_symbolize_lib.so"));
  CHECK(ends_with(sym.file, "/test_symbolize_lib.c"));
  CHECK(line > 0 && sym.line == line);
  CHECK(same_string(sym.function, "pasta_test_lib_site"));
  CHECK(sym.offset < pc);
  pasta__symbolizer_close(s);
  check_case_end("shared object: base-relative DWARF addresses");
}

static void test_libc(void) {
  void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  CHECK(libc != NULL);
  /* From libc's own table: not a sanitizer's interceptor, not a PLT. */
  void *fn = libc ? dlsym(libc, "getauxval") : NULL;
  CHECK(fn != NULL);
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  pasta_symbol sym;
  /* +1: the symbolizer looks up address-1, the function's first byte. */
  int rc = fn ? pasta__symbolize(s, (uint64_t)(uintptr_t)fn + 1, &sym) : -1;
  print_symbol("libc", rc, &sym);
  CHECK(rc == 0);
  CHECK(sym.object && strstr(sym.object, "libc.so.6"));
  CHECK(ends_with(sym.function, "getauxval")); /* or its alias __getauxval */
  pasta__symbolizer_close(s);
  if (libc)
    dlclose(libc);
  check_case_end("libc: object and exported function");
}

static void check_unknown(pasta_symbolizer *s, uint64_t address) {
  pasta_symbol sym;
  memset(&sym, 0xa5, sizeof sym); /* must be overwritten */
  int rc = pasta__symbolize(s, address, &sym);
  CHECK(rc == -1);
  CHECK(sym.object == NULL && sym.function == NULL && sym.file == NULL);
  CHECK(sym.line == 0 && sym.offset == 0);
}

static void test_garbage(void) {
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  int local = 0;
  char *heap = malloc(64);
  check_unknown(s, 0);
  check_unknown(s, 1);
  check_unknown(s, (uint64_t)(uintptr_t)heap + 8);
  check_unknown(s, (uint64_t)(uintptr_t)&local);
  check_unknown(s, 0xdeadbeef000u);
  check_unknown(s, UINT64_MAX);
  check_unknown(s, 0); /* again, now that the cache holds entries */
  free(heap);
  pasta_symbol sym;
  CHECK(pasta__symbolize(NULL, 4096, &sym) == -1 && sym.object == NULL);
  CHECK(pasta__symbolize(s, 4096, NULL) == -1);
  pasta__symbolizer_close(s);
  pasta__symbolizer_close(NULL);
  check_case_end("addresses of nothing: -1, no crash");
}

static int same_symbol(const pasta_symbol *a, const pasta_symbol *b) {
  return same_string(a->object, b->object) && a->offset == b->offset &&
         same_string(a->function, b->function) &&
         same_string(a->file, b->file) && a->line == b->line;
}

static void test_cache(void) {
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  unsigned line = 0;
  uint64_t pc = test_own_line(&line);
  pasta_symbol first, again, fresh;
  CHECK(pasta__symbolize(s, pc, &first) == 0);
  CHECK(pasta__symbolize(s, pc, &again) == 0);
  CHECK(memcmp(&first, &again, sizeof first) == 0); /* the same pointers */
  /* Enough other addresses to make the cache grow several times. */
  unsigned known = 0;
  for (uint64_t a = pc - 2000; a < pc + 2000; ++a) {
    pasta_symbol sym;
    if (pasta__symbolize(s, a, &sym) == 0 && sym.file)
      ++known;
  }
  CHECK(known > 100);
  CHECK(pasta__symbolize(s, pc, &again) == 0);
  CHECK(memcmp(&first, &again, sizeof first) == 0);
  CHECK(first.line == line);
  /* A symbolizer with an empty cache computes the same answer. */
  pasta_symbolizer *t = pasta__symbolizer_open(NULL);
  CHECK(pasta__symbolize(t, pc, &fresh) == 0);
  CHECK(same_symbol(&first, &fresh));
  pasta__symbolizer_close(t);
  pasta__symbolizer_close(s);
  check_case_end("cache: the same address twice, identical results");
}

static void test_without_libdwarf(void) {
  pasta_symbolizer *s = pasta__symbolizer_open_with("libpasta-no-dwarf.so.1");
  unsigned line = 0;
  uint64_t pc = test_own_line(&line);
  pasta_symbol sym;
  int rc = pasta__symbolize(s, pc, &sym);
  print_symbol("no libdwarf", rc, &sym);
  CHECK(rc == 0);
  CHECK(sym.object != NULL);
  CHECK(sym.file == NULL && sym.line == 0);
  CHECK(same_string(sym.function, "test_own_line")); /* dladdr, -rdynamic */
  const char *note = pasta__symbolizer_note(s);
  printf("  note: %s\n", note ? note : "(none)");
  CHECK(note && strstr(note, "libpasta-no-dwarf.so.1"));
  /* Still one answer per address, and nothing is retried noisily. */
  CHECK(pasta__symbolize(s, pc, &sym) == 0 && sym.file == NULL);
  pasta__symbolizer_close(s);
  check_case_end("without libdwarf: function from dladdr, no file:line");
}

/* PASTA_LIBDWARF naming a fifo no one writes: not opened (dlopen would
 * block on it for ever), a note, function names without lines. */
static void test_libdwarf_fifo(void) {
  char dir[] = "/tmp/pasta-symbolize-XXXXXX", fifo[64];
  if (!CHECK(mkdtemp(dir) != NULL))
    return;
  snprintf(fifo, sizeof fifo, "%s/libdwarf.so", dir);
  CHECK(mkfifo(fifo, 0600) == 0);
  alarm(20); /* a hang fails the test instead of the CI run */
  pasta_symbolizer *s = pasta__symbolizer_open_with(fifo);
  unsigned line = 0;
  uint64_t pc = test_own_line(&line);
  pasta_symbol sym;
  CHECK(pasta__symbolize(s, pc, &sym) == 0 && sym.file == NULL);
  CHECK(same_string(sym.function, "test_own_line"));
  const char *note = pasta__symbolizer_note(s);
  CHECK(note && strstr(note, "not a regular file"));
  alarm(0);
  pasta__symbolizer_close(s);
  unlink(fifo);
  rmdir(dir);
  check_case_end("PASTA_LIBDWARF a fifo: not opened");
}

/*===-- Against llvm-symbolizer -------------------------------------------===*/

struct text {
  uint64_t bias, lo, hi; /* the executable's load bias and code */
};

static int find_text(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct text *t = arg;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      t->bias = info->dlpi_addr;
      t->lo = info->dlpi_addr + ph->p_vaddr;
      t->hi = t->lo + ph->p_memsz;
      return 1;
    }
  }
  return 1; /* the first object is the executable */
}

/* Reads "file:line" or "file:line (discriminator N)"; 0 if no line. */
static unsigned parse_location(char *text, char **file) {
  char *paren = strstr(text, " (");
  if (paren)
    *paren = '\0';
  text[strcspn(text, "\n")] = '\0';
  char *colon = strrchr(text, ':');
  if (!colon)
    return 0;
  *colon = '\0';
  *file = text;
  return (unsigned)strtoul(colon + 1, NULL, 10);
}

enum { SWEEP = 4000 };

static void test_against_llvm_symbolizer(const char *tool) {
  struct text t = {0, 0, 0};
  dl_iterate_phdr(find_text, &t);
  CHECK(t.hi > t.lo);
  char exe[PATH_MAX], list[] = "/tmp/pasta_test_symbolize_XXXXXX";
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  int fd = mkstemp(list);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CHECK(f != NULL);
  uint64_t step = (t.hi - t.lo) / SWEEP + 1, *sites = calloc(SWEEP, 8);
  size_t nsites = 0;
  for (uint64_t a = t.lo + 1; f && sites && a < t.hi && nsites < SWEEP;
       a += step) {
    sites[nsites++] = a; /* a return address; both look up a - 1 */
    fprintf(f, "0x%llx\n", (unsigned long long)(a - 1 - t.bias));
  }
  if (f)
    fclose(f);
  char command[2 * PATH_MAX + 128];
  snprintf(command, sizeof command,
           "'%s' --obj='%s' --output-style=GNU --no-inlines --functions=none "
           "< %s",
           tool, exe, list);
  FILE *p = popen(command, "r");
  CHECK(p != NULL);
  pasta_symbolizer *s = pasta__symbolizer_open(NULL);
  unsigned compared = 0, differ = 0;
  char buf[2 * PATH_MAX];
  for (size_t i = 0; p && i < nsites && fgets(buf, sizeof buf, p); ++i) {
    char *file = NULL;
    unsigned line = parse_location(buf, &file);
    if (!line || strcmp(file, "??") == 0)
      continue;
    pasta_symbol sym;
    pasta__symbolize(s, sites[i], &sym);
    ++compared;
    if (same_string(sym.file, file) && sym.line == line)
      continue;
    if (++differ <= 5)
      printf("  0x%llx: ours %s:%u, llvm-symbolizer %s:%u\n",
             (unsigned long long)(sites[i] - 1 - t.bias),
             sym.file ? sym.file : "?", sym.line, file, line);
  }
  if (p)
    CHECK(pclose(p) == 0);
  printf("  %u addresses compared, %u differ\n", compared, differ);
  CHECK(compared > 200);
  CHECK(differ == 0);
  pasta__symbolizer_close(s);
  free(sites);
  unlink(list);
  check_case_end("file:line across this executable, as llvm-symbolizer says");
}

int main(int argc, char **argv) {
  test_executable_line();
  test_static_function();
  test_other_file();
  test_shared_object();
  test_libc();
  test_garbage();
  test_cache();
  test_without_libdwarf();
  test_libdwarf_fifo();
  if (argc > 1)
    test_against_llvm_symbolizer(argv[1]);
  else
    printf("skip file:line against llvm-symbolizer (no path given)\n");
  return check_summary("symbolize");
}
