; A byte's bin atomic (nvptx-divergence-atomic-bins.ll's hist8) in a module
; that declares dynamic shared memory (an extern __shared__ array, sized by
; the launch) keeps __pasta_div_access: the runtime's 8 KB of bin tags would
; add to shared memory the launch sizes without knowing of them (and a
; kernel's static shared memory may not pass 48 KB with them:
; roomForBinTags). On the tree before, no copy took the tags.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bins = internal addrspace(3) global [256 x i32] undef, align 4
@dyn = external addrspace(3) global [0 x i32], align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define {{.*}}void @hist8__pasta_div(
; CHECK-NOT: @__pasta_div_bins_warp(
; CHECK-NOT: @__pasta_div_access_bins(
; CHECK: call i32 @__pasta_div_access(
; CHECK: atomicrmw add ptr addrspace(3) %bp, i32 1
define ptx_kernel void @hist8(ptr addrspace(1) %data) #0 !dbg !15 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %ti = zext i32 %t to i64, !dbg !16
  %dp = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %ti, !dbg !16
  %v = load i8, ptr addrspace(1) %dp, align 1, !dbg !16
  %bi = zext i8 %v to i64, !dbg !17
  %bp = getelementptr inbounds [256 x i32], ptr addrspace(3) @bins, i64 0, i64 %bi, !dbg !17
  %b = atomicrmw add ptr addrspace(3) %bp, i32 1 monotonic, align 4, !dbg !17
  ret void, !dbg !18
}

attributes #0 = { "target-cpu"="sm_90" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "bins.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!15 = distinct !DISubprogram(name: "hist8", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 3, scope: !15)
!17 = !DILocation(line: 4, scope: !15)
!18 = !DILocation(line: 5, scope: !15)
!25 = distinct !DISubprogram(name: "hist16", scope: !1, file: !1, line: 7, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!26 = !DILocation(line: 8, scope: !25)
!27 = !DILocation(line: 9, scope: !25)
!28 = !DILocation(line: 10, scope: !25)
!35 = distinct !DISubprogram(name: "global8", scope: !1, file: !1, line: 12, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!36 = !DILocation(line: 13, scope: !35)
!37 = !DILocation(line: 14, scope: !35)
!38 = !DILocation(line: 15, scope: !35)
