; A group of accesses on several lines measured in a loop whose branch is
; not uniform (nw_tile's anti-diagonal: s[tx][c - 1], s[tx][c],
; s[tx + 1][c - 1] read and s[tx + 1][c] written, a word apart in every
; lane, one per source line) measures into one loop register per figure,
; which the flushes add to each of the four lines' counters
; (DivergenceMeasures.cpp, groupSlot). Before, the helper wrote scratch
; registers that were added to a register per line and figure at every
; execution: eight adds a trip and eight registers held across the loop
; (nw_tile's copy spilled its block count then). -pasta-div-group-registers=0
; restores that (OFF).
; The IR is clang's -O2 -gline-tables-only output for
;   __global__ void diag(int *out, const int *in, int penalty) {
;     __shared__ int s[17][17];
;     int tx = threadIdx.x;
;     s[tx + 1][0] = in[tx];
;     s[0][tx + 1] = in[tx + 16];
;     __syncthreads();
;     for (int m = 0; m < 31; m++) {
;       int c = m - tx + 1;
;       if (c >= 1 && c <= 16) {
;         int d = s[tx][c - 1];
;         int up = s[tx][c] - penalty;
;         int left = s[tx + 1][c - 1] - penalty;
;         s[tx + 1][c] = max(d, max(up, left));
;       }
;       __syncthreads();
;     }
;     out[tx] = s[tx + 1][16];
;   }
; (-pasta-div-cold-general-above=64: the lane-shaped helper as written
; for, not its _cold form: nvptx-divergence-cold-general.ll.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-cold-general-above=64 -pasta-div-narrow-flush-tests=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-group-registers=0 -pasta-div-cold-general-above=64 -S %s | FileCheck %s --check-prefix=OFF

; At the return, each group register goes to four counters, one per line.
; CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKii__pasta_div(
; CHECK: %[[LA:[0-9]+]] = load i32, ptr %pasta.div.group,
; CHECK-NEXT: %[[A:[0-9]+]] = sext i32 %[[LA]] to i64
; CHECK-NEXT: %[[LB:[0-9]+]] = load i32, ptr %[[GB:pasta.div.group[0-9]+]],
; CHECK-NEXT: %[[B:[0-9]+]] = sext i32 %[[LB]] to i64
; CHECK: call i64 @__pasta_flush_is_fast(
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[A]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[B]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[A]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[B]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[A]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[B]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[A]])
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[B]])
; In the loop the helper adds to the two group registers and nothing is
; added after it.
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 64, i32 3, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.group, ptr %pasta.div.none, ptr %pasta.div.none, ptr %[[GB]])
; CHECK-NOT: ptr %pasta.div
; CHECK: call void @llvm.nvvm.barrier

; OFF-LABEL: define {{.*}}ptx_kernel void @_Z4diagPiPKii__pasta_div(
; OFF-NOT: pasta.div.group
; OFF: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 64, i32 3, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %[[T:pasta.div.t[0-9]*]],
; OFF-NEXT: load i32, ptr %[[T]]
; OFF-COUNT-4: store i32 %{{[0-9]+}}, ptr %pasta.div{{[0-9]+}}
; OFF-NOT: pasta.div.group

; ModuleID = 'grp.cu'
source_filename = "grp.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ4diagPiPKiiE1s = internal unnamed_addr addrspace(3) global [17 x [17 x i32]] undef, align 4

; Function Attrs: convergent noinline norecurse nounwind
define dso_local ptx_kernel void @_Z4diagPiPKii(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !dbg !15 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %5 = zext nneg i32 %4 to i64, !dbg !22
  %6 = getelementptr inbounds nuw i32, ptr %1, i64 %5, !dbg !22
  %7 = load i32, ptr %6, align 4, !dbg !22, !tbaa !10
  %8 = add nuw nsw i32 %4, 1, !dbg !23
  %9 = zext nneg i32 %8 to i64, !dbg !24
  %10 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiiE1s to ptr), i64 %9, !dbg !24
  store i32 %7, ptr %10, align 4, !dbg !25, !tbaa !10
  %11 = getelementptr i8, ptr %6, i64 64, !dbg !26
  %12 = load i32, ptr %11, align 4, !dbg !26, !tbaa !10
  %13 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiiE1s to ptr), i64 %9, !dbg !27
  store i32 %12, ptr %13, align 4, !dbg !28, !tbaa !10
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !29
  %14 = getelementptr inbounds nuw [17 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ4diagPiPKiiE1s to ptr), i64 %5
  br label %19, !dbg !30

15:                                               ; preds = %38
  %16 = getelementptr inbounds nuw i8, ptr %10, i64 64, !dbg !31
  %17 = load i32, ptr %16, align 4, !dbg !31, !tbaa !10
  %18 = getelementptr inbounds nuw i32, ptr %0, i64 %5, !dbg !32
  store i32 %17, ptr %18, align 4, !dbg !33, !tbaa !10
  ret void, !dbg !34

19:                                               ; preds = %3, %38
  %20 = phi i32 [ 0, %3 ], [ %39, %38 ]
  %21 = sub nsw i32 %20, %4, !dbg !35
  %22 = icmp ult i32 %21, 16, !dbg !36
  br i1 %22, label %23, label %38, !dbg !36

23:                                               ; preds = %19
  %24 = add nuw nsw i32 %21, 1, !dbg !37
  %25 = zext nneg i32 %21 to i64, !dbg !38
  %26 = getelementptr inbounds nuw i32, ptr %14, i64 %25, !dbg !38
  %27 = load i32, ptr %26, align 4, !dbg !38, !tbaa !10
  %28 = zext nneg i32 %24 to i64, !dbg !39
  %29 = getelementptr inbounds nuw i32, ptr %14, i64 %28, !dbg !39
  %30 = load i32, ptr %29, align 4, !dbg !39, !tbaa !10
  %31 = sub nsw i32 %30, %2, !dbg !40
  %32 = getelementptr inbounds nuw i32, ptr %10, i64 %25, !dbg !41
  %33 = load i32, ptr %32, align 4, !dbg !41, !tbaa !10
  %34 = sub nsw i32 %33, %2, !dbg !42
  %35 = tail call noundef i32 @llvm.smax.i32(i32 %31, i32 %34), !dbg !43
  %36 = tail call noundef i32 @llvm.smax.i32(i32 %27, i32 %35), !dbg !47
  %37 = getelementptr inbounds nuw i32, ptr %10, i64 %28, !dbg !49
  store i32 %36, ptr %37, align 4, !dbg !50, !tbaa !10
  br label %38, !dbg !51

38:                                               ; preds = %23, %19
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !52
  %39 = add nuw nsw i32 %20, 1, !dbg !53
  %40 = icmp eq i32 %39, 31, !dbg !54
  br i1 %40, label %15, label %19, !dbg !30, !llvm.loop !55
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #3

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

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
!7 = !DIFile(filename: "grp.cu", directory: "/tmp/divnw/t")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "diag", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 3, column: 12, scope: !15)
!22 = !DILocation(line: 4, column: 18, scope: !15)
!23 = !DILocation(line: 4, column: 8, scope: !15)
!24 = !DILocation(line: 4, column: 3, scope: !15)
!25 = !DILocation(line: 4, column: 16, scope: !15)
!26 = !DILocation(line: 5, column: 18, scope: !15)
!27 = !DILocation(line: 5, column: 3, scope: !15)
!28 = !DILocation(line: 5, column: 16, scope: !15)
!29 = !DILocation(line: 6, column: 3, scope: !15)
!30 = !DILocation(line: 7, column: 3, scope: !15)
!31 = !DILocation(line: 17, column: 13, scope: !15)
!32 = !DILocation(line: 17, column: 3, scope: !15)
!33 = !DILocation(line: 17, column: 11, scope: !15)
!34 = !DILocation(line: 18, column: 1, scope: !15)
!35 = !DILocation(line: 8, column: 15, scope: !15)
!36 = !DILocation(line: 9, column: 16, scope: !15)
!37 = !DILocation(line: 8, column: 20, scope: !15)
!38 = !DILocation(line: 10, column: 15, scope: !15)
!39 = !DILocation(line: 11, column: 16, scope: !15)
!40 = !DILocation(line: 11, column: 25, scope: !15)
!41 = !DILocation(line: 12, column: 18, scope: !15)
!42 = !DILocation(line: 12, column: 35, scope: !15)
!43 = !DILocation(line: 200, column: 47, scope: !44, inlinedAt: !46)
!44 = distinct !DISubprogram(name: "max", scope: !45, file: !45, line: 200, type: !16, scopeLine: 200, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!45 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h", directory: "")
!46 = distinct !DILocation(line: 13, column: 29, scope: !15)
!47 = !DILocation(line: 200, column: 47, scope: !44, inlinedAt: !48)
!48 = distinct !DILocation(line: 13, column: 22, scope: !15)
!49 = !DILocation(line: 13, column: 7, scope: !15)
!50 = !DILocation(line: 13, column: 20, scope: !15)
!51 = !DILocation(line: 14, column: 5, scope: !15)
!52 = !DILocation(line: 15, column: 5, scope: !15)
!53 = !DILocation(line: 7, column: 28, scope: !15)
!54 = !DILocation(line: 7, column: 21, scope: !15)
!55 = distinct !{!55, !30, !56, !57}
!56 = !DILocation(line: 16, column: 3, scope: !15)
!57 = !{!"llvm.loop.mustprogress"}
