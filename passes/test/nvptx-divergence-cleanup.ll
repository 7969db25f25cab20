; After the device runtime's helpers are inlined, PASTA_CLEANUP=div gives
; the divergence copies a short cleanup (DeviceRuntime.cpp): a value two
; helpers compute is computed once (the block index read by the launch
; count and by the first-thread test), and a loop of constant trips (the
; sectors of a warp whose active lanes are not one run, 4-byte lanes: a
; bit-spreading loop of three trips and one of two) is written out. The
; counting and working-set copies are left as they were unless
; PASTA_CLEANUP=all. The default (0) leaves every copy as the tree before
; left it. A divergence build compiles no working-set copies unless
; PASTA_VARIANTS asks for them (Options.cpp): -pasta-variants=1 here.
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-variants=1 -pasta-div-maxnreg=0 -pasta-cleanup=div -S %s | FileCheck %s --check-prefixes=CHECK,DIV
; RUN: %opt -passes=pasta-count -pasta-divergence -pasta-variants=1 -pasta-div-maxnreg=0 -S %s | FileCheck %s --check-prefixes=CHECK,NONE
; RUN: env PASTA_CLEANUP=all %opt -passes=pasta-count -pasta-divergence -pasta-variants=1 -pasta-div-maxnreg=0 -S %s | FileCheck %s --check-prefixes=CHECK,ALL
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

; The working-set copy reads the block index twice unless cleaned up.
; CHECK-LABEL: define ptx_kernel void @k__pasta_ws(
; DIV-COUNT-2: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; NONE-COUNT-2: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; ALL: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; ALL-NOT: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: {{^}}}

; CHECK-LABEL: define ptx_kernel void @k__pasta_div(
; DIV: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; DIV-NOT: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; DIV-NOT: !llvm.loop
; ALL: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; ALL-NOT: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; ALL-NOT: !llvm.loop
; NONE-COUNT-2: call {{.*}}@llvm.nvvm.read.ptx.sreg.ctaid.x()
; NONE: !llvm.loop
; NONE: !llvm.loop
; CHECK: {{^}}}
define ptx_kernel void @k(ptr addrspace(1) %a, i32 %w) #0 !dbg !15 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !16
  %r = mul i32 %y, %w, !dbg !16
  %i = add i32 %r, %x, !dbg !16
  %ie = zext i32 %i to i64, !dbg !16
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %ie, !dbg !16
  %v = load float, ptr addrspace(1) %p, align 4, !dbg !16
  %v2 = fadd float %v, 1.0, !dbg !17
  store float %v2, ptr addrspace(1) %p, align 4, !dbg !17
  ret void, !dbg !18
}

attributes #0 = { "target-cpu"="sm_90" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!15 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 3, scope: !15)
!17 = !DILocation(line: 4, scope: !15)
!18 = !DILocation(line: 5, scope: !15)
