// Structure: texture fetches and surface loads and stores through texture
// and surface objects over a CUDA array (NVIDIA's
// simpleSurfaceWrite shape). clang's headers write tex2D, surf2Dwrite and
// surf2Dread as inline PTX (tex.2d.v4.f32.f32, sust.b.2d.b32.trap,
// suld.b.2d.b32.trap), which PASTA does not count: their bytes are missing
// from the profile, and the build says so (a compile-time warning naming
// the three kernels). Only the kernels' global loads and stores are
// counted.
//
// A 64 x 32 float image, one thread a texel: blocks of 16 x 16, a grid of
// 4 x 2 blocks, 2,048 threads, every one inside the image (no guard).
//
// fill_surface: in[y * 64 + x] loaded (4 B, global), written to the array
//   by surf2Dwrite (not counted): load_bytes.global = 2,048 x 4 = 8,192,
//   store_bytes.global = 0.
// copy_texture: out[y * 64 + x] = tex2D(texture, x, y) (point filtering,
//   unnormalized coordinates: texel (x, y) itself; the fetch not
//   counted): store_bytes.global = 8,192, load_bytes.global = 0. The
//   coordinates are int-to-float conversions, not FLOPs: flops.f32 = 0.
// read_surface: back[y * 64 + x] = surf2Dread(surface, x * 4, y) (not
//   counted): store_bytes.global = 8,192, load_bytes.global = 0.
// The image holds small integers: out and back must equal in exactly.
//
// clang-format off
// EXPECT: kernel _Z12fill_surfacePKfy launches=1 load_bytes.global=8192 store_bytes.global=0 flops.f32=0
// EXPECT: kernel _Z12copy_texturePfy launches=1 load_bytes.global=0 store_bytes.global=8192 flops.f32=0
// EXPECT: kernel _Z12read_surfacePfy launches=1 load_bytes.global=0 store_bytes.global=8192 flops.f32=0
// EXPECT: launch _Z12fill_surfacePKfy counted=1
// EXPECT: launch _Z12copy_texturePfy counted=1
// EXPECT: launch _Z12read_surfacePfy counted=1
// EXPECT: consistent
// What is not counted reaches the report too, not only the compile-time
// warning (which a build's -w silences): a line under its title naming the
// kernels, as the warning does.
// EXPECT: stderr ^not counted: texture fetches and surface loads and stores \(tex2D, surf2Dwrite and the like\) are not counted \(their bytes are missing from the profile\) in '(fill_surface|copy_texture|read_surface)
// clang-format on
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

constexpr int Width = 64;
constexpr int Height = 32;
constexpr int Side = 16; // a block is Side x Side threads

__device__ int texelIndex(int *x, int *y) {
  *x = blockIdx.x * Side + threadIdx.x;
  *y = blockIdx.y * Side + threadIdx.y;
  return *y * Width + *x;
}

__global__ void fill_surface(const float *in, cudaSurfaceObject_t surface) {
  int x, y;
  int i = texelIndex(&x, &y);
  surf2Dwrite(in[i], surface, x * int(sizeof(float)), y);
}

__global__ void copy_texture(float *out, cudaTextureObject_t texture) {
  int x, y;
  int i = texelIndex(&x, &y);
  out[i] = tex2D<float>(texture, float(x), float(y));
}

__global__ void read_surface(float *back, cudaSurfaceObject_t surface) {
  int x, y;
  int i = texelIndex(&x, &y);
  back[i] = surf2Dread<float>(surface, x * int(sizeof(float)), y);
}

static bool ok(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    std::printf("texsurf: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

// Texture and surface objects over one CUDA array.
static bool makeObjects(cudaArray_t array, cudaTextureObject_t *texture,
                        cudaSurfaceObject_t *surface) {
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc view = {};
  view.addressMode[0] = cudaAddressModeClamp;
  view.addressMode[1] = cudaAddressModeClamp;
  view.filterMode = cudaFilterModePoint;
  view.readMode = cudaReadModeElementType;
  view.normalizedCoords = 0;
  return ok(cudaCreateTextureObject(texture, &resource, &view, nullptr),
            "texture") &&
         ok(cudaCreateSurfaceObject(surface, &resource), "surface");
}

int main() {
  const int n = Width * Height;
  std::vector<float> in(n), out(n, -1.0f), back(n, -1.0f);
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 1000);
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  float *dIn, *dOut, *dBack;
  cudaTextureObject_t texture;
  cudaSurfaceObject_t surface;
  if (!ok(cudaMallocArray(&array, &format, Width, Height,
                          cudaArraySurfaceLoadStore),
          "array") ||
      !ok(cudaMalloc(&dIn, n * sizeof(float)), "malloc") ||
      !ok(cudaMalloc(&dOut, n * sizeof(float)), "malloc") ||
      !ok(cudaMalloc(&dBack, n * sizeof(float)), "malloc") ||
      !makeObjects(array, &texture, &surface))
    return 1;
  cudaMemcpy(dIn, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(Side, Side), grid(Width / Side, Height / Side);
  fill_surface<<<grid, block>>>(dIn, surface);
  copy_texture<<<grid, block>>>(dOut, texture);
  read_surface<<<grid, block>>>(dBack, surface);
  if (!ok(cudaDeviceSynchronize(), "kernels"))
    return 1;
  cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(back.data(), dBack, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    wrong += out[i] != in[i] || back[i] != in[i];
    sum += out[i] + back[i];
  }
  std::printf("texsurf: sum %.0f, %d wrong, %s\n", sum, wrong,
              wrong ? "FAILED" : "PASSED");
  cudaDestroyTextureObject(texture);
  cudaDestroySurfaceObject(surface);
  cudaFreeArray(array);
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dBack);
  return wrong ? 1 : 0;
}
