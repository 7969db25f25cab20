// Code written for nvcc that tells nvcc from a C++ compiler by __NVCC__
// (driver/nvcc_host_compat.h): a header shared with CPU builds empties the
// CUDA attributes where __NVCC__ is not defined, so without it the kernel's
// call below is a call to a host function ("call to __host__ function from
// __global__ function"). The toolkit's headers that tell nvcc's front end
// from clang's by the same macro must still see clang: the CCCL and
// <nv/target> checks below. Built by ctests nvcc-nvcc-macro (pasta-nvcc)
// and nvcc-nvcc-macro-cmake (the CMake toolchain's launcher), compile only.
#include <cuda/std/type_traits>
#include <nv/target>

// The shared header's way (after the toolkit's headers, as in its program).
#if !defined(__NVCC__)
#define __device__
#define __host__
#endif

#if __NVCC__ != 1
#error "__NVCC__ is not nvcc's 1"
#endif
#if !_CCCL_CUDA_COMPILER(CLANG) || _CCCL_CUDA_COMPILER(NVCC)
#error "CCCL took clang for nvcc"
#endif
#if defined(__CUDA_ARCH__) && !defined(_NV_COMPILER_CLANG_CUDA)
#error "<nv/target> took clang for nvcc"
#endif

__host__ __device__ inline unsigned mix_bits(unsigned x) {
  return x * 2654435761u + 1u;
}

__global__ void fill_mixed(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  NV_IF_TARGET(NV_IS_DEVICE, (out[i] = mix_bits(i);))
}

unsigned host_side(unsigned x) { return mix_bits(x); }
