; In a loop of an NVPTX kernel's copy that never reads thread index y, a
; lane-affine group proven in rows of 32 lanes (RowsProven) is measured only
; where the warp is not one such row (%pasta.div.not32: a launch of 2-D
; blocks, which such kernels do not make) or where its lanes disagree on a
; lane test voted once at the entry (a grid's edge). Its figures then go
; straight to the counters (__pasta_div_add under the helper's answer),
; not to registers held across the loop and flushed at every return
; (pathfinder's five shared accesses held ten of its copy's 64 registers).
; Copies that read y (16-wide rows take that path in every warp), a device
; function's (its callers may be 2-D kernels), groups whose lane test is
; voted in the loop, and -pasta-div-rare-direct=0 keep the registers.
; (-pasta-div-rare-apart=0: by default a kernel's copy runs such groups in
; a function of its own, called by the warps that measure them:
; nvptx-divergence-rare-apart.ll.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -pasta-div-rows32=0 -pasta-div-rare-apart=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -pasta-callee-counts=0 -pasta-div-rows32=0 -pasta-div-rare-apart=0 -pasta-div-rare-direct=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; pathfinder's shape: the neighbour behind a select voted at the entry and
; the thread's own element, both shared, in a loop with a divergent body.
; Each is measured under its test into the scratch registers and added to
; its counters there; only the body's branch keeps registers in the loop.
; CHECK-LABEL: define ptx_kernel void @tile__pasta_div(
; CHECK-NOT: %pasta.div{{[0-9]+}} = alloca
; CHECK: %pasta.div.apart = or i1 %pasta.div.not32,
; CHECK-NEXT: br i1 %pasta.div.apart, label %[[M1:[0-9]+]],
; CHECK: [[M1]]:
; CHECK: %[[A1:[0-9]+]] = call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1, i32 %pasta.div.width, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.t4, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.t7)
; CHECK-NEXT: %[[N1:[0-9]+]] = icmp ne i32 %[[A1]], 0
; CHECK-NEXT: br i1 %[[N1]], label %[[ADD1:[0-9]+]],
; CHECK: [[ADD1]]:
; CHECK-NEXT: load i32, ptr %pasta.div.t4
; CHECK-NEXT: sext
; CHECK-NEXT: getelementptr
; CHECK-NEXT: call void @__pasta_div_add(
; CHECK: %v = load i32, ptr addrspace(3) %q
; CHECK-NEXT: br i1 %pasta.div.not32, label %[[M2:[0-9]+]],
; CHECK: [[M2]]:
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.t4,
; CHECK: call void @__pasta_div_add(
; CHECK: store i32 %v, ptr addrspace(3) %p
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @tile__pasta_div(
; OFF: %pasta.div.apart = or i1 %pasta.div.not32,
; OFF: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1, i32 %pasta.div.width, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div{{[0-9]+}})
; OFF-NOT: call void @__pasta_div_add(
; OFF: store i32 %v, ptr addrspace(3) %p
; OFF: ret void
define ptx_kernel void @tile(i32 %steps) !dbg !5 {
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
  br label %loop, !dbg !10

loop:
  %k = phi i32 [ 0, %pre ], [ %k1, %latch ], !dbg !10
  %act = icmp ugt i32 %tid, %k, !dbg !10
  br i1 %act, label %body, label %latch, !dbg !10

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !10
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !11
  br label %latch, !dbg !10

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !10
  %done = icmp eq i32 %k1, %steps, !dbg !10
  br i1 %done, label %exit, label %loop, !dbg !10

exit:
  ret void, !dbg !10
}

; The same loop in a kernel that reads thread index y (here only in the
; body's condition; its launches may hold rows of 16): into the loop's
; registers.
; CHECK-LABEL: define ptx_kernel void @tile2d__pasta_div(
; CHECK: %pasta.div.apart = or i1 %pasta.div.not32,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1, i32 %pasta.div.width, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div{{[0-9]+}},
; CHECK-NOT: call void @__pasta_div_add(
; CHECK: %v = load i32, ptr addrspace(3) %q
; CHECK: ret void
define ptx_kernel void @tile2d(i32 %steps) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !12
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !12
  %b = mul nuw nsw i32 %bid, 216, !dbg !12
  %t = add nsw i32 %tid, -20, !dbg !12
  %x = add nsw i32 %t, %b, !dbg !12
  %ti = zext i32 %tid to i64, !dbg !12
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !12
  %left = icmp sgt i32 %x, 0, !dbg !12
  %off = select i1 %left, i64 -4, i64 0, !dbg !12
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !12
  br label %loop, !dbg !12

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !12
  %act = icmp ugt i32 %ty, %k, !dbg !12
  br i1 %act, label %body, label %latch, !dbg !12

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !12
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !13
  br label %latch, !dbg !12

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !12
  %done = icmp eq i32 %k1, %steps, !dbg !12
  br i1 %done, label %exit, label %loop, !dbg !12

exit:
  ret void, !dbg !12
}

; A select on a flag loaded per thread: voted in the loop, where lanes may
; often disagree: into the loop's registers.
; CHECK-LABEL: define ptx_kernel void @loaded__pasta_div(
; CHECK: %pasta.div.apart = or i1 %pasta.div.not32,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1, i32 %pasta.div.width, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div{{[0-9]+}},
; CHECK: ret void
define ptx_kernel void @loaded(ptr addrspace(1) %flags, i32 %steps) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %ti = zext i32 %tid to i64, !dbg !14
  %fp = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 %ti, !dbg !14
  %f = load i32, ptr addrspace(1) %fp, align 4, !dbg !14
  %left = icmp ne i32 %f, 0, !dbg !14
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !14
  %off = select i1 %left, i64 -4, i64 0, !dbg !14
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !14
  br label %loop, !dbg !14

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !14
  %act = icmp ugt i32 %tid, %k, !dbg !14
  br i1 %act, label %body, label %latch, !dbg !14

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !14
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !14
  br label %latch, !dbg !14

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !14
  %done = icmp eq i32 %k1, %steps, !dbg !14
  br i1 %done, label %exit, label %loop, !dbg !14

exit:
  ret void, !dbg !14
}

; A device function that never reads y, called from a kernel: into the
; loop's registers.
; (The load and the store are one group: measured into one loop register
; per figure (groupSlot), added twice to the line's counters where flushed.)
; CHECK-LABEL: define internal void @step__pasta_div(
; CHECK: body:
; CHECK: br i1 %pasta.div.not32,
; CHECK: call i32 @__pasta_div_access_lanes(ptr %{{[0-9]+}}, i32 4, i32 4, i32 3, i32 1, i32 %{{[0-9]+}}, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.none, ptr %pasta.div.group,
; CHECK-NOT: call void @__pasta_div_add(
; CHECK: latch:
; CHECK: ret void
define internal void @step(i32 %steps) noinline !dbg !8 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !15
  %ti = zext i32 %tid to i64, !dbg !15
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !15
  br label %loop, !dbg !15

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !15
  %act = icmp ugt i32 %tid, %k, !dbg !15
  br i1 %act, label %body, label %latch, !dbg !15

body:
  %v = load i32, ptr addrspace(3) %p, align 4, !dbg !15
  %v1 = add i32 %v, 1, !dbg !15
  store i32 %v1, ptr addrspace(3) %p, align 4, !dbg !15
  br label %latch, !dbg !15

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !15
  %done = icmp eq i32 %k1, %steps, !dbg !15
  br i1 %done, label %exit, label %loop, !dbg !15

exit:
  ret void, !dbg !15
}

define ptx_kernel void @caller(i32 %steps) !dbg !9 {
entry:
  call void @step(i32 %steps), !dbg !16
  ret void, !dbg !16
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "rare.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "tile2d", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "loaded", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "step", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!9 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 11, scope: !6)
!13 = !DILocation(line: 12, scope: !6)
!14 = !DILocation(line: 21, scope: !7)
!15 = !DILocation(line: 31, scope: !8)
!16 = !DILocation(line: 41, scope: !9)
