// -pasta-unroll-private-arrays (PrivateArrayUnroll.h): a loop whose counter
// indexes a thread's private array is fully unrolled, as nvcc unrolls it,
// so the array leaves local memory; loops over global memory and nw's
// barrier loop over shared memory (which nvcc leaves rolled, and clang's
// -unroll-threshold=1000 unrolled into 31 counted copies) keep clang's
// default code, byte for byte.
// REQUIRES: cuda
// RUN: %cuda_device -O3 -S -DTILE %s -o %t.tile.ptx -mllvm -pasta-unroll-private-arrays
// RUN: FileCheck %s --check-prefix=TILE --input-file %t.tile.ptx
// RUN: %cuda_device -O3 -S -DTILE %s -o %t.tile-default.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT --input-file %t.tile-default.ptx
// RUN: %cuda_device -O3 -S %s -o %t.rest.ptx -mllvm -pasta-unroll-private-arrays
// RUN: %cuda_device -O3 -S %s -o %t.rest-default.ptx
// RUN: diff %t.rest-default.ptx %t.rest.ptx
// RUN: FileCheck %s --check-prefix=REST --input-file %t.rest.ptx

// TILE-LABEL: .entry _Z4tilePKfS0_Pfi(
// TILE-NOT: __local_depot
// TILE: {{^}}}
// TILE-LABEL: .entry _Z4tilePKfS0_Pfi__pasta_plain(
// TILE-NOT: __local_depot
// TILE: {{^}}}
// DEFAULT-LABEL: .entry _Z4tilePKfS0_Pfi__pasta_plain(
// DEFAULT-NOT: {{^}}}
// DEFAULT: __local_depot

// The user's `#pragma unroll 1` wins: that tile stays in local memory.
// TILE-LABEL: .entry _Z11tile_rolledPKfS0_Pfi__pasta_plain(
// TILE-NOT: {{^}}}
// TILE: __local_depot

// The barrier loop stays a loop: one barrier in its body, not 16.
// REST-LABEL: .entry _Z7nw_tilePiPKii__pasta_plain(
// REST-COUNT-2: bar.sync
// REST-NOT: bar.sync
// REST: {{^}}}

#ifdef TILE
// SGEMM_CUDA's shape: an 8 x 16 tile of sums and two operand rows, every
// index a loop counter (clang's default leaves 544 bytes in local memory).
__global__ void tile(const float *a, const float *b, float *c, int n) {
  float sums[8 * 16] = {0.0f};
  float rowA[8], colB[16];
  int row = (blockIdx.y * blockDim.y + threadIdx.y) * 8;
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < 8; ++i)
      rowA[i] = a[(row + i) * n + k];
    for (int j = 0; j < 16; ++j)
      colB[j] = b[k * n + col + j];
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 16; ++j)
        sums[i * 16 + j] += rowA[i] * colB[j];
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      c[(row + i) * n + col + j] = sums[i * 16 + j];
}

__global__ void tile_rolled(const float *a, const float *b, float *c, int n) {
  float sums[8 * 16] = {0.0f};
  float rowA[8], colB[16];
  int row = (blockIdx.y * blockDim.y + threadIdx.y) * 8;
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  for (int k = 0; k < n; ++k) {
#pragma unroll 1
    for (int i = 0; i < 8; ++i)
      rowA[i] = a[(row + i) * n + k];
#pragma unroll 1
    for (int j = 0; j < 16; ++j)
      colB[j] = b[k * n + col + j];
#pragma unroll 1
    for (int i = 0; i < 8; ++i)
#pragma unroll 1
      for (int j = 0; j < 16; ++j)
        sums[i * 16 + j] += rowA[i] * colB[j];
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      c[(row + i) * n + col + j] = sums[i * 16 + j];
}
#else
// A constant-trip loop over global memory: no private array.
__global__ void column_sum(const float *a, float *out, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i)
    sum += a[i * n + col] * (float)(i + 1);
  out[col] = sum;
}

// Needleman-Wunsch's tile (the bundled nw): anti-diagonal steps over a
// shared tile, a barrier each step.
#define NW_TILE 16
__global__ void nw_tile(int *score, const int *ref, int n) {
  __shared__ int tile[NW_TILE + 1][NW_TILE + 1];
  int tx = threadIdx.x;
  int base = blockIdx.x * NW_TILE;
  tile[tx + 1][0] = score[(base + tx + 1) * n];
  tile[0][tx + 1] = score[base + tx + 1];
  __syncthreads();
  for (int m = 0; m < 2 * NW_TILE - 1; ++m) {
    int x = tx + 1, y = m - tx + 1;
    if (y >= 1 && y <= NW_TILE) {
      int best = tile[y - 1][x - 1] + ref[(base + y) * n + base + x];
      best = max(best, tile[y - 1][x] - 10);
      tile[y][x] = max(best, tile[y][x - 1] - 10);
    }
    __syncthreads();
  }
  score[(base + tx + 1) * n + base + NW_TILE] = tile[tx + 1][NW_TILE];
}
#endif
