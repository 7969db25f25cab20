// bench.h - kernel timing for the PASTA overhead benchmark.
//
// With TK_BENCH=R (1 <= R <= 1000) in the environment, tk_bench(label, step)
// runs `step` (one or more kernel launches) once to warm up, then R times,
// each run bracketed by GPU events, and prints one line
//   bench: <label> runs=R median_us=<x> min_us=<y>
// to stdout after the program's PASSED line is printed (call it after the
// result check). Without TK_BENCH it does nothing, so the test output stays
// one line. scripts/gpu_bench.sh compares these lines between the plain and
// the instrumented build of each program.
#ifndef PASTA_TEST_KERNELS_BENCH_H
#define PASTA_TEST_KERNELS_BENCH_H

#include "gpu_compat.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

static inline int tk_bench_runs()
{
    const char* s = std::getenv("TK_BENCH");
    if (s == nullptr || *s == '\0') {
        return 0;
    }
    int r = std::atoi(s);
    if (r < 1 || r > 1000) {
        std::fprintf(stderr, "TK_BENCH must be an integer in [1, 1000], got '%s'\n", s);
        std::exit(2);
    }
    return r;
}

template <class Step>
static void tk_bench(const char* label, Step&& step)
{
    const int runs = tk_bench_runs();
    if (runs == 0) {
        return;
    }
    gpuEvent_t start, stop;
    GPU_CHECK(gpuEventCreate(&start));
    GPU_CHECK(gpuEventCreate(&stop));
    step();  // warm-up
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuDeviceSynchronize());
    std::vector<float> us;
    for (int r = 0; r < runs; ++r) {
        GPU_CHECK(gpuEventRecord(start, 0));
        step();
        GPU_CHECK(gpuEventRecord(stop, 0));
        GPU_CHECK(gpuEventSynchronize(stop));
        GPU_CHECK(gpuGetLastError());
        float ms = 0.0f;
        GPU_CHECK(gpuEventElapsedTime(&ms, start, stop));
        us.push_back(ms * 1000.0f);
    }
    std::sort(us.begin(), us.end());
    std::printf("bench: %s runs=%d median_us=%.2f min_us=%.2f\n", label, runs,
                us[us.size() / 2], us[0]);
    GPU_CHECK(gpuEventDestroy(start));
    GPU_CHECK(gpuEventDestroy(stop));
}

#endif
