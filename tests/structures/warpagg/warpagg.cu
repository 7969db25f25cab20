// Structure: warp-level collectives deciding who touches memory (NVIDIA's
// warpAggregatedAtomicsCG and binaryPartitionCG shapes). Cooperative
// groups' coalesced_threads() (the active mask), labeled_partition (the
// lanes of one key: __match_any_sync), cg::reduce and __reduce_add_sync
// (redux.sync) are intrinsics, not memory: only the one lane of a group
// that does the group's atomic or store is counted, in whatever part of
// a warp is active. Every count follows from the inputs by hand.
//
// 1,024 threads, blocks of 128 (8 blocks, 32 warps), in[i] = i for i % 3,
// -i where i % 3 == 0.
//
// filter_positive (n = 1,000: the last warp has 8 lanes inside): each
//   thread inside loads in[i] (1,000 x 4 B = 4,000); the positive ones
//   (i % 3 != 0: 1,000 - 334 = 666) form one coalesced group a warp (every
//   warp, the last included, holds a positive), whose rank-0 lane does one
//   atomicAdd for the group (32 atomics, 128 B), and each positive lane
//   stores its value at the slot it was handed (666 x 4 B = 2,664).
// bucket_max (n = 1,024): each thread loads in[i] (4,096 B) and joins the
//   labeled partition of its key i % 4 (4 groups a warp, 8 lanes each);
//   the group's maximum (cg::reduce, no memory) goes to maxOf[key] by its
//   rank-0 lane: 32 x 4 = 128 atomicMax, 512 B.
// warp_sums (n = 1,024): each thread loads in[i] (4,096 B); lane 0 of
//   each warp stores __reduce_add_sync's sum: 32 stores, 128 B.
// No FLOPs anywhere (integers).
//
// clang-format off
// EXPECT: kernel _Z15filter_positivePKiPiS1_i launches=1 load_bytes.global=4000 store_bytes.global=2664 atomics.global=32 atomic_bytes.global=128 flops.f32=0
// EXPECT: kernel _Z10bucket_maxPKiPi launches=1 load_bytes.global=4096 store_bytes.global=0 atomics.global=128 atomic_bytes.global=512
// EXPECT: kernel _Z9warp_sumsPKiPi launches=1 load_bytes.global=4096 store_bytes.global=128 atomics.global=0
// EXPECT: launch _Z15filter_positivePKiPiS1_i counted=1
// EXPECT: launch _Z10bucket_maxPKiPi counted=1
// EXPECT: launch _Z9warp_sumsPKiPi counted=1
// EXPECT: consistent
// clang-format on
#include <algorithm>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int Threads = 1024;
constexpr int Block = 128;
constexpr int Kept = 1000; // filter_positive's n
constexpr int Buckets = 4;

__global__ void filter_positive(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  if (v <= 0)
    return;
  cg::coalesced_group positive = cg::coalesced_threads();
  int base = 0;
  if (positive.thread_rank() == 0)
    base = atomicAdd(count, int(positive.size()));
  base = positive.shfl(base, 0);
  out[base + positive.thread_rank()] = v;
}

__global__ void bucket_max(const int *in, int *maxOf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int key = i % Buckets;
  cg::thread_block_tile<32> warp =
      cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group same = cg::labeled_partition(warp, key);
  int top = cg::reduce(same, v, cg::greater<int>());
  if (same.thread_rank() == 0)
    atomicMax(&maxOf[key], top);
}

__global__ void warp_sums(const int *in, int *sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = __reduce_add_sync(0xffffffffu, in[i]);
  if (threadIdx.x % 32 == 0)
    sums[i / 32] = sum;
}

static int valueAt(int i) { return i % 3 ? i : -i; }

// What the three kernels must give, from the same inputs on the host.
static int check(const std::vector<int> &in, std::vector<int> out, int count,
                 const std::vector<int> &maxOf, const std::vector<int> &sums) {
  std::vector<int> positive;
  for (int i = 0; i < Kept; ++i)
    if (in[i] > 0)
      positive.push_back(in[i]);
  out.resize(count);
  std::sort(out.begin(), out.end()); // atomics hand out slots in any order
  int wrong = out != positive;
  for (int k = 0; k < Buckets; ++k) {
    int top = in[k];
    for (int i = k; i < Threads; i += Buckets)
      top = std::max(top, in[i]);
    wrong += maxOf[k] != top;
  }
  for (int w = 0; w < Threads / 32; ++w) {
    int sum = 0;
    for (int l = 0; l < 32; ++l)
      sum += in[w * 32 + l];
    wrong += sums[w] != sum;
  }
  return wrong;
}

int main() {
  std::vector<int> in(Threads), out(Threads), maxOf(Buckets, -Threads),
      sums(Threads / 32);
  for (int i = 0; i < Threads; ++i)
    in[i] = valueAt(i);
  int *dIn, *dOut, *dCount, *dMax, *dSums;
  cudaMalloc(&dIn, Threads * sizeof(int));
  cudaMalloc(&dOut, Threads * sizeof(int));
  cudaMalloc(&dCount, sizeof(int));
  cudaMalloc(&dMax, Buckets * sizeof(int));
  cudaMalloc(&dSums, sums.size() * sizeof(int));
  cudaMemcpy(dIn, in.data(), Threads * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dMax, maxOf.data(), Buckets * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dCount, 0, sizeof(int));
  filter_positive<<<Threads / Block, Block>>>(dIn, dOut, dCount, Kept);
  bucket_max<<<Threads / Block, Block>>>(dIn, dMax);
  warp_sums<<<Threads / Block, Block>>>(dIn, dSums);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("warpagg: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int count = 0;
  cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(out.data(), dOut, Threads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(maxOf.data(), dMax, Buckets * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), dSums, sums.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  int wrong =
      count < 0 || count > Threads ? 1 : check(in, out, count, maxOf, sums);
  std::printf("warpagg: %d kept, maxima %d %d %d %d, %d wrong, %s\n", count,
              maxOf[0], maxOf[1], maxOf[2], maxOf[3], wrong,
              wrong ? "FAILED" : "PASSED");
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dCount);
  cudaFree(dMax);
  cudaFree(dSums);
  return wrong ? 1 : 0;
}
