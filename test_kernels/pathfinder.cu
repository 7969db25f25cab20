// pathfinder.cu - PASTA test program: dynamic-programming minimum path down
// a grid of rows x n integer weights (Rodinia's pathfinder problem):
//   cost[0][x] = wall[0][x],
//   cost[r][x] = wall[r][x] + min(cost[r-1][x-1], cost[r-1][x], cost[r-1][x+1])
// (neighbours outside [0, n) left out); the output is cost[rows-1][*].
// Each launch advances up to PYRAMID = 20 rows: a block of 256 threads loads
// 256 columns of the previous cost row into __shared__ memory and updates
// them in place row by row; the valid part shrinks by one column per side and
// row, so a block yields 256 - 2*20 = 216 output columns (blocks overlap by
// 2*20 halo columns). TWO independent instances (different walls) run at the
// same time on two streams, each with its own cudaMemcpyAsync of the wall
// from pinned host memory (cudaMallocHost), its launches and its copy back.
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 48-73: pathfinder_kernel
//   lines 53-55:   load the previous cost row into shared memory
//   line  56:      __syncthreads() after the load
//   lines 57-70:   row loop (header 57): neighbours and min 60-62, add the
//                  wall weight and store to shared 63, __syncthreads() 65,
//                  copy back 67, __syncthreads() 69
//   lines 71-73:   store the block's 216 output columns
//
// Usage: ./pathfinder [n]   n = number of columns, 1 <= n <= 4194304 (1<<22);
//                           rows = 100; default 4096.
// Benchmark size on an H100: n = 1048576 (1<<20; 4855 blocks per launch and
// instance, 5 launches per instance, 2 x 400 MiB of walls).
//
// Weights are integers 0..9 from an integer hash (instance s uses seed s+1);
// costs are exact integers, checked for equality with a CPU reference.
// Success prints one line
//   pathfinder: PASSED n=<n> checksum=<FNV-1a 64 over instance 0's result row,
//               then instance 1's, 16 hex digits>
// and exits 0; a wrong element prints
//   pathfinder: FAILED at index i: got X expected Y
// and exits 1, i indexing the concatenation of the two result rows; a bad
// argument or a GPU runtime error exits 2.

#include "test_common.h"
#include "bench.h"

static const char* const kName = "pathfinder";
static const int kRows = 100;

#define BLOCK 256
#define PYRAMID 20

__global__ void pathfinder_kernel(const int* wall, const int* src, int* dst, int cols, int start_row, int steps) {
    __shared__ int prev[BLOCK];
    __shared__ int cur[BLOCK];
    int tx = threadIdx.x;
    int x = (int)blockIdx.x * (BLOCK - 2 * PYRAMID) - PYRAMID + tx;
    bool inside = x >= 0 && x < cols;
    if (inside) {
        prev[tx] = src[x];
    }
    __syncthreads();
    for (int k = 0; k < steps; k++) {
        bool active = inside && tx > k && tx < BLOCK - 1 - k;
        if (active) {
            int left = x > 0 ? prev[tx - 1] : prev[tx];
            int right = x < cols - 1 ? prev[tx + 1] : prev[tx];
            int best = min(prev[tx], min(left, right));
            cur[tx] = best + wall[(start_row + k) * cols + x];
        }
        __syncthreads();
        if (active) {
            prev[tx] = cur[tx];
        }
        __syncthreads();
    }
    if (inside && tx >= PYRAMID && tx < BLOCK - PYRAMID) {
        dst[x] = prev[tx];
    }
}

static void* alloc_pinned(size_t bytes) {
    void* p = nullptr;
    GPU_CHECK(gpuMallocHost(&p, bytes));
    return p;
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 4096, 1, 1L << 22, 1);
    const int cols = (int)n;
    const size_t wall_count = (size_t)kRows * (size_t)n;
    const size_t wall_bytes = wall_count * sizeof(int);
    const size_t row_bytes = (size_t)n * sizeof(int);
    const int grid = (cols + BLOCK - 2 * PYRAMID - 1) / (BLOCK - 2 * PYRAMID);

    int* h_wall[2];
    int* h_result[2];
    int* d_wall[2];
    int* d_buf[2][2];
    gpuStream_t stream[2];
    for (int s = 0; s < 2; ++s) {
        h_wall[s] = (int*)alloc_pinned(wall_bytes);
        h_result[s] = (int*)alloc_pinned(row_bytes);
        for (size_t k = 0; k < wall_count; ++k) {
            const uint32_t h = tk_hash32(tk_hash32((uint32_t)k) ^ (uint32_t)(s + 1) * 0x9e3779b9u);
            h_wall[s][k] = (int)(h % 10u);
        }
        GPU_CHECK(gpuMalloc((void**)&d_wall[s], wall_bytes));
        GPU_CHECK(gpuMalloc((void**)&d_buf[s][0], row_bytes));
        GPU_CHECK(gpuMalloc((void**)&d_buf[s][1], row_bytes));
        GPU_CHECK(gpuStreamCreate(&stream[s]));
    }

    // All launches of instance s on stream s; the first reads cost row 0,
    // which is wall row 0. Returns the buffer holding the last cost row.
    auto launch_instance = [&](int s) -> const int* {
        const int* src = d_wall[s];
        int k = 0;
        for (int start = 1; start < kRows; start += PYRAMID) {
            const int steps = kRows - start < PYRAMID ? kRows - start : PYRAMID;
            pathfinder_kernel<<<grid, BLOCK, 0, stream[s]>>>(d_wall[s], src, d_buf[s][k], cols,
                                                             start, steps);
            GPU_CHECK(gpuGetLastError());
            src = d_buf[s][k];
            k ^= 1;
        }
        return src;
    };
    for (int s = 0; s < 2; ++s) {
        GPU_CHECK(gpuMemcpyAsync(d_wall[s], h_wall[s], wall_bytes, gpuMemcpyHostToDevice,
                                 stream[s]));
        const int* d_last = launch_instance(s);
        GPU_CHECK(gpuMemcpyAsync(h_result[s], d_last, row_bytes, gpuMemcpyDeviceToHost,
                                 stream[s]));
    }
    for (int s = 0; s < 2; ++s) {
        GPU_CHECK(gpuStreamSynchronize(stream[s]));
    }
    GPU_CHECK(gpuGetLastError());

    // CPU reference: plain row-by-row dynamic programming.
    int status = 0;
    int* ref_prev = (int*)std::malloc(row_bytes);
    int* ref_cur = (int*)std::malloc(row_bytes);
    if (ref_prev == nullptr || ref_cur == nullptr) {
        std::fprintf(stderr, "out of host memory\n");
        return 2;
    }
    for (int s = 0; s < 2 && status == 0; ++s) {
        const int* w = h_wall[s];
        for (int x = 0; x < cols; ++x) {
            ref_prev[x] = w[x];
        }
        for (int r = 1; r < kRows; ++r) {
            for (int x = 0; x < cols; ++x) {
                int m = ref_prev[x];
                if (x > 0 && ref_prev[x - 1] < m) {
                    m = ref_prev[x - 1];
                }
                if (x + 1 < cols && ref_prev[x + 1] < m) {
                    m = ref_prev[x + 1];
                }
                ref_cur[x] = w[(size_t)r * (size_t)n + (size_t)x] + m;
            }
            int* t = ref_prev;
            ref_prev = ref_cur;
            ref_cur = t;
        }
        for (int x = 0; x < cols; ++x) {
            if (h_result[s][x] != ref_prev[x]) {
                std::printf("%s: FAILED at index %ld: got %d expected %d\n", kName,
                            (long)s * n + x, h_result[s][x], ref_prev[x]);
                status = 1;
                break;
            }
        }
    }
    if (status == 0) {
        uint64_t h = tk_fnv1a64(kTkFnvOffset, h_result[0], row_bytes);
        h = tk_fnv1a64(h, h_result[1], row_bytes);
        tk_report_pass(kName, n, h);
        // Both instances' launches, on their two streams (the timing events
        // on the legacy default stream wait for both).
        tk_bench("pathfinder_kernel", [&] {
            launch_instance(0);
            launch_instance(1);
        });
    }
    for (int s = 0; s < 2; ++s) {
        GPU_CHECK(gpuStreamDestroy(stream[s]));
        GPU_CHECK(gpuFree(d_wall[s]));
        GPU_CHECK(gpuFree(d_buf[s][0]));
        GPU_CHECK(gpuFree(d_buf[s][1]));
        GPU_CHECK(gpuFreeHost(h_wall[s]));
        GPU_CHECK(gpuFreeHost(h_result[s]));
    }
    std::free(ref_prev);
    std::free(ref_cur);
    return status;
}
