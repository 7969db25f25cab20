; A kernel's divergence copy whose measured accesses are all proven in warps
; of one 32-lane row (AccessGroup::FullRow, or RowsProven without a lane
; test) gets a body for rows of 32 (DivergenceRows32.cpp, addRows32Body):
; its entry tests __pasta_div_row_width() once (%pasta.div.rows32) and runs
; either that body, in which the row width is the constant 32 (no
; __pasta_div_row_width or __pasta_div_stacked_width left, no
; %pasta.div.not32 test: a RowsProven group is never measured there) and a
; FullRow group's other warps call __pasta_div_access_row32 (the one-row
; path alone) instead of __pasta_div_access_lanes, or the copy as it was,
; the function <copy>_general (internal, noinline, no kernel attributes),
; with the kernel's arguments. The copy is capped at 32 registers, the
; uncapped twin calls the same function. stream: three FullRow groups;
; staged: a shared store measured only where rows are not 32 wide and two
; FullRow groups. gather (a data-dependent load, the general helper) keeps
; one body and its cap (48); so does looped (a loop, 64) with
; -pasta-div-rows-uniform-loops=0, but by default (its one loop is uniform:
; nvptx-divergence-rows-uniform-loops.ll) and with -pasta-div-rows-loops
; its load and store, which repeat in a uniform loop
; (measured once per entry), take __pasta_div_access_row32 at the loop's
; preheader in a body for rows of 32, capped at 40. tile2d, whose
; FullRow groups' addresses move with thread index y (a kernel for 2-D
; blocks, perhaps 16 wide), gets a body for rows of 16 as well: its entry
; switches on the row width (32: the body for rows of 32; 16: one in which
; every __pasta_div_access_lanes call is __pasta_div_access_rows16, without
; the width, and no width is read; else the general function), capped at 32.
; -pasta-div-rows32=0 gives no copy a second body; -pasta-div-rows16=0 (the
; default since the H200 run of 2026-11-29: backprop and gaussian ran
; 13.7x and 22.9x with the rows-of-16 bodies)
; gives tile2d none (cap 48).
; The IR is clang's -O2 output (-gline-tables-only, sm_90) for
;   __global__ void stream(const float *a, const float *b, float *c, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) c[i] = a[i] + b[i];
;   }
;   __global__ void staged(const float *a, float *out) {
;     __shared__ float s[256];
;     int t = threadIdx.x;
;     s[t] = a[blockIdx.x * 256 + t];
;     __syncthreads();
;     out[blockIdx.x * 256 + t] = s[t] * 2.0f;
;   }
;   __global__ void gather(const float *a, const int *idx, float *out) {
;     int t = blockIdx.x * blockDim.x + threadIdx.x;
;     out[t] = a[idx[t]];
;   }
;   __global__ void looped(float *a, int n) {
;     int t = threadIdx.x;
;   #pragma unroll 1
;     for (int i = 0; i < n; ++i)
;       a[i * 32 + t] += 1.0f;
;   }
;   __global__ void tile2d(const float *a, float *out, int n) {
;     int x = blockIdx.x * blockDim.x + threadIdx.x;
;     int y = blockIdx.y * blockDim.y + threadIdx.y;
;     out[y * n + x] = 2.0f * a[y * n + x];
;   }
; These checks are of the copy that tests the width itself
; (-pasta-div-host-general=0); the default, in which the host chooses a
; general kernel instead, is nvptx-divergence-host-general.ll.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows16=1 -pasta-div-rows-uniform-loops=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows32=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows16=1 -pasta-div-rows-uniform-loops=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows16=0 -pasta-div-rows-uniform-loops=0 -pasta-div-stats -S %s 2>&1 | FileCheck %s --check-prefixes=STATS16OFF,OFF16
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows16=1 -pasta-div-rows-loops -S %s | FileCheck %s --check-prefix=LOOPS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows16=1 -S %s | FileCheck %s --check-prefix=LOOPS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -pasta-div-rows16=1 -S %s | FileCheck %s --check-prefix=TILE
; The default gives tile2d the bodies (and their cap) too.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-versioned-loops=0 -pasta-div-twin-bases=0 -S %s | FileCheck %s --check-prefix=TILE
; TILE-LABEL: define {{.*}} @_Z6tile2dPKfPfi__pasta_div(
; TILE-SAME: #[[TILECAP:[0-9]+]]
; TILE: attributes #[[TILECAP]] = { {{.*}}"nvvm.maxnreg"="32"

; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; CHECK-SAME: #[[CAP32:[0-9]+]]
; CHECK: %[[W:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK-NEXT: %pasta.div.rows32 = icmp eq i32 %[[W]], 32
; CHECK-NEXT: br i1 %pasta.div.rows32, label %pasta.div.body32, label %pasta.div.rows.other
; CHECK: pasta.div.rows.other:
; CHECK-NEXT: call void @_Z6streamPKfS0_Pfi__pasta_div_general(ptr %0, ptr %1, ptr %2, i32 %3)
; CHECK-NEXT: ret void
; CHECK: pasta.div.body32:
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: call i32 @__pasta_div_full_row(i32 32)
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1, ptr %{{[a-z0-9.]+}}, ptr %{{[a-z0-9.]+}}, ptr %pasta.div.none)
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1,
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1,
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: {{^}$}}

; CHECK-LABEL: define {{.*}} @_Z6stagedPKfPf__pasta_div(
; CHECK-SAME: #[[CAP32B:[0-9]+]]
; CHECK: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; CHECK: call void @_Z6stagedPKfPf__pasta_div_general(ptr %0, ptr %1)
; CHECK: pasta.div.body32:
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|pasta.div.not32}}
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|pasta.div.not32}}
; CHECK: store float %{{[0-9]+}}, ptr %{{[0-9]+}}, align 4, !dbg
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|pasta.div.not32}}
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|pasta.div.not32}}
; CHECK: {{^}$}}

; CHECK-LABEL: define {{.*}} @_Z6gatherPKfPKiPf__pasta_div(
; CHECK-SAME: #[[CAP48:[0-9]+]]
; CHECK-NOT: {{pasta.div.rows32|_general}}
; CHECK: call i32 @__pasta_div_access(
; CHECK-LABEL: define {{.*}} @_Z6loopedPfi__pasta_div(
; CHECK-SAME: #[[CAP64:[0-9]+]]
; CHECK-NOT: {{pasta.div.rows32|_general}}
; CHECK: {{^}$}}
; CHECK-LABEL: define {{.*}} @_Z6tile2dPKfPfi__pasta_div(
; The bank row both bodies use, computed once above the switch
; (-pasta-div-one-row: a loop-free copy).
; CHECK: %[[W2:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK-NEXT: call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: switch i32 %[[W2]], label %pasta.div.rows.other [
; CHECK-NEXT: i32 32, label %pasta.div.body32
; CHECK-NEXT: i32 16, label %pasta.div.body16
; CHECK: pasta.div.body16:
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|@__pasta_div_access\(|@__pasta_div_access_row32|_general}}
; CHECK: call i32 @__pasta_div_access_rows16(ptr readonly %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1, ptr
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|@__pasta_div_access\(|@__pasta_div_access_row32|_general}}
; CHECK: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1, ptr
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|@__pasta_div_access\(|@__pasta_div_access_row32|_general}}
; CHECK: ret void
; CHECK-EMPTY:
; CHECK-NEXT: pasta.div.rows.other:
; CHECK-NEXT: call void @_Z6tile2dPKfPfi__pasta_div_general(ptr %0, ptr %1, i32 %2)
; CHECK-NEXT: ret void
; CHECK: pasta.div.body32:
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|@__pasta_div_access_rows16|_general}}
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1,
; CHECK-NOT: {{@__pasta_div_row_width|@__pasta_div_stacked_width|@__pasta_div_access_lanes|@__pasta_div_access\(|@__pasta_div_access_rows16|_general}}
; CHECK: {{^}$}}

; The copies as they were, as functions.
; CHECK-LABEL: define internal void @_Z6streamPKfS0_Pfi__pasta_div_general(
; CHECK-SAME: #[[GENERAL:[0-9]+]]
; CHECK: call i32 @__pasta_div_row_width()
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1,
; CHECK-LABEL: define internal void @_Z6stagedPKfPf__pasta_div_general(
; CHECK: %pasta.div.not32 = icmp ne i32 %{{[0-9]+}}, 32
; The uncapped twin dispatches alike.
; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_divu(
; CHECK: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; CHECK: call void @_Z6streamPKfS0_Pfi__pasta_div_general(ptr %0, ptr %1, ptr %2, i32 %3)
; CHECK-LABEL: define {{.*}} @_Z6gatherPKfPKiPf__pasta_divu(

; CHECK-DAG: attributes #[[CAP32]] = { {{.*}}"nvvm.maxnreg"="32"
; CHECK-DAG: attributes #[[CAP32B]] = { {{.*}}"nvvm.maxnreg"="32"
; CHECK-DAG: attributes #[[CAP48]] = { {{.*}}"nvvm.maxnreg"="48"
; CHECK-DAG: attributes #[[CAP64]] = { {{.*}}"nvvm.maxnreg"="64"
; CHECK-DAG: attributes #[[GENERAL]] = { {{[^}]*}}noinline{{[^}"]*}} "

; OFF-NOT: pasta.div.rows32
; OFF-NOT: _general
; OFF: call i32 @__pasta_div_access_lanes(
; OFF-NOT: _general

; STATS: global ones taken by arithmetic in full 32-lane rows: 9){{.*}}; kernels with a body for rows of 32: 3 (of them with one for rows of 16 too: 1)
; LOOPS-LABEL: define {{.*}} @_Z6loopedPfi__pasta_div(
; LOOPS-SAME: #[[CAP40:[0-9]+]]
; LOOPS: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; LOOPS: call void @_Z6loopedPfi__pasta_div_general(ptr %0, i32 %1)
; LOOPS: pasta.div.body32:
; LOOPS-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; LOOPS: .preheader:
; LOOPS: call i32 @__pasta_div_access_row32(ptr %scevgep, i32 4, i32 4, i32 1, i32 1,
; LOOPS-NOT: {{@__pasta_div_row_width|@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; LOOPS: {{^}$}}
; LOOPS: attributes #[[CAP40]] = { {{.*}}"nvvm.maxnreg"="40"
; STATS16OFF: kernels with a body for rows of 32: 2 (of them with one for rows of 16 too: 0)
; OFF16-LABEL: define {{.*}} @_Z6tile2dPKfPfi__pasta_div(
; OFF16-SAME: #[[CAP48C:[0-9]+]]
; OFF16-NOT: {{pasta.div.body|_general|@__pasta_div_access_rows16}}
; OFF16: {{^}$}}
; OFF16: attributes #[[CAP48C]] = { {{.*}}"nvvm.maxnreg"="48"

; ModuleID = 'rows32.cu'
source_filename = "rows32.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ6stagedPKfPfE1s = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6streamPKfS0_Pfi(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, i32 noundef %3) local_unnamed_addr #0 !dbg !15 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %7 = mul i32 %5, %6, !dbg !25
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %9 = add i32 %7, %8, !dbg !29
  %10 = icmp slt i32 %9, %3, !dbg !30
  br i1 %10, label %11, label %19, !dbg !30

11:                                               ; preds = %4
  %12 = sext i32 %9 to i64
  %13 = getelementptr inbounds float, ptr %2, i64 %12
  %14 = getelementptr inbounds float, ptr %1, i64 %12
  %15 = getelementptr inbounds float, ptr %0, i64 %12
  %16 = load float, ptr %15, align 4, !dbg !31, !tbaa !32
  %17 = load float, ptr %14, align 4, !dbg !34, !tbaa !32
  %18 = fadd contract float %16, %17, !dbg !35
  store float %18, ptr %13, align 4, !dbg !36, !tbaa !32
  br label %19, !dbg !37

19:                                               ; preds = %11, %4
  ret void, !dbg !38
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z6stagedPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #1 !dbg !39 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !40
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !42
  %5 = shl i32 %4, 8, !dbg !44
  %6 = add i32 %5, %3, !dbg !45
  %7 = zext i32 %6 to i64, !dbg !46
  %8 = getelementptr inbounds nuw float, ptr %0, i64 %7, !dbg !46
  %9 = load float, ptr %8, align 4, !dbg !46, !tbaa !32
  %10 = zext nneg i32 %3 to i64, !dbg !47
  %11 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ6stagedPKfPfE1s to ptr), i64 %10, !dbg !47
  store float %9, ptr %11, align 4, !dbg !48, !tbaa !32
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !49
  %12 = load float, ptr %11, align 4, !dbg !50, !tbaa !32
  %13 = fmul contract float %12, 2.000000e+00, !dbg !51
  %14 = getelementptr inbounds nuw float, ptr %1, i64 %7, !dbg !52
  store float %13, ptr %14, align 4, !dbg !53, !tbaa !32
  ret void, !dbg !54
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6gatherPKfPKiPf(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !55 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !56
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !58
  %6 = mul i32 %4, %5, !dbg !60
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !61
  %8 = add i32 %6, %7, !dbg !63
  %9 = sext i32 %8 to i64, !dbg !64
  %10 = getelementptr inbounds i32, ptr %1, i64 %9, !dbg !64
  %11 = load i32, ptr %10, align 4, !dbg !64, !tbaa !10
  %12 = sext i32 %11 to i64, !dbg !65
  %13 = getelementptr inbounds float, ptr %0, i64 %12, !dbg !65
  %14 = load float, ptr %13, align 4, !dbg !65, !tbaa !32
  %15 = getelementptr inbounds float, ptr %2, i64 %9, !dbg !66
  store float %14, ptr %15, align 4, !dbg !67, !tbaa !32
  ret void, !dbg !68
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6loopedPfi(ptr noundef captures(none) %0, i32 noundef %1) local_unnamed_addr #3 !dbg !69 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !70
  %4 = icmp sgt i32 %1, 0, !dbg !72
  br i1 %4, label %6, label %5, !dbg !73

5:                                                ; preds = %6, %2
  ret void, !dbg !74

6:                                                ; preds = %2, %6
  %7 = phi i32 [ %14, %6 ], [ 0, %2 ]
  %8 = shl nsw i32 %7, 5, !dbg !75
  %9 = add nuw nsw i32 %8, %3, !dbg !76
  %10 = zext nneg i32 %9 to i64, !dbg !77
  %11 = getelementptr inbounds nuw float, ptr %0, i64 %10, !dbg !77
  %12 = load float, ptr %11, align 4, !dbg !78, !tbaa !32
  %13 = fadd contract float %12, 1.000000e+00, !dbg !78
  store float %13, ptr %11, align 4, !dbg !78, !tbaa !32
  %14 = add nuw nsw i32 %7, 1, !dbg !79
  %15 = icmp eq i32 %14, %1, !dbg !72
  br i1 %15, label %5, label %6, !dbg !73, !llvm.loop !80
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6tile2dPKfPfi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !84 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !85
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !87
  %6 = mul i32 %4, %5, !dbg !89
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !90
  %8 = add i32 %6, %7, !dbg !92
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !93
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y(), !dbg !96
  %11 = mul nuw nsw i32 %9, %10, !dbg !99
  %12 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !100
  %13 = add nuw nsw i32 %11, %12, !dbg !103
  %14 = mul nsw i32 %2, %13, !dbg !104
  %15 = add nsw i32 %8, %14, !dbg !105
  %16 = sext i32 %15 to i64, !dbg !106
  %17 = getelementptr inbounds float, ptr %0, i64 %16, !dbg !106
  %18 = load float, ptr %17, align 4, !dbg !106, !tbaa !32
  %19 = fmul contract float %18, 2.000000e+00, !dbg !107
  %20 = getelementptr inbounds float, ptr %1, i64 %16, !dbg !108
  store float %19, ptr %20, align 4, !dbg !109, !tbaa !32
  ret void, !dbg !110
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #4

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #4 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "rows32.cu", directory: "/tmp/div/lit")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "stream", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 11, scope: !15)
!22 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 79, type: !16, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!24 = distinct !DILocation(line: 2, column: 24, scope: !15)
!25 = !DILocation(line: 2, column: 22, scope: !15)
!26 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !28)
!27 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!28 = distinct !DILocation(line: 2, column: 37, scope: !15)
!29 = !DILocation(line: 2, column: 35, scope: !15)
!30 = !DILocation(line: 3, column: 9, scope: !15)
!31 = !DILocation(line: 3, column: 21, scope: !15)
!32 = !{!33, !33, i64 0}
!33 = !{!"float", !12, i64 0}
!34 = !DILocation(line: 3, column: 28, scope: !15)
!35 = !DILocation(line: 3, column: 26, scope: !15)
!36 = !DILocation(line: 3, column: 19, scope: !15)
!37 = !DILocation(line: 3, column: 14, scope: !15)
!38 = !DILocation(line: 4, column: 1, scope: !15)
!39 = distinct !DISubprogram(name: "staged", scope: !7, file: !7, line: 5, type: !16, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!40 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !41)
!41 = distinct !DILocation(line: 7, column: 11, scope: !39)
!42 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !43)
!43 = distinct !DILocation(line: 8, column: 12, scope: !39)
!44 = !DILocation(line: 8, column: 23, scope: !39)
!45 = !DILocation(line: 8, column: 29, scope: !39)
!46 = !DILocation(line: 8, column: 10, scope: !39)
!47 = !DILocation(line: 8, column: 3, scope: !39)
!48 = !DILocation(line: 8, column: 8, scope: !39)
!49 = !DILocation(line: 9, column: 3, scope: !39)
!50 = !DILocation(line: 10, column: 31, scope: !39)
!51 = !DILocation(line: 10, column: 36, scope: !39)
!52 = !DILocation(line: 10, column: 3, scope: !39)
!53 = !DILocation(line: 10, column: 29, scope: !39)
!54 = !DILocation(line: 11, column: 1, scope: !39)
!55 = distinct !DISubprogram(name: "gather", scope: !7, file: !7, line: 12, type: !16, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!56 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !57)
!57 = distinct !DILocation(line: 13, column: 11, scope: !55)
!58 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !59)
!59 = distinct !DILocation(line: 13, column: 24, scope: !55)
!60 = !DILocation(line: 13, column: 22, scope: !55)
!61 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !62)
!62 = distinct !DILocation(line: 13, column: 37, scope: !55)
!63 = !DILocation(line: 13, column: 35, scope: !55)
!64 = !DILocation(line: 14, column: 14, scope: !55)
!65 = !DILocation(line: 14, column: 12, scope: !55)
!66 = !DILocation(line: 14, column: 3, scope: !55)
!67 = !DILocation(line: 14, column: 10, scope: !55)
!68 = !DILocation(line: 15, column: 1, scope: !55)
!69 = distinct !DISubprogram(name: "looped", scope: !7, file: !7, line: 16, type: !16, scopeLine: 16, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!70 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !71)
!71 = distinct !DILocation(line: 17, column: 11, scope: !69)
!72 = !DILocation(line: 19, column: 21, scope: !69)
!73 = !DILocation(line: 19, column: 3, scope: !69)
!74 = !DILocation(line: 21, column: 1, scope: !69)
!75 = !DILocation(line: 20, column: 9, scope: !69)
!76 = !DILocation(line: 20, column: 14, scope: !69)
!77 = !DILocation(line: 20, column: 5, scope: !69)
!78 = !DILocation(line: 20, column: 19, scope: !69)
!79 = !DILocation(line: 19, column: 26, scope: !69)
!80 = distinct !{!80, !73, !81, !82, !83}
!81 = !DILocation(line: 20, column: 22, scope: !69)
!82 = !{!"llvm.loop.mustprogress"}
!83 = !{!"llvm.loop.unroll.disable"}
!84 = distinct !DISubprogram(name: "tile2d", scope: !7, file: !7, line: 22, type: !16, scopeLine: 22, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!85 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !86)
!86 = distinct !DILocation(line: 23, column: 11, scope: !84)
!87 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !88)
!88 = distinct !DILocation(line: 23, column: 24, scope: !84)
!89 = !DILocation(line: 23, column: 22, scope: !84)
!90 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !91)
!91 = distinct !DILocation(line: 23, column: 37, scope: !84)
!92 = !DILocation(line: 23, column: 35, scope: !84)
!93 = !DILocation(line: 67, column: 27, scope: !94, inlinedAt: !95)
!94 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!95 = distinct !DILocation(line: 24, column: 11, scope: !84)
!96 = !DILocation(line: 80, column: 27, scope: !97, inlinedAt: !98)
!97 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!98 = distinct !DILocation(line: 24, column: 24, scope: !84)
!99 = !DILocation(line: 24, column: 22, scope: !84)
!100 = !DILocation(line: 54, column: 27, scope: !101, inlinedAt: !102)
!101 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!102 = distinct !DILocation(line: 24, column: 37, scope: !84)
!103 = !DILocation(line: 24, column: 35, scope: !84)
!104 = !DILocation(line: 25, column: 31, scope: !84)
!105 = !DILocation(line: 25, column: 35, scope: !84)
!106 = !DILocation(line: 25, column: 27, scope: !84)
!107 = !DILocation(line: 25, column: 25, scope: !84)
!108 = !DILocation(line: 25, column: 3, scope: !84)
!109 = !DILocation(line: 25, column: 18, scope: !84)
!110 = !DILocation(line: 26, column: 1, scope: !84)
