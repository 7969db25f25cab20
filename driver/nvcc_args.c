/*===- nvcc_args.c - nvcc's command line as clang's ------------------------===*
 *
 * One pass over nvcc's arguments fills a `struct parse` (inputs with their
 * language, GPU architectures, mode flags, pass-through arguments); then
 * the clang command is assembled from it. Options are looked up in one
 * table by name, in any of nvcc's spellings (-arch, --gpu-architecture,
 * -arch=sm_90, -arch sm_90); short options with attached values (-I..,
 * -D.., -L.., -l.., -O3) come after. The other jobs have files of their
 * own (nvcc_internal.h).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "nvcc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*===-- String lists ------------------------------------------------------===*/

int nv_push(pasta_strlist *l, const char *s) {
  if (l->num == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    char **at = realloc(l->at, cap * sizeof *at);
    if (!at)
      return -1;
    l->at = at;
    l->cap = cap;
  }
  if (!(l->at[l->num] = strdup(s)))
    return -1;
  ++l->num;
  return 0;
}

int nv_pushf(pasta_strlist *l, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return nv_push(l, buf);
}

void nv_strlist_free(pasta_strlist *l) {
  for (size_t i = 0; i < l->num; ++i)
    free(l->at[i]);
  free(l->at);
  memset(l, 0, sizeof *l);
}

int nv_contains(const pasta_strlist *l, const char *s) {
  for (size_t i = 0; i < l->num; ++i)
    if (strcmp(l->at[i], s) == 0)
      return 1;
  return 0;
}

/*===-- Debug info --------------------------------------------------------===*/

int pasta_asks_debug_info(const char *arg) {
  static const char *const exact[] = {"-g",
                                      "-g0",
                                      "-g1",
                                      "-g2",
                                      "-g3",
                                      "-ggdb",
                                      "-ggdb0",
                                      "-ggdb1",
                                      "-ggdb2",
                                      "-ggdb3",
                                      "-glldb",
                                      "-gsce",
                                      "-gdbx",
                                      "-gdwarf",
                                      "-gline-tables-only",
                                      "-gline-directives-only",
                                      "-gfull",
                                      "-gused",
                                      "-gcodeview"};
  for (size_t i = 0; i < sizeof exact / sizeof *exact; ++i)
    if (strcmp(arg, exact[i]) == 0)
      return 1;
  /* -gdwarf-4, -gdwarf-5 (each implies -g); not -gdwarf64 (a format). */
  return strncmp(arg, "-gdwarf-", 8) == 0;
}

int pasta_yes_no(const char *value) {
  static const char *const yes[] = {"1", "on", "true", "yes"};
  static const char *const no[] = {"0", "off", "false", "no"};
  for (size_t i = 0; value && i < 4; ++i) {
    if (strcasecmp(value, yes[i]) == 0)
      return 1;
    if (strcasecmp(value, no[i]) == 0)
      return 0;
  }
  return -1;
}

/*===-- GPU architectures -------------------------------------------------===*/

/* clang-22 + CUDA 13.0, each compiled for on the development machine:
 * CUDA 13 dropped everything before sm_75; sm_101 is sm_110 in CUDA 13,
 * and sm_110 needs PTX 9.0, which clang-22 does not emit. */
static const char *const supported_archs[] = {"75",   "80",  "86",  "87",
                                              "89",   "90",  "90a", "100",
                                              "100a", "103", "120", "121"};
static const char *const all_major_archs[] = {"75", "80", "90", "100", "120"};
enum {
  NUM_SUPPORTED = sizeof supported_archs / sizeof *supported_archs,
  NUM_ALL_MAJOR = sizeof all_major_archs / sizeof *all_major_archs
};

int pasta_nvcc_arch_supported(const char *arch) {
  for (size_t i = 0; i < NUM_SUPPORTED; ++i)
    if (strcmp(arch, supported_archs[i]) == 0)
      return 1;
  return 0;
}

void pasta_nvcc_print_gpu_list(FILE *out, int lists) {
  for (size_t i = 0; i < NUM_SUPPORTED; ++i) {
    const char *num = supported_archs[i];
    if (num[strspn(num, "0123456789")]) /* 90a: accelerated, not listed */
      continue;
    if (lists == (PASTA_NVCC_LIST_CODE | PASTA_NVCC_LIST_ARCH))
      fprintf(out, "arch=compute_%s,code=sm_%s\n", num, num);
    else
      fprintf(out, "%s_%s\n", lists == PASTA_NVCC_LIST_ARCH ? "compute" : "sm",
              num);
  }
}

/*===-- Parsing -----------------------------------------------------------===*/

void nv_warn(struct parse *p, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  p->failed |= nv_push(&p->out->warnings, buf);
}

void nv_error(struct parse *p, const char *fmt, ...) {
  if (p->out->error)
    return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  p->out->mode = PASTA_NVCC_ERROR;
  p->out->error = strdup(buf);
  p->failed |= !p->out->error;
}

static void flag(struct parse *p, const char *a) {
  p->failed |= nv_push(&p->flags, a);
}

static void cuda_flag(struct parse *p, const char *a) {
  if (!nv_contains(&p->cuda_flags, a))
    p->failed |= nv_push(&p->cuda_flags, a);
}

static void flag2(struct parse *p, const char *a, const char *b) {
  flag(p, a);
  flag(p, b);
}

/* Calls each(p, item) for the comma-separated items of `list`, empty ones
 * skipped. As nvcc does, a comma inside double quotes belongs to the item
 * and the quotes are dropped: CMake's FindCUDA passes its host flags as
 * `-Xcompiler ,"-O3","-fPIC"`. */
static void each_item(struct parse *p, const char *list,
                      void (*each)(struct parse *, const char *)) {
  char *item = malloc(strlen(list ? list : "") + 1);
  if (!item) {
    p->failed = 1;
    return;
  }
  size_t len = 0;
  int quoted = 0;
  for (const char *c = list ? list : "";; ++c) {
    if (*c == '"') {
      quoted = !quoted;
      continue;
    }
    if (*c && (*c != ',' || quoted)) {
      item[len++] = *c;
      continue;
    }
    item[len] = '\0';
    if (len)
      each(p, item);
    len = 0;
    if (!*c)
      break;
  }
  free(item);
}

/* -D and -U take lists too: `-DA=1,B=2` defines A and B. A comma written
 * `\,` belongs to the item (CMake writes a macro's commas so for nvcc:
 * miniBUDE's `-DUSE_PPWI=1\,2\,4`), and so does one inside double quotes,
 * which, unlike -Xcompiler's, stay in the value (`-DQ="1,2"` is Q as
 * "1,2"), as nvcc hands them to its host compiler. */
static void each_macro(struct parse *p, const char *flag_name,
                       const char *list) {
  char *item = malloc(strlen(list) + 1);
  if (!item) {
    p->failed = 1;
    return;
  }
  size_t len = 0;
  int quoted = 0;
  for (const char *c = list;; ++c) {
    if (c[0] == '\\' && c[1] == ',') {
      item[len++] = *++c;
      continue;
    }
    if (*c == '"')
      quoted = !quoted;
    if (*c && (*c != ',' || quoted)) {
      item[len++] = *c;
      continue;
    }
    item[len] = '\0';
    if (len)
      flag2(p, flag_name, item);
    len = 0;
    if (!*c)
      break;
  }
  free(item);
}

static void add_arch(pasta_strlist *l, struct parse *p, const char *num) {
  if (!nv_contains(l, num))
    p->failed |= nv_push(l, num);
}

/* One architecture name: sm_90, compute_90, lto_90, 90, native, all... */
static void arch_into(struct parse *p, pasta_strlist *into, const char *name) {
  if (strcmp(name, "native") == 0) {
    add_arch(into, p, p->cfg->default_arch);
    p->failed |= nv_pushf(&p->out->notes,
                          "-arch=native: no GPU to ask at build time; "
                          "building for sm_%s",
                          p->cfg->default_arch);
    return;
  }
  if (strcmp(name, "all") == 0 || strcmp(name, "all-major") == 0) {
    int all = strcmp(name, "all") == 0;
    for (size_t i = 0; i < (all ? NUM_SUPPORTED : NUM_ALL_MAJOR); ++i)
      add_arch(into, p, all ? supported_archs[i] : all_major_archs[i]);
    return;
  }
  const char *num = name;
  for (const char *prefix = "sm_\0compute_\0lto_\0"; *prefix;
       prefix += strlen(prefix) + 1)
    if (strncmp(name, prefix, strlen(prefix)) == 0)
      num = name + strlen(prefix);
  size_t digits = strspn(num, "0123456789");
  if (!digits || (num[digits] && (num[digits] < 'a' || num[digits] > 'z' ||
                                  num[digits + 1]))) {
    nv_warn(p, "ignoring GPU architecture '%s' (not sm_NN, compute_NN or NN)",
            name);
    return;
  }
  add_arch(into, p, num);
}

static void arch_item(struct parse *p, const char *name) {
  arch_into(p, &p->arch_only, name);
}

static void code_item(struct parse *p, const char *name) {
  p->have_code = 1;
  arch_into(p, &p->archs, name);
}

/* -gencode arch=compute_90,code=sm_90 or code=[sm_90,compute_90] or
 * code="sm_90,compute_90": the code= list (or arch= when there is none). */
static void gencode(struct parse *p, const char *value) {
  const char *code = strstr(value, "code=");
  const char *arch = strstr(value, "arch=");
  char buf[512];
  if (code) {
    snprintf(buf, sizeof buf, "%s", code + 5);
  } else if (arch) {
    snprintf(buf, sizeof buf, "%s", arch + 5);
    buf[strcspn(buf, ",")] = '\0';
  } else {
    nv_warn(p, "ignoring -gencode '%s' (expected arch=...,code=...)", value);
    return;
  }
  for (char *c = buf; *c; ++c)
    if (*c == '[' || *c == ']' || *c == '"' || *c == '\'')
      *c = ',';
  each_item(p, buf, code_item);
}

static void compiler_item(struct parse *p, const char *a) { flag(p, a); }

/* ptxas's -O<n>, -O <n>, --opt-level=<n> or --opt-level <n>. */
static int is_ptxas_opt_level(const char *a) {
  return strncmp(a, "-O", 2) == 0 || strncmp(a, "--opt-level", 11) == 0;
}

static void ptxas_item(struct parse *p, const char *a) {
  p->ptxas_opt_level |= is_ptxas_opt_level(a);
  flag2(p, "-Xcuda-ptxas", a);
}

int pasta_nvcc_ptxas_drop(int argc, char **argv) {
  int first = 0;
  for (int i = 1; i < argc; ++i) {
    if (!is_ptxas_opt_level(argv[i]))
      continue;
    if (first)
      return first;
    first = i;
  }
  return 0;
}

static void linker_item(struct parse *p, const char *a) {
  flag2(p, "-Xlinker", a);
}

static int is_true(const char *v) {
  return v && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

static int lang_of_path(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash))
    return LANG_OBJECT;
  static const struct {
    const char *ext;
    int lang;
  } exts[] = {{".cu", LANG_CUDA}, {".c", LANG_C},     {".cpp", LANG_CXX},
              {".cc", LANG_CXX},  {".cxx", LANG_CXX}, {".c++", LANG_CXX},
              {".cp", LANG_CXX},  {".C", LANG_CXX},   {".CPP", LANG_CXX},
              {".cuh", LANG_CUDA}};
  for (size_t i = 0; i < sizeof exts / sizeof *exts; ++i)
    if (strcmp(dot, exts[i].ext) == 0)
      return exts[i].lang;
  return LANG_OBJECT;
}

static void input(struct parse *p, const char *path) {
  const char *dot = strrchr(path, '.');
  if (dot && (strcmp(dot, ".ptx") == 0 || strcmp(dot, ".cubin") == 0 ||
              strcmp(dot, ".fatbin") == 0)) {
    nv_error(p,
             "%s: PTX, cubin and fatbin inputs are not supported (PASTA "
             "instruments source code: compile the .cu file it came from)",
             path);
    return;
  }
  int lang = p->forced_lang ? p->forced_lang : lang_of_path(path);
  p->failed |= nv_pushf(&p->inputs, "%d%s", lang, path);
}

/* An option's name, without its leading dashes. */
const char *nv_spelling(const char *arg) {
  return arg + (arg[1] == '-' ? 2 : 1);
}

/* What an option does: `arg` is the option as written, `value` its value
 * (NULL when it takes none). */
#define OPTION_ACTION(name)                                                    \
  static void name(struct parse *p __attribute__((unused)),                    \
                   const char *arg __attribute__((unused)),                    \
                   const char *value __attribute__((unused)))

OPTION_ACTION(opt_arch) { each_item(p, value, arch_item); }

OPTION_ACTION(opt_code) { each_item(p, value, code_item); }

OPTION_ACTION(opt_gencode) { gencode(p, value); }

OPTION_ACTION(opt_rdc) { p->rdc = is_true(value); }

OPTION_ACTION(opt_dc) { p->rdc = p->compile = 1; }

OPTION_ACTION(opt_dlink) { p->dlink = 1; }

OPTION_ACTION(opt_lineinfo) { flag(p, "-gline-tables-only"); }

OPTION_ACTION(opt_device_debug) {
  flag(p, "-g");
  p->device_debug = 1;
}

OPTION_ACTION(opt_debug) { flag(p, "-g"); }

/* gprof's instrumentation: clang instruments host code only (device code
 * gets no mcount calls), as nvcc does. */
OPTION_ACTION(opt_profile) { flag(p, "-pg"); }

OPTION_ACTION(opt_fast_math) {
  cuda_flag(p, "-fgpu-approx-transcendentals");
  cuda_flag(p, "-fgpu-flush-denormals-to-zero");
}

OPTION_ACTION(opt_ftz) {
  if (is_true(value))
    cuda_flag(p, "-fgpu-flush-denormals-to-zero");
}

OPTION_ACTION(opt_fmad) {
  flag(p, is_true(value) ? "-ffp-contract=fast" : "-ffp-contract=off");
}

/* Accepted; means nothing to clang (value, if any). */
OPTION_ACTION(opt_ignore) {}

/* Accepted and ignored, with a note. */
OPTION_ACTION(opt_ignore_note) {
  p->failed |= nv_pushf(&p->out->notes, "%s%s%s: accepted, ignored", arg,
                        value ? " " : "", value ? value : "");
}

OPTION_ACTION(opt_xcompiler) { each_item(p, value, compiler_item); }

OPTION_ACTION(opt_xptxas) { each_item(p, value, ptxas_item); }

/* nvcc gives ptxas the register limit of every kernel
 * (a Makefile's occupancy tuning); a kernel's .maxnreg (PASTA's capped
 * copies) wins over the option. 0 is no limit: nvcc gives ptxas nothing
 * (VanitySearch's `-maxrregcount=0`), where ptxas's own 0 caps every
 * kernel at its lower bound, 24 registers on sm_90. */
OPTION_ACTION(opt_maxrregcount) {
  char item[64];
  size_t digits = strspn(value, "0123456789");
  if (!digits || value[digits] || digits > 8) {
    nv_warn(p, "ignoring -maxrregcount %s: not a number of registers", value);
    return;
  }
  if (strspn(value, "0") == digits) {
    p->failed |=
        nv_pushf(&p->out->notes, "-maxrregcount %s: no register limit", value);
    return;
  }
  snprintf(item, sizeof item, "--maxrregcount=%s", value);
  ptxas_item(p, item);
}

OPTION_ACTION(opt_xlinker) { each_item(p, value, linker_item); }

OPTION_ACTION(opt_std) { p->std = value; }

OPTION_ACTION(opt_default_stream) {
  if (strcmp(value, "per-thread") == 0)
    flag(p, "-fgpu-default-stream=per-thread");
  else if (strcmp(value, "legacy") && strcmp(value, "null"))
    nv_warn(p, "ignoring --default-stream %s (legacy, null or per-thread)",
            value);
}

OPTION_ACTION(opt_cudart) {
  if (strcmp(value, "static") == 0)
    p->cudart = CUDART_STATIC;
  else if (strcmp(value, "shared") == 0)
    p->cudart = CUDART_SHARED;
  else if (strcmp(value, "none") == 0)
    p->cudart = CUDART_NONE;
  else
    nv_warn(p, "ignoring -cudart %s (static, shared or none)", value);
}

OPTION_ACTION(opt_optimize) { p->failed |= nv_pushf(&p->flags, "-O%s", value); }

OPTION_ACTION(opt_path_i) { flag2(p, "-I", value); }

OPTION_ACTION(opt_define) { each_macro(p, "-D", value); }

OPTION_ACTION(opt_undefine) { each_macro(p, "-U", value); }

OPTION_ACTION(opt_path_l) {
  p->failed |= nv_push(&p->lib_dirs, "-L") || nv_push(&p->lib_dirs, value);
}

/* nvcc's host compiler is gcc, whose OpenMP runtime is libgomp; clang's
 * -fopenmp (nvcc's -Xcompiler -fopenmp) compiles for LLVM's libomp, which
 * implements libgomp's interface too. Linking both made two runtimes:
 * omp_set_num_threads and omp_get_thread_num answered from libgomp inside
 * libomp's team (every thread number 0, the team as large as the CPU). */
OPTION_ACTION(opt_library) {
  if (strcmp(value, "gomp") == 0) {
    p->failed |= nv_push(&p->libs, "-lomp") ||
                 nv_push(&p->out->notes,
                         "-lgomp: linked as -lomp (clang's OpenMP runtime, "
                         "which implements libgomp's interface)");
    return;
  }
  p->failed |= nv_pushf(&p->libs, "-l%s", value);
}

OPTION_ACTION(opt_isystem) { flag2(p, "-isystem", value); }

OPTION_ACTION(opt_include) { flag2(p, "-include", value); }

OPTION_ACTION(opt_compile) { p->compile = 1; }

OPTION_ACTION(opt_output) { p->output = value; }

OPTION_ACTION(opt_preprocess) {
  p->preprocess = 1;
  flag(p, "-E");
}

OPTION_ACTION(opt_depend) {
  p->depend = 1;
  flag(p, strchr(nv_spelling(arg), 'n') || !strcmp(nv_spelling(arg), "MM")
              ? "-MM"
              : "-M");
}

OPTION_ACTION(opt_depend_with_compile) {
  flag(p, strcmp(nv_spelling(arg), "MD") == 0 ||
                  strcmp(nv_spelling(arg),
                         "generate-dependencies-with-compile") == 0
              ? "-MD"
              : "-MMD");
}

OPTION_ACTION(opt_depend_file) { flag2(p, "-MF", value); }

OPTION_ACTION(opt_depend_target) { flag2(p, "-MT", value); }

OPTION_ACTION(opt_depend_phony) { flag(p, "-MP"); }

OPTION_ACTION(opt_language) {
  if (strcmp(value, "cu") == 0 || strcmp(value, "cuda") == 0)
    p->forced_lang = LANG_CUDA;
  else if (strcmp(value, "c++") == 0)
    p->forced_lang = LANG_CXX;
  else if (strcmp(value, "c") == 0)
    p->forced_lang = LANG_C;
  else if (strcmp(value, "none") == 0)
    p->forced_lang = LANG_NONE;
  else
    nv_error(p, "-x %s: a language nvcc does not take (cu, c++, c, none)",
             value);
}

OPTION_ACTION(opt_shared) {
  p->shared = 1;
  flag(p, "-shared");
}

/* Passed to clang as written. */
OPTION_ACTION(opt_pass) { flag(p, arg); }

OPTION_ACTION(opt_version) { p->out->mode = PASTA_NVCC_VERSION; }

/* --list-gpu-code, --list-gpu-arch: print and exit, as nvcc does. */
OPTION_ACTION(opt_list_gpu_code) {
  p->out->mode = PASTA_NVCC_LIST_GPU;
  p->out->list_gpu |= PASTA_NVCC_LIST_CODE;
}

OPTION_ACTION(opt_list_gpu_arch) {
  p->out->mode = PASTA_NVCC_LIST_GPU;
  p->out->list_gpu |= PASTA_NVCC_LIST_ARCH;
}

OPTION_ACTION(opt_forward_unknown) { p->forward_unknown = 1; }

OPTION_ACTION(opt_lib) {
  nv_error(p, "-lib (a static library of device code) is not supported: "
              "compile with -c and make the archive with ar");
}

OPTION_ACTION(opt_device_output) {
  p->out->device_output = nv_spelling(arg)[0];
  p->compile = 1; /* no link */
}

/* nvcc's options: names, flags, what each does. */
static const struct option options[] = {
    {"arch|gpu-architecture", VALUE | NVCC_ONLY, opt_arch},
    {"code|gpu-code", VALUE | NVCC_ONLY, opt_code},
    {"gencode|generate-code", VALUE | NVCC_ONLY, opt_gencode},
    {"rdc|relocatable-device-code", VALUE | NVCC_ONLY, opt_rdc},
    {"dc|device-c", 0, opt_dc},
    {"dlink|device-link", 0, opt_dlink},
    {"lineinfo|generate-line-info", NVCC_ONLY, opt_lineinfo},
    {"G|device-debug", NVCC_ONLY, opt_device_debug},
    {"g|debug", 0, opt_debug},
    {"pg|profile", NVCC_ONLY, opt_profile},
    {"use_fast_math|use-fast-math", NVCC_ONLY, opt_fast_math},
    {"ftz", VALUE | NVCC_ONLY, opt_ftz},
    {"fmad", VALUE | NVCC_ONLY, opt_fmad},
    {"prec-div|prec_div|prec-sqrt|prec_sqrt", VALUE | NVCC_ONLY,
     opt_ignore_note},
    {"extended-lambda|expt-extended-lambda|expt-relaxed-constexpr|"
     "Wno-deprecated-gpu-targets|keep|res-usage|resource-usage|"
     "display-error-number|no-display-error-number|m64|"
     "allow-unsupported-compiler|Wreorder|Wext-lambda-captures-this",
     NVCC_ONLY, opt_ignore},
    /* Hints to nvcc's optimizer (kernel pointers do not alias; more
     * vectorization) that clang has no flag for: results are the same. */
    {"restrict|extra-device-vectorization", NVCC_ONLY, opt_ignore_note},
    {"threads|t|diag-suppress|diag_suppress|Xcudafe|Xnvlink|keep-dir|"
     "ccbin|compiler-bindir|Werror|split-compile",
     VALUE | NVCC_ONLY, opt_ignore_note},
    {"Xcompiler|compiler-options", VALUE | NVCC_ONLY, opt_xcompiler},
    {"Xptxas|ptxas-options", VALUE | NVCC_ONLY, opt_xptxas},
    {"maxrregcount", VALUE | NVCC_ONLY, opt_maxrregcount},
    {"Xlinker|linker-options", VALUE, opt_xlinker},
    {"std", VALUE, opt_std},
    {"default-stream", VALUE | NVCC_ONLY, opt_default_stream},
    {"cudart", VALUE | NVCC_ONLY, opt_cudart},
    {"optimize", VALUE, opt_optimize},
    {"I|include-path", VALUE, opt_path_i},
    {"D|define-macro", VALUE, opt_define},
    {"U|undefine-macro", VALUE, opt_undefine},
    {"L|library-path", VALUE, opt_path_l},
    {"l|library", VALUE, opt_library},
    {"isystem|system-include", VALUE, opt_isystem},
    {"include|pre-include", VALUE, opt_include},
    {"c|compile", 0, opt_compile},
    {"o|output-file", VALUE, opt_output},
    {"E|preprocess", 0, opt_preprocess},
    {"M|generate-dependencies|MM|generate-nonsystem-dependencies", 0,
     opt_depend},
    {"MD|generate-dependencies-with-compile|MMD|"
     "generate-nonsystem-dependencies-with-compile",
     0, opt_depend_with_compile},
    {"MF|dependency-output", VALUE, opt_depend_file},
    {"MT|dependency-target-name", VALUE, opt_depend_target},
    {"MP|generate-dependency-targets", 0, opt_depend_phony},
    {"x|x-language", VALUE, opt_language},
    {"shared", 0, opt_shared},
    {"w|disable-warnings|v|verbose|fPIC|pthread", 0, opt_pass},
    {"V|version", 0, opt_version},
    {"list-gpu-code|code-ls", 0, opt_list_gpu_code},
    {"list-gpu-arch|arch-ls", 0, opt_list_gpu_arch},
    {"forward-unknown-to-host-compiler|forward-unknown-opts|"
     "forward-unknown-to-host-linker",
     NVCC_ONLY, opt_forward_unknown},
    {"lib", 0, opt_lib},
    {"fatbin", NVCC_ONLY, opt_device_output},
    {"cubin", NVCC_ONLY, opt_device_output},
    {"ptx", NVCC_ONLY, opt_device_output},
};

const struct option *nv_find_option(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof options / sizeof *options; ++i) {
    const char *s = options[i].names;
    while (*s) {
      size_t n = strcspn(s, "|");
      if (n == len && strncmp(s, name, len) == 0)
        return &options[i];
      s += n + (s[n] == '|');
    }
  }
  return NULL;
}

/* -I/x, -DX=1, -Ux, -L/x, -lfoo, -O3: short options with their value. */
static int attached(struct parse *p, const char *arg) {
  static const struct {
    char letter;
    option_action *run;
  } shorts[] = {{'I', opt_path_i}, {'D', opt_define},  {'U', opt_undefine},
                {'L', opt_path_l}, {'l', opt_library}, {'O', opt_optimize}};
  if (arg[0] != '-' || arg[1] == '-' || !arg[1])
    return 0;
  for (size_t i = 0; i < sizeof shorts / sizeof *shorts; ++i)
    if (arg[1] == shorts[i].letter && (arg[2] || shorts[i].letter == 'O')) {
      shorts[i].run(p, arg, arg[2] ? arg + 2 : "2");
      return 1;
    }
  return 0;
}

const char *nv_option_value(struct parse *p, const char *arg, const char *name,
                            size_t len, int argc, char **argv, int *i) {
  if (name[len] == '=')
    return name + len + 1;
  if (*i + 1 < argc)
    return argv[++*i];
  nv_error(p, "%s needs a value", arg);
  return NULL;
}

/* Whether the line asks to forward unknown options: nvcc forwards them
 * wherever -forward-unknown-to-host-compiler stands (MD-Bench's Makefile
 * puts it after -march=native -ffast-math), so it is looked for first. */
static int forwards_unknown(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] != '-' || !argv[i][1])
      continue;
    const char *name = nv_spelling(argv[i]);
    size_t len = strcspn(name, "=");
    const struct option *o = nv_find_option(name, len);
    if (!o)
      continue;
    if (o->run == opt_forward_unknown)
      return 1;
    if ((o->flags & VALUE) && name[len] != '=')
      ++i; /* the option's value, not an option */
  }
  return 0;
}

void nv_parse(struct parse *p, int argc, char **argv) {
  p->forward_unknown |= forwards_unknown(argc, argv);
  for (int i = 1; i < argc && !p->out->error; ++i) {
    const char *arg = argv[i];
    if (arg[0] != '-' || !arg[1]) {
      input(p, arg);
      continue;
    }
    const char *name = nv_spelling(arg);
    size_t len = strcspn(name, "=");
    const struct option *o = nv_find_option(name, len);
    if (!o) {
      if (attached(p, arg))
        continue;
      if (p->forward_unknown) {
        flag(p, arg);
        continue;
      }
      nv_warn(p,
              "ignoring '%s' (an nvcc option PASTA does not know; "
              "-forward-unknown-to-host-compiler passes such options on)",
              arg);
      continue;
    }
    const char *value = NULL;
    if (o->flags & VALUE) {
      value = nv_option_value(p, arg, name, len, argc, argv, &i);
      if (!value)
        break;
    } else if (name[len] == '=') {
      nv_warn(p, "ignoring '%s' (%.*s takes no value)", arg, (int)len, name);
      continue;
    }
    o->run(p, arg, value);
  }
}

void nv_parse_free(struct parse *p) {
  nv_strlist_free(&p->expanded);
  nv_strlist_free(&p->flags);
  nv_strlist_free(&p->cuda_flags);
  nv_strlist_free(&p->inputs);
  nv_strlist_free(&p->libs);
  nv_strlist_free(&p->lib_dirs);
  nv_strlist_free(&p->archs);
  nv_strlist_free(&p->arch_only);
}
