; Global loads and stores in full warps of one 32-lane row
; (AccessGroup::FullRow, include/pasta/div_proofs.h pasta_div_full_row_form):
; the copy tests once per block whether the warp is full and its rows 32
; wide (__pasta_div_full_row, %pasta.div.fullrow) and there adds only the
; sectors past the row's base (__pasta_div_row_sectors) instead of calling
; __pasta_div_access_lanes, which the other warps still call. stream: three
; accesses at stride = size in one block, one test, the adds outside loops
; straight to the counters. column: a[t * 32] (128 bytes per lane: no
; sector to add, the test alone). in_loop: the adds go to the loop's
; registers. not_taken: a shared access (taken as before) and a global load
; aligned to 1 byte (measured in every warp); the store beside them is taken.
; -pasta-div-full-rows=0 measures them all as before. The IR is clang's -O2
; output (-gline-tables-only) for
;   __global__ void stream(const float *a, const float *b, float *c, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) c[i] = a[i] + b[i];
;   }
;   __global__ void column(const float *a, float *out) {
;     int t = threadIdx.x; out[t] = a[t * 32];
;   }
;   __global__ void in_loop(float *a, int n) {
;     int t = threadIdx.x;
;   #pragma unroll 1
;     for (int i = 0; i < n; ++i)
;       if (a[i * 32 + t] > 0.0f) a[i * 32 + t] = 1.0f;
;   }
;   __global__ void not_taken(const char *p, float *out) {
;     __shared__ float s[256];
;     int t = threadIdx.x;
;     s[t] = 1.0f;
;     __syncthreads();
;     out[t] = s[(t * 2) & 255] + *(const float *)(p + 1 + 4 * t);
;   }
;   __global__ void tile(const float *w, float *out) {
;     int row = blockIdx.x * 16 + threadIdx.y;
;     out[row * 16 + threadIdx.x] = 2.0f * w[row * 16 + threadIdx.x];
;   }
; with not_taken's last load's alignment set to 1. tile's accesses move 16
; times their lane stride per thread index y: in full warps of 16-wide rows
; stacked in y they are one run of 32 lanes too (%pasta.div.rows16 gives
; __pasta_div_full_row width 32 there).
; The bases at the entry (-pasta-div-aligned-rows-at-entry, on by default:
; ALIGNED below): stream's three accesses outside loops, each at its
; pointer plus 4 * (blockIdx.x * blockDim.x + threadIdx.x), have lane 0 of a
; 32-lane row at the pointer plus 4 * blockIdx.x * blockDim.x mod 32 (x
; taken as 0), built at the entry; one test there says whether any of the
; three is off a sector's start, and a full row whose bases are not skips
; every group's sectors (%pasta.div.rowslow, one branch a group).
; column's out[t] (pointer plus 4 * x) is such too, its a[t * 32] not (a
; lane stride of 128 adds no sector); in_loop's are in a loop and tile's in
; rows stacked in y: measured as before.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-twin-bases=0 -pasta-div-rows32=0 -pasta-div-aligned-rows-at-entry=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-twin-bases=0 -pasta-div-rows32=0 -S %s | FileCheck %s --check-prefix=ALIGNED
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-twin-bases=0 -pasta-div-full-rows=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-twin-bases=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS

; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(
; CHECK: %[[W:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK: %[[F:[0-9]+]] = call i32 @__pasta_div_full_row(i32 %[[W]])
; CHECK-NEXT: %pasta.div.fullrow = icmp ne i32 %[[F]], 0
; CHECK-NEXT: br i1 %pasta.div.fullrow, label %[[FULL1:[0-9]+]], label %[[OTHER1:[0-9]+]]
; CHECK: [[FULL1]]:
; CHECK-NEXT: %[[X:[0-9]+]] = call i32 @__pasta_div_row_sectors(ptr %{{[0-9]+}}, i32 4, i32 4)
; CHECK-NEXT: %[[X64:[0-9]+]] = zext i32 %[[X]] to i64
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[X64]])
; CHECK: [[OTHER1]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1,
; CHECK: br i1 %pasta.div.fullrow,
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: br i1 %pasta.div.fullrow,
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-NOT: call i32 @__pasta_div_full_row(
; CHECK-LABEL: define {{.*}} @_Z6columnPKfPf__pasta_div(
; CHECK: %pasta.div.fullrow = icmp ne
; CHECK-NEXT: br i1 %pasta.div.fullrow, label %[[FULL2:[0-9]+]], label %[[OTHER2:[0-9]+]]
; CHECK: [[FULL2]]:
; CHECK-NEXT: br label
; CHECK: [[OTHER2]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 128,
; CHECK: br i1 %pasta.div.fullrow,
; CHECK: call i32 @__pasta_div_row_sectors(ptr %{{[0-9]+}}, i32 4, i32 4)
; CHECK-LABEL: define {{.*}} @_Z7in_loopPfi__pasta_div(
; CHECK: %pasta.div.fullrow = icmp ne
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK-NEXT: zext
; CHECK-NEXT: %[[R:[0-9]+]] = load i32, ptr %[[REG:pasta.div[0-9]*]]
; CHECK-NEXT: %[[L:[0-9]+]] = trunc
; CHECK-NEXT: %[[S:[0-9]+]] = add i32 %[[R]], %[[L]]
; CHECK-NEXT: store i32 %[[S]], ptr %[[REG]]
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %{{[a-z0-9.]+}}, ptr %pasta.div.none, ptr %[[REG]],
; CHECK: %pasta.div.fullrow{{[0-9]+}} = icmp ne
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK-LABEL: define {{.*}} @_Z9not_takenPKcPf__pasta_div(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 8, i32 3,
; CHECK-NOT: fullrow
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 1,
; CHECK: %pasta.div.fullrow = icmp ne
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK-NOT: call i32 @__pasta_div_row_sectors(
; CHECK-LABEL: define {{.*}} @_Z4tilePKfPf__pasta_div(
; CHECK-DAG: %[[RW:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK-DAG: %[[SW:[0-9]+]] = call i32 @__pasta_div_stacked_width()
; CHECK-DAG: %[[IS16:[0-9]+]] = icmp eq i32 %[[SW]], 16
; CHECK: %pasta.div.rows16 = select i1 %[[IS16]], i32 32, i32 %[[RW]]
; CHECK: call i32 @__pasta_div_full_row(i32 %pasta.div.rows16)
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_divu(

; ALIGNED-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_div(ptr {{.*}} %0, ptr {{.*}} %1, ptr {{.*}} %2, i32
; ALIGNED: %[[A:[0-9]+]] = ptrtoint ptr %0 to i64
; ALIGNED: %[[BX:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; ALIGNED-NEXT: %[[BX64:[0-9]+]] = zext i32 %[[BX]] to i64
; ALIGNED-NEXT: %[[NX:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; ALIGNED-NEXT: %[[NX64:[0-9]+]] = zext i32 %[[NX]] to i64
; ALIGNED-NEXT: %[[BN:[0-9]+]] = mul i64 %[[BX64]], %[[NX64]]
; Thread index x taken as 0: the index's add of it adds 0.
; ALIGNED-NEXT: %[[IDX:[0-9]+]] = add i64 %[[BN]], 0, !dbg
; ALIGNED-NEXT: %[[BYTES:[0-9]+]] = mul i64 %[[IDX]], 4
; ALIGNED-NEXT: %[[LOWA:[0-9]+]] = add i64 %{{[0-9]+}}, %[[BYTES]]
; ALIGNED: ptrtoint ptr %1 to i64
; ALIGNED: %[[LOWB:[0-9]+]] = add i64 %{{[0-9]+}}, %{{[0-9]+}}
; ALIGNED-NEXT: %[[AB:[0-9]+]] = or i64 %[[LOWA]], %[[LOWB]]
; ALIGNED-NEXT: ptrtoint ptr %2 to i64
; ALIGNED: %[[ABC:[0-9]+]] = or i64 %[[AB]], %{{[0-9]+}}
; ALIGNED-NEXT: %[[T:[0-9]+]] = trunc i64 %[[ABC]] to i32
; ALIGNED-NEXT: %[[M:[0-9]+]] = and i32 %[[T]], 31
; ALIGNED-NEXT: %pasta.div.rowbases.off = icmp ne i32 %[[M]], 0
; ALIGNED-NOT: read.ptx.sreg.tid.x
; ALIGNED: call i32 @__pasta_div_row_width()
; ALIGNED: %pasta.div.fullrow = icmp ne
; ALIGNED-NEXT: %[[NOTFULL:[0-9]+]] = xor i1 %pasta.div.fullrow, true
; ALIGNED-NEXT: %pasta.div.rowslow = or i1 %[[NOTFULL]], %pasta.div.rowbases.off
; ALIGNED-NEXT: br i1 %pasta.div.rowslow, label %[[SLOW:[0-9]+]], label %[[NEXT:[0-9]+]]
; ALIGNED: [[SLOW]]:
; ALIGNED-NEXT: br i1 %pasta.div.fullrow, label %[[FULL:[0-9]+]], label %[[OTHER:[0-9]+]]
; ALIGNED: [[FULL]]:
; ALIGNED-NEXT: call i32 @__pasta_div_row_sectors(
; ALIGNED: [[OTHER]]:
; ALIGNED: call i32 @__pasta_div_access_lanes(
; ALIGNED: [[NEXT]]:
; ALIGNED: br i1 %pasta.div.rowslow,
; ALIGNED: call i32 @__pasta_div_row_sectors(
; ALIGNED: br i1 %pasta.div.rowslow,
; ALIGNED: call i32 @__pasta_div_row_sectors(
; ALIGNED-LABEL: define {{.*}} @_Z6columnPKfPf__pasta_div(
; ALIGNED: %pasta.div.rowbases.off = icmp ne
; ALIGNED: %pasta.div.fullrow = icmp ne
; ALIGNED-NEXT: br i1 %pasta.div.fullrow,
; ALIGNED: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 128,
; ALIGNED: br i1 %pasta.div.rowslow,
; ALIGNED: call i32 @__pasta_div_row_sectors(ptr %{{[0-9]+}}, i32 4, i32 4)
; ALIGNED-LABEL: define {{.*}} @_Z7in_loopPfi__pasta_div(
; ALIGNED-NOT: rowbases
; ALIGNED-NOT: rowslow
; ALIGNED-LABEL: define {{.*}} @_Z9not_takenPKcPf__pasta_div(
; ALIGNED: br i1 %pasta.div.rowslow,
; ALIGNED-LABEL: define {{.*}} @_Z4tilePKfPf__pasta_div(
; ALIGNED-NOT: rowbases
; ALIGNED-NOT: rowslow
; ALIGNED-LABEL: define {{.*}} @_Z6streamPKfS0_Pfi__pasta_divu(

; OFF-NOT: call i32 @__pasta_div_full_row(
; OFF-NOT: call i32 @__pasta_div_row_sectors(

; STATS: access groups 13 (lane-shaped: 13, not measured: one aligned address in every lane: 0; measured only where rows of lanes are not 32 wide: 1, of them in rows stacked in y too: 0; global ones taken by arithmetic in full 32-lane rows: 10)

; ModuleID = 'fullrows.cu'
source_filename = "fullrows.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ9not_takenPKcPfE1s = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

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

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6columnPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !39 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !40
  %4 = shl nuw nsw i32 %3, 5, !dbg !42
  %5 = zext nneg i32 %4 to i64, !dbg !43
  %6 = getelementptr inbounds nuw float, ptr %0, i64 %5, !dbg !43
  %7 = load float, ptr %6, align 4, !dbg !43, !tbaa !32
  %8 = zext nneg i32 %3 to i64, !dbg !44
  %9 = getelementptr inbounds nuw float, ptr %1, i64 %8, !dbg !44
  store float %7, ptr %9, align 4, !dbg !45, !tbaa !32
  ret void, !dbg !46
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z7in_loopPfi(ptr noundef captures(none) %0, i32 noundef %1) local_unnamed_addr #1 !dbg !47 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !48
  %4 = icmp sgt i32 %1, 0, !dbg !50
  br i1 %4, label %6, label %5, !dbg !51

5:                                                ; preds = %15, %2
  ret void, !dbg !52

6:                                                ; preds = %2, %15
  %7 = phi i32 [ %16, %15 ], [ 0, %2 ]
  %8 = shl nsw i32 %7, 5, !dbg !53
  %9 = add nuw nsw i32 %8, %3, !dbg !54
  %10 = zext nneg i32 %9 to i64, !dbg !55
  %11 = getelementptr inbounds nuw float, ptr %0, i64 %10, !dbg !55
  %12 = load float, ptr %11, align 4, !dbg !55, !tbaa !32
  %13 = fcmp contract ogt float %12, 0.000000e+00, !dbg !56
  br i1 %13, label %14, label %15, !dbg !56

14:                                               ; preds = %6
  store float 1.000000e+00, ptr %11, align 4, !dbg !57, !tbaa !32
  br label %15, !dbg !58

15:                                               ; preds = %6, %14
  %16 = add nuw nsw i32 %7, 1, !dbg !59
  %17 = icmp eq i32 %16, %1, !dbg !50
  br i1 %17, label %5, label %6, !dbg !51, !llvm.loop !60
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z9not_takenPKcPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #2 !dbg !64 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !65
  %4 = zext nneg i32 %3 to i64, !dbg !67
  %5 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ9not_takenPKcPfE1s to ptr), i64 %4, !dbg !67
  store float 1.000000e+00, ptr %5, align 4, !dbg !68, !tbaa !32
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !69
  %6 = shl nuw nsw i32 %3, 1, !dbg !70
  %7 = and i32 %6, 254, !dbg !71
  %8 = zext nneg i32 %7 to i64, !dbg !72
  %9 = getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @_ZZ9not_takenPKcPfE1s to ptr), i64 %8, !dbg !72
  %10 = load float, ptr %9, align 4, !dbg !72, !tbaa !32
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 1, !dbg !73
  %12 = shl nuw nsw i32 %3, 2, !dbg !74
  %13 = zext nneg i32 %12 to i64, !dbg !73
  %14 = getelementptr inbounds nuw i8, ptr %11, i64 %13, !dbg !73
  %15 = load float, ptr %14, align 1, !dbg !73, !tbaa !32
  %16 = fadd contract float %10, %15, !dbg !75
  %17 = getelementptr inbounds nuw float, ptr %1, i64 %4, !dbg !76
  store float %16, ptr %17, align 4, !dbg !77, !tbaa !32
  ret void, !dbg !78
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z4tilePKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !79 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !80
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !82
  %5 = shl i32 %3, 8, !dbg !85
  %6 = shl nuw nsw i32 %4, 4, !dbg !85
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !86
  %8 = add nuw nsw i32 %6, %7, !dbg !85
  %9 = add i32 %8, %5, !dbg !88
  %10 = zext i32 %9 to i64, !dbg !89
  %11 = getelementptr inbounds nuw float, ptr %0, i64 %10, !dbg !89
  %12 = load float, ptr %11, align 4, !dbg !89, !tbaa !32
  %13 = fmul contract float %12, 2.000000e+00, !dbg !90
  %14 = getelementptr inbounds nuw float, ptr %1, i64 %10, !dbg !91
  store float %13, ptr %14, align 4, !dbg !92, !tbaa !32
  ret void, !dbg !93
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #4

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #3 = { convergent nocallback nounwind }
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
!7 = !DIFile(filename: "fullrows.cu", directory: "/tmp/div/lit")
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
!31 = !DILocation(line: 4, column: 12, scope: !15)
!32 = !{!33, !33, i64 0}
!33 = !{!"float", !12, i64 0}
!34 = !DILocation(line: 4, column: 19, scope: !15)
!35 = !DILocation(line: 4, column: 17, scope: !15)
!36 = !DILocation(line: 4, column: 10, scope: !15)
!37 = !DILocation(line: 4, column: 5, scope: !15)
!38 = !DILocation(line: 5, column: 1, scope: !15)
!39 = distinct !DISubprogram(name: "column", scope: !7, file: !7, line: 7, type: !16, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!40 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !41)
!41 = distinct !DILocation(line: 8, column: 11, scope: !39)
!42 = !DILocation(line: 9, column: 16, scope: !39)
!43 = !DILocation(line: 9, column: 12, scope: !39)
!44 = !DILocation(line: 9, column: 3, scope: !39)
!45 = !DILocation(line: 9, column: 10, scope: !39)
!46 = !DILocation(line: 10, column: 1, scope: !39)
!47 = distinct !DISubprogram(name: "in_loop", scope: !7, file: !7, line: 12, type: !16, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!48 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !49)
!49 = distinct !DILocation(line: 13, column: 11, scope: !47)
!50 = !DILocation(line: 15, column: 21, scope: !47)
!51 = !DILocation(line: 15, column: 3, scope: !47)
!52 = !DILocation(line: 18, column: 1, scope: !47)
!53 = !DILocation(line: 16, column: 13, scope: !47)
!54 = !DILocation(line: 16, column: 18, scope: !47)
!55 = !DILocation(line: 16, column: 9, scope: !47)
!56 = !DILocation(line: 16, column: 23, scope: !47)
!57 = !DILocation(line: 17, column: 21, scope: !47)
!58 = !DILocation(line: 17, column: 7, scope: !47)
!59 = !DILocation(line: 15, column: 26, scope: !47)
!60 = distinct !{!60, !51, !61, !62, !63}
!61 = !DILocation(line: 17, column: 23, scope: !47)
!62 = !{!"llvm.loop.mustprogress"}
!63 = !{!"llvm.loop.unroll.disable"}
!64 = distinct !DISubprogram(name: "not_taken", scope: !7, file: !7, line: 20, type: !16, scopeLine: 20, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!65 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !66)
!66 = distinct !DILocation(line: 22, column: 11, scope: !64)
!67 = !DILocation(line: 23, column: 3, scope: !64)
!68 = !DILocation(line: 23, column: 8, scope: !64)
!69 = !DILocation(line: 24, column: 3, scope: !64)
!70 = !DILocation(line: 25, column: 17, scope: !64)
!71 = !DILocation(line: 25, column: 22, scope: !64)
!72 = !DILocation(line: 25, column: 12, scope: !64)
!73 = !DILocation(line: 25, column: 31, scope: !64)
!74 = !DILocation(line: 25, column: 58, scope: !64)
!75 = !DILocation(line: 25, column: 29, scope: !64)
!76 = !DILocation(line: 25, column: 3, scope: !64)
!77 = !DILocation(line: 25, column: 10, scope: !64)
!78 = !DILocation(line: 26, column: 1, scope: !64)
!79 = distinct !DISubprogram(name: "tile", scope: !7, file: !7, line: 28, type: !16, scopeLine: 28, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!80 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !81)
!81 = distinct !DILocation(line: 29, column: 13, scope: !79)
!82 = !DILocation(line: 54, column: 27, scope: !83, inlinedAt: !84)
!83 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!84 = distinct !DILocation(line: 29, column: 31, scope: !79)
!85 = !DILocation(line: 30, column: 46, scope: !79)
!86 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !87)
!87 = distinct !DILocation(line: 30, column: 53, scope: !79)
!88 = !DILocation(line: 30, column: 51, scope: !79)
!89 = !DILocation(line: 30, column: 40, scope: !79)
!90 = !DILocation(line: 30, column: 38, scope: !79)
!91 = !DILocation(line: 30, column: 3, scope: !79)
!92 = !DILocation(line: 30, column: 31, scope: !79)
!93 = !DILocation(line: 31, column: 1, scope: !79)
