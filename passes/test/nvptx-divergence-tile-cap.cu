// A loop-free divergence copy whose kernel stages data through a shared
// tile (a block barrier, shared loads and stores) and gets no body for rows
// of 32 is capped at 32 registers, not 48 (DivergenceEmission.cpp,
// capRegisters: transpose_padded 2.13x -> 1.78x the plain kernel on an
// H200). A loop-free copy without shared memory (scale) keeps
// 48; -pasta-div-tile-cap32=0 gives the transpose 48 too.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence 2>/dev/null | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o - -mllvm -pasta-divergence -mllvm -pasta-div-tile-cap32=0 2>/dev/null | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: .visible .entry _Z5scalePKfPfi__pasta_div(
// CHECK: .maxnreg 48
// CHECK-LABEL: .visible .entry _Z9transposePKfPfi__pasta_div(
// CHECK: .maxnreg 32
// OFF-LABEL: .visible .entry _Z9transposePKfPfi__pasta_div(
// OFF: .maxnreg 48

__global__ void scale(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t % n, col = t / n;
  if (col < n)
    out[row * n + col] = 2.0f * in[row * n + col];
}

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
