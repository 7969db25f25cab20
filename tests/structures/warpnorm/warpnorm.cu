// Structure: a squared-difference norm summed by CUB's BlockReduce with
// warp reductions, the shape of NVIDIA's multi-GPU Jacobi kernels (issue 44
// [overhead-3] counts): a 2-D block of 32 x 32 threads over a domain that
// does not fill its last blocks, every thread (inside or not) joining the
// block's reduction, thread 0 adding the block's sum to the total. Beside
// it the same norm in double precision (1-D blocks of 128), one summed
// by a warp shuffle loop written in C++, and CUB's warp scan (its steps
// shuffle up under the same kind of predicate). Every figure below is derived
// by hand; the FLOPs equal Nsight Compute's.
//
// CUB's warp reduction (cub/warp/specializations/warp_reduce_shfl.cuh)
// adds each shuffle step's value in inline PTX, `shfl.sync.down.b32 r|p`
// followed by `@p add.f32` (`@p add.f64` for double): the add runs in the
// lanes whose predicate is on, those whose source lane (lane + offset) is
// inside the warp, 31 + 30 + 28 + 24 + 16 = 129 adds a full warp for the
// offsets 1, 2, 4, 8, 16. Nsight Compute counts those; PASTA counts them at
// run time (passes/InlineAsmMemory.h; until session 25 not at all, the
// Jacobi kernels' missing 4 FLOPs a point). The block's 32 (or 4) warp
// sums are then added by thread 0 in C++: 31 (or 3) adds a block.
//
// Inputs: a[i] = i % 7, b[i] = i % 5 (floats); each point's d = a - b,
// d * d summed; small integers, so every order of summation gives the
// same exact sum, checked against the host's.
//
// block_norm<32, 32> (NX = 1,000, NY = 70, grid 32 x 3 = 96 blocks of
//   1,024 threads, 3,072 warps): 70,000 points inside, each loading a and b
//   (8 B: 560,000 B) and doing 1 fsub + 1 fmul (140,000 f32 FLOPs); every
//   warp's CUB reduction 129 adds (3,072 x 129 = 396,288); thread 0 of each
//   block adds 31 warp sums (96 x 31 = 2,976) and does one atomicAdd (96,
//   384 B): f32 539,264, Nsight Compute's figure too.
// block_norm_f64 (N = 10,000, 79 blocks of 128 threads, 316 warps): 10,000
//   elements loading a and b (16 B: 160,000 B), 1 fsub + 1 fmul in double
//   (20,000); 129 adds a warp (316 x 129 = 40,764); thread 0 adds 3 warp
//   sums a block (237) and does one atomicAdd (79, 632 B): f64 61,001.
//   Nsight Compute counts 70,797 on an H200: ptxas turns `@p add.f64` into
//   an unpredicated DADD and two FSELs, so all 32 lanes add (160 a warp,
//   31 x 316 = 9,796 more than the program asks for).
// shuffle_norm (N = 10,000, 79 blocks of 128 threads): 10,000 elements
//   loading a and b (80,000 B), 1 fsub + 1 fmul (20,000), then every one of
//   the 10,112 threads adds 4 shuffled values in C++ (40,448: IR fadds, not
//   predicated); the fifth add only lane 0 needs, and LLVM sinks it into
//   lane 0's branch: 316; lane 0 of each of the 316 warps does one
//   atomicAdd (1,264 B): f32 60,764.
// warp_scan (N = 4,096, 32 blocks of 128 threads, 128 full warps): each
//   thread loads a[i] (16,384 B) and CUB's WarpScan InclusiveSum adds in
//   inline PTX after `shfl.sync.up.b32 r|p` by 1, 2, 4, 8, 16, in the lanes
//   at least that far from lane 0: 31 + 30 + 28 + 24 + 16 = 129 a warp
//   (16,512); it stores the prefix (16,384 B): f32 16,512.
//
// clang-format off
// EXPECT: kernel _Z10block_normILi32ELi32EEvPKfS1_Pfii launches=1 load_bytes.global=560000 flops.f32=539264 flops.f64=0 atomics.global=96 atomic_bytes.global=384
// EXPECT: kernel _Z14block_norm_f64PKdS0_Pdi launches=1 load_bytes.global=160000 flops.f32=0 flops.f64=61001 atomics.global=79 atomic_bytes.global=632
// EXPECT: kernel _Z12shuffle_normPKfS0_Pfi launches=1 load_bytes.global=80000 flops.f32=60764 atomics.global=316 atomic_bytes.global=1264
// EXPECT: kernel _Z9warp_scanPKfPfi launches=1 load_bytes.global=16384 store_bytes.global=16384 flops.f32=16512
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda_runtime.h>
#include <vector>

constexpr int NX = 1000, NY = 70; // block_norm's domain
constexpr int N = 10000;          // the 1-D kernels' elements
constexpr int Block1D = 128;

template <int BX, int BY>
__global__ void block_norm(const float *a, const float *b, float *total, int nx,
                           int ny) {
  using Reduce =
      cub::BlockReduce<float, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY>;
  __shared__ typename Reduce::TempStorage scratch;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float mine = 0.0f;
  if (x < nx && y < ny) {
    float d = a[y * nx + x] - b[y * nx + x];
    mine = d * d;
  }
  float sum = Reduce(scratch).Sum(mine);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    atomicAdd(total, sum);
}

__global__ void block_norm_f64(const double *a, const double *b, double *total,
                               int n) {
  using Reduce =
      cub::BlockReduce<double, Block1D, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename Reduce::TempStorage scratch;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double mine = 0.0;
  if (i < n) {
    double d = a[i] - b[i];
    mine = d * d;
  }
  double sum = Reduce(scratch).Sum(mine);
  if (threadIdx.x == 0)
    atomicAdd(total, sum);
}

__global__ void shuffle_norm(const float *a, const float *b, float *total,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float mine = 0.0f;
  if (i < n) {
    float d = a[i] - b[i];
    mine = d * d;
  }
  for (int offset = 16; offset > 0; offset /= 2)
    mine += __shfl_down_sync(0xffffffffu, mine, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(total, mine);
}

__global__ void warp_scan(const float *a, float *prefix, int n) {
  using Scan = cub::WarpScan<float>;
  __shared__ typename Scan::TempStorage scratch[Block1D / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  Scan(scratch[threadIdx.x / 32]).InclusiveSum(i < n ? a[i] : 0.0f, sum);
  if (i < n)
    prefix[i] = sum;
}

template <typename T> static T *toDevice(const std::vector<T> &host) {
  T *p = nullptr;
  cudaMalloc(&p, host.size() * sizeof(T));
  cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

template <typename T> static T readBack(const T *p) {
  T v{};
  cudaMemcpy(&v, p, sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}

// The exact norm of the first count points: sum of ((i % 7) - (i % 5))^2.
static long long expectedNorm(int count) {
  long long sum = 0;
  for (int i = 0; i < count; ++i) {
    long long d = i % 7 - i % 5;
    sum += d * d;
  }
  return sum;
}

int main() {
  std::vector<float> af(NX * NY), bf(NX * NY);
  std::vector<double> ad(N), bd(N);
  for (int i = 0; i < NX * NY; ++i) {
    af[i] = float(i % 7);
    bf[i] = float(i % 5);
  }
  for (int i = 0; i < N; ++i) {
    ad[i] = double(i % 7);
    bd[i] = double(i % 5);
  }
  float *a = toDevice(af), *b = toDevice(bf);
  double *a64 = toDevice(ad), *b64 = toDevice(bd);
  float *sums = nullptr;
  double *sum64 = nullptr;
  cudaMalloc(&sums, 2 * sizeof(float));
  cudaMalloc(&sum64, sizeof(double));
  cudaMemset(sums, 0, 2 * sizeof(float));
  cudaMemset(sum64, 0, sizeof(double));

  dim3 block(32, 32), grid((NX + 31) / 32, (NY + 31) / 32);
  block_norm<32, 32><<<grid, block>>>(a, b, sums, NX, NY);
  int blocks1D = (N + Block1D - 1) / Block1D;
  block_norm_f64<<<blocks1D, Block1D>>>(a64, b64, sum64, N);
  shuffle_norm<<<blocks1D, Block1D>>>(a, b, sums + 1, N);
  constexpr int Scanned = 4096;
  float *prefix = nullptr;
  cudaMalloc(&prefix, Scanned * sizeof(float));
  warp_scan<<<Scanned / Block1D, Block1D>>>(a, prefix, Scanned);
  cudaError_t err = cudaDeviceSynchronize();
  std::vector<float> scanned(Scanned);
  cudaMemcpy(scanned.data(), prefix, Scanned * sizeof(float),
             cudaMemcpyDeviceToHost);
  bool scanOk = true;
  for (int i = 0, run = 0; i < Scanned; ++i) {
    run = (i % 32 == 0 ? 0 : run) + i % 7; // a[i] = i % 7, per warp
    scanOk = scanOk && scanned[i] == float(run);
  }

  float norm2d = readBack(sums), norm1d = readBack(sums + 1);
  double norm64 = readBack(sum64);
  long long want2d = expectedNorm(NX * NY), want1d = expectedNorm(N);
  bool ok = err == cudaSuccess && (long long)norm2d == want2d &&
            (long long)norm64 == want1d && (long long)norm1d == want1d &&
            scanOk;
  printf("block_norm %.1f block_norm_f64 %.1f shuffle_norm %.1f\n", norm2d,
         norm64, norm1d);
  printf("warp_scan %s\n", scanOk ? "matches" : "differs");
  printf("%s\n", ok ? "PASSED" : "FAILED");
  cudaFree(a);
  cudaFree(b);
  cudaFree(a64);
  cudaFree(b64);
  cudaFree(sums);
  cudaFree(sum64);
  cudaFree(prefix);
  return ok ? 0 : 1;
}
