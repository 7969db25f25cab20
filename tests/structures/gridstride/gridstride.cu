// Structure: grid-stride loops whose threads do little (issue [overhead-3]),
// the shape of
// NVIDIA's GUPS init and check kernels: each thread stores or loads one
// element per turn of a loop that starts at its index in the grid and
// steps by the grid's size. The loop's runs over a launch are the bound
// times the threads that share their x indices, which the grid's first
// thread adds (passes/GridStrideLoops.h); these counts must equal what
// every thread counting its own turns gave, for grids that do not divide
// the bound, grids larger than it, 2-D grids, a bound of 0 and a signed
// bound below 0.
//
// fill_ids(n, t): t[i] = i for i = gid, gid + T, ... below n (gid =
//   blockIdx.x * blockDim.x + threadIdx.x in unsigned int, T = gridDim.x *
//   blockDim.x; i a ptrdiff_t, n a size_t: GUPS's d_init).
// count_wrong(n, t, bad): the same loop reading t[i]; where t[i] != i one
//   atomicAdd of 1 to *bad (GUPS's d_check).
// fill_signed(n, t): the loop in long arithmetic ((long)blockIdx.x *
//   blockDim.x + threadIdx.x) with a long bound: t[i] = i (8 bytes).
// fill_int(n, t): the textbook loop on an int index, stride and bound
//   (histogram's shape): t[i] = i (4 bytes).
//
// Launches (N = 1,000,003, not a multiple of the 30,720 threads):
//   fill_ids<<<120, 256>>>(N)            : N stores of 8 bytes
//   fill_ids<<<(7, 2), (64, 3)>>>(5,000) : 448 threads along x, each x
//                                          index run by 2 x 3 = 6 threads:
//                                          6 x 5,000 = 30,000 stores
//   fill_ids<<<4, 256>>>(100)            : 100 stores (924 threads idle)
//   fill_ids<<<120, 256>>>(0)            : none
//     store_bytes.global = 8 x (1,000,003 + 30,000 + 100) = 8,240,824
//   (the host then writes 5 wrong values into t[0..N): a copy, not a kernel)
//   count_wrong<<<120, 256>>>(N)         : N loads of 8 bytes = 8,000,024;
//                                          5 atomics of 4 bytes = 20
//   fill_signed<<<33, 96>>>(777)         : 777 stores = 6,216 bytes
//   fill_signed<<<33, 96>>>(-5)          : none
//   fill_int<<<5, 128>>>(1,000)          : 1,000 stores of 4 bytes = 4,000
//   fill_int<<<5, 128>>>(-3)             : none
//   No floating point.
//
// clang-format off
// EXPECT: kernel _Z8fill_idsmPm launches=4 load_bytes.global=0 store_bytes.global=8240824 flops.f32=0 flops.f64=0
// EXPECT: kernel _Z11count_wrongmPKmPj launches=1 load_bytes.global=8000024 store_bytes.global=0 atomics.global=5 atomic_bytes.global=20 flops.f32=0
// EXPECT: kernel _Z11fill_signedlPl launches=2 load_bytes.global=0 store_bytes.global=6216 flops.f32=0
// EXPECT: kernel _Z8fill_intiPi launches=2 load_bytes.global=0 store_bytes.global=4000 flops.f32=0
// EXPECT: launch _Z8fill_idsmPm counted=4
// EXPECT: launch _Z11count_wrongmPKmPj counted=1
// EXPECT: launch _Z11fill_signedlPl counted=2
// EXPECT: launch _Z8fill_intiPi counted=2
// EXPECT: consistent
// clang-format on
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

// GUPS compares its ptrdiff_t index with its size_t bound (unsigned).
#pragma clang diagnostic ignored "-Wsign-compare"

constexpr size_t N = 1000003;
constexpr size_t Wrong[] = {0, 17, 30720, 500000, N - 1};

__global__ void fill_ids(size_t n, uint64_t *t) {
  for (ptrdiff_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    t[i] = i;
}

__global__ void count_wrong(size_t n, const uint64_t *t, unsigned *bad) {
  for (ptrdiff_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    if (t[i] != (uint64_t)i)
      atomicAdd(bad, 1u);
}

__global__ void fill_signed(long n, long *t) {
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    t[i] = i;
}

__global__ void fill_int(int n, int *t) {
  int stride = gridDim.x * blockDim.x; // int + int: no wrap (nsw)
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    t[i] = i;
}

int main() {
  uint64_t *d_t = nullptr;
  long *d_s = nullptr;
  unsigned *d_bad = nullptr;
  if (cudaMalloc(&d_t, N * sizeof(uint64_t)) != cudaSuccess ||
      cudaMalloc(&d_s, 1000 * sizeof(long)) != cudaSuccess ||
      cudaMalloc(&d_bad, sizeof(unsigned)) != cudaSuccess) {
    printf("FAILED: no device memory\n");
    return 1;
  }
  cudaMemset(d_bad, 0, sizeof(unsigned));
  cudaMemset(d_s, 0xff, 1000 * sizeof(long));
  fill_ids<<<120, 256>>>(N, d_t);
  fill_ids<<<dim3(7, 2), dim3(64, 3)>>>(5000, d_t);
  fill_ids<<<4, 256>>>(100, d_t);
  fill_ids<<<120, 256>>>(0, d_t);
  uint64_t junk = 3;
  for (size_t w : Wrong)
    cudaMemcpy(d_t + w, &junk, sizeof junk, cudaMemcpyHostToDevice);
  count_wrong<<<120, 256>>>(N, d_t, d_bad);
  fill_signed<<<33, 96>>>(777, d_s);
  fill_signed<<<33, 96>>>(-5, d_s);
  fill_int<<<5, 128>>>(1000, (int *)d_t);
  fill_int<<<5, 128>>>(-3, (int *)d_t);
  unsigned bad = 0;
  std::vector<long> s(1000);
  std::vector<int> ints(1000);
  cudaMemcpy(ints.data(), d_t, ints.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(s.data(), d_s, s.size() * sizeof(long),
                               cudaMemcpyDeviceToHost);
  cudaFree(d_t);
  cudaFree(d_s);
  cudaFree(d_bad);
  if (err != cudaSuccess) {
    printf("FAILED: %s\n", cudaGetErrorString(err));
    return 1;
  }
  bool ok = bad == sizeof Wrong / sizeof Wrong[0];
  for (long i = 0; i < 1000; ++i)
    ok = ok && s[i] == (i < 777 ? i : -1) && ints[i] == i;
  printf("wrong %u\n%s\n", bad, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
