#ifndef BLUR_H
#define BLUR_H
#ifdef __cplusplus
extern "C" {
#endif
/* ITERS passes of a 3-point blur of X (N floats) on the GPU, in place;
 * returns 0, or the CUDA error code. */
int blur_gpu(float *x, int n, int iters);
/* The same on the CPU. */
void blur_cpu(float *x, float *tmp, int n, int iters);
#ifdef __cplusplus
}
#endif
#endif
