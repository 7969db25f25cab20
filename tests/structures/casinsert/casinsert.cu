// Structure: a warp-cooperative insert into a hash table of linked slabs
// that retries its atomicCAS, SlabHash's build_table_kernel shape (issue
// [overhead-3]): while any lane of the warp still has a pair to insert, the
// warp takes the first such lane's bucket, every lane loads one word of the
// current slab (through a pointer held in a by-value parameter struct, so
// a generic load), a ballot finds an empty pair, and the source lane claims
// it with a 64-bit atomicCAS; a full slab moves the warp to the next one,
// or the warp allocates a slab (a loop of its own: a ballot over the lanes'
// bitmap words for a free bit, its lane claims it with atomicCAS, retried
// on failure) and lane 31 links it (atomicCAS), and the warp retries. The
// allocator's bitmap word stays in a register between allocations, as
// SlabHash's allocator context does. PASTA's counting copy kept the loops'
// block counters and the generic load's address-space counters in 64-bit
// registers through the loop (SlabHash's kernel: 48 registers against 26,
// 58.6% of the warps active against 92.5%).
//
// Table: slabs of 32 words; pair i (0..14) in words 2i (key) and 2i + 1
// (value), empty when both are kEmpty; word 31 the next slab (kEnd: none).
// Bucket b's first slab is slab b of `buckets`; the pool's slabs are
// another array (a next word names a pool slab). N = 2^20 threads, 128 a
// block, W = 32,768 warps; warp w inserts its lanes' pairs (key: the
// thread index t, value 3t + 1) into buckets 2w (even lanes) and 2w + 1
// (odd lanes), 16 pairs each, in lane order. Warp w's allocator owns 32
// bitmap words (lane l holds word l): all bits taken but bits 5 and 9 of
// word w % 32, which map to pool slabs 2w and 2w + 1. Only warp w touches
// its buckets and bitmap, so no CAS fails and the counts are exact. The host
// fills each of warp w's two first slabs with p = 0, 8 or 14 pairs for w % 3 =
// 0, 1, 2. Iterations of the insert loop for one bucket's 16 pairs (each starts
// at the first slab: the queue of lanes changed):
//   p = 0: pairs 0..14 fit the first slab (15 iterations); pair 15 finds it
//     full and no next slab: allocate (iteration 1), reload the first slab
//     and move to the new one (2), insert (3): 18 iterations, 1 allocation.
//   p = 8: pairs 0..6 fit (7); pair 7 as pair 15 above (3); pairs 8..15
//     load the full first slab, then the second: 2 each (16): 26, 1.
//   p = 14: pair 0 fits (1); pair 1 allocates (3); pairs 2..15: 2 each
//     (28): 32, 1.
// Warps: w % 3 = 0 and 1: 10,923 each, w % 3 = 2: 10,922. Iterations:
//   2 * (10,923 * 18 + 10,923 * 26 + 10,922 * 32) = 1,660,232.
// Each iteration loads one word in each of the 32 lanes (128 B); each
// thread also loads its bitmap word once (4 B): load_bytes.global =
// 1,660,232 * 128 + 4,194,304 = 216,704,000. Allocations: 2 * W = 65,536,
// each one pass of the allocator loop (a bitmap CAS by one lane, which
// succeeds) and the link CAS by lane 31, 4 bytes each; with the 2^20
// pair CASes of 8 bytes: atomics.global = 1,048,576 + 131,072 = 1,179,648,
// atomic_bytes.global = 8,388,608 + 524,288 = 8,912,896. Each thread stores
// the iteration of its warp's loop at which its pair went in (4 B):
// store_bytes.global = 4,194,304. Integer work only.
//
// The host walks every bucket and checks that it holds its prefilled pairs
// and then its 16 pairs in lane order; the checksum (over buckets, key *
// position in the bucket's list) must be the plain build's.
//
// clang-format off
// EXPECT: kernel _Z12insert_pairsPj9SlabTable launches=1 load_bytes.global=216704000 store_bytes.global=4194304 atomics.global=1179648 atomic_bytes.global=8912896 flops.f32=0
// EXPECT: consistent
// clang-format on
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static const uint32_t kThreads = 1u << 20;
static const uint32_t kBlock = 128;
static const uint32_t kWarps = kThreads / 32;
static const uint32_t kBuckets = 2 * kWarps;
static const uint32_t kPool = 2 * kWarps; // two slabs a warp
static const uint32_t kEmpty = 0xffffffffu;
static const uint32_t kEnd = 0xffffffffu;
static const uint32_t kKeyWords = 0x15555555u; // words 0, 2, .., 28
static const uint32_t kFirst = 0xfffffffeu;    // the bucket's first slab
static const uint64_t kEmptyPair = ~0ull;

// Passed by value: its pointers reach the kernel's loads as generic ones,
// as SlabHash's context class does.
struct SlabTable {
  uint32_t *buckets; // kBuckets first slabs of 32 words
  uint32_t *pool;    // kPool further slabs
  uint32_t *bitmap;  // 32 words a warp: the pool slabs it may take
};

// The pool is laid out in regions of 1,024 slabs, each after a header of
// 32 words (unused here), as slab allocators lay out their super blocks.
static const uint32_t kRegionWords = 32 + 32 * 1024;

__device__ uint32_t *bucket_word(const SlabTable &T, uint32_t bucket,
                                 uint32_t word) {
  return T.buckets + 32 * bucket + word;
}

__device__ uint32_t *pool_word(const SlabTable &T, uint32_t slab,
                               uint32_t word) {
  return T.pool + (slab >> 10) * kRegionWords + 32 + 32 * (slab & 1023) + word;
}

// Word `word` of a bucket's first slab (slab kFirst) or of pool slab
// `slab`: the two helpers' loads of their fields merge into one load of a
// parameter address chosen on the way in, which the compiler no longer
// knows to be global, as in SlabHash (a generic pointer, resolved at run
// time).
__device__ uint32_t *slab_word(const SlabTable &T, uint32_t slab,
                               uint32_t bucket, uint32_t word) {
  return slab == kFirst ? bucket_word(T, bucket, word)
                        : pool_word(T, slab, word);
}

// The warp takes a free bit of its bitmap words (lane l holds word l, in
// bits): the first lane with one claims it with atomicCAS, retried until
// one succeeds. Bit k of warp w's word l is pool slab 2w + (k == 9).
__device__ uint32_t take_slab(const SlabTable &T, uint32_t warp, uint32_t lane,
                              uint32_t &bits) {
  uint32_t *mine = T.bitmap + 32 * warp + lane;
  for (;;) {
    const int bit = __ffs(~bits) - 1;
    const uint32_t who = __ballot_sync(0xffffffffu, bit >= 0);
    if (who == 0)
      return kEnd; // none left (never: two bits a warp, two allocations)
    const uint32_t src = __ffs(who) - 1;
    uint32_t got = kEnd;
    if (lane == src) {
      const uint32_t want = bits | (1u << bit);
      const uint32_t old = atomicCAS(mine, bits, want);
      if (old == bits)
        got = 2 * warp + (bit == 9);
      bits = old == bits ? want : old;
    }
    got = __shfl_sync(0xffffffffu, got, src);
    if (got != kEnd)
      return got;
  }
}

__global__ void insert_pairs(uint32_t *iterations, SlabTable T) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t warp = t / 32;
  const uint32_t bucket = 2 * warp + (lane & 1);
  const uint64_t pair = ((uint64_t)(3 * t + 1) << 32) | t;
  uint32_t bits = T.bitmap[32 * warp + lane];
  bool pending = true;
  uint32_t queue, last_queue = 0, slab = kFirst, runs = 0, my_run = 0;
  while ((queue = __ballot_sync(0xffffffffu, pending))) {
    ++runs;
    if (queue != last_queue)
      slab = kFirst; // a pair went in: the next one starts at its bucket
    const uint32_t src = __ffs(queue) - 1;
    const uint32_t src_bucket = __shfl_sync(0xffffffffu, bucket, src);
    const uint32_t word =
        *(volatile uint32_t *)slab_word(T, slab, src_bucket, lane);
    const uint32_t empty =
        __ballot_sync(0xffffffffu, word == kEmpty) & kKeyWords;
    if (empty == 0) {
      const uint32_t next = __shfl_sync(0xffffffffu, word, 31);
      if (next == kEnd) {
        const uint32_t fresh = take_slab(T, warp, lane, bits);
        if (lane == 31 && fresh != kEnd)
          atomicCAS(slab_word(T, slab, src_bucket, 31), kEnd, fresh);
      } else {
        slab = next;
      }
    } else if (lane == src) {
      const uint32_t dest = __ffs(empty) - 1;
      auto *p = (unsigned long long *)slab_word(T, slab, src_bucket, dest);
      if (atomicCAS(p, kEmptyPair, pair) == kEmptyPair) {
        pending = false;
        my_run = runs;
      }
    }
    last_queue = queue;
  }
  iterations[t] = my_run;
}

static uint32_t prefill(uint32_t bucket) {
  const uint32_t w = bucket / 2;
  return w % 3 == 0 ? 0 : w % 3 == 1 ? 8 : 14;
}

// Bucket b's pairs in list order, as (value << 32 | key); h holds the
// first slabs, then the pool's.
static std::vector<uint64_t> pairs_of(const std::vector<uint32_t> &h,
                                      uint32_t b) {
  std::vector<uint64_t> out;
  size_t at = 32ull * b;
  for (int hops = 0; hops < 4; ++hops) {
    for (uint32_t i = 0; i < 15; ++i)
      if (h[at + 2 * i] != kEmpty)
        out.push_back(((uint64_t)h[at + 2 * i + 1] << 32) | h[at + 2 * i]);
    if (h[at + 31] == kEnd)
      break;
    const uint32_t slab = h[at + 31];
    at = 32ull * kBuckets + (size_t)(slab >> 10) * kRegionWords + 32 +
         32 * (slab & 1023);
  }
  return out;
}

int main() {
  const size_t words = 32ull * kBuckets + (size_t)kPool / 1024 * kRegionWords;
  std::vector<uint32_t> h(words, kEmpty);
  for (uint32_t b = 0; b < kBuckets; ++b)
    for (uint32_t i = 0; i < prefill(b); ++i) {
      h[32ull * b + 2 * i] = 0x80000000u | (b * 16 + i);
      h[32ull * b + 2 * i + 1] = b;
    }
  std::vector<uint32_t> bitmap(32ull * kWarps, ~0u);
  for (uint32_t w = 0; w < kWarps; ++w)
    bitmap[32ull * w + w % 32] = ~((1u << 5) | (1u << 9));
  SlabTable T;
  uint32_t *d_iter;
  uint32_t *d_slabs;
  cudaMalloc(&d_slabs, words * 4);
  T.buckets = d_slabs;
  T.pool = d_slabs + 32ull * kBuckets;
  cudaMalloc(&T.bitmap, bitmap.size() * 4);
  cudaMalloc(&d_iter, kThreads * 4);
  cudaMemcpy(d_slabs, h.data(), words * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(T.bitmap, bitmap.data(), bitmap.size() * 4,
             cudaMemcpyHostToDevice);
  insert_pairs<<<kThreads / kBlock, kBlock>>>(d_iter, T);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("FAILED: %s\n", cudaGetErrorString(err));
    return 1;
  }
  std::vector<uint32_t> iter(kThreads);
  cudaMemcpy(h.data(), d_slabs, words * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(iter.data(), d_iter, kThreads * 4, cudaMemcpyDeviceToHost);
  uint64_t checksum = 0;
  bool ok = true;
  for (uint32_t b = 0; b < kBuckets && ok; ++b) {
    const std::vector<uint64_t> got = pairs_of(h, b);
    const uint32_t p = prefill(b);
    ok = got.size() == p + 16;
    for (uint32_t i = 0; ok && i < got.size(); ++i) {
      const uint32_t k = 32 * (b / 2) + 2 * (i - p) + b % 2;
      const uint64_t want =
          i < p ? ((uint64_t)b << 32) | (0x80000000u | (b * 16 + i))
                : ((uint64_t)(3 * k + 1) << 32) | k;
      ok = got[i] == want;
      checksum += (got[i] & 0xffffffffu) * (i + 1);
    }
  }
  uint64_t runs = 0;
  for (uint32_t t = 0; t < kThreads; ++t)
    runs += iter[t];
  printf("%s iteration_sum=%llu checksum=%llu\n", ok ? "PASSED" : "FAILED",
         (unsigned long long)runs, (unsigned long long)checksum);
  cudaFree(d_slabs);
  cudaFree(T.bitmap);
  cudaFree(d_iter);
  return ok ? 0 : 1;
}
