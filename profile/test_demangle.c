/*===- test_demangle.c - Display names and their short forms --------------===*
 *
 * The mangled names are real: clang++-22 made them from small CUDA files
 * (device side, sm_90) and from thrust::sort / thrust::reduce with CUDA
 * 13's CCCL (-I/usr/local/cuda/include/cccl). The expected demangled names
 * were read off the manglings by hand (Itanium ABI: N..E nested names,
 * I..E template arguments, a template function's return type first), and
 * the short forms counted by hand against the rules in demangle.h.
 *
 * This test is C, linked without a C++ runtime: the weak __cxa_demangle is
 * unbound, so it exercises the run-time lookup a gcc-linked C program gets.
 *===----------------------------------------------------------------------===*/
#include "demangle.h"
#include "text_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

/* thrust::sort of 1000 ints: the radix sort's kernels. */
static const char *const radix[] = {
    "_ZN3cub17CUB_300001_SM_9006detail10radix_sort29DeviceRadixSortOnesweepKe"
    "rnelINS1_5radix10policy_hubIiNS0_8NullTypeEyE10Policy1000ELNS0_9SortOrd"
    "erE0EiS6_yiiNS1_21identity_decomposer_tEEEvPT5_SC_PT3_PKSD_PT1_PKSH_PT2_"
    "PKSL_T4_iiT6_",
    "_ZN3cub17CUB_300001_SM_9006detail10radix_sort30DeviceRadixSortHistogramK"
    "ernelINS1_5radix10policy_hubIiNS0_8NullTypeEyE10Policy1000ELNS0_9SortOr"
    "derE0EiyNS1_21identity_decomposer_tEEEvPT2_PKT1_SB_iiT3_",
    "_ZN3cub17CUB_300001_SM_9006detail10radix_sort33DeviceRadixSortExclusiveS"
    "umKernelINS1_5radix10policy_hubIiNS0_8NullTypeEyE10Policy1000EyEEvPT0_",
    "_ZN3cub17CUB_300001_SM_9006detail10radix_sort31DeviceRadixSortSingleTile"
    "KernelINS1_5radix10policy_hubIiNS0_8NullTypeEyE10Policy1000ELNS0_9SortO"
    "rderE0EiS6_yNS1_21identity_decomposer_tEEEvPKT1_PSB_PKT2_PSF_T3_iiT4_",
};

/* thrust::reduce of ints: two of its single-tile and block kernels (one
 * template each, several instantiations). */
static const char *const reduce_single[] = {
    "_ZN3cub17CUB_300001_SM_9006detail6reduce28DeviceReduceSingleTileKernelI"
    "NS2_10policy_hubIijN4cuda3std3__44plusIiEEE10Policy1000EN6thrust23THRUS"
    "T_300001_SM_900_NS6detail15normal_iteratorINSD_10device_ptrIiEEEEPijS9_"
    "iiNS7_10__identityEEEvT0_T1_T2_T3_T4_T6_",
    "_ZN3cub17CUB_300001_SM_9006detail6reduce28DeviceReduceSingleTileKernelI"
    "NS2_10policy_hubIijN4cuda3std3__44plusIiEEE10Policy1000EPiSC_iS9_iiNS7_"
    "10__identityEEEvT0_T1_T2_T3_T4_T6_",
};
static const char *const reduce_block[] = {
    "_ZN3cub17CUB_300001_SM_9006detail6reduce18DeviceReduceKernelINS2_10poli"
    "cy_hubIijN4cuda3std3__44plusIiEEE10Policy1000EN6thrust23THRUST_300001_S"
    "M_900_NS6detail15normal_iteratorINSD_10device_ptrIiEEEEjS9_iNS7_10__ide"
    "ntityEEEvT0_PT3_T1_NS0_13GridEvenShareISN_EET2_T4_",
    "_ZN3cub17CUB_300001_SM_9006detail6reduce18DeviceReduceKernelINS2_10poli"
    "cy_hubIiyN4cuda3std3__44plusIiEEE10Policy1000EN6thrust23THRUST_300001_S"
    "M_900_NS6detail15normal_iteratorINSD_10device_ptrIiEEEEyS9_iNS7_10__ide"
    "ntityEEEvT0_PT3_T1_NS0_13GridEvenShareISN_EET2_T4_",
};

static char *dem(const char *m) {
  static char keep[8][1024];
  static int next;
  char *d = pasta_demangle(m);
  char *slot = keep[next++ % 8];
  snprintf(slot, sizeof keep[0], "%s", d ? d : "(null)");
  free(d);
  return slot;
}

/* What the plugin recorded wins over the C++ runtime, and works without
 * one: clang-22's `Tn` mangling, which Debian 12's __cxa_demangle cannot
 * read. The strings are copied; the first record stays. */
static void test_remembered(void) {
  static const char tn[] = "_Z4addnITnDaLi5EEii";
  pasta__demangle_disable(1);
  CHECK_EQ_STR(dem(tn), "(null)");
  char shown[] = "int addn<5>(int)";
  CHECK_EQ_INT(pasta__demangle_remember(tn, shown), 0);
  shown[0] = 'X';
  CHECK_EQ_STR(dem(tn), "int addn<5>(int)");
  CHECK_EQ_INT(pasta__demangle_remember(tn, "other"), 0);
  CHECK_EQ_STR(dem(tn), "int addn<5>(int)");
  /* Many names: the table grows and keeps them all. */
  char m[32], d[32];
  for (int i = 0; i < 300; ++i) {
    snprintf(m, sizeof m, "_Z1f%di", i);
    snprintf(d, sizeof d, "f%d(int)", i);
    CHECK_EQ_INT(pasta__demangle_remember(m, d), 0);
  }
  int all = 1;
  for (int i = 0; i < 300; ++i) {
    snprintf(m, sizeof m, "_Z1f%di", i);
    snprintf(d, sizeof d, "f%d(int)", i);
    all &= strcmp(dem(m), d) == 0;
  }
  CHECK(all);
  CHECK_EQ_STR(dem("_Z3barv"), "(null)"); /* not recorded, no runtime */
  pasta__demangle_disable(0);
  CHECK_EQ_STR(dem("_Z3barv"), "bar()");
  CHECK_EQ_STR(dem(tn), "int addn<5>(int)");
}

static void test_demangle(void) {
  CHECK_EQ_STR(dem("_ZN2ns5scaleIfEEvPT_i"),
               "void ns::scale<float>(float*, int)");
  CHECK_EQ_STR(dem("_ZN2ns5scaleIdEEvPT_i"),
               "void ns::scale<double>(double*, int)");
  CHECK_EQ_STR(dem("_Z4axpyifPKfPf"), "axpy(int, float, float const*, float*)");
  CHECK_EQ_STR(dem("_ZN12_GLOBAL__N_111anon_kernelEPKf"),
               "(anonymous namespace)::anon_kernel(float const*)");
  /* Under -fgpu-rdc, a kernel of internal linkage carries clang's
   * "__intern__<hex>" suffix: the name is demangled without it. */
  CHECK_EQ_STR(dem("_Z14for_each_indexIZ9run_saxpyfPKfPfmEUlmE_EvmT___intern__"
                   "f8a26bce4c47ae40"),
               "void for_each_index<run_saxpy(float, float const*, float*, "
               "unsigned long)::{lambda(unsigned long)#1}>(unsigned long, "
               "run_saxpy(float, float const*, float*, unsigned "
               "long)::{lambda(unsigned long)#1})");
  CHECK_EQ_STR(dem("_Z1kv__intern__xyz"), "(null)"); /* not a hash */
  /* A lambda passed through a templated launcher, and its call operator. */
  CHECK_EQ_STR(dem("_ZN2ns5applyIfZ4mainEUlfE_EEvPT_iT0_"),
               "void ns::apply<float, main::{lambda(float)#1}>(float*, int, "
               "main::{lambda(float)#1})");
  CHECK_EQ_STR(dem("_ZZ4mainENKUlfE_clEf"),
               "main::{lambda(float)#1}::operator()(float) const");
  /* A host function template (return type T_ = float). */
  CHECK_EQ_STR(dem("_ZN2ns10host_scaleIfEET_PS1_i"),
               "float ns::host_scale<float>(float*, int)");
  CHECK_EQ_STR(dem("_ZN2ns20__device_stub__scaleIfEEvPT_i"),
               "void ns::__device_stub__scale<float>(float*, int)");
  /* CUB: the whole instantiation, with its inline ABI namespace. */
  const char *one = dem(radix[0]);
  const char *head = "void cub::CUB_300001_SM_900::detail::radix_sort::"
                     "DeviceRadixSortOnesweepKernel<cub::CUB_300001_SM_900::"
                     "detail::radix::policy_hub<int, cub::CUB_300001_SM_900::"
                     "NullType, unsigned long long>::Policy1000, ";
  CHECK_EQ_INT(strncmp(one, head, strlen(head)), 0);
  CHECK_HAS_STR(one, ">(int*, int*, unsigned long long*, unsigned long long "
                     "const*, int*, int const*, ");
  /* Not mangled, or not valid: no demangled form. */
  CHECK_EQ_STR(dem("main"), "(null)");
  CHECK_EQ_STR(dem("_Z9ab"), "(null)");
  CHECK_EQ_STR(dem("_Z"), "(null)");
  CHECK_EQ_STR(dem(NULL), "(null)");

  char *d = pasta__display_name_dup("axpy_c");
  CHECK_EQ_STR(d, "axpy_c");
  free(d);
  d = pasta__display_name_dup("_ZN2ns5scaleIfEEvPT_i");
  CHECK_EQ_STR(d, "void ns::scale<float>(float*, int)");
  free(d);

  /* No C++ runtime: names stay as they are. */
  pasta__demangle_disable(1);
  CHECK_EQ_STR(dem("_ZN2ns5scaleIfEEvPT_i"), "(null)");
  d = pasta__display_name_dup("_ZN2ns5scaleIfEEvPT_i");
  CHECK_EQ_STR(d, "_ZN2ns5scaleIfEEvPT_i");
  free(d);
  pasta__demangle_disable(0);
  CHECK_EQ_STR(dem("_ZN2ns5scaleIfEEvPT_i"),
               "void ns::scale<float>(float*, int)");
}

static const char *shorten(const char *name, size_t width) {
  static char out[8][512];
  static int next;
  char *o = out[next++ % 8];
  pasta__short_name(name, width, o, sizeof out[0]);
  if (width >= 8)
    CHECK_MSG(strlen(o) <= width, "'%s' is wider than %zu", o, width);
  return o;
}

static void test_short(void) {
  /* Fits: as it is. */
  CHECK_EQ_STR(shorten("void ns::scale<float>(float*, int)", 48),
               "void ns::scale<float>(float*, int)");
  CHECK_EQ_STR(shorten("axpy", 4), "axpy");
  /* 34 > 30: the return type goes first (28 left). */
  CHECK_EQ_STR(shorten("void ns::scale<float>(float*, int)", 30),
               "ns::scale<float>(float*, int)");
  /* "ns::host_scale<float>(float*, int)" is 34, "ns::host_scale<...>(float*,
   * int)" 32, so both lists go: 24. */
  CHECK_EQ_STR(shorten("float ns::host_scale<float>(float*, int)", 30),
               "ns::host_scale<...>(...)");
  /* Templates elided, parameters kept: "ns::scale<...>(double*, int)" = 28. */
  CHECK_EQ_STR(shorten("void ns::scale<double>(double*, int)", 28),
               "ns::scale<...>(double*, int)");
  /* The lambda's braces and parentheses are not the parameter list. */
  const char *apply = "void ns::apply<float, main::{lambda(float)#1}>(float*, "
                      "int, main::{lambda(float)#1})";
  CHECK_EQ_STR(shorten(apply, 40), "ns::apply<...>(...)");
  const char *op = "main::{lambda(float)#1}::operator()(float) const";
  /* 42 with "(float)", 40 with "(...)"; then "...::" + the rest after each
   * "::": "{lambda(float)#1}::operator()(...)" (39 in all) still too wide,
   * "operator()(...)" (20 in all) fits. */
  CHECK_EQ_STR(shorten(op, 41), "main::{lambda(float)#1}::operator()(...)");
  CHECK_EQ_STR(shorten(op, 30), "...::operator()(...)");
  CHECK_EQ_STR(shorten("(anonymous namespace)::anon_kernel(float const*)", 30),
               "...::anon_kernel(...)");
  /* operator<< is a name, not two template brackets. */
  CHECK_EQ_STR(shorten("operator<<(std::ostream&, S const&)", 20),
               "operator<<(...)");
  CHECK_EQ_STR(shorten("bool ns::operator< <int>(ns::V<int> const&, ns::V<int> "
                       "const&)",
                       24),
               "ns::operator< <...>(...)");

  /* The CUB radix sort: four kernels, four names at ncu's short form, none
   * cut to the common "_ZN3cub17CUB_300001_SM_9006detail10ra..." */
  const char *want48[] = {
      "...::DeviceRadixSortOnesweepKernel<...>(...)",     /* 44 */
      "...::DeviceRadixSortHistogramKernel<...>(...)",    /* 45 */
      "...::DeviceRadixSortExclusiveSumKernel<...>(...)", /* 48 */
      "...::DeviceRadixSortSingleTileKernel<...>(...)",   /* 46 */
  };
  for (int i = 0; i < 4; ++i)
    CHECK_EQ_STR(shorten(dem(radix[i]), 48), want48[i]);
  /* Wider columns keep more scopes: 5 + 8 + 12 + 29 + 10 = 64 <= 70, and
   * the whole qualified name is 83 <= 100. */
  CHECK_EQ_STR(
      shorten(dem(radix[0]), 70),
      "...::detail::radix_sort::DeviceRadixSortOnesweepKernel<...>(...)");
  CHECK_EQ_STR(shorten(dem(radix[0]), 100),
               "cub::CUB_300001_SM_900::detail::radix_sort::"
               "DeviceRadixSortOnesweepKernel<...>(...)");
  /* Narrower than the base name: the middle of the identifier gives way,
   * "<...>(...)" (10) stays: 17 left, head 10, "...", tail 4. */
  CHECK_EQ_STR(shorten(dem(radix[0]), 27), "DeviceRadi...rnel<...>(...)");
  /* A name that stayed mangled keeps its head (30) and its tail (15). */
  CHECK_EQ_STR(shorten(radix[0], 48),
               "_ZN3cub17CUB_300001_SM_9006det...2_PKSL_T4_iiT6_");
}

static void test_columns(void) {
  /* Rows: single-tile A, a radix kernel, single-tile B, block A, single-tile
   * A again (the same kernel from another module), block B. At 48:
   * "...::reduce::DeviceReduceSingleTileKernel<...>(...)" would be 51, so
   * "...::DeviceReduceSingleTileKernel<...>(...)" (43); the block kernel
   * keeps "reduce::" (41, with "detail::" 49). */
  char full[6][1024];
  const char *in[] = {reduce_single[0], radix[0],         reduce_single[1],
                      reduce_block[0],  reduce_single[0], reduce_block[1]};
  const char *names[6];
  for (int i = 0; i < 6; ++i) {
    snprintf(full[i], sizeof full[i], "%s", dem(in[i]));
    names[i] = full[i];
  }
  char **c = pasta__short_names(names, 6, 48);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK_EQ_STR(c[0], "...::DeviceReduceSingleTileKernel<...>(...) #1");
  CHECK_EQ_STR(c[1], "...::DeviceRadixSortOnesweepKernel<...>(...)");
  CHECK_EQ_STR(c[2], "...::DeviceReduceSingleTileKernel<...>(...) #2");
  CHECK_EQ_STR(c[3], "...::reduce::DeviceReduceKernel<...>(...) #1");
  CHECK_EQ_STR(c[4], "...::DeviceReduceSingleTileKernel<...>(...) #1");
  CHECK_EQ_STR(c[5], "...::reduce::DeviceReduceKernel<...>(...) #2");
  free(c);
  /* No collision, no mark; a lambda's "#1" is not a mark; NULL reads "?". */
  const char *plain[] = {"main::{lambda(float)#1}::operator()(float) const",
                         "void ns::scale<float>(float*, int)", NULL};
  c = pasta__short_names(plain, 3, 48);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK_EQ_STR(c[0], "main::{lambda(float)#1}::operator()(float) const");
  CHECK_EQ_STR(c[1], "void ns::scale<float>(float*, int)");
  CHECK_EQ_STR(c[2], "?");
  free(c);
  /* Control characters are escaped before the name is cut, so a cell never
   * holds a raw escape sequence or half of an escaped one. */
  const char *hostile[] = {"k\x1b[31m_red", "void ns::k<\n>(int)"};
  c = pasta__short_safe_names(hostile, 2, 48);
  CHECK(c != NULL);
  if (!c)
    return;
  CHECK_EQ_STR(c[0], "k\\x1b[31m_red");
  CHECK_EQ_STR(c[1], "void ns::k<\\n>(int)");
  free(c);
}

int main(void) {
  test_demangle();
  test_remembered();
  test_short();
  test_columns();
  return check_summary("demangle");
}
