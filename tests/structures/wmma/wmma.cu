// Structure: tensor-core tiles through nvcuda::wmma (NVIDIA's
// simpleTensorCoreGEMM shape). load_matrix_sync and store_matrix_sync are
// intrinsic calls (llvm.nvvm.wmma.m16n16k16.load.{a,b,c}...,
// .store.d...), not loads or stores; PASTA counts each as one access per
// lane of its tile's bytes over the warp's 32 lanes, in its pointer's
// space (docs/counting-conventions.md): for m16n16k16 a half a or b tile
// (16 x 16 x 2 = 512 bytes) is 16 bytes a lane, a float c or d tile
// (1,024 bytes) 32. (A lane's fragment registers repeat elements: an a
// fragment is 32 bytes of registers a lane; the hardware loads each
// element once, so Nsight Compute's SASS bytes are the tile's.) mma_sync
// moves no memory and is not counted as FLOPs (tensor operations are not
// in the FLOP mix).
//
// C (64 x 64 float) += A (64 x 64 half, row-major) x B (64 x 64 half,
// row-major); one warp (32 threads) per 16 x 16 tile of C: 16 blocks,
// 512 threads. Small integers everywhere, so every product and sum is
// exact in half and float: the result must equal the host's, bit for bit.
//
// gemm_tiles: c loaded (32 B a thread), then per step of K (4 steps) a
//   and b loaded (2 x 16 B), d stored (32 B); all through the kernel's
//   arguments: global. Per thread 9 loads, 32 + 4 x 32 = 160 B; 1 store,
//   32 B. 512 threads: load_bytes.global = 81,920, store_bytes.global =
//   16,384 (the first run on the H200 measured 81,920 and 16,384 SASS
//   bytes with Nsight Compute on the plain build).
// gemm_staged: the block's 16 x 64 panel of A copied to shared memory by
//   its 32 threads, 32 halves each (global loads and shared stores of
//   2 B: 64 B a thread), then per step a loaded from shared (16 B) and b
//   from global (16 B); the accumulator starts at zero (fill_fragment: no
//   load); d stored to global (32 B). Per thread: global loads 64 + 64 =
//   128 B, shared stores 64 B, shared loads 64 B, global stores 32 B.
//   512 threads: load_bytes.global = 65,536, store_bytes.shared = 32,768,
//   load_bytes.shared = 32,768, store_bytes.global = 16,384.
//   (Bytes only: the copy loop's loads may be widened by the compiler.)
//
// clang-format off
// EXPECT: kernel _Z10gemm_tilesPK6__halfS1_Pf launches=1 load_bytes.global=81920 store_bytes.global=16384 load_bytes.shared=0 flops.f32=0
// EXPECT: kernel _Z11gemm_stagedPK6__halfS1_Pf launches=1 load_bytes.global=65536 store_bytes.global=16384 load_bytes.shared=32768 store_bytes.shared=32768 flops.f32=0
// EXPECT: launch _Z10gemm_tilesPK6__halfS1_Pf counted=1
// EXPECT: launch _Z11gemm_stagedPK6__halfS1_Pf counted=1
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <vector>

using namespace nvcuda;

constexpr int Size = 64; // M = N = K
constexpr int Tile = 16;
constexpr int TilesPerRow = Size / Tile;

__global__ void gemm_tiles(const half *a, const half *b, float *c) {
  int row = blockIdx.x / TilesPerRow * Tile;
  int col = blockIdx.x % TilesPerRow * Tile;
  wmma::fragment<wmma::matrix_a, Tile, Tile, Tile, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, Tile, Tile, Tile, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, Tile, Tile, Tile, float> fc;
  wmma::load_matrix_sync(fc, c + row * Size + col, Size, wmma::mem_row_major);
  for (int k = 0; k < Size; k += Tile) {
    wmma::load_matrix_sync(fa, a + row * Size + k, Size);
    wmma::load_matrix_sync(fb, b + k * Size + col, Size);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + row * Size + col, fc, Size, wmma::mem_row_major);
}

__global__ void gemm_staged(const half *a, const half *b, float *c) {
  __shared__ half panel[Tile * Size];
  int row = blockIdx.x / TilesPerRow * Tile;
  int col = blockIdx.x % TilesPerRow * Tile;
  for (int i = threadIdx.x; i < Tile * Size; i += 32)
    panel[i] = a[row * Size + i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, Tile, Tile, Tile, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, Tile, Tile, Tile, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, Tile, Tile, Tile, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < Size; k += Tile) {
    wmma::load_matrix_sync(fa, panel + k, Size);
    wmma::load_matrix_sync(fb, b + k * Size + col, Size);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + row * Size + col, fc, Size, wmma::mem_row_major);
}

static bool check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

int main() {
  const int n = Size * Size;
  std::vector<half> ha(n), hb(n);
  std::vector<float> a(n), b(n), c0(n), want(n), want0(n);
  for (int i = 0; i < Size; ++i)
    for (int j = 0; j < Size; ++j) {
      a[i * Size + j] = float((i + j) % 5 - 2);
      b[i * Size + j] = float((3 * i + j) % 7 - 3);
      c0[i * Size + j] = float((i + 2 * j) % 3);
      ha[i * Size + j] = __float2half(a[i * Size + j]);
      hb[i * Size + j] = __float2half(b[i * Size + j]);
    }
  for (int i = 0; i < Size; ++i)
    for (int j = 0; j < Size; ++j) {
      float s = 0;
      for (int k = 0; k < Size; ++k)
        s += a[i * Size + k] * b[k * Size + j];
      want0[i * Size + j] = s;
      want[i * Size + j] = c0[i * Size + j] + s;
    }
  half *da, *db;
  float *dc, *dz;
  if (!check(cudaMalloc(&da, n * sizeof(half)), "cudaMalloc") ||
      !check(cudaMalloc(&db, n * sizeof(half)), "cudaMalloc") ||
      !check(cudaMalloc(&dc, n * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&dz, n * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(da, ha.data(), n * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), n * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c0.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const int tiles = TilesPerRow * TilesPerRow;
  gemm_tiles<<<tiles, 32>>>(da, db, dc);
  gemm_staged<<<tiles, 32>>>(da, db, dz);
  if (!check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  std::vector<float> got(n), got0(n);
  cudaMemcpy(got.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(got0.data(), dz, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    wrong += got[i] != want[i];
    wrong += got0[i] != want0[i];
    sum += got[i] + got0[i];
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dz);
  std::printf("checksum %.0f, %d wrong\n%s\n", sum, wrong,
              wrong ? "FAILED" : "PASSED");
  return wrong ? 1 : 0;
}
