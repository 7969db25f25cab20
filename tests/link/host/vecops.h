#ifndef VECOPS_H
#define VECOPS_H
double vec_dot(const double *a, const double *b, int n);
void vec_scale(float *x, float k, int n);
#endif
