// kmeans.cu - PASTA test program: k-means clustering (the shape of
// Rodinia's kmeans) of n points with kFeatures features into kClusters
// clusters, kIterations rounds. The points live in managed memory
// (gpuMallocManaged), stored feature-major (features[f][p]) so consecutive
// threads read consecutive addresses; the host writes them in place. Each
// round copies the centroids to the device and launches
//   kmeans_assign_kernel: one thread per point (256 per block): the squared
//     distance to each centroid (loops over clusters and over features, trip
//     counts passed at run time), keeping the nearest (ties: lowest index),
//     membership[p] = nearest;
// then the host recomputes each centroid as the mean of its points, rounded
// to a multiple of 1/256 (an empty cluster keeps its centroid).
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 51-67: kmeans_assign_kernel
//   lines 55-65:   cluster loop (header 55); feature loop 57-60 (body 58-59)
//   lines 61-64:   compare and keep the nearest
//   line  66:      store membership
//
// Usage: ./kmeans [n]   n = number of points; default 16384.
// Benchmark size on an H100: n = 1048576 (1<<20 points, 64 MiB of features,
// 4096 blocks per launch).
//
// Exactness: features are k/16 (test_common.h hash) and centroids multiples
// of 1/256 in [-1, 1], so each difference is exact, each square a multiple
// of 2^-16 below 4 and each distance (16 terms, below 64) exact in float
// with or without FMA, in any order. The GPU and the CPU reference compute
// the same distances and so pick the same clusters. Each round the GPU's
// memberships are compared with the CPU's for the same centroids (integer,
// exact). Success prints one line
//   kmeans: PASSED n=<n> checksum=<FNV-1a 64 over membership, then centroids>
// (the last round's memberships, n ints, then the centroids they give,
// kClusters * kFeatures floats) and exits 0; a differing membership prints
// "kmeans: FAILED at index i: got X expected Y" (i = round * n + point) and
// exits 1; a bad argument or a GPU runtime error exits 2.

#include "bench.h"
#include "test_common.h"

#include <cfloat>
#include <vector>

static const char* const kName = "kmeans";
static const int kThreadsPerBlock = 256;
static const int kFeatures = 16;
static const int kClusters = 8;
static const int kIterations = 6;

__global__ void kmeans_assign_kernel(const float* features, const float* centroids, int* membership,
                                     int n, int nclusters, int nfeatures) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) {
        int best = 0;
        float best_dist = FLT_MAX;
        for (int c = 0; c < nclusters; c++) {
            float dist = 0.0f;
            for (int f = 0; f < nfeatures; f++) {
                float d = features[f * n + p] - centroids[c * nfeatures + f];
                dist += d * d;
            }
            if (dist < best_dist) {
                best_dist = dist;
                best = c;
            }
        }
        membership[p] = best;
    }
}

// New centroids: the mean of each cluster's points, rounded to a multiple
// of 1/256 (so the next round's distances stay exact).
static void update_centroids(const float* feat, const int* member, long n, float* cent) {
    std::vector<double> sum((size_t)kClusters * kFeatures, 0.0);
    std::vector<long> count(kClusters, 0);
    for (long p = 0; p < n; ++p) {
        count[member[p]]++;
        for (int f = 0; f < kFeatures; ++f) {
            sum[(size_t)member[p] * kFeatures + f] += feat[(size_t)f * n + p];
        }
    }
    for (int c = 0; c < kClusters; ++c) {
        for (int f = 0; f < kFeatures && count[c] > 0; ++f) {
            double mean = sum[(size_t)c * kFeatures + f] / (double)count[c];
            cent[c * kFeatures + f] = (float)(std::nearbyint(mean * 256.0) / 256.0);
        }
    }
}

// CPU reference assignment, written independently of the kernel (double).
static int nearest_cpu(const float* feat, long n, long p, const float* cent) {
    int best = 0;
    double best_d = 0.0;
    for (int c = 0; c < kClusters; ++c) {
        double d = 0.0;
        for (int f = 0; f < kFeatures; ++f) {
            const double diff = (double)feat[(size_t)f * n + p] - cent[c * kFeatures + f];
            d += diff * diff;
        }
        if (c == 0 || d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 16384, kClusters, 1L << 24, 1);
    const size_t fcount = (size_t)n * kFeatures;
    const size_t cbytes = (size_t)kClusters * kFeatures * sizeof(float);

    float* features = nullptr;
    GPU_CHECK(gpuMallocManaged((void**)&features, fcount * sizeof(float)));
    for (size_t k = 0; k < fcount; ++k) {
        features[k] = tk_input_value(1, k);
    }
    // Initial centroids: the first kClusters points.
    float cent[kClusters * kFeatures];
    for (int c = 0; c < kClusters; ++c) {
        for (int f = 0; f < kFeatures; ++f) {
            cent[c * kFeatures + f] = features[(size_t)f * n + c];
        }
    }

    float* d_cent = nullptr;
    int* d_member = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_cent, cbytes));
    GPU_CHECK(gpuMalloc((void**)&d_member, (size_t)n * sizeof(int)));
    const int blocks = (int)((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
    auto assign = [&]() {
        kmeans_assign_kernel<<<blocks, kThreadsPerBlock>>>(features, d_cent, d_member, (int)n,
                                                           kClusters, kFeatures);
        GPU_CHECK(gpuGetLastError());
    };

    std::vector<int> member(n);
    int status = 0;
    for (int it = 0; it < kIterations && status == 0; ++it) {
        GPU_CHECK(gpuMemcpy(d_cent, cent, cbytes, gpuMemcpyHostToDevice));
        assign();
        GPU_CHECK(gpuDeviceSynchronize());
        GPU_CHECK(gpuMemcpy(member.data(), d_member, (size_t)n * sizeof(int),
                            gpuMemcpyDeviceToHost));
        for (long p = 0; p < n; ++p) {
            const int ref = nearest_cpu(features, n, p, cent);
            if (member[p] != ref) {
                std::printf("%s: FAILED at index %ld: got %d expected %d\n", kName,
                            (long)it * n + p, member[p], ref);
                status = 1;
                break;
            }
        }
        update_centroids(features, member.data(), n, cent);
    }
    if (status == 0) {
        uint64_t h = tk_fnv1a64(kTkFnvOffset, member.data(), (size_t)n * sizeof(int));
        tk_report_pass(kName, n, tk_fnv1a64(h, cent, cbytes));
        tk_bench("kmeans_assign", assign);
    }

    GPU_CHECK(gpuFree(d_cent));
    GPU_CHECK(gpuFree(d_member));
    GPU_CHECK(gpuFree(features));
    return status;
}
