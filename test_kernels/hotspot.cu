// hotspot.cu - PASTA test program: 2-D thermal simulation (the stencil of
// Rodinia's hotspot) on an n x n grid of temperatures with a power map, for
// kIterations steps with ping-pong buffers. One kernel, launched once per
// step:
//   hotspot_kernel: 16x16 blocks; the block stages its 16x16 tile plus a
//     one-cell halo (18x18, coordinates clamped at the grid border, so a
//     border cell is its own missing neighbour) in shared memory, then
//     out = c + STEP * (p + (N + S - 2c) * RY + (W + E - 2c) * RX
//                         + (AMB - c) * RZ)
//     with STEP = 1/8, RY = RX = 1/2, RZ = 1/16, AMB = 300.
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 50-66: hotspot_kernel
//   lines 55-60:   halo load loop (body 56-58), barrier 60
//   lines 61-66:   the update, store line 66
//
// Usage: ./hotspot [n]   n = grid side, a multiple of 16; default 512.
// Benchmark size on an H100: n = 4096 (65536 blocks per step, two 64 MiB
// temperature grids and a 64 MiB power map).
//
// Input: temperature 320 + 8 * k/16, power (k + 16)/64 (k from the
// test_common.h hash). All the coefficients are powers of two, so every
// product in the update is exact and contracting a multiply into an FMA
// cannot change a result: the GPU and the CPU reference (float, the same
// operation order per cell) agree bit for bit. Success prints one line
//   hotspot: PASSED n=<n> checksum=<FNV-1a 64 of the final grid>
// and exits 0; a cell off by more than the tolerance prints
//   hotspot: FAILED at index i: got X expected Y
// (i row-major) and exits 1; a bad argument or a GPU runtime error exits 2.
// Tolerance: 4 * 2^-24 * |ref| per cell (2 to 4 ulps), tight on purpose:
// only a different operation order (or a wrong neighbour) exceeds it.

#include "bench.h"
#include "test_common.h"

#include <vector>

static const char* const kName = "hotspot";
static const int kIterations = 8;

#define HS_TILE 16
#define HS_HALO (HS_TILE + 2)
#define HS_STEP 0.125f
#define HS_RY 0.5f
#define HS_RX 0.5f
#define HS_RZ 0.0625f
#define HS_AMB 300.0f

__global__ void hotspot_kernel(const float* temp, const float* power, float* out, int n) {
    __shared__ float t_s[HS_HALO][HS_HALO];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row0 = blockIdx.y * HS_TILE - 1;
    int col0 = blockIdx.x * HS_TILE - 1;
    for (int k = ty * HS_TILE + tx; k < HS_HALO * HS_HALO; k += HS_TILE * HS_TILE) {
        int r = min(max(row0 + k / HS_HALO, 0), n - 1);
        int c = min(max(col0 + k % HS_HALO, 0), n - 1);
        t_s[k / HS_HALO][k % HS_HALO] = temp[r * n + c];
    }
    __syncthreads();
    int idx = (row0 + 1 + ty) * n + col0 + 1 + tx;
    float c = t_s[ty + 1][tx + 1];
    float ns = t_s[ty][tx + 1] + t_s[ty + 2][tx + 1] - 2.0f * c;
    float we = t_s[ty + 1][tx] + t_s[ty + 1][tx + 2] - 2.0f * c;
    float d = power[idx] + ns * HS_RY + we * HS_RX + (HS_AMB - c) * HS_RZ;
    out[idx] = c + HS_STEP * d;
}

// CPU reference step, the same float operations in the same order.
static void hotspot_step_cpu(const float* t, const float* p, float* o, int n) {
    for (int r = 0; r < n; ++r) {
        const int rn = r > 0 ? r - 1 : 0;
        const int rs = r < n - 1 ? r + 1 : n - 1;
        for (int q = 0; q < n; ++q) {
            const int qw = q > 0 ? q - 1 : 0;
            const int qe = q < n - 1 ? q + 1 : n - 1;
            const float c = t[(size_t)r * n + q];
            const float ns = t[(size_t)rn * n + q] + t[(size_t)rs * n + q] - 2.0f * c;
            const float we = t[(size_t)r * n + qw] + t[(size_t)r * n + qe] - 2.0f * c;
            const float d = p[(size_t)r * n + q] + ns * HS_RY + we * HS_RX + (HS_AMB - c) * HS_RZ;
            o[(size_t)r * n + q] = c + HS_STEP * d;
        }
    }
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 512, HS_TILE, 16384, HS_TILE);
    const size_t cells = (size_t)n * (size_t)n;
    const size_t bytes = cells * sizeof(float);

    std::vector<float> h_t(cells), h_p(cells), h_out(cells);
    for (size_t k = 0; k < cells; ++k) {
        h_t[k] = 320.0f + 8.0f * tk_input_value(1, k);
        h_p[k] = (16.0f * tk_input_value(2, k) + 16.0f) / 64.0f;
    }

    float *d_t[2] = {nullptr, nullptr}, *d_p = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_t[0], bytes));
    GPU_CHECK(gpuMalloc((void**)&d_t[1], bytes));
    GPU_CHECK(gpuMalloc((void**)&d_p, bytes));
    GPU_CHECK(gpuMemcpy(d_t[0], h_t.data(), bytes, gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemcpy(d_p, h_p.data(), bytes, gpuMemcpyHostToDevice));

    // kIterations steps, d_t[0] -> d_t[1] -> d_t[0] ...; kIterations is even,
    // so the result ends in d_t[0] and the step can simply be run again.
    const dim3 grid((unsigned)(n / HS_TILE), (unsigned)(n / HS_TILE));
    const dim3 block(HS_TILE, HS_TILE);
    auto simulate = [&]() {
        for (int it = 0; it < kIterations; ++it) {
            hotspot_kernel<<<grid, block>>>(d_t[it % 2], d_p, d_t[(it + 1) % 2], (int)n);
            GPU_CHECK(gpuGetLastError());
        }
    };
    simulate();
    GPU_CHECK(gpuDeviceSynchronize());
    GPU_CHECK(gpuMemcpy(h_out.data(), d_t[kIterations % 2], bytes, gpuMemcpyDeviceToHost));

    std::vector<float> ref(h_t), tmp(cells);
    for (int it = 0; it < kIterations; ++it) {
        hotspot_step_cpu(ref.data(), h_p.data(), tmp.data(), (int)n);
        ref.swap(tmp);
    }
    int status = 0;
    for (size_t k = 0; k < cells; ++k) {
        const double tol = 4.0 * std::ldexp(std::fabs((double)ref[k]), -24);
        if (!(std::fabs((double)h_out[k] - ref[k]) <= tol)) {
            status = tk_report_failure(kName, k, h_out[k], ref[k]);
            break;
        }
    }
    if (status == 0) {
        tk_report_pass(kName, n, tk_fnv1a64(kTkFnvOffset, h_out.data(), bytes));
        tk_bench("hotspot (8 steps)", simulate);
    }

    GPU_CHECK(gpuFree(d_t[0]));
    GPU_CHECK(gpuFree(d_t[1]));
    GPU_CHECK(gpuFree(d_p));
    return status;
}
