// C++20 host code of the shapes clang-22 mangles in ways older C++
// runtimes cannot demangle (constrained templates, `Tn` template
// parameters, lambdas in templates), with STL iterators inlined from the
// library's headers at -O2. tests/run_names_lines.sh builds it with
// pasta-clang++ and no -g (the wrapper's default line tables), runs it and
// checks that every name in the profile is demangled and every line names
// the file it is in. Kept shorter than the header lines inlined into it.
#include <algorithm>
#include <concepts>
#include <cstdio>
#include <numeric>
#include <type_traits>
#include <vector>

template <typename T>
  requires std::integral<T>
__attribute__((noinline)) T twice(T x) {
  return 2 * x;
}

template <auto N> __attribute__((noinline)) long addn(long x) { return x + N; }

template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
__attribute__((noinline)) T half(T x) {
  return x / 2;
}

template <typename F> __attribute__((noinline)) long apply(F f, long x) {
  return f(x);
}

template <typename T> __attribute__((noinline)) long via_lambda(T t) {
  return apply([t](long x) { return x * static_cast<long>(t); }, 3);
}

template <std::integral T>
__attribute__((noinline)) long sum_squares(const std::vector<T> &v) {
  std::vector<T> sq(v.size());
  std::transform(v.begin(), v.end(), sq.begin(), [](T x) { return x * x; });
  return std::accumulate(sq.begin(), sq.end(), 0L);
}

// The store after the branch has no line of its own at -O2 (the two
// branches' stores merged); its neighbour's line is in stl_iterator.h.
template <std::integral T>
__attribute__((noinline)) void clamp_all(std::vector<T> &v, T lo) {
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (*it < lo)
      *it = lo;
    else
      *it = *it / 2;
  }
}

int main(int argc, char **) {
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), argc);
  long s = 0;
  for (int i = 0; i < 10; ++i)
    s += twice(i) + addn<7>(i) + static_cast<long>(half(2.0 * i)) +
         via_lambda(i) + sum_squares(v);
  clamp_all(v, 500);
  s += std::accumulate(v.begin(), v.end(), 0L);
  std::printf("%ld\n", s);
  return s == 0;
}
