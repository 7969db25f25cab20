/*===- pasta_nvcc.c - A drop-in for nvcc that builds with PASTA -----------===*
 *
 *   make NVCC=<pasta>/build/bin/pasta-nvcc
 *
 * Translates the nvcc command line (nvcc_args.c) and runs pasta-clang++,
 * which sits next to this program, with the result: clang-22 with the PASTA
 * plugin, linking the PASTA runtime. Warnings say which flags were dropped
 * and which GPU architectures clang cannot target; PASTA_WRAPPER_VERBOSE=1
 * also prints what was accepted and ignored, and the command.
 * PASTA_CUDA_PATH (default /usr/local/cuda) and PASTA_CUDA_ARCH (default
 * 90: what -arch=native and "no architecture left" mean) as for
 * pasta-clang++.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* memmem */
#include "nvcc_args.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether `path` (an object or an archive of objects) holds clang's
 * offloading section, i.e. relocatable device code to device-link. */
static int has_device_code(const char *path) {
  static const char section[] = ".llvm.offloading";
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  struct stat st;
  int found = 0;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      found =
          memmem(map, (size_t)st.st_size, section, sizeof section - 1) != NULL;
      munmap(map, (size_t)st.st_size);
    }
  }
  close(fd);
  return found;
}

/* Whether `path` is a relocatable object holding the registration of a
 * linked device image (clang's linker wrapper names its functions
 * .cuda.fatbin_reg): what pasta-nvcc -dlink writes. Objects compiled by
 * clang hold their own registration under other names
 * (__cuda_module_ctor); a shared library or program device-linked by clang
 * holds .cuda.fatbin_reg too, but is not relocatable (ELF e_type 1). */
static int is_device_link_object(const char *path) {
  static const char name[] = ".cuda.fatbin_reg";
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  struct stat st;
  int found = 0;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 18) {
    const unsigned char *map =
        mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      int relocatable = memcmp(map, "\177ELF", 4) == 0 && map[5] == 1 &&
                        map[16] == 1 && map[17] == 0; /* little-endian ET_REL */
      found = relocatable &&
              memmem(map, (size_t)st.st_size, name, sizeof name - 1) != NULL;
      munmap((void *)map, (size_t)st.st_size);
    }
  }
  close(fd);
  return found;
}

/* Prints the toolkit's "Cuda compilation tools, release 13.0, V13.0.88"
 * line from its nvcc: build systems read the CUDA version there (CMake's
 * FindCUDA matches "release ([0-9]+)\\.([0-9]+)" in `nvcc --version`). */
static void print_toolkit_release(const char *cuda) {
  char cmd[PATH_MAX + 64], line[512];
  if (strchr(cuda, '\''))
    return;
  snprintf(cmd, sizeof cmd, "'%s/bin/nvcc' --version 2>/dev/null", cuda);
  FILE *nvcc = popen(cmd, "r");
  if (!nvcc)
    return;
  while (fgets(line, sizeof line, nvcc))
    if (strstr(line, ", release "))
      fputs(line, stdout);
  pclose(nvcc);
}

/* Whether the nvcc command line asks for -v (--verbose). */
static int asks_verbose(int argc, char **argv) {
  static const char *const passes_on[] = {
      "-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options",
      "-Xptxas",    "--ptxas-options",    "-Xnvlink", "--nvlink-options"};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-v") && strcmp(argv[i], "--verbose"))
      continue;
    int value_of_previous = 0; /* -Xcompiler -v: the host compiler's */
    for (size_t k = 0; i > 1 && k < sizeof passes_on / sizeof *passes_on; ++k)
      value_of_previous |= !strcmp(argv[i - 1], passes_on[k]);
    if (!value_of_previous)
      return 1;
  }
  return 0;
}

/* The output a linking command names ("a.out" by default). */
static const char *link_output(const pasta_nvcc_result *r) {
  for (size_t i = 0; i + 1 < r->args.num; ++i)
    if (!strcmp(r->args.at[i], "-o"))
      return r->args.at[i + 1];
  return "a.out";
}

/* nvcc -v prints its settings and each step as "#$ " lines, and CMake
 * reads them when CMAKE_CUDA_COMPILER is an nvcc: the toolkit (TOP=), its
 * include and library directories (INCLUDES=, LIBRARIES=), the
 * architectures built ("-arch compute_NN") and the host link command, the
 * line holding LIBRARIES' value, whose first word becomes CMake's CUDA
 * link launcher. pasta-nvcc prints the same lines for what it does, the
 * link through pasta-clang++ (which links PASTA's runtime), so that
 * -DCMAKE_CUDA_COMPILER=pasta-nvcc configures and links (docs/nvcc.md,
 * "CMake projects"). */
static void print_nvcc_steps(const pasta_nvcc_result *r, const char *cuda,
                             const char *default_arch, const char *clang) {
  char libs[2 * PATH_MAX + 32];
  snprintf(libs, sizeof libs, "\"-L%s/lib64/stubs\" \"-L%s/lib64\"", cuda,
           cuda);
  fprintf(stderr,
          "#$ _HERE_=%s/bin\n#$ TOP=%s\n"
          "#$ NVVMIR_LIBRARY_DIR=%s/nvvm/libdevice\n"
          "#$ PATH=%s/bin:%s\n#$ INCLUDES=\"-I%s/include\"\n"
          "#$ LIBRARIES=  %s\n",
          cuda, cuda, cuda, cuda, getenv("PATH") ? getenv("PATH") : "", cuda,
          libs);
  /* pasta-clang++ adds the default architecture where the command names
   * none (CMake's first identification compile names none it keeps). */
  static const char *const arch_flags[] = {"--offload-arch=sm_",
                                           "--cuda-gpu-arch=sm_"};
  int archs = 0;
  for (size_t i = 0; i < r->args.num; ++i)
    for (size_t f = 0; f < 2; ++f)
      if (!strncmp(r->args.at[i], arch_flags[f], strlen(arch_flags[f])))
        archs += fprintf(stderr, "#$ clang-22 (PASTA) -arch compute_%s\n",
                         r->args.at[i] + strlen(arch_flags[f])) > 0;
  if (!archs)
    fprintf(stderr, "#$ clang-22 (PASTA) -arch compute_%s\n", default_arch);
  if (r->links)
    fprintf(stderr,
            "#$ \"%s\" %s -lcudadevrt -lcudart_static -lrt -lpthread -ldl "
            "-o \"%s\"\n",
            clang, libs, link_output(r));
}

/* Run by clang as ptxas (PASTA_NVCC_PTXAS names the real one): ptxas
 * without the -O level clang gave it where the user's follows, so that
 * ptxas runs at the user's level, as nvcc runs it, without warning of an
 * "incompatible redefinition for option 'opt-level'". */
static int run_as_ptxas(const char *ptxas, int argc, char **argv) {
  int drop = pasta_nvcc_ptxas_drop(argc, argv);
  char **args = calloc((size_t)argc + 1, sizeof *args);
  if (!args) {
    pasta_nvcc_diag("pasta-nvcc", "error", "out of memory");
    return 2;
  }
  int n = 0;
  args[n++] = (char *)ptxas;
  for (int i = 1; i < argc; ++i)
    if (i != drop)
      args[n++] = argv[i];
  execv(ptxas, args);
  pasta_nvcc_diag("pasta-nvcc", "error", "cannot run %s: %s", ptxas,
                  strerror(errno));
  free(args);
  return 2;
}

int main(int argc, char **argv) {
  const char *ptxas = getenv(PASTA_NVCC_PTXAS_ENV);
  if (ptxas && *ptxas)
    return run_as_ptxas(ptxas, argc, argv);
  pasta_nvcc_config cfg;
  pasta_nvcc_config_from_env(&cfg);
  int loud = cfg.verbose;
  cfg.has_device_code = has_device_code;
  cfg.is_device_link_object = is_device_link_object;
  const char *cuda = cfg.cuda_path;
  char dir[PATH_MAX], clang[PATH_MAX + 32], self[PATH_MAX + 32];
  if (pasta_nvcc_own_dir(dir, sizeof dir) != 0) {
    pasta_nvcc_diag("pasta-nvcc", "error", "cannot find its own directory: %s",
                    strerror(errno));
    return 2;
  }
  snprintf(self, sizeof self, "%s/pasta-nvcc", dir);
  cfg.ptxas_filter = self;

  pasta_nvcc_result r;
  if (pasta_nvcc_translate(argc, argv, &cfg, &r) != 0) {
    pasta_nvcc_diag("pasta-nvcc", "error", "out of memory");
    return 2;
  }
  for (size_t i = 0; i < r.warnings.num; ++i)
    pasta_nvcc_diag("pasta-nvcc", "warning", "%s", r.warnings.at[i]);
  for (size_t i = 0; loud && i < r.notes.num; ++i)
    pasta_nvcc_diag("pasta-nvcc", "note", "%s", r.notes.at[i]);
  if (r.mode == PASTA_NVCC_ERROR) {
    pasta_nvcc_diag("pasta-nvcc", "error", "%s", r.error);
    return 2;
  }

  if (r.mode == PASTA_NVCC_LIST_GPU) {
    pasta_nvcc_print_gpu_list(stdout, r.list_gpu);
    return 0;
  }
  snprintf(clang, sizeof clang, "%s/pasta-clang++", dir);
  if (r.mode == PASTA_NVCC_VERSION) {
    printf("pasta-nvcc: PASTA's nvcc-compatible driver over clang-22 "
           "(CUDA at %s)\n",
           cuda);
    print_toolkit_release(cuda);
    fflush(stdout);
    execlp("clang++-22", "clang++-22", "--version", (char *)NULL);
    return 0;
  }
  if (asks_verbose(argc, argv))
    print_nvcc_steps(&r, cuda, cfg.default_arch, clang);
  char **args = calloc(r.args.num + 2, sizeof *args);
  if (!args) {
    pasta_nvcc_diag("pasta-nvcc", "error", "out of memory");
    return 2;
  }
  args[0] = clang;
  for (size_t i = 0; i < r.args.num; ++i)
    args[i + 1] = r.args.at[i];
  for (size_t c = 0; loud && c < r.num_host_compiles; ++c) {
    fprintf(stderr, "pasta-nvcc: %s", clang);
    for (size_t i = 0; i < r.host_compiles[c].num; ++i)
      fprintf(stderr, " %s", r.host_compiles[c].at[i]);
    fprintf(stderr, "\n");
  }
  if (loud) {
    fprintf(stderr, "pasta-nvcc:");
    for (size_t i = 0; args[i]; ++i)
      fprintf(stderr, " %s", args[i]);
    fprintf(stderr, "\n");
  }
  /* The ptxas clang runs through pasta-nvcc (run_as_ptxas), if any. */
  for (size_t i = 0; i < r.args.num; ++i)
    if (strncmp(r.args.at[i], "--ptxas-path=", 13) == 0) {
      char real[PATH_MAX + 16];
      snprintf(real, sizeof real, "%s/bin/ptxas", cuda);
      setenv(PASTA_NVCC_PTXAS_ENV, real, 1);
    }
  return pasta_nvcc_run(&r, args, cuda, "pasta-nvcc");
}
