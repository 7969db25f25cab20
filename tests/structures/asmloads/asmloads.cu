// Structure: memory operations written in inline PTX, in the forms PASTA
// counts (passes/InlineAsmMemory.h): clang's cache-hinted loads (__ldcs,
// __ldcg), CUB's ThreadLoad (LOAD_LDG: ld.global.nc.v4; LOAD_CG on a
// generic pointer: `ld.cg.u8` inside a brace block), a streaming store
// (st.global.cs), cp.async tile copies of 16, 8 and 4 bytes and one of 16
// whose source size is 8 (the rest zero-filled), ldmatrix .x4 and .x2.
// Each is counted as the access it makes: one execution per thread, the
// bytes from the instruction, the space from the instruction (or, for
// `ld.cg`, from the address at run time). Before PASTA read inline PTX,
// only the C++ accesses were counted.
//
// n = 2^15 threads, 128 per block (256 blocks of 4 full warps), all in
// range, one launch each.
//
// hinted_loads(a, b, c, d, out, n), per thread i:
//   __ldg(a + i)       float:  ld.global.nc (clang's builtin, C++)    4 B
//   __ldcs(b + i)      float4: ld.global.cs.v4.f32                   16 B
//   ThreadLoad<LOAD_LDG>(c + i)  uint4: ld.global.nc.v4.u32          16 B
//   __ldcg(d + i)      uchar:  ld.global.cg.u8                        1 B
//   ThreadLoad<LOAD_CG>(src + i) uchar: ld.cg.u8, src = n < 0 ? a shared
//     array : d + n: generic, global at run time                      1 B
//   st.global.cs.u32 out + i (inline PTX)                             4 B
//   5 global loads of 38 B, 1 global store of 4 B a thread:
//   loads.global = 5 n = 163,840, load_bytes.global = 38 n = 1,245,184,
//   stores.global = n = 32,768, store_bytes.global = 4 n = 131,072;
//   nothing shared.
//
// async_tiles(g16, g8, g4, out), per thread t of its block, i = block
// base + t; shared tile16 (128 x 16 B), tile8 (128 x 8 B), tile4 (128 x 4 B):
//   cp.async.cg tile16[t] <- g16[i], 16: global load, shared store 16 B
//   cp.async.ca tile8[t] <- g8[i], 8:     global load, shared store 8 B
//   cp.async.ca tile4[t] <- g4[i], 4:     global load, shared store 4 B
//   cp.async.commit_group, cp.async.wait_group 0, __syncthreads: none
//   ldmatrix.x4 of the warp's 32 rows of tile16        shared load 16 B
//   ldmatrix.x2 of the warp's 16 rows (256 B) of tile8 shared load 8 B
//   tile4[(t + 1) % 128] (C++)                         shared load 4 B
//   out[i] = the xor of the 7 words (C++)              global store 4 B
//   loads.global = 3 n = 98,304, load_bytes.global = 28 n = 917,504,
//   stores.shared = 98,304, store_bytes.shared = 917,504,
//   loads.shared = 3 n = 98,304, load_bytes.shared = 28 n = 917,504,
//   stores.global = 32,768, store_bytes.global = 131,072
//
// zero_fill(g16, out): cp.async.cg tile[t] <- g16[i], 16 bytes copied,
// source size 8 (an immediate operand): global load 8 B, shared store 16 B;
// cp.async.wait_all; out[i] = word 0 ^ word 2 of tile[t] (two C++ shared
// loads of 4 B; word 2 is zero-filled, so out[i] = g16[i].x):
//   loads.global = n = 32,768, load_bytes.global = 8 n = 262,144,
//   stores.shared = 32,768, store_bytes.shared = 16 n = 524,288,
//   loads.shared = 2 n = 65,536, load_bytes.shared = 8 n = 262,144,
//   stores.global = 32,768, store_bytes.global = 131,072
//
// bulk_tile(g16, out): libcu++'s cuda::memcpy_async(block, tile, g16 +
// block base, aligned_size_t<16>(2,048), barrier), the barrier a
// cuda::barrier in shared memory: on sm_90 one thread of the block issues
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes of
// 2,048 B (the block's 128 float4; libcu++'s element loop, a fallback for
// other alignments, does not run); then out[i] = the bits of tile[t].y (a
// C++ shared load of 4 B):
//   loads.global = 256 (one per block), load_bytes.global = 256 x 2,048 =
//   524,288, stores.shared = 256, store_bytes.shared = 524,288,
//   loads.shared = n = 32,768, load_bytes.shared = 131,072,
//   stores.global = 32,768, store_bytes.global = 131,072
//
// Against Nsight Compute (the plain build; scripts/gpu_asm_memory.sh): in
// full warps every load above is one warp-level instruction per 32
// threads, and the lanes read consecutive bytes: global load requests =
// PASTA's global loads / 32 (hinted_loads 5,120; cp.async's are LDGSTS
// requests: 3,072 in async_tiles, 1,024 in zero_fill), sectors x 32 = its
// global load bytes; shared loads: ldmatrix's are LDSM instructions.
//
// Working set (PASTA_WORKING_SET=1; pages of 64 KiB from each allocation's
// start, every allocation read or written whole):
//   hinted_loads: a 128 KiB, b 512 KiB, c 512 KiB, d 64 KiB (both halves
//     of its 2n bytes), out 128 KiB: 5 allocations, 1,376,256 B touched
//     (the asm's addresses: b, c, d, out; only a is C++)
//   async_tiles: g16 512 KiB, g8 256 KiB, g4 128 KiB, out: 4 allocations,
//     1,048,576 B
//   zero_fill: g16, out: 2 allocations, 655,360 B
//   bulk_tile: g16, out: 2 allocations, 655,360 B
//
// Results: every output word is checked against the host's; prints
// "asmloads: PASSED checksum=..." and exits 0, or "asmloads: FAILED ..."
// and exits 1. Needs sm_80 or later.
//
// clang-format off
// EXPECT(!ws): kernel _Z12hinted_loadsPKfPK6float4PK5uint4PKhPji launches=1 loads.global=163840 load_bytes.global=1245184 stores.global=32768 store_bytes.global=131072 loads.shared=0 stores.shared=0
// EXPECT(!ws): kernel _Z11async_tilesPK5uint4PK5uint2PKjPj launches=1 loads.global=98304 load_bytes.global=917504 stores.shared=98304 store_bytes.shared=917504 loads.shared=98304 load_bytes.shared=917504 stores.global=32768 store_bytes.global=131072
// EXPECT(!ws): kernel _Z9zero_fillPK5uint4Pj launches=1 loads.global=32768 load_bytes.global=262144 stores.shared=32768 store_bytes.shared=524288 loads.shared=65536 load_bytes.shared=262144 stores.global=32768 store_bytes.global=131072
// EXPECT(!ws): kernel _Z9bulk_tilePK6float4Pj launches=1 loads.global=256 load_bytes.global=524288 stores.shared=256 store_bytes.shared=524288 loads.shared=32768 load_bytes.shared=131072 stores.global=32768 store_bytes.global=131072
// EXPECT: consistent
// EXPECT(ws): ws enabled=1 page_size=65536 launches=4 skipped=0 outside.accesses=0
// EXPECT(ws): ws-launch _Z12hinted_loadsPKfPK6float4PK5uint4PKhPji matches=1 nth=0 touched_allocations=5 footprint_bytes=1376256 touched_bytes=1376256 outside=0
// EXPECT(ws): ws-launch _Z11async_tilesPK5uint4PK5uint2PKjPj matches=1 nth=0 touched_allocations=4 footprint_bytes=1048576 touched_bytes=1048576 outside=0
// EXPECT(ws): ws-launch _Z9zero_fillPK5uint4Pj matches=1 nth=0 touched_allocations=2 footprint_bytes=655360 touched_bytes=655360 outside=0
// EXPECT(ws): ws-launch _Z9bulk_tilePK6float4Pj matches=1 nth=0 touched_allocations=2 footprint_bytes=655360 touched_bytes=655360 outside=0
// clang-format on
#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cub/thread/thread_load.cuh>
#include <cuda/barrier>
#include <cuda_runtime.h>
#include <vector>

static const int kN = 1 << 15;
static const int kBlock = 128;

__global__ void hinted_loads(const float *a, const float4 *b, const uint4 *c,
                             const unsigned char *d, unsigned *out, int n) {
  __shared__ unsigned char never[kBlock]; // the select's other arm only
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = __ldg(a + i);
  float4 y = __ldcs(b + i);
  uint4 z = cub::ThreadLoad<cub::LOAD_LDG>(c + i);
  unsigned char u = __ldcg(d + i);
  const unsigned char *src = n < 0 ? never : d + n;
  unsigned char v = cub::ThreadLoad<cub::LOAD_CG>(src + i);
  unsigned r = __float_as_uint(x) ^ __float_as_uint(y.x) ^
               __float_as_uint(y.y) ^ __float_as_uint(y.z) ^
               __float_as_uint(y.w) ^ z.x ^ z.y ^ z.z ^ z.w ^ u ^ (v << 8);
  asm volatile("st.global.cs.u32 [%0], %1;" ::"l"(out + i), "r"(r) : "memory");
}

static __device__ unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__global__ void async_tiles(const uint4 *g16, const uint2 *g8,
                            const unsigned *g4, unsigned *out) {
  __shared__ alignas(16) uint4 tile16[kBlock];
  __shared__ alignas(16) uint2 tile8[kBlock];
  __shared__ alignas(16) unsigned tile4[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int lane = t % 32, warp = t / 32;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                   shared_address(&tile16[t])),
               "l"(g16 + i)
               : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(
                   shared_address(&tile8[t])),
               "l"(g8 + i)
               : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(
                   shared_address(&tile4[t])),
               "l"(g4 + i)
               : "memory");
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  __syncthreads();
  // x4: lane L names row L of the warp's 32 rows of 16 B (matrix L / 8).
  unsigned r0, r1, r2, r3;
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
      : "r"(shared_address(&tile16[32 * warp + lane]))
      : "memory");
  // x2: lanes 0-15 name the 16 rows of 16 B (two uint2 each) of the
  // warp's 32 uint2; lanes 16-31 repeat them (their addresses are unused).
  unsigned s0, s1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(s0), "=r"(s1)
               : "r"(shared_address(&tile8[32 * warp + 2 * (lane % 16)]))
               : "memory");
  out[i] = r0 ^ r1 ^ r2 ^ r3 ^ s0 ^ s1 ^ tile4[(t + 1) % kBlock];
}

__global__ void zero_fill(const uint4 *g16, unsigned *out) {
  __shared__ alignas(16) uint4 tile[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                   shared_address(&tile[t])),
               "l"(g16 + i), "n"(8)
               : "memory");
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  const unsigned *w = reinterpret_cast<const unsigned *>(&tile[t]);
  out[i] = w[0] ^ w[2];
}

using Barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void bulk_tile(const float4 *g16, unsigned *out) {
  __shared__ alignas(16) float4 tile[kBlock];
  // clang takes no __shared__ object with a constructor: raw storage,
  // initialised by one thread (init), as NVIDIA's guide does with nvcc.
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  auto &bar = *reinterpret_cast<Barrier *>(storage);
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, g16 + blockIdx.x * kBlock,
                     cuda::aligned_size_t<16>(sizeof(tile)), bar);
  bar.arrive_and_wait();
  int t = threadIdx.x;
  out[blockIdx.x * kBlock + t] = __float_as_uint(tile[t].y);
}

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess) {                                               \
      std::printf("asmloads: CUDA error at line %d\n", __LINE__);              \
      return 2;                                                                \
    }                                                                          \
  } while (0)

static unsigned hash(unsigned j) { return 2654435761u * j + 12345u; }

static unsigned word(const std::vector<unsigned> &v, size_t k) { return v[k]; }

// What async_tiles writes for element i: ldmatrix gives lane L word L % 4
// of row L / 4 of each matrix (rows of 16 B, 4 words).
static unsigned async_expected(const std::vector<unsigned> &w16,
                               const std::vector<unsigned> &w8,
                               const std::vector<unsigned> &w4, int i) {
  int t = i % kBlock, base = i - t, lane = t % 32, warp = t / 32;
  unsigned r = 0;
  for (int j = 0; j < 4; ++j) // x4: row 8j + L/4 of the warp's tile16 rows
    r ^=
        word(w16, 4 * (size_t)(base + 32 * warp + 8 * j + lane / 4) + lane % 4);
  for (int j = 0; j < 2; ++j) // x2: 16-byte rows of the warp's tile8 bytes
    r ^= word(w8, 2 * (size_t)(base + 32 * warp) + 4 * (8 * j + lane / 4) +
                      lane % 4);
  return r ^ w4[base + (t + 1) % kBlock];
}

int main() {
  const size_t n = kN;
  // Inputs as words: a (n floats), b, c, g16 (n x 16 B), g8 (n x 8 B),
  // g4 (n x 4 B), d (2n bytes).
  std::vector<unsigned> wa(n), wb(4 * n), wc(4 * n), w16(4 * n), w8(2 * n),
      w4(n);
  std::vector<unsigned char> d(2 * n);
  for (size_t j = 0; j < 4 * n; ++j) {
    wb[j] = hash(j) & 0x3f7fffffu; // finite floats: bits come back as is
    wc[j] = hash(j + 7);
    w16[j] = hash(j + 11);
  }
  for (size_t j = 0; j < n; ++j) {
    wa[j] = hash(j + 3) & 0x3f7fffffu;
    w4[j] = hash(j + 17);
  }
  for (size_t j = 0; j < 2 * n; ++j)
    w8[j] = hash(j + 13);
  for (size_t j = 0; j < 2 * n; ++j)
    d[j] = static_cast<unsigned char>(hash(j + 5) >> 11);

  float *da;
  float4 *db;
  uint4 *dc, *d16;
  uint2 *d8;
  unsigned *d4, *dout;
  unsigned char *dd;
  CHECK(cudaMalloc(&da, 4 * n));
  CHECK(cudaMalloc(&db, 16 * n));
  CHECK(cudaMalloc(&dc, 16 * n));
  CHECK(cudaMalloc(&dd, 2 * n));
  CHECK(cudaMalloc(&d16, 16 * n));
  CHECK(cudaMalloc(&d8, 8 * n));
  CHECK(cudaMalloc(&d4, 4 * n));
  CHECK(cudaMalloc(&dout, 4 * n));
  CHECK(cudaMemcpy(da, wa.data(), 4 * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, wb.data(), 16 * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, wc.data(), 16 * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, d.data(), 2 * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d16, w16.data(), 16 * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d8, w8.data(), 8 * n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d4, w4.data(), 4 * n, cudaMemcpyHostToDevice));

  std::vector<unsigned> out(n);
  uint64_t sum = 0;
  const char *names[4] = {"hinted_loads", "async_tiles", "zero_fill",
                          "bulk_tile"};
  for (int k = 0; k < 4; ++k) {
    CHECK(cudaMemset(dout, 0, 4 * n));
    if (k == 0)
      hinted_loads<<<kN / kBlock, kBlock>>>(da, db, dc, dd, dout, kN);
    else if (k == 1)
      async_tiles<<<kN / kBlock, kBlock>>>(d16, d8, d4, dout);
    else if (k == 2)
      zero_fill<<<kN / kBlock, kBlock>>>(d16, dout);
    else
      bulk_tile<<<kN / kBlock, kBlock>>>(reinterpret_cast<float4 *>(d16), dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), dout, 4 * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; ++i) {
      unsigned want;
      if (k == 0) {
        want = wa[i] ^ wb[4 * i] ^ wb[4 * i + 1] ^ wb[4 * i + 2] ^
               wb[4 * i + 3] ^ wc[4 * i] ^ wc[4 * i + 1] ^ wc[4 * i + 2] ^
               wc[4 * i + 3] ^ d[i] ^ (unsigned(d[n + i]) << 8);
      } else if (k == 1) {
        want = async_expected(w16, w8, w4, i);
      } else if (k == 2) {
        want = w16[4 * i]; // word 2 zero-filled
      } else {
        want = w16[4 * i + 1]; // tile[t].y
      }
      if (out[i] != want) {
        std::printf("asmloads: FAILED %s out[%d] = %u, want %u\n", names[k], i,
                    out[i], want);
        return 1;
      }
    }
    for (unsigned v : out)
      sum = sum * 31 + v;
  }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(d16));
  CHECK(cudaFree(d8));
  CHECK(cudaFree(d4));
  CHECK(cudaFree(dout));
  std::printf("asmloads: PASSED checksum=%llu\n",
              static_cast<unsigned long long>(sum));
  return 0;
}
