/* nvcc command lines users write, and the pasta-clang++ command each must
 * become (nvcc_args.h). Expected commands are written from nvcc's manual:
 * what each flag means, and clang's spelling of it. */
#define _POSIX_C_SOURCE 200809L
#include "nvcc_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

/* Objects named "rdc*.o" hold device code. */
static int fake_device_code(const char *path) {
  const char *base = strrchr(path, '/');
  return strncmp(base ? base + 1 : path, "rdc", 3) == 0;
}

/* Objects named "dlink*.o" are device-link objects (pasta-nvcc -dlink's). */
static int fake_device_link_object(const char *path) {
  const char *base = strrchr(path, '/');
  return strncmp(base ? base + 1 : path, "dlink", 5) == 0;
}

static pasta_nvcc_config cfg = {.cuda_path = "/cuda",
                                .have_cccl = 1,
                                .default_arch = "90",
                                .has_device_code = fake_device_code,
                                .is_device_link_object =
                                    fake_device_link_object};

static char joined[4096], warned[4096], hosted[4096];

/* The result's arguments into `joined`, space-separated. */
static void join_args(const pasta_nvcc_result *r) {
  joined[0] = '\0';
  for (size_t i = 0; i < r->args.num; ++i)
    snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
             i ? " " : "", r->args.at[i]);
}

/* Translates `cmd` (split at spaces, "nvcc" first) into `joined` (the
 * arguments, space-separated) and `warned` (the warnings, '|'-separated);
 * returns the mode. */
static int run(const char *cmd) {
  char *copy = strdup(cmd), *argv[64];
  int argc = 0;
  argv[argc++] = "nvcc";
  for (char *save = NULL, *t = strtok_r(copy, " ", &save); t && argc < 63;
       t = strtok_r(NULL, " ", &save))
    argv[argc++] = t;
  argv[argc] = NULL;
  pasta_nvcc_result r;
  joined[0] = warned[0] = hosted[0] = '\0';
  if (pasta_nvcc_translate(argc, argv, &cfg, &r) != 0) {
    free(copy);
    return -1;
  }
  join_args(&r);
  /* The host sources' own compiles into `hosted`, '|'-separated. */
  for (size_t c = 0; c < r.num_host_compiles; ++c)
    for (size_t i = 0; i < r.host_compiles[c].num; ++i)
      snprintf(hosted + strlen(hosted), sizeof hosted - strlen(hosted), "%s%s",
               i ? " " : (c ? "|" : ""), r.host_compiles[c].at[i]);
  for (size_t i = 0; i < r.warnings.num; ++i)
    snprintf(warned + strlen(warned), sizeof warned - strlen(warned), "%s%s",
             i ? "|" : "", r.warnings.at[i]);
  if (r.error)
    snprintf(warned, sizeof warned, "error: %s", r.error);
  int mode = (int)r.mode;
  pasta_nvcc_result_free(&r);
  free(copy);
  return mode;
}

static void test_compile(void) {
  /* A Makefile's compile line. */
  CHECK_EQ_INT(
      run("-arch=sm_90 -O3 -use_fast_math -Xcompiler -Wall,-fPIC "
          "-lineinfo --extended-lambda -std=c++17 -Iinc -DN=4 -c k.cu -o "
          "k.o"),
      PASTA_NVCC_BUILD);
  CHECK_EQ_STR(joined,
               "-O3 -Wall -fPIC -gline-tables-only -I inc -D N=4 -std=c++17 -c "
               "-fgpu-approx-transcendentals -fgpu-flush-denormals-to-zero "
               "--offload-arch=sm_90 -Xarch_device -O3 -o k.o -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* -gencode lists; the architectures clang cannot build for are dropped,
   * each with a warning. */
  CHECK_EQ_INT(
      run("-gencode arch=compute_80,code=sm_80 -gencode "
          "arch=compute_90,code=[sm_90,compute_90] --generate-code=arch="
          "compute_110,code=sm_110 -gencode=arch=compute_52,code=sm_52 -c "
          "k.cu"),
      PASTA_NVCC_BUILD);
  CHECK_EQ_STR(joined,
               "-c --offload-arch=sm_80 --offload-arch=sm_90 -Xarch_device -O3 "
               "-x cuda k.cu");
  CHECK_HAS_STR(warned, "sm_110 dropped");
  CHECK_HAS_STR(warned, "sm_52 dropped");
  /* -arch + -code: -code names what is built. */
  CHECK_EQ_INT(run("-arch=compute_90 -code=sm_90,sm_100 -c k.cu"),
               PASTA_NVCC_BUILD);
  CHECK_EQ_STR(
      joined, "-c --offload-arch=sm_90 --offload-arch=sm_100 -Xarch_device -O3 "
              "-x cuda k.cu");
  /* Nothing left: the default, with a warning. */
  run("-arch sm_70 -c k.cu");
  CHECK_EQ_STR(joined,
               "-c --offload-arch=sm_90 -Xarch_device -O3 -x cuda k.cu");
  CHECK_HAS_STR(warned, "sm_70 dropped");
  CHECK_HAS_STR(warned, "no GPU ");
  /* nvcc's host min/max: the header in every CUDA compile, none in C++. */
  cfg.host_compat = "/pasta/compat.h";
  run("-c k.cu main.cpp");
  CHECK_EQ_STR(joined,
               "-c -Xarch_device -O3 -include /pasta/compat.h "
               "-Wno-error=register -Wno-error=non-pod-varargs -x cuda k.cu");
  CHECK_EQ_STR(hosted, "-Wno-error=register -Wno-error=non-pod-varargs -c "
                       "-isystem /cuda/include -isystem /cuda/include/cccl "
                       "-x c++ main.cpp");
  /* A C++ file alone is still nvcc's host compiler's (g++'s) dialect; a C
   * file has neither. */
  run("-c main.cpp");
  CHECK_HAS_STR(joined, "-Wno-error=register -Wno-error=non-pod-varargs");
  run("-c main.c");
  CHECK_EQ_INT(strstr(joined, "non-pod") == NULL, 1);
  cfg.host_compat = NULL;
  /* Device code only, for cuModuleLoad*: one architecture for a cubin or
   * PTX (PTX: the lowest, with a warning), every one for a fatbin (bundled
   * by pasta_nvcc_run); never a link. */
  run("-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 "
      "-o k.fatbin -fatbin k.cu");
  CHECK_EQ_STR(joined,
               "-c --offload-arch=sm_80 --offload-arch=sm_90 -Xarch_device -O3 "
               "--cuda-device-only -o k.fatbin -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  run("-arch=sm_90 -arch=sm_80 -ptx k.cu -o k.ptx");
  CHECK_EQ_STR(
      joined, "--offload-arch=sm_80 -Xarch_device -O3 --cuda-device-only -S -o "
              "k.ptx -x cuda k.cu");
  CHECK_HAS_STR(warned, "-ptx: one architecture, sm_80");
  run("-cubin -arch=sm_90 k.cu");
  CHECK_EQ_STR(
      joined, "-c --offload-arch=sm_90 -Xarch_device -O3 --cuda-device-only -x "
              "cuda k.cu");
  /* A debug build: the host at -O0 with -g, device code optimized as nvcc
   * does (the device -O after the host's, so that it wins). */
  run("-O0 -g -c k.cu");
  CHECK_EQ_STR(joined, "-O0 -g -c -Xarch_device -O3 -x cuda k.cu");
  /* Relocatable device code. */
  run("-dc a.cu -o a.o");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -fgpu-rdc -o a.o -x cuda a.cu");
  run("-rdc=true -c a.cu");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -fgpu-rdc -x cuda a.cu");
}

static void test_host_files_and_link(void) {
  /* A .cpp compiled by nvcc: the CUDA and CCCL headers, no CUDA mode. */
  run("-O2 -c main.cpp -o main.o");
  CHECK_EQ_STR(joined,
               "-O2 -c -isystem /cuda/include -isystem /cuda/include/cccl -o "
               "main.o -x c++ main.cpp");
  /* A link: the objects, then the CUDA runtime, statically. */
  run("main.o k.o -o app -lm");
  CHECK_EQ_STR(joined,
               "-o app main.o k.o -lm -L/cuda/lib64 -lcudart_static -ldl -lrt "
               "-lpthread");
  /* Objects with device code to link: clang device-links, with CUDA's
   * device runtime. */
  run("main.o rdc_a.o -o app -cudart shared");
  CHECK_EQ_STR(
      joined, "-o app main.o rdc_a.o -fgpu-rdc --offload-link -Xoffload-linker "
              "-L/cuda/lib64 -Xoffload-linker -lcudadevrt -L/cuda/lib64 "
              "-lcudart");
  /* Compiled and linked with -rdc=true in one command (the CDP quicksort's
   * Makefile): clang device-links the device code it compiles itself, so
   * no --offload-link, which it would report unused; CUDA's device runtime
   * still. With an object of device code beside the source, the option. */
  run("-rdc=true k.cu -o app");
  CHECK_HAS_STR(joined, "-fgpu-rdc -Xoffload-linker -L/cuda/lib64 "
                        "-Xoffload-linker -lcudadevrt");
  CHECK(strstr(joined, "--offload-link") == NULL);
  run("-rdc=true k.cu rdc_a.o -o app");
  CHECK_HAS_STR(joined, "-fgpu-rdc --offload-link -Xoffload-linker");
  /* OpenMP host code (Learn-CUDA-Programming's Makefiles: -Xcompiler
   * -fopenmp, then -lgomp for nvcc's gcc): clang's -fopenmp links LLVM's
   * libomp, so libgomp is not linked beside it (two runtimes, every
   * thread number 0); libomp takes its place, gcc's objects included. */
  run("-Xcompiler -fopenmp k.cu -o app -lgomp");
  CHECK_HAS_STR(joined, "-fopenmp");
  CHECK_HAS_STR(joined, " -lomp ");
  CHECK(strstr(joined, "-lgomp") == NULL);
  CHECK_EQ_STR(warned, "");
  /* Sources of three languages in one command, compiled and linked. */
  /* Host sources beside CUDA ones: clang's offloading driver would give
   * them CUDA's header wrappers (a .cpp including cuda_runtime.h and
   * <fstream> fails), so each is compiled alone first, as nvcc does, and
   * the link takes its object in the source's place. */
  run("-std=c++17 main.cpp k.cu -o app -cudart=none");
  CHECK_EQ_STR(joined, "-std=c++17 -Xarch_device -O3 -o app "
                       "app.pasta-host0-main.cpp.o -x cuda k.cu");
  CHECK_EQ_STR(hosted, "-std=c++17 -c -isystem /cuda/include -isystem "
                       "/cuda/include/cccl -o app.pasta-host0-main.cpp.o -x "
                       "c++ main.cpp");
  /* Chai's Makefiles: two .cpp files, then the .cu; a C file gets no -std;
   * the linker's options stay on the link. */
  run("-std=c++11 -O3 -Iinc -Xlinker -rpath=/x src/main.cpp b.c kernel.cu "
      "-o out/exe");
  CHECK_EQ_STR(hosted,
               "-O3 -I inc -std=c++11 -c -isystem /cuda/include -isystem "
               "/cuda/include/cccl -o out/exe.pasta-host0-main.cpp.o -x c++ "
               "src/main.cpp|-O3 -I inc -c -isystem /cuda/include -isystem "
               "/cuda/include/cccl -o out/exe.pasta-host1-b.c.o -x c b.c");
  CHECK_HAS_STR(joined, "-Xlinker -rpath=/x");
  CHECK_HAS_STR(joined, "-o out/exe out/exe.pasta-host0-main.cpp.o "
                        "out/exe.pasta-host1-b.c.o -x cuda kernel.cu");
  CHECK_EQ_STR(warned, "");
  /* A shared library's link: -shared stays on the link (clang would
   * report it unused on the host file's compile). */
  run("-shared -Xcompiler -fPIC lib.cpp k.cu -o libx.so");
  CHECK_EQ_STR(hosted, "-fPIC -c -isystem /cuda/include -isystem "
                       "/cuda/include/cccl -o libx.so.pasta-host0-lib.cpp.o "
                       "-x c++ lib.cpp");
  CHECK_HAS_STR(joined, "-shared");
  /* CUDA alone, or host files alone: one command, as before. */
  run("main.cpp b.cpp -o app");
  CHECK_EQ_STR(hosted, "");
  run("-std=c++17 util.c main.cpp -c");
  CHECK_HAS_STR(warned, "-std=c++17 left out");
  /* A C file beside a .cu: its own command, without -std; the .cu's. */
  run("-std=c++17 util.c k.cu -c");
  CHECK_EQ_STR(warned, "");
  CHECK_HAS_STR(joined, "-std=c++17 -c");
  CHECK_EQ_STR(hosted, "-c -isystem /cuda/include -isystem "
                       "/cuda/include/cccl -x c util.c");
  /* -dlink: the object that registers the linked device code, for g++ or
   * ld to link with the objects (a Makefile's nvcc -dc, nvcc -dlink, g++):
   * a device link (with CUDA's device runtime, as nvcc's) that may leave
   * host symbols unresolved; pasta_nvcc_run keeps the object clang's
   * linker wrapper writes. */
  CHECK_EQ_INT(run("-dlink rdc_a.o rdc_b.o -o dlink.o"), PASTA_NVCC_BUILD);
  CHECK_EQ_STR(joined, "-fgpu-rdc --offload-link -save-temps "
                       "-Wl,--unresolved-symbols=ignore-all -o dlink.o "
                       "rdc_a.o rdc_b.o -Wl,--should-extract=sm_90 "
                       "-Xoffload-linker -L/cuda/lib64 "
                       "-Xoffload-linker -lcudadevrt");
  /* The device code of an archive's members is taken for every
   * architecture the command names (CMake's device link of an executable
   * whose own objects are not rdc: `-dlink main.o librdc.a`), as nvcc's
   * device link takes it; clang's linker wrapper would take none. */
  run("-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 "
      "-dlink main.o librdc.a -o dl.o");
  CHECK_HAS_STR(joined, "main.o librdc.a -Wl,--should-extract=sm_80 "
                        "-Wl,--should-extract=sm_90 -Xoffload-linker");
  /* An architecture clang cannot build is left out of the device link
   * without a second warning: the compiles warned already. */
  run("-gencode=arch=compute_110,code=sm_110 "
      "-gencode=arch=compute_90,code=sm_90 -dlink a.o -o dl.o");
  CHECK_HAS_STR(joined, "a.o -Wl,--should-extract=sm_90 -Xoffload-linker");
  CHECK(strstr(joined, "sm_110") == NULL);
  CHECK(strstr(warned, "sm_110") == NULL);
  /* -dlink with -c: nvcc compiles (relocatable code here), no device
   * link; the include path is kept. */
  run("-I inc -rdc=true -dlink -c k.cu -o k.o");
  CHECK_HAS_STR(joined, "-I inc");
  CHECK_HAS_STR(joined, "-fgpu-rdc");
  CHECK_HAS_STR(joined, "-c ");
  CHECK(strstr(joined, "--offload-link") == NULL);
  /* A link through pasta-nvcc that device-links itself (rdc objects)
   * leaves such an object out: it registers its own image of the same
   * kernels. A link that does not device-link keeps it. */
  run("main.o rdc_a.o rdc_b.o dlink.o -o app");
  CHECK(strstr(joined, "dlink.o") == NULL);
  CHECK_HAS_STR(joined, "rdc_a.o rdc_b.o");
  CHECK_HAS_STR(joined, "--offload-link");
  run("main.o k.o dlink.o -o app");
  CHECK_HAS_STR(joined, "main.o k.o dlink.o");
  /* -x cu makes a .cpp CUDA. */
  run("-x cu -c k.cpp");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -x cuda k.cpp");
  /* Dependencies: host side only. */
  run("-M k.cu -MT k.o");
  CHECK_EQ_STR(joined,
               "-M -MT k.o -Xarch_device -O3 --cuda-host-only -x cuda k.cu");
}

static void test_flags(void) {
  /* Accepted and meaningless to clang: no warning. */
  run("--expt-relaxed-constexpr -Wno-deprecated-gpu-targets -ccbin g++ "
      "-Xcudafe --diag_suppress=177 -c k.cu");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* nvcc's optimization hints clang has no flag for (cudaLBM's Makefile):
   * accepted, ignored with a note, no warning. */
  run("-O3 --restrict -extra-device-vectorization -c k.cu");
  CHECK_EQ_STR(joined, "-O3 -c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* -Xptxas, -Xlinker, --default-stream, -G (device code unoptimized;
   * without -G nvcc optimizes device code at every host -O level). */
  run("-Xptxas -v,-O3 -Xlinker --no-undefined --default-stream per-thread -G "
      "k.cu -o app");
  CHECK_EQ_STR(
      joined,
      "-Xcuda-ptxas -v -Xcuda-ptxas -O3 -Xlinker --no-undefined "
      "-fgpu-default-stream=per-thread -g -Xarch_device -O0 -o app -x cuda "
      "k.cu "
      "-L/cuda/lib64 -lcudart_static -ldl -lrt -lpthread");
  /* -maxrregcount: ptxas's register limit, as nvcc gives it (a Makefile's
   * occupancy tuning); a value that is no number is named and left out. */
  run("-maxrregcount=64 -c k.cu");
  CHECK_EQ_STR(joined,
               "-Xcuda-ptxas --maxrregcount=64 -c -Xarch_device -O3 -x cuda "
               "k.cu");
  CHECK_EQ_STR(warned, "");
  run("--maxrregcount 32 -c k.cu");
  CHECK_HAS_STR(joined, "-Xcuda-ptxas --maxrregcount=32 ");
  /* A ptxas -O level of the user's (cuda-spmv-benchmark's
   * --ptxas-options=-O2): ptxas run through pasta-nvcc, which drops the -O3
   * clang puts before it; none without one, nor without a filter. */
  cfg.ptxas_filter = "/b/pasta-nvcc";
  run("-O2 --ptxas-options=-O2 -c k.cu");
  CHECK_HAS_STR(joined, "-Xarch_device -O3 --ptxas-path=/b/pasta-nvcc ");
  run("-Xptxas --opt-level=1 -c k.cu");
  CHECK_HAS_STR(joined, "--ptxas-path=/b/pasta-nvcc");
  run("-Xptxas -v -c k.cu");
  CHECK(strstr(joined, "ptxas-path") == NULL);
  run("--ptxas-options=-O2 a.o -o app");
  CHECK(strstr(joined, "ptxas-path") == NULL);
  cfg.ptxas_filter = NULL;
  run("--ptxas-options=-O2 -c k.cu");
  CHECK(strstr(joined, "ptxas-path") == NULL);
  {
    char *clang_gives[] = {"ptxas",      "-m64",  "-O3",
                           "--gpu-name", "sm_90", "--output-file",
                           "k.cubin",    "k.s",   "-O2"};
    CHECK(pasta_nvcc_ptxas_drop(9, clang_gives) == 2);
    CHECK(pasta_nvcc_ptxas_drop(8, clang_gives) == 0);
    char *opt_level[] = {"ptxas", "-O3", "k.s", "--opt-level", "1"};
    CHECK(pasta_nvcc_ptxas_drop(5, opt_level) == 1);
  }
  /* --use_fast_math on FindCUDA's dependency scan (decoding_attention):
   * host code only, so no denormal mode for device code. */
  run("-M k.cu -o k.d --use_fast_math");
  CHECK(strstr(joined, "flush-denormals") == NULL);
  CHECK_HAS_STR(joined, "-fgpu-approx-transcendentals");
  run("-c k.cu --use_fast_math");
  CHECK_HAS_STR(joined, "-fgpu-flush-denormals-to-zero");
  /* ptxas's options on a link of objects (cuda-spmv-benchmark's Makefile)
   * and on a C++ file: nvcc ignores them, clang would report each unused. */
  run("-O2 --ptxas-options=-O2 -Xptxas -v a.o b.o -o app -lcusparse");
  CHECK(strstr(joined, "ptxas") == NULL);
  CHECK_HAS_STR(joined, "-O2 -o app a.o b.o -lcusparse");
  run("-Xptxas -v -maxrregcount=32 -c main.cpp k.cu");
  CHECK(strstr(hosted, "ptxas") == NULL);
  CHECK_HAS_STR(joined, "-Xcuda-ptxas -v -Xcuda-ptxas --maxrregcount=32 ");
  /* 0 is nvcc's "no limit": it gives ptxas nothing, where ptxas's own 0
   * caps every kernel at 24 registers on sm_90 (VanitySearch). */
  run("-maxrregcount=0 -c k.cu");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  run("--maxrregcount 00 -c k.cu");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -x cuda k.cu");
  run("-maxrregcount=lots -c k.cu");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -x cuda k.cu");
  CHECK_HAS_STR(warned, "-maxrregcount lots");
  /* An unknown flag: one warning naming it, the build goes on; with
   * -forward-unknown-to-host-compiler it is passed on. */
  run("--frobnicate -c k.cu");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -x cuda k.cu");
  CHECK_HAS_STR(warned, "'--frobnicate'");
  run("-forward-unknown-to-host-compiler -Wshadow -c k.cu");
  CHECK_EQ_STR(joined, "-Wshadow -c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* Wherever it stands: MD-Bench's `-march=native -ffast-math
   * --forward-unknown-to-host-compiler` (in its place among the flags). */
  run("-O3 -march=native -ffast-math --forward-unknown-to-host-compiler -c "
      "k.cu");
  CHECK_EQ_STR(
      joined,
      "-O3 -march=native -ffast-math -c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* An option's value that reads like it is no request. */
  run("-o -forward-unknown-to-host-compiler -ffast-math -c k.cu");
  CHECK_HAS_STR(warned, "'-ffast-math'");
  /* -pg (--profile): gprof's instrumentation of host code, compile and
   * link, as nvcc gives it (kmeans' Makefile builds with -g -pg). */
  run("-g -pg -c k.cu -o k.o");
  CHECK_EQ_STR(joined, "-g -pg -c -Xarch_device -O3 -o k.o -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  run("--profile main.o k.o -o app");
  CHECK_EQ_STR(joined, "-pg -o app main.o k.o -L/cuda/lib64 -lcudart_static "
                       "-ldl -lrt -lpthread");
  CHECK_EQ_STR(warned, "");
  /* Items in double quotes, as CMake's FindCUDA writes its host flags
   * (`-Xcompiler ,"-O3","-fPIC"`): nvcc keeps a quoted item whole, commas
   * and all, and drops the quotes and the empty item before the comma. */
  run("-Xcompiler ,\"-O3\",\"-DPAIR=1,2\" -Xlinker \"-rpath,/x\",-z,now "
      "-c k.cu");
  CHECK_EQ_STR(joined, "-O3 -DPAIR=1,2 -Xlinker -rpath,/x -Xlinker -z "
                       "-Xlinker now -c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* Errors: one line. */
  CHECK_EQ_INT(run("-lib k.cu -o k.a"), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "error: -lib");
  CHECK_EQ_INT(run("k.ptx -o k"), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "PTX");
  CHECK_EQ_INT(run("-c"), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "no input files");
  CHECK_EQ_INT(run("-o"), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "needs a value");
  CHECK_EQ_INT(run("--version"), PASTA_NVCC_VERSION);
  /* -arch=all: every architecture clang can build for. */
  run("-arch=all -c k.cu");
  CHECK_HAS_STR(joined, "--offload-arch=sm_75 ");
  CHECK_HAS_STR(joined, "--offload-arch=sm_121 ");
  CHECK_EQ_STR(warned, "");
  /* -L and -l on a compile (Learn-CUDA-Programming's fp16.o rule): nvcc
   * ignores them there; clang would warn that each went unused. */
  run("-c fp16.cu -L/usr/local/cuda/lib -lcublas -lcurand -o fp16.o");
  CHECK_EQ_STR(joined, "-c -Xarch_device -O3 -o fp16.o -x cuda fp16.cu");
  CHECK_EQ_STR(warned, "");
  /* -D and -U are lists, as nvcc reads them: commas separate macros, and
   * a comma written `\,` (CMake's for nvcc: miniBUDE's -DUSE_PPWI=1\,2\,4)
   * or inside double quotes (kept) belongs to the value. The `\,` reached
   * clang as written ("expected ')'"), and -DB=3,C=4 defined B as "3,C=4". */
  run("-DUSE_PPWI=1\\,2\\,4 -DB=3,C=4 -DQ=\"1,2\" -UX,Y -c k.cu");
  CHECK_EQ_STR(joined, "-D USE_PPWI=1,2,4 -D B=3 -D C=4 -D Q=\"1,2\" -U X -U Y "
                       "-c -Xarch_device -O3 -x cuda k.cu");
  CHECK_EQ_STR(warned, "");
  /* Objects on a compile (Tigr's `nvcc -c bfs.cu ../shared/graph.o ...`):
   * nvcc ignores them there without a word; clang warned of each "'linker'
   * input unused". Left out of compiles only: a link keeps them. */
  run("-c bfs.cu ../shared/graph.o lib.a -std=c++11 -O3");
  CHECK_EQ_STR(joined, "-O3 -std=c++11 -c -Xarch_device -O3 -x cuda bfs.cu");
  CHECK_EQ_STR(warned, "");
  run("bfs.o graph.o -o bfs -cudart none");
  CHECK_EQ_STR(joined, "-o bfs bfs.o graph.o");
  /* -I and -L with the value in the next argument, -l attached. */
  run("-I include -L lib -lfoo main.o -o app -cudart none"); /* -l last */
  CHECK_EQ_STR(joined, "-I include -L lib -o app main.o -lfoo");
}

/* `lists` printed as pasta-nvcc prints them, into `joined`. */
static void print_gpu_list(int lists) {
  FILE *out = fmemopen(joined, sizeof joined, "w");
  pasta_nvcc_print_gpu_list(out, lists);
  fclose(out);
}

/* --list-gpu-code and --list-gpu-arch (-code-ls, -arch-ls) print nvcc's
 * lists and exit: MCX's Makefile takes its -arch from the first sm_ line
 * (`$(CUDACC) --list-gpu-code | grep '^sm_' | head -1`) and fell back to
 * sm_35 when pasta-nvcc printed nothing. No accelerated (90a) entries, as
 * in nvcc's lists. */
static void test_list_gpu(void) {
  CHECK_EQ_INT(run("--list-gpu-code"), PASTA_NVCC_LIST_GPU);
  CHECK_EQ_STR(warned, "");
  CHECK_EQ_INT(run("-code-ls"), PASTA_NVCC_LIST_GPU);
  CHECK_EQ_INT(run("-arch-ls"), PASTA_NVCC_LIST_GPU);
  CHECK_EQ_STR(warned, "");
  print_gpu_list(PASTA_NVCC_LIST_CODE);
  CHECK_EQ_STR(joined, "sm_75\nsm_80\nsm_86\nsm_87\nsm_89\nsm_90\nsm_100\n"
                       "sm_103\nsm_120\nsm_121\n");
  print_gpu_list(PASTA_NVCC_LIST_ARCH);
  CHECK_HAS_STR(joined, "compute_75\ncompute_80\n");
  CHECK_HAS_STR(joined, "\ncompute_121\n");
  print_gpu_list(PASTA_NVCC_LIST_CODE | PASTA_NVCC_LIST_ARCH);
  CHECK_HAS_STR(joined, "arch=compute_90,code=sm_90\n");
  /* Both options on one line: the --generate-code form, as nvcc. */
  pasta_nvcc_result r;
  char *argv[] = {"nvcc", "--list-gpu-arch", "--list-gpu-code", NULL};
  CHECK_EQ_INT(pasta_nvcc_translate(3, argv, &cfg, &r), 0);
  CHECK_EQ_INT(r.list_gpu, PASTA_NVCC_LIST_CODE | PASTA_NVCC_LIST_ARCH);
  pasta_nvcc_result_free(&r);
}

static int contains_arg(const pasta_nvcc_result *r, const char *arg) {
  for (size_t i = 0; i < r->args.num; ++i)
    if (strcmp(r->args.at[i], arg) == 0)
      return 1;
  return 0;
}

/* The CMake launcher's filter: clang's arguments kept in order, nvcc's
 * mapped in place, unbuildable architectures dropped. */
static void test_filter(void) {
  char *argv[] = {"clang++",
                  "-fpass-plugin=p.so",
                  "--cuda-gpu-arch=sm_90",
                  "--cuda-gpu-arch=sm_110",
                  "--extended-lambda",
                  "-lineinfo",
                  "-Xcompiler=-Wall,-Wextra",
                  "-Werror",
                  "-O2",
                  "-x",
                  "cuda",
                  "-c",
                  "k.cu",
                  "-o",
                  "k.o",
                  "-rdc=true",
                  NULL};
  pasta_nvcc_result r;
  CHECK_EQ_INT(pasta_nvcc_filter(16, argv, &cfg, &r), 0);
  join_args(&r);
  CHECK_EQ_STR(
      joined, "clang++ -fpass-plugin=p.so --cuda-gpu-arch=sm_90 "
              "-gline-tables-only -Wall -Wextra -Werror -O2 -x cuda -c k.cu -o "
              "k.o -fgpu-rdc -Xarch_device -O3 -Wno-unknown-cuda-version");
  if (CHECK_EQ_U64(r.warnings.num, 1))
    CHECK_HAS_STR(r.warnings.at[0], "sm_110 dropped");
  pasta_nvcc_result_free(&r);
  /* Nothing left: the default architecture. */
  char *only[] = {"clang++", "--cuda-gpu-arch=sm_52", "-c", "k.cu", NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(4, only, &cfg, &r), 0);
  if (CHECK_EQ_U64(r.args.num, 7))
    CHECK_EQ_STR(r.args.at[3], "--offload-arch=sm_90");
  pasta_nvcc_result_free(&r);
  /* CMake's link step runs the CUDA compiler too: no compile options. */
  char *link[] = {"clang++", "a.o", "-o", "app", "-lcudart_static", NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(5, link, &cfg, &r), 0);
  CHECK_EQ_U64(r.args.num, 6);
  CHECK(!contains_arg(&r, "-Xarch_device"));
  pasta_nvcc_result_free(&r);
  /* A custom command of the project calling the CUDA compiler with nvcc's
   * options for a fatbin (NVIDIA's driver API samples). */
  char *fat[] = {"clang++",
                 "-gencode=arch=compute_90,code=sm_90",
                 "-gencode=arch=compute_110,code=sm_110",
                 "-o",
                 "k.fatbin",
                 "-fatbin",
                 "k.cu",
                 NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(7, fat, &cfg, &r), 0);
  join_args(&r);
  CHECK_EQ_STR(
      joined, "clang++ -o k.fatbin k.cu --offload-arch=sm_90 -Xarch_device -O3 "
              "--cuda-device-only -c -Wno-unknown-cuda-version");
  CHECK_EQ_INT(r.device_output, 'f');
  pasta_nvcc_result_free(&r);
  /* The user's PASTA_CUDA_ARCHITECTURES: the project's list reduced to it,
   * without a warning (sm_110 is not wanted: no word about it); none of it
   * in the project's list: the user's. */
  cfg.only_archs = "90,100";
  char *list[] = {"clang++",
                  "--cuda-gpu-arch=sm_80",
                  "--cuda-gpu-arch=sm_90",
                  "--cuda-gpu-arch=sm_110",
                  "-c",
                  "k.cu",
                  NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(6, list, &cfg, &r), 0);
  if (CHECK_EQ_U64(r.args.num, 7))
    CHECK_EQ_STR(r.args.at[1], "--cuda-gpu-arch=sm_90");
  CHECK_EQ_U64(r.warnings.num, 0);
  pasta_nvcc_result_free(&r);
  char *other[] = {"clang++", "--cuda-gpu-arch=sm_80", "-c", "k.cu", NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(4, other, &cfg, &r), 0);
  if (CHECK_EQ_U64(r.args.num, 8)) {
    CHECK_EQ_STR(r.args.at[3], "--offload-arch=sm_90");
    CHECK_EQ_STR(r.args.at[4], "--offload-arch=sm_100");
  }
  CHECK_EQ_U64(r.warnings.num, 0);
  pasta_nvcc_result_free(&r);
  /* pasta-nvcc with no architecture named: the user's list; a listed one
   * clang cannot build is still named. */
  run("-c k.cu");
  CHECK_EQ_STR(joined,
               "-c --offload-arch=sm_90 --offload-arch=sm_100 -Xarch_device "
               "-O3 -x cuda k.cu");
  cfg.only_archs = "110";
  run("-arch=sm_110 -c k.cu");
  CHECK_EQ_STR(joined,
               "-c --offload-arch=sm_90 -Xarch_device -O3 -x cuda k.cu");
  CHECK_HAS_STR(warned, "sm_110 dropped");
  CHECK_HAS_STR(warned, "no GPU");
  cfg.only_archs = NULL;
}

/* A file `name` in a fresh directory (dir), holding `text`; its path into
 * `path`. */
static char dir[] = "/tmp/pasta-optf-XXXXXX";
static void write_file(char *path, size_t size, const char *name,
                       const char *text) {
  snprintf(path, size, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* nvcc's --options-file (-optf) FILE[,FILE...]: the files' arguments take
 * the option's place, as if written there (nvcc's manual, "--options-file
 * file,..."); `@FILE` the same in pasta-nvcc's own command line. */
static void test_options_file(void) {
  if (!CHECK(mkdtemp(dir) != NULL))
    return;
  char a[256], b[256], loop[256], open_quote[256], cmd[1024];
  write_file(a, sizeof a, "a.optf",
             "-arch=sm_90 -O3\n  \"-DMSG=hello\" -Xcompiler '-Wall'\n");
  write_file(b, sizeof b, "b.optf", "-c\t'-DS=a b' -DB=\\\"q\\\" \\\n-g\n");
  /* The same command written out: the file's arguments in its place. */
  CHECK_EQ_INT(run("-arch=sm_90 -O3 -DMSG=hello -Xcompiler -Wall -c k.cu -o "
                   "k.o"),
               PASTA_NVCC_BUILD);
  char direct[4096];
  snprintf(direct, sizeof direct, "%s", joined);
  const char *hows[] = {"-optf ", "--options-file ",
                        "-optf=", "--options-file="};
  for (size_t i = 0; i < sizeof hows / sizeof *hows; ++i) {
    snprintf(cmd, sizeof cmd, "%s%s -c k.cu -o k.o", hows[i], a);
    CHECK_EQ_INT(run(cmd), PASTA_NVCC_BUILD);
    CHECK_EQ_STR(joined, direct);
    CHECK_EQ_STR(warned, "");
  }
  /* Two files in one option; @file in pasta-nvcc's own command line. */
  snprintf(cmd, sizeof cmd, "-optf %s,%s k.cu", a, b);
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_BUILD);
  CHECK_HAS_STR(joined, " -c ");
  CHECK_HAS_STR(joined, "-D S=a b -D B=\"q\" -g");
  CHECK(strstr(joined, ".optf") == NULL); /* not an input */
  snprintf(cmd, sizeof cmd, "@%s -c k.cu", a);
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_BUILD);
  CHECK_HAS_STR(joined, "--offload-arch=sm_90");
  CHECK(strstr(joined, ".optf") == NULL);
  /* Errors: one line each. */
  snprintf(cmd, sizeof cmd, "-optf %s/none.optf -c k.cu", dir);
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_ERROR);
  char want[512];
  snprintf(want, sizeof want,
           "error: -optf %s/none.optf: cannot read the options file: No such "
           "file or directory",
           dir);
  CHECK_EQ_STR(warned, want);
  /* A directory: the reason too (before: "cannot read the options file"
   * and nothing more). */
  snprintf(cmd, sizeof cmd, "-optf %s -c k.cu", dir);
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_ERROR);
  snprintf(want, sizeof want,
           "error: -optf %s: cannot read the options file: Is a directory",
           dir);
  CHECK_EQ_STR(warned, want);
  snprintf(cmd, sizeof cmd, "-c k.cu --options-file");
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_ERROR);
  CHECK_EQ_STR(warned, "error: --options-file needs a file");
  char text[300];
  snprintf(text, sizeof text, "-c -optf %s/loop.optf", dir);
  write_file(loop, sizeof loop, "loop.optf", text);
  snprintf(cmd, sizeof cmd, "-optf %s k.cu", loop);
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "nested more than 8 deep");
  write_file(open_quote, sizeof open_quote, "quote.optf", "-DX=\"a b\n");
  snprintf(cmd, sizeof cmd, "-optf %s k.cu", open_quote);
  CHECK_EQ_INT(run(cmd), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "quote.optf: a quote is not closed");
  /* A clang command (CMake's): -optf expanded, @file left to clang. */
  char rsp[300];
  snprintf(rsp, sizeof rsp, "@%s", b);
  char *argv[] = {"clang++", "-optf", a, rsp, "k.cu", NULL};
  pasta_nvcc_result r;
  CHECK_EQ_INT(pasta_nvcc_filter(5, argv, &cfg, &r), 0);
  join_args(&r);
  snprintf(want, sizeof want,
           "clang++ -O3 -DMSG=hello -Wall %s k.cu "
           "--offload-arch=sm_90 -Wno-unknown-cuda-version",
           rsp);
  CHECK_EQ_STR(joined, want);
  pasta_nvcc_result_free(&r);
  remove(a);
  remove(b);
  remove(loop);
  remove(open_quote);
  remove(dir);
}

/* Line tables by default: a compile that asks for no debug info gets
 * -gline-tables-only (first, so that nothing the user wrote is overridden);
 * one that chose its debug info, a link, or PASTA_LINE_TABLES=0 does not. */
static int count_of(const char *hay, const char *needle) {
  int n = 0;
  for (const char *at = hay; (at = strstr(at, needle)); at += strlen(needle))
    ++n;
  return n;
}

static void test_line_tables(void) {
  cfg.line_tables = 1;
  /* The common Makefile line: -O3, no -g, no -lineinfo. */
  CHECK_EQ_INT(run("-O3 -arch=sm_90 -c k.cu -o k.o"), PASTA_NVCC_BUILD);
  CHECK_EQ_STR(joined, "-gline-tables-only -O3 -c --offload-arch=sm_90 "
                       "-Xarch_device -O3 -o k.o -x cuda k.cu");
  /* Host files compiled by nvcc too. */
  run("-O2 -c main.cpp");
  CHECK_EQ_INT(count_of(joined, "-gline-tables-only"), 1);
  /* The command chose: nvcc's -g, -G, -lineinfo, or the host compiler's
   * -g0 / -gdwarf-4 through -Xcompiler. */
  static const char *const chose[] = {"-g -c k.cu",
                                      "-G -c k.cu",
                                      "-lineinfo -c k.cu",
                                      "--generate-line-info -c k.cu",
                                      "-Xcompiler -g0 -c k.cu",
                                      "-Xcompiler=-gdwarf-4 -c k.cu",
                                      "-Xcompiler -ggdb3 -c main.cpp"};
  for (size_t i = 0; i < sizeof chose / sizeof *chose; ++i) {
    CHECK_EQ_INT(run(chose[i]), PASTA_NVCC_BUILD);
    CHECK_EQ_INT(count_of(joined, "-gline-tables-only"),
                 strstr(chose[i], "line") ? 1 : 0);
  }
  run("-g -c k.cu");
  CHECK_EQ_INT(count_of(joined, "-g "), 1);
  run("-Xcompiler -g0 -c k.cu");
  CHECK_HAS_STR(joined, "-g0");
  /* Modifiers are not a choice of how much. */
  run("-Xcompiler -gsplit-dwarf -c k.cu");
  CHECK_EQ_INT(count_of(joined, "-gline-tables-only"), 1);
  /* A link of objects compiles nothing. */
  run("a.o b.o -o app");
  CHECK_EQ_INT(count_of(joined, "-gline-tables-only"), 0);
  /* PASTA_LINE_TABLES=0. */
  cfg.line_tables = 0;
  run("-O3 -c k.cu");
  CHECK_EQ_INT(count_of(joined, "-gline-tables-only"), 0);
  /* A value that is neither: an error naming it. */
  cfg.line_tables = -1;
  cfg.line_tables_value = "maybe";
  CHECK_EQ_INT(run("-O3 -c k.cu"), PASTA_NVCC_ERROR);
  CHECK_HAS_STR(warned, "PASTA_LINE_TABLES='maybe'");
  cfg.line_tables = 0;
  cfg.line_tables_value = NULL;

  /* From the environment: on unless told otherwise. */
  static const struct {
    const char *value;
    int want;
  } env[] = {{NULL, 1}, {"", 1},    {"1", 1},     {"ON", 1}, {"yes", 1},
             {"0", 0},  {"OFF", 0}, {"false", 0}, {"No", 0}, {"2", -1}};
  for (size_t i = 0; i < sizeof env / sizeof *env; ++i) {
    if (env[i].value)
      setenv("PASTA_LINE_TABLES", env[i].value, 1);
    else
      unsetenv("PASTA_LINE_TABLES");
    pasta_nvcc_config from_env;
    pasta_nvcc_config_from_env(&from_env);
    CHECK_EQ_INT(from_env.line_tables, env[i].want);
  }
  unsetenv("PASTA_LINE_TABLES");

  /* Which clang arguments choose the debug info. */
  static const char *const levels[] = {"-g",
                                       "-g0",
                                       "-g1",
                                       "-g3",
                                       "-ggdb",
                                       "-ggdb0",
                                       "-gdwarf-5",
                                       "-gdwarf",
                                       "-gfull",
                                       "-gline-tables-only",
                                       "-gline-directives-only"};
  for (size_t i = 0; i < sizeof levels / sizeof *levels; ++i)
    CHECK_EQ_INT(pasta_asks_debug_info(levels[i]), 1);
  static const char *const modifiers[] = {
      "-gsplit-dwarf",  "-gz", "-gcolumn-info", "-gno-column-info", "-gdwarf64",
      "-gembed-source", "-G",  "-lineinfo"};
  for (size_t i = 0; i < sizeof modifiers / sizeof *modifiers; ++i)
    CHECK_EQ_INT(pasta_asks_debug_info(modifiers[i]), 0);
}

static int joined_has(const char *arg) {
  char padded[256];
  snprintf(padded, sizeof padded, " %s ", arg);
  char spaced[sizeof joined + 2];
  snprintf(spaced, sizeof spaced, " %s ", joined);
  return strstr(spaced, padded) != NULL;
}

/* Device code unrolled as nvcc's: tile kernels' per-thread arrays stay in
 * registers (clang's default threshold left SGEMM's in local memory); the
 * plugin's pass does it for those loops alone. */
static void test_device_unroll_private_arrays(void) {
  const char *flag = "-mllvm=-pasta-unroll-private-arrays";
  pasta_nvcc_config from_env;
  pasta_nvcc_config_from_env(&from_env);
  CHECK(from_env.unroll_private_arrays);
  cfg.unroll_private_arrays = 1;
  run("-arch=sm_90 -O3 -c k.cu");
  CHECK_EQ_STR(joined, "-O3 -c --offload-arch=sm_90 -Xarch_device -O3 "
                       "-Xarch_device -mllvm=-pasta-unroll-private-arrays "
                       "-x cuda k.cu");
  CHECK(!joined_has("-mllvm=-unroll-threshold=1000"));
  /* The user's own threshold or the flag itself wins, in any spelling. */
  run("-Xcompiler -mllvm,-unroll-threshold=300 -c k.cu");
  CHECK(joined_has("-unroll-threshold=300"));
  CHECK(!joined_has(flag));
  run("-Xcompiler -Xarch_device,-mllvm=-unroll-threshold=300 -c k.cu");
  CHECK(joined_has("-mllvm=-unroll-threshold=300"));
  CHECK(!joined_has(flag));
  run("-forward-unknown-to-host-compiler -mllvm=-unroll-threshold=50 -c k.cu");
  CHECK(!joined_has(flag));
  run("-Xcompiler -Xarch_device,-mllvm=-pasta-unroll-private-arrays=0 "
      "-c k.cu");
  CHECK(joined_has("-mllvm=-pasta-unroll-private-arrays=0"));
  CHECK(!joined_has(flag));
  /* Not with -G (device code unoptimized), not for host files. */
  run("-G -c k.cu");
  CHECK(!joined_has(flag));
  run("-c main.cpp");
  CHECK(!joined_has(flag));
  /* The CMake launcher's compile too, unless its flags decide. */
  char *compile[] = {"clang++", "--cuda-gpu-arch=sm_90", "-O3", "-c", "k.cu",
                     NULL};
  pasta_nvcc_result r;
  CHECK_EQ_INT(pasta_nvcc_filter(5, compile, &cfg, &r), 0);
  join_args(&r);
  CHECK(joined_has(flag));
  pasta_nvcc_result_free(&r);
  char *own[] = {"clang++", "-Xarch_device", "-mllvm=-unroll-threshold=500",
                 "-c",      "k.cu",          NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(5, own, &cfg, &r), 0);
  join_args(&r);
  CHECK(joined_has("-mllvm=-unroll-threshold=500"));
  CHECK(!joined_has(flag));
  pasta_nvcc_result_free(&r);
  cfg.unroll_private_arrays = 0;
}

/* The toolchain's own flags (--pasta-flag= of pasta-cuda-launcher): added to
 * a compile without the plugin (a project's CMAKE_CUDA_FLAGS hid them:
 * miniBUDE), not to one that has it, nor to CMake's link step. */
static void test_toolchain_flags(void) {
  char *own[] = {"-fpass-plugin=/p/libpasta.so", "-gline-tables-only"};
  cfg.toolchain_flags = own;
  cfg.num_toolchain_flags = 2;
  pasta_nvcc_result r;
  char *hidden[] = {"clang++", "-use_fast_math", "-c", "k.cu", NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(4, hidden, &cfg, &r), 0);
  join_args(&r);
  CHECK(joined_has("-fpass-plugin=/p/libpasta.so"));
  CHECK(joined_has("-gline-tables-only"));
  pasta_nvcc_result_free(&r);
  char *has[] = {"clang++", "-fpass-plugin=/q/libpasta.so", "-c", "k.cu", NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(4, has, &cfg, &r), 0);
  join_args(&r);
  CHECK(!joined_has("-fpass-plugin=/p/libpasta.so"));
  CHECK(!joined_has("-gline-tables-only"));
  pasta_nvcc_result_free(&r);
  char *link[] = {"clang++", "k.o", "-o", "app", NULL};
  CHECK_EQ_INT(pasta_nvcc_filter(4, link, &cfg, &r), 0);
  join_args(&r);
  CHECK(!joined_has("-fpass-plugin=/p/libpasta.so"));
  pasta_nvcc_result_free(&r);
  cfg.toolchain_flags = NULL;
  cfg.num_toolchain_flags = 0;
}

int main(void) {
  test_toolchain_flags();
  test_options_file();
  test_line_tables();
  test_filter();
  test_compile();
  test_host_files_and_link();
  test_flags();
  test_list_gpu();
  test_device_unroll_private_arrays();
  return check_summary("nvcc_args");
}
