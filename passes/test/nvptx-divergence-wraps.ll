; A neighbour index taken modulo a warp-uniform size (a ring, a torus:
; Game of Life's `(x + n - 1) % n` and `(x + 1) % n`) is lane-affine in
; every warp whose lanes do not wrap apart: there the quotient a / n is one
; value across the row and the remainder moves by a's stride. Each lane
; tests that its remainder is at least that stride (`urem >= 1`: its left
; neighbour in x has the same quotient), the warp votes on it, and where
; all agree the access is measured as any lane-shaped one (the full-row
; arithmetic); the warp at the wrap takes the general helper, exact for any
; addresses. Before, both loads were measured by the general helper in
; every warp (5.1x plain on an H200 for Game of Life). -pasta-div-wraps=0
; (OFF) measures them so again.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-stats -S %s 2>%t.stats | FileCheck %s
; RUN: FileCheck %s --check-prefix=STATS < %t.stats
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-host-general=0 -pasta-div-wraps=0 -pasta-div-stats -S %s 2>%t.off | FileCheck %s --check-prefix=OFF
; RUN: FileCheck %s --check-prefix=OFFSTATS < %t.off
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ring(ptr addrspace(1) %world, ptr addrspace(1) %next, i32 %n) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !10
  %blk = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %base = mul i32 %nt, %blk, !dbg !10
  %x = add i32 %base, %tid, !dbg !10
  %xm1 = add i32 %x, -1, !dbg !11
  %a = add i32 %xm1, %n, !dbg !11
  %left = urem i32 %a, %n, !dbg !11
  %xp1 = add i32 %x, 1, !dbg !12
  %right = urem i32 %xp1, %n, !dbg !12
  %li = zext i32 %left to i64, !dbg !11
  %lp = getelementptr inbounds nuw i8, ptr addrspace(1) %world, i64 %li, !dbg !11
  %l = load i8, ptr addrspace(1) %lp, align 1, !dbg !11
  %ri = zext i32 %right to i64, !dbg !12
  %rp = getelementptr inbounds nuw i8, ptr addrspace(1) %world, i64 %ri, !dbg !12
  %r = load i8, ptr addrspace(1) %rp, align 1, !dbg !12
  %s = add i8 %r, %l, !dbg !13
  %xi = zext i32 %x to i64, !dbg !13
  %op = getelementptr inbounds nuw i8, ptr addrspace(1) %next, i64 %xi, !dbg !13
  store i8 %s, ptr addrspace(1) %op, align 1, !dbg !13
  ret void, !dbg !13
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "ring.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "ring", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 2, scope: !5)
!11 = !DILocation(line: 3, scope: !5)
!12 = !DILocation(line: 4, scope: !5)
!13 = !DILocation(line: 5, scope: !5)

; Each load behind its lanes' vote on the wrap, then the full-row
; arithmetic where they agree, the helper for one row of lanes elsewhere.
; CHECK-LABEL: define ptx_kernel void @ring__pasta_div(
; CHECK: %left = urem i32 %a, %n
; CHECK: %pasta.div.nowrap = icmp uge i32 %left, 1
; CHECK: call i32 @__pasta_div_all_lanes(
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call void @__pasta_div_add(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 1, i32 1, i32 1, i32 1,
; CHECK: %[[R:.*]] = icmp uge i32 %right, 1
; CHECK: call i32 @__pasta_div_all_lanes(
; CHECK: call i32 @__pasta_div_row_sectors(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 1, i32 1, i32 1, i32 1,
; CHECK-NOT: call i32 @__pasta_div_access(
; CHECK: ret void

; STATS: access groups 3 (lane-shaped: 3,
; STATS-SAME: lane-shaped behind a clamp or a wrap: 2;

; OFF-LABEL: define ptx_kernel void @ring__pasta_div(
; OFF-NOT: icmp uge i32 %left, 1
; OFF: call i32 @__pasta_div_access(ptr %{{.*}}, i32 1,
; OFF: call i32 @__pasta_div_access(ptr %{{.*}}, i32 1,
; OFF: ret void
; OFFSTATS: access groups 3 (lane-shaped: 1,
