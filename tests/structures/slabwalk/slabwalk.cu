// Structure: a warp-cooperative search of a hash table of linked slabs,
// SlabHash's bulk search shape (issue [overhead-3]): each
// warp looks up its 32 lanes' keys one after the other (an unrolled loop
// over the source lane), and for each walks the key's bucket, a list of
// 32-word slabs: every lane loads one word of the slab, a ballot says which
// of the 31 key words hold the key, word 31 (shuffled from lane 31) names
// the next slab, and the walk stops where the key is found or the list
// ends (a data-dependent exit). So the kernel holds 32 short loops in a
// row, each walking a list whose length no compiler can see. PASTA's
// counting copy kept one 64-bit trip counter per loop to the exit (85
// registers against 20 for SlabHash's kernel) and flushed 32 of them per
// warp; their sites are the same lines, so they now share one counter.
//
// Table: B = 1,024 buckets; bucket b's list has L(b) = 1 + b % 4 slabs;
// its slab i holds the keys b + B * (31 i + w) in words w = 0..30 (the
// value of a key is 3 * key + 1, at the same index in `values`).
// Queries: thread t (N = 2^20 threads, 256 a block, 4,096 blocks) looks
// up key b + B * (31 s + w) with b = t % B, m = t / B (0..1,023),
// s = m % 8, w = m % 31: found in slab s when s < L(b), after s + 1 slabs;
// missing otherwise, after all L(b) slabs. Slabs walked for thread t:
// T = min(s, L(b) - 1) + 1.
// Per bucket, each s occurs 128 times (m = 0..1,023):
//   b % 4 = 0 (L 1): sum over s of T = 8            -> 128 * 8  = 1,024
//   b % 4 = 1 (L 2): 1 + 7 * 2 = 15                  -> 1,920
//   b % 4 = 2 (L 3): 1 + 2 + 6 * 3 = 21              -> 2,688
//   b % 4 = 3 (L 4): 1 + 2 + 3 + 5 * 4 = 26          -> 3,328
// 256 buckets of each kind: walks 256 * (1,024 + 1,920 + 2,688 + 3,328) =
// 2,293,760 slabs. Found keys: s < L(b): 128 * (1 + 2 + 3 + 4) * 256 =
// 327,680.
// Each slab walked is loaded by all 32 lanes of the warp (4 B each): 32 *
// 2,293,760 * 4 = 293,601,280 B. Each thread also loads its query (4 B)
// and its bucket's head (4 B): 2 * 4,194,304; a found key's value: 327,680
// * 4 = 1,310,720. load_bytes.global = 293,601,280 + 8,388,608 + 1,310,720
// = 303,300,608. Each thread stores its result: store_bytes.global =
// 4,194,304. Integer work only: no FLOPs.
//
// Results are checked against the host's; the checksum (the sum of the
// results) must be the plain build's.
//
// clang-format off
// EXPECT: kernel _Z11lookup_bulkPKjS0_S0_S0_Pj launches=1 load_bytes.global=303300608 store_bytes.global=4194304 flops.f32=0
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static const uint32_t kBuckets = 1024;
static const uint32_t kThreads = 1u << 20;
static const uint32_t kBlock = 256;
static const uint32_t kEnd = 0xffffffffu;      // no next slab
static const uint32_t kMissing = 0xffffffffu;  // the key is not in the table
static const uint32_t kKeyWords = 0x7fffffffu; // words 0..30 of a slab

// slabs[32 * s + w]: slab s's word w, a key for w < 31, the next slab (or
// kEnd) for w = 31. values[32 * s + w]: the value of that key.
__global__ void lookup_bulk(const uint32_t *queries, const uint32_t *heads,
                            const uint32_t *slabs, const uint32_t *values,
                            uint32_t *results) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t mine = queries[t];
  const uint32_t my_head = heads[mine % kBuckets];
  uint32_t found_at = kEnd; // index of this lane's key, once found
#pragma unroll
  for (int q = 0; q < 32; ++q) {
    const uint32_t key = __shfl_sync(0xffffffffu, mine, q);
    uint32_t slab = __shfl_sync(0xffffffffu, my_head, q);
    uint32_t hits, next;
    do {
      const uint32_t word = slabs[32 * slab + lane];
      next = __shfl_sync(0xffffffffu, word, 31);
      hits = __ballot_sync(0xffffffffu, word == key) & kKeyWords;
      found_at = (lane == (uint32_t)q && hits) ? 32 * slab + __ffs(hits) - 1
                                               : found_at;
      slab = next;
    } while (next != kEnd && hits == 0);
  }
  results[t] = found_at == kEnd ? kMissing : values[found_at];
}

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::printf("slabwalk: FAILED: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

static uint32_t query_of(uint32_t t) {
  const uint32_t b = t % kBuckets, m = t / kBuckets;
  return b + kBuckets * (31 * (m % 8) + m % 31);
}

int main() {
  // The table: bucket b's slabs in order, the lists' slabs numbered
  // bucket after bucket.
  std::vector<uint32_t> heads(kBuckets), slabs, values;
  for (uint32_t b = 0; b < kBuckets; ++b) {
    const uint32_t len = 1 + b % 4;
    heads[b] = (uint32_t)(slabs.size() / 32);
    for (uint32_t i = 0; i < len; ++i) {
      const uint32_t s = (uint32_t)(slabs.size() / 32);
      for (uint32_t w = 0; w < 31; ++w) {
        const uint32_t key = b + kBuckets * (31 * i + w);
        slabs.push_back(key);
        values.push_back(3 * key + 1);
      }
      slabs.push_back(i + 1 < len ? s + 1 : kEnd);
      values.push_back(0);
    }
  }
  std::vector<uint32_t> queries(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t)
    queries[t] = query_of(t);
  uint32_t *d_queries = nullptr, *d_heads = nullptr, *d_slabs = nullptr,
           *d_values = nullptr, *d_results = nullptr;
  const size_t words = slabs.size() * sizeof(uint32_t);
  if (check(cudaMalloc(&d_queries, kThreads * sizeof(uint32_t)),
            "cudaMalloc") ||
      check(cudaMalloc(&d_heads, kBuckets * sizeof(uint32_t)), "cudaMalloc") ||
      check(cudaMalloc(&d_slabs, words), "cudaMalloc") ||
      check(cudaMalloc(&d_values, words), "cudaMalloc") ||
      check(cudaMalloc(&d_results, kThreads * sizeof(uint32_t)),
            "cudaMalloc") ||
      check(cudaMemcpy(d_queries, queries.data(), kThreads * sizeof(uint32_t),
                       cudaMemcpyHostToDevice),
            "cudaMemcpy") ||
      check(cudaMemcpy(d_heads, heads.data(), kBuckets * sizeof(uint32_t),
                       cudaMemcpyHostToDevice),
            "cudaMemcpy") ||
      check(cudaMemcpy(d_slabs, slabs.data(), words, cudaMemcpyHostToDevice),
            "cudaMemcpy") ||
      check(cudaMemcpy(d_values, values.data(), words, cudaMemcpyHostToDevice),
            "cudaMemcpy"))
    return 1;
  lookup_bulk<<<kThreads / kBlock, kBlock>>>(d_queries, d_heads, d_slabs,
                                             d_values, d_results);
  if (check(cudaGetLastError(), "launch") ||
      check(cudaDeviceSynchronize(), "kernel"))
    return 1;
  std::vector<uint32_t> results(kThreads);
  if (check(cudaMemcpy(results.data(), d_results, kThreads * sizeof(uint32_t),
                       cudaMemcpyDeviceToHost),
            "cudaMemcpy"))
    return 1;
  unsigned long long sum = 0, found = 0;
  for (uint32_t t = 0; t < kThreads; ++t) {
    const uint32_t b = t % kBuckets, s = (t / kBuckets) % 8;
    const uint32_t want = s < 1 + b % 4 ? 3 * queries[t] + 1 : kMissing;
    if (results[t] != want) {
      std::printf("slabwalk: FAILED at %u: got %u expected %u\n", t, results[t],
                  want);
      return 1;
    }
    sum += results[t];
    found += want != kMissing;
  }
  cudaFree(d_queries);
  cudaFree(d_heads);
  cudaFree(d_slabs);
  cudaFree(d_values);
  cudaFree(d_results);
  std::printf("slabwalk: PASSED found=%llu checksum=%llu\n", found, sum);
  return 0;
}
