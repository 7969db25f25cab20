; A shared atomic at a constant base plus the size times a byte (a
; histogram's bin: CopyMeasures' binOf) is measured by
; __pasta_div_access_bins, given the bin's byte in the warp's 256 of the
; runtime's tags (__pasta_div_bins_warp(), read once at the entry, plus the
; bin): its distinct addresses
; are its distinct bins, which a full warp counts by writing each lane's
; number to its bin's byte in the warp's 256 of a shared array the runtime
; adds (pasta_div_bin_tags), syncing the warp and reading the byte back (one
; lane per bin reads its own): a store, a load and a ballot in place of the
; window's redux.sync (nvptx-divergence-atomic-window.ll), which the copy no
; longer holds. A 16-bit bin (hist16), which may span more than 256, and a
; global atomic on a byte (global8) keep __pasta_div_access. On the tree
; before, every one took __pasta_div_access.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s --check-prefix=RT
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bins = internal addrspace(3) global [256 x i32] undef, align 4
@wide = internal addrspace(3) global [4096 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define {{.*}}void @hist8__pasta_div(
; CHECK: %pasta.div.bins.warp = call i32 @__pasta_div_bins_warp()
; CHECK: %pasta.div.bin = zext i8 %v to i32
; CHECK: %pasta.div.bin.slot = add i32 %pasta.div.bins.warp, %pasta.div.bin
; CHECK: call i32 @__pasta_div_access_bins(ptr addrspace(3) %bp, i32 4, i32 {{[0-9]+}}, i32 0, i32 %{{[0-9]+}}, i32 %pasta.div.bin.slot,
; CHECK-NOT: @__pasta_div_access(
; CHECK: atomicrmw add ptr addrspace(3) %bp, i32 1
; CHECK-LABEL: define {{.*}}void @hist16__pasta_div(
; CHECK-NOT: @__pasta_div_bins_warp(
; CHECK-NOT: @__pasta_div_access_bins(
; CHECK: call i32 @__pasta_div_access(
; CHECK: atomicrmw add ptr addrspace(3) %bp, i32 1
; CHECK-LABEL: define {{.*}}void @global8__pasta_div(
; CHECK-NOT: @__pasta_div_access_bins(
; CHECK: call i32 @__pasta_div_access(
; CHECK: atomicrmw add ptr addrspace(1) %bp, i32 1

; RT-LABEL: define {{.*}}void @hist8__pasta_div(
; RT-NOT: redux.sync.min
; RT: store volatile i8 %{{[0-9]+}}, ptr addrspace(3) [[TAG:%[0-9]+]]
; RT-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; RT-NEXT: load volatile i8, ptr addrspace(3) [[TAG]]
; RT-NOT: redux.sync.min
; RT: atomicrmw add ptr addrspace(3) %bp, i32 1
; RT-LABEL: define {{.*}}void @hist16__pasta_div(
; RT-NOT: pasta_div_bin_tags
; RT: redux.sync.min.u32
; RT: atomicrmw add ptr addrspace(3) %bp, i32 1
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

define ptx_kernel void @hist16(ptr addrspace(1) %data) #0 !dbg !25 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %ti = zext i32 %t to i64, !dbg !26
  %dp = getelementptr inbounds i16, ptr addrspace(1) %data, i64 %ti, !dbg !26
  %v = load i16, ptr addrspace(1) %dp, align 2, !dbg !26
  %bi = zext i16 %v to i64, !dbg !27
  %bp = getelementptr inbounds [4096 x i32], ptr addrspace(3) @wide, i64 0, i64 %bi, !dbg !27
  %b = atomicrmw add ptr addrspace(3) %bp, i32 1 monotonic, align 4, !dbg !27
  ret void, !dbg !28
}

define ptx_kernel void @global8(ptr addrspace(1) %data, ptr addrspace(1) %out) #0 !dbg !35 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !36
  %ti = zext i32 %t to i64, !dbg !36
  %dp = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %ti, !dbg !36
  %v = load i8, ptr addrspace(1) %dp, align 1, !dbg !36
  %bi = zext i8 %v to i64, !dbg !37
  %bp = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %bi, !dbg !37
  %b = atomicrmw add ptr addrspace(1) %bp, i32 1 monotonic, align 4, !dbg !37
  ret void, !dbg !38
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
