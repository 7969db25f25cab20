/* main in C, compiled by gcc (no plugin): the structures' driver.
 * ./prog MODE [LIB]: runs run_a and run_b (N = 2^20) and ends by MODE:
 *   return | exit-thread (exit(0) from a second thread) | quick-exit |
 *   reset (cudaDeviceReset from this gcc-compiled code between run_a and
 *   run_b, and again before returning) | fault (a kernel reads out of
 *   bounds) | dlopen (run_a/run_b from LIB, opened with dlopen and closed
 *   with dlclose before main returns)
 *   exit (exit(0) from this gcc-compiled main, after the report line)
 * Expected counts: tests/structures/README.md, checked by
 * check_structure.py from the EXPECT lines below (scale_a: N threads, 1
 * load + 1 store of 4 bytes and 1 f32 multiply each; add_b: 2 loads + 1
 * store, 1 f32 add). fault: the profile is written with the launch table,
 * and one line names the launch, the kernel and the vendor's error, and
 * says why device counts are missing. */
/* clang-format off */
// EXPECT(!fault): kernel _Z7scale_aPKfPfi launches=1 load_bytes.global=4194304 store_bytes.global=4194304 flops.f32=1048576
// EXPECT(!fault): kernel _Z5add_bPKfS0_Pfi launches=1 load_bytes.global=8388608 store_bytes.global=4194304 flops.f32=1048576
// EXPECT(!fault): launch _Z7scale_aPKfPfi launches=1 failed=0
// EXPECT(!fault): launch _Z5add_bPKfS0_Pfi launches=1 failed=0
// EXPECT(!fault): consistent
// EXPECT(fault): launch _Z10read_faultPKfPf launches=1
// EXPECT(fault): stderr launch [0-9]+ \(launch 1 of kernel '[^']*read_fault[^']*'\) failed on the GPU: .+ \(error [0-9]+\)
// EXPECT(fault): stderr device counts are missing
// EXPECT(fault): allow-stderr device counts are missing
/* clang-format on */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Built with -DKERNELS_OPTIONAL for dl_main, which links none of them and
 * takes run_a/run_b from the library it opens (weak: a static archive's
 * members are not pulled in for weak references, so only there). */
#ifdef KERNELS_OPTIONAL
#define OPTIONAL __attribute__((weak))
#define HAVE(f) ((f) != NULL)
#else
#define OPTIONAL
#define HAVE(f) 1
#endif
int run_a(int n) OPTIONAL;
int run_b(int n) OPTIONAL;
int run_fault(void) OPTIONAL;
int cudaDeviceReset(void) OPTIONAL;

enum { N = 1 << 20 };

static void *leave(void *arg) {
  (void)arg;
  printf("structures: PASSED\n");
  fflush(stdout);
  exit(0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "return";
  int (*a)(int) = run_a, (*b)(int) = run_b;
  void *lib = NULL;
  if (strcmp(mode, "dlopen") == 0) {
    lib = dlopen(argc > 2 ? argv[2] : "libstructures_kernels.so", RTLD_NOW);
    if (!lib) {
      fprintf(stderr, "structures: %s\n", dlerror());
      return 2;
    }
    a = (int (*)(int))dlsym(lib, "run_a");
    b = (int (*)(int))dlsym(lib, "run_b");
  }
  if (!a || !b) {
    fprintf(stderr, "structures: no kernels (dl_main needs MODE dlopen)\n");
    return 2;
  }
  if (strcmp(mode, "fault") == 0 && HAVE(run_fault)) {
    int bad = run_fault();
    printf("structures: fault %s\n", bad ? "seen" : "NOT seen");
    return bad ? 3 : 1;
  }
  int bad = a(N);
  if (strcmp(mode, "reset") == 0 && HAVE(cudaDeviceReset))
    cudaDeviceReset();
  bad |= b(N);
  if (lib)
    dlclose(lib);
  if (bad) {
    printf("structures: FAILED\n");
    return 1;
  }
  if (strcmp(mode, "reset") == 0 && HAVE(cudaDeviceReset))
    cudaDeviceReset();
  if (strcmp(mode, "exit-thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, leave, NULL);
    pthread_join(t, NULL);
  }
  printf("structures: PASSED\n");
  fflush(stdout);
  if (strcmp(mode, "quick-exit") == 0)
    quick_exit(0);
  if (strcmp(mode, "exit") == 0)
    exit(0);
  return 0;
}
