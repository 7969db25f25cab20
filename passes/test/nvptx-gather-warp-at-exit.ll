; A kernel whose one return every thread comes to gathers each warp's lanes
; there before the exit flush (CounterEmission.cpp, gathersWarpAtExit;
; device_rt.c, __pasta_gather_warp): lanes that leave a data-dependent loop
; apart reach a return in groups (ptxas sets no reconvergence before it),
; and each group flushed on its own, on the partial-warp path. Not where a
; thread may end elsewhere (a second return, an `exit`): a lane that never
; comes would be waited for. Not in a kernel that waits for other threads
; (a barrier, a warp operation, inline assembly): a `__syncthreads()` inside
; `if (i < n)` would wait for the lanes past n, gathered at the return
; (kmeans and a Huffman decoder hung so on an H200). Not in divergence builds (the return's warp
; executions are measured there as the lanes come). Off by default
; (-pasta-gather-warp-at-exit turns it on).
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-gather-warp-at-exit -S %s | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-gather-warp-at-exit -pasta-divergence -S %s 2>/dev/null | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @decode(
; CHECK: done:
; CHECK: call void @__pasta_gather_warp()
; CHECK: call {{.*}}@__pasta_flush
; CHECK: ret void
; OFF-NOT: __pasta_gather_warp
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
; CHECK-NOT: __pasta_gather_warp
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

; A thread may end at the `exit` before the return.
; CHECK-LABEL: define ptx_kernel void @ends(
; CHECK-NOT: __pasta_gather_warp
; CHECK: {{^}}}
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

; A barrier inside a bounds check, as kmeans' find_nearest_cluster has it.
; CHECK-LABEL: define ptx_kernel void @barrier_in_branch(
; CHECK-NOT: __pasta_gather_warp
; CHECK: {{^}}}
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

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #0
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { convergent nounwind }
