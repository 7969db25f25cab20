/*===- peaks.c - GPU properties and measured bandwidth ---------------------===*
 *
 * Each GPU's peaks from its attributes (read at its first launch), and for
 * the bandwidth analyzer a measured device-to-device bandwidth, cached per
 * kind of GPU in a per-user file; and each GPU's UUID, which names it
 * across processes and nodes (a device number is per process).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "options.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* FMAs per clock per SM without tensor cores, by precision (f16, bf16,
 * f32, f64), for the compute capabilities PASTA knows (NVIDIA's
 * arithmetic-throughput table); 0: unknown. */
static void fmas_per_clock(int major, int minor, unsigned out[4]) {
  memset(out, 0, 4 * sizeof *out);
  if (major == 9 || (major == 8 && minor == 0)) {
    out[0] = out[1] = 256;
    out[2] = major == 9 ? 128 : 64;
    out[3] = major == 9 ? 64 : 32;
  } else if (major == 7 && minor == 0) {
    out[0] = 128;
    out[2] = 64;
    out[3] = 32;
  }
}

/* Attribute numbers: {SMs, clock, memory clock, bus width, CC major, CC
 * minor} per vendor (cudaDeviceAttr, hipDeviceAttribute_t of ROCm 5.2). */
static const int attr_ids[3][6] = {
    {0}, {16, 13, 36, 37, 75, 76}, {63, 5, 60, 59, 23, 61}};

/* Times a device-to-device copy of 256 MiB (best of 3): bytes read plus
 * written per second. 0 when it cannot. */
static double measure_d2d(ops_t *ops) {
  const uint64_t bytes = UINT64_C(256) << 20;
  void *a = NULL, *b = NULL, *e0 = NULL, *e1 = NULL;
  double best = 0;
  if (ops->malloc(&a, bytes) == 0 && ops->malloc(&b, bytes) == 0 &&
      ops->event_create(&e0) == 0 && ops->event_create(&e1) == 0) {
    for (int rep = 0; rep < 4; ++rep) { /* the first warms up */
      float ms = 0;
      if (ops->event_record(e0, NULL) ||
          ops->memcpy_async(b, a, bytes, PASTA_MEMCPY_DEVICE_TO_DEVICE, NULL) ||
          ops->event_record(e1, NULL) || ops->event_synchronize(e1) ||
          ops->event_elapsed_time(&ms, e0, e1))
        break;
      double bw = 2.0 * (double)bytes / ((double)ms * 1e-3);
      if (rep && ms > 0 && bw > best)
        best = bw;
    }
  }
  ops->get_last_error();
  if (e0)
    ops->event_destroy(e0);
  if (e1)
    ops->event_destroy(e1);
  if (a)
    ops->free(a);
  if (b)
    ops->free(b);
  return best;
}

int pasta__sm_count(ops_t *ops, int device) {
  int sms = 0;
  if (!ops || !ops->device_get_attribute || ops->vendor < 1 || ops->vendor > 2)
    return 0;
  if (ops->device_get_attribute(&sms, attr_ids[ops->vendor][0], device)) {
    ops->get_last_error();
    return 0;
  }
  return sms;
}

/* GPU `device`'s properties and peaks from its attributes (no bandwidth
 * measurement). */
void pasta__read_peaks(ops_t *ops, int device, pasta_device_peaks *p) {
  memset(p, 0, sizeof *p);
  p->device = device;
  if (!ops || !ops->device_get_attribute || ops->vendor < 1 || ops->vendor > 2)
    return;
  int *fields[6] = {&p->sm_count, &p->clock_khz, &p->mem_clock_khz,
                    &p->bus_bits, &p->cc_major,  &p->cc_minor};
  /* Read at a launch of the program's: its pending error is kept. */
  int pending = pasta__error_pending(ops), failed = 0;
  for (int i = 0; i < 6; ++i)
    if (ops->device_get_attribute(fields[i], attr_ids[ops->vendor][i],
                                  p->device)) {
      *fields[i] = 0;
      failed = 1;
    }
  if (failed)
    pasta__clear_own_error(ops, pending);
  p->bw_theoretical =
      2.0 * p->mem_clock_khz * 1e3 * (p->bus_bits / 8.0); /* double data rate */
  unsigned fma[4] = {0, 0, 0, 0};
  if (ops->vendor == PASTA_VENDOR_CUDA) /* AMD: no table yet */
    fmas_per_clock(p->cc_major, p->cc_minor, fma);
  for (int i = 0; i < 4; ++i)
    p->flops[i] = 2.0 * fma[i] * p->sm_count * p->clock_khz * 1e3;
}

/* What identifies a kind of GPU for the cache: vendor, compute capability,
 * SMs and clocks, memory clock and bus width. */
static void peaks_key(ops_t *ops, const pasta_device_peaks *p, char *key,
                      size_t size) {
  snprintf(key, size, "v%d-cc%d.%d-sm%d-clk%d-mclk%d-bus%d", (int)ops->vendor,
           p->cc_major, p->cc_minor, p->sm_count, p->clock_khz,
           p->mem_clock_khz, p->bus_bits);
}

/* The cache file, opened with `flags`: only a regular file of this user's,
 * never through a link (PASTA_CACHE_DIR may be a shared directory), never
 * blocking on a fifo. NULL when it is not one: another user's file there is
 * neither believed (its figures would be the peaks the roofline and the
 * bandwidth table show) nor written. */
static FILE *open_cache(const char *path, int flags, const char *mode) {
  int fd =
      open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
  struct stat st;
  if (fd >= 0 &&
      (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
    close(fd);
    fd = -1;
  }
  FILE *f = fd >= 0 ? fdopen(fd, mode) : NULL;
  if (!f && fd >= 0)
    close(fd);
  return f;
}

static double cached_bandwidth(const char *path, const char *key) {
  FILE *f = open_cache(path, O_RDONLY, "r");
  if (!f)
    return 0;
  char line[256], k[128];
  double bw = 0, v;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%127s %lf", k, &v) == 2 && strcmp(k, key) == 0 && v > 0)
      bw = v;
  fclose(f);
  return bw;
}

/* Creates the directories of `path` (mode 0700) and appends the line. */
static void cache_bandwidth(const char *path, const char *key, double bw) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *s = dir + 1; *s; ++s)
    if (*s == '/') {
      *s = '\0';
      mkdir(dir, 0700); /* EEXIST is fine */
      *s = '/';
    }
  FILE *f = open_cache(path, O_WRONLY | O_APPEND | O_CREAT, "a");
  if (!f)
    return;
  fprintf(f, "%s %.0f\n", key, bw);
  fclose(f);
}

/* The measured bandwidth of the GPU `p` describes: from the cache, or
 * measured once (a 256 MiB device-to-device copy) and cached. */
double pasta__calibrated_bandwidth(ops_t *ops, const pasta_device_peaks *p) {
  char path[4096], key[128];
  peaks_key(ops, p, key, sizeof key);
  int cache = pasta__peaks_cache_path(path, sizeof path);
  double bw = cache ? cached_bandwidth(path, key) : 0;
  if (bw > 0)
    return bw;
  if (!ops->memcpy_async || !ops->event_create || !ops->malloc)
    return 0;
  int current = pasta__vendor_device(ops);
  if (current != p->device && ops->set_device && ops->set_device(p->device))
    return 0;
  bw = measure_d2d(ops);
  if (current != p->device && ops->set_device)
    ops->set_device(current);
  if (bw > 0 && cache)
    cache_bandwidth(path, key, bw);
  return bw;
}

/* The GPU the bandwidth analyzer describes: the program's current one if
 * it launched there, else the first it launched on. Lock held. */
int pasta__peaks_device(void) {
  int current = pasta__st.ops ? pasta__vendor_device(pasta__st.ops) : 0;
  if ((pasta__st.have_peaks >> current) & 1)
    return current;
  return pasta__st.have_peaks ? __builtin_ctzll(pasta__st.have_peaks) : -1;
}

/* The CUDA driver's UUID of runtime device `device` ("" when unknown).
 * The runtime API has no call for it that keeps its layout across CUDA
 * versions, so the driver's is used, from the libcuda the CUDA runtime
 * loaded (never loaded here). */
static void cuda_uuid(int device, char out[PASTA__UUID_SIZE]) {
  void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (!h)
    return;
  int (*get)(int *, int) = (int (*)(int *, int))dlsym(h, "cuDeviceGet");
  int (*uuid)(unsigned char *, int) =
      (int (*)(unsigned char *, int))dlsym(h, "cuDeviceGetUuid_v2");
  if (!uuid)
    uuid = (int (*)(unsigned char *, int))dlsym(h, "cuDeviceGetUuid");
  int dev;
  unsigned char b[16];
  if (get && uuid && get(&dev, device) == 0 && uuid(b, dev) == 0)
    snprintf(out, PASTA__UUID_SIZE,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
             "%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
             b[11], b[12], b[13], b[14], b[15]);
  dlclose(h);
}

void pasta__read_gpu_uuid(ops_t *ops, int device, char out[PASTA__UUID_SIZE]) {
  out[0] = '\0';
  if (ops && ops->vendor == PASTA_VENDOR_CUDA)
    cuda_uuid(device, out);
}
