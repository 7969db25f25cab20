; Addresses that clamp a lane-affine index against a bound the same in
; every lane (`max(x - 1, 0)`, `min(x + 1, n - 1)`: an smax, smin, umax or
; umin of one such operand and one warp-uniform one, srad's neighbours)
; are lane-shaped, at the index's stride, in a warp execution whose every
; active lane takes the index: the copy tests that (%pasta.div.arm, one
; __pasta_div_all_lanes; agreeing is not enough, since lanes all on the
; bound agree at one address) and hands __pasta_div_access_lanes the row
; width only then (else 0: its general path, less what the pass derived).
; A clamp of two lane-varying values, or against a loaded bound, stays on
; the general path. On the tree before, every one took __pasta_div_access.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-clamps -pasta-div-fullrow-clamps=0 -S %s | FileCheck %s
; By default a global clamped access of pasta_div_full_row_form's shape is
; a FullRow group (-pasta-div-fullrow-clamps): in a full warp of one 32-lane
; row whose every lane takes the clamp's lane-affine side its figures are
; the derived ones but for the sectors past its base
; (__pasta_div_row_sectors, no helper call); elsewhere the helper measures
; it, given the row width only where every lane takes that side. No body
; for rows of 32 (stencil__pasta_div_general): there the helper would lose
; its general path.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-clamps -S %s | FileCheck %s --check-prefixes=FULL,NOBODY
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-clamps -pasta-div-stats -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; With -pasta-div-clamps=0 (the default before 2026-11-30, when srad's
; clamps were measured in every warp of its 16 x 16 blocks) no clamp is
; lane-shaped: no all-lanes test of an arm. The default is on (ON).
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-clamps=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s --check-prefix=ON
; ON: pasta.div.arm
; OFF-NOT: pasta.div.arm
; STATS: access groups 10 (lane-shaped: 8, not measured: one aligned address in every lane: 0; measured only where rows of lanes are not 32 wide: 1,
; STATS-SAME: bodies counted at their branch: 0; lane-shaped behind a clamp or a wrap: 4; groups in their callers' space: 0
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [256 x float] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)

; J[max(x - 1, 0)] (clang: smax(x, 1) - 1) and J[min(x + 1, n - 1)], x the
; grid-wide index: each tested for its index's side in every lane.
; NOBODY-NOT: stencil__pasta_div_general
; FULL-LABEL: define ptx_kernel void @stencil__pasta_div(
; FULL: %[[RW:[0-9]+]] = call i32 @__pasta_div_row_width()
; FULL: %[[F:[0-9]+]] = call i32 @__pasta_div_full_row(i32 %[[RW]])
; FULL-NEXT: %pasta.div.fullrow = icmp ne i32 %[[F]], 0
; FULL-NEXT: %pasta.div.arm = icmp sge i32 %x, 1
; FULL-NEXT: %[[A:[0-9]+]] = zext i1 %pasta.div.arm to i32
; FULL-NEXT: %[[T:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[A]])
; FULL-NEXT: %[[OK:[0-9]+]] = icmp ne i32 %[[T]], 0
; FULL-NEXT: %[[FOK:[0-9]+]] = and i1 %pasta.div.fullrow, %[[OK]]
; FULL-NEXT: br i1 %[[FOK]], label %[[ROW:[0-9]+]], label %[[MEAS:[0-9]+]]
; FULL: [[ROW]]:
; FULL: call i32 @__pasta_div_row_sectors(ptr %{{[0-9]+}}, i32 4, i32 4)
; FULL: [[MEAS]]:
; FULL: %[[W:pasta.div.width[0-9]*]] = select i1 %[[OK]], i32 %[[RW]], i32 0
; FULL-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 {{[0-9]+}}, i32 1, i32 %[[W]],
; FULL: %pasta.div.arm{{[0-9]+}} = icmp sle i32 %xp, %nm
; FULL: call i32 @__pasta_div_row_sectors(
; FULL: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 {{[0-9]+}}, i32 1, i32 %pasta.div.width
; FULL-NOT: call i32 @__pasta_div_access_row32(
; FULL: ret void
; CHECK-LABEL: define ptx_kernel void @stencil__pasta_div(
; CHECK: %[[RW:[0-9]+]] = call i32 @__pasta_div_row_width()
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: %pasta.div.arm = icmp sge i32 %x, 1
; CHECK-NEXT: %[[A:[0-9]+]] = zext i1 %pasta.div.arm to i32
; CHECK-NEXT: %[[T:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[A]])
; CHECK-NEXT: %[[OK:[0-9]+]] = icmp ne i32 %[[T]], 0
; CHECK-NEXT: %[[W:pasta.div.width[0-9]*]] = select i1 %[[OK]], i32 %[[RW]], i32 0
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %[[W]],
; CHECK: %[[ARM:pasta.div.arm[0-9]+]] = icmp sle i32 %xp, %nm
; CHECK-NEXT: %[[A2:[0-9]+]] = zext i1 %[[ARM]] to i32
; CHECK-NEXT: call i32 @__pasta_div_all_lanes(i32 %[[A2]])
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %pasta.div.width
; CHECK-NOT: call i32 @__pasta_div_access(
; CHECK: ret void
define ptx_kernel void @stencil(ptr addrspace(1) %j, ptr addrspace(1) %out, i32 %n) !dbg !5 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bb = mul i32 %b, %bd, !dbg !10
  %x = add nsw i32 %bb, %t, !dbg !10
  %m = call i32 @llvm.smax.i32(i32 %x, i32 1), !dbg !10
  %xm = add nsw i32 %m, -1, !dbg !10
  %xmi = sext i32 %xm to i64, !dbg !10
  %p = getelementptr inbounds float, ptr addrspace(1) %j, i64 %xmi, !dbg !10
  %v = load float, ptr addrspace(1) %p, align 4, !dbg !10
  %xp = add nsw i32 %x, 1, !dbg !11
  %nm = add nsw i32 %n, -1, !dbg !11
  %u = call i32 @llvm.smin.i32(i32 %xp, i32 %nm), !dbg !11
  %ui = sext i32 %u to i64, !dbg !11
  %q = getelementptr inbounds float, ptr addrspace(1) %j, i64 %ui, !dbg !11
  %w = load float, ptr addrspace(1) %q, align 4, !dbg !11
  %s = fadd float %v, %w, !dbg !12
  %xi = sext i32 %x to i64, !dbg !12
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xi, !dbg !12
  store float %s, ptr addrspace(1) %o, align 4, !dbg !12
  ret void, !dbg !12
}

; A shared clamp (stride = size, pasta_div_mask_free's class): measured
; only where the rows are not 32 wide or some lane is on the bound, the one
; test deciding both (%pasta.div.apart).
; CHECK-LABEL: define ptx_kernel void @tile__pasta_div(
; CHECK: %pasta.div.arm = icmp ule i32 %t, %n
; CHECK-NEXT: %[[A:[0-9]+]] = zext i1 %pasta.div.arm to i32
; CHECK-NEXT: %[[T:[0-9]+]] = call i32 @__pasta_div_all_lanes(i32 %[[A]])
; CHECK-NEXT: %[[OK:[0-9]+]] = icmp ne i32 %[[T]], 0
; CHECK-NEXT: %[[APART:[0-9]+]] = xor i1 %[[OK]], true
; CHECK-NEXT: %pasta.div.apart = or i1 %pasta.div.not32, %[[APART]]
; CHECK-NEXT: br i1 %pasta.div.apart,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %pasta.div.width
; CHECK: ret void
define ptx_kernel void @tile(ptr addrspace(1) %out, i32 %n) !dbg !6 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %c = call i32 @llvm.umin.i32(i32 %t, i32 %n), !dbg !13
  %ci = zext i32 %c to i64, !dbg !13
  %p = getelementptr inbounds float, ptr addrspace(3) @sh, i64 %ci, !dbg !13
  %v = load float, ptr addrspace(3) %p, align 4, !dbg !13
  %ti = zext i32 %t to i64, !dbg !13
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %ti, !dbg !13
  store float %v, ptr addrspace(1) %o, align 4, !dbg !13
  ret void, !dbg !13
}

; max(x, k[x]) (a lane's own loaded bound) and max(x, 31 - x) (two
; lane-varying operands): no stride to test for, the general helper.
; CHECK-LABEL: define ptx_kernel void @others__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_all_lanes(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 0,
; CHECK-NOT: call i32 @__pasta_div_all_lanes(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 0,
; CHECK-NOT: call i32 @__pasta_div_all_lanes(
; CHECK: ret void
define ptx_kernel void @others(ptr addrspace(1) %g, ptr addrspace(1) %k) !dbg !7 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %ti = zext i32 %t to i64, !dbg !14
  %kp = getelementptr inbounds i32, ptr addrspace(1) %k, i64 %ti, !dbg !14
  %kv = load i32, ptr addrspace(1) %kp, align 4, !dbg !14
  %m = call i32 @llvm.smax.i32(i32 %t, i32 %kv), !dbg !14
  %mi = sext i32 %m to i64, !dbg !14
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %mi, !dbg !14
  %o = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic, align 4, !dbg !14
  %r = sub nsw i32 31, %t, !dbg !15
  %m2 = call i32 @llvm.smax.i32(i32 %t, i32 %r), !dbg !15
  %m2i = sext i32 %m2 to i64, !dbg !15
  %q = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %m2i, !dbg !15
  %o2 = atomicrmw add ptr addrspace(1) %q, i32 1 monotonic, align 4, !dbg !15
  ret void, !dbg !15
}

; A clamp in a uniform loop whose operands the loop computes: measured at
; every execution, in the loop (not once per entry in the preheader, where
; its test's operands do not exist yet; the verifier rejected the copy).
; CHECK-LABEL: define ptx_kernel void @inloop__pasta_div(
; CHECK: {{^}}loop:
; CHECK: %pasta.div.arm = icmp sle i32 %xp, %nm
; CHECK-NEXT: zext i1 %pasta.div.arm to i32
; CHECK-NEXT: call i32 @__pasta_div_all_lanes(
; CHECK: ret void
define ptx_kernel void @inloop(ptr addrspace(1) %j, ptr addrspace(1) %out, i32 %n) !dbg !8 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  %go = icmp sgt i32 %n, 0, !dbg !16
  br i1 %go, label %loop, label %done, !dbg !16
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %s, %loop ]
  %xp = add nsw i32 %x, 1, !dbg !17
  %nm = add nsw i32 %n, -1, !dbg !17
  %u = call i32 @llvm.smin.i32(i32 %xp, i32 %nm), !dbg !17
  %ui = sext i32 %u to i64, !dbg !17
  %q = getelementptr inbounds float, ptr addrspace(1) %j, i64 %ui, !dbg !17
  %w = load float, ptr addrspace(1) %q, align 4, !dbg !17
  %s = fadd float %acc, %w, !dbg !17
  %i.next = add nuw nsw i32 %i, 1, !dbg !17
  %more = icmp slt i32 %i.next, %n, !dbg !17
  br i1 %more, label %loop, label %done, !dbg !17
done:
  %r = phi float [ 0.0, %entry ], [ %s, %loop ]
  %xi = zext i32 %x to i64, !dbg !18
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %xi, !dbg !18
  store float %r, ptr addrspace(1) %o, align 4, !dbg !18
  ret void, !dbg !18
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "clamps.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "stencil", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "inloop", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 31, scope: !8)
!17 = !DILocation(line: 32, scope: !8)
!18 = !DILocation(line: 33, scope: !8)
!7 = distinct !DISubprogram(name: "others", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 11, scope: !6)
!14 = !DILocation(line: 21, scope: !7)
!15 = !DILocation(line: 22, scope: !7)
