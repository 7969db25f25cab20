// OpenMP host code in a .cu file, built as nvcc builds it: -Xcompiler
// -fopenmp for the host compiler and -lgomp on the link line (nvcc's host
// compiler is gcc, whose OpenMP runtime is libgomp), the shape of
// Learn-CUDA-Programming's OpenMP samples: one host thread per stream.
// Through pasta-nvcc clang compiles the host code for LLVM's libomp; with
// libgomp linked beside it the team was libomp's (as large as the CPU)
// while omp_set_num_threads and omp_get_thread_num answered from libgomp
// (every thread number 0). Exits 0 when the team is the 4 threads asked
// for, numbered 0 to 3; runs without a GPU.
#include <cstdio>
#include <omp.h>

int main() {
  const int kThreads = 4;
  int seen[kThreads] = {0}, team = 0, stray = 0;
  omp_set_num_threads(kThreads);
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp critical
    {
      ++team;
      if (t >= 0 && t < kThreads)
        ++seen[t];
      else
        ++stray;
    }
  }
  int ok = team == kThreads && stray == 0;
  for (int t = 0; t < kThreads; ++t)
    ok &= seen[t] == 1;
  std::printf("openmp_threads: team of %d, thread numbers %d %d %d %d: %s\n",
              team, seen[0], seen[1], seen[2], seen[3],
              ok ? "PASSED" : "FAILED");
  return !ok;
}
