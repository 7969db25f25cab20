// Structure: warps split on purpose around PASTA's calls (issue
// [overhead-3]). The
// myocyte-like shape's unbuffered compact working-set copies counted wrongly
// only in builds where ptxas put a YIELD at the entry of the runtime callee
// (__pasta_ws_mark_compact): a YIELD lets the lanes of a warp that took one
// arm of a branch run on past its join while the others wait, so a device
// function's code, its runtime calls and its flush at the return run in
// parts of the warp, one after the other. Here a part of each warp waits in
// one arm of a data-dependent branch, with nanosleep, until the rest of its
// warp has left the device function `mix` (flush included) and said so in a
// flag: every warp of walk_apart runs `mix` in two groups, whatever ptxas
// chose. The flag's loads and stores are inline PTX, which PASTA does not
// count, so the counts below do not depend on how long a lane waits (only
// the wait loop's own lines do).
//
// mix(in, tab, out, i, ...): 2 + 12 x (2 or 1) global loads, 1 store:
//   bits = (int)in[i] = i; acc = tab[i]; for k < 12 (unrolled): bit k of i
//   set: acc = acc * 0.5 + tab[a] * tab[b] (2 loads; 1 fmul + 1 fma, or 2
//   fmul + 1 fadd: 3 FLOPs), clear: acc -= tab[c] (1 load, 1 FLOP); then
//   out[i] = acc. Each bit k < 12 is set in half of any 4,096 consecutive
//   i, so over n = 65,536 threads, per launch:
//     loads = 2n + 12 (n/2 x 2 + n/2 x 1) = 20n = 1,310,720 (4 bytes each:
//       5,242,880 bytes); stores = n = 65,536 (262,144 bytes);
//     FLOPs f32 = 12 (n/2 x 3 + n/2 x 1) = 24n = 1,572,864.
//   38 global accesses: a working-set copy of this tree is compact (over
//   PASTA_WS_COMPACT_ABOVE, 32) and unbuffered (under 256), so it calls
//   the runtime in the arms of the branches, as the shape's did; the blocks
//   of each step run at most once per call (bits of a per-call mask,
//   flushed at the return).
// walk_apart: 4 launches, each with a different split (lanes that wait,
//   at the branch of step s; the rest set the flag after mix returns):
//   s = 0 then-arm (odd lanes wait for even ones), s = 0 else-arm, s = 2
//   then-arm (lanes 4-7, 12-15, ... wait), s = 4 else-arm (lanes 0-15 wait
//   for 16-31). The lanes that do not wait also store their launch's
//   number in seen[i] (a counted store: n/2 per launch, in a block of the
//   kernel that half of each warp runs, flushed at the kernel's exit while
//   the other half may still be in mix). walk_together: the same work in
//   mix, 2 launches, nobody waits. mix<false> is reached from both kernels:
//   its counts are its own entry's in device_functions, not the kernels'
//   (6 launches: calls 6n = 393,216, loads 6 x 20n = 7,864,320, stores 6n,
//   FLOPs 6 x 24n = 9,437,184); walk_apart keeps its seen[i] stores, 4 x
//   n/2 = 131,072, walk_together nothing.
// walk_probed: as walk_apart, but its mix<true> (reached from this kernel
//   alone: counted in it) also calls probe() after each step's loads (12
//   calls a thread, 2 loads of 8 bytes each: +24n loads, +192n bytes), 2
//   launches: one split (s = 0, then-arm waits), one not (its lanes with
//   bit 0 set still store seen[i]): per launch loads 44n = 2,883,584 (bytes
//   80n + 192n = 17,825,792), stores n + n/2 = 98,304, FLOPs 24n.
// In counting and working-set mode alike:
// clang-format off
// EXPECT: kernel _Z10walk_apartPKfS0_PfPjS2_jii launches=4 loads.global=0 stores.global=131072 store_bytes.global=524288 flops.f32=0
// EXPECT: function _Z3mixILb0EEfPKfS1_PfiPKjPjjiiPKyS7_iPy calls=393216 loads.global=7864320 load_bytes.global=31457280 stores.global=393216 store_bytes.global=1572864 flops.f32=9437184
// EXPECT: kernel _Z11walk_probedPKfS0_PfPjS2_jiiPKyS4_iPy launches=2 loads.global=5767168 load_bytes.global=35651584 stores.global=196608 store_bytes.global=786432 flops.f32=3145728
// EXPECT: kernel _Z13walk_togetherPKfS0_Pf launches=2 loads.global=0 stores.global=0 flops.f32=0
// EXPECT: consistent
// clang-format on
// The program checks that the kernels wrote the same bits, that they match
// the host's arithmetic, that probe's slow path never ran, and prints
// whether every waiting lane saw its flag (the warp really ran in two
// groups) or gave up after ~2 ms.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

constexpr int N = 1 << 16, Threads = 256, Steps = 12;
constexpr int Warps = N / 32;
constexpr long long GiveUp = 1ll << 22; // cycles a lane waits at most

// Volatile, and not counted: PASTA counts the IR's loads and stores, and an
// inline assembly statement is a call.
__device__ unsigned load_flag(const unsigned *p) {
  unsigned v;
  asm volatile("ld.volatile.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ void store_flag(unsigned *p, unsigned v) {
  asm volatile("st.volatile.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Waits until *flag is `epoch` (the rest of this lane's warp has left mix);
// records in *seen whether it came (1) or the lane gave up (0).
__device__ void wait_for(const unsigned *flag, unsigned epoch, unsigned *seen) {
  long long start = clock64();
  unsigned came = 1;
  while (load_flag(flag) != epoch) {
    if (clock64() - start > GiveUp) {
      came = 0;
      break;
    }
    __nanosleep(100);
  }
  store_flag(seen, came);
}

// A function of the program shaped as the runtime's __pasta_ws_mark_compact
// was when its callers counted wrongly: a range check that always passes
// here, behind it a table search (a loop) and votes, a match and a shuffle
// over the active lanes that never run. Called after each step's loads in
// mix<true> (walk_probed): whether ptxas gives it a YIELD at its entry, as
// it gave the runtime's (the run lists them), and whether the callers'
// counts stay exact then, in every mode (counting too). Each call loads
// bases[0] and sizes[0]: 2 loads, 16 bytes.
__device__ __noinline__ void probe(const unsigned long long *bases,
                                   const unsigned long long *sizes, int n,
                                   const void *p0, const void *p1,
                                   unsigned long long *outside) {
  unsigned long long a0 = (unsigned long long)p0, a1 = (unsigned long long)p1;
  unsigned long long base = bases[0], size = sizes[0];
  if ((a0 - base < size) & (a1 - base < size))
    return;
  for (int k = 0; k < 2; ++k) {
    unsigned long long a = k ? a1 : a0;
    int lo = 0;
#pragma unroll 1
    for (int j = 0; j < n; ++j)
      lo += bases[j] <= a;
    unsigned lanes = __activemask();
    unsigned lost = __ballot_sync(lanes, lo == 0);
    unsigned peers = __match_any_sync(lanes, lo);
    unsigned lane = threadIdx.x % 32;
    if (lo == 0 && lane == (unsigned)__ffs(lost) - 1)
      atomicAdd(outside, (unsigned long long)__popc(lost));
    int lead = __shfl_sync(lanes, lo, __ffs(peers) - 1);
    if (__ballot_sync(lanes, lo != lead) == 0 &&
        lane == (unsigned)__ffs(peers) - 1)
      atomicAdd(outside + 1, (unsigned long long)__popc(peers));
  }
}

// `wait`: 0 nobody waits; 1 lanes taking step s's then-arm; 2 its else-arm.
// Probed: probe() after each step's loads (bases .. outside: its operands).
template <bool Probed>
__device__ __noinline__ float
mix(const float *in, const float *tab, float *out, int i, const unsigned *flag,
    unsigned *seen, unsigned epoch, int s, int wait,
    const unsigned long long *bases, const unsigned long long *sizes, int n,
    unsigned long long *outside) {
  int bits = (int)in[i];
  float acc = tab[i];
#pragma unroll
  for (int k = 0; k < Steps; ++k) {
    if ((bits >> k) & 1) {
      const float *a = &tab[(i + k) & (N - 1)],
                  *b = &tab[(i + 2 * k + 1) & (N - 1)];
      acc = acc * 0.5f + *a * *b;
      if (Probed)
        probe(bases, sizes, n, a, b, outside);
      if (wait == 1 && k == s)
        wait_for(flag, epoch, seen);
    } else {
      const float *c = &tab[(i + 3 * k + 2) & (N - 1)];
      acc -= *c;
      if (Probed)
        probe(bases, sizes, n, c, c, outside);
      if (wait == 2 && k == s)
        wait_for(flag, epoch, seen);
    }
  }
  out[i] = acc;
  return acc;
}

template <bool Probed>
__device__ void walk(const float *in, const float *tab, float *out,
                     unsigned *flags, unsigned *seen, unsigned epoch, int s,
                     int wait, const unsigned long long *bases,
                     const unsigned long long *sizes, int n,
                     unsigned long long *outside) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *flag = &flags[i / 32];
  mix<Probed>(in, tab, out, i, flag, &seen[i], epoch, s, wait, bases, sizes, n,
              outside);
  // The lanes that did not wait say that they have left mix.
  int then_arm = (i >> s) & 1;
  if (then_arm != (wait == 1)) {
    seen[i] = epoch;
    store_flag(flag, epoch);
  }
}

__global__ void walk_apart(const float *in, const float *tab, float *out,
                           unsigned *flags, unsigned *seen, unsigned epoch,
                           int s, int wait) {
  walk<false>(in, tab, out, flags, seen, epoch, s, wait, nullptr, nullptr, 0,
              nullptr);
}

__global__ void walk_probed(const float *in, const float *tab, float *out,
                            unsigned *flags, unsigned *seen, unsigned epoch,
                            int s, int wait, const unsigned long long *bases,
                            const unsigned long long *sizes, int n,
                            unsigned long long *outside) {
  walk<true>(in, tab, out, flags, seen, epoch, s, wait, bases, sizes, n,
             outside);
}

__global__ void walk_together(const float *in, const float *tab, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  mix<false>(in, tab, out, i, nullptr, nullptr, 0, 0, 0, nullptr, nullptr, 0,
             nullptr);
}

static float host_mix(const std::vector<float> &tab, int i) {
  float acc = tab[i];
  for (int k = 0; k < Steps; ++k)
    if ((i >> k) & 1)
      acc =
          acc * 0.5f + tab[(i + k) & (N - 1)] * tab[(i + 2 * k + 1) & (N - 1)];
    else
      acc -= tab[(i + 3 * k + 2) & (N - 1)];
  return acc;
}

int main() {
  std::vector<float> in(N), tab(N);
  for (int i = 0; i < N; ++i) {
    in[i] = (float)i;
    tab[i] = 1.0f + (float)(i % 13) / 16.0f;
  }
  float *d_in, *d_tab, *d_apart, *d_probed, *d_together;
  unsigned *d_flags, *d_seen;
  unsigned long long *d_bases, *d_sizes, *d_outside;
  cudaMalloc(&d_in, N * sizeof(float));
  cudaMalloc(&d_tab, N * sizeof(float));
  cudaMalloc(&d_apart, N * sizeof(float));
  cudaMalloc(&d_probed, N * sizeof(float));
  cudaMalloc(&d_together, N * sizeof(float));
  cudaMalloc(&d_flags, Warps * sizeof(unsigned));
  cudaMalloc(&d_seen, N * sizeof(unsigned));
  cudaMalloc(&d_bases, sizeof(unsigned long long));
  cudaMalloc(&d_sizes, sizeof(unsigned long long));
  cudaMalloc(&d_outside, 2 * sizeof(unsigned long long));
  cudaMemcpy(d_in, in.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_tab, tab.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_flags, 0, Warps * sizeof(unsigned));
  // probe's table: the one range every pointer it is given lies in.
  unsigned long long base = (unsigned long long)(uintptr_t)d_tab,
                     size = N * sizeof(float);
  cudaMemcpy(d_bases, &base, sizeof base, cudaMemcpyHostToDevice);
  cudaMemcpy(d_sizes, &size, sizeof size, cudaMemcpyHostToDevice);
  cudaMemset(d_outside, 0, 2 * sizeof(unsigned long long));

  // (kernel, s, wait) of each launch: walk_apart (0) 4 splits, walk_probed
  // (1) one split and one without; the waiting lanes of a warp are those
  // whose bit s is set (wait 1) or clear (wait 2): s < 5, so both kinds
  // are in every warp. Each launch a new epoch (flags are not reset).
  const int launches[6][3] = {{0, 0, 1}, {0, 0, 2}, {0, 2, 1},
                              {0, 4, 2}, {1, 0, 1}, {1, 0, 0}};
  long waited = 0, came = 0, setters = 0, left = 0;
  std::vector<unsigned> seen(N);
  for (int l = 0; l < 6; ++l) {
    int probed = launches[l][0], s = launches[l][1], wait = launches[l][2];
    unsigned epoch = (unsigned)l + 1;
    cudaMemset(d_seen, 0xff, N * sizeof(unsigned));
    if (probed)
      walk_probed<<<N / Threads, Threads>>>(d_in, d_tab, d_probed, d_flags,
                                            d_seen, epoch, s, wait, d_bases,
                                            d_sizes, 1, d_outside);
    else
      walk_apart<<<N / Threads, Threads>>>(d_in, d_tab, d_apart, d_flags,
                                           d_seen, epoch, s, wait);
    cudaMemcpy(seen.data(), d_seen, N * sizeof(unsigned),
               cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; ++i)
      if (wait != 0 && ((i >> s) & 1) == (wait == 1)) {
        ++waited;
        came += seen[i] == 1;
      } else if (((i >> s) & 1) != (wait == 1)) {
        ++setters;
        left += seen[i] == epoch;
      }
  }
  for (int l = 0; l < 2; ++l)
    walk_together<<<N / Threads, Threads>>>(d_in, d_tab, d_together);
  cudaError_t err = cudaDeviceSynchronize();

  std::vector<float> apart(N), probed(N), together(N);
  unsigned long long outside[2] = {1, 1};
  cudaMemcpy(apart.data(), d_apart, N * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(probed.data(), d_probed, N * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(together.data(), d_together, N * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(outside, d_outside, sizeof outside, cudaMemcpyDeviceToHost);
  int same = 0, close = 0;
  uint64_t hash = 1469598103934665603ull; // FNV-1a over the output words
  for (int i = 0; i < N; ++i) {
    uint32_t a, b, c;
    memcpy(&a, &apart[i], 4);
    memcpy(&b, &together[i], 4);
    memcpy(&c, &probed[i], 4);
    same += a == b && c == b;
    float want = host_mix(tab, i);
    close += std::fabs(apart[i] - want) <= 1e-4f * (1.0f + std::fabs(want));
    for (int byte = 0; byte < 4; ++byte)
      hash = (hash ^ ((a >> (8 * byte)) & 0xff)) * 1099511628211ull;
  }
  bool ok = err == cudaSuccess && same == N && close == N && came == waited &&
            left == setters && outside[0] == 0 && outside[1] == 0;
  printf("outputs: %d of %d equal between the kernels, %d of %d as the "
         "host's; hash %016llx; probe's slow path %s\n",
         same, N, close, N, (unsigned long long)hash,
         outside[0] == 0 && outside[1] == 0 ? "not taken" : "TAKEN");
  printf("waiting lanes that saw their warp leave: %ld of %ld\n", came, waited);
  printf("splitwarps: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
