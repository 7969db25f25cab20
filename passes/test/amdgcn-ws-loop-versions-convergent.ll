; Loop versioning in working-set copies (-pasta-ws-loop-min-trips=8) leaves
; a loop with a convergent operation alone: the count may differ between
; the lanes of a wave (here tid & 15), and versioning would run an AMD
; ballot in two groups of lanes (each iteration's ballot would count the
; lanes of its copy only: the program's result changes). The loop keeps
; its marks under the run-time test instead (no copy of the ballot).
; RUN: %opt -passes=pasta-count -pasta-ws-loop-min-trips=8 -pasta-link-runtime=0 -S %s | FileCheck %s
; CHECK-LABEL: define amdgpu_kernel void @conv__pasta_ws(
; CHECK-NOT: loop.short:
; CHECK: pasta.ws.loop.short
; CHECK-NOT: loop.short:
; CHECK: ret void
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)

define amdgpu_kernel void @conv(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %n = and i32 %t, 15
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %a, i32 %i
  %v = load i32, ptr addrspace(1) %p
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  %v64 = zext i32 %v to i64
  %w = mul i64 %v64, %b
  %s.next = add i64 %s, %w
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %q = getelementptr inbounds i64, ptr addrspace(1) %out, i32 %t
  store i64 %r, ptr addrspace(1) %q
  ret void
}
