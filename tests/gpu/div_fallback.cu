// Divergence mode: a kernel launched once as its divergence copy and once
// through a CUDA graph (stream capture), which runs its counting copy.
//
// The profile must count the launches apart (host_rt/launch.c and
// graphs.c: the kernel's "launches" entry carries "divergence" with
// launches_measured 1, launches_not_measured 1, not_measured.graph 1), and
// the warp-level figures, which only the divergence copy measures, must be
// the direct launch's alone. scale<<<4, 32>>>(a, out, 100): 128 threads in
// 4 full warps; threads 0-99 (warps 0-2 whole, warp 3's lanes 0-3) take the
// branch of line 30 and run line 31 (a load of a[i] and a store to out[i],
// ints at a 256-byte aligned base). By hand, for the direct launch alone:
//  - line 30 (`if (i < n)`): 4 branches, 1 divergent (warp 3);
//  - line 31: 4 load and 4 store requests (requests_global 8); warps 0-2
//    move 128 bytes each way in 4 sectors, warp 3 16 bytes in 1 sector:
//    sectors 2 x (3 x 4 + 1) = 26, ideal sectors 26.
// Its thread-level figures (requested bytes 800 for the direct launch
// alone) may count the graph's launch too: the profile says so, not the
// figures. `direct` as the first argument skips the graph launch
// (scripts/gpu_div_fallback.sh compares the two runs' profiles). Prints
// "div_fallback: PASSED" and exits 0 when both launches computed out.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static const int kBlocks = 4, kThreads = 32, kN = 100;

// clang-format off
__global__ void scale(const int *a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] * 3;
}
// clang-format on

// Launches scale into stream s while it is captured, and runs the graph.
static int run_through_graph(const int *a, int *out) {
  cudaStream_t s;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  if (cudaStreamCreate(&s) != cudaSuccess ||
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess)
    return -1;
  scale<<<kBlocks, kThreads, 0, s>>>(a, out, kN);
  if (cudaStreamEndCapture(s, &graph) != cudaSuccess ||
      cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess ||
      cudaGraphLaunch(exec, s) != cudaSuccess ||
      cudaStreamSynchronize(s) != cudaSuccess)
    return -1;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  return 0;
}

static int check(const int *h_a, int *out, const char *what) {
  int h_out[kBlocks * kThreads];
  if (cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return -1;
  for (int i = 0; i < kN; ++i)
    if (h_out[i] != 3 * h_a[i]) {
      std::printf("div_fallback: FAILED (%s) at %d: got %d expected %d\n", what,
                  i, h_out[i], 3 * h_a[i]);
      return -1;
    }
  return 0;
}

int main(int argc, char **argv) {
  int direct_only = argc > 1 && std::strcmp(argv[1], "direct") == 0;
  int h_a[kBlocks * kThreads];
  for (int i = 0; i < kBlocks * kThreads; ++i)
    h_a[i] = i % 7;
  int *a = nullptr, *out = nullptr, *out2 = nullptr;
  if (cudaMalloc(&a, sizeof h_a) != cudaSuccess ||
      cudaMalloc(&out, sizeof h_a) != cudaSuccess ||
      cudaMalloc(&out2, sizeof h_a) != cudaSuccess ||
      cudaMemcpy(a, h_a, sizeof h_a, cudaMemcpyHostToDevice) != cudaSuccess)
    return 2;
  scale<<<kBlocks, kThreads>>>(a, out, kN);
  if (check(h_a, out, "direct launch"))
    return 1;
  if (!direct_only &&
      (run_through_graph(a, out2) || check(h_a, out2, "graph launch")))
    return 1;
  std::printf("div_fallback: PASSED\n");
  return 0;
}
