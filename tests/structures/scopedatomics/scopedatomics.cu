// Structure: scoped atomics (Chai's CUDA-U
// kernels share flags and histograms with CPU threads through
// atomicAdd_system). clang makes atomicAdd_block, atomicAdd_system,
// atomicCAS_system and atomicExch_system intrinsic calls
// (llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>), not atomic instructions;
// each counts as one atomic of its value's size in its pointer's space, as
// atomicAdd does. Every count follows from the inputs by hand.
//
// 1,024 threads, blocks of 256 (4 blocks), in[i] = (i * 7) % 8.
//
// block_hist: threads 0-7 of each block clear a shared bin (4 x 8 = 32
//   stores, 128 B); every thread loads in[i] (4,096 B) and adds 1 to its
//   shared bin with atomicAdd_block (1,024 shared atomics, 4,096 B); threads
//   0-7 read their bin (32 shared loads, 128 B) and add it to the global
//   histogram with atomicAdd_system (32 global atomics, 128 B).
// handoff: every thread adds 1.0f to a total with atomicAdd_system (1,024
//   atomics, 4,096 B); thread 0 of each block writes its block's 64-bit
//   mark with atomicExch_system (4 atomics, 32 B) and claims its block's
//   slot with atomicCAS_system (4 atomics, 16 B): 1,032 global atomics,
//   4,144 B. No loads or stores; an atomic float add is not a FLOP.
// Before scoped atomics were counted, both kernels showed none of their
// atomics (block_hist: loads and the shared stores and loads only).
//
// clang-format off
// EXPECT: kernel _Z10block_histPKiPj launches=1 load_bytes.global=4096 store_bytes.global=0 load_bytes.shared=128 store_bytes.shared=128 atomics.shared=1024 atomic_bytes.shared=4096 atomics.global=32 atomic_bytes.global=128
// EXPECT: kernel _Z7handoffPyPiPf launches=1 load_bytes.global=0 store_bytes.global=0 atomics.global=1032 atomic_bytes.global=4144 flops.f32=0
// EXPECT: launch _Z10block_histPKiPj counted=1
// EXPECT: launch _Z7handoffPyPiPf counted=1
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 1024;
constexpr int Block = 256;
constexpr int Blocks = Threads / Block;
constexpr int Bins = 8;

__global__ void block_hist(const int *in, unsigned *hist) {
  __shared__ unsigned bins[Bins];
  if (threadIdx.x < Bins)
    bins[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd_block(&bins[in[i]], 1u);
  __syncthreads();
  if (threadIdx.x < Bins)
    atomicAdd_system(&hist[threadIdx.x], bins[threadIdx.x]);
}

__global__ void handoff(unsigned long long *mark, int *slot, float *total) {
  atomicAdd_system(total, 1.0f);
  if (threadIdx.x == 0) {
    atomicExch_system(&mark[blockIdx.x], blockIdx.x + 1ull);
    atomicCAS_system(&slot[blockIdx.x], 0, int(blockIdx.x) + 1);
  }
}

int main() {
  std::vector<int> in(Threads);
  std::vector<unsigned> want(Bins, 0);
  for (int i = 0; i < Threads; ++i) {
    in[i] = (i * 7) % Bins;
    ++want[in[i]];
  }
  int *dIn, *dSlot;
  unsigned *dHist;
  unsigned long long *dMark;
  float *dTotal;
  cudaMalloc(&dIn, Threads * sizeof(int));
  cudaMalloc(&dHist, Bins * sizeof(unsigned));
  cudaMalloc(&dMark, Blocks * sizeof(unsigned long long));
  cudaMalloc(&dSlot, Blocks * sizeof(int));
  cudaMalloc(&dTotal, sizeof(float));
  cudaMemcpy(dIn, in.data(), Threads * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dHist, 0, Bins * sizeof(unsigned));
  cudaMemset(dMark, 0, Blocks * sizeof(unsigned long long));
  cudaMemset(dSlot, 0, Blocks * sizeof(int));
  cudaMemset(dTotal, 0, sizeof(float));
  block_hist<<<Blocks, Block>>>(dIn, dHist);
  handoff<<<Blocks, Block>>>(dMark, dSlot, dTotal);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("scopedatomics: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<unsigned> hist(Bins);
  std::vector<unsigned long long> mark(Blocks);
  std::vector<int> slot(Blocks);
  float total = 0;
  cudaMemcpy(hist.data(), dHist, Bins * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(mark.data(), dMark, Blocks * sizeof(unsigned long long),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(slot.data(), dSlot, Blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, dTotal, sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = hist != want;
  for (int b = 0; b < Blocks; ++b)
    wrong += mark[b] != b + 1ull || slot[b] != b + 1;
  wrong += total != float(Threads);
  std::printf("scopedatomics: bins %u..%u, total %.0f, %d wrong, %s\n", hist[0],
              hist[Bins - 1], total, wrong, wrong ? "FAILED" : "PASSED");
  cudaFree(dIn);
  cudaFree(dHist);
  cudaFree(dMark);
  cudaFree(dSlot);
  cudaFree(dTotal);
  return wrong ? 1 : 0;
}
