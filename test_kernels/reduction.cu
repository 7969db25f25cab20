// reduction.cu - PASTA test program: sum reduction with warp shuffles.
//   reduce_f32_kernel: each block of 256 threads sums its 256 float inputs: a
//     shuffle tree in each warp (gpu_shfl_down), the per-warp partials through
//     DYNAMIC shared memory (extern __shared__, sized at launch), a second
//     shuffle tree over them in warp 0, one float per block. The host launches
//     it again over the block sums until one value is left (n -> n/256 -> ...).
//   reduce_f16_kernel: the same block reduction on _Float16 inputs, summed in
//     _Float16 arithmetic (clang's built-in type: half-precision IR fadd); one
//     pass, one _Float16 sum per block.
// Warps lying wholly at or beyond n return at once (early return, warp-uniform)
// and write no partial; the lanes of a partly filled warp stay and add 0, so
// every shuffle has its whole warp. Warp size: GPU_WARP_SIZE (32 CUDA, 64 HIP).
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 48-80:  reduce_f32_kernel
//   lines 52-54:    early return of warps wholly beyond n
//   lines 55-59:    load (0 beyond n); lines 60-62: shuffle tree (body 61)
//   line  66:       __syncthreads() before warp 0 reads the partials
//   lines 67-69:    early return of warps 1.. (only warp 0 goes on)
//   lines 71-74:    read the partials (dynamic shared); 75-77: second tree
//   line  79:       store the block sum
//   lines 84-116: reduce_f16_kernel, the same statements line for line (+36)
//
// Usage: ./reduction [n]   n = number of elements, 1 <= n <= 16777216 (1<<24);
//                          default 250000 (the last block is partly filled).
// Benchmark size on an H100: n = 16777216 (65536 blocks per kernel, 64 MiB of
// float and 32 MiB of _Float16 input).
//
// Exact arithmetic: float inputs are integers in {-1, 0, 1}, so every partial
// sum is an integer of magnitude <= n <= 2^24, exact in float in any order.
// _Float16 inputs are k/8 with k in [-8, 8]; a block sums at most 256 of them,
// so each partial is m/8 with |m| <= 2048, exact in _Float16 (11-bit
// significand). Results are compared for equality with integer sums computed
// on the CPU. Success prints one line
//   reduction: PASSED n=<n> checksum=<FNV-1a 64 over the float total, then
//              the _Float16 block sums, 16 hex digits>
// and exits 0; a wrong value prints reduction: FAILED at index i: ..., with
// i = 0 for the float total and 1 + b for block b's _Float16 sum, and exits 1;
// a bad argument or a GPU runtime error exits 2.

#include "test_common.h"
#include "bench.h"

static const char* const kName = "reduction";
static const int kThreads = 256;

__global__ void reduce_f32_kernel(const float* in, float* out, int n) {
    extern __shared__ float warp_sums_f32[];
    int base = blockIdx.x * blockDim.x;
    int lane = threadIdx.x % GPU_WARP_SIZE;
    int warp = threadIdx.x / GPU_WARP_SIZE;
    if (base + warp * GPU_WARP_SIZE >= n) {
        return;
    }
    int i = base + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        v = in[i];
    }
    for (int offset = GPU_WARP_SIZE / 2; offset > 0; offset /= 2) {
        v += gpu_shfl_down(v, offset);
    }
    if (lane == 0) {
        warp_sums_f32[warp] = v;
    }
    __syncthreads();
    if (warp != 0) {
        return;
    }
    int live = (n - base + GPU_WARP_SIZE - 1) / GPU_WARP_SIZE;
    float w = 0.0f;
    if (lane < live && lane < (int)(blockDim.x / GPU_WARP_SIZE)) {
        w = warp_sums_f32[lane];
    }
    for (int offset = GPU_WARP_SIZE / 2; offset > 0; offset /= 2) {
        w += gpu_shfl_down(w, offset);
    }
    if (lane == 0) {
        out[blockIdx.x] = w;
    }
}

__global__ void reduce_f16_kernel(const _Float16* in, _Float16* out, int n) {
    extern __shared__ _Float16 warp_sums_f16[];
    int base = blockIdx.x * blockDim.x;
    int lane = threadIdx.x % GPU_WARP_SIZE;
    int warp = threadIdx.x / GPU_WARP_SIZE;
    if (base + warp * GPU_WARP_SIZE >= n) {
        return;
    }
    int i = base + threadIdx.x;
    _Float16 v = 0.0f16;
    if (i < n) {
        v = in[i];
    }
    for (int offset = GPU_WARP_SIZE / 2; offset > 0; offset /= 2) {
        v += gpu_shfl_down(v, offset);
    }
    if (lane == 0) {
        warp_sums_f16[warp] = v;
    }
    __syncthreads();
    if (warp != 0) {
        return;
    }
    int live = (n - base + GPU_WARP_SIZE - 1) / GPU_WARP_SIZE;
    _Float16 w = 0.0f16;
    if (lane < live && lane < (int)(blockDim.x / GPU_WARP_SIZE)) {
        w = warp_sums_f16[lane];
    }
    for (int offset = GPU_WARP_SIZE / 2; offset > 0; offset /= 2) {
        w += gpu_shfl_down(w, offset);
    }
    if (lane == 0) {
        out[blockIdx.x] = w;
    }
}

// Host side: _Float16 values only as bits (no host half arithmetic, so no
// libgcc half conversion routines). Encodes m/8 exactly for |m| <= 2048.
static uint16_t half_bits_eighths(int m) {
    if (m == 0) {
        return 0;
    }
    uint16_t sign = m < 0 ? 0x8000u : 0u;
    unsigned a = (unsigned)(m < 0 ? -m : m);
    int e = 31 - __builtin_clz(a);  // a = 1.f * 2^e, value = a * 2^-3
    unsigned mant = e <= 10 ? (a << (10 - e)) & 0x3ffu : (a >> (e - 10)) & 0x3ffu;
    return (uint16_t)(sign | (unsigned)(e - 3 + 15) << 10 | mant);
}

static double half_bits_value(uint16_t h) {
    int exp = (h >> 10) & 0x1f;
    double mant = (double)(h & 0x3ffu);
    double v = exp == 0 ? std::ldexp(mant, -24)
             : exp == 31 ? (mant == 0.0 ? INFINITY : NAN)
                         : std::ldexp(1024.0 + mant, exp - 25);
    return (h & 0x8000u) ? -v : v;
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 250000, 1, 1L << 24, 1);
    const int blocks = (int)((n + kThreads - 1) / kThreads);
    const size_t shmem_f32 = (kThreads / GPU_WARP_SIZE) * sizeof(float);
    const size_t shmem_f16 = (kThreads / GPU_WARP_SIZE) * sizeof(uint16_t);

    float* h_x = tk_alloc_floats((size_t)n);
    uint16_t* h_y = (uint16_t*)std::malloc((size_t)n * sizeof(uint16_t));
    uint16_t* h_ysum = (uint16_t*)std::malloc((size_t)blocks * sizeof(uint16_t));
    long long* ref_y = (long long*)std::calloc((size_t)blocks, sizeof(long long));
    if (h_y == nullptr || h_ysum == nullptr || ref_y == nullptr) {
        std::fprintf(stderr, "out of host memory\n");
        return 2;
    }
    long long ref_x = 0;  // exact sums: of x, and of 8*y per block
    for (long i = 0; i < n; ++i) {
        int kx = (int)(tk_hash32(tk_hash32((uint32_t)i) ^ 0x51ed270bu) % 3u) - 1;
        int ky = (int)(tk_hash32(tk_hash32((uint32_t)i) ^ 0x7f4a7c15u) % 17u) - 8;
        h_x[i] = (float)kx;
        h_y[i] = half_bits_eighths(ky);
        ref_x += kx;
        ref_y[i / kThreads] += ky;
    }

    float* d_x = nullptr;
    float* d_part[2] = {nullptr, nullptr};
    _Float16* d_y = nullptr;
    _Float16* d_ysum = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_x, (size_t)n * sizeof(float)));
    GPU_CHECK(gpuMalloc((void**)&d_part[0], (size_t)blocks * sizeof(float)));
    GPU_CHECK(gpuMalloc((void**)&d_part[1], (size_t)blocks * sizeof(float)));
    GPU_CHECK(gpuMalloc((void**)&d_y, (size_t)n * sizeof(uint16_t)));
    GPU_CHECK(gpuMalloc((void**)&d_ysum, (size_t)blocks * sizeof(uint16_t)));
    GPU_CHECK(gpuMemcpy(d_x, h_x, (size_t)n * sizeof(float), gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemcpy(d_y, h_y, (size_t)n * sizeof(uint16_t), gpuMemcpyHostToDevice));

    // Float: passes until one block is left; returns where the total is.
    auto reduce_f32 = [&]() -> const float* {
        const float* src = d_x;
        int count = (int)n;
        int k = 0;
        for (;;) {
            const int grid = (count + kThreads - 1) / kThreads;
            reduce_f32_kernel<<<grid, kThreads, shmem_f32>>>(src, d_part[k], count);
            GPU_CHECK(gpuGetLastError());
            if (grid == 1) {
                return d_part[k];
            }
            src = d_part[k];
            count = grid;
            k ^= 1;
        }
    };
    auto reduce_f16 = [&] {
        reduce_f16_kernel<<<blocks, kThreads, shmem_f16>>>(d_y, d_ysum, (int)n);
        GPU_CHECK(gpuGetLastError());
    };
    const float* d_total = reduce_f32();
    GPU_CHECK(gpuDeviceSynchronize());
    reduce_f16();
    GPU_CHECK(gpuDeviceSynchronize());

    float total = 0.0f;
    GPU_CHECK(gpuMemcpy(&total, d_total, sizeof(float), gpuMemcpyDeviceToHost));
    GPU_CHECK(gpuMemcpy(h_ysum, d_ysum, (size_t)blocks * sizeof(uint16_t),
                        gpuMemcpyDeviceToHost));

    int status = 0;
    if ((double)total != (double)ref_x) {
        status = tk_report_failure(kName, 0, total, (double)ref_x);
    }
    for (int b = 0; b < blocks && status == 0; ++b) {
        const double got = half_bits_value(h_ysum[b]);
        const double want = (double)ref_y[b] / 8.0;
        if (got != want) {
            status = tk_report_failure(kName, 1 + (size_t)b, (float)got, want);
        }
    }
    if (status == 0) {
        uint64_t h = tk_fnv1a64(kTkFnvOffset, &total, sizeof(float));
        h = tk_fnv1a64(h, h_ysum, (size_t)blocks * sizeof(uint16_t));
        tk_report_pass(kName, n, h);
        tk_bench("reduce_f32_kernel", [&] { reduce_f32(); });
        tk_bench("reduce_f16_kernel", reduce_f16);
    }
    GPU_CHECK(gpuFree(d_x));
    GPU_CHECK(gpuFree(d_part[0]));
    GPU_CHECK(gpuFree(d_part[1]));
    GPU_CHECK(gpuFree(d_y));
    GPU_CHECK(gpuFree(d_ysum));

    std::free(h_x);
    std::free(h_y);
    std::free(h_ysum);
    std::free(ref_y);
    return status;
}
