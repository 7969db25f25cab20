#ifndef PASTA_SAMPLE_SCALE_H
#define PASTA_SAMPLE_SCALE_H

/* Multiplies the n floats at device address x by a, on the GPU. */
void scale_on_gpu(float *x, float a, int n);

#endif
