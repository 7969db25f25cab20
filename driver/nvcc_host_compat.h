/*===- nvcc_host_compat.h - nvcc's version macros, host min/max ------------===*
 *
 * nvcc's version macros (below), and its host min and max: nvcc's CUDA
 * headers give host code min() and max() for the arithmetic
 * types (crt/math_functions.hpp); with clang they are device functions only,
 * so host code written for nvcc (`max(x / y, 1.0f)` in a .cu file's main)
 * stops at "no matching function for call to 'max'". pasta-nvcc and the
 * CMake launcher include this file in every CUDA compile (docs/nvcc.md):
 * host overloads with nvcc's signatures, beside clang's device ones
 * (clang overloads on __host__/__device__). Floating point as nvcc's:
 * fmin/fmax.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_NVCC_HOST_COMPAT_H
#define PASTA_NVCC_HOST_COMPAT_H

/* nvcc's version macros, which clang does not define: code written for
 * nvcc picks its paths by them (`__CUDACC_VER_MAJOR__ >= 9` for the
 * `__shfl_*_sync` shuffles, whose legacy forms clang's back end cannot
 * select for sm_70 and later: "Cannot select: intrinsic
 * %llvm.nvvm.shfl.down.i32"). From CUDA_VERSION (cuda.h, which clang's
 * CUDA wrapper includes first); the build number is not known: 0. No
 * __NVCC__: headers take that for nvcc itself. */
#if defined(__CUDA__) && defined(__clang__) && defined(CUDA_VERSION) &&        \
    !defined(__CUDACC_VER_MAJOR__)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif
#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__)

#define PASTA_MINMAX(R, A, B)                                                  \
  static inline __host__ R min(const A a, const B b) {                         \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  static inline __host__ R max(const A a, const B b) {                         \
    return (R)a > (R)b ? (R)a : (R)b;                                          \
  }
PASTA_MINMAX(int, int, int)
PASTA_MINMAX(unsigned int, unsigned int, unsigned int)
PASTA_MINMAX(unsigned int, int, unsigned int)
PASTA_MINMAX(unsigned int, unsigned int, int)
PASTA_MINMAX(long int, long int, long int)
PASTA_MINMAX(unsigned long int, unsigned long int, unsigned long int)
PASTA_MINMAX(unsigned long int, long int, unsigned long int)
PASTA_MINMAX(unsigned long int, unsigned long int, long int)
PASTA_MINMAX(long long int, long long int, long long int)
PASTA_MINMAX(unsigned long long int, unsigned long long int,
             unsigned long long int)
PASTA_MINMAX(unsigned long long int, long long int, unsigned long long int)
PASTA_MINMAX(unsigned long long int, unsigned long long int, long long int)
#undef PASTA_MINMAX

#define PASTA_FMINMAX(R, A, B, MIN, MAX)                                       \
  static inline __host__ R min(const A a, const B b) {                         \
    return MIN((R)a, (R)b);                                                    \
  }                                                                            \
  static inline __host__ R max(const A a, const B b) { return MAX((R)a, (R)b); }
PASTA_FMINMAX(float, float, float, __builtin_fminf, __builtin_fmaxf)
PASTA_FMINMAX(double, double, double, __builtin_fmin, __builtin_fmax)
PASTA_FMINMAX(double, float, double, __builtin_fmin, __builtin_fmax)
PASTA_FMINMAX(double, double, float, __builtin_fmin, __builtin_fmax)
#undef PASTA_FMINMAX

#endif
#endif
