// Structure: a tree summed bottom-up by threads that wait for each other,
// the shape of HeCBench bh's tree kernels (issue [overhead-3]).
// Each thread polls its
// node's children's ready flags with volatile loads until all are set
// (another thread sets them, after a __threadfence), so the number of
// polls depends on timing; then it sums the children, publishes the sum and
// its flag, and adds the sum to a global total under a lock taken with
// atomicCAS (retried while another thread holds it), released with
// atomicExch. Its counting copy keeps the poll loop's counters in 32 bits,
// the loop's header count being the wrap guard (narrowUnboundedLoops).
//
// sum_tree(value, ready, internal, lock, total, summed): a complete 8-ary
//   tree of 4 levels below the root, stored breadth-first: node k's
//   children are 8k+1..8k+8. internal = 1 + 8 + 64 + 512 = 585 nodes,
//   4,096 leaves (4,681 nodes); leaf i holds i % 7 + 1 and is ready from
//   the start. 2 thread blocks of 128 threads (256 threads, all resident
//   at once): thread t takes internal nodes 584 - t, 584 - t - 256, ...,
//   the deepest first, so every node it waits for is taken by a thread
//   that reaches it before any node it waits on itself.
//   Per internal node, exactly (whatever the polls):
//     stores: value[k], ready[k], *total (under the lock), summed[k]:
//       4 global stores of 4 bytes
//     loads: the 8 children's values (after the last poll) and *total:
//       9 loads of 4 bytes, at least
//     the polls: at least one volatile load of each of the 8 flags: 8
//       loads of 4 bytes, at least (a poll stops at the first flag not set)
//     atomics: atomicExch once, atomicCAS at least once: 2, at least
//   So, over the 585 internal nodes:
//     stores.global = 4 * 585 = 2,340; store_bytes.global = 9,360
//     loads.global >= 17 * 585 = 9,945; load_bytes.global >= 39,780
//     atomics.global >= 2 * 585 = 1,170; atomic_bytes.global >= 4,680
//   The root's sum is the leaves' sum, over i < 4,096 of (i % 7 + 1): 585
//   whole cycles of 28 (4,095 leaves) and leaf 4,095 (4,095 % 7 = 0: 1) =
//   16,381. The locked total adds every internal node's sum: each leaf
//   once per level above it, 4 * 16,381 = 65,524.
//
// clang-format off
// EXPECT: kernel _Z8sum_treePiPViiS_S_S_ launches=1 stores.global=2340 store_bytes.global=9360 loads.global>=9945 load_bytes.global>=39780 atomics.global>=1170 atomic_bytes.global>=4680
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Arity = 8, Levels = 4;
constexpr int Internal = 1 + 8 + 64 + 512, Leaves = 4096;
constexpr int Nodes = Internal + Leaves;
constexpr int Blocks = 2, Threads = 128;

// Whether every child of node k is ready; stops at the first that is not.
__device__ bool children_ready(volatile int *ready, int k) {
  for (int c = 1; c <= Arity; ++c)
    if (ready[Arity * k + c] == 0)
      return false;
  return true;
}

__global__ void sum_tree(int *value, volatile int *ready, int internal,
                         int *lock, int *total, int *summed) {
  const int stride = gridDim.x * blockDim.x;
  int k = internal - 1 - (blockIdx.x * blockDim.x + threadIdx.x);
  while (k >= 0) {
    if (!children_ready(ready, k))
      continue;      // poll again
    __threadfence(); // the children's values after their flags
    int sum = 0;
    for (int c = 1; c <= Arity; ++c)
      sum += ((volatile int *)value)[Arity * k + c];
    value[k] = sum;
    __threadfence();
    ready[k] = 1;
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *(volatile int *)total += sum;
    __threadfence();
    atomicExch(lock, 0);
    summed[k] = 1;
    k -= stride;
  }
}

int main() {
  std::vector<int> value(Nodes, 0), ready(Nodes, 0);
  int expect = 0;
  for (int i = 0; i < Leaves; ++i) {
    value[Internal + i] = i % 7 + 1;
    ready[Internal + i] = 1;
    expect += i % 7 + 1;
  }
  int *d_value, *d_ready, *d_lock, *d_total, *d_summed;
  cudaMalloc(&d_value, Nodes * sizeof(int));
  cudaMalloc(&d_ready, Nodes * sizeof(int));
  cudaMalloc(&d_lock, sizeof(int));
  cudaMalloc(&d_total, sizeof(int));
  cudaMalloc(&d_summed, Internal * sizeof(int));
  cudaMemcpy(d_value, value.data(), Nodes * sizeof(int),
             cudaMemcpyHostToDevice);
  cudaMemcpy(d_ready, ready.data(), Nodes * sizeof(int),
             cudaMemcpyHostToDevice);
  cudaMemset(d_lock, 0, sizeof(int));
  cudaMemset(d_total, 0, sizeof(int));
  cudaMemset(d_summed, 0, Internal * sizeof(int));
  sum_tree<<<Blocks, Threads>>>(d_value, d_ready, Internal, d_lock, d_total,
                                d_summed);
  cudaError_t err = cudaDeviceSynchronize();
  int root = 0, total = 0;
  std::vector<int> summed(Internal, 0);
  cudaMemcpy(&root, d_value, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(summed.data(), d_summed, Internal * sizeof(int),
             cudaMemcpyDeviceToHost);
  int all = 0;
  for (int s : summed)
    all += s;
  bool ok = err == cudaSuccess && root == expect && total == Levels * expect &&
            all == Internal;
  printf("root %d total %d nodes %d (expected %d, %d, %d)\n", root, total, all,
         expect, Levels * expect, Internal);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
