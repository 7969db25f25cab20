/* main of the gcc-linked project (Makefile): blurs 2^20 floats 4 times on
 * the GPU and on the CPU and compares. Prints "blur: PASSED <checksum>" and
 * exits 0 when they agree; a CUDA error exits 2 (no GPU). */
#include "blur.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 20, ITERS = 4 };

int main(void) {
  float *gpu = malloc(N * sizeof(float));
  float *cpu = malloc(N * sizeof(float));
  float *tmp = malloc(N * sizeof(float));
  if (!gpu || !cpu || !tmp)
    return 1;
  for (int i = 0; i < N; i++)
    gpu[i] = cpu[i] = (float)(i % 17);
  int err = blur_gpu(gpu, N, ITERS);
  if (err) {
    printf("blur: CUDA error %d\n", err);
    return 2;
  }
  blur_cpu(cpu, tmp, N, ITERS);
  double sum = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    sum += gpu[i];
    if (fabsf(gpu[i] - cpu[i]) > 1e-5f * fabsf(cpu[i]) + 1e-6f)
      bad++;
  }
  printf("blur: %s %.3f\n", bad ? "FAILED" : "PASSED", sum);
  free(gpu);
  free(cpu);
  free(tmp);
  return bad ? 1 : 0;
}
