; A FullRow load (a global load of the thread's own element, aligned, at
; the lane stride of its size) is measured after the load where it is in
; a loop whose trips hold a block barrier
; (-pasta-div-fullrow-after-load=barrier-loops, the default): its full-row
; test and sectors then run while the load is in flight, at every trip of
; a loop whose warps wait for each other anyway (pathfinder's wall[] in
; its row loop). In a loop without a barrier (histogram's and kmeans'
; loops lost time by it) and outside loops it is measured before the load.
; =loops measures every loop's after, =1 all, =0 none.
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rare-apart=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rare-apart=0 -pasta-div-fullrow-after-load=loops -S %s | FileCheck %s --check-prefix=LOOPS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rare-apart=0 -pasta-div-fullrow-after-load=1 -S %s | FileCheck %s --check-prefix=ALWAYS
; RUN: %opt -passes=pasta-count -pasta-link-runtime=0 -pasta-divergence -pasta-div-rare-apart=0 -pasta-div-fullrow-after-load=0 -S %s | FileCheck %s --check-prefix=NEVER
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

; In the loop with a barrier: the load, then its full-row test.
; CHECK-LABEL: define ptx_kernel void @rows__pasta_div(
; CHECK: body:
; CHECK-NOT: call i32 @__pasta_div_full_row(
; CHECK: %w = load i32, ptr addrspace(1) %wp, align 4
; CHECK-NEXT: call i32 @__pasta_div_full_row(
; CHECK: ret void
; In the loop without one, and outside loops: the test, then the load.
; CHECK-LABEL: define ptx_kernel void @free__pasta_div(
; CHECK: body:
; CHECK: call i32 @__pasta_div_full_row(
; CHECK: %w = load i32, ptr addrspace(1) %wp, align 4
; CHECK: ret void
; CHECK-LABEL: define ptx_kernel void @once__pasta_div(
; CHECK: call i32 @__pasta_div_full_row(
; CHECK: %w = load i32, ptr addrspace(1) %wp, align 4
; CHECK: ret void

; LOOPS-LABEL: define ptx_kernel void @rows__pasta_div(
; LOOPS: %w = load i32, ptr addrspace(1) %wp, align 4
; LOOPS-NEXT: call i32 @__pasta_div_full_row(
; LOOPS-LABEL: define ptx_kernel void @free__pasta_div(
; LOOPS: body:
; LOOPS-NOT: call i32 @__pasta_div_full_row(
; LOOPS: %w = load i32, ptr addrspace(1) %wp, align 4
; LOOPS-NEXT: call i32 @__pasta_div_full_row(
; LOOPS-LABEL: define ptx_kernel void @once__pasta_div(
; LOOPS: call i32 @__pasta_div_full_row(
; LOOPS: %w = load i32, ptr addrspace(1) %wp, align 4

; ALWAYS-LABEL: define ptx_kernel void @rows__pasta_div(
; ALWAYS: %w = load i32, ptr addrspace(1) %wp, align 4
; ALWAYS-NEXT: call i32 @__pasta_div_full_row(
; ALWAYS-LABEL: define ptx_kernel void @free__pasta_div(
; ALWAYS: %w = load i32, ptr addrspace(1) %wp, align 4
; ALWAYS-NEXT: call i32 @__pasta_div_full_row(
; ALWAYS-LABEL: define ptx_kernel void @once__pasta_div(
; ALWAYS-NOT: call i32 @__pasta_div_full_row(
; ALWAYS: %w = load i32, ptr addrspace(1) %wp, align 4
; ALWAYS-NEXT: call i32 @__pasta_div_full_row(

; NEVER-LABEL: define ptx_kernel void @rows__pasta_div(
; NEVER: body:
; NEVER: call i32 @__pasta_div_full_row(
; NEVER: %w = load i32, ptr addrspace(1) %wp, align 4
; NEVER-LABEL: define ptx_kernel void @free__pasta_div(
; NEVER: body:
; NEVER: call i32 @__pasta_div_full_row(
; NEVER: %w = load i32, ptr addrspace(1) %wp, align 4
; NEVER-LABEL: define ptx_kernel void @once__pasta_div(
; NEVER: call i32 @__pasta_div_full_row(
; NEVER: %w = load i32, ptr addrspace(1) %wp, align 4

; for (k = 0; k < steps; k++) { if (tid > k) acc += wall[k * cols + x];
;                               __syncthreads(); }
define ptx_kernel void @rows(ptr addrspace(1) %wall, ptr addrspace(1) %out, i32 %cols, i32 %steps) !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %b = shl nuw nsw i32 %bid, 8, !dbg !10
  %x = add nsw i32 %b, %tid, !dbg !10
  %any = icmp sgt i32 %steps, 0, !dbg !10
  br i1 %any, label %loop, label %exit, !dbg !10

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !10
  %acc = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !10
  %act = icmp ugt i32 %tid, %k, !dbg !10
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

; The same loop without the barrier.
define ptx_kernel void @free(ptr addrspace(1) %wall, ptr addrspace(1) %out, i32 %cols, i32 %steps) !dbg !7 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !14
  %b = shl nuw nsw i32 %bid, 8, !dbg !14
  %x = add nsw i32 %b, %tid, !dbg !14
  %any = icmp sgt i32 %steps, 0, !dbg !14
  br i1 %any, label %loop, label %exit, !dbg !14

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ], !dbg !14
  %acc = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !14
  %act = icmp ugt i32 %tid, %k, !dbg !14
  br i1 %act, label %body, label %latch, !dbg !14

body:
  %row = mul nsw i32 %k, %cols, !dbg !15
  %i = add nsw i32 %row, %x, !dbg !15
  %ie = sext i32 %i to i64, !dbg !15
  %wp = getelementptr inbounds i32, ptr addrspace(1) %wall, i64 %ie, !dbg !15
  %w = load i32, ptr addrspace(1) %wp, align 4, !dbg !15
  %s = add nsw i32 %acc, %w, !dbg !15
  br label %latch, !dbg !14

latch:
  %acc1 = phi i32 [ %s, %body ], [ %acc, %loop ], !dbg !14
  %k1 = add nuw nsw i32 %k, 1, !dbg !14
  %done = icmp eq i32 %k1, %steps, !dbg !14
  br i1 %done, label %exit, label %loop, !dbg !14

exit:
  %r = phi i32 [ 0, %entry ], [ %acc1, %latch ], !dbg !14
  %xe = sext i32 %x to i64, !dbg !16
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %xe, !dbg !16
  store i32 %r, ptr addrspace(1) %op, align 4, !dbg !16
  ret void, !dbg !16
}

; out[x] = wall[x] + 1;
define ptx_kernel void @once(ptr addrspace(1) %wall, ptr addrspace(1) %out) !dbg !6 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !13
  %b = shl nuw nsw i32 %bid, 8, !dbg !13
  %x = add nsw i32 %b, %tid, !dbg !13
  %xe = sext i32 %x to i64, !dbg !13
  %wp = getelementptr inbounds i32, ptr addrspace(1) %wall, i64 %xe, !dbg !13
  %w = load i32, ptr addrspace(1) %wp, align 4, !dbg !13
  %v = add nsw i32 %w, 1, !dbg !13
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %xe, !dbg !13
  store i32 %v, ptr addrspace(1) %op, align 4, !dbg !13
  ret void, !dbg !13
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "after.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "rows", scope: !1, file: !1, line: 2, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!6 = distinct !DISubprogram(name: "once", scope: !1, file: !1, line: 8, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 3, scope: !5)
!11 = !DILocation(line: 4, scope: !5)
!12 = !DILocation(line: 5, scope: !5)
!7 = distinct !DISubprogram(name: "free", scope: !1, file: !1, line: 12, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!13 = !DILocation(line: 9, scope: !6)
!14 = !DILocation(line: 13, scope: !7)
!15 = !DILocation(line: 14, scope: !7)
!16 = !DILocation(line: 15, scope: !7)
