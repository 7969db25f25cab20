// Structure: the two shapes of issue [overhead-3] whose counting copies ran
// 1.55x and 1.70x on an H200: the counting copy took more registers than the
// plain kernel, and with it a quarter of the warps an SM can hold.
//
// relax_tile(data, width, height, w): a 2D block of 16 x 16 threads keeps a
//   tile of 48 rows x 16 columns in shared memory (3 rows per thread) and
//   relaxes it in Passes = 12 unrolled passes, each a barrier apart. In pass
//   s, the thread of tile row ty (ty = threadIdx.y + 16 p, p = 0..2) updates
//   the pair of rows (ty, ty + 1) when the image has a row below, the tile
//   has one, and ty + s is even: 36 conditional blocks run at most once per
//   thread, block-variant (the image bound depends on blockIdx.y), so they
//   are kept in bits and flushed from two masks at exit, more than an inline
//   flush takes. The flush of those bits was an out-of-line call, and the
//   call alone took the kernel from 32 registers to 38.
//
//   width = 256, height = 384: a grid of 16 x 8 = 128 blocks, 32,768
//   threads, 98,304 elements, each loaded and stored once (4 B each):
//     load_bytes.global = store_bytes.global = 4 * 98,304 = 393,216
//   Every tile is whole, so a pair is updated where ty + 1 < 48 and
//   ty + s is even: 24 rows of 16 threads in even passes (ty = 0, 2, .., 46),
//   23 in odd ones (ty = 1, .., 45); 6 of each: 16 * (6 * 24 + 6 * 23) = 4,512
//   updates per block, 577,536 in all. An update reads 2 floats of the tile
//   and writes 2 (16 B), and does u + w v and v - w u: 2 multiply-adds, 4
//   FLOPs (docs/counting-conventions.md).
//     load_bytes.shared = 8 * 577,536 + 4 * 98,304 (the tile read for the
//       store) = 4,620,288 + 393,216 = 5,013,504
//     store_bytes.shared = 4 * 98,304 (the tile written from the load)
//       + 4,620,288 = 5,013,504
//     flops.f32 = 4 * 577,536 = 2,310,144
//
// local_rank(in, out, n, radius): a grid-stride loop (the thread's index and
//   the stride from blockIdx.x and gridDim.x), each element's rank among its
//   neighbours within the radius (clamped at the ends): an inner loop over
//   a kernel argument. Its counting copy kept the block id and a constant of
//   the exit flush in registers across both loops: 38 registers against 32.
//   n = 2^20 ints; launched twice: radius 1 with 4,096 blocks of 256 (one
//   element per thread) and radius 3 with 1,024 blocks (4 per thread). Per
//   element 1 + 2 radius loads of 4 B and one 4-byte store:
//     load_bytes.global = 4 n (3 + 7) = 41,943,040
//     store_bytes.global = 2 * 4 n = 8,388,608
//     flops.f32 = 0
//
// faces(in, out, planes): HeCBench stencil3d's shape: a block of 16 x 16
//   threads (tkk = threadIdx.x, tjj = threadIdx.y) walks a loop over a
//   kernel argument (planes = 10), and in every plane the same faces, whose
//   branches test only the thread's place: `tkk > 0 && tkk < 15 && tjj > 0
//   && tjj < 15` (196 threads of a block) adds its element, `tkk < 15 &&
//   tjj > 0` (225 threads) subtracts its right neighbour; every thread
//   stores its sum. The counting copy kept a 64-bit register per face
//   through the loop (stencil3d: 71 registers against 40); each face now
//   sets a bit of one mask and the loop's exit adds its count (the loop's
//   trip count) where the bit is set. 64 blocks, planes of 64 * 256 floats:
//     load_bytes.global = 4 * 10 * 64 * (196 + 225) = 1,077,760
//     store_bytes.global = 4 * 10 * 64 * 256 = 655,360
//     flops.f32 = 10 * 64 * (196 + 225) = 269,440 (an add or a subtract
//       each)
//
// split_rows(in, out, low, high, rows, cols, lo, hi): a thread per row walks
//   its cols elements (a loop over an `int` kernel argument), stores the
//   running sum of the row, and stores an element below lo into low and
//   one above hi into high: two blocks on loaded data in every iteration,
//   counted per iteration. Their counters stayed 64-bit registers through
//   the loop; the loop runs below 2^31 times (a signed 32-bit bound), so
//   they are kept in 32 bits (one register each instead of two, HeCBench
//   layernorm's kernel0<4>: 40 registers against 32 plain). rows = 4,096 (16
//   blocks of 256), cols = 64, in[i] = i % 8, lo = 1.5, hi = 5.5: of every
//   8 consecutive elements (a row holds 8 such runs), 2 go to low (0, 1)
//   and 2 to high (6, 7). 262,144 elements:
//     load_bytes.global = 4 * 262,144 = 1,048,576
//     store_bytes.global = 4 * (262,144 + 65,536 + 65,536) = 1,572,864
//     flops.f32 = 262,144 (the running sum's add)
//
// bit_planes(in, out, planes, rows, cols): the same walk, and each of the
//   element's 10 low bits that is set stores the element into that bit's
//   plane: 10 blocks on loaded data in every iteration, more loop counters
//   than the 8 kept in registers, so the coldest (here the last two, of
//   equal frequency) are counted in local memory (Thrust's radix-sort
//   histogram: 96 registers against 32 with all of them in registers).
//   rows = 4,096, cols = 64, in[i] = i % 1024: over the 262,144 elements
//   (256 runs of 0..1023) each bit is set in half of them, 131,072 stores
//   per plane; out gets the running sum of the row (integer: no FLOPs).
//     load_bytes.global = 4 * 262,144 = 1,048,576
//     store_bytes.global = 4 * (262,144 + 10 * 131,072) = 6,291,456
//     flops.f32 = 0
//
// five_faces(in, out, aux, planes): the faces' shape with five faces in a
//   1-D block of 40 threads, so the second warp has 8 lanes. Five faces and
//   the loop's own count are six counts added at the loop's exit: the
//   exit's flush takes the general path out of line (a partial warp) while
//   the first warp takes the fast path inline. Odd blocks walk one plane
//   less (so no count is alike in every block, which the first block would
//   flush for all): 4 * 6 + 4 * 5 = 44 block-planes of 320 floats (8
//   blocks, planes = 6). Per block-plane, thread t: t > 0 adds its element (39
//   threads), t < 39 subtracts its right neighbour (39), an even t adds
//   twice its element (20; a multiply-add, 2 FLOPs), t >= 8 stores the sum
//   in aux (32), t % 4 == 1 subtracts its left neighbour (10); at the end
//   every thread stores its sum in out:
//     load_bytes.global = 4 * 44 * (39 + 39 + 20 + 10) = 19,008
//     store_bytes.global = 4 * (44 * 32 + 320) = 6,912
//     flops.f32 = 44 * (39 + 39 + 2 * 20 + 10) = 5,632
//
// partial_tiles(in, out, tail, n, portion): CUB's radix-sort histogram's
//   shape (96 registers counting against 32 plain): a loop over portions of
//   the input (CUB's are 2^30 items; here `portion` = 20,480, so two) around
//   a block's loop over tiles of 512 items (128 threads x 4), whole tiles
//   copied unguarded, the partial last tile element by element behind `if
//   (t + 128 k < left)`. Those guarded copies run only after the tile check
//   `n - at >= 512` fails: counted where taken, not in registers. After the
//   tile loop, each thread stores a flag for each of the 8 low bits of its
//   index that is set: 8 more counters of the portion loop, flushed on its
//   back edge (alike in every block: by the first block, scaled). n =
//   40,000 (portion 1 ends with a tile of 64 items), 8 blocks of 128:
//     load_bytes.global = 4 * 40,000 = 160,000
//     store_bytes.global = 4 * (40,000 + 2 portions * 8 blocks * 7 bits *
//       64 threads) = 4 * (40,000 + 7,168) = 188,672 (bit 7 of an index
//       below 128 is never set)
//     flops.f32 = 0
//
// Results are checked against the host's; the checksum is the sum of the
// tile, the ranks, the faces' sums and split_rows', bit_planes' and
// five_faces' outputs.
//
// clang-format off
// EXPECT: kernel _Z10relax_tilePfiif launches=1 load_bytes.global=393216 store_bytes.global=393216 load_bytes.shared=5013504 store_bytes.shared=5013504 flops.f32=2310144
// EXPECT: kernel _Z10local_rankPKiPiii launches=2 load_bytes.global=41943040 store_bytes.global=8388608 flops.f32=0
// EXPECT: kernel _Z5facesPKfPfi launches=1 load_bytes.global=1077760 store_bytes.global=655360 flops.f32=269440
// EXPECT: kernel _Z10split_rowsPKfPfS1_S1_iiff launches=1 load_bytes.global=1048576 store_bytes.global=1572864 flops.f32=262144
// EXPECT: kernel _Z10bit_planesPKiPiS1_ii launches=1 load_bytes.global=1048576 store_bytes.global=6291456 flops.f32=0
// EXPECT: kernel _Z10five_facesPKfPfS1_i launches=1 load_bytes.global=19008 store_bytes.global=6912 flops.f32=5632
// EXPECT: kernel _Z13partial_tilesPKiPiS1_xx launches=1 load_bytes.global=160000 store_bytes.global=188672 flops.f32=0
// EXPECT: consistent
// clang-format on
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

constexpr int TileX = 16, ThreadsY = 16, Parts = 3, TileY = ThreadsY * Parts;
constexpr int Passes = 12;

__global__ void relax_tile(float *data, int width, int height, float w) {
  __shared__ float tile[TileY][TileX];
  const int tx = threadIdx.x, x = blockIdx.x * TileX + tx;
  const int row0 = blockIdx.y * TileY;
#pragma unroll
  for (int p = 0; p < Parts; ++p) {
    int ty = threadIdx.y + p * ThreadsY, y = row0 + ty;
    if (x < width && y < height)
      tile[ty][tx] = data[y * width + x];
  }
  __syncthreads();
#pragma unroll
  for (int s = 0; s < Passes; ++s) {
#pragma unroll
    for (int p = 0; p < Parts; ++p) {
      int ty = threadIdx.y + p * ThreadsY;
      if (row0 + ty + 1 < height && ty + 1 < TileY && ((ty + s) & 1) == 0) {
        float u = tile[ty][tx], v = tile[ty + 1][tx];
        tile[ty][tx] = u + w * v;
        tile[ty + 1][tx] = v - w * u;
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int p = 0; p < Parts; ++p) {
    int ty = threadIdx.y + p * ThreadsY, y = row0 + ty;
    if (x < width && y < height)
      data[y * width + x] = tile[ty][tx];
  }
}

__global__ void local_rank(const int *in, int *out, int n, int radius) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int v = in[i];
    int rank = 0;
    for (int r = 1; r <= radius; ++r) {
      int right = i + r < n ? i + r : n - 1;
      int left = i - r >= 0 ? i - r : 0;
      rank += (in[right] < v) + (in[left] < v);
    }
    out[i] = rank;
  }
}

constexpr int Side = 16, FaceBlocks = 64, Planes = 10;
constexpr int PlaneSize = FaceBlocks * Side * Side;

__global__ void faces(const float *in, float *out, int planes) {
  const int tjj = threadIdx.y, tkk = threadIdx.x;
  const int at = blockIdx.x * Side * Side + tjj * Side + tkk;
  float sum = 0.0f;
  for (int ii = 0; ii < planes; ++ii) {
    const float *plane = in + (size_t)ii * PlaneSize;
    if (tkk > 0 && tkk < Side - 1 && tjj > 0 && tjj < Side - 1)
      sum += plane[at];
    if (tkk < Side - 1 && tjj > 0)
      sum -= plane[at + 1];
    out[(size_t)ii * PlaneSize + at] = sum;
  }
}

constexpr int SplitRows = 4096, SplitCols = 64;

__global__ void split_rows(const float *in, float *out, float *low, float *high,
                           int rows, int cols, float lo, float hi) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const size_t at = (size_t)row * cols + c;
    const float v = in[at];
    if (v < lo)
      low[at] = v;
    else if (v > hi)
      high[at] = v;
    sum += v;
    out[at] = sum;
  }
}

constexpr int BitPlanes = 10;

__global__ void bit_planes(const int *in, int *out, int *planes, int rows,
                           int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  const size_t total = (size_t)rows * cols;
  int sum = 0;
  for (int c = 0; c < cols; ++c) {
    const size_t at = (size_t)row * cols + c;
    const int v = in[at];
#pragma unroll
    for (int k = 0; k < BitPlanes; ++k)
      if ((v >> k) & 1)
        planes[k * total + at] = v;
    sum += v;
    out[at] = sum;
  }
}

constexpr int FiveThreads = 40, FiveBlocks = 8, FivePlanes = 6;
constexpr int FiveSize = FiveBlocks * FiveThreads;

__global__ void five_faces(const float *in, float *out, float *aux,
                           int planes) {
  const int t = threadIdx.x, at = blockIdx.x * FiveThreads + t;
  float sum = 0.0f;
  const int own = planes - (int)(blockIdx.x & 1);
  for (int ii = 0; ii < own; ++ii) {
    const float *plane = in + (size_t)ii * FiveSize;
    if (t > 0)
      sum += plane[at];
    if (t < FiveThreads - 1)
      sum -= plane[at + 1];
    if (t % 2 == 0)
      sum += 2.0f * plane[at];
    if (t >= 8)
      aux[(size_t)ii * FiveSize + at] = sum;
    if (t % 4 == 1)
      sum -= plane[at - 1];
  }
  out[at] = sum;
}

constexpr int PtThreads = 128, PtItems = 4, PtTile = PtThreads * PtItems;
constexpr int PtBlocks = 8, PtBits = 8;
constexpr long long PtN = 40000, PtPortion = 20480;

__global__ void partial_tiles(const int *in, int *out, int *tail, long long n,
                              long long portion) {
  const int t = threadIdx.x;
  for (long long base = 0; base < n; base += portion) {
    const long long size = n - base < portion ? n - base : portion;
    for (long long off = (long long)blockIdx.x * PtTile; off < size;
         off += (long long)gridDim.x * PtTile) {
      const long long at = base + off;
      if (n - at >= PtTile) {
#pragma unroll
        for (int k = 0; k < PtItems; ++k)
          out[at + t + k * PtThreads] = 2 * in[at + t + k * PtThreads];
      } else {
        const int left = (int)(n - at);
#pragma unroll
        for (int k = 0; k < PtItems; ++k)
          if (t + k * PtThreads < left)
            out[at + t + k * PtThreads] = 2 * in[at + t + k * PtThreads];
      }
    }
    const long long row = (base / portion) * gridDim.x + blockIdx.x;
#pragma unroll
    for (int k = 0; k < PtBits; ++k)
      if ((t >> k) & 1)
        tail[(row * PtBits + k) * PtThreads + t] = 1;
  }
}

static int check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return 0;
  std::printf("hotshapes: FAILED: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

// The host's relax_tile: the same passes, tile by tile.
static void host_relax(std::vector<float> &img, int width, int height,
                       float w) {
  for (int by = 0; by < height / TileY; ++by)
    for (int x = 0; x < width; ++x) {
      float *col[TileY];
      for (int ty = 0; ty < TileY; ++ty)
        col[ty] = &img[(by * TileY + ty) * width + x];
      for (int s = 0; s < Passes; ++s)
        for (int ty = 0; ty + 1 < TileY; ++ty)
          if (((ty + s) & 1) == 0) {
            float u = *col[ty], v = *col[ty + 1];
            *col[ty] = u + w * v;
            *col[ty + 1] = v - w * u;
          }
    }
}

static int host_rank(const std::vector<int> &in, int i, int radius) {
  int n = (int)in.size(), rank = 0;
  for (int r = 1; r <= radius; ++r) {
    int right = i + r < n ? i + r : n - 1, left = i - r >= 0 ? i - r : 0;
    rank += (in[right] < in[i]) + (in[left] < in[i]);
  }
  return rank;
}

// The host's faces: the same sums, in the same order.
static float host_face(const std::vector<float> &in, int ii, int at) {
  const int tkk = at % Side, tjj = at / Side % Side;
  float sum = 0.0f;
  for (int p = 0; p <= ii; ++p) {
    const float *plane = &in[(size_t)p * PlaneSize];
    if (tkk > 0 && tkk < Side - 1 && tjj > 0 && tjj < Side - 1)
      sum += plane[at];
    if (tkk < Side - 1 && tjj > 0)
      sum -= plane[at + 1];
  }
  return sum;
}

// The host's five_faces: thread at's sums, plane by plane; aux gets the
// sum after the fourth face where t >= 8 (stays NaN elsewhere).
static float host_five(const std::vector<float> &in, int at,
                       std::vector<float> &aux) {
  const int t = at % FiveThreads, own = FivePlanes - at / FiveThreads % 2;
  float sum = 0.0f;
  for (int ii = 0; ii < own; ++ii) {
    const float *plane = &in[(size_t)ii * FiveSize];
    if (t > 0)
      sum += plane[at];
    if (t < FiveThreads - 1)
      sum -= plane[at + 1];
    if (t % 2 == 0)
      sum += 2.0f * plane[at];
    if (t >= 8)
      aux[(size_t)ii * FiveSize + at] = sum;
    if (t % 4 == 1)
      sum -= plane[at - 1];
  }
  return sum;
}

int main() {
  const int width = 256, height = 384, cells = width * height, n = 1 << 20;
  const float w = 0.125f;
  std::vector<float> img(cells), want(cells);
  for (int i = 0; i < cells; ++i)
    img[i] = want[i] = (float)((i * 29 + 3) % 61) / 16.0f;
  std::vector<int> in(n), r1(n), r3(n);
  for (int i = 0; i < n; ++i)
    in[i] = (int)(((unsigned)i * 2654435761u) >> 12) % 1000;
  float *dimg;
  int *din, *d1, *d3;
  if (check(cudaMalloc(&dimg, cells * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&din, n * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&d1, n * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&d3, n * sizeof(int)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dimg, img.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  relax_tile<<<dim3(width / TileX, height / TileY), dim3(TileX, ThreadsY)>>>(
      dimg, width, height, w);
  local_rank<<<n / 256, 256>>>(din, d1, n, 1);
  local_rank<<<n / 1024, 256>>>(din, d3, n, 3);
  const size_t face_cells = (size_t)Planes * PlaneSize;
  std::vector<float> fin(face_cells), fout(face_cells);
  for (size_t i = 0; i < face_cells; ++i)
    fin[i] = (float)((i * 13 + 5) % 31) / 8.0f;
  float *dfin, *dfout;
  if (check(cudaMalloc(&dfin, face_cells * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dfout, face_cells * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dfin, fin.data(), face_cells * sizeof(float),
             cudaMemcpyHostToDevice);
  faces<<<FaceBlocks, dim3(Side, Side)>>>(dfin, dfout, Planes);
  const size_t split_cells = (size_t)SplitRows * SplitCols;
  std::vector<float> split_in(split_cells), sout(split_cells),
      slow(split_cells), shigh(split_cells);
  for (size_t i = 0; i < split_cells; ++i)
    split_in[i] = (float)(i % 8);
  float *dsin, *dsout, *dslow, *dshigh;
  if (check(cudaMalloc(&dsin, split_cells * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dsout, split_cells * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dslow, split_cells * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dshigh, split_cells * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dsin, split_in.data(), split_cells * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaMemset(dslow, 0xff, split_cells * sizeof(float));  // NaN where unset
  cudaMemset(dshigh, 0xff, split_cells * sizeof(float)); // NaN where unset
  split_rows<<<SplitRows / 256, 256>>>(dsin, dsout, dslow, dshigh, SplitRows,
                                       SplitCols, 1.5f, 5.5f);
  std::vector<int> bin(split_cells), bout(split_cells),
      bplanes(BitPlanes * split_cells);
  for (size_t i = 0; i < split_cells; ++i)
    bin[i] = (int)(i % 1024);
  int *dbin, *dbout, *dbplanes;
  if (check(cudaMalloc(&dbin, split_cells * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&dbout, split_cells * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&dbplanes, bplanes.size() * sizeof(int)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dbin, bin.data(), split_cells * sizeof(int),
             cudaMemcpyHostToDevice);
  cudaMemset(dbplanes, 0xff, bplanes.size() * sizeof(int)); // -1 where unset
  bit_planes<<<SplitRows / 256, 256>>>(dbin, dbout, dbplanes, SplitRows,
                                       SplitCols);
  const size_t five_cells = (size_t)FivePlanes * FiveSize;
  std::vector<float> five_in(five_cells), five_out(FiveSize),
      five_aux(five_cells), five_want_aux(five_cells, NAN);
  for (size_t i = 0; i < five_cells; ++i)
    five_in[i] = (float)((i * 7 + 2) % 23) / 4.0f;
  float *dfive_in, *dfive_out, *dfive_aux;
  if (check(cudaMalloc(&dfive_in, five_cells * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dfive_out, FiveSize * sizeof(float)), "cudaMalloc") ||
      check(cudaMalloc(&dfive_aux, five_cells * sizeof(float)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dfive_in, five_in.data(), five_cells * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaMemset(dfive_aux, 0xff, five_cells * sizeof(float)); // NaN where unset
  five_faces<<<FiveBlocks, FiveThreads>>>(dfive_in, dfive_out, dfive_aux,
                                          FivePlanes);
  std::vector<int> pt_in(PtN), pt_out(PtN),
      pt_tail(2 * PtBlocks * PtBits * PtThreads);
  for (long long i = 0; i < PtN; ++i)
    pt_in[i] = (int)(i % 1000);
  int *dpt_in, *dpt_out, *dpt_tail;
  if (check(cudaMalloc(&dpt_in, PtN * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&dpt_out, PtN * sizeof(int)), "cudaMalloc") ||
      check(cudaMalloc(&dpt_tail, pt_tail.size() * sizeof(int)), "cudaMalloc"))
    return 1;
  cudaMemcpy(dpt_in, pt_in.data(), PtN * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dpt_out, 0xff, PtN * sizeof(int));          // -1 unset
  cudaMemset(dpt_tail, 0, pt_tail.size() * sizeof(int)); // 0 unset
  partial_tiles<<<PtBlocks, PtThreads>>>(dpt_in, dpt_out, dpt_tail, PtN,
                                         PtPortion);
  if (check(cudaDeviceSynchronize(), "kernels"))
    return 1;
  cudaMemcpy(pt_out.data(), dpt_out, PtN * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(pt_tail.data(), dpt_tail, pt_tail.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(five_out.data(), dfive_out, FiveSize * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(five_aux.data(), dfive_aux, five_cells * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(bout.data(), dbout, split_cells * sizeof(int),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(bplanes.data(), dbplanes, bplanes.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(sout.data(), dsout, split_cells * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(slow.data(), dslow, split_cells * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(shigh.data(), dshigh, split_cells * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(fout.data(), dfout, face_cells * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(img.data(), dimg, cells * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(r1.data(), d1, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(r3.data(), d3, n * sizeof(int), cudaMemcpyDeviceToHost);
  host_relax(want, width, height, w);
  int bad = 0;
  double checksum = 0;
  for (int i = 0; i < cells; ++i) {
    if (std::fabs(img[i] - want[i]) >
        1e-4f * std::fmax(1.0f, std::fabs(want[i])))
      ++bad;
    checksum += img[i];
  }
  for (int i = 0; i < n; ++i) {
    bad += r1[i] != host_rank(in, i, 1);
    bad += r3[i] != host_rank(in, i, 3);
    checksum += r1[i] + r3[i];
  }
  for (int ii = 0; ii < Planes; ++ii)
    for (int at = 0; at < PlaneSize; ++at) {
      float got = fout[(size_t)ii * PlaneSize + at];
      bad += std::fabs(got - host_face(fin, ii, at)) > 1e-3f;
      checksum += got;
    }
  for (int r = 0; r < SplitRows; ++r) {
    float sum = 0.0f;
    for (int c = 0; c < SplitCols; ++c) {
      const size_t at = (size_t)r * SplitCols + c;
      const float v = split_in[at];
      sum += v;
      bad += sout[at] != sum;
      bad += v < 1.5f ? slow[at] != v : !std::isnan(slow[at]);
      bad += v > 5.5f ? shigh[at] != v : !std::isnan(shigh[at]);
      checksum += sout[at];
    }
  }
  for (int r = 0; r < SplitRows; ++r) {
    int sum = 0;
    for (int c = 0; c < SplitCols; ++c) {
      const size_t at = (size_t)r * SplitCols + c;
      const int v = bin[at];
      sum += v;
      bad += bout[at] != sum;
      for (int k = 0; k < BitPlanes; ++k)
        bad += bplanes[k * split_cells + at] != ((v >> k) & 1 ? v : -1);
      checksum += bout[at];
    }
  }
  for (int at = 0; at < FiveSize; ++at) {
    const float want_sum = host_five(five_in, at, five_want_aux);
    bad += std::fabs(five_out[at] - want_sum) > 1e-3f;
    checksum += five_out[at];
  }
  for (size_t i = 0; i < five_cells; ++i)
    bad += std::isnan(five_want_aux[i])
               ? !std::isnan(five_aux[i])
               : std::fabs(five_aux[i] - five_want_aux[i]) > 1e-3f;
  for (long long i = 0; i < PtN; ++i)
    bad += pt_out[i] != 2 * pt_in[i];
  for (size_t i = 0; i < pt_tail.size(); ++i) {
    const int t = (int)(i % PtThreads), k = (int)(i / PtThreads % PtBits);
    bad += pt_tail[i] != ((t >> k) & 1);
  }
  cudaFree(dpt_in);
  cudaFree(dpt_out);
  cudaFree(dpt_tail);
  cudaFree(dfive_in);
  cudaFree(dfive_out);
  cudaFree(dfive_aux);
  cudaFree(dbin);
  cudaFree(dbout);
  cudaFree(dbplanes);
  cudaFree(dsin);
  cudaFree(dsout);
  cudaFree(dslow);
  cudaFree(dshigh);
  cudaFree(dfin);
  cudaFree(dfout);
  cudaFree(dimg);
  cudaFree(din);
  cudaFree(d1);
  cudaFree(d3);
  std::printf("hotshapes: checksum %.3f\n", checksum);
  std::printf("hotshapes: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
