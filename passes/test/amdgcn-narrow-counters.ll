; A loop block's counter in 32 bits on amdgcn (see nvptx-narrow-counters.ll):
; i below a signed 32-bit n fits, a 64-bit n does not.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; i from 0 to n (signed 32 bits, no wrap): at most 2^31 - 1 iterations.
; %neg runs on loaded data, in some of them.
; CHECK-LABEL: define amdgpu_kernel void @int_loop(
; CHECK: neg:
; CHECK-NOT: add i64
; CHECK: add i32 %{{.*}}, 1
; CHECK: latch:
; CHECK: %[[W:[0-9]+]] = zext i32 %pasta.count{{.*}} to i64
; CHECK-NEXT: call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: call i64 @__pasta_flush_is_fast(i64 %[[W]])
; CHECK: %[[F:[0-9]+]] = zext i32 %pasta.count{{.*}} to i64
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[F]])
; OFF-LABEL: define amdgpu_kernel void @int_loop(
; OFF: neg:
; OFF: add i64 %{{.*}}, 1
define amdgpu_kernel void @int_loop(ptr addrspace(1) %a, i32 %n) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  %v = load float, ptr addrspace(1) %p
  %c = fcmp olt float %v, 0.0
  br i1 %c, label %neg, label %latch
neg:
  store float 0.0, ptr addrspace(1) %p
  br label %latch
latch:
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}

; The same over a 64-bit bound: up to 2^63 iterations, 64 bits.
; CHECK-LABEL: define amdgpu_kernel void @long_loop(
; CHECK: neg:
; CHECK: add i64 %{{.*}}, 1
define amdgpu_kernel void @long_loop(ptr addrspace(1) %a, i64 %n) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p
  %c = fcmp olt float %v, 0.0
  br i1 %c, label %neg, label %latch
neg:
  store float 0.0, ptr addrspace(1) %p
  br label %latch
latch:
  %i.next = add nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}
