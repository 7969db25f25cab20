; A kernel's divergence copy whose loop measures a shared-memory atomic at
; an address no lane shape describes (histogram's bin: AccessGroup without
; a lane stride, measured in every warp by __pasta_div_access, which takes
; no row width) gets a body for rows of 32 even though it has a loop
; (CopyMeasures::measuresScatteredAtomics): in it the byte load's partial
; warps take __pasta_div_access_row32 (the one-row path) instead of
; __pasta_div_access_lanes' general path, the atomic keeps its helper
; (__pasta_div_access_bins for this byte's bin: nvptx-divergence-atomic-bins), and
; the copy is capped at 32 registers (histogram's copy: 61 registers, 4
; blocks of 256 threads per SM, before; 32, no spill in the loop, after).
; Other row widths call <copy>_general, the copy as it was. scatter (a
; global atomic on a loaded index, in a loop) keeps one body and the cap
; for loops (64); -pasta-div-rows32=0 gives hist none either.
; The IR is clang's -O2 output (-gline-tables-only, sm_90) for
;   __global__ void hist(const unsigned char *data, unsigned int *bins, int n) {
;     __shared__ unsigned int local[256];
;     local[threadIdx.x] = 0;
;     __syncthreads();
;     int stride = gridDim.x * blockDim.x;
;     for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
;       atomicAdd(&local[data[i]], 1u);
;     __syncthreads();
;     unsigned int count = local[threadIdx.x];
;     if (count != 0)
;       atomicAdd(&bins[threadIdx.x], count);
;   }
;   __global__ void scatter(const int *idx, unsigned int *bins, int n) {
;     int stride = gridDim.x * blockDim.x;
;     for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
;       atomicAdd(&bins[idx[i]], 1u);
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-rows32=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS

; CHECK-LABEL: define {{.*}}void @_Z4histPKhPji__pasta_div(
; CHECK-SAME: #[[HIST:[0-9]+]]
; CHECK: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; CHECK: call void @_Z4histPKhPji__pasta_div_general(ptr %0, ptr %1, i32 %2)
; CHECK-NOT: @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access_row32(ptr
; CHECK-NOT: @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access_bins(ptr
; CHECK-NOT: @__pasta_div_access_lanes(
; CHECK: atomicrmw add ptr %{{[0-9]+}}, i32 1
; CHECK-NOT: @__pasta_div_access_lanes(
; CHECK: ret void
; CHECK: define {{.*}}void @_Z7scatterPKiPji__pasta_div(
; CHECK-SAME: #[[SCATTER:[0-9]+]]
; CHECK-NOT: pasta.div.rows32
; CHECK: call i32 @__pasta_div_access(ptr
; CHECK: define internal void @_Z4histPKhPji__pasta_div_general(
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK-DAG: attributes #[[HIST]] = { {{.*}}"nvvm.maxnreg"="32"
; CHECK-DAG: attributes #[[SCATTER]] = { {{.*}}"nvvm.maxnreg"="64"

; OFF-LABEL: define {{.*}}void @_Z4histPKhPji__pasta_div(
; OFF-SAME: #[[HIST:[0-9]+]]
; OFF-NOT: pasta.div.rows32
; OFF: call i32 @__pasta_div_access_lanes(
; OFF-NOT: _general
; OFF: attributes #[[HIST]] = { {{.*}}"nvvm.maxnreg"="64"

; STATS: kernels with a body for rows of 32: 1 (of them with one for rows of 16 too: 0)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ4histPKhPjiE5local = internal addrspace(3) global [256 x i32] undef, align 4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z4histPKhPji(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !12 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !15
  %5 = zext nneg i32 %4 to i64, !dbg !19
  %6 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ4histPKhPjiE5local to ptr), i64 %5, !dbg !19
  store i32 0, ptr %6, align 4, !dbg !20, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !21
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !dbg !22
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !25
  %9 = mul i32 %7, %8, !dbg !28
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !29
  %11 = mul i32 %10, %8, !dbg !32
  %12 = add i32 %11, %4, !dbg !33
  %13 = icmp slt i32 %12, %2, !dbg !34
  br i1 %13, label %17, label %14, !dbg !35

14:                                               ; preds = %17, %3
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !36
  %15 = load i32, ptr %6, align 4, !dbg !37, !tbaa !8
  %16 = icmp eq i32 %15, 0, !dbg !38
  br i1 %16, label %30, label %27, !dbg !38

17:                                               ; preds = %3, %17
  %18 = phi i32 [ %25, %17 ], [ %12, %3 ]
  %19 = sext i32 %18 to i64, !dbg !39
  %20 = getelementptr inbounds i8, ptr %0, i64 %19, !dbg !39
  %21 = load i8, ptr %20, align 1, !dbg !39, !tbaa !40
  %22 = zext i8 %21 to i64, !dbg !41
  %23 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ4histPKhPjiE5local to ptr), i64 %22, !dbg !41
  %24 = atomicrmw add ptr %23, i32 1 seq_cst, align 4, !dbg !42
  %25 = add nsw i32 %18, %9, !dbg !49
  %26 = icmp slt i32 %25, %2, !dbg !34
  br i1 %26, label %17, label %14, !dbg !35, !llvm.loop !50

27:                                               ; preds = %14
  %28 = getelementptr inbounds nuw i32, ptr %1, i64 %5
  %29 = atomicrmw add ptr %28, i32 %15 seq_cst, align 4, !dbg !53
  br label %30, !dbg !56

30:                                               ; preds = %27, %14
  ret void, !dbg !57
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nofree noinline norecurse nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z7scatterPKiPji(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #2 !dbg !58 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x(), !dbg !59
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !61
  %6 = mul i32 %4, %5, !dbg !63
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !64
  %8 = mul i32 %7, %5, !dbg !66
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !67
  %10 = add i32 %8, %9, !dbg !69
  %11 = icmp slt i32 %10, %2, !dbg !70
  br i1 %11, label %13, label %12, !dbg !71

12:                                               ; preds = %13, %3
  ret void, !dbg !72

13:                                               ; preds = %3, %13
  %14 = phi i32 [ %21, %13 ], [ %10, %3 ]
  %15 = sext i32 %14 to i64, !dbg !73
  %16 = getelementptr inbounds i32, ptr %0, i64 %15, !dbg !73
  %17 = load i32, ptr %16, align 4, !dbg !73, !tbaa !8
  %18 = sext i32 %17 to i64, !dbg !74
  %19 = getelementptr inbounds i32, ptr %1, i64 %18, !dbg !74
  %20 = atomicrmw add ptr %19, i32 1 seq_cst, align 4, !dbg !75
  %21 = add nsw i32 %14, %6, !dbg !78
  %22 = icmp slt i32 %21, %2, !dbg !70
  br i1 %22, label %13, label %12, !dbg !71, !llvm.loop !79
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nofree noinline norecurse nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6}
!llvm.ident = !{!7}
!llvm.errno.tbaa = !{!8}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "hist.cu", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 2}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!6 = !{i32 7, !"frame-pointer", i32 2}
!7 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C++ TBAA"}
!12 = distinct !DISubprogram(name: "hist", scope: !1, file: !1, line: 1, type: !13, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!13 = !DISubroutineType(types: !14)
!14 = !{}
!15 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !18)
!16 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 53, type: !13, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!17 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!18 = distinct !DILocation(line: 3, column: 9, scope: !12)
!19 = !DILocation(line: 3, column: 3, scope: !12)
!20 = !DILocation(line: 3, column: 22, scope: !12)
!21 = !DILocation(line: 4, column: 3, scope: !12)
!22 = !DILocation(line: 92, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 92, type: !13, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!24 = distinct !DILocation(line: 5, column: 16, scope: !12)
!25 = !DILocation(line: 79, column: 27, scope: !26, inlinedAt: !27)
!26 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 79, type: !13, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!27 = distinct !DILocation(line: 5, column: 28, scope: !12)
!28 = !DILocation(line: 5, column: 26, scope: !12)
!29 = !DILocation(line: 66, column: 27, scope: !30, inlinedAt: !31)
!30 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !17, file: !17, line: 66, type: !13, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!31 = distinct !DILocation(line: 6, column: 16, scope: !12)
!32 = !DILocation(line: 6, column: 27, scope: !12)
!33 = !DILocation(line: 6, column: 40, scope: !12)
!34 = !DILocation(line: 6, column: 57, scope: !12)
!35 = !DILocation(line: 6, column: 3, scope: !12)
!36 = !DILocation(line: 8, column: 3, scope: !12)
!37 = !DILocation(line: 9, column: 24, scope: !12)
!38 = !DILocation(line: 10, column: 13, scope: !12)
!39 = !DILocation(line: 7, column: 22, scope: !12)
!40 = !{!10, !10, i64 0}
!41 = !DILocation(line: 7, column: 16, scope: !12)
!42 = !DILocation(line: 547, column: 10, scope: !43, inlinedAt: !45)
!43 = distinct !DISubprogram(name: "__uAtomicAdd", scope: !44, file: !44, line: 546, type: !13, scopeLine: 546, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!44 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_device_functions.h", directory: "")
!45 = distinct !DILocation(line: 112, column: 10, scope: !46, inlinedAt: !48)
!46 = distinct !DISubprogram(name: "atomicAdd", scope: !47, file: !47, line: 110, type: !13, scopeLine: 111, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!47 = !DIFile(filename: "/usr/local/cuda-13.0/include/device_atomic_functions.hpp", directory: "")
!48 = distinct !DILocation(line: 7, column: 5, scope: !12)
!49 = !DILocation(line: 6, column: 64, scope: !12)
!50 = distinct !{!50, !35, !51, !52}
!51 = !DILocation(line: 7, column: 34, scope: !12)
!52 = !{!"llvm.loop.mustprogress"}
!53 = !DILocation(line: 547, column: 10, scope: !43, inlinedAt: !54)
!54 = distinct !DILocation(line: 112, column: 10, scope: !46, inlinedAt: !55)
!55 = distinct !DILocation(line: 11, column: 5, scope: !12)
!56 = !DILocation(line: 11, column: 5, scope: !12)
!57 = !DILocation(line: 12, column: 1, scope: !12)
!58 = distinct !DISubprogram(name: "scatter", scope: !1, file: !1, line: 13, type: !13, scopeLine: 13, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!59 = !DILocation(line: 92, column: 27, scope: !23, inlinedAt: !60)
!60 = distinct !DILocation(line: 14, column: 16, scope: !58)
!61 = !DILocation(line: 79, column: 27, scope: !26, inlinedAt: !62)
!62 = distinct !DILocation(line: 14, column: 28, scope: !58)
!63 = !DILocation(line: 14, column: 26, scope: !58)
!64 = !DILocation(line: 66, column: 27, scope: !30, inlinedAt: !65)
!65 = distinct !DILocation(line: 15, column: 16, scope: !58)
!66 = !DILocation(line: 15, column: 27, scope: !58)
!67 = !DILocation(line: 53, column: 27, scope: !16, inlinedAt: !68)
!68 = distinct !DILocation(line: 15, column: 42, scope: !58)
!69 = !DILocation(line: 15, column: 40, scope: !58)
!70 = !DILocation(line: 15, column: 57, scope: !58)
!71 = !DILocation(line: 15, column: 3, scope: !58)
!72 = !DILocation(line: 17, column: 1, scope: !58)
!73 = !DILocation(line: 16, column: 21, scope: !58)
!74 = !DILocation(line: 16, column: 16, scope: !58)
!75 = !DILocation(line: 547, column: 10, scope: !43, inlinedAt: !76)
!76 = distinct !DILocation(line: 112, column: 10, scope: !46, inlinedAt: !77)
!77 = distinct !DILocation(line: 16, column: 5, scope: !58)
!78 = !DILocation(line: 15, column: 64, scope: !58)
!79 = distinct !{!79, !71, !80, !52}
!80 = !DILocation(line: 16, column: 32, scope: !58)
