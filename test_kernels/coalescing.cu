// coalescing.cu - PASTA test program: the divergence mode's worked example
// (docs/user-guide.md, "Divergence mode"). Two mistakes and their fixes on an
// n x n row-major float matrix, n a multiple of 32:
//
//   scale_strided     out = 2 in + 1, consecutive threads walk down a column:
//                     the 32 lanes of a warp touch 32 rows, 32 sectors per
//                     request where 4 would do.
//   scale_coalesced   the same, consecutive threads walk along a row.
//   transpose_conflicts  out = in^T through a 32 x 32 shared tile read by
//                     column: the 32 lanes hit one bank (31 conflicts per
//                     request).
//   transpose_padded  the same with a 32 x 33 tile: no conflict.
//
// Kernel line ranges (the statements of the bodies):
//   lines 39-43: scale_strided        lines 47-51: scale_coalesced
//   lines 55-62: transpose_conflicts  lines 66-73: transpose_padded
//
// Usage: ./coalescing [n]   n = matrix dimension, a multiple of 32, up to
//                           4096; default 1024.
//
// Inputs come from an integer hash (test_common.h): values k/16, k in
// [-16, 16], so 2 x + 1 is exact in float. Success prints one line
//   coalescing: PASSED n=<n> checksum=<FNV-1a 64 of both outputs>
// and exits 0; a wrong element prints
//   coalescing: FAILED at index i: got X expected Y
// and exits 1; a bad argument or a GPU runtime error exits 2. With TK_BENCH
// set, each kernel is timed (bench.h).

#include "test_common.h"
#include "bench.h"
static const char* const kName = "coalescing";
static const int kThreadsPerBlock = 256;
static const int kTile = 32;
static const int kRows = 8; // thread rows of a transpose block

// Thread t handles element (t % n, t / n): the lanes of a warp are n floats
// apart.
__global__ void scale_strided(const float* in, float* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = t % n, col = t / n;
    if (col < n) {
        out[row * n + col] = 2.0f * in[row * n + col] + 1.0f;
    }
}

__global__ void scale_coalesced(const float* in, float* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = t / n, col = t % n;
    if (row < n) {
        out[row * n + col] = 2.0f * in[row * n + col] + 1.0f;
    }
}

__global__ void transpose_conflicts(const float* in, float* out, int n) {
    __shared__ float tile[kTile][kTile];
    int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x, y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(const float* in, float* out, int n) {
    __shared__ float tile[kTile][kTile + 1];
    int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x, y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Every element of `got` against `want(i)`; the FAILED line for the first
// that differs.
template <typename Want>
static int check_all(const float* got, size_t count, Want want) {
    for (size_t i = 0; i < count; ++i) {
        double ref = want(i);
        if (!tk_close(got[i], ref, std::fabs(ref))) {
            return tk_report_failure(kName, i, got[i], ref);
        }
    }
    return 0;
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 1024, 32, 4096, 32);
    const size_t count = (size_t)n * (size_t)n;
    const size_t bytes = count * sizeof(float);
    float* h_in = tk_alloc_floats(count);
    float* h_out = tk_alloc_floats(count);
    for (size_t i = 0; i < count; ++i) {
        h_in[i] = tk_input_value(1, i);
    }
    float *d_in = nullptr, *d_out = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_in, bytes));
    GPU_CHECK(gpuMalloc((void**)&d_out, bytes));
    GPU_CHECK(gpuMemcpy(d_in, h_in, bytes, gpuMemcpyHostToDevice));

    const int blocks = (int)(count / kThreadsPerBlock);
    const dim3 tgrid((unsigned)(n / kTile), (unsigned)(n / kTile));
    const dim3 tblock(kTile, kRows);
    auto scale = [&](size_t i) { return 2.0 * h_in[i] + 1.0; };
    auto transposed = [&](size_t i) {
        return (double)h_in[(i % (size_t)n) * (size_t)n + i / (size_t)n];
    };
    uint64_t sum = kTkFnvOffset;
    int status = 0;
    // Each kernel writes the whole output; it is checked and cleared.
    for (int k = 0; k < 4 && status == 0; ++k) {
        GPU_CHECK(gpuMemset(d_out, 0, bytes));
        if (k == 0)
            scale_strided<<<blocks, kThreadsPerBlock>>>(d_in, d_out, (int)n);
        else if (k == 1)
            scale_coalesced<<<blocks, kThreadsPerBlock>>>(d_in, d_out, (int)n);
        else if (k == 2)
            transpose_conflicts<<<tgrid, tblock>>>(d_in, d_out, (int)n);
        else
            transpose_padded<<<tgrid, tblock>>>(d_in, d_out, (int)n);
        GPU_CHECK(gpuGetLastError());
        GPU_CHECK(gpuDeviceSynchronize());
        GPU_CHECK(gpuMemcpy(h_out, d_out, bytes, gpuMemcpyDeviceToHost));
        status = k < 2 ? check_all(h_out, count, scale)
                       : check_all(h_out, count, transposed);
        if (k == 1 || k == 3)
            sum = tk_fnv1a64(sum, h_out, bytes);
    }
    if (status == 0) {
        tk_report_pass(kName, n, sum);
        tk_bench("scale_strided", [&] {
            scale_strided<<<blocks, kThreadsPerBlock>>>(d_in, d_out, (int)n);
        });
        tk_bench("scale_coalesced", [&] {
            scale_coalesced<<<blocks, kThreadsPerBlock>>>(d_in, d_out, (int)n);
        });
        tk_bench("transpose_conflicts", [&] {
            transpose_conflicts<<<tgrid, tblock>>>(d_in, d_out, (int)n);
        });
        tk_bench("transpose_padded", [&] {
            transpose_padded<<<tgrid, tblock>>>(d_in, d_out, (int)n);
        });
    }
    GPU_CHECK(gpuFree(d_in));
    GPU_CHECK(gpuFree(d_out));
    std::free(h_in);
    std::free(h_out);
    return status;
}
