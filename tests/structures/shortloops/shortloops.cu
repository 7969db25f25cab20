// Structure: a per-thread loop of a few trips whose count is a kernel
// argument, as CUB's transform kernel runs it (Thrust's transform: each
// thread of a 256-thread block handles `per_thread` elements of the
// block's tile, j * 256 + threadIdx.x). In working-set mode a loop whose
// count is known at launch has its accesses' pages marked in front of it,
// by one call per access, where it runs at least 8 times
// (-pasta-ws-loop-min-trips), and in a copy of the loop, chosen in front of
// it, where it runs fewer: this
// program launches it both ways and derives the pages by hand (clang
// unrolls the loop by 2: 1, 8 and 3 trips of the unrolled loop below, the
// first and last with a remainder iteration after it).
//
// Kernel tile_transform(in, out, first, per_thread): block b's tile starts
// at element first + b * 256 * per_thread; out[k] = 3 * (long long)in[k] +
// 1 for the tile's 256 * per_thread elements k. in holds N = 2^18 ints
// (1,048,576 B, 16 pages of 64 KiB), out N long longs (2,097,152 B, 32
// pages). Three launches:
//   0 per_thread 2 (short: marked in the loop), 128 blocks, elements 0 to
//     65,535: in bytes [0, 262,144): pages 0-3; out bytes [0, 524,288):
//     pages 0-7. Touched 4 P + 8 P = 786,432 B (P = 65,536 B).
//   1 per_thread 16 (long: marked in front), 16 blocks, elements 131,072
//     to 196,607: in bytes [524,288, 786,432): pages 8-11; out bytes
//     [1,048,576, 1,572,864): pages 16-23. Touched 786,432 B.
//   2 per_thread 7 (one short of the minimum), 8 blocks, 14,336 elements
//     from 196,608: in bytes [786,432, 843,776): page 12; out bytes
//     [1,572,864, 1,687,552): pages 24-25. Touched 3 P = 196,608 B.
// Each launch touches both allocations: footprint 1,048,576 + 2,097,152 =
// 3,145,728 B. Touched sorted: 196,608, 786,432, 786,432: max 786,432, min
// 196,608, median (2nd) 786,432, p90 (3rd) 786,432.
// Counts: 65,536 + 65,536 + 14,336 = 145,408 elements, 4 B loaded and 8 B
// stored each: load_bytes.global = 581,632, store_bytes.global = 1,163,264
// (integer arithmetic: no FLOPs).
//
// Results are checked against the host's; the checksum (the sum of out)
// must be the plain build's.
//
// clang-format off
// EXPECT(!ws): kernel _Z14tile_transformPKiPxii launches=3 load_bytes.global=581632 store_bytes.global=1163264
// EXPECT: consistent
// EXPECT(ws): ws enabled=1 page_size=65536 launches=3 skipped=0 outside.accesses=0
// EXPECT(ws): ws touched_bytes.max=786432 touched_bytes.min=196608 touched_bytes.median=786432 touched_bytes.p90=786432
// EXPECT(ws): ws footprint_bytes.max=3145728 footprint_bytes.min=3145728 footprint_bytes.median=3145728 footprint_bytes.p90=3145728
// EXPECT(ws): ws-launch _Z14tile_transformPKiPxii matches=3 nth=0 touched_allocations=2 footprint_bytes=3145728 touched_bytes=786432 outside=0
// EXPECT(ws): ws-launch _Z14tile_transformPKiPxii matches=3 nth=1 touched_allocations=2 footprint_bytes=3145728 touched_bytes=786432 outside=0
// EXPECT(ws): ws-launch _Z14tile_transformPKiPxii matches=3 nth=2 touched_allocations=2 footprint_bytes=3145728 touched_bytes=196608 outside=0
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static const int kBlock = 256;
static const int kN = 1 << 18;

__global__ void tile_transform(const int *in, long long *out, int first,
                               int per_thread) {
  const int tile = first + (int)blockIdx.x * kBlock * per_thread;
  for (int j = 0; j < per_thread; ++j) {
    const int k = tile + j * kBlock + (int)threadIdx.x;
    out[k] = 3 * (long long)in[k] + 1;
  }
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("shortloops: FAILED: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

int main() {
  std::vector<int> h_in(kN);
  for (int k = 0; k < kN; ++k)
    h_in[k] = (k * 7919) % 1000 - 500;
  int *in = nullptr;
  long long *out = nullptr;
  if (check(cudaMalloc(&in, kN * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&out, kN * sizeof(long long)), "cudaMalloc") ||
      check(
          cudaMemcpy(in, h_in.data(), kN * sizeof(int), cudaMemcpyHostToDevice),
          "cudaMemcpy") ||
      check(cudaMemset(out, 0, kN * sizeof(long long)), "cudaMemset"))
    return 1;
  // {first element, elements per thread, blocks}.
  const int launches[3][3] = {{0, 2, 128}, {131072, 16, 16}, {196608, 7, 8}};
  for (const auto &l : launches)
    tile_transform<<<l[2], kBlock>>>(in, out, l[0], l[1]);
  if (check(cudaGetLastError(), "launch") ||
      check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  std::vector<long long> h_out(kN);
  if (check(cudaMemcpy(h_out.data(), out, kN * sizeof(long long),
                       cudaMemcpyDeviceToHost),
            "cudaMemcpy"))
    return 1;
  std::vector<long long> want(kN, 0);
  for (const auto &l : launches)
    for (int k = l[0]; k < l[0] + l[1] * l[2] * kBlock; ++k)
      want[k] = 3 * (long long)h_in[k] + 1;
  long long sum = 0;
  for (int k = 0; k < kN; ++k) {
    if (h_out[k] != want[k]) {
      std::printf("shortloops: FAILED at %d: got %lld expected %lld\n", k,
                  h_out[k], want[k]);
      return 1;
    }
    sum += h_out[k];
  }
  cudaFree(in);
  cudaFree(out);
  std::printf("shortloops: PASSED checksum=%lld\n", sum);
  return 0;
}
