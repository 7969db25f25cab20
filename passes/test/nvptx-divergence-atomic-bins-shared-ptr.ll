; __pasta_div_access_bins takes the atomic's shared-memory pointer, not a
; generic one: the helper makes it generic only on its general path (a warp
; that is not full), so a histogram's loop forms no generic address in the
; full warps' iterations (the tags' store, load and ballot need none; the
; generic address was 4 SASS an iteration, S2R SR_SWINHI and three moves,
; ahead of the full warp's test). hist8's bin is a GEP on the shared array
; (kept as it is); hist8generic's is clang's form, a GEP on the array made
; generic (`addrspacecast (@bins to ptr)`), which the copy indexes again on
; the array itself. With the runtime linked (RT), the generic cast follows
; the tags' store. On the tree before, both calls took a generic pointer
; (`ptr %N`, the cast ahead of the call).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-div-maxnreg=0 -S %s | FileCheck %s --check-prefix=RT
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bins = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define {{.*}}void @hist8__pasta_div(
; CHECK: call i32 @__pasta_div_access_bins(ptr addrspace(3) %bp, i32 4,
; CHECK: atomicrmw add ptr addrspace(3) %bp, i32 1
; CHECK-LABEL: define {{.*}}void @hist8generic__pasta_div(
; CHECK: [[P:%pasta.div.bin.ptr[0-9]*]] = getelementptr inbounds i32, ptr addrspace(3) @bins, i64 %bi
; CHECK: call i32 @__pasta_div_access_bins(ptr addrspace(3) [[P]], i32 4,
; CHECK: atomicrmw add ptr %bp, i32 1

; RT-LABEL: define {{.*}}void @hist8generic__pasta_div(
; RT-NOT: addrspacecast ptr addrspace(3) %pasta.div.bin.ptr
; RT: store volatile i8 %{{[0-9]+}}, ptr addrspace(3)
; RT: addrspacecast ptr addrspace(3) %pasta.div.bin.ptr to ptr
; RT: atomicrmw add ptr %bp, i32 1
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

define ptx_kernel void @hist8generic(ptr addrspace(1) %data) #0 !dbg !25 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %ti = zext i32 %t to i64, !dbg !26
  %dp = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %ti, !dbg !26
  %v = load i8, ptr addrspace(1) %dp, align 1, !dbg !26
  %bi = zext i8 %v to i64, !dbg !27
  %bp = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(3) @bins to ptr), i64 %bi, !dbg !27
  %b = atomicrmw add ptr %bp, i32 1 monotonic, align 4, !dbg !27
  ret void, !dbg !28
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
!25 = distinct !DISubprogram(name: "hist8generic", scope: !1, file: !1, line: 7, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!26 = !DILocation(line: 8, scope: !25)
!27 = !DILocation(line: 9, scope: !25)
!28 = !DILocation(line: 10, scope: !25)
