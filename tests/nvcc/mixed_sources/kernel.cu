// The device half of tests/nvcc/mixed_sources: one kernel, one launcher.
__global__ void twice_index(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * i;
}

int fill_on_gpu(int *out, int n) {
  twice_index<<<(n + 31) / 32, 32>>>(out, n);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
