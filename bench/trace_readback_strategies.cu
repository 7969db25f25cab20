// trace_readback_strategies.cu - what each way of reading back a traced
// launch's header and records costs a program that launches many short
// kernels back to back (nw, gaussian, lud: thousands of ~10 us launches),
// with every launch traced. Not an instrumented program: each strategy is
// the host side of host_rt/trace_launch.c written out with the CUDA runtime
// around a stand-in kernel that appends records as a trace copy does, so
// one run on a GPU compares them side by side (docs/lab/2026-11-26-overhead2-3-read-back-rings.md,
// "Design measurement: where to queue the copies"). Built with nvcc by
// bench/gpu_trace_readback.sh.
//
// The kernel: a block per 256 elements, a few dependent FMAs per element
// (about 10 us at the default size on an H100 or H200), and lane 0 of each
// of 64 sampled warps appends kRecords records to its launch's buffer
// through an atomic on the header's head, as __pasta_trace_event does.
// Strategies (argument list of modes, all by default), each launching it
// `launches` times on the legacy default stream with a ring of 8 slots:
//   0 plain       the kernel alone, a fixed header (no read-back)
//   1 sync        PASTA before 1e3977c: wait for the stream, header up,
//                 launch, header back, wait, records back (cudaMemcpy)
//   2 in-stream   1e3977c: header up and header + records back queued on the
//                 launch's stream around it, an event; the slot 8 launches
//                 back is waited for (its event) before reuse
//   3 side-down   as 2, but the copy back on a second (non-blocking) stream
//                 that waits for an event recorded after the kernel
//   4 side-both   as 3, and the header goes up on the second stream too,
//                 right after the slot's previous copy back; the launch's
//                 stream waits for it with cudaStreamWaitEvent
//   5 memset-head as 2, but the head is zeroed with cudaMemsetAsync instead
//                 of uploading the whole header (the rest is set once)
//   6 events-only as 2 without the copies: an event per launch and the wait
//                 for the slot 8 back (what the ring's own bookkeeping costs)
// Every strategy that reads back checks that each launch's header says
// 64 * kRecords records were claimed, and that the records read back are
// that launch's (the kernel stamps them with the launch number).
//
// Usage: ./trace_readback_strategies [launches] [elements]  (defaults 2000,
// 1 << 20). Prints, per mode,
//   readback <name>: launches=<n> us_per_launch=<x> host_us_per_launch=<y>
// (CUDA events around the whole loop, median of 5 repetitions; host time of
// the loop up to its last call, without the final wait), and
// "trace_readback_strategies: PASSED" or "FAILED mode <m>: ..." (exit 1).
#include "gpu_compat.h"  // GPU_CHECK

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

enum { kSlots = 8, kSampled = 64, kRecords = 8, kCapacity = 4096, kRepeats = 5, kModes = 7 };
static const char* const kNames[kModes] = {"plain",       "sync",     "in_stream", "side_down",
                                           "side_both",   "memset_head", "events_only"};

struct Header {  // as struct pasta_trace_launch
    unsigned long long records, head;
    unsigned capacity, warp_stride;
};
struct Record {  // as struct pasta_trace_record
    unsigned scope, warp, trips, reserved;
    unsigned long long time;
};
enum { kRecordsAt = 32 };
static const size_t kSlotBytes = kRecordsAt + kCapacity * sizeof(Record);

__global__ void traced_step(float* x, int n, Header* h, unsigned tag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
#pragma unroll 1
        for (int k = 0; k < 16; ++k) v = v * 0.999f + 0.001f;
        x[i] = v;
    }
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned warps = (gridDim.x * blockDim.x + 31) / 32;
    unsigned stride = h->warp_stride ? h->warp_stride : max(1u, warps / kSampled);
    if (warp % stride != 0 || warp / stride >= kSampled || (threadIdx.x & 31) != 0) return;
    Record* r = reinterpret_cast<Record*>(h->records);
    for (int k = 0; k < kRecords; ++k) {
        unsigned long long slot = atomicAdd(&h->head, 1ull);
        if (slot < h->capacity) {
            unsigned long long t;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            r[slot] = Record{tag, warp, 0, 0, t};
        }
    }
}

struct Ring {
    unsigned char *dev = nullptr, *host = nullptr;  // kSlots * kSlotBytes each
    cudaEvent_t done[kSlots], up[kSlots];
    unsigned tag[kSlots];
    bool busy[kSlots] = {};
    cudaStream_t side = nullptr;
};

static Header* dev_header(Ring& r, int s) { return reinterpret_cast<Header*>(r.dev + s * kSlotBytes); }
static Header* host_header(Ring& r, int s) { return reinterpret_cast<Header*>(r.host + s * kSlotBytes); }

static const char* g_failure = nullptr;
static char g_failure_text[200];

// The records of slot s, its launch done: 64 * kRecords claimed, each its own.
static void check_slot(Ring& r, int s, unsigned want_tag, bool copy_rest) {
    Header* h = host_header(r, s);
    if (h->head != (unsigned long long)kSampled * kRecords) {
        std::snprintf(g_failure_text, sizeof g_failure_text, "launch %u: head %llu", want_tag, h->head);
        g_failure = g_failure_text;
        return;
    }
    if (copy_rest)  // records past what was queued (none in these strategies)
        GPU_CHECK(cudaMemcpy(r.host + s * kSlotBytes + kRecordsAt, r.dev + s * kSlotBytes + kRecordsAt,
                             h->head * sizeof(Record), cudaMemcpyDeviceToHost));
    const Record* rec = reinterpret_cast<const Record*>(r.host + s * kSlotBytes + kRecordsAt);
    for (unsigned long long k = 0; k < h->head; ++k)
        if (rec[k].scope != want_tag) {
            std::snprintf(g_failure_text, sizeof g_failure_text, "launch %u: record %llu is launch %u's",
                          want_tag, k, rec[k].scope);
            g_failure = g_failure_text;
            return;
        }
}

static void harvest(Ring& r, int s, bool check) {
    if (!r.busy[s]) return;
    GPU_CHECK(cudaEventSynchronize(r.done[s]));
    if (check) check_slot(r, s, r.tag[s], false);
    r.busy[s] = false;
}

static void fill_header(Ring& r, int s) {
    Header* h = host_header(r, s);
    *h = Header{reinterpret_cast<unsigned long long>(r.dev + s * kSlotBytes + kRecordsAt), 0, kCapacity, 0};
}

static const size_t kQueued = kRecordsAt + (kSampled * kRecords + kSampled * kRecords / 8 + 32) * sizeof(Record);

// One launch of mode m into slot s; returns nothing, errors abort.
static void launch(int m, Ring& r, int s, unsigned tag, float* x, int n) {
    int blocks = (n + 255) / 256;
    Header* dh = dev_header(r, s);
    cudaStream_t st = 0;
    switch (m) {
    case 0:  // header reset on the device never: head grows (capacity bounds it)
        traced_step<<<blocks, 256, 0, st>>>(x, n, dh, tag);
        return;
    case 1: {
        GPU_CHECK(cudaStreamSynchronize(st));
        fill_header(r, s);
        GPU_CHECK(cudaMemcpyAsync(dh, host_header(r, s), sizeof(Header), cudaMemcpyHostToDevice, st));
        traced_step<<<blocks, 256, 0, st>>>(x, n, dh, tag);
        GPU_CHECK(cudaMemcpyAsync(host_header(r, s), dh, sizeof(Header), cudaMemcpyDeviceToHost, st));
        GPU_CHECK(cudaStreamSynchronize(st));
        check_slot(r, s, tag, true);
        return;
    }
    case 2:
    case 5:
    case 6:
        harvest(r, s, m != 6);
        if (m == 2) {
            fill_header(r, s);
            GPU_CHECK(cudaMemcpyAsync(dh, host_header(r, s), sizeof(Header), cudaMemcpyHostToDevice, st));
        } else if (m == 5) {
            GPU_CHECK(cudaMemsetAsync(&dh->head, 0, sizeof dh->head, st));
        }
        traced_step<<<blocks, 256, 0, st>>>(x, n, dh, tag);
        if (m != 6)
            GPU_CHECK(cudaMemcpyAsync(host_header(r, s), dh, kQueued, cudaMemcpyDeviceToHost, st));
        GPU_CHECK(cudaEventRecord(r.done[s], st));
        break;
    case 3:
    case 4: {
        harvest(r, s, true);
        if (m == 3) {
            fill_header(r, s);
            GPU_CHECK(cudaMemcpyAsync(dh, host_header(r, s), sizeof(Header), cudaMemcpyHostToDevice, st));
        } else {
            // Uploaded on the side stream when the slot was harvested (below,
            // for the next use); the launch waits for it.
            GPU_CHECK(cudaStreamWaitEvent(st, r.up[s], 0));
        }
        traced_step<<<blocks, 256, 0, st>>>(x, n, dh, tag);
        GPU_CHECK(cudaEventRecord(r.up[s], st));  // reused: "kernel done"
        GPU_CHECK(cudaStreamWaitEvent(r.side, r.up[s], 0));
        GPU_CHECK(cudaMemcpyAsync(host_header(r, s), dh, kQueued, cudaMemcpyDeviceToHost, r.side));
        GPU_CHECK(cudaEventRecord(r.done[s], r.side));
        break;
    }
    }
    r.tag[s] = tag;
    r.busy[s] = true;
}

// Mode 4's header for slot s's next use, queued on the side stream after
// the slot's copy back (the host copy is read after `done`: a separate
// upload area, the slot's last 32 bytes of pinned memory, holds it).
static void prepare_side_upload(Ring& r, int s) {
    Header* up = reinterpret_cast<Header*>(r.host + (s + 1) * kSlotBytes - kRecordsAt);
    *up = Header{reinterpret_cast<unsigned long long>(r.dev + s * kSlotBytes + kRecordsAt), 0, kCapacity, 0};
    GPU_CHECK(cudaMemcpyAsync(dev_header(r, s), up, sizeof(Header), cudaMemcpyHostToDevice, r.side));
    GPU_CHECK(cudaEventRecord(r.up[s], r.side));
}

int main(int argc, char** argv) {
    int launches = argc > 1 ? std::atoi(argv[1]) : 2000;
    int n = argc > 2 ? std::atoi(argv[2]) : 1 << 20;
    float* x;
    GPU_CHECK(cudaMalloc(&x, n * sizeof(float)));
    GPU_CHECK(cudaMemset(x, 0, n * sizeof(float)));
    Ring r;
    GPU_CHECK(cudaMalloc(&r.dev, kSlots * kSlotBytes));
    GPU_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&r.host), kSlots * kSlotBytes, 0));
    GPU_CHECK(cudaStreamCreateWithFlags(&r.side, cudaStreamNonBlocking));
    for (int s = 0; s < kSlots; ++s) {
        GPU_CHECK(cudaEventCreateWithFlags(&r.done[s], cudaEventDisableTiming));
        GPU_CHECK(cudaEventCreateWithFlags(&r.up[s], cudaEventDisableTiming));
    }
    cudaEvent_t t0, t1;
    GPU_CHECK(cudaEventCreate(&t0));
    GPU_CHECK(cudaEventCreate(&t1));
    int failed = 0;
    for (int m = 0; m < kModes; ++m) {
        std::vector<double> dev_us, host_us;
        for (int rep = 0; rep <= kRepeats; ++rep) {  // rep 0: warm-up
            for (int s = 0; s < kSlots; ++s) {
                fill_header(r, s);
                GPU_CHECK(cudaMemcpy(dev_header(r, s), host_header(r, s), sizeof(Header), cudaMemcpyHostToDevice));
                if (m == 4) prepare_side_upload(r, s);
            }
            GPU_CHECK(cudaDeviceSynchronize());
            GPU_CHECK(cudaEventRecord(t0, 0));
            auto h0 = std::chrono::steady_clock::now();
            for (int i = 0; i < launches; ++i) {
                int s = i % kSlots;
                if (m == 4 && r.busy[s]) {
                    harvest(r, s, true);
                    prepare_side_upload(r, s);
                }
                launch(m, r, s, (unsigned)i, x, n);
            }
            auto h1 = std::chrono::steady_clock::now();
            GPU_CHECK(cudaEventRecord(t1, 0));
            GPU_CHECK(cudaEventSynchronize(t1));
            for (int s = 0; s < kSlots; ++s) harvest(r, s, m >= 2 && m <= 5);
            GPU_CHECK(cudaDeviceSynchronize());
            float ms;
            GPU_CHECK(cudaEventElapsedTime(&ms, t0, t1));
            if (rep > 0) {
                dev_us.push_back(ms * 1e3 / launches);
                host_us.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count() / launches);
            }
        }
        std::sort(dev_us.begin(), dev_us.end());
        std::sort(host_us.begin(), host_us.end());
        std::printf("readback %s: launches=%d us_per_launch=%.2f host_us_per_launch=%.2f\n", kNames[m],
                    launches, dev_us[kRepeats / 2], host_us[kRepeats / 2]);
        if (g_failure) {
            std::printf("trace_readback_strategies: FAILED mode %d: %s\n", m, g_failure);
            g_failure = nullptr;
            failed = 1;
        }
    }
    if (!failed) std::printf("trace_readback_strategies: PASSED\n");
    return failed;
}
