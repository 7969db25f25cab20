; Rows of a 16-wide warp apart by a run-time gap (AccessGroup::ApartWidth,
; include/pasta/div_proofs.h pasta_div_apart_rows): gaussian's fan2 shape.
; m[i * n + t] (stride 0, a RowsProven group measured where rows are not 32
; wide) and a[i * n + j] (FullRow, stride 4) move 4n bytes per thread index
; y, n known only at run time. In a full warp of 16-wide rows stacked in y
; (the fullrepeat test) one shuffle by 16 of the address gives every lane
; the gap between the two rows' bases; where it is a multiple of 32 bytes
; and at least the minimum (32 for one element a row; 96 for 16 floats: a
; row spans up to 3 sectors) lane 0 adds the figures beyond the derived
; ones instead of calling the rows-16 helper. By hand: m's rows are two
; elements in two sectors where one of each is derived (distinct +4,
; sectors +1); a's rows are 2 + (base past a sector's start) sectors each,
; 4 derived: 2 more from offset 1 on, for each of its two accesses (the
; load and the store: x 2). -pasta-div-apart-rows=0 measures them as
; before. The IR is clang's -O2 output (-gline-tables-only) for
;   __global__ void apart(const float *m, float *a, int n, int t) {
;     int i = blockIdx.y * 16 + threadIdx.y;
;     int j = blockIdx.x * 16 + threadIdx.x;
;     a[i * n + j] *= m[i * n + t];
;   }
; With -pasta-div-known-apart-steps=0 the gap is shuffled (as where the
; step is not known at the entry); by default (KNOWN) the step, 4n bytes of
; the kernel's argument n, is known there: |4n| is tested once at the entry
; for each least gap (96 for a, 32 for m), and no address is shuffled.
; -pasta-div-launch-classes=0: the adds in each full warp, as in launches of
; no class (nvptx-divergence-launch-classes.ll: what read-back derives).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-known-apart-steps=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -S %s | FileCheck %s --check-prefix=KNOWN
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-launch-classes=0 -pasta-div-apart-rows=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z5apartPKfPfii__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: %[[F:pasta.div.fullrepeat[.a-z0-9]*]] = icmp ne i32
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %[[M:[0-9]+]] to i64
; CHECK-NEXT: %[[MASK:[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT: %[[LO:[0-9]+]] = trunc i64 %[[A]] to i32
; CHECK-NEXT: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 %[[MASK]], i32 %[[LO]], i32 16, i32 31)
; CHECK: %[[ABS:[0-9]+]] = select i1 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}
; CHECK-NEXT: %[[LOW:[0-9]+]] = and i64 %[[ABS]], 31
; CHECK-NEXT: %[[WHOLE:[0-9]+]] = icmp eq i64 %[[LOW]], 0
; CHECK-NEXT: %[[FAR:[0-9]+]] = icmp uge i64 %[[ABS]], 32
; CHECK-NEXT: %[[OK:[0-9]+]] = and i1 %[[WHOLE]], %[[FAR]]
; CHECK-NEXT: %[[AP:pasta.div.apartrows[.a-z0-9]*]] = and i1 %[[F]], %[[OK]]
; CHECK-NEXT: br i1 %[[AP]], label %[[ADD:[0-9]+]], label %[[MEAS:[0-9]+]]
; CHECK: [[ADD]]:
; CHECK: %[[D:[0-9]+]] = select i1 %{{[0-9]+}}, i64 4, i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[D]])
; CHECK-NEXT: %[[S:[0-9]+]] = select i1 %{{[0-9]+}}, i64 1, i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[S]])
; CHECK: [[MEAS]]:
; CHECK: call i32 @__pasta_div_access_rows16(ptr readonly %[[M]], i32 4, i32 0,
; CHECK: icmp uge i64 %{{[0-9]+}}, 96
; CHECK: br i1 %pasta.div.apartrows{{[.a-z0-9]*}}, label %[[ADD2:[0-9]+]], label %[[MEAS2:[0-9]+]]
; CHECK: [[ADD2]]:
; CHECK: %[[PAST:[0-9]+]] = icmp uge i64 %{{[0-9]+}}, 1
; CHECK-NEXT: %[[P64:[0-9]+]] = zext i1 %[[PAST]] to i64
; CHECK-NEXT: %[[TWO:[0-9]+]] = mul i64 %[[P64]], 2
; CHECK-NEXT: %[[BOTH:[0-9]+]] = mul i64 %[[TWO]], 2
; CHECK-NEXT: select i1 %{{[0-9]+}}, i64 %[[BOTH]], i64 0
; CHECK: [[MEAS2]]:
; CHECK: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 4,

; KNOWN-LABEL: define {{.*}} @_Z5apartPKfPfii__pasta_div(
; KNOWN: %[[STEP:[0-9]+]] = shl nsw i64 %[[N:[0-9]+]], 2
; KNOWN-NEXT: %[[GAP:pasta.div.stepgap[.a-z0-9]*]] = call i64 @llvm.abs.i64(i64 %[[STEP]], i1 false)
; KNOWN-NEXT: %[[L1:[0-9]+]] = and i64 %[[GAP]], 31
; KNOWN-NEXT: %[[W1:[0-9]+]] = icmp eq i64 %[[L1]], 0
; KNOWN-NEXT: %[[F1:[0-9]+]] = icmp uge i64 %[[GAP]], 96
; KNOWN-NEXT: %[[A96:pasta.div.stepapart[.a-z0-9]*]] = and i1 %[[W1]], %[[F1]]
; KNOWN: %[[L2:[0-9]+]] = and i64 %[[GAP]], 31
; KNOWN-NEXT: %[[W2:[0-9]+]] = icmp eq i64 %[[L2]], 0
; KNOWN-NEXT: %[[F2:[0-9]+]] = icmp uge i64 %[[GAP]], 32
; KNOWN-NEXT: %[[A32:pasta.div.stepapart[.a-z0-9]*]] = and i1 %[[W2]], %[[F2]]
; KNOWN-NOT: shfl.sync
; KNOWN: %[[AP1:pasta.div.apartrows[.a-z0-9]*]] = and i1 %pasta.div.fullrepeat{{[.a-z0-9]*}}, %[[A32]]
; KNOWN-NEXT: br i1 %[[AP1]]
; KNOWN-NOT: shfl.sync
; KNOWN: call i32 @__pasta_div_access_rows16(ptr readonly %{{[0-9]+}}, i32 4, i32 0,
; KNOWN-NOT: shfl.sync
; KNOWN: %[[AP2:pasta.div.apartrows[.a-z0-9]*]] = and i1 %pasta.div.fullrepeat{{[.a-z0-9]*}}, %[[A96]]
; KNOWN-NEXT: br i1 %[[AP2]]
; KNOWN-NOT: shfl.sync
; KNOWN: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 4,
; KNOWN-NOT: shfl.sync
; KNOWN: ret void

; OFF-NOT: pasta.div.apartrows

; ModuleID = 'apartrows.cu'
source_filename = "apartrows.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5apartPKfPfii(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 !dbg !15 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !18
  %6 = shl nuw nsw i32 %5, 4, !dbg !22
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !23
  %8 = add nuw nsw i32 %6, %7, !dbg !26
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !27
  %10 = shl i32 %9, 4, !dbg !30
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !31
  %12 = add i32 %10, %11, !dbg !34
  %13 = mul nsw i32 %2, %8, !dbg !35
  %14 = add nsw i32 %13, %3, !dbg !36
  %15 = sext i32 %14 to i64, !dbg !37
  %16 = getelementptr inbounds float, ptr %0, i64 %15, !dbg !37
  %17 = load float, ptr %16, align 4, !dbg !37, !tbaa !38
  %18 = add nsw i32 %12, %13, !dbg !40
  %19 = sext i32 %18 to i64, !dbg !41
  %20 = getelementptr inbounds float, ptr %1, i64 %19, !dbg !41
  %21 = load float, ptr %20, align 4, !dbg !42, !tbaa !38
  %22 = fmul contract float %17, %21, !dbg !42
  store float %22, ptr %20, align 4, !dbg !42, !tbaa !38
  ret void, !dbg !43
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
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
!7 = !DIFile(filename: "apartrows.cu", directory: "/tmp/divbfs/t")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "apart", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 67, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 67, type: !16, scopeLine: 67, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 11, scope: !15)
!22 = !DILocation(line: 2, column: 22, scope: !15)
!23 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !25)
!24 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = distinct !DILocation(line: 2, column: 29, scope: !15)
!26 = !DILocation(line: 2, column: 27, scope: !15)
!27 = !DILocation(line: 66, column: 27, scope: !28, inlinedAt: !29)
!28 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = distinct !DILocation(line: 3, column: 11, scope: !15)
!30 = !DILocation(line: 3, column: 22, scope: !15)
!31 = !DILocation(line: 53, column: 27, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 3, column: 29, scope: !15)
!34 = !DILocation(line: 3, column: 27, scope: !15)
!35 = !DILocation(line: 4, column: 23, scope: !15)
!36 = !DILocation(line: 4, column: 27, scope: !15)
!37 = !DILocation(line: 4, column: 19, scope: !15)
!38 = !{!39, !39, i64 0}
!39 = !{!"float", !12, i64 0}
!40 = !DILocation(line: 4, column: 11, scope: !15)
!41 = !DILocation(line: 4, column: 3, scope: !15)
!42 = !DILocation(line: 4, column: 16, scope: !15)
!43 = !DILocation(line: 5, column: 1, scope: !15)
