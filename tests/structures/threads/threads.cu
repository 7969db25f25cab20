// Structure: 4 host threads (std::thread), each with its own non-blocking
// stream and its own buffers, released together by a barrier, each
// launching the same kernel 25 times on its stream, then synchronising its
// stream. Shape of a server or a data-loader pipeline: several threads
// share one CUDA context and launch at once.
//
// Kernel saxpy_step(y, x, a): y[i] = a * x[i] + y[i], one thread per
// element, n = 2^16 per launch, 256 threads per block (256 blocks), every
// thread in range.
//
// Expected counts (4 threads x 25 launches = 100 launches):
//   launches           = 100
//   load_bytes.global  = 100 launches x n threads x 2 loads x 4 bytes
//                      = 100 x 65536 x 8 = 52,428,800
//   store_bytes.global = 100 x 65536 x 4 = 26,214,400
//   flops.f32          = 100 x 65536 x 2 (one multiply and one add, or one
//                        FMA counted as 2) = 13,107,200
// Launch table (launches.kernels[]): saxpy_step with 100 launches, all of
// one shape (grid 256x1x1, block 256x1x1), no failed launch.
//
// Result: thread t uses a = t + 1, x = 1, y starts at 0: after 25 steps
// y[i] = 25 (t + 1) exactly; the checksum is the sum over all threads and
// elements, 65536 x 25 x (1 + 2 + 3 + 4) = 16,384,000.
//
// clang-format off
// EXPECT: kernel _Z10saxpy_stepPfPKff launches=100 load_bytes.global=52428800 store_bytes.global=26214400 flops.f32=13107200
// EXPECT: launch _Z10saxpy_stepPfPKff launches=100 failed=0 shapes=1
// EXPECT: consistent
// clang-format on
#include <atomic>
#include <cstdio>
#include <cuda_runtime.h>
#include <thread>
#include <vector>

__global__ void saxpy_step(float *y, const float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];
}

namespace {
constexpr int kThreads = 4, kSteps = 25, kN = 1 << 16, kBlock = 256;
std::atomic<int> waiting{kThreads};

// One worker: returns the sum of its y, or -1 on a CUDA error.
double worker(int t) {
  cudaStream_t s;
  float *x, *y;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
      cudaMalloc(&x, kN * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&y, kN * sizeof(float)) != cudaSuccess)
    return -1;
  std::vector<float> h(kN, 1.0f);
  cudaMemcpyAsync(x, h.data(), kN * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaMemsetAsync(y, 0, kN * sizeof(float), s);
  cudaStreamSynchronize(s);
  // Everyone launches at once.
  waiting.fetch_sub(1);
  while (waiting.load() > 0)
    std::this_thread::yield();
  for (int step = 0; step < kSteps; ++step)
    saxpy_step<<<kN / kBlock, kBlock, 0, s>>>(y, x, (float)(t + 1));
  cudaMemcpyAsync(h.data(), y, kN * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaError_t e = cudaStreamSynchronize(s);
  cudaFree(x);
  cudaFree(y);
  cudaStreamDestroy(s);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "threads: thread %d: %s\n", t, cudaGetErrorString(e));
    return -1;
  }
  double sum = 0;
  for (float v : h) {
    if (v != (float)(kSteps * (t + 1)))
      return -1;
    sum += v;
  }
  return sum;
}
} // namespace

int main() {
  cudaFree(nullptr); // create the context before the threads start
  std::vector<double> sums(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([t, &sums] { sums[t] = worker(t); });
  for (auto &th : pool)
    th.join();
  double total = 0;
  bool ok = true;
  for (double s : sums) {
    ok = ok && s >= 0;
    total += s;
  }
  ok = ok && total == 65536.0 * kSteps * (1 + 2 + 3 + 4);
  std::printf("threads: %s checksum %.0f\n", ok ? "PASSED" : "FAILED", total);
  return ok ? 0 : 1;
}
