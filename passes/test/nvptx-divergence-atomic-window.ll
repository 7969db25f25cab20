; A shared atomic on a loaded bin (histogram's): in a full warp the
; runtime takes its distinct bytes from the bins' window, two redux.sync
; for the lowest and highest address and eight redux.sync.or for a set of
; 256 bins, and falls back to the match_any only when the addresses span
; 256 words or more (bench/div_atomic_parts.cu). On the tree before, the
; full warp's path was the match_any alone. The bin here is a loaded
; 16-bit value, which the pass cannot bound below 256 (a byte's bin takes
; __pasta_div_access_bins: nvptx-divergence-atomic-bins.ll).
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bins = internal addrspace(3) global [65536 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define {{.*}}void @hist__pasta_div(
; CHECK: redux.sync.min.u32 $0, $1, $2;", "=r,r,r"(i32 [[KEY:%[0-9]+]], i32 -1)
; CHECK-NEXT: redux.sync.max.u32 $0, $1, $2;", "=r,r,r"(i32 [[KEY]], i32 -1)
; CHECK-COUNT-8: redux.sync.or.b32 $0, $1, $2;", "=r,r,r"(i32 {{.*}}, i32 -1)
; CHECK-NOT: redux.sync.or.b32
; The fallback (a wider span), then a partial warp's match over its mask.
; CHECK: call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32
; CHECK: call i32 @llvm.nvvm.match.any.sync.i32(i32 %{{[0-9]+}}, i32
; CHECK: atomicrmw add ptr addrspace(3)
; CHECK: ret void
define ptx_kernel void @hist(ptr addrspace(1) %data) #0 !dbg !15 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %ti = zext i32 %t to i64, !dbg !16
  %dp = getelementptr inbounds i16, ptr addrspace(1) %data, i64 %ti, !dbg !16
  %v = load i16, ptr addrspace(1) %dp, align 2, !dbg !16
  %bi = zext i16 %v to i64, !dbg !17
  %bp = getelementptr inbounds [65536 x i32], ptr addrspace(3) @bins, i64 0, i64 %bi, !dbg !17
  %b = atomicrmw add ptr addrspace(3) %bp, i32 1 monotonic, align 4, !dbg !17
  ret void, !dbg !18
}

attributes #0 = { "target-cpu"="sm_90" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "hist.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!15 = distinct !DISubprogram(name: "hist", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 3, scope: !15)
!17 = !DILocation(line: 4, scope: !15)
!18 = !DILocation(line: 5, scope: !15)
