// curand_init's skip-ahead, the shape of cuda-samples MonteCarloMultiGPU's
// rngSetupStates: each thread starts its own XORWOW subsequence (its global
// index), which curand_kernel.h reaches through the precomputed matrices
// (a `#pragma unroll 16` loop over a word's bits, each set bit xoring five
// words of the table into the state). Its counting copy kept 80 block
// counters through the skip-ahead's loops (127 registers against 40 plain;
// docs/lab/2026-11-30-overhead3-43-curand-local-array.md).
// bench/gpu_rng_setup.sh compiles it to PTX (plain and counting copies in
// one module) and times the copies through bench/ptx_reg_sweep.c.
#include <curand_kernel.h>

__global__ void rng_setup(curandState *states, unsigned long long seed) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curand_init(seed, tid, 0, &s);
  states[tid] = s;
}
