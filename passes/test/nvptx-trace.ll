; Trace mode (PASTA_TRACE=1, here -pasta-trace) on a kernel with a
; conditional holding a loop: the scope table (the kernel is the parallel
; scope 0, the `if` a conditional, the loop inside it), the store's access
; row (stride-1 on parameter 0, innermost scope the loop), and the trace copy
; k__pasta_trace, which takes the launch's struct pasta_trace_launch and
; reports every entry and exit: the module's scope index (exits with bit 31
; set), the loop's trip count at its exit, and a mask bit per scope for
; de-duplication. The counting kernel itself gets no events.
; RUN: %opt -passes=pasta-count -pasta-trace -pasta-print-sites -pasta-link-runtime=0 -S %s 2>%t.sites | FileCheck %s
; RUN: FileCheck --check-prefix=SITES %s < %t.sites

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; SITES: pasta: scope 0 parallel parent=none line=0:0 depth=0 func=k
; SITES-NEXT: pasta: scope 1 conditional parent=0 line=0:0 depth=0 func=k
; SITES-NEXT: pasta: scope 2 loop parent=1 line=0:0 depth=1 func=k
; SITES-NEXT: pasta: access site=0 scope=2 w stride-1 stride=1 param=0 bytes=4 line=0

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: __pasta_trace_event
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @k__pasta_trace(ptr addrspace(1) %a, i32 %n, ptr addrspace(1) %pasta.trace)
; Entries and exits keep separate masks (each starts at 0).
; CHECK: %pasta.trace.seen = alloca i64
; CHECK: %pasta.trace.seen1 = alloca i64
; CHECK: %pasta.trace.sampled = call i32 @__pasta_trace_sampled(ptr addrspace(1) %pasta.trace)
; The kernel's entry, then the conditional's, before its branch.
; CHECK: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 0, i32 0, ptr %pasta.trace.seen, i64 1)
; CHECK: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 1, i32 0, ptr %pasta.trace.seen, i64 2)
; CHECK-NEXT: br i1 %c, label %then, label %[[CRIT:.*]]
; The branch's direct edge into the merge block closes it (0x80000001).
; CHECK: [[CRIT]]:
; CHECK-NEXT: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 -2147483647, i32 0, ptr %pasta.trace.seen1, i64 2)
; CHECK-NEXT: br label %merge
; The loop is entered on the edge into its header.
; CHECK: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 2, i32 0, ptr %pasta.trace.seen, i64 4)
; CHECK-NEXT: br label %loop
; Each completed iteration (the latch ran) adds one trip.
; CHECK: loop:
; CHECK: %pasta.trips.0 = phi i32 [ 0, %{{.*}} ], [ [[TRIPS:%[a-z0-9.]+]], %loop ]
; CHECK: [[TRIPS]] = add i32 %pasta.trips.0, 1
; Left on its exit edge with the trips (0x80000002), then the conditional
; closes on the other edge into its merge block, and the kernel before its
; return (0x80000000).
; CHECK: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 -2147483646, i32 [[TRIPS]], ptr %pasta.trace.seen1, i64 4)
; CHECK: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 -2147483647, i32 0, ptr %pasta.trace.seen1, i64 2)
; CHECK-NEXT: br label %merge
; CHECK: call void @__pasta_trace_event(ptr addrspace(1) %pasta.trace, i32 %pasta.trace.sampled, i32 -2147483648, i32 0, ptr %pasta.trace.seen1, i64 1)
; CHECK-NEXT: ret void

define ptx_kernel void @k(ptr addrspace(1) %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %then, label %merge

then:
  br label %loop

loop:
  %i = phi i32 [ 0, %then ], [ %i.next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  store float 0.0, ptr addrspace(1) %p
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  br label %merge

merge:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
