// Structure: cooperative kernels whose launches the program sizes by its
// kernels' occupancy, as cuda-samples' conjugateGradientMultiBlockCG and
// reductionMultiBlockCG do (issue [overhead-3]).
// PASTA's counting
// copy of a kernel has more registers than the plain one, so it fits fewer
// blocks on an SM; the occupancy calls must answer for the plain copy, so
// that the program launches the shape it launches without PASTA (its
// stdout prints the shapes, and must equal the plain build's), and the
// cooperative launch must still run.
//
// fold_pairs(in, tmp, out, n): blocks of 512 threads (fixed), the grid
//   = cudaOccupancyMaxActiveBlocksPerMultiprocessor(512) x SMs, launched
//   cooperatively. Phase 1: each i < n (grid-stride) reads x = in[i] and,
//   for each bit k set in x, adds 1 to a shared histogram word (a shared
//   atomic) and folds x >> k into accumulator k, and stores the fold at
//   tmp[i]; grid.sync() (inline PTX on sm_90: not counted); phase 2:
//   out[i] = tmp[i] ^ tmp[(i + 1) % n]. ptxas (sm_90): plain 43 registers
//   (2 blocks of 512 an SM), counting 79 (1 block), capped copy 64 (2
//   blocks). Launched twice: cudaLaunchCooperativeKernel, then
//   cudaLaunchKernelEx with the cooperative attribute: the counting kernel
//   cannot hold the grid at once, its capped copy can: both launches run
//   the capped copy, counted. n = 65,536 = 2^16, in[i] = i: each bit
//   k < 16 is set in n / 2 = 32,768 elements, bits 16-31 in none. Per
//   launch:
//     load_bytes.global = 4 n (in) + 8 n (tmp) = 786,432
//     store_bytes.global = 4 n (tmp) + 4 n (out) = 524,288
//     atomics.shared = 16 x 32,768 = 524,288, atomic_bytes.shared = 4 x that
//   Two launches: 1,572,864 / 1,048,576 / 1,048,576 / 4,194,304; no
//   floating point.
//
// block_sum(in, partial, out, n): block size and grid from
//   cudaOccupancyMaxPotentialBlockSize and the active blocks per SM (plain:
//   26 registers, 1,024 threads, 2 blocks an SM), launched
//   cooperatively: grid-stride sums (and 8 per-bit branches, each a shared
//   atomic), a block's total by a shared atomic, grid.sync(), block 0 adds
//   the partial sums. Its counting copies (counting 38 registers, capped 44)
//   hold one block of 1,024 an SM: the grid is too large for any of them,
//   the plain copy runs, uncounted, with PASTA's warning; the result and the
//   shape are the plain program's.
//
// fold_spin(in, tmp, out, n, barrier): fold_pairs' two phases, launched
//   NON-cooperatively (<<<>>>) with the grid = the occupancy call's blocks
//   per SM (512 threads) x SMs, its blocks synced by hand, as older "GPU
//   sync" codes do: thread 0 of each block adds 1 to a global counter and
//   spins until it reaches gridDim.x (issue 44).
//   Every block
//   must be resident at once: a copy that holds fewer blocks than the
//   plain one would hang. The barrier is inline PTX (red.release,
//   ld.acquire, %globaltimer: not counted), and the spin gives up after
//   5 s, marks the barrier timed out and lets the program print FAILED and
//   exit 1 instead of hanging. Under PASTA the program asked the
//   occupancy API about it, so the launch runs a copy that holds the grid:
//   the capped copy (2 blocks an SM, like fold_pairs'), counted. Counts
//   are one launch of fold_pairs': 786,432 / 524,288 / 524,288 /
//   2,097,152.
//
// clang-format off
// EXPECT: kernel _Z10fold_pairsPKjPjS1_i launches=2 load_bytes.global=1572864 store_bytes.global=1048576 atomics.shared=1048576 atomic_bytes.shared=4194304 flops.f32=0
// EXPECT: launch _Z10fold_pairsPKjPjS1_i launches=2 counted=2 failed=0 resources.block_threads=512 resources.capped.registers<=64
// EXPECT: kernel _Z9fold_spinPKjPjS1_iS1_ launches=1 load_bytes.global=786432 store_bytes.global=524288 atomics.shared=524288 atomic_bytes.shared=2097152 flops.f32=0
// EXPECT: launch _Z9fold_spinPKjPjS1_iS1_ launches=1 counted=1 failed=0 resources.block_threads=512 resources.capped.registers<=64
// EXPECT: launch _Z9block_sumPKjPjS1_i launches=1 counted=0 failed=0
// EXPECT: allow-stderr counting copies of kernel '_Z9block_sumPKjPjS1_i' need more registers than a cooperative grid
// EXPECT: stderr counting copies of kernel '_Z9block_sumPKjPjS1_i' need more registers than a cooperative grid of [0-9]+ blocks of 1024 threads
// clang-format on
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int Bits = 32, N = 1 << 16, FoldBlock = 512;

// The host's fold of one element, as phase 1 computes it.
static uint32_t fold_bits(uint32_t x) {
  uint32_t acc[Bits];
#pragma unroll
  for (int k = 0; k < Bits; ++k)
    acc[k] = k;
#pragma unroll
  for (int k = 0; k < Bits; ++k)
    if (x & (1u << k))
      acc[k] = acc[k] * 3u + (x >> k);
  uint32_t folded = 0;
#pragma unroll
  for (int k = 0; k < Bits; ++k)
    folded ^= acc[k] << (k % 7);
  return folded;
}

// Phase 1's per-bit branches each add to a shared histogram (lane by lane,
// as regcap's kernel does): ptxas cannot turn them into selects, and the
// counting copy's counters for them raise its registers.
// Phase 1 of fold_pairs and fold_spin, inlined into each (the kernels'
// counts are the same as with the loop written in each).
__device__ __forceinline__ void fold_phase(const uint32_t *in, uint32_t *tmp,
                                           int n, uint32_t *hist) {
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
}

// Phase 2: each element with its neighbour, once every block's phase 1 is
// done.
__device__ __forceinline__ void pair_phase(const uint32_t *tmp, uint32_t *out,
                                           int n) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = tmp[i] ^ tmp[(i + 1) % n];
}

__global__ void fold_pairs(const uint32_t *in, uint32_t *tmp, uint32_t *out,
                           int n) {
  __shared__ uint32_t hist[Bits * 32];
  cg::grid_group grid = cg::this_grid();
  fold_phase(in, tmp, n, hist);
  grid.sync();
  pair_phase(tmp, out, n);
}

// The hand-made grid barrier's parts, inline PTX (not counted). barrier[0]
// counts the blocks arrived, barrier[1] is set when a spin gave up.
constexpr unsigned long long SpinTimeoutNs = 5000000000ull;
__device__ __forceinline__ void arrive(unsigned *count) {
  asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(count)
               : "memory");
}
__device__ __forceinline__ unsigned load_acquire(const unsigned *p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
               : "=r"(v)
               : "l"(p)
               : "memory");
  return v;
}
__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ void mark_timed_out(unsigned *flag) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], 1;" ::"l"(flag) : "memory");
}

// Waits until every block of the grid arrived, or 5 s passed (then marks
// barrier[1]): the program fails instead of hanging.
__device__ void grid_barrier(unsigned *barrier) {
  __syncthreads();
  if (threadIdx.x == 0) {
    arrive(&barrier[0]);
    unsigned long long start = now_ns();
    while (load_acquire(&barrier[0]) < gridDim.x)
      if (now_ns() - start > SpinTimeoutNs) {
        mark_timed_out(&barrier[1]);
        break;
      }
  }
  __syncthreads();
}

// fold_pairs with the hand-made barrier in place of grid.sync().
__global__ void fold_spin(const uint32_t *in, uint32_t *tmp, uint32_t *out,
                          int n, unsigned *barrier) {
  __shared__ uint32_t hist[Bits * 32];
  fold_phase(in, tmp, n, hist);
  grid_barrier(barrier);
  pair_phase(tmp, out, n);
}

// Per-bit branches too (8), so that its counting copies take more than
// 32 registers; the block's total through a shared atomic (any block size).
__global__ void block_sum(const uint32_t *in, uint32_t *partial, uint32_t *out,
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

// fold_pairs twice, sized by the occupancy the program reads.
static bool run_fold(const uint32_t *d_in, uint32_t *d_tmp, uint32_t *d_out,
                     const std::vector<uint32_t> &in, int sms) {
  int per_sm = 0;
  if (!check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fold_pairs,
                                                           FoldBlock, 0),
             "occupancy"))
    return false;
  int blocks = per_sm * sms, n = N;
  printf("fold_pairs: %d blocks of %d threads (%d per SM)\n", blocks, FoldBlock,
         per_sm);
  void *args[] = {&d_in, &d_tmp, &d_out, &n};
  bool ok = check(cudaLaunchCooperativeKernel((const void *)fold_pairs, blocks,
                                              FoldBlock, args, 0, nullptr),
                  "cudaLaunchCooperativeKernel");
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute cooperative[1];
  cooperative[0].id = cudaLaunchAttributeCooperative;
  cooperative[0].val.cooperative = 1;
  config.gridDim = blocks;
  config.blockDim = FoldBlock;
  config.attrs = cooperative;
  config.numAttrs = 1;
  ok = ok &&
       check(cudaLaunchKernelEx(&config, fold_pairs, d_in, d_tmp, d_out, n),
             "cudaLaunchKernelEx");
  std::vector<uint32_t> got(N);
  ok = ok && check(cudaMemcpy(got.data(), d_out, N * sizeof(uint32_t),
                              cudaMemcpyDeviceToHost),
                   "copy");
  for (int i = 0; ok && i < N; ++i)
    ok = got[i] == (fold_bits(in[i]) ^ fold_bits(in[(i + 1) % N]));
  return ok;
}

// fold_spin once, a plain launch of the grid the occupancy call sized.
static bool run_spin(const uint32_t *d_in, uint32_t *d_tmp, uint32_t *d_out,
                     const std::vector<uint32_t> &in, int sms) {
  int per_sm = 0;
  if (!check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fold_spin,
                                                           FoldBlock, 0),
             "occupancy"))
    return false;
  int blocks = per_sm * sms;
  printf("fold_spin: %d blocks of %d threads (%d per SM)\n", blocks, FoldBlock,
         per_sm);
  unsigned *d_barrier = nullptr, barrier[2] = {0, 0};
  if (!check(cudaMalloc(&d_barrier, sizeof barrier), "barrier") ||
      !check(cudaMemset(d_barrier, 0, sizeof barrier), "barrier"))
    return false;
  fold_spin<<<blocks, FoldBlock>>>(d_in, d_tmp, d_out, N, d_barrier);
  bool ok = check(cudaGetLastError(), "fold_spin") &&
            check(cudaMemcpy(barrier, d_barrier, sizeof barrier,
                             cudaMemcpyDeviceToHost),
                  "barrier copy");
  cudaFree(d_barrier);
  if (ok && barrier[1]) {
    printf("fold_spin: a block's wait at the grid barrier timed out (%u of "
           "%d blocks had arrived by the end)\n",
           barrier[0], blocks);
    return false;
  }
  std::vector<uint32_t> got(N);
  ok = ok && check(cudaMemcpy(got.data(), d_out, N * sizeof(uint32_t),
                              cudaMemcpyDeviceToHost),
                   "copy");
  for (int i = 0; ok && i < N; ++i)
    ok = got[i] == (fold_bits(in[i]) ^ fold_bits(in[(i + 1) % N]));
  return ok;
}

// block_sum, its block and grid from the occupancy calls.
static bool run_sum(const uint32_t *d_in, uint32_t *d_partial, uint32_t *d_out,
                    uint64_t want, int sms) {
  int min_grid = 0, threads = 0, per_sm = 0;
  if (!check(cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, block_sum),
             "block size") ||
      !check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, block_sum,
                                                           threads, 0),
             "occupancy"))
    return false;
  int blocks = per_sm * sms, n = N;
  printf("block_sum: %d blocks of %d threads (%d per SM)\n", blocks, threads,
         per_sm);
  void *args[] = {&d_in, &d_partial, &d_out, &n};
  uint32_t got = 0;
  bool ok = check(cudaLaunchCooperativeKernel((const void *)block_sum, blocks,
                                              threads, args, 0, nullptr),
                  "cudaLaunchCooperativeKernel") &&
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
  bool ok = run_fold(d_in, d_tmp, d_out, in, sms);
  ok = run_sum(d_in, d_tmp, d_out, sum, sms) && ok;
  ok = run_spin(d_in, d_tmp, d_out, in, sms) && ok;
  cudaFree(d_in);
  cudaFree(d_tmp);
  cudaFree(d_out);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
