/*===- resources.c - What instrumentation did to a kernel's resources ------===*
 *
 * At a kernel's first launch (once: launches must not get slower), the
 * vendor's figures for its counting kernel and its plain copy: registers,
 * local memory (stack and spills) and static shared memory per thread or
 * block, the largest block, and how many blocks fit on one SM at that
 * launch's block size and dynamic shared memory. The report shows them
 * side by side and says when the counting copy fits fewer blocks or uses
 * more local memory (docs/profile-format.md, "Resources").
 *===----------------------------------------------------------------------===*/
#include "intercept_internal.h"

#include <string.h>

/* The fields of the vendor's function attributes PASTA reads, as byte
 * offsets: cudaFuncAttributes (unchanged since CUDA 5: sharedSizeBytes,
 * constSizeBytes, localSizeBytes as size_t, then maxThreadsPerBlock and
 * numRegs) and hipFuncAttributes of ROCm 5.2 (binaryVersion, cacheModeCA,
 * constSizeBytes, localSizeBytes, maxDynamicSharedSizeBytes,
 * maxThreadsPerBlock, numRegs, preferredShmemCarveout, ptxVersion,
 * sharedSizeBytes). */
struct attribute_layout {
  size_t shared, local, max_threads, registers;
};
static const struct attribute_layout layouts[3] = {
    {0, 0, 0, 0}, {0, 16, 24, 28}, {48, 16, 28, 32}};

/* Device attribute numbers {max threads per SM, warp size} (cudaDeviceAttr,
 * hipDeviceAttribute_t of ROCm 5.2). */
static const int device_attrs[3][2] = {{0, 0}, {39, 10}, {57, 87}};

/* Room for either struct and whatever a newer runtime appends. */
union attributes {
  unsigned char bytes[1024];
  uint64_t align;
};

static int32_t read_i32(const union attributes *a, size_t at) {
  int32_t v;
  memcpy(&v, a->bytes + at, sizeof v);
  return v;
}

static int64_t read_size(const union attributes *a, size_t at) {
  uint64_t v;
  memcpy(&v, a->bytes + at, sizeof v);
  return v > INT64_MAX ? -1 : (int64_t)v;
}

/* The vendor's function attributes of `fn` into *c (-1: unknown); the
 * blocks per SM stay unknown. */
static void read_attributes(ops_t *ops, const void *fn,
                            pasta_copy_resources *c) {
  *c = (pasta_copy_resources){-1, -1, -1, -1, -1};
  if (!fn)
    return;
  union attributes a;
  memset(&a, 0, sizeof a);
  if (ops->func_get_attributes && ops->func_get_attributes(&a, fn) == 0) {
    const struct attribute_layout *l = &layouts[ops->vendor];
    c->registers = read_i32(&a, l->registers);
    c->local_bytes = read_size(&a, l->local);
    c->shared_bytes = read_size(&a, l->shared);
    c->max_threads = read_i32(&a, l->max_threads);
  } else if (ops->func_get_attributes) {
    ops->get_last_error(); /* ours, not the program's */
  }
}

static void read_copy(ops_t *ops, const void *fn, uint32_t threads,
                      uint64_t shmem, pasta_copy_resources *c) {
  read_attributes(ops, fn, c);
  if (!fn)
    return;
  int blocks = 0;
  if (ops->occupancy_max_active_blocks &&
      ops->occupancy_max_active_blocks(&blocks, fn, (int)threads, shmem) == 0)
    c->blocks_per_sm = blocks >= 0 ? blocks : -1;
  else if (ops->occupancy_max_active_blocks)
    ops->get_last_error();
}

int pasta__max_block_threads(ops_t *ops, const void *fn) {
  if (!ops || ops->vendor < PASTA_VENDOR_CUDA || ops->vendor > PASTA_VENDOR_HIP)
    return -1;
  pasta_copy_resources c;
  read_attributes(ops, fn, &c);
  return c.max_threads;
}

void pasta__read_resources(ops_t *ops, int device, const void *counting,
                           const void *plain, const void *capped,
                           uint32_t threads, uint64_t shmem,
                           pasta_activity_resources *r) {
  memset(r, 0, sizeof *r);
  if (!ops || ops->vendor < PASTA_VENDOR_CUDA || ops->vendor > PASTA_VENDOR_HIP)
    return;
  r->block_threads = threads;
  r->dynamic_shared_bytes = shmem;
  int values[2] = {0, 0};
  for (int i = 0; ops->device_get_attribute && i < 2; ++i)
    if (ops->device_get_attribute(&values[i], device_attrs[ops->vendor][i],
                                  device)) {
      ops->get_last_error();
      values[i] = 0;
    }
  r->max_threads_per_sm = values[0] > 0 ? (uint32_t)values[0] : 0;
  r->warp_size = values[1] > 0 ? (uint32_t)values[1] : 0;
  read_copy(ops, counting, threads, shmem, &r->counting);
  read_copy(ops, plain, threads, shmem, &r->plain);
  if (capped) {
    read_copy(ops, capped, threads, shmem, &r->capped);
    r->has_capped = 1;
  }
  r->known = 1;
}
