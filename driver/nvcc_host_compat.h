/*===- nvcc_host_compat.h - nvcc macros, host min/max, hinted stores -------===*
 *
 * nvcc's version macros (below), and its host min and max: nvcc's CUDA
 * headers give host code min() and max() for the arithmetic
 * types (crt/math_functions.hpp); with clang they are device functions only,
 * so host code written for nvcc (`max(x / y, 1.0f)` in a .cu file's main)
 * stops at "no matching function for call to 'max'". pasta-nvcc and the
 * CMake launcher include this file in every CUDA compile (docs/nvcc.md):
 * host overloads with nvcc's signatures, beside clang's device ones
 * (clang overloads on __host__/__device__). Floating point as nvcc's:
 * fmin/fmax. Also nvcc's cache-hint stores clang lacks (below).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_NVCC_HOST_COMPAT_H
#define PASTA_NVCC_HOST_COMPAT_H

/* nvcc's version macros, which clang does not define: code written for
 * nvcc picks its paths by them (`__CUDACC_VER_MAJOR__ >= 9` for the
 * `__shfl_*_sync` shuffles, whose legacy forms clang's back end cannot
 * select for sm_70 and later: "Cannot select: intrinsic
 * %llvm.nvvm.shfl.down.i32"). From CUDA_VERSION (cuda.h, which clang's
 * CUDA wrapper includes first); the build number is not known: 0. */
#if defined(__CUDA__) && defined(__clang__) && defined(CUDA_VERSION) &&        \
    !defined(__CUDACC_VER_MAJOR__)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

/* nvcc's __NVCC__ (1). Code written for nvcc tells nvcc from a C++
 * compiler by it: a header shared with CPU builds (XSBench's) defines
 * __device__ and __host__ empty where it is not defined, and a kernel's
 * call to one of its functions then stops at "call to __host__ function
 * from __global__ function". The toolkit's headers test it too, to tell
 * nvcc's front end from clang's: <nv/target> and CCCL's compiler check
 * (Thrust, CUB, libcu++) are included first, without it, so that they keep
 * their clang paths (their include guards keep the answer).
 * cooperative_groups then offers cluster groups, as with nvcc, which clang
 * compiles for sm_90. */
#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__) &&         \
    !defined(__NVCC__)
#if __has_include(<nv/target>)
#include <nv/target>
#endif
#if __has_include(<cuda/std/__cccl/compiler.h>)
#include <cuda/std/__cccl/compiler.h>
#endif
#define __NVCC__ 1
#endif
/* nvcc's __managed__ globals. clang's CUDA mode ignores the `managed`
 * attribute (it is HIP's), so device code using such a global stops at
 * "reference to __host__ variable in __device__ function". Declared a
 * device global with the annotation "pasta.managed" instead: the plugin
 * (passes/ManagedVariables.cpp) marks it managed on the device and gives
 * host code its managed address, as nvcc does. */
#if defined(__CUDA__) && defined(__clang__) && !defined(__HIP__)
#undef __managed__
#define __managed__ __device__ __attribute__((annotate("pasta.managed")))
#endif

/* nvcc's CUDA headers include the C++ <math.h> (crt/math_functions.h, from
 * cuda_runtime.h, which nvcc includes in every CUDA compile), so host code
 * sees the standard library's math in the global namespace: isfinite,
 * isnan, isinf, signbit, fpclassify and the float and double overloads of
 * the others. clang's CUDA headers include <cmath> only, and host code
 * written for nvcc (llm.c's validate_result: `isfinite(cpu_reference[i])`
 * in a host template) stops at "no matching function for call to
 * 'isfinite'". */
#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__) &&         \
    !defined(__HIP__) && __has_include(<math.h>)
#include <math.h>
#endif

/* nvcc's crt/common_functions.h includes <time.h> in every CUDA compile, so
 * host code written for nvcc calls time(), clock() and their types without
 * including <time.h> or <ctime> (a seed `srand(time(NULL))`, a CPU timer).
 * clang's CUDA headers do not (they declare a device clock() only): such
 * code stopped at "use of undeclared identifier 'time'". */
#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__) &&         \
    !defined(__HIP__) && __has_include(<time.h>)
#include <time.h>
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

/* nvcc's cache-hint stores that clang's CUDA headers lack: __stcg, __stcs
 * and __stwb for every type sm_32_intrinsics.h declares them for, and
 * __stwt for long (clang has the other __stwt). Code written for nvcc
 * (`__stcs(mean + bid, m)` in a layer norm) otherwise stops at "no matching
 * function for call to '__stcs'". The same PTX stores nvcc emits, as inline
 * PTX like clang's own __stwt; clang 22 has none of these, and the plugin
 * only loads into clang 22. */
#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__) &&         \
    __clang_major__ == 22 && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 320)

#define PASTA_ST1(NAME, OP, T, REG, C)                                         \
  static __device__ inline void NAME(T *ptr, T value) {                        \
    __asm__ __volatile__(OP " [%0], %1;" ::"l"(ptr), C((REG)value)             \
                         : "memory");                                          \
  }
#define PASTA_ST2(NAME, OP, T, REG, C)                                         \
  static __device__ inline void NAME(T *ptr, T value) {                        \
    __asm__ __volatile__(OP " [%0], {%1, %2};" ::"l"(ptr), C((REG)value.x),    \
                         C((REG)value.y)                                       \
                         : "memory");                                          \
  }
#define PASTA_ST4(NAME, OP, T, REG, C)                                         \
  static __device__ inline void NAME(T *ptr, T value) {                        \
    __asm__ __volatile__(OP " [%0], {%1, %2, %3, %4};" ::"l"(ptr),             \
                         C((REG)value.x), C((REG)value.y), C((REG)value.z),    \
                         C((REG)value.w)                                       \
                         : "memory");                                          \
  }
/* Every type nvcc declares a hinted store for, with its PTX type. */
#define PASTA_STORES(NAME, H)                                                  \
  PASTA_ST1(NAME, "st.global." H ".s8", char, int, "r")                        \
  PASTA_ST1(NAME, "st.global." H ".s8", signed char, int, "r")                 \
  PASTA_ST1(NAME, "st.global." H ".s16", short, short, "h")                    \
  PASTA_ST1(NAME, "st.global." H ".s32", int, int, "r")                        \
  PASTA_ST1(NAME, "st.global." H ".s64", long long, long long, "l")            \
  PASTA_ST1(NAME, "st.global." H ".u8", unsigned char, unsigned, "r")          \
  PASTA_ST1(NAME, "st.global." H ".u16", unsigned short, unsigned short, "h")  \
  PASTA_ST1(NAME, "st.global." H ".u32", unsigned, unsigned, "r")              \
  PASTA_ST1(NAME, "st.global." H ".u64", unsigned long long,                   \
            unsigned long long, "l")                                           \
  PASTA_ST1(NAME, "st.global." H ".f32", float, float, "f")                    \
  PASTA_ST1(NAME, "st.global." H ".f64", double, double, "d")                  \
  PASTA_ST2(NAME, "st.global." H ".v2.s8", char2, int, "r")                    \
  PASTA_ST4(NAME, "st.global." H ".v4.s8", char4, int, "r")                    \
  PASTA_ST2(NAME, "st.global." H ".v2.s16", short2, short, "h")                \
  PASTA_ST4(NAME, "st.global." H ".v4.s16", short4, short, "h")                \
  PASTA_ST2(NAME, "st.global." H ".v2.s32", int2, int, "r")                    \
  PASTA_ST4(NAME, "st.global." H ".v4.s32", int4, int, "r")                    \
  PASTA_ST2(NAME, "st.global." H ".v2.s64", longlong2, long long, "l")         \
  PASTA_ST2(NAME, "st.global." H ".v2.u8", uchar2, unsigned, "r")              \
  PASTA_ST4(NAME, "st.global." H ".v4.u8", uchar4, unsigned, "r")              \
  PASTA_ST2(NAME, "st.global." H ".v2.u16", ushort2, unsigned short, "h")      \
  PASTA_ST4(NAME, "st.global." H ".v4.u16", ushort4, unsigned short, "h")      \
  PASTA_ST2(NAME, "st.global." H ".v2.u32", uint2, unsigned, "r")              \
  PASTA_ST4(NAME, "st.global." H ".v4.u32", uint4, unsigned, "r")              \
  PASTA_ST2(NAME, "st.global." H ".v2.u64", ulonglong2, unsigned long long,    \
            "l")                                                               \
  PASTA_ST2(NAME, "st.global." H ".v2.f32", float2, float, "f")                \
  PASTA_ST4(NAME, "st.global." H ".v4.f32", float4, float, "f")                \
  PASTA_ST2(NAME, "st.global." H ".v2.f64", double2, double, "d")              \
  PASTA_LONG_STORES(NAME, H)
/* long and unsigned long are 64 bits wide on the Linux hosts CUDA runs on. */
#define PASTA_LONG_STORES(NAME, H)                                             \
  PASTA_ST1(NAME, "st.global." H ".s64", long, long, "l")                      \
  PASTA_ST1(NAME, "st.global." H ".u64", unsigned long, unsigned long, "l")
PASTA_STORES(__stcg, "cg")
PASTA_STORES(__stcs, "cs")
PASTA_STORES(__stwb, "wb")
PASTA_LONG_STORES(__stwt, "wt")
#undef PASTA_STORES
#undef PASTA_LONG_STORES
#undef PASTA_ST1
#undef PASTA_ST2
#undef PASTA_ST4

#endif
#endif
