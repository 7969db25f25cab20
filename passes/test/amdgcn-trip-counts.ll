; Trip counts added at a loop's exit on amdgcn (see nvptx-trip-counts.ll).
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; m = n + workgroup index iterations: %body's count is added at %after.
; CHECK-LABEL: define amdgpu_kernel void @counted(
; CHECK: body:
; CHECK-NOT: add i64
; CHECK: br i1 %end, label %after, label %body
; CHECK: after:
; CHECK: %[[T:[0-9]+]] = add nuw nsw i64 %{{[0-9]+}}, 1
; CHECK-NEXT: %[[N:[0-9]+]] = add i64 0, %[[T]]
; CHECK: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[N]])
define amdgpu_kernel void @counted(ptr addrspace(1) %a, i32 %n) {
entry:
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %m = add i32 %n, %b
  %go = icmp sgt i32 %m, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  store float 1.0, ptr addrspace(1) %p
  %i.next = add nuw nsw i32 %i, 1
  %end = icmp eq i32 %i.next, %m
  br i1 %end, label %after, label %body
after:
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
