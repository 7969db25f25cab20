// launch_overhead.cu - many tiny launches, to measure what instrumentation
// adds per launch on the host and the device.
//
// lines 17-20: tiny_kernel (one store per thread, 1 block of 32 threads)
//
// `./launch_overhead [launches]` (default 10000) launches tiny_kernel that
// many times back to back, synchronises once, checks the result, and prints
//   launch_overhead: PASSED n=<launches> checksum=<hex>
// With TK_BENCH set it also prints
//   bench: host_us_per_launch runs=1 median_us=<x> min_us=<x>
// (host wall time of the launch loop and the final synchronisation, divided
// by the number of launches), which scripts/gpu_bench.sh compares between the
// plain and the instrumented build.
//
// TK_LAUNCH_CALLS adds, around each launch of the loop, the vendor calls
// PASTA's launch wrapper makes, so that a plain build measures what each
// costs on a GPU (scripts/gpu_launch_cost.sh): any of
//   e  an event recorded before and one after the launch (from a pool)
//   c  a query whether the stream is being captured
//   d  two queries of the current device
// TK_CALL_COST prints, after the run, what each of those calls costs alone
// (100,000 in a loop, no launches): "call_cost: <call> ns_per_call=<x>".
// With TK_BENCH the loop's own time per launch is printed too
// (host_loop_us_per_launch): the host's share, before the final wait.
#include <cstring>
#include "bench.h"
#include "test_common.h"

__global__ void tiny_kernel(int* out, int step) {
    int i = threadIdx.x;
    out[i] = step + i;
}

#include <chrono>

static const char* kName = "launch_overhead";

// The vendor calls TK_LAUNCH_CALLS asks for around each launch.
struct ExtraCalls {
    bool events = false, capture = false, device = false;
    gpuEvent_t pool[256];
};

static void extra_calls_init(ExtraCalls& x)
{
    const char* s = std::getenv("TK_LAUNCH_CALLS");
    if (s == nullptr) {
        return;
    }
    if (s[std::strspn(s, "ecd")] != '\0') {
        std::fprintf(stderr, "TK_LAUNCH_CALLS takes the letters e, c and d, got '%s'\n", s);
        std::exit(2);
    }
    x.events = std::strchr(s, 'e') != nullptr;
    x.capture = std::strchr(s, 'c') != nullptr;
    x.device = std::strchr(s, 'd') != nullptr;
    for (gpuEvent_t& e : x.pool) {
        if (x.events) {
            GPU_CHECK(gpuEventCreate(&e));
        }
    }
}

static void extra_calls_before(ExtraCalls& x, long s)
{
    if (x.capture) {
        gpuStreamCaptureStatus st;
        GPU_CHECK(gpuStreamIsCapturing(0, &st));
    }
    if (x.device) {
        int d;
        GPU_CHECK(gpuGetDevice(&d));
        GPU_CHECK(gpuGetDevice(&d));
    }
    if (x.events) {
        GPU_CHECK(gpuEventRecord(x.pool[(2 * s) % 256], 0));
    }
}

static void extra_calls_after(ExtraCalls& x, long s)
{
    if (x.events) {
        GPU_CHECK(gpuEventRecord(x.pool[(2 * s + 1) % 256], 0));
    }
}

// TK_CALL_COST: what each vendor call of the launch wrapper costs by itself,
// in a loop of 100,000 with no launches, in ns per call.
static void print_call_costs()
{
    const int kCalls = 100000;
    gpuEvent_t ev;
    GPU_CHECK(gpuEventCreate(&ev));
    for (int which = 0; which < 3; ++which) {
        auto t0 = std::chrono::steady_clock::now();
        for (int c = 0; c < kCalls; ++c) {
            if (which == 0) {
                int d;
                GPU_CHECK(gpuGetDevice(&d));
            } else if (which == 1) {
                gpuStreamCaptureStatus st;
                GPU_CHECK(gpuStreamIsCapturing(0, &st));
            } else {
                GPU_CHECK(gpuEventRecord(ev, 0));
            }
        }
        GPU_CHECK(gpuDeviceSynchronize());
        auto t1 = std::chrono::steady_clock::now();
        static const char* const names[3] = {"get_device", "stream_is_capturing", "event_record"};
        std::printf("call_cost: %s ns_per_call=%.1f\n", names[which],
                    std::chrono::duration<double, std::nano>(t1 - t0).count() / kCalls);
    }
    GPU_CHECK(gpuEventDestroy(ev));
}

int main(int argc, char** argv) {
    const long launches = tk_parse_size(argc, argv, kName, 10000, 1, 10000000, 1);
    int* d_out = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_out, 32 * sizeof(int)));
    tiny_kernel<<<1, 32>>>(d_out, 0);  // warm-up: module load, first launch
    GPU_CHECK(gpuDeviceSynchronize());

    ExtraCalls extra;
    extra_calls_init(extra);

    auto t0 = std::chrono::steady_clock::now();
    for (long s = 0; s < launches; ++s) {
        extra_calls_before(extra, s);
        tiny_kernel<<<1, 32>>>(d_out, (int)s);
        extra_calls_after(extra, s);
    }
    auto t_loop = std::chrono::steady_clock::now();
    GPU_CHECK(gpuGetLastError());
    GPU_CHECK(gpuDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();

    int h_out[32];
    GPU_CHECK(gpuMemcpy(h_out, d_out, sizeof h_out, gpuMemcpyDeviceToHost));
    GPU_CHECK(gpuFree(d_out));
    for (int i = 0; i < 32; ++i) {
        int expected = (int)(launches - 1) + i;
        if (h_out[i] != expected) {
            return tk_report_failure(kName, (size_t)i, h_out[i], expected);
        }
    }
    tk_report_pass(kName, launches, tk_fnv1a64(kTkFnvOffset, h_out, sizeof h_out));
    if (tk_bench_runs() > 0) {
        double us = std::chrono::duration<double, std::micro>(t1 - t0).count() / (double)launches;
        std::printf("bench: host_us_per_launch runs=1 median_us=%.3f min_us=%.3f\n", us, us);
        // The loop alone: when it is shorter than the whole, the GPU was
        // still running launches the host had queued.
        double loop = std::chrono::duration<double, std::micro>(t_loop - t0).count() / (double)launches;
        std::printf("bench: host_loop_us_per_launch runs=1 median_us=%.3f min_us=%.3f\n", loop, loop);
    }
    if (std::getenv("TK_CALL_COST") != nullptr) {
        print_call_costs();
    }
    return 0;
}
