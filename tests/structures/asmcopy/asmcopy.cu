// Structure: a tile staged through inline PTX, as tensor-core GEMMs move
// theirs (cuda_hgemm's ptx.h: `cp.async` from global to shared memory,
// `ldmatrix` from shared memory into registers), beside the same data flow
// written in C++. PASTA reads these PTX forms (passes/InlineAsmMemory.h):
// cp.async of N bytes is one global load and one shared store of N bytes,
// ldmatrix .x1 one shared load of 4 bytes a lane, so both kernels have the
// same counts. (Until session 17 inline assembly was opaque: asm_stage
// showed no global load and no shared store; this structure pinned that
// convention down, so that the change shows up here.)
//
// n = 2^15 threads, 128 per block (256 blocks, 4 warps each), all in
// range; each block owns a shared tile of 128 unsigned ints (512 B), each
// warp 32 of them: 8 rows of 16 B.
//   asm_stage(in, out, n): cp.async.ca.shared.global of the thread's 4 B
//     (tile[t] = in[i]), cp.async.wait_all, __syncthreads(); ldmatrix.x1
//     .m8n8.shared.b16 with lanes 0-7 giving the warp's 8 row addresses:
//     lane L receives 32-bit word L % 4 of row L / 4, which is tile[w * 32
//     + L], its own element; out[i] = that ^ kKey; out[n + i] =
//     tile[(t + 1) % 128] (a C++ shared load).
//     Counted per thread: cp.async's global load (4 B) and shared store
//     (4 B), ldmatrix's shared load (4 B: .x1, one 32-bit register a lane),
//     the C++ shared load (4 B), 2 global stores (8 B); cp.async.wait_all
//     moves no memory.
//     loads.global = n = 32,768, load_bytes.global = 4 n = 131,072,
//     stores.shared = n = 32,768, store_bytes.shared = 131,072,
//     loads.shared = 2 n = 65,536, load_bytes.shared = 8 n = 262,144,
//     stores.global = 2 n = 65,536, store_bytes.global = 8 n = 262,144
//   cxx_stage(in, out, n): tile[t] = in[i]; __syncthreads(); out[i] =
//     tile[t] ^ kKey; out[n + i] = tile[(t + 1) % 128].
//     loads.global = n = 32,768, load_bytes.global = 131,072,
//     stores.shared = n = 32,768, store_bytes.shared = 131,072,
//     loads.shared = 2 n = 65,536, load_bytes.shared = 262,144,
//     stores.global = 2 n = 65,536, store_bytes.global = 262,144
//
// Results: in[j] = 2,654,435,761 j + 12,345 (mod 2^32); both kernels must
// write out[i] = in[i] ^ kKey and out[n + i] = in[block base + (t + 1) %
// 128]. Prints "asmcopy: PASSED checksum=..." and exits 0; a wrong element
// prints "asmcopy: FAILED ..." and exits 1. Needs sm_80 or later.
//
// clang-format off
// EXPECT: kernel _Z9asm_stagePKjPji launches=1 loads.global=32768 load_bytes.global=131072 stores.shared=32768 store_bytes.shared=131072 loads.shared=65536 load_bytes.shared=262144 stores.global=65536 store_bytes.global=262144
// EXPECT: kernel _Z9cxx_stagePKjPji launches=1 loads.global=32768 load_bytes.global=131072 stores.shared=32768 store_bytes.shared=131072 loads.shared=65536 load_bytes.shared=262144 stores.global=65536 store_bytes.global=262144
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static const int kN = 1 << 15;
static const int kBlock = 128;
static const unsigned kKey = 0x5a5a5a5au;

// The thread's element staged into shared memory by the copy engine path
// (cp.async, 4 bytes), then waited for: what ptx.h's CP_ASYNC_CA does.
__device__ void stage_async(unsigned *slot, const unsigned *from) {
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(slot));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst),
               "l"(from)
               : "memory");
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// ldmatrix.x1: lanes 0-7 name the 8 rows (16 bytes each) of the warp's
// 128 bytes; lane L gets word L % 4 of row L / 4.
__device__ unsigned load_matrix_x1(const unsigned *warp_rows, int lane) {
  unsigned row = static_cast<unsigned>(
      __cvta_generic_to_shared(warp_rows + 4 * (lane % 8)));
  unsigned r;
  asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\n"
               : "=r"(r)
               : "r"(row)
               : "memory");
  return r;
}

__global__ void asm_stage(const unsigned *in, unsigned *out, int n) {
  __shared__ alignas(16) unsigned tile[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int lane = t % 32, warp = t / 32;
  stage_async(&tile[t], in + i);
  __syncthreads();
  out[i] = load_matrix_x1(tile + 32 * warp, lane) ^ kKey;
  out[n + i] = tile[(t + 1) % kBlock];
}

__global__ void cxx_stage(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned tile[kBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  __syncthreads();
  out[i] = tile[t] ^ kKey;
  out[n + i] = tile[(t + 1) % kBlock];
}

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess) {                                               \
      std::printf("asmcopy: CUDA error at line %d\n", __LINE__);               \
      return 2;                                                                \
    }                                                                          \
  } while (0)

// The first wrong element of out, or -1.
static long first_wrong(const std::vector<unsigned> &in,
                        const std::vector<unsigned> &out) {
  for (int i = 0; i < kN; ++i) {
    int base = i - i % kBlock, t = i % kBlock;
    if (out[i] != (in[i] ^ kKey))
      return i;
    if (out[kN + i] != in[base + (t + 1) % kBlock])
      return kN + i;
  }
  return -1;
}

int main() {
  std::vector<unsigned> in(kN), out(2 * kN);
  for (int j = 0; j < kN; ++j)
    in[j] = 2654435761u * static_cast<unsigned>(j) + 12345u;
  unsigned *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, kN * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_out, 2 * kN * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, in.data(), kN * sizeof(unsigned),
                   cudaMemcpyHostToDevice));
  uint64_t sum = 0;
  const char *names[2] = {"asm_stage", "cxx_stage"};
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemset(d_out, 0, 2 * kN * sizeof(unsigned)));
    if (k == 0)
      asm_stage<<<kN / kBlock, kBlock>>>(d_in, d_out, kN);
    else
      cxx_stage<<<kN / kBlock, kBlock>>>(d_in, d_out, kN);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, 2 * kN * sizeof(unsigned),
                     cudaMemcpyDeviceToHost));
    long bad = first_wrong(in, out);
    if (bad >= 0) {
      std::printf("asmcopy: FAILED %s out[%ld] = %u\n", names[k], bad,
                  out[bad]);
      return 1;
    }
    for (unsigned v : out)
      sum = sum * 31 + v;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf("asmcopy: PASSED checksum=%llu\n",
              static_cast<unsigned long long>(sum));
  return 0;
}
