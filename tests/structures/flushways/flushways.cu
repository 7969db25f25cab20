// Structure: kernels whose counting copies flush on each way into their
// return and add loop counts at the loop's exit (issue [overhead-3]).
// The
// grids are not multiples of the data, so every way is taken: whole warps
// beyond the data, warps that leave early, lanes split by `lane == 0`, and a
// thread block whose last warp is partly beyond the data.
//
// block_sums(in, out, n): the shape of the suite's reductions, 256 threads
//   a block. Warps wholly at or beyond n return at once (warp-uniform); the
//   others load (0 beyond n), sum their warp by 5 shuffle-adds, and lane 0
//   stores the warp's sum in shared memory; after a
//   barrier warps 1-7 return (warp-uniform); warp 0 reads the sums of the
//   block's live warps (lane < live, lane < 8), sums them by 5 more
//   shuffle-adds, and its lane 0 stores the block's sum.
//   n = 262,244 = 1,024 * 256 + 100: 1,025 blocks; the last holds 100
//   elements, 4 live warps (the fourth with 4 elements), 4 warps beyond n.
//   Live warps: ceil(n / 32) = 8,196.
//     load_bytes.global = 4 n = 1,048,976
//     store_bytes.shared = 4 * 8,196 (one per live warp) = 32,784
//     load_bytes.shared = 4 * (1,024 * 8 + 4) = 32,784
//     store_bytes.global = 4 * 1,025 (one per block) = 4,100
//   Each tree's fifth add has one use, lane 0's store, and the compiler
//   moves it into lane 0's branch (so does the plain build, and ncu counts
//   it once): 4 * 32 + 1 = 129 adds a tree.
//     flops.f32 = 129 * 8,196 (first tree, every live warp)
//       + 129 * 1,025 (second tree, warp 0 of every block)
//       = 1,057,284 + 132,225 = 1,189,509
//
// row_sums(a, out, rows, cols): a thread per row, threads beyond the rows
//   return at once; a loop of cols iterations (known before the loop: its
//   count is added at its exit) sums the row.
//   rows = 3,000, cols = 37: 12 blocks of 256 (72 threads beyond the rows).
//     load_bytes.global = 4 * 3,000 * 37 = 444,000
//     store_bytes.global = 4 * 3,000 = 12,000
//     flops.f32 = 3,000 * 37 = 111,000
//
// leaders(in, out, lead, rows, cols): 16 x 16 thread blocks over a rows x
//   cols grid; threads beyond it return (a 2-D bounds check: its cold edge
//   is counted where it is taken, in warps the bound splits); every thread
//   inside doubles its element; the first column of each block row
//   (`threadIdx.x == 0`, a block the counting copy takes for one lane's:
//   here two lanes of each warp, 16 threads wide) also copies its element
//   to lead[].
//   rows = 100, cols = 70: 5 x 7 blocks; 7,000 threads inside; leaders: 5
//   block columns (c = 0, 16, 32, 48, 64, all < 70) x 100 rows = 500.
//     load_bytes.global = 4 * (7,000 + 500) = 30,000
//     store_bytes.global = 4 * (7,000 + 500) = 30,000
//     flops.f32 = 7,000
//
// Inputs are small integers, so every sum is exact in any order; results
// are checked against the host's.
//
// clang-format off
// EXPECT: kernel _Z10block_sumsPKfPfi launches=1 load_bytes.global=1048976 store_bytes.global=4100 load_bytes.shared=32784 store_bytes.shared=32784 flops.f32=1189509
// EXPECT: kernel _Z8row_sumsPKfPfii launches=1 load_bytes.global=444000 store_bytes.global=12000 flops.f32=111000
// EXPECT: kernel _Z7leadersPKfPfS1_ii launches=1 load_bytes.global=30000 store_bytes.global=30000 flops.f32=7000
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Threads = 256, Lanes = 32;

__global__ void block_sums(const float *in, float *out, int n) {
  __shared__ float warp_sums[Threads / Lanes];
  const int base = blockIdx.x * blockDim.x;
  const int lane = threadIdx.x % Lanes, warp = threadIdx.x / Lanes;
  if (base + warp * Lanes >= n)
    return;
  const int i = base + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int off = Lanes / 2; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp != 0)
    return;
  const int live = (n - base + Lanes - 1) / Lanes;
  float w = 0.0f;
  if (lane < live && lane < Threads / Lanes)
    w = warp_sums[lane];
  for (int off = Lanes / 2; off > 0; off /= 2)
    w += __shfl_down_sync(0xffffffffu, w, off);
  if (lane == 0)
    out[blockIdx.x] = w;
}

__global__ void row_sums(const float *a, float *out, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += a[r * cols + c];
  out[r] = s;
}

__global__ void leaders(const float *in, float *out, float *lead, int rows,
                        int cols) {
  const int r = blockIdx.y * 16 + threadIdx.y;
  const int c = blockIdx.x * 16 + threadIdx.x;
  if (r >= rows || c >= cols)
    return;
  out[r * cols + c] = in[r * cols + c] * 2.0f;
  if (threadIdx.x == 0)
    lead[r * gridDim.x + blockIdx.x] = in[r * cols + c];
}

static int check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return 0;
  std::printf("flushways: FAILED: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

int main() {
  const int n = 1024 * Threads + 100, blocks = (n + Threads - 1) / Threads;
  const int rows = 3000, cols = 37;
  const int lrows = 100, lcols = 70, lbx = (lcols + 15) / 16,
            lby = (lrows + 15) / 16;
  std::vector<float> in(n), a(rows * cols), sums(blocks), rs(rows);
  std::vector<float> lout(lrows * lcols), llead(lrows * lbx);
  for (int i = 0; i < n; ++i)
    in[i] = (float)((i * 7 + 3) % 5) - 2.0f;
  for (int i = 0; i < rows * cols; ++i)
    a[i] = (float)((i * 11 + 1) % 9) - 4.0f;
  float *din, *dsums, *da, *drs, *dlout, *dllead;
  if (check(cudaMalloc(&din, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dsums, blocks * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&da, rows * cols * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&drs, rows * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dlout, lrows * lcols * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dllead, lrows * lbx * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(da, a.data(), rows * cols * sizeof(float), cudaMemcpyHostToDevice);
  block_sums<<<blocks, Threads>>>(din, dsums, n);
  row_sums<<<(rows + Threads - 1) / Threads, Threads>>>(da, drs, rows, cols);
  leaders<<<dim3(lbx, lby), dim3(16, 16)>>>(da, dlout, dllead, lrows, lcols);
  if (check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  cudaMemcpy(sums.data(), dsums, blocks * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(rs.data(), drs, rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(lout.data(), dlout, lrows * lcols * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(llead.data(), dllead, lrows * lbx * sizeof(float),
             cudaMemcpyDeviceToHost);
  int bad = 0;
  double checksum = 0;
  for (int b = 0; b < blocks; ++b) {
    float want = 0.0f;
    for (int i = b * Threads; i < n && i < (b + 1) * Threads; ++i)
      want += in[i];
    bad += sums[b] != want;
    checksum += sums[b];
  }
  for (int r = 0; r < rows; ++r) {
    float want = 0.0f;
    for (int c = 0; c < cols; ++c)
      want += a[r * cols + c];
    bad += rs[r] != want;
    checksum += rs[r];
  }
  for (int r = 0; r < lrows; ++r)
    for (int c = 0; c < lcols; ++c) {
      bad += lout[r * lcols + c] != a[r * lcols + c] * 2.0f;
      if (c % 16 == 0)
        bad += llead[r * lbx + c / 16] != a[r * lcols + c];
      checksum += lout[r * lcols + c];
    }
  cudaFree(dlout);
  cudaFree(dllead);
  cudaFree(din);
  cudaFree(dsums);
  cudaFree(da);
  cudaFree(drs);
  std::printf("flushways: checksum %.1f\n", checksum);
  std::printf("flushways: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
