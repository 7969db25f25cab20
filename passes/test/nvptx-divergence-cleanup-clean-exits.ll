; -pasta-div-cleanup-clean-exits (off by default): a divergence copy with
; the clean-exit flag (nvptx-divergence-clean-exits.ll's `expand`, bfs's
; shape) is marked "pasta-div-cleanup", for which the device runtime's
; linking runs the cleanup pipeline after inlining (as PASTA_CLEANUP=div
; does for every copy); `always`, `guarded` and `strided` are not marked,
; nor is anything without the option.
; The IR is that of nvptx-divergence-clean-exits.ll (clang's -O2 output).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-cleanup-clean-exits -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-cleanup-clean-exits -S %s | grep -c '"pasta-div-cleanup"' | FileCheck %s --check-prefix=ONE
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK: define {{.*}}ptx_kernel void @_Z6expandPKiS0_Pii__pasta_div({{.*}}) {{.*}}#[[E:[0-9]+]]
; CHECK: define {{.*}}ptx_kernel void @_Z6alwaysPKiS0_Pi__pasta_div({{.*}}) {{.*}}#[[A:[0-9]+]]
; CHECK: define {{.*}}ptx_kernel void @_Z7guardedPKfPfii__pasta_div({{.*}}) {{.*}}#[[G:[0-9]+]]
; CHECK: define {{.*}}ptx_kernel void @_Z7stridedPKiPii__pasta_div({{.*}}) {{.*}}#[[S:[0-9]+]]
; CHECK: attributes #[[E]] = { {{.*}}"pasta-div-cleanup"
; Three attribute groups hold it: `expand`'s copy's, its uncapped twin's
; and its general copy's (a one-thread stub here: the copy keeps its
; general function with -pasta-div-host-general=0).
; ONE: {{^}}3{{$}}

; OFF-NOT: "pasta-div-cleanup"

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6expandPKiS0_Pii(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef captures(none) %2, i32 noundef %3) local_unnamed_addr #0 !dbg !15 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %7 = mul i32 %5, %6, !dbg !25
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %9 = add i32 %7, %8, !dbg !29
  %10 = icmp slt i32 %9, %3, !dbg !30
  br i1 %10, label %11, label %32, !dbg !31

11:                                               ; preds = %4
  %12 = sext i32 %9 to i64, !dbg !32
  %13 = getelementptr inbounds i32, ptr %2, i64 %12, !dbg !32
  %14 = load i32, ptr %13, align 4, !dbg !32, !tbaa !10
  %15 = icmp eq i32 %14, 0, !dbg !33
  br i1 %15, label %32, label %16, !dbg !31

16:                                               ; preds = %11
  %17 = getelementptr inbounds i32, ptr %0, i64 %12, !dbg !34
  %18 = load i32, ptr %17, align 4, !dbg !34, !tbaa !10
  %19 = getelementptr i8, ptr %17, i64 4
  %20 = load i32, ptr %19, align 4, !dbg !35, !tbaa !10
  %21 = icmp slt i32 %18, %20, !dbg !36
  br i1 %21, label %22, label %32, !dbg !37

22:                                               ; preds = %16, %22
  %23 = phi i32 [ %29, %22 ], [ %18, %16 ]
  %24 = sext i32 %23 to i64, !dbg !38
  %25 = getelementptr inbounds i32, ptr %1, i64 %24, !dbg !38
  %26 = load i32, ptr %25, align 4, !dbg !38, !tbaa !10
  %27 = sext i32 %26 to i64, !dbg !39
  %28 = getelementptr inbounds i32, ptr %2, i64 %27, !dbg !39
  store i32 1, ptr %28, align 4, !dbg !40, !tbaa !10
  %29 = add nsw i32 %23, 1, !dbg !41
  %30 = load i32, ptr %19, align 4, !dbg !35, !tbaa !10
  %31 = icmp slt i32 %29, %30, !dbg !36
  br i1 %31, label %22, label %32, !dbg !37, !llvm.loop !42

32:                                               ; preds = %22, %16, %11, %4
  ret void, !dbg !45
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6alwaysPKiS0_Pi(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !46 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !47
  %5 = zext nneg i32 %4 to i64, !dbg !49
  %6 = getelementptr inbounds nuw i32, ptr %0, i64 %5, !dbg !49
  %7 = load i32, ptr %6, align 4, !dbg !49, !tbaa !10
  %8 = getelementptr i8, ptr %6, i64 4
  br label %9, !dbg !50

9:                                                ; preds = %9, %3
  %10 = phi i32 [ %7, %3 ], [ %16, %9 ], !dbg !51
  %11 = sext i32 %10 to i64, !dbg !52
  %12 = getelementptr inbounds i32, ptr %1, i64 %11, !dbg !52
  %13 = load i32, ptr %12, align 4, !dbg !52, !tbaa !10
  %14 = sext i32 %13 to i64, !dbg !53
  %15 = getelementptr inbounds i32, ptr %2, i64 %14, !dbg !53
  store i32 1, ptr %15, align 4, !dbg !54, !tbaa !10
  %16 = add nsw i32 %10, 1, !dbg !55
  %17 = load i32, ptr %8, align 4, !dbg !56, !tbaa !10
  %18 = icmp slt i32 %16, %17, !dbg !57
  br i1 %18, label %9, label %19, !dbg !58, !llvm.loop !59

19:                                               ; preds = %9
  ret void, !dbg !61
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z7guardedPKfPfii(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 !dbg !62 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !63
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !65
  %7 = mul i32 %5, %6, !dbg !67
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !68
  %9 = add i32 %7, %8, !dbg !70
  %10 = icmp slt i32 %9, %2, !dbg !71
  br i1 %10, label %11, label %75, !dbg !71

11:                                               ; preds = %4
  %12 = icmp sgt i32 %3, 0, !dbg !72
  br i1 %12, label %13, label %37, !dbg !73

13:                                               ; preds = %11
  %14 = and i32 %3, 3, !dbg !73
  %15 = icmp ult i32 %3, 4, !dbg !73
  br i1 %15, label %20, label %16, !dbg !73

16:                                               ; preds = %13
  %17 = and i32 %3, 2147483644, !dbg !73
  br label %41, !dbg !73

18:                                               ; preds = %41
  %19 = icmp eq i32 %14, 0, !dbg !73
  br i1 %19, label %37, label %20, !dbg !73

20:                                               ; preds = %18, %13
  %21 = phi i32 [ 0, %13 ], [ %72, %18 ]
  %22 = phi float [ 0.000000e+00, %13 ], [ %71, %18 ]
  %23 = icmp ne i32 %14, 0, !dbg !73
  tail call void @llvm.assume(i1 %23), !dbg !73
  br label %24, !dbg !73

24:                                               ; preds = %24, %20
  %25 = phi i32 [ %34, %24 ], [ %21, %20 ]
  %26 = phi float [ %33, %24 ], [ %22, %20 ]
  %27 = phi i32 [ %35, %24 ], [ 0, %20 ]
  %28 = mul nsw i32 %25, %2, !dbg !74
  %29 = add nsw i32 %28, %9, !dbg !75
  %30 = sext i32 %29 to i64, !dbg !76
  %31 = getelementptr inbounds float, ptr %0, i64 %30, !dbg !76
  %32 = load float, ptr %31, align 4, !dbg !76, !tbaa !77
  %33 = fadd contract float %26, %32, !dbg !79
  %34 = add nuw nsw i32 %25, 1, !dbg !80
  %35 = add i32 %27, 1, !dbg !73
  %36 = icmp eq i32 %35, %14, !dbg !73
  br i1 %36, label %37, label %24, !dbg !73, !llvm.loop !81

37:                                               ; preds = %18, %24, %11
  %38 = phi float [ 0.000000e+00, %11 ], [ %71, %18 ], [ %33, %24 ], !dbg !83
  %39 = sext i32 %9 to i64, !dbg !84
  %40 = getelementptr inbounds float, ptr %1, i64 %39, !dbg !84
  store float %38, ptr %40, align 4, !dbg !85, !tbaa !77
  br label %75, !dbg !86

41:                                               ; preds = %41, %16
  %42 = phi i32 [ 0, %16 ], [ %72, %41 ]
  %43 = phi float [ 0.000000e+00, %16 ], [ %71, %41 ]
  %44 = phi i32 [ 0, %16 ], [ %73, %41 ]
  %45 = mul nsw i32 %42, %2, !dbg !74
  %46 = add nsw i32 %45, %9, !dbg !75
  %47 = sext i32 %46 to i64, !dbg !76
  %48 = getelementptr inbounds float, ptr %0, i64 %47, !dbg !76
  %49 = load float, ptr %48, align 4, !dbg !76, !tbaa !77
  %50 = fadd contract float %43, %49, !dbg !79
  %51 = or disjoint i32 %42, 1, !dbg !80
  %52 = mul nsw i32 %51, %2, !dbg !74
  %53 = add nsw i32 %52, %9, !dbg !75
  %54 = sext i32 %53 to i64, !dbg !76
  %55 = getelementptr inbounds float, ptr %0, i64 %54, !dbg !76
  %56 = load float, ptr %55, align 4, !dbg !76, !tbaa !77
  %57 = fadd contract float %50, %56, !dbg !79
  %58 = or disjoint i32 %42, 2, !dbg !80
  %59 = mul nsw i32 %58, %2, !dbg !74
  %60 = add nsw i32 %59, %9, !dbg !75
  %61 = sext i32 %60 to i64, !dbg !76
  %62 = getelementptr inbounds float, ptr %0, i64 %61, !dbg !76
  %63 = load float, ptr %62, align 4, !dbg !76, !tbaa !77
  %64 = fadd contract float %57, %63, !dbg !79
  %65 = or disjoint i32 %42, 3, !dbg !80
  %66 = mul nsw i32 %65, %2, !dbg !74
  %67 = add nsw i32 %66, %9, !dbg !75
  %68 = sext i32 %67 to i64, !dbg !76
  %69 = getelementptr inbounds float, ptr %0, i64 %68, !dbg !76
  %70 = load float, ptr %69, align 4, !dbg !76, !tbaa !77
  %71 = fadd contract float %64, %70, !dbg !79
  %72 = add nuw nsw i32 %42, 4, !dbg !80
  %73 = add i32 %44, 4, !dbg !73
  %74 = icmp eq i32 %73, %17, !dbg !73
  br i1 %74, label %18, label %41, !dbg !73, !llvm.loop !87

75:                                               ; preds = %37, %4
  ret void, !dbg !89
}

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z7stridedPKiPii(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !90 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !91
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !93
  %6 = mul i32 %4, %5, !dbg !95
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !96
  %8 = add i32 %6, %7, !dbg !98
  %9 = icmp slt i32 %8, %2, !dbg !99
  br i1 %9, label %10, label %13, !dbg !100

10:                                               ; preds = %3
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %12 = mul i32 %11, %5
  br label %14, !dbg !100

13:                                               ; preds = %14, %3
  ret void, !dbg !101

14:                                               ; preds = %10, %14
  %15 = phi i32 [ %8, %10 ], [ %21, %14 ]
  %16 = sext i32 %15 to i64, !dbg !102
  %17 = getelementptr inbounds i32, ptr %0, i64 %16, !dbg !102
  %18 = load i32, ptr %17, align 4, !dbg !102, !tbaa !10
  %19 = shl nsw i32 %18, 1, !dbg !103
  %20 = getelementptr inbounds i32, ptr %1, i64 %16, !dbg !104
  store i32 %19, ptr %20, align 4, !dbg !105, !tbaa !10
  %21 = add i32 %15, %12, !dbg !106
  %22 = icmp slt i32 %21, %2, !dbg !99
  br i1 %22, label %14, label %13, !dbg !100, !llvm.loop !107
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #1

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
!7 = !DIFile(filename: "clean.cu", directory: "/work")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "expand", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
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
!31 = !DILocation(line: 3, column: 13, scope: !15)
!32 = !DILocation(line: 3, column: 16, scope: !15)
!33 = !DILocation(line: 3, column: 23, scope: !15)
!34 = !DILocation(line: 4, column: 18, scope: !15)
!35 = !DILocation(line: 4, column: 30, scope: !15)
!36 = !DILocation(line: 4, column: 28, scope: !15)
!37 = !DILocation(line: 4, column: 5, scope: !15)
!38 = !DILocation(line: 5, column: 11, scope: !15)
!39 = !DILocation(line: 5, column: 7, scope: !15)
!40 = !DILocation(line: 5, column: 19, scope: !15)
!41 = !DILocation(line: 4, column: 43, scope: !15)
!42 = distinct !{!42, !37, !43, !44}
!43 = !DILocation(line: 5, column: 21, scope: !15)
!44 = !{!"llvm.loop.mustprogress"}
!45 = !DILocation(line: 7, column: 1, scope: !15)
!46 = distinct !DISubprogram(name: "always", scope: !7, file: !7, line: 8, type: !16, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!47 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !48)
!48 = distinct !DILocation(line: 9, column: 11, scope: !46)
!49 = !DILocation(line: 10, column: 11, scope: !46)
!50 = !DILocation(line: 11, column: 3, scope: !46)
!51 = !DILocation(line: 0, scope: !46)
!52 = !DILocation(line: 12, column: 9, scope: !46)
!53 = !DILocation(line: 12, column: 5, scope: !46)
!54 = !DILocation(line: 12, column: 17, scope: !46)
!55 = !DILocation(line: 13, column: 6, scope: !46)
!56 = !DILocation(line: 14, column: 16, scope: !46)
!57 = !DILocation(line: 14, column: 14, scope: !46)
!58 = !DILocation(line: 14, column: 3, scope: !46)
!59 = distinct !{!59, !50, !60, !44}
!60 = !DILocation(line: 14, column: 26, scope: !46)
!61 = !DILocation(line: 15, column: 1, scope: !46)
!62 = distinct !DISubprogram(name: "guarded", scope: !7, file: !7, line: 16, type: !16, scopeLine: 16, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!63 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !64)
!64 = distinct !DILocation(line: 17, column: 11, scope: !62)
!65 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !66)
!66 = distinct !DILocation(line: 17, column: 24, scope: !62)
!67 = !DILocation(line: 17, column: 22, scope: !62)
!68 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !69)
!69 = distinct !DILocation(line: 17, column: 37, scope: !62)
!70 = !DILocation(line: 17, column: 35, scope: !62)
!71 = !DILocation(line: 18, column: 9, scope: !62)
!72 = !DILocation(line: 20, column: 23, scope: !62)
!73 = !DILocation(line: 20, column: 5, scope: !62)
!74 = !DILocation(line: 21, column: 17, scope: !62)
!75 = !DILocation(line: 21, column: 21, scope: !62)
!76 = !DILocation(line: 21, column: 12, scope: !62)
!77 = !{!78, !78, i64 0}
!78 = !{!"float", !12, i64 0}
!79 = !DILocation(line: 21, column: 9, scope: !62)
!80 = !DILocation(line: 20, column: 29, scope: !62)
!81 = distinct !{!81, !82}
!82 = !{!"llvm.loop.unroll.disable"}
!83 = !DILocation(line: 0, scope: !62)
!84 = !DILocation(line: 22, column: 5, scope: !62)
!85 = !DILocation(line: 22, column: 12, scope: !62)
!86 = !DILocation(line: 23, column: 3, scope: !62)
!87 = distinct !{!87, !73, !88, !44}
!88 = !DILocation(line: 21, column: 24, scope: !62)
!89 = !DILocation(line: 24, column: 1, scope: !62)
!90 = distinct !DISubprogram(name: "strided", scope: !7, file: !7, line: 25, type: !16, scopeLine: 25, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!91 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !92)
!92 = distinct !DILocation(line: 26, column: 16, scope: !90)
!93 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !94)
!94 = distinct !DILocation(line: 26, column: 29, scope: !90)
!95 = !DILocation(line: 26, column: 27, scope: !90)
!96 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !97)
!97 = distinct !DILocation(line: 26, column: 42, scope: !90)
!98 = !DILocation(line: 26, column: 40, scope: !90)
!99 = !DILocation(line: 26, column: 57, scope: !90)
!100 = !DILocation(line: 26, column: 3, scope: !90)
!101 = !DILocation(line: 28, column: 1, scope: !90)
!102 = !DILocation(line: 27, column: 14, scope: !90)
!103 = !DILocation(line: 27, column: 20, scope: !90)
!104 = !DILocation(line: 27, column: 5, scope: !90)
!105 = !DILocation(line: 27, column: 12, scope: !90)
!106 = !DILocation(line: 26, column: 64, scope: !90)
!107 = distinct !{!107, !100, !108, !44}
!108 = !DILocation(line: 27, column: 22, scope: !90)
