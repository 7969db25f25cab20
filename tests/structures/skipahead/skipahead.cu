// Structure: a skip-ahead over a table of bit matrices, the shape of
// curand_init's (issue [overhead-3], cuda-samples MonteCarloMultiGPU's
// rngSetupStates, 2.40x).
// Each thread
// applies to its 160-bit state one matrix per unit of each base-4 digit of
// its index; a matrix-vector product over GF(2) is, for each of the 5 state
// words, a `#pragma unroll 16` loop over its 32 bits whose set bits xor 5
// table words into the result: 5 loops of 16 guarded blocks, 80 counters of
// loop blocks, which the counting copy keeps in registers (127 registers
// against the plain copy's 40 in curand's case). Built also as
// skipahead.mem (-mllvm -pasta-many-loop-counters=32: those counters in
// local memory, the slots of one array flushed in place; 40 registers):
// both must count exactly.
//
// skip_ahead(table, out, p0..p4): thread gid (n = 16,384 = 4^7 threads,
//   64 blocks of 256) starts from state v[i] = rotl(p_i, gid mod 32) and,
//   for each base-4 digit d of gid (lowest first; digit position m, until
//   no digit is left), applies matrix m of the table d times; then stores
//   its 5 words at out[5 gid ...].
//   The host fills the table with permutation matrices (each row, a bit of
//   the state, has exactly one set bit among the 160): a product permutes
//   the state's bits, so every state keeps the popcount of p: P = 8 + 16 +
//   16 + 8 + 32 = 80 set bits, and every product reads 5 words for each of
//   them: 400 loads of 4 bytes.
//   Products per thread: the sum of its base-4 digits. Over gid < 4^7,
//   each of the 7 digit positions takes each value 0-3 in 4^6 = 4,096
//   threads: 7 x 4,096 x (0 + 1 + 2 + 3) = 172,032 products.
//     load_bytes.global = 172,032 x 400 x 4 = 275,251,200
//     store_bytes.global = 16,384 x 5 x 4 = 327,680
//   Nothing else touches memory (the patterns are by-value arguments); no
//   floating point.
//
// clang-format off
// EXPECT: kernel _Z10skip_aheadPKjPjjjjjj launches=1 load_bytes.global=275251200 store_bytes.global=327680 flops.f32=0 flops.f64=0
// EXPECT: launch _Z10skip_aheadPKjPjjjjjj counted=1
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Words = 5, Bits = 32, Rows = Words * Bits;
constexpr int Digits = 7, Threads = 1 << (2 * Digits), Block = 256;
constexpr int MatrixWords = Rows * Words;
constexpr uint32_t Patterns[Words] = {0x000000ffu, 0x00ff00ffu, 0x0f0f0f0fu,
                                      0x11111111u, 0xffffffffu};

__host__ __device__ static uint32_t rotl(uint32_t x, unsigned k) {
  return k ? (x << k) | (x >> (32 - k)) : x;
}

// v = M v over GF(2): row i * 32 + j of M (5 words) is xored into the
// result where bit j of v[i] is set.
__host__ __device__ static void apply(uint32_t *v, const uint32_t *m) {
  uint32_t r[Words] = {0, 0, 0, 0, 0};
  for (int i = 0; i < Words; ++i) {
#ifdef __CUDA_ARCH__
#pragma unroll 16
#endif
    for (int j = 0; j < Bits; ++j)
      if (v[i] & (1u << j))
        for (int k = 0; k < Words; ++k)
          r[k] ^= m[(i * Bits + j) * Words + k];
  }
  for (int k = 0; k < Words; ++k)
    v[k] = r[k];
}

__host__ __device__ static void skip(uint32_t *v, const uint32_t *table,
                                     uint32_t x) {
  for (int m = 0; x; x >>= 2, ++m)
    for (uint32_t t = 0; t < (x & 3u); ++t)
      apply(v, table + m * MatrixWords);
}

__global__ void skip_ahead(const uint32_t *table, uint32_t *out, uint32_t p0,
                           uint32_t p1, uint32_t p2, uint32_t p3, uint32_t p4) {
  uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v[Words] = {rotl(p0, gid % 32), rotl(p1, gid % 32),
                       rotl(p2, gid % 32), rotl(p3, gid % 32),
                       rotl(p4, gid % 32)};
  skip(v, table, gid);
  for (int k = 0; k < Words; ++k)
    out[Words * gid + k] = v[k];
}

// Matrix m permutes the 160 bits: row b gets the single bit (7 m + 1 +
// 37 b) mod 160 (37 is prime to 160, so b -> target is a bijection).
static std::vector<uint32_t> permutation_table() {
  std::vector<uint32_t> table(Digits * MatrixWords, 0);
  for (int m = 0; m < Digits; ++m)
    for (int b = 0; b < Rows; ++b) {
      int target = (7 * m + 1 + 37 * b) % Rows;
      table[m * MatrixWords + b * Words + target / Bits] |= 1u
                                                            << (target % Bits);
    }
  return table;
}

int main() {
  std::vector<uint32_t> table = permutation_table();
  std::vector<uint32_t> want(Words * Threads), got(want.size());
  for (uint32_t gid = 0; gid < Threads; ++gid) {
    uint32_t v[Words];
    for (int k = 0; k < Words; ++k)
      v[k] = rotl(Patterns[k], gid % 32);
    skip(v, table.data(), gid);
    for (int k = 0; k < Words; ++k)
      want[Words * gid + k] = v[k];
  }
  uint32_t *d_table = nullptr, *d_out = nullptr;
  if (cudaMalloc(&d_table, table.size() * sizeof(uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_out, got.size() * sizeof(uint32_t)) != cudaSuccess) {
    printf("FAILED: no device memory\n");
    return 1;
  }
  cudaMemcpy(d_table, table.data(), table.size() * sizeof(uint32_t),
             cudaMemcpyHostToDevice);
  skip_ahead<<<Threads / Block, Block>>>(d_table, d_out, Patterns[0],
                                         Patterns[1], Patterns[2], Patterns[3],
                                         Patterns[4]);
  cudaError_t err = cudaMemcpy(got.data(), d_out, got.size() * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost);
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
