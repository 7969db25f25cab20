; Addresses that select per lane between two of one lane stride (a clamped
; neighbour, `x > 0 ? a[x - 1] : a[x]`) are lane-shaped in a warp execution
; whose lanes agree on the condition: the copy tests that
; (__pasta_div_uniform) and hands __pasta_div_access_lanes the row width
; only then (else 0: its general path). Selects whose arms move differently
; with x stay on the general path; a select on a warp-uniform condition is
; lane-shaped without a test.
; A warp's index x / 32 is the same in each row of lanes (stride 0), and
; x % 32 = x - 32 * (x / 32) moves with x (stride = size); (x + 1) / 32 is
; not uniform in a warp.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rows32=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-print-sites -disable-output %s 2>&1 | FileCheck %s --check-prefix=ROWS
; The shared neighbour is measured where the lanes disagree, in rows of 32
; too: its figures are marked measured, not proven (with the global store
; of its line: 0x90 | 0x68).
; ROWS: pasta: div selects.cu:3 func=neighbour counters={{[0-9.]+}} proven=0x0 measured=0xF8
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; A shared neighbour (stride = size) is in pasta_div_mask_free's class
; where the lanes agree: measured only where they do not, or where the rows
; are not 32 wide (%pasta.div.apart), the one test deciding both.
; CHECK-LABEL: define ptx_kernel void @neighbour__pasta_div(
; CHECK: %[[RW:[^ ]+]] = call i32 @__pasta_div_row_width()
; CHECK: %[[U:[0-9]+]] = call i32 @__pasta_div_uniform(i32 %{{[0-9]+}})
; CHECK-NEXT: %[[AGREE:[0-9]+]] = icmp ne i32 %[[U]], 0
; CHECK-NEXT: %[[APART:[0-9]+]] = xor i1 %[[AGREE]], true
; CHECK-NEXT: %pasta.div.apart = or i1 %pasta.div.not32, %[[APART]]
; CHECK-NEXT: br i1 %pasta.div.apart,
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: %[[W:pasta.div.width[0-9]*]] = select i1 %[[AGREE]], i32 %[[RW]], i32 0
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %[[W]],
; CHECK: ret void
define ptx_kernel void @neighbour(ptr addrspace(1) %g, i32 %n) !dbg !5 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %xi = zext i32 %x to i64, !dbg !10
  %left = icmp sgt i32 %x, %n, !dbg !10
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %xi, !dbg !10
  %off = select i1 %left, i64 -4, i64 0, !dbg !10
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !10
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !10
  %o = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !10
  store i32 %v, ptr addrspace(1) %o, align 4, !dbg !10
  ret void, !dbg !10
}

; A select between two arrays' elements x: stride 4 either way.
; CHECK-LABEL: define ptx_kernel void @pick__pasta_div(
; CHECK: call i32 @__pasta_div_uniform(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %pasta.div.width
; CHECK: ret void
define ptx_kernel void @pick(ptr addrspace(1) %g, ptr addrspace(1) %h, ptr addrspace(1) %flags) !dbg !6 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11
  %xi = zext i32 %x to i64, !dbg !11
  %fp = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 %xi, !dbg !11
  %f = load i32, ptr addrspace(1) %fp, align 4, !dbg !11
  %c = icmp ne i32 %f, 0, !dbg !11
  %a = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !11
  %b = getelementptr inbounds i32, ptr addrspace(1) %h, i64 %xi, !dbg !11
  %p = select i1 %c, ptr addrspace(1) %a, ptr addrspace(1) %b, !dbg !11
  store i32 1, ptr addrspace(1) %p, align 4, !dbg !11
  ret void, !dbg !11
}

; x or element 0: the arms move differently with x, no stride to test for.
; CHECK-LABEL: define ptx_kernel void @mixed__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 17, i32 1,
; CHECK: ret void
define ptx_kernel void @mixed(ptr addrspace(1) %g, i32 %n) !dbg !7 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %xi = zext i32 %x to i64, !dbg !12
  %c = icmp sgt i32 %x, %n, !dbg !12
  %idx = select i1 %c, i64 %xi, i64 0, !dbg !12
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %idx, !dbg !12
  store i32 1, ptr addrspace(1) %p, align 4, !dbg !12
  ret void, !dbg !12
}

; The condition is the same in every lane (a parameter): no test.
; CHECK-LABEL: define ptx_kernel void @same__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %{{[0-9]+}},
; CHECK: ret void
define ptx_kernel void @same(ptr addrspace(1) %g, i32 %n) !dbg !8 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %xi = zext i32 %x to i64, !dbg !13
  %c = icmp sgt i32 %n, 0, !dbg !13
  %off = select i1 %c, i64 4, i64 0, !dbg !13
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %xi, !dbg !13
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off, !dbg !13
  store i32 1, ptr addrspace(1) %q, align 4, !dbg !13
  ret void, !dbg !13
}

; CHECK-LABEL: define ptx_kernel void @warps__pasta_div(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 0, i32 3, i32 1,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1,
; CHECK: call i32 @__pasta_div_access(ptr %{{.*}}, i32 4, i32 19, i32 1,
; CHECK: ret void
define ptx_kernel void @warps(ptr addrspace(1) %g) !dbg !9 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %w = lshr i32 %x, 5, !dbg !14
  %wi = zext i32 %w to i64, !dbg !14
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %wi, !dbg !14
  store i32 1, ptr addrspace(3) %p, align 4, !dbg !14
  %lane = and i32 %x, 31, !dbg !15
  %li = zext i32 %lane to i64, !dbg !15
  %q = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %li, !dbg !15
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !15
  %x1 = add i32 %x, 1, !dbg !16
  %w1 = lshr i32 %x1, 5, !dbg !16
  %w1i = zext i32 %w1 to i64, !dbg !16
  %r = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %w1i, !dbg !16
  store i32 %v, ptr addrspace(3) %r, align 4, !dbg !16
  ret void, !dbg !16
}

; A select on a warp-uniform condition between x - 1 and x: stride 4, no
; test.
; CHECK-LABEL: define ptx_kernel void @either__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 1, i32 1, i32 %{{[0-9]+}},
; CHECK: ret void
define ptx_kernel void @either(ptr addrspace(1) %g, i32 %n) !dbg !20 {
entry:
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !21
  %xi = zext i32 %x to i64, !dbg !21
  %xm = add nsw i64 %xi, -1, !dbg !21
  %u = icmp sgt i32 %n, 0, !dbg !21
  %idx = select i1 %u, i64 %xm, i64 %xi, !dbg !21
  %p = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %idx, !dbg !21
  store i32 1, ptr addrspace(1) %p, align 4, !dbg !21
  ret void, !dbg !21
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "selects.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "neighbour", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "pick", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "mixed", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "same", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 11, scope: !6)
!12 = !DILocation(line: 21, scope: !7)
!13 = !DILocation(line: 31, scope: !8)
!9 = distinct !DISubprogram(name: "warps", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!14 = !DILocation(line: 41, scope: !9)
!15 = !DILocation(line: 42, scope: !9)
!16 = !DILocation(line: 43, scope: !9)
!20 = distinct !DISubprogram(name: "either", scope: !1, file: !1, line: 50, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 51, scope: !20)
