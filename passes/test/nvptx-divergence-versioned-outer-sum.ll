; A uniform loop versioned whole inside another loop (kmeans' feature loop
; in its cluster loop: nvptx-divergence-versioned-uniform.cu's `assign`)
; added its clone's trips to the block's counter at each clone's exit: a
; lane-0 `red` at every trip of the cluster loop, in every full warp. Its
; trips are summed in a register instead (%pasta.div.ver.sum, zero at the
; entry) and added, then zeroed, where the outermost loop around it is
; left (passes/DivergenceVersioned.cpp, tripsAtOuterExits): one add a warp.
; Off by default (kmeans ran slower with it on an H200); the default adds
; at each clone's exit.
; The IR is clang's -O2 output for that test's kernel.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-versioned-outer-sum=1 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6assignPKfS0_Piiii__pasta_div(
; CHECK: %pasta.div.ver.sum = alloca i64
; CHECK: store i64 0, ptr %pasta.div.ver.sum
; The cluster loop's exit: the sum added once, and zeroed.
; CHECK: {{^}}.loopexit:
; CHECK-NOT: {{^[0-9a-z._]+:}}
; CHECK: %[[SUM:[0-9]+]] = load i64, ptr %pasta.div.ver.sum
; CHECK-NEXT: store i64 0, ptr %pasta.div.ver.sum
; CHECK-NEXT: %[[ROW:[0-9]+]] = call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %[[ROW]], i32 {{[0-9]+}}
; CHECK-NEXT: call void @__pasta_ver_trips_add(ptr addrspace(1) %[[SLOT]], i64 %[[SUM]])
; The clone's exit: into the sum, no add.
; CHECK: {{^}}pasta.div.ver.done:
; CHECK-NEXT: %[[OLD:[0-9]+]] = load i64, ptr %pasta.div.ver.sum
; CHECK-NEXT: %[[N:[0-9]+]] = zext i32 %pasta.div.ver.n to i64
; CHECK-NEXT: %[[NEW:[0-9]+]] = add i64 %[[OLD]], %[[N]]
; CHECK-NEXT: store i64 %[[NEW]], ptr %pasta.div.ver.sum
; CHECK-NEXT: br label
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6assignPKfS0_Piiii__pasta_divu(

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z6assignPKfS0_Piiii__pasta_div(
; OFF-NOT: pasta.div.ver.sum
; OFF: {{^}}pasta.div.ver.done:
; OFF: call void @__pasta_ver_trips_add(
; OFF-LABEL: define {{.*}}ptx_kernel void @_Z6assignPKfS0_Piiii__pasta_divu(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6assignPKfS0_Piiii(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) local_unnamed_addr #0 !dbg !15 {
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %9 = mul i32 %7, %8, !dbg !25
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %11 = add i32 %9, %10, !dbg !29
  %12 = icmp slt i32 %11, %3, !dbg !30
  br i1 %12, label %13, label %87, !dbg !30

13:                                               ; preds = %6
  %14 = icmp sgt i32 %4, 0, !dbg !31
  br i1 %14, label %15, label %28, !dbg !32

15:                                               ; preds = %13
  %16 = icmp sgt i32 %5, 0
  %17 = and i32 %5, 1
  %18 = icmp eq i32 %5, 1
  %19 = and i32 %5, 2147483646
  %20 = icmp eq i32 %17, 0
  %21 = icmp ne i32 %17, 0
  br label %22, !dbg !32

22:                                               ; preds = %15, %48
  %23 = phi i32 [ 0, %15 ], [ %52, %48 ]
  %24 = phi i32 [ 0, %15 ], [ %53, %48 ]
  %25 = phi float [ 0x47EC363CC0000000, %15 ], [ %51, %48 ]
  br i1 %16, label %26, label %48, !dbg !33

26:                                               ; preds = %22
  %27 = mul nuw nsw i32 %24, %5
  br i1 %18, label %33, label %55, !dbg !33

28:                                               ; preds = %48, %13
  %29 = phi i32 [ 0, %13 ], [ %52, %48 ], !dbg !34
  %30 = sext i32 %11 to i64, !dbg !35
  %31 = getelementptr inbounds i32, ptr %2, i64 %30, !dbg !35
  store i32 %29, ptr %31, align 4, !dbg !36, !tbaa !10
  br label %87, !dbg !37

32:                                               ; preds = %55
  br i1 %20, label %48, label %33, !dbg !33

33:                                               ; preds = %32, %26
  %34 = phi i32 [ 0, %26 ], [ %84, %32 ]
  %35 = phi float [ 0.000000e+00, %26 ], [ %83, %32 ]
  tail call void @llvm.assume(i1 %21), !dbg !33
  %36 = mul nsw i32 %34, %3, !dbg !38
  %37 = add nsw i32 %36, %11, !dbg !39
  %38 = sext i32 %37 to i64, !dbg !40
  %39 = getelementptr inbounds float, ptr %0, i64 %38, !dbg !40
  %40 = load float, ptr %39, align 4, !dbg !40, !tbaa !41
  %41 = add nuw nsw i32 %34, %27, !dbg !43
  %42 = zext nneg i32 %41 to i64, !dbg !44
  %43 = getelementptr inbounds nuw float, ptr %1, i64 %42, !dbg !44
  %44 = load float, ptr %43, align 4, !dbg !44, !tbaa !41
  %45 = fsub contract float %40, %44, !dbg !45
  %46 = fmul contract float %45, %45, !dbg !46
  %47 = fadd contract float %35, %46, !dbg !47
  br label %48, !dbg !48

48:                                               ; preds = %33, %32, %22
  %49 = phi float [ 0.000000e+00, %22 ], [ %83, %32 ], [ %47, %33 ], !dbg !34
  %50 = fcmp contract olt float %49, %25, !dbg !48
  %51 = select i1 %50, float %49, float %25, !dbg !48
  %52 = select i1 %50, i32 %24, i32 %23, !dbg !48
  %53 = add nuw nsw i32 %24, 1, !dbg !49
  %54 = icmp eq i32 %53, %4, !dbg !31
  br i1 %54, label %28, label %22, !dbg !32, !llvm.loop !50

55:                                               ; preds = %26, %55
  %56 = phi i32 [ %84, %55 ], [ 0, %26 ]
  %57 = phi float [ %83, %55 ], [ 0.000000e+00, %26 ]
  %58 = phi i32 [ %85, %55 ], [ 0, %26 ]
  %59 = mul nsw i32 %56, %3, !dbg !38
  %60 = add nsw i32 %59, %11, !dbg !39
  %61 = sext i32 %60 to i64, !dbg !40
  %62 = getelementptr inbounds float, ptr %0, i64 %61, !dbg !40
  %63 = load float, ptr %62, align 4, !dbg !40, !tbaa !41
  %64 = add nuw nsw i32 %56, %27, !dbg !43
  %65 = zext nneg i32 %64 to i64, !dbg !44
  %66 = getelementptr inbounds nuw float, ptr %1, i64 %65, !dbg !44
  %67 = load float, ptr %66, align 4, !dbg !44, !tbaa !41
  %68 = fsub contract float %63, %67, !dbg !45
  %69 = fmul contract float %68, %68, !dbg !46
  %70 = fadd contract float %57, %69, !dbg !47
  %71 = or disjoint i32 %56, 1, !dbg !53
  %72 = mul nsw i32 %71, %3, !dbg !38
  %73 = add nsw i32 %72, %11, !dbg !39
  %74 = sext i32 %73 to i64, !dbg !40
  %75 = getelementptr inbounds float, ptr %0, i64 %74, !dbg !40
  %76 = load float, ptr %75, align 4, !dbg !40, !tbaa !41
  %77 = add nuw nsw i32 %71, %27, !dbg !43
  %78 = zext nneg i32 %77 to i64, !dbg !44
  %79 = getelementptr inbounds nuw float, ptr %1, i64 %78, !dbg !44
  %80 = load float, ptr %79, align 4, !dbg !44, !tbaa !41
  %81 = fsub contract float %76, %80, !dbg !45
  %82 = fmul contract float %81, %81, !dbg !46
  %83 = fadd contract float %70, %82, !dbg !47
  %84 = add nuw nsw i32 %56, 2, !dbg !53
  %85 = add i32 %58, 2, !dbg !33
  %86 = icmp eq i32 %85, %19, !dbg !33
  br i1 %86, label %32, label %55, !dbg !33, !llvm.loop !54

87:                                               ; preds = %28, %6
  ret void, !dbg !56
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

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
!7 = !DIFile(filename: "assign.cu", directory: "/tmp")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "assign", scope: !7, file: !7, line: 1, type: !16, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 3, column: 11, scope: !15)
!22 = !DILocation(line: 79, column: 27, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 79, type: !16, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!24 = distinct !DILocation(line: 3, column: 24, scope: !15)
!25 = !DILocation(line: 3, column: 22, scope: !15)
!26 = !DILocation(line: 53, column: 27, scope: !27, inlinedAt: !28)
!27 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!28 = distinct !DILocation(line: 3, column: 37, scope: !15)
!29 = !DILocation(line: 3, column: 35, scope: !15)
!30 = !DILocation(line: 4, column: 9, scope: !15)
!31 = !DILocation(line: 7, column: 23, scope: !15)
!32 = !DILocation(line: 7, column: 5, scope: !15)
!33 = !DILocation(line: 9, column: 7, scope: !15)
!34 = !DILocation(line: 0, scope: !15)
!35 = !DILocation(line: 18, column: 5, scope: !15)
!36 = !DILocation(line: 18, column: 10, scope: !15)
!37 = !DILocation(line: 19, column: 3, scope: !15)
!38 = !DILocation(line: 10, column: 23, scope: !15)
!39 = !DILocation(line: 10, column: 27, scope: !15)
!40 = !DILocation(line: 10, column: 19, scope: !15)
!41 = !{!42, !42, i64 0}
!42 = !{!"float", !12, i64 0}
!43 = !DILocation(line: 10, column: 43, scope: !15)
!44 = !DILocation(line: 10, column: 34, scope: !15)
!45 = !DILocation(line: 10, column: 32, scope: !15)
!46 = !DILocation(line: 11, column: 16, scope: !15)
!47 = !DILocation(line: 11, column: 11, scope: !15)
!48 = !DILocation(line: 13, column: 13, scope: !15)
!49 = !DILocation(line: 7, column: 30, scope: !15)
!50 = distinct !{!50, !32, !51, !52}
!51 = !DILocation(line: 17, column: 5, scope: !15)
!52 = !{!"llvm.loop.mustprogress"}
!53 = !DILocation(line: 9, column: 32, scope: !15)
!54 = distinct !{!54, !33, !55, !52}
!55 = !DILocation(line: 12, column: 7, scope: !15)
!56 = !DILocation(line: 20, column: 1, scope: !15)
