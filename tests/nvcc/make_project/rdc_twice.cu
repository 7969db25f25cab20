// A __device__ function called from another file (relocatable device code).
// Its loop's pragma is written through a macro, as some projects write it:
// nvcc reads `#pragma` in a macro's body, and so must pasta-nvcc
// (frontend/NvccSyntax.h).
// clang-format off
#define PRAGMA_UNROLL #pragma unroll
// clang-format on

__device__ float twice(float v) {
  float r = v;
  PRAGMA_UNROLL
  for (int k = 0; k < 1; ++k)
    r += v;
  return r;
}
