/*===- pasta_cuda_launcher.c - the CMake toolchain's CUDA compiler --------===*
 *
 *   pasta-cuda-launcher [--pasta-archs=LIST] [--pasta-flag=FLAG...]
 *                       COMPILER ARGS...
 *
 * cmake/pasta-toolchain.cmake makes the CUDA compiler a script that runs
 * clang through this program, so that projects written for nvcc build with
 * clang unmodified: the options only nvcc has (--extended-lambda, -lineinfo,
 * -Xcompiler=..., -gencode=..., -fatbin, ...) in their CUDA flags and in
 * their own commands calling ${CMAKE_CUDA_COMPILER} are mapped or dropped,
 * and GPU architectures clang cannot build here (a project-set
 * CMAKE_CUDA_ARCHITECTURES list) are dropped with a warning (nvcc_args.h,
 * pasta_nvcc_filter). LIST (from the toolchain's PASTA_CUDA_ARCHITECTURES,
 * else that environment variable), "90,100": build for these only,
 * whatever the project asks. FLAG: the toolchain's own CUDA flags (the
 * plugin first), added to a compile whose command lacks the plugin because
 * the project's CMAKE_CUDA_FLAGS hid the toolchain's. Usable as
 * CMAKE_CUDA_COMPILER_LAUNCHER too.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "nvcc_args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  pasta_nvcc_config cfg;
  pasta_nvcc_config_from_env(&cfg);
  if (argc > 1 && strncmp(argv[1], "--pasta-archs=", 14) == 0) {
    cfg.only_archs = argv[1] + 14;
    --argc;
    ++argv;
  }
  /* The toolchain's flags, one --pasta-flag= each, in order. */
  char **flags = argv + 1;
  size_t num_flags = 0;
  while (argc > 1 && strncmp(argv[1], "--pasta-flag=", 13) == 0) {
    flags[num_flags++] = argv[1] + 13;
    --argc;
    ++argv;
  }
  cfg.toolchain_flags = flags;
  cfg.num_toolchain_flags = num_flags;
  if (argc < 2) {
    fprintf(stderr, "usage: pasta-cuda-launcher [--pasta-archs=LIST] "
                    "[--pasta-flag=FLAG...] COMPILER ARGS...\n");
    return 2;
  }
  pasta_nvcc_result r;
  if (pasta_nvcc_filter(argc - 1, argv + 1, &cfg, &r) != 0) {
    pasta_nvcc_diag("pasta-cuda-launcher", "error", "out of memory");
    return 2;
  }
  for (size_t i = 0; i < r.warnings.num; ++i)
    pasta_nvcc_diag("pasta-toolchain", "warning", "%s", r.warnings.at[i]);
  if (r.mode == PASTA_NVCC_ERROR) {
    pasta_nvcc_diag("pasta-toolchain", "error", "%s", r.error);
    return 2;
  }
  char **args = calloc(r.args.num + 1, sizeof *args);
  if (!args)
    return 2;
  for (size_t i = 0; i < r.args.num; ++i)
    args[i] = r.args.at[i];
  return pasta_nvcc_run(&r, args, cfg.cuda_path, "pasta-cuda-launcher");
}
