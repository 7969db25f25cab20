// Structure: generic accesses in loops whose address space is known only at
// run time (issue [overhead-3]: a ray tracer's render loop read the fields
// of objects through pointers its setup left in global memory; their
// run-time address-space counts, kept in registers, took its counting copy
// from 72 registers to 186). The counting copy now tests each base pointer
// once per block and adds its shared and local counts in local memory on a
// path a global pointer never takes (passes/CounterEmissionSpaces.cpp).
// The counts must stay exact where the path is taken: one kernel walks
// global objects through a list of pointers in global memory, the other
// hands one non-inlined loop a global, a shared and a local object.
//
// n = 64 blocks * 128 threads = 8,192 threads, all in range.
//
// scene(list, m = 5, out): thread i adds the six fields of the sphere
// list[(i + j) % m] to acc for j < m, one field a line (6 FLOPs a step;
// six sites whose run-time counts, in registers, took 24 64-bit values
// through the loop): per thread 5 pointers (8 B) and 5 * 6 fields (4 B)
// loaded, all global; one 4 B store.
//   load_bytes.global = 8,192 * (5 * 8 + 5 * 24) = 1,310,720
//   store_bytes.global = 8,192 * 4 = 32,768
//   flops.f32 = 8,192 * 5 * 6 = 245,760
//
// scene_calls(list, m = 5, out): the same sum, each sphere's six fields
// added by the non-inlined sphere_sum (one line: one site, whose four
// run-time counts its twin returns to the loop that calls it):
//   load_bytes.global = 1,310,720, store_bytes.global = 32,768,
//   flops.f32 = 8,192 * 5 * (5 + 1) = 245,760
// sphere_sum is reached from scene_calls only: its counts are in
// scene_calls'.
//
// spaces(g, out, rounds = 7): thread 0 of each block stores the shared
// pair {2, 3}, {4, 5} (16 B); each thread stores its local pair
// {1, i % 4}, {2, 1} (16 B) and calls the non-inlined
// sum_fields(p, 2, rounds) on &g[2 i] (global), the shared pair and its
// local one: round r loads p[r % 2].a and .b (8 B; the index keeps the
// loads in the loop) and adds them (2 FLOPs); the kernel adds the three
// results (2 FLOPs) and stores 4 B.
//   load_bytes.global = load_bytes.shared = load_bytes.local
//     = 8,192 * 7 * 8 = 458,752
//   store_bytes.shared = 64 * 16 = 1,024
//   store_bytes.local = 8,192 * 16 = 131,072
//   store_bytes.global = 8,192 * 4 = 32,768
//   flops.f32 = 8,192 * (3 * 7 * 2 + 2) = 8,192 * 44 = 360,448
// sum_fields is reached from spaces only: its counts are in spaces'.
//
// `spaceptrs R` runs spaces with R rounds (a benchmark of the cold path:
// the shared and local pairs take it at every round); the counts above are
// for the default, 7.
//
// Fields hold small integers, so every sum is exact; results are checked
// against the host's.
//
// clang-format off
// EXPECT: kernel _Z5scenePKPK6SphereiPf launches=1 load_bytes.global=1310720 store_bytes.global=32768 flops.f32=245760
// EXPECT: kernel _Z11scene_callsPKPK6SphereiPf launches=1 load_bytes.global=1310720 store_bytes.global=32768 flops.f32=245760
// EXPECT: kernel _Z6spacesPK3ObjPfi launches=1 load_bytes.global=458752 load_bytes.shared=458752 load_bytes.local=458752 store_bytes.shared=1024 store_bytes.local=131072 store_bytes.global=32768 flops.f32=360448
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

struct Obj {
  float a, b;
};

struct Sphere {
  float cx, cy, cz, r, albedo, fuzz;
};

constexpr int Threads = 128, Blocks = 64, Objects = 5, Rounds = 7;

__global__ void scene(const Sphere *const *list, int m, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < m; ++j) {
    const Sphere *s = list[(i + j) % m];
    acc += s->cx;
    acc += s->cy;
    acc += s->cz;
    acc += s->r;
    acc += s->albedo;
    acc += s->fuzz;
  }
  out[i] = acc;
}

__device__ __noinline__ float sphere_sum(const Sphere *s) {
  return s->cx + s->cy + s->cz + s->r + s->albedo + s->fuzz;
}

__global__ void scene_calls(const Sphere *const *list, int m, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < m; ++j)
    acc += sphere_sum(list[(i + j) % m]);
  out[i] = acc;
}

__device__ __noinline__ float sum_fields(const Obj *p, int count, int rounds) {
  float s = 0.0f;
  for (int r = 0; r < rounds; ++r)
    s += p[r % count].a + p[r % count].b;
  return s;
}

__global__ void spaces(const Obj *g, float *out, int rounds) {
  __shared__ Obj shared_pair[2];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    shared_pair[0] = Obj{2.0f, 3.0f};
    shared_pair[1] = Obj{4.0f, 5.0f};
  }
  __syncthreads();
  Obj mine[2] = {{1.0f, (float)(i % 4)}, {2.0f, 1.0f}};
  out[i] = sum_fields(&g[2 * i], 2, rounds) +
           sum_fields(shared_pair, 2, rounds) + sum_fields(mine, 2, rounds);
}

static int check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return 0;
  std::printf("spaceptrs: FAILED: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

int main(int argc, char **argv) {
  // `spaceptrs R` runs spaces with R rounds (a benchmark of the shared and
  // local pairs' loops; the counts above are for the default, 7).
  const int rounds = argc > 1 ? std::atoi(argv[1]) : Rounds;
  if (rounds < 1) {
    std::printf("spaceptrs: FAILED: rounds must be at least 1\n");
    return 1;
  }
  const int n = Blocks * Threads;
  std::vector<Sphere> objs(Objects);
  std::vector<Obj> gs(2 * n);
  for (int k = 0; k < Objects; ++k)
    objs[k] =
        Sphere{(float)k, (float)(2 * k + 1), 1.0f, 2.0f, (float)(k % 3), 0.5f};
  for (int i = 0; i < 2 * n; ++i)
    gs[i] = Obj{(float)(i % 7), (float)(i % 3)};
  Sphere *dobjs;
  Obj *dgs;
  const Sphere **dlist;
  float *dscene, *dcalls, *dspaces;
  if (check(cudaMalloc(&dobjs, Objects * sizeof(Sphere)), "cudaMalloc") ||
      check(cudaMalloc(&dlist, Objects * sizeof(Sphere *)), "cudaMalloc") ||
      check(cudaMalloc(&dgs, 2 * n * sizeof(Obj)), "cudaMalloc") ||
      check(cudaMalloc(&dscene, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dcalls, n * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dspaces, n * sizeof(float)), "cudaMalloc"))
    return 1;
  std::vector<const Sphere *> list(Objects);
  for (int k = 0; k < Objects; ++k)
    list[k] = dobjs + k;
  cudaMemcpy(dobjs, objs.data(), Objects * sizeof(Sphere),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dlist, list.data(), Objects * sizeof(Sphere *),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dgs, gs.data(), 2 * n * sizeof(Obj), cudaMemcpyHostToDevice);
  scene<<<Blocks, Threads>>>(dlist, Objects, dscene);
  scene_calls<<<Blocks, Threads>>>(dlist, Objects, dcalls);
  spaces<<<Blocks, Threads>>>(dgs, dspaces, rounds);
  if (check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  std::vector<float> a(n), b(n), c(n);
  cudaMemcpy(a.data(), dscene, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), dspaces, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c.data(), dcalls, n * sizeof(float), cudaMemcpyDeviceToHost);
  float every = 0.0f; // scene: each thread sums every object once
  for (const Sphere &o : objs)
    every += o.cx + o.cy + o.cz + o.r + o.albedo + o.fuzz;
  int wrong = 0;
  double checksum = 0.0;
  for (int i = 0; i < n; ++i) {
    // Even rounds read the first object of a pair, odd ones the second.
    auto pair = [&](const Obj &x, const Obj &y) {
      return (float)((rounds + 1) / 2) * (x.a + x.b) +
             (float)(rounds / 2) * (y.a + y.b);
    };
    const float fields = pair(gs[2 * i], gs[2 * i + 1]) +
                         pair(Obj{2.0f, 3.0f}, Obj{4.0f, 5.0f}) +
                         pair(Obj{1.0f, (float)(i % 4)}, Obj{2.0f, 1.0f});
    wrong += (a[i] != every) + (c[i] != every) + (b[i] != fields);
    checksum += a[i] + b[i];
  }
  std::printf("spaceptrs: checksum %.1f, %d wrong\n", checksum, wrong);
  std::printf("spaceptrs: %s\n", wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
