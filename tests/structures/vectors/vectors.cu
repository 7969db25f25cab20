// Program structure: CUDA's vector types (float4, int2, double2), as
// optimized CUDA code uses them for wide loads and stores. clang's
// optimizer leaves a vector load as one load per element; NVPTX's back end
// joins them into one ld.global.v4 / st.global.v4 / ld.shared.v2 after
// PASTA has run, and Nsight Compute counts those instructions. Divergence
// mode must count them the same way (passes/DivergencePlan.cpp,
// joinVectorAccesses).
//
// Kernels, N = 2^20 threads in blocks of 256 (4096 blocks, 32,768 warps):
//  - scale4: out[i] = 2 * in[i] on float4: per warp one 16-byte load and
//    one 16-byte store, 512 bytes and 16 sectors each: 32,768 requests
//    each way, 16,777,216 distinct bytes each way, 524,288 sectors each;
//  - gather2: out[i] = in[2 i] + in[2 i + 1] on int2 (every other int2):
//    per warp two 8-byte loads 16 bytes apart per lane (256 distinct bytes
//    over 512: 16 sectors each) and one 4-byte store (4 sectors);
//  - reverse2: a block's double2s through shared memory in reverse
//    (tile[255 - t]): 16-byte shared stores and loads, served in quarter
//    warps, no bank conflict (each quarter's 8 lanes cover 128 bytes).
// Each result is checked on the host. Prints "vectors: PASSED checksum=..."
// and exits 0; a wrong element prints "vectors: FAILED ..." and exits 1.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static const int kN = 1 << 20;
static const int kBlock = 256;

__global__ void scale4(const float4 *in, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w);
}

__global__ void gather2(const int2 *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int2 a = in[2 * i], b = in[2 * i + 1];
  out[i] = a.x + a.y + b.x + b.y;
}

__global__ void reverse2(const double2 *in, double2 *out) {
  __shared__ double2 tile[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  double2 v = in[i];
  tile[t] = make_double2(v.x, v.y);
  __syncthreads();
  double2 w = tile[kBlock - 1 - t];
  out[i] = make_double2(w.x, w.y);
}

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess) {                                               \
      std::printf("vectors: CUDA error at line %d\n", __LINE__);               \
      return 2;                                                                \
    }                                                                          \
  } while (0)

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  for (size_t k = 0; k < n; ++k)
    h = (h ^ b[k]) * 1099511628211ull;
  return h;
}

int main() {
  std::vector<float4> f(kN);
  std::vector<int2> g(2 * kN);
  std::vector<double2> d(kN);
  for (int i = 0; i < kN; ++i) {
    f[i] = make_float4(i % 7, i % 11, i % 13, i % 17);
    g[2 * i] = make_int2(i % 5, i % 9);
    g[2 * i + 1] = make_int2(i % 3, 1);
    d[i] = make_double2(i, -i);
  }
  float4 *f_in, *f_out;
  int2 *g_in;
  int *g_out;
  double2 *d_in, *d_out;
  CHECK(cudaMalloc(&f_in, kN * sizeof(float4)));
  CHECK(cudaMalloc(&f_out, kN * sizeof(float4)));
  CHECK(cudaMalloc(&g_in, 2 * kN * sizeof(int2)));
  CHECK(cudaMalloc(&g_out, kN * sizeof(int)));
  CHECK(cudaMalloc(&d_in, kN * sizeof(double2)));
  CHECK(cudaMalloc(&d_out, kN * sizeof(double2)));
  CHECK(
      cudaMemcpy(f_in, f.data(), kN * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(g_in, g.data(), 2 * kN * sizeof(int2),
                   cudaMemcpyHostToDevice));
  CHECK(
      cudaMemcpy(d_in, d.data(), kN * sizeof(double2), cudaMemcpyHostToDevice));
  scale4<<<kN / kBlock, kBlock>>>(f_in, f_out);
  gather2<<<kN / kBlock, kBlock>>>(g_in, g_out);
  reverse2<<<kN / kBlock, kBlock>>>(d_in, d_out);
  std::vector<float4> fo(kN);
  std::vector<int> go(kN);
  std::vector<double2> dout(kN);
  CHECK(cudaMemcpy(fo.data(), f_out, kN * sizeof(float4),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(go.data(), g_out, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dout.data(), d_out, kN * sizeof(double2),
                   cudaMemcpyDeviceToHost));
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < kN; ++i) {
    int r = i / kBlock * kBlock + (kBlock - 1 - i % kBlock);
    bool ok =
        fo[i].x == 2 * f[i].x && fo[i].y == 2 * f[i].y &&
        fo[i].z == 2 * f[i].z && fo[i].w == 2 * f[i].w &&
        go[i] == g[2 * i].x + g[2 * i].y + g[2 * i + 1].x + g[2 * i + 1].y &&
        dout[i].x == d[r].x && dout[i].y == d[r].y;
    if (!ok) {
      std::printf("vectors: FAILED at %d\n", i);
      return 1;
    }
  }
  h = fnv(h, fo.data(), kN * sizeof(float4));
  h = fnv(h, go.data(), kN * sizeof(int));
  h = fnv(h, dout.data(), kN * sizeof(double2));
  std::printf("vectors: PASSED checksum=%016llx\n", (unsigned long long)h);
  return 0;
}
