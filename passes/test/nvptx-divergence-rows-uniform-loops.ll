; Bodies for rows of 32 (and 16) with loops, by default, for a copy whose
; loops are all uniform (every branch in them warp-uniform), that calls no
; function with a body and whose loops measure nothing in their trips
; (each group in a loop measured once per loop entry, or never:
; CopyMeasures::rowsInLoops, -pasta-div-rows-uniform-loops): uloop's load
; and store repeat in its uniform loop and take __pasta_div_access_row32 at
; its preheader in a body for rows of 32, the copy capped at 40 (its
; general function out of the body); matmul_tiled's copy so ran 1.30x the
; plain kernel on an H200 against 1.83x at 64 registers, profiles equal.
; dloop (a lane test in its loop: a loop that is not uniform) and gloop (a
; uniform loop whose load's address is data, measured in every trip) keep
; one body at 64, as every copy with loops did before (fails with main's
; plugin: uloop had no body). -pasta-div-rows-uniform-loops=0 gives uloop
; none (OFF); -pasta-div-rows-loops gives every copy its bodies (ALL).
; From clang -O2 -gline-tables-only --cuda-device-only of:
;   __global__ void uloop(float *a, int n) {
;     int t = threadIdx.x;
;   #pragma unroll 1
;     for (int i = 0; i < n; ++i)
;       a[i * 32 + t] += 1.0f;
;   }
;   __global__ void dloop(float *a, int n) {
;     int t = threadIdx.x;
;   #pragma unroll 1
;     for (int i = 0; i < n; ++i)
;       if (t & 1)
;         a[i * 32 + t] += 1.0f;
;   }
;   __global__ void gloop(float *a, const int *idx, int n) {
;     int t = threadIdx.x;
;     float s = 0.0f;
;   #pragma unroll 1
;     for (int i = 0; i < n; ++i)
;       s += a[idx[i * 32 + t]];
;     a[t] = s;
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-rows-uniform-loops=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-rows-loops -S %s | FileCheck %s --check-prefix=ALL

; CHECK-LABEL: define {{.*}} @_Z5uloopPfi__pasta_div(
; CHECK-SAME: #[[CAP40:[0-9]+]]
; CHECK: %pasta.div.rows32 = icmp eq i32 %{{[0-9]+}}, 32
; CHECK: call void @_Z5uloopPfi__pasta_div_general(
; CHECK: pasta.div.body32:
; CHECK-NOT: {{@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: .preheader:
; CHECK: call i32 @__pasta_div_access_row32(
; CHECK-NOT: {{@__pasta_div_access_lanes|@__pasta_div_access\(|_general}}
; CHECK: {{^}$}}
; CHECK-LABEL: define {{.*}} @_Z5dloopPfi__pasta_div(
; CHECK-SAME: #[[CAP64:[0-9]+]]
; CHECK-NOT: {{pasta.div.body32|_general}}
; CHECK: {{^}$}}
; CHECK-LABEL: define {{.*}} @_Z5gloopPfPKii__pasta_div(
; CHECK-SAME: #[[CAP64]]
; CHECK-NOT: {{pasta.div.body32|_general}}
; CHECK: {{^}$}}
; CHECK-DAG: attributes #[[CAP40]] = { {{.*}}"nvvm.maxnreg"="40"
; CHECK-DAG: attributes #[[CAP64]] = { {{.*}}"nvvm.maxnreg"="64"

; OFF-LABEL: define {{.*}} @_Z5uloopPfi__pasta_div(
; OFF-SAME: #[[CAP64:[0-9]+]]
; OFF-NOT: {{pasta.div.body32|_general}}
; OFF: {{^}$}}
; OFF: attributes #[[CAP64]] = { {{.*}}"nvvm.maxnreg"="64"

; ALL-LABEL: define {{.*}} @_Z5dloopPfi__pasta_div(
; ALL: pasta.div.body32:
; ALL-LABEL: define {{.*}} @_Z5gloopPfPKii__pasta_div(
; ALL: pasta.div.body32:
source_filename = "rul.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5uloopPfi(ptr noundef captures(none) %0, i32 noundef %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %4 = icmp sgt i32 %1, 0, !dbg !22
  br i1 %4, label %6, label %5, !dbg !23

5:                                                ; preds = %6, %2
  ret void, !dbg !24

6:                                                ; preds = %2, %6
  %7 = phi i32 [ %14, %6 ], [ 0, %2 ]
  %8 = shl nsw i32 %7, 5, !dbg !25
  %9 = add nuw nsw i32 %8, %3, !dbg !26
  %10 = zext nneg i32 %9 to i64, !dbg !27
  %11 = getelementptr inbounds nuw float, ptr %0, i64 %10, !dbg !27
  %12 = load float, ptr %11, align 4, !dbg !28, !tbaa !29
  %13 = fadd contract float %12, 1.000000e+00, !dbg !28
  store float %13, ptr %11, align 4, !dbg !28, !tbaa !29
  %14 = add nuw nsw i32 %7, 1, !dbg !31
  %15 = icmp eq i32 %14, %1, !dbg !22
  br i1 %15, label %5, label %6, !dbg !23, !llvm.loop !32
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5dloopPfi(ptr noundef captures(none) %0, i32 noundef %1) local_unnamed_addr #0 !dbg !36 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !37
  %4 = icmp sgt i32 %1, 0, !dbg !39
  br i1 %4, label %5, label %8, !dbg !40

5:                                                ; preds = %2
  %6 = and i32 %3, 1
  %7 = icmp eq i32 %6, 0
  br label %9, !dbg !40

8:                                                ; preds = %18, %2
  ret void, !dbg !41

9:                                                ; preds = %5, %18
  %10 = phi i32 [ 0, %5 ], [ %19, %18 ]
  br i1 %7, label %18, label %11, !dbg !42

11:                                               ; preds = %9
  %12 = shl nsw i32 %10, 5
  %13 = add nuw nsw i32 %12, %3
  %14 = zext nneg i32 %13 to i64
  %15 = getelementptr inbounds nuw float, ptr %0, i64 %14
  %16 = load float, ptr %15, align 4, !dbg !43, !tbaa !29
  %17 = fadd contract float %16, 1.000000e+00, !dbg !43
  store float %17, ptr %15, align 4, !dbg !43, !tbaa !29
  br label %18, !dbg !44

18:                                               ; preds = %9, %11
  %19 = add nuw nsw i32 %10, 1, !dbg !45
  %20 = icmp eq i32 %19, %1, !dbg !39
  br i1 %20, label %8, label %9, !dbg !40, !llvm.loop !46
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5gloopPfPKii(ptr noundef captures(none) %0, ptr noundef readonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !48 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !49
  %5 = icmp sgt i32 %2, 0, !dbg !51
  br i1 %5, label %10, label %6, !dbg !52

6:                                                ; preds = %10, %3
  %7 = phi float [ 0.000000e+00, %3 ], [ %21, %10 ], !dbg !53
  %8 = zext nneg i32 %4 to i64, !dbg !54
  %9 = getelementptr inbounds nuw float, ptr %0, i64 %8, !dbg !54
  store float %7, ptr %9, align 4, !dbg !55, !tbaa !29
  ret void, !dbg !56

10:                                               ; preds = %3, %10
  %11 = phi i32 [ %22, %10 ], [ 0, %3 ]
  %12 = phi float [ %21, %10 ], [ 0.000000e+00, %3 ]
  %13 = shl nsw i32 %11, 5, !dbg !57
  %14 = add nuw nsw i32 %13, %4, !dbg !58
  %15 = zext nneg i32 %14 to i64, !dbg !59
  %16 = getelementptr inbounds nuw i32, ptr %1, i64 %15, !dbg !59
  %17 = load i32, ptr %16, align 4, !dbg !59, !tbaa !10
  %18 = sext i32 %17 to i64, !dbg !60
  %19 = getelementptr inbounds float, ptr %0, i64 %18, !dbg !60
  %20 = load float, ptr %19, align 4, !dbg !60, !tbaa !29
  %21 = fadd contract float %12, %20, !dbg !61
  %22 = add nuw nsw i32 %11, 1, !dbg !62
  %23 = icmp eq i32 %22, %2, !dbg !51
  br i1 %23, label %6, label %10, !dbg !52, !llvm.loop !63
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "rul.cu", directory: "/src")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "uloop", scope: !7, file: !7, line: 2, type: !16, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 3, column: 11, scope: !15)
!22 = !DILocation(line: 5, column: 21, scope: !15)
!23 = !DILocation(line: 5, column: 3, scope: !15)
!24 = !DILocation(line: 7, column: 1, scope: !15)
!25 = !DILocation(line: 6, column: 9, scope: !15)
!26 = !DILocation(line: 6, column: 14, scope: !15)
!27 = !DILocation(line: 6, column: 5, scope: !15)
!28 = !DILocation(line: 6, column: 19, scope: !15)
!29 = !{!30, !30, i64 0}
!30 = !{!"float", !12, i64 0}
!31 = !DILocation(line: 5, column: 26, scope: !15)
!32 = distinct !{!32, !23, !33, !34, !35}
!33 = !DILocation(line: 6, column: 22, scope: !15)
!34 = !{!"llvm.loop.mustprogress"}
!35 = !{!"llvm.loop.unroll.disable"}
!36 = distinct !DISubprogram(name: "dloop", scope: !7, file: !7, line: 9, type: !16, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!37 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !38)
!38 = distinct !DILocation(line: 10, column: 11, scope: !36)
!39 = !DILocation(line: 12, column: 21, scope: !36)
!40 = !DILocation(line: 12, column: 3, scope: !36)
!41 = !DILocation(line: 15, column: 1, scope: !36)
!42 = !DILocation(line: 13, column: 9, scope: !36)
!43 = !DILocation(line: 14, column: 21, scope: !36)
!44 = !DILocation(line: 14, column: 7, scope: !36)
!45 = !DILocation(line: 12, column: 26, scope: !36)
!46 = distinct !{!46, !40, !47, !34, !35}
!47 = !DILocation(line: 14, column: 24, scope: !36)
!48 = distinct !DISubprogram(name: "gloop", scope: !7, file: !7, line: 17, type: !16, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!49 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !50)
!50 = distinct !DILocation(line: 18, column: 11, scope: !48)
!51 = !DILocation(line: 21, column: 21, scope: !48)
!52 = !DILocation(line: 21, column: 3, scope: !48)
!53 = !DILocation(line: 0, scope: !48)
!54 = !DILocation(line: 23, column: 3, scope: !48)
!55 = !DILocation(line: 23, column: 8, scope: !48)
!56 = !DILocation(line: 24, column: 1, scope: !48)
!57 = !DILocation(line: 22, column: 18, scope: !48)
!58 = !DILocation(line: 22, column: 23, scope: !48)
!59 = !DILocation(line: 22, column: 12, scope: !48)
!60 = !DILocation(line: 22, column: 10, scope: !48)
!61 = !DILocation(line: 22, column: 7, scope: !48)
!62 = !DILocation(line: 21, column: 26, scope: !48)
!63 = distinct !{!63, !52, !64, !34, !35}
!64 = !DILocation(line: 22, column: 27, scope: !48)
