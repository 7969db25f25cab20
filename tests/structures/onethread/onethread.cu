// Structure: a setup kernel whose whole body is guarded to one thread
// (`if (threadIdx.x == 0 && blockIdx.x == 0)`, the ray tracer's
// create_world shape, issue [overhead-3]).
// Its counting code
// holds 32 accumulators and the counters of 32 guarded blocks (each a
// shared atomic) in a loop: more than 64 registers uncapped, as regcap's, so a
// block of 1,024 threads would need the capped copy; PASTA instead caps the
// counting kernel itself (its work runs in one thread) and compiles no capped
// copy. Launched with 1 thread and with 1,024 threads (thread 0 works, the rest
// return at the guard): both launches are counted by the counting kernel,
// whose registers fit 1,024 threads, with the counts derived below.
//
// fold_bits<B>(in, out, n): thread 0 of block 0 clears a shared array
//   hits[32] and sets acc[k] = k (k < 32), then for i < n reads x = in[i]
//   and for each bit k set in x adds 1 to hits[k] (a shared atomic) and
//   folds acc[k] = 3 acc[k] + (x >> k); then stores acc[0..31] and
//   hits[0..31] to out[0..63].
//   n = 4,096 = 2^12, in[i] = i: each bit k < 12 is set in n / 2 = 2,048
//   of them, bits 12-31 in none. Per launch:
//     load_bytes.global = 4 * n = 16,384
//     atomics.shared = 12 * 2,048 = 24,576
//     atomic_bytes.shared = 4 * 24,576 = 98,304
//     store_bytes.shared = load_bytes.shared = 4 * 32 = 128 (clear, read)
//     store_bytes.global = 4 * 64 = 256
//   no global atomics, no floating point.
//
// make_table(slot) and sum_table(slot, out), <<<1, 1>>> each, the ray
//   tracer's create_world/free_world pair: thread 0 mallocs 32 words from
//   the device heap, writes k * k into word k and the pointer to *slot
//   (accesses through malloc's result: global, known at compile time);
//   then reads the pointer back, sums the 32 words (through a pointer
//   loaded from memory: resolved at run time), writes the sum and frees:
//     make_table: store_bytes.global = 32 * 4 + 8 = 136
//     sum_table: load_bytes.global = 8 + 32 * 4 = 136, store_bytes.global = 4
//
// clang-format off
// EXPECT: kernel _Z9fold_bitsILi1EEvPKjPji launches=1 load_bytes.global=16384 store_bytes.global=256 atomics.shared=24576 atomic_bytes.shared=98304 store_bytes.shared=128 load_bytes.shared=128 atomics.global=0 flops.f32=0
// EXPECT: kernel _Z9fold_bitsILi1024EEvPKjPji launches=1 load_bytes.global=16384 store_bytes.global=256 atomics.shared=24576 atomic_bytes.shared=98304 store_bytes.shared=128 load_bytes.shared=128 atomics.global=0 flops.f32=0
// EXPECT: launch _Z9fold_bitsILi1024EEvPKjPji counted=1 resources.block_threads=1024 resources.counting.registers<=64 resources.counting.max_threads_per_block=1024
// EXPECT: kernel _Z10make_tablePPj launches=1 store_bytes.global=136 load_bytes.global=0 load_bytes.local=0 store_bytes.local=0 store_bytes.shared=0
// EXPECT: kernel _Z9sum_tablePPjS_ launches=1 load_bytes.global=136 store_bytes.global=4 load_bytes.local=0 load_bytes.shared=0
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Bits = 32, N = 4096;

template <int Block>
__global__ void fold_bits(const uint32_t *in, uint32_t *out, int n) {
  __shared__ uint32_t hits[Bits];
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    uint32_t acc[Bits];
#pragma unroll
    for (int k = 0; k < Bits; ++k) {
      hits[k] = 0;
      acc[k] = k;
    }
    for (int i = 0; i < n; ++i) {
      uint32_t x = in[i];
#pragma unroll
      for (int k = 0; k < Bits; ++k)
        if (x & (1u << k)) {
          atomicAdd(&hits[k], 1u);
          acc[k] = acc[k] * 3u + (x >> k);
        }
    }
#pragma unroll
    for (int k = 0; k < Bits; ++k) {
      out[k] = acc[k];
      out[Bits + k] = hits[k];
    }
  }
}

__global__ void make_table(uint32_t **slot) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    uint32_t *table = (uint32_t *)malloc(Bits * sizeof(uint32_t));
    if (table)
      for (int k = 0; k < Bits; ++k)
        table[k] = k * k;
    *slot = table;
  }
}

__global__ void sum_table(uint32_t **slot, uint32_t *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    uint32_t *table = *slot, sum = 0;
    if (!table)
      return;
    for (int k = 0; k < Bits; ++k)
      sum += table[k];
    *out = sum;
    free(table);
  }
}

// acc[0..31], then hits[0..31], as the kernel computes them.
static std::vector<uint32_t> expected(const std::vector<uint32_t> &in) {
  std::vector<uint32_t> out(2 * Bits, 0);
  for (int k = 0; k < Bits; ++k)
    out[k] = k;
  for (uint32_t x : in)
    for (int k = 0; k < Bits; ++k)
      if (x & (1u << k)) {
        ++out[Bits + k];
        out[k] = out[k] * 3u + (x >> k);
      }
  return out;
}

template <int Block>
static bool run(const uint32_t *d_in, uint32_t *d_out,
                const std::vector<uint32_t> &want, uint64_t *checksum) {
  std::vector<uint32_t> got(2 * Bits);
  cudaMemset(d_out, 0, got.size() * sizeof(uint32_t));
  fold_bits<Block><<<1, Block>>>(d_in, d_out, N);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess)
    err = cudaMemcpy(got.data(), d_out, got.size() * sizeof(uint32_t),
                     cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("fold_bits<%d>: %s\n", Block, cudaGetErrorString(err));
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
  bool ok = run<1>(d_in, d_out, want, &checksum);
  ok = run<1024>(d_in, d_out, want, &checksum) && ok;
  // The heap table: sum of k * k for k < 32 = 10,416.
  uint32_t **d_slot = nullptr, sum = 0;
  cudaMalloc(&d_slot, sizeof(uint32_t *));
  make_table<<<1, 1>>>(d_slot);
  sum_table<<<1, 1>>>(d_slot, d_out);
  if (cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost) !=
          cudaSuccess ||
      sum != 10416) {
    printf("heap table: sum %u, want 10416\n", sum);
    ok = false;
  }
  checksum = checksum * 31 + sum;
  cudaFree(d_slot);
  cudaFree(d_in);
  cudaFree(d_out);
  printf("checksum %llu\n%s\n", (unsigned long long)checksum,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
