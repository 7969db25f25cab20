// Divergence mode: accesses at one index into different pointer arguments.
//
// A kernel copy measures once the accesses of a block that differ only in
// their base argument (passes/DivergenceMeasures.cpp, AccessGroup::Twins)
// where the bases are a multiple of 32 bytes apart, tested once at the
// copy's entry; otherwise its code as it was measures each
// (addTwinsApart's `_twins_apart`). cudaMalloc's buffers always pass that
// test, so this program also launches the kernel with b and c moved off
// by 4 and 32 bytes: that launch must take the other code, whose figures
// differ for b. The clamped neighbour on line 35 keeps the copy from the
// bodies for rows of 16 (which keep twins measured).
//
// Expected figures of lines 34 (a), 36 (b) and 37 (c), by hand: n = 64,
// 16 x 16 blocks, 4 x 4 blocks, 8 warps each: 128 warp executions per
// launch; a warp reads two rows of 16 floats (64 bytes) 256 bytes apart.
// Two launches:
//  - requests 2 x 128 = 256; requested and distinct bytes 2 x 128 x 128 =
//    32,768; ideal sectors ceil(128 / 32) = 4 per warp: 1,024;
//  - sectors: a row from a 64-byte boundary is 2 sectors, 4 per warp: 512
//    per launch. In the second launch b's rows start 4 bytes past one: 3
//    sectors a row, 768; c's 32 bytes past one: 2 a row. So a 1,024, b
//    1,280, c 1,024. (b measured as a's twin there would give 1,024.)
// Prints "div_twin_bases: PASSED" and exits 0 when c = a + a's right
// neighbour + b in both launches.
#include <cstdio>
#include <cuda_runtime.h>

static const int kN = 64;

__global__ void twins(const float *a, const float *b, float *c, int n) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  int i = y * n + x;
  float v = a[i];
  float e = a[y * n + min(x + 1, n - 1)];
  float w = b[i];
  c[i] = v + e + w;
}

static bool check(const float *h_c, const float *h_a, const float *h_b) {
  for (int y = 0; y < kN; ++y)
    for (int x = 0; x < kN; ++x) {
      int i = y * kN + x, r = y * kN + (x + 1 < kN ? x + 1 : kN - 1);
      if (h_c[i] != h_a[i] + h_a[r] + h_b[i]) {
        std::printf("div_twin_bases: FAILED at %d: %g\n", i, h_c[i]);
        return false;
      }
    }
  return true;
}

int main() {
  const int n = kN * kN, pad = 64;
  static float h_a[n], h_b[n], h_c[n];
  for (int i = 0; i < n; ++i) {
    h_a[i] = float(i % 7);
    h_b[i] = float(i % 5);
  }
  float *a = nullptr, *b = nullptr, *c = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&b, (n + pad) * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&c, (n + pad) * sizeof(float)) != cudaSuccess ||
      cudaMemcpy(a, h_a, sizeof h_a, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  dim3 grid(kN / 16, kN / 16), block(16, 16);
  // The bases 32-byte apart (twins measured once), then b 4 bytes and c 32
  // bytes off (each measured).
  const int offsets[2][2] = {{0, 0}, {1, 8}};
  for (const auto &off : offsets) {
    float *bb = b + off[0], *cc = c + off[1];
    if (cudaMemcpy(bb, h_b, sizeof h_b, cudaMemcpyHostToDevice) != cudaSuccess)
      return 2;
    twins<<<grid, block>>>(a, bb, cc, kN);
    if (cudaMemcpy(h_c, cc, sizeof h_c, cudaMemcpyDeviceToHost) != cudaSuccess)
      return 2;
    if (!check(h_c, h_a, h_b))
      return 1;
  }
  std::printf("div_twin_bases: PASSED\n");
  return 0;
}
