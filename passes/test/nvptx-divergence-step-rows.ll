; Rows of a 16-wide warp a constant step apart (AccessGroup::ApartStep,
; addStepRows): bpnn_adjust_weights' input[row], row = blockIdx.x * 16 +
; threadIdx.y, stride 0 in x, 4 bytes per thread index y. In a full warp
; of 16-wide rows stacked in y (the fullrepeat test) lane 16's element is 4
; bytes past lane 0's, so lane 0 adds, beyond the derived figures (one
; element in one sector), the other element's 4 distinct bytes and a
; sector where (address + 4) >> 5 differs from address >> 5: no shuffle of
; the other row's address (before: two 32-bit butterfly shuffles for the
; apart-rows test, which never holds at a 4-byte gap, then
; __pasta_div_access_rows16 with its own shuffle, in every such warp).
; By hand, from the two rows' elements: 8 distinct bytes (4 derived), 1 or
; 2 sectors (1 derived), 1 ideal sector (1 derived). Other warps measure as
; before. The store out[row * 16 + x] (stride 4, stacked rows) is
; unchanged. -pasta-div-apart-rows=0 measures input[row] as before. The IR
; is clang's -O2 output (-gline-tables-only) for
;   __global__ void steprows(const float *input, float *out) {
;     int row = blockIdx.x * 16 + threadIdx.y;
;     out[row * 16 + threadIdx.x] = input[row];
;   }
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-apart-rows=0 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define {{.*}} @_Z8steprowsPKfPf__pasta_div(
; CHECK: pasta.div.body16:
; CHECK: %[[IN:[0-9]+]] = getelementptr inbounds float, ptr %0, i64 %{{[0-9]+}}
; CHECK: %[[F:pasta.div.fullrepeat[.a-z0-9]*]] = icmp ne i32
; CHECK: br i1 %[[F]], label %[[ADD:[0-9]+]], label %[[MEAS:[0-9]+]]
; CHECK: [[ADD]]:
; CHECK-NOT: shfl.sync
; CHECK: %[[A:[0-9]+]] = ptrtoint ptr %[[IN]] to i64
; CHECK: %[[L0:[0-9]+]] = icmp eq i32 %{{[0-9]+}}, 0
; CHECK-NEXT: %[[O:[0-9]+]] = add i64 %[[A]], 4
; CHECK-NEXT: %[[SA:[0-9]+]] = lshr i64 %[[A]], 5
; CHECK-NEXT: %[[SO:[0-9]+]] = lshr i64 %[[O]], 5
; CHECK-NEXT: %[[AP:pasta.div.steprows[.a-z0-9]*]] = icmp ne i64 %[[SA]], %[[SO]]
; CHECK-NEXT: %[[D:[0-9]+]] = select i1 %[[L0]], i64 4, i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[D]])
; CHECK-NEXT: %[[S64:[0-9]+]] = zext i1 %[[AP]] to i64
; CHECK-NEXT: %[[S:[0-9]+]] = select i1 %[[L0]], i64 %[[S64]], i64 0
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(ptr addrspace(1) %{{[0-9]+}}, i64 %[[S]])
; CHECK-NEXT: br label
; CHECK: [[MEAS]]:
; CHECK-NOT: shfl.sync
; CHECK: call i32 @__pasta_div_access_rows16(ptr readonly %[[IN]], i32 4, i32 0,
; CHECK: call i32 @__pasta_div_access_rows16(ptr %{{[0-9]+}}, i32 4, i32 4,

; OFF-LABEL: define {{.*}} @_Z8steprowsPKfPf__pasta_div(
; OFF-NOT: pasta.div.steprows
; OFF: call i32 @__pasta_div_access_rows16(ptr readonly %{{[0-9]+}}, i32 4, i32 0,
; OFF-NOT: pasta.div.steprows

; ModuleID = 'steprows.cu'
source_filename = "steprows.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z8steprowsPKfPf(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %4 = shl i32 %3, 4, !dbg !22
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !23
  %6 = add i32 %4, %5, !dbg !26
  %7 = sext i32 %6 to i64, !dbg !27
  %8 = getelementptr inbounds float, ptr %0, i64 %7, !dbg !27
  %9 = load float, ptr %8, align 4, !dbg !27, !tbaa !28
  %10 = shl nsw i32 %6, 4, !dbg !30
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !31
  %12 = add i32 %10, %11, !dbg !34
  %13 = zext i32 %12 to i64, !dbg !35
  %14 = getelementptr inbounds nuw float, ptr %1, i64 %13, !dbg !35
  store float %9, ptr %14, align 4, !dbg !36, !tbaa !28
  ret void, !dbg !37
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

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
!7 = !DIFile(filename: "steprows.cu", directory: "/tmp/rowbase/t")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "steprows", scope: !7, file: !7, line: 1, type: !16, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 66, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 2, column: 13, scope: !15)
!22 = !DILocation(line: 2, column: 24, scope: !15)
!23 = !DILocation(line: 54, column: 27, scope: !24, inlinedAt: !25)
!24 = distinct !DISubprogram(name: "__fetch_builtin_y", scope: !20, file: !20, line: 54, type: !16, scopeLine: 54, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!25 = distinct !DILocation(line: 2, column: 31, scope: !15)
!26 = !DILocation(line: 2, column: 29, scope: !15)
!27 = !DILocation(line: 3, column: 33, scope: !15)
!28 = !{!29, !29, i64 0}
!29 = !{!"float", !12, i64 0}
!30 = !DILocation(line: 3, column: 11, scope: !15)
!31 = !DILocation(line: 53, column: 27, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 3, column: 18, scope: !15)
!34 = !DILocation(line: 3, column: 16, scope: !15)
!35 = !DILocation(line: 3, column: 3, scope: !15)
!36 = !DILocation(line: 3, column: 31, scope: !15)
!37 = !DILocation(line: 4, column: 1, scope: !15)
