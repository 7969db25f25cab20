// Structure: short threads with many guarded blocks that are mostly not
// taken (issue [overhead-3]):
// the shape whose exit flush weighs most against what a thread did. Each
// thread reads one flag word and, for a few rounds, tests each of its 32
// bits (a `#pragma unroll` loop: 32 guarded blocks in the rounds loop, 32
// counters of loop blocks, staged and flushed out of line at exit); a set
// bit loads a table word. Almost every flag word is 0, so almost every
// counter of almost every warp is zero at exit: the flush skips the
// batches of counters that are zero in every lane of the warp, and must
// still count the rest exactly.
//
// sparse_guards(flags, table, out, rounds): thread gid (n = 65,536: 256
//   blocks of 256) reads flags[gid]; for r < rounds (3), for each set bit j
//   it loads table[(j + r) mod 32] into its sum; then stores the sum at
//   out[gid].
//   The host sets flags[gid] = 1 << ((gid / 97) mod 32) where gid is a
//   multiple of 97, else 0: gid = 97 q for q = 0..675 (97 x 675 = 65,475 <
//   65,536 <= 97 x 676), 676 threads with one bit each, at most one such
//   thread in a warp (97 > 32), in 676 of the 2,048 warps.
//     load_bytes.global = 65,536 x 4 (flags) + 676 x 3 x 4 (table)
//                       = 262,144 + 8,112 = 270,256
//     store_bytes.global = 65,536 x 4 = 262,144
//   No floating point.
//
// clang-format off
// EXPECT: kernel _Z13sparse_guardsPKjS0_Pjj launches=1 load_bytes.global=270256 store_bytes.global=262144 flops.f32=0 flops.f64=0
// EXPECT: launch _Z13sparse_guardsPKjS0_Pjj counted=1
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr uint32_t Threads = 1u << 16, Block = 256, Rounds = 3, Stride = 97;

__host__ __device__ static uint32_t
guarded_sum(uint32_t flag, const uint32_t *table, uint32_t rounds) {
  uint32_t sum = 0;
  for (uint32_t r = 0; r < rounds; ++r) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (uint32_t j = 0; j < 32; ++j)
      if (flag & (1u << j))
        sum += table[(j + r) % 32];
  }
  return sum;
}

__global__ void sparse_guards(const uint32_t *flags, const uint32_t *table,
                              uint32_t *out, uint32_t rounds) {
  uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = guarded_sum(flags[gid], table, rounds);
}

int main() {
  std::vector<uint32_t> flags(Threads, 0), table(32), want(Threads);
  for (uint32_t gid = 0; gid < Threads; gid += Stride)
    flags[gid] = 1u << ((gid / Stride) % 32);
  for (uint32_t j = 0; j < 32; ++j)
    table[j] = 7 * j + 1;
  for (uint32_t gid = 0; gid < Threads; ++gid)
    want[gid] = guarded_sum(flags[gid], table.data(), Rounds);
  uint32_t *d_flags = nullptr, *d_table = nullptr, *d_out = nullptr;
  if (cudaMalloc(&d_flags, Threads * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_table, 32 * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_out, Threads * sizeof(uint32_t)) != cudaSuccess) {
    printf("FAILED: no device memory\n");
    return 1;
  }
  cudaMemcpy(d_flags, flags.data(), Threads * sizeof(uint32_t),
             cudaMemcpyHostToDevice);
  cudaMemcpy(d_table, table.data(), 32 * sizeof(uint32_t),
             cudaMemcpyHostToDevice);
  sparse_guards<<<Threads / Block, Block>>>(d_flags, d_table, d_out, Rounds);
  std::vector<uint32_t> got(Threads);
  cudaError_t err = cudaMemcpy(got.data(), d_out, Threads * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost);
  cudaFree(d_flags);
  cudaFree(d_table);
  cudaFree(d_out);
  if (err != cudaSuccess) {
    printf("FAILED: %s\n", cudaGetErrorString(err));
    return 1;
  }
  uint64_t checksum = 0;
  for (uint32_t w : got)
    checksum = checksum * 31 + w;
  bool ok = got == want;
  printf("checksum %llu\n%s\n", (unsigned long long)checksum,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
