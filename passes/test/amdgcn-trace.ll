; Trace mode for amdgcn, with the device runtime linked and inlined: the
; trace copy takes the launch's struct pasta_trace_launch, keeps its masks
; in registers (no private memory is left), claims a record with one atomic
; on the launch's head, stamps it with the constant 100 MHz clock
; (llvm.readsteadycounter: s_memrealtime on gfx9) in ns, and tests 64-wide
; wavefront lane masks. Compiled only: there is no AMD GPU here.
; RUN: %opt -passes=pasta-count -pasta-trace -S %s | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; The trip count depends on the block index, so the loop's count is
; flushed by every warp (not by the first thread block alone).
define amdgpu_kernel void @k(ptr addrspace(1) %a, i32 %m) "target-cpu"="gfx90a" {
entry:
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %n = add i32 %m, %wg
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  store float 0.0, ptr addrspace(1) %p
  %i.next = add i32 %i, 1
  %done = icmp sge i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; CHECK-LABEL: define amdgpu_kernel void @k(
; CHECK-NOT: readsteadycounter
; CHECK: ret void

; CHECK-LABEL: define amdgpu_kernel void @k__pasta_trace(ptr addrspace(1) %a, i32 %m, ptr addrspace(1) %pasta.trace)
; CHECK-NOT: alloca
; CHECK-NOT: call void @__pasta_trace_event
; CHECK: call i64 @llvm.amdgcn.ballot.i64
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i64 1 syncscope("agent") monotonic
; CHECK: [[TICKS:%[0-9a-z.]+]] = call i64 @llvm.readsteadycounter()
; CHECK-NEXT: mul i64 [[TICKS]], 10
; CHECK: ret void

declare i32 @llvm.amdgcn.workgroup.id.x()
