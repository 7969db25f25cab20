// Structure: a kernel of 1,024-thread blocks whose counting copy needs more
// registers than such a block may have (HeCBench topk's radix kernel shape,
// issue [overhead-3]).
// The plain code
// holds 32 accumulators in registers (ptxas: 48 registers per thread, sm_90);
// the counting code adds the per-bit branches' counters (83 registers: a block
// of at most 768 threads). A launch of 1,024 threads then runs the kernel's
// register-capped counting copy (64 registers, some spills): the launch is
// counted, and the profile's resources say which copy ran. The same kernel at
// 256 threads a block runs the counting kernel itself: the two instances must
// give the counts derived below.
//
// bit_histogram<B>(in, out, n, rounds): blocks of B threads; each block
//   clears a shared histogram of 32 bits x 32 lanes (1,024 words, B at a
//   time), then each thread, for each of `rounds` rounds, reads
//   x = in[(gid + 7919 r) mod n] and for each bit k set in x adds 1 to
//   hist[k][lane] (a shared atomic) and folds x >> k into its accumulator
//   k; after a barrier each block adds its histogram to out[0..1023]
//   (global atomics, 1,024 per block) and each thread stores its folded
//   accumulators at out[1024 + gid].
//   n = 8,192 = 2^13 threads, rounds = 4, in[i] = i. Each round reads every
//   i < n once (gid + 7919 r runs over all residues mod n), and each bit
//   k < 13 is set in exactly n / 2 = 4,096 of them (bits 13-31 in none):
//     load_bytes.global = 4 * n * rounds = 131,072
//     atomics.shared = 13 * 4,096 * rounds = 212,992
//     atomic_bytes.shared = 4 * 212,992 = 851,968
//     store_bytes.global = 4 * n = 32,768
//   Per block: 1,024 shared stores (the clear), 1,024 shared loads and
//   1,024 global atomics (the add to out):
//     B = 1,024: 8 blocks: store_bytes.shared = load_bytes.shared = 32,768,
//       atomics.global = 8,192
//     B = 256: 32 blocks: store_bytes.shared = load_bytes.shared = 131,072,
//       atomics.global = 32,768
//   No floating point: flops.f32 = 0.
//
// clang-format off
// EXPECT: kernel _Z13bit_histogramILi1024EEvPKjPjii launches=1 load_bytes.global=131072 store_bytes.global=32768 atomics.shared=212992 atomic_bytes.shared=851968 store_bytes.shared=32768 load_bytes.shared=32768 atomics.global=8192 flops.f32=0
// EXPECT: kernel _Z13bit_histogramILi256EEvPKjPjii launches=1 load_bytes.global=131072 store_bytes.global=32768 atomics.shared=212992 atomic_bytes.shared=851968 store_bytes.shared=131072 load_bytes.shared=131072 atomics.global=32768 flops.f32=0
// EXPECT: launch _Z13bit_histogramILi1024EEvPKjPjii counted=1 resources.block_threads=1024 resources.capped.registers<=64 resources.capped.max_threads_per_block=1024
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Bits = 32, Lanes = 32, N = 8192, Rounds = 4, Stride = 7919;
constexpr int HistWords = Bits * Lanes;

template <int Block>
__global__ void bit_histogram(const uint32_t *in, uint32_t *out, int n,
                              int rounds) {
  __shared__ uint32_t hist[HistWords];
  for (int i = threadIdx.x; i < HistWords; i += Block)
    hist[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x % Lanes;
  const int gid = blockIdx.x * Block + threadIdx.x;
  uint32_t acc[Bits];
#pragma unroll
  for (int k = 0; k < Bits; ++k)
    acc[k] = k;
  for (int r = 0; r < rounds; ++r) {
    uint32_t x = in[(gid + r * Stride) % n];
#pragma unroll
    for (int k = 0; k < Bits; ++k)
      if (x & (1u << k)) {
        atomicAdd(&hist[k * Lanes + lane], 1u);
        acc[k] = acc[k] * 3u + (x >> k);
      }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < HistWords; i += Block)
    atomicAdd(&out[i], hist[i]);
  uint32_t folded = 0;
#pragma unroll
  for (int k = 0; k < Bits; ++k)
    folded ^= acc[k] << (k % 7);
  out[HistWords + gid] = folded;
}

// The host's result of either instance: the histogram summed over blocks
// (lane of a thread = gid mod 32 in both block sizes), then each thread's
// folded accumulators.
static std::vector<uint32_t> expected(const std::vector<uint32_t> &in) {
  std::vector<uint32_t> out(HistWords + N, 0);
  for (int gid = 0; gid < N; ++gid) {
    uint32_t acc[Bits];
    for (int k = 0; k < Bits; ++k)
      acc[k] = k;
    for (int r = 0; r < Rounds; ++r) {
      uint32_t x = in[(gid + r * Stride) % N];
      for (int k = 0; k < Bits; ++k)
        if (x & (1u << k)) {
          ++out[k * Lanes + gid % Lanes];
          acc[k] = acc[k] * 3u + (x >> k);
        }
    }
    uint32_t folded = 0;
    for (int k = 0; k < Bits; ++k)
      folded ^= acc[k] << (k % 7);
    out[HistWords + gid] = folded;
  }
  return out;
}

template <int Block>
static bool run(const uint32_t *d_in, uint32_t *d_out,
                const std::vector<uint32_t> &want, uint64_t *checksum) {
  std::vector<uint32_t> got(want.size());
  cudaMemset(d_out, 0, got.size() * sizeof(uint32_t));
  bit_histogram<Block><<<N / Block, Block>>>(d_in, d_out, N, Rounds);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess)
    err = cudaMemcpy(got.data(), d_out, got.size() * sizeof(uint32_t),
                     cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("bit_histogram<%d>: %s\n", Block, cudaGetErrorString(err));
    return false;
  }
  for (uint32_t v : got)
    *checksum = *checksum * 31 + v;
  return got == want;
}

int main() {
  std::vector<uint32_t> in(N);
  for (int i = 0; i < N; ++i)
    in[i] = i;
  std::vector<uint32_t> want = expected(in);
  uint32_t *d_in = nullptr, *d_out = nullptr;
  if (cudaMalloc(&d_in, N * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_out, want.size() * sizeof(uint32_t)) != cudaSuccess) {
    printf("FAILED: no device memory\n");
    return 1;
  }
  cudaMemcpy(d_in, in.data(), N * sizeof(uint32_t), cudaMemcpyHostToDevice);
  uint64_t checksum = 0;
  bool ok = run<1024>(d_in, d_out, want, &checksum);
  ok = run<256>(d_in, d_out, want, &checksum) && ok;
  cudaFree(d_in);
  cudaFree(d_out);
  printf("checksum %llu\n%s\n", (unsigned long long)checksum,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
