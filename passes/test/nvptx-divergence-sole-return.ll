; A kernel's sole return, which every thread of a launch runs once, is
; measured in every warp where a divergent loop lies before it (bfs's
; edges of its node: `expand`): its warp executions and lanes (two `red`s
; a warp, though most warps, holding no frontier node, come to it whole).
; Every warp starts with lane 0 and exactly one group of its lanes at the
; return holds it, so the return's warp executions are the launch's warps
; plus the groups without lane 0, which alone add
; (__pasta_div_return_add: passes/DivergencePlan.cpp, soleReturn), and its
; lanes the launch's threads: read-back derives both. Not where a thread
; may end before the return (`trapping`: __trap, then `unreachable`): its
; return stays measured. -pasta-div-derive-returns=0 measures every return.
; The IR is clang's -O2 output for (sole_return.cu):
;   __device__ __noinline__ void visit(int *level, int v, int depth) {
;     if (level[v] < 0) atomicCAS(&level[v], -1, depth + 1);
;   }
;   __global__ void expand(const int *row_ptr, const int *cols, int *frontier,
;                          int *level, int n, int depth) {
;     int u = blockIdx.x * blockDim.x + threadIdx.x;
;     if (u < n && frontier[u] != 0) {
;       frontier[u] = 0;
;       int end = row_ptr[u + 1];
;       for (int e = row_ptr[u]; e < end; e++) visit(level, cols[e], depth);
;     }
;   }
;   __global__ void trapping(const int *row_ptr, int *out, int n) {
;     int u = blockIdx.x * blockDim.x + threadIdx.x;
;     if (u < n && out[u] != 0) {
;       if (out[u] < 0) __trap();
;       int end = row_ptr[u + 1];
;       for (int e = row_ptr[u]; e < end; e++) out[e] += 1;
;     }
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-derive-returns=0 -S %s | FileCheck %s --check-prefix=OFF
; With `visit` in another file (a -fgpu-rdc build: a declaration here, whose
; body may end the thread), expand's return stays measured too; PASTA's own
; helpers and printf are known to return.
; RUN: sed -e 's/tail call void @_Z5visitPiii(/tail call void @ext_visit(/' -e '$a declare void @ext_visit(ptr, i32, i32)' %s > %t.rdc.ll
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %t.rdc.ll | FileCheck %s --check-prefix=RDC
; RDC-LABEL: define {{.*}}ptx_kernel void @_Z6expandPKiS0_PiS1_ii__pasta_div(
; RDC-NOT: call void @__pasta_div_return_add
; RDC: ret void
; RDC-NEXT: }

; The return block: the groups without lane 0 add, nothing else of it.
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6expandPKiS0_PiS1_ii__pasta_div(
; CHECK: {{^}}[[RET:[0-9]+]]:{{.*}}preds = {{.*}}%.loopexit, 
; CHECK-NEXT: %pasta.count
; CHECK-NOT: __pasta_div_block_add
; CHECK: %[[SLOT:[0-9]+]] = getelementptr inbounds i64, ptr addrspace(1) %{{[0-9]+}}, i32 {{[0-9]+}}
; CHECK-NEXT: call void @__pasta_div_return_add(ptr addrspace(1) %[[SLOT]])
; CHECK-NOT: __pasta_div_block_add
; CHECK: ret void
; A thread may end before it: measured.
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z8trappingPKiPii__pasta_div(
; CHECK-NOT: call void @__pasta_div_return_add
; CHECK: call void @__pasta_div_block_add(ptr addrspace(1) %{{[0-9]+}}, ptr addrspace(1) %{{[0-9]+}}, i32 1)
; CHECK-NOT: call void @__pasta_div_return_add
; CHECK: ret void
; A device function's return: its callers' lanes, not a launch's.
; CHECK-LABEL: define internal { i64 } @_Z5visitPiii__pasta_callee__pasta_div(
; CHECK-NOT: call void @__pasta_div_return_add
; CHECK: ret

; OFF-NOT: call void @__pasta_div_return_add

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z5visitPiii(ptr noundef captures(none) %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = sext i32 %1 to i64, !dbg !18
  %5 = getelementptr inbounds i32, ptr %0, i64 %4, !dbg !18
  %6 = load i32, ptr %5, align 4, !dbg !18, !tbaa !10
  %7 = icmp slt i32 %6, 0, !dbg !19
  br i1 %7, label %8, label %11, !dbg !19

8:                                                ; preds = %3
  %9 = add nsw i32 %2, 1
  %10 = cmpxchg ptr %5, i32 -1, i32 %9 seq_cst seq_cst, align 4, !dbg !20
  br label %11, !dbg !27

11:                                               ; preds = %8, %3
  ret void, !dbg !28
}

; Function Attrs: mustprogress nofree noinline norecurse nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z6expandPKiS0_PiS1_ii(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef captures(none) %2, ptr noundef captures(none) %3, i32 noundef %4, i32 noundef %5) local_unnamed_addr #1 !dbg !29 {
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !30
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !34
  %9 = mul i32 %7, %8, !dbg !37
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !38
  %11 = add i32 %9, %10, !dbg !41
  %12 = icmp slt i32 %11, %4, !dbg !42
  br i1 %12, label %13, label %60, !dbg !43

13:                                               ; preds = %6
  %14 = sext i32 %11 to i64, !dbg !44
  %15 = getelementptr inbounds i32, ptr %2, i64 %14, !dbg !44
  %16 = load i32, ptr %15, align 4, !dbg !44, !tbaa !10
  %17 = icmp eq i32 %16, 0, !dbg !45
  br i1 %17, label %60, label %18, !dbg !43

18:                                               ; preds = %13
  store i32 0, ptr %15, align 4, !dbg !46, !tbaa !10
  %19 = getelementptr i32, ptr %0, i64 %14, !dbg !47
  %20 = getelementptr i8, ptr %19, i64 4, !dbg !47
  %21 = load i32, ptr %20, align 4, !dbg !47, !tbaa !10
  %22 = load i32, ptr %19, align 4, !dbg !48, !tbaa !10
  %23 = icmp slt i32 %22, %21, !dbg !49
  br i1 %23, label %24, label %60, !dbg !50

24:                                               ; preds = %18
  %25 = sub i32 %21, %22, !dbg !50
  %26 = and i32 %25, 3, !dbg !50
  %27 = icmp eq i32 %26, 0, !dbg !50
  br i1 %27, label %37, label %28, !dbg !50

28:                                               ; preds = %24, %28
  %29 = phi i32 [ %34, %28 ], [ %22, %24 ]
  %30 = phi i32 [ %35, %28 ], [ 0, %24 ]
  %31 = sext i32 %29 to i64, !dbg !51
  %32 = getelementptr inbounds i32, ptr %1, i64 %31, !dbg !51
  %33 = load i32, ptr %32, align 4, !dbg !51, !tbaa !10
  tail call void @_Z5visitPiii(ptr noundef %3, i32 noundef %33, i32 noundef %5) #5, !dbg !52
  %34 = add nsw i32 %29, 1, !dbg !53
  %35 = add i32 %30, 1, !dbg !50
  %36 = icmp eq i32 %35, %26, !dbg !50
  br i1 %36, label %37, label %28, !dbg !50, !llvm.loop !54

37:                                               ; preds = %28, %24
  %38 = phi i32 [ %22, %24 ], [ %34, %28 ]
  %39 = sub i32 %22, %21, !dbg !50
  %40 = icmp ugt i32 %39, -4, !dbg !50
  br i1 %40, label %60, label %41, !dbg !50

41:                                               ; preds = %37, %41
  %42 = phi i32 [ %58, %41 ], [ %38, %37 ]
  %43 = sext i32 %42 to i64, !dbg !51
  %44 = getelementptr inbounds i32, ptr %1, i64 %43, !dbg !51
  %45 = load i32, ptr %44, align 4, !dbg !51, !tbaa !10
  tail call void @_Z5visitPiii(ptr noundef %3, i32 noundef %45, i32 noundef %5) #5, !dbg !52
  %46 = sext i32 %42 to i64, !dbg !51
  %47 = getelementptr i32, ptr %1, i64 %46, !dbg !51
  %48 = getelementptr i8, ptr %47, i64 4, !dbg !51
  %49 = load i32, ptr %48, align 4, !dbg !51, !tbaa !10
  tail call void @_Z5visitPiii(ptr noundef %3, i32 noundef %49, i32 noundef %5) #5, !dbg !52
  %50 = sext i32 %42 to i64, !dbg !51
  %51 = getelementptr i32, ptr %1, i64 %50, !dbg !51
  %52 = getelementptr i8, ptr %51, i64 8, !dbg !51
  %53 = load i32, ptr %52, align 4, !dbg !51, !tbaa !10
  tail call void @_Z5visitPiii(ptr noundef %3, i32 noundef %53, i32 noundef %5) #5, !dbg !52
  %54 = sext i32 %42 to i64, !dbg !51
  %55 = getelementptr i32, ptr %1, i64 %54, !dbg !51
  %56 = getelementptr i8, ptr %55, i64 12, !dbg !51
  %57 = load i32, ptr %56, align 4, !dbg !51, !tbaa !10
  tail call void @_Z5visitPiii(ptr noundef %3, i32 noundef %57, i32 noundef %5) #5, !dbg !52
  %58 = add nsw i32 %42, 4, !dbg !53
  %59 = icmp eq i32 %58, %21, !dbg !49
  br i1 %59, label %60, label %41, !dbg !50, !llvm.loop !56

60:                                               ; preds = %37, %41, %18, %13, %6
  ret void, !dbg !59
}

; Function Attrs: mustprogress noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: write)
define dso_local ptx_kernel void @_Z8trappingPKiPii(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2) local_unnamed_addr #2 !dbg !60 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !61
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !63
  %6 = mul i32 %4, %5, !dbg !65
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !66
  %8 = add i32 %6, %7, !dbg !68
  %9 = icmp slt i32 %8, %2, !dbg !69
  br i1 %9, label %10, label %65, !dbg !70

10:                                               ; preds = %3
  %11 = sext i32 %8 to i64, !dbg !71
  %12 = getelementptr inbounds i32, ptr %1, i64 %11, !dbg !71
  %13 = load i32, ptr %12, align 4, !dbg !71, !tbaa !10
  %14 = icmp eq i32 %13, 0, !dbg !72
  br i1 %14, label %65, label %15, !dbg !70

15:                                               ; preds = %10
  %16 = icmp slt i32 %13, 0, !dbg !73
  br i1 %16, label %17, label %18, !dbg !73

17:                                               ; preds = %15
  tail call void @llvm.trap(), !dbg !74
  unreachable, !dbg !77

18:                                               ; preds = %15
  %19 = getelementptr i32, ptr %0, i64 %11, !dbg !78
  %20 = getelementptr i8, ptr %19, i64 4, !dbg !78
  %21 = load i32, ptr %20, align 4, !dbg !78, !tbaa !10
  %22 = load i32, ptr %19, align 4, !dbg !79, !tbaa !10
  %23 = icmp slt i32 %22, %21, !dbg !80
  br i1 %23, label %24, label %65, !dbg !81

24:                                               ; preds = %18
  %25 = sub i32 %21, %22, !dbg !81
  %26 = and i32 %25, 3, !dbg !81
  %27 = icmp eq i32 %26, 0, !dbg !81
  br i1 %27, label %38, label %28, !dbg !81

28:                                               ; preds = %24, %28
  %29 = phi i32 [ %35, %28 ], [ %22, %24 ]
  %30 = phi i32 [ %36, %28 ], [ 0, %24 ]
  %31 = sext i32 %29 to i64, !dbg !82
  %32 = getelementptr inbounds i32, ptr %1, i64 %31, !dbg !82
  %33 = load i32, ptr %32, align 4, !dbg !83, !tbaa !10
  %34 = add nsw i32 %33, 1, !dbg !83
  store i32 %34, ptr %32, align 4, !dbg !83, !tbaa !10
  %35 = add nsw i32 %29, 1, !dbg !84
  %36 = add i32 %30, 1, !dbg !81
  %37 = icmp eq i32 %36, %26, !dbg !81
  br i1 %37, label %38, label %28, !dbg !81, !llvm.loop !85

38:                                               ; preds = %28, %24
  %39 = phi i32 [ %22, %24 ], [ %35, %28 ]
  %40 = sub i32 %22, %21, !dbg !81
  %41 = icmp ugt i32 %40, -4, !dbg !81
  br i1 %41, label %65, label %42, !dbg !81

42:                                               ; preds = %38, %42
  %43 = phi i32 [ %63, %42 ], [ %39, %38 ]
  %44 = sext i32 %43 to i64, !dbg !82
  %45 = getelementptr inbounds i32, ptr %1, i64 %44, !dbg !82
  %46 = load i32, ptr %45, align 4, !dbg !83, !tbaa !10
  %47 = add nsw i32 %46, 1, !dbg !83
  store i32 %47, ptr %45, align 4, !dbg !83, !tbaa !10
  %48 = sext i32 %43 to i64, !dbg !82
  %49 = getelementptr i32, ptr %1, i64 %48, !dbg !82
  %50 = getelementptr i8, ptr %49, i64 4, !dbg !82
  %51 = load i32, ptr %50, align 4, !dbg !83, !tbaa !10
  %52 = add nsw i32 %51, 1, !dbg !83
  store i32 %52, ptr %50, align 4, !dbg !83, !tbaa !10
  %53 = sext i32 %43 to i64, !dbg !82
  %54 = getelementptr i32, ptr %1, i64 %53, !dbg !82
  %55 = getelementptr i8, ptr %54, i64 8, !dbg !82
  %56 = load i32, ptr %55, align 4, !dbg !83, !tbaa !10
  %57 = add nsw i32 %56, 1, !dbg !83
  store i32 %57, ptr %55, align 4, !dbg !83, !tbaa !10
  %58 = sext i32 %43 to i64, !dbg !82
  %59 = getelementptr i32, ptr %1, i64 %58, !dbg !82
  %60 = getelementptr i8, ptr %59, i64 12, !dbg !82
  %61 = load i32, ptr %60, align 4, !dbg !83, !tbaa !10
  %62 = add nsw i32 %61, 1, !dbg !83
  store i32 %62, ptr %60, align 4, !dbg !83, !tbaa !10
  %63 = add nsw i32 %43, 4, !dbg !84
  %64 = icmp eq i32 %63, %21, !dbg !80
  br i1 %64, label %65, label %42, !dbg !81, !llvm.loop !86

65:                                               ; preds = %38, %42, %18, %10, %3
  ret void, !dbg !88
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: cold noreturn nounwind memory(inaccessiblemem: write)
declare void @llvm.trap() #4

attributes #0 = { mustprogress nofree noinline norecurse nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #1 = { mustprogress nofree noinline norecurse nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: write) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { cold noreturn nounwind memory(inaccessiblemem: write) }
attributes #5 = { nounwind }

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
!7 = !DIFile(filename: "sole_return.cu", directory: "/tmp")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "visit", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 2, column: 7, scope: !15)
!19 = !DILocation(line: 2, column: 16, scope: !15)
!20 = !DILocation(line: 359, column: 10, scope: !21, inlinedAt: !23)
!21 = distinct !DISubprogram(name: "__iAtomicCAS", scope: !22, file: !22, line: 358, type: !16, scopeLine: 358, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!22 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_device_functions.h", directory: "")
!23 = distinct !DILocation(line: 202, column: 10, scope: !24, inlinedAt: !26)
!24 = distinct !DISubprogram(name: "atomicCAS", scope: !25, file: !25, line: 200, type: !16, scopeLine: 201, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = !DIFile(filename: "/usr/local/cuda/include/device_atomic_functions.hpp", directory: "")
!26 = distinct !DILocation(line: 3, column: 5, scope: !15)
!27 = !DILocation(line: 3, column: 5, scope: !15)
!28 = !DILocation(line: 4, column: 1, scope: !15)
!29 = distinct !DISubprogram(name: "expand", scope: !7, file: !7, line: 6, type: !16, scopeLine: 7, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!30 = !DILocation(line: 66, column: 27, scope: !31, inlinedAt: !33)
!31 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !32, file: !32, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!32 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!33 = distinct !DILocation(line: 8, column: 11, scope: !29)
!34 = !DILocation(line: 79, column: 27, scope: !35, inlinedAt: !36)
!35 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !32, file: !32, line: 79, type: !16, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!36 = distinct !DILocation(line: 8, column: 24, scope: !29)
!37 = !DILocation(line: 8, column: 22, scope: !29)
!38 = !DILocation(line: 53, column: 27, scope: !39, inlinedAt: !40)
!39 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !32, file: !32, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!40 = distinct !DILocation(line: 8, column: 37, scope: !29)
!41 = !DILocation(line: 8, column: 35, scope: !29)
!42 = !DILocation(line: 9, column: 9, scope: !29)
!43 = !DILocation(line: 9, column: 13, scope: !29)
!44 = !DILocation(line: 9, column: 16, scope: !29)
!45 = !DILocation(line: 9, column: 28, scope: !29)
!46 = !DILocation(line: 10, column: 17, scope: !29)
!47 = !DILocation(line: 11, column: 15, scope: !29)
!48 = !DILocation(line: 12, column: 18, scope: !29)
!49 = !DILocation(line: 12, column: 32, scope: !29)
!50 = !DILocation(line: 12, column: 5, scope: !29)
!51 = !DILocation(line: 13, column: 20, scope: !29)
!52 = !DILocation(line: 13, column: 7, scope: !29)
!53 = !DILocation(line: 12, column: 40, scope: !29)
!54 = distinct !{!54, !55}
!55 = !{!"llvm.loop.unroll.disable"}
!56 = distinct !{!56, !50, !57, !58}
!57 = !DILocation(line: 13, column: 34, scope: !29)
!58 = !{!"llvm.loop.mustprogress"}
!59 = !DILocation(line: 15, column: 1, scope: !29)
!60 = distinct !DISubprogram(name: "trapping", scope: !7, file: !7, line: 17, type: !16, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!61 = !DILocation(line: 66, column: 27, scope: !31, inlinedAt: !62)
!62 = distinct !DILocation(line: 18, column: 11, scope: !60)
!63 = !DILocation(line: 79, column: 27, scope: !35, inlinedAt: !64)
!64 = distinct !DILocation(line: 18, column: 24, scope: !60)
!65 = !DILocation(line: 18, column: 22, scope: !60)
!66 = !DILocation(line: 53, column: 27, scope: !39, inlinedAt: !67)
!67 = distinct !DILocation(line: 18, column: 37, scope: !60)
!68 = !DILocation(line: 18, column: 35, scope: !60)
!69 = !DILocation(line: 19, column: 9, scope: !60)
!70 = !DILocation(line: 19, column: 13, scope: !60)
!71 = !DILocation(line: 19, column: 16, scope: !60)
!72 = !DILocation(line: 19, column: 23, scope: !60)
!73 = !DILocation(line: 20, column: 16, scope: !60)
!74 = !DILocation(line: 531, column: 58, scope: !75, inlinedAt: !76)
!75 = distinct !DISubprogram(name: "__trap", scope: !22, file: !22, line: 531, type: !16, scopeLine: 531, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!76 = distinct !DILocation(line: 21, column: 7, scope: !60)
!77 = !DILocation(line: 531, column: 76, scope: !75, inlinedAt: !76)
!78 = !DILocation(line: 22, column: 15, scope: !60)
!79 = !DILocation(line: 23, column: 18, scope: !60)
!80 = !DILocation(line: 23, column: 32, scope: !60)
!81 = !DILocation(line: 23, column: 5, scope: !60)
!82 = !DILocation(line: 24, column: 7, scope: !60)
!83 = !DILocation(line: 24, column: 14, scope: !60)
!84 = !DILocation(line: 23, column: 40, scope: !60)
!85 = distinct !{!85, !55}
!86 = distinct !{!86, !81, !87, !58}
!87 = !DILocation(line: 24, column: 17, scope: !60)
!88 = !DILocation(line: 26, column: 1, scope: !60)
