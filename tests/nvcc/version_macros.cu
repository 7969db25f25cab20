// Code written for nvcc that picks its paths by nvcc's version macros
// (driver/nvcc_host_compat.h): warp shuffles, whose legacy forms (no
// mask) clang's back end cannot select for sm_70 and later. Built by
// ctests nvcc-version-macros (pasta-nvcc) and nvcc-version-macros-cmake
// (the CMake toolchain's CUDA compiler launcher) for sm_90, compile only:
// without the macros the static_asserts fail, and the legacy shuffle
// would stop the back end ("Cannot select").
#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 9
#define WARP_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#else
#define WARP_DOWN(v, d) __shfl_down((v), (d))
#endif

static_assert(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 ==
                  CUDA_VERSION,
              "nvcc's version macros name the CUDA toolkit's version");
#if __CUDACC_VER_MAJOR__ < 9 || !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are not usable in #if"
#endif

__global__ void warp_total(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 16; d > 0; d /= 2)
    v += WARP_DOWN(v, d);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, v);
}
