// Structure: device memcpy and memset of run-time length (each thread's
// length read from memory), to global and to shared memory. PASTA counts
// one load and/or store per call and thread and the bytes they move
// (docs/counting-conventions.md); the back end expands each call into a
// byte loop, so Nsight Compute's byte metrics must equal PASTA's bytes and
// its instruction counts must not (they count the loop).
//
// n = 2^16 threads, 256 per block (256 blocks), every thread in range;
// len[i] = i % 64, so over each 64 consecutive threads the lengths are
// 0..63: sum of len = 1024 * 2016 = 2,064,384 and sum of (len & 15) =
// 1024 * 4 * 120 = 491,520.
//   pack(in, out, len, n): l = len[i] (4 B); memcpy(out + 64 i, in + 64 i,
//     l); memset(out + 64 i + l, 0, 64 - l).
//     load_bytes.global = 4 n + 2,064,384 = 2,326,528
//     store_bytes.global = 64 n = 4,194,304 (every byte of out once)
//     loads.global = 2 n = 131,072 (len, the memcpy), stores.global = 2 n
//   stage(in, out, len, n): l = len[i] & 15 (4 B); memcpy into the
//     thread's 16 bytes of a shared tile, memset of the rest (16 - l);
//     __syncthreads(); out[i] = tile row's bytes 0 and 15 (2 shared loads
//     of 1 B, 1 global store of 1 B).
//     load_bytes.global = 4 n + 491,520 = 753,664
//     store_bytes.shared = 16 n = 1,048,576, load_bytes.shared = 2 n =
//     131,072, store_bytes.global = n = 65,536
//
// Nsight Compute (ncu on memops.plain; every lane touches its own bytes, so
// the distinct bytes are the requested ones), per kernel:
//   sm__sass_data_bytes_mem_global_op_ld.sum  pack 2,326,528  stage 753,664
//   sm__sass_data_bytes_mem_global_op_st.sum  pack 4,194,304  stage 65,536
//   sm__sass_data_bytes_mem_shared_op_ld.sum  pack 0          stage 131,072
//   sm__sass_data_bytes_mem_shared_op_st.sum  pack 0          stage 1,048,576
//   smsp__sass_inst_executed_op_global_ld.sum is NOT 2 n / 32 = 4,096 for
//   pack: the copy is a loop of loads (one per byte, or per wider word).
//
// Results: in[j] = (7 j + 3) % 127 + 1 (never 0). out of pack: row i is
// in's row i for l bytes, then zeros; out of stage: in[64 i] when l & 15 >
// 0, else 0 (byte 15 of a row is never copied: l & 15 <= 15).
//
// clang-format off
// EXPECT: kernel _Z4packPKcPcPKii launches=1 load_bytes.global=2326528 store_bytes.global=4194304 loads.global=131072 stores.global=131072 load_bytes.shared=0 store_bytes.shared=0
// EXPECT: kernel _Z5stagePKcPcPKii launches=1 load_bytes.global=753664 store_bytes.global=65536 load_bytes.shared=131072 store_bytes.shared=1048576
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 256;
constexpr int Row = 64;

__global__ void pack(const char *in, char *out, const int *len, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int l = len[i];
  memcpy(out + i * Row, in + i * Row, l);
  memset(out + i * Row + l, 0, Row - l);
}

__global__ void stage(const char *in, char *out, const int *len, int n) {
  __shared__ char tile[Threads * 16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int l = len[i] & 15;
  char *mine = tile + threadIdx.x * 16;
  memcpy(mine, in + i * Row, l);
  memset(mine + l, 0, 16 - l);
  __syncthreads();
  out[i] = (char)(mine[0] + mine[15]);
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("memops: FAILED: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

int main() {
  const int n = 1 << 16;
  std::vector<char> in((size_t)n * Row), packed((size_t)n * Row), staged(n);
  std::vector<int> len(n);
  for (size_t j = 0; j < in.size(); ++j)
    in[j] = (char)((7 * j + 3) % 127 + 1);
  for (int i = 0; i < n; ++i)
    len[i] = i % Row;
  char *d_in, *d_out, *d_staged;
  int *d_len;
  if (check(cudaMalloc(&d_in, in.size()), "cudaMalloc") ||
      check(cudaMalloc(&d_out, packed.size()), "cudaMalloc") ||
      check(cudaMalloc(&d_staged, n), "cudaMalloc") ||
      check(cudaMalloc(&d_len, n * sizeof(int)), "cudaMalloc"))
    return 1;
  cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(d_len, len.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0x55, packed.size());
  pack<<<n / Threads, Threads>>>(d_in, d_out, d_len, n);
  stage<<<n / Threads, Threads>>>(d_in, d_staged, d_len, n);
  if (check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  cudaMemcpy(packed.data(), d_out, packed.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(staged.data(), d_staged, n, cudaMemcpyDeviceToHost);
  int bad = 0;
  unsigned long long sum = 0;
  for (int i = 0; i < n; ++i) {
    for (int b = 0; b < Row; ++b) {
      size_t j = (size_t)i * Row + b;
      char want = b < len[i] ? in[j] : 0;
      bad += packed[j] != want;
      sum += (unsigned char)packed[j];
    }
    char want = (len[i] & 15) ? in[(size_t)i * Row] : 0;
    bad += staged[i] != want;
    sum += (unsigned char)staged[i];
  }
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_staged);
  cudaFree(d_len);
  std::printf("memops: %s (checksum %llu, %d wrong)\n",
              bad ? "FAILED" : "PASSED", sum, bad);
  return bad ? 1 : 0;
}
