// one_block_sum.cu - short one-block kernels for timing PASTA's counting
// copies' fixed cost (bench/gpu_short_kernels.sh): not a test of counts.
//   warp_sum   one block of 32 threads adds n values (a strided loop over a
//              kernel argument) and halves a shared array (a loop of
//              `__syncthreads`), thread 0 stores: the shape of HeCBench
//              concurrentKernels' `sum` (1.70x under ncu in session 13)
//   tile_sum   one block of 256 threads, two loads a thread, warp
//              shuffles, shared partials: CUB's single-tile reduction's
// Every count of both is alike in every thread block (the first block's
// flush). Usage: ./one_block_sum [launches] (default 20); each launch's sum
// checked. Prints "one_block_sum: PASSED" (exit 0) or "... FAILED" (1).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                  \
    do {                                                                          \
        cudaError_t e = (x);                                                      \
        if (e != cudaSuccess) {                                                   \
            std::printf("one_block_sum: FAILED %s: %s\n", #x,                     \
                        cudaGetErrorString(e));                                   \
            std::exit(1);                                                         \
        }                                                                         \
    } while (0)

__global__ void warp_sum(long long* values, int n) {
    __shared__ long long partial[32];
    long long mine = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) mine += values[i];
    partial[threadIdx.x] = mine;
    __syncthreads();
    for (int half = 16; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) values[n] = partial[0];
}

__global__ void tile_sum(const long long* in, long long* out) {
    __shared__ long long partial[8];
    long long v = in[threadIdx.x] + in[threadIdx.x + 256];
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        long long w = threadIdx.x < 8 ? partial[threadIdx.x] : 0;
        for (int d = 16; d > 0; d /= 2) w += __shfl_xor_sync(0xffffffffu, w, d);
        if (threadIdx.x == 0) *out = w;
    }
}

int main(int argc, char** argv) {
    int launches = argc > 1 ? std::atoi(argv[1]) : 20;
    const int n = 512;
    std::vector<long long> host(n + 1, 0);
    long long want = 0;
    for (int i = 0; i < n; ++i) want += host[i] = i * 7 - 100;
    long long *values, *out;
    CHECK(cudaMalloc(&values, (n + 1) * sizeof(long long)));
    CHECK(cudaMalloc(&out, sizeof(long long)));
    CHECK(cudaMemcpy(values, host.data(), (n + 1) * sizeof(long long),
                     cudaMemcpyHostToDevice));
    for (int l = 0; l < launches; ++l) {
        long long got[2] = {0, 0};
        warp_sum<<<1, 32>>>(values, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&got[0], values + n, sizeof(long long), cudaMemcpyDeviceToHost));
        tile_sum<<<1, 256>>>(values, out);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(&got[1], out, sizeof(long long), cudaMemcpyDeviceToHost));
        if (got[0] != want || got[1] != want) {
            std::printf("one_block_sum: FAILED %lld %lld != %lld\n", got[0], got[1], want);
            return 1;
        }
    }
    std::printf("one_block_sum: PASSED launches=%d\n", launches);
    return 0;
}
