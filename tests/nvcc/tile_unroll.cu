// A register-tiled kernel as code tuned for nvcc writes it (SGEMM_CUDA's
// shape): each thread keeps an 8 x 16 tile of sums and two rows of operands
// in arrays whose every index is a loop counter. nvcc unrolls those loops
// fully and keeps the arrays in registers; clang-22's default threshold
// (300 at -O3) leaves the 8 x 16 loop nest rolled and the arrays in local
// memory (544 bytes a thread here; SGEMM_CUDA's kernel 10 ran 17-47x
// slower than nvcc's build so). pasta-nvcc and the CMake toolchain's
// launcher pass device code -mllvm -pasta-unroll-private-arrays
// (driver/nvcc_command.c, passes/PrivateArrayUnroll.h).
// Built by ctests nvcc-tile-unroll (pasta-nvcc -ptx), nvcc-tile-unroll-cmake
// (the launcher) and nvcc-tile-unroll-own (the user's own threshold wins:
// -Xcompiler -mllvm,-unroll-threshold=300, clang's default) and checked with
// FileCheck: no copy of the kernel has a local depot, but with the user's
// 300.

// CHECK-LABEL: .entry _Z4tilePKfS0_Pfi(
// CHECK-NOT: __local_depot
// CHECK: {{^}}}
// CHECK-LABEL: .entry _Z4tilePKfS0_Pfi__pasta_plain(
// CHECK-NOT: __local_depot
// CHECK: {{^}}}
// CHECK-LABEL: .entry _Z4tilePKfS0_Pfi__pasta_capped(
// CHECK-NOT: __local_depot
// CHECK: {{^}}}
// CHECK-LABEL: .entry _Z4tilePKfS0_Pfi__pasta_ws(
// CHECK-NOT: __local_depot
// CHECK: {{^}}}
// OWN-LABEL: .entry _Z4tilePKfS0_Pfi__pasta_plain(
// OWN-NOT: {{^}}}
// OWN: __local_depot
#define TILE_ROWS 8
#define TILE_COLS 16

__global__ void tile(const float *a, const float *b, float *c, int n) {
  float sums[TILE_ROWS * TILE_COLS] = {0.0f};
  float rowA[TILE_ROWS], colB[TILE_COLS];
  int row = (blockIdx.y * blockDim.y + threadIdx.y) * TILE_ROWS;
  int col = (blockIdx.x * blockDim.x + threadIdx.x) * TILE_COLS;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < TILE_ROWS; ++i)
      rowA[i] = a[(row + i) * n + k];
    for (int j = 0; j < TILE_COLS; ++j)
      colB[j] = b[k * n + col + j];
    for (int i = 0; i < TILE_ROWS; ++i)
      for (int j = 0; j < TILE_COLS; ++j)
        sums[i * TILE_COLS + j] += rowA[i] * colB[j];
  }
  for (int i = 0; i < TILE_ROWS; ++i)
    for (int j = 0; j < TILE_COLS; ++j)
      c[(row + i) * n + col + j] = sums[i * TILE_COLS + j];
}
