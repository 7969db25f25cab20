// bfs.cu - PASTA test program: frontier-based breadth-first search (the
// shape of Rodinia's bfs) on a deterministic directed graph in CSR form
// (row_ptr[n+1], cols[m]), from source node 0. One thread per node, 256 per
// block. The host loops over levels until no new node is found; each level
// launches
//   bfs_expand_kernel: a node u in the frontier clears its flag and walks
//     its out-edges (run-time, data-dependent trip count), calling the
//     __noinline__ device function bfs_visit for each neighbour v, which
//     claims an unvisited v with atomicCAS(level[v], -1, depth + 1) and
//     marks it in next[] (the winner only);
//   bfs_update_kernel: moves next[] into the frontier and raises a flag
//     telling the host that the search goes on.
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 42-47: bfs_visit (__noinline__ __device__ function; atomicCAS 43)
//   lines 52-59: bfs_expand_kernel
//   lines 56-58:   edge loop (body 57: the call)
//   lines 63-68: bfs_update_kernel
//
// Usage: ./bfs [n]   n = number of nodes; default 65536.
// Benchmark size on an H100: n = 4194304 (1<<22 nodes, ~12.6M edges; the
// search makes 55 expand+update rounds, 110 kernel launches; n = 65536: 70).
//
// Graph: node u has hash(u) % 7 out-edges (0 to 6, mean 3); an edge goes to
// a uniformly random node with probability 1/128, otherwise to a node within
// 48 of u (mod n), so the search runs over many levels and leaves some nodes
// unreached (level -1). The output is level[n] (int). Success prints one line
//   bfs: PASSED n=<n> checksum=<FNV-1a 64 of level[], 16 hex digits>
// and exits 0; a level that differs from the CPU BFS (exact integer compare)
// prints "bfs: FAILED at index i: got X expected Y" and exits 1; a bad
// argument or a GPU runtime error exits 2.

#include "bench.h"
#include "test_common.h"

#include <vector>

static const char* const kName = "bfs";
static const int kThreadsPerBlock = 256;

__device__ __noinline__ void bfs_visit(int* level, int* next, int v, int depth) {
    if (level[v] < 0) {
        int old = atomicCAS(&level[v], -1, depth + 1);
        if (old < 0) {
            next[v] = 1;
        }
    }
}

__global__ void bfs_expand_kernel(const int* row_ptr, const int* cols, int* frontier, int* next,
                                  int* level, int n, int depth) {
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < n && frontier[u] != 0) {
        frontier[u] = 0;
        int end = row_ptr[u + 1];
        for (int e = row_ptr[u]; e < end; e++) {
            bfs_visit(level, next, cols[e], depth);
        }
    }
}

__global__ void bfs_update_kernel(int* frontier, int* next, int* more, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && next[v] != 0) {
        next[v] = 0;
        frontier[v] = 1;
        *more = 1;
    }
}

static void make_graph(int n, std::vector<int>& row_ptr, std::vector<int>& cols) {
    row_ptr.assign((size_t)n + 1, 0);
    for (int u = 0; u < n; ++u) {
        row_ptr[u + 1] = row_ptr[u] + (int)(tk_hash32((uint32_t)u ^ 0x6bfu) % 7u);
    }
    cols.resize((size_t)row_ptr[n]);
    for (int u = 0; u < n; ++u) {
        for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
            uint32_t h = tk_hash32((uint32_t)e * 0x9e3779b9u + 0x2545u);
            long v;
            if (h % 128u == 0) {
                v = (long)((h >> 5) % (uint32_t)n);
            } else {
                v = ((long)u + (long)((h >> 5) % 97u) - 48) % n;
            }
            if (v < 0) {
                v += n;
            }
            cols[e] = (int)v;
        }
    }
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 65536, 1, 1L << 24, 1);
    const size_t nbytes = (size_t)n * sizeof(int);
    std::vector<int> row_ptr, cols;
    make_graph((int)n, row_ptr, cols);
    const size_t m = cols.size();

    int *d_row_ptr = nullptr, *d_cols = nullptr, *d_frontier = nullptr;
    int *d_next = nullptr, *d_level = nullptr, *d_more = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_row_ptr, nbytes + sizeof(int)));
    GPU_CHECK(gpuMalloc((void**)&d_cols, (m > 0 ? m : 1) * sizeof(int)));
    GPU_CHECK(gpuMalloc((void**)&d_frontier, nbytes));
    GPU_CHECK(gpuMalloc((void**)&d_next, nbytes));
    GPU_CHECK(gpuMalloc((void**)&d_level, nbytes));
    GPU_CHECK(gpuMalloc((void**)&d_more, sizeof(int)));
    GPU_CHECK(gpuMemcpy(d_row_ptr, row_ptr.data(), nbytes + sizeof(int), gpuMemcpyHostToDevice));
    if (m > 0) {
        GPU_CHECK(gpuMemcpy(d_cols, cols.data(), m * sizeof(int), gpuMemcpyHostToDevice));
    }

    // One whole search: reset the state (level -1 everywhere: all bytes 0xff),
    // seed node 0, then one expand + update pair per level.
    const int blocks = (int)((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
    auto search = [&]() {
        const int zero = 0;
        const int one = 1;
        GPU_CHECK(gpuMemset(d_level, 0xff, nbytes));
        GPU_CHECK(gpuMemset(d_frontier, 0, nbytes));
        GPU_CHECK(gpuMemset(d_next, 0, nbytes));
        GPU_CHECK(gpuMemcpy(d_level, &zero, sizeof(int), gpuMemcpyHostToDevice));
        GPU_CHECK(gpuMemcpy(d_frontier, &one, sizeof(int), gpuMemcpyHostToDevice));
        int depth = 0;
        int more = 1;
        while (more != 0) {
            GPU_CHECK(gpuMemset(d_more, 0, sizeof(int)));
            bfs_expand_kernel<<<blocks, kThreadsPerBlock>>>(d_row_ptr, d_cols, d_frontier, d_next,
                                                            d_level, (int)n, depth);
            GPU_CHECK(gpuGetLastError());
            bfs_update_kernel<<<blocks, kThreadsPerBlock>>>(d_frontier, d_next, d_more, (int)n);
            GPU_CHECK(gpuGetLastError());
            GPU_CHECK(gpuMemcpy(&more, d_more, sizeof(int), gpuMemcpyDeviceToHost));
            ++depth;
        }
        return depth;
    };
    search();
    GPU_CHECK(gpuDeviceSynchronize());

    std::vector<int> level(n);
    GPU_CHECK(gpuMemcpy(level.data(), d_level, nbytes, gpuMemcpyDeviceToHost));

    // CPU reference: queue-based BFS.
    std::vector<int> ref(n, -1);
    std::vector<int> queue;
    queue.reserve(n);
    ref[0] = 0;
    queue.push_back(0);
    for (size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
            if (ref[cols[e]] < 0) {
                ref[cols[e]] = ref[u] + 1;
                queue.push_back(cols[e]);
            }
        }
    }
    int status = 0;
    for (long i = 0; i < n; ++i) {
        if (level[i] != ref[i]) {
            std::printf("%s: FAILED at index %ld: got %d expected %d\n", kName, i, level[i],
                        ref[i]);
            status = 1;
            break;
        }
    }
    if (status == 0) {
        tk_report_pass(kName, n, tk_fnv1a64(kTkFnvOffset, level.data(), nbytes));
        tk_bench("bfs (all levels)", search);
    }

    GPU_CHECK(gpuFree(d_row_ptr));
    GPU_CHECK(gpuFree(d_cols));
    GPU_CHECK(gpuFree(d_frontier));
    GPU_CHECK(gpuFree(d_next));
    GPU_CHECK(gpuFree(d_level));
    GPU_CHECK(gpuFree(d_more));
    return status;
}
