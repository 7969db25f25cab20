; Divergence copies: the header of each loop drains only the registers added
; to in its own loop, with a visit counter of its own (passes/DivergenceMeasures.cpp,
; drainBeforeOverflow). Two loops one after the other, each with a branch
; on its data (so their figures go to registers, 9 per loop; each loop's
; header is counted at its preheader, UniformLoops::countedHeader): each
; header's drain adds 9 registers, not the copy's 18 (a drain of every
; register at every header made the code grow with loops x registers). The
; IR is
; clang's -O2 output for:
;   __global__ void two_loops(float *a, int n, int m) {
;     int t = threadIdx.x;
;     for (int i = 0; i < n; ++i)
;       if (a[i * 32 + t] > 0.0f) a[i * 32 + t] = 1.0f;
;     for (int j = 0; j < m; ++j)
;       if (a[j * 64 + t] < 0.0f) a[j * 64 + t] = 2.0f;
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rows-loops=0 -S %s 2>/dev/null | FileCheck %s

; CHECK-LABEL: define {{.*}} @_Z9two_loopsPfii__pasta_div(
; CHECK: icmp uge i32 %{{[0-9]+}}, 2796202
; CHECK-COUNT-9: call void @__pasta_div_add(
; CHECK-NOT: call void @__pasta_div_add(
; CHECK: store i32 0, ptr %pasta.div.visits,
; CHECK: icmp uge i32 %{{[0-9]+}}, 2796202
; CHECK-COUNT-9: call void @__pasta_div_add(
; CHECK-NOT: call void @__pasta_div_add(
; CHECK: store i32 0, ptr %pasta.div.visits{{[0-9]+}},
; CHECK: ret void

; ModuleID = 'two.cu'
source_filename = "two.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z9two_loopsPfii(ptr noundef captures(none) %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %5 = icmp sgt i32 %1, 0, !dbg !22
  br i1 %5, label %6, label %23, !dbg !23

6:                                                ; preds = %3
  %7 = and i32 %1, 1, !dbg !23
  %8 = icmp eq i32 %1, 1, !dbg !23
  br i1 %8, label %13, label %9, !dbg !23

9:                                                ; preds = %6
  %10 = and i32 %1, 2147483646, !dbg !23
  br label %30, !dbg !23

11:                                               ; preds = %49
  %12 = icmp eq i32 %7, 0, !dbg !24
  br i1 %12, label %23, label %13, !dbg !24

13:                                               ; preds = %11, %6
  %14 = phi i32 [ 0, %6 ], [ %50, %11 ]
  %15 = icmp ne i32 %7, 0, !dbg !24
  tail call void @llvm.assume(i1 %15), !dbg !24
  %16 = shl nsw i32 %14, 5, !dbg !25
  %17 = add nuw nsw i32 %16, %4, !dbg !26
  %18 = zext nneg i32 %17 to i64, !dbg !27
  %19 = getelementptr inbounds nuw float, ptr %0, i64 %18, !dbg !27
  %20 = load float, ptr %19, align 4, !dbg !27, !tbaa !28
  %21 = fcmp contract ogt float %20, 0.000000e+00, !dbg !24
  br i1 %21, label %22, label %23, !dbg !24

22:                                               ; preds = %13
  store float 1.000000e+00, ptr %19, align 4, !dbg !30, !tbaa !28
  br label %23, !dbg !31

23:                                               ; preds = %11, %22, %13, %3
  %24 = icmp sgt i32 %2, 0, !dbg !32
  br i1 %24, label %25, label %65, !dbg !33

25:                                               ; preds = %23
  %26 = and i32 %2, 1, !dbg !33
  %27 = icmp eq i32 %2, 1, !dbg !33
  br i1 %27, label %55, label %28, !dbg !33

28:                                               ; preds = %25
  %29 = and i32 %2, 2147483646, !dbg !33
  br label %66, !dbg !33

30:                                               ; preds = %49, %9
  %31 = phi i32 [ 0, %9 ], [ %50, %49 ]
  %32 = phi i32 [ 0, %9 ], [ %51, %49 ]
  %33 = shl nsw i32 %31, 5, !dbg !25
  %34 = add nuw nsw i32 %33, %4, !dbg !26
  %35 = zext nneg i32 %34 to i64, !dbg !27
  %36 = getelementptr inbounds nuw float, ptr %0, i64 %35, !dbg !27
  %37 = load float, ptr %36, align 4, !dbg !27, !tbaa !28
  %38 = fcmp contract ogt float %37, 0.000000e+00, !dbg !24
  br i1 %38, label %39, label %40, !dbg !24

39:                                               ; preds = %30
  store float 1.000000e+00, ptr %36, align 4, !dbg !30, !tbaa !28
  br label %40, !dbg !31

40:                                               ; preds = %30, %39
  %41 = shl i32 %31, 5, !dbg !25
  %42 = or disjoint i32 %41, 32, !dbg !25
  %43 = add nuw nsw i32 %42, %4, !dbg !26
  %44 = zext nneg i32 %43 to i64, !dbg !27
  %45 = getelementptr inbounds nuw float, ptr %0, i64 %44, !dbg !27
  %46 = load float, ptr %45, align 4, !dbg !27, !tbaa !28
  %47 = fcmp contract ogt float %46, 0.000000e+00, !dbg !24
  br i1 %47, label %48, label %49, !dbg !24

48:                                               ; preds = %40
  store float 1.000000e+00, ptr %45, align 4, !dbg !30, !tbaa !28
  br label %49, !dbg !31

49:                                               ; preds = %48, %40
  %50 = add nuw nsw i32 %31, 2, !dbg !34
  %51 = add i32 %32, 2, !dbg !23
  %52 = icmp eq i32 %51, %10, !dbg !23
  br i1 %52, label %11, label %30, !dbg !23, !llvm.loop !35

53:                                               ; preds = %85
  %54 = icmp eq i32 %26, 0, !dbg !38
  br i1 %54, label %65, label %55, !dbg !38

55:                                               ; preds = %53, %25
  %56 = phi i32 [ 0, %25 ], [ %86, %53 ]
  %57 = icmp ne i32 %26, 0, !dbg !38
  tail call void @llvm.assume(i1 %57), !dbg !38
  %58 = shl nsw i32 %56, 6, !dbg !39
  %59 = add nuw nsw i32 %58, %4, !dbg !40
  %60 = zext nneg i32 %59 to i64, !dbg !41
  %61 = getelementptr inbounds nuw float, ptr %0, i64 %60, !dbg !41
  %62 = load float, ptr %61, align 4, !dbg !41, !tbaa !28
  %63 = fcmp contract olt float %62, 0.000000e+00, !dbg !38
  br i1 %63, label %64, label %65, !dbg !38

64:                                               ; preds = %55
  store float 2.000000e+00, ptr %61, align 4, !dbg !42, !tbaa !28
  br label %65, !dbg !43

65:                                               ; preds = %53, %64, %55, %23
  ret void, !dbg !44

66:                                               ; preds = %85, %28
  %67 = phi i32 [ 0, %28 ], [ %86, %85 ]
  %68 = phi i32 [ 0, %28 ], [ %87, %85 ]
  %69 = shl nsw i32 %67, 6, !dbg !39
  %70 = add nuw nsw i32 %69, %4, !dbg !40
  %71 = zext nneg i32 %70 to i64, !dbg !41
  %72 = getelementptr inbounds nuw float, ptr %0, i64 %71, !dbg !41
  %73 = load float, ptr %72, align 4, !dbg !41, !tbaa !28
  %74 = fcmp contract olt float %73, 0.000000e+00, !dbg !38
  br i1 %74, label %75, label %76, !dbg !38

75:                                               ; preds = %66
  store float 2.000000e+00, ptr %72, align 4, !dbg !42, !tbaa !28
  br label %76, !dbg !43

76:                                               ; preds = %66, %75
  %77 = shl i32 %67, 6, !dbg !39
  %78 = or disjoint i32 %77, 64, !dbg !39
  %79 = add nuw nsw i32 %78, %4, !dbg !40
  %80 = zext nneg i32 %79 to i64, !dbg !41
  %81 = getelementptr inbounds nuw float, ptr %0, i64 %80, !dbg !41
  %82 = load float, ptr %81, align 4, !dbg !41, !tbaa !28
  %83 = fcmp contract olt float %82, 0.000000e+00, !dbg !38
  br i1 %83, label %84, label %85, !dbg !38

84:                                               ; preds = %76
  store float 2.000000e+00, ptr %81, align 4, !dbg !42, !tbaa !28
  br label %85, !dbg !43

85:                                               ; preds = %84, %76
  %86 = add nuw nsw i32 %67, 2, !dbg !45
  %87 = add i32 %68, 2, !dbg !33
  %88 = icmp eq i32 %87, %29, !dbg !33
  br i1 %88, label %53, label %66, !dbg !33, !llvm.loop !46
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

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
!7 = !DIFile(filename: "two.cu", directory: "/src")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "two_loops", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 11, scope: !15)
!22 = !DILocation(line: 3, column: 21, scope: !15)
!23 = !DILocation(line: 3, column: 3, scope: !15)
!24 = !DILocation(line: 4, column: 23, scope: !15)
!25 = !DILocation(line: 4, column: 13, scope: !15)
!26 = !DILocation(line: 4, column: 18, scope: !15)
!27 = !DILocation(line: 4, column: 9, scope: !15)
!28 = !{!29, !29, i64 0}
!29 = !{!"float", !12, i64 0}
!30 = !DILocation(line: 5, column: 21, scope: !15)
!31 = !DILocation(line: 5, column: 7, scope: !15)
!32 = !DILocation(line: 6, column: 21, scope: !15)
!33 = !DILocation(line: 6, column: 3, scope: !15)
!34 = !DILocation(line: 3, column: 26, scope: !15)
!35 = distinct !{!35, !23, !36, !37}
!36 = !DILocation(line: 5, column: 23, scope: !15)
!37 = !{!"llvm.loop.mustprogress"}
!38 = !DILocation(line: 7, column: 23, scope: !15)
!39 = !DILocation(line: 7, column: 13, scope: !15)
!40 = !DILocation(line: 7, column: 18, scope: !15)
!41 = !DILocation(line: 7, column: 9, scope: !15)
!42 = !DILocation(line: 8, column: 21, scope: !15)
!43 = !DILocation(line: 8, column: 7, scope: !15)
!44 = !DILocation(line: 9, column: 1, scope: !15)
!45 = !DILocation(line: 6, column: 26, scope: !15)
!46 = distinct !{!46, !33, !47, !37}
!47 = !DILocation(line: 8, column: 23, scope: !15)
