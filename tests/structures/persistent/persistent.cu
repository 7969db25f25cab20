// Structure: a persistent loop that keeps many counters, the shape of MCX's
// photon kernel (issue [overhead-3]).
// Each thread
// takes items from a pool (atomicAdd on a global index) until it is empty;
// one iteration of its loop is one step of an item, and the item's last
// step stores its result and takes the next item, whose start a
// __noinline__ device function computes (MCX's launchnewphoton). Each step
// branches 16 ways (a switch, each case its own table load) and tests 24
// rarely true conditions (12 marked __builtin_expect(.., 0)), each storing
// a flag: about 40 counters of the loop's blocks, which counting used to
// keep in 64-bit registers through the whole loop (now 32-bit behind a
// register of the header's runs), and 32 guarded blocks in the start
// function. Built also with the loop taken as crowded (persistent.crowded:
// its blocks and the start function's counted where taken, by atomics).
//
// walk_pool(table, out, flags, next, items): 60 blocks of 64 threads
//   (3,840 threads), items = 65,536, 64 steps an item. Whichever thread
//   takes which item, each item is taken once and runs the same steps:
//   atomics: every thread's atomicAdd on `next` that took an item, and its
//     last one that found the pool empty: 65,536 + 3,840 = 69,376 of 4
//     bytes = 277,504 bytes.
//   loads: the switch's case loads one word per step: 65,536 * 64 =
//     4,194,304; start_item loads one word per set bit of the item: over
//     items 0..65,535 each of 16 bits is set in half of them, 16 * 32,768
//     = 524,288. In all 4,718,592 loads of 4 bytes = 18,874,368 bytes.
//   stores: out[item] once an item: 65,536. Condition k stores flags[k]
//     at the step `item % P_k == step` (P_k prime, 67..181, above the 64
//     steps): once for each item with item % P_k < 64, that is
//     floor(65,536 / P_k) * 64 + min(65,536 % P_k, 64):
//       P    67     71     73     79     83     89     97    101
//          62,602 59,075 57,463 53,101 50,545 47,136 43,261 41,536
//       P   103    107    109    113    127    131    137    139
//          40,732 39,220 38,491 37,120 33,028 32,036 30,642 30,208
//       P   149    151    157    163    167    173    179    181
//          28,160 27,778 26,752 25,738 25,152 24,256 23,446 23,182
//     sum 900,660; with out: 966,196 stores of 4 bytes = 3,864,784 bytes.
//   The results are integers: the host computes each item's the same way
//   and compares every word of out.
//
// clang-format off
// EXPECT: kernel _Z9walk_poolPKjPjS1_S1_i launches=1 loads.global=4718592 load_bytes.global=18874368 stores.global=966196 store_bytes.global=3864784 atomics.global=69376 atomic_bytes.global=277504
// EXPECT: consistent
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Items = 65536, Steps = 64, Blocks = 60, Threads = 64;
constexpr int Ways = 16, TableWords = Ways * 256;

__host__ __device__ unsigned next_state(unsigned s) {
  return s * 1664525u + 1013904223u;
}

__host__ __device__ unsigned seed_of(unsigned item) {
  return item * 2654435761u + 12345u;
}

// The item's start: one table word per set bit of the item.
__device__ __noinline__ unsigned start_item(unsigned item,
                                            const unsigned *table) {
  unsigned acc = item;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    if ((item >> k) & 1u)
      acc = acc * 31u + table[k * 97];
  return acc;
}

// One way of a step: its own table row and arithmetic.
__host__ __device__ unsigned step_way(unsigned way, unsigned w, unsigned x) {
  switch (way) {
  case 0:
    return w + x;
  case 1:
    return w ^ (x << 1);
  case 2:
    return w * 3u + x;
  case 3:
    return (w >> 1) + x * 5u;
  case 4:
    return w - x;
  case 5:
    return w * x + 7u;
  case 6:
    return (w << 3) ^ x;
  case 7:
    return w + (x >> 2) + 11u;
  case 8:
    return w ^ (x * 9u);
  case 9:
    return (w | x) + 13u;
  case 10:
    return (w & x) + w;
  case 11:
    return w * 17u - x;
  case 12:
    return (w >> 3) ^ (x << 2);
  case 13:
    return w + x * x;
  case 14:
    return (w ^ 0x5bd1e995u) + x;
  default:
    return w * 5u + (x >> 1);
  }
}

// A rarely true condition of a step, and one marked so.
#define RARE(k, P)                                                             \
  do {                                                                         \
    if (item % (P) == (unsigned)step)                                          \
      flags[k] = item;                                                         \
  } while (0)
#define RARE_EXPECT(k, P)                                                      \
  do {                                                                         \
    if (__builtin_expect(item % (P) == (unsigned)step, 0))                     \
      flags[k] = item;                                                         \
  } while (0)
// A way of the step's switch: a load of the way's own table row.
#define WAY(k)                                                                 \
  case k:                                                                      \
    x = table[k * 256 + (s >> 24)];                                            \
    w = step_way(k, w, x);                                                     \
    break

__global__ void walk_pool(const unsigned *table, unsigned *out, unsigned *flags,
                          unsigned *next, int items) {
  unsigned item = atomicAdd(next, 1u);
  if (item >= (unsigned)items)
    return;
  unsigned w = start_item(item, table), s = seed_of(item);
  int step = 0;
  for (;;) { // one step of an item per iteration
    s = next_state(s);
    unsigned way = (s >> 8) % Ways;
    unsigned x;
    switch (way) {
      WAY(0);
      WAY(1);
      WAY(2);
      WAY(3);
      WAY(4);
      WAY(5);
      WAY(6);
      WAY(7);
      WAY(8);
      WAY(9);
      WAY(10);
      WAY(11);
      WAY(12);
      WAY(13);
      WAY(14);
    default:
      x = table[15 * 256 + (s >> 24)];
      w = step_way(15, w, x);
    }
    RARE_EXPECT(0, 67);
    RARE_EXPECT(1, 71);
    RARE_EXPECT(2, 73);
    RARE_EXPECT(3, 79);
    RARE_EXPECT(4, 83);
    RARE_EXPECT(5, 89);
    RARE_EXPECT(6, 97);
    RARE_EXPECT(7, 101);
    RARE_EXPECT(8, 103);
    RARE_EXPECT(9, 107);
    RARE_EXPECT(10, 109);
    RARE_EXPECT(11, 113);
    RARE(12, 127);
    RARE(13, 131);
    RARE(14, 137);
    RARE(15, 139);
    RARE(16, 149);
    RARE(17, 151);
    RARE(18, 157);
    RARE(19, 163);
    RARE(20, 167);
    RARE(21, 173);
    RARE(22, 179);
    RARE(23, 181);
    if (++step == Steps) { // the item is done: the next one
      out[item] = w;
      item = atomicAdd(next, 1u);
      if (item >= (unsigned)items)
        break;
      w = start_item(item, table);
      s = seed_of(item);
      step = 0;
    }
  }
}

// The host's result for one item, as walk_pool computes it.
static unsigned walk_item(unsigned item, const std::vector<unsigned> &table) {
  unsigned w = item;
  for (int k = 0; k < 32; ++k)
    if ((item >> k) & 1u)
      w = w * 31u + table[k * 97];
  unsigned s = seed_of(item);
  for (int step = 0; step < Steps; ++step) {
    s = next_state(s);
    unsigned way = (s >> 8) % Ways;
    w = step_way(way, w, table[way * 256 + (s >> 24)]);
  }
  return w;
}

int main() {
  std::vector<unsigned> table(TableWords);
  for (int i = 0; i < TableWords; ++i)
    table[i] = next_state(i * 7919u);
  unsigned *dtable, *dout, *dflags, *dnext;
  cudaMalloc(&dtable, TableWords * sizeof(unsigned));
  cudaMalloc(&dout, Items * sizeof(unsigned));
  cudaMalloc(&dflags, 24 * sizeof(unsigned));
  cudaMalloc(&dnext, sizeof(unsigned));
  cudaMemcpy(dtable, table.data(), TableWords * sizeof(unsigned),
             cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, Items * sizeof(unsigned));
  cudaMemset(dnext, 0, sizeof(unsigned));
  walk_pool<<<Blocks, Threads>>>(dtable, dout, dflags, dnext, Items);
  cudaError_t err = cudaDeviceSynchronize();
  std::vector<unsigned> out(Items);
  unsigned taken = 0;
  cudaMemcpy(out.data(), dout, Items * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(&taken, dnext, sizeof(unsigned), cudaMemcpyDeviceToHost);
  unsigned wrong = 0, sum = 0;
  for (int i = 0; i < Items; ++i) {
    wrong += out[i] != walk_item(i, table);
    sum += out[i];
  }
  // every thread's last atomicAdd found the pool empty
  bool ok = err == cudaSuccess && wrong == 0 &&
            taken == (unsigned)(Items + Blocks * Threads);
  printf("persistent: %d items, %u wrong, pool index %u, checksum %u: %s\n",
         Items, wrong, taken, sum, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
