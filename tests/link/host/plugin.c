/* Host code instrumented with PASTA_HOST=1 pasta-clang -fPIC -c, linked
 * into a shared library by plain gcc (-shared) and opened by main.c with
 * dlopen: plugin_sum runs 4 times (4 calls, 4 x 100 adds = 400 f64
 * FLOPs), counted by the same runtime as libvecops.a's code. */
double plugin_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
