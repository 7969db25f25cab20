; A loop block's counter stays in 32 bits where scalar evolution bounds
; its runs per call below 2^32 (CounterEmission.cpp, narrowCounters): the
; product over its loop nest of each loop's maximum trip count. It goes
; out zero-extended. A loop over a 64-bit bound, a nest whose bounds
; multiply past 2^32, the divergence build and -pasta-narrow-counters=0
; keep 64 bits.
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck %s
; RUN: %opt -passes=pasta-count -pasta-narrow-counters=0 -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s
; RUN: %opt -passes=pasta-count -pasta-variants=0 -pasta-link-runtime=0 -pasta-callee-counts=0 -pasta-divergence -S %s 2>/dev/null | FileCheck --check-prefix=OFF %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; i from 0 to n (signed 32 bits, no wrap): at most 2^31 - 1 iterations.
; %neg runs on loaded data, in some of them.
; CHECK-LABEL: define ptx_kernel void @int_loop(
; CHECK: neg:
; CHECK-NOT: add i64
; CHECK: add i32 %{{.*}}, 1
; CHECK: latch:
; CHECK: %[[W:[0-9]+]] = zext i32 %pasta.count{{.*}} to i64
; CHECK-NEXT: call ptr addrspace(1) @__pasta_bank_row(
; CHECK-NEXT: call i64 @__pasta_flush_is_fast(i64 %[[W]])
; CHECK: %[[F:[0-9]+]] = zext i32 %pasta.count{{.*}} to i64
; CHECK-NEXT: call void @__pasta_flush_counter_fast(ptr addrspace(1) %{{[0-9]+}}, i64 %[[F]])
; OFF-LABEL: define ptx_kernel void @int_loop(
; OFF: neg:
; OFF: add i64 %{{.*}}, 1
define ptx_kernel void @int_loop(ptr %a, i32 %n) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr float, ptr %a, i32 %i
  %v = load float, ptr %p
  %c = fcmp olt float %v, 0.0
  br i1 %c, label %neg, label %latch
neg:
  store float 0.0, ptr %p
  br label %latch
latch:
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}

; The same over a 64-bit bound: up to 2^63 iterations, 64 bits.
; CHECK-LABEL: define ptx_kernel void @long_loop(
; CHECK: neg:
; CHECK: add i64 %{{.*}}, 1
define ptx_kernel void @long_loop(ptr %a, i64 %n) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %body, label %done
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr float, ptr %a, i64 %i
  %v = load float, ptr %p
  %c = fcmp olt float %v, 0.0
  br i1 %c, label %neg, label %latch
neg:
  store float 0.0, ptr %p
  br label %latch
latch:
  %i.next = add nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %body, label %done
done:
  ret void
}

; Nests: 2^16 outer iterations of 2^15 inner ones (2^31 runs) stay 32-bit;
; 2^16 of 2^16 (2^32 runs, one more than fits) do not.
; CHECK-LABEL: define ptx_kernel void @nest_fits(
; CHECK: neg:
; CHECK-NOT: add i64
; CHECK: add i32 %{{.*}}, 1
; CHECK-LABEL: define ptx_kernel void @nest_too_big(
; CHECK: neg:
; CHECK: add i64 %{{.*}}, 1
define ptx_kernel void @nest_fits(ptr %a) {
entry:
  br label %outer
outer:
  %o = phi i32 [ 0, %entry ], [ %o.next, %olatch ]
  br label %body
body:
  %i = phi i32 [ 0, %outer ], [ %i.next, %latch ]
  %x = add i32 %o, %i
  %p = getelementptr float, ptr %a, i32 %x
  %v = load float, ptr %p
  %c = fcmp olt float %v, 0.0
  br i1 %c, label %neg, label %latch
neg:
  store float 0.0, ptr %p
  br label %latch
latch:
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %i.next, 32768
  br i1 %more, label %body, label %olatch
olatch:
  %o.next = add nuw nsw i32 %o, 1
  %omore = icmp ult i32 %o.next, 65536
  br i1 %omore, label %outer, label %done
done:
  ret void
}

define ptx_kernel void @nest_too_big(ptr %a) {
entry:
  br label %outer
outer:
  %o = phi i32 [ 0, %entry ], [ %o.next, %olatch ]
  br label %body
body:
  %i = phi i32 [ 0, %outer ], [ %i.next, %latch ]
  %x = add i32 %o, %i
  %p = getelementptr float, ptr %a, i32 %x
  %v = load float, ptr %p
  %c = fcmp olt float %v, 0.0
  br i1 %c, label %neg, label %latch
neg:
  store float 0.0, ptr %p
  br label %latch
latch:
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %i.next, 65536
  br i1 %more, label %body, label %olatch
olatch:
  %o.next = add nuw nsw i32 %o, 1
  %omore = icmp ult i32 %o.next, 65536
  br i1 %omore, label %outer, label %done
done:
  ret void
}
