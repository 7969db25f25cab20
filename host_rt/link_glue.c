/*===- link_glue.c - Link-time wrappers of the program's device resets -----===*
 *
 * libpasta_glue.a: linked into each executable and shared library that
 * pasta-clang++ (or the CMake toolchain) links, with
 *   -Wl,--wrap=cudaDeviceReset -Wl,--wrap=hipDeviceReset
 * so that every call to those functions in that link, from code compiled
 * by any compiler (a C main built by gcc, a prebuilt object), comes here.
 * A reset frees the GPU's copy of every module's counters: the runtime
 * reads and carries them first (lifecycle.c). The pass hooks the calls in
 * instrumented code too; the runtime carries once for both.
 *
 * Only a link that calls one of the two functions pulls an object in, and
 * each lives in an object of its own, so a CUDA program never needs HIP
 * and a host-only program needs neither.
 *===----------------------------------------------------------------------===*/

void __pasta_reset_begin(void);
void __pasta_reset_end(void);

#if defined(PASTA_GLUE_CUDA)
int __real_cudaDeviceReset(void);

int __wrap_cudaDeviceReset(void) {
  __pasta_reset_begin();
  int err = __real_cudaDeviceReset();
  __pasta_reset_end();
  return err;
}
#elif defined(PASTA_GLUE_HIP)
int __real_hipDeviceReset(void);

int __wrap_hipDeviceReset(void) {
  __pasta_reset_begin();
  int err = __real_hipDeviceReset();
  __pasta_reset_end();
  return err;
}
#else
#error "build with -DPASTA_GLUE_CUDA or -DPASTA_GLUE_HIP"
#endif
