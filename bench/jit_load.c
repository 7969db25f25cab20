/* What a first use of a copy left as PTX would cost at run time: loads PTX
 * files as modules through the CUDA driver (cuModuleLoadDataEx, which
 * JIT-compiles PTX for the GPU, or reads the result from the compute
 * cache, ~/.nv/ComputeCache or $CUDA_CACHE_PATH) and prints, per file, the
 * wall time of the load and the JIT's own wall time (CU_JIT_WALL_TIME).
 * Each file's module is unloaded before the next.
 * Built on the GPU machine by bench/gpu_jit_cost.sh:
 *   cc -O2 -I$CUDA/include bench/jit_load.c -lcuda -o jit_load
 * usage: jit_load FILE.ptx [FILE.ptx...] */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The file's bytes with a terminating NUL (the driver reads PTX as a
 * string), or NULL. */
static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *data = NULL;
  long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (size >= 0 && fseek(f, 0, SEEK_SET) == 0)
    data = malloc((size_t)size + 1);
  if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
    free(data);
    data = NULL;
  }
  if (data)
    data[size] = '\0';
  fclose(f);
  return data;
}

static int check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return 0;
  const char *s = NULL;
  cuGetErrorString(r, &s);
  fprintf(stderr, "jit_load: %s: %s\n", what, s ? s : "?");
  return 1;
}

/* Loads one PTX file; prints "file load_ms jit_ms". */
static int load_one(const char *path) {
  char *ptx = read_file(path);
  if (!ptx) {
    fprintf(stderr, "jit_load: cannot read %s\n", path);
    return 1;
  }
  /* The driver overwrites the option's slot itself with a float. */
  CUjit_option opts[] = {CU_JIT_WALL_TIME};
  void *vals[] = {NULL};
  CUmodule m;
  double t0 = now_ms();
  CUresult r = cuModuleLoadDataEx(&m, ptx, 1, opts, vals);
  double load_ms = now_ms() - t0;
  free(ptx);
  if (check(r, path))
    return 1;
  float jit_ms;
  memcpy(&jit_ms, &vals[0], sizeof jit_ms);
  printf("%s %.1f %.1f\n", path, load_ms, (double)jit_ms);
  return check(cuModuleUnload(m), "cuModuleUnload");
}

int main(int argc, char **argv) {
  CUdevice dev;
  CUcontext ctx;
  if (argc < 2) {
    fprintf(stderr, "usage: jit_load FILE.ptx [FILE.ptx...]\n");
    return 2;
  }
  if (check(cuInit(0), "cuInit") || check(cuDeviceGet(&dev, 0), "device") ||
      check(cuDevicePrimaryCtxRetain(&ctx, dev), "context") ||
      check(cuCtxSetCurrent(ctx), "context"))
    return 1;
  int status = 0;
  printf("file load_ms jit_ms\n");
  for (int i = 1; i < argc; ++i)
    status |= load_one(argv[i]);
  cuDevicePrimaryCtxRelease(dev);
  return status;
}
