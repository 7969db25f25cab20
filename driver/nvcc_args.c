/*===- nvcc_args.c - nvcc's command line as clang's ------------------------===*
 *
 * One pass over nvcc's arguments fills a `struct parse` (inputs with their
 * language, GPU architectures, mode flags, pass-through arguments); then
 * the clang command is assembled from it. Options are looked up in one
 * table by name, in any of nvcc's spellings (-arch, --gpu-architecture,
 * -arch=sm_90, -arch sm_90); short options with attached values (-I..,
 * -D.., -L.., -l.., -O3) come after.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "nvcc_args.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*===-- String lists ------------------------------------------------------===*/

static int push(pasta_strlist *l, const char *s) {
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

static int pushf(pasta_strlist *l, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return push(l, buf);
}

static void strlist_free(pasta_strlist *l) {
  for (size_t i = 0; i < l->num; ++i)
    free(l->at[i]);
  free(l->at);
  memset(l, 0, sizeof *l);
}

static int contains(const pasta_strlist *l, const char *s) {
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

/*===-- Parsing -----------------------------------------------------------===*/

enum lang { LANG_NONE, LANG_CUDA, LANG_CXX, LANG_C, LANG_OBJECT };

struct parse {
  const pasta_nvcc_config *cfg;
  pasta_nvcc_result *out;
  pasta_strlist flags;      /* passed through, before the inputs */
  pasta_strlist cuda_flags; /* the same, for CUDA inputs only */
  pasta_strlist inputs;     /* "<lang><path>": lang as one digit */
  pasta_strlist libs;       /* -lNAME, after every input (as nvcc links) */
  pasta_strlist archs;      /* "90", "90a": from -arch/-code/-gencode */
  pasta_strlist arch_only;  /* from -arch when -code names none */
  int forced_lang;          /* -x: the language of later inputs */
  int compile, preprocess, depend, rdc, dlink, shared, forward_unknown;
  int have_code;
  int device_debug; /* -G: device code unoptimized, with full debug info */
  const char *std;
  const char *output;
  pasta_strlist expanded; /* the arguments, options files expanded */
  enum { CUDART_STATIC, CUDART_SHARED, CUDART_NONE } cudart;
  int failed; /* out of memory */
};

static void warn(struct parse *p, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  p->failed |= push(&p->out->warnings, buf);
}

static void error(struct parse *p, const char *fmt, ...) {
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
  p->failed |= push(&p->flags, a);
}

static void cuda_flag(struct parse *p, const char *a) {
  if (!contains(&p->cuda_flags, a))
    p->failed |= push(&p->cuda_flags, a);
}

static void flag2(struct parse *p, const char *a, const char *b) {
  flag(p, a);
  flag(p, b);
}

/* Calls each(p, item) for the comma-separated items of `list`. */
static void each_item(struct parse *p, const char *list,
                      void (*each)(struct parse *, const char *)) {
  char *copy = strdup(list ? list : "");
  if (!copy) {
    p->failed = 1;
    return;
  }
  for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save))
    if (*tok)
      each(p, tok);
  free(copy);
}

static void add_arch(pasta_strlist *l, struct parse *p, const char *num) {
  if (!contains(l, num))
    p->failed |= push(l, num);
}

/* One architecture name: sm_90, compute_90, lto_90, 90, native, all... */
static void arch_into(struct parse *p, pasta_strlist *into, const char *name) {
  if (strcmp(name, "native") == 0) {
    add_arch(into, p, p->cfg->default_arch);
    p->failed |= pushf(&p->out->notes,
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
    warn(p, "ignoring GPU architecture '%s' (not sm_NN, compute_NN or NN)",
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
    warn(p, "ignoring -gencode '%s' (expected arch=...,code=...)", value);
    return;
  }
  for (char *c = buf; *c; ++c)
    if (*c == '[' || *c == ']' || *c == '"' || *c == '\'')
      *c = ',';
  each_item(p, buf, code_item);
}

static void compiler_item(struct parse *p, const char *a) { flag(p, a); }

static void ptxas_item(struct parse *p, const char *a) {
  flag2(p, "-Xcuda-ptxas", a);
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
    error(p,
          "%s: PTX, cubin and fatbin inputs are not supported (PASTA "
          "instruments source code: compile the .cu file it came from)",
          path);
    return;
  }
  int lang = p->forced_lang ? p->forced_lang : lang_of_path(path);
  p->failed |= pushf(&p->inputs, "%d%s", lang, path);
}

/* An option's name, without its leading dashes. */
static const char *spelling(const char *arg) {
  return arg + (arg[1] == '-' ? 2 : 1);
}

/*===-- Options files (-optf FILE, @FILE) ---------------------------------===*/

/* nvcc reads more options from the files named by --options-file (-optf;
 * several comma-separated, as any list option). Their arguments take the
 * place of the option, as if written there. */
enum { OPTIONS_FILE_MAX = 1 << 20, OPTIONS_FILE_DEPTH = 8 };

/* Splits `text` into arguments, as a POSIX shell does without expansions:
 * blanks (space, tab, newline) separate; '...' keeps everything to the
 * next '; "..." keeps everything to the next unescaped " (a backslash
 * escapes " and \ inside); elsewhere a backslash keeps the next character
 * (and drops a newline). Returns 0, -1 when out of memory, or -2 when a
 * quote is not closed. */
static int split_options(const char *text, pasta_strlist *out) {
  size_t n = strlen(text);
  char *arg = malloc(n + 1);
  if (!arg)
    return -1;
  int rc = 0;
  const char *s = text;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
      ++s;
    if (!*s)
      break;
    size_t len = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
      if (*s == '\'') {
        const char *end = strchr(s + 1, '\'');
        if (!end) {
          rc = -2;
          goto done;
        }
        memcpy(arg + len, s + 1, (size_t)(end - s - 1));
        len += (size_t)(end - s - 1);
        s = end + 1;
      } else if (*s == '"') {
        for (++s; *s && *s != '"'; ++s) {
          if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
            ++s;
          arg[len++] = *s;
        }
        if (!*s) {
          rc = -2;
          goto done;
        }
        ++s;
      } else if (*s == '\\' && s[1]) {
        if (s[1] != '\n')
          arg[len++] = s[1];
        s += 2;
      } else {
        arg[len++] = *s++;
      }
    }
    arg[len] = '\0';
    if (push(out, arg)) {
      rc = -1;
      break;
    }
  }
done:
  free(arg);
  return rc;
}

static void expand_args(struct parse *p, int argc, char **argv, int at_files,
                        int depth, pasta_strlist *out);

/* Reads the options file `path` (named by option `how`: "-optf", "@") and
 * expands its arguments into `out`. */
static void options_file(struct parse *p, const char *how, const char *path,
                         int at_files, int depth, pasta_strlist *out) {
  const char *sep = strcmp(how, "@") ? " " : "";
  if (depth >= OPTIONS_FILE_DEPTH) {
    error(p,
          "%s%s%s: options files nested more than %d deep (does one name "
          "itself?)",
          how, sep, path, OPTIONS_FILE_DEPTH);
    return;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    error(p, "%s%s%s: cannot read the options file: %s", how, sep, path,
          strerror(errno));
    return;
  }
  char *text = malloc(OPTIONS_FILE_MAX + 1);
  errno = 0;
  size_t n = text ? fread(text, 1, OPTIONS_FILE_MAX + 1, f) : 0;
  int bad = text ? ferror(f) : 0, why = errno ? errno : EIO;
  fclose(f);
  if (!text) {
    p->failed = 1;
    return;
  }
  pasta_strlist args = {0};
  if (bad)
    error(p, "%s%s%s: cannot read the options file: %s", how, sep, path,
          strerror(why));
  else if (n > OPTIONS_FILE_MAX)
    error(p, "%s%s%s: an options file larger than 1 MiB", how, sep, path);
  else if (memchr(text, '\0', n))
    error(p, "%s%s%s: not a text file of options", how, sep, path);
  else {
    text[n] = '\0';
    int rc = split_options(text, &args);
    if (rc == -2)
      error(p, "%s%s%s: a quote is not closed", how, sep, path);
    p->failed |= rc == -1;
  }
  free(text);
  if (!p->out->error && args.num <= INT_MAX)
    expand_args(p, (int)args.num, args.at, at_files, depth + 1, out);
  strlist_free(&args);
}

/* Copies argv[0..argc-1] into `out`, each -optf/--options-file FILE[,FILE]
 * (and @FILE when `at_files`) replaced by the arguments its files hold. */
static void expand_args(struct parse *p, int argc, char **argv, int at_files,
                        int depth, pasta_strlist *out) {
  for (int i = 0; i < argc && !p->out->error; ++i) {
    const char *arg = argv[i];
    if (at_files && arg[0] == '@' && arg[1]) {
      options_file(p, "@", arg + 1, at_files, depth, out);
      continue;
    }
    const char *name = arg[0] == '-' ? spelling(arg) : "";
    size_t len = strcspn(name, "=");
    if (!((len == 4 && strncmp(name, "optf", 4) == 0) ||
          (len == 12 && strncmp(name, "options-file", 12) == 0))) {
      p->failed |= push(out, arg);
      continue;
    }
    const char *list = name[len] == '=' ? name + len + 1 : NULL;
    if (!list && i + 1 < argc)
      list = argv[++i];
    if (!list || !*list) {
      error(p, "%s needs a file", arg);
      return;
    }
    char how[16];
    snprintf(how, sizeof how, "%.*s", (int)(name - arg + len), arg);
    char *copy = strdup(list);
    if (!copy) {
      p->failed = 1;
      return;
    }
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save);
         tok && !p->out->error; tok = strtok_r(NULL, ",", &save))
      options_file(p, how, tok, at_files, depth, out);
    free(copy);
  }
}

/* argv[0] and the arguments after it, expanded, into p->expanded: 0, or -1
 * (an error, or out of memory). */
static int argv_expanded(struct parse *p, int argc, char **argv, int at_files) {
  p->failed |= push(&p->expanded, argv[0]);
  expand_args(p, argc - 1, argv + 1, at_files, 0, &p->expanded);
  if (p->expanded.num > INT_MAX)
    error(p, "too many arguments");
  return p->failed || p->out->error ? -1 : 0;
}

/* The options, by name without leading dashes; '|' separates spellings. */
enum action {
  A_ARCH,
  A_CODE,
  A_GENCODE,
  A_RDC,
  A_DC,
  A_DLINK,
  A_LINEINFO,
  A_DEVICE_DEBUG,
  A_DEBUG,
  A_FAST_MATH,
  A_FTZ,
  A_FMAD,
  A_IGNORE,      /* accepted; means nothing to clang (value, if any) */
  A_IGNORE_NOTE, /* accepted and ignored, with a note */
  A_XCOMPILER,
  A_XPTXAS,
  A_XLINKER,
  A_STD,
  A_DEFAULT_STREAM,
  A_CUDART,
  A_OPTIMIZE,
  A_PATH_I,
  A_DEFINE,
  A_UNDEFINE,
  A_PATH_L,
  A_LIBRARY,
  A_ISYSTEM,
  A_INCLUDE,
  A_COMPILE,
  A_OUTPUT,
  A_PREPROCESS,
  A_DEPEND,
  A_DEPEND_WITH_COMPILE,
  A_DEPEND_FILE,
  A_DEPEND_TARGET,
  A_DEPEND_PHONY,
  A_LANGUAGE,
  A_SHARED,
  A_PASS, /* passed to clang as written */
  A_VERSION,
  A_FORWARD_UNKNOWN,
  A_LIB,
  A_DEVICE_OUTPUT
};

struct option {
  const char *names;
  enum action action;
  int takes_value;
};

static const struct option options[] = {
    {"arch|gpu-architecture", A_ARCH, 1},
    {"code|gpu-code", A_CODE, 1},
    {"gencode|generate-code", A_GENCODE, 1},
    {"rdc|relocatable-device-code", A_RDC, 1},
    {"dc|device-c", A_DC, 0},
    {"dlink|device-link", A_DLINK, 0},
    {"lineinfo|generate-line-info", A_LINEINFO, 0},
    {"G|device-debug", A_DEVICE_DEBUG, 0},
    {"g|debug", A_DEBUG, 0},
    {"use_fast_math|use-fast-math", A_FAST_MATH, 0},
    {"ftz", A_FTZ, 1},
    {"fmad", A_FMAD, 1},
    {"prec-div|prec_div|prec-sqrt|prec_sqrt", A_IGNORE_NOTE, 1},
    {"extended-lambda|expt-extended-lambda|expt-relaxed-constexpr|"
     "Wno-deprecated-gpu-targets|keep|res-usage|resource-usage|"
     "display-error-number|no-display-error-number|m64|"
     "allow-unsupported-compiler|Wreorder|Wext-lambda-captures-this",
     A_IGNORE, 0},
    {"threads|t|diag-suppress|diag_suppress|Xcudafe|Xnvlink|keep-dir|"
     "ccbin|compiler-bindir|Werror|split-compile|maxrregcount",
     A_IGNORE_NOTE, 1},
    {"Xcompiler|compiler-options", A_XCOMPILER, 1},
    {"Xptxas|ptxas-options", A_XPTXAS, 1},
    {"Xlinker|linker-options", A_XLINKER, 1},
    {"std", A_STD, 1},
    {"default-stream", A_DEFAULT_STREAM, 1},
    {"cudart", A_CUDART, 1},
    {"optimize", A_OPTIMIZE, 1},
    {"I|include-path", A_PATH_I, 1},
    {"D|define-macro", A_DEFINE, 1},
    {"U|undefine-macro", A_UNDEFINE, 1},
    {"L|library-path", A_PATH_L, 1},
    {"l|library", A_LIBRARY, 1},
    {"isystem|system-include", A_ISYSTEM, 1},
    {"include|pre-include", A_INCLUDE, 1},
    {"c|compile", A_COMPILE, 0},
    {"o|output-file", A_OUTPUT, 1},
    {"E|preprocess", A_PREPROCESS, 0},
    {"M|generate-dependencies|MM|generate-nonsystem-dependencies", A_DEPEND, 0},
    {"MD|generate-dependencies-with-compile|MMD|"
     "generate-nonsystem-dependencies-with-compile",
     A_DEPEND_WITH_COMPILE, 0},
    {"MF|dependency-output", A_DEPEND_FILE, 1},
    {"MT|dependency-target-name", A_DEPEND_TARGET, 1},
    {"MP|generate-dependency-targets", A_DEPEND_PHONY, 0},
    {"x|x-language", A_LANGUAGE, 1},
    {"shared", A_SHARED, 0},
    {"w|disable-warnings|v|verbose|fPIC|pthread", A_PASS, 0},
    {"V|version", A_VERSION, 0},
    {"forward-unknown-to-host-compiler|forward-unknown-opts|"
     "forward-unknown-to-host-linker",
     A_FORWARD_UNKNOWN, 0},
    {"lib", A_LIB, 0},
    {"fatbin", A_DEVICE_OUTPUT, 0},
    {"cubin", A_DEVICE_OUTPUT, 0},
    {"ptx", A_DEVICE_OUTPUT, 0},
};

static const struct option *find_option(const char *name, size_t len) {
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

/* Runs the action of option `o` (as written: `arg`) with `value`. */
static void act(struct parse *p, const struct option *o, const char *arg,
                const char *value) {
  switch (o->action) {
  case A_ARCH:
    each_item(p, value, arch_item);
    break;
  case A_CODE:
    each_item(p, value, code_item);
    break;
  case A_GENCODE:
    gencode(p, value);
    break;
  case A_RDC:
    p->rdc = is_true(value);
    break;
  case A_DC:
    p->rdc = p->compile = 1;
    break;
  case A_DLINK:
    p->dlink = 1;
    break;
  case A_LINEINFO:
    flag(p, "-gline-tables-only");
    break;
  case A_DEVICE_DEBUG:
    flag(p, "-g");
    p->device_debug = 1;
    break;
  case A_DEBUG:
    flag(p, "-g");
    break;
  case A_FAST_MATH:
    cuda_flag(p, "-fgpu-approx-transcendentals");
    cuda_flag(p, "-fgpu-flush-denormals-to-zero");
    break;
  case A_FTZ:
    if (is_true(value))
      cuda_flag(p, "-fgpu-flush-denormals-to-zero");
    break;
  case A_FMAD:
    flag(p, is_true(value) ? "-ffp-contract=fast" : "-ffp-contract=off");
    break;
  case A_IGNORE:
    break;
  case A_IGNORE_NOTE:
    p->failed |= pushf(&p->out->notes, "%s%s%s: accepted, ignored", arg,
                       value ? " " : "", value ? value : "");
    break;
  case A_XCOMPILER:
    each_item(p, value, compiler_item);
    break;
  case A_XPTXAS:
    each_item(p, value, ptxas_item);
    break;
  case A_XLINKER:
    each_item(p, value, linker_item);
    break;
  case A_STD:
    p->std = value;
    break;
  case A_DEFAULT_STREAM:
    if (strcmp(value, "per-thread") == 0)
      flag(p, "-fgpu-default-stream=per-thread");
    else if (strcmp(value, "legacy") && strcmp(value, "null"))
      warn(p, "ignoring --default-stream %s (legacy, null or per-thread)",
           value);
    break;
  case A_CUDART:
    if (strcmp(value, "static") == 0)
      p->cudart = CUDART_STATIC;
    else if (strcmp(value, "shared") == 0)
      p->cudart = CUDART_SHARED;
    else if (strcmp(value, "none") == 0)
      p->cudart = CUDART_NONE;
    else
      warn(p, "ignoring -cudart %s (static, shared or none)", value);
    break;
  case A_OPTIMIZE:
    p->failed |= pushf(&p->flags, "-O%s", value);
    break;
  case A_PATH_I:
    flag2(p, "-I", value);
    break;
  case A_DEFINE:
    flag2(p, "-D", value);
    break;
  case A_UNDEFINE:
    flag2(p, "-U", value);
    break;
  case A_PATH_L:
    flag2(p, "-L", value);
    break;
  case A_LIBRARY:
    p->failed |= pushf(&p->libs, "-l%s", value);
    break;
  case A_ISYSTEM:
    flag2(p, "-isystem", value);
    break;
  case A_INCLUDE:
    flag2(p, "-include", value);
    break;
  case A_COMPILE:
    p->compile = 1;
    break;
  case A_OUTPUT:
    p->output = value;
    break;
  case A_PREPROCESS:
    p->preprocess = 1;
    flag(p, "-E");
    break;
  case A_DEPEND:
    p->depend = 1;
    flag(p, strchr(spelling(arg), 'n') || !strcmp(spelling(arg), "MM") ? "-MM"
                                                                       : "-M");
    break;
  case A_DEPEND_WITH_COMPILE:
    flag(p, strcmp(spelling(arg), "MD") == 0 ||
                    strcmp(spelling(arg),
                           "generate-dependencies-with-compile") == 0
                ? "-MD"
                : "-MMD");
    break;
  case A_DEPEND_FILE:
    flag2(p, "-MF", value);
    break;
  case A_DEPEND_TARGET:
    flag2(p, "-MT", value);
    break;
  case A_DEPEND_PHONY:
    flag(p, "-MP");
    break;
  case A_LANGUAGE:
    if (strcmp(value, "cu") == 0 || strcmp(value, "cuda") == 0)
      p->forced_lang = LANG_CUDA;
    else if (strcmp(value, "c++") == 0)
      p->forced_lang = LANG_CXX;
    else if (strcmp(value, "c") == 0)
      p->forced_lang = LANG_C;
    else if (strcmp(value, "none") == 0)
      p->forced_lang = LANG_NONE;
    else
      error(p, "-x %s: a language nvcc does not take (cu, c++, c, none)",
            value);
    break;
  case A_SHARED:
    p->shared = 1;
    flag(p, "-shared");
    break;
  case A_PASS:
    flag(p, arg);
    break;
  case A_VERSION:
    p->out->mode = PASTA_NVCC_VERSION;
    break;
  case A_FORWARD_UNKNOWN:
    p->forward_unknown = 1;
    break;
  case A_LIB:
    error(p, "-lib (a static library of device code) is not supported: "
             "compile with -c and make the archive with ar");
    break;
  case A_DEVICE_OUTPUT:
    p->out->device_output = spelling(arg)[0];
    p->compile = 1; /* no link */
    break;
  }
}

/* -I/x, -DX=1, -Ux, -L/x, -lfoo, -O3: short options with their value. */
static int attached(struct parse *p, const char *arg) {
  static const struct {
    char letter;
    enum action action;
  } shorts[] = {{'I', A_PATH_I}, {'D', A_DEFINE},  {'U', A_UNDEFINE},
                {'L', A_PATH_L}, {'l', A_LIBRARY}, {'O', A_OPTIMIZE}};
  if (arg[0] != '-' || arg[1] == '-' || !arg[1])
    return 0;
  for (size_t i = 0; i < sizeof shorts / sizeof *shorts; ++i)
    if (arg[1] == shorts[i].letter && (arg[2] || shorts[i].letter == 'O')) {
      struct option o = {"", shorts[i].action, 1};
      act(p, &o, arg, arg[2] ? arg + 2 : "2");
      return 1;
    }
  return 0;
}

static void parse(struct parse *p, int argc, char **argv) {
  for (int i = 1; i < argc && !p->out->error; ++i) {
    const char *arg = argv[i];
    if (arg[0] != '-' || !arg[1]) {
      input(p, arg);
      continue;
    }
    const char *name = spelling(arg);
    size_t len = strcspn(name, "=");
    const struct option *o = find_option(name, len);
    if (!o) {
      if (attached(p, arg))
        continue;
      if (p->forward_unknown) {
        flag(p, arg);
        continue;
      }
      warn(p,
           "ignoring '%s' (an nvcc option PASTA does not know; "
           "-forward-unknown-to-host-compiler passes such options on)",
           arg);
      continue;
    }
    const char *value = NULL;
    if (o->takes_value) {
      if (name[len] == '=')
        value = name + len + 1;
      else if (i + 1 < argc)
        value = argv[++i];
      else {
        error(p, "%s needs a value", arg);
        break;
      }
    } else if (name[len] == '=') {
      warn(p, "ignoring '%s' (%.*s takes no value)", arg, (int)len, name);
      continue;
    }
    act(p, o, arg, value);
  }
}

static void parse_free(struct parse *p) {
  strlist_free(&p->expanded);
  strlist_free(&p->flags);
  strlist_free(&p->cuda_flags);
  strlist_free(&p->inputs);
  strlist_free(&p->libs);
  strlist_free(&p->archs);
  strlist_free(&p->arch_only);
}

/*===-- The clang command -------------------------------------------------===*/

static int count_inputs(const struct parse *p, int lang) {
  int n = 0;
  for (size_t i = 0; i < p->inputs.num; ++i)
    n += p->inputs.at[i][0] - '0' == lang;
  return n;
}

static int in_only_archs(const struct parse *p, const char *arch) {
  const char *list = p->cfg->only_archs;
  size_t len = strlen(arch);
  while (list && *list) {
    size_t n = strcspn(list, ",; ");
    if (n == len && strncmp(list, arch, n) == 0)
      return 1;
    list += n + (list[n] != '\0');
  }
  return 0;
}

static int have_only_archs(const struct parse *p) {
  return p->cfg->only_archs && p->cfg->only_archs[0];
}

/* Whether to build for sm_`arch`: not when the user asked for others only
 * (no warning: their choice), nor when clang cannot (one warning). */
static int keep_arch(struct parse *p, const char *arch) {
  if (have_only_archs(p) && !in_only_archs(p, arch))
    return 0;
  if (!pasta_nvcc_arch_supported(arch)) {
    warn(p,
         "sm_%s dropped: clang-22 with CUDA 13 cannot build for it "
         "(docs/nvcc.md lists what it can)",
         arch);
    return 0;
  }
  return 1;
}

/* Nothing left to build for: the user's list, else the default. */
static void fallback_archs(struct parse *p, int warn_none, const char *spell) {
  int pushed = 0;
  const char *list = have_only_archs(p) ? p->cfg->only_archs : "";
  while (*list) {
    size_t n = strcspn(list, ",; ");
    char arch[16];
    snprintf(arch, sizeof arch, "%.*s", (int)(n < 15 ? n : 15), list);
    if (n && pasta_nvcc_arch_supported(arch)) {
      p->failed |= pushf(&p->out->args, "%ssm_%s", spell, arch);
      ++pushed;
    }
    list += n + (list[n] != '\0');
  }
  if (pushed)
    return;
  if (warn_none)
    warn(p, "no GPU architecture left; building for sm_%s",
         p->cfg->default_arch);
  p->failed |= pushf(&p->out->args, "%ssm_%s", spell, p->cfg->default_arch);
}

/* The architectures to build for: -code/-gencode's, else -arch's; those
 * clang cannot target dropped with a warning. */
static void emit_archs(struct parse *p) {
  const pasta_strlist *want = p->have_code ? &p->archs : &p->arch_only;
  if (!want->num) {
    if (have_only_archs(p))
      fallback_archs(p, 0, "--offload-arch=");
    return; /* else pasta-clang++'s default (PASTA_CUDA_ARCH, 90) */
  }
  int kept = 0, buildable = 0;
  for (size_t i = 0; i < want->num; ++i) {
    buildable += pasta_nvcc_arch_supported(want->at[i]);
    if (keep_arch(p, want->at[i])) {
      p->failed |= pushf(&p->out->args, "--offload-arch=sm_%s", want->at[i]);
      ++kept;
    }
  }
  if (!kept)
    fallback_archs(p, !buildable, "--offload-arch=");
}

/* The GPU architecture an argument names ("90" of --offload-arch=sm_90 or
 * --cuda-gpu-arch=sm_90), or NULL. */
static const char *arch_of(const char *arg) {
  if (strncmp(arg, "--offload-arch=sm_", 18) == 0)
    return arg + 18;
  if (strncmp(arg, "--cuda-gpu-arch=sm_", 19) == 0)
    return arg + 19;
  return NULL;
}

static void remove_at(pasta_strlist *l, size_t i) {
  free(l->at[i]);
  memmove(l->at + i, l->at + i + 1, (l->num - i - 1) * sizeof *l->at);
  --l->num;
}

/* -fatbin, -cubin, -ptx: device code only. A cubin or PTX file is of one
 * architecture: the first asked for (for PTX the lowest, which the driver
 * compiles for newer GPUs), with a warning when there were more; a fatbin
 * of several is made by pasta_nvcc_run. */
static void device_output_args(struct parse *p) {
  pasta_strlist *a = &p->out->args;
  char kind = p->out->device_output;
  if (!kind)
    return;
  size_t keep = a->num, archs = 0;
  for (size_t i = 0; i < a->num; ++i) {
    const char *arch = arch_of(a->at[i]);
    if (!arch)
      continue;
    ++archs;
    if (keep == a->num ||
        (kind == 'p' && atoi(arch) < atoi(arch_of(a->at[keep]))))
      keep = i;
  }
  if (kind != 'f' && archs > 1) {
    warn(p,
         "-%s: one architecture, sm_%s (clang writes one file per "
         "architecture)",
         kind == 'p' ? "ptx" : "cubin", arch_of(a->at[keep]));
    for (size_t i = a->num; i-- > 0;)
      if (i != keep && arch_of(a->at[i]))
        remove_at(a, i);
  }
  p->failed |= push(a, "--cuda-device-only");
  if (kind == 'p')
    p->failed |= push(a, "-S");
  else if (!contains(a, "-c"))
    p->failed |= push(a, "-c");
}

/* nvcc optimizes device code whatever the host -O level (-O0 and -g
 * included) unless -G: clang's device side follows the host -O unless told
 * otherwise, and at -O0 with debug info runs ptxas with -g, which takes
 * minutes and gigabytes on template-heavy code. Must follow every -O. */
static void device_opt_level(struct parse *p) {
  p->failed |= push(&p->out->args, "-Xarch_device") ||
               push(&p->out->args, p->device_debug ? "-O0" : "-O3");
}

/* nvcc's host min/max (nvcc_host_compat.h). */
static void host_compat(struct parse *p) {
  if (p->cfg->host_compat)
    p->failed |= push(&p->out->args, "-include") ||
                 push(&p->out->args, p->cfg->host_compat);
}

static void emit_inputs(struct parse *p) {
  static const char *const names[] = {"none", "cuda", "c++", "c", "none"};
  int current = -1;
  for (size_t i = 0; i < p->inputs.num; ++i) {
    int lang = p->inputs.at[i][0] - '0';
    const char *path = p->inputs.at[i] + 1;
    if (lang != current && !(lang == LANG_OBJECT && current == -1)) {
      p->failed |= push(&p->out->args, "-x");
      p->failed |= push(&p->out->args, names[lang]);
      current = lang;
    }
    p->failed |= push(&p->out->args, path);
  }
}

static void emit(struct parse *p) {
  pasta_strlist *a = &p->out->args;
  const char *cuda = p->cfg->cuda_path;
  int cuda_inputs = count_inputs(p, LANG_CUDA);
  int host_inputs = count_inputs(p, LANG_CXX) + count_inputs(p, LANG_C);
  int objects = count_inputs(p, LANG_OBJECT);
  int link = !p->compile && !p->preprocess && !p->depend;
  if (p->dlink) {
    /* clang device-links at the final link (the objects carry their device
     * code): nvcc's separate device-link object is an empty one here. */
    const char *out = p->output ? p->output : "a_dlink.o";
    p->failed |= push(a, "-c") || push(a, "-x") || push(a, "c") ||
                 push(a, "/dev/null") || push(a, "-o") || push(a, out);
    p->failed |= push(&p->out->notes,
                      "-dlink: an empty object; the device link happens at "
                      "the final link (through pasta-nvcc)");
    return;
  }
  /* Line tables unless the command chose its debug info (nvcc's -g, -G,
   * -lineinfo, or the host compiler's -g... through -Xcompiler), so that
   * counts have source lines in any build (clang gives the device side
   * line directives at -O3). */
  int chose = 0;
  for (size_t i = 0; i < p->flags.num; ++i)
    chose |= pasta_asks_debug_info(p->flags.at[i]);
  if (p->cfg->line_tables == 1 && !chose && cuda_inputs + host_inputs)
    p->failed |= push(a, "-gline-tables-only");
  for (size_t i = 0; i < p->flags.num; ++i)
    p->failed |= push(a, p->flags.at[i]);
  /* nvcc's -std is for C++ and CUDA; clang refuses it with C inputs. */
  if (p->std && count_inputs(p, LANG_C))
    warn(p, "-std=%s left out: this command also compiles C files", p->std);
  else if (p->std)
    p->failed |= pushf(a, "-std=%s", p->std);
  if (p->compile && p->out->device_output != 'p')
    p->failed |= push(a, "-c");
  if (cuda_inputs) {
    for (size_t i = 0; i < p->cuda_flags.num; ++i)
      p->failed |= push(a, p->cuda_flags.at[i]);
    emit_archs(p);
    device_opt_level(p);
    host_compat(p);
    device_output_args(p);
    if (p->rdc)
      p->failed |= push(a, "-fgpu-rdc");
    if (p->preprocess || p->depend)
      p->failed |= push(a, "--cuda-host-only");
  }
  /* nvcc gives host files the CUDA headers (and CCCL's in CUDA 13). */
  if (host_inputs) {
    p->failed |= push(a, "-isystem") || pushf(a, "%s/include", cuda);
    if (p->cfg->have_cccl)
      p->failed |= push(a, "-isystem") || pushf(a, "%s/include/cccl", cuda);
  }
  if (p->output)
    p->failed |= push(a, "-o") || push(a, p->output);
  emit_inputs(p);
  for (size_t i = 0; i < p->libs.num; ++i)
    p->failed |= push(a, p->libs.at[i]);
  if (!link || p->inputs.num == 0)
    return;
  int device_link = p->rdc;
  for (size_t i = 0; !device_link && i < p->inputs.num; ++i)
    device_link = p->inputs.at[i][0] - '0' == LANG_OBJECT &&
                  p->cfg->has_device_code &&
                  p->cfg->has_device_code(p->inputs.at[i] + 1);
  if (device_link && (objects || cuda_inputs)) {
    /* With CUDA's device runtime (dynamic parallelism), as nvcc links. */
    p->failed |= push(a, "-fgpu-rdc") || push(a, "--offload-link") ||
                 push(a, "-Xoffload-linker") || pushf(a, "-L%s/lib64", cuda) ||
                 push(a, "-Xoffload-linker") || push(a, "-lcudadevrt");
  }
  /* nvcc links the CUDA runtime, statically unless told otherwise. */
  if (p->cudart != CUDART_NONE) {
    p->failed |= pushf(a, "-L%s/lib64", cuda);
    if (p->cudart == CUDART_SHARED)
      p->failed |= push(a, "-lcudart");
    else
      p->failed |= push(a, "-lcudart_static") || push(a, "-ldl") ||
                   push(a, "-lrt") || push(a, "-lpthread");
  }
}

int pasta_nvcc_translate(int argc, char **argv, const pasta_nvcc_config *cfg,
                         pasta_nvcc_result *out) {
  memset(out, 0, sizeof *out);
  struct parse p;
  memset(&p, 0, sizeof p);
  p.cfg = cfg;
  p.out = out;
  if (cfg->line_tables < 0)
    error(&p,
          "PASTA_LINE_TABLES='%s': use 1 or 0 (on/off, true/false, yes/no); "
          "0 builds without the default -gline-tables-only",
          cfg->line_tables_value ? cfg->line_tables_value : "");
  else if (argc > 0 && argv_expanded(&p, argc, argv, 1) == 0)
    parse(&p, (int)p.expanded.num, p.expanded.at);
  if (out->mode == PASTA_NVCC_BUILD && !out->error) {
    if (p.inputs.num == 0 && !p.dlink)
      error(&p, "no input files");
    else
      emit(&p);
  }
  parse_free(&p);
  return p.failed ? -1 : 0;
}

/*===-- Filtering a clang command (the CMake launcher) --------------------===*/

/* The actions of options only nvcc has: what a project written for nvcc
 * puts in its CUDA flags. Every other argument is clang's already. */
static int nvcc_only(enum action a) {
  switch (a) {
  case A_DEVICE_OUTPUT:
  case A_ARCH:
  case A_CODE:
  case A_GENCODE:
  case A_RDC:
  case A_LINEINFO:
  case A_DEVICE_DEBUG:
  case A_FAST_MATH:
  case A_FTZ:
  case A_FMAD:
  case A_IGNORE:
  case A_IGNORE_NOTE:
  case A_XCOMPILER:
  case A_XPTXAS:
  case A_DEFAULT_STREAM:
  case A_CUDART:
  case A_FORWARD_UNKNOWN:
    return 1;
  default:
    return 0;
  }
}

/* Spellings nvcc and clang share, with another meaning in clang. */
static int clang_also(const char *name, size_t len) {
  static const char *const shared[] = {"Werror", "m64", "t", "keep"};
  for (size_t i = 0; i < sizeof shared / sizeof *shared; ++i)
    if (strlen(shared[i]) == len && strncmp(shared[i], name, len) == 0)
      return 1;
  return 0;
}

static void move_flags(struct parse *p, pasta_strlist *from) {
  for (size_t i = 0; i < from->num; ++i)
    p->failed |= push(&p->out->args, from->at[i]);
  strlist_free(from);
}

/* --cuda-gpu-arch=sm_NN or --offload-arch=sm_NN: kept when clang can
 * build it here (and the user's list has it). Returns whether `arg` is
 * one. */
struct arch_count {
  int given, buildable, kept;
};

static int gpu_arch_arg(struct parse *p, const char *arg,
                        struct arch_count *n) {
  const char *v = NULL;
  if (strncmp(arg, "--cuda-gpu-arch=", 16) == 0)
    v = arg + 16;
  else if (strncmp(arg, "--offload-arch=", 15) == 0)
    v = arg + 15;
  if (!v)
    return 0;
  const char *num = strncmp(v, "sm_", 3) == 0 ? v + 3 : NULL;
  if (!num) { /* not an NVIDIA architecture: clang's to judge */
    p->failed |= push(&p->out->args, arg);
    ++n->kept;
    return 1;
  }
  ++n->given;
  n->buildable += pasta_nvcc_arch_supported(num);
  if (keep_arch(p, num)) {
    p->failed |= push(&p->out->args, arg);
    ++n->kept;
  }
  return 1;
}

int pasta_nvcc_filter(int argc, char **argv, const pasta_nvcc_config *cfg,
                      pasta_nvcc_result *out) {
  memset(out, 0, sizeof *out);
  struct parse p;
  memset(&p, 0, sizeof p);
  p.cfg = cfg;
  p.out = out;
  struct arch_count archs = {0, 0, 0};
  if (argc > 0 && argv_expanded(&p, argc, argv, 0) == 0) {
    argc = (int)p.expanded.num;
    argv = p.expanded.at;
  } else {
    argc = 0;
  }
  for (int i = 0; i < argc && !out->error; ++i) {
    const char *arg = argv[i];
    if (i == 0 || arg[0] != '-' || gpu_arch_arg(&p, arg, &archs)) {
      if (i == 0 || arg[0] != '-')
        p.failed |= push(&out->args, arg);
      continue;
    }
    const char *name = spelling(arg);
    size_t len = strcspn(name, "=");
    const struct option *o = find_option(name, len);
    if (!o || !nvcc_only(o->action) || clang_also(name, len)) {
      p.failed |= push(&out->args, arg);
      continue;
    }
    const char *value = NULL;
    if (o->takes_value) {
      if (name[len] == '=')
        value = name + len + 1;
      else if (i + 1 < argc)
        value = argv[++i];
      else {
        error(&p, "%s needs a value", arg);
        break;
      }
    }
    act(&p, o, arg, value);
    if (p.rdc) {
      p.failed |= push(&p.flags, "-fgpu-rdc");
      p.rdc = 0;
    }
    move_flags(&p, &p.flags);
    move_flags(&p, &p.cuda_flags);
  }
  /* Architectures named with nvcc's options, then the fallback. */
  pasta_strlist *want = p.have_code ? &p.archs : &p.arch_only;
  for (size_t i = 0; i < want->num; ++i) {
    char arg[64];
    snprintf(arg, sizeof arg, "--offload-arch=sm_%s", want->at[i]);
    gpu_arch_arg(&p, arg, &archs);
  }
  if (archs.given && !archs.kept)
    fallback_archs(&p, !archs.buildable, "--offload-arch=");
  /* A compile (not CMake's link step, which runs the CUDA compiler too). */
  if (out->device_output || contains(&out->args, "-c") ||
      contains(&out->args, "-S") || contains(&out->args, "-E")) {
    device_opt_level(&p);
    host_compat(&p);
  }
  device_output_args(&p);
  /* A project's own commands calling the CUDA compiler have no PASTA flags:
   * clang's "CUDA version is newer" is noise there too. */
  if (!contains(&out->args, "-Wno-unknown-cuda-version"))
    p.failed |= push(&out->args, "-Wno-unknown-cuda-version");
  parse_free(&p);
  return p.failed ? -1 : 0;
}

void pasta_nvcc_result_free(pasta_nvcc_result *r) {
  strlist_free(&r->args);
  strlist_free(&r->warnings);
  strlist_free(&r->notes);
  free(r->error);
  memset(r, 0, sizeof *r);
}

int pasta_nvcc_own_dir(char *out, size_t size) {
  ssize_t n = readlink("/proc/self/exe", out, size - 1);
  if (n <= 0)
    return -1;
  out[n] = '\0';
  char *slash = strrchr(out, '/');
  if (!slash)
    return -1;
  *slash = '\0';
  return 0;
}

void pasta_nvcc_config_from_env(pasta_nvcc_config *cfg) {
  static char cccl[PATH_MAX], dir[PATH_MAX], compat[PATH_MAX + 64];
  memset(cfg, 0, sizeof *cfg);
  const char *cuda = getenv("PASTA_CUDA_PATH");
  cfg->cuda_path = cuda && *cuda ? cuda : "/usr/local/cuda";
  const char *arch = getenv("PASTA_CUDA_ARCH");
  cfg->default_arch =
      arch && *arch && pasta_nvcc_arch_supported(arch) ? arch : "90";
  cfg->only_archs = getenv("PASTA_CUDA_ARCHITECTURES");
  const char *lines = getenv("PASTA_LINE_TABLES");
  cfg->line_tables_value = lines;
  cfg->line_tables = lines && *lines ? pasta_yes_no(lines) : 1;
  struct stat st;
  snprintf(cccl, sizeof cccl, "%s/include/cccl", cfg->cuda_path);
  cfg->have_cccl = stat(cccl, &st) == 0 && S_ISDIR(st.st_mode);
  if (pasta_nvcc_own_dir(dir, sizeof dir) == 0 &&
      snprintf(compat, sizeof compat, "%s/../include/pasta/nvcc_host_compat.h",
               dir) < (int)sizeof compat &&
      stat(compat, &st) == 0)
    cfg->host_compat = compat;
}

/*===-- Running the command -----------------------------------------------===*/

static int run_and_wait(char **argv, const char *who) {
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "%s: error: cannot fork: %s\n", who, strerror(errno));
    return 2;
  }
  if (pid == 0) {
    execvp(argv[0], argv);
    fprintf(stderr, "%s: error: cannot run %s: %s\n", who, argv[0],
            strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* One clang run per architecture (the others' arguments left out, the
 * output a cubin beside the fatbin), then fatbinary, as clang itself
 * bundles a CUDA object's device code. */
static int fatbin_of_several(char **args, size_t n, size_t out_at,
                             const char *cuda, const char *who) {
  pasta_strlist cubins = {0}, bundle = {0};
  char **one = calloc(n + 1, sizeof *one);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/bin/fatbinary", cuda);
  int rc = !one || push(&bundle, path) || push(&bundle, "-64") ||
                   push(&bundle, "--create") || push(&bundle, args[out_at])
               ? 2
               : 0;
  for (size_t k = 0; k < n && !rc; ++k) {
    const char *arch = arch_of(args[k]);
    if (!arch)
      continue;
    char cubin[PATH_MAX], image[PATH_MAX + 64];
    snprintf(cubin, sizeof cubin, "%s.sm_%s.cubin", args[out_at], arch);
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
      if (i == out_at)
        one[m++] = cubin;
      else if (i == k || !arch_of(args[i]))
        one[m++] = args[i];
    one[m] = NULL;
    snprintf(image, sizeof image, "--image3=kind=elf,sm=%s,file=%s", arch,
             cubin);
    if (push(&cubins, cubin) || push(&bundle, image))
      rc = 2;
    else
      rc = run_and_wait(one, who);
  }
  char **argv = rc ? NULL : calloc(bundle.num + 1, sizeof *argv);
  if (argv) {
    memcpy(argv, bundle.at, bundle.num * sizeof *argv);
    rc = run_and_wait(argv, who);
    free(argv);
  } else if (!rc)
    rc = 2;
  for (size_t i = 0; i < cubins.num; ++i)
    unlink(cubins.at[i]);
  strlist_free(&cubins);
  strlist_free(&bundle);
  free(one);
  return rc;
}

int pasta_nvcc_run(const pasta_nvcc_result *r, char **args, const char *cuda,
                   const char *who) {
  size_t n = 0, archs = 0, out_at = 0;
  for (; args[n]; ++n) {
    archs += arch_of(args[n]) != NULL;
    if (strcmp(args[n], "-o") == 0 && args[n + 1])
      out_at = n + 1;
  }
  if (r->device_output == 'f' && archs > 1 && out_at)
    return fatbin_of_several(args, n, out_at, cuda, who);
  execvp(args[0], args);
  fprintf(stderr, "%s: error: cannot run %s: %s\n", who, args[0],
          strerror(errno));
  return 2;
}
