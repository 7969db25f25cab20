// histogram.cu - PASTA test program: 256-bin histogram of n bytes.
//
//   Each block of 256 threads clears a private __shared__ copy of the 256
//   bins, walks the input with a grid-stride loop adding 1 to bin data[i]
//   with a shared-memory atomicAdd, then merges its non-zero bins into the
//   global histogram with one global atomicAdd per bin. Grid: min(ceil(n /
//   256), 1024) blocks, so large inputs give each thread many elements.
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 38-50: histogram_kernel
//   line  39:      clear this thread's shared bin; line 40: __syncthreads()
//   lines 42-45:   grid-stride loop (header 42; body 43-44: load the byte,
//                  shared-memory atomicAdd)
//   line  46:      __syncthreads() before the merge
//   lines 47-50:   read the shared bin, global atomicAdd if non-zero (49)
//
// Usage: ./histogram [n]   n = number of bytes, 1 <= n <= 1073741824 (1<<30);
//                          default 262144 (1<<18).
// Benchmark size on an H100: n = 268435456 (1<<28, 256 MiB; 1024 blocks of
// 256 threads, 1024 bytes per thread).
//
// Input: bytes from an integer hash, skewed so that about a quarter of them
// fall in bin 0x65 (atomic contention on one address) and the rest spread
// evenly. Counts are integers: the check is exact. Success prints one line
//   histogram: PASSED n=<n> checksum=<FNV-1a 64 of the 256 uint32 bins>
// and exits 0; a wrong bin prints
//   histogram: FAILED at index b: got X expected Y
// and exits 1; a bad argument or a GPU runtime error exits 2.

#include "test_common.h"
#include "bench.h"

static const char* const kName = "histogram";

#define BINS 256

__global__ void histogram_kernel(const unsigned char* data, unsigned int* bins, int n) {
    __shared__ unsigned int local_bins[BINS];
    local_bins[threadIdx.x] = 0;
    __syncthreads();
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned int v = data[i];
        atomicAdd(&local_bins[v], 1u);
    }
    __syncthreads();
    unsigned int count = local_bins[threadIdx.x];
    if (count != 0) {
        atomicAdd(&bins[threadIdx.x], count);
    }
}

static const int kMaxBlocks = 1024;

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 1L << 18, 1, 1L << 30, 1);
    const size_t count = (size_t)n;
    const size_t hist_bytes = BINS * sizeof(unsigned int);

    unsigned char* h_data = (unsigned char*)std::malloc(count);
    unsigned int* h_bins = (unsigned int*)std::malloc(hist_bytes);
    unsigned int ref[BINS] = {0};
    if (h_data == nullptr || h_bins == nullptr) {
        std::fprintf(stderr, "out of host memory\n");
        return 2;
    }
    for (size_t i = 0; i < count; ++i) {
        uint32_t h = tk_hash32(tk_hash32((uint32_t)i) ^ 0x2545f491u);
        h_data[i] = (h >> 30) == 0 ? 0x65 : (unsigned char)(h & 0xffu);
    }
    for (size_t i = 0; i < count; ++i) {
        ref[h_data[i]]++;
    }

    unsigned char* d_data = nullptr;
    unsigned int* d_bins = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_data, count));
    GPU_CHECK(gpuMalloc((void**)&d_bins, hist_bytes));
    GPU_CHECK(gpuMemcpy(d_data, h_data, count, gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemset(d_bins, 0, hist_bytes));

    long want_blocks = (n + BINS - 1) / BINS;
    const int blocks = (int)(want_blocks < kMaxBlocks ? want_blocks : kMaxBlocks);
    histogram_kernel<<<blocks, BINS>>>(d_data, d_bins, (int)n);
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuDeviceSynchronize());
    GPU_CHECK(gpuMemcpy(h_bins, d_bins, hist_bytes, gpuMemcpyDeviceToHost));

    int status = 0;
    for (int b = 0; b < BINS; ++b) {
        if (h_bins[b] != ref[b]) {
            std::printf("%s: FAILED at index %d: got %u expected %u\n", kName, b, h_bins[b],
                        ref[b]);
            status = 1;
            break;
        }
    }
    if (status == 0) {
        tk_report_pass(kName, n, tk_fnv1a64(kTkFnvOffset, h_bins, hist_bytes));
        // The bins keep accumulating over the timed runs (unsigned, may wrap).
        tk_bench("histogram_kernel", [&] {
            histogram_kernel<<<blocks, BINS>>>(d_data, d_bins, (int)n);
        });
    }
    GPU_CHECK(gpuFree(d_data));
    GPU_CHECK(gpuFree(d_bins));

    std::free(h_data);
    std::free(h_bins);
    return status;
}
