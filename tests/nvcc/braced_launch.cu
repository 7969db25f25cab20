// Launches whose grid or block is a braced list, as code written for nvcc
// has them (nvcc initializes the dim3 parameter from the list; clang's
// parser stopped at "expected expression"; frontend/NvccSyntax.h names the
// list ::dim3). Built by ctests nvcc-braced-launch (pasta-nvcc) and
// nvcc-braced-launch-cmake (the CMake toolchain's launcher with PASTA's
// frontend plugin), compile and link only.
#include <cstdio>

template <int TileX, int TileY> __global__ void fill_tile(int *out, int width) {
  int x = blockIdx.x * TileX + threadIdx.x;
  int y = blockIdx.y * TileY + threadIdx.y;
  out[y * width + x] = x + y;
}

int main() {
  constexpr int tile_x = 16, tile_y = 8, width = 64, height = 32;
  int *out = nullptr;
  if (cudaMalloc(&out, width * height * sizeof(int)) != cudaSuccess)
    return 1;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  dim3 grid(width / tile_x, height / tile_y);
  fill_tile<tile_x, tile_y>
      <<<grid, {tile_x, tile_y, 1}, 0, stream>>>(out, width);
  fill_tile<tile_x, tile_y>
      <<<{width / tile_x, height / tile_y}, {tile_x, tile_y}>>>(out, width);
  int corner = 0;
  cudaMemcpy(&corner, out + width * height - 1, sizeof(int),
             cudaMemcpyDeviceToHost);
  std::printf("corner %d (want %d)\n", corner, width - 1 + height - 1);
  cudaStreamDestroy(stream);
  cudaFree(out);
  return corner == width + height - 2 ? 0 : 1;
}
