// sparse_exit.cu - the exit flush of short threads whose many guarded
// blocks are mostly not taken (tests/structures/sparseflush's kernel, in
// the entry form bench/ptx_reg_sweep.c launches: (out, seed)). Each thread
// tests the 32 bits of a flag word for 3 rounds (32 guarded blocks in a
// loop: 32 counters of loop blocks, staged and flushed out of line at
// exit); a set bit loads a word of the table, which lies past the threads'
// outputs (BYTES_PER_THREAD 8: the second half of the buffer, zeros). Only
// threads whose index is a multiple of 97 have a bit, one each: most warps
// flush 32 counters that are zero in every lane.
// docs/lab/2026-11-30-overhead3-50-exit-flush.md; built by PASTA to PTX
// (plain and counting copies in one module) and timed by
// bench/ptx_reg_sweep.c.
#include <cstdint>

__global__ void sparse_exit(uint32_t *out, unsigned long long seed) {
  uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *table = out + gridDim.x * blockDim.x;
  uint32_t flag = gid % 97 == 0 ? 1u << ((gid / 97) % 32) : 0;
  uint32_t rounds = (uint32_t)(seed % 4) + 1, sum = 0;
  for (uint32_t r = 0; r < rounds; ++r) {
#pragma unroll
    for (uint32_t j = 0; j < 32; ++j)
      if (flag & (1u << j))
        sum += table[(j + r) % 32];
  }
  out[gid] = sum + flag;
}
