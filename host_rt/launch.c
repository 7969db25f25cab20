/*===- launch.c - The launch wrappers --------------------------------------===*
 *
 * cudaLaunchKernel and its HIP, cooperative and module (driver API) forms:
 * numbers the launch, picks its variant (kernels.c), runs it timed
 * (timing.c), as a working-set or trace launch, retries the original when a
 * variant cannot be launched, and records shape, path and fault.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/diag.h"
#include "trace.h"
#include "wrapper.h"

#include <stdio.h>
#include <string.h>

/* cudaErrorLaunchOutOfResources and hipErrorLaunchOutOfResources: the
 * block needs more registers than the GPU has for it. */
enum { LAUNCH_OUT_OF_RESOURCES = 701 };
/* cudaErrorCooperativeLaunchTooLarge and hipErrorCooperativeLaunchTooLarge:
 * a cooperative grid with more blocks than the GPU holds at once. */
enum { COOPERATIVE_LAUNCH_TOO_LARGE = 720 };
/* cudaErrorInvalidClusterSize (HIP has no clusters): a cluster launch the
 * GPU cannot schedule, which a copy with more registers than the plain one
 * may meet where the plain copy does not (fewer blocks an SM, so fewer SMs
 * of a GPC hold the cluster). */
enum { CLUSTER_REFUSED = 912 };

/* Whether err, from a launch through `ops`, is a cluster refusal: 912 is
 * another error on HIP (hipErrorInvalidTexture). */
static int cluster_refusal(ops_t *ops, int err) {
  return err == CLUSTER_REFUSED && ops->vendor == PASTA_VENDOR_CUDA;
}

/* Whether err refuses a launch's shape rather than the copy: a block with
 * more registers than the GPU has for it, a cooperative grid or a cluster
 * the copy cannot hold at once. A copy refused so still runs launches of
 * other shapes. */
static int shape_refusal(ops_t *ops, int err) {
  return err == LAUNCH_OUT_OF_RESOURCES ||
         err == COOPERATIVE_LAUNCH_TOO_LARGE || cluster_refusal(ops, err);
}

static const char *variant_copy_name(enum variant v) {
  return v == RUN_PLAIN   ? "plain"
         : v == RUN_TRACE ? "trace"
         : v == RUN_DIV   ? "divergence"
                          : "working-set";
}

/* Stops using kernel k's copy of variant v (its launch was refused for
 * itself), says so once per run. Called with the lock held. */
static void give_up_copy(struct kernel *k, enum variant v) {
  k->gave_up_copy = v != RUN_PLAIN;
  if (v == RUN_PLAIN)
    k->plain = NULL;
  else if (v == RUN_TRACE)
    k->trace = NULL;
  else if (v == RUN_DIV)
    k->div = k->div_uncapped = k->div_general = k->div_one_lane = NULL;
  else
    k->ws = k->ws_capped = NULL;
  if (!pasta__st.warned_variant)
    PASTA_WARN("the %s copy of kernel '%s' cannot be launched; "
               "its launches run the counting kernel\n",
               variant_copy_name(v), k->mangled ? k->mangled : "?");
  pasta__st.warned_variant = 1;
}

/* Kernel k's copy of variant v refused this launch's shape (shape_refusal):
 * kept for other launches, said once per kernel. Called with the lock
 * held. */
static void note_shape_refusal(struct kernel *k, enum variant v,
                               uint64_t threads, uint64_t blocks) {
  if (k->said_shape_refusal)
    return;
  k->said_shape_refusal = 1;
  PASTA_WARN("the %s copy of kernel '%s' cannot take a launch of %llu "
             "blocks of %llu threads (its registers); such launches run "
             "the counting kernel, the others its %s copy\n",
             variant_copy_name(v), k->mangled ? k->mangled : "?",
             (unsigned long long)blocks, (unsigned long long)threads,
             variant_copy_name(v));
}

static void unpack_dims(uint64_t xy, uint32_t z, uint32_t out[3]);

/* A variant the vendor refused (`refusal`: not in the device code, the
 * host and device compiles disagreed on PASTA_KERNELS; or more registers
 * than the launch allows): the error is ours, not the program's. Clear it,
 * run the original (`counting`: the counting kernel, or its register-capped
 * copy where the block needs it), and, when that ran, stop using the
 * variant, unless only this launch's shape was refused (shape_refusal). */
static int retry_original(ops_t *ops, pasta__launch_fn real,
                          const struct launch *l, uint32_t kernel,
                          const void *counting, int refusal, enum variant *v) {
  pasta__clear_own_error(ops, l->keep_last_error);
  int err = pasta__run_timed(ops, real, counting, l, l->args, kernel, 0);
  if (err)
    return err; /* the program's own launch fails too: its error */
  pasta__state_lock();
  struct kernel *k = &pasta__st.kernels[kernel];
  if (*v == RUN_WS)
    ++pasta__st.ws_skipped; /* this launch: the exit's report says so */
  if (*v != RUN_PLAIN && shape_refusal(ops, refusal)) {
    uint32_t grid[3], block[3];
    unpack_dims(l->grid_xy, l->grid_z, grid);
    unpack_dims(l->block_xy, l->block_z, block);
    note_shape_refusal(k, *v, (uint64_t)block[0] * block[1] * block[2],
                       (uint64_t)grid[0] * grid[1] * grid[2]);
  } else {
    give_up_copy(k, *v);
  }
  pasta__state_unlock();
  *v = RUN_COUNTING;
  return 0;
}

/* Why a launch ran the plain copy, uncounted (said once per kernel). */
enum plain_reason {
  PLAIN_FOR_BLOCK,       /* no counting copy takes the block */
  PLAIN_FOR_COOPERATIVE, /* none holds the cooperative grid at once */
  PLAIN_FOR_CLUSTER      /* the GPU schedules no cluster of its blocks */
};

/* Says, once per kernel, that kernel `kernel`'s launch `l` ran its plain
 * copy, and why. Takes the lock. */
static void say_plain_ran(const struct launch *l, uint32_t kernel,
                          enum plain_reason why) {
  uint32_t grid[3], block[3];
  unpack_dims(l->grid_xy, l->grid_z, grid);
  unpack_dims(l->block_xy, l->block_z, block);
  pasta__state_lock();
  struct kernel *k = &pasta__st.kernels[kernel];
  const char *name = k->mangled ? k->mangled : "?";
  unsigned threads = block[0] * block[1] * block[2];
  /* One warning per kernel and cause: a block, a grid and a cluster too
   * large are different things to fix (a bit each). */
  int said = 1 << why;
  if (k->warned_resources & said) {
    pasta__state_unlock();
    return;
  }
  if (why == PLAIN_FOR_COOPERATIVE)
    PASTA_WARN("the counting copies of kernel '%s' need more registers than "
               "a cooperative grid of %llu blocks of %u threads can have on "
               "this GPU at once; its plain copy ran instead, and such "
               "launches are not counted (docs/user-guide.md, \"Launches "
               "that are not counted\")\n",
               name, (unsigned long long)grid[0] * grid[1] * grid[2], threads);
  else if (why == PLAIN_FOR_CLUSTER)
    PASTA_WARN("the GPU refused a cluster launch of kernel '%s' (blocks of "
               "%u threads) for its counting copy, whose registers leave "
               "fewer blocks an SM, or the program had an error pending "
               "that a refusal would replace; its plain copy ran instead, "
               "and such launches are not counted (docs/user-guide.md, "
               "\"Launches that are not counted\")\n",
               name, threads);
  else
    PASTA_WARN("the counting copy of kernel '%s' needs more "
               "registers than a block of %u threads can have; its plain copy "
               "ran instead, and such launches are not counted "
               "(docs/user-guide.md, \"Launches that are not counted\")\n",
               name, threads);
  k->warned_resources |= said;
  pasta__state_unlock();
}

/* The counting copy of a kernel needs more registers than its plain one;
 * a block of many threads may not fit at all, a cooperative grid sized by
 * the plain copy's occupancy may not fit on the GPU at once, and a cluster
 * may find no GPC with room for its blocks (`refusal`, the copy's error).
 * The program's launch must still run: its plain copy does, uncounted, and
 * the user is told once per kernel. Returns the plain launch's error (0
 * when it ran). */
static int retry_plain(ops_t *ops, pasta__launch_fn real,
                       const struct launch *l, uint32_t kernel,
                       const void *plain, int refusal, enum variant *v) {
  pasta__clear_own_error(ops, l->keep_last_error);
  int err = pasta__run_timed(ops, real, plain, l, l->args, kernel, 1);
  if (err)
    return err;
  say_plain_ran(l, kernel,
                refusal == COOPERATIVE_LAUNCH_TOO_LARGE ? PLAIN_FOR_COOPERATIVE
                : refusal == CLUSTER_REFUSED            ? PLAIN_FOR_CLUSTER
                                                        : PLAIN_FOR_BLOCK);
  *v = RUN_PLAIN;
  return 0;
}

/* After a launch on `device` returned: the vendor runtime is up (the
 * report's exit handler can be ordered before its teardown) and the GPU is
 * in use, so its properties are read now, never at exit. */
void pasta__after_launch(ops_t *ops, int device) {
  pasta__arm_exit();
  pasta__state_lock();
  int have = (pasta__st.have_peaks >> device) & 1;
  pasta__state_unlock();
  if (have)
    return;
  pasta_device_peaks p;
  pasta__read_peaks(ops, device, &p);
  char uuid[PASTA__UUID_SIZE];
  pasta__read_gpu_uuid(ops, device, uuid);
  pasta__state_lock();
  pasta__st.peaks[device] = p;
  memcpy(pasta__st.gpu_uuid[device], uuid, sizeof uuid);
  pasta__st.have_peaks |= UINT64_C(1) << device;
  pasta__state_unlock();
}

static void unpack_dims(uint64_t xy, uint32_t z, uint32_t out[3]) {
  out[0] = (uint32_t)xy;
  out[1] = (uint32_t)(xy >> 32);
  out[2] = z;
}

/* Blocks of `copy` that fit on one SM at once with `threads` threads and
 * `shmem` bytes of dynamic shared memory; 0 when the vendor cannot say. */
static int blocks_per_sm(ops_t *ops, const void *copy, uint32_t threads,
                         uint64_t shmem) {
  int n = 0;
  if (!ops->occupancy_max_active_blocks ||
      ops->occupancy_max_active_blocks(&n, copy, (int)threads, shmem)) {
    ops->get_last_error();
    return 0;
  }
  return n > 0 ? n : 0;
}

/* Whether the uncapped copy `twin` is the pass's stub in its place (a
 * kernel of one-thread blocks that returns at once: passes/
 * DivergenceEmission.cpp, addUncappedStub), or may be: unknown counts as
 * a stub, which only costs the cap's spills. A real twin of a kernel whose
 * own bound is one thread counts as a stub too. */
static int twin_is_stub(ops_t *ops, const void *twin) {
  return pasta__max_block_threads(ops, twin) <= 1;
}

/* The largest block of `copy` by the vendor, asked once: *max is 0 until
 * asked, then the answer (-1: unknown). */
static int max_threads_once(ops_t *ops, const void *copy, int *max) {
  if (!*max) {
    int m = pasta__max_block_threads(ops, copy);
    *max = m > 0 ? m : -1;
  }
  return *max;
}

/* Whether the warps of `block` are rows of 32 threads of one y and z:
 * blockDim.x a multiple of 32, or a block of one row (as the device
 * runtime's __pasta_div_row_width, whose test a copy with a general copy
 * has left out). */
static int warps_are_rows_of_32(const uint32_t block[3]) {
  return (block[0] & 31) == 0 || (block[1] == 1 && block[2] == 1);
}

/* Whether a divergence launch of `block` runs k's general copy: a launch
 * whose warps are not rows of 32, of a kernel whose general copy is not the
 * pass's stub (largest block 1, asked once: wave->general_max). Where the
 * vendor cannot say, the general copy runs: the copy may be a body for
 * rows of 32 alone, and a stub is refused, loudly (retry_original). */
static int runs_general(ops_t *ops, const struct kernel *k,
                        const uint32_t block[3], struct div_wave *wave) {
  if (!k->div_general || warps_are_rows_of_32(block))
    return 0;
  return max_threads_once(ops, k->div_general, &wave->general_max) != 1;
}

/* Whether a divergence launch of `block` runs k's one-lane copy: a block
 * of one thread, whose one warp has one active lane, of a kernel whose
 * one-lane copy is not the pass's stub (asked once: wave->one_lane_max).
 * The copy is the divergence copy specialised to that shape (passes/
 * DivergenceOneLane.h): the same figures. Unknown runs it (a stub is
 * refused, loudly, as the general copy's). */
static int runs_one_lane(ops_t *ops, const struct kernel *k,
                         const uint32_t block[3], struct div_wave *wave) {
  if (!k->div_one_lane || block[0] != 1 || block[1] != 1 || block[2] != 1)
    return 0;
  return max_threads_once(ops, k->div_one_lane, &wave->one_lane_max) != 1;
}

/* Which divergence copy a launch runs. On NVIDIA the copy has a register
 * cap, which keeps more warps resident at the price of spills. That pays
 * only when the cap fits more blocks on an SM at this block shape, and the
 * grid has more blocks than the GPU holds at once without it (SMs x the
 * uncapped copy's blocks per SM, from the vendor's occupancy call). Else
 * the uncapped copy runs, unless it is a stub. *wave is k's cached answer,
 * asked again when the shape differs; the caller stores it back. */
static const void *div_copy_for(ops_t *ops, const struct kernel *k,
                                const struct launch *l, struct div_wave *wave) {
  *wave = k->div_wave;
  uint32_t grid[3], block[3];
  unpack_dims(l->grid_xy, l->grid_z, grid);
  unpack_dims(l->block_xy, l->block_z, block);
  if (runs_one_lane(ops, k, block, wave))
    return k->div_one_lane;
  if (runs_general(ops, k, block, wave))
    return k->div_general;
  if (!k->div_uncapped)
    return k->div;
  uint32_t threads = block[0] * block[1] * block[2];
  uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
  if (!threads || !blocks) /* not a launch the GPU would take */
    return k->div;
  if (wave->threads != threads || wave->shmem != l->shmem) {
    int per_sm = twin_is_stub(ops, k->div_uncapped)
                     ? 0
                     : blocks_per_sm(ops, k->div_uncapped, threads, l->shmem);
    int sms = per_sm > 0 ? pasta__sm_count(ops, l->device) : 0;
    int capped = sms > 0 ? blocks_per_sm(ops, k->div, threads, l->shmem) : 0;
    wave->threads = threads;
    wave->shmem = l->shmem;
    wave->blocks = sms > 0 ? (uint64_t)per_sm * (uint64_t)sms : 0;
    wave->cap_gains = !capped || capped > per_sm; /* unknown: as before */
  }
  if (!wave->blocks) /* nothing known of the uncapped copy */
    return k->div;
  return blocks <= wave->blocks || !wave->cap_gains ? k->div_uncapped : k->div;
}

/* Blocks of at most this many threads fit any copy's registers: ptxas
 * gives a thread at most 255, and 256 such threads fill an SM's 65,536
 * registers. Launches of such blocks never ask the vendor. */
enum { BLOCK_ALWAYS_FITS = 256 };

/* Whether `copy` takes a block of `threads` threads by its registers:
 * blocks of at most BLOCK_ALWAYS_FITS always do; else the vendor's largest
 * block for the copy, asked once (*max). Unknown counts as taking it: a
 * refusal still falls back (retry_original). */
static int takes_block(ops_t *ops, const void *copy, uint64_t threads,
                       int *max) {
  if (threads <= BLOCK_ALWAYS_FITS)
    return 1;
  int most = max_threads_once(ops, copy, max);
  return most < 0 || threads <= (uint64_t)most;
}

/* The working-set copy that takes a launch's block: the kernel's own, else
 * its register-capped twin (abi.h, PASTA_WS_CAPPED_SUFFIX; a stub takes
 * one thread), else none. */
static const void *ws_copy_for(ops_t *ops, const struct kernel *k,
                               uint64_t threads, struct mode_fit *fit) {
  if (takes_block(ops, k->ws, threads, &fit->ws_max))
    return k->ws;
  if (k->ws_capped &&
      takes_block(ops, k->ws_capped, threads, &fit->ws_capped_max))
    return k->ws_capped;
  return NULL;
}

/* The divergence copy that takes a launch's block: `chosen`
 * (div_copy_for), else the other of the capped copy and its uncapped twin
 * (the same code but for the cap; a stub takes one thread), else none. A
 * general copy has no other: the rest are bodies for rows of 32. */
static const void *div_copy_that_fits(ops_t *ops, const struct kernel *k,
                                      const void *chosen, uint64_t threads,
                                      struct mode_fit *fit) {
  if (chosen && threads <= BLOCK_ALWAYS_FITS) /* any copy takes it */
    return chosen;
  if (chosen == k->div_general)
    return takes_block(ops, chosen, threads, &fit->div_general_max) ? chosen
                                                                    : NULL;
  if (k->div && takes_block(ops, k->div, threads, &fit->div_max) &&
      (chosen == k->div || !k->div_uncapped ||
       !takes_block(ops, k->div_uncapped, threads, &fit->div_uncapped_max)))
    return k->div;
  if (k->div_uncapped &&
      takes_block(ops, k->div_uncapped, threads, &fit->div_uncapped_max))
    return k->div_uncapped;
  return NULL;
}

/* Counts a launch of k in mode `v` that ran its counting copy because no
 * copy of the mode takes blocks of `threads`; says so at k's first. Called
 * with the lock held. */
static void say_mode_copy_missed(struct kernel *k, enum variant v,
                                 uint64_t threads) {
  ++k->missed_mode_launches;
  if (v == RUN_WS)
    ++pasta__st.ws_skipped; /* the exit's report counts them */
  if (k->missed_mode_launches > 1)
    return;
  const char *mode = v == RUN_WS ? "working-set" : "divergence";
  PASTA_WARN("no %s copy of kernel '%s' takes blocks of %llu threads (it "
             "needs more registers than such a block can have); those "
             "launches run its counting copy and have no %s figures "
             "(docs/user-guide.md, \"Launches that are not counted\")\n",
             mode, k->mangled ? k->mangled : "?", (unsigned long long)threads,
             mode);
}

/* Whether a counting launch runs the kernel's register-capped copy: its
 * block has more threads than the counting kernel's registers allow and
 * no more than the capped copy's do (a stub's largest block is one
 * thread). Unknown figures keep the counting kernel (which, if it does not
 * fit, is retried as the plain copy). *fit is k's cached answer; the
 * caller stores it back. */
static int runs_capped(ops_t *ops, const struct kernel *k,
                       const struct launch *l, struct capped_fit *fit) {
  *fit = k->capped_fit;
  if (!k->capped)
    return 0;
  uint32_t block[3];
  unpack_dims(l->block_xy, l->block_z, block);
  uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
  if (threads <= BLOCK_ALWAYS_FITS)
    return 0;
  int counting = max_threads_once(ops, k->handle, &fit->counting_max);
  if (counting < 0 || threads <= (uint64_t)counting)
    return 0;
  int capped = max_threads_once(ops, k->capped, &fit->capped_max);
  return capped > 0 && threads <= (uint64_t)capped;
}

/* The capped copy was refused: the counting kernel runs as it would have.
 * Where it runs, or is refused for want of resources, the refusal was the
 * capped copy's own (not in the device code, or still too large) and the
 * copy is not tried again for this kernel; where it is refused otherwise,
 * the launch itself was wrong (its configuration) and the copy stays. */
static int retry_uncapped(ops_t *ops, pasta__launch_fn real,
                          const struct launch *l, uint32_t kernel,
                          struct capped_fit *fit) {
  pasta__clear_own_error(ops, l->keep_last_error);
  int err = pasta__run_timed(ops, real, l->fn, l, l->args, kernel, 0);
  if (!err || err == LAUNCH_OUT_OF_RESOURCES)
    fit->capped_max = -1;
  return err;
}

/* A cooperative launch (cudaLaunchCooperativeKernel, cuLaunchCooperative-
 * Kernel, or a launch with the cooperative attribute) whose grid the copy
 * that ran cannot hold on the GPU at once: the program sized it by the
 * plain copy's occupancy (occupancy.c); or a cluster launch whose cluster
 * no GPC has room for with the copy's blocks an SM (`refusal`, the copy's
 * error). The capped copy, whose registers fit more blocks on an SM, runs
 * it counted (`launch_capped`: its host stub, or its driver handle) where
 * it takes the block and was not the copy refused (*capped: it ran then);
 * else the caller runs the plain copy. Returns the capped launch's error,
 * or `refusal` where it was not tried. */
static int retry_capped_for_grid(ops_t *ops, pasta__launch_fn real,
                                 const struct kernel *k, const struct launch *l,
                                 uint32_t kernel, const void *launch_capped,
                                 struct capped_fit *fit, int *capped,
                                 int refusal) {
  if (*capped || !k->capped || !launch_capped)
    return refusal;
  uint32_t block[3];
  unpack_dims(l->block_xy, l->block_z, block);
  uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
  int most = max_threads_once(ops, k->capped, &fit->capped_max);
  if (most <= 1 || threads > (uint64_t)most) /* a stub (1 thread), too small */
    return refusal;
  pasta__clear_own_error(ops, l->keep_last_error);
  int err = pasta__run_timed(ops, real, launch_capped, l, l->args, kernel, 0);
  *capped = !err;
  return err;
}

/* With an error pending, a launch of the counting kernel (or of its
 * capped copy, *capped) that the vendor would refuse is not tried: the
 * refusal would replace the program's error (the vendor keeps one). It is
 * foreseen from what the refusal would come from: a block larger than the
 * counting kernel takes (the capped copy was chosen already where it takes
 * it), a cooperative grid larger than the copy holds at once (the capped
 * copy runs instead where it takes the block and holds the grid: *capped
 * set), any cluster launch (not foreseeable). Returns the refusal
 * foreseen, for which the caller runs the plain copy; 0 when none. */
static int foresee_refusal(ops_t *ops, const struct kernel *k,
                           const struct launch *l, int have_capped,
                           struct capped_fit *fit, int *capped) {
  uint32_t grid[3], block[3];
  unpack_dims(l->grid_xy, l->grid_z, grid);
  unpack_dims(l->block_xy, l->block_z, block);
  uint32_t threads = block[0] * block[1] * block[2];
  uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
  /* Which cluster the GPU refuses a copy is not known before it does: a
   * cluster launch with an error pending runs the plain copy. */
  if (l->cluster && ops->vendor == PASTA_VENDOR_CUDA) {
    *capped = 0;
    return CLUSTER_REFUSED;
  }
  if (!*capped && threads > BLOCK_ALWAYS_FITS) {
    int most = max_threads_once(ops, k->handle, &fit->counting_max);
    if (most > 0 && threads > (uint32_t)most)
      return LAUNCH_OUT_OF_RESOURCES;
  }
  int sms = l->cooperative ? pasta__sm_count(ops, l->device) : 0;
  const void *chosen = *capped ? k->capped : k->handle;
  if (sms <= 0 || blocks <= (uint64_t)sms * (uint64_t)blocks_per_sm(
                                                ops, chosen, threads, l->shmem))
    return 0;
  int most = !*capped && have_capped && k->capped
                 ? max_threads_once(ops, k->capped, &fit->capped_max)
                 : 0;
  if (most > 1 && threads <= (uint32_t)most &&
      blocks <= (uint64_t)sms * (uint64_t)blocks_per_sm(ops, k->capped, threads,
                                                        l->shmem)) {
    *capped = 1;
    return 0;
  }
  *capped = 0;
  return COOPERATIVE_LAUNCH_TOO_LARGE;
}

/* Persistent grids. A program that asked the occupancy API about a kernel
 * (answered for the plain copy: occupancy.c) may size a grid to exactly
 * what the GPU holds of it at once, and sync its blocks by hand (a spin on
 * a global counter): a copy with more registers holds fewer blocks, the
 * blocks past its residency never start, and the program hangs. Such a
 * launch of the counting kernel (a grid the plain copy holds and it does
 * not) runs the capped copy where that holds the grid. Nothing else
 * changes: grid-stride kernels are sized the same way and need no
 * residency (CUB sizes its radix sort's histogram kernel to exactly
 * blocks-per-SM x SMs), and running their plain copy would leave them
 * uncounted, dropping a mode's copy would lose its figures; a cooperative
 * launch the GPU refuses still falls back (retry_capped_for_grid,
 * retry_plain). Grids larger than the plain copy's residency, and kernels
 * whose occupancy was never asked, run as before. */

/* Blocks of `copy` the GPU holds at once at res's shape: SMs x blocks per
 * SM, asked once per shape (slot `slot` of res->per_sm); 0 when unknown or
 * none. */
static uint64_t held_at_once(ops_t *ops, struct residency *res, int slot,
                             const void *copy) {
  if (!copy || res->sms <= 0)
    return 0;
  if (res->per_sm[slot] < 0)
    res->per_sm[slot] = blocks_per_sm(ops, copy, res->threads, res->shmem);
  return (uint64_t)res->per_sm[slot] * (uint64_t)res->sms;
}

/* Whether launch `l` of k's counting kernel, k a kernel the program asked
 * the occupancy API about, runs its capped copy instead. *res is k's
 * cached residency and *fit its capped fit; the caller stores both back. */
static int resident_choice(ops_t *ops, const struct kernel *k,
                           const struct launch *l, struct residency *res,
                           struct capped_fit *fit) {
  *res = k->residency;
  uint32_t grid[3], block[3];
  unpack_dims(l->grid_xy, l->grid_z, grid);
  unpack_dims(l->block_xy, l->block_z, block);
  uint32_t threads = block[0] * block[1] * block[2];
  uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
  if (!threads || !blocks)
    return 0;
  if (res->threads != threads || res->shmem != l->shmem ||
      res->device != l->device) {
    res->threads = threads;
    res->shmem = l->shmem;
    res->device = l->device;
    res->sms = pasta__sm_count(ops, l->device);
    for (int i = 0; i < 3; ++i)
      res->per_sm[i] = -1;
  }
  uint64_t plain = held_at_once(ops, res, 0, k->plain);
  if (!plain || blocks > plain)
    return 0; /* not a grid sized to the plain copy's */
  uint64_t chosen = held_at_once(ops, res, 1, k->handle);
  if (!chosen || blocks <= chosen) /* holds it, or is refused and retried */
    return 0;
  int most = k->capped ? max_threads_once(ops, k->capped, &fit->capped_max) : 0;
  if (most > 1 && threads <= (uint64_t)most &&
      blocks <= held_at_once(ops, res, 2, k->capped))
    return 1;
  return 0;
}

/* A launch into a stream being captured into a graph: the counting kernel
 * goes into the graph (launch windows and sampling are per launch, which a
 * graph replays), and the launches are recorded when the graph runs. */
static int launch_into_graph(const struct launch *l, pasta__launch_fn real,
                             ops_t *ops) {
  /* Settings the program made while an error was pending reach the copies
   * now, as at any launch: the counting kernel put into the graph needs
   * them (a dynamic shared memory size above the default). */
  pasta__state_lock();
  struct kernel *k = pasta__find_kernel(l->fn);
  int unset = k && k->num_unset;
  uint32_t index = k ? (uint32_t)(k - pasta__st.kernels) : 0;
  pasta__state_unlock();
  if (unset)
    pasta__make_unset(ops, index);
  int err = real(l->fn, l->grid_xy, l->grid_z, l->block_xy, l->block_z, l->args,
                 l->shmem, l->stream);
  pasta__state_lock();
  pasta__note_call(ops);
  if (pasta__opt.divergence) /* the lookup only for the warning */
    pasta__note_counting_only(pasta__find_kernel(l->fn),
                              "into a CUDA graph (stream capture)");
  pasta__state_unlock();
  return err;
}

/* Whether the vendor may refuse launch `l` of variant `v` (`capped`: the
 * capped copy) where it would run the program's own kernel: a copy missing
 * from the device code (a mode's copy; the plain copy until it first
 * ran), or too large in registers for the block (a block larger than the
 * counting kernel's largest, `fit`, or than BLOCK_ALWAYS_FITS where that
 * is unknown) or for the cooperative grid or the cluster (any cluster
 * launch: which the GPU refuses is not foreseen). PASTA then reads its refusal
 * back (pasta__clear_own_error), so only those launches ask whether the
 * program has an error pending: a counting launch of a block the counting
 * kernel takes asks the vendor nothing more. */
static int may_be_refused(const struct kernel *k, const struct launch *l,
                          enum variant v, int capped,
                          const struct capped_fit *fit) {
  if (v == RUN_PLAIN)
    return k->plain_started == 0;
  if (v != RUN_COUNTING || capped || l->cooperative || l->cluster)
    return 1;
  uint32_t block[3];
  unpack_dims(l->block_xy, l->block_z, block);
  uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
  if (fit->counting_max > 0)
    return threads > (uint64_t)fit->counting_max;
  return threads > BLOCK_ALWAYS_FITS;
}

/* Why a divergence-mode launch of k (as it was when launched: `view`) that
 * was `chosen` (pasta__choose_variant) ran another copy than a divergence
 * copy: `missed` is RUN_DIV where no divergence copy took its block. */
static enum div_unmeasured div_unmeasured_why(const struct kernel *view,
                                              int driver_handle,
                                              enum variant chosen,
                                              enum variant missed) {
  if (driver_handle)
    return DIV_UNMEASURED_div_by_driver_handle;
  if (missed == RUN_DIV)
    return DIV_UNMEASURED_div_by_block;
  if (chosen == RUN_TRACE)
    return DIV_UNMEASURED_div_by_trace;
  if (chosen == RUN_WS)
    return DIV_UNMEASURED_div_by_working_set;
  /* The divergence copy refused now (retry_original), or given up at an
   * earlier refusal; else the launch was outside the window or not
   * sampled, and the kernel has no plain copy. */
  if (chosen == RUN_DIV || !view->div)
    return DIV_UNMEASURED_div_by_refusal;
  return DIV_UNMEASURED_div_by_window;
}

/* Whether this is kernel `index`'s first launch of its capped copy (then
 * marked). Takes the lock. */
static int first_capped_launch(uint32_t index) {
  pasta__state_lock();
  struct kernel *k = &pasta__st.kernels[index];
  int first = !k->capped_resources_asked;
  k->capped_resources_asked = 1;
  pasta__state_unlock();
  return first;
}

__attribute__((noinline)) int pasta__launch(const struct launch *call,
                                            pasta__launch_fn real, ops_t *ops) {
  pasta__need_options();
  uint64_t t0 = pasta__trace_now();
  struct launch this_launch = *call;
  struct launch *l = &this_launch;
  l->capture = pasta__capture_state(ops, l->stream);
  l->device = pasta__vendor_device(ops);
  if (l->capture == CAPTURE_INTO_GRAPH)
    return launch_into_graph(l, real, ops);
  pasta__state_lock();
  pasta__note_ops(ops);
  /* A driver handle launches the kernel it was taken from, counting:
   * recorded under that kernel. Its plain and capped copies' handles, where
   * the program's call gave them (driver_handles.c), are what a launch it
   * refuses falls back to. */
  const struct driver_handle *dh = pasta__driver_handle(l->fn);
  struct kernel *k = dh ? &pasta__st.kernels[dh->kernel] : NULL;
  int driver_handle = k != NULL;
  const void *launch_plain = dh ? dh->plain : NULL;
  const void *launch_capped = dh ? dh->capped : NULL;
  if (!k)
    k = pasta__kernel_of(l->fn);
  uint64_t id = pasta__st.next_launch++;
  l->id = id;
  enum variant v =
      !k || driver_handle ? RUN_COUNTING : pasta__choose_variant(k, id);
  enum variant chosen = v;
  if (driver_handle)
    pasta__note_counting_only(k, "through a driver API handle "
                                 "(cuLaunchKernel, cuLaunchCooperativeKernel)");
  uint32_t path = k ? pasta__cached_path(l->ra_slot) : UINT32_MAX;
  uint32_t index = k ? (uint32_t)(k - pasta__st.kernels) : 0;
  const void *plain = k ? k->plain : NULL;
  if (!driver_handle) {
    launch_plain = plain;
    launch_capped = k ? k->capped : NULL;
  }
  int unset = k && k->num_unset; /* settings made while an error pended */
  /* Its copies' registers and occupancy, once (resources.c): a kernel the
   * pass registered, launched through its host stub. */
  int ask_resources = k && !driver_handle && k->mangled && !k->resources_asked;
  if (ask_resources)
    k->resources_asked = 1;
  struct kernel view;
  if (k)
    view = *k;
  pasta__state_unlock();
  if (!k) /* out of memory: no bookkeeping at all */
    return real(l->fn, l->grid_xy, l->grid_z, l->block_xy, l->block_z, l->args,
                l->shmem, l->stream);
  if (path == UINT32_MAX) /* not in the launch cache (callpath.c) */
    path = pasta__uncached_path(l->ra_slot, 4);
  if (unset)
    pasta__make_unset(ops, index);

  int err, tracked = 0;
  struct div_wave wave;
  const void *div = v == RUN_DIV ? div_copy_for(ops, &view, l, &wave) : NULL;
  /* A mode's copy whose registers the block cannot have: another copy of
   * the mode that takes it, else the counting copy, for this launch only. */
  struct mode_fit mode_fit = view.mode_fit;
  enum variant missed = RUN_COUNTING;
  if (v == RUN_WS || v == RUN_DIV) {
    uint32_t b[3];
    unpack_dims(l->block_xy, l->block_z, b);
    uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
    const void *fits =
        v == RUN_WS ? ws_copy_for(ops, &view, threads, &mode_fit)
                    : div_copy_that_fits(ops, &view, div, threads, &mode_fit);
    if (!fits) {
      missed = v;
      v = RUN_COUNTING;
    } else if (v == RUN_WS) {
      view.ws = fits;
    } else {
      div = fits;
    }
  }
  struct capped_fit fit = view.capped_fit;
  int capped =
      v == RUN_COUNTING && launch_capped && runs_capped(ops, &view, l, &fit);
  struct residency res;
  /* Only the counting kernel gives way (resident_choice): a mode's copy
   * and the capped copy run as chosen. */
  int persistent = view.occupancy_asked && plain && v == RUN_COUNTING &&
                   !capped && (!driver_handle || launch_capped);
  if (persistent && resident_choice(ops, &view, l, &res, &fit))
    capped = 1;
  int pending = !driver_handle && may_be_refused(&view, l, v, capped, &fit) &&
                pasta__error_pending(ops);
  l->keep_last_error = pending || driver_handle;
  int foreseen = 0; /* a refusal foreseen: the plain copy runs */
  if (pending && v == RUN_COUNTING && launch_plain)
    foreseen =
        foresee_refusal(ops, &view, l, launch_capped != NULL, &fit, &capped);
  if (pasta__trace_on())
    pasta__record_trace_launch(&view, l, t0);
  if (foreseen)
    err = retry_plain(ops, real, l, index, launch_plain, foreseen, &v);
  else if (v == RUN_WS)
    err = pasta__run_ws(ops, real, &view, index, l, id, &tracked);
  else if (v == RUN_TRACE)
    err = pasta__run_trace(ops, real, &view, index, l, &tracked);
  else
    err = pasta__run_timed(ops, real,
                           v == RUN_PLAIN ? plain
                           : v == RUN_DIV ? div
                           : capped       ? launch_capped
                                          : l->fn,
                           l, l->args, index, v == RUN_PLAIN);
  /* A cooperative grid or a cluster too large for the capped copy is too
   * large for the counting kernel, whose registers took fewer threads
   * still. */
  int capped_refused = capped && (err == COOPERATIVE_LAUNCH_TOO_LARGE ||
                                  cluster_refusal(ops, err));
  if (foreseen) {
    /* the plain copy ran, or was refused: the program's own error */
  } else if (err && capped && !capped_refused) {
    err = retry_uncapped(ops, real, l, index, &fit);
    capped = 0;
  }
  if (err && v != RUN_COUNTING) {
    /* A working-set, trace or divergence copy too large for the block
     * falls back to the counting copy that takes it. */
    capped = !driver_handle && runs_capped(ops, &view, l, &fit);
    err = retry_original(ops, real, l, index, capped ? view.capped : l->fn, err,
                         &v);
    capped = capped && !err; /* it ran */
  }
  if ((err == COOPERATIVE_LAUNCH_TOO_LARGE || cluster_refusal(ops, err)) &&
      !foreseen && v != RUN_PLAIN) {
    err = retry_capped_for_grid(ops, real, &view, l, index, launch_capped, &fit,
                                &capped, err);
    if (!err)
      v = RUN_COUNTING; /* whichever copy was refused, the capped one ran */
  }
  if ((err == LAUNCH_OUT_OF_RESOURCES || err == COOPERATIVE_LAUNCH_TOO_LARGE ||
       cluster_refusal(ops, err)) &&
      launch_plain && !foreseen && v != RUN_PLAIN) {
    /* no counting copy takes the block, the grid at once or the cluster;
     * where the launch itself was wrong, the plain copy is refused too and
     * the program gets the error it would get without PASTA */
    err = retry_plain(ops, real, l, index, launch_plain, err, &v);
    capped = 0;
  }

  uint32_t grid[3], block[3];
  unpack_dims(l->grid_xy, l->grid_z, grid);
  unpack_dims(l->block_xy, l->block_z, block);
  int device = l->device;
  uint64_t bit = UINT64_C(1) << device;
  if (!err)
    pasta__after_launch(ops, device);
  /* The figures again at the first launch that ran the capped copy: the
   * profile then says what that copy changed, at the block it ran. */
  int ask_capped = capped && !err && first_capped_launch(index);
  pasta_activity_resources resources;
  if ((ask_resources || ask_capped) && !err)
    pasta__read_resources(ops, device, view.handle, plain,
                          capped ? view.capped : NULL,
                          block[0] * block[1] * block[2], l->shmem, &resources);
  pasta__state_lock();
  k = &pasta__st.kernels[index]; /* the array may have moved */
  if ((ask_resources || ask_capped) && !err)
    k->stats.resources = resources;
  else if (ask_resources)
    k->resources_asked = 0; /* asked again at its next launch */
  if (div)
    k->div_wave = wave;
  k->mode_fit = mode_fit;
  if (missed != RUN_COUNTING && !err)
    say_mode_copy_missed(k, missed, (uint64_t)block[0] * block[1] * block[2]);
  if (persistent)
    k->residency = res;
  k->capped_fit = fit;
  int first_here = !err && !(k->ran_on & bit);
  if (first_here)
    k->ran_on |= bit;
  const void *module = k->module;
  pasta__st.last_kernel = index;
  if (pasta__is_fault(err)) {
    struct pending self = {0};
    self.launch = id;
    self.nth = k->stats.launches + 1;
    self.kernel = index;
    pasta__note_fault(ops, err, &self, 1);
  }
  ++k->stats.launches;
  if (!err && v == RUN_DIV) {
    ++k->div_launches;
    ++k->stats.div_measured;
  } else if (!err && v != RUN_PLAIN) {
    pasta__count_div_unmeasured(
        k, div_unmeasured_why(&view, driver_handle, chosen, missed),
        (uint64_t)block[0] * block[1] * block[2]);
  }
  if (err)
    ++k->stats.failed;
  else if (v != RUN_PLAIN)
    ++k->stats.counted;
  pasta__count_shape(k, grid, block, l->shmem);
  pasta__count_path(k, path);
  pasta_launch_event e = {id,       k->mangled, l->fn,  {0}, {0},
                          l->shmem, l->stream,  (int)v, err};
  pasta__state_unlock();
  memcpy(e.grid, grid, sizeof grid);
  memcpy(e.block, block, sizeof block);
  if (first_here)
    pasta__module_launched(module, device);
  pasta__notify_launch(&e);
  pasta__trace_api("launch", t0, pasta__trace_now(), id + 1);
  return err;
}

PASTA_ABI int __pasta_launch_kernel(const void *fn, uint64_t grid_xy,
                                    uint32_t grid_z, uint64_t block_xy,
                                    uint32_t block_z, void **args,
                                    uint64_t shmem, void *stream,
                                    pasta__launch_fn real, ops_t *ops) {
  struct launch l = {fn,   grid_xy, grid_z, block_xy,    block_z,
                     args, shmem,   stream, PASTA__SITE, PASTA__SITE_SLOT,
                     0,    0,       0,      0,           0,
                     0};
  return pasta__launch(&l, real, ops);
}

/* cudaLaunchCooperativeKernel: the same, marked cooperative (a grid too
 * large for a copy's registers is refused, not queued). */
PASTA_ABI int __pasta_launch_cooperative_kernel(
    const void *fn, uint64_t grid_xy, uint32_t grid_z, uint64_t block_xy,
    uint32_t block_z, void **args, uint64_t shmem, void *stream,
    pasta__launch_fn real, ops_t *ops) {
  struct launch l = {fn,   grid_xy, grid_z, block_xy,    block_z,
                     args, shmem,   stream, PASTA__SITE, PASTA__SITE_SLOT,
                     0,    0,       0,      1,           0,
                     0};
  return pasta__launch(&l, real, ops);
}

/* hipLaunchCooperativeKernel: the shared-memory size is an unsigned int;
 * `real` is called through an adapter that narrows it back. */
typedef int (*pasta__launch32_fn)(const void *, uint64_t, uint32_t, uint64_t,
                                  uint32_t, void **, uint32_t, void *);

static __thread pasta__launch32_fn shm32_real;

static int launch_shm32_adapter(const void *handle, uint64_t gxy, uint32_t gz,
                                uint64_t bxy, uint32_t bz, void **args,
                                uint64_t shmem, void *stream) {
  return shm32_real(handle, gxy, gz, bxy, bz, args, (uint32_t)shmem, stream);
}

PASTA_ABI int __pasta_launch_kernel_shm32(const void *fn, uint64_t grid_xy,
                                          uint32_t grid_z, uint64_t block_xy,
                                          uint32_t block_z, void **args,
                                          uint32_t shmem, void *stream,
                                          pasta__launch32_fn real, ops_t *ops) {
  struct launch l = {fn,   grid_xy, grid_z, block_xy,    block_z,
                     args, shmem,   stream, PASTA__SITE, PASTA__SITE_SLOT,
                     0,    0,       0,      1,           0,
                     0};
  pasta__launch32_fn saved = shm32_real;
  shm32_real = real;
  int err = pasta__launch(&l, launch_shm32_adapter, ops);
  shm32_real = saved;
  return err;
}

/* hipModuleLaunchKernel: a kernel loaded from a code object at run time.
 * The plugin never saw it, so it has no copies and no counters: the launch
 * is recorded (shape, time, call path) under an unnamed kernel. */

static __thread pasta__module_launch_fn module_real;

static __thread void **module_extra;

static int module_launch_adapter(const void *handle, uint64_t gxy, uint32_t gz,
                                 uint64_t bxy, uint32_t bz, void **args,
                                 uint64_t shmem, void *stream) {
  return module_real(handle, (uint32_t)gxy, (uint32_t)(gxy >> 32), gz,
                     (uint32_t)bxy, (uint32_t)(bxy >> 32), bz, (uint32_t)shmem,
                     stream, args, module_extra);
}

/* The vendor functions for a driver API call from code that does not call
 * the CUDA runtime (its table is NULL: the program may not link cudart):
 * another module's, or none. */
ops_t *pasta__ops_or_known(ops_t *ops) {
  if (ops)
    return ops;
  pasta__state_lock();
  ops = pasta__st.ops;
  pasta__state_unlock();
  return ops;
}

/* A driver-API launch (cuLaunchKernel's grid and block, one value a
 * dimension) as the runtime takes it. The site and its stack slot are the
 * ABI entry's own (PASTA__SITE there, not here). */
struct launch pasta__driver_launch(const void *f, uint32_t gx, uint32_t gy,
                                   uint32_t gz, uint32_t bx, uint32_t by,
                                   uint32_t bz, uint32_t shmem, void *stream,
                                   void **params, const void *site,
                                   void *const *ra_slot, int cooperative) {
  struct launch l = {f,     gx | (uint64_t)gy << 32,
                     gz,    bx | (uint64_t)by << 32,
                     bz,    params,
                     shmem, stream,
                     site,  ra_slot,
                     0,     0,
                     0,     cooperative,
                     0,     0};
  return l;
}

PASTA_ABI int __pasta_module_launch_kernel(
    const void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
    uint32_t by, uint32_t bz, uint32_t shmem, void *stream, void **params,
    void **extra, pasta__module_launch_fn real, ops_t *ops) {
  ops = pasta__ops_or_known(ops);
  if (!ops) /* a program of the driver API only: nothing to time with */
    return real(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
  struct launch l =
      pasta__driver_launch(f, gx, gy, gz, bx, by, bz, shmem, stream, params,
                           PASTA__SITE, PASTA__SITE_SLOT, 0);
  pasta__module_launch_fn saved_real = module_real;
  void **saved_extra = module_extra;
  module_real = real;
  module_extra = extra;
  int err = pasta__launch(&l, module_launch_adapter, ops);
  module_real = saved_real;
  module_extra = saved_extra;
  return err;
}

/* cuLaunchCooperativeKernel(f, grid x/y/z, block x/y/z, shmem, stream,
 * params): cuLaunchKernel's parameters but `extra`, marked cooperative. A
 * handle taken from a registered kernel falls back as
 * cudaLaunchCooperativeKernel does: its capped copy, else its plain copy
 * (their handles: driver_handles.c). */
typedef int (*pasta__cooperative_driver_fn)(const void *, uint32_t, uint32_t,
                                            uint32_t, uint32_t, uint32_t,
                                            uint32_t, uint32_t, void *,
                                            void **);

static __thread pasta__cooperative_driver_fn cooperative_driver_real;

static int cooperative_driver_adapter(const void *handle, uint64_t gxy,
                                      uint32_t gz, uint64_t bxy, uint32_t bz,
                                      void **args, uint64_t shmem,
                                      void *stream) {
  return cooperative_driver_real(handle, (uint32_t)gxy, (uint32_t)(gxy >> 32),
                                 gz, (uint32_t)bxy, (uint32_t)(bxy >> 32), bz,
                                 (uint32_t)shmem, stream, args);
}

PASTA_ABI int __pasta_launch_cooperative_kernel_driver(
    const void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
    uint32_t by, uint32_t bz, uint32_t shmem, void *stream, void **params,
    pasta__cooperative_driver_fn real, ops_t *ops) {
  ops = pasta__ops_or_known(ops);
  if (!ops) /* a program of the driver API only: nothing to time with */
    return real(f, gx, gy, gz, bx, by, bz, shmem, stream, params);
  struct launch l =
      pasta__driver_launch(f, gx, gy, gz, bx, by, bz, shmem, stream, params,
                           PASTA__SITE, PASTA__SITE_SLOT, 1);
  pasta__cooperative_driver_fn saved = cooperative_driver_real;
  cooperative_driver_real = real;
  int err = pasta__launch(&l, cooperative_driver_adapter, ops);
  cooperative_driver_real = saved;
  return err;
}
