// The most threads a block can hold by the kernel's shared arrays
// (passes/BlockBound.h, -pasta-div-block-bounds): an access that every
// thread makes at `s + c * x + r` (r >= 0) is inside `s` only for
// c * x + r + size <= its bytes.
// - columns: col[tx][j] over a 16 x 16 float array, for every j from 0
//   (lud_perimeter's shape): 64 tx + 4 j + 4 <= 1,024, so tx <= 15: 16.
// - padded: s[tx + 1][0] over 17 x 17 ints (nw_tile's halo): 68 tx + 68 + 4
//   <= 1,156: tx <= 15: 16.
// - flat: s[tx] over 256 floats: 256.
// - guarded: col[tx][0] only where tx < n: not every thread: none.
// - shifted: s[tx - 1] (r may be negative): none.
// - tiles: a 16 x 16 tile read at [ty][tx] (dgemm's): thread index y read:
//   none.
// - global: no shared access: none.
// A copy of a kernel bound to 16 threads or fewer (columns) gets no
// register cap and a stub for its uncapped twin
// (-pasta-div-uncapped-block-threads, 16); flat's copy keeps its cap and
// its twin; with the option 0 columns' copy is capped too.
// REQUIRES: cuda
// RUN: %cuda_device -O2 -S %s -o /dev/null -mllvm -pasta-divergence -mllvm -pasta-div-block-bounds 2>&1 | FileCheck %s
// RUN: %cuda_device -O2 -S %s -o /dev/null -mllvm -pasta-divergence 2>&1 | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: %cuda_device -O2 -S %s -o %t.ptx -mllvm -pasta-divergence
// RUN: FileCheck %s --check-prefix=SMALL < %t.ptx
// RUN: FileCheck %s --check-prefix=SMALLTWIN < %t.ptx
// RUN: FileCheck %s --check-prefix=CAPPED < %t.ptx
// RUN: %cuda_device -O2 -S %s -o %t.capped.ptx -mllvm -pasta-divergence -mllvm -pasta-div-uncapped-block-threads=0
// RUN: FileCheck %s --check-prefix=SMALLOFF < %t.capped.ptx
// With -pasta-div-small-block-twin such a copy keeps its cap and its twin is
// the uncapped code (for blocks of more dimensions than x alone bounds).
// RUN: %cuda_device -O2 -S %s -o %t.twin.ptx -mllvm -pasta-divergence -mllvm -pasta-div-small-block-twin
// RUN: FileCheck %s --check-prefix=SMALLOFF < %t.twin.ptx
// RUN: FileCheck %s --check-prefix=TWINREAL < %t.twin.ptx

// CHECK-DAG: pasta: block bound: _Z7columnsPfi <= 16 threads
// CHECK-DAG: pasta: block bound: _Z6paddedPii <= 16 threads
// CHECK-DAG: pasta: block bound: _Z4flatPf <= 256 threads
// CHECK-DAG: pasta: block bound: _Z7guardedPfi none
// CHECK-DAG: pasta: block bound: _Z7shiftedPf none
// CHECK-DAG: pasta: block bound: _Z5tilesPfi none
// CHECK-DAG: pasta: block bound: _Z6globalPf none
// OFF-NOT: block bound

// SMALL: .entry _Z7columnsPfi__pasta_div(
// SMALL-NOT: {{^}}{
// SMALL-NOT: .maxnreg
// SMALL: {{^}}{
// SMALLTWIN: .entry _Z7columnsPfi__pasta_divu(
// SMALLTWIN-NOT: {{^}}{
// SMALLTWIN: .maxntid 1
// CAPPED: .entry _Z4flatPf__pasta_div(
// CAPPED-NOT: {{^}}{
// CAPPED: .maxnreg
// CAPPED: .entry _Z4flatPf__pasta_divu(
// CAPPED-NOT: {{^}}{
// CAPPED-NOT: .maxntid
// CAPPED: {{^}}{
// SMALLOFF: .entry _Z7columnsPfi__pasta_div(
// SMALLOFF-NOT: {{^}}{
// SMALLOFF: .maxnreg
// TWINREAL: .entry _Z7columnsPfi__pasta_divu(
// TWINREAL-NOT: .maxntid
// TWINREAL-NOT: .maxnreg
// TWINREAL: {{^}}{

__global__ void columns(float* a, int n) {
    __shared__ float col[16][16];
    int tx = threadIdx.x;
    for (int j = 0; j < 16; j++)
        col[tx][j] = a[j * n + tx];
    __syncthreads();
    for (int j = 0; j < 16; j++)
        a[j * n + tx] = col[tx][j] * 2.0f;
}

__global__ void padded(int* a, int n) {
    __shared__ int s[17][17];
    int tx = threadIdx.x;
    s[tx + 1][0] = a[tx];
    __syncthreads();
    a[tx + n] = s[tx + 1][0] + 1;
}

__global__ void flat(float* a) {
    __shared__ float s[256];
    int tx = threadIdx.x;
    s[tx] = a[tx];
    __syncthreads();
    a[tx] = s[255 - tx];
}

__global__ void guarded(float* a, int n) {
    __shared__ float col[16][16];
    int tx = threadIdx.x;
    if (tx < n) {
        col[tx][0] = a[tx];
        a[tx + n] = col[tx][0];
    }
}

__global__ void shifted(float* a) {
    __shared__ float s[256];
    int tx = threadIdx.x;
    s[tx - 1] = a[tx];
    __syncthreads();
    a[tx] = s[tx - 1] * 2.0f;
}

__global__ void tiles(float* a, int n) {
    __shared__ float t[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    t[ty][tx] = a[ty * n + tx];
    __syncthreads();
    a[ty * n + tx] = t[tx][ty];
}

__global__ void global(float* a) {
    a[threadIdx.x] *= 2.0f;
}
