/* The CPU reference of blur.cu's kernel (the same operations in the same
 * order, so the results agree exactly). */
#include "blur.h"

void blur_cpu(float *x, float *tmp, int n, int iters) {
  for (int it = 0; it < iters; it++) {
    for (int i = 0; i < n; i++) {
      int l = i > 0 ? i - 1 : 0;
      int r = i < n - 1 ? i + 1 : n - 1;
      tmp[i] = (x[l] + x[i] + x[r]) * (1.0f / 3.0f);
    }
    for (int i = 0; i < n; i++)
      x[i] = tmp[i];
  }
}
