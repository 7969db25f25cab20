// Structure: what the driver API and the launch settings of a program see
// of its kernels under PASTA (issue [overhead-3]).
// The program takes
// a CUfunction of its kernel (cudaGetFuncBySymbol), sizes a cooperative grid
// with the driver's occupancy calls and launches it with
// cuLaunchCooperativeKernel, sets cache configurations with both APIs, and
// reads its error state after errors of its own across PASTA's calls. Each
// answer must be the plain copy's (the kernel nvcc or clang would have
// built: stdout prints the shapes and must equal the plain build's), each
// launch must run, and the error state must read as the plain build's.
//
// drv_fold(in, tmp, out, n): occupancy.cu's fold_pairs (512 threads,
//   per-bit shared atomics, grid.sync() between a fold and a pairing phase):
//   plain 43 registers (2 blocks of 512 an SM), counting 79 (1 block),
//   capped copy 64 (2 blocks). Launched three times at the plain copy's
//   occupancy x SMs, cooperatively (and once wrongly, below): the counting
//   kernel cannot hold the grid, its capped copy can: all three counted by the
//   capped copy.
//   1. cudaLaunchCooperativeKernel after a failed allocation (cudaMalloc of
//      2^62 bytes) and after cudaFuncSetCacheConfig and cudaFuncSetAttribute
//      (carveout) on the kernel; the error state is peeked after the
//      failure and after the settings and read after the launch, and
//      printed: it must be the plain build's (the runner compares stdout).
//   2. The same after a failed launch of drv_fold (<<<1, 2048>>>: too many
//      threads, cudaErrorInvalidConfiguration; a launch of the kernel,
//      failed, no device counts).
//   3. cuLaunchCooperativeKernel on the CUfunction, its grid from
//      cuOccupancyMaxActiveBlocksPerMultiprocessor (which must equal the
//      runtime's answer), after cuFuncSetCacheConfig; cuFuncGetAttribute's
//      register count must equal cudaFuncGetAttributes'.
//   n = 65,536, in[i] = i: per launch (occupancy.cu's derivation)
//     load_bytes.global = 786,432, store_bytes.global = 524,288,
//     atomics.shared = 524,288, atomic_bytes.shared = 2,097,152;
//   three launches ran: 2,359,296 / 1,572,864 / 1,572,864 / 6,291,456.
//
// drv_sum(in, partial, out, n): occupancy.cu's block_sum (plain 26
//   registers: 2 blocks of 1,024 an SM; counting and capped copies 1),
//   block from cuOccupancyMaxPotentialBlockSize, grid from the driver's
//   blocks per SM x SMs, cuLaunchCooperativeKernel: no counting copy holds
//   the grid, the plain copy runs (its handle), uncounted, with PASTA's
//   warning; the sum must be right.
//
// clang-format off
// EXPECT: kernel _Z8drv_foldPKjPjS1_i launches=3 load_bytes.global=2359296 store_bytes.global=1572864 atomics.shared=1572864 atomic_bytes.shared=6291456 flops.f32=0
// EXPECT: launch _Z8drv_foldPKjPjS1_i launches=4 counted=3 failed=1
// EXPECT: launch _Z7drv_sumPKjPjS1_i launches=1 counted=0 failed=0
// EXPECT: allow-stderr counting copies of kernel '_Z7drv_sumPKjPjS1_i' need more registers than a cooperative grid
// EXPECT: stderr counting copies of kernel '_Z7drv_sumPKjPjS1_i' need more registers than a cooperative grid of [0-9]+ blocks of 1024 threads
// clang-format on
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int Bits = 32, N = 1 << 16, FoldBlock = 512;

// The host's fold of one element, as the fold phase computes it.
static uint32_t fold_bits(uint32_t x) {
  uint32_t acc[Bits];
  for (int k = 0; k < Bits; ++k)
    acc[k] = k;
  for (int k = 0; k < Bits; ++k)
    if (x & (1u << k))
      acc[k] = acc[k] * 3u + (x >> k);
  uint32_t folded = 0;
  for (int k = 0; k < Bits; ++k)
    folded ^= acc[k] << (k % 7);
  return folded;
}

__global__ void drv_fold(const uint32_t *in, uint32_t *tmp, uint32_t *out,
                         int n) {
  __shared__ uint32_t hist[Bits * 32];
  cg::grid_group grid = cg::this_grid();
  const int stride = gridDim.x * blockDim.x;
  const int lane = threadIdx.x % 32;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint32_t x = in[i], acc[Bits];
#pragma unroll
    for (int k = 0; k < Bits; ++k)
      acc[k] = k;
#pragma unroll
    for (int k = 0; k < Bits; ++k)
      if (x & (1u << k)) {
        atomicAdd(&hist[k * 32 + lane], 1u);
        acc[k] = acc[k] * 3u + (x >> k);
      }
    uint32_t folded = 0;
#pragma unroll
    for (int k = 0; k < Bits; ++k)
      folded ^= acc[k] << (k % 7);
    tmp[i] = folded;
  }
  grid.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = tmp[i] ^ tmp[(i + 1) % n];
}

__global__ void drv_sum(const uint32_t *in, uint32_t *partial, uint32_t *out,
                        int n) {
  __shared__ uint32_t bit_counts[8], block_total;
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    block_total = 0;
  __syncthreads();
  uint32_t s = 0, acc[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    uint32_t x = in[i];
    s += x;
#pragma unroll
    for (int k = 0; k < 8; ++k)
      if (x & (1u << k)) {
        atomicAdd(&bit_counts[k], 1u);
        acc[k] = acc[k] * 3u + (x >> k);
      }
  }
  uint32_t folded = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k)
    folded ^= acc[k];
  if (folded == 0xdeadbeefu) /* never: keeps the folds */
    s += bit_counts[0];
  atomicAdd(&block_total, s);
  __syncthreads();
  if (threadIdx.x == 0)
    partial[blockIdx.x] = block_total;
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    uint32_t total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    *out = total;
  }
}

static bool check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    printf("%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

static bool check_cu(CUresult err, const char *what) {
  if (err != CUDA_SUCCESS)
    printf("%s: driver error %d\n", what, (int)err);
  return err == CUDA_SUCCESS;
}

static bool fold_right(const uint32_t *d_out, const std::vector<uint32_t> &in) {
  std::vector<uint32_t> got(N);
  if (!check(cudaMemcpy(got.data(), d_out, N * sizeof(uint32_t),
                        cudaMemcpyDeviceToHost),
             "copy"))
    return false;
  for (int i = 0; i < N; ++i)
    if (got[i] != (fold_bits(in[i]) ^ fold_bits(in[(i + 1) % N])))
      return false;
  return true;
}

// The program's settings and a cooperative launch after an error of its own
// (`failing`: a failed allocation, or a launch of 2,048-thread blocks),
// the error state read as it goes (peeked after the failure and after the
// settings, read after the launch) and printed: the runner compares it
// with the plain build's, so PASTA's own calls must leave it as the
// runtime leaves it without them.
static bool settings_and_launch(const char *failing, uint32_t *d_in,
                                uint32_t *d_tmp, uint32_t *d_out,
                                const std::vector<uint32_t> &in, int blocks) {
  cudaError_t failed = cudaPeekAtLastError();
  bool ok =
      check(cudaFuncSetCacheConfig(drv_fold, cudaFuncCachePreferShared),
            "cudaFuncSetCacheConfig") &&
      check(cudaFuncSetAttribute(
                drv_fold, cudaFuncAttributePreferredSharedMemoryCarveout, 50),
            "cudaFuncSetAttribute");
  cudaError_t after_settings = cudaPeekAtLastError();
  int n = N;
  void *args[] = {&d_in, &d_tmp, &d_out, &n};
  ok = ok && check(cudaLaunchCooperativeKernel((const void *)drv_fold, blocks,
                                               FoldBlock, args, 0, nullptr),
                   "cudaLaunchCooperativeKernel");
  cudaError_t after_launch = cudaGetLastError();
  printf("%s: last error %s, after the settings %s, after the launch %s\n",
         failing, cudaGetErrorName(failed), cudaGetErrorName(after_settings),
         cudaGetErrorName(after_launch));
  return fold_right(d_out, in) && ok;
}

// Launch 1 and 2: drv_fold cooperatively at the plain copy's grid, after a
// failed allocation, then after a failed launch of its own.
static bool run_with_pending_error(uint32_t *d_in, uint32_t *d_tmp,
                                   uint32_t *d_out,
                                   const std::vector<uint32_t> &in, int sms) {
  int per_sm = 0;
  if (!check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, drv_fold,
                                                           FoldBlock, 0),
             "occupancy"))
    return false;
  void *huge = nullptr;
  if (cudaMalloc(&huge, size_t(1) << 62) == cudaSuccess) {
    printf("a 2^62-byte allocation succeeded\n");
    return false;
  }
  bool ok = settings_and_launch("a failed allocation", d_in, d_tmp, d_out, in,
                                per_sm * sms);
  drv_fold<<<1, 2048>>>(d_in, d_tmp, d_out, N); /* too many threads */
  return settings_and_launch("a failed launch", d_in, d_tmp, d_out, in,
                             per_sm * sms) &&
         ok;
}

// Launch 2: the driver API's queries and its cooperative launch.
static bool run_driver_fold(uint32_t *d_in, uint32_t *d_tmp, uint32_t *d_out,
                            const std::vector<uint32_t> &in, int sms) {
  CUfunction f = nullptr;
  int runtime_per_sm = 0, per_sm = 0, regs = 0;
  cudaFuncAttributes attributes;
  if (!check(cudaGetFuncBySymbol(&f, (const void *)drv_fold),
             "cudaGetFuncBySymbol") ||
      !check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                 &runtime_per_sm, drv_fold, FoldBlock, 0),
             "occupancy") ||
      !check_cu(
          cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, FoldBlock, 0),
          "cuOccupancyMaxActiveBlocksPerMultiprocessor") ||
      !check(cudaFuncGetAttributes(&attributes, drv_fold),
             "cudaFuncGetAttributes") ||
      !check_cu(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f),
                "cuFuncGetAttribute") ||
      !check_cu(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1),
                "cuFuncSetCacheConfig"))
    return false;
  int blocks = per_sm * sms, n = N;
  printf("drv_fold: %d blocks of %d threads (%d per SM)\n", blocks, FoldBlock,
         per_sm);
  bool ok = true;
  if (per_sm != runtime_per_sm || regs != attributes.numRegs) {
    printf("the driver answers for another copy: %d blocks per SM (runtime "
           "%d), %d registers (runtime %d)\n",
           per_sm, runtime_per_sm, regs, attributes.numRegs);
    ok = false;
  }
  void *args[] = {&d_in, &d_tmp, &d_out, &n};
  ok = check_cu(cuLaunchCooperativeKernel(f, blocks, 1, 1, FoldBlock, 1, 1, 0,
                                          nullptr, args),
                "cuLaunchCooperativeKernel") &&
       ok;
  return fold_right(d_out, in) && ok;
}

// drv_sum, its block and grid from the driver's occupancy calls.
static bool run_driver_sum(uint32_t *d_in, uint32_t *d_partial, uint32_t *d_out,
                           uint64_t want, int sms) {
  CUfunction f = nullptr;
  int min_grid = 0, threads = 0, per_sm = 0;
  if (!check(cudaGetFuncBySymbol(&f, (const void *)drv_sum),
             "cudaGetFuncBySymbol") ||
      !check_cu(cuOccupancyMaxPotentialBlockSize(&min_grid, &threads, f,
                                                 nullptr, 0, 0),
                "cuOccupancyMaxPotentialBlockSize") ||
      !check_cu(
          cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, threads, 0),
          "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    return false;
  int blocks = per_sm * sms, n = N;
  printf("drv_sum: %d blocks of %d threads (%d per SM)\n", blocks, threads,
         per_sm);
  void *args[] = {&d_in, &d_partial, &d_out, &n};
  uint32_t got = 0;
  bool ok = check_cu(cuLaunchCooperativeKernel(f, blocks, 1, 1, threads, 1, 1,
                                               0, nullptr, args),
                     "cuLaunchCooperativeKernel") &&
            check(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost),
                  "copy");
  return ok && got == (uint32_t)want;
}

int main() {
  std::vector<uint32_t> in(N);
  uint64_t sum = 0;
  for (int i = 0; i < N; ++i) {
    in[i] = (uint32_t)i;
    sum += in[i];
  }
  int device = 0, sms = 0, cooperative = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device);
  if (!cooperative) {
    printf("FAILED: no cooperative launch on this GPU\n");
    return 1;
  }
  uint32_t *d_in = nullptr, *d_tmp = nullptr, *d_out = nullptr;
  if (cudaMalloc(&d_in, N * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_tmp, N * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_out, N * sizeof(uint32_t)) != cudaSuccess) {
    printf("FAILED: no device memory\n");
    return 1;
  }
  cudaMemcpy(d_in, in.data(), N * sizeof(uint32_t), cudaMemcpyHostToDevice);
  bool ok = run_with_pending_error(d_in, d_tmp, d_out, in, sms);
  ok = run_driver_fold(d_in, d_tmp, d_out, in, sms) && ok;
  ok = run_driver_sum(d_in, d_tmp, d_out, sum, sms) && ok;
  cudaFree(d_in);
  cudaFree(d_tmp);
  cudaFree(d_out);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
