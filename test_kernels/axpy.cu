// axpy.cu - PASTA test program: single-precision a*x plus y, in place.
//
//   y[i] = a * x[i] + y[i]; one thread per element, 256 threads per block,
//   a = 2.5.
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 27-30: axpy_kernel
//
// Usage: ./axpy [n]   n = number of elements; default 65536 (1<<16).
// Benchmark size on an H100: n = 67108864 (1<<26; 2 arrays, 512 MiB).
//
// Inputs come from an integer hash (test_common.h): values k/16, k in
// [-16, 16], so every result is exact in float (with or without FMA) and two
// correct builds print the same checksum. Success prints one line
//   axpy: PASSED n=<n> checksum=<FNV-1a 64 of the output y, 16 hex digits>
// and exits 0; a wrong element prints
//   axpy: FAILED at index i: got X expected Y
// and exits 1; a bad argument or a GPU runtime error exits 2.
// Tolerance: 1e-4 * |ref| + 1e-5 * (|a*x| + |y|) + 1e-6 (see tk_close).

#include "test_common.h"
#include "bench.h"
static const char* const kName = "axpy";
static const int kThreadsPerBlock = 256;

__global__ void axpy_kernel(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 1L << 16, 1, 1L << 29, 1);
    const size_t count = (size_t)n;
    const size_t bytes = count * sizeof(float);
    const float a = 2.5f;

    float* h_x = tk_alloc_floats(count);
    float* h_y = tk_alloc_floats(count);
    float* h_out = tk_alloc_floats(count);
    for (size_t i = 0; i < count; ++i) {
        h_x[i] = tk_input_value(1, i);
        h_y[i] = tk_input_value(2, i);
    }

    float* d_x = nullptr;
    float* d_y = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_x, bytes));
    GPU_CHECK(gpuMalloc((void**)&d_y, bytes));
    GPU_CHECK(gpuMemcpy(d_x, h_x, bytes, gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemcpy(d_y, h_y, bytes, gpuMemcpyHostToDevice));

    const int blocks = (int)((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
    axpy_kernel<<<blocks, kThreadsPerBlock>>>(a, d_x, d_y, (int)n);
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuDeviceSynchronize());

    GPU_CHECK(gpuMemcpy(h_out, d_y, bytes, gpuMemcpyDeviceToHost));

    int status = 0;
    for (size_t i = 0; i < count; ++i) {
        double ax = (double)a * h_x[i];
        double y = h_y[i];
        double ref = ax + y;
        if (!tk_close(h_out[i], ref, std::fabs(ax) + std::fabs(y))) {
            status = tk_report_failure(kName, i, h_out[i], ref);
            break;
        }
    }
    if (status == 0) {
        tk_report_pass(kName, n, tk_fnv1a64(kTkFnvOffset, h_out, bytes));
        // y keeps growing over the timed runs; only the time is of interest.
        tk_bench("axpy_kernel", [&] {
            axpy_kernel<<<blocks, kThreadsPerBlock>>>(a, d_x, d_y, (int)n);
        });
    }
    GPU_CHECK(gpuFree(d_x));
    GPU_CHECK(gpuFree(d_y));

    std::free(h_x);
    std::free(h_y);
    std::free(h_out);
    return status;
}
