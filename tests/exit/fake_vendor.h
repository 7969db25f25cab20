/*===- fake_vendor.h - A fake vendor runtime and one "device" module ------===*
 *
 * Included by the exit-path test program and by its shared library: each
 * gets its own copy, as a program and a library that each link
 * libcudart_static do. Like the CUDA runtime, the fake initialises on its
 * first call and then registers its teardown with atexit; after the
 * teardown every call fails with error 4 ("driver shutting down"). Its
 * device memory is host memory, so a module's counters are plain arrays.
 *
 * FAKE_PREFIX names this copy's symbols; FAKE_FUNC/FAKE_FILE name its
 * kernel and source file.
 *===----------------------------------------------------------------------===*/
#include "pasta/abi.h"

#include <stdlib.h>
#include <string.h>

#define FAKE_CAT2(a, b) a##b
#define FAKE_CAT(a, b) FAKE_CAT2(a, b)
#define FAKE(name) FAKE_CAT(FAKE_PREFIX, name)

enum { FAKE_BANKS = PASTA_DEVICE_MIN_BANKS, FAKE_COUNTERS = 2 };
enum { FAKE_DEINITIALIZED = 4, FAKE_ILLEGAL_ADDRESS = 700 };

void __pasta_register_device_module(const void *,
                                    const struct pasta_vendor_ops *);
void __pasta_module_dso(const void *, void *);
void __pasta_register_kernel(const void *, const char *, const void *,
                             const void *, const void *, int, uint64_t,
                             const void *);
int __pasta_launch_kernel(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                          void **, uint64_t, void *,
                          int (*)(const void *, uint64_t, uint32_t, uint64_t,
                                  uint32_t, void **, uint64_t, void *),
                          const struct pasta_vendor_ops *);
int __pasta_device_synchronize(int (*)(void), const struct pasta_vendor_ops *);
extern void *__dso_handle;

/* The module: one kernel, counter 0 = its launches, counter 1 = its one
 * block's executions (one 4-byte global store each). */
static struct {
  char strings[64];
  struct pasta_func funcs[1];
  struct pasta_site sites[1];
  uint64_t counters[FAKE_BANKS][FAKE_COUNTERS];
  struct pasta_module_desc desc; /* the "device symbol" */
} FAKE(module);

/* A faulting launch returns at once; the GPU faults later, seen by the
 * first call that waits for the GPU (faulting), and by every call after. */
static int FAKE(initialised), FAKE(shut_down), FAKE(faulting), FAKE(faulted);
static int FAKE(fault_next_launch);

static void FAKE(teardown)(void) { FAKE(shut_down) = 1; }

/* Every fake call starts here: 0, or the error to return. */
static int FAKE(enter)(void) {
  if (FAKE(shut_down))
    return FAKE_DEINITIALIZED;
  if (!FAKE(initialised)) {
    FAKE(initialised) = 1;
    atexit(FAKE(teardown));
  }
  return FAKE(faulted) ? FAKE_ILLEGAL_ADDRESS : 0;
}

/* A call that waits for the GPU. */
static int FAKE(wait)(void) {
  FAKE(faulted) |= FAKE(faulting);
  return FAKE(enter)();
}

static int FAKE(memcpy_from_symbol)(void *dst, const void *symbol,
                                    uint64_t count, uint64_t offset, int kind) {
  int err = FAKE(enter)();
  if (err || kind != PASTA_MEMCPY_DEVICE_TO_HOST)
    return err ? err : 1;
  memcpy(dst, (const char *)symbol + offset, count);
  return 0;
}
static int FAKE(memcpy)(void *dst, const void *src, uint64_t count, int kind) {
  int err = FAKE(wait)();
  if (err)
    return err;
  (void)kind;
  memcpy(dst, src, count);
  return 0;
}
static const char *FAKE(error_string)(int err) {
  return err == FAKE_DEINITIALIZED     ? "driver shutting down"
         : err == FAKE_ILLEGAL_ADDRESS ? "an illegal memory access was "
                                         "encountered"
                                       : "unknown error";
}
static int FAKE(sync)(void) { return FAKE(wait)(); }
static int FAKE(get_device)(int *d) {
  *d = 0;
  return FAKE(enter)();
}
static int FAKE(get_device_count)(int *n) {
  *n = 1;
  return FAKE(enter)();
}
static int FAKE(set_device)(int d) { return d == 0 ? FAKE(enter)() : 101; }
static int FAKE(get_last_error)(void) { return 0; }
static int FAKE(event_create)(void **e) {
  *e = malloc(1);
  return FAKE(enter)();
}
static int FAKE(event_record)(void *e, void *s) {
  (void)e, (void)s;
  return FAKE(enter)();
}
static int FAKE(event_synchronize)(void *e) {
  (void)e;
  return FAKE(wait)();
}
static int FAKE(event_elapsed_time)(float *ms, void *a, void *b) {
  (void)a, (void)b;
  *ms = 0.001f;
  return FAKE(enter)();
}
static int FAKE(event_destroy)(void *e) {
  free(e);
  return 0;
}
static int FAKE(stream_is_capturing)(void *s, int *c) {
  (void)s;
  *c = 0;
  return FAKE(enter)();
}
static int FAKE(get_attribute)(int *v, int attr, int dev) {
  (void)dev;
  /* cudaDevAttrMaxThreadsPerMultiProcessor 39, cudaDevAttrWarpSize 10 */
  *v = attr == 39 ? 2048 : attr == 10 ? 32 : 8;
  return FAKE(enter)();
}
static char FAKE(kernel_handle), FAKE(plain_handle); /* host stubs */
/* cudaFuncGetAttributes in cudaFuncAttributes' layout (numRegs at byte 28,
 * localSizeBytes at 16): the counting kernel 40 registers and 16 bytes of
 * local memory, its plain copy 32 and none. */
static int FAKE(func_attributes)(void *attributes, const void *func) {
  int32_t regs = func == &FAKE(kernel_handle) ? 40 : 32;
  uint64_t local = func == &FAKE(kernel_handle) ? 16 : 0;
  memcpy((char *)attributes + 28, &regs, sizeof regs);
  memcpy((char *)attributes + 16, &local, sizeof local);
  return FAKE(enter)();
}
/* 6 blocks of the counting kernel per SM, 8 of the plain copy. */
static int FAKE(occupancy)(int *blocks, const void *func, int threads,
                           uint64_t shmem) {
  (void)threads, (void)shmem;
  *blocks = func == &FAKE(kernel_handle) ? 6 : 8;
  return FAKE(enter)();
}

static const struct pasta_vendor_ops FAKE(ops) = {
    .memcpy_from_symbol = FAKE(memcpy_from_symbol),
    .memcpy = FAKE(memcpy),
    .get_error_string = FAKE(error_string),
    .device_synchronize = FAKE(sync),
    .get_device_count = FAKE(get_device_count),
    .get_device = FAKE(get_device),
    .set_device = FAKE(set_device),
    .get_last_error = FAKE(get_last_error),
    .event_create = FAKE(event_create),
    .event_record = FAKE(event_record),
    .event_synchronize = FAKE(event_synchronize),
    .event_elapsed_time = FAKE(event_elapsed_time),
    .event_destroy = FAKE(event_destroy),
    .stream_is_capturing = FAKE(stream_is_capturing),
    .device_get_attribute = FAKE(get_attribute),
    .func_get_attributes = FAKE(func_attributes),
    .occupancy_max_active_blocks = FAKE(occupancy),
    .vendor = PASTA_VENDOR_CUDA};

/* The kernel: its first thread counts the launch; each of its `threads`
 * threads executes the block once (bank: thread % banks). A launch marked
 * to fault faults instead, and the context is lost. */
static int FAKE(launch)(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                        uint32_t bz, void **args, uint64_t shm, void *stream) {
  (void)fn, (void)gz, (void)bz, (void)args, (void)shm, (void)stream;
  int err = FAKE(enter)();
  if (err)
    return err;
  if (FAKE(fault_next_launch)) {
    FAKE(faulting) = 1; /* asynchronous: the launch itself succeeds */
    return 0;
  }
  uint64_t threads = (uint32_t)gxy * (uint32_t)bxy;
  FAKE(module).counters[0][0] += 1;
  for (uint64_t t = 0; t < threads; ++t)
    FAKE(module).counters[t % FAKE_BANKS][1] += 1;
  return 0;
}

/* clang's module destructor unregisters the fat binary: the module's
 * device memory is gone (here: poisoned). */
static void FAKE(unregister_module)(void) {
  memset(&FAKE(module), 0xdd, sizeof FAKE(module));
}

/* What clang's module constructor and PASTA's registration do. */
__attribute__((constructor)) static void FAKE(register_module)(void) {
  static const char strings[] = FAKE_FUNC "\0" FAKE_FILE;
  memcpy(FAKE(module).strings, strings, sizeof strings);
  uint32_t file = (uint32_t)sizeof FAKE_FUNC;
  FAKE(module).funcs[0] = (struct pasta_func){
      0, PASTA_FUNC_KERNEL, file, 3, 0, PASTA_NONE, PASTA_NONE};
  FAKE(module).sites[0] =
      (struct pasta_site){0, file, 4, 1, PASTA_NONE, PASTA_NONE, {0}};
  FAKE(module).sites[0].mix[PASTA_MIX_STORES + PASTA_SPACE_GLOBAL] = 1;
  FAKE(module).sites[0].mix[PASTA_MIX_STORE_BYTES + PASTA_SPACE_GLOBAL] = 4;
  FAKE(module).desc =
      (struct pasta_module_desc){PASTA_ABI_MAGIC,
                                 PASTA_ABI_VERSION,
                                 PASTA_TARGET_NVPTX,
                                 FAKE_BANKS,
                                 1,
                                 1,
                                 FAKE_COUNTERS,
                                 (uint32_t)sizeof strings,
                                 (uint64_t)(uintptr_t)FAKE(module).funcs,
                                 (uint64_t)(uintptr_t)FAKE(module).sites,
                                 (uint64_t)(uintptr_t)FAKE(module).strings,
                                 (uint64_t)(uintptr_t)FAKE(module).counters,
                                 file,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0};
  __pasta_register_device_module(&FAKE(module).desc, &FAKE(ops));
  __pasta_module_dso(&FAKE(module).desc, &__dso_handle);
  __pasta_register_kernel(&FAKE(kernel_handle), FAKE_FUNC, &FAKE(plain_handle),
                          NULL, NULL, -1, 0, &FAKE(module).desc);
  atexit(FAKE(unregister_module));
}

/* What the pass makes of `kernel<<<blocks, 256>>>()`. */
static int FAKE(run)(uint32_t blocks) {
  const uint64_t y1 = UINT64_C(1) << 32; /* x | y << 32, as the pass packs */
  return __pasta_launch_kernel(&FAKE(kernel_handle), blocks | y1, 1, 256 | y1,
                               1, NULL, 0, NULL, FAKE(launch), &FAKE(ops));
}
