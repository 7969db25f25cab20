; The general access helper is told when the IR states an alignment of at
; least the access's size, a power of 2 up to 32 (PASTA_DIV_ALIGNED, 16,
; or-ed into the space: 17 global, 19 shared), so that it does not test
; each lane's address for it: bfs's level[v] and its CAS, histogram's
; shared atomic on a loaded bin. An i32 at align 2, a double at align 4
; and a 64-byte vector keep the plain space (1): the runtime tests them.
; On the tree before, every hint was the plain space.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bins = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; CHECK-LABEL: define {{.*}}void @k__pasta_div(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 0,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 19, i32 0,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 1, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 8, i32 17, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 8, i32 1, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 64, i32 1, i32 1,
; CHECK: ret void
define ptx_kernel void @k(ptr addrspace(1) %level, ptr addrspace(1) %cols, ptr addrspace(1) %d, ptr addrspace(1) %out) !dbg !15 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %ti = zext i32 %t to i64, !dbg !16
  %cp = getelementptr inbounds i32, ptr addrspace(1) %cols, i64 %ti, !dbg !16
  %v = load i32, ptr addrspace(1) %cp, align 4, !dbg !16
  %vi = sext i32 %v to i64, !dbg !16
  %lp = getelementptr inbounds i32, ptr addrspace(1) %level, i64 %vi, !dbg !17
  %l = load i32, ptr addrspace(1) %lp, align 4, !dbg !17
  %o = atomicrmw add ptr addrspace(1) %lp, i32 %l monotonic, align 4, !dbg !18
  %bin = and i32 %l, 255, !dbg !19
  %bi = zext i32 %bin to i64, !dbg !19
  %bp = getelementptr inbounds [256 x i32], ptr addrspace(3) @bins, i64 0, i64 %bi, !dbg !19
  %b = atomicrmw add ptr addrspace(3) %bp, i32 1 monotonic, align 4, !dbg !19
  %w = add i32 %v, %o, !dbg !20
  %wi = sext i32 %w to i64, !dbg !20
  %up = getelementptr inbounds i8, ptr addrspace(1) %level, i64 %wi, !dbg !20
  %u = load i32, ptr addrspace(1) %up, align 2, !dbg !20
  %x = add i32 %u, %b, !dbg !21
  %xi = sext i32 %x to i64, !dbg !21
  %dp = getelementptr inbounds double, ptr addrspace(1) %d, i64 %xi, !dbg !21
  %dv = load double, ptr addrspace(1) %dp, align 8, !dbg !21
  %ep = getelementptr inbounds i8, ptr addrspace(1) %d, i64 %xi, !dbg !22
  %ev = load double, ptr addrspace(1) %ep, align 4, !dbg !22
  %s = fadd double %dv, %ev, !dbg !22
  %fp = getelementptr inbounds <16 x i32>, ptr addrspace(1) %out, i64 %xi, !dbg !23
  %fv = load <16 x i32>, ptr addrspace(1) %fp, align 64, !dbg !23
  %f0 = extractelement <16 x i32> %fv, i32 0, !dbg !23
  %f0d = sitofp i32 %f0 to double, !dbg !23
  %r = fadd double %s, %f0d, !dbg !23
  store double %r, ptr addrspace(1) %d, align 8, !dbg !24
  ret void, !dbg !24
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "aligned.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!15 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 3, scope: !15)
!17 = !DILocation(line: 4, scope: !15)
!18 = !DILocation(line: 5, scope: !15)
!19 = !DILocation(line: 6, scope: !15)
!20 = !DILocation(line: 7, scope: !15)
!21 = !DILocation(line: 8, scope: !15)
!22 = !DILocation(line: 9, scope: !15)
!23 = !DILocation(line: 10, scope: !15)
!24 = !DILocation(line: 11, scope: !15)
