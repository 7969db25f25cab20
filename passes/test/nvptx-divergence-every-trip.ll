; A loop header's branch into its body whose condition is an `and` of
; values defined before the loop and inequalities between such values and
; recurrences of the loop that do not wrap (pathfinder's `inside && tx > k
; && tx < 255 - k`) is tested at the preheader at the first and the last
; iteration, in each lane, and voted (-pasta-div-every-trip, on): in warps
; whose every lane takes it at every iteration, the first lane adds the
; body's warp execution and lanes (computed at the preheader) instead of
; the ballot of __pasta_div_branch_body. An equality (its truth is not an
; interval of iterations: ne) keeps the ballot alone, and so does the
; option off.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-every-trip=0 -S %s | FileCheck %s --check-prefix=OFF
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; The preheader: both inequalities at k = 0 and k = steps - 1, the invariant
; leaf, one vote; the first lane's adds; then the header's branch on it.
; CHECK-LABEL: define ptx_kernel void @interval__pasta_div(
; CHECK: loop.preheader:
; CHECK: [[LAST:%[0-9]+]] = add i32 %steps, -1
; CHECK-DAG: = icmp ugt i32 %tid, 0
; CHECK-DAG: = icmp ugt i32 %tid, [[LAST]]
; CHECK-DAG: = icmp slt i32 0, %hi
; CHECK-DAG: = icmp slt i32 [[LAST]], %hi
; CHECK: and i1 {{.*}}, %in
; CHECK: call i32 @__pasta_div_all_lanes(
; CHECK: %pasta.div.everytrip = icmp ne i32
; CHECK: call i32 @llvm.nvvm.activemask()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
; CHECK: call i32 @llvm.ctpop.i32(
; CHECK: loop:
; CHECK: br i1 %pasta.div.everytrip, label %[[ALL:[0-9]+]], label %[[OTHER:[0-9]+]]
; CHECK: [[ALL]]:
; CHECK: store i32
; CHECK: store i32
; CHECK: [[OTHER]]:
; CHECK-NEXT: call void @__pasta_div_branch_body(
; CHECK: ret void
; CHECK-LABEL: define ptx_kernel void @equal__pasta_div(
; CHECK-NOT: pasta.div.everytrip
; CHECK: call void @__pasta_div_branch_body(
; CHECK: ret void

; OFF-LABEL: define ptx_kernel void @interval__pasta_div(
; OFF-NOT: pasta.div.everytrip
; OFF: call void @__pasta_div_branch_body(
; OFF: ret void

; in = x < n; for (k = 0; k < steps; k++) { if (in && tid > k && k < hi)
;   acc += wall[k * cols + x]; __syncthreads(); }  (hi = 255 - tid)
define ptx_kernel void @interval(ptr addrspace(1) %wall, ptr addrspace(1) %out, i32 %cols, i32 %steps, i32 %n) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %b = shl nuw nsw i32 %bid, 8, !dbg !10
  %x = add nsw i32 %b, %tid, !dbg !10
  %in = icmp slt i32 %x, %n, !dbg !10
  %hi = sub nsw i32 255, %tid, !dbg !10
  %any = icmp sgt i32 %steps, 0, !dbg !10
  br i1 %any, label %loop, label %exit, !dbg !10

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !10
  %acc = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !10
  %gt = icmp ugt i32 %tid, %k, !dbg !10
  %a1 = and i1 %in, %gt, !dbg !10
  %lt = icmp slt i32 %k, %hi, !dbg !10
  %act = select i1 %a1, i1 %lt, i1 false, !dbg !10
  br i1 %act, label %body, label %latch, !dbg !10

body:
  %row = mul nsw i32 %k, %cols, !dbg !11
  %i = add nsw i32 %row, %x, !dbg !11
  %ie = sext i32 %i to i64, !dbg !11
  %wp = getelementptr inbounds i32, ptr addrspace(1) %wall, i64 %ie, !dbg !11
  %w = load i32, ptr addrspace(1) %wp, align 4, !dbg !11
  %s = add nsw i32 %acc, %w, !dbg !11
  br label %latch, !dbg !10

latch:
  %acc1 = phi i32 [ %s, %body ], [ %acc, %loop ], !dbg !10
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !10
  %k1 = add nuw nsw i32 %k, 1, !dbg !10
  %done = icmp eq i32 %k1, %steps, !dbg !10
  br i1 %done, label %exit, label %loop, !dbg !10

exit:
  %r = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !10
  %xe = sext i32 %x to i64, !dbg !12
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %xe, !dbg !12
  store i32 %r, ptr addrspace(1) %op, align 4, !dbg !12
  ret void, !dbg !12
}

; The same with `tid != k`.
define ptx_kernel void @equal(ptr addrspace(1) %wall, ptr addrspace(1) %out, i32 %cols, i32 %steps) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !13
  %b = shl nuw nsw i32 %bid, 8, !dbg !13
  %x = add nsw i32 %b, %tid, !dbg !13
  %any = icmp sgt i32 %steps, 0, !dbg !13
  br i1 %any, label %loop, label %exit, !dbg !13

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !13
  %acc = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !13
  %act = icmp ne i32 %tid, %k, !dbg !13
  br i1 %act, label %body, label %latch, !dbg !13

body:
  %row = mul nsw i32 %k, %cols, !dbg !14
  %i = add nsw i32 %row, %x, !dbg !14
  %ie = sext i32 %i to i64, !dbg !14
  %wp = getelementptr inbounds i32, ptr addrspace(1) %wall, i64 %ie, !dbg !14
  %w = load i32, ptr addrspace(1) %wp, align 4, !dbg !14
  %s = add nsw i32 %acc, %w, !dbg !14
  br label %latch, !dbg !13

latch:
  %acc1 = phi i32 [ %s, %body ], [ %acc, %loop ], !dbg !13
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !13
  %k1 = add nuw nsw i32 %k, 1, !dbg !13
  %done = icmp eq i32 %k1, %steps, !dbg !13
  br i1 %done, label %exit, label %loop, !dbg !13

exit:
  %r = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !13
  %xe = sext i32 %x to i64, !dbg !15
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %xe, !dbg !15
  store i32 %r, ptr addrspace(1) %op, align 4, !dbg !15
  ret void, !dbg !15
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "every-trip.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "interval", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "equal", scope: !1, file: !1, line: 8, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!13 = !DILocation(line: 9, scope: !6)
!14 = !DILocation(line: 10, scope: !6)
!15 = !DILocation(line: 11, scope: !6)
