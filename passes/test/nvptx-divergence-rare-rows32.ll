; The common body of a kernel copy split on rare warps
; (nvptx-divergence-rare-apart.ll) is entered only where the stacked width
; is 32, so the row width is 32 there too (__pasta_div_stacked_width returns
; the row width or 0). pathfinder's shape: a 1-D stencil loop whose
; shared-memory groups are measured only in rare warps, and a global load
; of the thread's own column (a FullRow group) measured at every trip. In
; the common body both widths are 32 (no width call is left below the
; entry), the FullRow group's warps that are not full (the stencil's edge
; warps) take the one-row path alone (__pasta_div_access_row32, not the
; lanes helper with its general path), and the copy is capped at 32
; registers as the bodies for rows of 32 are. The rare function keeps the
; copy as it was; -pasta-div-rare-rows32=0 keeps the common body's widths,
; helper and cap as before.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rare-rows32=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; CHECK-LABEL: define ptx_kernel void @stencil__pasta_div(
; CHECK-SAME: #[[ATTRS:[0-9]+]]
; CHECK-NEXT: entry:
; CHECK: call i32 @__pasta_div_stacked_width()
; CHECK: br i1 %{{[0-9]+}}, label %pasta.div.common, label %pasta.div.rare
; CHECK: pasta.div.rare:
; CHECK-NEXT: call void @stencil__pasta_div_rare(
; CHECK-NEXT: ret void
; CHECK: pasta.div.common:
; CHECK-NOT: call i32 @__pasta_div_row_width()
; CHECK-NOT: call i32 @__pasta_div_stacked_width()
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_full_row(i32 32)
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK: call i32 @__pasta_div_access_row32(ptr %{{[0-9a-z.]+}}, i32 4, i32 4, i32 1, i32 1,
; CHECK-NOT: call i32 @__pasta_div_access_lanes(
; CHECK: ret void
; CHECK-NEXT: }
; The rare function: the copy as it was.
; CHECK-LABEL: define internal void @stencil__pasta_div_rare(
; CHECK: call i32 @__pasta_div_row_width()
; CHECK: call i32 @__pasta_div_access_lanes(
; CHECK: ret void
; CHECK: attributes #[[ATTRS]] = { {{.*}}"nvvm.maxnreg"="32"

; OFF-LABEL: define ptx_kernel void @stencil__pasta_div(
; OFF-SAME: #[[ATTRS:[0-9]+]]
; OFF: pasta.div.common:
; OFF: call i32 @__pasta_div_row_width()
; OFF: call i32 @__pasta_div_access_lanes(
; OFF-NOT: call i32 @__pasta_div_access_row32(
; OFF: ret void
; OFF-NEXT: }
; OFF: attributes #[[ATTRS]] = { {{.*}}"nvvm.maxnreg"="64"

define ptx_kernel void @stencil(ptr addrspace(1) %wall, i32 %cols, i32 %steps) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %b = mul nuw nsw i32 %bid, 216, !dbg !10
  %t = add nsw i32 %tid, -20, !dbg !10
  %x = add nsw i32 %t, %b, !dbg !10
  %ti = zext i32 %tid to i64, !dbg !10
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !10
  %any = icmp sgt i32 %steps, 0, !dbg !10
  br i1 %any, label %pre, label %exit, !dbg !10

pre:
  %left = icmp sgt i32 %x, 0, !dbg !10
  %off = select i1 %left, i64 -4, i64 0, !dbg !10
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !10
  %far = sub nsw i32 255, %tid, !dbg !10
  br label %loop, !dbg !10

loop:
  %k = phi i32 [ 0, %pre ], [ %k1, %latch ], !dbg !10
  %lo = icmp ugt i32 %tid, %k, !dbg !10
  %hi = icmp slt i32 %k, %far, !dbg !10
  %act = and i1 %lo, %hi, !dbg !10
  br i1 %act, label %body, label %latch, !dbg !10

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !10
  %row = mul nsw i32 %k, %cols, !dbg !11
  %i = add nsw i32 %row, %x, !dbg !11
  %ie = sext i32 %i to i64, !dbg !11
  %wp = getelementptr inbounds i32, ptr addrspace(1) %wall, i64 %ie, !dbg !11
  %w = load i32, ptr addrspace(1) %wp, align 4, !dbg !11
  %s = add nsw i32 %v, %w, !dbg !11
  store i32 %s, ptr addrspace(3) %p, align 4, !dbg !11
  br label %latch, !dbg !10

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !10
  %done = icmp eq i32 %k1, %steps, !dbg !10
  br i1 %done, label %exit, label %loop, !dbg !10

exit:
  ret void, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "rare32.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "stencil", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
