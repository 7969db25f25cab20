/*===- nvcc_internal.h - What nvcc_args.c's files share -------------------===*
 *
 * Private to driver/: nvcc_args.c parses nvcc's command line into a
 * `struct parse` (the option table), nvcc_options_file.c expands options
 * files, nvcc_command.c assembles the clang command (and filters the CMake
 * launcher's), nvcc_run.c reads the configuration and runs the command.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DRIVER_NVCC_INTERNAL_H
#define PASTA_DRIVER_NVCC_INTERNAL_H

#include "nvcc_args.h"

#include <stddef.h>

enum lang { LANG_NONE, LANG_CUDA, LANG_CXX, LANG_C, LANG_OBJECT };

struct parse {
  const pasta_nvcc_config *cfg;
  pasta_nvcc_result *out;
  pasta_strlist flags;      /* passed through, before the inputs */
  pasta_strlist cuda_flags; /* the same, for CUDA inputs only */
  pasta_strlist inputs;     /* "<lang><path>": lang as one digit */
  pasta_strlist libs;       /* -lNAME, after every input (as nvcc links) */
  pasta_strlist lib_dirs;   /* -L DIR, -L DIR...: linking only */
  pasta_strlist archs;      /* "90", "90a": from -arch/-code/-gencode */
  pasta_strlist arch_only;  /* from -arch when -code names none */
  int forced_lang;          /* -x: the language of later inputs */
  int compile, preprocess, depend, rdc, dlink, shared, forward_unknown;
  int ptxas_opt_level; /* -Xptxas -O2 and the like: ptxas's -O level */
  int have_code;
  int device_debug; /* -G: device code unoptimized, with full debug info */
  const char *std;
  const char *output;
  pasta_strlist expanded; /* the arguments, options files expanded */
  enum { CUDART_STATIC, CUDART_SHARED, CUDART_NONE } cudart;
  int failed; /* out of memory */
};

typedef void option_action(struct parse *p, const char *arg, const char *value);

enum {
  VALUE = 1,    /* takes a value: -o x, -o=x, --output-file x */
  NVCC_ONLY = 2 /* only nvcc has it: the CMake launcher maps it (every
                   other argument of a clang command is clang's already) */
};

struct option {
  const char *names; /* without leading dashes; '|' separates spellings */
  unsigned flags;    /* VALUE, NVCC_ONLY */
  option_action *run;
};

#pragma GCC visibility push(hidden)

/* String lists: 0, or -1 when out of memory. */
int nv_push(pasta_strlist *l, const char *s);
int nv_pushf(pasta_strlist *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void nv_strlist_free(pasta_strlist *l);
int nv_contains(const pasta_strlist *l, const char *s);

/* A warning line, or the error (the first one wins). */
void nv_warn(struct parse *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void nv_error(struct parse *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The value of the option argv[*i] (`arg`, whose name of `len` characters
 * starts at `name`): after its '=', else the next word (*i moves past it).
 * NULL, after an error line, when there is none. */
const char *nv_option_value(struct parse *p, const char *arg, const char *name,
                            size_t len, int argc, char **argv, int *i);

/* An option's name, without its leading dashes. */
const char *nv_spelling(const char *arg);
/* The option of that name (`len` bytes), or NULL. */
const struct option *nv_find_option(const char *name, size_t len);
/* Parses nvcc's arguments argv[1..argc-1] into p. */
void nv_parse(struct parse *p, int argc, char **argv);
void nv_parse_free(struct parse *p);

/* nvcc_options_file.c: argv[0] and the arguments after it, options files
 * expanded (@FILE too when `at_files`), into p->expanded: 0, or -1 (an
 * error, or out of memory). */
int nv_argv_expanded(struct parse *p, int argc, char **argv, int at_files);

/* nvcc_command.c: the architecture of an --offload-arch=sm_NN or
 * --cuda-gpu-arch=sm_NN argument ("90"), or NULL. */
const char *nv_arch_of(const char *arg);

#pragma GCC visibility pop

#endif
