// A launch helper in a header, written as some editors format launches
// (spaces inside the chevrons): nvcc reads it, and so must pasta-nvcc
// (frontend/NvccSyntax.h).
#pragma once
#include <cstddef>

template <typename F> __global__ void for_each_index(size_t n, F f) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

template <typename F> void launch_for_each(size_t n, F f) {
  // clang-format off
  for_each_index << <(n + 255) / 256, 256 >> > (n, f);
  // clang-format on
}
