/*===- driver_handles.c - Driver handles and driver entry points -----------===*
 *
 * CUfunction/CUkernel handles taken from registered kernels (their
 * launches count under that kernel), cuLaunchKernel taken as a pointer
 * (PASTA hands out its own entry point), and cudaLaunchKernelExC.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/vec.h"
#include "wrapper.h"

#include <string.h>

/* Records that the driver handle `handle` (a CUfunction or CUkernel) stands
 * for the kernel `of` is a handle of, so that its launches are recorded
 * under that kernel and counted in its module; `plain` and `capped` are the
 * same kind of handle of its copies (NULL: none). Lock held. */
static void name_handle(const void *handle, const void *of, const void *plain,
                        const void *capped) {
  struct kernel *k = pasta__find_kernel(of);
  if (!k)
    k = pasta__handle_kernel(of); /* cuKernelGetFunction(&f, a CUkernel) */
  const struct kernel *same = pasta__find_kernel(handle);
  if (!k || !handle || handle == of || (same && same->mangled))
    return; /* a registered kernel's own handle */
  uint32_t index = (uint32_t)(k - pasta__st.kernels);
  struct driver_handle *known = pasta__driver_handle(handle);
  if (known) { /* the driver reused the handle */
    *known = (struct driver_handle){handle, index, plain, capped};
    return;
  }
  if (!GROW(pasta__st.handles, pasta__st.cap_handles, pasta__st.num_handles))
    pasta__st.handles[pasta__st.num_handles++] =
        (struct driver_handle){handle, index, plain, capped};
}

/* What the call that gave a handle for `of` is to be asked about for the
 * plain and capped copies: their host stubs where `of` is a registered
 * kernel (cudaGetFuncBySymbol, cudaGetKernel), their handles of its kind
 * where `of` is a handle (cuKernelGetFunction of a CUkernel). Lock held. */
static void copies_to_take(const void *of, const void **plain,
                           const void **capped) {
  *plain = *capped = NULL;
  const struct kernel *k = pasta__find_kernel(of);
  const struct driver_handle *h = pasta__driver_handle(of);
  if (k && k->mangled) {
    *plain = k->plain;
    *capped = k->capped;
  } else if (h) {
    *plain = h->plain;
    *capped = h->capped;
  }
}

typedef int (*pasta__get_handle_fn)(void **, const void *);

/* The handle `real` gives for copy `of` (NULL when none or refused: the
 * refusal is PASTA's, read back; the caller made sure the program had no
 * error pending). */
static const void *take_copy(pasta__get_handle_fn real, const void *of,
                             ops_t *ops) {
  void *copy = NULL;
  if (of && real(&copy, of)) {
    pasta__clear_own_error(ops, 0);
    return NULL;
  }
  return copy;
}

/* cudaGetFuncBySymbol(&f, kernel), cudaGetKernel(&k, kernel) and
 * cuKernelGetFunction(&f, k): launches of the handle (cuLaunchKernel) are
 * those of the program's kernel; they run its counting code. The handles
 * of its plain and capped copies are taken with the same call, so that the
 * driver API's occupancy queries answer for the plain copy and a
 * cooperative launch can fall back (occupancy.c, launch.c); not while the
 * program has an error pending, which a refusal would replace. */
PASTA_ABI int __pasta_get_func_by_symbol(void **handle, const void *of,
                                         pasta__get_handle_fn real,
                                         ops_t *ops) {
  int err = real(handle, of);
  const void *plain, *capped;
  pasta__state_lock();
  pasta__note_call(ops);
  copies_to_take(of, &plain, &capped);
  pasta__state_unlock();
  if (err || !handle)
    return err;
  if ((plain || capped) && !pasta__error_pending(ops)) {
    plain = take_copy(real, plain, ops);
    capped = take_copy(real, capped, ops);
  } else {
    plain = capped = NULL;
  }
  pasta__state_lock();
  name_handle(*handle, of, plain, capped);
  pasta__state_unlock();
  return err;
}

/* cuLaunchKernel and cuLaunchKernelEx taken as pointers
 * (cudaGetDriverEntryPoint*, cuGetProcAddress), as libraries that do not
 * link libcuda call the driver (CUTLASS launches its cluster kernels so):
 * the program gets an entry point of PASTA's that records the launch and
 * calls the driver's. One per distinct driver function (the per-thread
 * default stream's is another); a third is handed out as is. */
typedef int (*pasta__driver_launch_ex_fn)(const void *, const void *, void **,
                                          void **);
PASTA_ABI int __pasta_launch_kernel_ex_driver(const void *config, const void *f,
                                              void **params, void **extra,
                                              pasta__driver_launch_ex_fn real,
                                              ops_t *ops);

enum entry_kind { ENTRY_LAUNCH_KERNEL, ENTRY_LAUNCH_KERNEL_EX, ENTRY_KINDS };
enum { ENTRY_SLOTS = 2 };

static struct {
  void *real;
  ops_t *ops;
} entry_slots[ENTRY_KINDS][ENTRY_SLOTS];

#define ENTRY_LAUNCH(n)                                                        \
  static int entry_launch_##n(const void *f, uint32_t gx, uint32_t gy,         \
                              uint32_t gz, uint32_t bx, uint32_t by,           \
                              uint32_t bz, uint32_t shmem, void *stream,       \
                              void **params, void **extra) {                   \
    return __pasta_module_launch_kernel(                                       \
        f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra,               \
        (pasta__module_launch_fn)entry_slots[ENTRY_LAUNCH_KERNEL][n].real,     \
        entry_slots[ENTRY_LAUNCH_KERNEL][n].ops);                              \
  }

#define ENTRY_LAUNCH_EX(n)                                                     \
  static int entry_launch_ex_##n(const void *config, const void *f,            \
                                 void **params, void **extra) {                \
    return __pasta_launch_kernel_ex_driver(                                    \
        config, f, params, extra,                                              \
        (pasta__driver_launch_ex_fn)entry_slots[ENTRY_LAUNCH_KERNEL_EX][n]     \
            .real,                                                             \
        entry_slots[ENTRY_LAUNCH_KERNEL_EX][n].ops);                           \
  }

ENTRY_LAUNCH(0)
ENTRY_LAUNCH(1)
ENTRY_LAUNCH_EX(0)
ENTRY_LAUNCH_EX(1)
static void *const entry_points[ENTRY_KINDS][ENTRY_SLOTS] = {
    {(void *)entry_launch_0, (void *)entry_launch_1},
    {(void *)entry_launch_ex_0, (void *)entry_launch_ex_1}};

/* Which launch function `symbol` names, or -1. */
static int entry_kind(const char *symbol) {
  if (!symbol)
    return -1;
  if (strcmp(symbol, "cuLaunchKernel") == 0 ||
      strcmp(symbol, "cuLaunchKernel_ptsz") == 0)
    return ENTRY_LAUNCH_KERNEL;
  if (strcmp(symbol, "cuLaunchKernelEx") == 0 ||
      strcmp(symbol, "cuLaunchKernelEx_ptsz") == 0)
    return ENTRY_LAUNCH_KERNEL_EX;
  return -1;
}

/* *fn, the driver's launch function `symbol` names, becomes one of PASTA's
 * entry points. */
static void wrap_entry_point(const char *symbol, void **fn, ops_t *ops) {
  int kind = entry_kind(symbol);
  if (kind < 0)
    return;
  pasta__state_lock();
  pasta__note_call(ops);
  for (size_t i = 0; i < ENTRY_SLOTS; ++i) {
    if (!entry_slots[kind][i].real) {
      entry_slots[kind][i].real = *fn;
      entry_slots[kind][i].ops = ops;
    }
    if (entry_slots[kind][i].real == *fn) {
      *fn = entry_points[kind][i];
      break;
    }
  }
  pasta__state_unlock();
}

/* cudaGetDriverEntryPoint(symbol, &fn, flags, &status). */
PASTA_ABI int __pasta_get_driver_entry_point(
    const char *symbol, void **fn, uint64_t flags, void *status,
    int (*real)(const char *, void **, uint64_t, void *), ops_t *ops) {
  int err = real(symbol, fn, flags, status);
  if (!err && fn && *fn)
    wrap_entry_point(symbol, fn, ops);
  return err;
}

/* cudaGetDriverEntryPointByVersion(symbol, &fn, version, flags, &status)
 * and cuGetProcAddress_v2, which take the same arguments. */
PASTA_ABI int __pasta_get_driver_entry_point_by_version(
    const char *symbol, void **fn, uint32_t version, uint64_t flags,
    void *status,
    int (*real)(const char *, void **, uint32_t, uint64_t, void *),
    ops_t *ops) {
  int err = real(symbol, fn, version, flags, status);
  if (!err && fn && *fn)
    wrap_entry_point(symbol, fn, ops);
  return err;
}

/* cudaLaunchKernelExC(const cudaLaunchConfig_t *, func, args): the
 * configuration's leading fields, as the CUDA runtime lays them out. */
struct pasta__launch_config {
  uint32_t grid[3], block[3];
  uint64_t shmem;
  void *stream;
  const struct pasta__launch_attribute *attrs;
  uint32_t num_attrs;
};

/* cudaLaunchAttribute: an id, padding to 8 bytes, a 64-byte value. */
struct pasta__launch_attribute {
  int32_t id;
  uint8_t pad[4];
  union {
    int32_t cooperative;     /* cudaLaunchAttributeCooperative's */
    uint32_t cluster_dim[3]; /* cudaLaunchAttributeClusterDimension's */
    uint8_t bytes[64];
  } val;
};
enum { LAUNCH_ATTRIBUTE_COOPERATIVE = 2 }; /* cudaLaunchAttributeCooperative */
/* cudaLaunchAttributeClusterDimension (CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
 */
enum { LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };

/* Whether attributes `attrs` (the runtime's and the driver's lay them out
 * alike, cooperative's id is 2 in both) ask for a cooperative launch. */
static int cooperative_attrs(const struct pasta__launch_attribute *attrs,
                             uint32_t num_attrs) {
  for (uint32_t i = 0; attrs && i < num_attrs; ++i)
    if (attrs[i].id == LAUNCH_ATTRIBUTE_COOPERATIVE && attrs[i].val.cooperative)
      return 1;
  return 0;
}

/* Whether attributes `attrs` launch the grid in clusters of more than one
 * block (the same id and layout in the runtime's and the driver's). */
static int cluster_attrs(const struct pasta__launch_attribute *attrs,
                         uint32_t num_attrs) {
  for (uint32_t i = 0; attrs && i < num_attrs; ++i)
    if (attrs[i].id == LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
        (uint64_t)attrs[i].val.cluster_dim[0] * attrs[i].val.cluster_dim[1] *
                attrs[i].val.cluster_dim[2] >
            1)
      return 1;
  return 0;
}

typedef int (*pasta__launch_ex_fn)(const void *, const void *, void **);

/* For the ex form, `real` is called through a small adapter: the config is
 * copied with its dimensions, so only the handle and arguments change. */
static __thread pasta__launch_ex_fn ex_real;

static __thread const void *ex_config;

static int launch_ex_adapter(const void *handle, uint64_t gxy, uint32_t gz,
                             uint64_t bxy, uint32_t bz, void **args,
                             uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)bxy, (void)bz, (void)shmem, (void)stream;
  return ex_real(ex_config, handle, args);
}

PASTA_ABI int __pasta_launch_kernel_ex(const void *config, const void *fn,
                                       void **args, pasta__launch_ex_fn real,
                                       ops_t *ops) {
  if (!config)
    return real(config, fn, args);
  const struct pasta__launch_config *c = config;
  struct launch l = {fn,          c->grid[0] | (uint64_t)c->grid[1] << 32,
                     c->grid[2],  c->block[0] | (uint64_t)c->block[1] << 32,
                     c->block[2], args,
                     c->shmem,    c->stream,
                     PASTA__SITE, PASTA__SITE_SLOT,
                     0,           0,
                     0,           cooperative_attrs(c->attrs, c->num_attrs),
                     0,           cluster_attrs(c->attrs, c->num_attrs)};
  pasta__launch_ex_fn saved_real = ex_real;
  const void *saved_config = ex_config;
  ex_real = real;
  ex_config = config;
  int err = pasta__launch(&l, launch_ex_adapter, ops);
  ex_real = saved_real;
  ex_config = saved_config;
  return err;
}

/* cuLaunchKernelEx(const CUlaunchConfig *, f, params, extra): the driver's
 * configuration differs from the runtime's in its 32-bit shared-memory
 * size only. */
struct pasta__driver_launch_config {
  uint32_t grid[3], block[3];
  uint32_t shmem;
  void *stream;
  const struct pasta__launch_attribute *attrs;
  uint32_t num_attrs;
};

static __thread pasta__driver_launch_ex_fn driver_ex_real;

static __thread void **driver_ex_extra;

static int driver_launch_ex_adapter(const void *handle, uint64_t gxy,
                                    uint32_t gz, uint64_t bxy, uint32_t bz,
                                    void **args, uint64_t shmem, void *stream) {
  (void)gxy, (void)gz, (void)bxy, (void)bz, (void)shmem, (void)stream;
  return driver_ex_real(ex_config, handle, args, driver_ex_extra);
}

/* A handle taken from a registered kernel (cudaGetFuncBySymbol,
 * cudaGetKernel) runs its counting copy's handle, as with cuLaunchKernel;
 * a cooperative attribute falls back as cuLaunchCooperativeKernel does. */
PASTA_ABI int __pasta_launch_kernel_ex_driver(const void *config, const void *f,
                                              void **params, void **extra,
                                              pasta__driver_launch_ex_fn real,
                                              ops_t *ops) {
  ops = pasta__ops_or_known(ops);
  if (!config || !ops) /* a program of the driver API only: nothing to time */
    return real(config, f, params, extra);
  const struct pasta__driver_launch_config *c = config;
  struct launch l = pasta__driver_launch(
      f, c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
      c->block[2], c->shmem, c->stream, params, PASTA__SITE, PASTA__SITE_SLOT,
      cooperative_attrs(c->attrs, c->num_attrs));
  l.cluster = cluster_attrs(c->attrs, c->num_attrs);
  pasta__driver_launch_ex_fn saved_real = driver_ex_real;
  void **saved_extra = driver_ex_extra;
  const void *saved_config = ex_config;
  driver_ex_real = real;
  driver_ex_extra = extra;
  ex_config = config;
  int err = pasta__launch(&l, driver_launch_ex_adapter, ops);
  driver_ex_real = saved_real;
  driver_ex_extra = saved_extra;
  ex_config = saved_config;
  return err;
}
