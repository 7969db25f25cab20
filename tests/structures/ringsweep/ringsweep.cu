// Structure: two shapes the divergence copies measured at every execution
// though their addresses are lane-affine in nearly every warp (issue
// [divergence-2], round 20's unseen programs): neighbours on a torus taken
// modulo its size (a Game of Life, 5.1x plain in divergence mode), and a
// loop over coordinates stored one row per coordinate, n objects a row with
// n not a multiple of 8, inside a loop over cluster centres (kmeans,
// 20.3x). Counting mode's counts are derived below; divergence mode's
// figures are checked against Nsight Compute on the plain twin
// (scripts/gpu_divergence_structures.sh).
//
// life(world, next, n = 256): one thread a cell of an n x n torus of bytes,
// blocks of 32 x 8 (rows of 32 lanes), grid 8 x 32: 65,536 threads. Each
// reads its eight neighbours, `(x + n - 1) % n` and `(x + 1) % n` across,
// the same in y, in one line, and its own cell (the rule without a branch,
// so that the read is in every thread); writes one byte.
//   load_bytes.global = 65,536 * 9 = 589,824
//   store_bytes.global = 65,536
// Two steps run (world -> next -> world): launches=2, the counts doubled.
//
// nearest(objects, centres, member, n = 4,097, d = 9, k = 16): blocks of
// 128 threads, 33 blocks (4,224 threads, 4,097 in range). Each block copies
// the k * d = 144 centre coordinates into shared memory (thread t copies
// t, t + 128: 144 loads and stores of 4 B a block), then each thread in
// range sums, for each centre, the squared differences of its d coordinates
// objects[j * n + i] (global) and centre[j * k + c] (shared), keeps the
// nearest and stores its index.
//   load_bytes.global = 33 * 144 * 4 + 4,097 * 16 * 9 * 4 = 19,008 +
//     2,359,872 = 2,378,880
//   store_bytes.shared = 33 * 144 * 4 = 19,008
//   load_bytes.shared = 4,097 * 16 * 9 * 4 = 2,359,872
//   store_bytes.global = 4,097 * 4 = 16,388
//
// Coordinates are small integers, so every distance is exact; results are
// checked against the host's. `ringsweep N` runs life on an N x N torus
// (N a multiple of 32; a benchmark: the counts above are for 256).
//
// clang-format off
// EXPECT: kernel _Z4lifePKhPhj launches=2 load_bytes.global=1179648 store_bytes.global=131072
// EXPECT: kernel _Z7nearestPKfS0_Pijjj launches=1 load_bytes.global=2378880 load_bytes.shared=2359872 store_bytes.shared=19008 store_bytes.global=16388
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void life(const unsigned char *world, unsigned char *next,
                     unsigned n) {
  unsigned x = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned y = threadIdx.y + blockDim.y * blockIdx.y;
  unsigned left = (x + n - 1) % n, right = (x + 1) % n;
  unsigned up = ((y + n - 1) % n) * n, down = ((y + 1) % n) * n, row = y * n;
  // One line: the eight loads' figures go to one row of counters.
  // clang-format off
  unsigned alive = world[left + up] + world[x + up] + world[right + up] + world[left + row] + world[right + row] + world[left + down] + world[x + down] + world[right + down];
  // clang-format on
  // Alive next with 3 neighbours, or 2 and alive now (cells are 0 or 1):
  // no branch, so its own cell is read in every thread.
  unsigned self = world[x + row];
  next[x + row] = (alive | self) == 3;
}

// Centres: k x d floats, copied to shared memory by the block.
constexpr unsigned MaxCentres = 16 * 9;

__global__ void nearest(const float *objects, const float *centres, int *member,
                        unsigned n, unsigned d, unsigned k) {
  __shared__ float centre[MaxCentres];
  for (unsigned t = threadIdx.x; t < k * d; t += blockDim.x)
    centre[t] = centres[t];
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int best = 0;
  float best_dist = 3.0e38f;
  for (unsigned c = 0; c < k; ++c) {
    float dist = 0.0f;
    for (unsigned j = 0; j < d; ++j) {
      float diff = objects[j * n + i] - centre[j * k + c];
      dist += diff * diff;
    }
    if (dist < best_dist) {
      best_dist = dist;
      best = (int)c;
    }
  }
  member[i] = best;
}

static int fail(const char *what, cudaError_t e) {
  if (e == cudaSuccess)
    return 0;
  std::printf("ringsweep: FAILED: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

// One step of the torus on the host.
static void life_host(const std::vector<unsigned char> &w,
                      std::vector<unsigned char> &next, unsigned n) {
  for (unsigned y = 0; y < n; ++y)
    for (unsigned x = 0; x < n; ++x) {
      unsigned alive = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy)
            alive += w[((y + n + dy) % n) * n + (x + n + dx) % n];
      unsigned self = w[y * n + x];
      next[y * n + x] = (alive | self) == 3;
    }
}

static int run_life(unsigned n, int *wrong) {
  std::vector<unsigned char> w(n * n), next(n * n), got(n * n);
  for (unsigned i = 0; i < n * n; ++i)
    w[i] = (i * 2654435761u >> 13) % 3 == 0;
  unsigned char *dw, *dn;
  if (fail("cudaMalloc", cudaMalloc(&dw, n * n)) ||
      fail("cudaMalloc", cudaMalloc(&dn, n * n)) ||
      fail("cudaMemcpy",
           cudaMemcpy(dw, w.data(), n * n, cudaMemcpyHostToDevice)))
    return 1;
  dim3 block(32, 8), grid(n / 32, n / 8);
  life<<<grid, block>>>(dw, dn, n);
  life<<<grid, block>>>(dn, dw, n);
  if (fail("life", cudaDeviceSynchronize()) ||
      fail("cudaMemcpy",
           cudaMemcpy(got.data(), dw, n * n, cudaMemcpyDeviceToHost)))
    return 1;
  life_host(w, next, n);
  life_host(next, w, n);
  for (unsigned i = 0; i < n * n; ++i)
    *wrong += got[i] != w[i];
  cudaFree(dw);
  cudaFree(dn);
  return 0;
}

static int run_nearest(int *wrong) {
  const unsigned n = 4097, d = 9, k = 16;
  std::vector<float> obj(d * n), cen(k * d);
  for (unsigned j = 0; j < d; ++j)
    for (unsigned i = 0; i < n; ++i)
      obj[j * n + i] = (float)((i * 7 + j * 3) % 11);
  for (unsigned j = 0; j < d; ++j)
    for (unsigned c = 0; c < k; ++c)
      cen[j * k + c] = (float)((c * 5 + j) % 11);
  float *dobj, *dcen;
  int *dm;
  if (fail("cudaMalloc", cudaMalloc(&dobj, obj.size() * sizeof(float))) ||
      fail("cudaMalloc", cudaMalloc(&dcen, cen.size() * sizeof(float))) ||
      fail("cudaMalloc", cudaMalloc(&dm, n * sizeof(int))) ||
      fail("cudaMemcpy",
           cudaMemcpy(dobj, obj.data(), obj.size() * sizeof(float),
                      cudaMemcpyHostToDevice)) ||
      fail("cudaMemcpy",
           cudaMemcpy(dcen, cen.data(), cen.size() * sizeof(float),
                      cudaMemcpyHostToDevice)))
    return 1;
  nearest<<<(n + 127) / 128, 128>>>(dobj, dcen, dm, n, d, k);
  std::vector<int> got(n);
  if (fail("nearest", cudaDeviceSynchronize()) ||
      fail("cudaMemcpy",
           cudaMemcpy(got.data(), dm, n * sizeof(int), cudaMemcpyDeviceToHost)))
    return 1;
  for (unsigned i = 0; i < n; ++i) {
    int best = 0;
    float best_dist = 3.0e38f;
    for (unsigned c = 0; c < k; ++c) {
      float dist = 0.0f;
      for (unsigned j = 0; j < d; ++j) {
        float diff = obj[j * n + i] - cen[j * k + c];
        dist += diff * diff;
      }
      if (dist < best_dist) {
        best_dist = dist;
        best = (int)c;
      }
    }
    *wrong += got[i] != best;
  }
  cudaFree(dobj);
  cudaFree(dcen);
  cudaFree(dm);
  return 0;
}

int main(int argc, char **argv) {
  const unsigned n = argc > 1 ? (unsigned)std::atoi(argv[1]) : 256;
  if (n < 32 || n % 32 != 0) {
    std::printf("ringsweep: FAILED: the torus side must be a multiple of 32\n");
    return 1;
  }
  int wrong = 0;
  if (run_life(n, &wrong) || run_nearest(&wrong))
    return 1;
  std::printf("ringsweep: %d wrong\n", wrong);
  std::printf("ringsweep: %s\n", wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
