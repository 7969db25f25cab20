// Structure: a program that does its GPU work through Thrust (and so CUB)
// from the CUDA toolkit (CUDA 13 keeps them under <cuda>/include/cccl):
// thrust::device_vector, transform, sort, reduce, plus one kernel of its own.
// The library's kernels are templates instantiated in this translation unit,
// so the plugin compiles and counts them like the program's own.
//
// N = 2^20 ints. Steps:
//   1. keys[i] = scramble(i) on the host (a permutation of 0..N-1: i * 7919
//      mod N, 7919 odd), copied into a device_vector (thrust's copy is a
//      cudaMemcpy, not a kernel);
//   2. thrust::transform(keys -> sq, sq[i] = 3 * (long long)keys[i] + 1):
//      integers only, 8-byte results;
//   3. thrust::sort(keys): a CUB radix sort (onesweep on sm_90: histogram,
//      exclusive sum, one-sweep kernels; the number of passes depends on
//      CUB's tuning, not on this program);
//   4. thrust::reduce(sq) = sum(3 k + 1) for k in 0..N-1
//      = 3 N (N - 1) / 2 + N (int64 accumulation, below);
//   5. our own kernel mark_sorted<<<N / 256, 256>>>(keys, flags): one thread
//      per element, flags[i] = keys[i] == i (sorted permutation).
//
// Expected counts, derived by hand where the code is ours:
//   mark_sorted: 1 launch; per thread 1 global load of keys[i] (4 bytes) and
//     1 global store of flags[i] (4 bytes): load_bytes.global = 4 N =
//     4,194,304, store_bytes.global = 4 N = 4,194,304; no FLOPs (integer
//     compare only).
//   Thrust's kernels: how many launches and bytes CUB's tuning chooses is
//     not ours to derive, so the check is structural, and exact where the
//     data fixes it:
//   - the transform kernel (cub's DeviceTransform; one instance, named with
//     the functor times_three_plus_one) stores exactly N long longs:
//     store_bytes.global = 8 N = 8,388,608, after reading each of the N
//     ints once: load_bytes.global = 4 N = 4,194,304; it launches once;
//   - the sort's kernels (names with "RadixSort" or "Onesweep") and the
//     reduction's ("Reduce") each launched at least once;
//   - every kernel's device-side launch count equals the host's launch table
//     (launches.kernels[]): every launch went through the intercepted API.
//
// clang-format off
// EXPECT: kernel _Z11mark_sortedPKiPi launches=1 load_bytes.global=4194304 store_bytes.global=4194304 flops.f32=0
// EXPECT: kernel .*transform.*times_three_plus_one.* matches>=1 launches=1 load_bytes.global=4194304 store_bytes.global=8388608
// EXPECT: kernel .*(RadixSort|Onesweep).* matches>=1 launches>=1
// EXPECT: kernel .*Reduce.* matches>=1 launches>=1
// EXPECT: launch _Z11mark_sortedPKiPi launches=1
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <vector>

__global__ void mark_sorted(const int *keys, int *flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  flags[i] = keys[i] == i;
}

struct times_three_plus_one {
  __host__ __device__ long long operator()(int k) const { return 3LL * k + 1; }
};

// THRUST_REPEAT=R (for benchmarks; default 1, what the EXPECT lines count):
// steps 1-5 R times in one process, each from the scrambled keys again, so
// that a profiler times R launches of every kernel from one process start.
static int repeats() {
  const char *env = std::getenv("THRUST_REPEAT");
  int r = env ? std::atoi(env) : 1;
  return r > 0 ? r : 1;
}

int main() {
  const int n = 1 << 20;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = (int)(((long long)i * 7919) % n);
  long long want = 3LL * n * (n - 1) / 2 + n, sum = 0, sorted = 0;
  bool ok = true;
  for (int r = repeats(); r > 0; --r) {
    thrust::device_vector<int> keys(host.begin(), host.end());
    thrust::device_vector<long long> sq(n);
    thrust::transform(keys.begin(), keys.end(), sq.begin(),
                      times_three_plus_one());
    thrust::sort(keys.begin(), keys.end());
    sum = thrust::reduce(sq.begin(), sq.end(), 0LL);
    thrust::device_vector<int> flags(n);
    mark_sorted<<<n / 256, 256>>>(thrust::raw_pointer_cast(keys.data()),
                                  thrust::raw_pointer_cast(flags.data()));
    thrust::host_vector<int> f = flags;
    sorted = 0;
    for (int i = 0; i < n; ++i)
      sorted += f[i];
    ok = ok && sum == want && sorted == n;
  }
  std::printf("thrust: %s checksum %lld sorted %lld\n",
              ok ? "PASSED" : "FAILED", sum, sorted);
  return ok ? 0 : 1;
}
