/*===- device_rt_trace.inc.c - trace mode ----------------------------------===*
 * Part of device_rt.c, which includes it: one translation unit (and one
 * bitcode) per GPU target. Not compiled on its own.
 *===----------------------------------------------------------------------===*/

/*===- Trace mode: C.A.T.S. scope events ---------------------------------===*
 * The trace copy of a kernel (KernelVariants.cpp) decides once per call
 * whether its warp records, then calls __pasta_trace_event at every scope
 * entry and exit. Only sampled warps pay more than a predicate; in them the
 * first active lane appends one record per scope entry or exit it has not
 * recorded yet (per-thread masks, so a loop entered a million times is
 * recorded once). Records past the buffer's capacity are counted (head keeps
 * growing) and reported as dropped by the host. */

/* Nanoseconds on the device's global clock. */
static uint64_t pasta_device_time_ns(void) {
#if defined(__NVPTX__)
  return __nvvm_read_ptx_sreg_globaltimer();
#elif defined(__AMDGPU__)
  /* The constant 100 MHz clock (s_memrealtime on gfx9, s_sendmsg_rtn on
   * gfx11). */
  return __builtin_readsteadycounter() * 10u;
#else
  return 0;
#endif
}

/* 64-bit: blocks times warps per block passes 2^32 on large grids. */
static uint64_t pasta_linear_warp_id(void) {
  uint32_t thread =
      __gpu_thread_id_x() +
      __gpu_num_threads_x() *
          (__gpu_thread_id_y() + __gpu_num_threads_y() * __gpu_thread_id_z());
  return (uint64_t)pasta_linear_block_id() * pasta_block_warps() +
         thread / __gpu_num_lanes();
}

PASTA_INLINE uint32_t
__pasta_trace_sampled(PASTA_GLOBAL struct pasta_trace_launch *state) {
  uint32_t stride = state->warp_stride;
  return stride != 0 && pasta_linear_warp_id() % stride == 0;
}

PASTA_INLINE void
__pasta_trace_event(PASTA_GLOBAL struct pasta_trace_launch *state,
                    uint32_t sampled, uint32_t scope, uint32_t trips,
                    PASTA_PRIVATE uint64_t *seen, uint64_t bit) {
  if (!sampled)
    return;
  uint64_t mask = *seen;
  *seen = mask | bit;
  if ((mask & bit) || !__gpu_is_first_in_lane(__gpu_lane_mask()))
    return;
  uint64_t slot = __scoped_atomic_fetch_add(
      &state->head, (uint64_t)1, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  if (slot >= state->capacity)
    return; /* dropped: the host reads head - capacity */
  PASTA_GLOBAL struct pasta_trace_record *r =
      (PASTA_GLOBAL struct pasta_trace_record *)(uintptr_t)state->records +
      slot;
  r->scope = scope;
  r->warp = (uint32_t)pasta_linear_warp_id();
  r->trips = trips;
  r->reserved = 0;
  r->time = pasta_device_time_ns();
}
