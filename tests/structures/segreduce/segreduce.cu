// Structure: moderngpu's lbs_segreduce shape (cities' lbs_segreduce ran 66x
// its plain time on the H200, issue [overhead-3]).
// The kernel hands its
// by-value job (pointers inside) on by value to a __noinline__ device
// function, as launch_box_cta_k hands its lambda to restrict_forward; that
// one stages the tile in __shared__ memory and calls another __noinline__
// function, as cta_segreduce_t::segreduce, with generic pointers to the
// shared tile and to its own per-thread array. The callee's 16 guarded
// blocks (a bit of the thread's flags each) read the tile and update the
// array: its twin has far more counters than a twin may return (8), so it
// flushes at its return, once per thread. The pointers' spaces are known
// from the calls: no run-time space test should be needed.
//
// segreduce_kernel(job): G = 64 blocks of B = 128 threads, VT = 16 values
//   a thread, n = G * B * VT = 131,072, job.in[i] = i % 1000.
//   gather (per thread): VT global loads of job.in (4 B), VT shared stores
//     into the tile; mine[i] = i (VT local stores); after seg_fold, VT local
//     loads of mine and one global store of the sum to job.out.
//   seg_fold (per thread): flags = tid | tid << 7 | tid << 14; for each
//     i < VT with bit i set: mine[i] += tile[(tid * VT + i) % (B * VT)]
//     (a shared load, a local load, a local store). Bit i of flags is bit
//     (i mod 7) of tid, set in 64 of the 128 threads of a block: 16 * 64 =
//     1,024 guarded updates a block, 65,536 in all.
//   load_bytes.global = 4 * n = 524,288 (job.in; the job's own fields are
//     read from gather's by-value copy in place, ld.param: constant space,
//     not global memory)
//   store_bytes.global = 4 * G * B = 32,768
//   store_bytes.shared = 4 * n = 524,288
//   load_bytes.shared = 4 * 65,536 = 262,144
//   store_bytes.local = 4 * n (mine's initial values) + 4 * 65,536 =
//     786,432
//   load_bytes.local = 4 * n (the sum) + 4 * 65,536 = 786,432
//   No floating point: flops.f32 = 0.
//
// clang-format off
// EXPECT: kernel _Z16segreduce_kernel3Job launches=1 load_bytes.global=524288 store_bytes.global=32768 store_bytes.shared=524288 load_bytes.shared=262144 store_bytes.local=786432 load_bytes.local=786432 flops.f32=0
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

constexpr int G = 64, B = 128, VT = 16, N = G * B * VT;

struct Job {
  const int *in;
  int *out;
};

// cta_segreduce_t::segreduce's shape: guarded updates of the caller's
// per-thread array from the shared tile, both through generic pointers.
__device__ __noinline__ void seg_fold(const int *tile, int *mine, int tid,
                                      unsigned flags) {
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (flags & (1u << i))
      mine[i] += tile[(tid * VT + i) % (B * VT)];
}

// restrict_forward's shape: the job comes by value, the tile by pointer.
__device__ __noinline__ void gather(Job job, int *tile) {
  const int tid = threadIdx.x, base = blockIdx.x * B * VT;
#pragma unroll
  for (int i = 0; i < VT; ++i)
    tile[i * B + tid] = job.in[base + i * B + tid];
  __syncthreads();
  int mine[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i)
    mine[i] = i;
  seg_fold(tile, mine, tid, tid | tid << 7 | tid << 14);
  int sum = 0;
#pragma unroll
  for (int i = 0; i < VT; ++i)
    sum += mine[i];
  job.out[blockIdx.x * B + tid] = sum;
}

__global__ void segreduce_kernel(Job job) {
  __shared__ int tile[B * VT];
  gather(job, tile);
}

// The host's result: each thread's sum of its array after the fold.
static std::vector<int> expected(const std::vector<int> &in) {
  std::vector<int> out(G * B);
  for (int blk = 0; blk < G; ++blk)
    for (int tid = 0; tid < B; ++tid) {
      const int *tile = &in[blk * B * VT]; // the block's tile, in order
      unsigned flags = tid | tid << 7 | tid << 14;
      int sum = 0;
      for (int i = 0; i < VT; ++i) {
        int v = i;
        if (flags & (1u << i))
          v += tile[(tid * VT + i) % (B * VT)];
        sum += v;
      }
      out[blk * B + tid] = sum;
    }
  return out;
}

int main(int argc, char **argv) {
  int repeats = argc > 1 ? atoi(argv[1]) : 1; // timing runs launch it more
  std::vector<int> in(N);
  for (int i = 0; i < N; ++i)
    in[i] = i % 1000;
  std::vector<int> want = expected(in), got(G * B);
  Job job{};
  int *d_in = nullptr;
  if (cudaMalloc(&d_in, N * sizeof(int)) != cudaSuccess ||
      cudaMalloc(&job.out, G * B * sizeof(int)) != cudaSuccess) {
    printf("FAILED: no device memory\n");
    return 1;
  }
  job.in = d_in;
  cudaMemcpy(d_in, in.data(), N * sizeof(int), cudaMemcpyHostToDevice);
  for (int r = 0; r < repeats; ++r)
    segreduce_kernel<<<G, B>>>(job);
  cudaError_t err = cudaMemcpy(got.data(), job.out, G * B * sizeof(int),
                               cudaMemcpyDeviceToHost);
  uint64_t checksum = 0;
  for (int v : got)
    checksum = checksum * 31 + (uint32_t)v;
  bool ok = err == cudaSuccess && got == want;
  if (err != cudaSuccess)
    printf("segreduce_kernel: %s\n", cudaGetErrorString(err));
  cudaFree(d_in);
  cudaFree(job.out);
  printf("checksum %llu\n%s\n", (unsigned long long)checksum,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
