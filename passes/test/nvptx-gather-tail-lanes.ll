; A kernel's lanes that entered its wait-free tail together wait for each
; other at its return before the exit flush (ExitGather.h;
; CounterEmission.cpp, gatherTailLanes; device_rt.c, __pasta_gather_lanes):
; lanes that leave a data-dependent loop apart reach a return in groups
; (ptxas sets no reconvergence before it), and each group flushed on its
; own, on the partial-warp path. The tail is what comes after the last
; thing a lane may wait at (a barrier, a warp operation, inline assembly, a
; spin on memory, an unknown call, an `exit`), in the kernel or what it
; calls; the lanes' mask is read on each edge into it, once per thread. A
; `__syncthreads()` inside `if (i < n)` (kmeans, a Huffman decoder) keeps
; the lanes past n apart from the others: gathered with them, they waited
; for lanes that waited at the barrier for them, and both programs hung on
; an H200. Not with two returns, not in divergence builds (the return's
; warp executions are measured there as the lanes come), not with
; -pasta-gather-warp-at-exit=0.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-gather-warp-at-exit=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-divergence -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF
; OFF-NOT: __pasta_gather_lanes
; OFF-NOT: __pasta_tail_lanes

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Nothing waits: the lanes of the launch, read at entry.
; CHECK-LABEL: define ptx_kernel void @decode(
; CHECK: entry:
; CHECK: %[[LANES:.*]] = call i32 @__pasta_tail_lanes()
; CHECK: done:
; CHECK: call void @__pasta_gather_lanes(i32 %[[LANES]])
; CHECK: call {{.*}}@__pasta_bank_row(
; CHECK: ret void
define ptx_kernel void @decode(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %n = load i32, ptr addrspace(1) %p
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  br label %loop
done:
  ret void
}

; Two returns: a lane that takes one never comes to the other.
; CHECK-LABEL: define ptx_kernel void @two_returns(
; CHECK-NOT: __pasta_gather_lanes
; CHECK: {{^}}}
define ptx_kernel void @two_returns(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %n = load i32, ptr addrspace(1) %p
  %zero = icmp eq i32 %n, 0
  br i1 %zero, label %early, label %loop
early:
  store i32 0, ptr addrspace(1) %out
  ret void
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A thread may end at the `exit`: the lanes that go on to `work` are read
; on the way there, apart from those that end.
; CHECK-LABEL: define ptx_kernel void @ends(
; CHECK: entry:
; CHECK-NOT: __pasta_tail_lanes
; CHECK: br i1
; CHECK: entry.work_crit_edge:
; CHECK-NEXT: call i32 @__pasta_tail_lanes()
; CHECK: call void asm sideeffect "exit;"
; CHECK-NEXT: call i32 @__pasta_tail_lanes()
; CHECK: work:
; CHECK: phi i32
; CHECK: call void @__pasta_gather_lanes(
; CHECK: ret void
define ptx_kernel void @ends(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %n = load i32, ptr addrspace(1) %p
  %zero = icmp eq i32 %n, 0
  br i1 %zero, label %finish, label %work
finish:
  call void asm sideeffect "exit;", ""()
  br label %work
work:
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %n
  store i32 %t, ptr addrspace(1) %q
  ret void
}

; A barrier inside a bounds check, as kmeans' find_nearest_cluster has it:
; the lanes past n are read on their way to the return, the others after
; the barrier (once, before its block's branch, as every way from there
; leads into the tail); each group waits for its own.
; CHECK-LABEL: define ptx_kernel void @barrier_in_branch(
; CHECK: entry:
; CHECK-NOT: __pasta_tail_lanes
; CHECK: br i1 %inside
; CHECK: entry.done_crit_edge:
; CHECK-NEXT: %[[PAST:.*]] = call i32 @__pasta_tail_lanes()
; CHECK: sync:
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: %[[AFTER:.*]] = call i32 @__pasta_tail_lanes()
; CHECK: done:
; CHECK: phi i32 [ %[[AFTER]], %sync ], [ %[[PAST]], %entry.done_crit_edge ]
; CHECK: call void @__pasta_gather_lanes(
; CHECK: ret void
define ptx_kernel void @barrier_in_branch(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %inside = icmp slt i32 %t, %n
  br i1 %inside, label %work, label %done
work:
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %m = load i32, ptr addrspace(1) %p
  br label %loop
loop:
  %i = phi i32 [ 0, %work ], [ %i.next, %loop ]
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %m
  br i1 %more, label %loop, label %sync
sync:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %done
done:
  ret void
}

; The decoder's shape: a barrier, then the data-dependent loop behind its
; guard. The lanes are read once, after the barrier and before the guard
; (both its ways lead into the tail), not in the loop.
; CHECK-LABEL: define ptx_kernel void @barrier_then_loop(
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: %[[LANES:.*]] = call i32 @__pasta_tail_lanes()
; CHECK-NEXT: br i1 %any
; CHECK: loop:
; CHECK-NOT: __pasta_tail_lanes
; CHECK: done:
; CHECK: call void @__pasta_gather_lanes(i32 %[[LANES]])
define ptx_kernel void @barrier_then_loop(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %n = load i32, ptr addrspace(1) %p
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A barrier in a device function called in the return's block (every CUDA
; function is convergent: its body tells): no tail, no gather.
; CHECK-LABEL: define ptx_kernel void @calls_barrier(
; CHECK-NOT: __pasta_gather_lanes
; CHECK: {{^}}}
define ptx_kernel void @calls_barrier(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %n = load i32, ptr addrspace(1) %p
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  call void @sync_helper() #0
  ret void
}

define internal void @sync_helper() #0 {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

; A loop that calls a function reading a flag another thread sets (a spin):
; the lanes are read when they leave it, not at entry.
; CHECK-LABEL: define ptx_kernel void @spins_in_callee(
; CHECK: entry:
; CHECK-NOT: __pasta_tail_lanes
; CHECK: spin:
; CHECK-NOT: __pasta_tail_lanes
; CHECK: br i1
; CHECK: call i32 @__pasta_tail_lanes()
; CHECK: call void @__pasta_gather_lanes(
define ptx_kernel void @spins_in_callee(ptr addrspace(1) %flag, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %spin
spin:
  %v = call i32 @read_flag(ptr addrspace(1) %flag) #0
  %unset = icmp eq i32 %v, 0
  br i1 %unset, label %spin, label %done
done:
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %t, ptr addrspace(1) %q
  ret void
}

define internal i32 @read_flag(ptr addrspace(1) %flag) #0 {
  %v = load volatile i32, ptr addrspace(1) %flag
  ret i32 %v
}

; A function declared only (its body in another file) may wait or end the
; thread: no tail where it is called in the return's block.
; CHECK-LABEL: define ptx_kernel void @calls_unknown(
; CHECK-NOT: __pasta_gather_lanes
; CHECK: {{^}}}
define ptx_kernel void @calls_unknown(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %n = load i32, ptr addrspace(1) %p
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %q
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  call void @elsewhere() #0
  ret void
}

declare void @elsewhere() #0
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #0
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { convergent nounwind }
