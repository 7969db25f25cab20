// curand_init's skip-ahead, as cuda-samples MonteCarloMultiGPU's
// rngSetupStates runs it: rng_setup starts each thread's own XORWOW
// subsequence at its global index, in a local state; rng_setup_in_place is
// the sample's own shape. curand_kernel.h reaches the subsequence through
// precomputed matrices (a `#pragma unroll 16` loop over a word's bits, each
// set bit xoring five words of the table into the state). Their counting
// copies keep 80 block counters through the skip-ahead's loops (127-128
// registers against 40 plain;
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

// The sample's own shape: each block its own seed, the subsequence the
// thread's index in its block (0-255), the state initialised in place in
// global memory (`seed_base` stands for the sample's device index times
// the grid size).
__global__ void rng_setup_in_place(curandState *states,
                                   unsigned long long seed_base) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(blockIdx.x + seed_base, threadIdx.x, 0, &states[tid]);
}
