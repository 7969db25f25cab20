/*===- nvcc_args.h - nvcc's command line as clang's ------------------------===*
 *
 * pasta-nvcc takes the command lines users write for nvcc and runs them
 * through pasta-clang++ (clang-22 with the PASTA plugin and runtime). This
 * translates one nvcc command line into pasta-clang++'s arguments, with a
 * warning line for each flag it drops and for each GPU architecture clang
 * cannot target here. No file is read but through `has_device_code` and
 * nvcc's options files (-optf FILE, @FILE: their arguments take the
 * option's place); nothing is printed, nothing is run (pasta_nvcc.c does
 * that).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DRIVER_NVCC_ARGS_H
#define PASTA_DRIVER_NVCC_ARGS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A growable list of malloc'd strings. */
typedef struct pasta_strlist {
  char **at;
  size_t num, cap;
} pasta_strlist;

enum pasta_nvcc_mode {
  PASTA_NVCC_BUILD,    /* compile and/or link: run pasta-clang++ */
  PASTA_NVCC_VERSION,  /* --version: print ours and clang's */
  PASTA_NVCC_LIST_GPU, /* --list-gpu-code/-arch: print the architectures */
  PASTA_NVCC_ERROR     /* `error` says why; exit status 2 */
};

typedef struct pasta_nvcc_config {
  const char *cuda_path;    /* the CUDA toolkit (--cuda-path) */
  int have_cccl;            /* <cuda_path>/include/cccl exists */
  const char *default_arch; /* "90": what "native" means here */
  /* "90,100": build only these, whatever the command asks for (the
   * user's PASTA_CUDA_ARCHITECTURES); NULL or "": what it asks for. */
  const char *only_archs;
  /* nvcc_host_compat.h, included in every CUDA compile; NULL: none. */
  const char *host_compat;
  /* Whether an object or archive holds relocatable device code (clang's
   * offloading section): its link must device-link. NULL: never. */
  int (*has_device_code)(const char *path);
  /* Whether an object is a device-link object (clang's linker wrapper's
   * registration of a linked device image: what pasta-nvcc -dlink writes).
   * A link that device-links leaves such objects out: it registers its own
   * image of the same kernels. NULL: never. */
  int (*is_device_link_object)(const char *path);
  /* Line tables by default (PASTA_LINE_TABLES): 1 adds -gline-tables-only
   * to a compile whose command asks for no debug info (no -g, -G,
   * -lineinfo, -Xcompiler -g0, ...), so that counts have source lines; 0
   * adds nothing; -1: PASTA_LINE_TABLES is neither (an error naming
   * line_tables_value). */
  int line_tables;
  const char *line_tables_value;
  /* PASTA_WRAPPER_VERBOSE set, not empty and not "0": pasta-nvcc prints
   * the notes (what was accepted and ignored) and the command. */
  int verbose;
  /* Device code gets -mllvm -pasta-unroll-private-arrays: loops over a
   * thread's arrays unroll fully as nvcc's do and the arrays stay in
   * registers (passes/PrivateArrayUnroll.h); 0: clang's default unrolling.
   * Not added when the command names an unroll threshold or the flag
   * itself, nor with -G. pasta_nvcc_config_from_env sets it. */
  int unroll_private_arrays;
  /* The toolchain's own CUDA flags (the plugin, its options, the CUDA
   * path, line tables), for pasta_nvcc_filter: added to a compile whose
   * command has no -fpass-plugin=, because the project's CMAKE_CUDA_FLAGS
   * hid the toolchain's (a `set(CMAKE_CUDA_FLAGS ...)` before
   * enable_language(CUDA): miniBUDE's). NULL: none. */
  char *const *toolchain_flags;
  size_t num_toolchain_flags;
  /* pasta-nvcc's own path, given to clang as ptxas (--ptxas-path) where a
   * command sets ptxas's -O level itself: clang gives ptxas the device
   * side's -O3 first, and ptxas warns of the redefinition where nvcc gives
   * it the user's alone. NULL: clang runs ptxas itself. */
  const char *ptxas_filter;
} pasta_nvcc_config;

/* Set in pasta-nvcc's environment for clang to run it as ptxas: the real
 * ptxas, which pasta_nvcc_ptxas_drop's argument left out. */
#define PASTA_NVCC_PTXAS_ENV "PASTA_NVCC_PTXAS"

/* The index in argv (argv[0] the program) of the -O level clang gave
 * ptxas when a later option sets the level again (the user's, through
 * -Xcuda-ptxas, which clang puts after its own); 0 when there is none. */
int pasta_nvcc_ptxas_drop(int argc, char **argv);

/* The plugin's option (docs/nvcc.md, "Unrolling"). */
#define PASTA_NVCC_UNROLL_PRIVATE_FLAG "-pasta-unroll-private-arrays"

typedef struct pasta_nvcc_result {
  enum pasta_nvcc_mode mode;
  pasta_strlist args;     /* pasta-clang++'s arguments, without argv[0] */
  pasta_strlist warnings; /* one line each, without "pasta-nvcc: warning: " */
  pasta_strlist notes;    /* what was accepted and ignored (verbose only) */
  char *error;            /* PASTA_NVCC_ERROR: one line */
  /* -fatbin, -cubin, -ptx: 'f', 'c' or 'p' (device code only, to a file
   * cuModuleLoad* takes); 0 otherwise. A fatbin for several architectures
   * is made by pasta_nvcc_run: one clang run per architecture, then CUDA's
   * fatbinary. */
  char device_output;
  /* -dlink: pasta_nvcc_run runs the device link (args: a link that may
   * leave host symbols unresolved, clang keeping its temporary files) in a
   * scratch directory and keeps, as the output, the object that registers
   * the linked device image, as nvcc -dlink writes one for g++ or ld to
   * link with the objects. */
  int device_link;
  /* 1: the command links a program or shared library (not -c, -E, -M,
   * -dlink or a device-only output). */
  int links;
  /* A command compiling or linking CUDA and host (C, C++) sources: each
   * host source's own compile (pasta-clang++'s arguments, without argv[0]),
   * for pasta_nvcc_run to run before `args`; a link names their objects,
   * host_objects, which pasta_nvcc_run removes after it. */
  pasta_strlist *host_compiles;
  size_t num_host_compiles;
  pasta_strlist host_objects;
  /* PASTA_NVCC_LIST_GPU: which lists were asked for, PASTA_NVCC_LIST_CODE
   * (sm_NN) and/or PASTA_NVCC_LIST_ARCH (compute_NN). */
  int list_gpu;
} pasta_nvcc_result;

enum { PASTA_NVCC_LIST_CODE = 1, PASTA_NVCC_LIST_ARCH = 2 };

/* Translates nvcc's arguments argv[1..argc-1]. Returns 0, or -1 when out of
 * memory. */
int pasta_nvcc_translate(int argc, char **argv, const pasta_nvcc_config *cfg,
                         pasta_nvcc_result *out);
/* Filters a clang command argv[0..argc-1] (the compiler first) that a
 * build system made from flags written for nvcc (CMake's CUDA flags): the
 * options only nvcc has are mapped as above, GPU architectures clang cannot
 * build here dropped with a warning, every other argument kept as it is. */
int pasta_nvcc_filter(int argc, char **argv, const pasta_nvcc_config *cfg,
                      pasta_nvcc_result *out);
void pasta_nvcc_result_free(pasta_nvcc_result *r);

/* Whether a clang argument chooses how much debug info to emit: -g, -gN,
 * -ggdb[N], -gdwarf[-N], -gline-tables-only, -gline-directives-only, ...
 * (-g0 included: it asks for none). Modifiers (-gsplit-dwarf, -gz,
 * -gcolumn-info, -gno-...) do not. */
int pasta_asks_debug_info(const char *arg);

/* A yes/no value as PASTA reads them (1/0, on/off, true/false, yes/no, any
 * case): 1 or 0, or -1 for anything else. */
int pasta_yes_no(const char *value);

/* The GPU architectures clang-22 can build for with CUDA 13 ("75", "90a",
 * ...), measured on the development machine (docs/nvcc.md). */
int pasta_nvcc_arch_supported(const char *arch);

/* Prints what nvcc --list-gpu-code / --list-gpu-arch print, for the
 * architectures clang-22 builds without an accelerated suffix, one a line:
 * sm_NN, compute_NN, or with both lists arch=compute_NN,code=sm_NN.
 * Makefiles pick their -arch from the first line (MCX's does). */
void pasta_nvcc_print_gpu_list(FILE *out, int lists);

#ifdef __cplusplus
}
#endif

/* Runs the clang command `args` (NULL-terminated, the compiler first) as
 * the result asks: exec'd as is (returns only on failure), or, for a
 * fatbin of several architectures, once per architecture and then CUDA's
 * fatbinary. Returns the exit status to use; messages are prefixed with
 * `who`. */
int pasta_nvcc_run(const pasta_nvcc_result *r, char **args, const char *cuda,
                   const char *who);

/* One line on stderr, "<who>: <kind>: <message>\n" (kind: "warning",
 * "error", "note"), written at once: the drivers' one message helper. */
void pasta_nvcc_diag(const char *who, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The directory of the running program (<build>/bin) into `out`; 0, or
 * -1 when it cannot be read. */
int pasta_nvcc_own_dir(char *out, size_t size);

/* The configuration both programs share, from the environment:
 * PASTA_CUDA_PATH (default /usr/local/cuda), PASTA_CUDA_ARCH (default 90),
 * PASTA_CUDA_ARCHITECTURES, PASTA_LINE_TABLES (default on),
 * PASTA_WRAPPER_VERBOSE, the CCCL
 * directory, and nvcc_host_compat.h
 * beside the program (<build>/bin/../include/pasta/). The strings stay
 * valid for the life of the process. */
void pasta_nvcc_config_from_env(pasta_nvcc_config *cfg);

#endif
