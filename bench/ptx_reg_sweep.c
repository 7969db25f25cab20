/* How a kernel's time depends on the registers ptxas gives it: loads each
 * PTX file through the CUDA driver once per register cap (cuModuleLoadDataEx
 * with CU_JIT_MAX_REGISTERS; 0: ptxas's own choice), and for each entry
 * named on the command line prints its registers, local bytes, the median
 * time of LAUNCHES launches (events) and a hash of its output buffer, so
 * that a counting copy can be set against the plain copy of the same
 * module, and both against register caps. Entries take (T *out, u64 seed)
 * and write BYTES_PER_THREAD bytes per thread (curand's rngSetupStates
 * shape: bench/rng_setup.cu). A counting copy launched so, without PASTA's
 * runtime, adds to its module's own counter array, which nothing reads.
 * Built on the GPU machine by bench/gpu_rng_setup.sh:
 *   cc -O2 -I$CUDA/include bench/ptx_reg_sweep.c -lcuda -o ptx_reg_sweep
 * usage: ptx_reg_sweep BLOCKS THREADS BYTES_PER_THREAD CAPS FILE.ptx
 *        ENTRY[=LABEL]...   (CAPS: comma-separated, e.g. 0,64,48)
 * PTX_SWEEP_SMEM=BYTES: each block also asks for that much dynamic shared
 * memory (unused), which caps the blocks an SM holds: the plain copy run
 * at a counting copy's occupancy (the table's "blocks/SM" column). */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = "?";                                                    \
      cuGetErrorString(r_, &s_);                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_);       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  char *data = size >= 0 ? malloc((size_t)size + 1) : NULL;
  if (data && (fseek(f, 0, SEEK_SET) != 0 ||
               fread(data, 1, (size_t)size, f) != (size_t)size)) {
    free(data);
    data = NULL;
  }
  if (data)
    data[size] = 0;
  fclose(f);
  return data;
}

static int by_value(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

enum { LAUNCHES = 10 };

/* One entry of one module: attributes, median time, output hash. */
static void time_entry(CUmodule mod, const char *spec, unsigned cap,
                       unsigned blocks, unsigned threads, unsigned smem,
                       CUdeviceptr out, size_t bytes, unsigned char *host) {
  char name[512];
  snprintf(name, sizeof name, "%s", spec);
  char *label = strchr(name, '=');
  if (label)
    *label++ = 0;
  CUfunction fn;
  if (cuModuleGetFunction(&fn, mod, name) != CUDA_SUCCESS) {
    printf("| %s | %u | - | - | - | (no such entry) | - |\n",
           label ? label : name, cap);
    return;
  }
  int regs = 0, local = 0;
  CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
  CHECK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn));
  if (smem > 48 * 1024)
    CHECK(cuFuncSetAttribute(
        fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
  int per_sm = 0;
  CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)threads,
                                                    smem));
  unsigned long long seed = 1234;
  void *args[] = {&out, &seed};
  CUevent start, stop;
  CHECK(cuEventCreate(&start, 0));
  CHECK(cuEventCreate(&stop, 0));
  float ms[LAUNCHES];
  CHECK(cuMemsetD8(out, 0, bytes));
  CHECK(cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, smem, 0, args, NULL));
  for (int i = 0; i < LAUNCHES; ++i) {
    CHECK(cuEventRecord(start, 0));
    CHECK(cuLaunchKernel(fn, blocks, 1, 1, threads, 1, 1, smem, 0, args, NULL));
    CHECK(cuEventRecord(stop, 0));
    CHECK(cuEventSynchronize(stop));
    CHECK(cuEventElapsedTime(&ms[i], start, stop));
  }
  qsort(ms, LAUNCHES, sizeof ms[0], by_value);
  CHECK(cuMemcpyDtoH(host, out, bytes));
  printf("| %s | %u | %d | %d | %d | %.1f | %016llx |\n", label ? label : name,
         cap, regs, local, per_sm, ms[LAUNCHES / 2] * 1000.0f,
         (unsigned long long)fnv1a(host, bytes));
  cuEventDestroy(start);
  cuEventDestroy(stop);
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr,
            "usage: %s BLOCKS THREADS BYTES_PER_THREAD CAPS FILE.ptx "
            "ENTRY[=LABEL]...\n",
            argv[0]);
    return 2;
  }
  unsigned blocks = (unsigned)atoi(argv[1]), threads = (unsigned)atoi(argv[2]);
  size_t bytes = (size_t)blocks * threads * (size_t)atoi(argv[3]);
  char *ptx = read_file(argv[5]);
  if (!ptx) {
    fprintf(stderr, "cannot read %s\n", argv[5]);
    return 1;
  }
  CHECK(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, bytes));
  unsigned char *host = malloc(bytes);
  const char *smem_env = getenv("PTX_SWEEP_SMEM");
  unsigned smem = smem_env ? (unsigned)atoi(smem_env) : 0;
  printf("%s, %u x %u threads, %u bytes of dynamic shared memory a block, "
         "median of %d launches\n\n",
         argv[5], blocks, threads, smem, LAUNCHES);
  printf("| entry | cap | registers | local bytes | blocks/SM | time (us) | "
         "output hash |\n");
  printf("|---|---|---|---|---|---|---|\n");
  for (char *caps = argv[4], *c; (c = strtok(caps, ",")); caps = NULL) {
    unsigned cap = (unsigned)atoi(c);
    CUjit_option opt[1] = {CU_JIT_MAX_REGISTERS};
    void *val[1] = {(void *)(uintptr_t)cap};
    CUmodule mod;
    CHECK(cuModuleLoadDataEx(&mod, ptx, cap ? 1 : 0, opt, val));
    for (int i = 6; i < argc; ++i)
      time_entry(mod, argv[i], cap, blocks, threads, smem, out, bytes, host);
    CHECK(cuModuleUnload(mod));
  }
  cuMemFree(out);
  free(host);
  free(ptx);
  return 0;
}
