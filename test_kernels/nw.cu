// nw.cu - PASTA test program: Needleman-Wunsch global sequence alignment
// (Rodinia's nw problem) of two length-n sequences over a 24-letter alphabet.
//   score[i][0] = -i*P, score[0][j] = -j*P, P = 10 (gap penalty), and
//   score[i][j] = max(score[i-1][j-1] + ref[i-1][j-1],
//                     score[i-1][j] - P, score[i][j-1] - P)
// on the (n+1) x (n+1) int matrix; ref[i][j] = sim(a[i], b[j]).
//   nw_tile_kernel: the n x n interior is cut into 16 x 16 tiles, swept by
//     anti-diagonals of tiles, one launch per tile diagonal (2*n/16 - 1
//     launches), one block of 16 threads per tile. A block loads its tile's
//     top and left borders and its ref tile into __shared__ memory, fills the
//     tile by its own 31 inner anti-diagonals with a __syncthreads() after
//     each (thread t owns tile row t), and stores the tile.
//   nw_traceback_kernel: one thread walks back from (n, n) to (0, 0),
//     preferring diagonal, then up, then left moves; a data-dependent while
//     loop of between n and 2n steps. Output: the moves and their number.
//
// Kernel line ranges (the statements of the body, between the braces):
//   lines 55-83:   nw_tile_kernel
//   lines 62-64:     load the ref tile (loop, body 63)
//   lines 65-69:     load the top and left borders and the corner
//   line  70:        __syncthreads() after the loads
//   lines 71-80:     inner anti-diagonal loop (header 71): the three
//                    candidates 74-76, max and shared store 77,
//                    __syncthreads() 79
//   lines 81-83:     store the tile (loop, body 82)
//   lines 87-105:  nw_traceback_kernel
//   lines 91-104:    data-dependent while loop (header 91; body 92-103)
//
// Usage: ./nw [n]   n = sequence length, a multiple of 16 in [16, 16384];
//                   default 256.
// Benchmark size on an H100: n = 16384 (1 GiB score and 1 GiB ref matrix,
// 2047 tile launches of up to 1024 blocks). NW's wavefront leaves most of the
// GPU idle at any size (16-thread blocks, short diagonals at both ends).
//
// Residues and the symmetric similarity table come from an integer hash;
// everything is int, checked for equality with a CPU reference (the full
// score matrix, then the traceback). Success prints one line
//   nw: PASSED n=<n> checksum=<FNV-1a 64 over the score matrix, the moves,
//       then the move count, 16 hex digits>
// and exits 0; a wrong value prints
//   nw: FAILED at index i: got X expected Y
// and exits 1, i indexing the concatenation score || moves || count; a bad
// argument or a GPU runtime error exits 2.

#include "test_common.h"
#include "bench.h"

static const char* const kName = "nw";
static const int kPenalty = 10;
static const int kAlphabet = 24;

#define TILE 16

__global__ void nw_tile_kernel(int* score, const int* ref, int n, int diag, int first_tile, int penalty) {
    __shared__ int s_score[TILE + 1][TILE + 1];
    __shared__ int s_ref[TILE][TILE];
    int tx = threadIdx.x;
    int ti = first_tile + blockIdx.x;
    int w = n + 1;
    int row0 = ti * TILE;
    int col0 = (diag - ti) * TILE;
    for (int r = 0; r < TILE; r++) {
        s_ref[r][tx] = ref[(row0 + r) * n + col0 + tx];
    }
    s_score[0][tx + 1] = score[row0 * w + col0 + tx + 1];
    s_score[tx + 1][0] = score[(row0 + tx + 1) * w + col0];
    if (tx == 0) {
        s_score[0][0] = score[row0 * w + col0];
    }
    __syncthreads();
    for (int m = 0; m < 2 * TILE - 1; m++) {
        int c = m - tx + 1;
        if (c >= 1 && c <= TILE) {
            int match = s_score[tx][c - 1] + s_ref[tx][c - 1];
            int up = s_score[tx][c] - penalty;
            int left = s_score[tx + 1][c - 1] - penalty;
            s_score[tx + 1][c] = max(match, max(up, left));
        }
        __syncthreads();
    }
    for (int r = 1; r <= TILE; r++) {
        score[(row0 + r) * w + col0 + tx + 1] = s_score[r][tx + 1];
    }
}

__global__ void nw_traceback_kernel(const int* score, const int* ref, int n, int penalty, int* moves, int* count) {
    int w = n + 1;
    int i = n;
    int j = n;
    int len = 0;
    while (i > 0 || j > 0) {
        int here = score[i * w + j];
        int move = 2;
        if (i > 0 && here == score[(i - 1) * w + j] - penalty) {
            move = 1;
        }
        if (i > 0 && j > 0 && here == score[(i - 1) * w + j - 1] + ref[(i - 1) * n + j - 1]) {
            move = 0;
        }
        moves[len] = move;
        len++;
        i = move == 2 ? i : i - 1;
        j = move == 1 ? j : j - 1;
    }
    *count = len;
}

static int* alloc_ints(size_t count) {
    int* p = (int*)std::calloc(count, sizeof(int));
    if (p == nullptr) {
        std::fprintf(stderr, "out of host memory (%zu ints)\n", count);
        std::exit(2);
    }
    return p;
}

static int fail(size_t index, int got, int expected) {
    std::printf("%s: FAILED at index %zu: got %d expected %d\n", kName, index, got, expected);
    return 1;
}

int main(int argc, char** argv) {
    const long n = tk_parse_size(argc, argv, kName, 256, TILE, 16384, TILE);
    const size_t w = (size_t)n + 1;
    const size_t score_bytes = w * w * sizeof(int);
    const size_t ref_bytes = (size_t)n * (size_t)n * sizeof(int);
    const int tiles = (int)(n / TILE);

    // Similarity table: match 4..11, mismatch -5..3, symmetric.
    int sim[kAlphabet][kAlphabet];
    for (int x = 0; x < kAlphabet; ++x) {
        for (int y = x; y < kAlphabet; ++y) {
            const uint32_t h = tk_hash32((uint32_t)(x * kAlphabet + y) ^ 0x3c6ef372u);
            sim[x][y] = x == y ? 4 + (int)(h % 8u) : (int)(h % 9u) - 5;
            sim[y][x] = sim[x][y];
        }
    }
    int* a = alloc_ints((size_t)n);
    int* b = alloc_ints((size_t)n);
    for (long i = 0; i < n; ++i) {
        a[i] = (int)(tk_hash32((uint32_t)i ^ 0xa54ff53au) % kAlphabet);
        b[i] = (int)(tk_hash32((uint32_t)i ^ 0x510e527fu) % kAlphabet);
    }
    int* h_ref = alloc_ints((size_t)n * (size_t)n);
    for (size_t i = 0; i < (size_t)n; ++i) {
        for (size_t j = 0; j < (size_t)n; ++j) {
            h_ref[i * (size_t)n + j] = sim[a[i]][b[j]];
        }
    }
    int* h_score = alloc_ints(w * w);  // borders set, interior 0
    for (size_t k = 0; k < w; ++k) {
        h_score[k] = -(int)k * kPenalty;
        h_score[k * w] = -(int)k * kPenalty;
    }
    int* h_moves = alloc_ints(2 * (size_t)n);
    int h_count = 0;

    int* d_score = nullptr;
    int* d_ref = nullptr;
    int* d_moves = nullptr;
    int* d_count = nullptr;
    GPU_CHECK(gpuMalloc((void**)&d_score, score_bytes));
    GPU_CHECK(gpuMalloc((void**)&d_ref, ref_bytes));
    GPU_CHECK(gpuMalloc((void**)&d_moves, 2 * (size_t)n * sizeof(int)));
    GPU_CHECK(gpuMalloc((void**)&d_count, sizeof(int)));
    GPU_CHECK(gpuMemcpy(d_score, h_score, score_bytes, gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemcpy(d_ref, h_ref, ref_bytes, gpuMemcpyHostToDevice));

    auto wavefront = [&] {
        for (int d = 0; d < 2 * tiles - 1; ++d) {
            const int first = d < tiles ? 0 : d - tiles + 1;
            const int last = d < tiles ? d : tiles - 1;
            nw_tile_kernel<<<last - first + 1, TILE>>>(d_score, d_ref, (int)n, d, first,
                                                       kPenalty);
            GPU_CHECK(gpuGetLastError());
        }
    };
    auto traceback = [&] {
        nw_traceback_kernel<<<1, 1>>>(d_score, d_ref, (int)n, kPenalty, d_moves, d_count);
        GPU_CHECK(gpuGetLastError());
    };
    wavefront();
    GPU_CHECK(gpuDeviceSynchronize());
    traceback();
    GPU_CHECK(gpuDeviceSynchronize());
    GPU_CHECK(gpuMemcpy(h_score, d_score, score_bytes, gpuMemcpyDeviceToHost));
    GPU_CHECK(gpuMemcpy(&h_count, d_count, sizeof(int), gpuMemcpyDeviceToHost));
    const bool count_ok = h_count >= 0 && h_count <= 2 * n;
    const size_t moves_bytes = (count_ok ? (size_t)h_count : 0) * sizeof(int);
    GPU_CHECK(gpuMemcpy(h_moves, d_moves, moves_bytes, gpuMemcpyDeviceToHost));

    // CPU reference: row-major fill, then the same traceback rule.
    int* cpu = alloc_ints(w * w);
    for (size_t k = 0; k < w; ++k) {
        cpu[k] = -(int)k * kPenalty;
        cpu[k * w] = -(int)k * kPenalty;
    }
    for (size_t i = 1; i < w; ++i) {
        for (size_t j = 1; j < w; ++j) {
            int best = cpu[(i - 1) * w + j - 1] + h_ref[(i - 1) * (size_t)n + j - 1];
            best = std::max(best, cpu[(i - 1) * w + j] - kPenalty);
            best = std::max(best, cpu[i * w + j - 1] - kPenalty);
            cpu[i * w + j] = best;
        }
    }
    int status = 0;
    for (size_t k = 0; k < w * w && status == 0; ++k) {
        if (h_score[k] != cpu[k]) {
            status = fail(k, h_score[k], cpu[k]);
        }
    }
    size_t i = (size_t)n;
    size_t j = (size_t)n;
    int len = 0;
    while (status == 0 && (i > 0 || j > 0)) {
        const int here = cpu[i * w + j];
        int move = 2;
        const size_t diag = (i - 1) * w + j - 1;  // only read when i, j > 0
        if (i > 0 && j > 0 && here == cpu[diag] + h_ref[(i - 1) * (size_t)n + j - 1]) {
            move = 0;
        } else if (i > 0 && here == cpu[(i - 1) * w + j] - kPenalty) {
            move = 1;
        }
        if (len >= h_count || h_moves[len] != move) {
            status = fail(w * w + (size_t)len, len < h_count ? h_moves[len] : -1, move);
        }
        ++len;
        i -= move != 2 ? 1 : 0;
        j -= move != 1 ? 1 : 0;
    }
    if (status == 0 && h_count != len) {
        status = fail(w * w + 2 * (size_t)n, h_count, len);
    }
    if (status == 0) {
        uint64_t h = tk_fnv1a64(kTkFnvOffset, h_score, score_bytes);
        h = tk_fnv1a64(h, h_moves, moves_bytes);
        h = tk_fnv1a64(h, &h_count, sizeof(int));
        tk_report_pass(kName, n, h);
        tk_bench("nw_tile_kernel", wavefront);
        tk_bench("nw_traceback_kernel", traceback);
    }
    GPU_CHECK(gpuFree(d_score));
    GPU_CHECK(gpuFree(d_ref));
    GPU_CHECK(gpuFree(d_moves));
    GPU_CHECK(gpuFree(d_count));

    std::free(cpu);
    std::free(h_score);
    std::free(h_ref);
    std::free(h_moves);
    std::free(a);
    std::free(b);
    return status;
}
