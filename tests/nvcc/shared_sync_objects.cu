// libcu++ synchronization objects declared `__shared__` in a kernel, as the
// CUDA programming guide writes them: nvcc builds them without running
// their constructors (warning #20054-D), clang refused them ("initialization
// is not supported for __shared__ variables"); frontend/NvccSyntax.h makes
// them shared storage and a reference. Built by ctests
// nvcc-shared-sync-objects (pasta-nvcc) and nvcc-shared-sync-objects-cmake
// (the CMake toolchain's launcher with PASTA's frontend plugin), compile and
// link only; the program checks its own sums where a GPU runs it.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <cstdio>

namespace cg = cooperative_groups;

// Each block sums its tile after a barrier that every thread arrives at.
__global__ void tile_sums_barrier(const int *in, int *sums) {
  __shared__ int tile[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&ready, block.size());
  block.sync();
  tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  ready.arrive_and_wait();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i)
      sum += tile[i];
    sums[blockIdx.x] = sum;
  }
}

// The same sums through a two-stage pipeline whose state is an array
// element of a template's shared array, split over lines.
template <int Stages>
__global__ void tile_sums_pipeline(const int *in, int *sums) {
  __shared__ int tile[Stages][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages>
      states[1];
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &states[0]);
  const int *src = in + blockIdx.x * blockDim.x;
  pipe.producer_acquire();
  cuda::memcpy_async(block, tile[0], src, sizeof(int) * blockDim.x, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i)
      sum += tile[0][i];
    sums[blockIdx.x] = sum;
  }
  pipe.consumer_release();
}

int main() {
  constexpr int blocks = 4, threads = 128, n = blocks * threads;
  int host[n], *in = nullptr, *sums = nullptr;
  for (int i = 0; i < n; ++i)
    host[i] = i % 7;
  if (cudaMalloc(&in, sizeof host) != cudaSuccess ||
      cudaMalloc(&sums, 2 * blocks * sizeof(int)) != cudaSuccess)
    return 1;
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  tile_sums_barrier<<<blocks, threads>>>(in, sums);
  tile_sums_pipeline<2><<<blocks, threads>>>(in, sums + blocks);
  int got[2 * blocks];
  cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = 0; i < threads; ++i)
      want += host[b * threads + i];
    bad += got[b] != want || got[blocks + b] != want;
  }
  std::printf("%d of %d block sums wrong\n", bad, 2 * blocks);
  cudaFree(in);
  cudaFree(sums);
  return bad != 0;
}
