; A lane select in a loop (pathfinder's `x > 0 ? prev[tx - 1] : prev[tx]`,
; x from the thread's indices) on a condition each thread computes from
; values it holds for the whole launch: a kernel's copy votes whether a
; warp's threads agree on it once, at its entry, where all of them are
; active (threads that all agree agree in any lanes later), not at every
; iteration. The vote decides both whether the group is measured in rows of
; 32 (%pasta.div.apart) and the row width the helper gets (0 where the
; threads do not all agree: its general path, exact for any addresses).
; A condition that changes in the loop, one from memory, a device
; function's (its entry does not have every thread of the warp) and
; -pasta-div-entry-votes=0 keep the vote at the select.
; (-pasta-div-rare-apart=0: the 1-D kernel's groups measured only at a
; grid's edge stay in its copy; nvptx-divergence-rare-apart.ll.)
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -pasta-div-rows32=0 -pasta-div-rare-apart=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-callee-counts=0 -pasta-div-rows32=0 -pasta-div-rare-apart=0 -pasta-div-entry-votes=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [256 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

; x = 216 * blockIdx.x - 20 + tid: the test x > 0 is recomputed at the
; entry (without nsw: a thread that never reaches the select may overflow),
; frozen and voted on there; the loop's select has no vote of its own.
; CHECK-LABEL: define ptx_kernel void @tile__pasta_div(
; CHECK: %[[T:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT: %[[A:[0-9]+]] = add i32 %[[T]], -20
; CHECK-NEXT: %[[C:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: %[[M:[0-9]+]] = mul i32 %[[C]], 216
; CHECK-NEXT: %[[X:[0-9]+]] = add i32 %[[A]], %[[M]]
; CHECK-NEXT: %[[GT:[0-9]+]] = icmp sgt i32 %[[X]], 0
; CHECK-NEXT: %[[F:[0-9]+]] = freeze i1 %[[GT]]
; CHECK-NEXT: %[[Z:[0-9]+]] = zext i1 %[[F]] to i32
; CHECK-NEXT: %[[U:[0-9]+]] = call i32 @__pasta_div_uniform(i32 %[[Z]])
; CHECK-NEXT: %[[AGREE:pasta.div.agree.entry[0-9]*]] = icmp ne i32 %[[U]], 0
; CHECK: %[[RW:[^ ]+]] = call i32 @__pasta_div_row_width()
; CHECK: loop:
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: %[[APART:[0-9]+]] = xor i1 %[[AGREE]], true
; CHECK-NEXT: %pasta.div.apart = or i1 %pasta.div.not32, %[[APART]]
; CHECK-NEXT: br i1 %pasta.div.apart,
; CHECK: %[[W:pasta.div.width[0-9]*]] = select i1 %[[AGREE]], i32 %[[RW]], i32 0
; CHECK-NEXT: call i32 @__pasta_div_access_lanes(ptr %{{.*}}, i32 4, i32 4, i32 3, i32 1, i32 %[[W]],
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: ret void
; OFF-LABEL: define ptx_kernel void @tile__pasta_div(
; OFF-NOT: call i32 @__pasta_div_uniform(
; OFF: loop:
; OFF: call i32 @__pasta_div_uniform(
; OFF: ret void
define ptx_kernel void @tile(ptr addrspace(1) %g, i32 %steps) !dbg !5 {
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
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !10
  br label %latch, !dbg !10

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !10
  %done = icmp eq i32 %k1, %steps, !dbg !10
  br i1 %done, label %exit, label %loop, !dbg !10

exit:
  ret void, !dbg !10
}

; tid > k, k the loop's counter: the lanes' agreement changes with k, so
; the select's vote stays in the loop.
; CHECK-LABEL: define ptx_kernel void @moving__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: loop:
; CHECK: call i32 @__pasta_div_uniform(
; CHECK: ret void
define ptx_kernel void @moving(i32 %steps) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !11
  %ti = zext i32 %tid to i64, !dbg !11
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !11
  br label %loop, !dbg !11

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !11
  %act = icmp ugt i32 %tid, %k, !dbg !11
  br i1 %act, label %body, label %latch, !dbg !11

body:
  %k16 = add nuw nsw i32 %k, 16, !dbg !11
  %left = icmp ugt i32 %tid, %k16, !dbg !11
  %off = select i1 %left, i64 -4, i64 0, !dbg !11
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !11
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !11
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !11
  br label %latch, !dbg !11

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !11
  %done = icmp eq i32 %k1, %steps, !dbg !11
  br i1 %done, label %exit, label %loop, !dbg !11

exit:
  ret void, !dbg !11
}

; A condition loaded from memory (a flag per thread): voted in the loop.
; CHECK-LABEL: define ptx_kernel void @loaded__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: loop:
; CHECK: call i32 @__pasta_div_uniform(
; CHECK: ret void
define ptx_kernel void @loaded(ptr addrspace(1) %flags, i32 %steps) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12
  %ti = zext i32 %tid to i64, !dbg !12
  %fp = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 %ti, !dbg !12
  %f = load i32, ptr addrspace(1) %fp, align 4, !dbg !12
  %left = icmp ne i32 %f, 0, !dbg !12
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !12
  %off = select i1 %left, i64 -4, i64 0, !dbg !12
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !12
  br label %loop, !dbg !12

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !12
  %act = icmp ugt i32 %tid, %k, !dbg !12
  br i1 %act, label %body, label %latch, !dbg !12

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !12
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !12
  br label %latch, !dbg !12

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !12
  %done = icmp eq i32 %k1, %steps, !dbg !12
  br i1 %done, label %exit, label %loop, !dbg !12

exit:
  ret void, !dbg !12
}

; A device function's entry runs with its call's lanes, not necessarily
; every thread of the warp: its select's vote stays in its loop.
; CHECK-LABEL: define internal void @shift__pasta_div(
; CHECK-NOT: call i32 @__pasta_div_uniform(
; CHECK: loop:
; CHECK: call i32 @__pasta_div_uniform(
; CHECK: ret void
define internal void @shift(i32 %steps) noinline !dbg !8 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %ti = zext i32 %tid to i64, !dbg !13
  %p = getelementptr inbounds i32, ptr addrspace(3) @sh, i64 %ti, !dbg !13
  %left = icmp ugt i32 %tid, 0, !dbg !13
  %off = select i1 %left, i64 -4, i64 0, !dbg !13
  %q = getelementptr i8, ptr addrspace(3) %p, i64 %off, !dbg !13
  br label %loop, !dbg !13

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !13
  %act = icmp ugt i32 %tid, %k, !dbg !13
  br i1 %act, label %body, label %latch, !dbg !13

body:
  %v = load i32, ptr addrspace(3) %q, align 4, !dbg !13
  store i32 %v, ptr addrspace(3) %p, align 4, !dbg !13
  br label %latch, !dbg !13

latch:
  %k1 = add nuw nsw i32 %k, 1, !dbg !13
  %done = icmp eq i32 %k1, %steps, !dbg !13
  br i1 %done, label %exit, label %loop, !dbg !13

exit:
  ret void, !dbg !13
}

define ptx_kernel void @caller(i32 %steps) !dbg !9 {
entry:
  call void @shift(i32 %steps), !dbg !14
  ret void, !dbg !14
}

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) convergent

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "votes.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "moving", scope: !1, file: !1, line: 10, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!7 = distinct !DISubprogram(name: "loaded", scope: !1, file: !1, line: 20, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "shift", scope: !1, file: !1, line: 30, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!9 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 40, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 11, scope: !6)
!12 = !DILocation(line: 21, scope: !7)
!13 = !DILocation(line: 31, scope: !8)
!14 = !DILocation(line: 41, scope: !9)
