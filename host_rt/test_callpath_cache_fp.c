/*===- test_callpath_cache_fp.c - Launch sites with frame pointers ---------===*
 *
 * Built -O2 -fno-omit-frame-pointer, as some distributions build everything
 * (their C library's start-up frames included): an outer function with a
 * frame pointer above the frame-pointer-less sites of
 * test_callpath_cache_sites.c, and a site whose frame varies in size (a VLA)
 * between frames with frame pointers.
 *===----------------------------------------------------------------------===*/

int pasta_test_stub(int x);

__attribute__((noinline)) int pasta_test_fp_outer(int (*site)(int), int x) {
  return site(x) + 7;
}

__attribute__((noinline)) int pasta_test_fp_vla(int n) {
  volatile char buf[n];
  buf[0] = 1;
  return pasta_test_stub(buf[0]) + 8;
}
